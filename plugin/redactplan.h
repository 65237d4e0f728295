// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* What cudaredact does to one frame, as the redaction kernels take it
 * (kernels/redact.h): each view's shapes, block sizes, feather and fill values
 * in the view's own samples.
 *
 * On formats with subsampled chroma the shapes are first grown to whole chroma
 * samples (and, for interlaced frames, to whole rows of both fields), and the
 * pixelation's block side to a multiple of the subsampling, so that every
 * chroma block covers exactly the pixels of its luma block: a mosaic whose
 * colours do not bleed across its blocks. Growing only ever redacts more.
 *
 * The blur's sigma is strength times a box's shorter side, rounded up to the
 * next of kBlurStepsPerOctave steps per octave (boxes of about the same size
 * share one pass of the kernels, and a box that jitters by a pixel keeps its
 * blur), and at most the kernels' cap; in each view's own samples.
 *
 * A region of its own shape (FrameRegion::mask) becomes a shape with a mask
 * in each view: a sample is inside where any pixel of the frame it covers (of
 * its field, for a field's view) is inside the region's shape, so that
 * subsampled planes redact more, never less. Where a view's masks would pass
 * what the kernels take (kRedactMaskTableFactor), the regions beyond are
 * redacted as their whole boxes. */
#pragma once

#include <gst/video/video.h>

#include <deque>
#include <vector>

#include "framecomponents.h"
#include "frameselection.h"
#include "redact.h"

/* How regions are redacted: the properties of the look, at one moment. */
struct RedactLook
{
  cf::RedactMethod method = cf::RedactMethod::Pixelate;
  guint blocks = 6;             /* across a box's longer side */
  guint32 fill_argb = 0xff000000;
  cf::RedactOutline outline = cf::RedactOutline::Box;
  guint feather = 0;            /* pixels of the frame */
  bool invert = false;
  gdouble strength = 0.15;      /* blur: sigma / a box's shorter side */
};

constexpr int kBlurStepsPerOctave = 8;

class RedactPlan
{
public:
  /* The plan for `views` of a frame of `info` (the in-place role's views, in
   * the order edit_frame takes them) and what `selection` says: its regions
   * (whatever their origin), or, where it has none (regions=frame) or says
   * whole_frame, the whole frame. */
  RedactPlan (const GstVideoInfo & info,
      const std::vector<ComponentView> & views,
      const FrameSelection & selection, const RedactLook & look);
  RedactPlan (const RedactPlan &) = delete;
  RedactPlan & operator= (const RedactPlan &) = delete;

  const std::vector<cf::RedactView> & views () const { return views_; }
  const cf::RedactParams & params () const { return params_; }
  /* The samples' format, the same for every view of a format. */
  cf::SampleFormat format () const { return format_; }
  /* Blur: the shorter side, in pixels, of the largest box whose sigma the cap
   * (cf::kGaussMaxSigma) cut; 0 where none. */
  int blur_capped_side () const { return blur_capped_side_; }

private:
  /* Multiples of frame pixels that shapes and blocks snap to. */
  struct Grid
  {
    int x = 1;
    int y = 1;
  };
  /* A region's box grown to the grid, and the region. */
  struct Snapped
  {
    cf::Box box;
    const FrameRegion *region;
  };
  cf::Box snap (const cf::Box & box, const Grid & grid) const;
  int block_side (const cf::Box & box, const Grid & grid) const;
  gdouble blur_sigma (const cf::Box & box);
  cf::RedactView view_settings (const ComponentView & view,
      const Grid & grid, int x_sub, int y_sub) const;
  cf::RedactView view_of (const ComponentView & view, const Grid & grid,
      const std::vector<Snapped> & regions,
      std::vector<cf::RedactShape> * shapes);
  const guint8 *view_mask (const FrameRegion & region, const cf::Box & samples,
      int x_sub, int y_sub, int field);

  const GstVideoInfo & info_;
  RedactLook look_;
  cf::SampleFormat format_;
  cf::RedactParams params_;
  std::vector<std::vector<cf::RedactShape>> shapes_;    /* views_ point here */
  std::deque<std::vector<guint8>> masks_;       /* and shapes_ here */
  std::vector<cf::RedactView> views_;
  int blur_capped_side_ = 0;
};
