// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The two backends the frame engine runs frames on (frameengine.h): the CPU,
 * which does a frame's work at once on the mapped frames, and CUDA, which
 * queues it on a stream of the frame's own (a slot, cudaframeslots.h) so that
 * the transfers and kernels of several frames overlap, and waits for it when
 * the frame leaves. Both run the same kernels' C++ API (kernels/), and give
 * the same results bit for bit. */
#pragma once

#include <gst/video/video.h>

#include <functional>
#include <memory>
#include <vector>

#include "cudadevice.h"
#include "frameerror.h"
#include "framepaths.h"
#include "frameplanes.h"
#include "frameselection.h"

/* A frame's work, on what of it is processed. */
using FrameWorkFn = std::function < FrameError (const FrameWork &,
    const FrameSelection &) >;

/* A frame between submit and its leaving. */
struct FrameInFlight
{
  GstBuffer *input = nullptr;   /* a reference of the engine's own */
  GstBuffer *output = nullptr;  /* likewise; the same buffer for an analysis */
  GstVideoFrame in {};          /* mapped until the frame's work is done */
  GstVideoFrame out {};         /* none where the output path maps nothing */
  guint64 number = 0;
  int slot = -1;                /* CUDA: the slot its work is queued on */
  /* CUDA: it leaves before its work is done, its output memory's stream
   * ordered after that work. */
  bool ordered = false;
  std::vector<guint8> results;  /* CPU: the frame's results (CUDA: its slot's) */
  std::vector<guint8> frame_state;
  FrameSelection selection;     /* what of it is processed */
  /* Where the work edits its input: the areas it wrote. */
  std::vector<PlaneArea> edited;

  /* Unmaps both frames and drops the input, and the output unless it is kept
   * (to leave). */
  void drop_buffers (bool keep_output);
};

class FrameBackend
{
public:
  virtual ~FrameBackend () = default;

  /* At the caps: what `depth` frames in flight need on this backend, results
   * (of a frame without regions) and workspace included, and what the paths
   * need. */
  virtual FrameError allocate_frames (const GstVideoInfo & info, guint depth,
      gsize result_size, gsize workspace_size, FramePath & input,
      FramePath & output) = 0;
  /* Frees it all (no frame in flight). Returns the first error. */
  virtual cudaError_t free_frames () = 0;

  /* Runs or queues `work` on a mapped frame, with `result_size` bytes of
   * results (grown where the frame needs more than configured). On failure,
   * everything queued for the frame has finished. */
  virtual FrameError run (FrameInFlight & frame, FramePath & input,
      FramePath & output, bool order_output, gsize result_size,
      const FrameWorkFn & work) = 0;
  /* Before the frame leaves: waits for its work, or, for an ordered frame,
   * keeps its input until that work is done. */
  virtual FrameError finish (FrameInFlight & frame) = 0;
  /* Whether the frame's work has ended, without waiting (ended in an error
   * too: finish reports it). */
  virtual bool done (FrameInFlight & frame) = 0;
  /* Whether frames' work overlaps (transfers and kernels of several frames at
   * once), or each frame's is done within run. */
  virtual bool overlaps () const = 0;
  /* Before a frame is dropped: waits for its work; its error. */
  virtual cudaError_t wait (FrameInFlight & frame) = 0;
  /* Releases the inputs ordered frames left behind, once their work is done. */
  virtual FrameError retire_inputs () = 0;
  /* The frame's results, once finished. */
  virtual const void *results (const FrameInFlight & frame) const = 0;

  /* Bytes held now (results, workspace); results may grow in run. */
  virtual gsize device_bytes () const = 0;
  virtual gsize pinned_bytes () const = 0;
};

namespace cf {

std::unique_ptr<FrameBackend> make_cpu_backend ();
#ifdef CF_HAVE_CUDA
/* `log_object`: the element its logs name (not referenced: it outlives the
 * backend). */
std::unique_ptr<FrameBackend> make_cuda_backend (const CudaDevice & device,
    GstObject * log_object);
#endif

}  // namespace cf
