// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Regions whose shape is not their box: an oriented detection's rotated
 * rectangle and a segmentation mask's region (GStreamer 1.26's analytics),
 * rasterised once per frame into one byte per frame pixel of the region's box,
 * which cudaredact's kernels take as the shape's mask (kernels/redact.h).
 * Plain C++ with GLib's types: frameregions.cpp reads the metas. */
#pragma once

#include <glib.h>

#include <memory>
#include <vector>

#include "redact_math.h"
#include "regions.h"

/* A region's box in the frame (within it, not empty) and its pixels there:
 * box.width * box.height bytes, row after row, not zero inside. */
struct RegionShape
{
  cf::Box box;
  std::shared_ptr<const std::vector<guint8>> mask;
};

/* The rectangle of corner (x, y) and size w x h before its rotation, turned by
 * `angle` radians clockwise (on the frame, whose rows go down) about its centre,
 * and grown by `padding` pixels on each of its own sides: the pixels of the
 * frame (width x height) whose centre lies inside or on it, in the box that
 * bounds it, clipped. False where that box holds no pixel of the frame. */
bool rotated_rect_shape (gint64 x, gint64 y, gint64 w, gint64 h, double angle,
    guint padding, int width, int height, RegionShape * shape);

/* A segmentation mask: one label per sample (8-bit, or 16-bit little-endian),
 * mapped onto the frame's rectangle `location` (which may reach beyond the
 * frame): frame pixel (x, y) of it takes the sample of column
 * (x - location.x) * width / location.width and row
 * (y - location.y) * height / location.height, the nearest one. */
struct LabelMask
{
  const guint8 *data;
  int width;
  int height;
  gsize stride;                 /* bytes */
  bool wide;                    /* 16-bit samples */
  gint64 x, y, w, h;            /* location, w and h > 0 */
};

/* The regions of a mask whose segmentation lists the labels `listed`: one
 * per entry, and past them (index listed.size ()) one of the labels other
 * than 0 that none lists. Where each region's samples lie is found in one
 * pass over the mask, so that its shape (label_shape) then looks at their
 * pixels only. */
class MaskRegions
{
public:
  MaskRegions (const LabelMask & mask, std::vector<guint> listed);

  gsize count () const { return listed_.size () + 1; }
  /* Whether region `region` is made of samples of `label`. */
  bool holds (gsize region, guint label) const;
  /* The mask samples [x0, x1) x [y0, y1) that hold its labels (x0 >= x1:
   * none). */
  const cf::RedactEdges & samples (gsize region) const;

private:
  std::vector<guint> listed_;
  /* By label value, up to the greatest the mask holds. */
  std::vector<cf::RedactEdges> held_;
  std::vector<bool> is_listed_;
  cf::RedactEdges unlisted_;
};

/* The pixels of the frame (width x height) of region `region` of `regions`
 * (made from `mask`), grown by `padding` pixels (those within
 * max(|dx|, |dy|) <= padding of one), in the box that bounds them, clipped.
 * False where there is none. */
bool label_shape (const LabelMask & mask, const MaskRegions & regions,
    gsize region, guint padding, int width, int height, RegionShape * shape);
