// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "heldevents.h"

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
