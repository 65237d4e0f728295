// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// What the CPU filters' vector code (cpu_rows-inl.h) needs to know of a call:
// the planes, the format's padding bits and the border, with the window's radii.
// Packed planes (plane.h) are computed channel by channel: the vector code splits a
// source row into one row of values per computed channel and interleaves them back.
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

// The channels of plane.channel_mask in ascending order; returns their count.
inline int computed_channels(const Plane &plane, int (&channels)[kMaxChannels]) {
  int count = 0;
  for (int c = 0; c < plane.channels; ++c)
    if (plane.channel_mask & (1u << c))
      channels[count++] = c;
  return count;
}

}  // namespace cf
