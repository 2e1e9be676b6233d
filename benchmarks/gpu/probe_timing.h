#pragma once
// What the timing probes share: the first GPU made current, and the median time of a launch.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "probe_check.h"

// Makes the first GPU's primary context current; `name` receives the GPU's name.
template <size_t Size>
void useFirstGpu(char (&name)[Size]) {
  CK(cuInit(0));
  CUdevice device;
  CK(cuDeviceGet(&device, 0));
  CK(cuDeviceGetName(name, Size, device));
  CUcontext context;
  CK(cuDevicePrimaryCtxRetain(&context, device));
  CK(cuCtxSetCurrent(context));
}

// The median of five runs of `launch` on the default stream in ms, timed by CUDA events, each
// after `reset`.
template <typename Reset, typename Launch>
float medianOfFiveMs(Reset&& reset, Launch&& launch) {
  std::vector<float> times;
  for (int round = 0; round < 5; ++round) {
    reset();
    cudaEvent_t start, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&stop));
    CK(cudaEventRecord(start));
    launch();
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms;
    CK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(stop));
  }
  std::sort(times.begin(), times.end());
  return times[2];
}
