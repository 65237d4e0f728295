// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// What the CPU filters' vector code (cpu_rows-inl.h) needs to know of a call:
// the planes, the format's padding bits and the border, with the window's radii.
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

}  // namespace cf
