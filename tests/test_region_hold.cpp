// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// plugin/regionhold.h on scripted timelines of frames: a region the detector misses is
// held at its last box for `hold` after the last frame that had it (exactly `hold`:
// held; one nanosecond more: gone); found again, it is refreshed; boxes are the same
// object from an intersection over union of 3/10 (exactly: just under is not), tracked
// regions by their track id alone; time going back forgets; reset and clip_to; at most
// 256 regions remembered, those seen longest ago forgotten first; hold 0; a region that
// moved between its last two frames held along its way (at most its size further, within
// the frame).
#include <algorithm>
#include <vector>

#include "regionhold.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

constexpr GstClockTime kHold = 100 * GST_MSECOND;

GstClockTime ms(guint64 value) { return value * GST_MSECOND; }

FrameRegion region(gint id, int x, int y, int width, int height) {
  FrameRegion r{};
  r.id = id;
  r.type = g_quark_from_static_string("face");
  r.box = {x, y, width, height};
  return r;
}

FrameRegion tracked(gint id, guint64 track_id, int x, int y, int width, int height) {
  FrameRegion r = region(id, x, y, width, height);
  r.tracked = true;
  r.track_id = track_id;
  return r;
}

using Regions = std::vector<FrameRegion>;
const Regions kNone;

bool same_box(const cf::Box &a, const cf::Box &b) {
  return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

// The held region of id `id`, or null.
const FrameRegion *find(const Regions &held, gint id) {
  for (const FrameRegion &r : held)
    if (r.id == id)
      return &r;
  return nullptr;
}

// `held` is exactly the regions `expected` (ids), each held (origin kHeld) at the
// box and with the identity given.
void expect_held(const Regions &held, const Regions &expected, const char *when) {
  fail_unless(held.size() == expected.size(), "%s: %zu held, %zu expected", when,
              held.size(), expected.size());
  for (const FrameRegion &e : expected) {
    const FrameRegion *r = find(held, e.id);
    fail_unless(r != nullptr, "%s: region %d not held", when, e.id);
    fail_unless(r->origin == RegionOrigin::kHeld, "%s: region %d not kHeld", when, e.id);
    fail_unless(same_box(r->box, e.box), "%s: region %d at %d,%d %dx%d", when, e.id,
                r->box.x, r->box.y, r->box.width, r->box.height);
    fail_unless(r->type == e.type && r->tracked == e.tracked && r->track_id == e.track_id,
                "%s: region %d changed", when, e.id);
  }
}

GST_START_TEST(test_held_within_hold) {
  RegionHold hold;
  const FrameRegion face = region(1, 10, 10, 20, 20);
  expect_held(hold.update({face}, ms(0), kHold), kNone, "seen");
  expect_held(hold.update(kNone, ms(40), kHold), {face}, "40 ms after");
  // Exactly hold after the last frame that had it: still held.
  expect_held(hold.update(kNone, ms(100), kHold), {face}, "hold after");
  // One nanosecond more: gone, and forgotten.
  expect_held(hold.update(kNone, ms(100) + 1, kHold), kNone, "hold + 1 ns after");
  fail_unless_equals_int(hold.size(), 0);
  expect_held(hold.update(kNone, ms(110), kHold), kNone, "later");
}
GST_END_TEST;

GST_START_TEST(test_held_besides_seen) {
  RegionHold hold;
  const FrameRegion a = region(1, 0, 0, 10, 10);
  const FrameRegion b = region(2, 100, 0, 10, 10);
  hold.update({a, b}, ms(0), kHold);
  // b seen, a missed: a alone is returned (b is the caller's already).
  expect_held(hold.update({b}, ms(10), kHold), {a}, "a missed");
  expect_held(hold.update(kNone, ms(20), kHold), {a, b}, "both missed");
}
GST_END_TEST;

GST_START_TEST(test_redetection_refreshes) {
  RegionHold hold;
  hold.update({region(1, 10, 10, 20, 20)}, ms(0), kHold);
  hold.update(kNone, ms(80), kHold);
  // Found again 90 ms on, moved a little (IoU 16x20 / (2 x 400 - 320) = 2/3).
  const FrameRegion moved = region(5, 14, 10, 20, 20);
  expect_held(hold.update({moved}, ms(90), kHold), kNone, "found again");
  fail_unless_equals_int(hold.size(), 1);
  // Held from its new box and time: 190 ms is 100 ms after 90. It moved 4 pixels
  // right in 90 ms: 4 x 100 / 90, rounded down, 4 more.
  FrameRegion moved_on = moved;
  moved_on.box.width += 4;
  expect_held(hold.update(kNone, ms(190), kHold), {moved_on}, "held from the new time");
  expect_held(hold.update(kNone, ms(190) + 1, kHold), kNone, "hold after the new time");
}
GST_END_TEST;

// Whether, after a frame with `remembered` alone, a frame with `seen` alone (both
// untracked) counts it as found again.
bool found_again(const cf::Box &remembered, const cf::Box &seen) {
  RegionHold hold;
  FrameRegion before = region(1, 0, 0, 0, 0);
  before.box = remembered;
  FrameRegion after = region(2, 0, 0, 0, 0);
  after.box = seen;
  hold.update({before}, ms(0), kHold);
  return hold.update({after}, ms(10), kHold).empty();
}

GST_START_TEST(test_overlap_boundary) {
  // 100 x 100 remembered, seen from its left edge 30 wide: intersection 3000,
  // union 10000, IoU 0.3 exactly: the same object.
  fail_unless(found_again({0, 0, 100, 100}, {0, 0, 30, 100}));
  // 30 x 99: 2970 / 10000 = 0.297, just under.
  fail_unless(!found_again({0, 0, 100, 100}, {0, 0, 30, 99}));
  // 31 x 100: 0.31.
  fail_unless(found_again({0, 0, 100, 100}, {0, 0, 31, 100}));
  // Side by side, 10 x 10 each, shifted by 5: 50 / 150 = 0.33; by 6: 40 / 160 = 0.25.
  fail_unless(found_again({0, 0, 10, 10}, {5, 0, 10, 10}));
  fail_unless(!found_again({0, 0, 10, 10}, {6, 0, 10, 10}));
  // Either way round: 3 x 10 inside 10 x 10 is 30 / 100.
  fail_unless(found_again({0, 0, 3, 10}, {0, 0, 10, 10}));
  fail_unless(!found_again({0, 0, 10, 10}, {0, 0, 3, 9}));
  // 3 x 11 over 10 x 10: 30 / 103 = 0.291, though 30 is 3 x 103 / 10 rounded down.
  fail_unless(!found_again({0, 0, 10, 10}, {0, 0, 3, 11}));
  // Areas past 2^32 (10^5 x 10^5): 3 x 10^9 / 10^10 exactly, and one column less.
  fail_unless(found_again({0, 0, 100000, 100000}, {0, 0, 30000, 100000}));
  fail_unless(!found_again({0, 0, 100000, 100000}, {0, 0, 29999, 100000}));
  // Apart or touching: no overlap at all.
  fail_unless(!found_again({0, 0, 10, 10}, {10, 0, 10, 10}));
  fail_unless(!found_again({0, 0, 10, 10}, {50, 50, 10, 10}));
}
GST_END_TEST;

GST_START_TEST(test_tracked_across_jumps) {
  RegionHold hold;
  hold.update({tracked(1, 7, 0, 0, 10, 10)}, ms(0), kHold);
  // The tracker's id 7, far away: the same object, nothing held at the old box.
  const FrameRegion jumped = tracked(2, 7, 500, 400, 30, 30);
  expect_held(hold.update({jumped}, ms(10), kHold), kNone, "jumped");
  // Held where it jumped to, and on by at most its own size (500 and 400 in 10 ms).
  FrameRegion jumped_on = jumped;
  jumped_on.box.width += 30;
  jumped_on.box.height += 30;
  expect_held(hold.update(kNone, ms(20), kHold), {jumped_on}, "held where it jumped to");
}
GST_END_TEST;

GST_START_TEST(test_different_track_ids) {
  RegionHold hold;
  const FrameRegion seven = tracked(1, 7, 0, 0, 10, 10);
  hold.update({seven}, ms(0), kHold);
  // Id 8 at the very same box: another object, 7 is still held.
  const FrameRegion eight = tracked(2, 8, 0, 0, 10, 10);
  expect_held(hold.update({eight}, ms(10), kHold), {seven}, "id 8 over id 7");
  expect_held(hold.update(kNone, ms(20), kHold), {seven, eight}, "both missed");
}
GST_END_TEST;

GST_START_TEST(test_untracked_and_tracked) {
  // Remembered untracked, seen tracked and overlapping: the same object, which is
  // the tracked one from then on.
  RegionHold hold;
  hold.update({region(1, 0, 0, 10, 10)}, ms(0), kHold);
  const FrameRegion now_tracked = tracked(2, 3, 1, 0, 10, 10);
  expect_held(hold.update({now_tracked}, ms(10), kHold), kNone, "tracked now");
  // Moved a pixel right in 10 ms: held a pixel further 10 ms on.
  FrameRegion tracked_on = now_tracked;
  tracked_on.box.width += 1;
  expect_held(hold.update(kNone, ms(20), kHold), {tracked_on}, "held as tracked");

  // Remembered tracked, seen untracked: by overlap too.
  RegionHold other;
  other.update({tracked(1, 3, 0, 0, 10, 10)}, ms(0), kHold);
  expect_held(other.update({region(2, 0, 1, 10, 10)}, ms(10), kHold), kNone,
              "untracked now");
  // Moved a pixel down in 10 ms: held a pixel further down 10 ms on.
  expect_held(other.update({region(3, 300, 0, 10, 10)}, ms(20), kHold),
              {region(2, 0, 1, 10, 11)}, "untracked elsewhere");
}
GST_END_TEST;

GST_START_TEST(test_one_seen_matches_several) {
  RegionHold hold;
  // Two overlapping boxes of one face, then one box over both.
  hold.update({region(1, 0, 0, 10, 10), region(2, 2, 0, 10, 10)}, ms(0), kHold);
  const FrameRegion one = region(3, 1, 0, 10, 10);
  expect_held(hold.update({one}, ms(10), kHold), kNone, "found as one");
  fail_unless_equals_int(hold.size(), 1);
  // Its motion from the first box it matched: a pixel right in 10 ms.
  FrameRegion one_on = one;
  one_on.box.width += 1;
  expect_held(hold.update(kNone, ms(20), kHold), {one_on}, "held as one");
}
GST_END_TEST;

GST_START_TEST(test_time_going_back) {
  RegionHold hold;
  const FrameRegion face = region(1, 0, 0, 10, 10);
  hold.update({face}, ms(1000), kHold);
  expect_held(hold.update(kNone, ms(1050), kHold), {face}, "held");
  // The same time again is not going back.
  expect_held(hold.update(kNone, ms(1050), kHold), {face}, "same time");
  // Back to 1020 ms, still after the face's frame: another timeline all the same.
  expect_held(hold.update(kNone, ms(1020), kHold), kNone, "went back a little");
  fail_unless_equals_int(hold.size(), 0);
  hold.update({face}, ms(1000), kHold);
  // Back to 500 ms (a loop without a flush): another timeline, nothing held.
  expect_held(hold.update(kNone, ms(500), kHold), kNone, "went back");
  fail_unless_equals_int(hold.size(), 0);
  // Regions of the new timeline are held as any.
  const FrameRegion other = region(2, 50, 50, 10, 10);
  hold.update({other}, ms(510), kHold);
  expect_held(hold.update(kNone, ms(520), kHold), {other}, "new timeline");
  // Back while holding regions of the frame that goes back: those are remembered.
  expect_held(hold.update({face}, ms(0), kHold), kNone, "back, with a region");
  expect_held(hold.update(kNone, ms(10), kHold), {face}, "its region held");
}
GST_END_TEST;

GST_START_TEST(test_reset) {
  RegionHold hold;
  hold.update({region(1, 0, 0, 10, 10)}, ms(1000), kHold);
  hold.reset();
  fail_unless_equals_int(hold.size(), 0);
  expect_held(hold.update(kNone, ms(1010), kHold), kNone, "after reset");
  // A new stream may start at any time, earlier ones too.
  const FrameRegion face = region(2, 0, 0, 10, 10);
  hold.update({face}, ms(1020), kHold);
  hold.reset();
  hold.update({face}, ms(0), kHold);
  expect_held(hold.update(kNone, ms(5), kHold), {face}, "new stream");
}
GST_END_TEST;

GST_START_TEST(test_clip_to) {
  RegionHold hold;
  hold.update({region(1, 0, 0, 100, 100), region(2, 600, 400, 50, 50),
               region(3, 150, 150, 100, 100), region(4, 190, 0, 30, 30)},
              ms(0), kHold);
  // 200 x 200: 1 untouched, 2 wholly outside, 3 and 4 partly.
  hold.clip_to(200, 200);
  fail_unless_equals_int(hold.size(), 3);
  expect_held(hold.update(kNone, ms(10), kHold),
              {region(1, 0, 0, 100, 100), region(3, 150, 150, 50, 50),
               region(4, 190, 0, 10, 30)},
              "clipped");
  // To nothing at all.
  hold.clip_to(0, 0);
  fail_unless_equals_int(hold.size(), 0);
}
GST_END_TEST;

// A box of its own for region i, 10 x 10 on a grid of 20 pixels: none overlap.
FrameRegion apart(gint i) { return region(i, i % 40 * 20, i / 40 * 20, 10, 10); }

GST_START_TEST(test_bound_forgets_oldest) {
  // One region per frame, each missed by every later frame, hold 1 s: by frame 300
  // 300 would be held; the 256 seen last are.
  RegionHold hold;
  const GstClockTime hold_time = GST_SECOND;
  for (gint i = 0; i < 300; i++) {
    Regions held = hold.update({apart(i)}, ms(i), hold_time);
    fail_unless_equals_int(held.size(), std::min(i, 256));
    fail_unless(hold.size() <= kMaxHeldRegions);
  }
  Regions expected;
  for (gint i = 300 - 256; i < 300; i++)
    expected.push_back(apart(i));
  expect_held(hold.update(kNone, ms(300), hold_time), expected, "the 256 last");
}
GST_END_TEST;

GST_START_TEST(test_many_in_one_frame) {
  // 300 regions in one frame: the first 256 are remembered.
  RegionHold hold;
  Regions seen, expected;
  for (gint i = 0; i < 300; i++) {
    seen.push_back(apart(i));
    if (i < 256)
      expected.push_back(apart(i));
  }
  expect_held(hold.update(seen, ms(0), kHold), kNone, "seen");
  fail_unless_equals_int(hold.size(), kMaxHeldRegions);
  expect_held(hold.update(kNone, ms(10), kHold), expected, "held");
  // Found again, all of them, and then 40 new ones: the new ones and 216 old.
  hold.update(seen, ms(20), kHold);
  Regions newer;
  for (gint i = 300; i < 340; i++)
    newer.push_back(apart(i));
  Regions held = hold.update(newer, ms(30), kHold);
  fail_unless_equals_int(held.size(), 256);
  fail_unless_equals_int(hold.size(), kMaxHeldRegions);
  held = hold.update(kNone, ms(40), kHold);
  fail_unless_equals_int(held.size(), 256);
  for (gint i = 300; i < 340; i++)
    fail_unless(find(held, i) != nullptr, "new region %d not held", i);
}
GST_END_TEST;

// A face moving 6 pixels left and 3 down every 33 ms, then missed: held at its last box
// and at that box moved on for the time since, each frame further (rounded towards
// zero), never past its own size each way, and never past the frame's edges.
GST_START_TEST(test_held_moving) {
  RegionHold hold;
  hold.clip_to(200, 100);
  hold.update({region(1, 60, 40, 20, 20)}, ms(0), kHold);
  hold.update({region(2, 54, 43, 20, 20)}, ms(33), kHold);
  // 33 ms on: 6 left, 3 down; the union of 54..74 and 48..68 across, 43..63 and 46..66.
  expect_held(hold.update(kNone, ms(66), kHold), {region(2, 48, 43, 26, 23)}, "a frame on");
  // 50 ms on: 6 x 50 / 33 = 9, 3 x 50 / 33 = 4.
  expect_held(hold.update(kNone, ms(83), kHold), {region(2, 45, 43, 29, 24)}, "50 ms on");
  // 99 ms on: 18 and 9; at most 20 each way.
  expect_held(hold.update(kNone, ms(132), kHold), {region(2, 36, 43, 38, 29)}, "99 ms on");

  // Fast towards the frame's corner: each way at most its size, within the frame.
  // 6 right and 4 down in 10 ms; 50 ms on that is 30 and 20: 20 and 20, the frame
  // ending at 190 and 100.
  RegionHold fast;
  fast.clip_to(190, 100);
  fast.update({region(1, 150, 60, 20, 20)}, ms(0), kHold);
  fast.update({region(2, 156, 64, 20, 20)}, ms(10), kHold);
  expect_held(fast.update(kNone, ms(60), kHold), {region(2, 156, 64, 34, 36)}, "at the edge");

  // Not moving: its last box alone.
  RegionHold still;
  still.update({region(1, 10, 10, 20, 20)}, ms(0), kHold);
  still.update({region(2, 10, 10, 20, 20)}, ms(33), kHold);
  expect_held(still.update(kNone, ms(66), kHold), {region(2, 10, 10, 20, 20)}, "still");
}
GST_END_TEST;

GST_START_TEST(test_hold_zero) {
  RegionHold hold;
  expect_held(hold.update({region(1, 0, 0, 10, 10)}, ms(0), 0), kNone, "seen");
  fail_unless_equals_int(hold.size(), 0);
  expect_held(hold.update(kNone, ms(0), 0), kNone, "same time");
  // Nothing was remembered for a later hold to give.
  expect_held(hold.update(kNone, ms(1), kHold), kNone, "hold set later");
  // And a hold set back to 0 forgets what it had.
  hold.update({region(2, 0, 0, 10, 10)}, ms(2), kHold);
  expect_held(hold.update(kNone, ms(3), 0), kNone, "hold 0 again");
  expect_held(hold.update(kNone, ms(4), kHold), kNone, "nothing left");
}
GST_END_TEST;

}  // namespace

int main(int argc, char **argv) {
  gst_check_init(&argc, &argv);
  Suite *suite = suite_create("region_hold");
  TCase *tcase = tcase_create("region_hold");
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_held_within_hold);
  tcase_add_test(tcase, test_held_besides_seen);
  tcase_add_test(tcase, test_redetection_refreshes);
  tcase_add_test(tcase, test_overlap_boundary);
  tcase_add_test(tcase, test_tracked_across_jumps);
  tcase_add_test(tcase, test_different_track_ids);
  tcase_add_test(tcase, test_untracked_and_tracked);
  tcase_add_test(tcase, test_one_seen_matches_several);
  tcase_add_test(tcase, test_time_going_back);
  tcase_add_test(tcase, test_reset);
  tcase_add_test(tcase, test_clip_to);
  tcase_add_test(tcase, test_bound_forgets_oldest);
  tcase_add_test(tcase, test_many_in_one_frame);
  tcase_add_test(tcase, test_held_moving);
  tcase_add_test(tcase, test_hold_zero);
  return gst_check_run_suite(suite, "region_hold", __FILE__);
}
