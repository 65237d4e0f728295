// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* cudahist's results: how a frame's lie in its results memory (the kernels
 * write them there), and how they become the fields of the meta and the
 * message (gstcudahist.cpp documents them). */
#pragma once

#include <gst/video/video.h>

#include <vector>

#include "frameregions.h"

/* How one frame was counted (the properties may change while it is in flight):
 * kept with the frame from analyze_frame to attach_results. */
struct HistFrameState
{
  guint lower;
  guint upper;
  guint n_channels;
  gint channels[GST_VIDEO_MAX_COMPONENTS];      /* component indices */
};

namespace cf {

/* Bytes of one channel's results: its bins, then its summary. */
gsize hist_channel_result_size (guint bins);
/* Bytes of a block of results: every channel's, for the frame (roi-*) or for
 * one region. A frame's results are the frame's block, then a block for each
 * region. */
gsize hist_block_size (guint bins);

/* What a frame's results are read with, fixed at the caps. */
struct HistResultsLayout
{
  const GstVideoInfo *info;
  guint bins;
  /* regions=meta: the frame's regions, a "regions" field; NULL: none. */
  const std::vector<FrameRegion> *regions;
};

/* Looks up the fields' names once, before the first results. */
void hist_results_init (void);

/* Sets the fields of one frame's results (`bytes`, counted as `counted` says)
 * on `fields`: the meta's or the message's structure. */
void hist_set_results (const HistResultsLayout & layout, const guint8 * bytes,
    const HistFrameState & counted, GstStructure * fields);

}  // namespace cf
