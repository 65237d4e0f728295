// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Per frame in flight on the CUDA backend: a stream, a completion event, an
 * event for following other streams, and an analysis element's results (pinned host memory the device writes) and device
 * workspace. Where the frame itself lives is its FramePath's business (framepaths.h).
 * create and the per-frame methods expect the element's context current (a
 * CudaContextScope); destroy makes it current itself, so that the destructor
 * frees in the right context too. The CUDA calls go through the fault points of
 * cudafaults.h. */
#pragma once

#include <cuda_runtime_api.h>

#include <glib.h>

#include <atomic>
#include <memory>
#include <vector>

#include "cudadevice.h"

class CudaFrameSlots
{
public:
  CudaFrameSlots ();
  CudaFrameSlots (const CudaFrameSlots &) = delete;
  CudaFrameSlots & operator= (const CudaFrameSlots &) = delete;
  ~CudaFrameSlots ();

  /* Frees what a previous create made, then makes `count` slots on
   * `device`, each with result_size bytes of results and workspace_size bytes
   * of workspace, zeroed. */
  cudaError_t create (const CudaDevice & device, int count,
      size_t result_size, size_t workspace_size);
  /* Waits for every slot's work, then frees everything. Returns the first error. */
  cudaError_t destroy ();
  /* At least `size` bytes of results for the slot's next frame, zeroed where
   * new: more than it holds replaces them (the slot must be idle). */
  cudaError_t reserve_results (int slot, size_t size);

  int count () const { return static_cast<int> (slots_.size ()); }
  /* Bytes of device memory (workspace) and pinned host memory (results) held
   * now; read from any thread. */
  gsize device_bytes () const { return device_bytes_.load (); }
  gsize pinned_bytes () const { return pinned_bytes_.load (); }
  cudaStream_t stream (int slot) const;

  /* Marks the end of the work queued for the slot's frame. */
  cudaError_t mark_done (int slot);
  /* Blocks until the slot's frame has finished (as mark_done marked it);
   * returns its error. */
  cudaError_t wait (int slot);
  /* Whether the slot's frame has finished, without waiting: cudaSuccess,
   * cudaErrorNotReady, or the error its work ended in. */
  cudaError_t query (int slot);
  /* Blocks until everything queued on the slot's stream has finished, also
   * work of a frame that failed before mark_done; returns its error. */
  cudaError_t wait_queued (int slot);
  /* Orders the slot's next work after everything queued on `other` so far
   * (the stream a frame's memory carries), without waiting on the host. */
  cudaError_t follow_stream (int slot, cudaStream_t other);
  /* Orders the work queued on `other` from now on after the slot's frame, as
   * mark_done marked it, without waiting on the host. */
  cudaError_t lead_stream (int slot, cudaStream_t other);

  /* The results as the kernels address them, and as the host reads them once
   * the slot's frame has finished. */
  void *result (int slot) const;
  void *workspace (int slot) const;
  const void *host_result (int slot) const;

private:
  struct Slot;
  CudaDevice device_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::atomic<gsize> device_bytes_ { 0 };
  std::atomic<gsize> pinned_bytes_ { 0 };
};
