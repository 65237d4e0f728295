// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The frames in flight as GstBaseTransform sees them: the frame engine
 * (frameengine.h), the serialized events held behind its frames (HeldEvents,
 * below), when frames leave, and the two ways they do. From
 * generate_output, the oldest frame goes to GstBaseTransform, which pushes
 * it, marks DISCONT and counts it; a drain, which comes in event and query
 * handlers (EOS, SEGMENT, caps, DRAIN) where GstBaseTransform pushes nothing,
 * pushes the frames here, as d3d11deinterlace's drain does, and answers
 * POSITION queries for them.
 *
 * When: where the backend overlaps frames (CUDA, several in flight), a frame
 * from a non-live upstream waits for frames-in-flight - 1 later ones, which
 * come as soon as upstream has them, so that their work overlaps. From a live
 * one, the next frame comes at the source's rate: a frame leaves as soon as its
 * own work is done, unless that work took longer than a frame lasts; then
 * frames wait as from a non-live upstream, until one arrives to find every
 * earlier frame's work done. Either way, once upstream sends nothing for a
 * moment, the frames whose work is done leave (IdleRelease). Where the backend
 * does not overlap frames (the CPU, one frame in flight), a frame leaves as
 * soon as its work is done (docs/design.md, "When frames leave").
 *
 * The streaming thread's, but for what queries read and write (under the
 * object lock): the position, the latency frames in flight add, whether
 * upstream is live. */
#pragma once

#include <gst/base/gstbasetransform.h>

#include <deque>
#include <functional>
#include <utility>
#include <vector>

#include "frameengine.h"
#include "idlerelease.h"

/* Serialized events that come while frames are in flight wait behind the frame
 * that came last before them and follow it out, as GstVideoDecoder keeps
 * events with its frames: they keep their place among the frames, and a
 * stream with frequent events (tags, custom events, gaps) keeps its frames
 * overlapping. Frames are known by the numbers the frame engine gives them. */
class HeldEvents
{
public:
  HeldEvents () = default;
  HeldEvents (const HeldEvents &) = delete;
  HeldEvents & operator= (const HeldEvents &) = delete;
  ~HeldEvents ();

  /* Takes `event`, to follow frame `frame` out. */
  void hold (guint64 frame, GstEvent * event);
  /* The events held behind frames up to `frame`, in order, now the caller's. */
  std::vector<GstEvent *> take_through (guint64 frame);
  /* Drops every event, as a flush drops what waits in a queue; sticky ones
   * but SEGMENT and EOS stay on `srcpad`, to go out before the next data. */
  void drop (GstPad * srcpad);
  gsize size () const { return events_.size (); }

private:
  std::deque<std::pair<guint64, GstEvent *>> events_;
};

class FrameScheduler
{
public:
  /* Serialized events held behind the frames in flight at most. */
  static constexpr gsize kMaxHeldEvents = 64;

  /* What the element lends its frames in flight: its role's hook for a frame
   * that leaves (writable: *frame may be replaced; results and frame state as
   * FinishedFrame has them), its error posting, and where an event held
   * behind frames goes once they have left (GstBaseTransform's handling, as
   * if it had just come). */
  struct ElementHooks
  {
    std::function<GstFlowReturn (GstBuffer ** frame,
        const FinishedFrame & finished)> attach_results;
    std::function<GstFlowReturn (const FrameError & err)> post_error;
    std::function<gboolean (GstEvent * event)> forward_event;
  };

  FrameScheduler (GstBaseTransform * element, ElementHooks hooks);
  FrameScheduler (const FrameScheduler &) = delete;
  FrameScheduler & operator= (const FrameScheduler &) = delete;

  FrameEngine & engine () { return engine_; }
  /* Sets the engine up for new caps (FrameEngine::set_up), and asks
   * upstream whether it is live. */
  FrameError set_up (FrameEngine::Setup setup);
  /* Submits a frame's work (FrameEngine::submit), first deciding whether it
   * leaves as soon as that work is done. */
  FrameError submit (GstBuffer * input, GstBuffer * output,
      FrameSelection selection, gsize result_size, const FrameWorkFn & work);
  /* Frees what the engine holds (stop, a move to another device); no frame
   * in flight, no position known, no idle release running. */
  void tear_down ();

  /* generate_output: the oldest frame once frames-in-flight frames are in,
   * once its work is done where it leaves at once (live, or a backend that
   * does not overlap frames), or at once after a DISCONT (leave_next), else
   * nothing; what pushing a frame in the idle release returned, once. */
  GstFlowReturn generate (GstBuffer ** outbuf);
  /* submit_input_buffer, a DISCONT frame: every frame in flight leaves
   * first, and this one as soon as it is in (GST_FLOW_OK), so that
   * GstBaseTransform's DISCONT mark lands on it. */
  GstFlowReturn before_discont ();
  /* sink_event: what `event` does to the frames in flight. FLUSH_STOP drops
   * them; an event that changes what the frames before it mean (STREAM_START,
   * CAPS, SEGMENT, EOS, SEGMENT_DONE) lets them leave first (*drained says
   * how); another serialized event waits behind them. TRUE where it was held,
   * now the stream's. */
  bool take_event (GstEvent * event, GstFlowReturn * drained);
  /* Pushes every frame in flight, each followed by its events. */
  GstFlowReturn drain ();
  /* POSITION: the end of the last frame that left; FALSE where
   * GstBaseTransform's answer is the right one. */
  bool answer_position (GstQuery * query) const;
  /* LATENCY: adds what waiting for frames-in-flight - 1 later frames costs,
   * at the caps' frame rate (nothing where frames leave ordered at once), to
   * the maximum; to the minimum too unless upstream is live, where frames
   * leave once their work is done. Notes whether upstream is live. */
  void add_latency (GstQuery * query);

private:
  /* A serialized event: held behind the frames in flight, if any (TRUE). */
  bool hold (GstEvent * event);
  /* Drops every frame in flight, with the events held behind them. */
  void discard ();
  void forget_position ();
  void set_live (gboolean live);
  void pace (GstBuffer * input);
  void note_work_time ();
  void forward_events_through (guint64 frame);
  GstFlowReturn hand_out_oldest (GstBuffer ** outbuf, guint64 * number);
  GstFlowReturn push_oldest ();
  bool release_done ();

  GstBaseTransform *element_;
  ElementHooks hooks_;
  FrameEngine engine_;
  HeldEvents events_;
  /* What a push in the idle release returned where it failed: the streaming
   * thread's next generate returns it upstream. */
  GstFlowReturn idle_flow_ = GST_FLOW_OK;
  /* The last frame generate_output handed to GstBaseTransform, which pushes
   * it after the call: its events follow at the next call. */
  guint64 left_through_ = 0;
  bool leave_next_ = false;
  /* Live pacing: the newest frame leaves once its work is done, unless the
   * work is behind the source; when it came and how long a frame lasts. */
  bool leave_when_done_ = false;
  bool behind_ = false;
  gint64 newest_arrival_us_ = 0;
  GstClockTime newest_duration_ = GST_CLOCK_TIME_NONE;
  GstClockTime caps_frame_duration_ = GST_CLOCK_TIME_NONE;
  /* Under the object lock, for queries: */
  GstClockTime position_ = GST_CLOCK_TIME_NONE;
  /* What frames-in-flight - 1 frames take at the caps' frame rate (0 where
   * it has none, or frames leave ordered at once). */
  GstClockTime held_latency_ = 0;
  bool live_ = false;
  /* Last: its thread, which uses the members above, stops first. */
  IdleRelease idle_;
};
