// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "frameselection.h"

void
FrameSelector::install (GObjectClass * klass, guint first_id,
    gboolean include_chroma, bool region_padding)
{
  RegionProperties::install (klass, first_id, first_id + 1,
      region_padding ? first_id + 2 : 0);
  g_object_class_install_property (klass, first_id + 3,
      g_param_spec_boolean ("include-chroma", "Include chroma",
          "Also process the chroma (U, V) components of YUV formats, not only "
          "luma", include_chroma, static_cast<GParamFlags> (G_PARAM_READWRITE |
              G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)));
}

static bool
is_include_chroma (const GParamSpec * pspec)
{
  return g_str_equal (pspec->name, "include-chroma");
}

bool
FrameSelector::set (GObject * object, const GValue * value,
    GParamSpec * pspec, bool *resizes)
{
  *resizes = false;
  if (is_include_chroma (pspec)) {
    GST_OBJECT_LOCK (object);
    include_chroma_ = g_value_get_boolean (value);
    GST_OBJECT_UNLOCK (object);
    return true;
  }
  *resizes = regions_.properties.set (object, value, pspec);
  return *resizes;
}

bool
FrameSelector::get (GObject * object, GValue * value,
    GParamSpec * pspec) const
{
  if (!is_include_chroma (pspec))
    return regions_.properties.get (object, value, pspec);
  GST_OBJECT_LOCK (object);
  g_value_set_boolean (value, include_chroma_);
  GST_OBJECT_UNLOCK (object);
  return true;
}

/* Only known once constructed: during the instance init the object still has
 * the base's class, which has no include-chroma. */
void
FrameSelector::take_defaults (GObject * object)
{
  if (GParamSpec * pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
          (object), "include-chroma"))
    include_chroma_ = G_PARAM_SPEC_BOOLEAN (pspec)->default_value;
}

guint
FrameSelector::regions_wanted (GObject * object) const
{
  return regions_.properties.settings (object).from_meta ? kMaxFrameRegions : 0;
}

void
FrameSelector::configure (const GstVideoInfo & info, guint max_regions)
{
  regions_.set_info (info);
  max_regions_ = max_regions;
  interlace_mode_ = GST_VIDEO_INFO_INTERLACE_MODE (&info);
}

FrameSelection
FrameSelector::select (GstElement * element, GstBuffer * buffer)
{
  regions_.select (element, buffer, max_regions_);
  FrameSelection selection;
  GST_OBJECT_LOCK (element);
  selection.include_chroma = include_chroma_;
  GST_OBJECT_UNLOCK (element);
  if (regions_.from_meta () && max_regions_ > 0)
    selection.regions = &regions_.regions ();
  selection.fields = interlace_mode_ == GST_VIDEO_INTERLACE_MODE_INTERLEAVED ||
      (interlace_mode_ == GST_VIDEO_INTERLACE_MODE_MIXED &&
      GST_BUFFER_FLAG_IS_SET (buffer, GST_VIDEO_BUFFER_FLAG_INTERLACED));
  return selection;
}
