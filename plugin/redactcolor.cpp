// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "redactcolor.h"

#include <cmath>

namespace {

/* BT.601's, for an unknown matrix, RGB's, and grey formats. */
constexpr gdouble kBt601Kr = 0.299;
constexpr gdouble kBt601Kb = 0.114;

struct Rgb
{
  gdouble r, g, b;              /* 0..1 */
  guint alpha;                  /* 0..255 */
};

Rgb
unpack (guint32 argb)
{
  return {((argb >> 16) & 0xff) / 255.0, ((argb >> 8) & 0xff) / 255.0,
    (argb & 0xff) / 255.0, argb >> 24};
}

/* The component's depth; a missing alpha takes the format's. */
guint
depth (const GstVideoFormatInfo * finfo, int component)
{
  guint d = 0;
  if (component < int (GST_VIDEO_FORMAT_INFO_N_COMPONENTS (finfo)))
    d = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, component);
  return d ? d : GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
}

/* Rounded to nearest, halves up, and clamped to 0..max. */
guint32
rounded (gdouble value, guint max)
{
  gdouble r = std::floor (value + 0.5);
  if (!(r > 0))
    return 0;
  return r >= max ? max : guint32 (r);
}

/* An 8-bit value at a depth whose largest value is max: round (v max / 255),
 * in integers. */
guint32
scaled (guint value, guint max)
{
  return guint32 ((guint64 (value) * max + 127) / 255);
}

gdouble
luma (const Rgb & c, gdouble kr, gdouble kb)
{
  return kr * c.r + (1.0 - kr - kb) * c.g + kb * c.b;
}

guint32
yuv_value (const Rgb & c, const GstVideoInfo & info, int component, guint max)
{
  gdouble kr, kb;
  if (!gst_video_color_matrix_get_Kr_Kb (info.colorimetry.matrix, &kr, &kb)) {
    kr = kBt601Kr;
    kb = kBt601Kb;
  }
  GstVideoColorRange range = info.colorimetry.range;
  if (range == GST_VIDEO_COLOR_RANGE_UNKNOWN)
    range = GST_VIDEO_COLOR_RANGE_16_235;
  gint offset[GST_VIDEO_MAX_COMPONENTS];
  gint scale[GST_VIDEO_MAX_COMPONENTS];
  gst_video_color_range_offsets (range, info.finfo, offset, scale);

  gdouble y = luma (c, kr, kb);
  gdouble v;
  if (component == GST_VIDEO_COMP_Y)
    v = y;
  else if (component == GST_VIDEO_COMP_U)
    v = (c.b - y) / (2.0 * (1.0 - kb));
  else
    v = (c.r - y) / (2.0 * (1.0 - kr));
  return rounded (offset[component] + v * scale[component], max);
}

}  // namespace

namespace cf {

guint32
fill_component_value (guint32 argb, const GstVideoInfo & info, int component)
{
  const GstVideoFormatInfo *finfo = info.finfo;
  g_return_val_if_fail (finfo != nullptr, 0);
  g_return_val_if_fail (component >= 0 && component <= GST_VIDEO_COMP_A, 0);
  bool gray = GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo);
  g_return_val_if_fail (!gray || component == GST_VIDEO_COMP_Y
      || component == GST_VIDEO_COMP_A, 0);

  guint max = (1u << depth (finfo, component)) - 1;
  Rgb c = unpack (argb);
  if (component == GST_VIDEO_COMP_A)
    return scaled (c.alpha, max);
  if (gray)
    return rounded (luma (c, kBt601Kr, kBt601Kb) * max, max);
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo))
    return yuv_value (c, info, component, max);
  guint byte = component == GST_VIDEO_COMP_R ? (argb >> 16) & 0xff
      : component == GST_VIDEO_COMP_G ? (argb >> 8) & 0xff : argb & 0xff;
  return scaled (byte, max);
}

}  // namespace cf
