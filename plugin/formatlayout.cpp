// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "formatlayout.h"

#include <algorithm>
#include <iterator>

namespace
{

constexpr cf::SampleFormat k8 (cf::SampleDepth::U8);
constexpr cf::SampleFormat k16 (cf::SampleDepth::U16);
/* 10-bit values in the top bits of 16-bit words. */
constexpr cf::SampleFormat k10 (cf::SampleDepth::U16, 6);

/* A component at byte `offset` of each `stride`-byte pixel of `plane`. */
constexpr ComponentLayout
at (guint plane, guint offset, guint stride, cf::SampleFormat format = k8,
    guint x_sub = 0, guint y_sub = 0)
{
  return {plane, offset, stride, x_sub, y_sub, format};
}

/* Chroma of 4:2:0 and of 4:2:2. */
constexpr ComponentLayout
c420 (guint plane, guint offset, guint stride, cf::SampleFormat format = k8)
{
  return at (plane, offset, stride, format, 1, 1);
}

constexpr ComponentLayout
c422 (guint plane, guint offset, guint stride)
{
  return at (plane, offset, stride, k8, 1, 0);
}

/* Interleaved 8-bit R, G, B (and A) at these bytes of `stride`-byte pixels. */
constexpr FormatLayout
rgb (GstVideoFormat format, guint stride, guint r, guint g, guint b)
{
  return {format, ColorFamily::Rgb, 1, 3,
    {at (0, r, stride), at (0, g, stride), at (0, b, stride)}};
}

constexpr FormatLayout
rgba (GstVideoFormat format, guint r, guint g, guint b, guint a)
{
  return {format, ColorFamily::Rgb, 1, 4,
    {at (0, r, 4), at (0, g, 4), at (0, b, 4), at (0, a, 4)}};
}

/* A format gstreamer-cuda's allocator cannot hold: asked for one it aborts the
 * process, so its frames come and go in host memory only. */
constexpr FormatLayout
host_only (FormatLayout layout)
{
  layout.cuda_memory = false;
  return layout;
}

constexpr ColorFamily kYuv = ColorFamily::Yuv;

/* In the order the caps list them. */
const FormatLayout kLayouts[] = {
  host_only ({GST_VIDEO_FORMAT_GRAY8, ColorFamily::Gray, 1, 1, {at (0, 0, 1)}}),
  host_only ({GST_VIDEO_FORMAT_GRAY16_LE, ColorFamily::Gray, 1, 1,
          {at (0, 0, 2, k16)}}),
  {GST_VIDEO_FORMAT_I420, kYuv, 3, 3,
      {at (0, 0, 1), c420 (1, 0, 1), c420 (2, 0, 1)}},
  {GST_VIDEO_FORMAT_YV12, kYuv, 3, 3,
      {at (0, 0, 1), c420 (2, 0, 1), c420 (1, 0, 1)}},
  {GST_VIDEO_FORMAT_NV12, kYuv, 2, 3,
      {at (0, 0, 1), c420 (1, 0, 2), c420 (1, 1, 2)}},
  {GST_VIDEO_FORMAT_NV21, kYuv, 2, 3,
      {at (0, 0, 1), c420 (1, 1, 2), c420 (1, 0, 2)}},
  {GST_VIDEO_FORMAT_Y42B, kYuv, 3, 3,
      {at (0, 0, 1), c422 (1, 0, 1), c422 (2, 0, 1)}},
  {GST_VIDEO_FORMAT_Y444, kYuv, 3, 3, {at (0, 0, 1), at (1, 0, 1), at (2, 0, 1)}},
  /* Y0 U Y1 V and U Y0 V Y1: luma every 2 bytes, chroma every 4. */
  {GST_VIDEO_FORMAT_YUY2, kYuv, 1, 3,
      {at (0, 0, 2), c422 (0, 1, 4), c422 (0, 3, 4)}},
  {GST_VIDEO_FORMAT_UYVY, kYuv, 1, 3,
      {at (0, 1, 2), c422 (0, 0, 4), c422 (0, 2, 4)}},
  rgba (GST_VIDEO_FORMAT_RGBA, 0, 1, 2, 3),
  rgba (GST_VIDEO_FORMAT_BGRA, 2, 1, 0, 3),
  rgb (GST_VIDEO_FORMAT_RGBx, 4, 0, 1, 2),
  rgb (GST_VIDEO_FORMAT_BGRx, 4, 2, 1, 0),
  rgba (GST_VIDEO_FORMAT_ARGB, 1, 2, 3, 0),
  rgba (GST_VIDEO_FORMAT_ABGR, 3, 2, 1, 0),
  host_only (rgb (GST_VIDEO_FORMAT_xRGB, 4, 1, 2, 3)),
  host_only (rgb (GST_VIDEO_FORMAT_xBGR, 4, 3, 2, 1)),
  rgb (GST_VIDEO_FORMAT_RGB, 3, 0, 1, 2),
  rgb (GST_VIDEO_FORMAT_BGR, 3, 2, 1, 0),
  /* U and V 16-bit words side by side: V at byte 2 of each UV pair. */
  {GST_VIDEO_FORMAT_P010_10LE, kYuv, 2, 3,
      {at (0, 0, 2, k10), c420 (1, 0, 4, k10), c420 (1, 2, 4, k10)}},
  {GST_VIDEO_FORMAT_P016_LE, kYuv, 2, 3,
      {at (0, 0, 2, k16), c420 (1, 0, 4, k16), c420 (1, 2, 4, k16)}},
  {GST_VIDEO_FORMAT_Y444_16LE, kYuv, 3, 3,
      {at (0, 0, 2, k16), at (1, 0, 2, k16), at (2, 0, 2, k16)}},
};

const FormatLayout kUnsupported = {GST_VIDEO_FORMAT_UNKNOWN, ColorFamily::Gray,
  0, 0, {}, false
};

const FormatLayout *
find (GstVideoFormat format)
{
  for (const FormatLayout & layout : kLayouts)
    if (layout.format == format)
      return &layout;
  return nullptr;
}

/* Rounds up: a sample that covers part of the frame counts. */
int
subsampled (int length, guint sub)
{
  return GST_VIDEO_SUB_SCALE (sub, length);
}

}  // namespace

FormatLayout::List
FormatLayout::all ()
{
  return {std::begin (kLayouts), std::end (kLayouts)};
}

const FormatLayout &
FormatLayout::of (GstVideoFormat format)
{
  const FormatLayout *layout = find (format);
  return layout ? *layout : kUnsupported;
}

int
FormatLayout::component_width (guint c, int width) const
{
  return subsampled (width, components[c].x_sub);
}

int
FormatLayout::component_height (guint c, int height) const
{
  return subsampled (height, components[c].y_sub);
}

/* The largest of measure (c) over the components c of plane p. */
template <typename Measure>
static gsize
largest_in_plane (const FormatLayout & layout, guint p, Measure measure)
{
  gsize largest = 0;
  for (guint c = 0; c < layout.n_components; c++)
    if (layout.component (c).plane == p)
      largest = std::max (largest, (gsize) measure (layout.component (c), c));
  return largest;
}

int
cf::picture_height (const GstVideoInfo * info)
{
  return GST_VIDEO_INFO_INTERLACE_MODE (info) ==
      GST_VIDEO_INTERLACE_MODE_ALTERNATE ? GST_VIDEO_INFO_FIELD_HEIGHT (info) :
      GST_VIDEO_INFO_HEIGHT (info);
}

int
cf::plane_rows (const GstVideoInfo * info, guint p)
{
  const FormatLayout & layout = FormatLayout::of (*info);
  return (int) largest_in_plane (layout, p, [&](const ComponentLayout &, guint c) {
        return layout.component_height (c, cf::picture_height (info));
      });
}

gsize
cf::plane_row_bytes (const GstVideoInfo * info, guint p)
{
  const FormatLayout & layout = FormatLayout::of (*info);
  return largest_in_plane (layout, p, [&](const ComponentLayout & component,
          guint c) {
        return (gsize) component.pixel_stride * layout.component_width (c,
            GST_VIDEO_INFO_WIDTH (info));
      });
}

gsize
cf::plane_span (const GstVideoInfo * info, guint p, gsize stride)
{
  const int rows = cf::plane_rows (info, p);
  return rows == 0 ? 0 : (gsize) (rows - 1) * stride + cf::plane_row_bytes (info, p);
}
