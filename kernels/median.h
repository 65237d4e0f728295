// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Median filter: the C++ API of the kernels, free of GStreamer.
#pragma once

#include "status.h"

#include <vector>

#include "executor.h"
#include "plane.h"
#include "regions.h"

namespace cf {

constexpr int kMedianMinWindow = 3;
constexpr int kMedianMaxWindow = 31;

struct MedianParams {
  int window = 3;  // odd, kMedianMinWindow..kMedianMaxWindow
  Border border;   // its constant a value of the format (plane.h), clamped to its range
  OutputRegion region;  // the pixels written (regions.h): the whole plane by default

  // {window, border} as before regions came, without a warning for the one left out.
  MedianParams(int window_size = 3, Border window_border = {}, OutputRegion written = {})
      : window(window_size), border(window_border), region(written) {}
};

inline bool is_valid(const MedianParams &params) {
  return params.window % 2 == 1 && params.window >= kMedianMinWindow &&
         params.window <= kMedianMaxWindow;
}

// Whether both backends take the call: valid params, src and dst a valid pair
// (is_valid_plane_pair, which checks the format too), a valid region of them. The
// CUDA backend also needs are_samples_aligned(src, dst, format) and, for packed planes
// with channels not computed, pixels of nothing but their channels
// (can_copy_pixels_whole, packed_cuda.h).
inline bool is_valid(const MedianParams &params, const Plane &src, const Plane &dst,
                     SampleFormat format) {
  return is_valid(params) && is_valid_plane_pair(src, dst, format) &&
         is_valid(params.region, src);
}

// Both backends compute dst(x, y) = median of the window x window neighbourhood of
// src around (x, y), positions outside src taken as `border` says, on the samples'
// values (plane.h: padding bits ignored, stored back zero), for each computed channel
// of a packed plane; its other channels are copied. src and dst have the same width,
// height and format and must not overlap.
//
// Both return cudaErrorInvalidValue, having written nothing, where the call is not
// valid (is_valid above; the CUDA backend: what it also needs, either).

// Queues the filter on `stream`; src and dst are device memory. Returns the launch
// error, if any (errors of the running kernel surface at the next synchronisation).
cudaError_t median_cuda(const Plane &src, const Plane &dst, SampleFormat format,
                        const MedianParams &params, cudaStream_t stream);

// Filters on the host with `threads` threads (0: one per core), samples at any
// alignment. cudaSuccess once done.
cudaError_t median_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                       const MedianParams &params, int threads = 0);

// One plane of several filtered at once by median_cpu below.
struct MedianPlane {
  Plane src;
  Plane dst;
  SampleFormat format;
  MedianParams params;
};

// The same for several planes (the components of one frame), host memory: rows are
// filtered band by band, every plane's in turn. Planes may differ in size (subsampled
// chroma); no dst may overlap any src or another dst. Writes nothing and returns
// cudaErrorInvalidValue where any plane's call is not valid.
cudaError_t median_cpu(const std::vector<MedianPlane> &planes, int threads = 0);

// Planes in device memory with exec.on_device, host memory otherwise.
inline cudaError_t median(const Executor &exec, const Plane &src, const Plane &dst,
                          SampleFormat format, const MedianParams &params) {
  if (exec.on_device)
#ifdef CF_HAVE_CUDA
    return median_cuda(src, dst, format, params, exec.stream);
#else
    return cudaErrorNoDevice;  // no device without CUDA
#endif
  return median_cpu(src, dst, format, params, exec.cpu_threads);
}

}  // namespace cf
