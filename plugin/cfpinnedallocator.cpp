#include "cfpinnedallocator.h"

#include <cuda_runtime_api.h>

#include "cudafaults.h"

#include <atomic>

GST_DEBUG_CATEGORY_STATIC (cf_pinned_debug);
#define GST_CAT_DEFAULT cf_pinned_debug

struct _CfPinnedAllocator
{
  GstAllocator parent;
};

/* A pinned block, or a share of one (then parent holds the block). */
struct CfPinnedMemory
{
  GstMemory mem;
  guint8 *data;
};

G_DEFINE_TYPE (CfPinnedAllocator, cf_pinned_allocator, GST_TYPE_ALLOCATOR);

/* The error of this thread's last failed allocation, for the element that asked
 * (through a buffer pool, which only says that it failed). */
static thread_local cudaError_t last_alloc_error = cudaSuccess;

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
  const gsize maxsize = size + params->prefix + params->padding;
  void *data = nullptr;
  /* cudaHostAlloc returns page-aligned memory, which satisfies any align mask
   * GStreamer asks for below a page. */
  cudaError_t err = cf_cuda_host_alloc (&data, MAX (maxsize, 1),
      cudaHostAllocPortable);
  if (err != cudaSuccess) {
    GST_ERROR ("cudaHostAlloc of %" G_GSIZE_FORMAT " bytes failed: %s: %s",
        maxsize, cudaGetErrorName (err), cudaGetErrorString (err));
    last_alloc_error = err;
    return nullptr;
  }
  GST_DEBUG ("pinned %" G_GSIZE_FORMAT " bytes at %p", maxsize, data);
  /* Zeroed once, when a pool first fills: bytes a producer leaves unwritten
   * (row padding) then go up to the device defined, as compute-sanitizer's
   * initcheck demands, and prefix and padding are zero as flags may ask. */
  memset (data, 0, maxsize);
  return GST_MEMORY_CAST (cf_pinned_memory_wrap (allocator, nullptr,
          params->flags, static_cast<guint8 *> (data), maxsize, params->align,
          params->prefix, size));
}

static void
cf_pinned_allocator_free (GstAllocator *, GstMemory * memory)
{
  auto *mem = reinterpret_cast<CfPinnedMemory *> (memory);
  if (!memory->parent) {
    cudaError_t err = cf_cuda_free_host (mem->data);
    if (err != cudaSuccess)
      GST_WARNING ("cudaFreeHost failed: %s: %s", cudaGetErrorName (err),
          cudaGetErrorString (err));
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
cf_pinned_allocator_class_init (CfPinnedAllocatorClass * klass)
{
  auto *allocator_class = GST_ALLOCATOR_CLASS (klass);
  allocator_class->alloc = cf_pinned_allocator_alloc;
  allocator_class->free = cf_pinned_allocator_free;
  GST_DEBUG_CATEGORY_INIT (cf_pinned_debug, "cfpinnedallocator", 0,
      "Pinned host memory for CUDA transfers");
}

static void
cf_pinned_allocator_init (CfPinnedAllocator * self)
{
  auto *allocator = GST_ALLOCATOR_CAST (self);
  allocator->mem_type = CF_PINNED_MEMORY_TYPE;
  allocator->mem_map = cf_pinned_memory_map;
  allocator->mem_unmap = cf_pinned_memory_unmap;
  allocator->mem_share = cf_pinned_memory_share;
  GST_OBJECT_FLAG_SET (self, GST_ALLOCATOR_FLAG_CUSTOM_ALLOC);
}

GstAllocator *
cf_pinned_allocator_get (void)
{
  static GstAllocator *allocator;
  if (g_once_init_enter (&allocator)) {
    auto *created = GST_ALLOCATOR_CAST (g_object_new (CF_TYPE_PINNED_ALLOCATOR,
            nullptr));
    gst_object_ref_sink (created);
    GST_OBJECT_FLAG_SET (created, GST_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&allocator, created);
  }
  return GST_ALLOCATOR_CAST (gst_object_ref (allocator));
}

/* The CUDA error of the calling thread's last failed allocation, cudaSuccess if
 * none failed since the last call; clears it. */
static cudaError_t
cf_pinned_allocator_take_error (void)
{
  const cudaError_t err = last_alloc_error;
  last_alloc_error = cudaSuccess;
  return err;
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

/* A video buffer pool of pinned memory that allocates and frees with its
 * element's CUDA context current, keeps the error of its last failed
 * allocation for the element, and frees what it preallocated when an
 * allocation fails part way (GstBufferPool's own start() leaves those buffers
 * in its queue, where nothing ever frees them). */
struct CfPinnedVideoPool
{
  GstVideoBufferPool parent;
  CudaDevice *device;
  std::atomic<cudaError_t> last_error;
};

struct CfPinnedVideoPoolClass
{
  GstVideoBufferPoolClass parent_class;
};

G_DEFINE_TYPE (CfPinnedVideoPool, cf_pinned_video_pool,
    GST_TYPE_VIDEO_BUFFER_POOL);

static CfPinnedVideoPool *
pinned_pool (GstBufferPool * pool)
{
  return reinterpret_cast<CfPinnedVideoPool *> (pool);
}

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

static GstFlowReturn
cf_pinned_video_pool_alloc_buffer (GstBufferPool * pool, GstBuffer ** buffer,
    GstBufferPoolAcquireParams * params)
{
  auto *self = pinned_pool (pool);
  const CudaContextScope scope (*self->device);
  if (scope.error () != cudaSuccess) {
    self->last_error = scope.error ();
    return GST_FLOW_ERROR;
  }
  const GstFlowReturn ret = GST_BUFFER_POOL_CLASS
      (cf_pinned_video_pool_parent_class)->alloc_buffer (pool, buffer, params);
  /* The allocator's error of this very call, read on the thread that made it. */
  const cudaError_t err = cf_pinned_allocator_take_error ();
  if (ret != GST_FLOW_OK)
    self->last_error = err != cudaSuccess ? err : cudaErrorMemoryAllocation;
  return ret;
}

static void
cf_pinned_video_pool_free_buffer (GstBufferPool * pool, GstBuffer * buffer)
{
  const CudaContextScope scope (*pinned_pool (pool)->device);
  GST_BUFFER_POOL_CLASS (cf_pinned_video_pool_parent_class)->free_buffer (pool,
      buffer);
}

static void
cf_pinned_video_pool_finalize (GObject * object)
{
  delete reinterpret_cast<CfPinnedVideoPool *> (object)->device;
  G_OBJECT_CLASS (cf_pinned_video_pool_parent_class)->finalize (object);
}

static void
cf_pinned_video_pool_class_init (CfPinnedVideoPoolClass * klass)
{
  auto *pool_class = GST_BUFFER_POOL_CLASS (klass);
  pool_class->start = cf_pinned_video_pool_start;
  pool_class->alloc_buffer = cf_pinned_video_pool_alloc_buffer;
  pool_class->free_buffer = cf_pinned_video_pool_free_buffer;
  G_OBJECT_CLASS (klass)->finalize = cf_pinned_video_pool_finalize;
}

static void
cf_pinned_video_pool_init (CfPinnedVideoPool * self)
{
  self->device = new CudaDevice ();
  self->last_error = cudaSuccess;
}

GstBufferPool *
cf_pinned_video_pool_new (GstCaps * caps, guint min_buffers,
    const CudaDevice & device)
{
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, caps))
    return nullptr;

  auto *pool = GST_BUFFER_POOL (g_object_new (cf_pinned_video_pool_get_type (),
          nullptr));
  gst_object_ref_sink (pool);
  *pinned_pool (pool)->device = device;
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min_buffers, 0);
  GstAllocator *allocator = cf_pinned_allocator_get ();
  gst_buffer_pool_config_set_allocator (config, allocator, nullptr);
  gst_object_unref (allocator);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return nullptr;
  }
  return pool;
}

cudaError_t
cf_pinned_video_pool_take_error (GstBufferPool * pool)
{
  if (!G_TYPE_CHECK_INSTANCE_TYPE (pool, cf_pinned_video_pool_get_type ()))
    return cudaSuccess;
  return pinned_pool (pool)->last_error.exchange (cudaSuccess);
}
