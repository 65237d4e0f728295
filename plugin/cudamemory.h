// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Frames in CUDA memory (video/x-raw(memory:CUDAMemory): GstCudaMemory of a
 * GstCudaContext, gst-plugins-bad's gstreamer-cuda-1.0), which the kernels read
 * and write where they are: the memory path of such frames, and the pools of
 * such memory an element offers upstream or gives itself.
 *
 * Every difference between the library's versions lives in this file's source.
 * 1.22's memory carries no stream, so no element after us could order its work
 * after ours: a frame leaves once its work is finished, and its producers have
 * finished theirs before they push (nvcodec's elements synchronise their
 * stream). From 1.24 the memory carries a GstCudaStream: our work follows the
 * input memory's stream and earlier readers of a recycled output buffer
 * without a wait on the host, our pools' memory carries streams of ours, and
 * an output frame may leave as soon as its work is queued, its memory's stream
 * ordered after it. From 1.26 a pool may allocate its memory on that stream
 * (stream-ordered), as GstCudaBufferPool decides where a pool's configuration
 * leaves it open, as ours do: where the context prefers it
 * (prefer-stream-ordered-alloc) or GST_CUDA_ENABLE_STREAM_ORDERED_ALLOC is
 * set. Our work already follows the memory's stream, so such memory needs
 * nothing more of us.
 *
 * Built without the library (-Dcuda-memory=disabled), there is no CUDA
 * memory: cuda_memory_unusable_reason() says so and nothing here is reached. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include "status.h"

#include <memory>

#include "cudadevice.h"
#include "framepaths.h"

#define CF_CUDA_MEMORY_FEATURE "memory:CUDAMemory"

namespace cf {

/* Why this process cannot take frames in CUDA memory (not built with
 * gstreamer-cuda, or running on a GStreamer whose gstreamer-cuda ABI is not
 * the one this build was compiled for), or NULL where it can. */
const gchar *cuda_memory_unusable_reason (void);

/* The path of frames in CUDA memory of `device`'s context. */
std::unique_ptr<FramePath> make_cuda_memory_path (const CudaDevice & device);

}  // namespace cf
/* An element's pools of CUDA memory and the streams their memory carries. */
class CudaMemoryPools
{
public:
  CudaMemoryPools () = default;
  CudaMemoryPools (const CudaMemoryPools &) = delete;
  CudaMemoryPools & operator= (const CudaMemoryPools &) = delete;
  ~CudaMemoryPools ();

  /* At start, on the element's device: its pools' streams (1.24+). */
  cudaError_t open (const CudaDevice & device);
  void close ();

  /* A pool of CUDA memory for frames of `caps` with room for `count` buffers,
   * for upstream's frames (`for_input`) or ours, with the GstVideoMeta option;
   * NULL where it cannot be configured. */
  GstBufferPool *new_pool (GstCaps * caps, guint count, bool for_input) const;
  /* Whether `pool`, downstream's, holds CUDA memory of our context; then sets
   * `config` (its configuration) to carry our output stream where it carries
   * none, so that our frames can leave ordered on it. */
  bool takes_downstream_pool (GstBufferPool * pool, GstStructure * config) const;

private:
  CudaDevice device_;
  /* Two, so that upstream's writes into the pool we propose never wait for
   * our kernels (1.24+: GstCudaStream *). */
  gpointer input_stream_ = nullptr;
  gpointer output_stream_ = nullptr;
};
