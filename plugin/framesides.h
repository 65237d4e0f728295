// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Where a frame lives on one side of an element, and how the kernels reach it.
 *
 * A frame comes in, and goes out, in host memory (system memory: someone else's
 * buffers or our pinned pool) or in device memory (GstCudaMemory). Chosen when
 * caps are set, per side:
 *   host    each frame in flight has a device copy of its own (staging): the
 *           input is uploaded into it, the output downloaded from it, on the
 *           frame's stream. Pinned frames (our pools, foreign memory pinned in
 *           place: hostregistration.h) go by DMA directly; other foreign
 *           frames are copied into a pinned buffer of the slot by several
 *           threads, piece by piece, each piece's DMA queued as soon as it is
 *           there (hostcopy.h);
 *   device  the buffer itself, mapped with GST_MAP_CUDA: its planes are device
 *           memory already, laid out as its GstVideoMeta says.
 * Either way the kernels get FramePlanes in device memory; the elements never
 * learn which. Every CUDA call expects the element's context current. */
#pragma once

#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <atomic>
#include <vector>

#include "cudadevice.h"
#include "plane.h"

/* The planes of one frame: base pointer and row pitch of each plane, the rest of
 * the geometry from `info`. Host or device memory, as the frame is. */
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

/* Copies the samples of the planes in the `planes` mask (bit p: plane p; row
 * padding excepted) from src to dst on `stream`. Host-to-device, device-to-host
 * or device-to-device as `kind` says; one call per plane, through the fault
 * point of that direction. */
constexpr guint kAllPlanes = ~0u;
cudaError_t copy_frame_samples (const FramePlanes & dst, const FramePlanes & src,
    cudaMemcpyKind kind, cudaStream_t stream, guint planes = kAllPlanes);

class FrameSide
{
public:
  FrameSide () = default;
  FrameSide (const FrameSide &) = delete;
  FrameSide & operator= (const FrameSide &) = delete;
  ~FrameSide ();

  /* Frees what a previous configure allocated. On the host side, allocates on
   * `device` (its context current) one zeroed staging frame per slot (on that
   * slot's stream), laid out as `info` says; on the device side, nothing. */
  cudaError_t configure (const CudaDevice & device, bool on_device,
      const GstVideoInfo & info, const std::vector<cudaStream_t> & slot_streams);
  /* Frees the staging frames, making the device's context current itself. */
  cudaError_t release ();

  bool on_device () const { return on_device_; }
  /* Bytes of device memory (staging) and pinned host memory (staging of
   * foreign input) held now; read from any thread. */
  gsize device_bytes () const { return device_bytes_.load (); }
  gsize pinned_bytes () const { return pinned_bytes_.load (); }
  /* How to map a buffer of this side for `access` (GST_MAP_READ or WRITE). */
  GstMapFlags map_flags (GstMapFlags access) const;
  /* The device planes the kernels use for the slot's frame, mapped as
   * map_flags says: the staging copy on the host side, the frame itself on the
   * device side. */
  FramePlanes device_planes (int slot, const GstVideoFrame & mapped) const;

  /* Queue host frame -> staging copy (input side) and staging copy -> host
   * frame (output side) on `stream`; nothing to do on the device side. The
   * upload of a frame in memory that is not pinned returns once the frame is
   * copied into the slot's pinned buffer. */
  cudaError_t upload (int slot, const GstVideoFrame & mapped,
      cudaStream_t stream);
  cudaError_t download (int slot, const GstVideoFrame & mapped,
      cudaStream_t stream) const;

private:
  cudaError_t upload_through_pinned (int slot, const GstVideoFrame & mapped,
      cudaStream_t stream);

  CudaDevice device_;
  bool on_device_ = false;
  GstVideoInfo info_ {};
  std::vector<guint8 *> staging_;
  /* Per slot, laid out as staging_, allocated when the first frame needs it. */
  std::vector<guint8 *> pinned_staging_;
  std::atomic<gsize> device_bytes_ { 0 };
  std::atomic<gsize> pinned_bytes_ { 0 };
};
