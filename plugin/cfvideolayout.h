// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Plane geometry that GstVideoInfo does not give directly. */
#pragma once

#include <gst/video/video.h>

/* Rows of plane p. */
static inline int
cf_plane_rows (const GstVideoInfo * info, guint p)
{
  gint components[GST_VIDEO_MAX_COMPONENTS];
  gst_video_format_info_component (info->finfo, p, components);
  return GST_VIDEO_INFO_COMP_HEIGHT (info, components[0]);
}

/* Bytes of one row of plane p that hold samples: for odd-width packed 4:2:2 this
 * is more than luma width x luma pixel stride, which gst_video_frame_copy uses. */
static inline gsize
cf_plane_row_bytes (const GstVideoInfo * info, guint p)
{
  gint components[GST_VIDEO_MAX_COMPONENTS];
  gst_video_format_info_component (info->finfo, p, components);
  gsize row_bytes = 0;
  for (int i = 0; i < GST_VIDEO_MAX_COMPONENTS && components[i] >= 0; i++) {
    const int c = components[i];
    row_bytes = MAX (row_bytes, (gsize) GST_VIDEO_INFO_COMP_PSTRIDE (info, c) *
        GST_VIDEO_INFO_COMP_WIDTH (info, c));
  }
  return row_bytes;
}

/* Bytes from the first sample of plane p to its last, with rows `stride` bytes
 * apart (stride >= 0): what a frame's plane spans in memory. */
static inline gsize
cf_plane_span (const GstVideoInfo * info, guint p, gsize stride)
{
  return (gsize) (cf_plane_rows (info, p) - 1) * stride +
      cf_plane_row_bytes (info, p);
}
