#pragma once
// A PTX program loaded into a GPU's primary context as a CUDA module.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "backends/cuda/cuda_context.h"
#include "loom/core/backend.h"

namespace loom::backends::cuda {

// A kernel's two entries (loom/compiler/nvptx_launch_abi.h): one for any launch, one for launches of whole
// groups only.
struct KernelEntries {
  CUfunction anyLaunch = nullptr;
  CUfunction wholeGroups = nullptr;
};

class CudaKernel final : public core::BackendKernel {
 public:
  CudaKernel(std::shared_ptr<const PrimaryContext> context, KernelEntries entries, uint32_t maxThreadsPerBlock, bool mayPrint,
             bool launchesEarly, bool maySampleTextures = true)
      : context_(std::move(context)),
        entries_(entries),
        maxThreadsPerBlock_(maxThreadsPerBlock),
        mayPrint_(mayPrint),
        launchesEarly_(launchesEarly),
        maySampleTextures_(maySampleTextures) {}
  const KernelEntries& entries() const { return entries_; }
  // Whether its module calls vprintf: the driver prints that output only at a synchronization.
  bool mayPrint() const { return mayPrint_; }
  // Whether its entries wait for the grids before them (cuda_dependent_launch.h), so that it may
  // be launched while the kernel before it in the stream retires.
  bool launchesEarly() const { return launchesEarly_; }
  // Whether it may read texels through texture objects (ptxEntryMaySampleTextures): only then are
  // texture mirrors refreshed before it.
  bool maySampleTextures() const { return maySampleTextures_; }
  // The driver lowers the limit below the device's for kernels that use many registers.
  uint32_t groupSizeLimit() const override { return maxThreadsPerBlock_; }
  // The driver's occupancy for both entries (the fewer of the two): blocks of that size resident
  // on one SM at once, which is what cuLaunchCooperativeKernel accepts per SM. 0, said under
  // PrintDebugMessages, when the driver cannot tell.
  uint32_t residentGroupsPerComputeUnit(uint32_t groupItems, uint32_t localMemorySize) const override;

  // Dynamic shared memory the function may use, as last set with cuFuncSetAttribute; launches
  // above the driver's default (48 KiB) raise it first.
  std::atomic<uint32_t> dynamicSharedLimit{48 * 1024};

 private:
  std::shared_ptr<const PrimaryContext> context_;
  KernelEntries entries_;
  uint32_t maxThreadsPerBlock_;
  bool mayPrint_;
  bool launchesEarly_;
  bool maySampleTextures_;
};

class CudaProgram final : public core::BackendProgram {
 public:
  // Compiles the program's PTX for the context's GPU; nullptr, with the JIT's error log in `log`,
  // when the driver rejects it. A program with imports is compiled when link() resolves them.
  // `dependentLaunches`: the GPU launches kernels early (CudaCapabilities), so the PTX waits for
  // the grids before.
  static std::unique_ptr<CudaProgram> load(std::shared_ptr<const PrimaryContext> context,
                                           std::shared_ptr<const compiler::CompiledProgram> program,
                                           bool dependentLaunches, std::string& log);
  ~CudaProgram() override;

  core::BackendKernel* kernel(const std::string& name, std::string& log) override;
  void* globalVariable(const std::string& name) override;
  // The device address of an exported function, for kernels to call through.
  void* function(const std::string& name) override;
  // Links the program's PTX with that of the programs among `others` that export its imports
  // (cuda_linker.h); `others` are programs of this backend.
  bool link(const std::vector<core::BackendProgram*>& others, std::string& log) override;

 private:
  // The function `name` of the module; nullptr, said in `log` when one is given, if it lacks it.
  CUfunction findFunction(const std::string& name, std::string* log);
  // The function's MAX_THREADS_PER_BLOCK; false, said in `log`, when the driver does not tell.
  bool readThreadLimit(CUfunction function, const std::string& name, uint32_t& maxThreadsPerBlock, std::string& log);
  // The module, once its imports are resolved; nullptr before.
  CUmodule module();

  CudaProgram(std::shared_ptr<const PrimaryContext> context, std::shared_ptr<const compiler::CompiledProgram> program,
              bool dependentLaunches)
      : context_(std::move(context)), program_(std::move(program)), dependentLaunches_(dependentLaunches) {}

  std::shared_ptr<const PrimaryContext> context_;
  std::shared_ptr<const compiler::CompiledProgram> program_;
  const bool dependentLaunches_;
  std::mutex mutex_;
  CUmodule module_ = nullptr;
  bool mayPrint_ = false;       // the module's PTX declares vprintf
  bool launchesEarly_ = false;  // the module's entries wait for the grids before them
  std::map<std::string, std::unique_ptr<CudaKernel>> kernels_;
};

}  // namespace loom::backends::cuda
