// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// What the CUDA kernels share: views of a plane that apply the border, and the size
// of one wave of resident blocks.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include "plane.h"

namespace cf {

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// Reads one plane; positions outside it follow the border mode.
template <typename Sample>
struct SourceView {
  const uint8_t *data;
  int width;
  int height;
  ptrdiff_t row_pitch;
  int pixel_stride;
  BorderMode mode;
  uint16_t constant;  // the stored sample standing for the border (border_sample)

  // Start of the row standing for row y, or nullptr where the border constant stands.
  __device__ const uint8_t *row(int y) const {
    const int r = border_index(y, height, mode);
    return r < 0 ? nullptr : data + r * row_pitch;
  }

  // Byte offset in a row of the sample standing for column x, or -1 where the border
  // constant stands.
  __device__ ptrdiff_t column_offset(int x) const {
    const int c = border_index(x, width, mode);
    return c < 0 ? -1 : ptrdiff_t(c) * pixel_stride;
  }

  __device__ uint32_t at(const uint8_t *row_start, ptrdiff_t column_offset) const {
    if (row_start == nullptr || column_offset < 0)
      return constant;
    return __ldg(reinterpret_cast<const Sample *>(row_start + column_offset));
  }

  // A sample inside the plane.
  __device__ uint32_t inside(int x, int y) const {
    return __ldg(reinterpret_cast<const Sample *>(data + y * row_pitch +
                                                  ptrdiff_t(x) * pixel_stride));
  }
};

template <typename Sample>
struct DestinationView {
  uint8_t *data;
  int width;
  int height;
  ptrdiff_t row_pitch;
  int pixel_stride;

  // A store of exactly one sample: the other channels of interleaved formats stay.
  __device__ void store(int x, int y, uint32_t value) const {
    *reinterpret_cast<Sample *>(data + y * row_pitch + ptrdiff_t(x) * pixel_stride) =
        static_cast<Sample>(value);
  }
};

// How many blocks of `kernel` the current device holds at once: one full wave. A
// kernel given more than the default 48 KiB of dynamic shared memory is first allowed
// the device's whole opt-in limit (less its static shared memory): always that one
// value, so that host threads launching it with different needs never lower the limit
// under one another's launch. The queries cost microseconds of host time, as much as a
// small frame's kernel, so their answers are kept per kernel, block shape and device.
// The limit itself belongs to the current context, and a device may have several
// (GStreamer's are made with cuCtxCreate): it is set again at every call.
template <typename Kernel>
cudaError_t resident_blocks(Kernel kernel, int threads, size_t shared_bytes, int *blocks) {
  struct Answers {
    int blocks;
    int dynamic_shared_limit;  // 0: the default is enough
  };
  using Key = std::tuple<const void *, int, size_t, int>;
  static std::mutex mutex;
  static std::map<Key, Answers> known;
  int device = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return e;
  const Key key{reinterpret_cast<const void *>(kernel), threads, shared_bytes, device};
  Answers answers{};
  bool found = false;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = known.find(key); it != known.end()) {
      answers = it->second;
      found = true;
    }
  }
  constexpr size_t kDefaultSharedBytes = 48 * 1024;
  if (!found && shared_bytes > kDefaultSharedBytes) {
    int opt_in_limit = 0;
    cudaFuncAttributes attributes{};
    if (const cudaError_t e = cudaDeviceGetAttribute(
            &opt_in_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
        e != cudaSuccess)
      return e;
    if (const cudaError_t e = cudaFuncGetAttributes(&attributes, kernel); e != cudaSuccess)
      return e;
    answers.dynamic_shared_limit = opt_in_limit - int(attributes.sharedSizeBytes);
  }
  if (answers.dynamic_shared_limit != 0) {
    if (const cudaError_t e = cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, answers.dynamic_shared_limit);
        e != cudaSuccess)
      return e;
  }
  if (!found) {
    int multiprocessors = 0;
    int per_multiprocessor = 0;
    if (const cudaError_t e =
            cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device);
        e != cudaSuccess)
      return e;
    if (const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_multiprocessor, kernel, threads, shared_bytes);
        e != cudaSuccess)
      return e;
    answers.blocks = multiprocessors * per_multiprocessor;
    const std::lock_guard<std::mutex> lock(mutex);
    known.emplace(key, answers);
  }
  *blocks = answers.blocks;
  return cudaSuccess;
}

}  // namespace cf
