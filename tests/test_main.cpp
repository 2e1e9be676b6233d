// The test binaries' main. gtest's threadsafe death tests (and EXPECT_PASSES_IN_A_CHILD_PROCESS)
// run a test again in a child by executing argv[0], which names no file when the binary was
// started through PATH, as the bundle's env.sh lets one start it: the binary's own path takes
// argv[0]'s place.
#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>

int main(int argc, char** argv) {
  static char self[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length > 0 && argc > 0) {
    self[length] = '\0';
    argv[0] = self;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
