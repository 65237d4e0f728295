// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Frames held back for later ones, so that their work overlaps, must not wait
 * for a frame that never comes: an application that pushes one frame and
 * pulls it back, an upstream pool whose every buffer the element holds, the
 * end of a burst. The streaming thread decides nothing then: it is upstream's,
 * away until upstream pushes again. So a thread of the element's own watches:
 * once the streaming thread has been away for kIdleGrace with frames held, it
 * takes the sink pad's stream lock (only if free: the streaming thread
 * may be back) and lets the frames whose work is done leave, as the streaming
 * thread would, serialized with it, its events and its queries by that lock;
 * frames still at work are looked at again every kIdlePoll.
 *
 * The thread starts the first time frames are held, and stops (joined) at
 * stop(): no release runs after stop() returns. */
#pragma once

#include <gst/gst.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

class IdleRelease
{
public:
  /* Longer than upstream's time between two frames where it has the next
   * one ready (tens of microseconds): the streaming thread is away for
   * longer only where upstream has nothing ready. */
  static constexpr std::chrono::microseconds kIdleGrace {500};
  static constexpr std::chrono::microseconds kIdlePoll {100};

  /* `release`, called under the stream lock of `sinkpad`: lets every frame
   * whose work is done leave, in order; returns whether frames are still
   * held. */
  IdleRelease (GstPad * sinkpad, std::function<bool ()> release);
  IdleRelease (const IdleRelease &) = delete;
  IdleRelease & operator= (const IdleRelease &) = delete;
  ~IdleRelease () { stop (); }

  /* The streaming thread leaves the element, with frames held or not. */
  void streaming_left (bool frames_held);
  /* Stops watching; not from within `release`. */
  void stop ();

private:
  using Clock = std::chrono::steady_clock;
  void watch ();

  GstPad *sinkpad_;
  std::function<bool ()> release_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
  bool quit_ = false;
  bool armed_ = false;
  guint64 leavings_ = 0;        /* streaming_left calls: the thread's comings */
  Clock::time_point due_;
};
