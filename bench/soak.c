// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* soak: a long run of appsrc ! cudamedian ! cudagauss ! cudahist ! fakesink
 * that checks that nothing grows with the frames.
 *
 * A few frames of random data are prepared ahead in buffers of the pool
 * cudamedian proposes (pinned host memory on the CUDA backend) and pushed
 * again and again as shallow copies, so the source costs nothing. At the sink
 * every frame is counted and must carry cudahist's GstCudaHistMeta; cudahist's
 * bus messages are drained as an application would. Two samples are taken on
 * the streaming thread, where no element is working: when the warm-up frames
 * have arrived (pools filled, kernels loaded) and at EOS, before the pipeline
 * stops. Each holds the host's resident memory (VmRSS), open file descriptors,
 * threads and, on the CUDA backend, the device memory in use (cudaMemGetInfo:
 * total - free, device-wide, so run on an otherwise idle GPU).
 *
 * Verdict "flat" when, from the first sample to the second,
 *   - RSS grew by less than 8 MiB (not judged under AddressSanitizer, whose
 *     quarantine holds freed memory back),
 *   - open file descriptors and threads are the same,
 *   - device memory in use did not grow,
 * and every frame pushed came out with the meta and no error was posted.
 * Otherwise "GROWING" (or a failure), and the exit status is 1.
 *
 * With --regions N every frame carries N regions of interest (boxes inside,
 * across the edges and outside the frame; types the elements take, others and
 * none) and the elements work on them (regions=meta); with --changes N, every
 * N frames one property of one element changes while the frames flow (window,
 * sigma, bins, frames-in-flight, region-types, include-chroma, regions), in a
 * fixed cycle of valid values.
 *
 *   GST_PLUGIN_PATH=build/plugin build/bench/soak --backend cuda --frames 1000000
 *   GST_PLUGIN_PATH=build/plugin build/bench/soak --backend cpu --width 160 \
 *       --height 120 --frames 3000
 *   GST_PLUGIN_PATH=build/plugin build/bench/soak --backend cpu --width 160 \
 *       --height 120 --frames 20000 --regions 16 --changes 100
 */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <stdio.h>
#include <string.h>

#include "bench_source.h"

/* Distinct prepared buffers, more than the deepest frames-in-flight. */
#define PREPARED 4
#define RSS_GROWTH_LIMIT_KIB (8 * 1024)
/* No frame for this long: the pipeline is stuck. */
#define STALL_TIMEOUT_S 60
#define PROGRESS_INTERVAL_S 10

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

typedef struct
{
  gint frames;
  gint warmup;
  gint width;
  gint height;
  gchar *format;
  gchar *backend;
  gint device_id;
  gint regions;
  gint changes;
} Options;

typedef struct
{
  gint frame;                   /* frames at the sink when taken */
  gint64 rss_kib;
  gint fds;
  gint threads;
  gint64 device_used;           /* bytes; < 0: not measured */
} Sample;

/* One run, shared with the streaming thread. */
typedef struct
{
  const Options *opts;
  GstVideoInfo info;
  GstCaps *caps;
  GstClockTime duration;
  GstBufferPool *pool;
  GstBuffer *prepared[PREPARED];
  gboolean setup_failed;
  gint pushed;                  /* only appsrc's streaming thread touches it */
  GstElement *median;
  GstElement *elements[3];      /* median, gauss, hist: for --changes */
  gint device;                  /* the CUDA device measured; < 0: none */

  GMutex lock;
  gint arrived;
  gint with_meta;
  gboolean have_start, have_end;
  Sample start, end;
} Soak;

/* ---- samples ---- */

/* VmRSS and Threads of /proc/self/status; each stays -1 if not found. */
static void
read_status (Sample * sample)
{
  gchar *text = NULL;
  gchar **lines;

  sample->rss_kib = -1;
  sample->threads = -1;
  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (gchar ** line = lines; *line; line++) {
    sscanf (*line, "VmRSS: %" G_GINT64_FORMAT, &sample->rss_kib);
    sscanf (*line, "Threads: %d", &sample->threads);
  }
  g_strfreev (lines);
  g_free (text);
}

/* Entries of /proc/self/fd (the one the listing itself opens included, in
 * every sample alike). */
static gint
count_fds (void)
{
  GDir *dir = g_dir_open ("/proc/self/fd", 0, NULL);
  gint fds = 0;

  if (!dir)
    return -1;
  while (g_dir_read_name (dir))
    fds++;
  g_dir_close (dir);
  return fds;
}

static gint64
device_memory_used (gint device)
{
#ifdef CF_HAVE_CUDA
  size_t free_bytes = 0, total_bytes = 0;

  if (device < 0 || cudaSetDevice (device) != cudaSuccess ||
      cudaMemGetInfo (&free_bytes, &total_bytes) != cudaSuccess)
    return -1;
  return (gint64) (total_bytes - free_bytes);
#else
  (void) device;
  return -1;                    /* built without CUDA: the CPU backend alone */
#endif
}

/* The device first: the first measurement makes the runtime's primary
 * context (the elements use a context of their own), whose host memory,
 * files and thread must fall before both samples' host figures. */
static void
take_sample (Soak * soak, Sample * sample, gint frame)
{
  sample->frame = frame;
  sample->device_used = device_memory_used (soak->device);
  read_status (sample);
  sample->fds = count_fds ();
}

/* The CUDA device the elements run on, or -1 on the CPU backend. */
static gint
device_in_use (Soak * soak)
{
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (soak->median), "active-backend");
  GEnumValue *value;
  gint active;

  g_object_get (soak->median, "active-backend", &active, NULL);
  value = g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class, active);
  if (!value || strcmp (value->value_nick, "cuda") != 0)
    return -1;
  return MAX (soak->opts->device_id, 0);
}

/* ---- the pipeline ---- */

/* Frames and EOS at the sink; the samples. */
static GstPadProbeReturn
sink_probe (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Soak *soak = data;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER (info);
    const gboolean meta =
        gst_buffer_get_custom_meta (buffer, "GstCudaHistMeta") != NULL;
    gint arrived;

    g_mutex_lock (&soak->lock);
    arrived = ++soak->arrived;
    soak->with_meta += meta;
    g_mutex_unlock (&soak->lock);
    if (arrived == soak->opts->warmup) {
      Sample start;
      soak->device = device_in_use (soak);
      take_sample (soak, &start, arrived);
      g_mutex_lock (&soak->lock);
      soak->start = start;
      soak->have_start = TRUE;
      g_mutex_unlock (&soak->lock);
    }
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS) {
    Sample end;
    gint arrived;

    g_mutex_lock (&soak->lock);
    arrived = soak->arrived;
    g_mutex_unlock (&soak->lock);
    take_sample (soak, &end, arrived);
    g_mutex_lock (&soak->lock);
    soak->end = end;
    soak->have_end = TRUE;
    g_mutex_unlock (&soak->lock);
  }
  return GST_PAD_PROBE_OK;
}

/* PREPARED frames of random bytes in cudamedian's pool (bench_upstream_pool). */
static gboolean
prepare_frames (Soak * soak, GstAppSrc * appsrc)
{
  const guint size = GST_VIDEO_INFO_SIZE (&soak->info);

  soak->pool = bench_upstream_pool (appsrc, soak->caps, size, PREPARED, NULL);
  return soak->pool &&
      bench_prepare_frames (soak->pool, size, soak->prepared, PREPARED);
}

/* --regions: `count` regions of interest as a detector may attach them. */
static void
add_regions (GstBuffer * buffer, gint count, gint width, gint height,
    gint frame)
{
  static const gchar *const types[] = { "face", "plate", NULL };
  for (gint r = 0; r < count; r++) {
    const gchar *type = types[(frame + r) % G_N_ELEMENTS (types)];
    /* Inside, across the right and bottom edges, and (every eighth) outside. */
    const guint x = r % 8 == 7 ? width + 5 : (r * 13 + frame) % width;
    const guint y = r % 8 == 7 ? height + 5 : (r * 7 + frame) % height;
    gst_buffer_add_video_region_of_interest_meta_id (buffer,
        type ? g_quark_from_static_string (type) : 0, x, y, 8 + r % 24,
        6 + r % 17);
  }
}

/* --changes: the next property change of the cycle, each a valid value. */
static void
change_a_property (Soak * soak, gint change)
{
  static const struct
  {
    gint element;               /* median, gauss, hist */
    const gchar *name;
    const gchar *value;
  } cycle[] = {
    {0, "size", "5"}, {1, "sigma", "2.5"}, {2, "bins", "64"},
    {0, "frames-in-flight", "1"}, {1, "region-types", "face"},
    {2, "include-chroma", "true"}, {0, "size", "3"}, {1, "sigma", "1.0"},
    {2, "bins", "256"}, {0, "frames-in-flight", "3"},
    {1, "region-types", ""}, {2, "include-chroma", "false"},
    {2, "regions", "frame"}, {1, "frames-in-flight", "1"},
    {2, "regions", "meta"}, {1, "frames-in-flight", "2"},
  };
  const gint n = soak->opts->regions > 0 ? G_N_ELEMENTS (cycle) :
      G_N_ELEMENTS (cycle) - 4;
  const gint c = change % n;
  gst_util_set_object_arg (G_OBJECT (soak->elements[cycle[c].element]),
      cycle[c].name, cycle[c].value);
}

/* appsrc's need-data: one more frame, or the end. */
static void
feed_frame (GstAppSrc * appsrc, G_GNUC_UNUSED guint length, gpointer data)
{
  Soak *soak = data;
  GstBuffer *buffer;

  if (soak->setup_failed)
    return;
  if (soak->pushed == 0 && !prepare_frames (soak, appsrc)) {
    soak->setup_failed = TRUE;
    GST_ELEMENT_ERROR (appsrc, RESOURCE, SETTINGS,
        ("Could not prepare the input frames"), (NULL));
    return;
  }
  if (soak->pushed == soak->opts->frames) {
    gst_app_src_end_of_stream (appsrc);
    return;
  }
  if (soak->opts->changes > 0 && soak->pushed > 0 &&
      soak->pushed % soak->opts->changes == 0)
    change_a_property (soak, soak->pushed / soak->opts->changes - 1);
  /* A shallow copy: its own timestamps, the prepared memory. */
  buffer = gst_buffer_copy (soak->prepared[soak->pushed % PREPARED]);
  GST_BUFFER_PTS (buffer) = soak->pushed * soak->duration;
  GST_BUFFER_DURATION (buffer) = soak->duration;
  add_regions (buffer, soak->opts->regions, soak->opts->width,
      soak->opts->height, soak->pushed);
  soak->pushed++;
  gst_app_src_push_buffer (appsrc, buffer);
}

static void
print_problem (GstMessage * msg)
{
  GError *err = NULL;
  gchar *debug = NULL;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &debug);
  else
    gst_message_parse_warning (msg, &err, &debug);
  g_printerr ("%s from %s: %s\n", GST_MESSAGE_TYPE_NAME (msg),
      GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
  g_clear_error (&err);
  g_free (debug);
}

/* Runs the pipeline to EOS, draining the bus. FALSE on an error or a stall. */
static gboolean
run_pipeline (Soak * soak, GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  gint64 last_progress_us = g_get_monotonic_time ();
  gint64 last_frame_us = last_progress_us;
  const gint64 start_us = last_progress_us;
  gint last_arrived = 0;
  gboolean ok = FALSE, done = FALSE;

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    g_printerr ("could not start the pipeline\n");
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop (bus, GST_SECOND / 10);
    const gint64 now_us = g_get_monotonic_time ();
    gint arrived;

    g_mutex_lock (&soak->lock);
    arrived = soak->arrived;
    g_mutex_unlock (&soak->lock);
    if (arrived != last_arrived) {
      last_arrived = arrived;
      last_frame_us = now_us;
    } else if (now_us - last_frame_us > STALL_TIMEOUT_S * G_USEC_PER_SEC) {
      g_printerr ("no frame for %d s after %d: stuck\n", STALL_TIMEOUT_S,
          arrived);
      done = TRUE;
    }
    if (now_us - last_progress_us > PROGRESS_INTERVAL_S * G_USEC_PER_SEC) {
      g_print ("  %d frames, %.0f fps\n", arrived,
          arrived / ((now_us - start_us) / 1e6));
      last_progress_us = now_us;
    }
    if (!msg)
      continue;
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_EOS:
        ok = done = TRUE;
        break;
      case GST_MESSAGE_ERROR:
        print_problem (msg);
        done = TRUE;
        break;
      case GST_MESSAGE_WARNING:
        print_problem (msg);
        break;
      default:                 /* cudahist's messages among them */
        break;
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  g_print ("%d frames in %.1f s\n", last_arrived,
      (g_get_monotonic_time () - start_us) / 1e6);
  return ok;
}

/* ---- the verdict ---- */

static gchar *
format_device (gint64 bytes)
{
  return bytes < 0 ? g_strdup ("n/a") :
      g_strdup_printf ("%.1f MiB", bytes / 1048576.0);
}

/* Prints the table; TRUE when flat. */
static gboolean
judge (const Sample * start, const Sample * end)
{
  const gint64 rss_growth = end->rss_kib - start->rss_kib;
  const gboolean device_measured = start->device_used >= 0 &&
      end->device_used >= 0;
  const gint64 device_growth = end->device_used - start->device_used;
  gchar *device_start = format_device (start->device_used);
  gchar *device_end = format_device (end->device_used);
  gchar *device_change = device_measured ?
      g_strdup_printf ("%+.1f MiB", device_growth / 1048576.0) :
      g_strdup ("n/a");
  gboolean rss_ok = start->rss_kib >= 0 && end->rss_kib >= 0 &&
      rss_growth < RSS_GROWTH_LIMIT_KIB;
  gchar *rss_limit = g_strdup_printf ("< +%d KiB", RSS_GROWTH_LIMIT_KIB);
  const gboolean fds_ok = start->fds >= 0 && end->fds == start->fds;
  const gboolean threads_ok = start->threads >= 0 &&
      end->threads == start->threads;
  /* Measured in both samples or in neither (the CPU backend). */
  const gboolean device_ok = device_measured ? device_growth <= 0 :
      start->device_used < 0 && end->device_used < 0;

#ifdef UNDER_ASAN
  rss_ok = TRUE;
  g_free (rss_limit);
  rss_limit = g_strdup ("not judged (ASan)");
#endif
  g_print ("%-20s %14s %14s %14s  %s\n", "", "start", "end", "change",
      "limit");
  g_print ("%-20s %14d %14d %+14d\n", "frame", start->frame, end->frame,
      end->frame - start->frame);
  g_print ("%-20s %10" G_GINT64_FORMAT " KiB %10" G_GINT64_FORMAT " KiB %+10"
      G_GINT64_FORMAT " KiB  %s%s\n", "host RSS", start->rss_kib, end->rss_kib,
      rss_growth, rss_limit, rss_ok ? "" : "  EXCEEDED");
  g_print ("%-20s %14d %14d %+14d  +0%s\n", "open fds", start->fds, end->fds,
      end->fds - start->fds, fds_ok ? "" : "  EXCEEDED");
  g_print ("%-20s %14d %14d %+14d  +0%s\n", "threads", start->threads,
      end->threads, end->threads - start->threads,
      threads_ok ? "" : "  EXCEEDED");
  g_print ("%-20s %14s %14s %14s  %s%s\n", "device memory used", device_start,
      device_end, device_change, device_measured ? "<= +0" : "",
      device_ok ? "" : "  EXCEEDED");
  g_free (rss_limit);
  g_free (device_start);
  g_free (device_end);
  g_free (device_change);
  return rss_ok && fds_ok && threads_ok && device_ok;
}

/* ---- main ---- */

static gboolean
parse_options (Options * opts, int *argc, char ***argv)
{
  const GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT, &opts->frames,
        "Frames to push (default 100000)", "N"},
    {"warmup", 0, 0, G_OPTION_ARG_INT, &opts->warmup,
        "Frames before the first sample (default 1% of --frames, at least "
          "1000 or a tenth of them)", "N"},
    {"width", 0, 0, G_OPTION_ARG_INT, &opts->width,
        "Frame width (default 1920)", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &opts->height,
        "Frame height (default 1080)", "H"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &opts->format,
        "Video format (default GRAY8)", "FORMAT"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &opts->backend,
        "Backend of the three elements: auto, cuda or cpu (default auto)",
        "BACKEND"},
    {"device-id", 0, 0, G_OPTION_ARG_INT, &opts->device_id,
        "CUDA device of the three elements (default -1: the first)", "ID"},
    {"regions", 0, 0, G_OPTION_ARG_INT, &opts->regions,
        "Regions of interest on every frame, worked on (default 0: none, the "
          "whole frame)", "N"},
    {"changes", 0, 0, G_OPTION_ARG_INT, &opts->changes,
        "Every N frames a property of an element changes (default 0: never)",
        "N"},
    {NULL}
  };
  if (!bench_parse_options (entries, "- appsrc ! cudamedian ! cudagauss ! "
          "cudahist ! fakesink for many frames: does anything grow?", argc,
          argv))
    return FALSE;
  if (!opts->format)
    opts->format = g_strdup ("GRAY8");
  if (gst_video_format_from_string (opts->format) == GST_VIDEO_FORMAT_UNKNOWN) {
    g_printerr ("--format %s: not a video format\n", opts->format);
    return FALSE;
  }
  if (!opts->backend)
    opts->backend = g_strdup ("auto");
  if (opts->warmup == 0)
    opts->warmup = MAX (opts->frames / 100, MIN (1000, opts->frames / 10));
  if (opts->warmup < 1 || opts->warmup >= opts->frames) {
    g_printerr ("--warmup must be at least 1 and below --frames\n");
    return FALSE;
  }
  if (opts->regions < 0 || opts->changes < 0) {
    g_printerr ("--regions and --changes take 0 or more\n");
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char **argv)
{
  Options opts = {.frames = 100000,.width = 1920,.height = 1080,
    .device_id = -1
  };
  Soak soak = {.opts = &opts,.device = -1 };
  GstElement *pipeline = NULL, *src, *sink;
  GstAppSrcCallbacks callbacks = {.need_data = feed_frame };
  GError *err = NULL;
  GstPad *sinkpad;
  gboolean ran, flat = FALSE;
  gint pushed, arrived, with_meta, status;

  if (!parse_options (&opts, &argc, &argv)) {
    g_free (opts.format);
    g_free (opts.backend);
    return 2;
  }
  {
    gchar *elements = g_strdup_printf ("backend=%s cuda-device-id=%d%s",
        opts.backend, opts.device_id, opts.regions > 0 ? " regions=meta" : "");
    gchar *description = g_strdup_printf ("appsrc name=src format=time "
        "stream-type=stream ! cudamedian name=median %s ! cudagauss name=gauss "
        "%s ! cudahist name=hist %s ! fakesink name=sink sync=false "
        "enable-last-sample=false async=false", elements, elements, elements);
    pipeline = gst_parse_launch (description, &err);
    g_free (description);
    g_free (elements);
  }
  if (err) {
    g_printerr ("Could not build the pipeline: %s\n", err->message);
    if (g_error_matches (err, GST_PARSE_ERROR, GST_PARSE_ERROR_NO_SUCH_ELEMENT))
      g_printerr ("Is GST_PLUGIN_PATH set to the build's plugin folder (e.g. "
          "GST_PLUGIN_PATH=build/plugin)?\n");
    g_clear_error (&err);
    gst_clear_object (&pipeline);
    g_free (opts.format);
    g_free (opts.backend);
    return 2;
  }

  g_mutex_init (&soak.lock);
  gst_video_info_set_format (&soak.info,
      gst_video_format_from_string (opts.format), opts.width, opts.height);
  GST_VIDEO_INFO_FPS_N (&soak.info) = 30;
  GST_VIDEO_INFO_FPS_D (&soak.info) = 1;
  soak.caps = gst_video_info_to_caps (&soak.info);
  soak.duration = gst_util_uint64_scale_int (GST_SECOND, 1, 30);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  soak.median = gst_bin_get_by_name (GST_BIN (pipeline), "median");
  soak.elements[0] = soak.median;
  soak.elements[1] = gst_bin_get_by_name (GST_BIN (pipeline), "gauss");
  soak.elements[2] = gst_bin_get_by_name (GST_BIN (pipeline), "hist");
  g_object_set (src, "caps", soak.caps, NULL);
  gst_app_src_set_callbacks (GST_APP_SRC (src), &callbacks, &soak, NULL);
  sinkpad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, sink_probe, &soak, NULL);
  gst_object_unref (sinkpad);

  g_print ("soak: appsrc ! cudamedian ! cudagauss ! cudahist ! fakesink, "
      "%dx%d %s, %d frames (samples after %d and at the end), backend=%s, "
      "%d regions a frame, a property change every %d frames\n",
      opts.width, opts.height, opts.format, opts.frames, opts.warmup,
      opts.backend, opts.regions, opts.changes);
  ran = run_pipeline (&soak, pipeline);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  pushed = soak.pushed;
  g_mutex_lock (&soak.lock);
  arrived = soak.arrived;
  with_meta = soak.with_meta;
  if (soak.have_start && soak.have_end) {
    if (soak.device >= 0)
      g_print ("active backend: cuda, device %d\n", soak.device);
    else
      g_print ("active backend: cpu\n");
    flat = judge (&soak.start, &soak.end);
  }
  g_mutex_unlock (&soak.lock);
  g_print ("frames in %d, out %d, with GstCudaHistMeta %d\n", pushed, arrived,
      with_meta);
  if (!ran || pushed != opts.frames || arrived != pushed ||
      with_meta != arrived) {
    g_print ("verdict: FAILED (%s)\n", !ran ? "the pipeline did not reach "
        "EOS" : "frames lost or without the meta");
    status = 1;
  } else {
    g_print ("verdict: %s\n", flat ? "flat" : "GROWING");
    status = flat ? 0 : 1;
  }

  for (gint i = 0; i < PREPARED; i++)
    gst_clear_buffer (&soak.prepared[i]);
  if (soak.pool) {
    gst_buffer_pool_set_active (soak.pool, FALSE);
    gst_object_unref (soak.pool);
  }
  gst_caps_unref (soak.caps);
  gst_object_unref (soak.elements[2]);
  gst_object_unref (soak.elements[1]);
  gst_object_unref (soak.median);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_mutex_clear (&soak.lock);
  g_free (opts.format);
  g_free (opts.backend);
  return status;
}
