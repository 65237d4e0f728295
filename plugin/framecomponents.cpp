// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framecomponents.h"

#include <algorithm>

#include "cfvideolayout.h"

/* P010's 10-bit samples sit in the top bits of 16 (COMP_SHIFT 6): the kernels
 * filter the values and keep the padding bits zero. */
static cf::SampleFormat
component_format (const GstVideoInfo & info, int component)
{
  return cf::SampleFormat (GST_VIDEO_INFO_COMP_DEPTH (&info, component) > 8 ?
      cf::SampleDepth::U16 : cf::SampleDepth::U8,
      GST_VIDEO_FORMAT_INFO_SHIFT (info.finfo, component));
}

/* The channel of each component of the plane where its pixels are nothing but
 * its components' samples (and bytes of none, RGBx's x), all of one size, in one
 * layout: the number of channels, or 0 where the plane is not so packed (YUY2's
 * luma and chroma have pixels of different strides). */
static int
packed_channels (const GstVideoInfo & info, guint plane,
    int (&channel_components)[cf::kMaxChannels])
{
  int pixel_stride = 0;
  cf::SampleFormat format;
  std::fill (channel_components, channel_components + cf::kMaxChannels, -1);
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&info); c++) {
    if (GST_VIDEO_INFO_COMP_PLANE (&info, c) != plane)
      continue;
    if (pixel_stride == 0) {
      pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (&info, c);
      format = component_format (info, c);
    }
    const int sample_bytes = cf::bytes_per_sample (format);
    const int offset = GST_VIDEO_INFO_COMP_POFFSET (&info, c);
    const int channel = offset / sample_bytes;
    if (GST_VIDEO_INFO_COMP_PSTRIDE (&info, c) != pixel_stride ||
        component_format (info, c) != format || offset % sample_bytes != 0 ||
        pixel_stride % sample_bytes != 0 ||
        pixel_stride > cf::kMaxChannels * sample_bytes ||
        offset >= pixel_stride || channel_components[channel] >= 0)
      return 0;
    channel_components[channel] = c;
  }
  return pixel_stride == 0 ? 0 : pixel_stride / cf::bytes_per_sample (format);
}

ProcessedComponents::ProcessedComponents (const GstVideoInfo & info,
    bool include_chroma, bool include_alpha)
    : info_ (&info)
{
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    Group packed = { -1, 0, 0, 0, {} };
    packed.channels = packed_channels (info, p, packed.channel_components);
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&info); c++) {
      if (GST_VIDEO_INFO_COMP_PLANE (&info, c) != p)
        continue;
      if (c == GST_VIDEO_COMP_A && !include_alpha)
        continue;
      if (GST_VIDEO_INFO_IS_YUV (&info) && c != GST_VIDEO_COMP_Y && !include_chroma)
        continue;
      if (packed.channels < 2) {
        groups_.push_back ({(int) c, 0, 1, 1u, {(int) c, -1, -1, -1}});
        continue;
      }
      const int channel = GST_VIDEO_INFO_COMP_POFFSET (&info, c) /
          cf::bytes_per_sample (component_format (info, c));
      if (packed.component < 0 || channel < packed.channel) {
        packed.component = c;
        packed.channel = channel;
      }
      packed.channel_mask |= 1u << channel;
    }
    if (packed.channel_mask != 0)
      groups_.push_back (packed);
  }
}

std::vector<ComponentView>
ProcessedComponents::views (const FramePlanes & in, const FramePlanes * out) const
{
  std::vector<ComponentView> views;
  for (const Group & group : groups_) {
    ComponentView view;
    std::copy (group.channel_components, group.channel_components +
        cf::kMaxChannels, view.channel_components);
    view.format = component_format (*info_, group.component);
    const auto widen = [&](cf::Plane plane) {
      plane.data -= group.channel * cf::bytes_per_sample (view.format);
      plane.channels = group.channels;
      plane.channel_mask = group.channel_mask;
      return plane;
    };
    view.src = widen (in.component (group.component));
    view.dst = out ? widen (out->component (group.component)) : cf::Plane ();
    views.push_back (view);
  }
  return views;
}

guint
ProcessedComponents::planes_to_copy () const
{
  guint planes = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (info_); p++) {
    gsize written = 0;
    for (const Group & group : groups_) {
      const int c = group.component;
      if (GST_VIDEO_INFO_COMP_PLANE (info_, c) == p)
        written += (gsize) GST_VIDEO_INFO_COMP_WIDTH (info_, c) *
            GST_VIDEO_INFO_COMP_HEIGHT (info_, c) * group.channels *
            cf::bytes_per_sample (component_format (*info_, c));
    }
    if (written != cf_plane_row_bytes (info_, p) * cf_plane_rows (info_, p))
      planes |= 1u << p;
  }
  return planes;
}
