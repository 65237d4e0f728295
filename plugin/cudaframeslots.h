/* The CUDA side of the data path: per frame in flight a stream, a completion event
 * and device copies of the input and output frame. Knows where a frame lives, not
 * which kernel runs on it. Its CUDA calls go through the fault points of
 * cudafaults.h. */
#pragma once

#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

#include "plane.h"

class CudaFrameSlots
{
public:
  CudaFrameSlots ();
  CudaFrameSlots (const CudaFrameSlots &) = delete;
  CudaFrameSlots & operator= (const CudaFrameSlots &) = delete;
  ~CudaFrameSlots ();

  /* Frees what a previous configure allocated, then allocates `count` slots for
   * frames laid out as `info` says, on `device`: each with a device input frame,
   * an output frame if `output_frames`, result_size bytes of results (device
   * and pinned host) and workspace_size bytes of device workspace, every device
   * buffer zeroed. */
  cudaError_t configure (int device, const GstVideoInfo & info, int count,
      bool output_frames, size_t result_size, size_t workspace_size);
  /* Waits for every slot's work, then frees everything. Returns the first error. */
  cudaError_t release ();

  int count () const { return static_cast<int> (slots_.size ()); }
  int device () const { return device_; }
  cudaStream_t stream (int slot) const;

  /* Queues the copy of every plane of `host` into the slot's device input. */
  cudaError_t upload (int slot, const GstVideoFrame & host);
  /* Queues device input -> device output for samples no kernel will write. */
  cudaError_t copy_input_to_output (int slot);
  /* Queues the copy of the slot's device output into `host`. */
  cudaError_t download (int slot, GstVideoFrame & host);
  /* Queues the copy of the slot's device results into its host results. */
  cudaError_t download_result (int slot);
  /* Marks the end of the work queued for the slot's frame. */
  cudaError_t mark_done (int slot);
  /* Blocks until the slot's frame has finished (as mark_done marked it);
   * returns its error. */
  cudaError_t wait (int slot);
  /* Blocks until everything queued on the slot's stream has finished, also
   * work of a frame that failed before mark_done; returns its error. */
  cudaError_t wait_queued (int slot);

  cf::Plane input_component (int slot, int component) const;
  cf::Plane output_component (int slot, int component) const;
  void *result (int slot) const;
  void *workspace (int slot) const;
  const void *host_result (int slot) const;

private:
  struct Slot;
  cudaError_t select_device () const;
  cf::Plane component (guint8 * base, int component) const;

  int device_ = 0;
  GstVideoInfo info_ {};
  size_t result_size_ = 0;
  std::vector<std::unique_ptr<Slot>> slots_;
};
