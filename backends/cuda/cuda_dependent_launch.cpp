#include "backends/cuda/cuda_dependent_launch.h"

#include "loom/compiler/nvptx_launch_abi.h"

namespace loom::backends::cuda {

namespace {
constexpr std::string_view kEntry = ".entry ";
constexpr std::string_view kWait = "griddepcontrol.wait;";
// The header LLVM 15's NVPTX target writes for the compiler's processor and features, and what
// griddepcontrol needs.
constexpr std::string_view kCompilerVersion = "\n.version 7.5\n", kRaisedVersion = "\n.version 7.8\n";
constexpr std::string_view kCompilerTarget = "\n.target sm_80\n", kRaisedTarget = "\n.target sm_90\n";

bool everyEntryHasTheMarker(std::string_view ptx) {
  const std::string_view marker = compiler::nvptx::kGridDependencyWaitMarker;
  for (size_t entry = ptx.find(kEntry); entry != std::string_view::npos;) {
    const size_t next = ptx.find(kEntry, entry + kEntry.size());
    const size_t wait = ptx.find(marker, entry);
    if (wait == std::string_view::npos || wait > next) return false;
    entry = next;
  }
  return true;
}

bool replaceFirst(std::string& text, std::string_view from, std::string_view to) {
  const size_t at = text.find(from);
  if (at == std::string::npos) return false;
  text.replace(at, from.size(), to);
  return true;
}
}  // namespace

std::optional<std::string> ptxWaitingForGridDependencies(std::string_view ptx) {
  if (!everyEntryHasTheMarker(ptx)) return std::nullopt;
  std::string text(ptx);
  if (!replaceFirst(text, kCompilerVersion, kRaisedVersion) || !replaceFirst(text, kCompilerTarget, kRaisedTarget))
    return std::nullopt;
  const std::string_view marker = compiler::nvptx::kGridDependencyWaitMarker;
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + kWait.size()))
    text.replace(at, marker.size(), kWait);
  return text;
}

}  // namespace loom::backends::cuda
