// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The per-sample arithmetic of redact.h, shared by the CPU and CUDA backends so that
// both compute the same integers: the inside tests, a sample's step and weight, the
// blend and the rounded mean; and the masks' step tables, made once on the host for
// both.
#pragma once

#include <cstddef>
#include <cstdint>

#include "plane.h"

namespace cf {

// A shape's box as half-open edges: [x0, x1) x [y0, y1).
struct RedactEdges {
  int x0;
  int y0;
  int x1;
  int y1;
};

constexpr int kRedactFullWeight = 256;

// Whether sample (x, y) lies inside the ellipse inscribed in `box` grown by k on every
// side. Grown boxes keep their centre, so dx and dy do not depend on k. Only called
// inside the grown box, where |dx| <= W and |dy| <= H: with sides up to
// kRedactMaxEllipseSide + 2 * kRedactMaxFeather every product stays below 2^62.
CF_HOST_DEVICE inline bool redact_inside_ellipse(const RedactEdges &box, int x, int y, int k) {
  const int64_t width = int64_t{box.x1} - box.x0 + 2 * k;
  const int64_t height = int64_t{box.y1} - box.y0 + 2 * k;
  const int64_t dx = 2 * int64_t{x} + 1 - box.x0 - box.x1;
  const int64_t dy = 2 * int64_t{y} + 1 - box.y0 - box.y1;
  const int64_t w2 = width * width;
  const int64_t h2 = height * height;
  return dx * dx * h2 + dy * dy * w2 <= w2 * h2;
}

// Samples outside the box by this much on its worst side (0 inside): the box grown by
// k holds the sample exactly when k >= this distance.
CF_HOST_DEVICE inline int redact_box_distance(const RedactEdges &box, int x, int y) {
  int d = 0;
  d = d > box.x0 - x ? d : box.x0 - x;
  d = d > x - box.x1 + 1 ? d : x - box.x1 + 1;
  d = d > box.y0 - y ? d : box.y0 - y;
  d = d > y - box.y1 + 1 ? d : y - box.y1 + 1;
  return d;
}

// The step k of redact.h: 0 inside, 1..feather in the feather, feather + 1 for none.
// The ellipse grown by k contains the one grown by k - 1 (same centre, longer axes),
// so the least k is found by bisection, from the grown box's own least k.
CF_HOST_DEVICE inline int redact_step(const RedactEdges &box, bool ellipse, int feather, int x,
                                      int y) {
  const int box_k = redact_box_distance(box, x, y);
  if (box_k > feather)
    return feather + 1;
  if (!ellipse)
    return box_k;
  if (redact_inside_ellipse(box, x, y, box_k))
    return box_k;
  if (!redact_inside_ellipse(box, x, y, feather))
    return feather + 1;
  int low = box_k + 1, high = feather;  // the least k lies in [low, high]
  while (low < high) {
    const int middle = (low + high) / 2;
    if (redact_inside_ellipse(box, x, y, middle))
      high = middle;
    else
      low = middle + 1;
  }
  return low;
}

// The weight of step k: 256 inside, fading over the feather, 0 past it.
CF_HOST_DEVICE inline int redact_weight(int step, int feather) {
  if (step == 0)
    return kRedactFullWeight;
  if (step > feather)
    return 0;
  return (feather + 1 - step) * kRedactFullWeight / (feather + 1);
}

CF_HOST_DEVICE inline int redact_shape_weight(const RedactEdges &box, bool ellipse, int feather,
                                              int x, int y) {
  return redact_weight(redact_step(box, ellipse, feather, x, y), feather);
}

// Where a mask shape's step table lies: its box grown by the feather, clipped to the
// plane of width x height samples.
CF_HOST_DEVICE inline RedactEdges redact_table_area(const RedactEdges &box, int feather,
                                                    int width, int height) {
  return {box.x0 - feather > 0 ? box.x0 - feather : 0,
          box.y0 - feather > 0 ? box.y0 - feather : 0,
          box.x1 + feather < width ? box.x1 + feather : width,
          box.y1 + feather < height ? box.y1 + feather : height};
}

// The weight at (x, y) of a shape: from its step table where it has a mask (`steps`
// over redact_table_area, row after row), else from its outline.
CF_HOST_DEVICE inline int redact_any_shape_weight(const RedactEdges &box, const uint16_t *steps,
                                                  bool ellipse, int feather, int width,
                                                  int height, int x, int y) {
  if (steps == nullptr)
    return redact_shape_weight(box, ellipse, feather, x, y);
  const RedactEdges area = redact_table_area(box, feather, width, height);
  if (x < area.x0 || x >= area.x1 || y < area.y0 || y >= area.y1)
    return 0;
  return redact_weight(
      steps[size_t(y - area.y0) * size_t(area.x1 - area.x0) + size_t(x - area.x0)], feather);
}

// Fills `steps` (redact_table_area of `box` in a plane of width x height samples) with
// the step of redact.h of each sample for the mask shape of `box` and `mask`: the
// Chebyshev distance to the nearest sample inside, feather + 1 past the feather.
// Host only.
void redact_mask_steps(const RedactEdges &box, const uint8_t *mask, int feather, int width,
                       int height, uint16_t *steps);

// A value blended towards the redacted value r by weight w (0..256).
CF_HOST_DEVICE inline uint32_t redact_blend(uint32_t r, uint32_t in, int w) {
  return (r * uint32_t(w) + in * uint32_t(kRedactFullWeight - w) + 128) >> 8;
}

// The mean of `count` values summing to `sum`, rounded half up.
CF_HOST_DEVICE inline uint32_t redact_mean(uint64_t sum, uint64_t count) {
  // In 32 bits where the operands fit (nearly always): a GPU divides 64-bit
  // integers in software, several times slower.
  if (sum <= UINT32_MAX / 4 && count <= UINT32_MAX / 4)
    return (2 * uint32_t(sum) + uint32_t(count)) / (2 * uint32_t(count));
  return uint32_t((2 * sum + count) / (2 * count));
}

// A pixelate block's index along one axis: the block of `position` counted from the
// box's start, clamped to the box's `blocks` (the feather takes the nearest one).
CF_HOST_DEVICE inline int redact_block_index(int position, int start, int block_size,
                                             int blocks) {
  if (position < start)
    return 0;
  const int index = (position - start) / block_size;
  return index < blocks ? index : blocks - 1;
}

}  // namespace cf
