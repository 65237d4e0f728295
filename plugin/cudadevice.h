// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The CUDA context an element works in, how it is shared with the pipeline, and
 * the scope that makes it current.
 *
 * Built with gstreamer-cuda-1.0 (CF_HAVE_GST_CUDA), an element works in a
 * GstCudaContext that it shares with the rest of the pipeline (nvcodec's
 * decoders, cudaupload, ...) through GstContext, with nvcodec's helpers
 * (gstcudautils.h), and like nvcodec's elements it follows the context of the
 * CUDA memory that comes in where its cuda-device-id allows. That context is made with
 * cuCtxCreate, not the device's primary context: our runtime-API calls and
 * kernels use whatever context is current, so every piece of CUDA work runs
 * inside a CudaContextScope, and nothing may call cudaSetDevice (which would
 * bind the primary context and make the scope's pop take the wrong context off
 * the thread's stack). Built without it, the element uses the device's primary
 * context, made current by the scope with cudaSetDevice. Built without CUDA
 * (-Dcuda=disabled), no device opens: the element filters on the CPU. */
#pragma once

#include <gst/gst.h>

#include "status.h"

#ifdef CF_HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#endif

/* A device and the context the element uses on it; copies share the context.
 * Empty until the element has one. */
class CudaDevice
{
public:
  CudaDevice () = default;
  CudaDevice (const CudaDevice & other);
  CudaDevice & operator= (const CudaDevice & other);
  ~CudaDevice ();

  bool empty () const;
  int id () const { return id_; }

  /* Whether this build and this machine can have CUDA at all: the driver
   * library loads (gstreamer-cuda's loader, or the runtime's device count). */
  static bool driver_loads ();

  /* The element's side of sharing (no-ops without gstreamer-cuda-1.0). */
  /* set_context: takes the pipeline's context, where this device has none yet
   * and it is on `device_id` (-1: any device). */
  void take_pipeline_context (GstElement * element, GstContext * context,
      int device_id);
  /* A CONTEXT query: answers it with this device's context, if it has one. */
  bool answer_context_query (GstElement * element, GstQuery * query) const;
  /* At start: the pipeline's context (set_context, or a neighbour's answer to
   * our query) where it is on `device_id`, else a new one on that device (-1:
   * the first), announced to the pipeline. cudaErrorNoDevice where none can be
   * made (through the fault hook's device point). */
  cudaError_t open (GstElement * element, int device_id);
  /* The device of `buffer`'s CUDA memory where it is of another context than
   * this device's and an element held to `device_id` takes it (-1: any device;
   * else that device's own); else an empty device. Costs a pointer comparison
   * where the memory is of this context. */
  CudaDevice device_of_other_memory (GstBuffer * buffer, int device_id) const;
  /* Likewise, the device of the context upstream answers a CONTEXT query on
   * `sinkpad` with (the first CUDA element upstream, through others). */
  CudaDevice device_upstream (GstPad * sinkpad, int device_id) const;

#ifdef CF_HAVE_GST_CUDA
  /* Takes a reference to `context`. */
  explicit CudaDevice (GstCudaContext * context);
  GstCudaContext *context () const { return context_; }
#endif

private:
  friend class CudaContextScope;
  int id_ = -1;
#ifdef CF_HAVE_GST_CUDA
  /* Takes `owned` (a reference) as this device's context. */
  void adopt (GstCudaContext * owned);

  GstCudaContext *context_ = nullptr;
#endif
};

/* Makes the device's context current for the lifetime of the scope (a push and a
 * pop of a GstCudaContext; cudaSetDevice where there is none). error() says
 * whether that worked: where it did not, no CUDA call may follow. The push of
 * work goes through the fault hook's device point; the push of a teardown is
 * always made, as frees are, so that an injected fault leaks nothing. */
class CudaContextScope
{
public:
  enum Purpose { kWork, kTeardown };
  explicit CudaContextScope (const CudaDevice & device, Purpose purpose = kWork);
  ~CudaContextScope ();
  CudaContextScope (const CudaContextScope &) = delete;
  CudaContextScope & operator= (const CudaContextScope &) = delete;

  cudaError_t error () const { return error_; }

private:
  cudaError_t error_ = cudaSuccess;
  bool pushed_ = false;
};
