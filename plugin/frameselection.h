// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* What of each frame an element processes, as its properties say: luma alone
 * or the chroma too (include-chroma), the whole frame or the regions that
 * upstream's metas carry (regions, region-types, region-padding; the regions
 * themselves are frameregions.h's). The base class owns one, for either role;
 * a role installs the properties with its own defaults. Their values are under
 * the element's object lock; the rest is the streaming thread's. */
#pragma once

#include <gst/video/video.h>

#include <vector>

#include "frameregions.h"

/* What of one frame the properties select, read as it is queued. */
struct FrameSelection
{
  bool include_chroma = false;
  /* The frame's regions (regions=meta), maybe none; NULL: the whole frame. */
  const std::vector<FrameRegion> *regions = nullptr;
  /* An interlaced frame (interlace-mode=interleaved, or mixed and flagged
   * interlaced): its two fields are two pictures to a spatial filter. */
  bool fields = false;
};

class FrameSelector
{
public:
  /* Installs regions, region-types, region-padding (where `region_padding`)
   * and include-chroma (default `include_chroma`) on `klass`, with the ids
   * first_id to first_id + 3, each mutable while playing. */
  static void install (GObjectClass * klass, guint first_id,
      gboolean include_chroma, bool region_padding);

  /* FALSE for a property that is none of them; *resizes: whether it changes
   * what the frames are sized for (the regions: an analyzer's results). */
  bool set (GObject * object, const GValue * value, GParamSpec * pspec,
      bool *resizes);
  bool get (GObject * object, GValue * value, GParamSpec * pspec) const;
  /* At construction: include-chroma starts as `object`'s class says. */
  void take_defaults (GObject * object);

  /* A new stream: each warning may come again. */
  void reset () { regions_.reset (); }
  /* The regions a frame may carry as the properties say now, for the frames to
   * be sized for: kMaxFrameRegions with regions=meta, else 0. */
  guint regions_wanted (GObject * object) const;
  /* The frames were configured: frames of `info` follow, each carrying at most
   * `max_regions` regions (0: the whole frame). */
  void configure (const GstVideoInfo & info, guint max_regions);
  /* A frame is being queued: what of `buffer` the properties select now (its
   * regions valid until the next select), within what the frames were
   * configured for: regions=meta set since waits for the next configuration. */
  FrameSelection select (GstElement * element, GstBuffer * buffer);

private:
  gboolean include_chroma_ = FALSE;
  RegionSelection regions_;
  guint max_regions_ = 0;
  GstVideoInterlaceMode interlace_mode_ = GST_VIDEO_INTERLACE_MODE_PROGRESSIVE;
};
