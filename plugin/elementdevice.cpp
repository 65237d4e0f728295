// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "elementdevice.h"

#include <atomic>
#include <string>
#include <utility>

#include "cudafaults.h"
#include "deviceproblem.h"

/* The backends an element may be asked for, as its backend property and
 * active-backend say them (gst-inspect-1.0 shows a build without CUDA). */
GType
cf_backend_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
#ifdef CF_HAVE_CUDA
    {CF_BACKEND_AUTO,
        "CUDA when a usable device exists, else the CPU (warns once)", "auto"},
    {CF_BACKEND_CUDA, "CUDA device; error if none is usable",
        "cuda"},
#else
    {CF_BACKEND_AUTO, "The CPU: this build has no CUDA backend "
          "(-Dcuda=disabled)", "auto"},
    {CF_BACKEND_CUDA, "An error at start: this build has no CUDA "
          "backend", "cuda"},
#endif
    {CF_BACKEND_CPU, "CPU, all cores, same results bit for bit",
        "cpu"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("CfBackend",
            values));
  return type;
}

GST_DEBUG_CATEGORY_EXTERN (cf_base_filter_debug);
#define GST_CAT_DEFAULT cf_base_filter_debug

static GQuark
work_verb_quark ()
{
  static const GQuark quark = g_quark_from_static_string ("cf-work-verb");
  return quark;
}

void
cf_element_class_set_work_verb (GType type, const char *verb)
{
  g_type_set_qdata (type, work_verb_quark (), const_cast<char *> (verb));
}

const char *
cf_element_work_verb (GstElement * element)
{
  for (GType type = G_OBJECT_TYPE (element); type; type = g_type_parent (type))
    if (gpointer verb = g_type_get_qdata (type, work_verb_quark ()))
      return static_cast<const char *> (verb);
  return "Filtering";
}

/* "Filtering on the CPU", in the element's own verb. */
static std::string
on_the_cpu (GstElement * element)
{
  return std::string (cf_element_work_verb (element)) + " on the CPU";
}

/* An info message saying `text`. gst-launch-1.0 prints the text of warnings
 * and errors but only the debug string of info messages (every release from
 * 1.22 to 1.28), so the debug string says `text` too, then `detail`. */
static void
post_info (GstElement * element, const std::string & text,
    const std::string & detail)
{
  GST_ELEMENT_INFO (element, RESOURCE, NOT_FOUND, ("%s", text.c_str ()),
      ("%s; %s", text.c_str (), detail.c_str ()));
}

#ifdef CF_HAVE_CUDA
/* Whether a CUDA device is usable here: cudaSuccess, or why not, in *usable.
 * FALSE (after posting an error) where `device_id` names no device. Messages
 * name the cause in deviceproblem.h's words alone; their debug strings add the
 * runtime's name of the error, never its words, which name another cause
 * where no driver is installed. */
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
            cf::describe_device_problem (err).c_str ()), ("CUDA runtime: %s",
            cudaGetErrorName (err)));
  return FALSE;
}

/* backend=auto without a usable device: a warning once per process (every
 * element of a pipeline falls back alike), then an info message per element. */
static void
tell_cpu_fallback (GstElement * element, cudaError_t err)
{
  static std::atomic<bool> warned { false };
  const std::string problem = cf::describe_device_problem (err);
  const std::string runtime = std::string ("CUDA runtime: ") +
      cudaGetErrorName (err);
  if (!warned.exchange (true))
    GST_ELEMENT_WARNING (element, RESOURCE, NOT_FOUND,
        ("No usable CUDA device: %s. %s", problem.c_str (),
            on_the_cpu (element).c_str ()),
        ("%s; set backend=cpu to silence this warning", runtime.c_str ()));
  else
    post_info (element, on_the_cpu (element) + ": " + problem, runtime);
}
#endif

gboolean
ElementDevice::open (GstElement * element, CfBackend wanted,
    gint device_id)
{
  if (wanted == CF_BACKEND_CPU) {
    set_active (element, CF_BACKEND_CPU);
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
    set_active (element, CF_BACKEND_CUDA);
    return TRUE;
  }
  drop_device (element);
  if (wanted == CF_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("backend=cuda, but CUDA device %d is not usable: %s",
            MAX (device_id, 0), cf::describe_device_problem (err).c_str ()),
        ("CUDA runtime: %s", cudaGetErrorName (err)));
    return FALSE;
  }
  if (!told_cpu_fallback_) {
    told_cpu_fallback_ = true;
    tell_cpu_fallback (element, err);
  }
  set_active (element, CF_BACKEND_CPU);
  return TRUE;
#endif
}

#ifndef CF_HAVE_CUDA
/* Built without CUDA: a CUDA device asked for by name (backend=cuda, a
 * cuda-device-id) is an error; backend=auto works on the CPU, saying so once
 * per element in an info message (the build chose it: no warning). */
gboolean
ElementDevice::open_without_cuda (GstElement * element,
    CfBackend wanted, gint device_id)
{
  if (wanted == CF_BACKEND_CUDA || device_id >= 0) {
    const std::string asked = wanted == CF_BACKEND_CUDA ?
        "backend=cuda" : "cuda-device-id=" + std::to_string (device_id);
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("%s, but %s: leave backend and cuda-device-id at their defaults, or "
            "build with CUDA", asked.c_str (), cf::kNoCudaBackend), (nullptr));
    return FALSE;
  }
  if (!told_cpu_fallback_) {
    told_cpu_fallback_ = true;
    post_info (element, on_the_cpu (element) + ": " + cf::kNoCudaBackend,
        "set backend=cpu to silence this message");
  }
  set_active (element, CF_BACKEND_CPU);
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
  set_active (element, CF_BACKEND_AUTO);
}

void
ElementDevice::drop_device (GstElement * element)
{
  GST_OBJECT_LOCK (element);
  const CudaDevice dropped = std::exchange (cuda_, CudaDevice ());
  GST_OBJECT_UNLOCK (element);
}

void
ElementDevice::set_active (GstElement * element, CfBackend backend)
{
  GST_OBJECT_LOCK (element);
  const bool changed = active_ != backend;
  active_ = backend;
  GST_OBJECT_UNLOCK (element);
  if (!changed)
    return;
  GST_INFO_OBJECT (element, "backend: %s", backend ==
      CF_BACKEND_CUDA ? "cuda" : backend ==
      CF_BACKEND_CPU ? "cpu" : "none");
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
  set_active (element, err == cudaSuccess ? CF_BACKEND_CUDA :
      CF_BACKEND_AUTO);
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
