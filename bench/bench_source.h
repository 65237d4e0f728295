// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* What the benchmark programs share: their options, frames prepared ahead
 * in the buffer pool a source negotiating its allocation would fill, so that
 * they live where the element wants them (pinned host memory on the CUDA
 * backend), running a pipeline to its end, and writing JSON. Frames in CUDA
 * memory: bench_cuda.h. */
#pragma once

#include <gst/app/app.h>
#include <gst/gst.h>

G_BEGIN_DECLS

/* Parses the command line with `entries` and GStreamer's own options (which
 * initialize it); prints the error and returns FALSE on a bad one. */
gboolean bench_parse_options (const GOptionEntry * entries,
    const gchar * summary, int *argc, char ***argv);

/* Asks the element downstream of `appsrc` for a pool for `caps` (frames of
 * `size` bytes), as a source negotiating its allocation does, or takes a plain
 * video pool when none is offered; configures it for at least `buffers`
 * buffers and activates it. `proposed`, if not NULL, receives the type name of
 * the offered pool (NULL where none was offered; g_free it). NULL where the
 * pool refuses the configuration or its activation. */
GstBufferPool *bench_upstream_pool (GstAppSrc * appsrc, GstCaps * caps,
    guint size, guint buffers, gchar ** proposed);

/* Pseudo-random bytes (xorshift64) from `state`, which moves on. */
void bench_fill_random (guint8 * data, gsize size, guint64 * state);

/* `count` frames of `size` random bytes in `frames`: buffers of `pool`, or
 * of system memory where `pool` is NULL. FALSE where one cannot be had or
 * mapped; those made so far stay in `frames` for the caller to unref. */
gboolean bench_prepare_frames (GstBufferPool * pool, gsize size,
    GstBuffer ** frames, guint count);

/* Sets `pipeline` PLAYING and waits for EOS, at most `timeout_s` seconds;
 * TRUE at EOS. Warnings and errors are printed as they come; the first error
 * (or why there was no EOS) goes to *note where that is still NULL. The
 * pipeline is left in its state: the caller stops it. */
gboolean bench_play_to_eos (GstElement * pipeline, gint timeout_s,
    gchar ** note);

/* Prints an error or warning message (and keeps the first error in *note
 * where note is not NULL and *note still NULL). */
void bench_print_problem (GstMessage * msg, gchar ** note);

/* JSON values appended to `s`: a string (NULL: null), a number (not valid:
 * null). */
void bench_json_string (GString * s, const gchar * value);
void bench_json_number (GString * s, gdouble value, gboolean valid);

/* Median of `n` values (sorts them); NAN where n is 0. */
gdouble bench_median (gdouble * values, guint n);

G_END_DECLS
