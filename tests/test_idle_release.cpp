// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// IdleRelease (plugin/idlerelease.h) alone: once the streaming thread has left with
// frames held, its release runs on a thread of its own, under the sink pad's stream
// lock and never while another thread holds it; again while frames are still held,
// not once none are; never after stop(). The CPU backend holds no frame, so the
// element suites reach it only on CUDA (the gpu suite): this is CI's test of it.
#include <gst/gst.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "idlerelease.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

using std::chrono::milliseconds;

// A sink pad and what the releases saw.
struct Watched {
  GstPad *pad = gst_pad_new("sink", GST_PAD_SINK);
  std::atomic<int> releases{0};
  std::atomic<int> still_held{0};  // releases that say frames are still held
  std::atomic<bool> lock_taken{true};
  std::atomic<bool> released_while_locked{false};
  std::atomic<bool> locked_elsewhere{false};

  ~Watched() { gst_object_unref(pad); }

  std::function<bool()> release() {
    return [this] {
      // The stream lock is this thread's now: another cannot take it.
      bool free_elsewhere = false;
      std::thread([&] {
        free_elsewhere = GST_PAD_STREAM_TRYLOCK(pad);
        if (free_elsewhere)
          GST_PAD_STREAM_UNLOCK(pad);
      }).join();
      if (free_elsewhere)
        lock_taken = false;
      if (locked_elsewhere)
        released_while_locked = true;
      releases++;
      return still_held-- > 0;
    };
  }

  // Whether `count` releases came within 5 s.
  bool wait_for(int count) const {
    for (int i = 0; i < 5000 && releases < count; i++)
      std::this_thread::sleep_for(milliseconds(1));
    return releases >= count;
  }
};

}  // namespace

GST_START_TEST(test_release_when_idle) {
  Watched watched;
  IdleRelease idle(watched.pad, watched.release());
  idle.streaming_left(true);
  fail_unless(watched.wait_for(1), "no release after the streaming thread left");
  fail_unless(watched.lock_taken, "released without the stream lock");
  // No frame held any more: no second one.
  std::this_thread::sleep_for(milliseconds(20));
  fail_unless_equals_int(watched.releases.load(), 1);
  idle.stop();
}
GST_END_TEST;

GST_START_TEST(test_nothing_held) {
  Watched watched;
  IdleRelease idle(watched.pad, watched.release());
  idle.streaming_left(false);
  std::this_thread::sleep_for(milliseconds(20));
  fail_unless_equals_int(watched.releases.load(), 0);
}
GST_END_TEST;

GST_START_TEST(test_again_while_held) {
  Watched watched;
  watched.still_held = 3;
  IdleRelease idle(watched.pad, watched.release());
  idle.streaming_left(true);
  fail_unless(watched.wait_for(4), "%d releases, not 4", watched.releases.load());
  std::this_thread::sleep_for(milliseconds(20));
  fail_unless_equals_int(watched.releases.load(), 4);
}
GST_END_TEST;

// Another thread (the streaming thread back in the element) holds the stream lock:
// no release until it lets go, then one.
GST_START_TEST(test_never_while_locked) {
  Watched watched;
  IdleRelease idle(watched.pad, watched.release());
  GST_PAD_STREAM_LOCK(watched.pad);
  watched.locked_elsewhere = true;
  idle.streaming_left(true);
  std::this_thread::sleep_for(milliseconds(30));
  fail_unless_equals_int(watched.releases.load(), 0);
  watched.locked_elsewhere = false;
  GST_PAD_STREAM_UNLOCK(watched.pad);
  fail_unless(watched.wait_for(1), "no release once the lock was free");
  fail_if(watched.released_while_locked);
}
GST_END_TEST;

// stop() from a thread that holds the stream lock (the streaming thread moving the
// element to another device) returns, and no release runs after it; armed again,
// the watch starts again.
GST_START_TEST(test_stop) {
  Watched watched;
  watched.still_held = 1000000;
  IdleRelease idle(watched.pad, watched.release());
  GST_PAD_STREAM_LOCK(watched.pad);
  idle.streaming_left(true);
  idle.stop();
  GST_PAD_STREAM_UNLOCK(watched.pad);
  std::this_thread::sleep_for(milliseconds(20));
  fail_unless_equals_int(watched.releases.load(), 0);
  idle.streaming_left(true);
  fail_unless(watched.wait_for(1), "no release after the watch started again");
  idle.stop();
  const int stopped_at = watched.releases;
  std::this_thread::sleep_for(milliseconds(20));
  fail_unless_equals_int(watched.releases.load(), stopped_at);
}
GST_END_TEST;

static Suite *idle_release_suite() {
  Suite *s = suite_create("idle_release");
  TCase *tc = tcase_create("idle");
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_release_when_idle);
  tcase_add_test(tc, test_nothing_held);
  tcase_add_test(tc, test_again_while_held);
  tcase_add_test(tc, test_never_while_locked);
  tcase_add_test(tc, test_stop);
  return s;
}

GST_CHECK_MAIN(idle_release);
