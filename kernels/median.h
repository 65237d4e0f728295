// Median filter: the C++ API of the kernels, free of GStreamer.
#pragma once

#include <cuda_runtime_api.h>

#include "executor.h"
#include "plane.h"

namespace cf {

constexpr int kMedianMinWindow = 3;
constexpr int kMedianMaxWindow = 31;

struct MedianParams {
  int window = 3;  // odd, kMedianMinWindow..kMedianMaxWindow
  Border border;
};

inline bool is_valid(const MedianParams &params) {
  return params.window % 2 == 1 && params.window >= kMedianMinWindow &&
         params.window <= kMedianMaxWindow;
}

// Both backends compute dst(x, y) = median of the window x window neighbourhood of
// src around (x, y), positions outside src taken as `border` says. src and dst have
// the same width, height and depth and must not overlap.

// Queues the filter on `stream`; src and dst are device memory. Returns the launch
// error, if any (errors of the running kernel surface at the next synchronisation).
cudaError_t median_cuda(const Plane &src, const Plane &dst, SampleDepth depth,
                        const MedianParams &params, cudaStream_t stream);

// Filters on the host with `threads` threads (0: one per core).
void median_cpu(const Plane &src, const Plane &dst, SampleDepth depth,
                const MedianParams &params, int threads = 0);

// Planes in device memory with exec.on_device, host memory otherwise.
inline cudaError_t median(const Executor &exec, const Plane &src, const Plane &dst,
                          SampleDepth depth, const MedianParams &params) {
  if (exec.on_device)
    return median_cuda(src, dst, depth, params, exec.stream);
  median_cpu(src, dst, depth, params, exec.cpu_threads);
  return cudaSuccess;
}

}  // namespace cf
