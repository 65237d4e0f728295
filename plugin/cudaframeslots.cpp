// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cudaframeslots.h"

#include "cudafaults.h"

#include <cstring>

/* Returns the first failing CUDA call's error from the enclosing function. */
#define CF_RETURN_IF_FAILED(call) \
  do { \
    const cudaError_t cf_err_ = (call); \
    if (cf_err_ != cudaSuccess) \
      return cf_err_; \
  } while (0)

struct CudaFrameSlots::Slot
{
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  /* Recorded on another stream for the slot's stream to wait for. */
  cudaEvent_t other_ready = nullptr;
  void *workspace = nullptr;
  /* Pinned and mapped: the kernels write the results there themselves. */
  void *host_result = nullptr;
  void *result = nullptr;       /* host_result as the device sees it */
  size_t result_size = 0;

  /* Frees in reverse order of creation; the first error wins. */
  cudaError_t destroy ()
  {
    cudaError_t first = cudaSuccess;
    auto keep_first = [&first] (cudaError_t err) {
      if (first == cudaSuccess)
        first = err;
    };
    if (stream)
      keep_first (CF_CUDA (Sync, cudaStreamSynchronize (stream)));
    if (host_result)
      keep_first (cf_cuda_free_host (host_result));
    if (workspace)
      keep_first (cf_cuda_free (workspace));
    if (done)
      keep_first (cf_cuda_event_destroy (done));
    if (other_ready)
      keep_first (cf_cuda_event_destroy (other_ready));
    other_ready = nullptr;
    if (stream)
      keep_first (cf_cuda_stream_destroy (stream));
    stream = nullptr;
    done = nullptr;
    result = workspace = host_result = nullptr;
    result_size = 0;
    return first;
  }

  /* `size` bytes of pinned, mapped results in place of those it holds. The
   * results go to the host without a copy of their own: one CUDA call less a
   * frame, microseconds of host time each. Zeroed: results of channels a
   * format lacks then go down defined. */
  cudaError_t allocate_results (size_t size)
  {
    if (host_result) {
      const cudaError_t err = cf_cuda_free_host (host_result);
      host_result = result = nullptr;
      result_size = 0;
      CF_RETURN_IF_FAILED (err);
    }
    CF_RETURN_IF_FAILED (cf_cuda_host_alloc (&host_result, size,
            cudaHostAllocMapped));
    result_size = size;
    memset (host_result, 0, size);
    return CF_CUDA (Pinned, cudaHostGetDevicePointer (&result, host_result,
            0));
  }

  ~Slot () { destroy (); }
};

CudaFrameSlots::CudaFrameSlots () = default;

CudaFrameSlots::~CudaFrameSlots ()
{
  destroy ();
}

cudaStream_t
CudaFrameSlots::stream (int slot) const
{
  return slots_[slot]->stream;
}

cudaError_t
CudaFrameSlots::create (const CudaDevice & device, int count,
    size_t result_size, size_t workspace_size)
{
  CF_RETURN_IF_FAILED (destroy ());
  device_ = device;
  for (int i = 0; i < count; i++) {
    slots_.push_back (std::make_unique<Slot> ());
    Slot & slot = *slots_.back ();
    CF_RETURN_IF_FAILED (cf_cuda_stream_create (&slot.stream,
            cudaStreamNonBlocking));
    CF_RETURN_IF_FAILED (cf_cuda_event_create (&slot.done,
            cudaEventDisableTiming));
    CF_RETURN_IF_FAILED (cf_cuda_event_create (&slot.other_ready,
            cudaEventDisableTiming));
    if (result_size) {
      const cudaError_t err = slot.allocate_results (result_size);
      pinned_bytes_ += slot.result_size;
      CF_RETURN_IF_FAILED (err);
    }
    /* Zeroed: the workspace starts as the histogram kernel wants it. */
    if (workspace_size) {
      const cudaError_t err = cf_cuda_malloc_zeroed (&slot.workspace,
          workspace_size, slot.stream);
      if (slot.workspace)
        device_bytes_ += workspace_size;
      CF_RETURN_IF_FAILED (err);
    }
  }
  return cudaSuccess;
}

cudaError_t
CudaFrameSlots::destroy ()
{
  if (slots_.empty ())
    return cudaSuccess;
  device_bytes_ = 0;
  pinned_bytes_ = 0;
  const CudaContextScope scope (device_, CudaContextScope::kTeardown);
  cudaError_t first = scope.error ();
  /* Without its context nothing can be freed: the handles are given up. */
  if (first != cudaSuccess) {
    for (auto & slot : slots_)
      *slot = Slot ();
    slots_.clear ();
    return first;
  }
  for (auto & slot : slots_) {
    const cudaError_t err = slot->destroy ();
    if (first == cudaSuccess)
      first = err;
  }
  slots_.clear ();
  return first;
}

cudaError_t
CudaFrameSlots::reserve_results (int slot, size_t size)
{
  Slot & s = *slots_[slot];
  if (size <= s.result_size)
    return cudaSuccess;
  pinned_bytes_ -= s.result_size;
  const cudaError_t err = s.allocate_results (size);
  pinned_bytes_ += s.result_size;
  return err;
}

cudaError_t
CudaFrameSlots::mark_done (int slot)
{
  return CF_CUDA (Sync, cudaEventRecord (slots_[slot]->done,
          slots_[slot]->stream));
}

cudaError_t
CudaFrameSlots::wait (int slot)
{
  return CF_CUDA (Sync, cudaEventSynchronize (slots_[slot]->done));
}

cudaError_t
CudaFrameSlots::query (int slot)
{
  return cudaEventQuery (slots_[slot]->done);
}

cudaError_t
CudaFrameSlots::wait_queued (int slot)
{
  return CF_CUDA (Sync, cudaStreamSynchronize (slots_[slot]->stream));
}

cudaError_t
CudaFrameSlots::follow_stream (int slot, cudaStream_t other)
{
  Slot & s = *slots_[slot];
  /* A stream waits for an event as recorded at the time of the call: one
   * event serves any number of other streams in turn. */
  CF_RETURN_IF_FAILED (CF_CUDA (Sync, cudaEventRecord (s.other_ready, other)));
  return CF_CUDA (Sync, cudaStreamWaitEvent (s.stream, s.other_ready, 0));
}

cudaError_t
CudaFrameSlots::lead_stream (int slot, cudaStream_t other)
{
  return CF_CUDA (Sync, cudaStreamWaitEvent (other, slots_[slot]->done, 0));
}

void *
CudaFrameSlots::result (int slot) const
{
  return slots_[slot]->result;
}

void *
CudaFrameSlots::workspace (int slot) const
{
  return slots_[slot]->workspace;
}

const void *
CudaFrameSlots::host_result (int slot) const
{
  return slots_[slot]->host_result;
}
