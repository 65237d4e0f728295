// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* What of each frame an element processes: luma alone or the chroma too
 * (include-chroma), alpha (include-alpha), the whole frame or the regions
 * upstream's metas carry (regions, region-types, region-padding; reading them
 * is frameregions.h's). Their values are one SelectionSettings under the
 * element's object lock (cfbaseproperties.h sets them); the FrameSelector,
 * the streaming thread's, makes of them and a buffer its FrameSelection,
 * which stays with the frame until it leaves. */
#pragma once

#include <gst/video/video.h>

#include <optional>
#include <string>
#include <vector>

#include "frameregions.h"

/* What the properties say, at one moment. */
struct SelectionSettings
{
  bool include_chroma = false;
  bool include_alpha = false;
  CfRegions regions = CF_REGIONS_FRAME;
  std::string region_types;     /* as set */
  RegionChoice region_choice;   /* region-types parsed, region-padding,
                                 * min-confidence */

  bool regions_from_meta () const { return regions == CF_REGIONS_META; }
  /* region-types as set: its names parsed, spaces around them ignored. */
  void set_region_types (const gchar * types);
  /* With regions=frame, the region properties set to no effect, as
   * "region-types=face" (comma-separated); empty where none is. */
  std::string ignored_region_properties () const;
};

/* What of one frame is processed, decided as it is queued. */
struct FrameSelection
{
  bool include_chroma = false;
  bool include_alpha = false;
  /* regions=meta: the frame's regions, maybe none; none: the whole frame. */
  std::optional<std::vector<FrameRegion>> regions;
  /* regions=meta: the buffer carried analytics results (FoundRegions). */
  bool analyzed = false;
  /* regions=meta: regions of the frame beyond the most it takes, left out. */
  gsize regions_left_out = 0;
  /* An in-place element edits the whole frame, whatever the regions (it
   * decides so in amend_selection). */
  bool whole_frame = false;
  /* An interlaced frame (interlace-mode=interleaved, or mixed and flagged
   * interlaced): its two fields are two pictures to a spatial filter. */
  bool fields = false;
};

/* Frames that carry regions, none of a type region-types names, after which
 * the element says so: a misspelt type must not blur nothing in silence. */
constexpr guint kFramesBeforeTypeWarning = 30;

/* Makes each frame's selection, and warns once per stream (until reset) of
 * each mistake that would make the element do nothing or the wrong thing: a
 * frame carrying more regions than the element takes; region properties set
 * while regions=frame; region-types that no region of the first
 * kFramesBeforeTypeWarning frames with regions matches. */
class FrameSelector
{
public:
  /* A new stream: each warning may come again. */
  void reset ()
  {
    warned_over_limit_ = false;
    warned_ignored_ = false;
    type_check_ = TypeCheck ();
  }
  /* What of `buffer`, a frame of `info`, `settings` select, with at most
   * `max_regions` regions (0: regions=meta waits for the frames to be sized
   * for regions, and the whole frame is processed meanwhile). */
  FrameSelection select (GstElement * element, GstBuffer * buffer,
      const GstVideoInfo & info, const SelectionSettings & settings,
      guint max_regions);

private:
  /* Whether region-types matches the regions the stream carries. */
  struct TypeCheck
  {
    bool decided = false;       /* a type matched, or the warning was given */
    guint frames = 0;           /* frames with regions, none matched */
    std::vector<GQuark> seen;   /* their types, the first few */
  };

  void warn_if_ignored (GstElement * element,
      const SelectionSettings & settings);
  void warn_if_over (GstElement * element, gsize found, guint max_regions);
  void check_types (GstElement * element, const SelectionSettings & settings,
      const std::vector<GQuark> & frame_types);

  bool warned_over_limit_ = false;
  bool warned_ignored_ = false;
  TypeCheck type_check_;
};
