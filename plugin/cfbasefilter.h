// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfBaseFilter: the private base class of the cudafilters elements, the
 * GStreamer half of what they share: properties, the backend and the CUDA
 * context shared with the pipeline (cudadevice.h), caps (memorycaps.h),
 * allocation, events, queries. The frames themselves go through rooms of their
 * own that know nothing of GStreamer's events, queries or caps: the frames in
 * flight (frameengine.h) on the CPU or CUDA backend (framebackends.h), where a
 * frame lives and how it moves (framepaths.h, cudamemory.h), formats mapped to
 * what kernels take (framecomponents.h).
 *
 * Two roles derive from it, each with its own hooks: CfFilter, frame in,
 * new frame out (cffilter.h), and CfAnalyzer, frame in, results out,
 * the frame passed on untouched (cfanalyzer.h). GstBaseTransform tells
 * them apart as it tells any two transforms apart: a filter sets transform(),
 * an analyzer transform_ip() (it works in place). */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "framecomponents.h"
#include "frameerror.h"
#include "frameplanes.h"

G_BEGIN_DECLS

#define CF_TYPE_BASE_FILTER (cf_base_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (CfBaseFilter, cf_base_filter, CF, BASE_FILTER,
    GstBaseTransform)

G_END_DECLS

/* What a role's frames need per caps: bytes of each frame's results and
 * state, and of the device workspace of each frame in flight (CUDA). */
struct FrameSizes
{
  gsize results = 0;
  gsize state = 0;
  gsize workspace = 0;
};

/* The roles' hooks (CfFilter and CfAnalyzer set them). */
struct _CfBaseFilterClass
{
  GstBaseTransformClass parent_class;

  /* Caps are set: what frames of `info` need, on the CUDA backend where
   * `on_device`. FALSE (after posting an error) refuses the caps. NULL: none. */
  gboolean (*set_info) (CfBaseFilter * self, const GstVideoInfo & info,
      bool on_device, FrameSizes * sizes);
  /* One frame's work: run on the CPU, or queued on work.exec.stream. */
  FrameError (*process) (CfBaseFilter * self, const FrameWork & work);
  /* A frame about to leave, in order, writable, with its results and state
   * (properties may have changed since process). NULL: nothing to add. */
  GstFlowReturn (*finish_frame) (CfBaseFilter * self, GstBuffer * frame,
      const void *results, const void *state);
};

/* For the roles' transform() and transform_ip(): queues `input`'s work into
 * `output` (the same buffer for an analyzer), which leaves in order later,
 * from generate_output. Takes references of its own. */
GstFlowReturn cf_base_filter_submit (CfBaseFilter * self,
    GstBuffer * input, GstBuffer * output);
/* A property the frames' buffers are sized by changed (cudahist's bins, an
 * analyzer's regions): before the next frame, the frames in flight leave and
 * the frames are configured again. Any thread. */
void cf_base_filter_configure_again (CfBaseFilter * self);
/* Installs include-chroma on a role's class, with the role's default: the
 * role keeps its value and reads it for each frame. */
void cf_base_filter_install_include_chroma (GObjectClass * klass,
    guint prop_id, gboolean default_value);
/* Posts `err` as the element's error; GST_FLOW_ERROR. */
GstFlowReturn cf_base_filter_post_error (CfBaseFilter * self,
    const FrameError & err);
