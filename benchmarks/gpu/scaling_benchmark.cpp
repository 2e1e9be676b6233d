// scaling_benchmark: implicit scaling measured (issue "Implicit scaling"). The same kernels on a
// root device of several tiles and on its first tile alone, each in a process of its own, through
// Level Zero: a memory-bound triad, SGEMM blocked for registers and n-body with its positions
// staged through local memory (the kernels implicit scaling's users write, which read what other
// tiles own once per work-group), the round trip of a launch that is split (an empty kernel of many
// groups, launched and waited for), and a kernel whose reads ignore where the chunks of an
// allocation live (every work-item sums the whole of a small buffer). The triad's split matches
// its coloring: each tile's groups write and read the chunks it owns. Every result is checked;
// nothing asserts on time.
//
// GPUs: ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE makes one root over the
// GPUs. The CPU (--cpu): LOOM_CpuSubDevices=N makes a root over N tiles.
#include <level_zero/ze_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "embedded_files.h"
#include "gpu/figure_table.h"
#include "gpu/gpu_peers.h"
#include "gpu/own_process.h"
#include "gpu/ze_devices.h"

namespace loom::benchmarks {
namespace {

struct ScalingSizes {
  size_t triadFloats;
  uint32_t sgemmSize;
  uint32_t sgemmLaunches;  // per round of timing
  uint32_t bodies;
  uint32_t splitGroups;  // of the empty kernel whose round trip is measured
  uint32_t roundTrips;
  uint32_t smallFloats;  // of the buffer every work-item of sumWhole reads
  uint32_t readers;      // work-items of sumWhole
};

// The SGEMM's n is a multiple of 512, the bodies of 256 (the kernels' blocks). The GPU sizes give
// each GPU of a root of four work enough that a launch's split and join are small beside it, and
// enough work-items that each GPU's compute units are as full as one GPU's with all of them.
constexpr ScalingSizes kGpuSizes{size_t(512) << 20, 4096, 3, 1u << 20, 1024, 2000, 4096, 1u << 20};
constexpr ScalingSizes kCpuSizes{size_t(4) << 20, 512, 1, 8192, 64, 200, 1024, 1u << 14};
constexpr ScalingSizes kQuickSizes{size_t(1) << 16, 512, 1, 512, 16, 10, 256, 1024};

struct ScalingFigures {
  uint32_t tiles = 0;  // of the root device
  double triadGBs = -1, sgemmGflops = -1, sgemmTallGflops = -1, nbodyGInteractions = -1, roundTripUs = -1, sumWholeGReads = -1;
  bool correct = true;
};

bool ok(ze_result_t result, const char* what) {
  if (result == ZE_RESULT_SUCCESS) return true;
  std::fprintf(stderr, "Level Zero: %s failed: 0x%x\n", what, result);
  return false;
}

// A root device of the wanted type with sub-devices, or its first sub-device.
ze_device_handle_t findDevice(ze_device_type_t type, bool tileZero, ze_driver_handle_t& driverOut, uint32_t& tilesOut) {
  for (const auto& [driver, device] : levelZeroDevices()) {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    zeDeviceGetProperties(device, &properties);
    uint32_t tiles = 0;
    zeDeviceGetSubDevices(device, &tiles, nullptr);
    if (properties.type != type || tiles < 2) continue;
    driverOut = driver;
    tilesOut = tiles;
    if (!tileZero) {
      std::printf("root: %s, %u tiles\n", properties.name, tiles);
      return device;
    }
    std::vector<ze_device_handle_t> subDevices(tiles);
    zeDeviceGetSubDevices(device, &tiles, subDevices.data());
    return subDevices[0];
  }
  return nullptr;
}

struct Session {
  ze_context_handle_t context = nullptr;
  ze_device_handle_t device = nullptr;
  ze_command_list_handle_t list = nullptr;  // an immediate list, asynchronous
  ze_module_handle_t module = nullptr;
  ze_event_pool_handle_t pool = nullptr;
  ze_event_handle_t done = nullptr;
  uint32_t tiles = 0;  // of the root device

  ~Session() {
    if (module) zeModuleDestroy(module);
    if (done) zeEventDestroy(done);
    if (pool) zeEventPoolDestroy(pool);
    if (list) zeCommandListDestroy(list);
    if (context) zeContextDestroy(context);
  }

  bool open(ze_device_type_t type, bool tileZero) {
    ze_driver_handle_t driver = nullptr;
    device = findDevice(type, tileZero, driver, tiles);
    if (!device) {
      std::fprintf(stderr, "no root device with tiles (ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE? LOOM_CpuSubDevices?)\n");
      return false;
    }
    ze_context_desc_t contextDesc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    if (!ok(zeContextCreate(driver, &contextDesc, &context), "zeContextCreate")) return false;
    ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    if (!ok(zeCommandListCreateImmediate(context, device, &queueDesc, &list), "zeCommandListCreateImmediate")) return false;
    ze_event_pool_desc_t poolDesc{ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    if (!ok(zeEventPoolCreate(context, &poolDesc, 1, &device, &pool), "zeEventPoolCreate")) return false;
    ze_event_desc_t eventDesc{ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    if (!ok(zeEventCreate(pool, &eventDesc, &done), "zeEventCreate")) return false;
    const std::vector<uint8_t> spirv = test::embeddedBytes("kernel_suite.spv");
    ze_module_desc_t moduleDesc{ZE_STRUCTURE_TYPE_MODULE_DESC};
    moduleDesc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    moduleDesc.inputSize = spirv.size();
    moduleDesc.pInputModule = spirv.data();
    return ok(zeModuleCreate(context, device, &moduleDesc, &module, nullptr), "zeModuleCreate kernel_suite.spv");
  }

  void synchronize() const {
    ok(zeCommandListAppendBarrier(list, done, 0, nullptr), "zeCommandListAppendBarrier");
    ok(zeEventHostSynchronize(done, UINT64_MAX), "zeEventHostSynchronize");
    zeEventHostReset(done);
  }

  // Device memory of the device measured: colored across the tiles on a root device.
  void* memory(size_t bytes) const {
    ze_device_mem_alloc_desc_t desc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void* pointer = nullptr;
    ok(zeMemAllocDevice(context, &desc, bytes, 64, device, &pointer), "zeMemAllocDevice");
    return pointer;
  }
  void copy(void* to, const void* from, size_t bytes) const {
    zeCommandListAppendMemoryCopy(list, to, from, bytes, nullptr, 0, nullptr);
    synchronize();
  }
  void free(void* pointer) const {
    if (pointer) zeMemFree(context, pointer);
  }
};

// A kernel of the suite with its arguments set in order.
struct Kernel {
  ze_kernel_handle_t handle = nullptr;
  Kernel(const Session& s, const char* name) {
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ok(zeKernelCreate(s.module, &desc, &handle), name);
  }
  ~Kernel() {
    if (handle) zeKernelDestroy(handle);
  }
  template <typename... Arguments>
  void arguments(const Arguments&... values) {
    uint32_t index = 0;
    (zeKernelSetArgumentValue(handle, index++, sizeof(values), &values), ...);
  }
  // Seconds per launch over `groups`, the median of a few rounds of `count` launches.
  double secondsPerLaunch(const Session& s, ze_group_count_t groups, uint32_t count) const {
    return secondsPerOperation(
        [&](uint32_t n) {
          for (uint32_t i = 0; i < n; ++i) zeCommandListAppendLaunchKernel(s.list, handle, &groups, nullptr, 0, nullptr);
          s.synchronize();
        },
        count);
  }
};

void measureTriad(const Session& s, const ScalingSizes& sizes, ScalingFigures& figures) {
  const size_t n = sizes.triadFloats, bytes = n * sizeof(float);
  std::vector<float> host(n);
  void* a = s.memory(bytes);
  void* b = s.memory(bytes);
  void* c = s.memory(bytes);
  Kernel triad(s, "triad");
  if (a && b && c && triad.handle) {
    uploadTriadInputs(host, b, c, [&](void* to, const float* from) { s.copy(to, from, bytes); });
    zeKernelSetGroupSize(triad.handle, 256, 1, 1);
    triad.arguments(a, b, c, kTriadScale);
    figures.triadGBs = triadGBs(bytes, triad.secondsPerLaunch(s, {uint32_t(n / 256), 1, 1}, 20));
    s.copy(host.data(), a, bytes);
    figures.correct = triadIsCorrect(host.data(), n, "triad") && figures.correct;
  }
  for (void* p : {a, b, c}) s.free(p);
}

// A kernel of kernel_suite.cl's sgemmBlock: work-groups of `columnItems` x `rowItems`, each
// computing 8 times as many columns and rows of C.
struct SgemmShape {
  const char* kernel;
  uint32_t columnItems, rowItems;
  double ScalingFigures::*gflops;
};
constexpr SgemmShape kSgemmShapes[] = {{"sgemmBlocked", 16, 32, &ScalingFigures::sgemmGflops},
                                       {"sgemmTall", 8, 64, &ScalingFigures::sgemmTallGflops}};

void measureSgemm(const Session& s, const ScalingSizes& sizes, const SgemmShape& shape, ScalingFigures& figures) {
  const int32_t n = int32_t(sizes.sgemmSize);
  const size_t elements = size_t(n) * n, bytes = elements * sizeof(float);
  std::vector<float> host(elements);
  void* a = s.memory(bytes);
  void* b = s.memory(bytes);
  void* c = s.memory(bytes);
  Kernel sgemm(s, shape.kernel);
  if (a && b && c && sgemm.handle) {
    for (size_t i = 0; i < elements; ++i) host[i] = sgemmA(i);
    s.copy(a, host.data(), bytes);
    for (size_t i = 0; i < elements; ++i) host[i] = sgemmB(i);
    s.copy(b, host.data(), bytes);
    zeKernelSetGroupSize(sgemm.handle, shape.columnItems, shape.rowItems, 1);
    sgemm.arguments(a, b, c, n);
    const ze_group_count_t groups{uint32_t(n) / (8 * shape.columnItems), uint32_t(n) / (8 * shape.rowItems), 1};
    const double seconds = sgemm.secondsPerLaunch(s, groups, sizes.sgemmLaunches);
    figures.*shape.gflops = 2.0 * n * n * n / seconds / 1e9;
    s.copy(host.data(), c, bytes);
    figures.correct = sgemmIsCorrect(host.data(), uint32_t(n), shape.kernel) && figures.correct;
  }
  for (void* p : {a, b, c}) s.free(p);
}

// Every acceleration of a ring points to its centre with the same length (rotational symmetry).
bool nbodyIsCorrect(const std::vector<float>& positions, const std::vector<float>& accelerations) {
  const size_t count = positions.size() / 4;
  const double length = std::hypot(accelerations[0], accelerations[1]);
  for (size_t i = 0; i < count; ++i) {
    const double x = accelerations[4 * i], y = accelerations[4 * i + 1];
    const double inward = -(x * positions[4 * i] + y * positions[4 * i + 1]);  // the positions are unit vectors
    if (std::fabs(std::hypot(x, y) - length) <= 1e-2 * length && inward > 0.99 * length) continue;
    std::fprintf(stderr, "n-body wrong at body %zu: (%g, %g), length %g expected\n", i, x, y, length);
    return false;
  }
  return length > 0;
}

// Bodies on a ring of unit masses: the acceleration of body i has a known direction, and all
// bodies' accelerations have the same length.
void measureNbody(const Session& s, const ScalingSizes& sizes, ScalingFigures& figures) {
  const uint32_t count = sizes.bodies;
  const size_t bytes = size_t(count) * 4 * sizeof(float);
  std::vector<float> host(size_t(count) * 4);
  for (uint32_t i = 0; i < count; ++i) {
    const double angle = 6.283185307179586 * i / count;
    host[4 * i] = float(std::cos(angle));
    host[4 * i + 1] = float(std::sin(angle));
    host[4 * i + 2] = 0;
    host[4 * i + 3] = 1;
  }
  void* positions = s.memory(bytes);
  void* accelerations = s.memory(bytes);
  Kernel nbody(s, "nbodyTiled");
  if (positions && accelerations && nbody.handle) {
    s.copy(positions, host.data(), bytes);
    zeKernelSetGroupSize(nbody.handle, 256, 1, 1);
    nbody.arguments(positions, accelerations, int32_t(count), 0.01f);
    const double seconds = nbody.secondsPerLaunch(s, {count / 256, 1, 1}, 1);
    figures.nbodyGInteractions = double(count) * count / seconds / 1e9;
    std::vector<float> result(host.size());
    s.copy(result.data(), accelerations, bytes);
    figures.correct = nbodyIsCorrect(host, result) && figures.correct;
  }
  for (void* p : {positions, accelerations}) s.free(p);
}

void measureSplitRoundTrip(const Session& s, const ScalingSizes& sizes, ScalingFigures& figures) {
  void* unused = s.memory(64);
  Kernel empty(s, "empty");
  if (unused && empty.handle) {
    zeKernelSetGroupSize(empty.handle, 32, 1, 1);
    empty.arguments(unused);
    const ze_group_count_t groups{sizes.splitGroups, 1, 1};
    const auto oneAtATime = [&](uint32_t count) {
      for (uint32_t i = 0; i < count; ++i) {
        zeCommandListAppendLaunchKernel(s.list, empty.handle, &groups, nullptr, 0, nullptr);
        s.synchronize();
      }
    };
    figures.roundTripUs = secondsPerOperation(oneAtATime, sizes.roundTrips) * 1e6;
  }
  s.free(unused);
}

void measureSumWhole(const Session& s, const ScalingSizes& sizes, ScalingFigures& figures) {
  const std::vector<float> ones(sizes.smallFloats, 1.0f);
  void* small = s.memory(ones.size() * sizeof(float));
  void* sums = s.memory(size_t(sizes.readers) * sizeof(float));
  Kernel sumWhole(s, "sumWhole");
  if (small && sums && sumWhole.handle) {
    s.copy(small, ones.data(), ones.size() * sizeof(float));
    zeKernelSetGroupSize(sumWhole.handle, 256, 1, 1);
    sumWhole.arguments(small, sums, int32_t(sizes.smallFloats));
    const double seconds = sumWhole.secondsPerLaunch(s, {sizes.readers / 256, 1, 1}, 3);
    figures.sumWholeGReads = double(sizes.readers) * sizes.smallFloats / seconds / 1e9;
    std::vector<float> result(sizes.readers);
    s.copy(result.data(), sums, result.size() * sizeof(float));
    for (size_t i = 0; i < result.size(); ++i) {
      if (result[i] == float(sizes.smallFloats)) continue;
      std::fprintf(stderr, "sumWhole wrong at %zu: %g, expected %u\n", i, result[i], sizes.smallFloats);
      figures.correct = false;
      break;
    }
  }
  s.free(small);
  s.free(sums);
}

ScalingFigures measure(ze_device_type_t type, bool tileZero, const ScalingSizes& sizes) {
  ScalingFigures figures;
  Session session;
  if (!session.open(type, tileZero)) return figures;
  figures.tiles = session.tiles;
  measureTriad(session, sizes, figures);
  for (const SgemmShape& shape : kSgemmShapes) measureSgemm(session, sizes, shape, figures);
  measureNbody(session, sizes, figures);
  measureSplitRoundTrip(session, sizes, figures);
  measureSumWhole(session, sizes, figures);
  return figures;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// What the root should reach against one tile: the issues' aims for two and four tiles (GPUs), in
// proportion for other counts.
struct ScalingAims {
  uint32_t tiles;
  double triad, sgemm, nbody, splitCostUs;
  std::string speedup(double aim) const { return ">= " + number(aim) + " with " + std::to_string(tiles) + " tiles"; }
};

ScalingAims aimsFor(uint32_t tiles) {
  if (tiles == 2) return {2, 1.9, 1.9, 1.9, 10};
  if (tiles == 4) return {4, 3.6, 3.7, 3.7, 15};
  const double t = tiles;
  return {tiles, 0.9 * t, 0.925 * t, 0.925 * t, 5.0 * (t - 1)};
}

int run(ze_device_type_t type, const ScalingSizes& sizes) {
  std::printf("scaling_benchmark: triad %zu floats, SGEMM %u, n-body %u bodies, round trip of %u groups, sumWhole %u x %u\n",
              sizes.triadFloats, sizes.sgemmSize, sizes.bodies, sizes.splitGroups, sizes.readers, sizes.smallFloats);
  const auto root = inOwnProcess<ScalingFigures>("root", [&] { return measure(type, false, sizes); });
  const auto tile = inOwnProcess<ScalingFigures>("tile 0", [&] { return measure(type, true, sizes); });
  const auto row = [&](const char* figure, const char* unit, double ScalingFigures::*field, const std::string& aim) {
    return Row{figure, unit, {{"root", root.*field}, {"tile 0", tile.*field}, {"root/tile", ratio(root.*field, tile.*field)}}, aim};
  };
  const ScalingAims aims = aimsFor(root.tiles);
  std::vector<Row> rows{
      row("triad bandwidth", "GB/s", &ScalingFigures::triadGBs, aims.speedup(aims.triad)),
      row("SGEMM, 256x128 blocks", "GFLOPS", &ScalingFigures::sgemmGflops, aims.speedup(aims.sgemm)),
      row("SGEMM, 512x64 blocks", "GFLOPS", &ScalingFigures::sgemmTallGflops, aims.speedup(aims.sgemm)),
      row("n-body, positions in local memory", "Ginter/s", &ScalingFigures::nbodyGInteractions, aims.speedup(aims.nbody)),
      row("sumWhole (reads ignore coloring)", "Greads/s", &ScalingFigures::sumWholeGReads, "reported"),
      row("launch and wait, split kernel", "us", &ScalingFigures::roundTripUs, ""),
  };
  const bool bothRoundTrips = root.roundTripUs > 0 && tile.roundTripUs > 0;
  const double addedCost = bothRoundTrips ? std::max(0.0, root.roundTripUs - tile.roundTripUs) : -1;  // none when the root is faster
  rows.push_back({"added cost of a split launch", "us", {{"", addedCost}}, "<= " + number(aims.splitCostUs)});
  print(rows);
  const bool correct = root.correct && tile.correct;
  std::printf("\nresults: %s\n", correct ? "all correct" : "WRONG (see above)");
  if (!correct) return 1;
  return root.triadGBs > 0 && tile.triadGBs > 0 ? 0 : 3;
}

}  // namespace
}  // namespace loom::benchmarks

int main(int argc, char** argv) {
  ze_device_type_t type = ZE_DEVICE_TYPE_GPU;
  loom::benchmarks::ScalingSizes sizes = loom::benchmarks::kGpuSizes;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cpu") == 0) {
      type = ZE_DEVICE_TYPE_CPU;
      sizes = loom::benchmarks::kCpuSizes;
    } else if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::printf(
          "usage: scaling_benchmark [--cpu] [--quick]\n"
          "Runs the same kernels on a Level Zero root device of several tiles and on its first tile,\n"
          "each in a process of its own, and prints their figures side by side: triad, SGEMM, n-body,\n"
          "the round trip of a split launch, and reads that ignore where memory lives. GPUs (default):\n"
          "ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE. --cpu: the CPU device with\n"
          "LOOM_CpuSubDevices=N. --quick: tiny sizes, to check results only. Exit status: 0 when\n"
          "everything was measured and correct, 1 when a result was wrong, 3 when a device was missing.\n");
      return std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0 ? 0 : 2;
    }
  }
  if (quick) sizes = loom::benchmarks::kQuickSizes;
  return loom::benchmarks::run(type, sizes);
}
