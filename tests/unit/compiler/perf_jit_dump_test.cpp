// LOOM_EnablePerfJitDump: the JIT records each kernel it loads, by name and with its code, in a
// jitdump file that perf reads (perf inject --jit).
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "../../child_process.h"
#include "kernel_runner.h"
#include "loom/compiler/opencl_c.h"

namespace loom::compiler::test {
namespace {

// The contents of the first file named `name` under `folder`, searched at any depth; empty when
// there is none.
std::string contentsOfFileNamed(const std::filesystem::path& folder, const std::string& name) {
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().filename() == name) {
      std::ifstream file(entry.path(), std::ios::binary);
      return std::string(std::istreambuf_iterator<char>(file), {});
    }
  return {};
}

TEST(PerfJitDump, NamesTheLoadedKernelsInAJitdumpUnderJitdumpdir) {
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    char pattern[] = "/tmp/loom-jitdump-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    const std::filesystem::path folder(pattern);
    // Read when the process's JIT starts: this child has none yet.
    setenv("LOOM_EnablePerfJitDump", "1", 1);
    setenv("JITDUMPDIR", folder.c_str(), 1);
    auto executable = load(compileOpenClSource({"kernel void recorded(global int* out) { out[0] = 7; }", "", {}}));
    ASSERT_NE(executable, nullptr);
    std::string log;
    ASSERT_NE(executable->kernel("recorded", log), nullptr) << log;
    const std::string dump = contentsOfFileNamed(folder, "jit-" + std::to_string(getpid()) + ".dump");
    std::filesystem::remove_all(folder);
    ASSERT_FALSE(dump.empty()) << "no jitdump under " << folder;
    // The header's magic ("JiTD" as a little-endian word), then a record naming the kernel.
    EXPECT_EQ(dump.substr(0, 4), "DTiJ");
    EXPECT_NE(dump.find("__loom_wg_recorded"), std::string::npos);
  });
}

}  // namespace
}  // namespace loom::compiler::test
