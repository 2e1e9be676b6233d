#include "loom/core/debug_keys.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace loom::core {
namespace {

TEST(DebugKeys, ReadsTypedValuesFromTheEnvironment) {
  setenv("LOOM_PrintCommandStream", "1", 1);
  setenv("LOOM_CpuSubDevices", "3", 1);
  setenv("LOOM_ForceBackend", "cpu", 1);
  DebugKeys keys;
  EXPECT_TRUE(keys.PrintCommandStream);
  EXPECT_EQ(keys.CpuSubDevices, 3);
  EXPECT_EQ(keys.ForceBackend, "cpu");
  unsetenv("LOOM_PrintCommandStream");
  unsetenv("LOOM_CpuSubDevices");
  unsetenv("LOOM_ForceBackend");
}

TEST(DebugKeys, MalformedValuesKeepTheDefault) {
  setenv("LOOM_CpuSubDevices", "three", 1);
  setenv("LOOM_PrintCommandStream", "maybe", 1);
  DebugKeys keys;
  EXPECT_EQ(keys.CpuSubDevices, 0);
  EXPECT_FALSE(keys.PrintCommandStream);
  unsetenv("LOOM_CpuSubDevices");
  unsetenv("LOOM_PrintCommandStream");
}

TEST(DebugKeys, ListShowsEveryKeyWithDefaultAndCurrentValue) {
  setenv("LOOM_CpuWorkerThreads", "5", 1);
  DebugKeys keys;
  unsetenv("LOOM_CpuWorkerThreads");
  bool found = false;
  for (const auto& key : keys.list()) {
    EXPECT_NE(std::string(key.description), "");
    if (std::string(key.name) != "CpuWorkerThreads") continue;
    found = true;
    EXPECT_EQ(key.defaultValue, "0");
    EXPECT_EQ(key.currentValue, "5");
  }
  EXPECT_TRUE(found);
}

// readDebugKey reads the environment at each call, with the same rules as DebugKeys.
TEST(DebugKeys, ReadDebugKeySeesTheEnvironmentAsItIsNow) {
  bool dump = true;
  unsetenv("LOOM_DumpKernelIr");
  EXPECT_FALSE(readDebugKey("DumpKernelIr", dump));
  EXPECT_TRUE(dump) << "an unset key leaves the value";
  setenv("LOOM_DumpKernelIr", "false", 1);
  EXPECT_TRUE(readDebugKey("DumpKernelIr", dump));
  EXPECT_FALSE(dump);
  setenv("LOOM_DumpKernelIr", "1", 1);
  EXPECT_TRUE(readDebugKey("DumpKernelIr", dump));
  EXPECT_TRUE(dump);
  unsetenv("LOOM_DumpKernelIr");
  std::string path;
  setenv("LOOM_LibdevicePath", "/opt/libdevice.bc", 1);
  EXPECT_TRUE(readDebugKey("LibdevicePath", path));
  EXPECT_EQ(path, "/opt/libdevice.bc");
  unsetenv("LOOM_LibdevicePath");
}

}  // namespace
}  // namespace loom::core
