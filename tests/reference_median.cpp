// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "reference_median.h"

#include <algorithm>
#include <vector>

#include "plane_access.h"

namespace cftest {

void reference_median(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                      const cf::MedianParams &params) {
  const int radius = params.window / 2;
  const int padding_bits = format.padding_bits;
  const uint32_t constant =
      std::min<uint32_t>(params.border.constant, cf::max_sample_value(format));
  std::vector<uint32_t> window;
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      window.clear();
      for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
          const int row = cf::border_index(y + dy, src.height, params.border.mode);
          const int column = cf::border_index(x + dx, src.width, params.border.mode);
          window.push_back(row < 0 || column < 0
                               ? constant
                               : read_sample(src, format.depth, column, row) >> padding_bits);
        }
      }
      std::sort(window.begin(), window.end());
      write_sample(dst, format.depth, x, y, window[(window.size() - 1) / 2] << padding_bits);
    }
  }
}

}  // namespace cftest
