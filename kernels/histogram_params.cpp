// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// What both histogram backends accept, in one place.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "histogram.h"

namespace cf {

HistogramRegion resolve_region(const HistogramParams &params, const Plane &src) {
  return {params.roi_x, params.roi_y,
          params.roi_width > 0 ? params.roi_width : src.width - params.roi_x,
          params.roi_height > 0 ? params.roi_height : src.height - params.roi_y};
}

bool is_valid(const HistogramParams &params, const Plane &src, SampleFormat format) {
  if (!is_valid_plane(src, format))  // checks the format too
    return false;
  const int max_bins =
      format.depth == SampleDepth::U8 ? kHistogramMaxBins8 : kHistogramMaxBins16;
  if (params.lower > params.upper || params.upper > max_sample_value(format) ||
      params.bins < 1 || params.bins > max_bins)
    return false;
  // Offsets inside the plane first, so that resolving 0 sizes cannot overflow.
  if (params.roi_x < 0 || params.roi_y < 0 || params.roi_width < 0 || params.roi_height < 0 ||
      params.roi_x >= src.width || params.roi_y >= src.height)
    return false;
  const HistogramRegion region = resolve_region(params, src);
  return region.width <= src.width - region.x && region.height <= src.height - region.y &&
         uint64_t(region.width) * uint64_t(region.height) <= std::numeric_limits<uint32_t>::max();
}

bool are_valid_outputs(const Plane &src, const HistogramOutput *outputs) {
  if (outputs == nullptr)
    return false;
  const HistogramOutput *output = outputs;
  for (int c = 0; c < src.channels; ++c)
    if (src.channel_mask & (1u << c)) {
      if (output->bins == nullptr || output->summary == nullptr)
        return false;
      ++output;
    }
  return true;
}

bool are_valid_boxes(const Box *boxes, int count, const Plane &src) {
  if (count < 0 || (count > 0 && boxes == nullptr))
    return false;
  // Every count of a box fits its uint32.
  return std::all_of(boxes, boxes + count, [&](const Box &box) {
    return is_within(box, src) &&
           uint64_t(box.width) * uint64_t(box.height) <= std::numeric_limits<uint32_t>::max();
  });
}

bool are_valid_box_outputs(const Plane &src, int count, const HistogramOutput *outputs) {
  if (count == 0)
    return true;
  if (outputs == nullptr || count < 0)
    return false;
  int counted = 0;
  for (int c = 0; c < src.channels; ++c)
    counted += (src.channel_mask >> c) & 1u;
  for (int b = 0; b < count; ++b)
    if (!are_valid_outputs(src, outputs + size_t(b) * counted))
      return false;
  return true;
}

}  // namespace cf
