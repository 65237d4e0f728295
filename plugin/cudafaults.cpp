// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cudafaults.h"

#include <gst/gst.h>

/* Its logs name no element: the faults armed are the process's. */
GST_DEBUG_CATEGORY_STATIC (cf_faults_debug);
#define GST_CAT_DEFAULT cf_faults_debug

#define FAULT_ENV "GST_CUDAFILTERS_FAULT"
#define DEVICE_LOST "device-lost"

std::atomic<bool> cf_faults_armed { false };

namespace {

struct PointInfo
{
  const char *name;
  cudaError_t default_error;
};

/* In the order of CfFaultPoint. */
const PointInfo kPoints[] = {
  {"device", cudaErrorNoDevice},
  {"alloc", cudaErrorMemoryAllocation},
  {"pinned", cudaErrorMemoryAllocation},
  {"upload", cudaErrorLaunchFailure},
  {"kernel", cudaErrorLaunchFailure},
  {"download", cudaErrorLaunchFailure},
  {"sync", cudaErrorLaunchFailure},
  {"free", cudaErrorInvalidValue},
};
constexpr int kPointCount = G_N_ELEMENTS (kPoints);

/* Written by cf_faults_arm_from_env before it sets cf_faults_armed. */
struct FaultPlan
{
  bool device_lost = false;
  CfFaultPoint point = CfFaultPoint::Device;
  guint64 nth = 0;              /* call at `point`, or first lost frame */
  cudaError_t error = cudaSuccess;
  int driver_version = -1;      /* driver:VERSION; -1: the installed driver */
};
FaultPlan plan;
std::atomic<guint64> calls[kPointCount];
std::atomic<guint64> frames;
std::atomic<int> injected;     /* faults injected since arming */

std::atomic<int> live[CF_CUDA_RESOURCE_KINDS];

/* A cudaError_t by name or number; FALSE if it is neither. */
gboolean
parse_error (const char *text, cudaError_t * error)
{
  guint64 number;
  if (g_ascii_string_to_unsigned (text, 10, 1, G_MAXINT, &number, nullptr)) {
    *error = static_cast<cudaError_t> (number);
    return TRUE;
  }
  /* No error code is above cudaErrorUnknown (999). */
  for (int code = 1; code <= cudaErrorUnknown; code++) {
    const auto err = static_cast<cudaError_t> (code);
    if (g_str_equal (cudaGetErrorName (err), text)) {
      *error = err;
      return TRUE;
    }
  }
  return FALSE;
}

/* Reads "driver:VERSION[:ERROR]" into `parsed`: the device point's first call
 * fails, by default as with a driver older than the runtime. */
gboolean
parse_driver_plan (gchar ** fields, guint n_fields, FaultPlan & parsed)
{
  guint64 version;
  if ((n_fields != 2 && n_fields != 3) || !g_ascii_string_to_unsigned
      (fields[1], 10, 0, G_MAXINT, &version, nullptr))
    return FALSE;
  parsed.driver_version = static_cast<int> (version);
  parsed.point = CfFaultPoint::Device;
  parsed.nth = 1;
  parsed.error = cudaErrorInsufficientDriver;
  return n_fields == 2 || parse_error (fields[2], &parsed.error);
}

/* Reads "POINT:N[:ERROR]", "device-lost:N[:ERROR]" or "driver:VERSION[:ERROR]"
 * into `parsed`. */
gboolean
parse_plan (const char *spec, FaultPlan & parsed)
{
  gchar **fields = g_strsplit (spec, ":", -1);
  const guint n_fields = g_strv_length (fields);
  gboolean ok = FALSE;
  if (g_str_equal (fields[0], "driver")) {
    ok = parse_driver_plan (fields, n_fields, parsed);
  } else if (n_fields == 2 || n_fields == 3) {
    parsed.device_lost = g_str_equal (fields[0], DEVICE_LOST);
    if (parsed.device_lost) {
      parsed.error = cudaErrorDevicesUnavailable;
      ok = TRUE;
    }
    for (int p = 0; p < kPointCount; p++) {
      if (g_str_equal (fields[0], kPoints[p].name)) {
        parsed.point = static_cast<CfFaultPoint> (p);
        parsed.error = kPoints[p].default_error;
        ok = TRUE;
      }
    }
    ok = ok && g_ascii_string_to_unsigned (fields[1], 10, 1, G_MAXUINT64,
        &parsed.nth, nullptr);
    ok = ok && (n_fields == 2 || parse_error (fields[2], &parsed.error));
  }
  g_strfreev (fields);
  return ok;
}

const char *
plan_point_name (void)
{
  return plan.device_lost ? DEVICE_LOST :
      kPoints[static_cast<int> (plan.point)].name;
}

}  // namespace

void
cf_faults_arm_from_env (void)
{
  static gsize debug_initialised;
  if (g_once_init_enter (&debug_initialised)) {
    GST_DEBUG_CATEGORY_INIT (cf_faults_debug, "cudafaults", 0,
        "cudafilters fault injection (a testing hook)");
    g_once_init_leave (&debug_initialised, 1);
  }

  cf_faults_armed.store (false);
  for (auto & count : calls)
    count.store (0);
  frames.store (0);
  injected.store (0);
  const char *spec = g_getenv (FAULT_ENV);
  if (!spec || !*spec)
    return;
  FaultPlan parsed;
  if (!parse_plan (spec, parsed)) {
    g_warning (FAULT_ENV "=%s: expected POINT:N[:ERROR], " DEVICE_LOST
        ":N[:ERROR] or driver:VERSION[:ERROR], POINT one of device, alloc, pinned, "
        "upload, kernel, download, sync, free, ERROR a cudaError_t name or "
        "number, VERSION a CUDA version as 12080; not armed", spec);
    return;
  }
  plan = parsed;
  GST_WARNING ("armed: %s, %s %" G_GUINT64_FORMAT ", with %s",
      plan_point_name (), plan.device_lost ? "every call from frame" : "call",
      plan.nth, cudaGetErrorName (plan.error));
  cf_faults_armed.store (true, std::memory_order_release);
}

void
cf_faults_count_frame (void)
{
  frames.fetch_add (1);
}

bool
cf_faults_driver_version (int *version)
{
  if (!cf_faults_armed.load (std::memory_order_acquire) ||
      plan.driver_version < 0)
    return false;
  *version = plan.driver_version;
  return true;
}

cudaError_t
cf_faults_injected (CfFaultPoint point)
{
  if (!cf_faults_armed.load (std::memory_order_acquire))
    return cudaSuccess;
  const int index = static_cast<int> (point);
  const guint64 call = calls[index].fetch_add (1) + 1;
  const bool fails = plan.device_lost ? frames.load () >= plan.nth :
      point == plan.point && call == plan.nth;
  if (!fails)
    return cudaSuccess;
  injected.fetch_add (1);
  GST_INFO ("%s: %s call %" G_GUINT64_FORMAT " fails with %s",
      plan_point_name (), kPoints[index].name, call,
      cudaGetErrorName (plan.error));
  return plan.error;
}

/* ---- resources ---- */

static std::atomic<int> &
live_count (CfCudaResource kind)
{
  return live[static_cast<int> (kind)];
}

/* Counts the resource that call() creates, if it does. */
template <typename Call>
static cudaError_t
create (CfFaultPoint point, CfCudaResource kind, Call && call)
{
  const cudaError_t err = cf_faults_call (point, call);
  if (err == cudaSuccess)
    live_count (kind).fetch_add (1);
  return err;
}

/* call() gives the resource back, whatever it returns. */
template <typename Call>
static cudaError_t
destroy (CfCudaResource kind, Call && call)
{
  live_count (kind).fetch_sub (1);
  return cf_faults_call (CfFaultPoint::Free, call);
}

cudaError_t
cf_cuda_malloc (void **ptr, size_t bytes)
{
  return create (CfFaultPoint::Alloc, CfCudaResource::DeviceMemory, [&] {
        return cudaMalloc (ptr, bytes);
      });
}

cudaError_t
cf_cuda_malloc_zeroed (void **ptr, size_t bytes, cudaStream_t stream)
{
  const cudaError_t err = cf_cuda_malloc (ptr, bytes);
  if (err != cudaSuccess)
    return err;
  return CF_CUDA (Alloc, cudaMemsetAsync (*ptr, 0, bytes, stream));
}

cudaError_t
cf_cuda_free (void *ptr)
{
  return destroy (CfCudaResource::DeviceMemory, [&] {
        return cudaFree (ptr);
      });
}

cudaError_t
cf_cuda_host_alloc (void **ptr, size_t bytes, unsigned int flags)
{
  return create (CfFaultPoint::Pinned, CfCudaResource::PinnedMemory, [&] {
        return cudaHostAlloc (ptr, bytes, flags);
      });
}

cudaError_t
cf_cuda_free_host (void *ptr)
{
  return destroy (CfCudaResource::PinnedMemory, [&] {
        return cudaFreeHost (ptr);
      });
}

cudaError_t
cf_cuda_host_register (void *ptr, size_t bytes)
{
  const cudaError_t err = create (CfFaultPoint::Pinned,
      CfCudaResource::RegisteredHostMemory, [&] {
        return cudaHostRegister (ptr, bytes, cudaHostRegisterPortable);
      });
  /* A refusal is an answer, not a failure: it must not stay behind as the
   * thread's last error for the next kernel launch's check to find. */
  if (err != cudaSuccess)
    cudaGetLastError ();
  return err;
}

cudaError_t
cf_cuda_host_unregister (void *ptr)
{
  return destroy (CfCudaResource::RegisteredHostMemory, [&] {
        return cudaHostUnregister (ptr);
      });
}

cudaError_t
cf_cuda_stream_create (cudaStream_t * stream, unsigned int flags)
{
  return create (CfFaultPoint::Alloc, CfCudaResource::Stream, [&] {
        return cudaStreamCreateWithFlags (stream, flags);
      });
}

cudaError_t
cf_cuda_stream_destroy (cudaStream_t stream)
{
  return destroy (CfCudaResource::Stream, [&] {
        return cudaStreamDestroy (stream);
      });
}

cudaError_t
cf_cuda_event_create (cudaEvent_t * event, unsigned int flags)
{
  return create (CfFaultPoint::Alloc, CfCudaResource::Event, [&] {
        return cudaEventCreateWithFlags (event, flags);
      });
}

cudaError_t
cf_cuda_event_destroy (cudaEvent_t event)
{
  return destroy (CfCudaResource::Event, [&] {
        return cudaEventDestroy (event);
      });
}

int
cf_live_cuda_resources (CfCudaResource kind)
{
  return live_count (kind).load ();
}

int
cf_faults_injected_count (void)
{
  return injected.load ();
}
