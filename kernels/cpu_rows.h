// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// What the CPU filters' vector code (cpu_rows-inl.h) needs to know of a call:
// the planes, the format's padding bits and the border, with the window's radii.
// Packed planes (plane.h) are computed row by row, all channels at once.
#pragma once

#include <cstdint>

#include "plane.h"

namespace cf {

struct RowFilterJob {
  Plane src;
  Plane dst;
  int padding_bits = 0;      // value = sample >> padding_bits (plane.h)
  BorderMode border_mode = BorderMode::Replicate;
  uint32_t constant = 0;     // the border constant, a value within the format's range
  int radius_x = 0;          // columns of the window left and right of its centre
  int radius_y = 0;          // rows above and below
};

// The row code takes planes of one channel (at any pixel stride) and packed planes
// whose pixels are their channels' samples and nothing else (dense): a row of such a
// plane is a row of width * channels samples, pixel_stride / channels bytes apart.
inline bool is_dense(const Plane &plane, SampleFormat format) {
  return plane.pixel_stride == plane.channels * bytes_per_sample(format);
}
inline bool takes_rows_of(const Plane &src, const Plane &dst, SampleFormat format) {
  return src.channels == 1 || (is_dense(src, format) && is_dense(dst, format));
}

}  // namespace cf
