// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cffilter.h"

#include <algorithm>

#include "cudafaults.h"

struct CfFilterPrivate
{
  /* Under the object lock; the border starts as the subclass's default. */
  GstCudaFilterBorder border;
  guint border_value;
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (CfFilter, cf_filter,
    CF_TYPE_BASE_FILTER);

static CfFilterPrivate *
priv_of (CfFilter * self)
{
  return static_cast<CfFilterPrivate *>
      (cf_filter_get_instance_private (self));
}

GType
gst_cuda_filter_border_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_FILTER_BORDER_REPLICATE, "Repeat the edge sample (aaa|abcd|ddd)",
        "replicate"},
    {GST_CUDA_FILTER_BORDER_REFLECT_101,
        "Mirror about the edge sample (cb|abcd|cb)", "reflect-101"},
    {GST_CUDA_FILTER_BORDER_CONSTANT, "The value of border-value (kk|abcd|kk)",
        "constant"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaFilterBorder",
            values));
  return type;
}

void
cf_filter_class_install_border_properties (GObjectClass * klass,
    guint border_prop_id, guint border_value_prop_id,
    GstCudaFilterBorder default_border)
{
  const auto flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property (klass, border_prop_id,
      g_param_spec_enum ("border", "Border",
          "How samples outside the frame are taken", GST_TYPE_CUDA_FILTER_BORDER,
          default_border, flags));
  g_object_class_install_property (klass, border_value_prop_id,
      g_param_spec_uint ("border-value", "Border value",
          "Sample value outside the frame with border=constant, in the format's "
          "own range (values above 255 count as 255 for 8-bit formats)",
          0, G_MAXUINT16, 0, flags));
}

/* Whether `pspec` is `border` or `border-value`, and which. */
static bool
is_border_property (const GParamSpec * pspec, bool *border)
{
  *border = g_str_equal (pspec->name, "border");
  return *border || g_str_equal (pspec->name, "border-value");
}

gboolean
cf_filter_set_border_property (GObject * object, const GValue * value,
    GParamSpec * pspec)
{
  CfFilterPrivate *priv = priv_of (CF_FILTER (object));
  bool border;
  if (!is_border_property (pspec, &border))
    return FALSE;
  GST_OBJECT_LOCK (object);
  if (border)
    priv->border = static_cast<GstCudaFilterBorder> (g_value_get_enum (value));
  else
    priv->border_value = g_value_get_uint (value);
  GST_OBJECT_UNLOCK (object);
  return TRUE;
}

gboolean
cf_filter_get_border_property (GObject * object, GValue * value,
    GParamSpec * pspec)
{
  CfFilterPrivate *priv = priv_of (CF_FILTER (object));
  bool border;
  if (!is_border_property (pspec, &border))
    return FALSE;
  GST_OBJECT_LOCK (object);
  if (border)
    g_value_set_enum (value, priv->border);
  else
    g_value_set_uint (value, priv->border_value);
  GST_OBJECT_UNLOCK (object);
  return TRUE;
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
  CfFilterPrivate *priv = priv_of (filter);
  GST_OBJECT_LOCK (filter);
  const GstCudaFilterBorder mode = priv->border;
  const guint value = priv->border_value;
  GST_OBJECT_UNLOCK (filter);
  cf::Border border;
  switch (mode) {
    case GST_CUDA_FILTER_BORDER_REPLICATE:
      border.mode = cf::BorderMode::Replicate;
      break;
    case GST_CUDA_FILTER_BORDER_REFLECT_101:
      border.mode = cf::BorderMode::Reflect101;
      break;
    case GST_CUDA_FILTER_BORDER_CONSTANT:
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

/* The border starts as the subclass's default (only known now: during the
 * instance init the object still has this class). */
static void
cf_filter_constructed (GObject * object)
{
  if (GParamSpec * border = g_object_class_find_property (G_OBJECT_GET_CLASS
          (object), "border"))
    priv_of (CF_FILTER (object))->border =
        static_cast<GstCudaFilterBorder> (G_PARAM_SPEC_ENUM (border)->
        default_value);
  G_OBJECT_CLASS (cf_filter_parent_class)->constructed (object);
}

static void
cf_filter_class_init (CfFilterClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  gobject_class->constructed = cf_filter_constructed;
  /* Chroma filtered, as every colour channel of RGB is: one pipeline gives
   * one picture before and after a videoconvert. */
  cf_base_filter_class_install_selection (gobject_class, TRUE, true);
  GST_BASE_TRANSFORM_CLASS (klass)->transform_meta =
      GST_DEBUG_FUNCPTR (cf_filter_transform_meta);
  CF_BASE_FILTER_CLASS (klass)->run_frame = cf_filter_run_frame;
  gst_type_mark_as_plugin_api (CF_TYPE_FILTER, (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_BORDER,
      (GstPluginAPIFlags) 0);
}

static void
cf_filter_init (CfFilter * self)
{
  priv_of (self)->border = GST_CUDA_FILTER_BORDER_REPLICATE;
  priv_of (self)->border_value = 0;
}
