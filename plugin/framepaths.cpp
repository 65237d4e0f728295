// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framepaths.h"

#include <cstring>
#include <string>

#include "formatlayout.h"
#include "cudafaults.h"
#include "hostcopy.h"
#include "hostregistration.h"

cudaError_t
FramePath::configure (const CudaDevice &, const GstVideoInfo &,
    const std::vector<cudaStream_t> &)
{
  return cudaSuccess;
}

cudaError_t
FramePath::release ()
{
  return cudaSuccess;
}

FrameError
FramePath::bring_in (int, const GstVideoFrame &, CudaFrameSlots &)
{
  return {};
}

FrameError
FramePath::prepare_out (int, const GstVideoFrame &, CudaFrameSlots &)
{
  return {};
}

FrameError
FramePath::send_out (int, const GstVideoFrame &, CudaFrameSlots &)
{
  return {};
}

FrameError
FramePath::order_after (int, const GstVideoFrame &, CudaFrameSlots &,
    bool *ordered)
{
  *ordered = false;
  return {};
}

/* ---- host memory ---- */

/* A frame refused where its GstVideoMeta describes another frame than `info`:
 * gst_video_frame_map() answers another format or a smaller frame with a
 * critical, and a larger one would not match the caps. */
static FrameError
check_video_meta (GstBuffer * buffer, const GstVideoInfo & info,
    const char *side)
{
  const GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  if (!meta || (meta->format == GST_VIDEO_INFO_FORMAT (&info) &&
          meta->width == (guint) GST_VIDEO_INFO_WIDTH (&info) &&
          meta->height == (guint) GST_VIDEO_INFO_HEIGHT (&info) &&
          meta->n_planes == GST_VIDEO_INFO_N_PLANES (&info)))
    return {};
  gchar *detail = g_strdup_printf ("GstVideoMeta of a %u x %u %s frame (%u "
      "planes), caps of %d x %d %s", meta->width, meta->height,
      gst_video_format_to_string (meta->format), meta->n_planes,
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
      GST_VIDEO_INFO_NAME (&info));
  FrameError err = FrameError::refused (std::string (side) +
      " frame of another format or size than its caps", detail);
  g_free (detail);
  return err;
}

/* Where a plane of a mapped frame does not lie in the memory mapped for it,
 * rows top-down and apart, which and why; empty where every plane does:
 * gst_video_frame_map() takes a GstVideoMeta's offsets and strides on
 * trust. */
static std::string
plane_outside_memory (const GstVideoFrame & frame)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    const GstMapInfo & map = frame.meta ? frame.map[p] : frame.map[0];
    const gsize offset = static_cast<const guint8 *>
        (GST_VIDEO_FRAME_PLANE_DATA (&frame, p)) - map.data;
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    const gsize row_bytes = cf_plane_row_bytes (&frame.info, p);
    const gsize rows = cf_plane_rows (&frame.info, p);
    gchar *why = nullptr;
    if (stride < 0 || (rows > 1 && (gsize) stride < row_bytes)) {
      why = g_strdup_printf ("plane %u: rows of %" G_GSIZE_FORMAT " bytes, %d "
          "bytes apart", p, row_bytes, stride);
    } else {
      const gsize span = cf_plane_span (&frame.info, p, stride);
      if (offset > map.size || span > map.size - offset)
        why = g_strdup_printf ("plane %u: bytes %" G_GSIZE_FORMAT " to %"
            G_GSIZE_FORMAT " of a memory of %" G_GSIZE_FORMAT " bytes", p,
            offset, offset + span, map.size);
    }
    if (why) {
      std::string text = why;
      g_free (why);
      return text;
    }
  }
  return {};
}

FrameError
map_video_frame (GstBuffer * buffer, const GstVideoInfo & info,
    GstMapFlags flags, GstVideoFrame * frame)
{
  frame->buffer = nullptr;
  const std::string side = (flags & GST_MAP_WRITE) ? "Output" : "Input";
  if (FrameError err = check_video_meta (buffer, info, side.c_str ()))
    return err;
  if (!gst_video_frame_map (frame, &info, buffer, flags)) {
    frame->buffer = nullptr;
    gchar *detail = g_strdup_printf ("buffer of %" G_GSIZE_FORMAT " bytes for "
        "a %d x %d %s frame", gst_buffer_get_size (buffer),
        GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
        GST_VIDEO_INFO_NAME (&info));
    FrameError err = FrameError::refused (side + " frame that could not be "
        "mapped", detail);
    g_free (detail);
    return err;
  }
  const std::string outside = plane_outside_memory (*frame);
  if (outside.empty ())
    return {};
  gst_video_frame_unmap (frame);
  frame->buffer = nullptr;
  return FrameError::refused (side + " frame whose planes do not lie in its "
      "memory", outside);
}

/* Frames in host memory where they are: the CPU backend's kernels read and
 * write them directly. */
class HostFramePath : public FramePath
{
public:
  FrameError map (GstBuffer * buffer, const GstVideoInfo & info,
      GstMapFlags access, GstVideoFrame * frame) override
  {
    return map_video_frame (buffer, info, access, frame);
  }

  FramePlanes planes (int, const GstVideoFrame & frame) const override
  {
    return FramePlanes::of (frame);
  }
};

/* Frames in host memory on the CUDA backend, each frame in flight with a device
 * copy of its own (staging). */
class StagedHostFramePath : public HostFramePath
{
public:
  ~StagedHostFramePath () override { release (); }

  cudaError_t configure (const CudaDevice & device, const GstVideoInfo & info,
      const std::vector<cudaStream_t> & slot_streams) override;
  cudaError_t release () override;

  FramePlanes planes (int slot, const GstVideoFrame & frame) const override;
  FrameError bring_in (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots) override;
  FrameError send_out (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots) override;

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
StagedHostFramePath::configure (const CudaDevice & device,
    const GstVideoInfo & info, const std::vector<cudaStream_t> & slot_streams)
{
  cudaError_t err = release ();
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
StagedHostFramePath::release ()
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
      copy_frame_samples (planes (slot, frame), FramePlanes::of (frame),
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
  std::vector<RowCopy> planes;
  gsize frame_sample_bytes = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info_); p++) {
    RowCopy plane;
    plane.src = static_cast<const guint8 *> (GST_VIDEO_FRAME_PLANE_DATA
        (&mapped, p));
    plane.src_stride = GST_VIDEO_FRAME_PLANE_STRIDE (&mapped, p);
    plane.dst = pinned + GST_VIDEO_INFO_PLANE_OFFSET (&info_, p);
    plane.dst_stride = GST_VIDEO_INFO_PLANE_STRIDE (&info_, p);
    plane.row_bytes = cf_plane_row_bytes (&info_, p);
    plane.rows = cf_plane_rows (&info_, p);
    planes.push_back (plane);
    frame_sample_bytes += plane.bytes ();
  }
  const std::vector<RowCopy> pieces = split_rows (planes,
      staging_piece_bytes (frame_sample_bytes));

  guint8 *device_frame = staging_[slot];
  cudaError_t err = cudaSuccess;
  /* Its result says only what err says: a piece's DMA failed. */
  (void) copy_rows_in_parallel (pieces, pieces.size () - 1, [&](gsize i) {
        const RowCopy & piece = pieces[i];
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
      copy_frame_samples (FramePlanes::of (frame), planes (slot, frame),
          cudaMemcpyDeviceToHost, slots.stream (slot)));
}

/* ---- no frame ---- */

class NoFramePath : public FramePath
{
public:
  FrameError map (GstBuffer *, const GstVideoInfo &, GstMapFlags,
      GstVideoFrame * frame) override
  {
    frame->buffer = nullptr;
    return {};
  }

  FramePlanes planes (int, const GstVideoFrame &) const override
  {
    return {};
  }
};

std::unique_ptr<FramePath>
make_host_frame_path (bool cuda_backend)
{
  if (cuda_backend)
    return std::make_unique<StagedHostFramePath> ();
  return std::make_unique<HostFramePath> ();
}

std::unique_ptr<FramePath>
make_no_frame_path ()
{
  return std::make_unique<NoFramePath> ();
}
