// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "regionhold.h"

#include <algorithm>
#include <cstdlib>

GST_DEBUG_CATEGORY_STATIC (cf_region_hold_debug);
#define GST_CAT_DEFAULT cf_region_hold_debug

namespace {

void
init_debug ()
{
  static gsize done;
  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (cf_region_hold_debug, "cudaregionhold", 0,
        "Regions held over frames their detector missed");
    g_once_init_leave (&done, 1);
  }
}

/* Pixels of the intersection of two boxes, and of their union. 64-bit: a
 * box's area may pass INT_MAX, and x + width too. */
struct Areas
{
  guint64 intersection;
  guint64 united;
};

guint64
area (const cf::Box & box)
{
  if (box.width <= 0 || box.height <= 0)
    return 0;
  return guint64 (box.width) * guint64 (box.height);
}

Areas
areas (const cf::Box & a, const cf::Box & b)
{
  gint64 left = std::max<gint64> (a.x, b.x);
  gint64 top = std::max<gint64> (a.y, b.y);
  gint64 right = std::min (gint64 {a.x} + a.width, gint64 {b.x} + b.width);
  gint64 bottom = std::min (gint64 {a.y} + a.height, gint64 {b.y} + b.height);
  guint64 intersection = 0;
  if (right > left && bottom > top)
    intersection = guint64 (right - left) * guint64 (bottom - top);
  return {intersection, area (a) + area (b) - intersection};
}

/* Whether intersection / union >= 3 / 10, exactly: 10 i >= 3 u, that is
 * i >= ceil (3 u / 10), with 3 u / 10 taken apart so that nothing overflows
 * (u is below 2^63: two areas below 2^62 each). */
bool
overlap_enough (const cf::Box & a, const cf::Box & b)
{
  Areas got = areas (a, b);
  if (got.united == 0 || got.intersection == 0)
    return false;
  guint64 tenths = kHoldMinOverlapTenths;
  guint64 whole = got.united / 10 * tenths;
  guint64 rest = got.united % 10 * tenths;
  guint64 least = whole + (rest + 9) / 10;
  return got.intersection >= least;
}

bool
same_object (const FrameRegion & remembered, const FrameRegion & seen)
{
  if (remembered.tracked && seen.tracked)
    return remembered.track_id == seen.track_id;
  return overlap_enough (remembered.box, seen.box);
}

bool
matched (const FrameRegion & remembered, const std::vector<FrameRegion> & seen)
{
  return std::any_of (seen.begin (), seen.end (),
      [&](const FrameRegion & region) {
        return same_object (remembered, region);
      });
}

/* A region as remembered: its box whole, whatever its shape was (a shape
 * moves with the object; its box, held whole, covers more of where it went). */
FrameRegion
whole_box (FrameRegion region)
{
  region.mask.reset ();
  return region;
}

FrameRegion
held (FrameRegion region)
{
  region.origin = RegionOrigin::kHeld;
  return region;
}

/* `distance` moved in `dt`, scaled to `elapsed` (rounded towards zero), at
 * most `limit` either way. */
gint64
moved (gint64 distance, GstClockTime dt, GstClockTime elapsed, int limit)
{
  const guint64 magnitude = gst_util_uint64_scale (guint64 (std::abs
          (distance)), elapsed, dt);
  const gint64 bounded = gint64 (std::min<guint64> (magnitude, guint64
          (limit)));
  return distance < 0 ? -bounded : bounded;
}

}  // namespace

/* The first remembered region that `seen` is, and how far it went since. */
RegionHold::Motion
RegionHold::motion_of (const FrameRegion & seen, GstClockTime time) const
{
  for (const Entry & entry : entries_)
    if (same_object (entry.region, seen) && time > entry.last_seen)
      return {gint64 {seen.box.x} - entry.region.box.x,
        gint64 {seen.box.y} - entry.region.box.y, time - entry.last_seen};
  return {};
}

/* An entry held at `time`: its last box and that box moved on along its
 * motion, and what lies between, within the frame. */
FrameRegion
RegionHold::held_at (const Entry & entry, GstClockTime time) const
{
  FrameRegion region = held (entry.region);
  const Motion & motion = entry.motion;
  if (motion.dt == 0)
    return region;
  cf::Box & box = region.box;
  const GstClockTime elapsed = time - entry.last_seen;
  const gint64 dx = moved (motion.dx, motion.dt, elapsed, box.width);
  const gint64 dy = moved (motion.dy, motion.dt, elapsed, box.height);
  gint64 left = std::min<gint64> (box.x, box.x + dx);
  gint64 top = std::min<gint64> (box.y, box.y + dy);
  gint64 right = gint64 {box.x} + box.width + std::max<gint64> (dx, 0);
  gint64 bottom = gint64 {box.y} + box.height + std::max<gint64> (dy, 0);
  if (width_ > 0 && height_ > 0) {
    left = std::max<gint64> (left, 0);
    top = std::max<gint64> (top, 0);
    right = std::min<gint64> (right, width_);
    bottom = std::min<gint64> (bottom, height_);
  }
  /* The last box lies within the frame: what is left holds it. */
  box = {int (left), int (top), int (right - left), int (bottom - top)};
  return region;
}

std::vector<FrameRegion>
RegionHold::update (const std::vector<FrameRegion> & seen, GstClockTime time,
    GstClockTime hold)
{
  init_debug ();
  g_return_val_if_fail (GST_CLOCK_TIME_IS_VALID (time), everything_held ());

  if (GST_CLOCK_TIME_IS_VALID (last_time_) && time < last_time_) {
    GST_DEBUG_OBJECT (log_object_, "time went back from %" GST_TIME_FORMAT
        " to %" GST_TIME_FORMAT ": forgetting %" G_GSIZE_FORMAT " regions",
        GST_TIME_ARGS (last_time_), GST_TIME_ARGS (time), entries_.size ());
    entries_.clear ();
  }
  last_time_ = time;
  if (hold == 0) {
    entries_.clear ();
    return {};
  }

  /* The frame's regions first, then the remembered ones it misses. */
  std::vector<Entry> kept;
  kept.reserve (seen.size () + entries_.size ());
  for (const FrameRegion & region : seen)
    kept.push_back ({whole_box (region), time, motion_of (region, time)});
  std::vector<FrameRegion> result;
  for (const Entry & entry : entries_) {
    /* last_seen <= last time <= time: no underflow. */
    if (time - entry.last_seen > hold || matched (entry.region, seen))
      continue;
    result.push_back (held_at (entry, time));
    kept.push_back (entry);
  }
  remember (std::move (kept));
  if (!result.empty ())
    GST_LOG_OBJECT (log_object_, "%" G_GSIZE_FORMAT " regions held at %"
        GST_TIME_FORMAT, result.size (), GST_TIME_ARGS (time));
  return result;
}

/* Keeps `kept` (the frame's regions, then older ones in their order), the
 * most recently seen ones where there are more than kMaxHeldRegions. */
void
RegionHold::remember (std::vector<Entry> && kept)
{
  if (kept.size () > kMaxHeldRegions) {
    std::stable_sort (kept.begin (), kept.end (),
        [](const Entry & a, const Entry & b) {
          return a.last_seen > b.last_seen;
        });
    GST_DEBUG_OBJECT (log_object_, "%" G_GSIZE_FORMAT " regions to remember, "
        "forgetting the %" G_GSIZE_FORMAT " seen longest ago", kept.size (),
        kept.size () - kMaxHeldRegions);
    kept.resize (kMaxHeldRegions);
  }
  entries_ = std::move (kept);
}

std::vector<FrameRegion>
RegionHold::everything_held () const
{
  std::vector<FrameRegion> result;
  for (const Entry & entry : entries_)
    result.push_back (held (entry.region));
  return result;
}

void
RegionHold::reset ()
{
  entries_.clear ();
  last_time_ = GST_CLOCK_TIME_NONE;
}

void
RegionHold::clip_to (int width, int height)
{
  width_ = width;
  height_ = height;
  std::vector<Entry> kept;
  for (Entry entry : entries_) {
    cf::Box & box = entry.region.box;
    gint64 left = std::max (box.x, 0);
    gint64 top = std::max (box.y, 0);
    gint64 right = std::min (gint64 {box.x} + box.width, gint64 {width});
    gint64 bottom = std::min (gint64 {box.y} + box.height, gint64 {height});
    if (right <= left || bottom <= top)
      continue;
    box = {int (left), int (top), int (right - left), int (bottom - top)};
    kept.push_back (entry);
  }
  entries_ = std::move (kept);
}
