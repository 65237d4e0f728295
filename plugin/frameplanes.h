// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The planes of one frame as the kernels and the copies reach them, in host or
 * device memory, copies of their samples, and what the element's work on one
 * frame gets. */
#pragma once

#include <gst/video/video.h>

#include "executor.h"
#include "plane.h"
#include "status.h"

/* The planes of one frame: base pointer and row pitch of each plane, the rest of
 * the geometry from `info`. Host or device memory, as the frame is; no planes
 * (info NULL) where a frame has none to offer (an analysis element's output). */
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

/* What the element's work on one frame gets. */
struct FrameWork
{
  FramePlanes input;            /* host memory on the CPU, device on CUDA */
  FramePlanes output;           /* none where the input goes on (analysis) */
  cf::Executor exec;
  void *results = nullptr;      /* result_size bytes; on CUDA pinned and mapped,
                                 * addressed as the device sees them */
  void *workspace = nullptr;    /* CUDA: workspace_size bytes of device memory */
  void *frame_state = nullptr;  /* frame_state_size bytes, kept with the frame */
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
#endif

/* The same between two frames where `exec` runs kernels: host memory with
 * memcpy on the CPU, device memory queued on its stream on the GPU. */
cudaError_t copy_planes (const cf::Executor & exec, const FramePlanes & dst,
    const FramePlanes & src, guint planes);

}  // namespace cf
