// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The frames in flight: plain C++, no GStreamer events, queries or caps.
 *
 * Configured once per caps (the frames' geometry, the backend, how many frames
 * may be in flight, where frames live on each side), the engine takes frames
 * in (submit), runs the element's work on each (a FrameWork hook: on the CPU at
 * once, on CUDA queued on the frame's own stream, so that the transfers and
 * kernels of several frames overlap) and hands them out in order (take_oldest):
 * once `depth` frames are in, or at once where the output is ordered on its
 * memory's stream rather than waited for (the ordering policy, chosen at
 * set_up). A drain takes out every frame; discard drops them once their
 * work is done. Every failure comes back as one FrameError. */
#pragma once

#include <gst/video/video.h>

#include <atomic>
#include <deque>
#include <memory>

#include "cudadevice.h"
#include "framebackends.h"
#include "frameerror.h"
#include "framepaths.h"
#include "frameplanes.h"

/* A frame that left, in order. */
struct FinishedFrame
{
  GstBuffer *buffer = nullptr;  /* its output, now the caller's */
  guint64 number = 0;           /* as submit counted it */
  /* Its results, frame state and selection, valid until the next call on the
   * engine. */
  const void *results = nullptr;
  const void *frame_state = nullptr;
  const FrameSelection *selection = nullptr;
};

class FrameEngine
{
public:
  struct Setup
  {
    GstVideoInfo info {};
    guint depth = 1;
    CudaDevice device;          /* empty: the CPU backend */
    GstObject *log_object = nullptr;    /* the element the logs name */
    gsize result_size = 0;      /* of a frame without regions */
    gsize workspace_size = 0;   /* CUDA only */
    gsize frame_state_size = 0;
    std::unique_ptr<FramePath> input;
    std::unique_ptr<FramePath> output;
    /* The work edits its input, which goes on as the output (in place): the
     * input is mapped for reading and writing, and the input path sends back
     * the areas the work says it wrote (FrameWork::edited). */
    bool edits_input = false;
  };

  FrameEngine ();
  FrameEngine (const FrameEngine &) = delete;
  FrameEngine & operator= (const FrameEngine &) = delete;
  ~FrameEngine ();

  /* Frees what an earlier setup held (no frame may be in flight), then
   * allocates what `setup`'s frames in flight need. */
  FrameError set_up (Setup setup);
  /* Frees everything, frames in flight discarded first. Returns the first
   * error of either. */
  FrameError tear_down ();
  bool configured () const { return backend_ != nullptr; }
  /* The frames' geometry, as configured. */
  const GstVideoInfo & info () const { return info_; }
  guint depth () const { return depth_; }

  /* Maps `input` and `output` (the same buffer in place: an analysis, or an
   * element that edits its input, which must then be writable) and runs or
   * queues `work` on them and on `selection`, which stays with the frame,
   * with `result_size` bytes of results (what this frame's regions need).
   * The engine takes a reference of its own
   * to each buffer, after mapping them: the caller keeps its own. On failure
   * the frame is released, all its queued work finished. */
  FrameError submit (GstBuffer * input, GstBuffer * output,
      FrameSelection selection, gsize result_size, const FrameWorkFn & work);
  /* Whether the oldest frame may leave now: `depth` frames are in. */
  bool oldest_may_leave () const;
  /* Whether the work of every frame in flight, or of the oldest, has ended,
   * without waiting. */
  bool all_done ();
  bool oldest_done ();
  /* Whether holding frames back lets their work overlap (CUDA, several
   * frames in flight, not ordered): elsewhere a frame's work is as fast
   * alone. */
  bool overlaps () const { return backend_ && backend_->overlaps () && !ordered_; }
  bool empty () const { return frames_.empty (); }
  /* Whether `buffer` takes an output frame: mapped as every output frame is
   * (map_video_frame through the output path), then unmapped. */
  FrameError check_output (GstBuffer * buffer);
  /* Takes the oldest frame out, once its work is done or ordered: its input
   * released, its output the caller's; its number given even where it
   * failed. Not on an empty engine. */
  FrameError take_oldest (FinishedFrame * frame);
  /* Drops every frame in flight, each once its work is done, and gives back
   * the inputs ordered frames left behind. Returns the first error met. */
  FrameError discard ();
  /* Gives back the inputs of ordered frames that left before their work was
   * done, once it is (a drain gives upstream every buffer back). */
  FrameError retire_inputs ();

  /* The number the last submitted frame got (0: none yet). */
  guint64 last_number () const { return last_number_; }
  /* Frames a frame may wait behind before it leaves: the latency it adds.
   * None where frames do not overlap: each leaves once its work is done. */
  guint frames_held_back () const { return overlaps () ? depth_ - 1 : 0; }
  /* Bytes of device and pinned host memory held now; read from any thread. */
  gsize device_bytes () const;
  gsize pinned_bytes () const;

private:
  void count_bytes ();

  GstVideoInfo info_ {};
  guint depth_ = 1;
  gsize frame_state_size_ = 0;
  bool edits_input_ = false;
  bool ordered_ = false;
  std::unique_ptr<FramePath> input_;
  std::unique_ptr<FramePath> output_;
  std::unique_ptr<FrameBackend> backend_;
  std::deque<FrameInFlight> frames_;
  /* The frame last taken out, kept for its results and state. */
  FrameInFlight finished_;
  guint64 last_number_ = 0;
  std::atomic<gsize> device_bytes_ { 0 };
  std::atomic<gsize> pinned_bytes_ { 0 };
};
