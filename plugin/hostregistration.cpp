// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "hostregistration.h"

#include <mutex>

#include "cfpinnedallocator.h"
#include "formatlayout.h"
#include "cudafaults.h"

GST_DEBUG_CATEGORY_STATIC (cf_registration_debug);
#define GST_CAT_DEFAULT cf_registration_debug

namespace {

/* What we know of one memory that owns bytes. */
struct Registration
{
  enum State { kSeen, kRegistered, kRefused } state = kSeen;
  CudaDevice device;            /* whose context registered it */
  guint8 *base = nullptr;
  gsize size = 0;
};

/* Two elements may meet one memory (a tee): one of them registers it. */
std::mutex registry_lock;

GQuark
registration_quark (void)
{
  static const GQuark quark = [] {
    GST_DEBUG_CATEGORY_INIT (cf_registration_debug, "cudahostregistration", 0,
        "cudafilters: foreign host memory pinned in place");
    return g_quark_from_static_string ("cudafilters-host-registration");
  } ();
  return quark;
}

/* The memory is being freed: nothing reads it any more. */
void
forget (gpointer data)
{
  auto *registration = static_cast<Registration *> (data);
  if (registration->state == Registration::kRegistered) {
    const CudaContextScope scope (registration->device,
        CudaContextScope::kTeardown);
    const cudaError_t err = scope.error () != cudaSuccess ? scope.error () :
        cf_cuda_host_unregister (registration->base);
    if (err != cudaSuccess)
      GST_WARNING ("unregistering %p: %s", registration->base,
          cudaGetErrorName (err));
    else
      GST_DEBUG ("unregistered %" G_GSIZE_FORMAT " bytes at %p",
          registration->size, registration->base);
  }
  delete registration;
}

/* Whether every plane of the frame lies in the registered bytes. */
bool
frame_inside (const GstVideoFrame & frame, const Registration & registration)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    const auto *first = static_cast<const guint8 *>
        (GST_VIDEO_FRAME_PLANE_DATA (&frame, p));
    const gsize span = cf_plane_span (&frame.info, p,
        GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p));
    if (first < registration.base ||
        (gsize) (first - registration.base) > registration.size ||
        span > registration.size - (gsize) (first - registration.base))
      return false;
  }
  return true;
}

/* Pins the bytes `owner` holds (mapped: system memory stays where it is until
 * freed). */
void
register_memory (GstMemory * owner, Registration & registration,
    const CudaDevice & device)
{
  GstMapInfo map;
  if (!gst_memory_map (owner, &map, GST_MAP_READ)) {
    registration.state = Registration::kRefused;
    return;
  }
  const cudaError_t err = cf_cuda_host_register (map.data, map.size);
  gst_memory_unmap (owner, &map);
  if (err != cudaSuccess) {
    GST_INFO ("%" G_GSIZE_FORMAT " bytes at %p not pinned (%s): staged",
        map.size, map.data, cudaGetErrorName (err));
    registration.state = Registration::kRefused;
    return;
  }
  GST_DEBUG ("pinned %" G_GSIZE_FORMAT " bytes at %p in place", map.size,
      map.data);
  registration.state = Registration::kRegistered;
  registration.device = device;
  registration.base = map.data;
  registration.size = map.size;
}

}  // namespace

bool
host_frame_reachable_by_dma (const GstVideoFrame & mapped,
    const CudaDevice & device)
{
  GstBuffer *buffer = mapped.buffer;
  if (cf_buffer_is_pinned (buffer))
    return true;
  /* One memory holds the whole frame (frame maps of several are copies). Only
   * system memory: it stays mapped where it is for its whole life, so a
   * registration cannot outlive the pages it pinned. */
  if (gst_buffer_n_memory (buffer) != 1)
    return false;
  GstMemory *owner = gst_buffer_peek_memory (buffer, 0);
  while (owner->parent)
    owner = owner->parent;
  if (!gst_memory_is_type (owner, GST_ALLOCATOR_SYSMEM))
    return false;

  const GQuark quark = registration_quark ();
  std::lock_guard < std::mutex > hold (registry_lock);
  auto *registration = static_cast<Registration *>
      (gst_mini_object_get_qdata (GST_MINI_OBJECT_CAST (owner), quark));
  if (!registration) {
    gst_mini_object_set_qdata (GST_MINI_OBJECT_CAST (owner), quark,
        new Registration (), forget);
    return false;
  }
  if (registration->state == Registration::kSeen)
    register_memory (owner, *registration, device);
  return registration->state == Registration::kRegistered &&
      frame_inside (mapped, *registration);
}
