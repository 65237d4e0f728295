// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* What the GPU did while a pipeline ran, from CUPTI's activity records (the
 * CUDA toolkit's profiling interface, the one Nsight Systems builds on): every
 * kernel, memset and memory copy of every CUDA context in the process, with
 * device timestamps. Where this build has no CUPTI (or the driver refuses it)
 * bench_gpu_activity_start says why and nothing is counted.
 *
 * Tracing costs a little per launch: the benchmarks time their pipelines in
 * runs without it and trace separate runs (a census) afterwards. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 kernels;
  gdouble kernel_us;            /* sum of kernel durations */
  gdouble kernel_busy_us;       /* time at least one kernel ran: their union */
  guint64 memsets;
  gdouble memset_us;
  /* Copies by direction: host to device (HtoD, HtoA), device to host (DtoH,
   * AtoH), on the device (DtoD, DtoA, AtoD, AtoA, peer), other (HtoH, ...). */
  guint64 up, down, on_device, other;
  guint64 up_bytes, down_bytes, on_device_bytes, other_bytes;
  guint64 largest_host_copy;    /* bytes of the largest up or down copy */
  gdouble copy_us;              /* sum of copy durations, all directions */
  /* Time at least one traced operation ran: the union of all intervals. */
  gdouble busy_us;
  guint64 dropped;              /* records CUPTI lost (then counts are low) */
} BenchGpuActivity;

/* Whether this build traces at all (CUPTI found at build time). */
gboolean bench_gpu_activity_built (void);

/* Starts tracing (the first call registers with CUPTI). FALSE with *why
 * set where it cannot. */
gboolean bench_gpu_activity_start (gchar ** why);

/* Flushes what was traced since the start, stops tracing and sums it up.
 * Work still queued on the device when this is called may be missed: call it
 * once the pipeline has finished (at EOS every element has synchronised).
 * FALSE with *why set where tracing failed. */
gboolean bench_gpu_activity_stop (BenchGpuActivity * totals, gchar ** why);

G_END_DECLS
