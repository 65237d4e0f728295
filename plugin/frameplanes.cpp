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
  view.height = format.component_height (component, cf_picture_height (info));
  view.row_pitch = stride[layout.plane];
  view.pixel_stride = layout.pixel_stride;
  return view;
}

#ifdef CF_HAVE_CUDA
cudaError_t
cf::copy_frame_samples (const FramePlanes & dst, const FramePlanes & src,
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
    const gsize row_bytes = cf_plane_row_bytes (src.info, p);
    for (int y = 0; y < cf_plane_rows (src.info, p); y++)
      memcpy (dst.data[p] + (gsize) y * dst.stride[p],
          src.data[p] + (gsize) y * src.stride[p], row_bytes);
  }
  return cudaSuccess;
}
