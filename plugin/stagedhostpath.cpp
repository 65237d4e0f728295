// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Frames in host memory on the CUDA backend (framepaths.h): each frame in
 * flight with a device copy of its own, the input uploaded into it and the
 * output downloaded from it on the frame's stream. Built with CUDA only.
 *
 * Frames of our pinned pool go up by DMA. So does foreign host memory pinned
 * where it is (cudaHostRegister), for upstream elements that recycle their
 * own buffers and ignore our pinned pool: cameras (v4l2src's mmap'd pool),
 * software decoders, applications' appsrc pools. Other foreign frames are
 * copied into a pinned buffer of the slot by several threads, each piece's DMA
 * queued as soon as it is there (hostcopy.h).
 *
 * Pinning costs milliseconds, a copy through pinned staging costs one host
 * copy per frame: memory is registered the second time a frame in it comes
 * (upstream recycles it), never the first (a source that allocates every frame
 * anew would pay the pinning for nothing). The registration is kept on the
 * memory (GstMiniObject qdata of the memory that owns the bytes) and undone
 * when that memory is freed, which cannot happen while a frame in it is in
 * flight: the element holds the buffer until its work is done. Registrations
 * are portable (every context of every device may use them), so elements of
 * several contexts share them. */

#include "framepaths.h"

#include <cstring>
#include <mutex>

#include "cfpinnedallocator.h"
#include "cudafaults.h"
#include "cudaframeslots.h"
#include "formatlayout.h"
#include "hostcopy.h"

/* Its logs name no element: a registration is the memory's, shared by every
 * element that meets it, and ends when the memory is freed, anywhere. */
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
    const gsize span = cf::plane_span (&frame.info, p,
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

/* Whether the DMA engines can read the mapped frame where it is: our pinned
 * pool's memory, or foreign memory registered now or before. The first time a
 * memory comes, only marks it as seen; the second time registers it in
 * `device`'s context (current: a CudaContextScope). A registration that fails
 * (memory the driver cannot pin, e.g. device mmaps; the fault hook's pinned
 * point) is not an error: that memory is staged from then on. */
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
}  // namespace

class StagedHostFramePath : public FramePath
{
public:
  FrameError map (GstBuffer * buffer, const GstVideoInfo & info,
      GstMapFlags access, GstVideoFrame * frame) override
  {
    return cf::map_video_frame (buffer, info, access, frame);
  }

  ~StagedHostFramePath () override { free_per_slot (); }

  cudaError_t allocate_per_slot (const CudaDevice & device, const GstVideoInfo & info,
      const std::vector<cudaStream_t> & slot_streams) override;
  cudaError_t free_per_slot () override;

  FramePlanes planes (int slot, const GstVideoFrame & frame) const override;
  FrameError bring_in (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots) override;
  FrameError send_out (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots) override;
  FrameError send_back (int slot, const GstVideoFrame & frame,
      const std::vector<PlaneArea> & edited, CudaFrameSlots & slots) override;

private:
  cudaError_t upload_through_pinned (int slot, const GstVideoFrame & frame,
      cudaStream_t stream);

  CudaDevice device_;
  GstVideoInfo info_ {};
  std::vector<guint8 *> staging_;
  /* Per slot, laid out as staging_, allocated when the first frame needs it. */
  std::vector<guint8 *> pinned_staging_;
};

cudaError_t
StagedHostFramePath::allocate_per_slot (const CudaDevice & device,
    const GstVideoInfo & info, const std::vector<cudaStream_t> & slot_streams)
{
  cudaError_t err = free_per_slot ();
  if (err != cudaSuccess)
    return err;
  device_ = device;
  info_ = info;
  const size_t frame_bytes = MAX (GST_VIDEO_INFO_SIZE (&info), 1);
  for (cudaStream_t stream : slot_streams) {
    void *frame = nullptr;
    /* Zeroed: row padding no copy writes then moves on defined, as
     * compute-sanitizer's initcheck demands. */
    err = cf_cuda_malloc_zeroed (&frame, frame_bytes, stream);
    if (frame) {
      staging_.push_back (static_cast<guint8 *> (frame));
      device_bytes_ += frame_bytes;
    }
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

cudaError_t
StagedHostFramePath::free_per_slot ()
{
  if (staging_.empty () && pinned_staging_.empty ())
    return cudaSuccess;
  const CudaContextScope scope (device_, CudaContextScope::kTeardown);
  cudaError_t first = scope.error ();
  /* Without its context nothing can be freed: the pointers are given up. */
  if (first == cudaSuccess) {
    for (guint8 *frame : staging_) {
      const cudaError_t err = cf_cuda_free (frame);
      if (first == cudaSuccess)
        first = err;
    }
    for (guint8 *frame : pinned_staging_) {
      const cudaError_t err = cf_cuda_free_host (frame);
      if (first == cudaSuccess)
        first = err;
    }
  }
  staging_.clear ();
  pinned_staging_.clear ();
  device_bytes_ = 0;
  pinned_bytes_ = 0;
  return first;
}

FramePlanes
StagedHostFramePath::planes (int slot, const GstVideoFrame &) const
{
  FramePlanes planes;
  planes.info = &info_;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info_); p++) {
    planes.data[p] = staging_[slot] + GST_VIDEO_INFO_PLANE_OFFSET (&info_, p);
    planes.stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info_, p);
  }
  return planes;
}

FrameError
StagedHostFramePath::bring_in (int slot, const GstVideoFrame & frame,
    CudaFrameSlots & slots)
{
  cudaStream_t stream = slots.stream (slot);
  /* A DMA from pageable memory makes the driver copy it through a small
   * pinned buffer of its own on one thread, and return only when done. */
  if (!host_frame_reachable_by_dma (frame, device_))
    return FrameError::check ("Uploading a frame",
        upload_through_pinned (slot, frame, stream));
  return FrameError::check ("Uploading a frame",
      cf::copy_frame_samples (planes (slot, frame), FramePlanes::of (frame),
          cudaMemcpyHostToDevice, stream));
}

cudaError_t
StagedHostFramePath::upload_through_pinned (int slot,
    const GstVideoFrame & mapped, cudaStream_t stream)
{
  const gsize frame_bytes = MAX (GST_VIDEO_INFO_SIZE (&info_), 1);
  while (pinned_staging_.size () < staging_.size ()) {
    void *frame = nullptr;
    const cudaError_t err = cf_cuda_host_alloc (&frame, frame_bytes,
        cudaHostAllocPortable);
    if (err != cudaSuccess)
      return err;
    /* Row padding, which no copy writes, goes up defined. */
    memset (frame, 0, frame_bytes);
    pinned_staging_.push_back (static_cast<guint8 *> (frame));
    pinned_bytes_ += frame_bytes;
  }

  guint8 *pinned = pinned_staging_[slot];
  std::vector<cf::RowCopy> planes;
  gsize frame_sample_bytes = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info_); p++) {
    cf::RowCopy plane;
    plane.src = static_cast<const guint8 *> (GST_VIDEO_FRAME_PLANE_DATA
        (&mapped, p));
    plane.src_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&mapped, p);
    plane.dst = pinned + GST_VIDEO_INFO_PLANE_OFFSET (&info_, p);
    plane.dst_stride = GST_VIDEO_INFO_PLANE_STRIDE (&info_, p);
    plane.row_bytes = cf::plane_row_bytes (&info_, p);
    plane.rows = cf::plane_rows (&info_, p);
    planes.push_back (plane);
    frame_sample_bytes += plane.bytes ();
  }
  const std::vector<cf::RowCopy> pieces = cf::split_rows (planes,
      cf::staging_piece_bytes (frame_sample_bytes));

  guint8 *device_frame = staging_[slot];
  cudaError_t err = cudaSuccess;
  /* Its result says only what err says: a piece's DMA failed. */
  (void) cf::copy_rows_in_parallel (pieces, pieces.size () - 1, [&](gsize i) {
        const cf::RowCopy & piece = pieces[i];
        err = CF_CUDA (Upload, cudaMemcpyAsync (device_frame + (piece.dst -
                    pinned), piece.dst, piece.dst_span (),
                cudaMemcpyHostToDevice, stream));
        return err == cudaSuccess;
      });
  return err;
}

FrameError
StagedHostFramePath::send_out (int slot, const GstVideoFrame & frame,
    CudaFrameSlots & slots)
{
  return FrameError::check ("Downloading the frame",
      cf::copy_frame_samples (FramePlanes::of (frame), planes (slot, frame),
          cudaMemcpyDeviceToHost, slots.stream (slot)));
}

/* The rest of the device copy is the frame as it was uploaded, or what the
 * kernels wrote outside the areas they report, which is not the frame's: only
 * those areas come back. */
FrameError
StagedHostFramePath::send_back (int slot, const GstVideoFrame & frame,
    const std::vector<PlaneArea> & edited, CudaFrameSlots & slots)
{
  const FramePlanes host = FramePlanes::of (frame);
  const FramePlanes device = planes (slot, frame);
  for (const PlaneArea & area : edited)
    if (const cudaError_t err = cf::copy_frame_area (host, device, area,
            cudaMemcpyDeviceToHost, slots.stream (slot)))
      return FrameError::failed ("Downloading the edited areas", err);
  return {};
}

std::unique_ptr<FramePath>
cf::make_staged_host_frame_path ()
{
  return std::make_unique<StagedHostFramePath> ();
}
