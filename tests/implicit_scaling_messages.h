#pragma once
// What Loom's debug messages (LOOM_PrintDebugMessages=1, printed to stderr) say of implicit
// scaling, for the API tests of a root device over tiles: they show that work really was divided.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

namespace loom::test {

// The messages printed while `run` runs.
inline std::string debugMessagesOf(const std::function<void()>& run) {
  ::testing::internal::CaptureStderr();
  run();
  return ::testing::internal::GetCapturedStderr();
}

// True when the messages say that a launch of `kernelName` was split and every one of `tiles`
// tiles ran some of its groups ("... split along x: tile 0: 4, tile 1: 3").
inline bool splitAmongAllTiles(const std::string& messages, const std::string& kernelName, uint32_t tiles) {
  const size_t launch = messages.find("kernel " + kernelName + " (");
  if (launch == std::string::npos) return false;
  const size_t end = messages.find('\n', launch);
  const std::string line = messages.substr(launch, end == std::string::npos ? std::string::npos : end - launch);
  if (line.find("split along") == std::string::npos) return false;
  for (uint32_t tile = 0; tile < tiles; ++tile) {
    const std::string part = "tile " + std::to_string(tile) + ": ";
    const size_t at = line.find(part);
    if (at == std::string::npos || line.compare(at + part.size(), 1, "0") == 0) return false;
  }
  return true;
}

}  // namespace loom::test
