// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framemessage.h"

static bool
in_time (GstBaseTransform * trans)
{
  return trans->segment.format == GST_FORMAT_TIME;
}

GstClockTime
cf::frame_running_time (GstBaseTransform * trans, GstBuffer * frame)
{
  return in_time (trans) ? gst_segment_to_running_time (&trans->segment,
      GST_FORMAT_TIME, GST_BUFFER_PTS (frame)) : GST_CLOCK_TIME_NONE;
}

void
cf::set_frame_times (GstStructure * message, GstBaseTransform * trans,
    GstBuffer * frame)
{
  const GstClockTime timestamp = GST_BUFFER_PTS (frame);
  gst_structure_set (message,
      "timestamp", G_TYPE_UINT64, timestamp,
      "stream-time", G_TYPE_UINT64, in_time (trans) ?
      gst_segment_to_stream_time (&trans->segment, GST_FORMAT_TIME, timestamp) :
      GST_CLOCK_TIME_NONE,
      "running-time", G_TYPE_UINT64, frame_running_time (trans, frame),
      "duration", G_TYPE_UINT64, GST_BUFFER_DURATION (frame), nullptr);
}
