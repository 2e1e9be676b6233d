#pragma once
// Runs a test's statements in a child process, for cases that may crash: the child is a new
// process that runs only this test (gtest's threadsafe death tests re-execute the binary, fixture
// set-up included), so the driver starts there as it would in an application.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

namespace loom::test {

// Runs `body` and ends the process: status 0 when every expectation passed.
template <typename Body>
[[noreturn]] void runAndExit(Body&& body) {
  body();
  std::fflush(nullptr);
  _exit(::testing::Test::HasFailure() ? 1 : 0);
}

}  // namespace loom::test

// Passes when every expectation of the statements passed in the child, and the child lived to
// say so.
#define EXPECT_PASSES_IN_A_CHILD_PROCESS(...)                                                 \
  do {                                                                                        \
    GTEST_FLAG_SET(death_test_style, "threadsafe");                                           \
    auto childBody = [&] { __VA_ARGS__; };                                                    \
    EXPECT_EXIT(::loom::test::runAndExit(childBody), ::testing::ExitedWithCode(0), "");       \
  } while (0)
