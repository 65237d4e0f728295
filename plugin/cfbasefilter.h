// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfBaseFilter: the private base class of the cudafilters elements, the
 * GStreamer half of what they share: properties (the regions of frames they
 * process among them), the backend and the CUDA context shared with the
 * pipeline (elementdevice.h), allocation (elementpools.h), what of each frame
 * is processed (frameselection.h), caps (memorycaps.h), events, queries. The
 * frames themselves go through modules of their own that know nothing of GStreamer's events, queries or caps: the
 * frames in flight (framestream.h, frameengine.h) on the CPU or CUDA backend
 * (framebackends.h), where a frame lives and how it moves (framepaths.h,
 * cudamemory.h), formats mapped to what kernels take (framecomponents.h).
 *
 * Three roles derive from it, each with its own hooks: CfFilter, frame in,
 * new frame out (cffilter.h), CfAnalyzer, frame in, results out, the frame
 * passed on untouched, in place (cfanalyzer.h), and CfInPlace, the frame
 * changed where it is, in place (cfinplace.h).
 *
 * A buffer's way: submit_input_buffer takes it, selects its regions and queues
 * its work (the role's run_frame) with its output buffer; generate_output gives
 * the oldest frame once its work is done, its results attached
 * (attach_results). */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "framecomponents.h"
#include "frameerror.h"
#include "frameplanes.h"
#include "frameselection.h"

G_BEGIN_DECLS

#define CF_TYPE_BASE_FILTER (cf_base_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (CfBaseFilter, cf_base_filter, CF, BASE_FILTER,
    GstBaseTransform)

G_END_DECLS

/* What a role's frames need per caps: bytes of each frame's results (for the
 * frame, and for each region it carries) and state, of the device workspace of
 * each frame in flight (CUDA), and the most regions a frame may carry. */
struct FrameSizes
{
  gsize results = 0;
  gsize results_per_region = 0;
  gsize frame_state = 0;
  gsize workspace = 0;
  guint max_regions = 0;
};

/* The roles' hooks (CfFilter, CfAnalyzer and CfInPlace set them). */
struct _CfBaseFilterClass
{
  GstBaseTransformClass parent_class;

  /* Whether run_frame writes into its input frame (in place): it is mapped
   * for writing too, and what run_frame says it wrote (FrameWork::edited)
   * goes back where the frame lives. */
  bool edits_input;

  /* Caps are set: what frames of `info` need on the CUDA backend where
   * `on_device`. sizes->max_regions comes set to the regions a frame may carry
   * (0: regions=frame); the role may lower it. Nothing takes effect unless
   * it returns TRUE: FALSE (after posting an error) refuses the caps. NULL:
   * nothing. */
  gboolean (*configure) (CfBaseFilter * self, const GstVideoInfo & info,
      bool on_device, FrameSizes * sizes);
  /* One frame's work, on what `selection` says: run on the CPU, or queued on
   * work.exec.stream. */
  FrameError (*run_frame) (CfBaseFilter * self, const FrameWork & work,
      const FrameSelection & selection);
  /* A frame about to leave, in order, writable, with its results and
   * frame_state (properties may have changed since run_frame). Frames dropped
   * at a flush never get here. NULL: nothing to attach. */
  GstFlowReturn (*attach_results) (CfBaseFilter * self, GstBuffer * frame,
      const void *results, const void *frame_state);
};

/* Installs, on a role's class, the properties of what of a frame is processed
 * (FrameSelector::install): the base keeps their values (the role's class
 * takes the base's set_property and get_property) and hands them to
 * run_frame. */
void cf_base_filter_class_install_selection (GObjectClass * klass,
    gboolean include_chroma, bool region_padding);
/* A property the frames' buffers are sized by changed (cudahist's bins): before
 * the next frame, the frames in flight leave and the frames are configured
 * again. Any thread. */
void cf_base_filter_configure_again (CfBaseFilter * self);
/* Posts `err` as the element's error; GST_FLOW_ERROR. */
GstFlowReturn cf_base_filter_post_error (CfBaseFilter * self,
    const FrameError & err);
