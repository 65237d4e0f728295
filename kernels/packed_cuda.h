// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Packed planes (plane.h) channel by channel, for the CUDA kernels that do not read
// pixels whole (the moving-histogram median, the strip Gauss kernel, 16-bit
// histograms, layouts the whole-pixel kernels do not take): the kernels of one channel
// run on each computed channel in turn.
#pragma once

#include <cuda_runtime_api.h>

#include "plane.h"

namespace cf {

// Whether the CUDA backend takes the packed pair: it copies the channels it does not
// compute with the rows' bytes, so the pixels must hold nothing but their channels.
inline bool can_copy_pixels_whole(const Plane &src, const Plane &dst, SampleFormat format) {
  const int pixel_bytes = src.channels * bytes_per_sample(format);
  return src.channel_mask == all_channels(src.channels) ||
         (src.pixel_stride == pixel_bytes && dst.pixel_stride == pixel_bytes);
}

// Queues filter(src channel, dst channel), which returns a cudaError_t, for every
// computed channel of src and dst (device memory, a valid pair that
// can_copy_pixels_whole), after copying the rows whole where some channel is not
// computed. Returns the first error.
template <class ChannelFilter>
cudaError_t filter_channels_cuda(const Plane &src, const Plane &dst, SampleFormat format,
                                 cudaStream_t stream, ChannelFilter filter) {
  if (src.channel_mask != all_channels(src.channels)) {
    const size_t row_bytes = row_span_bytes(src, format);
    // One row: its pitch may be anything, the copy's must cover the row.
    const auto pitch = [&](const Plane &plane) {
      return plane.height > 1 ? static_cast<size_t>(plane.row_pitch) : row_bytes;
    };
    if (const cudaError_t err =
            cudaMemcpy2DAsync(dst.data, pitch(dst), src.data, pitch(src), row_bytes, src.height,
                              cudaMemcpyDeviceToDevice, stream);
        err != cudaSuccess)
      return err;
  }
  for (int c = 0; c < src.channels; ++c)
    if (src.channel_mask & (1u << c))
      if (const cudaError_t err = filter(channel_plane(src, c, format), channel_plane(dst, c, format));
          err != cudaSuccess)
        return err;
  return cudaSuccess;
}

}  // namespace cf
