// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Single-sample access to a cf::Plane, the slow and obvious way the tests want.
#pragma once

#include <cstdint>
#include <cstring>

#include "plane.h"

namespace cftest {

inline uint8_t *sample_address(const cf::Plane &plane, int x, int y) {
  return plane.data + y * plane.row_pitch + x * static_cast<ptrdiff_t>(plane.pixel_stride);
}

inline uint32_t read_sample(const cf::Plane &plane, cf::SampleDepth depth, int x, int y) {
  const uint8_t *address = sample_address(plane, x, y);
  if (depth == cf::SampleDepth::U8)
    return *address;
  uint16_t sample;
  std::memcpy(&sample, address, sizeof sample);
  return sample;
}

inline void write_sample(const cf::Plane &plane, cf::SampleDepth depth, int x, int y,
                         uint32_t value) {
  uint8_t *address = sample_address(plane, x, y);
  if (depth == cf::SampleDepth::U8) {
    *address = static_cast<uint8_t>(value);
    return;
  }
  const auto sample = static_cast<uint16_t>(value);
  std::memcpy(address, &sample, sizeof sample);
}

}  // namespace cftest
