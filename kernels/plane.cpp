// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "plane.h"

namespace cf {

bool is_valid_plane(const Plane &plane, SampleFormat format) {
  if (!is_valid(format))
    return false;
  if (plane.data == nullptr || plane.width <= 0 || plane.height <= 0 || plane.channels < 1 ||
      plane.channels > kMaxChannels || plane.channel_mask == 0 ||
      plane.channel_mask > all_channels(plane.channels) ||
      plane.pixel_stride < plane.channels * bytes_per_sample(format))
    return false;
  return plane.height == 1 ||
         plane.row_pitch >= static_cast<ptrdiff_t>(row_span_bytes(plane, format));
}

bool is_valid_plane_pair(const Plane &src, const Plane &dst, SampleFormat format) {
  return is_valid_plane(src, format) && is_valid_plane(dst, format) && src.width == dst.width &&
         src.height == dst.height && src.channels == dst.channels &&
         src.channel_mask == dst.channel_mask;
}

Plane channel_plane(const Plane &plane, int channel, SampleFormat format) {
  Plane view = plane;
  view.data += channel * bytes_per_sample(format);
  view.channels = 1;
  view.channel_mask = 1;
  return view;
}

size_t row_span_bytes(const Plane &plane, SampleFormat format) {
  return static_cast<size_t>(plane.width - 1) * plane.pixel_stride +
         static_cast<size_t>(plane.channels) * bytes_per_sample(format);
}

bool are_samples_aligned(const Plane &plane, SampleFormat format) {
  const uintptr_t alignment_bits = reinterpret_cast<uintptr_t>(plane.data) |
                                   uintptr_t(plane.pixel_stride) | uintptr_t(plane.row_pitch);
  return alignment_bits % bytes_per_sample(format) == 0;
}

bool are_samples_aligned(const Plane &src, const Plane &dst, SampleFormat format) {
  return are_samples_aligned(src, format) && are_samples_aligned(dst, format);
}

}  // namespace cf
