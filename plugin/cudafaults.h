// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Testing hooks on the plugin's CUDA calls: fault injection, and counts of the
 * CUDA resources the plugin holds. Not an interface for applications.
 *
 * Fault injection makes chosen CUDA calls fail, so that tests see each failure
 * become an element error that names the CUDA error, and the pipeline tear
 * down without leaking. An environment variable arms it, for the whole process,
 * read each time an element starts with a backend other than cpu:
 *
 *   GST_CUDAFILTERS_FAULT=POINT:N[:ERROR]        the Nth call at POINT fails
 *   GST_CUDAFILTERS_FAULT=device-lost:N[:ERROR]  from the Nth frame on, every
 *                                                call at every point fails
 *   GST_CUDAFILTERS_FAULT=driver:VERSION[:ERROR] an NVIDIA driver of this
 *                                                CUDA version (cuDriverGetVersion's
 *                                                form: 12080 for 12.8; 0: none)
 *                                                stands in for the installed
 *                                                one, and the first call at
 *                                                device fails (by default
 *                                                cudaErrorInsufficientDriver)
 *
 * Calls and frames count from 1 at the start. ERROR is a cudaError_t name
 * (cudaErrorLaunchFailure) or number, by default the one in brackets below
 * (device-lost: cudaErrorDevicesUnavailable). A failing call at device, alloc,
 * pinned, upload, kernel or download is not made; one at sync or free is made,
 * so that waits still wait and nothing leaks, and then reports the error.
 * Unarmed, a hook costs one predictable branch. The points and their calls:
 *
 *   device    cudaGetDeviceCount, context creation, making the element's
 *             context current (cudaErrorNoDevice)
 *   alloc     at the caps, for each frame slot in turn: stream, two events,
 *             workspace (allocated, then zeroed); then each
 *             slot's staged input frame and output frame (host sides only,
 *             allocated, then zeroed); per frame, an output buffer from a
 *             CUDA memory pool (cudaErrorMemoryAllocation)
 *   pinned    pinned host memory: buffers of the pinned pools (proposed
 *             upstream, and the filters' output pool), each slot's results
 *             (allocated, then their device address asked for), each slot's
 *             staging of foreign input frames, and foreign memory pinned in
 *             place (a failure there is no error: that memory is staged)
 *             (cudaErrorMemoryAllocation)
 *   upload    host-to-device copies, one per plane (cudaErrorLaunchFailure)
 *   kernel    the element's kernels, one call per frame, and the
 *             device-to-device copy of samples no kernel writes
 *             (cudaErrorLaunchFailure)
 *   download  device-to-host copies, one per plane (the kernels write
 *             results to pinned memory themselves) (cudaErrorLaunchFailure)
 *   sync      recording the end of a frame, waiting for one
 *             (cudaErrorLaunchFailure)
 *   free      freeing streams, events, device and pinned memory, unpinning
 *             foreign memory (cudaErrorInvalidValue)
 *
 * One element at a time: each start re-arms and restarts the counts. Built
 * without CUDA, there is no CUDA call to fail: CF_CUDA makes its call. */
#pragma once

#include <glib.h>

#include "status.h"

#ifndef CF_HAVE_CUDA
#define CF_CUDA(point, call) (call)
#else

#include <atomic>

enum class CfFaultPoint
{
  Device,
  Alloc,
  Pinned,
  Upload,
  Kernel,
  Download,
  Sync,
  Free,
};

/* Whether a fault plan is armed; read on every hooked call. */
extern std::atomic<bool> cf_faults_armed;

/* Arms the plan GST_CUDAFILTERS_FAULT describes, or disarms; restarts the
 * counts. Warns (g_warning) about a plan it cannot read, and disarms. */
void cf_faults_arm_from_env (void);

/* The armed paths of the hooks below: the armed plan's error for this call at
 * `point` (cudaSuccess for none), and counting a frame. */
cudaError_t cf_faults_injected (CfFaultPoint point);
void cf_faults_count_frame (void);

/* The CUDA version of the driver an armed driver:VERSION plan stands in for the
 * installed one's (0: none installed): TRUE with it in *version; FALSE where no
 * such plan is armed. */
bool cf_faults_driver_version (int *version);

/* Marks the start of a frame on the CUDA backend (device-lost counts them). */
static inline void
cf_faults_frame_begins (void)
{
  if (G_UNLIKELY (cf_faults_armed.load (std::memory_order_relaxed)))
    cf_faults_count_frame ();
}

/* Makes call() at `point` and returns its error, unless the armed plan fails
 * it: then returns the plan's error, having made call() only at sync and free. */
template <typename Call>
static inline cudaError_t
cf_faults_call (CfFaultPoint point, Call && call)
{
  if (G_LIKELY (!cf_faults_armed.load (std::memory_order_relaxed)))
    return call ();
  const cudaError_t injected = cf_faults_injected (point);
  if (point == CfFaultPoint::Sync || point == CfFaultPoint::Free) {
    const cudaError_t err = call ();
    return injected != cudaSuccess ? injected : err;
  }
  return injected != cudaSuccess ? injected : call ();
}

/* CF_CUDA (Upload, cudaMemcpyAsync (...)): a CUDA call at a fault point. */
#define CF_CUDA(point, call) \
  cf_faults_call (CfFaultPoint::point, [&] { return (call); })

/* CUDA resources that live beyond one call, counted while they live. */
enum class CfCudaResource
{
  DeviceMemory,
  PinnedMemory,
  RegisteredHostMemory,
  Stream,
  Event,
};
#define CF_CUDA_RESOURCE_KINDS 5

/* Creating and freeing them, at the alloc, pinned and free points, counted: a
 * resource counts from its creation until the call that frees it, whatever that
 * call returns. */
cudaError_t cf_cuda_malloc (void **ptr, size_t bytes);
/* cf_cuda_malloc, then zeroing on `stream` (the legacy default stream would not
 * order the memset before work on non-blocking streams). */
cudaError_t cf_cuda_malloc_zeroed (void **ptr, size_t bytes,
    cudaStream_t stream);
cudaError_t cf_cuda_free (void *ptr);
cudaError_t cf_cuda_host_alloc (void **ptr, size_t bytes, unsigned int flags);
cudaError_t cf_cuda_free_host (void *ptr);
/* Foreign host memory pinned in place (portable) and unpinned. */
cudaError_t cf_cuda_host_register (void *ptr, size_t bytes);
cudaError_t cf_cuda_host_unregister (void *ptr);
cudaError_t cf_cuda_stream_create (cudaStream_t * stream, unsigned int flags);
cudaError_t cf_cuda_stream_destroy (cudaStream_t stream);
cudaError_t cf_cuda_event_create (cudaEvent_t * event, unsigned int flags);
cudaError_t cf_cuda_event_destroy (cudaEvent_t event);

/* How many of `kind` the plugin holds now. Not exported from the plugin
 * (plugin/exports.map): the fault test links the plugin's objects and calls it. */
int cf_live_cuda_resources (CfCudaResource kind);
/* The faults injected since the last arming, so that a test knows whether the
 * call it aimed at happened. Not exported either. */
int cf_faults_injected_count (void);

#endif
