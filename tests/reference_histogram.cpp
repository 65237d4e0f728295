// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "reference_histogram.h"

#include <algorithm>

#include "plane_access.h"

namespace cftest {

HistogramResult reference_histogram(const cf::Plane &src, cf::SampleFormat format,
                                    const cf::HistogramParams &params) {
  // 0 sizes reach the plane's edges.
  const int width = params.roi_width > 0 ? params.roi_width : src.width - params.roi_x;
  const int height = params.roi_height > 0 ? params.roi_height : src.height - params.roi_y;
  const uint64_t range = uint64_t{params.upper} - params.lower + 1;

  HistogramResult result;
  result.bins.assign(params.bins, 0);
  cf::HistogramSummary &summary = result.summary;
  summary.min = cf::max_sample_value(format);
  for (int y = params.roi_y; y < params.roi_y + height; ++y)
    for (int x = params.roi_x; x < params.roi_x + width; ++x) {
      const uint64_t value = read_sample(src, format.depth, x, y) >> format.padding_bits;
      summary.sum += value;
      ++summary.samples;
      summary.min = std::min(summary.min, static_cast<uint32_t>(value));
      summary.max = std::max(summary.max, static_cast<uint32_t>(value));
      if (value < params.lower)
        ++summary.below;
      else if (value > params.upper)
        ++summary.above;
      else
        ++result.bins[(value - params.lower) * params.bins / range];
    }
  return result;
}

}  // namespace cftest
