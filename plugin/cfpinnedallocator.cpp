// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfpinnedallocator.h"

#include <cuda_runtime_api.h>

#include "cudafaults.h"

#include <atomic>

GST_DEBUG_CATEGORY_STATIC (cf_pinned_debug);
#define GST_CAT_DEFAULT cf_pinned_debug

struct _CfPinnedAllocator
{
  GstAllocator parent;
  /* Allocations and frees run with this device's context current. */
  CudaDevice *device;
  /* The error of the last failed allocation, for the element that asked
   * (through a buffer pool, which only says that it failed). */
  std::atomic<cudaError_t> last_error;
  std::atomic<gsize> live_bytes;
};

/* A pinned block, or a share of one (then parent holds the block). */
struct CfPinnedMemory
{
  GstMemory mem;
  guint8 *data;
};

G_DEFINE_TYPE (CfPinnedAllocator, cf_pinned_allocator, GST_TYPE_ALLOCATOR);


static CfPinnedMemory *
cf_pinned_memory_wrap (GstAllocator * allocator, GstMemory * parent,
    GstMemoryFlags flags, guint8 * data, gsize maxsize, gsize align,
    gsize offset, gsize size)
{
  auto *mem = g_new0 (CfPinnedMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (mem), flags, allocator, parent, maxsize,
      align, offset, size);
  mem->data = data;
  return mem;
}

static GstMemory *
cf_pinned_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  auto *self = CF_PINNED_ALLOCATOR (allocator);
  /* Whoever calls it chose the sizes: a sum that wraps is no memory. */
  if (size > G_MAXSIZE - params->prefix ||
      size + params->prefix > G_MAXSIZE - params->padding)
    return nullptr;
  const gsize maxsize = size + params->prefix + params->padding;
  void *data = nullptr;
  const CudaContextScope scope (*self->device);
  /* cudaHostAlloc returns page-aligned memory, which satisfies any align mask
   * GStreamer asks for below a page. */
  cudaError_t err = scope.error ();
  if (err == cudaSuccess)
    err = cf_cuda_host_alloc (&data, MAX (maxsize, 1), cudaHostAllocPortable);
  if (err != cudaSuccess) {
    GST_ERROR_OBJECT (self, "cudaHostAlloc of %" G_GSIZE_FORMAT " bytes failed: "
        "%s: %s", maxsize, cudaGetErrorName (err), cudaGetErrorString (err));
    self->last_error = err;
    return nullptr;
  }
  GST_DEBUG_OBJECT (self, "pinned %" G_GSIZE_FORMAT " bytes at %p", maxsize,
      data);
  self->live_bytes += MAX (maxsize, 1);
  /* Zeroed once, when a pool first fills: bytes a producer leaves unwritten
   * (row padding) then go up to the device defined, as compute-sanitizer's
   * initcheck demands, and prefix and padding are zero as flags may ask. */
  memset (data, 0, maxsize);
  return GST_MEMORY_CAST (cf_pinned_memory_wrap (allocator, nullptr,
          params->flags, static_cast<guint8 *> (data), maxsize, params->align,
          params->prefix, size));
}

static void
cf_pinned_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  auto *mem = reinterpret_cast<CfPinnedMemory *> (memory);
  if (!memory->parent) {
    CF_PINNED_ALLOCATOR (allocator)->live_bytes -= MAX (memory->maxsize, 1);
    const CudaContextScope scope (*CF_PINNED_ALLOCATOR (allocator)->device,
        CudaContextScope::kTeardown);
    /* Without its context the memory cannot be freed: it is given up. */
    const cudaError_t err = scope.error () != cudaSuccess ? scope.error () :
        cf_cuda_free_host (mem->data);
    if (err != cudaSuccess)
      GST_WARNING_OBJECT (allocator, "freeing %p: %s: %s", mem->data,
          cudaGetErrorName (err), cudaGetErrorString (err));
  }
  g_free (mem);
}

static gpointer
cf_pinned_memory_map (GstMemory * memory, gsize, GstMapFlags)
{
  return reinterpret_cast<CfPinnedMemory *> (memory)->data;
}

static void
cf_pinned_memory_unmap (GstMemory *)
{
}

static GstMemory *
cf_pinned_memory_share (GstMemory * memory, gssize offset, gssize size)
{
  auto *mem = reinterpret_cast<CfPinnedMemory *> (memory);
  GstMemory *parent = memory->parent ? memory->parent : memory;
  if (size == -1)
    size = memory->size - offset;
  return GST_MEMORY_CAST (cf_pinned_memory_wrap (memory->allocator, parent,
          static_cast<GstMemoryFlags> (GST_MINI_OBJECT_FLAGS (parent) |
              GST_MINI_OBJECT_FLAG_LOCK_READONLY), mem->data, memory->maxsize,
          memory->align, memory->offset + offset, size));
}

static void
cf_pinned_allocator_finalize (GObject * object)
{
  delete CF_PINNED_ALLOCATOR (object)->device;
  G_OBJECT_CLASS (cf_pinned_allocator_parent_class)->finalize (object);
}

static void
cf_pinned_allocator_class_init (CfPinnedAllocatorClass * klass)
{
  auto *allocator_class = GST_ALLOCATOR_CLASS (klass);
  allocator_class->alloc = cf_pinned_allocator_alloc;
  allocator_class->free = cf_pinned_allocator_free;
  G_OBJECT_CLASS (klass)->finalize = cf_pinned_allocator_finalize;
  GST_DEBUG_CATEGORY_INIT (cf_pinned_debug, "cfpinnedallocator", 0,
      "Pinned host memory for CUDA transfers");
}

static void
cf_pinned_allocator_init (CfPinnedAllocator * self)
{
  auto *allocator = GST_ALLOCATOR_CAST (self);
  self->device = new CudaDevice ();
  self->last_error = cudaSuccess;
  self->live_bytes = 0;
  allocator->mem_type = CF_PINNED_MEMORY_TYPE;
  allocator->mem_map = cf_pinned_memory_map;
  allocator->mem_unmap = cf_pinned_memory_unmap;
  allocator->mem_share = cf_pinned_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
cf_pinned_allocator_new (const CudaDevice & device)
{
  auto *self = CF_PINNED_ALLOCATOR (g_object_new (CF_TYPE_PINNED_ALLOCATOR,
          nullptr));
  gst_object_ref_sink (self);
  *self->device = device;
  return GST_ALLOCATOR_CAST (self);
}

cudaError_t
cf_pinned_allocator_take_error (GstAllocator * allocator)
{
  if (!allocator || !CF_IS_PINNED_ALLOCATOR (allocator))
    return cudaSuccess;
  return CF_PINNED_ALLOCATOR (allocator)->last_error.exchange (cudaSuccess);
}

gsize
cf_pinned_allocator_live_bytes (GstAllocator * allocator)
{
  if (!allocator || !CF_IS_PINNED_ALLOCATOR (allocator))
    return 0;
  return CF_PINNED_ALLOCATOR (allocator)->live_bytes.load ();
}

gboolean
cf_buffer_is_pinned (GstBuffer * buffer)
{
  const guint n = gst_buffer_n_memory (buffer);
  for (guint i = 0; i < n; i++) {
    if (!gst_memory_is_type (gst_buffer_peek_memory (buffer, i),
            CF_PINNED_MEMORY_TYPE))
      return FALSE;
  }
  return n > 0;
}

/* A video buffer pool that frees what it preallocated when an allocation fails
 * part way: GstBufferPool's own start() leaves those buffers in its queue,
 * where nothing ever frees them. */
struct CfPinnedVideoPool
{
  GstVideoBufferPool parent;
};

struct CfPinnedVideoPoolClass
{
  GstVideoBufferPoolClass parent_class;
};

G_DEFINE_TYPE (CfPinnedVideoPool, cf_pinned_video_pool,
    GST_TYPE_VIDEO_BUFFER_POOL);

static gboolean
cf_pinned_video_pool_start (GstBufferPool * pool)
{
  auto *parent_class =
      GST_BUFFER_POOL_CLASS (cf_pinned_video_pool_parent_class);
  if (parent_class->start (pool))
    return TRUE;
  parent_class->stop (pool);
  return FALSE;
}

static void
cf_pinned_video_pool_class_init (CfPinnedVideoPoolClass * klass)
{
  GST_BUFFER_POOL_CLASS (klass)->start = cf_pinned_video_pool_start;
}

static void
cf_pinned_video_pool_init (CfPinnedVideoPool *)
{
}

GstBufferPool *
cf_pinned_video_pool_new (GstCaps * caps, guint min_buffers,
    GstAllocator * allocator)
{
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, caps))
    return nullptr;

  auto *pool = GST_BUFFER_POOL (g_object_new (cf_pinned_video_pool_get_type (),
          nullptr));
  gst_object_ref_sink (pool);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min_buffers, 0);
  gst_buffer_pool_config_set_allocator (config, allocator, nullptr);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return nullptr;
  }
  return pool;
}
