// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cudadevice.h"

#ifdef CF_HAVE_GST_CUDA
#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

#include "cudafaults.h"

#ifdef CF_HAVE_GST_CUDA

CudaDevice::CudaDevice (GstCudaContext * context)
{
  adopt (static_cast<GstCudaContext *> (gst_object_ref (context)));
}

CudaDevice::CudaDevice (const CudaDevice & other)
    : id_ (other.id_),
      context_ (other.context_ ?
          static_cast<GstCudaContext *> (gst_object_ref (other.context_)) :
          nullptr)
{
}

CudaDevice & CudaDevice::operator= (const CudaDevice & other)
{
  if (this != &other) {
    GstCudaContext *old = context_;
    context_ = other.context_ ?
        static_cast<GstCudaContext *> (gst_object_ref (other.context_)) :
        nullptr;
    id_ = other.id_;
    if (old)
      gst_object_unref (old);
  }
  return *this;
}

CudaDevice::~CudaDevice ()
{
  if (context_)
    gst_object_unref (context_);
}

bool
CudaDevice::empty () const
{
  return context_ == nullptr;
}

void
CudaDevice::take_pipeline_context (GstElement * element, GstContext * context,
    int device_id)
{
  GstCudaContext *found = nullptr;
  if (!context_ && gst_cuda_handle_set_context (element, context, device_id,
          &found) && found)
    adopt (found);
}

bool
CudaDevice::answer_context_query (GstElement * element, GstQuery * query) const
{
  return gst_cuda_handle_context_query (element, query, context_);
}

cudaError_t
CudaDevice::open (GstElement * element, int device_id)
{
  /* Keeps a context already taken; a new one is announced to the pipeline
   * (which hands it back through set_context: kept, as it is this one). */
  const cudaError_t err = CF_CUDA (Device,
      gst_cuda_ensure_element_context (element, device_id, &context_) ?
      cudaSuccess : cudaErrorNoDevice);
  if (err == cudaSuccess)
    adopt (context_);
  return err;
}

CudaDevice
CudaDevice::device_of_other_memory (GstBuffer * buffer, int device_id) const
{
  GstMemory *mem = gst_buffer_n_memory (buffer) > 0 ?
      gst_buffer_peek_memory (buffer, 0) : nullptr;
  if (!context_ || !mem || !gst_is_cuda_memory (mem) ||
      GST_CUDA_MEMORY_CAST (mem)->context == context_)
    return CudaDevice ();
  CudaDevice other (GST_CUDA_MEMORY_CAST (mem)->context);
  if (device_id >= 0 && other.id () != device_id)
    return CudaDevice ();
  return other;
}

CudaDevice
CudaDevice::device_upstream (GstPad * sinkpad, int device_id) const
{
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstContext *context = nullptr;
  GstCudaContext *upstream = nullptr;
  if (context_ && gst_pad_peer_query (sinkpad, query))
    gst_query_parse_context (query, &context);
  if (context)
    gst_structure_get (gst_context_get_structure (context),
        GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &upstream, nullptr);
  gst_query_unref (query);
  if (!upstream || upstream == context_) {
    gst_clear_object (&upstream);
    return CudaDevice ();
  }
  CudaDevice other (upstream);
  gst_object_unref (upstream);
  if (device_id >= 0 && other.id () != device_id)
    return CudaDevice ();
  return other;
}

void
CudaDevice::adopt (GstCudaContext * owned)
{
  if (context_ && context_ != owned)
    gst_object_unref (context_);
  context_ = owned;
  guint device_id = 0;
  g_object_get (owned, "cuda-device-id", &device_id, nullptr);
  id_ = static_cast<int> (device_id);
}

bool
CudaDevice::driver_loads ()
{
  /* Once per process; false where no driver is installed or it sees no
   * device (counting devices makes no context). */
  static const bool loaded = [] {
    /* The driver API through gstreamer-cuda's loader: no runtime state. */
    int count = 0;
    if (!gst_cuda_load_library () || CuInit (0) != CUDA_SUCCESS ||
        CuDeviceGetCount (&count) != CUDA_SUCCESS || count == 0)
      return false;
    gst_cuda_memory_init_once ();
    return true;
  } ();
  return loaded;
}

CudaContextScope::CudaContextScope (const CudaDevice & device, Purpose purpose)
{
  auto push = [&] {
    pushed_ = device.context_ && gst_cuda_context_push (device.context_);
    return pushed_ ? cudaSuccess : cudaErrorDeviceUninitialized;
  };
  error_ = purpose == kTeardown ? push () :
      cf_faults_call (CfFaultPoint::Device, push);
}

CudaContextScope::~CudaContextScope ()
{
  if (pushed_)
    gst_cuda_context_pop (nullptr);
}

#else /* !CF_HAVE_GST_CUDA */

CudaDevice::CudaDevice (const CudaDevice &) = default;
CudaDevice & CudaDevice::operator= (const CudaDevice &) = default;
CudaDevice::~CudaDevice () = default;

bool
CudaDevice::empty () const
{
  return id_ < 0;
}

void
CudaDevice::take_pipeline_context (GstElement *, GstContext *, int)
{
}

bool
CudaDevice::answer_context_query (GstElement *, GstQuery *) const
{
  return false;
}

cudaError_t
CudaDevice::open (GstElement *, int device_id)
{
#ifdef CF_HAVE_CUDA
  id_ = MAX (device_id, 0);
  return cudaSuccess;
#else
  (void) device_id;
  return cudaErrorNoDevice;
#endif
}

CudaDevice
CudaDevice::device_of_other_memory (GstBuffer *, int) const
{
  return CudaDevice ();
}

CudaDevice
CudaDevice::device_upstream (GstPad *, int) const
{
  return CudaDevice ();
}

#ifdef CF_HAVE_CUDA
bool
CudaDevice::driver_loads ()
{
  int count = 0;
  return cudaGetDeviceCount (&count) == cudaSuccess;
}

CudaContextScope::CudaContextScope (const CudaDevice & device, Purpose purpose)
{
  auto select = [&] {
    return device.empty () ? cudaErrorInvalidDevice :
        cudaSetDevice (device.id ());
  };
  error_ = purpose == kTeardown ? select () :
      cf_faults_call (CfFaultPoint::Device, select);
  pushed_ = false;
}
#else
bool
CudaDevice::driver_loads ()
{
  return false;
}

CudaContextScope::CudaContextScope (const CudaDevice &, Purpose)
    : error_ (cudaErrorNoDevice)
{
}
#endif

CudaContextScope::~CudaContextScope () = default;

#endif
