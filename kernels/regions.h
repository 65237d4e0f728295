// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Boxes of a plane, and filters whose output is restricted to them: the C++ API of
// the kernels, free of GStreamer (the plugin makes boxes from the detections a
// buffer carries).
#pragma once

#include "status.h"

#include <functional>
#include <vector>

#include "plane.h"

namespace cf {

// A rectangle of a plane, in its pixels: columns x .. x + width - 1, rows
// y .. y + height - 1.
struct Box {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
};

// Whether the box is non-empty and lies within the plane.
bool is_within(const Box &box, const Plane &plane);

// The pixels a filter writes: every pixel of the plane (the default), or only those
// inside at least one of the boxes. Boxes may overlap; none means nothing is written.
// The value written at a pixel does not depend on the boxes: samples outside every box
// still feed the filter, with the border beyond the plane's edges, exactly as for the
// whole plane. Pixels outside the boxes keep what dst held.
struct OutputRegion {
  bool whole_plane = true;
  const Box *boxes = nullptr;  // host memory, for either backend; read during the call
  int count = 0;

  static OutputRegion inside(const std::vector<Box> &boxes) {
    return {false, boxes.data(), static_cast<int>(boxes.size())};
  }
};

// Whether the region can restrict a filter of `plane`: the whole plane, or count >= 0
// boxes (not null where count > 0), each within the plane (is_within).
bool is_valid(const OutputRegion &region, const Plane &plane);

// The CPU backends' way to a region: for each box, `filter` (a whole-plane filter of
// the backend, its border included) runs on the box widened by radius_x and radius_y
// (clipped to the plane) into scratch memory, and the box's pixels, computed channels
// only, are copied to dst. Every pixel a filter of those radii reads for the box lies in
// the widened box or beyond the plane's own edges, so the result is the whole-plane
// filter's. Returns the first error of `filter`.
using PlaneFilterFn = std::function<cudaError_t(const Plane &src, const Plane &dst)>;
cudaError_t filter_boxes_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                             const OutputRegion &region, int radius_x, int radius_y,
                             const PlaneFilterFn &filter);

}  // namespace cf
