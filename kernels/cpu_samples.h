// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Sample access for the CPU backends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

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

// Byte offset standing for a window column that lies in the constant border.
constexpr ptrdiff_t kConstantColumn = -1;

}  // namespace cf
