// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The frames in flight as GstBaseTransform sees them: the frame engine
 * (frameengine.h), the serialized events held behind its frames
 * (heldevents.h), and the two ways frames leave. From generate_output, the
 * oldest frame goes to GstBaseTransform, which pushes it, marks DISCONT and
 * counts it; a drain, which comes in event and query handlers (EOS, SEGMENT,
 * caps, DRAIN) where GstBaseTransform pushes nothing, pushes the frames here,
 * as d3d11deinterlace's drain does, and answers POSITION queries for them.
 * The streaming thread's, but for what queries read (under the object
 * lock): the position and the latency frames in flight add. */
#pragma once

#include <gst/base/gstbasetransform.h>

#include "frameengine.h"
#include "heldevents.h"

typedef struct _GstCudaBaseFilter GstCudaBaseFilter;

class FrameStream
{
public:
  explicit FrameStream (GstCudaBaseFilter * element);
  FrameStream (const FrameStream &) = delete;
  FrameStream & operator= (const FrameStream &) = delete;

  FrameEngine & engine () { return engine_; }
  /* Sets the engine up for new caps (FrameEngine::configure). */
  FrameError configure (FrameEngine::Setup setup);
  /* Frees what the engine holds (stop, a move to another device); no frame
   * in flight, no position known. */
  void release ();

  /* generate_output: the oldest frame once frames-in-flight frames are in,
   * or at once after a DISCONT (leave_next), else nothing. */
  GstFlowReturn generate (GstBuffer ** outbuf);
  /* The next frame in leaves as soon as it is in. */
  void leave_next () { leave_next_ = true; }
  /* A serialized event: held behind the frames in flight, if any (TRUE). */
  bool hold (GstEvent * event);
  /* Pushes every frame in flight, each followed by its events. */
  GstFlowReturn drain ();
  /* Drops every frame in flight, with the events held behind them. */
  void discard ();
  /* POSITION: the end of the last frame that left; FALSE where
   * GstBaseTransform's answer is the right one. */
  bool answer_position (GstQuery * query) const;
  void forget_position ();
  /* LATENCY: adds what waiting for frames-in-flight - 1 later frames costs,
   * at the caps' frame rate (nothing where frames leave ordered at once). */
  void add_latency (GstQuery * query) const;

private:
  void forward_events_through (guint64 frame);
  GstFlowReturn hand_out_oldest (GstBuffer ** outbuf, guint64 * number);
  GstFlowReturn push_oldest ();

  GstCudaBaseFilter *element_;
  /* Where held events go on: GstBaseTransform's own sink_event. */
  GstBaseTransformClass *base_class_;
  FrameEngine engine_;
  HeldEvents events_;
  /* The last frame generate_output handed to GstBaseTransform, which pushes
   * it after the call: its events follow at the next call. */
  guint64 left_through_ = 0;
  bool leave_next_ = false;
  /* Under the object lock, for queries: */
  GstClockTime position_ = GST_CLOCK_TIME_NONE;
  guint held_back_ = 0;
};
