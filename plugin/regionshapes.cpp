// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "regionshapes.h"

#include <algorithm>
#include <cmath>

#include "redact_math.h"

/* The box [x0, x1) x [y0, y1) clipped to the frame; false where it holds no
 * pixel of it. */
static bool
clip_to_frame (gint64 x0, gint64 y0, gint64 x1, gint64 y1, int width,
    int height, cf::Box * box)
{
  x0 = std::max<gint64> (x0, 0);
  y0 = std::max<gint64> (y0, 0);
  x1 = std::min<gint64> (x1, width);
  y1 = std::min<gint64> (y1, height);
  if (x1 <= x0 || y1 <= y0)
    return false;
  *box = cf::Box {(int) x0, (int) y0, (int) (x1 - x0), (int) (y1 - y0)};
  return true;
}

bool
rotated_rect_shape (gint64 x, gint64 y, gint64 w, gint64 h, double angle,
    guint padding, int width, int height, RegionShape * shape)
{
  if (w <= 0 || h <= 0 || !std::isfinite (angle))
    return false;
  const double half_w = w / 2.0 + padding, half_h = h / 2.0 + padding;
  const double cx = x + w / 2.0, cy = y + h / 2.0;
  const double c = std::cos (angle), s = std::sin (angle);
  const double extent_x = half_w * std::fabs (c) + half_h * std::fabs (s);
  const double extent_y = half_w * std::fabs (s) + half_h * std::fabs (c);
  cf::Box box;
  if (!clip_to_frame ((gint64) std::floor (cx - extent_x),
          (gint64) std::floor (cy - extent_y), (gint64) std::ceil (cx + extent_x),
          (gint64) std::ceil (cy + extent_y), width, height, &box))
    return false;
  auto mask = std::make_shared<std::vector<guint8>> (
      (gsize) box.width * box.height);
  for (int py = 0; py < box.height; py++)
    for (int px = 0; px < box.width; px++) {
      /* The pixel's centre, turned back by the angle about the centre. */
      const double dx = box.x + px + 0.5 - cx, dy = box.y + py + 0.5 - cy;
      const double along = dx * c + dy * s, across = -dx * s + dy * c;
      (*mask)[(gsize) py * box.width + px] =
          std::fabs (along) <= half_w && std::fabs (across) <= half_h;
    }
  shape->box = box;
  shape->mask = std::move (mask);
  return true;
}

static guint
label_at (const LabelMask & mask, int column, int row)
{
  const guint8 *at = mask.data + (gsize) row * mask.stride;
  return mask.wide ? (guint) (at[2 * column] | at[2 * column + 1] << 8) :
      at[column];
}

MaskRegions::MaskRegions (const LabelMask & mask, std::vector<guint> listed)
    : listed_ (std::move (listed)), unlisted_ {mask.width, mask.height, 0, 0}
{
  const auto grow = [](cf::RedactEdges & b, const cf::RedactEdges & by) {
    b = {MIN (b.x0, by.x0), MIN (b.y0, by.y0), MAX (b.x1, by.x1),
      MAX (b.y1, by.y1)};
  };
  held_.assign (256, unlisted_);
  for (int row = 0; row < mask.height; row++)
    for (int column = 0; column < mask.width; column++) {
      const guint label = label_at (mask, column, row);
      if (label >= held_.size ())      /* 16-bit labels */
        held_.resize (label + 1, unlisted_);
      grow (held_[label], {column, row, column + 1, row + 1});
    }
  is_listed_.assign (held_.size (), false);
  for (guint label : listed_)
    if (label < held_.size ())
      is_listed_[label] = true;
  for (gsize label = 1; label < held_.size (); label++)
    if (!is_listed_[label] && held_[label].x0 < held_[label].x1)
      grow (unlisted_, held_[label]);
}

bool
MaskRegions::holds (gsize region, guint label) const
{
  if (region < listed_.size ())
    return label == listed_[region];
  return label != 0 && label < is_listed_.size () && !is_listed_[label];
}

const cf::RedactEdges &
MaskRegions::samples (gsize region) const
{
  static const cf::RedactEdges none {0, 0, 0, 0};
  if (region == listed_.size ())
    return unlisted_;
  return listed_[region] < held_.size () ? held_[listed_[region]] : none;
}

/* The first pixel, counted from the location's `start`, whose nearest sample
 * is `sample` or a later one, of `samples` over `extent` pixels: pixel p takes
 * sample (p - start) * samples / extent, rounded down. */
static gint64
first_pixel_of (gint64 start, gint64 extent, int samples, int sample)
{
  return start + (sample * extent + samples - 1) / samples;
}

bool
label_shape (const LabelMask & mask, const MaskRegions & regions,
    gsize region, guint padding, int width, int height, RegionShape * shape)
{
  const cf::RedactEdges & held = regions.samples (region);
  cf::Box area;
  if (mask.width <= 0 || mask.height <= 0 || mask.w <= 0 || mask.h <= 0 ||
      held.x0 >= held.x1 || held.y0 >= held.y1 ||
      !clip_to_frame (MAX (mask.x, first_pixel_of (mask.x, mask.w,
                  mask.width, held.x0)), MAX (mask.y, first_pixel_of (mask.y,
                  mask.h, mask.height, held.y0)),
          MIN (mask.x + mask.w, first_pixel_of (mask.x, mask.w, mask.width,
                  held.x1)), MIN (mask.y + mask.h, first_pixel_of (mask.y,
                  mask.h, mask.height, held.y1)), width, height, &area))
    return false;
  /* The selected pixels of the location in the frame, and their bounds. */
  std::vector<guint8> inside ((gsize) area.width * area.height);
  int x0 = area.width, y0 = area.height, x1 = 0, y1 = 0;
  for (int py = 0; py < area.height; py++) {
    const int row = (int) ((area.y + py - mask.y) * mask.height / mask.h);
    for (int px = 0; px < area.width; px++) {
      const int column = (int) ((area.x + px - mask.x) * mask.width / mask.w);
      if (!regions.holds (region, label_at (mask, column, row)))
        continue;
      inside[(gsize) py * area.width + px] = 1;
      x0 = MIN (x0, px);
      y0 = MIN (y0, py);
      x1 = MAX (x1, px + 1);
      y1 = MAX (y1, py + 1);
    }
  }
  if (x1 <= x0)
    return false;
  /* The pixels' own box, then grown by the padding as the kernels grow a mask
   * by a feather: each pixel of that box grown and clipped to the frame is in
   * where its step, the distance to the nearest pixel inside, is within it.
   * The steps count to 65535 at most; a padding that large covers any frame
   * but a wider one anyway. */
  const cf::RedactEdges bounds {area.x + x0, area.y + y0, area.x + x1,
    area.y + y1};
  std::vector<guint8> tight ((gsize) (x1 - x0) * (y1 - y0));
  for (int py = y0; py < y1; py++)
    std::copy_n (&inside[(gsize) py * area.width + x0], x1 - x0,
        &tight[(gsize) (py - y0) * (x1 - x0)]);
  const int grow = (int) MIN (padding, (guint) G_MAXUINT16 - 1);
  const cf::RedactEdges grown = cf::redact_table_area (bounds, grow, width,
      height);
  const gsize samples = (gsize) (grown.x1 - grown.x0) * (grown.y1 - grown.y0);
  std::vector<guint16> steps (samples);
  cf::redact_mask_steps (bounds, tight.data (), grow, width, height,
      steps.data ());
  auto grown_mask = std::make_shared<std::vector<guint8>> (samples);
  for (gsize i = 0; i < samples; i++)
    (*grown_mask)[i] = steps[i] <= grow;
  shape->box = cf::Box {grown.x0, grown.y0, grown.x1 - grown.x0,
    grown.y1 - grown.y0};
  shape->mask = std::move (grown_mask);
  return true;
}
