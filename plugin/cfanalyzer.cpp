// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfanalyzer.h"

#include "cudafaults.h"

G_DEFINE_ABSTRACT_TYPE (CfAnalyzer, cf_analyzer, CF_TYPE_BASE_FILTER);

void
cf_analyzer_class_install_properties (GObjectClass * klass,
    CfRegions default_regions)
{
  cf_base_filter_class_install_property (klass, CF_PROP_REGIONS,
      default_regions);
  cf_base_filter_class_install_property (klass, CF_PROP_REGION_TYPES);
  /* Luma alone unless asked: the results an application reads stay one
   * channel of YUV. */
  cf_base_filter_class_install_property (klass, CF_PROP_INCLUDE_CHROMA,
      FALSE);
  cf_base_filter_class_install_property (klass, CF_PROP_INCLUDE_ALPHA, FALSE);
}

static gboolean
cf_analyzer_size_frames (CfBaseFilter * base, const GstVideoInfo & info,
    bool on_device, FrameSizes * sizes)
{
  auto *self = CF_ANALYZER (base);
  auto *klass = CF_ANALYZER_GET_CLASS (self);
  sizes->frame_state = klass->frame_state_size;
  return klass->size_results (self, info, on_device, sizes);
}

static FrameError
cf_analyzer_run_frame (CfBaseFilter * base, const FrameWork & work,
    const FrameSelection & selection)
{
  auto *self = CF_ANALYZER (base);
  auto *klass = CF_ANALYZER_GET_CLASS (self);
  const std::vector<ComponentView> views =
      ProcessedComponents (*work.input.info, selection.include_chroma,
      selection.include_alpha).views (work.input, nullptr);
  const std::vector<FrameRegion> *regions = selection.regions ?
      &*selection.regions : nullptr;
  const cudaError_t err = CF_CUDA (Kernel, klass->analyze_frame (self, views,
          regions, work.exec, work.results, work.workspace,
          work.frame_state));
  return FrameError::check (work.exec.on_device ? "Launching the kernels" :
      "Analysing on the CPU", err);
}

static void
cf_analyzer_class_init (CfAnalyzerClass * klass)
{
  auto *base_class = CF_BASE_FILTER_CLASS (klass);
  base_class->size_frames = cf_analyzer_size_frames;
  /* Results are sized by the regions they hold. */
  base_class->sized_by_regions = TRUE;
  base_class->run_frame = cf_analyzer_run_frame;
  gst_type_mark_as_plugin_api (CF_TYPE_ANALYZER, (GstPluginAPIFlags) 0);
}

/* Works in place: GstBaseTransform gives it no output pool, and its frames
 * leave as they came, writable for the results a subclass attaches. */
static void
cf_analyzer_init (CfAnalyzer * self)
{
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
