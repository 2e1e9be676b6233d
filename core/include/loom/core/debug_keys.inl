// The one list of Loom's debug keys: LOOM_DEBUG_KEY(type, Name, default, description).
// Each key is read once from the environment variable LOOM_<Name>; `loom-info --keys` lists them.
LOOM_DEBUG_KEY(bool, PrintDebugMessages, false, "Print why an API call failed, and other diagnostics, to stderr")
LOOM_DEBUG_KEY(bool, PrintCommandStream, false, "Print every submitted command stream in words to stderr")
LOOM_DEBUG_KEY(int64_t, CpuSubDevices, 0, "Split the CPU device into this many sub-devices (tiles); 0 keeps it whole")
LOOM_DEBUG_KEY(int64_t, CpuWorkerThreads, 0, "Worker threads of the CPU thread pool; 0 means one per online core")
LOOM_DEBUG_KEY(std::string, ForceBackend, "", "Expose only the devices of this backend (cpu or cuda); empty exposes all")
LOOM_DEBUG_KEY(bool, EnableCudaDevices, false, "List NVIDIA GPUs (experimental)")
LOOM_DEBUG_KEY(bool, EnableCompilerCache, true, "Keep compiled programs on disk and reuse them across processes")
LOOM_DEBUG_KEY(std::string, CompilerCacheDir, "", "Where the compiler cache lives; empty means $XDG_CACHE_HOME/loom, else ~/.cache/loom")
LOOM_DEBUG_KEY(bool, DumpKernelIr, false, "Print the final LLVM IR of every module the compiler builds to stderr")
LOOM_DEBUG_KEY(bool, EnableDeviceEventWaits, true, "GPU queues wait for events in the device's own queue; 0 makes the engine's thread wait on the host")
LOOM_DEBUG_KEY(bool, EnableDependentLaunches, true, "GPUs of compute capability 9.0 and later start a kernel's blocks while the kernel before it retires; 0 starts them after")
LOOM_DEBUG_KEY(std::string, LibdevicePath, "", "CUDA's libdevice for GPU kernels' math; empty: found under $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, /usr/lib/cuda (read by the compiler)")
