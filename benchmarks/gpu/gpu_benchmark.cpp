// gpu_benchmark: Loom on an NVIDIA GPU next to NVIDIA's own OpenCL and native CUDA, in one run
// (issue "NVIDIA GPUs"). Prints, side by side: a memory-bound triad on Loom through Level Zero and
// through OpenCL, on NVIDIA's OpenCL and in native CUDA; a tiled SGEMM from the same OpenCL C
// on Loom and NVIDIA's OpenCL; the cost of launching an empty kernel on a Level Zero immediate
// list and with cuLaunchKernel; copy bandwidth host-to-device, device-to-host and
// device-to-device next to cuMemcpy; a gather from a table that fits the persisting L2 while a
// stream passes through, with and without the table reserved there (Level Zero's cache
// reservation, CUDA's access-policy window). Every result is checked; nothing asserts on time.
// Each platform is measured in a child process of its own.
//
// Needs ZE_ENABLE_ALT_DRIVERS pointing at libze_loom and OCL_ICD_VENDORS listing both loom.icd
// and NVIDIA's .icd (scripts/device-run.sh sets both); Loom lists the GPUs by default.
#include "gpu/figure_table.h"
#include "gpu/gpu_peers.h"
#include "gpu/own_process.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace loom::benchmarks {
namespace {

constexpr size_t kTriadFloats = size_t(64) << 20;  // 768 MiB moved per triad
constexpr uint32_t kSgemmSize = 2048;
constexpr uint32_t kLaunches = 20000;
constexpr size_t kCopyBytes = size_t(256) << 20;

int run() {
  const Sizes sizes{kTriadFloats, kSgemmSize, kLaunches, kCopyBytes};
  std::printf("gpu_benchmark: triad %zu floats, SGEMM %u, %u launches, copies of %zu MiB\n", sizes.triadFloats,
              sizes.sgemmSize, sizes.launches, sizes.copyBytes >> 20);
  const auto ze = inOwnProcess<StreamFigures>("Loom-L0", [&] { return measureLevelZero(sizes); });
  const auto loomCl = inOwnProcess<OpenClFigures>("Loom-OpenCL", [&] { return measureOpenCl("Loom", sizes); });
  const auto nvidiaCl = inOwnProcess<OpenClFigures>("NVIDIA-OpenCL", [&] { return measureOpenCl("NVIDIA CUDA", sizes); });
  const auto cuda = inOwnProcess<StreamFigures>("CUDA", [&] { return measureCuda(sizes); });

  std::vector<Row> rows;
  rows.push_back({"triad bandwidth", "GB/s",
                  {{"Loom-L0", ze.triadGBs}, {"Loom-OpenCL", loomCl.triadGBs}, {"NVIDIA-OpenCL", nvidiaCl.triadGBs},
                   {"CUDA", cuda.triadGBs}},
                  ""});
  rows.push_back({"triad Loom-L0 / CUDA", "ratio", {{"", ratio(ze.triadGBs, cuda.triadGBs)}}, ">= 0.90"});
  rows.push_back({"triad Loom-OpenCL / NVIDIA-OpenCL", "ratio", {{"", ratio(loomCl.triadGBs, nvidiaCl.triadGBs)}}, ">= 1.00"});
  rows.push_back({"SGEMM 16x16 local tiles", "GFLOPS", {{"Loom-OpenCL", loomCl.sgemmGflops}, {"NVIDIA-OpenCL", nvidiaCl.sgemmGflops}}, ""});
  rows.push_back({"SGEMM Loom / NVIDIA-OpenCL", "ratio", {{"", ratio(loomCl.sgemmGflops, nvidiaCl.sgemmGflops)}}, ">= 1.00"});
  rows.push_back({"empty kernel, back to back", "us", {{"Loom-L0 immediate", ze.launchUs}, {"cuLaunchKernel", cuda.launchUs}}, ""});
  rows.push_back({"launch Loom-L0 / cuLaunchKernel", "ratio", {{"", ratio(ze.launchUs, cuda.launchUs)}}, "<= 1.50"});
  rows.push_back({"empty kernel, launch and wait", "us", {{"Loom-L0 immediate", ze.roundTripUs}, {"CUDA", cuda.roundTripUs}}, ""});
  const char* names[] = {"host to device", "device to host", "device to device"};
  for (int kind = 0; kind < 3; ++kind) {
    rows.push_back({std::string("copy ") + names[kind], "GB/s", {{"Loom-L0", ze.copyGBs[kind]}, {"cuMemcpy", cuda.copyGBs[kind]}}, ""});
    rows.push_back({std::string("copy ") + names[kind] + " Loom/CUDA", "ratio", {{"", ratio(ze.copyGBs[kind], cuda.copyGBs[kind])}},
                    ">= 0.95"});
  }
  rows.push_back({"gather 32 MiB table + stream", "GB/s",
                  {{"Loom-L0", ze.gatherGBs[0]}, {"Loom-L0 reserved", ze.gatherGBs[1]}, {"CUDA", cuda.gatherGBs[0]},
                   {"CUDA window", cuda.gatherGBs[1]}},
                  ""});
  rows.push_back({"gather reserved / not reserved", "ratio",
                  {{"Loom-L0", ratio(ze.gatherGBs[1], ze.gatherGBs[0])}, {"CUDA", ratio(cuda.gatherGBs[1], cuda.gatherGBs[0])}},
                  ""});
  print(rows);
  const bool correct = ze.correct && loomCl.correct && nvidiaCl.correct && cuda.correct;
  std::printf("\nresults of what was measured: %s\n", correct ? "all correct" : "WRONG on at least one platform (see above)");
  if (!correct) return 1;
  const bool complete = ze.triadGBs > 0 && loomCl.triadGBs > 0 && nvidiaCl.triadGBs > 0 && cuda.triadGBs > 0;
  return complete ? 0 : 3;
}

}  // namespace
}  // namespace loom::benchmarks

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf(
        "usage: gpu_benchmark\n"
        "Runs Loom's GPU device through Level Zero and OpenCL, NVIDIA's OpenCL and native CUDA in one\n"
        "run, each in a child process of its own, and prints their figures side by side. Environment:\n"
        "ZE_ENABLE_ALT_DRIVERS=<libze_loom.so.1>, OCL_ICD_VENDORS=<folder with loom.icd and\n"
        "nvidia.icd>. A platform that is missing is reported as n/a. Exit status: 0\n"
        "when everything was measured and correct, 1 when a result was wrong, 3 when some platform\n"
        "could not be measured.\n");
    return 0;
  }
  return loom::benchmarks::run();
}
