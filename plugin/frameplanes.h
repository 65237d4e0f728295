// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The planes of one frame as the kernels and the copies reach them, in host or
 * device memory, copies of their samples, and what the element's work on one
 * frame gets. */
#pragma once

#include <gst/video/video.h>

#include <vector>

#include "executor.h"
#include "plane.h"
#include "status.h"

/* The planes of one frame: base pointer and row pitch of each plane, the rest of
 * the geometry from `info`. Host or device memory, as the frame is; no planes
 * (info NULL) where a frame has none to offer (an in-place element's output). */
struct FramePlanes
{
  const GstVideoInfo *info = nullptr;
  guint8 *data[GST_VIDEO_MAX_PLANES] = {};
  gint stride[GST_VIDEO_MAX_PLANES] = {};

  /* The planes of a mapped frame (GST_MAP_CUDA mappings give device pointers). */
  static FramePlanes of (const GstVideoFrame & frame);
  /* One colour component, as the kernels see it. */
  cf::Plane component (int component) const;
};

/* Bytes of one plane of a frame: `rows` rows of `row_bytes` bytes from byte
 * `x` of row `y`, `row_step` rows apart (2: the rows of one field). Rows and
 * bytes, not addresses: the same area on every copy of the frame, whatever
 * its strides (the host frame and its device copy). */
struct PlaneArea
{
  guint plane = 0;
  gsize x = 0;
  guint y = 0;
  gsize row_bytes = 0;
  guint rows = 0;
  guint row_step = 1;

  /* Every sample of plane p of frames of `info`. */
  static PlaneArea whole (const GstVideoInfo & info, guint p);
};

/* What the element's work on one frame gets. */
struct FrameWork
{
  FramePlanes input;            /* host memory on the CPU, device on CUDA */
  FramePlanes output;           /* none where the input goes on (in place) */
  cf::Executor exec;
  void *results = nullptr;      /* result_size bytes; on CUDA pinned and mapped,
                                 * addressed as the device sees them */
  void *workspace = nullptr;    /* CUDA: workspace_size bytes of device memory */
  void *frame_state = nullptr;  /* frame_state_size bytes, kept with the frame */
  /* Where the work edits its input (in place): it adds the areas it wrote, so
   * that a frame edited on a device copy gets those back, and only those. */
  std::vector<PlaneArea> *edited = nullptr;
};

namespace cf {

/* Copies the samples of the planes in the `planes` mask (bit p: plane p; row
 * padding excepted) from src to dst on `stream`. Host-to-device, device-to-host
 * or device-to-device as `kind` says; one call per plane, through the fault
 * point of that direction (device-to-device: kernel). */
constexpr guint kAllPlanes = ~0u;
#ifdef CF_HAVE_CUDA
cudaError_t copy_frame_samples (const FramePlanes & dst, const FramePlanes & src,
    cudaMemcpyKind kind, cudaStream_t stream, guint planes = kAllPlanes);
/* The same for one area of the two frames. */
cudaError_t copy_frame_area (const FramePlanes & dst, const FramePlanes & src,
    const PlaneArea & area, cudaMemcpyKind kind, cudaStream_t stream);
#endif

/* The same between two frames where `exec` runs kernels: host memory with
 * memcpy on the CPU, device memory queued on its stream on the GPU. */
cudaError_t copy_planes (const cf::Executor & exec, const FramePlanes & dst,
    const FramePlanes & src, guint planes);

}  // namespace cf
