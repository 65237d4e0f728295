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

/* The process-wide allocator (cudaHostAlloc, portable to every device). */
GstAllocator *cf_pinned_allocator_get (void);

/* TRUE when every memory of buffer is pinned memory of this allocator. */
gboolean cf_buffer_is_pinned (GstBuffer * buffer);

G_END_DECLS

/* A video buffer pool of pinned memory for caps, holding at least min_buffers,
 * that allocates and frees with `device`'s context current (the memory is
 * portable: any context may copy from and to it). NULL if the pool cannot be
 * configured. */
GstBufferPool *cf_pinned_video_pool_new (GstCaps * caps, guint min_buffers,
    const CudaDevice & device);

/* The CUDA error of the pool's last failed allocation (cudaSuccess if none, or
 * if `pool` is not such a pool); clears it. */
cudaError_t cf_pinned_video_pool_take_error (GstBufferPool * pool);
