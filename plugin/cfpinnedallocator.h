// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Page-locked (pinned) host memory for frames that cross PCIe: copies from and to it
 * run at full bus speed and overlap kernels, which pageable memory cannot. */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include "cudadevice.h"

G_BEGIN_DECLS

#define CF_PINNED_MEMORY_TYPE "CfPinnedMemory"

#define CF_TYPE_PINNED_ALLOCATOR (cf_pinned_allocator_get_type ())
G_DECLARE_FINAL_TYPE (CfPinnedAllocator, cf_pinned_allocator, CF, PINNED_ALLOCATOR,
    GstAllocator)

/* The CUDA error of the allocator's last failed allocation (cudaSuccess if
 * none, or if `allocator` is not one of these); clears it. */
cudaError_t cf_pinned_allocator_take_error (GstAllocator * allocator);

/* Bytes of the allocator's memory alive now (0 if `allocator` is not one of
 * these); read from any thread. */
gsize cf_pinned_allocator_live_bytes (GstAllocator * allocator);

/* TRUE when every memory of buffer is pinned memory of this allocator. */
gboolean cf_buffer_is_pinned (GstBuffer * buffer);

G_END_DECLS

/* An allocator of pinned memory (cudaHostAlloc, portable to every context)
 * that allocates and frees with `device`'s context current. */
GstAllocator *cf_pinned_allocator_new (const CudaDevice & device);

/* A video buffer pool of `allocator`'s pinned memory for caps, holding at
 * least min_buffers. NULL if the pool cannot be configured. */
GstBufferPool *cf_pinned_video_pool_new (GstCaps * caps, guint min_buffers,
    GstAllocator * allocator);
