// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framescheduler.h"

#include <gst/video/video.h>

#include <exception>
#include <utility>

/* a + b of two valid times, saturating below GST_CLOCK_TIME_NONE: a sum that
 * passes the largest time means later than any, not a small time. */
static GstClockTime
clock_time_sum (GstClockTime a, GstClockTime b)
{
  const GstClockTime largest = GST_CLOCK_TIME_NONE - 1;
  return b < largest - MIN (a, largest) ? a + b : largest;
}

/* `frames` frame durations at `info`'s frame rate; GST_CLOCK_TIME_NONE where it
 * has none. */
static GstClockTime
frames_time (const GstVideoInfo & info, guint frames)
{
  if (GST_VIDEO_INFO_FPS_N (&info) <= 0 || GST_VIDEO_INFO_FPS_D (&info) <= 0)
    return GST_CLOCK_TIME_NONE;
  return gst_util_uint64_scale_int (GST_SECOND * frames,
      GST_VIDEO_INFO_FPS_D (&info), GST_VIDEO_INFO_FPS_N (&info));
}

GST_DEBUG_CATEGORY_EXTERN (cf_base_filter_debug);
#define GST_CAT_DEFAULT cf_base_filter_debug

/* ---- held events ---- */

HeldEvents::~HeldEvents ()
{
  for (auto &held : events_)
    gst_event_unref (held.second);
}

void
HeldEvents::hold (guint64 frame, GstEvent * event)
{
  events_.emplace_back (frame, event);
}

std::vector<GstEvent *>
HeldEvents::take_through (guint64 frame)
{
  std::vector<GstEvent *> events;
  while (!events_.empty () && events_.front ().first <= frame) {
    events.push_back (events_.front ().second);
    events_.pop_front ();
  }
  return events;
}

void
HeldEvents::drop (GstPad * srcpad)
{
  for (auto &held : events_) {
    GstEvent *event = held.second;
    /* Its result only says whether the pad took it: either way the event
     * is gone with the frames. */
    if (GST_EVENT_IS_STICKY (event) && GST_EVENT_TYPE (event) != GST_EVENT_SEGMENT
        && GST_EVENT_TYPE (event) != GST_EVENT_EOS)
      (void) gst_pad_store_sticky_event (srcpad, event);
    gst_event_unref (event);
  }
  events_.clear ();
}

/* ---- frames ---- */

FrameScheduler::FrameScheduler (GstBaseTransform * element, ElementHooks hooks)
    : element_ (element), hooks_ (std::move (hooks)),
      idle_ (GST_BASE_TRANSFORM_SINK_PAD (element), [this] {
        return release_done ();
      })
{
}

/* Sends on, through GstBaseTransform as if just arrived, the events held
 * behind frames up to `frame`, which have left. */
void
FrameScheduler::forward_events_through (guint64 frame)
{
  for (GstEvent *event : events_.take_through (frame)) {
    const GstEventType type = GST_EVENT_TYPE (event);
    if (!hooks_.forward_event (event))
      GST_DEBUG_OBJECT (element_, "%s refused downstream",
          gst_event_type_get_name (type));
  }
}

bool
FrameScheduler::take_event (GstEvent * event, GstFlowReturn * drained)
{
  *drained = GST_FLOW_OK;
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      discard ();
      forget_position ();
      idle_flow_ = GST_FLOW_OK;
      return false;
      /* They change what the frames before them mean: every frame in flight
       * leaves first. */
    case GST_EVENT_STREAM_START:
    case GST_EVENT_CAPS:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_EOS:
    case GST_EVENT_SEGMENT_DONE:
      *drained = drain ();
      return false;
    default:
      if (!GST_EVENT_IS_SERIALIZED (event))
        return false;
      /* Events between two frames are not held without end: past
       * kMaxHeldEvents the frames in flight leave first, theirs with them. */
      if (events_.size () >= kMaxHeldEvents)
        *drained = drain ();
      return hold (event);
  }
}

/* GstBaseTransform marks the next frame it pushes DISCONT, which with frames
 * in flight would be an older one, and has no call that moves the mark: those
 * leave first (drained) and this frame as soon as it is in, so that the mark
 * lands on it (its output keeps its own flags anyway). DISCONT is rare: the
 * overlap is lost for one frame. */
GstFlowReturn
FrameScheduler::before_discont ()
{
  const GstFlowReturn drained = drain ();
  if (drained == GST_FLOW_OK)
    leave_next_ = true;
  return drained;
}

bool
FrameScheduler::hold (GstEvent * event)
{
  forward_events_through (left_through_);
  if (engine_.empty ())
    return false;
  events_.hold (engine_.last_number (), event);
  return true;
}

void
FrameScheduler::discard ()
{
  if (FrameError err = engine_.discard ())
    GST_WARNING_OBJECT (element_, "a dropped frame ended in: %s",
        err.describe ().c_str ());
  events_.drop (GST_BASE_TRANSFORM_SRC_PAD (element_));
}

/* Takes the oldest frame out, once its work is done, with what its role adds
 * (an analysis: its results), and notes where the stream has got to. */
GstFlowReturn
FrameScheduler::hand_out_oldest (GstBuffer ** outbuf, guint64 * number)
{
  FinishedFrame frame;
  const FrameError err = engine_.take_oldest (&frame);
  /* Its events follow it, whatever became of the frame. */
  *number = frame.number;
  if (err)
    return hooks_.post_error (err);
  const GstFlowReturn ret = hooks_.attach_results (&frame.buffer, frame);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (frame.buffer);
    return ret;
  }
  GST_OBJECT_LOCK (element_);
  if (GST_BUFFER_PTS_IS_VALID (frame.buffer))
    position_ = clock_time_sum (GST_BUFFER_PTS (frame.buffer),
        GST_BUFFER_DURATION_IS_VALID (frame.buffer) ?
        GST_BUFFER_DURATION (frame.buffer) : 0);
  GST_OBJECT_UNLOCK (element_);
  *outbuf = frame.buffer;
  return GST_FLOW_OK;
}

GstFlowReturn
FrameScheduler::generate (GstBuffer ** outbuf)
{
  *outbuf = nullptr;
  if (idle_flow_ != GST_FLOW_OK)
    return std::exchange (idle_flow_, GST_FLOW_OK);
  /* The frame handed out last has been pushed by now: its events follow. */
  forward_events_through (left_through_);
  const bool due = engine_.oldest_may_leave () ||
      (!engine_.empty () && (leave_next_ || leave_when_done_ ||
          !engine_.overlaps ()));
  if (!due) {
    /* GstBaseTransform calls until nothing comes: the thread leaves now. */
    idle_.streaming_left (!engine_.empty ());
    return GST_FLOW_OK;
  }
  leave_next_ = false;
  const GstFlowReturn ret = hand_out_oldest (outbuf, &left_through_);
  if (leave_when_done_ && engine_.empty ())
    note_work_time ();
  return ret;
}

/* The idle release (under the stream lock): the frames whose work is done
 * leave, as a drain pushes them; a failed push ends the frames in flight
 * as a failed drain does, and its flow goes upstream at the next frame. */
bool
FrameScheduler::release_done ()
{
  GstFlowReturn ret = GST_FLOW_OK;
  /* On a thread of its own: no exception may end the process. */
  try {
    forward_events_through (left_through_);
    while (ret == GST_FLOW_OK && !engine_.empty () && engine_.oldest_done ())
      ret = push_oldest ();
  } catch (const std::exception & e) {
    cf::post_exception (GST_ELEMENT (element_), e.what ());
    ret = GST_FLOW_ERROR;
  }
  if (ret == GST_FLOW_OK)
    return !engine_.empty ();
  GST_DEBUG_OBJECT (element_, "idle release stopped: %s",
      gst_flow_get_name (ret));
  discard ();
  idle_flow_ = ret;
  return false;
}

FrameError
FrameScheduler::submit (GstBuffer * input, GstBuffer * output,
    FrameSelection selection, gsize result_size, const FrameWorkFn & work)
{
  pace (input);
  return engine_.submit (input, output, std::move (selection), result_size,
      work);
}

/* Where upstream is live, whether the frame coming in leaves once its work is
 * done: unless the work is behind the source, which it stops being when a
 * frame arrives to find every earlier frame's work done. */
void
FrameScheduler::pace (GstBuffer * input)
{
  GST_OBJECT_LOCK (element_);
  const bool live = live_;
  GST_OBJECT_UNLOCK (element_);
  if (!live) {
    leave_when_done_ = behind_ = false;
    return;
  }
  if (behind_ && engine_.all_done ()) {
    behind_ = false;
    GST_DEBUG_OBJECT (element_, "the work keeps up with the live source "
        "again: frames leave once their work is done");
  }
  leave_when_done_ = !behind_;
  newest_arrival_us_ = g_get_monotonic_time ();
  newest_duration_ = GST_BUFFER_DURATION_IS_VALID (input) ?
      GST_BUFFER_DURATION (input) : caps_frame_duration_;
}

/* The newest frame, which left once its work was done, took longer than it
 * lasts: the next one is already waiting upstream, and where the backend
 * overlaps frames, the following ones overlap. */
void
FrameScheduler::note_work_time ()
{
  if (!engine_.overlaps () || !GST_CLOCK_TIME_IS_VALID (newest_duration_))
    return;
  const GstClockTime took =
      (g_get_monotonic_time () - newest_arrival_us_) * GST_USECOND;
  if (took <= newest_duration_)
    return;
  behind_ = true;
  GST_DEBUG_OBJECT (element_, "a frame's work took %" GST_TIME_FORMAT
      ", longer than the frame's %" GST_TIME_FORMAT ": frames overlap",
      GST_TIME_ARGS (took), GST_TIME_ARGS (newest_duration_));
}

GstFlowReturn
FrameScheduler::push_oldest ()
{
  GstBuffer *outbuf = nullptr;
  guint64 number = 0;
  GstFlowReturn ret = hand_out_oldest (&outbuf, &number);
  if (ret != GST_FLOW_OK)
    return ret;
  ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (element_), outbuf);
  if (ret == GST_FLOW_OK)
    forward_events_through (number);
  /* No streaming loop upstream sees this return where the drain runs in an
   * event, query or caps handler, to post the error that it would: posted
   * here, or a refused renegotiation loses the frames without a word. */
  else if (ret == GST_FLOW_NOT_LINKED || ret < GST_FLOW_EOS)
    GST_ELEMENT_FLOW_ERROR (element_, ret);
  return ret;
}

GstFlowReturn
FrameScheduler::drain ()
{
  forward_events_through (left_through_);
  GstFlowReturn ret = GST_FLOW_OK;
  while (ret == GST_FLOW_OK && !engine_.empty ())
    ret = push_oldest ();
  if (ret != GST_FLOW_OK) {
    GST_DEBUG_OBJECT (element_, "drain stopped: %s", gst_flow_get_name (ret));
    discard ();
    return ret;
  }
  /* A drain gives upstream back every buffer, the inputs of ordered frames
   * too. */
  if (FrameError err = engine_.retire_inputs ())
    return hooks_.post_error (err);
  return GST_FLOW_OK;
}

bool
FrameScheduler::answer_position (GstQuery * query) const
{
  const GstSegment *segment = &GST_BASE_TRANSFORM (element_)->segment;
  GstFormat format;
  gst_query_parse_position (query, &format, nullptr);
  GST_OBJECT_LOCK (element_);
  const GstClockTime position = position_;
  GST_OBJECT_UNLOCK (element_);
  if (format != GST_FORMAT_TIME || segment->format != GST_FORMAT_TIME ||
      !GST_CLOCK_TIME_IS_VALID (position))
    return false;
  gst_query_set_position (query, format, gst_segment_to_stream_time (segment,
          GST_FORMAT_TIME, position));
  return true;
}

FrameError
FrameScheduler::set_up (FrameEngine::Setup setup)
{
  const GstVideoInfo info = setup.info;
  caps_frame_duration_ = frames_time (info, 1);
  GstQuery *query = gst_query_new_latency ();
  gboolean live = FALSE;
  if (gst_pad_peer_query (GST_BASE_TRANSFORM_SINK_PAD (element_), query))
    gst_query_parse_latency (query, &live, nullptr, nullptr);
  gst_query_unref (query);
  set_live (live);
  behind_ = false;
  FrameError err = engine_.set_up (std::move (setup));
  const GstClockTime held = err ? 0 : frames_time (info,
      engine_.frames_held_back ());
  GST_OBJECT_LOCK (element_);
  held_latency_ = GST_CLOCK_TIME_IS_VALID (held) ? held : 0;
  GST_OBJECT_UNLOCK (element_);
  return err;
}

void
FrameScheduler::tear_down ()
{
  idle_.stop ();
  discard ();
  if (FrameError err = engine_.tear_down ())
    GST_WARNING_OBJECT (element_, "freeing: %s", err.describe ().c_str ());
  GST_OBJECT_LOCK (element_);
  held_latency_ = 0;
  position_ = GST_CLOCK_TIME_NONE;
  GST_OBJECT_UNLOCK (element_);
}

void
FrameScheduler::set_live (gboolean live)
{
  GST_OBJECT_LOCK (element_);
  const bool changed = live_ != static_cast<bool> (live);
  live_ = live;
  GST_OBJECT_UNLOCK (element_);
  if (changed)
    GST_DEBUG_OBJECT (element_, "upstream is %s", live ? "live" : "not live");
}

void
FrameScheduler::add_latency (GstQuery * query)
{
  GST_OBJECT_LOCK (element_);
  const GstClockTime held = held_latency_;
  GST_OBJECT_UNLOCK (element_);
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency (query, &live, &min, &max);
  set_live (live);
  /* Live, a frame waits for later ones only while the work is behind. */
  const GstClockTime ours = live ? 0 : held;
  gst_query_set_latency (query, live, clock_time_sum (min, ours),
      GST_CLOCK_TIME_IS_VALID (max) ? clock_time_sum (max, held) : max);
  GST_DEBUG_OBJECT (element_, "latency %" GST_TIME_FORMAT " (ours %"
      GST_TIME_FORMAT ", at most %" GST_TIME_FORMAT ")",
      GST_TIME_ARGS (clock_time_sum (min, ours)), GST_TIME_ARGS (ours),
      GST_TIME_ARGS (held));
}

void
FrameScheduler::forget_position ()
{
  GST_OBJECT_LOCK (element_);
  position_ = GST_CLOCK_TIME_NONE;
  GST_OBJECT_UNLOCK (element_);
}
