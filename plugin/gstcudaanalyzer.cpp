// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "gstcudaanalyzer.h"

#include "cudafaults.h"

G_DEFINE_ABSTRACT_TYPE (GstCudaAnalyzer, gst_cuda_analyzer,
    GST_TYPE_CUDA_BASE_FILTER);

static gboolean
gst_cuda_analyzer_set_info (GstCudaBaseFilter * base, const GstVideoInfo & info,
    bool on_device, FrameSizes * sizes)
{
  auto *self = GST_CUDA_ANALYZER (base);
  auto *klass = GST_CUDA_ANALYZER_GET_CLASS (self);
  sizes->state = klass->frame_state_size;
  return klass->set_info (self, info, &sizes->results,
      on_device ? &sizes->workspace : nullptr);
}

static FrameError
gst_cuda_analyzer_process (GstCudaBaseFilter * base, const FrameWork & work)
{
  auto *self = GST_CUDA_ANALYZER (base);
  auto *klass = GST_CUDA_ANALYZER_GET_CLASS (self);
  const bool include_alpha = klass->includes_alpha &&
      klass->includes_alpha (self);
  const std::vector<ComponentView> views =
      gst_cuda_base_filter_components (base, *work.input.info,
      include_alpha).views (work.input, nullptr);
  const cudaError_t err = CF_CUDA (Kernel, klass->analyze_frame (self, views,
          work.exec, work.results, work.workspace, work.state));
  return FrameError::check (work.exec.on_device ? "Launching the kernels" :
      "Analysing on the CPU", err);
}

static GstFlowReturn
gst_cuda_analyzer_finish_frame (GstCudaBaseFilter * base, GstBuffer * frame,
    const void *results, const void *state)
{
  auto *self = GST_CUDA_ANALYZER (base);
  return GST_CUDA_ANALYZER_GET_CLASS (self)->attach_results (self, frame,
      results, state);
}

/* Queues the frame's analysis; the frame leaves later, in order
 * (GstCudaBaseFilter's generate_output), its results attached. */
static GstFlowReturn
gst_cuda_analyzer_transform_ip (GstBaseTransform * trans, GstBuffer * buffer)
{
  return gst_cuda_base_filter_submit (GST_CUDA_BASE_FILTER (trans), buffer,
      buffer);
}

static void
gst_cuda_analyzer_class_init (GstCudaAnalyzerClass * klass)
{
  auto *base_class = GST_CUDA_BASE_FILTER_CLASS (klass);
  GST_BASE_TRANSFORM_CLASS (klass)->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cuda_analyzer_transform_ip);
  base_class->set_info = gst_cuda_analyzer_set_info;
  base_class->process = gst_cuda_analyzer_process;
  base_class->finish_frame = gst_cuda_analyzer_finish_frame;
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_ANALYZER, (GstPluginAPIFlags) 0);
}

static void
gst_cuda_analyzer_init (GstCudaAnalyzer *)
{
}
