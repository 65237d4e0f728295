// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "redactplan.h"

#include <cmath>

#include "formatlayout.h"
#include "gauss.h"
#include "redactcolor.h"

static int
round_up (int value, int multiple)
{
  return (value + multiple - 1) / multiple * multiple;
}

RedactPlan::RedactPlan (const GstVideoInfo & info,
    const std::vector<ComponentView> & views,
    const FrameSelection & selection, const RedactLook & look)
    : info_ (info), look_ (look)
{
  const FormatLayout & layout = FormatLayout::of (info);
  Grid grid;
  for (const ComponentView & view : views) {
    const ComponentLayout & component =
        layout.component (view.first_component ());
    grid.x = MAX (grid.x, 1 << component.x_sub);
    grid.y = MAX (grid.y, 1 << component.y_sub);
  }
  /* Rows of both fields: each field's view then takes whole rows. */
  if (selection.fields)
    grid.y *= 2;
  format_ = views.empty ()? cf::SampleFormat () : views.front ().format;

  const bool whole_frame = selection.whole_frame || !selection.regions;
  params_.method = look.method;
  params_.outline = look.outline;
  params_.invert = whole_frame || look.invert;
  std::vector<Snapped> regions;
  if (!whole_frame)
    for (const FrameRegion & region : *selection.regions)
      regions.push_back ({snap (region.box, grid), &region});
  shapes_.resize (views.size ());
  for (size_t i = 0; i < views.size (); i++)
    views_.push_back (view_of (views[i], grid, regions, &shapes_[i]));
}

/* `box` grown to the grid, within the picture. */
cf::Box
RedactPlan::snap (const cf::Box & box, const Grid & grid) const
{
  const int x0 = box.x / grid.x * grid.x;
  const int y0 = box.y / grid.y * grid.y;
  const int x1 = MIN (round_up (box.x + box.width, grid.x),
      GST_VIDEO_INFO_WIDTH (&info_));
  const int y1 = MIN (round_up (box.y + box.height, grid.y),
      cf::picture_height (&info_));
  return {x0, y0, x1 - x0, y1 - y0};
}

/* The side of a box's blocks in frame pixels: `blocks` across its longer
 * side, grown to a multiple of the grid. */
int
RedactPlan::block_side (const cf::Box & box, const Grid & grid) const
{
  const int longer = MAX (box.width, box.height);
  const int blocks = (int) MAX (look_.blocks, 1u);
  return round_up ((longer + blocks - 1) / blocks, MAX (grid.x, grid.y));
}

/* A box's blur sigma in frame pixels (see the header), noting a cap. */
gdouble
RedactPlan::blur_sigma (const cf::Box & box)
{
  const int side = MIN (box.width, box.height);
  const gdouble wanted = look_.strength * side;
  const gdouble stepped = std::exp2 (std::ceil (std::log2 (wanted) *
          kBlurStepsPerOctave) / kBlurStepsPerOctave);
  if (stepped > cf::kGaussMaxSigma) {
    blur_capped_side_ = MAX (blur_capped_side_, side);
    return cf::kGaussMaxSigma;
  }
  return MAX (stepped, cf::kGaussMinSigma);
}

/* A sigma of frame pixels in samples `sub` times subsampled (and halved
 * again for a field's rows), within what the kernels take. */
static gdouble
sigma_in_samples (gdouble sigma, int sub, bool field)
{
  return MAX (sigma / (1 << sub) / (field ? 2 : 1), cf::kGaussMinSigma);
}

/* The mask of `region` in the view's `samples` (a box of them): a sample is
 * inside where a pixel of the frame it covers (of `field`, where it is 0 or
 * 1) is inside the region's. */
const guint8 *
RedactPlan::view_mask (const FrameRegion & region, const cf::Box & samples,
    int x_sub, int y_sub, int field)
{
  const cf::Box & box = region.box;
  const std::vector<guint8> & pixels = *region.mask;
  const auto pixel_inside = [&](int x, int y) {
    return x >= box.x && x < box.x + box.width && y >= box.y &&
        y < box.y + box.height &&
        pixels[(gsize) (y - box.y) * box.width + (x - box.x)] != 0;
  };
  std::vector<guint8> & mask = masks_.emplace_back ((gsize) samples.width *
      samples.height);
  for (int sy = 0; sy < samples.height; sy++)
    for (int sx = 0; sx < samples.width; sx++) {
      bool inside = false;
      for (int row = (samples.y + sy) << y_sub;
          row < (samples.y + sy + 1) << y_sub && !inside; row++) {
        const int y = field >= 0 ? 2 * row + field : row;
        for (int x = (samples.x + sx) << x_sub;
            x < (samples.x + sx + 1) << x_sub && !inside; x++)
          inside = pixel_inside (x, y);
      }
      mask[(gsize) sy * samples.width + sx] = inside;
    }
  return mask.data ();
}

/* The view's own settings: its plane, feather, the whole frame's blocks and
 * blur (with invert), the fill values; no shapes yet. */
cf::RedactView
RedactPlan::view_settings (const ComponentView & view, const Grid & grid,
    int x_sub, int y_sub) const
{
  const bool field = view.field >= 0;
  cf::RedactView out;
  out.plane = view.src;
  out.feather = GST_VIDEO_SUB_SCALE (x_sub, (int) look_.feather);
  const int frame_side = block_side (cf::Box {0, 0,
          GST_VIDEO_INFO_WIDTH (&info_), cf::picture_height (&info_)}, grid);
  out.invert_block_width = frame_side >> x_sub;
  out.invert_block_height = (field ? frame_side / 2 : frame_side) >> y_sub;
  /* The whole picture's blur, with invert: the cap is what it takes. */
  const gdouble frame_sigma = MIN (look_.strength *
      MIN (GST_VIDEO_INFO_WIDTH (&info_), cf::picture_height (&info_)),
      cf::kGaussMaxSigma);
  out.invert_sigma_x = sigma_in_samples (frame_sigma, x_sub, false);
  out.invert_sigma_y = sigma_in_samples (frame_sigma, y_sub, field);
  for (int c = 0; c < view.src.channels; c++) {
    const int comp = view.channel_components[c];
    out.fill[c] = comp < 0 ? 0 :
        cf::fill_component_value (look_.fill_argb, info_, comp);
  }
  return out;
}

/* A box of frame pixels in the view's samples (empty where the view, a
 * field, holds none of its rows). */
static cf::Box
view_samples (const cf::Box & box, const ComponentView & view, int x_sub,
    int y_sub)
{
  int y0 = box.y;
  int y1 = box.y + box.height;
  if (view.field >= 0) {
    /* Field row k is frame row 2k + field. */
    y0 = (y0 - view.field + 1) / 2;
    y1 = (y1 - view.field + 1) / 2;
  }
  cf::Box samples {box.x >> x_sub, y0 >> y_sub, 0, 0};
  samples.width = MIN (GST_VIDEO_SUB_SCALE (x_sub, box.x + box.width),
      view.src.width) - samples.x;
  samples.height = MIN (GST_VIDEO_SUB_SCALE (y_sub, y1),
      view.src.height) - samples.y;
  return samples;
}

cf::RedactView
RedactPlan::view_of (const ComponentView & view, const Grid & grid,
    const std::vector<Snapped> & regions,
    std::vector<cf::RedactShape> * shapes)
{
  const ComponentLayout & component =
      FormatLayout::of (info_).component (view.first_component ());
  const int x_sub = component.x_sub;
  const int y_sub = component.y_sub;
  const bool field = view.field >= 0;
  cf::RedactView out = view_settings (view, grid, x_sub, y_sub);
  const bool blur = look_.method == cf::RedactMethod::Blur;
  const gint64 table_budget = gint64 {cf::kRedactMaskTableFactor} *
      view.src.width * view.src.height;
  gint64 table_samples = 0;
  for (const Snapped & snapped : regions) {
    const cf::Box & box = snapped.box;
    const cf::Box samples = view_samples (box, view, x_sub, y_sub);
    if (samples.width <= 0 || samples.height <= 0)
      continue;
    /* A field's rows are every other row of the frame. */
    const int side = block_side (box, grid);
    cf::RedactShape shape {samples, side >> x_sub,
        (field ? side / 2 : side) >> y_sub};
    if (blur) {
      const gdouble sigma = blur_sigma (box);
      shape.sigma_x = sigma_in_samples (sigma, x_sub, false);
      shape.sigma_y = sigma_in_samples (sigma, y_sub, field);
    }
    if (snapped.region->mask) {
      const gint64 needed = cf::redact_mask_table_samples (out, samples);
      if (table_samples + needed <= table_budget) {
        table_samples += needed;
        shape.mask = view_mask (*snapped.region, samples, x_sub, y_sub,
            view.field);
      }
    }
    shapes->push_back (shape);
  }
  out.shapes = shapes->data ();
  out.count = (int) shapes->size ();
  return out;
}
