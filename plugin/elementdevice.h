// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* One element's backend and CUDA device, from start to stop: the backend chosen
 * (CUDA where a device is usable, else the CPU, as the backend property asks),
 * the context shared with the pipeline (cudadevice.h), and what is made on it:
 * pinned host memory and pools of CUDA memory, offered upstream and used for
 * the output. Written by start and stop, and by the streaming thread where the
 * element follows upstream's context; the element's object lock guards what
 * properties and queries read (active(), cuda(), pinned_allocator()). */
#pragma once

#include <gst/gst.h>

#include <functional>

#include "cudadevice.h"
#include "cudamemory.h"
#include "frameerror.h"

/* The backends an element may be asked for (its backend property) and the
 * one in use (active-backend). */
G_BEGIN_DECLS

typedef enum
{
  GST_CUDA_FILTER_BACKEND_AUTO,
  GST_CUDA_FILTER_BACKEND_CUDA,
  GST_CUDA_FILTER_BACKEND_CPU,
} GstCudaFilterBackend;

#define GST_TYPE_CUDA_FILTER_BACKEND (gst_cuda_filter_backend_get_type ())
GType gst_cuda_filter_backend_get_type (void);

G_END_DECLS

class ElementDevice
{
public:
  ElementDevice () = default;
  ElementDevice (const ElementDevice &) = delete;
  ElementDevice & operator= (const ElementDevice &) = delete;
  ~ElementDevice ();

  /* At start: the backend `wanted` on `device_id`. FALSE after posting an
   * error: a device that does not exist, or backend=cuda without a usable one
   * (auto falls back to the CPU, warning once). */
  gboolean open (GstElement * element, GstCudaFilterBackend wanted,
      gint device_id);
  /* At stop: nothing held, no backend. */
  void close (GstElement * element);
  /* Before a frame, on the CUDA backend: whether an element on `device_id`
   * follows the context of `buffer`'s CUDA memory, which it then gives in *to
   * (CudaDevice::device_of_other_memory). */
  bool should_follow (GstBuffer * buffer, gint device_id, CudaDevice * to)
      const;
  /* At the caps, on the CUDA backend: likewise for the context the first CUDA
   * element upstream of `sinkpad` answers with, if any. */
  bool should_follow_upstream (GstPad * sinkpad, gint device_id,
      CudaDevice * to) const;
  /* Moves to `device`, closing what was made on the old one. */
  FrameError move_to (GstElement * element, const CudaDevice & device);

  GstCudaFilterBackend active () const { return active_; }
  bool on_device () const { return active_ == GST_CUDA_FILTER_BACKEND_CUDA; }
  const CudaDevice & cuda () const { return cuda_; }
  /* set_context: the pipeline's context, where none is taken yet. */
  void take_pipeline_context (GstElement * element, GstContext * context,
      gint device_id);
  /* Pinned memory of the device's context (CUDA backend; else NULL). */
  GstAllocator *pinned_allocator () const { return pinned_allocator_; }
  /* Why its last allocation failed, taken (cudaSuccess: none did), and the
   * bytes its buffers hold now. */
  cudaError_t take_pinned_error () const;
  gsize pinned_pool_bytes () const;

  /* A pool of our own for frames of `caps` in the memory type they name
   * (pinned host memory, or CUDA memory of our context), room for `count`
   * buffers; for upstream's frames (`for_input`) or ours. Its buffer size
   * (the CUDA pool's pitched layout decides it) in *size. */
  GstBufferPool *new_pool (GstCaps * caps, guint count, bool for_input,
      guint * size) const;
  /* Puts the output pool first in an ALLOCATION query, for GstBaseTransform
   * to configure, with room for `depth` frames in flight: downstream's where
   * it fits and gives buffers enough, else ours. FALSE where none can be
   * had. */
  bool choose_output_pool (GstElement * element, GstQuery * query,
      GstCaps * caps, guint depth) const;
  /* Activates the pool GstBaseTransform configured, so that a failure to
   * allocate its buffers is reported with its cause, and tries its first
   * buffer with `fits`, the check every output frame gets: a pool whose
   * buffers fail it gives way to ours (a debug line says why). */
  using OutputCheck = std::function<FrameError (GstBuffer * buffer)>;
  FrameError activate_output_pool (GstElement * element, GstQuery * query,
      GstCaps * caps, guint depth, const OutputCheck & fits) const;

private:
#ifndef CF_HAVE_CUDA
  gboolean open_without_cuda (GstElement * element,
      GstCudaFilterBackend wanted, gint device_id);
#endif
  cudaError_t open_on_device (GstElement * element);
  void drop_device (GstElement * element);
  void set_active (GstElement * element, GstCudaFilterBackend backend);
  GstBufferPool *downstream_cuda_pool (GstQuery * query, GstCaps * caps,
      guint * size, guint * min, guint * max) const;
  GstBufferPool *own_output_pool (GstCaps * caps, guint min, guint * size) const;
  FrameError activate (GstBufferPool * pool, GstCaps * caps) const;

  GstCudaFilterBackend active_ = GST_CUDA_FILTER_BACKEND_AUTO;
  CudaDevice cuda_;
  GstAllocator *pinned_allocator_ = nullptr;
  CudaMemoryPools cuda_pools_;
  bool told_cpu_fallback_ = false;
};
