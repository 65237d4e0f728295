// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cffilter.h"

#include <algorithm>

#include "cudafaults.h"

G_DEFINE_ABSTRACT_TYPE (CfFilter, cf_filter, CF_TYPE_BASE_FILTER);

void
cf_filter_class_install_properties (GObjectClass * klass,
    CfRegions default_regions, CfBorder default_border)
{
  cf_base_filter_class_install_property (klass, CF_PROP_REGIONS,
      default_regions);
  cf_base_filter_class_install_property (klass, CF_PROP_REGION_TYPES);
  cf_base_filter_class_install_property (klass, CF_PROP_REGION_PADDING);
  /* Chroma filtered, as every colour channel of RGB is: one pipeline gives
   * one picture before and after a videoconvert. */
  cf_base_filter_class_install_property (klass, CF_PROP_INCLUDE_CHROMA, TRUE);
  cf_base_filter_class_install_property (klass, CF_PROP_BORDER,
      default_border);
  cf_base_filter_class_install_property (klass, CF_PROP_BORDER_VALUE);
}

gboolean
cf_filter_accept_window_size (GObject * object, GParamSpec * pspec,
    gint size)
{
  if (size % 2 != 0)
    return TRUE;
  g_warning ("%s: %s must be odd, %d refused", GST_OBJECT_NAME (object),
      g_param_spec_get_name (pspec), size);
  return FALSE;
}

cf::Border
cf_filter_border (CfFilter * filter, cf::SampleFormat format)
{
  const BaseProperties & props =
      cf_base_filter_properties (CF_BASE_FILTER (filter));
  GST_OBJECT_LOCK (filter);
  const CfBorder mode = props.border;
  const guint value = props.border_value;
  GST_OBJECT_UNLOCK (filter);
  cf::Border border;
  switch (mode) {
    case CF_BORDER_REPLICATE:
      border.mode = cf::BorderMode::Replicate;
      break;
    case CF_BORDER_REFLECT_101:
      border.mode = cf::BorderMode::Reflect101;
      break;
    case CF_BORDER_CONSTANT:
      border.mode = cf::BorderMode::Constant;
      break;
  }
  border.constant = static_cast<uint16_t> (MIN (value,
          cf::max_sample_value (format)));
  return border;
}

/* A frame's work: the samples no kernel writes copied through (with regions,
 * the whole frame: the kernels then write inside the boxes only), then the
 * subclass's kernels. */
static FrameError
cf_filter_run_frame (CfBaseFilter * base, const FrameWork & work,
    const FrameSelection & selection)
{
  auto *self = CF_FILTER (base);
  const ProcessedComponents components (*work.input.info,
      selection.include_chroma, false);
  const guint planes = selection.regions ? cf::kAllPlanes :
      components.planes_to_copy ();
  if (planes != 0)
    if (const cudaError_t err = cf::copy_planes (work.exec, work.output,
            work.input, planes))
      return FrameError::failed ("Copying unprocessed samples", err);
  if (selection.regions && selection.regions->empty ())
    return FrameError ();
  std::vector<ComponentView> views = components.views (work.input,
      &work.output, selection.fields);
  const std::vector<std::vector<cf::Box>> boxes = selection.regions ?
      cf::restrict_to_regions (views, *selection.regions, *work.input.info) :
      std::vector<std::vector<cf::Box>> ();
  const cudaError_t err = CF_CUDA (Kernel,
      CF_FILTER_GET_CLASS (self)->filter_frame (self, views, work.exec));
  return FrameError::check (work.exec.on_device ? "Launching the kernels" :
      "Filtering on the CPU", err);
}

/* The output has the input's geometry: metas that describe it (regions of
 * interest, tagged video, size and orientation) hold for it as they are, so
 * that elements downstream find the same regions. */
static gboolean
cf_filter_transform_meta (GstBaseTransform * trans, GstBuffer * outbuf,
    GstMeta * meta, GstBuffer * inbuf)
{
  static const gchar *const geometry[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_SIZE_STR, GST_META_TAG_VIDEO_ORIENTATION_STR
  };
  const gchar *const *tags = gst_meta_api_type_get_tags (meta->info->api);
  for (; tags && *tags; tags++)
    if (std::none_of (std::begin (geometry), std::end (geometry),
            [&](const gchar * tag) { return g_str_equal (tag, *tags); }))
      return GST_BASE_TRANSFORM_CLASS (cf_filter_parent_class)->
          transform_meta (trans, outbuf, meta, inbuf);
  return TRUE;
}

static void
cf_filter_class_init (CfFilterClass * klass)
{
  GST_BASE_TRANSFORM_CLASS (klass)->transform_meta =
      GST_DEBUG_FUNCPTR (cf_filter_transform_meta);
  CF_BASE_FILTER_CLASS (klass)->run_frame = cf_filter_run_frame;
  gst_type_mark_as_plugin_api (CF_TYPE_FILTER, (GstPluginAPIFlags) 0);
}

static void
cf_filter_init (CfFilter *)
{
}
