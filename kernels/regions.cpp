// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "regions.h"

#include <algorithm>
#include <cstring>

namespace cf {

bool is_within(const Box &box, const Plane &plane) {
  // In 64 bits: x + width may pass INT_MAX.
  return box.x >= 0 && box.y >= 0 && box.width > 0 && box.height > 0 &&
         int64_t{box.x} + box.width <= plane.width && int64_t{box.y} + box.height <= plane.height;
}

bool is_valid(const OutputRegion &region, const Plane &plane) {
  if (region.whole_plane)
    return true;
  if (region.count < 0 || (region.count > 0 && region.boxes == nullptr))
    return false;
  return std::all_of(region.boxes, region.boxes + region.count,
                     [&](const Box &box) { return is_within(box, plane); });
}

namespace {

// The part of `plane` that `box` covers, as a plane of its own.
Plane sub_plane(const Plane &plane, const Box &box) {
  Plane view = plane;
  view.data += box.y * plane.row_pitch + ptrdiff_t{box.x} * plane.pixel_stride;
  view.width = box.width;
  view.height = box.height;
  return view;
}

// `box` grown by rx and ry on every side, clipped to the plane.
Box widened(const Box &box, const Plane &plane, int radius_x, int radius_y) {
  const int x0 = std::max(0, box.x - radius_x);
  const int y0 = std::max(0, box.y - radius_y);
  const int x1 = static_cast<int>(std::min<int64_t>(plane.width, int64_t{box.x} + box.width + radius_x));
  const int y1 = static_cast<int>(std::min<int64_t>(plane.height, int64_t{box.y} + box.height + radius_y));
  return {x0, y0, x1 - x0, y1 - y0};
}

// Copies the computed channels of every pixel of src to dst (same size).
void copy_computed(const Plane &src, const Plane &dst, SampleFormat format) {
  const int sample_bytes = bytes_per_sample(format);
  for (int y = 0; y < src.height; ++y) {
    const uint8_t *in = src.data + y * src.row_pitch;
    uint8_t *out = dst.data + y * dst.row_pitch;
    for (int x = 0; x < src.width; ++x)
      for (int c = 0; c < src.channels; ++c)
        if (src.channel_mask & (1u << c))
          std::memcpy(out + ptrdiff_t{x} * dst.pixel_stride + c * sample_bytes,
                      in + ptrdiff_t{x} * src.pixel_stride + c * sample_bytes, sample_bytes);
  }
}

}  // namespace

cudaError_t filter_boxes_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                             const OutputRegion &region, int radius_x, int radius_y,
                             const PlaneFilterFn &filter) {
  std::vector<uint8_t> scratch;
  for (int i = 0; i < region.count; ++i) {
    const Box &box = region.boxes[i];
    const Box wide = widened(box, src, radius_x, radius_y);
    Plane out = sub_plane(src, wide);
    out.row_pitch = ptrdiff_t{wide.width} * src.pixel_stride;
    scratch.assign(static_cast<size_t>(out.row_pitch) * wide.height, 0);
    out.data = scratch.data();
    if (const cudaError_t err = filter(sub_plane(src, wide), out); err != cudaSuccess)
      return err;
    const Box inner{box.x - wide.x, box.y - wide.y, box.width, box.height};
    copy_computed(sub_plane(out, inner), sub_plane(dst, box), format);
  }
  return cudaSuccess;
}

}  // namespace cf
