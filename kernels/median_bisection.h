// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The median of large windows of 16-bit samples by bisection on the value: for each
// value bit from the top, count the window's samples above the candidate that has that
// bit clear and every lower bit set; the median has the bit set when at least half of
// the window lies above. Sixteen passes over the window, whatever the data: the cost
// of a sorting network without a network's registers, the cost of a histogram without
// its dependence on where the median lies.
//
// Words carry two 16-bit lanes, each its own output (the CUDA kernel's row pair), and
// `Lanes` counts lane by lane: a max, an add-and-min and a multiply-add per word on
// sm_90 (median_cuda.cu), plain C++ in the tests. Host and device run this same code.
#pragma once

#include <cstdint>

#include "plane.h"

namespace cf {

// Per lane, 0x10000 minus the lane: the lane's negation modulo 2^16.
CF_HOST_DEVICE constexpr uint32_t negate_lanes(uint32_t word) {
  return ((0x10000u - (word & 0xffffu)) & 0xffffu) | (0x10000u - (word >> 16)) << 16;
}

// The medians of N neighbouring K x K windows: output o's window is columns o to
// o + K - 1 of rows 0 to K - 1 of load(row, column), a word of two lanes. Only the
// value bits (value_bits, the same in both lanes) are searched: padding bits below
// them never decide, and come out clear. Lanes::count_above(count, word, threshold,
// negated_threshold) adds to each lane of count 1 where the word's lane exceeds the
// threshold's.
template <int K, int N, typename Load, typename Lanes>
CF_HOST_DEVICE inline void bisection_medians(const Load &load, uint32_t value_bits,
                                             const Lanes &lanes, uint32_t (&medians)[N]) {
  constexpr uint32_t kHalf = (K * K + 1) / 2;  // samples above a candidate under the median
  constexpr int kColumns = N + K - 1;
  uint32_t prefix[N] = {};  // the median's bits found so far, in both lanes
  const uint32_t lowest_bit = value_bits & (0u - value_bits);
CF_NO_UNROLL
  for (uint32_t bit = 0x8000u; bit != 0 && bit >= lowest_bit; bit >>= 1) {
    uint32_t threshold[N];
    uint32_t negated[N];
    uint32_t above[N];  // per lane at most K * K: no carry into the other lane
CF_UNROLL
    for (int o = 0; o < N; ++o) {
      threshold[o] = prefix[o] + (bit - 1) * 0x10001u;
      negated[o] = negate_lanes(threshold[o]);
      above[o] = 0;
    }
    // A row's words are loaded once for all N outputs.
CF_NO_UNROLL
    for (int i = 0; i < K; ++i) {
      uint32_t row[kColumns];
CF_UNROLL
      for (int c = 0; c < kColumns; ++c)
        row[c] = load(i, c);
CF_UNROLL
      for (int o = 0; o < N; ++o)
CF_UNROLL
        for (int j = 0; j < K; ++j)
          lanes.count_above(above[o], row[o + j], threshold[o], negated[o]);
    }
CF_UNROLL
    for (int o = 0; o < N; ++o)
      for (int shift = 0; shift < 32; shift += 16)
        if ((above[o] >> shift & 0xffffu) >= kHalf)
          prefix[o] += bit << shift;
  }
CF_UNROLL
  for (int o = 0; o < N; ++o)
    medians[o] = prefix[o];
}

}  // namespace cf
