// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "frameplanes.h"

#include <cstring>

#include "cudafaults.h"
#include "formatlayout.h"

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
  const FormatLayout & format = FormatLayout::of (*info);
  const ComponentLayout & layout = format.component (component);
  cf::Plane view;
  view.data = data[layout.plane] + layout.offset;
  view.width = format.component_width (component, GST_VIDEO_INFO_WIDTH (info));
  view.height = format.component_height (component, cf::picture_height (info));
  view.row_pitch = stride[layout.plane];
  view.pixel_stride = layout.pixel_stride;
  return view;
}

PlaneArea
PlaneArea::whole (const GstVideoInfo & info, guint p)
{
  PlaneArea area;
  area.plane = p;
  area.row_bytes = cf::plane_row_bytes (&info, p);
  area.rows = cf::plane_rows (&info, p);
  return area;
}

#ifdef CF_HAVE_CUDA
cudaError_t
cf::copy_frame_area (const FramePlanes & dst, const FramePlanes & src,
    const PlaneArea & area, cudaMemcpyKind kind, cudaStream_t stream)
{
  const CfFaultPoint point = kind == cudaMemcpyHostToDevice ?
      CfFaultPoint::Upload : kind == cudaMemcpyDeviceToHost ?
      CfFaultPoint::Download : CfFaultPoint::Kernel;
  const guint p = area.plane;
  const gsize dst_pitch = (gsize) dst.stride[p] * area.row_step;
  const gsize src_pitch = (gsize) src.stride[p] * area.row_step;
  guint8 *to = dst.data[p] + (gsize) area.y * dst.stride[p] + area.x;
  const guint8 *from = src.data[p] + (gsize) area.y * src.stride[p] + area.x;
  /* Across the bus, equal pitches make one linear copy of rows whole (their
   * padding is nobody's data): the copy engines move pitched 2D copies of
   * short rows several times slower. On the device, and for part of a row or
   * a field's rows, rows alone: the padding of CUDA memory's pitched rows is
   * nobody's data, the rest of a row and the other field another area's. */
  const bool linear = dst_pitch == src_pitch && area.row_step == 1 &&
      area.x == 0 &&
      area.row_bytes == cf::plane_row_bytes (src.info, p) &&
      kind != cudaMemcpyDeviceToDevice;
  return cf_faults_call (point, [&] {
        if (linear)
          return cudaMemcpyAsync (to, from, area.rows ? (gsize) (area.rows -
                  1) * src_pitch + area.row_bytes : 0, kind, stream);
        return cudaMemcpy2DAsync (to, dst_pitch, from, src_pitch,
            area.row_bytes, area.rows, kind, stream);
      });
}

cudaError_t
cf::copy_frame_samples (const FramePlanes & dst, const FramePlanes & src,
    cudaMemcpyKind kind, cudaStream_t stream, guint planes)
{
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (src.info); p++) {
    if (!(planes & (1u << p)))
      continue;
    const cudaError_t err = copy_frame_area (dst, src,
        PlaneArea::whole (*src.info, p), kind, stream);
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}
#endif

cudaError_t
cf::copy_planes (const cf::Executor & exec, const FramePlanes & dst,
    const FramePlanes & src, guint planes)
{
  if (exec.on_device)
#ifdef CF_HAVE_CUDA
    return cf::copy_frame_samples (dst, src, cudaMemcpyDeviceToDevice,
        exec.stream, planes);
#else
    return cudaErrorNoDevice;   /* no device without CUDA */
#endif
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (src.info); p++) {
    if (!(planes & (1u << p)))
      continue;
    const gsize row_bytes = cf::plane_row_bytes (src.info, p);
    for (int y = 0; y < cf::plane_rows (src.info, p); y++)
      memcpy (dst.data[p] + (gsize) y * dst.stride[p],
          src.data[p] + (gsize) y * src.stride[p], row_bytes);
  }
  return cudaSuccess;
}
