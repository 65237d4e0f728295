// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framecomponents.h"

#include <algorithm>

#include "formatlayout.h"
#include "frameregions.h"

/* The channel of each component of the plane where its pixels are nothing but
 * its components' samples (and bytes of none, RGBx's x), all of one size, in one
 * layout: the number of channels, or 0 where the plane is not so packed (YUY2's
 * luma and chroma have pixels of different strides). */
static int
packed_channels (const FormatLayout & layout, guint plane,
    int (&channel_components)[cf::kMaxChannels])
{
  guint pixel_stride = 0;
  cf::SampleFormat format;
  std::fill (channel_components, channel_components + cf::kMaxChannels, -1);
  for (guint c = 0; c < layout.n_components; c++) {
    const ComponentLayout & component = layout.component (c);
    if (component.plane != plane)
      continue;
    if (pixel_stride == 0) {
      pixel_stride = component.pixel_stride;
      format = component.format;
    }
    const guint sample_bytes = cf::bytes_per_sample (format);
    const guint channel = component.offset / sample_bytes;
    if (component.pixel_stride != pixel_stride || component.format != format ||
        component.offset % sample_bytes != 0 || pixel_stride % sample_bytes != 0 ||
        pixel_stride > cf::kMaxChannels * sample_bytes ||
        component.offset >= pixel_stride || channel_components[channel] >= 0)
      return 0;
    channel_components[channel] = c;
  }
  return pixel_stride == 0 ? 0 : pixel_stride / cf::bytes_per_sample (format);
}

ProcessedComponents::ProcessedComponents (const GstVideoInfo & info,
    bool include_chroma, bool include_alpha)
    : info_ (&info), layout_ (&FormatLayout::of (info))
{
  const FormatLayout & layout = *layout_;
  for (guint p = 0; p < layout.n_planes; p++) {
    Group packed = { -1, 0, 0, 0, {} };
    packed.channels = packed_channels (layout, p, packed.channel_components);
    for (guint c = 0; c < layout.n_components; c++) {
      const ComponentLayout & component = layout.component (c);
      if (component.plane != p)
        continue;
      if (c == GST_VIDEO_COMP_A && !include_alpha)
        continue;
      if (layout.family == ColorFamily::Yuv && c != GST_VIDEO_COMP_Y &&
          !include_chroma)
        continue;
      if (packed.channels < 2) {
        groups_.push_back ({(int) c, 0, 1, 1u, {(int) c, -1, -1, -1}});
        continue;
      }
      const int channel = component.offset /
          cf::bytes_per_sample (component.format);
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

/* The rows of `field` (0 or 1) of a plane: every other row from that one. */
static cf::Plane
field_rows (cf::Plane plane, int field)
{
  plane.data += field * plane.row_pitch;
  plane.height = (plane.height - field + 1) / 2;
  plane.row_pitch *= 2;
  return plane;
}

std::vector<ComponentView>
ProcessedComponents::views (const FramePlanes & in, const FramePlanes * out,
    bool fields) const
{
  std::vector<ComponentView> views;
  for (const Group & group : groups_) {
    ComponentView view;
    std::copy (group.channel_components, group.channel_components +
        cf::kMaxChannels, view.channel_components);
    view.format = layout_->component (group.component).format;
    const auto widen = [&](cf::Plane plane) {
      plane.data -= group.channel * cf::bytes_per_sample (view.format);
      plane.channels = group.channels;
      plane.channel_mask = group.channel_mask;
      return plane;
    };
    view.src = widen (in.component (group.component));
    view.dst = out ? widen (out->component (group.component)) : cf::Plane ();
    if (!fields) {
      views.push_back (view);
      continue;
    }
    /* A plane of one row has no bottom field's rows. */
    for (int field = 0; field < 2 && field < view.src.height; field++) {
      ComponentView rows = view;
      rows.field = field;
      rows.src = field_rows (view.src, field);
      if (out)
        rows.dst = field_rows (view.dst, field);
      views.push_back (rows);
    }
  }
  return views;
}

guint
ProcessedComponents::planes_to_copy () const
{
  guint planes = 0;
  for (guint p = 0; p < layout_->n_planes; p++) {
    gsize written = 0;
    for (const Group & group : groups_) {
      const ComponentLayout & component = layout_->component (group.component);
      if (component.plane == p)
        written += (gsize) layout_->component_width (group.component,
            GST_VIDEO_INFO_WIDTH (info_)) * layout_->component_height
            (group.component, cf::picture_height (info_)) * group.channels *
            cf::bytes_per_sample (component.format);
    }
    if (written != cf::plane_row_bytes (info_, p) * cf::plane_rows (info_, p))
      planes |= 1u << p;
  }
  return planes;
}

std::vector<std::vector<cf::Box>>
cf::restrict_to_regions (std::vector<ComponentView> & views,
    const std::vector<FrameRegion> & regions, const GstVideoInfo & info)
{
  std::vector<std::vector<cf::Box>> boxes (views.size ());
  for (size_t i = 0; i < views.size (); i++) {
    boxes[i] = cf::component_boxes (regions, info,
        views[i].first_component (), views[i].field);
    views[i].region = cf::OutputRegion::inside (boxes[i]);
  }
  return boxes;
}
