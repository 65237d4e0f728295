// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The times an element's per-frame message carries, as `level`'s do. */
#pragma once

#include <gst/base/gstbasetransform.h>

namespace cf {

/* The running time of `frame` in `trans`'s segment; GST_CLOCK_TIME_NONE where
 * it has no timestamp or the segment is not in TIME (appsrc's default is
 * BYTES). */
GstClockTime frame_running_time (GstBaseTransform * trans, GstBuffer * frame);

/* Sets "timestamp", "stream-time", "running-time" and "duration" (guint64,
 * GST_CLOCK_TIME_NONE where unknown) of `frame` on `message`. */
void set_frame_times (GstStructure * message, GstBaseTransform * trans,
    GstBuffer * frame);

}  // namespace cf
