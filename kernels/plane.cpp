// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "plane.h"

namespace cf {

bool is_valid_plane(const Plane &plane, SampleFormat format) {
  if (!is_valid(format))
    return false;
  const int sample_bytes = bytes_per_sample(format);
  if (plane.data == nullptr || plane.width <= 0 || plane.height <= 0 ||
      plane.pixel_stride < sample_bytes)
    return false;
  return plane.height == 1 ||
         plane.row_pitch >= ptrdiff_t(plane.width - 1) * plane.pixel_stride + sample_bytes;
}

bool is_valid_plane_pair(const Plane &src, const Plane &dst, SampleFormat format) {
  return is_valid_plane(src, format) && is_valid_plane(dst, format) && src.width == dst.width &&
         src.height == dst.height;
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
