// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Regions that fail closed: a region the detector found in earlier frames but
 * not in this one is still redacted at its last box while the frame is at most
 * `hold` after the last frame that had it. A detector misses a face now and
 * then (motion blur, a turned head, a frame it skipped); redaction that
 * followed the detections alone would show that face for one frame.
 *
 * A remembered region and one the frame has are the same object when:
 *  - both are tracked: their track ids are equal, wherever the boxes are (a
 *    tracker's id is stronger evidence than any overlap; two tracked regions
 *    of different ids are two objects, however much they overlap);
 *  - either is untracked: their boxes' intersection over union is at least
 *    kHoldMinOverlap, compared exactly in integers (10 x intersection >=
 *    3 x union, in pixels), so that the same boxes decide the same way on
 *    every machine.
 *
 * A held region moves on: where the last two frames that had it put it at
 * different places, it is redacted at its last box and at that box moved on at
 * the same speed for the time since (each way at most the box's own size), and
 * everything between, within the frame. A face that keeps moving while the
 * detector misses it stays covered; one that stopped is still covered where it
 * stopped.
 *
 * What is remembered after a frame is the frame's own regions (each as seen,
 * at the frame's time, a region of its own shape as its whole box: fail
 * closed) and the remembered ones it has no match for that are
 * still within `hold`. A remembered region that a region of the frame matches
 * is that region from then on: its box, its id, type and tracking, and the
 * frame's time; several remembered regions matched by one of the frame (two
 * overlapping boxes of a face, found again as one) become that one.
 *
 * Memory is bounded: at most kMaxHeldRegions regions are remembered; where
 * more would be, those seen longest ago are forgotten first (among those seen
 * at the same time, the frame's regions before older ones, each in its order).
 * A frame of more than kMaxHeldRegions regions is remembered in part: of its
 * regions, those after the first kMaxHeldRegions would not be held if the
 * next frames missed them (the plugin takes kMaxFrameRegions = 256 regions of
 * a frame at most, so no more reach here).
 *
 * Plain C++ with GStreamer's types, no element code: the element owns one,
 * calls it from its streaming thread (it is not thread-safe) and decides the
 * time of frames without a timestamp. */
#pragma once

#include <gst/gst.h>

#include <vector>

#include "frameregions.h"

/* Intersection over union from which two boxes are one object, where either
 * region is untracked: 3 / 10. */
constexpr guint kHoldMinOverlapTenths = 3;
constexpr gdouble kHoldMinOverlap = kHoldMinOverlapTenths / 10.0;

/* Regions remembered at most. */
constexpr gsize kMaxHeldRegions = 256;

class RegionHold
{
public:
  /* `log_object` (may be NULL, not referenced: it must outlive this) is the
   * object the debug log names. */
  explicit RegionHold (GstObject * log_object = nullptr)
      : log_object_ (log_object) { }

  /* The frame at `time` (ns, valid, normally increasing) found `seen` (its
   * regions, any origin RegionOrigin::kMeta). Returns the regions to redact
   * besides `seen`: each remembered region that no region of `seen` matches
   * and that was last seen at most `hold` ns before `time` (exactly `hold`
   * before: still held), at its last box grown along its motion (the file's
   * comment), origin RegionOrigin::kHeld (id, type, tracked and track_id as
   * last seen). Then remembers, as the file's comment says.
   *
   * `time` before the last frame's (a loop, a seek without a flush): the
   * remembered regions belong to another timeline, and are forgotten first.
   * `hold` 0: nothing is held and nothing remembered. An invalid `time` is a
   * programming error: a critical, and every remembered region is returned as
   * held (failing closed), nothing changed. */
  std::vector<FrameRegion> update (const std::vector<FrameRegion> & seen,
      GstClockTime time, GstClockTime hold);

  /* A new stream (flush, seek, stop): forget everything. */
  void reset ();

  /* Caps changed to frames of width x height: remembered boxes clipped to
   * them, those with nothing left forgotten; held boxes that move stay within
   * them from then on. */
  void clip_to (int width, int height);

  /* Regions remembered now. */
  gsize size () const { return entries_.size (); }

private:
  /* How far the box's corner moved between the last two frames that had
   * it, and in what time (0: not seen twice, or not moving). */
  struct Motion
  {
    gint64 dx = 0;
    gint64 dy = 0;
    GstClockTime dt = 0;
  };

  struct Entry
  {
    FrameRegion region;
    GstClockTime last_seen;
    Motion motion;
  };

  std::vector<FrameRegion> everything_held () const;
  Motion motion_of (const FrameRegion & seen, GstClockTime time) const;
  FrameRegion held_at (const Entry & entry, GstClockTime time) const;
  void remember (std::vector<Entry> && kept);

  GstObject *log_object_;
  std::vector<Entry> entries_;
  /* The last frame's time; GST_CLOCK_TIME_NONE before the first. */
  GstClockTime last_time_ = GST_CLOCK_TIME_NONE;
  /* The frames' size from clip_to (0 before: held boxes are not clipped). */
  int width_ = 0;
  int height_ = 0;
};
