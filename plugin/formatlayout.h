// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Where each component of every format the elements take lies in a frame: one
 * table, written here for every GStreamer series, used by both backends, the
 * plane copies, the memory checks, the region code and cudahist. It is also
 * the one list of those formats: the caps in each memory type are made from it.
 *
 * Nothing in the plugin reads GstVideoFormatInfo's component offsets, depths
 * or shifts: its offsets are not bytes for every format (P010_10LE and P016_LE
 * give V's as 1, though V starts at byte 2 of each 4-byte UV pair, in every
 * release from 1.22 to 1.28). Plane offsets and strides are the frame's own
 * (GstVideoInfo, or the buffer's GstVideoMeta). */
#pragma once

#include <gst/video/video.h>

#include "plane.h"

/* One component: GST_VIDEO_COMP_Y, _U, _V, _A of YUV formats, _R, _G, _B, _A
 * of RGB formats, 0 of grey ones. */
struct ComponentLayout
{
  guint plane;
  guint offset;                 /* bytes from a plane row's start to its first sample */
  guint pixel_stride;           /* bytes from one of its samples to the next in a row */
  guint x_sub;                  /* log2 of its horizontal subsampling */
  guint y_sub;                  /* log2 of its vertical subsampling */
  cf::SampleFormat format;      /* sample size, and P010's low padding bits */
};

enum class ColorFamily
{ Gray, Yuv, Rgb };

struct FormatLayout
{
  GstVideoFormat format;
  ColorFamily family;
  guint n_planes;
  guint n_components;
  ComponentLayout components[GST_VIDEO_MAX_COMPONENTS];
  /* Whether gstreamer-cuda's allocator holds frames of it, so that they can
   * come and go in CUDA memory; else in host memory only. */
  bool cuda_memory = true;

  /* The layouts of the table, for a range-for. */
  struct List
  {
    const FormatLayout *first, *last;
    const FormatLayout *begin () const { return first; }
    const FormatLayout *end () const { return last; }
  };

  /* Every format the elements take, in the order the caps list them (the
   * first preferred in negotiation). */
  static List all ();
  /* The layout of `format`; one of no planes and no components for a format
   * the elements do not take (the pad templates hold none). */
  static const FormatLayout & of (GstVideoFormat format);
  static const FormatLayout & of (const GstVideoInfo & info)
  {
    return of (GST_VIDEO_INFO_FORMAT (&info));
  }

  const ComponentLayout & component (guint c) const { return components[c]; }
  /* Samples of component c in a row and in a column of a frame of
   * `width` x `height` pixels (subsampled ones cover part of the frame too). */
  int component_width (guint c, int width) const;
  int component_height (guint c, int height) const;
};

namespace cf {

/* Rows of the picture one buffer of `info` holds: a field's where each buffer
 * is one field (interlace-mode=alternate), else the frame's. */
int picture_height (const GstVideoInfo * info);
/* Rows of plane p. */
int plane_rows (const GstVideoInfo * info, guint p);
/* Bytes of one row of plane p that hold samples (for odd-width packed 4:2:2
 * more than width x the luma pixel stride). */
gsize plane_row_bytes (const GstVideoInfo * info, guint p);
/* Bytes from the first sample of plane p to its last, with rows `stride`
 * bytes apart (stride >= 0): what a frame's plane spans in memory. */
gsize plane_span (const GstVideoInfo * info, guint p, gsize stride);

}  // namespace cf
