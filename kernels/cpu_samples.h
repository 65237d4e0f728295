// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Sample access for the CPU backends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "plane.h"

namespace cf {

// Samples may sit at any byte offset (odd pitches, packed formats): memcpy is the
// portable unaligned access and compiles to a plain load/store.
template <typename Sample>
Sample load_sample(const uint8_t *address) {
  Sample sample;
  std::memcpy(&sample, address, sizeof sample);
  return sample;
}

template <typename Sample>
void store_sample(uint8_t *address, Sample sample) {
  std::memcpy(address, &sample, sizeof sample);
}

// Copies the channels of a packed plane that its mask does not compute from src to
// dst, sample by sample (for filters that compute the others channel by channel).
inline void copy_channels_not_computed(const Plane &src, const Plane &dst, SampleFormat format) {
  const int sample_bytes = bytes_per_sample(format);
  for (int c = 0; c < src.channels; ++c) {
    if (src.channel_mask & (1u << c))
      continue;
    for (int y = 0; y < src.height; ++y)
      for (int x = 0; x < src.width; ++x)
        std::memcpy(dst.data + y * dst.row_pitch + x * ptrdiff_t{dst.pixel_stride} +
                        c * sample_bytes,
                    src.data + y * src.row_pitch + x * ptrdiff_t{src.pixel_stride} +
                        c * sample_bytes,
                    sample_bytes);
  }
}

// Byte offset standing for a window column that lies in the constant border.
constexpr ptrdiff_t kConstantColumn = -1;

}  // namespace cf
