// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Serialized events that come while frames are in flight wait behind the frame
 * that came last before them and follow it out, as GstVideoDecoder keeps
 * events with its frames: they keep their place among the frames, and a
 * stream with frequent events (tags, custom events, gaps) keeps its frames
 * overlapping. Frames are known by the numbers the frame engine gives them. */
#pragma once

#include <gst/gst.h>

#include <deque>
#include <utility>
#include <vector>

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

private:
  std::deque<std::pair<guint64, GstEvent *>> events_;
};
