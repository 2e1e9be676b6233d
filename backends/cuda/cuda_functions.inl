// The CUDA driver entry points Loom resolves: LOOM_CUDA_FUNCTION(member, symbol, fallback, parameters...).
// `symbol` is the versioned name the driver exports (what cuda.h's macros map to); `fallback`, when
// not nullptr, is the older name drivers before that version export with the same signature.
// LOOM_CUDA_OPTIONAL_FUNCTION(member, symbol, parameters...): newer entry points that the driver
// may lack; the member stays nullptr then. Every entry returns CUresult.
LOOM_CUDA_FUNCTION(cuInit, "cuInit", nullptr, unsigned int)
LOOM_CUDA_FUNCTION(cuDriverGetVersion, "cuDriverGetVersion", nullptr, int*)
LOOM_CUDA_FUNCTION(cuGetErrorName, "cuGetErrorName", nullptr, CUresult, const char**)
LOOM_CUDA_FUNCTION(cuGetErrorString, "cuGetErrorString", nullptr, CUresult, const char**)
LOOM_CUDA_FUNCTION(cuDeviceGetCount, "cuDeviceGetCount", nullptr, int*)
LOOM_CUDA_FUNCTION(cuDeviceGet, "cuDeviceGet", nullptr, CUdevice*, int)
LOOM_CUDA_FUNCTION(cuDeviceGetName, "cuDeviceGetName", nullptr, char*, int, CUdevice)
LOOM_CUDA_FUNCTION(cuDeviceGetAttribute, "cuDeviceGetAttribute", nullptr, int*, DeviceAttribute, CUdevice)
LOOM_CUDA_FUNCTION(cuDeviceTotalMem, "cuDeviceTotalMem_v2", nullptr, size_t*, CUdevice)
LOOM_CUDA_FUNCTION(cuDeviceGetUuid, "cuDeviceGetUuid_v2", "cuDeviceGetUuid", CUuuid*, CUdevice)
LOOM_CUDA_FUNCTION(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", nullptr, CUcontext*, CUdevice)
LOOM_CUDA_FUNCTION(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", nullptr, CUdevice)
LOOM_CUDA_FUNCTION(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer", nullptr, int*, CUdevice, CUdevice)
LOOM_CUDA_FUNCTION(cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute", nullptr, int*, P2PAttribute, CUdevice, CUdevice)
LOOM_CUDA_FUNCTION(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess", nullptr, CUcontext, unsigned int)
LOOM_CUDA_FUNCTION(cuCtxSetCurrent, "cuCtxSetCurrent", nullptr, CUcontext)
LOOM_CUDA_FUNCTION(cuCtxPushCurrent, "cuCtxPushCurrent_v2", nullptr, CUcontext)
LOOM_CUDA_FUNCTION(cuCtxPopCurrent, "cuCtxPopCurrent_v2", nullptr, CUcontext*)
LOOM_CUDA_FUNCTION(cuStreamCreate, "cuStreamCreate", nullptr, CUstream*, unsigned int)
LOOM_CUDA_FUNCTION(cuStreamDestroy, "cuStreamDestroy_v2", nullptr, CUstream)
LOOM_CUDA_FUNCTION(cuStreamSynchronize, "cuStreamSynchronize", nullptr, CUstream)
LOOM_CUDA_FUNCTION(cuStreamQuery, "cuStreamQuery", nullptr, CUstream)
LOOM_CUDA_FUNCTION(cuStreamWaitEvent, "cuStreamWaitEvent", nullptr, CUstream, CUevent, unsigned int)
LOOM_CUDA_FUNCTION(cuMemAlloc, "cuMemAlloc_v2", nullptr, CUdeviceptr*, size_t)
LOOM_CUDA_FUNCTION(cuMemFree, "cuMemFree_v2", nullptr, CUdeviceptr)
LOOM_CUDA_FUNCTION(cuMemHostAlloc, "cuMemHostAlloc", nullptr, void**, size_t, unsigned int)
LOOM_CUDA_FUNCTION(cuMemFreeHost, "cuMemFreeHost", nullptr, void*)
LOOM_CUDA_FUNCTION(cuMemAllocManaged, "cuMemAllocManaged", nullptr, CUdeviceptr*, size_t, unsigned int)
LOOM_CUDA_FUNCTION(cuMemGetInfo, "cuMemGetInfo_v2", nullptr, size_t*, size_t*)
LOOM_CUDA_FUNCTION(cuMemGetAllocationGranularity, "cuMemGetAllocationGranularity", nullptr, size_t*,
                   const CUmemAllocationProp*, int)
LOOM_CUDA_FUNCTION(cuMemAddressReserve, "cuMemAddressReserve", nullptr, CUdeviceptr*, size_t, size_t, CUdeviceptr,
                   unsigned long long)
LOOM_CUDA_FUNCTION(cuMemAddressFree, "cuMemAddressFree", nullptr, CUdeviceptr, size_t)
LOOM_CUDA_FUNCTION(cuMemCreate, "cuMemCreate", nullptr, CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*,
                   unsigned long long)
LOOM_CUDA_FUNCTION(cuMemRelease, "cuMemRelease", nullptr, CUmemGenericAllocationHandle)
LOOM_CUDA_FUNCTION(cuMemRetainAllocationHandle, "cuMemRetainAllocationHandle", nullptr, CUmemGenericAllocationHandle*, void*)
LOOM_CUDA_FUNCTION(cuMemMap, "cuMemMap", nullptr, CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                   unsigned long long)
LOOM_CUDA_FUNCTION(cuMemUnmap, "cuMemUnmap", nullptr, CUdeviceptr, size_t)
LOOM_CUDA_FUNCTION(cuMemExportToShareableHandle, "cuMemExportToShareableHandle", nullptr, void*, CUmemGenericAllocationHandle, int,
                   unsigned long long)
LOOM_CUDA_FUNCTION(cuMemImportFromShareableHandle, "cuMemImportFromShareableHandle", nullptr, CUmemGenericAllocationHandle*,
                   void*, int)
LOOM_CUDA_FUNCTION(cuMemSetAccess, "cuMemSetAccess", nullptr, CUdeviceptr, size_t, const CUmemAccessDesc*, size_t)
LOOM_CUDA_FUNCTION(cuMemcpy, "cuMemcpy", nullptr, CUdeviceptr, CUdeviceptr, size_t)
LOOM_CUDA_FUNCTION(cuMemcpyAsync, "cuMemcpyAsync", nullptr, CUdeviceptr, CUdeviceptr, size_t, CUstream)
LOOM_CUDA_FUNCTION(cuMemcpy2DAsync, "cuMemcpy2DAsync_v2", nullptr, const CudaMemcpy2d*, CUstream)
LOOM_CUDA_FUNCTION(cuMemsetD8, "cuMemsetD8_v2", nullptr, CUdeviceptr, unsigned char, size_t)
LOOM_CUDA_FUNCTION(cuMemsetD16, "cuMemsetD16_v2", nullptr, CUdeviceptr, unsigned short, size_t)
LOOM_CUDA_FUNCTION(cuMemsetD32, "cuMemsetD32_v2", nullptr, CUdeviceptr, unsigned int, size_t)
LOOM_CUDA_FUNCTION(cuMemsetD8Async, "cuMemsetD8Async", nullptr, CUdeviceptr, unsigned char, size_t, CUstream)
LOOM_CUDA_FUNCTION(cuMemsetD16Async, "cuMemsetD16Async", nullptr, CUdeviceptr, unsigned short, size_t, CUstream)
LOOM_CUDA_FUNCTION(cuMemsetD32Async, "cuMemsetD32Async", nullptr, CUdeviceptr, unsigned int, size_t, CUstream)
LOOM_CUDA_FUNCTION(cuModuleLoadDataEx, "cuModuleLoadDataEx", nullptr, CUmodule*, const void*, unsigned int, JitOption*, void**)
LOOM_CUDA_FUNCTION(cuModuleGetFunction, "cuModuleGetFunction", nullptr, CUfunction*, CUmodule, const char*)
LOOM_CUDA_FUNCTION(cuModuleGetGlobal, "cuModuleGetGlobal_v2", nullptr, CUdeviceptr*, size_t*, CUmodule, const char*)
LOOM_CUDA_FUNCTION(cuModuleUnload, "cuModuleUnload", nullptr, CUmodule)
LOOM_CUDA_FUNCTION(cuLinkCreate, "cuLinkCreate_v2", nullptr, unsigned int, JitOption*, void**, CUlinkState*)
LOOM_CUDA_FUNCTION(cuLinkAddData, "cuLinkAddData_v2", nullptr, CUlinkState, JitInputType, void*, size_t, const char*,
                   unsigned int, JitOption*, void**)
LOOM_CUDA_FUNCTION(cuLinkComplete, "cuLinkComplete", nullptr, CUlinkState, void**, size_t*)
LOOM_CUDA_FUNCTION(cuLinkDestroy, "cuLinkDestroy", nullptr, CUlinkState)
LOOM_CUDA_FUNCTION(cuLaunchKernel, "cuLaunchKernel", nullptr, CUfunction, unsigned int, unsigned int, unsigned int,
                   unsigned int, unsigned int, unsigned int, unsigned int, CUstream, void**, void**)
LOOM_CUDA_FUNCTION(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel", nullptr, CUfunction, unsigned int, unsigned int,
                   unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, CUstream, void**)
LOOM_CUDA_FUNCTION(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor", nullptr, int*,
                   CUfunction, int, size_t)
LOOM_CUDA_FUNCTION(cuFuncGetAttribute, "cuFuncGetAttribute", nullptr, int*, FunctionAttribute, CUfunction)
LOOM_CUDA_FUNCTION(cuFuncSetAttribute, "cuFuncSetAttribute", nullptr, CUfunction, FunctionAttribute, int)
LOOM_CUDA_FUNCTION(cuEventCreate, "cuEventCreate", nullptr, CUevent*, unsigned int)
LOOM_CUDA_FUNCTION(cuEventRecord, "cuEventRecord", nullptr, CUevent, CUstream)
LOOM_CUDA_FUNCTION(cuEventSynchronize, "cuEventSynchronize", nullptr, CUevent)
LOOM_CUDA_FUNCTION(cuEventQuery, "cuEventQuery", nullptr, CUevent)
LOOM_CUDA_FUNCTION(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime", float*, CUevent, CUevent)
LOOM_CUDA_FUNCTION(cuEventDestroy, "cuEventDestroy_v2", nullptr, CUevent)
// IPC, host-memory registration and stream memory operations.
LOOM_CUDA_FUNCTION(cuIpcGetMemHandle, "cuIpcGetMemHandle", nullptr, CUipcMemHandle*, CUdeviceptr)
LOOM_CUDA_FUNCTION(cuIpcOpenMemHandle, "cuIpcOpenMemHandle_v2", "cuIpcOpenMemHandle", CUdeviceptr*, CUipcMemHandle, unsigned int)
LOOM_CUDA_FUNCTION(cuIpcCloseMemHandle, "cuIpcCloseMemHandle", nullptr, CUdeviceptr)
LOOM_CUDA_FUNCTION(cuMemHostRegister, "cuMemHostRegister_v2", "cuMemHostRegister", void*, size_t, unsigned int)
LOOM_CUDA_FUNCTION(cuMemHostUnregister, "cuMemHostUnregister", nullptr, void*)
LOOM_CUDA_FUNCTION(cuStreamWaitValue32, "cuStreamWaitValue32_v2", "cuStreamWaitValue32", CUstream, CUdeviceptr, uint32_t, unsigned int)
LOOM_CUDA_FUNCTION(cuStreamWriteValue32, "cuStreamWriteValue32_v2", "cuStreamWriteValue32", CUstream, CUdeviceptr, uint32_t, unsigned int)
// The persisting L2 cache of Level Zero's cache reservation (cuda_cache_reservation.h).
LOOM_CUDA_FUNCTION(cuCtxSetLimit, "cuCtxSetLimit", nullptr, int, size_t)
LOOM_CUDA_FUNCTION(cuCtxResetPersistingL2Cache, "cuCtxResetPersistingL2Cache", nullptr, void)
LOOM_CUDA_FUNCTION(cuStreamSetAttribute, "cuStreamSetAttribute", nullptr, CUstream, int, const CUstreamAttrValue*)
// Optional: launches with attributes (driver 12.0).
LOOM_CUDA_OPTIONAL_FUNCTION(cuLaunchKernelEx, "cuLaunchKernelEx", const CUlaunchConfig*, CUfunction, void**, void**)
// Texture objects of images (cuda_image_textures.h); the last parameter is a resource view, unused.
LOOM_CUDA_FUNCTION(cuTexObjectCreate, "cuTexObjectCreate", nullptr, CUtexObject*, const CudaResourceDesc*,
                   const CudaTextureDesc*, const void*)
LOOM_CUDA_FUNCTION(cuTexObjectDestroy, "cuTexObjectDestroy", nullptr, CUtexObject)
// Block-linear copies of images for the texture units (cuda_texture_mirror.h).
LOOM_CUDA_FUNCTION(cuArray3DCreate, "cuArray3DCreate_v2", "cuArray3DCreate", CUarray*, const CudaArray3dDescriptor*)
LOOM_CUDA_FUNCTION(cuArrayDestroy, "cuArrayDestroy", nullptr, CUarray)
LOOM_CUDA_FUNCTION(cuSurfObjectCreate, "cuSurfObjectCreate", nullptr, CUsurfObject*, const CudaResourceDesc*)
LOOM_CUDA_FUNCTION(cuSurfObjectDestroy, "cuSurfObjectDestroy", nullptr, CUsurfObject)
