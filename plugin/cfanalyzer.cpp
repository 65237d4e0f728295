// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfanalyzer.h"

#include "cudafaults.h"

enum
{
  PROP_0,
  PROP_REGIONS,
  PROP_REGION_TYPES,
  PROP_INCLUDE_CHROMA,
};

struct CfAnalyzerPrivate
{
  gboolean include_chroma;      /* under the object lock */
  RegionSelection *regions;
  /* Regions the results are sized for, at the caps (streaming thread). */
  guint max_regions;
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (CfAnalyzer, cf_analyzer,
    CF_TYPE_BASE_FILTER);

static CfAnalyzerPrivate *
priv_of (CfAnalyzer * self)
{
  return static_cast<CfAnalyzerPrivate *>
      (cf_analyzer_get_instance_private (self));
}

static gboolean
cf_analyzer_set_info (CfBaseFilter * base, const GstVideoInfo & info,
    bool on_device, FrameSizes * sizes)
{
  auto *self = CF_ANALYZER (base);
  auto *klass = CF_ANALYZER_GET_CLASS (self);
  CfAnalyzerPrivate *priv = priv_of (self);
  sizes->state = klass->frame_state_size;
  priv->regions->set_info (info);
  priv->max_regions = priv->regions->properties.settings (G_OBJECT (self)).
      from_meta ? kMaxFrameRegions : 0;
  return klass->set_info (self, info, priv->max_regions, &sizes->results,
      on_device ? &sizes->workspace : nullptr);
}

static FrameError
cf_analyzer_process (CfBaseFilter * base, const FrameWork & work)
{
  auto *self = CF_ANALYZER (base);
  auto *klass = CF_ANALYZER_GET_CLASS (self);
  const bool include_alpha = klass->includes_alpha &&
      klass->includes_alpha (self);
  GST_OBJECT_LOCK (self);
  const bool include_chroma = priv_of (self)->include_chroma;
  GST_OBJECT_UNLOCK (self);
  const std::vector<ComponentView> views =
      ProcessedComponents (*work.input.info, include_chroma,
      include_alpha).views (work.input, nullptr);
  /* regions=meta set after the frames were configured waits for the next. */
  const RegionSelection & selection = *priv_of (self)->regions;
  const bool with_regions = selection.from_meta () &&
      priv_of (self)->max_regions > 0;
  const cudaError_t err = CF_CUDA (Kernel, klass->analyze_frame (self, views,
          with_regions ? &selection.regions () : nullptr, work.exec,
          work.results, work.workspace, work.state));
  return FrameError::check (work.exec.on_device ? "Launching the kernels" :
      "Analysing on the CPU", err);
}

static GstFlowReturn
cf_analyzer_finish_frame (CfBaseFilter * base, GstBuffer * frame,
    const void *results, const void *state)
{
  auto *self = CF_ANALYZER (base);
  return CF_ANALYZER_GET_CLASS (self)->attach_results (self, frame,
      results, state);
}

/* Queues the frame's analysis; the frame leaves later, in order
 * (CfBaseFilter's generate_output), its results attached. */
static GstFlowReturn
cf_analyzer_transform_ip (GstBaseTransform * trans, GstBuffer * buffer)
{
  priv_of (CF_ANALYZER (trans))->regions->select (GST_ELEMENT (trans),
      buffer);
  return cf_base_filter_submit (CF_BASE_FILTER (trans), buffer,
      buffer);
}

static gboolean
cf_analyzer_start (GstBaseTransform * trans)
{
  priv_of (CF_ANALYZER (trans))->regions->reset ();
  return GST_BASE_TRANSFORM_CLASS (cf_analyzer_parent_class)->start
      (trans);
}

static void
cf_analyzer_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  CfAnalyzerPrivate *priv = priv_of (CF_ANALYZER (object));
  if (prop_id == PROP_INCLUDE_CHROMA) {
    GST_OBJECT_LOCK (object);
    priv->include_chroma = g_value_get_boolean (value);
    GST_OBJECT_UNLOCK (object);
  } else if (priv->regions->properties.set (object, value, pspec)) {
    /* regions=meta sizes the results for the regions' too. */
    cf_base_filter_configure_again (CF_BASE_FILTER (object));
  } else {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
cf_analyzer_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  CfAnalyzerPrivate *priv = priv_of (CF_ANALYZER (object));
  if (prop_id == PROP_INCLUDE_CHROMA) {
    GST_OBJECT_LOCK (object);
    g_value_set_boolean (value, priv->include_chroma);
    GST_OBJECT_UNLOCK (object);
  } else if (!priv->regions->properties.get (object, value, pspec)) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  }
}

static void
cf_analyzer_finalize (GObject * object)
{
  delete priv_of (CF_ANALYZER (object))->regions;
  G_OBJECT_CLASS (cf_analyzer_parent_class)->finalize (object);
}

static void
cf_analyzer_class_init (CfAnalyzerClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  auto *base_class = CF_BASE_FILTER_CLASS (klass);
  gobject_class->set_property = cf_analyzer_set_property;
  gobject_class->get_property = cf_analyzer_get_property;
  gobject_class->finalize = cf_analyzer_finalize;
  /* The results are sized for regions: a change configures the frames again
   * before the next one (set_property). */
  RegionProperties::install (gobject_class, PROP_REGIONS, PROP_REGION_TYPES, 0);
  /* Luma alone unless asked: the results an application reads stay one
   * channel of YUV. */
  cf_base_filter_install_include_chroma (gobject_class,
      PROP_INCLUDE_CHROMA, FALSE);
  GST_BASE_TRANSFORM_CLASS (klass)->start =
      GST_DEBUG_FUNCPTR (cf_analyzer_start);
  GST_BASE_TRANSFORM_CLASS (klass)->transform_ip =
      GST_DEBUG_FUNCPTR (cf_analyzer_transform_ip);
  base_class->set_info = cf_analyzer_set_info;
  base_class->process = cf_analyzer_process;
  base_class->finish_frame = cf_analyzer_finish_frame;
  gst_type_mark_as_plugin_api (CF_TYPE_ANALYZER, (GstPluginAPIFlags) 0);
}

static void
cf_analyzer_init (CfAnalyzer * self)
{
  priv_of (self)->include_chroma = FALSE;
  priv_of (self)->regions = new RegionSelection ();
}
