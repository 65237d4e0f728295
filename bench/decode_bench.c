// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* decode-bench: frames per second of a hardware-decoded H.264 clip through our
 * elements, against the decoder alone:
 *
 *   filesrc ! qtdemux ! h264parse ! nvh264dec ! fakesink
 *   filesrc ! qtdemux ! h264parse ! nvh264dec ! video/x-raw(memory:CUDAMemory) ! fakesink
 *   filesrc ! qtdemux ! h264parse ! nvh264dec ! ELEMENT ! fakesink
 *   filesrc ! qtdemux ! h264parse ! nvh264dec ! cudamedian ! cudagauss ! cudahist ! fakesink
 *
 * No cudaupload or cudadownload anywhere: the decoder hands CUDA memory to our
 * element or the row says it did not (buffer probes on every link after the
 * decoder). nvh264dec alone before fakesink (which takes any caps) may choose
 * system memory, and so copy every frame down; the second pipeline keeps its
 * frames on the device and is the fair baseline. Every pipeline runs --runs
 * times, interleaved, after one untimed warm-up; the median is reported. fps:
 * frames from the first buffer at the sink to the last; whole-clip fps: frames
 * over the time from PLAYING to EOS (decoder start-up included).
 *
 * The clip: --clip FILE, or one made here with a software H.264 encoder
 * (x264enc from gst-plugins-ugly, else openh264enc) when there is one. Where
 * there is none (a GPU host with plugins-base, -good and -bad only), make it
 * elsewhere with --make-clip FILE and carry it.
 *
 *   GST_PLUGIN_PATH=build/plugin build/bench/decode-bench --clip .gpu/clip-1080p.mp4
 *   build/bench/decode-bench --make-clip .gpu/clip-1080p.mp4
 */
#include <gst/gst.h>
#include <gst/video/video.h>

#include <glib/gstdio.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_cuda.h"
#include "bench_source.h"
#include "gpu_activity.h"

#define EOS_TIMEOUT_S 600
#define MAX_RUNS 100
#define GOAL_FRACTION 0.95

typedef struct
{
  gchar *clip;
  gchar *make_clip;
  gchar *json;
  gint clip_frames;
  gint runs;
  gint frames_in_flight;
  gboolean quick;
  gboolean no_census;
} Options;

typedef struct
{
  const gchar *label;           /* as the tables show it */
  const gchar *middle;          /* between h264parse and fakesink */
  gboolean ours;                /* one of our elements in it */
} Case;

/* The first two are the baselines: the decoder's own choice of memory, and
 * the decoder kept in CUDA memory. Our filters are named f, f1, f2. */
static const Case cases[] = {
  {"nvh264dec ! fakesink", "nvh264dec name=dec", FALSE},
  {"nvh264dec ! video/x-raw(memory:CUDAMemory) ! fakesink",
      "nvh264dec name=dec ! video/x-raw(memory:CUDAMemory)", FALSE},
  {"nvh264dec ! cudamedian ! fakesink", "nvh264dec name=dec ! cudamedian "
        "name=f", TRUE},
  {"nvh264dec ! cudagauss ! fakesink", "nvh264dec name=dec ! cudagauss name=f",
      TRUE},
  {"nvh264dec ! cudahist ! fakesink", "nvh264dec name=dec ! cudahist name=f",
      TRUE},
  {"nvh264dec ! cudamedian ! cudagauss ! cudahist ! fakesink",
        "nvh264dec name=dec ! cudamedian name=f ! cudagauss name=f1 ! "
        "cudahist name=f2", TRUE},
};

#define N_CASES G_N_ELEMENTS (cases)
#define BASELINE_OWN 0
#define BASELINE_CUDA 1
#define GOAL_CASE 2             /* nvh264dec ! cudamedian ! fakesink */

static const gchar *const filter_names[] = { "f", "f1", "f2" };

/* The sink's clock of one run. */
typedef struct
{
  GMutex lock;
  gint frames;
  gint64 first_us, last_us, eos_us;
} SinkClock;

/* One run of one pipeline. */
typedef struct
{
  gboolean ok;
  gchar *note;
  gint frames;
  gdouble fps;                  /* first to last buffer at the sink */
  gdouble fps_whole;            /* PLAYING to EOS */
  gint frames_in_flight;        /* of f; 0: none */
  gchar *sink_memory;           /* of the buffers at the sink */
  gboolean on_device;           /* every link after the decoder */
  gchar *where;
  gint64 host_maps, downloads, uploads;
  gboolean traced;
  gchar *census_note;
  BenchGpuActivity activity;
} Outcome;

/* What a case gathers over its runs. */
typedef struct
{
  gdouble fps[MAX_RUNS], fps_whole[MAX_RUNS];
  guint runs;
  Outcome last;                 /* the last timed run (links, maps, notes) */
  gboolean failed;
  Outcome census;
  gboolean have_census;
  gdouble fps_median, fps_min, fps_max, fps_whole_median;
} Result;

static void
free_outcome (Outcome * o)
{
  g_free (o->note);
  g_free (o->sink_memory);
  g_free (o->where);
  g_free (o->census_note);
  memset (o, 0, sizeof *o);
}

static GstPadProbeReturn
sink_probe (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  SinkClock *clock = data;
  const gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&clock->lock);
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    if (clock->frames++ == 0)
      clock->first_us = now;
    clock->last_us = now;
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS) {
    clock->eos_us = now;
  }
  g_mutex_unlock (&clock->lock);
  return GST_PAD_PROBE_OK;
}

/* The memory of the first buffer at the sink, in words. */
static GstPadProbeReturn
memory_probe (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info,
    gpointer data)
{
  gchar **memory = data;
  GstMemory *mem = gst_buffer_peek_memory (GST_PAD_PROBE_INFO_BUFFER (info),
      0);

  *memory = g_strdup (gst_is_cuda_memory (mem) ? "CUDA memory" :
      "system memory");
  return GST_PAD_PROBE_REMOVE;
}

static Outcome
run_case (const Case * c, const Options * opts, gboolean census)
{
  Outcome out = {.host_maps = -1,.downloads = -1,.uploads = -1 };
  SinkClock clock = { 0 };
  gchar *description = g_strdup_printf ("filesrc name=src ! qtdemux ! "
      "h264parse ! %s ! fakesink name=sink sync=false "
      "enable-last-sample=false async=false", c->middle);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GstElement *src = NULL, *sink = NULL;
  GstPad *sinkpad;
  BenchCensus *links = NULL;
  BenchCudaMaps maps_before, maps_after, maps;
  gint64 play_us;

  g_mutex_init (&clock.lock);
  g_free (description);
  if (err) {
    out.note = g_strdup_printf ("could not build: %s", err->message);
    g_clear_error (&err);
    goto cleanup;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  g_object_set (src, "location", opts->clip, NULL);
  sinkpad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, sink_probe, &clock, NULL);
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER, memory_probe,
      &out.sink_memory, NULL);
  gst_object_unref (sinkpad);

  /* The decoder and our elements find one context among themselves; the
   * census takes the first it sees and checks every link against it. */
  links = bench_census_new (NULL);
  bench_census_watch_element (links, GST_BIN (pipeline), "dec");
  for (guint i = 0; i < G_N_ELEMENTS (filter_names); i++) {
    GstElement *filter = gst_bin_get_by_name (GST_BIN (pipeline),
        filter_names[i]);
    if (!filter)
      continue;
    if (opts->frames_in_flight > 0)
      g_object_set (filter, "frames-in-flight", (guint) opts->frames_in_flight,
          NULL);
    if (i == 0) {
      guint depth = 0;
      g_object_get (filter, "frames-in-flight", &depth, NULL);
      out.frames_in_flight = (gint) depth;
    }
    gst_object_unref (filter);
    bench_census_watch_element (links, GST_BIN (pipeline), filter_names[i]);
  }

  if (census && !bench_gpu_activity_start (&out.census_note))
    census = FALSE;
  bench_cuda_maps_now (&maps_before);
  play_us = g_get_monotonic_time ();
  out.ok = bench_play_to_eos (pipeline, EOS_TIMEOUT_S, &out.note);
  if (census)
    out.traced = bench_gpu_activity_stop (&out.activity, &out.census_note);
  bench_cuda_maps_now (&maps_after);
  bench_cuda_maps_diff (&maps_after, &maps_before, &maps);
  out.host_maps = maps.host_maps;
  out.downloads = maps.downloads;
  out.uploads = maps.uploads;
  bench_census_stop (links);
  /* The decoder's own link counts only where one of our elements follows. */
  out.on_device = bench_census_all_on_device (links);
  out.where = bench_census_describe (links);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  g_mutex_lock (&clock.lock);
  out.frames = clock.frames;
  if (out.ok && clock.frames > 1 && clock.last_us > clock.first_us) {
    out.fps = (clock.frames - 1) / ((clock.last_us - clock.first_us) / 1e6);
    out.fps_whole = clock.frames / ((clock.eos_us - play_us) / 1e6);
  } else if (out.ok) {
    out.ok = FALSE;
    out.note = g_strdup_printf ("%d frames reached the sink", clock.frames);
  }
  g_mutex_unlock (&clock.lock);

cleanup:
  bench_census_free (links);
  gst_clear_object (&src);
  gst_clear_object (&sink);
  gst_clear_object (&pipeline);
  g_mutex_clear (&clock.lock);
  return out;
}

/* ---- the clip ---- */

static gboolean
have_element (const gchar * name)
{
  GstElementFactory *factory = gst_element_factory_find (name);
  if (factory)
    gst_object_unref (factory);
  return factory != NULL;
}

/* The encoder part of the clip's pipeline, or NULL where this machine has no
 * software H.264 encoder. I420 caps before it: given 4:4:4, x264 makes a
 * High 4:4:4 stream that NVDEC refuses. */
static const gchar *
clip_encoder (void)
{
  if (have_element ("x264enc"))
    return "x264enc bitrate=8000 speed-preset=faster key-int-max=60";
  if (have_element ("openh264enc"))
    return "openh264enc bitrate=8000000 gop-size=60";
  return NULL;
}

/* A 1920x1080 30 fps H.264 MP4 clip of `frames` frames at `path`: a moving
 * zone plate (detail everywhere, so the encoder spends its 8 Mbit/s). */
static gboolean
make_clip (const gchar * path, gint frames)
{
  const gchar *encoder = clip_encoder ();
  gchar *partial = g_strdup_printf ("%s.part", path);
  gchar *description, *note = NULL;
  GstElement *pipeline, *sink;
  GError *err = NULL;
  gboolean ok;

  if (!encoder) {
    g_printerr ("No H.264 encoder here (x264enc from gst-plugins-ugly, or "
        "openh264enc from gst-plugins-bad with libopenh264): make the clip on "
        "a machine that has one (decode-bench --make-clip FILE) and pass it "
        "with --clip FILE\n");
    g_free (partial);
    return FALSE;
  }
  if (!have_element ("mp4mux") || !have_element ("h264parse")) {
    g_printerr ("Making a clip needs mp4mux (gst-plugins-good) and h264parse "
        "(gst-plugins-bad)\n");
    g_free (partial);
    return FALSE;
  }
  description = g_strdup_printf ("videotestsrc num-buffers=%d "
      "pattern=zone-plate kx2=20 ky2=20 kt=3 kt2=1 ! video/x-raw,format=I420,"
      "width=1920,height=1080,framerate=30/1 ! %s ! h264parse ! mp4mux ! "
      "filesink name=out", frames, encoder);
  g_print ("Making %s: %d frames, 1920x1080 I420, %s\n", path, frames,
      encoder);
  pipeline = gst_parse_launch (description, &err);
  g_free (description);
  if (err) {
    g_printerr ("Could not build the clip's pipeline: %s\n", err->message);
    g_clear_error (&err);
    gst_clear_object (&pipeline);
    g_free (partial);
    return FALSE;
  }
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "out");
  g_object_set (sink, "location", partial, NULL);
  gst_object_unref (sink);
  ok = bench_play_to_eos (pipeline, EOS_TIMEOUT_S, &note);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pipeline);
  if (ok && g_rename (partial, path) != 0) {
    g_printerr ("Could not rename %s to %s: %s\n", partial, path,
        g_strerror (errno));
    ok = FALSE;
  }
  if (!ok) {
    g_printerr ("Making the clip failed: %s\n", note ? note : "no EOS");
    g_unlink (partial);
  } else {
    GStatBuf st;
    if (g_stat (path, &st) == 0)
      g_print ("Wrote %s: %.1f MB\n", path, st.st_size / 1e6);
  }
  g_free (note);
  g_free (partial);
  return ok;
}

/* ---- results ---- */

static void
summarise (Result * r)
{
  gdouble sorted[MAX_RUNS];

  if (r->runs == 0)
    return;
  memcpy (sorted, r->fps, r->runs * sizeof (gdouble));
  r->fps_median = bench_median (sorted, r->runs);
  r->fps_min = sorted[0];
  r->fps_max = sorted[r->runs - 1];
  memcpy (sorted, r->fps_whole, r->runs * sizeof (gdouble));
  r->fps_whole_median = bench_median (sorted, r->runs);
}

static gboolean
valid_ratio (const Result * r, const Result * base)
{
  return r->runs > 0 && base->runs > 0 && base->fps_median > 0;
}

static void
print_result (const Case * c, const Result * r, const Result * results)
{
  const Result *own = &results[BASELINE_OWN], *dev = &results[BASELINE_CUDA];
  gchar fps[64] = "-", whole[32] = "-", vs_dev[16] = "-", vs_own[16] = "-";
  gchar kernel[32] = "-", copies[48] = "-", depth[8] = "-";
  const Outcome *o = &r->last;

  if (r->runs > 0) {
    g_snprintf (fps, sizeof fps, "%.1f (%.0f-%.0f)", r->fps_median,
        r->fps_min, r->fps_max);
    g_snprintf (whole, sizeof whole, "%.1f", r->fps_whole_median);
  }
  if (valid_ratio (r, dev))
    g_snprintf (vs_dev, sizeof vs_dev, "%.1f%%",
        100 * r->fps_median / dev->fps_median);
  if (valid_ratio (r, own))
    g_snprintf (vs_own, sizeof vs_own, "%.1f%%",
        100 * r->fps_median / own->fps_median);
  if (o->frames_in_flight > 0)
    g_snprintf (depth, sizeof depth, "%d", o->frames_in_flight);
  if (r->have_census && r->census.traced && r->census.frames > 0) {
    const BenchGpuActivity *a = &r->census.activity;
    g_snprintf (kernel, sizeof kernel, "%.1f",
        a->kernel_busy_us / r->census.frames);
    g_snprintf (copies, sizeof copies, "%" G_GUINT64_FORMAT "/%"
        G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " (%.0f B/frame)", a->up,
        a->down, a->on_device,
        (gdouble) (a->up_bytes + a->down_bytes) / r->census.frames);
  }
  g_print ("%-58s %5d %5s %-20s %9s %8s %8s %-14s %-10s %8s %s\n", c->label,
      o->frames, depth, fps, whole, vs_dev, vs_own,
      o->sink_memory ? o->sink_memory : "-",
      c->ours ? (o->on_device ? "yes" : "NO") : "-", kernel, copies);
  if (r->failed && o->note)
    g_print ("    note: %s\n", o->note);
  if (c->ours && !o->on_device && o->where)
    g_print ("    links: %s\n", o->where);
  if (o->host_maps > 0 || o->uploads > 0)
    g_print ("    GstCudaMemory maps: %" G_GINT64_FORMAT " to the host (%"
        G_GINT64_FORMAT " downloads), %" G_GINT64_FORMAT " uploads\n",
        o->host_maps, o->downloads, o->uploads);
  if (r->have_census && r->census.census_note)
    g_print ("    census: %s\n", r->census.census_note);
}

static void
json_outcome_links (GString * s, const Outcome * o)
{
  g_string_append_printf (s, "\"on_device\": %s, \"links\": ",
      o->on_device ? "true" : "false");
  bench_json_string (s, o->where);
  g_string_append (s, ", \"sink_memory\": ");
  bench_json_string (s, o->sink_memory);
  g_string_append (s, ", \"host_maps\": ");
  bench_json_number (s, o->host_maps, o->host_maps >= 0);
  g_string_append (s, ", \"downloads\": ");
  bench_json_number (s, o->downloads, o->downloads >= 0);
  g_string_append (s, ", \"uploads\": ");
  bench_json_number (s, o->uploads, o->uploads >= 0);
}

static gboolean
write_json (const gchar * path, const gchar * device, const Options * opts,
    const gchar * encoder, const Result * results, const gchar * census_note)
{
  GString *s = g_string_new ("{\n  \"tool\": \"decode-bench\",\n  \"device\": ");
  GDateTime *now = g_date_time_new_now_local ();
  gchar *date = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S");
  gchar *version = gst_version_string ();
  gchar *base = g_path_get_basename (opts->clip);
  const Result *own = &results[BASELINE_OWN], *dev = &results[BASELINE_CUDA];
  const Result *goal = &results[GOAL_CASE];
  GError *err = NULL;
  gboolean ok;

  bench_json_string (s, device);
  g_string_append (s, ",\n  \"date\": ");
  bench_json_string (s, date);
  g_string_append (s, ",\n  \"gstreamer\": ");
  bench_json_string (s, version);
  g_string_append (s, ",\n  \"clip\": ");
  bench_json_string (s, base);
  g_string_append (s, ",\n  \"clip_made_with\": ");
  bench_json_string (s, encoder);
  g_string_append_printf (s, ",\n  \"runs\": %d,\n  \"frames_in_flight\": ",
      opts->runs);
  bench_json_number (s, opts->frames_in_flight, opts->frames_in_flight > 0);
  g_string_append (s, ",\n  \"census_note\": ");
  bench_json_string (s, census_note);
  g_string_append_printf (s, ",\n  \"goal\": {\"case\": \"%s\", "
      "\"fraction\": %.2f, \"vs_decoder_alone\": ", cases[GOAL_CASE].label,
      GOAL_FRACTION);
  bench_json_number (s, goal->fps_median / own->fps_median,
      valid_ratio (goal, own));
  g_string_append (s, ", \"vs_decoder_in_cuda_memory\": ");
  bench_json_number (s, goal->fps_median / dev->fps_median,
      valid_ratio (goal, dev));
  g_string_append_printf (s, ", \"met\": %s, \"met_vs_cuda_memory\": %s}",
      valid_ratio (goal, own)
      && goal->fps_median >= GOAL_FRACTION * own->fps_median ? "true" :
      "false", valid_ratio (goal, dev)
      && goal->fps_median >= GOAL_FRACTION * dev->fps_median ? "true" :
      "false");
  g_string_append (s, ",\n  \"cases\": [");
  for (guint i = 0; i < N_CASES; i++) {
    const Result *r = &results[i];
    const Outcome *o = &r->last;
    const gboolean timed = r->runs > 0;
    g_string_append_printf (s, "%s\n    {\"pipeline\": ", i ? "," : "");
    bench_json_string (s, cases[i].label);
    g_string_append_printf (s, ", \"baseline\": %s, \"ok\": %s, "
        "\"frames\": %d, \"frames_in_flight\": ",
        i == BASELINE_OWN ? "\"decoder alone\"" : i == BASELINE_CUDA ?
        "\"decoder alone, CUDA memory\"" : "null",
        !r->failed && timed ? "true" : "false", o->frames);
    bench_json_number (s, o->frames_in_flight, o->frames_in_flight > 0);
    g_string_append (s, ", \"fps_runs\": [");
    for (guint k = 0; k < r->runs; k++)
      g_string_append_printf (s, "%s%.6g", k ? ", " : "", r->fps[k]);
    g_string_append (s, "], \"fps\": ");
    bench_json_number (s, r->fps_median, timed);
    g_string_append (s, ", \"fps_min\": ");
    bench_json_number (s, r->fps_min, timed);
    g_string_append (s, ", \"fps_max\": ");
    bench_json_number (s, r->fps_max, timed);
    g_string_append (s, ", \"fps_whole_clip\": ");
    bench_json_number (s, r->fps_whole_median, timed);
    g_string_append (s, ", \"vs_decoder_alone\": ");
    bench_json_number (s, r->fps_median / own->fps_median,
        valid_ratio (r, own));
    g_string_append (s, ", \"vs_decoder_in_cuda_memory\": ");
    bench_json_number (s, r->fps_median / dev->fps_median,
        valid_ratio (r, dev));
    g_string_append (s, ", ");
    json_outcome_links (s, o);
    g_string_append (s, ", \"census\": ");
    if (r->have_census) {
      const Outcome *c = &r->census;
      const BenchGpuActivity *a = &c->activity;
      const gboolean valid = c->traced && c->frames > 0;
      const gdouble frames = MAX (c->frames, 1);
      g_string_append_printf (s, "{\"ok\": %s, \"frames\": %d, ",
          valid ? "true" : "false", c->frames);
      json_outcome_links (s, c);
      g_string_append (s, ", \"kernel_sum_us_per_frame\": ");
      bench_json_number (s, a->kernel_us / frames, valid);
      g_string_append (s, ", \"kernel_busy_us_per_frame\": ");
      bench_json_number (s, a->kernel_busy_us / frames, valid);
      g_string_append (s, ", \"busy_us_per_frame\": ");
      bench_json_number (s, a->busy_us / frames, valid);
      g_string_append_printf (s, ", \"kernels\": %" G_GUINT64_FORMAT
          ", \"up\": %" G_GUINT64_FORMAT ", \"down\": %" G_GUINT64_FORMAT
          ", \"device_copies\": %" G_GUINT64_FORMAT ", \"up_bytes\": %"
          G_GUINT64_FORMAT ", \"down_bytes\": %" G_GUINT64_FORMAT
          ", \"device_copy_bytes\": %" G_GUINT64_FORMAT
          ", \"largest_host_copy\": %" G_GUINT64_FORMAT ", \"dropped\": %"
          G_GUINT64_FORMAT ", \"note\": ", a->kernels, a->up, a->down,
          a->on_device, a->up_bytes, a->down_bytes, a->on_device_bytes,
          a->largest_host_copy, a->dropped);
      bench_json_string (s, c->census_note ? c->census_note : c->note);
      g_string_append (s, "}");
    } else {
      g_string_append (s, "null");
    }
    g_string_append (s, ", \"note\": ");
    bench_json_string (s, o->note);
    g_string_append (s, "}");
  }
  g_string_append (s, "\n  ]\n}\n");
  ok = g_file_set_contents (path, s->str, s->len, &err);
  if (!ok) {
    g_printerr ("Could not write %s: %s\n", path, err->message);
    g_clear_error (&err);
  }
  g_string_free (s, TRUE);
  g_date_time_unref (now);
  g_free (date);
  g_free (version);
  g_free (base);
  return ok;
}

/* ---- main ---- */

static gboolean
parse_options (int *argc, char ***argv, Options * opts)
{
  const GOptionEntry entries[] = {
    {"clip", 0, 0, G_OPTION_ARG_FILENAME, &opts->clip,
          "H.264 clip in MP4 to decode (default: one made in a temporary "
          "folder with x264enc or openh264enc, where this machine has one)",
        "FILE"},
    {"make-clip", 0, 0, G_OPTION_ARG_FILENAME, &opts->make_clip,
          "Only write a 1920x1080 30 fps H.264 MP4 clip (I420, 8 Mbit/s, a "
          "moving zone plate) to FILE with x264enc or openh264enc, and exit; "
          "needs no GPU",
        "FILE"},
    {"clip-frames", 0, 0, G_OPTION_ARG_INT, &opts->clip_frames,
        "Frames of a clip this program makes (default 300)", "N"},
    {"runs", 0, 0, G_OPTION_ARG_INT, &opts->runs,
          "Timed runs of each pipeline, interleaved, after one untimed "
          "warm-up; the median is reported (default 5, with --quick 2)",
        "N"},
    {"frames-in-flight", 0, 0, G_OPTION_ARG_INT, &opts->frames_in_flight,
        "frames-in-flight of our elements (default: theirs)", "N"},
    {"no-census", 0, 0, G_OPTION_ARG_NONE, &opts->no_census,
          "Skip the traced run of each pipeline (CUPTI: every host<->device "
          "copy and the kernels' time per frame), made after the timed ones",
        NULL},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, &opts->json,
        "Also write the results to FILE as JSON", "FILE"},
    {"quick", 0, 0, G_OPTION_ARG_NONE, &opts->quick,
        "Fewer runs: a smoke test", NULL},
    G_OPTION_ENTRY_NULL
  };
  if (!bench_parse_options (entries, "- frames per second of nvh264dec ! "
          "ELEMENT ! fakesink (CUDA memory from the decoder to our elements) "
          "against the decoder alone, over a whole 1080p H.264 clip", argc,
          argv))
    return FALSE;
  if (opts->clip_frames == 0)
    opts->clip_frames = 300;
  if (opts->runs == 0)
    opts->runs = opts->quick ? 2 : 5;
  if (opts->clip_frames < 2 || opts->runs < 1 || opts->runs > MAX_RUNS) {
    g_printerr ("--clip-frames must be at least 2 and --runs 1 to %d\n",
        MAX_RUNS);
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char *argv[])
{
  static const gchar *needed[] = { "filesrc", "qtdemux", "h264parse",
    "fakesink", "cudamedian", "cudagauss", "cudahist"
  };
  Options opts = { 0 };
  Result results[N_CASES];
  GstCudaContext *context = NULL;
  gchar *device = NULL, *why = NULL, *tmpdir = NULL, *census_note = NULL;
  const gchar *encoder = NULL;
  gboolean all_ok = TRUE;
  int status = 1;

  memset (results, 0, sizeof results);
  if (!parse_options (&argc, &argv, &opts))
    goto done;

  if (opts.make_clip) {
    status = make_clip (opts.make_clip, opts.clip_frames) ? 0 : 1;
    goto done;
  }

  context = bench_cuda_context_new (0, &device, &why);
  if (!context) {
    g_printerr ("decode-bench needs a usable CUDA device with NVDEC: %s\n",
        why);
    goto done;
  }
  /* Only to know that there is one: the pipelines make their own. */
  gst_clear_object (&context);
  if (!have_element ("nvh264dec")) {
    g_printerr ("No element nvh264dec: gst-plugins-bad's nvcodec registers "
        "its NVDEC decoders only where it finds the CUDA driver and an "
        "NVDEC-capable GPU (gst-inspect-1.0 nvcodec)\n");
    goto done;
  }
  for (guint i = 0; i < G_N_ELEMENTS (needed); i++) {
    if (!have_element (needed[i])) {
      g_printerr ("No element %s%s\n", needed[i], g_str_has_prefix (needed[i],
              "cuda") ? ": is GST_PLUGIN_PATH set to the build's plugin "
          "folder (e.g. GST_PLUGIN_PATH=build/plugin)?" : "");
      goto done;
    }
  }

  if (opts.clip) {
    if (!g_file_test (opts.clip, G_FILE_TEST_IS_REGULAR)) {
      g_printerr ("--clip %s: no such file\n", opts.clip);
      goto done;
    }
  } else {
    encoder = clip_encoder ();
    if (!encoder) {
      g_printerr ("No --clip given and no H.264 encoder here to make one "
          "(x264enc from gst-plugins-ugly, or openh264enc): make it on a "
          "machine that has one with decode-bench --make-clip FILE and pass "
          "--clip FILE\n");
      goto done;
    }
    tmpdir = g_dir_make_tmp ("decode-bench-XXXXXX", NULL);
    if (!tmpdir) {
      g_printerr ("Could not make a temporary folder for the clip\n");
      goto done;
    }
    opts.clip = g_build_filename (tmpdir, "clip-1080p.mp4", NULL);
    if (!make_clip (opts.clip, opts.clip_frames))
      goto done;
  }
  if (!bench_cuda_count_maps ())
    g_printerr ("GstCudaMemory maps cannot be counted here\n");

  g_print ("device: %s\nclip: %s\n", device, opts.clip);

  /* Warm-up: page cache, plugins, GPU clocks; and the clip must decode. */
  {
    Outcome warm = run_case (&cases[BASELINE_CUDA], &opts, FALSE);
    if (!warm.ok) {
      g_printerr ("The clip does not decode with nvh264dec: %s\n",
          warm.note ? warm.note : "no frames");
      free_outcome (&warm);
      goto done;
    }
    g_print ("warm-up: %d frames, %.1f fps\n", warm.frames, warm.fps);
    free_outcome (&warm);
  }

  for (gint run = 0; run < opts.runs; run++) {
    for (guint i = 0; i < N_CASES; i++) {
      Result *r = &results[i];
      Outcome o = run_case (&cases[i], &opts, FALSE);
      if (o.ok) {
        r->fps[r->runs] = o.fps;
        r->fps_whole[r->runs] = o.fps_whole;
        r->runs++;
      } else {
        r->failed = TRUE;
        g_printerr ("%s, run %d: %s\n", cases[i].label, run + 1,
            o.note ? o.note : "failed");
      }
      free_outcome (&r->last);
      r->last = o;
    }
  }
  for (guint i = 0; i < N_CASES; i++) {
    summarise (&results[i]);
    all_ok = all_ok && !results[i].failed;
  }

  if (opts.no_census)
    census_note = g_strdup ("skipped (--no-census)");
  else if (!bench_gpu_activity_built ())
    bench_gpu_activity_start (&census_note);    /* says why not */
  if (!census_note) {
    for (guint i = 0; i < N_CASES; i++) {
      results[i].census = run_case (&cases[i], &opts, TRUE);
      results[i].have_census = TRUE;
      if (!results[i].census.traced && !census_note)
        census_note = g_strdup (results[i].census.census_note ?
            results[i].census.census_note : "tracing failed");
    }
  }

  g_print ("\n%d timed runs per pipeline, interleaved; fps: median (min-max) "
      "from the first frame at the sink to the last; whole: frames over "
      "PLAYING to EOS; vs CUDA: of nvh264dec ! video/x-raw(memory:CUDAMemory) "
      "! fakesink; vs dec: of nvh264dec ! fakesink; on device: every link "
      "after the decoder carried CUDA memory of one context; traced run: "
      "us per frame in which kernels ran, copies "
      "host->device/device->host/on the device and bytes that crossed the "
      "bus per frame\n",
      opts.runs);
  g_print ("%-58s %5s %5s %-20s %9s %8s %8s %-14s %-10s %8s %s\n", "pipeline",
      "frames", "depth", "fps", "whole", "vs CUDA", "vs dec", "at sink",
      "on device", "kernel", "copies");
  for (guint i = 0; i < N_CASES; i++)
    print_result (&cases[i], &results[i], results);
  if (census_note)
    g_print ("No traced runs: %s\n", census_note);

  {
    const Result *goal = &results[GOAL_CASE];
    const Result *own = &results[BASELINE_OWN], *dev = &results[BASELINE_CUDA];
    if (valid_ratio (goal, own) && valid_ratio (goal, dev))
      g_print ("\nGoal (%s within %.0f%% of nvh264dec ! fakesink): %.1f%% of "
          "it, %s; of the decoder kept in CUDA memory: %.1f%%, %s\n",
          cases[GOAL_CASE].label, 100 * (1 - GOAL_FRACTION),
          100 * goal->fps_median / own->fps_median,
          goal->fps_median >= GOAL_FRACTION * own->fps_median ? "met" :
          "NOT met", 100 * goal->fps_median / dev->fps_median,
          goal->fps_median >= GOAL_FRACTION * dev->fps_median ? "met" :
          "NOT met");
  }

  if (opts.json && !write_json (opts.json, device, &opts, encoder, results,
          census_note))
    goto done;
  if (opts.json)
    g_print ("\nWrote %s\n", opts.json);
  status = all_ok ? 0 : 2;
  if (!all_ok)
    g_printerr ("Some pipelines failed (see their notes)\n");

done:
  for (guint i = 0; i < N_CASES; i++) {
    free_outcome (&results[i].last);
    free_outcome (&results[i].census);
  }
  if (tmpdir) {
    if (opts.clip)
      g_unlink (opts.clip);
    g_rmdir (tmpdir);
  }
  gst_clear_object (&context);
  g_free (tmpdir);
  g_free (device);
  g_free (why);
  g_free (census_note);
  g_free (opts.clip);
  g_free (opts.make_clip);
  g_free (opts.json);
  return status;
}
