// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* One element's allocation, all of it in one place: the memory its frames are
 * offered and written in, and the buffer pools of it. On the CUDA backend
 * that is pinned host memory (cfpinnedallocator.h), which crosses the bus at
 * full speed, and CUDA memory of the element's context (cudamemory.h, where
 * the pools' GStreamer-version differences stay); on the CPU plain video
 * buffers. Here is the policy: what upstream is offered (propose_allocation),
 * which pool the output is written in and its activation (decide_allocation),
 * and each frame's output buffer.
 *
 * Open from start (or a move to another device) to stop, on the CUDA backend
 * only; written by those and by the streaming thread, read by the element's
 * properties under its object lock (pinned_bytes()). */
#pragma once

#include <gst/base/gstbasetransform.h>

#include <functional>

#include "cudadevice.h"
#include "cudamemory.h"
#include "frameerror.h"

class ElementPools
{
public:
  ElementPools () = default;
  ElementPools (const ElementPools &) = delete;
  ElementPools & operator= (const ElementPools &) = delete;
  ~ElementPools ();

  /* The CUDA backend is on `device`: pinned memory of its context, and the
   * streams its CUDA memory pools' buffers carry. */
  cudaError_t open (GstElement * element, const CudaDevice & device);
  /* Back to the CPU's plain buffers. */
  void close (GstElement * element);

  /* propose_allocation: the GstVideoMeta taken, the `held` buffers the
   * element keeps at once (upstream's pool needs them beside its own) and, on
   * the CUDA backend, the memory we reach fastest offered upstream, pinned
   * host memory or CUDA memory of our context, with, where upstream asks for
   * one, a pool of it. */
  void propose (GstQuery * query, guint held) const;

  /* decide_allocation, before GstBaseTransform configures the query's first
   * pool: puts the output pool there, with room for `depth` frames in flight,
   * downstream's where it fits and gives buffers enough, else ours. FALSE
   * after posting an error where none can be had. */
  bool choose_output_pool (GstElement * element, GstQuery * query,
      GstCaps * caps, guint depth) const;
  /* decide_allocation, after: activates the pool GstBaseTransform configured,
   * so that a failure to allocate its buffers is reported with its cause, and
   * tries its first buffer with `fits`, the check every output frame gets: a
   * pool whose buffers fail it gives way to ours (a debug line says why). */
  using OutputCheck = std::function<FrameError (GstBuffer * buffer)>;
  FrameError activate_output_pool (GstElement * element, GstQuery * query,
      GstCaps * caps, guint depth, const OutputCheck & fits) const;

  /* A frame's output buffer, as GstBaseTransform prepares it: one of the
   * output pool's with the input's metadata, or, in place, the input made
   * writable. GST_FLOW_ERROR with the cause in *failure. */
  GstFlowReturn prepare_output (GstBaseTransform * trans, GstBuffer * input,
      GstBuffer ** output, bool output_in_cuda, FrameError * failure) const;

  /* Bytes the buffers of our pinned memory hold now, wherever they are. */
  gsize pinned_bytes () const;

private:
  bool on_device () const { return pinned_allocator_ != nullptr; }
  GstBufferPool *new_pool (GstCaps * caps, guint count, bool for_input,
      guint * size) const;
  GstBufferPool *downstream_cuda_pool (GstQuery * query, GstCaps * caps,
      guint * size, guint * min, guint * max) const;
  bool put_output_pool (GstElement * element, GstQuery * query,
      GstCaps * caps, guint depth) const;
  GstBufferPool *own_output_pool (GstCaps * caps, guint min, guint * size) const;
  FrameError activate (GstBufferPool * pool, GstCaps * caps) const;
  cudaError_t take_pinned_error () const;

  GstAllocator *pinned_allocator_ = nullptr;
  CudaMemoryPools cuda_pools_;
};
