// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* What the benchmarks of frames in CUDA memory share (stream-bench --memory
 * cuda, decode-bench): a GstCudaContext given to the pipeline, frames prepared
 * once in a GstCudaBufferPool, and the checks that frames stayed on the
 * device. Built only with gstreamer-cuda-1.0 (gst-plugins-bad 1.22); the
 * library's API is unstable across releases, so these go through
 * GstCudaBufferPool and the 1.22 calls whose signatures did not change. */
#pragma once

#ifndef GST_USE_UNSTABLE_API
#define GST_USE_UNSTABLE_API
#endif

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/gst.h>

G_BEGIN_DECLS

/* A context of its own on `device` (gst_cuda_context_new: cuCtxCreate, not
 * the primary context), or NULL with *why set: no CUDA driver library, no such
 * device, or a context that cannot be made. *name receives the device's name
 * where name is not NULL (g_free it). */
GstCudaContext *bench_cuda_context_new (guint device, gchar ** name,
    gchar ** why);

/* Gives `context` to every element of `pipeline` (gst_element_set_context
 * with a "gst.cuda.context" GstContext), so that those that ask for one
 * share it. Before the pipeline goes to PAUSED. */
void bench_cuda_share_context (GstElement * pipeline, GstCudaContext * context);

/* `count` frames of random bytes for `caps` (video/x-raw(memory:CUDAMemory))
 * in buffers of a new GstCudaBufferPool of `context`: each buffer is mapped
 * with GST_MAP_CUDA | GST_MAP_WRITE and written from the host with the
 * runtime API while the context is pushed, so that it never gets a host copy
 * (the library keeps none until a host map asks for one). Returns the active
 * pool (deactivate and unref it after the frames), or NULL with *why set;
 * frames made so far stay in `frames` for the caller to unref. */
GstBufferPool *bench_cuda_prepare_frames (GstCudaContext * context,
    GstCaps * caps, GstBuffer ** frames, guint count, gchar ** why);

/* GstCudaMemory maps, counted process-wide once bench_cuda_count_maps has
 * hooked the library's allocator (FALSE where it cannot be found):
 *   host_maps       maps without GST_MAP_CUDA (host access to device memory);
 *   downloads       those of them that found the host copy stale or missing,
 *                   so that the library copied the frame down first;
 *   uploads         GST_MAP_CUDA maps that found a newer host copy, so that
 *                   the library copied it up first.
 * Each of these is a frame that left the device (or came back to it) through
 * the library; copies an element makes by itself are what the GPU activity
 * census (gpu_activity.h) sees. */
typedef struct
{
  guint64 host_maps;
  guint64 downloads;
  guint64 uploads;
} BenchCudaMaps;

gboolean bench_cuda_count_maps (void);
/* The counts so far. */
void bench_cuda_maps_now (BenchCudaMaps * now);
/* now - then, field by field. */
void bench_cuda_maps_diff (const BenchCudaMaps * now,
    const BenchCudaMaps * then, BenchCudaMaps * diff);

/* Where the buffers crossing some pads lived: counted by buffer probes. A
 * buffer is "device" when every memory of it is a GstCudaMemory, "ours" when
 * those memories belong to the census's context: the one given, or else the
 * first context a watched pad saw. */
typedef struct
{
  gchar *label;                 /* e.g. "dec -> f0" */
  GstPad *pad;
  gint64 buffers;
  gint64 device;                /* every memory a GstCudaMemory */
  gint64 ours;                  /* ... of the census's context */
  gint64 system;                /* no GstCudaMemory at all */
} BenchPadCount;

typedef struct _BenchCensus BenchCensus;

BenchCensus *bench_census_new (GstCudaContext * context);
/* Counts the buffers leaving through `pad` (a src pad). */
void bench_census_watch (BenchCensus * census, GstPad * pad,
    const gchar * label);
/* Watches the src pad of the element called `name` in `bin`, labelled
 * "name -> its peer's element"; FALSE where there is no such element. */
gboolean bench_census_watch_element (BenchCensus * census, GstBin * bin,
    const gchar * name);
guint bench_census_n_pads (BenchCensus * census);
/* A copy of the counts of pad i so far (label and pad borrowed). */
BenchPadCount bench_census_pad (BenchCensus * census, guint i);
/* Whether every buffer at every watched pad was device memory of one
 * context (and at least one buffer crossed each), and each pad's caps carry
 * memory:CUDAMemory. Before the pipeline stops (caps go at READY). */
gboolean bench_census_all_on_device (BenchCensus * census);
/* "label: ours/buffers ..." for each pad, separated by "; "; before the
 * pipeline stops. */
gchar *bench_census_describe (BenchCensus * census);
/* Removes the probes; the counts stay readable until freed. */
void bench_census_stop (BenchCensus * census);
void bench_census_free (BenchCensus * census);

G_END_DECLS
