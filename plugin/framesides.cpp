// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framesides.h"

#include <cstring>

#ifdef CF_HAVE_GST_CUDA
#include <gst/cuda/gstcudamemory.h>
#endif

#include "cfvideolayout.h"
#include "cudafaults.h"
#include "hostcopy.h"
#include "hostregistration.h"

FramePlanes
FramePlanes::of (const GstVideoFrame & frame)
{
  FramePlanes planes;
  planes.info = &frame.info;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    planes.data[p] = static_cast<guint8 *> (GST_VIDEO_FRAME_PLANE_DATA (&frame,
            p));
    planes.stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
  }
  return planes;
}

cf::Plane
FramePlanes::component (int component) const
{
  const guint plane = GST_VIDEO_INFO_COMP_PLANE (info, component);
  cf::Plane view;
  view.data = data[plane] + GST_VIDEO_INFO_COMP_POFFSET (info, component);
  view.width = GST_VIDEO_INFO_COMP_WIDTH (info, component);
  view.height = GST_VIDEO_INFO_COMP_HEIGHT (info, component);
  view.row_pitch = stride[plane];
  view.pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (info, component);
  return view;
}

cudaError_t
copy_frame_samples (const FramePlanes & dst, const FramePlanes & src,
    cudaMemcpyKind kind, cudaStream_t stream, guint planes)
{
  const CfFaultPoint point = kind == cudaMemcpyHostToDevice ?
      CfFaultPoint::Upload : kind == cudaMemcpyDeviceToHost ?
      CfFaultPoint::Download : CfFaultPoint::Kernel;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (src.info); p++) {
    if (!(planes & (1u << p)))
      continue;
    const int rows = cf_plane_rows (src.info, p);
    const size_t row_bytes = cf_plane_row_bytes (src.info, p);
    const cudaError_t err = cf_faults_call (point, [&] {
          /* Across the bus, equal pitches make one linear copy: the copy
           * engines move pitched 2D copies of short rows several times slower.
           * On the device, rows alone: the padding of CUDA memory's pitched
           * rows is nobody's data. */
          if (dst.stride[p] == src.stride[p] && kind != cudaMemcpyDeviceToDevice)
            return cudaMemcpyAsync (dst.data[p], src.data[p],
                cf_plane_span (src.info, p, src.stride[p]), kind, stream);
          return cudaMemcpy2DAsync (dst.data[p], dst.stride[p], src.data[p],
              src.stride[p], row_bytes, rows, kind, stream);
        });
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

FrameSide::~FrameSide ()
{
  release ();
}

cudaError_t
FrameSide::configure (const CudaDevice & device, bool on_device,
    const GstVideoInfo & info, const std::vector<cudaStream_t> & slot_streams)
{
  cudaError_t err = release ();
  if (err != cudaSuccess)
    return err;
  device_ = device;
  on_device_ = on_device;
  info_ = info;
  if (on_device)
    return cudaSuccess;
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
FrameSide::release ()
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

GstMapFlags
FrameSide::map_flags (GstMapFlags access) const
{
#ifdef CF_HAVE_GST_CUDA
  if (on_device_)
    return static_cast<GstMapFlags> (access | GST_MAP_CUDA);
#endif
  return access;
}

FramePlanes
FrameSide::device_planes (int slot, const GstVideoFrame & mapped) const
{
  if (on_device_)
    return FramePlanes::of (mapped);
  FramePlanes planes;
  planes.info = &info_;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info_); p++) {
    planes.data[p] = staging_[slot] + GST_VIDEO_INFO_PLANE_OFFSET (&info_, p);
    planes.stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info_, p);
  }
  return planes;
}

cudaError_t
FrameSide::upload (int slot, const GstVideoFrame & mapped,
    cudaStream_t stream)
{
  if (on_device_)
    return cudaSuccess;
  /* A DMA from pageable memory makes the driver copy it through a small
   * pinned buffer of its own on one thread, and return only when done. */
  if (!host_frame_reachable_by_dma (mapped, device_))
    return upload_through_pinned (slot, mapped, stream);
  return copy_frame_samples (device_planes (slot, mapped),
      FramePlanes::of (mapped), cudaMemcpyHostToDevice, stream);
}

cudaError_t
FrameSide::upload_through_pinned (int slot, const GstVideoFrame & mapped,
    cudaStream_t stream)
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
  copy_rows_in_parallel (pieces, pieces.size () - 1, [&](gsize i) {
        const RowCopy & piece = pieces[i];
        err = CF_CUDA (Upload, cudaMemcpyAsync (device_frame + (piece.dst -
                    pinned), piece.dst, piece.dst_span (),
                cudaMemcpyHostToDevice, stream));
        return err == cudaSuccess;
      });
  return err;
}

cudaError_t
FrameSide::download (int slot, const GstVideoFrame & mapped,
    cudaStream_t stream) const
{
  if (on_device_)
    return cudaSuccess;
  return copy_frame_samples (FramePlanes::of (mapped),
      device_planes (slot, mapped), cudaMemcpyDeviceToHost, stream);
}
