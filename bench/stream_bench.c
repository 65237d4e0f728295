/* stream-bench: frames per second of whole pipelines whose source costs
 * nothing, side by side with identity and with the PCIe bound measured in the
 * same run.
 *
 * A few frames of random data are prepared ahead in buffers from the pool the
 * element proposes (pinned host memory on the CUDA backend) and pushed again
 * and again through appsrc ! ELEMENT ! fakesink sync=false; the clock runs
 * from the first push to EOS at the sink. Each push is a shallow copy of a
 * prepared buffer (its own timestamps, the same memory), so nothing is copied
 * on the host.
 *
 *   GST_PLUGIN_PATH=build/plugin build/bench/stream-bench --backend cpu --quick
 */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_source.h"

/* Distinct prepared buffers, more than the deepest frames-in-flight. */
#define PREPARED 4
#define EOS_TIMEOUT_S 600

typedef struct
{
  gint frames;
  gchar *backend;
  gchar *json;
  gboolean quick;
  gint latency_frames;
  gint pcie_reps;
} Options;

typedef struct
{
  const gchar *format;
  gint width;
  gint height;
} Shape;

static const Shape shapes[] = {
  {"GRAY8", 1920, 1080},
  {"NV12", 1920, 1080},
  {"RGBA", 3840, 2160},
};

#define N_SHAPES G_N_ELEMENTS (shapes)

/* The PCIe bound of one frame size; available FALSE without a device. */
typedef struct
{
  gboolean available;
  gsize bytes;
  gdouble up_us;                /* with a download in flight at the same time */
  gdouble down_us;              /* with an upload in flight at the same time */
  gdouble up_alone_us;
  gdouble both_fps;             /* 1 / max (up_us, down_us) */
  gdouble up_fps;               /* 1 / up_alone_us */
} PcieBound;

/* How frames go in. */
typedef enum
{
  INPUT_POOL,                   /* buffers of the pool the element proposes */
  INPUT_PAGEABLE,               /* gst_buffer_new_allocate, ignoring the pool */
} InputKind;

/* One pipeline run, shared with the streaming threads. */
typedef struct
{
  GstVideoInfo info;
  GstCaps *caps;
  InputKind input;
  gboolean latency_mode;
  gint frames;
  GstBufferPool *pool;
  gchar *pool_name;             /* type of the proposed pool, or NULL */
  gchar *memory_type;           /* of the buffers pushed */
  GstBuffer *prepared[PREPARED];
  gboolean setup_failed;
  gint pushed;
  GstClockTime duration;

  GMutex lock;
  GCond cond;
  gint64 first_push_us;
  gint64 eos_us;
  gint arrived;                 /* buffers at the sink */
  gint64 push_us;               /* latency mode: push of the current frame */
  GArray *latencies_us;         /* latency mode: gdouble per frame */
} Run;

/* What one case reports. */
typedef struct
{
  gchar *label;
  gboolean ok;
  gchar *note;
  gdouble seconds;
  gdouble fps;
  gdouble latency_us;           /* median, < 0 when not measured */
  gchar *active_backend;
  gchar *pool_name;
  gchar *memory_type;
  gint arrived;
} Outcome;

/* ---- the PCIe bound ---- */

static gboolean
cuda_ok (cudaError_t err, const gchar * what, gchar ** why)
{
  if (err == cudaSuccess)
    return TRUE;
  if (why && !*why)
    *why = g_strdup_printf ("%s: %s", what, cudaGetErrorString (err));
  return FALSE;
}

/* The name of device 0, or NULL with why set. */
static gchar *
cuda_device_name (gchar ** why)
{
  int count = 0;
  struct cudaDeviceProp prop;

  if (!cuda_ok (cudaGetDeviceCount (&count), "cudaGetDeviceCount", why))
    return NULL;
  if (count < 1) {
    *why = g_strdup ("no CUDA device");
    return NULL;
  }
  if (!cuda_ok (cudaGetDeviceProperties (&prop, 0), "cudaGetDeviceProperties",
          why))
    return NULL;
  return g_strdup (prop.name);
}

/* Times reps copies of bytes up and down at once on two streams (each
 * direction's time with the other in flight), then up alone. */
static gboolean
measure_pcie (gsize bytes, gint reps, PcieBound * bound, gchar ** why)
{
  void *host_up = NULL, *host_down = NULL, *dev_up = NULL, *dev_down = NULL;
  cudaStream_t s_up = NULL, s_down = NULL;
  cudaEvent_t ev[6] = { NULL };
  float up_ms = 0, down_ms = 0, alone_ms = 0;
  gboolean ok;
  guint64 seed = 0x9e3779b97f4a7c15ull;

  memset (bound, 0, sizeof *bound);
  bound->bytes = bytes;
  ok = cuda_ok (cudaSetDevice (0), "cudaSetDevice", why) &&
      cuda_ok (cudaMallocHost (&host_up, bytes), "cudaMallocHost", why) &&
      cuda_ok (cudaMallocHost (&host_down, bytes), "cudaMallocHost", why) &&
      cuda_ok (cudaMalloc (&dev_up, bytes), "cudaMalloc", why) &&
      cuda_ok (cudaMalloc (&dev_down, bytes), "cudaMalloc", why) &&
      cuda_ok (cudaStreamCreateWithFlags (&s_up, cudaStreamNonBlocking),
      "cudaStreamCreate", why) &&
      cuda_ok (cudaStreamCreateWithFlags (&s_down, cudaStreamNonBlocking),
      "cudaStreamCreate", why);
  for (int i = 0; ok && i < 6; i++)
    ok = cuda_ok (cudaEventCreate (&ev[i]), "cudaEventCreate", why);
  if (!ok)
    goto done;
  bench_fill_random (host_up, bytes, &seed);

  /* Warm up both directions. */
  for (int i = 0; i < 3; i++) {
    cudaMemcpyAsync (dev_up, host_up, bytes, cudaMemcpyHostToDevice, s_up);
    cudaMemcpyAsync (host_down, dev_down, bytes, cudaMemcpyDeviceToHost,
        s_down);
  }
  if (!cuda_ok (cudaDeviceSynchronize (), "warm-up copies", why)) {
    ok = FALSE;
    goto done;
  }

  /* Both directions at once. */
  cudaEventRecord (ev[0], s_up);
  cudaEventRecord (ev[2], s_down);
  for (int i = 0; i < reps; i++) {
    cudaMemcpyAsync (dev_up, host_up, bytes, cudaMemcpyHostToDevice, s_up);
    cudaMemcpyAsync (host_down, dev_down, bytes, cudaMemcpyDeviceToHost,
        s_down);
  }
  cudaEventRecord (ev[1], s_up);
  cudaEventRecord (ev[3], s_down);
  /* Upload alone. */
  cudaStreamWaitEvent (s_up, ev[3], 0);
  cudaEventRecord (ev[4], s_up);
  for (int i = 0; i < reps; i++)
    cudaMemcpyAsync (dev_up, host_up, bytes, cudaMemcpyHostToDevice, s_up);
  cudaEventRecord (ev[5], s_up);
  ok = cuda_ok (cudaDeviceSynchronize (), "timed copies", why) &&
      cuda_ok (cudaEventElapsedTime (&up_ms, ev[0], ev[1]), "events", why) &&
      cuda_ok (cudaEventElapsedTime (&down_ms, ev[2], ev[3]), "events", why) &&
      cuda_ok (cudaEventElapsedTime (&alone_ms, ev[4], ev[5]), "events", why);
  if (!ok)
    goto done;

  bound->available = TRUE;
  bound->up_us = 1000.0 * up_ms / reps;
  bound->down_us = 1000.0 * down_ms / reps;
  bound->up_alone_us = 1000.0 * alone_ms / reps;
  bound->both_fps = 1e6 / MAX (bound->up_us, bound->down_us);
  bound->up_fps = 1e6 / bound->up_alone_us;

done:
  for (int i = 0; i < 6; i++)
    if (ev[i])
      cudaEventDestroy (ev[i]);
  if (s_up)
    cudaStreamDestroy (s_up);
  if (s_down)
    cudaStreamDestroy (s_down);
  cudaFree (dev_up);
  cudaFree (dev_down);
  cudaFreeHost (host_up);
  cudaFreeHost (host_down);
  return ok;
}

/* ---- pipelines ---- */

static void
print_problem (GstMessage * msg, gchar ** note)
{
  GError *err = NULL;
  gchar *debug = NULL;
  const gboolean is_error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

  if (is_error)
    gst_message_parse_error (msg, &err, &debug);
  else
    gst_message_parse_warning (msg, &err, &debug);
  g_printerr ("  %s from %s: %s\n", is_error ? "ERROR" : "WARNING",
      GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
  if (is_error && note && !*note)
    *note = g_strdup_printf ("error from %s: %s",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
  g_clear_error (&err);
  g_free (debug);
}

/* Buffers and EOS arriving at the sink. */
static GstPadProbeReturn
sink_probe (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Run *run = data;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    g_mutex_lock (&run->lock);
    run->arrived++;
    g_mutex_unlock (&run->lock);
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_EOS) {
    g_mutex_lock (&run->lock);
    run->eos_us = g_get_monotonic_time ();
    g_mutex_unlock (&run->lock);
  }
  return GST_PAD_PROBE_OK;
}

/* Latency mode: fakesink's handoff of the one frame in the pipeline. */
static void
on_handoff (G_GNUC_UNUSED GstElement * sink, G_GNUC_UNUSED GstBuffer * buffer,
    G_GNUC_UNUSED GstPad * pad, gpointer data)
{
  Run *run = data;
  const gint64 now = g_get_monotonic_time ();

  g_mutex_lock (&run->lock);
  if (run->push_us > 0) {
    const gdouble us = (gdouble) (now - run->push_us);
    g_array_append_val (run->latencies_us, us);
    run->push_us = 0;
  }
  g_cond_broadcast (&run->cond);
  g_mutex_unlock (&run->lock);
}

/* Asks the element for its pool, as a source negotiating its allocation does,
 * then prepares PREPARED frames of random data: in that pool's buffers, in a
 * plain video pool when none is offered, or in plain pageable memory. */
static gboolean
prepare_frames (Run * run, GstAppSrc * appsrc)
{
  const guint size = GST_VIDEO_INFO_SIZE (&run->info);

  if (run->input == INPUT_POOL) {
    run->pool = bench_upstream_pool (appsrc, run->caps, size, PREPARED,
        &run->pool_name);
    if (!run->pool)
      return FALSE;
  }

  if (!bench_prepare_frames (run->pool, size, run->prepared, PREPARED))
    return FALSE;
  {
    GstMemory *mem = gst_buffer_peek_memory (run->prepared[0], 0);
    run->memory_type = g_strdup (mem->allocator ?
        mem->allocator->mem_type : "unknown");
  }
  return TRUE;
}

/* appsrc's need-data: one more frame, or the end. */
static void
feed_frame (GstAppSrc * appsrc, G_GNUC_UNUSED guint length, gpointer data)
{
  Run *run = data;
  GstBuffer *buffer;

  if (run->setup_failed)
    return;
  if (run->pushed == 0 && !prepare_frames (run, appsrc)) {
    run->setup_failed = TRUE;
    GST_ELEMENT_ERROR (appsrc, RESOURCE, SETTINGS,
        ("Could not prepare the input frames"), (NULL));
    return;
  }
  if (run->latency_mode && run->pushed > 0) {
    /* One frame at a time: the previous one must have left the pipeline. */
    const gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
    gboolean left = TRUE;

    g_mutex_lock (&run->lock);
    while (run->push_us > 0 && left)
      left = g_cond_wait_until (&run->cond, &run->lock, deadline);
    g_mutex_unlock (&run->lock);
    if (!left) {
      /* The element holds the frame back: no latency for single frames. */
      gst_app_src_end_of_stream (appsrc);
      run->setup_failed = TRUE;
      return;
    }
  }
  if (run->pushed == run->frames) {
    gst_app_src_end_of_stream (appsrc);
    return;
  }

  /* A shallow copy: own timestamps, the prepared memory. */
  buffer = gst_buffer_copy (run->prepared[run->pushed % PREPARED]);
  GST_BUFFER_PTS (buffer) = run->pushed * run->duration;
  GST_BUFFER_DTS (buffer) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buffer) = run->duration;
  run->pushed++;
  g_mutex_lock (&run->lock);
  if (run->first_push_us == 0)
    run->first_push_us = g_get_monotonic_time ();
  if (run->latency_mode)
    run->push_us = g_get_monotonic_time ();
  g_mutex_unlock (&run->lock);
  gst_app_src_push_buffer (appsrc, buffer);
}

static const gchar *
enum_nick (GObject * object, const gchar * property)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (object), property);
  GEnumValue *value;
  gint v;

  if (!pspec || !G_IS_PARAM_SPEC_ENUM (pspec))
    return NULL;
  g_object_get (object, property, &v, NULL);
  value = g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class, v);
  return value ? value->value_nick : NULL;
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  const gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return (x > y) - (x < y);
}

/* Runs one pipeline: "appsrc name=src ! MIDDLE ! fakesink name=sink". filter
 * names the element whose backend and frames-in-flight are set (may be NULL).
 */
static Outcome
run_case (const gchar * middle, const gchar * filter, const Shape * shape,
    gint depth, InputKind input, gboolean latency_mode, gint frames,
    const Options * opts)
{
  Outcome out = {.latency_us = -1 };
  Run run = {.input = input,.latency_mode = latency_mode,.frames = frames };
  gchar *description = g_strdup_printf ("appsrc name=src format=time "
      "stream-type=stream ! %s ! fakesink name=sink sync=false "
      "enable-last-sample=false async=false", middle);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GstElement *src = NULL, *sink = NULL, *element = NULL;
  GstPad *sinkpad;
  GstBus *bus;
  GstAppSrcCallbacks callbacks = {.need_data = feed_frame };
  gboolean done = FALSE;
  const gint64 deadline = g_get_monotonic_time () +
      EOS_TIMEOUT_S * G_TIME_SPAN_SECOND;

  g_mutex_init (&run.lock);
  g_cond_init (&run.cond);
  run.latencies_us = g_array_new (FALSE, FALSE, sizeof (gdouble));
  g_free (description);
  if (err) {
    out.note = g_strdup_printf ("could not build: %s", err->message);
    g_clear_error (&err);
    goto cleanup;
  }

  gst_video_info_set_format (&run.info,
      gst_video_format_from_string (shape->format), shape->width,
      shape->height);
  GST_VIDEO_INFO_FPS_N (&run.info) = 30;
  GST_VIDEO_INFO_FPS_D (&run.info) = 1;
  run.caps = gst_video_info_to_caps (&run.info);
  run.duration = gst_util_uint64_scale_int (GST_SECOND, 1, 30);

  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  if (filter)
    element = gst_bin_get_by_name (GST_BIN (pipeline), filter);
  g_object_set (src, "caps", run.caps, NULL);
  gst_app_src_set_callbacks (GST_APP_SRC (src), &callbacks, &run, NULL);
  sinkpad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, sink_probe, &run, NULL);
  gst_object_unref (sinkpad);
  if (latency_mode) {
    g_object_set (sink, "signal-handoffs", TRUE, NULL);
    g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &run);
  }

  if (element) {
    GObjectClass *klass = G_OBJECT_GET_CLASS (element);
    if (g_object_class_find_property (klass, "backend"))
      gst_util_set_object_arg (G_OBJECT (element), "backend", opts->backend);
    if (depth > 0 && g_object_class_find_property (klass, "frames-in-flight"))
      g_object_set (element, "frames-in-flight", (guint) depth, NULL);
  }

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    GstMessage *msg;
    bus = gst_element_get_bus (pipeline);
    msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      print_problem (msg, &out.note);
      gst_message_unref (msg);
    }
    gst_object_unref (bus);
    if (!out.note)
      out.note = g_strdup ("could not start");
    goto stop;
  }

  bus = gst_element_get_bus (pipeline);
  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    if (!msg) {
      if (g_get_monotonic_time () > deadline) {
        out.note = g_strdup ("timed out");
        break;
      }
      continue;
    }
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_EOS:
        out.ok = TRUE;
        done = TRUE;
        break;
      case GST_MESSAGE_ERROR:
        print_problem (msg, &out.note);
        done = TRUE;
        break;
      default:
        print_problem (msg, NULL);
        break;
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);

  /* Read while still PLAYING: the element may report "auto" once stopped. */
  if (element) {
    const gchar *nick = enum_nick (G_OBJECT (element), "active-backend");
    if (nick)
      out.active_backend = g_strdup (nick);
  }

stop:
  gst_element_set_state (pipeline, GST_STATE_NULL);

  g_mutex_lock (&run.lock);
  out.arrived = run.arrived;
  if (out.ok && !latency_mode) {
    out.seconds = (run.eos_us - run.first_push_us) / 1e6;
    out.fps = out.seconds > 0 ? run.frames / out.seconds : 0;
    if (run.arrived != run.frames) {
      out.note = g_strdup_printf ("%d of %d frames reached the sink",
          run.arrived, run.frames);
    }
  }
  if (latency_mode) {
    if (run.latencies_us->len > 0) {
      g_array_sort (run.latencies_us, compare_doubles);
      out.latency_us = g_array_index (run.latencies_us, gdouble,
          run.latencies_us->len / 2);
    } else if (!out.note) {
      out.note = g_strdup ("no single frame came out on its own");
    }
    out.ok = out.ok && run.latencies_us->len > 0;
  }
  g_mutex_unlock (&run.lock);
  out.pool_name = g_strdup (run.pool_name);
  out.memory_type = g_strdup (run.memory_type);

cleanup:
  for (gint i = 0; i < PREPARED; i++)
    gst_clear_buffer (&run.prepared[i]);
  if (run.pool) {
    gst_buffer_pool_set_active (run.pool, FALSE);
    gst_object_unref (run.pool);
  }
  if (run.caps)
    gst_caps_unref (run.caps);
  g_free (run.pool_name);
  g_free (run.memory_type);
  g_array_unref (run.latencies_us);
  g_mutex_clear (&run.lock);
  g_cond_clear (&run.cond);
  gst_clear_object (&element);
  gst_clear_object (&sink);
  gst_clear_object (&src);
  gst_clear_object (&pipeline);
  return out;
}

/* Whether factory's sink template takes format at all. */
static gboolean
takes_format (const gchar * factory_name, const gchar * format)
{
  GstElementFactory *factory = gst_element_factory_find (factory_name);
  const GList *l;
  gboolean ok = FALSE;

  if (!factory)
    return FALSE;
  for (l = gst_element_factory_get_static_pad_templates (factory); l && !ok;
      l = l->next) {
    GstStaticPadTemplate *templ = l->data;
    if (templ->direction == GST_PAD_SINK) {
      GstCaps *accepted = gst_static_caps_get (&templ->static_caps);
      GstCaps *wanted = gst_caps_new_simple ("video/x-raw", "format",
          G_TYPE_STRING, format, NULL);
      ok = gst_caps_can_intersect (accepted, wanted);
      gst_caps_unref (wanted);
      gst_caps_unref (accepted);
    }
  }
  gst_object_unref (factory);
  return ok;
}

/* ---- results ---- */

typedef struct
{
  const gchar *element;         /* as the table shows it */
  const Shape *shape;
  gint depth;                   /* 0: not applicable */
  const gchar *input;           /* "pool" or "pageable" */
  const gchar *bound_kind;      /* "up+down", "up" or NULL */
  Outcome out;
  gdouble bound_fps;            /* < 0: not available */
} Row;

static void
json_string (GString * s, const gchar * value)
{
  if (!value) {
    g_string_append (s, "null");
    return;
  }
  g_string_append_c (s, '"');
  for (const gchar * p = value; *p; p++) {
    if (*p == '"' || *p == '\\')
      g_string_append_printf (s, "\\%c", *p);
    else if ((guchar) * p < 0x20)
      g_string_append_printf (s, "\\u%04x", *p);
    else
      g_string_append_c (s, *p);
  }
  g_string_append_c (s, '"');
}

static void
json_number (GString * s, gdouble value, gboolean valid)
{
  if (valid)
    g_string_append_printf (s, "%.6g", value);
  else
    g_string_append (s, "null");
}

static gboolean
write_json (const gchar * path, const gchar * device, const gchar * no_bound,
    const Options * opts, const PcieBound * bounds, GPtrArray * rows)
{
  GString *s = g_string_new ("{\n  \"tool\": \"stream-bench\",\n  \"device\": ");
  GError *err = NULL;
  gchar *date = NULL;
  GDateTime *now = g_date_time_new_now_local ();
  gboolean ok;

  json_string (s, device);
  date = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S");
  g_date_time_unref (now);
  g_string_append (s, ",\n  \"date\": ");
  json_string (s, date);
  g_free (date);
  g_string_append (s, ",\n  \"backend\": ");
  json_string (s, opts->backend);
  g_string_append_printf (s, ",\n  \"frames\": %d,\n  \"quick\": %s,\n"
      "  \"gstreamer\": ", opts->frames, opts->quick ? "true" : "false");
  {
    gchar *version = gst_version_string ();
    json_string (s, version);
    g_free (version);
  }
  g_string_append (s, ",\n  \"pcie_note\": ");
  json_string (s, no_bound);
  g_string_append (s, ",\n  \"pcie\": [");
  for (guint i = 0; i < N_SHAPES; i++) {
    const PcieBound *b = &bounds[i];
    g_string_append_printf (s, "%s\n    {\"format\": \"%s\", \"size\": "
        "\"%dx%d\", \"bytes\": %" G_GSIZE_FORMAT ", \"up_us\": ",
        i ? "," : "", shapes[i].format, shapes[i].width, shapes[i].height,
        b->bytes);
    json_number (s, b->up_us, b->available);
    g_string_append (s, ", \"down_us\": ");
    json_number (s, b->down_us, b->available);
    g_string_append (s, ", \"up_alone_us\": ");
    json_number (s, b->up_alone_us, b->available);
    g_string_append (s, ", \"both_fps\": ");
    json_number (s, b->both_fps, b->available);
    g_string_append (s, ", \"up_fps\": ");
    json_number (s, b->up_fps, b->available);
    g_string_append (s, ", \"up_gb_s\": ");
    json_number (s, b->bytes / b->up_alone_us / 1e3, b->available);
    g_string_append (s, "}");
  }
  g_string_append (s, "\n  ],\n  \"cases\": [");
  for (guint i = 0; i < rows->len; i++) {
    const Row *r = g_ptr_array_index (rows, i);
    const Outcome *o = &r->out;
    g_string_append_printf (s, "%s\n    {\"element\": ", i ? "," : "");
    json_string (s, r->element);
    g_string_append_printf (s, ", \"format\": \"%s\", \"size\": \"%dx%d\", "
        "\"frames_in_flight\": ", r->shape->format, r->shape->width,
        r->shape->height);
    json_number (s, r->depth, r->depth > 0);
    g_string_append (s, ", \"input\": ");
    json_string (s, r->input);
    g_string_append_printf (s, ", \"ok\": %s, \"frames\": %d, \"seconds\": ",
        o->ok ? "true" : "false", o->arrived);
    json_number (s, o->seconds, o->ok && o->fps > 0);
    g_string_append (s, ", \"fps\": ");
    json_number (s, o->fps, o->ok && o->fps > 0);
    g_string_append (s, ", \"latency_us\": ");
    json_number (s, o->latency_us, o->latency_us >= 0);
    g_string_append (s, ", \"bound\": ");
    json_string (s, r->bound_kind);
    g_string_append (s, ", \"bound_fps\": ");
    json_number (s, r->bound_fps, r->bound_fps > 0);
    g_string_append (s, ", \"fraction_of_bound\": ");
    json_number (s, o->fps / r->bound_fps, r->bound_fps > 0 && o->ok
        && o->fps > 0);
    g_string_append (s, ", \"active_backend\": ");
    json_string (s, o->active_backend);
    g_string_append (s, ", \"pool\": ");
    json_string (s, o->pool_name);
    g_string_append (s, ", \"memory\": ");
    json_string (s, o->memory_type);
    g_string_append (s, ", \"note\": ");
    json_string (s, o->note);
    g_string_append (s, "}");
  }
  g_string_append (s, "\n  ]\n}\n");
  ok = g_file_set_contents (path, s->str, s->len, &err);
  if (!ok) {
    g_printerr ("Could not write %s: %s\n", path, err->message);
    g_clear_error (&err);
  }
  g_string_free (s, TRUE);
  return ok;
}

static void
print_row (const Row * r)
{
  const Outcome *o = &r->out;
  gchar depth[16] = "-";
  gchar fps[32] = "-", frac[32] = "-", lat[32] = "-";

  if (r->depth > 0)
    g_snprintf (depth, sizeof depth, "%d", r->depth);
  if (o->ok && o->fps > 0)
    g_snprintf (fps, sizeof fps, "%.1f", o->fps);
  if (o->ok && o->fps > 0 && r->bound_fps > 0)
    g_snprintf (frac, sizeof frac, "%.0f%% (%s)", 100 * o->fps / r->bound_fps,
        r->bound_kind);
  if (o->latency_us >= 0)
    g_snprintf (lat, sizeof lat, "%.0f us", o->latency_us);
  g_print ("%-26s %-6s %4dx%-4d %-5s %-8s %9s %-18s %9s  %s%s%s\n", r->element,
      r->shape->format, r->shape->width, r->shape->height, depth, r->input,
      fps, frac, lat, o->active_backend ? o->active_backend : "",
      o->memory_type ? " " : "", o->memory_type ? o->memory_type : "");
  if (o->note)
    g_print ("    note: %s\n", o->note);
}

/* ---- main ---- */

static gboolean
parse_options (int *argc, char ***argv, Options * opts)
{
  const GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT, &opts->frames,
        "Frames per case (default 1000, with --quick 30)", "N"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &opts->backend,
        "Backend of the cuda elements: cuda, cpu or auto (default cuda)",
        "BACKEND"},
    {"json", 0, 0, G_OPTION_ARG_FILENAME, &opts->json,
        "Also write the results to FILE as JSON", "FILE"},
    {"quick", 0, 0, G_OPTION_ARG_NONE, &opts->quick,
        "Few frames and repetitions: a smoke test", NULL},
    G_OPTION_ENTRY_NULL
  };
  if (!bench_parse_options (entries, "- stream-level frames per second of "
          "cudamedian, cudagauss and cudahist against the PCIe bound", argc,
          argv))
    return FALSE;
  if (!opts->backend)
    opts->backend = g_strdup ("cuda");
  if (opts->frames == 0)
    opts->frames = opts->quick ? 30 : 1000;
  if (opts->frames < 1) {
    g_printerr ("--frames must be positive\n");
    return FALSE;
  }
  opts->latency_frames = opts->quick ? 10 : 200;
  opts->pcie_reps = opts->quick ? 20 : 200;
  return TRUE;
}

static Row *
add_row (const gchar * element, const Shape * shape,
    gint depth, const gchar * input, const gchar * bound_kind,
    const PcieBound * bound)
{
  Row *r = g_new0 (Row, 1);
  r->element = element;
  r->shape = shape;
  r->depth = depth;
  r->input = input;
  r->bound_kind = bound_kind;
  r->bound_fps = -1;
  r->out.latency_us = -1;
  if (bound->available && bound_kind)
    r->bound_fps = g_str_equal (bound_kind, "up") ? bound->up_fps :
        bound->both_fps;
  return r;
}

static void
free_row (gpointer data)
{
  Row *r = data;
  g_free (r->out.note);
  g_free (r->out.active_backend);
  g_free (r->out.pool_name);
  g_free (r->out.memory_type);
  g_free (r);
}

int
main (int argc, char *argv[])
{
  static const gchar *filters[] = { "cudamedian", "cudagauss", "cudahist" };
  Options opts = { 0 };
  PcieBound bounds[N_SHAPES];
  gchar *device = NULL, *no_bound = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func (free_row);
  GstElementFactory *factory;
  gboolean have_copy_elements, all_ok = TRUE;
  int status = 1;

  if (!parse_options (&argc, &argv, &opts))
    goto done;

  for (guint i = 0; i < G_N_ELEMENTS (filters); i++) {
    factory = gst_element_factory_find (filters[i]);
    if (!factory) {
      g_printerr ("No element %s: is GST_PLUGIN_PATH set to the build's "
          "plugin folder (e.g. GST_PLUGIN_PATH=build/plugin)?\n", filters[i]);
      goto done;
    }
    gst_object_unref (factory);
  }

  /* The PCIe bound, before any pipeline runs. */
  memset (bounds, 0, sizeof bounds);
  device = cuda_device_name (&no_bound);
  for (guint i = 0; i < N_SHAPES; i++) {
    GstVideoInfo info;
    gst_video_info_set_format (&info,
        gst_video_format_from_string (shapes[i].format), shapes[i].width,
        shapes[i].height);
    bounds[i].bytes = GST_VIDEO_INFO_SIZE (&info);
    if (device)
      measure_pcie (GST_VIDEO_INFO_SIZE (&info), opts.pcie_reps, &bounds[i],
          &no_bound);
  }
  g_print ("device: %s\n", device ? device : "none");
  g_print ("PCIe bound, pinned host memory, %d repetitions:\n",
      opts.pcie_reps);
  for (guint i = 0; i < N_SHAPES; i++) {
    const PcieBound *b = &bounds[i];
    if (b->available)
      g_print ("  %-5s %dx%d %8.2f MB: up %7.1f us + down %7.1f us at once "
          "= %7.1f fps (%.1f / %.1f GB/s); up alone %7.1f us = %7.1f fps "
          "(%.1f GB/s)\n", shapes[i].format, shapes[i].width,
          shapes[i].height, b->bytes / 1e6, b->up_us, b->down_us, b->both_fps,
          b->bytes / b->up_us / 1e3, b->bytes / b->down_us / 1e3,
          b->up_alone_us, b->up_fps, b->bytes / b->up_alone_us / 1e3);
  }
  if (no_bound)
    g_print ("  PCIe bound not available: %s\n", no_bound);

  /* Warm the registry and each plugin so that no case pays for loading. */
  have_copy_elements = TRUE;
  for (guint i = 0; i < 2; i++) {
    factory = gst_element_factory_find (i ? "cudadownload" : "cudaupload");
    if (factory)
      gst_object_unref (factory);
    else
      have_copy_elements = FALSE;
  }

  g_print ("\n%d frames per case, backend %s\n", opts.frames, opts.backend);
  g_print ("%-26s %-6s %-9s %-5s %-8s %9s %-18s %9s  %s\n", "element",
      "format", "size", "depth", "input", "fps", "of PCIe bound", "latency",
      "backend memory");

  for (guint s = 0; s < N_SHAPES; s++) {
    const Shape *shape = &shapes[s];
    const PcieBound *bound = &bounds[s];
    Row *r;

    /* identity: the pipeline's own ceiling. */
    r = add_row ("identity", shape, 0, "pool", NULL, bound);
    r->out = run_case ("identity name=f", "f", shape, 0, INPUT_POOL, FALSE,
        opts.frames, &opts);
    {
      Outcome lat = run_case ("identity name=f", "f", shape, 0, INPUT_POOL,
          TRUE, opts.latency_frames, &opts);
      r->out.latency_us = lat.latency_us;
      g_free (lat.note);
      g_free (lat.active_backend);
      g_free (lat.pool_name);
      g_free (lat.memory_type);
    }
    print_row (r);
    g_ptr_array_add (rows, r);

    for (guint f = 0; f < G_N_ELEMENTS (filters); f++) {
      const gchar *name = filters[f];
      const gchar *bound_kind =
          g_str_equal (name, "cudahist") ? "up" : "up+down";
      gchar *middle = g_strdup_printf ("%s name=f", name);

      if (!takes_format (name, shape->format)) {
        g_print ("%-26s %-6s: format not taken, skipped\n", name,
            shape->format);
        g_free (middle);
        continue;
      }
      for (gint depth = 1; depth <= 3; depth++) {
        r = add_row (name, shape, depth, "pool", bound_kind, bound);
        r->out = run_case (middle, "f", shape, depth, INPUT_POOL, FALSE,
            opts.frames, &opts);
        if (depth == 1) {
          Outcome lat = run_case (middle, "f", shape, 1, INPUT_POOL, TRUE,
              opts.latency_frames, &opts);
          r->out.latency_us = lat.latency_us;
          if (!lat.ok && lat.note && !r->out.note)
            r->out.note = g_strdup_printf ("latency: %s", lat.note);
          g_free (lat.note);
          g_free (lat.active_backend);
          g_free (lat.pool_name);
          g_free (lat.memory_type);
        }
        all_ok = all_ok && r->out.ok;
        print_row (r);
        g_ptr_array_add (rows, r);
      }
      /* Foreign pageable memory, the element's pool ignored. */
      r = add_row (name, shape, 2, "pageable", bound_kind, bound);
      r->out = run_case (middle, "f", shape, 2, INPUT_PAGEABLE, FALSE,
          opts.frames, &opts);
      all_ok = all_ok && r->out.ok;
      print_row (r);
      g_ptr_array_add (rows, r);
      g_free (middle);
    }

    /* nvcodec's round trip through device memory. */
    r = add_row ("cudaupload ! cudadownload", shape, 0, "pool",
        "up+down", bound);
    if (have_copy_elements && g_str_equal (opts.backend, "cpu")) {
      r->out.note = g_strdup ("skipped: --backend cpu");
    } else if (have_copy_elements) {
      r->out = run_case ("cudaupload ! video/x-raw(memory:CUDAMemory) ! "
          "cudadownload ! video/x-raw", NULL, shape, 0, INPUT_POOL, FALSE,
          opts.frames, &opts);
      {
        Outcome lat = run_case ("cudaupload ! video/x-raw(memory:CUDAMemory) "
            "! cudadownload ! video/x-raw", NULL, shape, 0, INPUT_POOL, TRUE,
            opts.latency_frames, &opts);
        r->out.latency_us = lat.latency_us;
        g_free (lat.note);
        g_free (lat.active_backend);
        g_free (lat.pool_name);
        g_free (lat.memory_type);
      }
    } else {
      r->out.note = g_strdup ("skipped: no cudaupload/cudadownload "
          "(gst-plugins-bad nvcodec) here");
    }
    print_row (r);
    g_ptr_array_add (rows, r);
  }

  if (opts.json && !write_json (opts.json, device, no_bound, &opts, bounds,
          rows))
    goto done;
  if (opts.json)
    g_print ("\nWrote %s\n", opts.json);
  status = all_ok ? 0 : 2;
  if (!all_ok)
    g_printerr ("Some cases failed (see their notes)\n");

done:
  g_ptr_array_unref (rows);
  g_free (device);
  g_free (no_bound);
  g_free (opts.backend);
  g_free (opts.json);
  return status;
}
