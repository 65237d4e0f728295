// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The step tables of mask shapes (redact.h), made on the host for both backends.
#include <algorithm>

#include "redact.h"
#include "redact_math.h"

namespace cf {

int64_t redact_mask_table_samples(const RedactView &view, const Box &box) {
  const RedactEdges area =
      redact_table_area({box.x, box.y, box.x + box.width, box.y + box.height}, view.feather,
                        view.plane.width, view.plane.height);
  return int64_t{area.x1 - area.x0} * (area.y1 - area.y0);
}

// The Chebyshev distance transform in two raster passes over the 8 neighbours, each
// step costing 1: exact for that metric (a path of king's moves is as long as the
// distance), and capped at feather + 1, which keeps it exact below the cap.
void redact_mask_steps(const RedactEdges &box, const uint8_t *mask, int feather, int width,
                       int height, uint16_t *steps) {
  const RedactEdges area = redact_table_area(box, feather, width, height);
  const int w = area.x1 - area.x0, h = area.y1 - area.y0;
  const uint16_t none = uint16_t(feather + 1);
  const int box_width = box.x1 - box.x0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int bx = x + area.x0 - box.x0, by = y + area.y0 - box.y0;
      const bool inside = bx >= 0 && bx < box_width && by >= 0 && by < box.y1 - box.y0 &&
                          mask[size_t(by) * box_width + bx] != 0;
      steps[size_t(y) * w + x] = inside ? 0 : none;
    }
  const auto at = [&](int x, int y) -> uint16_t & { return steps[size_t(y) * w + x]; };
  // From a neighbour at (x + dx, y + dy), where it lies in the table.
  const auto relax = [&](int x, int y, int dx, int dy) {
    const int nx = x + dx, ny = y + dy;
    if (nx >= 0 && nx < w && ny >= 0 && ny < h)
      at(x, y) = std::min<uint16_t>(at(x, y), uint16_t(std::min<int>(none, at(nx, ny) + 1)));
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      relax(x, y, -1, 0);
      relax(x, y, -1, -1);
      relax(x, y, 0, -1);
      relax(x, y, 1, -1);
    }
  for (int y = h - 1; y >= 0; --y)
    for (int x = w - 1; x >= 0; --x) {
      relax(x, y, 1, 0);
      relax(x, y, 1, 1);
      relax(x, y, 0, 1);
      relax(x, y, -1, 1);
    }
}

}  // namespace cf
