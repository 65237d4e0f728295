// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cudadevice.h"

#ifdef CF_HAVE_GST_CUDA
#include <gst/cuda/cuda-gst.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#endif

#include "cudafaults.h"

#ifdef CF_HAVE_GST_CUDA

CudaDevice::CudaDevice (GstCudaContext * context)
    : context_ (static_cast<GstCudaContext *> (gst_object_ref (context)))
{
  guint device_id = 0;
  g_object_get (context, "cuda-device-id", &device_id, nullptr);
  id_ = static_cast<int> (device_id);
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

CudaDevice::CudaDevice (int id) : id_ (id)
{
}

CudaDevice::CudaDevice (const CudaDevice &) = default;
CudaDevice & CudaDevice::operator= (const CudaDevice &) = default;
CudaDevice::~CudaDevice () = default;

bool
CudaDevice::empty () const
{
  return id_ < 0;
}

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

CudaContextScope::~CudaContextScope () = default;

#endif
