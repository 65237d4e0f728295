// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "reference_gauss.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "plane_access.h"

namespace cftest {

void reference_gauss(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                     const cf::GaussParams &params) {
  const int radius_x = static_cast<int>(params.taps_x.size()) / 2;
  const int radius_y = static_cast<int>(params.taps_y.size()) / 2;
  const int shift = 2 * cf::gauss_tap_bits(format);
  const uint32_t max_value = cf::max_sample_value(format);
  const uint32_t constant = std::min<uint32_t>(params.border.constant, max_value);
  const cf::SampleDepth depth = format.depth;
  // The value of a sample (plane.h), and the sample that stores a value.
  const auto value_at = [&](int x, int y) {
    return read_sample(src, depth, x, y) >> format.padding_bits;
  };
  const auto store = [&](int x, int y, uint32_t value) {
    write_sample(dst, depth, x, y, value << format.padding_bits);
  };
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      uint64_t sum = 0;
      for (int i = -radius_y; i <= radius_y; ++i) {
        const int row = cf::border_index(y + i, src.height, params.border.mode);
        for (int j = -radius_x; j <= radius_x; ++j) {
          const int column = cf::border_index(x + j, src.width, params.border.mode);
          const uint32_t value = row < 0 || column < 0 ? constant : value_at(column, row);
          sum += uint64_t(params.taps_y[i + radius_y]) * uint64_t(params.taps_x[j + radius_x]) *
                 value;
        }
      }
      const auto blurred = static_cast<int64_t>((sum + (uint64_t{1} << (shift - 1))) >> shift);
      int64_t out = blurred;
      if (params.mode == cf::GaussMode::Unsharp) {
        const int64_t original = value_at(x, y);
        const int64_t detail = original - blurred;
        out = original;
        if (std::llabs(detail) >= int64_t{params.threshold}) {
          // floor((amount_q8 * detail + 128) / 256), exactly, in floating point.
          const auto sharpening = static_cast<int64_t>(
              std::floor(static_cast<double>(params.amount_q8 * detail + 128) / 256));
          out = std::clamp<int64_t>(original + sharpening, 0, int64_t{max_value});
        }
      }
      store(x, y, static_cast<uint32_t>(out));
    }
  }
}

}  // namespace cftest
