// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "elementdevice.h"

#include <gst/video/video.h>

#include <atomic>
#include <string>
#include <utility>

#include "cudafaults.h"
#include "memorycaps.h"
#ifdef CF_HAVE_CUDA
#include "cfpinnedallocator.h"
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

ElementDevice::~ElementDevice ()
{
  gst_clear_object (&pinned_allocator_);
}

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
            describe_device_problem (err).c_str ()), ("%s: %s",
            cudaGetErrorName (err), cudaGetErrorString (err)));
  return FALSE;
}

/* backend=auto without a usable device: a warning once per process (every
 * element of a pipeline falls back alike), then an info message per element. */
static void
tell_cpu_fallback (GstElement * element, cudaError_t err)
{
  static std::atomic<bool> warned { false };
  const std::string problem = describe_device_problem (err);
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
    err = open_on_device (element);
  if (err == cudaSuccess) {
    set_active (element, GST_CUDA_FILTER_BACKEND_CUDA);
    return TRUE;
  }
  drop_device (element);
  if (wanted == GST_CUDA_FILTER_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (element, RESOURCE, NOT_FOUND,
        ("backend=cuda, but CUDA device %d is not usable: %s (%s: %s)",
            MAX (device_id, 0), describe_device_problem (err).c_str (),
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

/* What the element makes on its device: the runtime's state in its context (a
 * broken device fails here), its CUDA memory pools' streams, pinned memory. */
cudaError_t
ElementDevice::open_on_device (GstElement * element)
{
#ifndef CF_HAVE_CUDA
  (void) element;
  return cudaErrorNoDevice;
#else
  {
    const CudaContextScope scope (cuda_);
    cudaError_t err = scope.error ();
    if (err == cudaSuccess)
      err = CF_CUDA (Device, cudaFree (nullptr));
    if (err != cudaSuccess)
      return err;
  }
  if (const cudaError_t err = cuda_pools_.open (cuda_))
    return err;
  GST_OBJECT_LOCK (element);
  pinned_allocator_ = cf_pinned_allocator_new (cuda_);
  GST_OBJECT_UNLOCK (element);
  return cudaSuccess;
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
  GstAllocator *pinned_allocator = std::exchange (pinned_allocator_, nullptr);
  const CudaDevice dropped = std::exchange (cuda_, CudaDevice ());
  GST_OBJECT_UNLOCK (element);
  gst_clear_object (&pinned_allocator);
  cuda_pools_.close ();
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
  const cudaError_t err = open_on_device (element);
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

/* ---- pools ---- */

GstBufferPool *
ElementDevice::new_pool (GstCaps * caps, guint count, bool for_input,
    guint * size) const
{
#ifdef CF_HAVE_CUDA
  GstBufferPool *pool = caps_in_cuda_memory (caps) ?
      cuda_pools_.new_pool (caps, count, for_input) :
      cf_pinned_video_pool_new (caps, count, pinned_allocator_);
#else
  GstBufferPool *pool = nullptr;        /* no device memory without CUDA */
  (void) caps, (void) count, (void) for_input;
#endif
  if (!pool)
    return nullptr;
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, nullptr, size, nullptr, nullptr);
  gst_structure_free (config);
  return pool;
}

/* Downstream's pool where it holds CUDA memory of our context, configured
 * for `caps` with at least `min` buffers; else NULL. */
GstBufferPool *
ElementDevice::downstream_cuda_pool (GstQuery * query, GstCaps * caps,
    guint * size, guint * min, guint * max) const
{
  GstBufferPool *pool = nullptr;
  guint query_min = 0;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, size, &query_min, max);
  if (!pool)
    return nullptr;
  *min = MAX (*min, query_min);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, *size, *min, *max);
  if (!cuda_pools_.takes_downstream_pool (pool, config)) {
    gst_structure_free (config);
    gst_clear_object (&pool);
  } else if (!gst_buffer_pool_set_config (pool, config)) {
    gst_clear_object (&pool);
  }
  return pool;
}

/* Our own output pool: on the CUDA backend pinned host memory (downloads write
 * into it at bus speed) or CUDA memory of our context, on the CPU plain video
 * buffers, so that every output buffer has the caps' full size. */
GstBufferPool *
ElementDevice::own_output_pool (GstCaps * caps, guint min, guint * size) const
{
  if (on_device ())
    return new_pool (caps, min, false, size);
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, caps))
    return nullptr;
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  *size = GST_VIDEO_INFO_SIZE (&info);
  gst_buffer_pool_config_set_params (config, caps, *size, min, 0);
  if (!gst_buffer_pool_set_config (pool, config))
    gst_clear_object (&pool);
  return pool;
}

/* Whether downstream's pool, the query's first, has buffers enough for the
 * frames in flight we hold beside the `min` downstream keeps: with fewer, a
 * frame would wait for a buffer that never comes back. */
static bool
holds_frames_in_flight (GstElement * element, GstQuery * query, guint depth)
{
  guint min = 0, max = 0;
  gst_query_parse_nth_allocation_pool (query, 0, nullptr, nullptr, &min, &max);
  if (max == 0 || (max >= min && max - min >= depth))
    return true;
  GST_DEBUG_OBJECT (element, "declining downstream's pool: %u buffers at most, "
      "downstream keeps %u and %u frames in flight need theirs", max, min,
      depth);
  return false;
}

bool
ElementDevice::choose_output_pool (GstElement * element, GstQuery * query,
    GstCaps * caps, guint depth) const
{
  const bool downstream = gst_query_get_n_allocation_pools (query) > 0;
  const bool enough = downstream &&
      holds_frames_in_flight (element, query, depth);
  /* On the CPU, downstream's pool as GstBaseTransform takes it; on the CUDA
   * backend one of CUDA memory of our context (for host frames, ours is the
   * faster: pinned). */
  if (enough && !on_device ())
    return true;
  /* We hold frames-in-flight output buffers, downstream may hold some. */
  guint size = 0, min = depth, max = 0;
  GstBufferPool *pool = enough && caps_in_cuda_memory (caps) ?
      downstream_cuda_pool (query, caps, &size, &min, &max) : nullptr;
  if (!pool) {
    pool = own_output_pool (caps, min, &size);
    max = 0;
  }
  if (!pool)
    return false;
  if (downstream)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  if (on_device () && !caps_in_cuda_memory (caps)) {
    /* GstBaseTransform gives the pool the query's first allocator. */
    if (gst_query_get_n_allocation_params (query) > 0)
      gst_query_set_nth_allocation_param (query, 0, pinned_allocator_, nullptr);
    else
      gst_query_add_allocation_param (query, pinned_allocator_, nullptr);
  }
  return true;
}

/* Activates `pool`; where it cannot allocate its buffers, says why. */
FrameError
ElementDevice::activate (GstBufferPool * pool, GstCaps * caps) const
{
  if (gst_buffer_pool_set_active (pool, TRUE))
    return {};
  return FrameError::failed ("Allocating output buffers",
      caps_in_cuda_memory (caps) ? cudaErrorMemoryAllocation :
      take_pinned_error ());
}

cudaError_t
ElementDevice::take_pinned_error () const
{
#ifdef CF_HAVE_CUDA
  return cf_pinned_allocator_take_error (pinned_allocator_);
#else
  return cudaSuccess;
#endif
}

gsize
ElementDevice::pinned_pool_bytes () const
{
#ifdef CF_HAVE_CUDA
  return cf_pinned_allocator_live_bytes (pinned_allocator_);
#else
  return 0;
#endif
}

/* One buffer of the active `pool`, tried with `fits` and given back. */
static FrameError
try_first_buffer (GstBufferPool * pool,
    const ElementDevice::OutputCheck & fits)
{
  GstBuffer *buffer = nullptr;
  if (gst_buffer_pool_acquire_buffer (pool, &buffer, nullptr) != GST_FLOW_OK)
    return FrameError::failed ("Taking a buffer of the output pool");
  const FrameError err = fits (buffer);
  gst_buffer_unref (buffer);
  return err;
}

FrameError
ElementDevice::activate_output_pool (GstElement * element, GstQuery * query,
    GstCaps * caps, guint depth, const OutputCheck & fits) const
{
  GstBufferPool *pool = nullptr;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, nullptr, nullptr,
        nullptr);
  if (!pool)
    return {};                  /* buffers of the allocator, one by one */
  FrameError err = activate (pool, caps);
  const FrameError unfit = err ? FrameError () : try_first_buffer (pool, fits);
  if (unfit) {
    GST_DEBUG_OBJECT (element, "declining the output pool %" GST_PTR_FORMAT
        ": %s (%s); using one of our own", pool, unfit.describe ().c_str (),
        unfit.detail.c_str ());
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    guint size = 0;
    pool = own_output_pool (caps, depth, &size);
    if (!pool)
      return FrameError::failed ("Configuring an output pool of our own");
    gst_query_set_nth_allocation_pool (query, 0, pool, size, depth, 0);
    err = activate (pool, caps);
    if (!err)
      err = try_first_buffer (pool, fits);
  }
  gst_object_unref (pool);
  return err;
}
