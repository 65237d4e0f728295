// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "elementdevice.h"

#include <atomic>
#include <string>
#include <utility>

#include "cudafaults.h"
#ifdef CF_HAVE_CUDA
#include "deviceproblem.h"
#endif

/* The backends an element may be asked for, as its backend property and
 * active-backend say them (gst-inspect-1.0 shows a build without CUDA). */
GType
gst_cuda_filter_backend_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
#ifdef CF_HAVE_CUDA
    {GST_CUDA_FILTER_BACKEND_AUTO,
        "CUDA when a usable device exists, else the CPU (warns once)", "auto"},
    {GST_CUDA_FILTER_BACKEND_CUDA, "CUDA device; error if none is usable",
        "cuda"},
#else
    {GST_CUDA_FILTER_BACKEND_AUTO, "The CPU: this build has no CUDA backend "
          "(-Dcuda=disabled)", "auto"},
    {GST_CUDA_FILTER_BACKEND_CUDA, "An error at start: this build has no CUDA "
          "backend", "cuda"},
#endif
    {GST_CUDA_FILTER_BACKEND_CPU, "CPU, all cores, same results bit for bit",
        "cpu"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaFilterBackend",
            values));
  return type;
}

GST_DEBUG_CATEGORY_EXTERN (cf_base_filter_debug);
#define GST_CAT_DEFAULT cf_base_filter_debug

#ifdef CF_HAVE_CUDA
/* Whether a CUDA device is usable here: cudaSuccess, or why not, in *usable.
 * FALSE (after posting an error) where `device_id` names no device. */
static gboolean
probe_devices (GstElement * element, gint device_id, cudaError_t * usable)
{
  int count = 0;
  cudaError_t err = CF_CUDA (Device, cudaGetDeviceCount (&count));
  if (err != cudaSuccess)
    count = 0;
  else if (count == 0)
    err = cudaErrorNoDevice;
  else if (!CudaDevice::driver_loads ())
    err = cudaErrorInsufficientDriver;  /* gstreamer-cuda's loader */
  *usable = err;
  if (device_id < count)
    return TRUE;
  if (count > 0)
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("CUDA device %d does not exist: cuda-device-id goes up to %d here "
            "(-1: any device)", device_id, count - 1), (nullptr));
  else
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("CUDA device %d does not exist: %s", device_id,
            cf::describe_device_problem (err).c_str ()), ("%s: %s",
            cudaGetErrorName (err), cudaGetErrorString (err)));
  return FALSE;
}

/* backend=auto without a usable device: a warning once per process (every
 * element of a pipeline falls back alike), then an info message per element. */
static void
tell_cpu_fallback (GstElement * element, cudaError_t err)
{
  static std::atomic<bool> warned { false };
  const std::string problem = cf::describe_device_problem (err);
  if (!warned.exchange (true))
    GST_ELEMENT_WARNING (element, RESOURCE, NOT_FOUND,
        ("No usable CUDA device: %s. Filtering on the CPU", problem.c_str ()),
        ("%s: %s; set backend=cpu to silence this warning",
            cudaGetErrorName (err), cudaGetErrorString (err)));
  else
    GST_ELEMENT_INFO (element, RESOURCE, NOT_FOUND,
        ("Filtering on the CPU: %s", problem.c_str ()), (nullptr));
}
#endif

gboolean
ElementDevice::open (GstElement * element, GstCudaFilterBackend wanted,
    gint device_id)
{
  if (wanted == GST_CUDA_FILTER_BACKEND_CPU) {
    set_active (element, GST_CUDA_FILTER_BACKEND_CPU);
    return TRUE;
  }
#ifndef CF_HAVE_CUDA
  return open_without_cuda (element, wanted, device_id);
#else
  cf_faults_arm_from_env ();
  cudaError_t err;
  if (!probe_devices (element, device_id, &err))
    return FALSE;
  /* The pipeline's context, or a new one announced to it; not under the
   * object lock: the announcement comes back through set_context. */
  if (err == cudaSuccess)
    err = cuda_.open (element, device_id);
  if (err == cudaSuccess)
    err = open_on_device ();
  if (err == cudaSuccess) {
    set_active (element, GST_CUDA_FILTER_BACKEND_CUDA);
    return TRUE;
  }
  drop_device (element);
  if (wanted == GST_CUDA_FILTER_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("backend=cuda, but CUDA device %d is not usable: %s (%s: %s)",
            MAX (device_id, 0), cf::describe_device_problem (err).c_str (),
            cudaGetErrorName (err), cudaGetErrorString (err)), (nullptr));
    return FALSE;
  }
  if (!told_cpu_fallback_) {
    told_cpu_fallback_ = true;
    tell_cpu_fallback (element, err);
  }
  set_active (element, GST_CUDA_FILTER_BACKEND_CPU);
  return TRUE;
#endif
}

#ifndef CF_HAVE_CUDA
/* Built without CUDA: a CUDA device asked for by name (backend=cuda, a
 * cuda-device-id) is an error; backend=auto filters on the CPU, saying so once
 * per element in an info message (the build chose it: no warning). */
gboolean
ElementDevice::open_without_cuda (GstElement * element,
    GstCudaFilterBackend wanted, gint device_id)
{
  static const char *const kNoCuda = "this build of gst-cudafilters has no "
      "CUDA backend (built with -Dcuda=disabled)";
  if (wanted == GST_CUDA_FILTER_BACKEND_CUDA || device_id >= 0) {
    const std::string asked = wanted == GST_CUDA_FILTER_BACKEND_CUDA ?
        "backend=cuda" : "cuda-device-id=" + std::to_string (device_id);
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("%s, but %s: leave backend and cuda-device-id at their defaults, or "
            "build with CUDA", asked.c_str (), kNoCuda), (nullptr));
    return FALSE;
  }
  if (!told_cpu_fallback_) {
    told_cpu_fallback_ = true;
    GST_ELEMENT_INFO (element, RESOURCE, NOT_FOUND,
        ("Filtering on the CPU: %s", kNoCuda),
        ("%s; set backend=cpu to filter without this message", kNoCuda));
  }
  set_active (element, GST_CUDA_FILTER_BACKEND_CPU);
  return TRUE;
}
#endif

/* The runtime's state in the device's context: a broken device fails here. */
cudaError_t
ElementDevice::open_on_device ()
{
#ifndef CF_HAVE_CUDA
  return cudaErrorNoDevice;
#else
  const CudaContextScope scope (cuda_);
  cudaError_t err = scope.error ();
  if (err == cudaSuccess)
    err = CF_CUDA (Device, cudaFree (nullptr));
  return err;
#endif
}

void
ElementDevice::close (GstElement * element)
{
  drop_device (element);
  set_active (element, GST_CUDA_FILTER_BACKEND_AUTO);
}

void
ElementDevice::drop_device (GstElement * element)
{
  GST_OBJECT_LOCK (element);
  const CudaDevice dropped = std::exchange (cuda_, CudaDevice ());
  GST_OBJECT_UNLOCK (element);
}

void
ElementDevice::set_active (GstElement * element, GstCudaFilterBackend backend)
{
  GST_OBJECT_LOCK (element);
  const bool changed = active_ != backend;
  active_ = backend;
  GST_OBJECT_UNLOCK (element);
  if (!changed)
    return;
  GST_INFO_OBJECT (element, "backend: %s", backend ==
      GST_CUDA_FILTER_BACKEND_CUDA ? "cuda" : backend ==
      GST_CUDA_FILTER_BACKEND_CPU ? "cpu" : "none");
  g_object_notify (G_OBJECT (element), "active-backend");
}

bool
ElementDevice::should_follow (GstBuffer * buffer, gint device_id,
    CudaDevice * to) const
{
  /* Only the streaming thread changes the device while it runs. */
  if (!on_device ())
    return false;
  *to = cuda_.device_of_other_memory (buffer, device_id);
  return !to->empty ();
}

bool
ElementDevice::should_follow_upstream (GstPad * sinkpad, gint device_id,
    CudaDevice * to) const
{
  if (!on_device ())
    return false;
  *to = cuda_.device_upstream (sinkpad, device_id);
  return !to->empty ();
}

FrameError
ElementDevice::move_to (GstElement * element, const CudaDevice & device)
{
  GST_INFO_OBJECT (element, "following the CUDA context of the chain's "
      "first CUDA element: device %d -> %d", cuda_.id (), device.id ());
  drop_device (element);
  GST_OBJECT_LOCK (element);
  cuda_ = device;
  GST_OBJECT_UNLOCK (element);
  const cudaError_t err = open_on_device ();
  set_active (element, err == cudaSuccess ? GST_CUDA_FILTER_BACKEND_CUDA :
      GST_CUDA_FILTER_BACKEND_AUTO);
  return FrameError::check ("Moving to the chain's CUDA context", err);
}

void
ElementDevice::take_pipeline_context (GstElement * element,
    GstContext * context, gint device_id)
{
  GST_OBJECT_LOCK (element);
  cuda_.take_pipeline_context (element, context, device_id);
  GST_OBJECT_UNLOCK (element);
}
