// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "elementpools.h"

#include <gst/video/video.h>

#include <utility>

#include "cudafaults.h"
#include "memorycaps.h"
#ifdef CF_HAVE_CUDA
#include "cfpinnedallocator.h"
#endif

GST_DEBUG_CATEGORY_EXTERN (cf_base_filter_debug);
#define GST_CAT_DEFAULT cf_base_filter_debug

ElementPools::~ElementPools ()
{
  gst_clear_object (&pinned_allocator_);
}

cudaError_t
ElementPools::open (GstElement * element, const CudaDevice & device)
{
#ifndef CF_HAVE_CUDA
  (void) element, (void) device;
  return cudaErrorNoDevice;
#else
  close (element);
  if (const cudaError_t err = cuda_pools_.open (device))
    return err;
  GST_OBJECT_LOCK (element);
  pinned_allocator_ = cf_pinned_allocator_new (device);
  GST_OBJECT_UNLOCK (element);
  return cudaSuccess;
#endif
}

void
ElementPools::close (GstElement * element)
{
  GST_OBJECT_LOCK (element);
  GstAllocator *pinned_allocator = std::exchange (pinned_allocator_, nullptr);
  GST_OBJECT_UNLOCK (element);
  gst_clear_object (&pinned_allocator);
  cuda_pools_.close ();
}

void
ElementPools::propose (GstQuery * query, guint held) const
{
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, nullptr);
  GstCaps *caps = nullptr;
  gboolean need_pool = FALSE;
  gst_query_parse_allocation (query, &caps, &need_pool);
  GstVideoInfo info;
  if (!caps || !gst_caps_is_fixed (caps) ||
      !gst_video_info_from_caps (&info, caps))
    return;
  if (on_device () && !cf::caps_in_cuda_memory (caps))
    gst_query_add_allocation_param (query, pinned_allocator_, nullptr);
  guint size = GST_VIDEO_INFO_SIZE (&info);
  GstBufferPool *pool = on_device () && need_pool ?
      new_pool (caps, held, true, &size) : nullptr;
  /* Without a pool of ours, the count alone, for upstream's own. */
  gst_query_add_allocation_pool (query, pool, size, held, 0);
  gst_clear_object (&pool);
}

GstBufferPool *
ElementPools::new_pool (GstCaps * caps, guint count, bool for_input,
    guint * size) const
{
#ifdef CF_HAVE_CUDA
  GstBufferPool *pool = cf::caps_in_cuda_memory (caps) ?
      cuda_pools_.new_pool (caps, count, for_input) :
      cf_pinned_video_pool_new (caps, count, pinned_allocator_);
#else
  GstBufferPool *pool = nullptr;        /* no device memory without CUDA */
  (void) caps, (void) count, (void) for_input;
#endif
  if (!pool)
    return nullptr;
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, nullptr, size, nullptr, nullptr);
  gst_structure_free (config);
  return pool;
}

/* Downstream's pool where it holds CUDA memory of our context, configured
 * for `caps` with at least `min` buffers; else NULL. */
GstBufferPool *
ElementPools::downstream_cuda_pool (GstQuery * query, GstCaps * caps,
    guint * size, guint * min, guint * max) const
{
  GstBufferPool *pool = nullptr;
  guint query_min = 0;
  gst_query_parse_nth_allocation_pool (query, 0, &pool, size, &query_min, max);
  if (!pool)
    return nullptr;
  *min = MAX (*min, query_min);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  gst_buffer_pool_config_set_params (config, caps, *size, *min, *max);
  if (!cuda_pools_.takes_downstream_pool (pool, config)) {
    gst_structure_free (config);
    gst_clear_object (&pool);
  } else if (!gst_buffer_pool_set_config (pool, config)) {
    gst_clear_object (&pool);
  }
  return pool;
}

/* Our own output pool: on the CUDA backend pinned host memory (downloads write
 * into it at bus speed) or CUDA memory of our context, on the CPU plain video
 * buffers, so that every output buffer has the caps' full size. */
GstBufferPool *
ElementPools::own_output_pool (GstCaps * caps, guint min, guint * size) const
{
  if (on_device ())
    return new_pool (caps, min, false, size);
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, caps))
    return nullptr;
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  *size = GST_VIDEO_INFO_SIZE (&info);
  gst_buffer_pool_config_set_params (config, caps, *size, min, 0);
  if (!gst_buffer_pool_set_config (pool, config))
    gst_clear_object (&pool);
  return pool;
}

/* Whether downstream's pool, the query's first, has buffers enough for the
 * frames in flight we hold beside the `min` downstream keeps: with fewer, a
 * frame would wait for a buffer that never comes back. */
static bool
holds_frames_in_flight (GstElement * element, GstQuery * query, guint depth)
{
  guint min = 0, max = 0;
  gst_query_parse_nth_allocation_pool (query, 0, nullptr, nullptr, &min, &max);
  if (max == 0 || (max >= min && max - min >= depth))
    return true;
  GST_DEBUG_OBJECT (element, "declining downstream's pool: %u buffers at most, "
      "downstream keeps %u and %u frames in flight need theirs", max, min,
      depth);
  return false;
}

/* The output pool for `caps` in the query's first place; FALSE where none can
 * be configured. */
bool
ElementPools::put_output_pool (GstElement * element, GstQuery * query,
    GstCaps * caps, guint depth) const
{
  const bool downstream = gst_query_get_n_allocation_pools (query) > 0;
  const bool enough = downstream &&
      holds_frames_in_flight (element, query, depth);
  /* On the CPU, downstream's pool as GstBaseTransform takes it; on the CUDA
   * backend one of CUDA memory of our context (for host frames, ours is the
   * faster: pinned). */
  if (enough && !on_device ())
    return true;
  /* We hold frames-in-flight output buffers, downstream may hold some. */
  guint size = 0, min = depth, max = 0;
  GstBufferPool *pool = enough && cf::caps_in_cuda_memory (caps) ?
      downstream_cuda_pool (query, caps, &size, &min, &max) : nullptr;
  if (!pool) {
    pool = own_output_pool (caps, min, &size);
    max = 0;
  }
  if (!pool)
    return false;
  if (downstream)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  gst_object_unref (pool);
  if (on_device () && !cf::caps_in_cuda_memory (caps)) {
    /* GstBaseTransform gives the pool the query's first allocator. */
    if (gst_query_get_n_allocation_params (query) > 0)
      gst_query_set_nth_allocation_param (query, 0, pinned_allocator_, nullptr);
    else
      gst_query_add_allocation_param (query, pinned_allocator_, nullptr);
  }
  return true;
}

/* Activates `pool`; where it cannot allocate its buffers, says why. */
FrameError
ElementPools::activate (GstBufferPool * pool, GstCaps * caps) const
{
  if (gst_buffer_pool_set_active (pool, TRUE))
    return {};
  return FrameError::failed ("Allocating output buffers",
      cf::caps_in_cuda_memory (caps) ? cudaErrorMemoryAllocation :
      take_pinned_error ());
}

cudaError_t
ElementPools::take_pinned_error () const
{
#ifdef CF_HAVE_CUDA
  return cf_pinned_allocator_take_error (pinned_allocator_);
#else
  return cudaSuccess;
#endif
}

gsize
ElementPools::pinned_bytes () const
{
#ifdef CF_HAVE_CUDA
  return cf_pinned_allocator_live_bytes (pinned_allocator_);
#else
  return 0;
#endif
}

/* One buffer of the active `pool`, tried with `fits` and given back. */
static FrameError
try_first_buffer (GstBufferPool * pool,
    const ElementPools::OutputCheck & fits)
{
  GstBuffer *buffer = nullptr;
  if (gst_buffer_pool_acquire_buffer (pool, &buffer, nullptr) != GST_FLOW_OK)
    return FrameError::failed ("Taking a buffer of the output pool");
  const FrameError err = fits (buffer);
  gst_buffer_unref (buffer);
  return err;
}

FrameError
ElementPools::activate_output_pool (GstElement * element, GstQuery * query,
    GstCaps * caps, guint depth, const OutputCheck & fits) const
{
  GstBufferPool *pool = nullptr;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, nullptr, nullptr,
        nullptr);
  if (!pool)
    return {};                  /* buffers of the allocator, one by one */
  FrameError err = activate (pool, caps);
  const FrameError unfit = err ? FrameError () : try_first_buffer (pool, fits);
  if (unfit) {
    GST_DEBUG_OBJECT (element, "declining the output pool %" GST_PTR_FORMAT
        ": %s (%s); using one of our own", pool, unfit.describe ().c_str (),
        unfit.detail.c_str ());
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    guint size = 0;
    pool = own_output_pool (caps, depth, &size);
    if (!pool)
      return FrameError::failed ("Configuring an output pool of our own");
    gst_query_set_nth_allocation_pool (query, 0, pool, size, depth, 0);
    err = activate (pool, caps);
    if (!err)
      err = try_first_buffer (pool, fits);
  }
  gst_object_unref (pool);
  return err;
}

bool
ElementPools::choose_output_pool (GstElement * element, GstQuery * query,
    GstCaps * caps, guint depth) const
{
  if (put_output_pool (element, query, caps, depth))
    return true;
  GST_ELEMENT_ERROR (element, RESOURCE, FAILED,
      ("Could not configure a buffer pool of %s memory",
          cf::caps_in_cuda_memory (caps) ? "CUDA" : on_device () ?
          "pinned host" : "system"), ("caps %" GST_PTR_FORMAT, caps));
  return false;
}

GstFlowReturn
ElementPools::prepare_output (GstBaseTransform * trans, GstBuffer * input,
    GstBuffer ** output, bool output_in_cuda, FrameError * failure) const
{
  GstFlowReturn ret = GST_FLOW_ERROR;
  auto prepare = [&] {
    ret = GST_BASE_TRANSFORM_GET_CLASS (trans)->prepare_output_buffer (trans,
        input, output);
    return ret == GST_FLOW_ERROR ? cudaErrorMemoryAllocation : cudaSuccess;
  };
  /* A CUDA memory pool says only that it failed: its allocations stand at the
   * fault hook's alloc point as one. */
  cudaError_t cause = output_in_cuda ? CF_CUDA (Alloc, prepare ()) :
      prepare ();
  if (ret != GST_FLOW_ERROR && cause == cudaSuccess)
    return ret;
  if (!output_in_cuda)
    cause = take_pinned_error ();
  *failure = FrameError::failed ("Allocating an output buffer", cause);
  return GST_FLOW_ERROR;
}
