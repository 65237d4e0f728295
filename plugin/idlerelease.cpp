// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "idlerelease.h"

#include <utility>

IdleRelease::IdleRelease (GstPad * sinkpad, std::function<bool ()> release)
    : sinkpad_ (sinkpad), release_ (std::move (release))
{
}

void
IdleRelease::streaming_left (bool frames_held)
{
  std::unique_lock<std::mutex> lock (mutex_);
  leavings_++;
  const bool was_armed = std::exchange (armed_, frames_held);
  if (!frames_held)
    return;
  due_ = Clock::now () + kIdleGrace;
  if (!thread_.joinable ())
    thread_ = std::thread ([this] { watch (); });
  lock.unlock ();
  /* Armed already, it waits for an earlier deadline and finds the new one
   * then: one wake-up per grace at most while frames keep coming. */
  if (!was_armed)
    wake_.notify_one ();
}

void
IdleRelease::stop ()
{
  {
    std::lock_guard<std::mutex> lock (mutex_);
    quit_ = true;
  }
  wake_.notify_one ();
  if (thread_.joinable ())
    thread_.join ();
  std::lock_guard<std::mutex> lock (mutex_);
  quit_ = false;
  armed_ = false;
}

void
IdleRelease::watch ()
{
  std::unique_lock<std::mutex> lock (mutex_);
  while (!quit_) {
    if (!armed_) {
      wake_.wait (lock);
      continue;
    }
    if (Clock::now () < due_) {
      wake_.wait_until (lock, due_);
      continue;
    }
    const guint64 leavings = leavings_;
    lock.unlock ();
    /* Never blocks on the lock: the streaming thread holding it decides,
     * and stop() may be waiting for this thread while holding it. */
    const bool free = GST_PAD_STREAM_TRYLOCK (sinkpad_);
    bool held = true;
    if (free) {
      held = release_ ();
      GST_PAD_STREAM_UNLOCK (sinkpad_);
    }
    lock.lock ();
    if (leavings != leavings_)
      continue;                 /* the streaming thread came and left since */
    armed_ = held;
    due_ = Clock::now () + (free ? kIdlePoll : kIdleGrace);
  }
}
