// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cudamemory.h"

#ifdef CF_HAVE_GST_CUDA

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>
#ifdef CF_HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudastream.h>
#endif

#include "cudaframeslots.h"

/* gstreamer-cuda changed its ABI in 1.24 under the same soname (the
 * allocator's alloc gained a stream argument) and kept it since: a build for
 * 1.22 calls a 1.24+ library wrongly, and the reverse. The core's version
 * stands for the library's, as distributions ship them in step. */
static bool
runtime_has_cuda_streams (void)
{
  guint major, minor, micro, nano;
  gst_version (&major, &minor, &micro, &nano);
  return major > 1 || minor >= 24;
}

const gchar *
cf::cuda_memory_unusable_reason (void)
{
#ifdef CF_HAVE_GST_CUDA_STREAM
  const bool built_with_streams = true;
#else
  const bool built_with_streams = false;
#endif
  static const gchar *reason = [built_with_streams] () -> const gchar * {
    if (runtime_has_cuda_streams () == built_with_streams)
      return nullptr;
    gchar *running = gst_version_string ();
    gchar *message = g_strdup_printf ("the plugin was built for GStreamer "
        "%d.%d.%d and runs on %s, whose gstreamer-cuda has another ABI (1.24 "
        "changed it): install the plugin built for this GStreamer",
        GST_VERSION_MAJOR, GST_VERSION_MINOR, GST_VERSION_MICRO, running);
    const gchar *interned = g_intern_string (message);
    g_free (message);
    g_free (running);
    return interned;
  } ();
  return reason;
}

/* A frame's memory, in (`input`) or out: all CUDA memory of the element's
 * context. An output buffer comes from a pool checked once: checked again,
 * as a host pointer handed to the kernels would fault the shared context. */
static FrameError
check_frame_memory (GstBuffer * buffer, const CudaDevice & device, bool input)
{
  for (guint i = 0; i < gst_buffer_n_memory (buffer); i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    if (!gst_is_cuda_memory (mem)) {
      gchar *message = g_strdup_printf ("%s buffer in %s memory where the "
          "caps say CUDA memory", input ? "Input" : "Output", mem->allocator ?
          mem->allocator->mem_type : "unknown");
      FrameError err = FrameError::refused (message);
      g_free (message);
      return err;
    }
    GstCudaContext *owner = GST_CUDA_MEMORY_CAST (mem)->context;
    if (owner != device.context ()) {
      guint owner_device = 0;
      g_object_get (owner, "cuda-device-id", &owner_device, nullptr);
      gchar *message = g_strdup_printf ("Input frame in memory of another CUDA "
          "context (device %u) than the element's (device %d): share one "
          "context (GstContext \"" GST_CUDA_CONTEXT_TYPE "\"), leave "
          "cuda-device-id at -1, or put cudadownload before the element",
          owner_device, device.id ());
      FrameError err = FrameError::settings (message);
      g_free (message);
      return err;
    }
  }
  return {};
}

#ifdef CF_HAVE_GST_CUDA_STREAM
/* The stream a buffer's CUDA memory carries (the stream its users queue their
 * work on), or NULL. */
static cudaStream_t
memory_stream (GstBuffer * buffer)
{
  GstCudaStream *stream = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST
      (gst_buffer_peek_memory (buffer, 0)));
  return stream ? (cudaStream_t) gst_cuda_stream_get_handle (stream) : nullptr;
}

/* The slot's work follows what is queued on the stream of `frame`'s memory,
 * without a wait on the host. */
static FrameError
follow_memory_stream (int slot, const GstVideoFrame & frame,
    CudaFrameSlots & slots)
{
  cudaStream_t stream = memory_stream (frame.buffer);
  return FrameError::check ("Ordering after the streams of the frame's memory",
      stream ? slots.follow_stream (slot, stream) : cudaSuccess);
}
#endif

class CudaMemoryFramePath : public FramePath
{
public:
  explicit CudaMemoryFramePath (const CudaDevice & device) : device_ (device)
  {
  }

  FrameError map (GstBuffer * buffer, const GstVideoInfo & info,
      GstMapFlags access, GstVideoFrame * frame) override
  {
    if (FrameError err = check_frame_memory (buffer, device_,
            access & GST_MAP_READ))
      return err;
    return cf::map_video_frame (buffer, info,
        static_cast<GstMapFlags> (access | GST_MAP_CUDA), frame);
  }

  FramePlanes planes (int, const GstVideoFrame & frame) const override
  {
    return FramePlanes::of (frame);
  }

#ifdef CF_HAVE_GST_CUDA_STREAM
  /* Upstream's writes into the input. */
  FrameError bring_in (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots) override
  {
    return follow_memory_stream (slot, frame, slots);
  }

  /* Earlier readers of a recycled output buffer. */
  FrameError prepare_out (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots) override
  {
    return follow_memory_stream (slot, frame, slots);
  }

  bool orders_on_memory_stream () const override { return true; }

  FrameError order_after (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots, bool *ordered) override
  {
    cudaStream_t stream = memory_stream (frame.buffer);
    const cudaError_t err = stream ? slots.lead_stream (slot, stream) :
        cudaSuccess;
    *ordered = stream && err == cudaSuccess;
    return FrameError::check ("Ordering the output memory's stream", err);
  }
#endif

private:
  CudaDevice device_;
};

std::unique_ptr<FramePath>
cf::make_cuda_memory_path (const CudaDevice & device)
{
  return std::make_unique<CudaMemoryFramePath> (device);
}

CudaMemoryPools::~CudaMemoryPools ()
{
  close ();
}

cudaError_t
CudaMemoryPools::open (const CudaDevice & device)
{
  close ();
  device_ = device;
#ifdef CF_HAVE_GST_CUDA_STREAM
  input_stream_ = gst_cuda_stream_new (device.context ());
  output_stream_ = gst_cuda_stream_new (device.context ());
  if (!input_stream_ || !output_stream_) {
    close ();
    return cudaErrorInvalidResourceHandle;
  }
#endif
  return cudaSuccess;
}

void
CudaMemoryPools::close ()
{
#ifdef CF_HAVE_GST_CUDA_STREAM
  gst_clear_cuda_stream (reinterpret_cast<GstCudaStream **> (&input_stream_));
  gst_clear_cuda_stream (reinterpret_cast<GstCudaStream **> (&output_stream_));
#endif
  device_ = CudaDevice ();
}

GstBufferPool *
CudaMemoryPools::new_pool (GstCaps * caps, guint count,
    [[maybe_unused]] bool for_input) const
{
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, caps))
    return nullptr;
  GstBufferPool *pool = gst_cuda_buffer_pool_new (device_.context ());
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
#ifdef CF_HAVE_GST_CUDA_STREAM
  gst_buffer_pool_config_set_cuda_stream (config, static_cast<GstCudaStream *>
      (for_input ? input_stream_ : output_stream_));
#endif
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      count, 0);
  if (!gst_buffer_pool_set_config (pool, config))
    gst_clear_object (&pool);
  return pool;
}

bool
CudaMemoryPools::takes_downstream_pool (GstBufferPool * pool,
    [[maybe_unused]] GstStructure * config) const
{
  if (!GST_IS_CUDA_BUFFER_POOL (pool) ||
      GST_CUDA_BUFFER_POOL (pool)->context != device_.context ())
    return false;
#ifdef CF_HAVE_GST_CUDA_STREAM
  /* Downstream's stream where it set one, else ours: its memory must carry
   * one for our frames to leave ordered rather than waited for. */
  GstCudaStream *downstream_stream =
      gst_buffer_pool_config_get_cuda_stream (config);
  if (downstream_stream)
    gst_cuda_stream_unref (downstream_stream);
  else
    gst_buffer_pool_config_set_cuda_stream (config,
        static_cast<GstCudaStream *> (output_stream_));
#endif
  return true;
}

#else /* !CF_HAVE_GST_CUDA */

const gchar *
cf::cuda_memory_unusable_reason (void)
{
  return "the plugin was built without gstreamer-cuda-1.0";
}

std::unique_ptr<FramePath>
cf::make_cuda_memory_path (const CudaDevice &)
{
  return nullptr;
}

CudaMemoryPools::~CudaMemoryPools () = default;

cudaError_t
CudaMemoryPools::open (const CudaDevice &)
{
  return cudaSuccess;
}

void
CudaMemoryPools::close ()
{
}

GstBufferPool *
CudaMemoryPools::new_pool (GstCaps *, guint, bool) const
{
  return nullptr;
}

bool
CudaMemoryPools::takes_downstream_pool (GstBufferPool *, GstStructure *) const
{
  return false;
}

#endif
