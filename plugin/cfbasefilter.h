// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfBaseFilter: the private base class of the cudafilters elements, the
 * GStreamer half of what they share, in files of its own: the properties
 * (cfbaseproperties.h), negotiation: caps and allocation
 * (cfbasenegotiation.h), and here start and stop, events, queries and each
 * frame's way. Below it, in modules that know nothing of GStreamer's events,
 * queries or caps: the device and the CUDA context shared with the pipeline
 * (elementdevice.h) and its pools (elementpools.h), what of each frame is
 * processed (frameselection.h), the frames in flight (framescheduler.h,
 * frameengine.h) on the CPU or CUDA backend (framebackends.h), where a frame
 * lives and how it moves (framepaths.h, cudamemory.h), formats mapped to what
 * kernels take (framecomponents.h).
 *
 * Three roles derive from it, each with its own hooks: CfFilter, frame in,
 * new frame out (cffilter.h), CfAnalyzer, frame in, results out, the frame
 * passed on untouched, in place (cfanalyzer.h), and CfInPlace, the frame
 * changed where it is, in place (cfinplace.h).
 *
 * A buffer's way: submit_input_buffer takes it, selects what of it is
 * processed and queues its work (the role's run_frame) with its output
 * buffer; generate_output gives the oldest frame once its work is done, its
 * results attached (attach_results). */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "cfbaseproperties.h"
#include "framecomponents.h"
#include "frameengine.h"
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
   * (0: regions=frame, where sized_by_regions); the role may lower it. Nothing takes effect unless
   * it returns TRUE: FALSE (after posting an error) refuses the caps. NULL:
   * nothing. */
  gboolean (*size_frames) (CfBaseFilter * self, const GstVideoInfo & info,
      bool on_device, FrameSizes * sizes);
  /* A frame's selection, made as it is queued, in order: the element adds
   * what depends on its own properties or on the frames before (regions held
   * over), or edits the whole frame. NULL: as made. */
  void (*amend_selection) (CfBaseFilter * self, GstBuffer * frame,
      FrameSelection * selection);
  /* One frame's work, on what `selection` says: run on the CPU, or queued on
   * work.exec.stream. */
  FrameError (*run_frame) (CfBaseFilter * self, const FrameWork & work,
      const FrameSelection & selection);
  /* A frame about to leave, in order, writable, with its results, frame
   * state and selection (properties may have changed since run_frame).
   * Frames dropped at a flush never get here. NULL: nothing to attach. */
  GstFlowReturn (*attach_results) (CfBaseFilter * self, GstBuffer * frame,
      const FinishedFrame & finished);
  /* Whether the frames' sizes depend on the regions a frame may carry (an
   * analyzer's results): a change of `regions` then waits for the frames in
   * flight to leave. Elsewhere a frame takes regions whenever it comes. */
  gboolean sized_by_regions;
};

/* The values of the properties (cfbaseproperties.h), to read under the
 * object lock. */
const BaseProperties & cf_base_filter_properties (CfBaseFilter * self);
/* The frames' geometry, as the caps set it (the streaming thread's). */
const GstVideoInfo & cf_base_filter_video_info (CfBaseFilter * self);
/* A property the frames' buffers are sized by changed (cudahist's bins): before
 * the next frame, the frames in flight leave and the frames are set up again.
 * Any thread. */
void cf_base_filter_mark_frames_outdated (CfBaseFilter * self);
/* Posts `err` as the element's error; GST_FLOW_ERROR. */
GstFlowReturn cf_base_filter_post_error (CfBaseFilter * self,
    const FrameError & err);
