// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "bench_cuda.h"

#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include "bench_source.h"

GstCudaContext *
bench_cuda_context_new (guint device, gchar ** name, gchar ** why)
{
  GstCudaContext *context;

  if (!gst_cuda_load_library ()) {
    *why = g_strdup ("the CUDA driver library (libcuda.so.1) could not be "
        "loaded: no NVIDIA driver on this machine");
    return NULL;
  }
  context = gst_cuda_context_new (device);
  if (!context) {
    *why = g_strdup_printf ("no usable CUDA device %u (gst_cuda_context_new "
        "failed: no such device, or the driver made no context on it)",
        device);
    return NULL;
  }
  if (name) {
    CUdevice dev;
    char text[256] = "";

    *name = NULL;
    if (CuDeviceGet (&dev, (int) device) == CUDA_SUCCESS &&
        CuDeviceGetName (text, sizeof text, dev) == CUDA_SUCCESS)
      *name = g_strdup (text);
    else
      *name = g_strdup_printf ("CUDA device %u", device);
  }
  return context;
}

void
bench_cuda_share_context (GstElement * pipeline, GstCudaContext * context)
{
  GstContext *shared = gst_context_new_cuda_context (context);

  gst_element_set_context (pipeline, shared);
  gst_context_unref (shared);
}

GstBufferPool *
bench_cuda_prepare_frames (GstCudaContext * context, GstCaps * caps,
    GstBuffer ** frames, guint count, gchar ** why)
{
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;
  guint64 seed = 0x2545f4914f6cdd1dull;
  guint8 *host = NULL;
  gsize host_size = 0;
  gboolean ok = TRUE;

  if (!gst_video_info_from_caps (&info, caps)) {
    *why = g_strdup ("caps that are no raw video");
    return NULL;
  }
  gst_cuda_memory_init_once ();
  pool = gst_cuda_buffer_pool_new (context);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      count, 0);
  gst_buffer_pool_config_add_option (config,
      GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE)) {
    *why = g_strdup_printf ("GstCudaBufferPool refused %s %dx%d",
        GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
        GST_VIDEO_INFO_HEIGHT (&info));
    gst_object_unref (pool);
    return NULL;
  }

  for (guint i = 0; ok && i < count; i++) {
    GstMapInfo map;
    cudaError_t err;

    if (gst_buffer_pool_acquire_buffer (pool, &frames[i], NULL) !=
        GST_FLOW_OK) {
      *why = g_strdup ("no buffer from the GstCudaBufferPool");
      ok = FALSE;
      break;
    }
    if (!gst_is_cuda_memory (gst_buffer_peek_memory (frames[i], 0))) {
      *why = g_strdup ("the GstCudaBufferPool gave no CUDA memory");
      ok = FALSE;
      break;
    }
    if (!gst_buffer_map (frames[i], &map, GST_MAP_WRITE | GST_MAP_CUDA)) {
      *why = g_strdup ("could not map a CUDA buffer with GST_MAP_CUDA");
      ok = FALSE;
      break;
    }
    if (map.size > host_size) {
      g_free (host);
      host_size = map.size;
      host = g_malloc (host_size);
    }
    /* Row padding too: the whole allocation holds defined bytes. */
    bench_fill_random (host, map.size, &seed);
    if (!gst_cuda_context_push (context)) {
      *why = g_strdup ("could not push the CUDA context");
      ok = FALSE;
    } else {
      err = cudaMemcpy (map.data, host, map.size, cudaMemcpyHostToDevice);
      if (err == cudaSuccess)
        err = cudaDeviceSynchronize ();
      gst_cuda_context_pop (NULL);
      if (err != cudaSuccess) {
        *why = g_strdup_printf ("upload of a prepared frame: %s",
            cudaGetErrorString (err));
        ok = FALSE;
      }
    }
    gst_buffer_unmap (frames[i], &map);
  }
  g_free (host);
  if (!ok) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

/* ---- GstCudaMemory maps ---- */

static GstMemoryMapFunction library_map;
static GstMemoryMapFullFunction library_map_full;
static gint host_maps, downloads, uploads;

static void
count_map (GstMemory * mem, GstMapFlags flags)
{
  if ((flags & GST_MAP_CUDA) == GST_MAP_CUDA) {
    if (GST_MEMORY_FLAG_IS_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_UPLOAD))
      g_atomic_int_inc (&uploads);
  } else {
    g_atomic_int_inc (&host_maps);
    if (GST_MEMORY_FLAG_IS_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_DOWNLOAD))
      g_atomic_int_inc (&downloads);
  }
}

static gpointer
counting_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  count_map (mem, flags);
  return library_map (mem, maxsize, flags);
}

static gpointer
counting_map_full (GstMemory * mem, GstMapInfo * info, gsize maxsize)
{
  count_map (mem, info->flags);
  return library_map_full (mem, info, maxsize);
}

gboolean
bench_cuda_count_maps (void)
{
  static gsize done = 0;
  static gboolean hooked = FALSE;

  if (g_once_init_enter (&done)) {
    GstAllocator *allocator;

    gst_cuda_memory_init_once ();
    allocator = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
    if (allocator) {
      /* gst_memory_map calls mem_map_full where an allocator has one. */
      if (allocator->mem_map_full) {
        library_map_full = allocator->mem_map_full;
        allocator->mem_map_full = counting_map_full;
        hooked = TRUE;
      } else if (allocator->mem_map) {
        library_map = allocator->mem_map;
        allocator->mem_map = counting_map;
        hooked = TRUE;
      }
      gst_object_unref (allocator);
    }
    g_once_init_leave (&done, 1);
  }
  return hooked;
}

void
bench_cuda_maps_now (BenchCudaMaps * now)
{
  now->host_maps = (guint) g_atomic_int_get (&host_maps);
  now->downloads = (guint) g_atomic_int_get (&downloads);
  now->uploads = (guint) g_atomic_int_get (&uploads);
}

void
bench_cuda_maps_diff (const BenchCudaMaps * now, const BenchCudaMaps * then,
    BenchCudaMaps * diff)
{
  diff->host_maps = now->host_maps - then->host_maps;
  diff->downloads = now->downloads - then->downloads;
  diff->uploads = now->uploads - then->uploads;
}

/* ---- where buffers live ---- */

typedef struct
{
  BenchCensus *census;
  BenchPadCount count;
  gulong probe;
} PadWatch;

struct _BenchCensus
{
  GMutex lock;
  GstCudaContext *context;      /* given (a reference), or NULL */
  gconstpointer seen;           /* first context seen, compared only */
  GPtrArray *pads;              /* PadWatch */
};

BenchCensus *
bench_census_new (GstCudaContext * context)
{
  BenchCensus *census = g_new0 (BenchCensus, 1);

  g_mutex_init (&census->lock);
  census->context = context ? gst_object_ref (context) : NULL;
  census->pads = g_ptr_array_new ();
  return census;
}

static void
count_buffer (PadWatch * watch, GstBuffer * buffer)
{
  BenchCensus *census = watch->census;
  const guint n = gst_buffer_n_memory (buffer);
  gboolean device = n > 0, ours = n > 0, any_device = FALSE;

  g_mutex_lock (&census->lock);
  for (guint i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (buffer, i);
    if (gst_is_cuda_memory (mem)) {
      gconstpointer context = GST_CUDA_MEMORY_CAST (mem)->context;
      gconstpointer reference = census->context;
      if (!reference) {
        if (!census->seen)
          census->seen = context;
        reference = census->seen;
      }
      any_device = TRUE;
      ours = ours && context == reference;
    } else {
      device = ours = FALSE;
    }
  }
  watch->count.buffers++;
  if (device)
    watch->count.device++;
  if (ours)
    watch->count.ours++;
  if (!any_device)
    watch->count.system++;
  g_mutex_unlock (&census->lock);
}

static gboolean
count_in_list (GstBuffer ** buffer, G_GNUC_UNUSED guint idx, gpointer data)
{
  count_buffer (data, *buffer);
  return TRUE;
}

static GstPadProbeReturn
census_probe (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info,
    gpointer data)
{
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER)
    count_buffer (data, GST_PAD_PROBE_INFO_BUFFER (info));
  else if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER_LIST)
    gst_buffer_list_foreach (GST_PAD_PROBE_INFO_BUFFER_LIST (info),
        count_in_list, data);
  return GST_PAD_PROBE_OK;
}

void
bench_census_watch (BenchCensus * census, GstPad * pad, const gchar * label)
{
  PadWatch *watch = g_new0 (PadWatch, 1);

  watch->census = census;
  watch->count.label = g_strdup (label);
  watch->count.pad = gst_object_ref (pad);
  watch->probe = gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, census_probe, watch, NULL);
  g_ptr_array_add (census->pads, watch);
}

gboolean
bench_census_watch_element (BenchCensus * census, GstBin * bin,
    const gchar * name)
{
  GstElement *element = gst_bin_get_by_name (bin, name);
  GstPad *pad, *peer;
  gchar *label;

  if (!element)
    return FALSE;
  pad = gst_element_get_static_pad (element, "src");
  gst_object_unref (element);
  if (!pad)
    return FALSE;
  peer = gst_pad_get_peer (pad);
  if (peer) {
    GstElement *next = gst_pad_get_parent_element (peer);
    label = g_strdup_printf ("%s -> %s", name,
        next ? GST_OBJECT_NAME (next) : "?");
    gst_clear_object (&next);
    gst_object_unref (peer);
  } else {
    label = g_strdup_printf ("%s ->", name);
  }
  bench_census_watch (census, pad, label);
  g_free (label);
  gst_object_unref (pad);
  return TRUE;
}

guint
bench_census_n_pads (BenchCensus * census)
{
  return census->pads->len;
}

BenchPadCount
bench_census_pad (BenchCensus * census, guint i)
{
  PadWatch *watch = g_ptr_array_index (census->pads, i);
  BenchPadCount count;

  g_mutex_lock (&census->lock);
  count = watch->count;
  g_mutex_unlock (&census->lock);
  return count;
}

/* Whether the caps on `pad` now carry memory:CUDAMemory (FALSE without
 * caps). */
static gboolean
pad_has_cuda_caps (GstPad * pad)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean cuda = FALSE;

  if (caps && gst_caps_get_size (caps) > 0) {
    GstCapsFeatures *features = gst_caps_get_features (caps, 0);
    cuda = features && gst_caps_features_contains (features,
        GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY);
  }
  if (caps)
    gst_caps_unref (caps);
  return cuda;
}

gboolean
bench_census_all_on_device (BenchCensus * census)
{
  gboolean all = census->pads->len > 0;

  for (guint i = 0; i < census->pads->len; i++) {
    BenchPadCount c = bench_census_pad (census, i);
    all = all && c.buffers > 0 && c.ours == c.buffers &&
        pad_has_cuda_caps (c.pad);
  }
  return all;
}

gchar *
bench_census_describe (BenchCensus * census)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < census->pads->len; i++) {
    BenchPadCount c = bench_census_pad (census, i);
    g_string_append_printf (s, "%s%s: %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
        " in CUDA memory of %s context", i ? "; " : "", c.label, c.ours,
        c.buffers, census->context ? "our" : "one");
    if (c.device != c.ours)
      g_string_append_printf (s, " (%" G_GINT64_FORMAT " of another context)",
          c.device - c.ours);
    if (c.system)
      g_string_append_printf (s, " (%" G_GINT64_FORMAT " in system memory)",
          c.system);
    if (!pad_has_cuda_caps (c.pad))
      g_string_append (s, " (caps without memory:CUDAMemory)");
  }
  return g_string_free (s, FALSE);
}

void
bench_census_stop (BenchCensus * census)
{
  for (guint i = 0; i < census->pads->len; i++) {
    PadWatch *watch = g_ptr_array_index (census->pads, i);
    if (watch->probe) {
      gst_pad_remove_probe (watch->count.pad, watch->probe);
      watch->probe = 0;
    }
  }
}

void
bench_census_free (BenchCensus * census)
{
  if (!census)
    return;
  bench_census_stop (census);
  for (guint i = 0; i < census->pads->len; i++) {
    PadWatch *watch = g_ptr_array_index (census->pads, i);
    g_free (watch->count.label);
    gst_object_unref (watch->count.pad);
    g_free (watch);
  }
  g_ptr_array_unref (census->pads);
  gst_clear_object (&census->context);
  g_mutex_clear (&census->lock);
  g_free (census);
}
