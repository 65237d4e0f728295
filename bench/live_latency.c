// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* live-latency: what an element adds to a live source's frames. A live appsrc
 * pushes frames at the source's own pace (30 fps: one every 33.3 ms, timed on
 * the host's clock, as a camera gives them) through ELEMENT ! fakesink
 * sync=false; each frame's latency is the time from its push to its arrival
 * at the sink. Reported per element and frames-in-flight: the median and the
 * largest latency, and the minimum latency the element's LATENCY answer adds
 * to the source's. identity is the pipeline's own share.
 *
 * With --push-pull, an application's request and response instead: a non-live
 * appsrc gets each frame only once the one before has reached the sink (or
 * PUSH_PULL_WAIT_S has passed: the frame is then counted as not arrived), and
 * the latency is its round trip.
 *
 *   GST_PLUGIN_PATH=build/plugin build/bench/live-latency --backend cuda
 *   GST_PLUGIN_PATH=build/plugin build/bench/live-latency --depths 1,2,8 --frames 60
 *   GST_PLUGIN_PATH=build/plugin build/bench/live-latency --push-pull --frames 20
 */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_source.h"

#define PREPARED 4
#define EOS_TIMEOUT_S 120
#define PUSH_PULL_WAIT_S 1

typedef struct
{
  gchar *backend;
  gchar *format;
  gint width, height, fps;
  gint frames;
  gchar *depths;
  gchar *elements;
  gchar *json;
  gboolean push_pull;
} Options;

/* One run, shared with the feeding thread and the sink's streaming thread. */
typedef struct
{
  GstAppSrc *src;
  GstBuffer *prepared[PREPARED];
  GstClockTime duration;
  gint frames;
  gboolean push_pull;
  GMutex lock;
  GCond arrived;
  gint64 *pushed_us;            /* per frame: when it was pushed */
  gdouble *latency_ms;          /* per frame: push to sink, < 0: not arrived */
} Run;

typedef struct
{
  gboolean ok;
  gchar *note;
  gint arrived;
  gdouble median_ms, max_ms;
  gdouble reported_ms;          /* the element's LATENCY minimum, less the source's */
} Outcome;

static void
on_handoff (G_GNUC_UNUSED GstElement * sink, GstBuffer * buffer,
    G_GNUC_UNUSED GstPad * pad, gpointer data)
{
  Run *run = data;
  const gint64 now = g_get_monotonic_time ();
  const gint index = (gint) (GST_BUFFER_PTS (buffer) / run->duration);
  g_mutex_lock (&run->lock);
  if (index >= 0 && index < run->frames && run->pushed_us[index] > 0)
    run->latency_ms[index] = (now - run->pushed_us[index]) / 1000.0;
  g_cond_signal (&run->arrived);
  g_mutex_unlock (&run->lock);
}

/* Push-pull: until frame `i` has reached the sink, PUSH_PULL_WAIT_S at most. */
static void
wait_for_arrival (Run * run, gint i)
{
  const gint64 deadline = g_get_monotonic_time () +
      PUSH_PULL_WAIT_S * G_TIME_SPAN_SECOND;
  g_mutex_lock (&run->lock);
  while (run->latency_ms[i] < 0 &&
      g_cond_wait_until (&run->arrived, &run->lock, deadline));
  g_mutex_unlock (&run->lock);
}

/* Pushes the frames at the source's pace (push-pull: each once the one before
 * has arrived), then EOS. */
static gpointer
feed (gpointer data)
{
  Run *run = data;
  const gint64 start = g_get_monotonic_time ();
  for (gint i = 0; i < run->frames; i++) {
    const gint64 due = start + (gint64) (i * run->duration / GST_USECOND);
    GstBuffer *buffer = gst_buffer_copy (run->prepared[i % PREPARED]);
    gint64 now = g_get_monotonic_time ();
    if (run->push_pull && i > 0)
      wait_for_arrival (run, i - 1);
    else if (due > now)
      g_usleep (due - now);
    GST_BUFFER_PTS (buffer) = i * run->duration;
    GST_BUFFER_DURATION (buffer) = run->duration;
    g_mutex_lock (&run->lock);
    run->pushed_us[i] = g_get_monotonic_time ();
    g_mutex_unlock (&run->lock);
    if (gst_app_src_push_buffer (run->src, buffer) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (run->src);
  return NULL;
}

static gboolean
prepare (Run * run, GstCaps * caps, const GstVideoInfo * info)
{
  GstBufferPool *pool = bench_upstream_pool (run->src, caps,
      GST_VIDEO_INFO_SIZE (info), PREPARED, NULL);
  gboolean ok = pool && bench_prepare_frames (pool,
      GST_VIDEO_INFO_SIZE (info), run->prepared, PREPARED);
  if (pool) {
    /* The frames keep the pool's memory; the pool goes when they do. */
    gst_object_unref (pool);
  }
  return ok;
}

/* The element's own LATENCY answer, less what upstream answered. */
static gdouble
reported_latency_ms (GstElement * element)
{
  GstPad *src = gst_element_get_static_pad (element, "src");
  GstPad *sink = gst_element_get_static_pad (element, "sink");
  GstQuery *ours = gst_query_new_latency (), *upstream = gst_query_new_latency ();
  GstClockTime min = 0, upstream_min = 0;
  gdouble ms = -1;
  if (gst_pad_query (src, ours) && gst_pad_peer_query (sink, upstream)) {
    gst_query_parse_latency (ours, NULL, &min, NULL);
    gst_query_parse_latency (upstream, NULL, &upstream_min, NULL);
    ms = (gdouble) GST_CLOCK_DIFF (upstream_min, min) / GST_MSECOND;
  }
  gst_query_unref (ours);
  gst_query_unref (upstream);
  gst_object_unref (src);
  gst_object_unref (sink);
  return ms;
}

static Outcome
run_case (const Options * opts, const gchar * element_name, gint depth)
{
  Outcome out = {.median_ms = -1,.max_ms = -1,.reported_ms = -1 };
  Run run = {.frames = opts->frames,.push_pull = opts->push_pull };
  GstVideoInfo info;
  gst_video_info_set_format (&info, gst_video_format_from_string (opts->format),
      opts->width, opts->height);
  GST_VIDEO_INFO_FPS_N (&info) = opts->fps;
  GST_VIDEO_INFO_FPS_D (&info) = 1;
  GstCaps *caps = gst_video_info_to_caps (&info);
  run.duration = gst_util_uint64_scale_int (GST_SECOND, 1, opts->fps);
  g_mutex_init (&run.lock);
  g_cond_init (&run.arrived);
  run.pushed_us = g_new0 (gint64, run.frames);
  run.latency_ms = g_new (gdouble, run.frames);
  for (gint i = 0; i < run.frames; i++)
    run.latency_ms[i] = -1;

  gchar *description = g_strdup_printf ("appsrc name=src is-live=%s "
      "format=time ! %s name=f ! fakesink name=sink sync=false "
      "signal-handoffs=true enable-last-sample=false",
      opts->push_pull ? "false" : "true", element_name);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  g_free (description);
  GstElement *element = NULL, *sink = NULL;
  GThread *feeder = NULL;
  if (err) {
    out.note = g_strdup (err->message);
    g_clear_error (&err);
    goto done;
  }
  run.src = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (pipeline), "src"));
  element = gst_bin_get_by_name (GST_BIN (pipeline), "f");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (element), "backend")) {
    gst_util_set_object_arg (G_OBJECT (element), "backend", opts->backend);
    g_object_set (element, "frames-in-flight", (guint) depth, NULL);
  }
  g_object_set (run.src, "caps", caps, NULL);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &run);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE || !prepare (&run, caps, &info)) {
    out.note = g_strdup ("could not start or prepare the frames");
    goto done;
  }
  feeder = g_thread_new ("feed", feed, &run);
  out.ok = bench_play_to_eos (pipeline, EOS_TIMEOUT_S, &out.note);
  g_thread_join (feeder);
  out.reported_ms = reported_latency_ms (element);

  {
    gdouble *arrived = g_new (gdouble, run.frames);
    for (gint i = 0; i < run.frames; i++)
      if (run.latency_ms[i] >= 0) {
        arrived[out.arrived++] = run.latency_ms[i];
        out.max_ms = MAX (out.max_ms, run.latency_ms[i]);
      }
    out.median_ms = out.arrived ? bench_median (arrived, out.arrived) : -1;
    g_free (arrived);
  }
  if (out.ok && out.arrived != run.frames)
    out.note = g_strdup_printf ("%d of %d frames arrived", out.arrived,
        run.frames);

done:
  if (pipeline)
    gst_element_set_state (pipeline, GST_STATE_NULL);
  for (gint i = 0; i < PREPARED; i++)
    gst_clear_buffer (&run.prepared[i]);
  gst_clear_object (&run.src);
  gst_clear_object (&element);
  gst_clear_object (&sink);
  gst_clear_object (&pipeline);
  gst_caps_unref (caps);
  g_free (run.pushed_us);
  g_free (run.latency_ms);
  g_cond_clear (&run.arrived);
  g_mutex_clear (&run.lock);
  return out;
}

/* Runs one case, prints its row and appends it to `json`; TRUE where every
 * frame arrived. */
static gboolean
measure (const Options * opts, const gchar * name, gint depth, GString * json)
{
  Outcome o = run_case (opts, name, depth);
  const gboolean ok = o.ok && !o.note;
  g_print ("%-34s %5d %12.2f %10.2f %12.2f  %s\n", name, depth, o.median_ms,
      o.max_ms, o.reported_ms, o.note ? o.note : "");
  if (json->str[json->len - 1] == '}')
    g_string_append (json, ",");
  g_string_append (json, "\n  {\"element\": ");
  bench_json_string (json, name);
  g_string_append_printf (json, ", \"frames_in_flight\": %d, \"median_ms\": ",
      depth);
  bench_json_number (json, o.median_ms, o.median_ms >= 0);
  g_string_append (json, ", \"max_ms\": ");
  bench_json_number (json, o.max_ms, o.max_ms >= 0);
  g_string_append (json, ", \"reported_ms\": ");
  bench_json_number (json, o.reported_ms, o.reported_ms >= 0);
  g_string_append (json, ", \"note\": ");
  bench_json_string (json, o.note);
  g_string_append (json, "}");
  g_free (o.note);
  return ok;
}

int
main (int argc, char *argv[])
{
  Options opts = {.backend = g_strdup ("cuda"),.format = g_strdup ("NV12"),
    .width = 1920,.height = 1080,.fps = 30,.frames = 60,
    .depths = g_strdup ("1,2,8"),
    .elements = g_strdup ("cudamedian,cudagauss,cudahist")
  };
  const GOptionEntry entries[] = {
    {"backend", 0, 0, G_OPTION_ARG_STRING, &opts.backend,
        "backend of our elements (default cuda)", "cpu|cuda|auto"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &opts.format,
        "the frames' format (default NV12)", "FORMAT"},
    {"width", 0, 0, G_OPTION_ARG_INT, &opts.width, "default 1920", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &opts.height, "default 1080", "H"},
    {"fps", 0, 0, G_OPTION_ARG_INT, &opts.fps, "the source's rate (default 30)",
        "N"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &opts.frames,
        "frames per case (default 60)", "N"},
    {"depths", 0, 0, G_OPTION_ARG_STRING, &opts.depths,
        "frames-in-flight values (default 1,2,8)", "LIST"},
    {"elements", 0, 0, G_OPTION_ARG_STRING, &opts.elements,
          "elements, each with its properties, comma-separated (default "
          "cudamedian,cudagauss,cudahist)", "LIST"},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, &opts.json, "also write JSON here",
        "FILE"},
    {"push-pull", 0, 0, G_OPTION_ARG_NONE, &opts.push_pull,
        "a non-live source that pushes each frame once the one before is out",
        NULL},
    {NULL}
  };
  if (!bench_parse_options (entries, "- latency a live source's frames meet",
          &argc, &argv) || opts.frames < 1 || opts.fps < 1)
    return 2;

  gchar **depths = g_strsplit (opts.depths, ",", -1);
  gchar **elements = g_strsplit (opts.elements, ",", -1);
  GString *json = g_string_new ("{\"program\": \"live-latency\", \"cases\": [");
  gboolean all_ok = TRUE;
  g_print ("%s %dx%d %s, %d frames per case, backend %s\n",
      opts.format, opts.width, opts.height, opts.push_pull ?
      "pushed and pulled back one at a time" : "live", opts.frames,
      opts.backend);
  g_print ("%-34s %5s %12s %10s %12s  %s\n", "element", "depth",
      "median (ms)", "max (ms)", "LATENCY (ms)", "note");
  all_ok &= measure (&opts, "identity", 0, json);
  for (gint e = 0; elements[e]; e++)
    for (gint d = 0; depths[d]; d++)
      all_ok &= measure (&opts, elements[e], atoi (depths[d]), json);
  g_string_append (json, "\n]}\n");
  if (opts.json && !g_file_set_contents (opts.json, json->str, -1, NULL)) {
    g_printerr ("could not write %s\n", opts.json);
    all_ok = FALSE;
  }
  g_string_free (json, TRUE);
  g_strfreev (depths);
  g_strfreev (elements);
  return all_ok ? 0 : 1;
}
