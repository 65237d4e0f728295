// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

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
 * With --memory cuda the frames live on the device instead: prepared once in
 * a GstCudaBufferPool of a GstCudaContext that the program gives to the
 * pipeline (the elements share it), pushed as video/x-raw(memory:CUDAMemory)
 * through each element and through cudamedian ! cudagauss ! cudahist. Each
 * row then also says whether the frames stayed on the device (buffer probes
 * on every link, GstCudaMemory maps counted, and with CUPTI a census of every
 * copy the process made) and, given or measured the kernel time per frame,
 * the host's overhead per frame and the fraction of the kernel bound.
 *
 *   GST_PLUGIN_PATH=build/plugin build/bench/stream-bench --backend cpu --quick
 *   GST_PLUGIN_PATH=build/plugin build/bench/stream-bench --memory cuda --quick
 */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_source.h"
#include "gpu_activity.h"
#ifdef CF_HAVE_GST_CUDA
#include "bench_cuda.h"
#endif

/* Distinct prepared buffers, more than the deepest frames-in-flight. */
#define PREPARED 4
/* The memory the fresh input prepares at most: new memory every frame. */
#define FRESH_BYTES (G_GUINT64_CONSTANT (4) << 30)
#define EOS_TIMEOUT_S 600

typedef struct
{
  gint frames;
  gchar *backend;
  gchar *json;
  gboolean quick;
  gint latency_frames;
  gint pcie_reps;
  gchar *memory;                /* "system" or "cuda" */
  gboolean cuda_memory;         /* --memory cuda */
  gchar *kernel_us;             /* --kernel-us, as given */
  GHashTable *given_kernel_us;  /* "element:FORMAT:WxH" -> gdouble * */
  gint census_frames;
  gpointer context;             /* --memory cuda: the GstCudaContext */
  gchar *pipelines;             /* --pipelines, as given */
  gchar *shapes;                /* --shapes, as given */
  gchar *cases;                 /* --cases, as given */
  GRegex *case_pattern;         /* --cases, compiled */
  gint processes;               /* --processes */
  gint64 start_at;              /* --start-at: a child's start, monotonic us */
} Options;

typedef struct
{
  const gchar *format;
  gint width;
  gint height;
} Shape;

/* Frames in host memory (the default). */
static const Shape host_shapes[] = {
  {"GRAY8", 1920, 1080},
  {"NV12", 1920, 1080},
  {"RGBA", 3840, 2160},
};

#ifdef CF_HAVE_GST_CUDA
/* Frames in CUDA memory (--memory cuda): what NVDEC gives (NV12, P010_10LE)
 * and what renderers take (RGBA); never GRAY8 or GRAY16_LE, which
 * gstreamer-cuda 1.22's allocator aborts on. */
static const Shape device_shapes[] = {
  {"NV12", 1920, 1080},
  {"RGBA", 3840, 2160},
  {"P010_10LE", 3840, 2160},
};
#endif

#define MAX_SHAPES 3

/* The shapes of `all` that --shapes names, in their order (all of them
 * without it). FALSE after saying which named shape is not among them. */
static gboolean
select_shapes (const gchar * wanted, const Shape * all, guint n_all,
    Shape * selected, guint * n_selected)
{
  gchar **names = wanted ? g_strsplit (wanted, ",", -1) : NULL;
  gboolean ok = TRUE;
  *n_selected = 0;
  for (guint i = 0; i < n_all; i++) {
    gchar *name = g_strdup_printf ("%s:%dx%d", all[i].format, all[i].width,
        all[i].height);
    if (!names || g_strv_contains ((const gchar * const *) names, name))
      selected[(*n_selected)++] = all[i];
    g_free (name);
  }
  for (guint n = 0; names && names[n]; n++) {
    gboolean known = FALSE;
    for (guint i = 0; i < n_all; i++) {
      gchar *name = g_strdup_printf ("%s:%dx%d", all[i].format, all[i].width,
          all[i].height);
      known = known || g_str_equal (name, names[n]);
      g_free (name);
    }
    if (!known) {
      g_printerr ("--shapes: no shape %s here (FORMAT:WIDTHxHEIGHT of the "
          "ones --memory runs)\n", names[n]);
      ok = FALSE;
    }
  }
  g_strfreev (names);
  return ok;
}

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
  INPUT_RECYCLED,               /* buffers of our own, again and again, the
                                 * element's pool ignored (as v4l2src does) */
  INPUT_FRESH,                  /* new memory every frame, never reused */
  INPUT_CUDA,                   /* a GstCudaBufferPool of our context */
} InputKind;

/* What else a run does (INPUT_CUDA): trace the GPU's work (gpu_activity.h),
 * and, as a control that the checks see a copy, map every buffer reaching
 * the sink on the host (which makes gstreamer-cuda download it). */
enum
{
  RUN_CENSUS = 1 << 0,
  RUN_MAP_AT_SINK = 1 << 1,
  /* Host input: the pipeline shares opts->context, as an application that
   * runs several pipelines can make them. */
  RUN_SHARE_CONTEXT = 1 << 2,
  /* INPUT_CUDA: each frame a buffer of the pool that the pipeline alone
   * holds, as a decoder's output (the prepared frames, recycled): an element
   * that edits frames in place would first copy a shared one. */
  RUN_WRITABLE = 1 << 3,
};
/* Every frame carries n region-of-interest metas of type "face" (for
 * regions=meta): boxes of a grid over the frame, together a tenth of it. */
#define RUN_REGIONS(n) ((guint) (n) << 8)
#define RUN_REGIONS_OF(flags) ((flags) >> 8)

/* The elements whose backend and frames-in-flight a case sets: a pipeline
 * names its filters f, f1, f2 in order. */
static const gchar *const filter_names[] = { "f", "f1", "f2" };

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
  GstBuffer **fresh;            /* INPUT_FRESH: one per frame, each pushed once */
  guint regions;                /* boxes on every frame (RUN_REGIONS) */
  gboolean writable;            /* RUN_WRITABLE */
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

  /* INPUT_CUDA */
  gpointer context;             /* GstCudaContext */
  gboolean census;              /* trace the GPU's work (gpu_activity.h) */
  gboolean map_at_sink;         /* the control: host maps at the sink */
  gboolean census_started;
  gchar *census_note;           /* why the census failed */
  guint64 maps_at_start[3];     /* GstCudaMemory maps at the first push */
} Run;

/* What one case reports. */
typedef struct
{
  gchar *label;
  gboolean ok;
  gchar *note;
  gdouble seconds;
  gint64 first_push_us, eos_us; /* when the timed run began and ended */
  gdouble fps;
  gdouble latency_us;           /* median, < 0 when not measured */
  gchar *active_backend;
  guint64 device_bytes, pinned_bytes; /* f's device-memory and pinned-memory */
  gchar *pool_name;
  gchar *memory_type;
  gint arrived;

  /* INPUT_CUDA */
  gboolean on_device;           /* every buffer at every link in our context */
  gchar *where;                 /* the links' counts, in words */
  gint64 host_maps, downloads, uploads;  /* GstCudaMemory maps; < 0: unknown */
  gboolean traced;              /* census run: activity is valid */
  gchar *census_note;
  BenchGpuActivity activity;
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

/* Buffers and EOS arriving at the sink. */
static GstPadProbeReturn
sink_probe (G_GNUC_UNUSED GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Run *run = data;

  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    if (run->map_at_sink) {
      GstMapInfo map;
      if (gst_buffer_map (GST_PAD_PROBE_INFO_BUFFER (info), &map,
              GST_MAP_READ))
        gst_buffer_unmap (GST_PAD_PROBE_INFO_BUFFER (info), &map);
    }
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
 * plain video pool when none is offered, or in system memory of our own
 * (recycled); or a frame of new system memory for every frame to push
 * (fresh). */
static gboolean
prepare_frames (Run * run, GstAppSrc * appsrc)
{
  const guint size = GST_VIDEO_INFO_SIZE (&run->info);

  if (run->input == INPUT_CUDA) {
#ifdef CF_HAVE_GST_CUDA
    gchar *why = NULL;
    run->pool = bench_cuda_prepare_frames (run->context, run->caps,
        run->prepared, PREPARED, &why);
    if (!run->pool) {
      g_printerr ("  %s\n", why);
      g_free (why);
      return FALSE;
    }
    run->memory_type = g_strdup (GST_CUDA_MEMORY_TYPE_NAME);
    return TRUE;
#else
    return FALSE;
#endif
  }
  if (run->input == INPUT_POOL) {
    run->pool = bench_upstream_pool (appsrc, run->caps, size, PREPARED,
        &run->pool_name);
    if (!run->pool)
      return FALSE;
  }
  if (run->input == INPUT_FRESH) {
    /* Touched before they are pushed, as a source's frames would be: one
     * random frame, copied. */
    run->fresh = g_new0 (GstBuffer *, run->frames);
    if (!bench_prepare_frames (NULL, size, run->fresh, 1))
      return FALSE;
    for (gint i = 1; i < run->frames; i++) {
      run->fresh[i] = gst_buffer_copy_deep (run->fresh[0]);
      if (!run->fresh[i])
        return FALSE;
    }
    run->memory_type = g_strdup (GST_ALLOCATOR_SYSMEM);
    return TRUE;
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

/* INPUT_CUDA, at the first push (the frames are prepared): maps so far, and
 * the GPU activity census of a census run. */
static void
start_device_accounting (Run * run)
{
#ifdef CF_HAVE_GST_CUDA
  BenchCudaMaps maps;
  bench_cuda_maps_now (&maps);
  run->maps_at_start[0] = maps.host_maps;
  run->maps_at_start[1] = maps.downloads;
  run->maps_at_start[2] = maps.uploads;
#endif
  if (run->census)
    run->census_started = bench_gpu_activity_start (&run->census_note);
}

/* run->regions boxes on `frame`: a square grid of them, each box a tenth of
 * its cell's area. */
static void
attach_regions (Run * run, GstBuffer * frame)
{
  guint side = 1;
  while (side * side < run->regions)
    side++;
  const gint cell_w = GST_VIDEO_INFO_WIDTH (&run->info) / side;
  const gint cell_h = GST_VIDEO_INFO_HEIGHT (&run->info) / side;
  for (guint r = 0; r < run->regions; r++)
    gst_buffer_add_video_region_of_interest_meta (frame, "face",
        (r % side) * cell_w + cell_w / 4, (r / side) * cell_h + cell_h / 4,
        cell_w * 10 / 32, cell_h * 10 / 32);
}

/* RUN_WRITABLE: the next frame from the pool, which the prepared frames went
 * back to at the first push; the pool gives its metas back with it. */
static GstBuffer *
writable_frame (Run * run)
{
  GstBuffer *frame = NULL;
  if (run->pushed == 0)
    for (guint i = 0; i < PREPARED; i++)
      gst_clear_buffer (&run->prepared[i]);
  if (gst_buffer_pool_acquire_buffer (run->pool, &frame, NULL) != GST_FLOW_OK)
    return NULL;
  if (run->regions > 0)
    attach_regions (run, frame);
  return frame;
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
  if (run->pushed == 0 && run->regions > 0 && !run->writable)
    for (guint i = 0; i < PREPARED; i++)
      attach_regions (run, run->prepared[i]);
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

  /* A shallow copy: own timestamps, the prepared memory; or a fresh frame,
   * pushed once, freed after its use. */
  if (run->input == INPUT_FRESH) {
    buffer = run->fresh[run->pushed];
    run->fresh[run->pushed] = NULL;
  } else if (run->writable) {
    buffer = writable_frame (run);
    if (!buffer) {
      GST_ELEMENT_ERROR (appsrc, RESOURCE, FAILED,
          ("No frame from the CUDA pool"), (NULL));
      run->setup_failed = TRUE;
      return;
    }
  } else {
    buffer = gst_buffer_copy (run->prepared[run->pushed % PREPARED]);
  }
  GST_BUFFER_PTS (buffer) = run->pushed * run->duration;
  GST_BUFFER_DTS (buffer) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buffer) = run->duration;
  if (run->pushed == 0 && run->input == INPUT_CUDA)
    start_device_accounting (run);
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

/* Runs one pipeline: "appsrc name=src ! MIDDLE ! fakesink name=sink". The
 * filters in MIDDLE are named f, f1, f2 (filter_names): each gets the backend
 * and, depth > 0, frames-in-flight; f's active backend is reported. With
 * INPUT_CUDA the frames are CUDA memory of opts->context, which the pipeline
 * is given, every filter's link is watched and GstCudaMemory maps are
 * counted; `flags` (RUN_*) asks for more. */
static Outcome
run_case (const gchar * middle, const Shape * shape, gint depth,
    InputKind input, gboolean latency_mode, gint frames, guint flags,
    const Options * opts)
{
  const gboolean census = (flags & RUN_CENSUS) != 0;
  Outcome out = {.latency_us = -1,.host_maps = -1,.downloads = -1,
    .uploads = -1
  };
  Run run = {.input = input,.latency_mode = latency_mode,.frames = frames,
    .context = opts->context,.census = census,
    .map_at_sink = (flags & RUN_MAP_AT_SINK) != 0,
    .regions = RUN_REGIONS_OF (flags),
    .writable = input == INPUT_CUDA && (flags & RUN_WRITABLE) != 0
  };
  gchar *description = g_strdup_printf ("appsrc name=src format=time "
      "stream-type=stream ! %s ! fakesink name=sink sync=false "
      "enable-last-sample=false async=false", middle);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);
  GstElement *src = NULL, *sink = NULL, *element = NULL;
  GstPad *sinkpad;
  GstAppSrcCallbacks callbacks = {.need_data = feed_frame };
#ifdef CF_HAVE_GST_CUDA
  BenchCensus *links = NULL;
#endif

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
  if (input == INPUT_CUDA)
    gst_caps_set_features (run.caps, 0,
        gst_caps_features_new ("memory:CUDAMemory", NULL));
  run.duration = gst_util_uint64_scale_int (GST_SECOND, 1, 30);

  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  element = gst_bin_get_by_name (GST_BIN (pipeline), filter_names[0]);
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

  for (guint i = 0; i < G_N_ELEMENTS (filter_names); i++) {
    GstElement *filter = gst_bin_get_by_name (GST_BIN (pipeline),
        filter_names[i]);
    GObjectClass *klass;
    if (!filter)
      continue;
    klass = G_OBJECT_GET_CLASS (filter);
    if (g_object_class_find_property (klass, "backend"))
      gst_util_set_object_arg (G_OBJECT (filter), "backend", opts->backend);
    if (depth > 0 && g_object_class_find_property (klass, "frames-in-flight"))
      g_object_set (filter, "frames-in-flight", (guint) depth, NULL);
    gst_object_unref (filter);
  }

#ifdef CF_HAVE_GST_CUDA
  if ((flags & RUN_SHARE_CONTEXT) && input != INPUT_CUDA)
    bench_cuda_share_context (pipeline, opts->context);
  if (input == INPUT_CUDA) {
    bench_cuda_share_context (pipeline, opts->context);
    links = bench_census_new (opts->context);
    bench_census_watch_element (links, GST_BIN (pipeline), "src");
    for (guint i = 0; i < G_N_ELEMENTS (filter_names); i++)
      bench_census_watch_element (links, GST_BIN (pipeline), filter_names[i]);
  }
#endif

  out.ok = bench_play_to_eos (pipeline, EOS_TIMEOUT_S, &out.note);

  /* Read while still PLAYING: the element may report "auto" once stopped. */
  if (element) {
    const gchar *nick = enum_nick (G_OBJECT (element), "active-backend");
    if (nick)
      out.active_backend = g_strdup (nick);
    if (g_object_class_find_property (G_OBJECT_GET_CLASS (element),
            "device-memory"))
      g_object_get (element, "device-memory", &out.device_bytes,
          "pinned-memory", &out.pinned_bytes, NULL);
  }
  if (run.census_started) {
    gchar *why = NULL;
    out.traced = bench_gpu_activity_stop (&out.activity, &why);
    out.census_note = why;
  } else if (census) {
    out.census_note = run.census_note ? g_strdup (run.census_note) :
        g_strdup ("no frame was pushed");
  }
#ifdef CF_HAVE_GST_CUDA
  if (links) {
    BenchCudaMaps now;
    bench_cuda_maps_now (&now);
    if (run.pushed > 0) {
      out.host_maps = now.host_maps - run.maps_at_start[0];
      out.downloads = now.downloads - run.maps_at_start[1];
      out.uploads = now.uploads - run.maps_at_start[2];
    }
    bench_census_stop (links);
    out.on_device = bench_census_all_on_device (links);
    out.where = bench_census_describe (links);
  }
#endif

  gst_element_set_state (pipeline, GST_STATE_NULL);

  g_mutex_lock (&run.lock);
  out.arrived = run.arrived;
  if (out.ok && !latency_mode) {
    out.seconds = (run.eos_us - run.first_push_us) / 1e6;
    out.first_push_us = run.first_push_us;
    out.eos_us = run.eos_us;
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
#ifdef CF_HAVE_GST_CUDA
  bench_census_free (links);
#endif
  for (gint i = 0; i < PREPARED; i++)
    gst_clear_buffer (&run.prepared[i]);
  for (gint i = 0; run.fresh && i < run.frames; i++)
    gst_clear_buffer (&run.fresh[i]);
  g_free (run.fresh);
  if (run.pool) {
    gst_buffer_pool_set_active (run.pool, FALSE);
    gst_object_unref (run.pool);
  }
  if (run.caps)
    gst_caps_unref (run.caps);
  g_free (run.pool_name);
  g_free (run.memory_type);
  g_free (run.census_note);
  g_array_unref (run.latencies_us);
  g_mutex_clear (&run.lock);
  g_cond_clear (&run.cond);
  gst_clear_object (&element);
  gst_clear_object (&sink);
  gst_clear_object (&src);
  gst_clear_object (&pipeline);
  return out;
}

static void
free_outcome (Outcome * o)
{
  g_free (o->note);
  g_free (o->active_backend);
  g_free (o->pool_name);
  g_free (o->memory_type);
  g_free (o->where);
  g_free (o->census_note);
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
  const gchar *input;           /* "pool", "recycled", "fresh" or "cuda" */
  const gchar *bound_kind;      /* "up+down", "up" or NULL */
  Outcome out;
  gdouble bound_fps;            /* < 0: not available */

  /* --memory cuda */
  const gchar *middle;          /* the pipeline between appsrc and fakesink */
  const gchar *kernel_key;      /* --kernel-us's name; NULL for identity */
  gboolean control;             /* made to copy: its verdict must be NO */
  guint flags;                  /* RUN_* of its runs */
  const PcieBound *pcie;
  gboolean have_census;
  Outcome census;               /* the traced run */
  gdouble kernel_us;            /* per frame, < 0: unknown */
  const gchar *kernel_source;   /* "given" or "traced" */
  gdouble kernel_us_traced;     /* this row's traced run: kernels' union */
} Row;

/* Everything before the cases: the same fields in both modes, and with
 * --memory cuda what says how the frames were checked. */
static GString *
json_head (const gchar * device, const gchar * no_bound, const Options * opts,
    const Shape * shapes, guint n_shapes, const PcieBound * bounds,
    const gchar * census_note)
{
  GString *s = g_string_new ("{\n  \"tool\": \"stream-bench\",\n  \"device\": ");
  gchar *date = NULL;
  GDateTime *now = g_date_time_new_now_local ();

  bench_json_string (s, device);
  date = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S");
  g_date_time_unref (now);
  g_string_append (s, ",\n  \"date\": ");
  bench_json_string (s, date);
  g_free (date);
  g_string_append (s, ",\n  \"backend\": ");
  bench_json_string (s, opts->backend);
  g_string_append_printf (s, ",\n  \"frames\": %d,\n  \"quick\": %s,\n"
      "  \"gstreamer\": ", opts->frames, opts->quick ? "true" : "false");
  {
    gchar *version = gst_version_string ();
    bench_json_string (s, version);
    g_free (version);
  }
  if (opts->cuda_memory) {
    g_string_append (s, ",\n  \"memory\": \"cuda\",\n  \"census_frames\": ");
    bench_json_number (s, opts->census_frames, TRUE);
    g_string_append (s, ",\n  \"census_note\": ");
    bench_json_string (s, census_note);
    g_string_append (s, ",\n  \"kernel_us_given\": ");
    bench_json_string (s, opts->kernel_us);
  }
  g_string_append (s, ",\n  \"pcie_note\": ");
  bench_json_string (s, no_bound);
  g_string_append (s, ",\n  \"pcie\": [");
  for (guint i = 0; i < n_shapes; i++) {
    const PcieBound *b = &bounds[i];
    g_string_append_printf (s, "%s\n    {\"format\": \"%s\", \"size\": "
        "\"%dx%d\", \"bytes\": %" G_GSIZE_FORMAT ", \"up_us\": ",
        i ? "," : "", shapes[i].format, shapes[i].width, shapes[i].height,
        b->bytes);
    bench_json_number (s, b->up_us, b->available);
    g_string_append (s, ", \"down_us\": ");
    bench_json_number (s, b->down_us, b->available);
    g_string_append (s, ", \"up_alone_us\": ");
    bench_json_number (s, b->up_alone_us, b->available);
    g_string_append (s, ", \"both_fps\": ");
    bench_json_number (s, b->both_fps, b->available);
    g_string_append (s, ", \"up_fps\": ");
    bench_json_number (s, b->up_fps, b->available);
    g_string_append (s, ", \"up_gb_s\": ");
    bench_json_number (s, b->bytes / b->up_alone_us / 1e3, b->available);
    g_string_append (s, "}");
  }
  g_string_append (s, "\n  ],\n  \"cases\": [");
  return s;
}

static gboolean
json_finish (GString * s, const gchar * path)
{
  GError *err = NULL;
  gboolean ok;

  g_string_append (s, "\n  ]\n}\n");
  ok = g_file_set_contents (path, s->str, s->len, &err);
  if (!ok) {
    g_printerr ("Could not write %s: %s\n", path, err->message);
    g_clear_error (&err);
  }
  g_string_free (s, TRUE);
  return ok;
}

static gboolean
write_json (const gchar * path, const gchar * device, const gchar * no_bound,
    const Options * opts, const Shape * shapes, guint n_shapes,
    const PcieBound * bounds, GPtrArray * rows)
{
  GString *s = json_head (device, no_bound, opts, shapes, n_shapes, bounds,
      NULL);

  for (guint i = 0; i < rows->len; i++) {
    const Row *r = g_ptr_array_index (rows, i);
    const Outcome *o = &r->out;
    g_string_append_printf (s, "%s\n    {\"element\": ", i ? "," : "");
    bench_json_string (s, r->element);
    g_string_append_printf (s, ", \"format\": \"%s\", \"size\": \"%dx%d\", "
        "\"frames_in_flight\": ", r->shape->format, r->shape->width,
        r->shape->height);
    bench_json_number (s, r->depth, r->depth > 0);
    g_string_append (s, ", \"input\": ");
    bench_json_string (s, r->input);
    g_string_append_printf (s, ", \"ok\": %s, \"frames\": %d, \"seconds\": ",
        o->ok ? "true" : "false", o->arrived);
    bench_json_number (s, o->seconds, o->ok && o->fps > 0);
    g_string_append (s, ", \"fps\": ");
    bench_json_number (s, o->fps, o->ok && o->fps > 0);
    g_string_append (s, ", \"latency_us\": ");
    bench_json_number (s, o->latency_us, o->latency_us >= 0);
    g_string_append (s, ", \"bound\": ");
    bench_json_string (s, r->bound_kind);
    g_string_append (s, ", \"bound_fps\": ");
    bench_json_number (s, r->bound_fps, r->bound_fps > 0);
    g_string_append (s, ", \"fraction_of_bound\": ");
    bench_json_number (s, o->fps / r->bound_fps, r->bound_fps > 0 && o->ok
        && o->fps > 0);
    g_string_append (s, ", \"active_backend\": ");
    bench_json_string (s, o->active_backend);
    g_string_append (s, ", \"pool\": ");
    bench_json_string (s, o->pool_name);
    g_string_append (s, ", \"memory\": ");
    bench_json_string (s, o->memory_type);
    g_string_append (s, ", \"note\": ");
    bench_json_string (s, o->note);
    g_string_append (s, "}");
  }
  return json_finish (s, path);
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

#ifdef CF_HAVE_GST_CUDA
/* ---- --memory cuda: rows and their figures ---- */

static gboolean
row_timed (const Row * r)
{
  return r->out.ok && r->out.fps > 0;
}

/* Bytes that crossed the bus per frame in the traced run, < 0: unknown. */
static gdouble
host_copy_bytes_per_frame (const Row * r)
{
  const Outcome *c = &r->census;
  if (!r->have_census || !c->traced || c->arrived < 1)
    return -1;
  return (gdouble) (c->activity.up_bytes + c->activity.down_bytes) /
      c->arrived;
}

/* Whether frames crossed the bus in the traced run: more than 1% of a frame
 * per frame (a cudahist's bins are far less; any frame or plane far more). */
static gboolean
census_saw_frame_copies (const Row * r)
{
  const gdouble per_frame = host_copy_bytes_per_frame (r);
  return per_frame >= 0 && per_frame > 0.01 * r->pcie->bytes;
}

/* The verdict of a row: "yes" where every check that ran passed. */
static const gchar *
device_verdict (const Row * r)
{
  const Outcome *o = &r->out;
  if (!o->ok)
    return "failed";
  if (!o->on_device || o->host_maps != 0 || o->uploads != 0)
    return "NO";
  if (r->have_census && r->census.ok && (!r->census.on_device ||
          r->census.host_maps != 0 || r->census.uploads != 0 ||
          census_saw_frame_copies (r)))
    return "NO";
  return "yes";
}

static void
print_device_row (const Row * r)
{
  const Outcome *o = &r->out;
  gchar depth[16] = "-", fps[32] = "-", per_frame[32] = "-", pcie[32] = "-";
  gchar maps[64] = "-";

  if (r->depth > 0)
    g_snprintf (depth, sizeof depth, "%d", r->depth);
  if (row_timed (r)) {
    g_snprintf (fps, sizeof fps, "%.1f", o->fps);
    g_snprintf (per_frame, sizeof per_frame, "%.1f", 1e6 / o->fps);
    if (r->pcie->available)
      g_snprintf (pcie, sizeof pcie, "%.2fx", o->fps / r->pcie->both_fps);
  }
  if (o->host_maps >= 0)
    g_snprintf (maps, sizeof maps, "%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT
        "/%" G_GINT64_FORMAT, o->host_maps, o->downloads, o->uploads);
  g_print ("%-34s %-9s %4dx%-4d %-5s %9s %9s %8s %-10s %s\n", r->element,
      r->shape->format, r->shape->width, r->shape->height, depth, fps,
      per_frame, pcie, maps, device_verdict (r));
  if (o->note)
    g_print ("    note: %s\n", o->note);
  if (o->where && !o->on_device)
    g_print ("    links: %s\n", o->where);
}

static void
print_device_summary_row (const Row * r)
{
  const Outcome *o = &r->out;
  gchar depth[16] = "-", per_frame[32] = "-", kernel[40] = "-";
  gchar overhead[32] = "-", frac[32] = "-", copies[64] = "-", busy[32] = "-";

  if (r->depth > 0)
    g_snprintf (depth, sizeof depth, "%d", r->depth);
  if (row_timed (r))
    g_snprintf (per_frame, sizeof per_frame, "%.1f", 1e6 / o->fps);
  if (r->kernel_us_traced > 0)
    g_snprintf (busy, sizeof busy, "%.1f", r->kernel_us_traced);
  if (r->kernel_us > 0) {
    g_snprintf (kernel, sizeof kernel, "%.1f (%s)", r->kernel_us,
        r->kernel_source);
    if (row_timed (r)) {
      g_snprintf (overhead, sizeof overhead, "%.1f",
          1e6 / o->fps - r->kernel_us);
      g_snprintf (frac, sizeof frac, "%.0f%%",
          100 * r->kernel_us * o->fps / 1e6);
    }
  }
  if (host_copy_bytes_per_frame (r) >= 0) {
    const BenchGpuActivity *a = &r->census.activity;
    g_snprintf (copies, sizeof copies, "%" G_GUINT64_FORMAT "/%"
        G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ", %.0f B", a->up, a->down,
        a->on_device, host_copy_bytes_per_frame (r));
  }
  g_print ("%-34s %-9s %4dx%-4d %-5s %9s %14s %9s %7s %9s %-24s %s\n",
      r->element, r->shape->format, r->shape->width, r->shape->height, depth,
      per_frame, kernel, overhead, frac, busy, copies, device_verdict (r));
  if (r->have_census && r->census.census_note)
    g_print ("    census: %s\n", r->census.census_note);
  if (r->have_census && r->census.traced && r->census.activity.dropped)
    g_print ("    census: CUPTI dropped %" G_GUINT64_FORMAT " records\n",
        r->census.activity.dropped);
}

static void
json_activity (GString * s, const Row * r)
{
  const Outcome *c = &r->census;
  const BenchGpuActivity *a = &c->activity;
  const gboolean valid = r->have_census && c->traced && c->arrived > 0;
  const gdouble frames = MAX (c->arrived, 1);

  if (!r->have_census) {
    g_string_append (s, "null");
    return;
  }
  g_string_append_printf (s, "{\"ok\": %s, \"frames\": %d, "
      "\"links_on_device\": %s, \"host_maps\": ", valid ? "true" : "false",
      c->arrived, c->on_device ? "true" : "false");
  bench_json_number (s, c->host_maps, c->host_maps >= 0);
  g_string_append (s, ", \"uploads\": ");
  bench_json_number (s, c->uploads, c->uploads >= 0);
  g_string_append (s, ", \"kernels_per_frame\": ");
  bench_json_number (s, a->kernels / frames, valid);
  g_string_append (s, ", \"kernel_sum_us_per_frame\": ");
  bench_json_number (s, a->kernel_us / frames, valid);
  g_string_append (s, ", \"kernel_busy_us_per_frame\": ");
  bench_json_number (s, a->kernel_busy_us / frames, valid);
  g_string_append (s, ", \"memset_us_per_frame\": ");
  bench_json_number (s, a->memset_us / frames, valid);
  g_string_append (s, ", \"busy_us_per_frame\": ");
  bench_json_number (s, a->busy_us / frames, valid);
  g_string_append_printf (s, ", \"up\": %" G_GUINT64_FORMAT ", \"down\": %"
      G_GUINT64_FORMAT ", \"device_copies\": %" G_GUINT64_FORMAT
      ", \"other\": %" G_GUINT64_FORMAT ", \"up_bytes\": %" G_GUINT64_FORMAT
      ", \"down_bytes\": %" G_GUINT64_FORMAT ", \"device_copy_bytes\": %"
      G_GUINT64_FORMAT ", \"largest_host_copy\": %" G_GUINT64_FORMAT
      ", \"dropped\": %" G_GUINT64_FORMAT, a->up, a->down, a->on_device,
      a->other, a->up_bytes, a->down_bytes, a->on_device_bytes,
      a->largest_host_copy, a->dropped);
  g_string_append (s, ", \"host_copy_bytes_per_frame\": ");
  bench_json_number (s, host_copy_bytes_per_frame (r), valid);
  g_string_append_printf (s, ", \"frame_copies\": %s, \"note\": ",
      census_saw_frame_copies (r) ? "true" : "false");
  bench_json_string (s, c->census_note ? c->census_note : c->note);
  g_string_append (s, "}");
}

static gboolean
write_device_json (const gchar * path, const gchar * device,
    const gchar * no_bound, const Options * opts, const Shape * shapes,
    guint n_shapes, const PcieBound * bounds, GPtrArray * rows,
    const gchar * census_note)
{
  GString *s = json_head (device, no_bound, opts, shapes, n_shapes, bounds,
      census_note);

  for (guint i = 0; i < rows->len; i++) {
    const Row *r = g_ptr_array_index (rows, i);
    const Outcome *o = &r->out;
    const gboolean timed = row_timed (r);
    const gboolean kernel = r->kernel_us > 0;
    g_string_append_printf (s, "%s\n    {\"element\": ", i ? "," : "");
    bench_json_string (s, r->element);
    g_string_append (s, ", \"pipeline\": ");
    bench_json_string (s, r->middle);
    g_string_append_printf (s, ", \"control\": %s", r->control ? "true" :
        "false");
    g_string_append_printf (s, ", \"format\": \"%s\", \"size\": \"%dx%d\", "
        "\"frame_bytes\": %" G_GSIZE_FORMAT ", \"frames_in_flight\": ",
        r->shape->format, r->shape->width, r->shape->height, r->pcie->bytes);
    bench_json_number (s, r->depth, r->depth > 0);
    g_string_append_printf (s, ", \"input\": \"cuda\", \"ok\": %s, "
        "\"frames\": %d, \"seconds\": ", o->ok ? "true" : "false", o->arrived);
    bench_json_number (s, o->seconds, timed);
    g_string_append (s, ", \"fps\": ");
    bench_json_number (s, o->fps, timed);
    g_string_append (s, ", \"us_per_frame\": ");
    bench_json_number (s, 1e6 / o->fps, timed);
    g_string_append (s, ", \"kernel_us\": ");
    bench_json_number (s, r->kernel_us, kernel);
    g_string_append (s, ", \"kernel_source\": ");
    bench_json_string (s, kernel ? r->kernel_source : NULL);
    g_string_append (s, ", \"kernel_busy_us_traced\": ");
    bench_json_number (s, r->kernel_us_traced, r->kernel_us_traced > 0);
    g_string_append (s, ", \"host_overhead_us\": ");
    bench_json_number (s, 1e6 / o->fps - r->kernel_us, timed && kernel);
    g_string_append (s, ", \"kernel_bound_fps\": ");
    bench_json_number (s, 1e6 / r->kernel_us, kernel);
    g_string_append (s, ", \"fraction_of_kernel_bound\": ");
    bench_json_number (s, r->kernel_us * o->fps / 1e6, timed && kernel);
    g_string_append (s, ", \"pcie_both_fps\": ");
    bench_json_number (s, r->pcie->both_fps, r->pcie->available);
    g_string_append (s, ", \"times_pcie_bound\": ");
    bench_json_number (s, o->fps / r->pcie->both_fps, timed
        && r->pcie->available);
    g_string_append (s, ", \"active_backend\": ");
    bench_json_string (s, o->active_backend);
    g_string_append_printf (s, ", \"links_on_device\": %s, \"links\": ",
        o->on_device ? "true" : "false");
    bench_json_string (s, o->where);
    g_string_append (s, ", \"host_maps\": ");
    bench_json_number (s, o->host_maps, o->host_maps >= 0);
    g_string_append (s, ", \"downloads\": ");
    bench_json_number (s, o->downloads, o->downloads >= 0);
    g_string_append (s, ", \"uploads\": ");
    bench_json_number (s, o->uploads, o->uploads >= 0);
    g_string_append (s, ", \"census\": ");
    json_activity (s, r);
    g_string_append (s, ", \"device_resident\": ");
    bench_json_string (s, device_verdict (r));
    g_string_append (s, ", \"note\": ");
    bench_json_string (s, o->note);
    g_string_append (s, "}");
  }
  return json_finish (s, path);
}

#endif /* CF_HAVE_GST_CUDA */

/* ---- main ---- */

/* --kernel-us "ELEMENT:FORMAT:WxH=US,...": ELEMENT cudamedian, cudagauss,
 * cudahist, cudahist-meta (post-messages=false), cudahist-regions-16 and -64
 * (regions=meta, 16 and 64 faces a frame), cudagauss-sigma-8,
 * cudagauss-regions-16 (and -writable: frames the pipeline alone holds),
 * cudaredact-regions-16 (pixelate), cudaredact-fill-16 and
 * cudaredact-blur-16 (16 faces a writable frame) or chain. */
static gboolean
parse_kernel_us (Options * opts)
{
  gchar **items;
  gboolean ok = TRUE;

  opts->given_kernel_us = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  if (!opts->kernel_us)
    return TRUE;
  items = g_strsplit (opts->kernel_us, ",", -1);
  for (gchar ** item = items; ok && *item; item++) {
    gchar **parts = g_strsplit (g_strstrip (*item), "=", 2);
    gchar *end = NULL;
    gdouble us = parts[0] && parts[1] ? g_ascii_strtod (parts[1], &end) : 0;
    gchar **key = parts[0] ? g_strsplit (parts[0], ":", -1) : NULL;

    if (!key || g_strv_length (key) != 3 || !end || *end || us <= 0) {
      g_printerr ("--kernel-us: \"%s\" is not ELEMENT:FORMAT:WxH=MICROSECONDS "
          "(e.g. cudamedian:NV12:1920x1080=9.5)\n", *item);
      ok = FALSE;
    } else {
      gdouble *value = g_new (gdouble, 1);
      *value = us;
      g_hash_table_insert (opts->given_kernel_us, g_strdup (parts[0]), value);
    }
    g_strfreev (key);
    g_strfreev (parts);
  }
  g_strfreev (items);
  return ok;
}

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
    {"memory", 0, 0, G_OPTION_ARG_STRING, &opts->memory,
          "Where the frames live: system (default: host memory, in the "
          "element's pinned pool or pageable, against the PCIe bound) or cuda "
          "(device-resident: video/x-raw(memory:CUDAMemory) frames prepared "
          "once in a GstCudaBufferPool of a GstCudaContext for device 0 that "
          "the pipeline shares; NV12 1920x1080, RGBA and P010_10LE 3840x2160; "
          "identity, each element and cudamedian ! cudagauss ! cudahist at 1, "
          "2 and 3 frames in flight; needs a CUDA device and a build with "
          "gstreamer-cuda-1.0)",
        "MEMORY"},
    {"kernel-us", 0, 0, G_OPTION_ARG_STRING, &opts->kernel_us,
          "--memory cuda: kernel-only microseconds per frame of a case, "
          "comma-separated ELEMENT:FORMAT:WxH=US with ELEMENT cudamedian, "
          "cudagauss, cudahist, cudahist-meta (post-messages=false) or chain (all "
          "three), e.g. "
          "cudamedian:NV12:1920x1080=9.5 (the same for every depth). Given "
          "values are used instead of the traced ones",
        "LIST"},
    {"census-frames", 0, 0, G_OPTION_ARG_INT, &opts->census_frames,
          "--memory cuda: frames of each case's traced run (CUPTI: kernel "
          "time per frame and every host<->device copy), made after all "
          "timed runs; 0 skips them (default 300, with --quick 30)",
        "N"},
    {"pipelines", 0, 0, G_OPTION_ARG_STRING, &opts->pipelines,
          "Instead of the tables: N pipelines at once in this process, for "
          "each N of the comma-separated LIST (e.g. 1,16,64): appsrc ! "
          "cudamedian (depth 3) ! fakesink on 1920x1080 NV12 from the "
          "element's pool, each with its own frames, each in a CUDA context "
          "of its own and all in one shared; the aggregate fps against the "
          "PCIe bound, the slowest and fastest pipeline, the device memory "
          "and threads the pipelines added while they ran, and the "
          "elements' own device-memory + pinned-memory",
        "LIST"},
    {"shapes", 0, 0, G_OPTION_ARG_STRING, &opts->shapes,
          "Only these of the frame shapes the run has, comma-separated "
          "FORMAT:WIDTHxHEIGHT (e.g. NV12:1920x1080)", "LIST"},
    {"cases", 0, 0, G_OPTION_ARG_STRING, &opts->cases,
          "--memory cuda: only the cases whose name matches this regular "
          "expression (e.g. '^cudahist'), so that a long run with many "
          "--frames measures only those", "REGEX"},
    {"processes", 0, 0, G_OPTION_ARG_INT, &opts->processes,
          "--pipelines: split each count over P processes started together "
          "(default 1: all in this one)", "P"},
    {"start-at", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT64,
          &opts->start_at, "--processes: a child's start time", "US"},
    G_OPTION_ENTRY_NULL
  };
  opts->census_frames = -1;
  if (!bench_parse_options (entries, "- stream-level frames per second of "
          "cudamedian, cudagauss and cudahist against the PCIe bound, or with "
          "--memory cuda on frames that stay on the device", argc, argv))
    return FALSE;
  if (!opts->backend)
    opts->backend = g_strdup ("cuda");
  if (!opts->memory)
    opts->memory = g_strdup ("system");
  if (g_str_equal (opts->memory, "cuda")) {
    opts->cuda_memory = TRUE;
  } else if (!g_str_equal (opts->memory, "system")) {
    g_printerr ("--memory must be system or cuda\n");
    return FALSE;
  }
  if (opts->frames == 0)
    opts->frames = opts->quick ? 30 : 1000;
  if (opts->frames < 1) {
    g_printerr ("--frames must be positive\n");
    return FALSE;
  }
  if (opts->census_frames < 0)
    opts->census_frames = opts->quick ? 30 : 300;
  if (!parse_kernel_us (opts))
    return FALSE;
  if (opts->kernel_us && !opts->cuda_memory)
    g_printerr ("--kernel-us is for --memory cuda; ignored\n");
  if (opts->cases) {
    GError *error = NULL;
    if (!opts->cuda_memory)
      g_printerr ("--cases is for --memory cuda; ignored\n");
    opts->case_pattern = g_regex_new (opts->cases, 0, 0, &error);
    if (!opts->case_pattern) {
      g_printerr ("--cases: %s\n", error->message);
      g_error_free (error);
      return FALSE;
    }
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
  r->pcie = bound;
  r->kernel_us = r->kernel_us_traced = -1;
  if (bound->available && bound_kind)
    r->bound_fps = g_str_equal (bound_kind, "up") ? bound->up_fps :
        bound->both_fps;
  return r;
}

static void
free_row (gpointer data)
{
  Row *r = data;
  free_outcome (&r->out);
  free_outcome (&r->census);
  g_free (r);
}

/* The PCIe bound of each shape, measured before any pipeline runs, and
 * printed. *device: the name of device 0, or NULL with *no_bound saying why. */
static void
measure_bounds (const Shape * shapes, guint n_shapes, const Options * opts,
    PcieBound * bounds, gchar ** device, gchar ** no_bound)
{
  memset (bounds, 0, n_shapes * sizeof *bounds);
  *device = cuda_device_name (no_bound);
  for (guint i = 0; i < n_shapes; i++) {
    GstVideoInfo info;
    gst_video_info_set_format (&info,
        gst_video_format_from_string (shapes[i].format), shapes[i].width,
        shapes[i].height);
    bounds[i].bytes = GST_VIDEO_INFO_SIZE (&info);
    if (*device)
      measure_pcie (GST_VIDEO_INFO_SIZE (&info), opts->pcie_reps, &bounds[i],
          no_bound);
  }
  g_print ("device: %s\n", *device ? *device : "none");
  g_print ("PCIe bound, pinned host memory, %d repetitions:\n",
      opts->pcie_reps);
  for (guint i = 0; i < n_shapes; i++) {
    const PcieBound *b = &bounds[i];
    if (b->available)
      g_print ("  %-5s %dx%d %8.2f MB: up %7.1f us + down %7.1f us at once "
          "= %7.1f fps (%.1f / %.1f GB/s); up alone %7.1f us = %7.1f fps "
          "(%.1f GB/s)\n", shapes[i].format, shapes[i].width,
          shapes[i].height, b->bytes / 1e6, b->up_us, b->down_us, b->both_fps,
          b->bytes / b->up_us / 1e3, b->bytes / b->down_us / 1e3,
          b->up_alone_us, b->up_fps, b->bytes / b->up_alone_us / 1e3);
  }
  if (*no_bound)
    g_print ("  PCIe bound not available: %s\n", *no_bound);
}

/* --memory cuda: every case timed first, then (CUPTI there) traced, so that
 * no timed run pays for tracing. */
static int
device_main (Options * opts)
{
#ifdef CF_HAVE_GST_CUDA
  /* The controls, on the first shape at 1 frame in flight, are made to move
   * frames off the device: the element's output forced into system memory,
   * and every frame at the sink mapped on the host. The checks must say NO
   * for them, or their yes elsewhere means nothing. */
  static const struct
  {
    const gchar *label;
    const gchar *key;           /* --kernel-us's name */
    const gchar *middle;
    const gchar *takes;         /* factory whose formats the case needs */
    gboolean control;
    guint flags;
  } cases[] = {
    {"identity", NULL, "identity name=f", NULL, FALSE, 0},
    {"cudamedian", "cudamedian", "cudamedian name=f", "cudamedian", FALSE, 0},
    {"cudagauss", "cudagauss", "cudagauss name=f", "cudagauss", FALSE, 0},
    {"cudahist", "cudahist", "cudahist name=f", "cudahist", FALSE, 0},
    {"cudahist post-messages=false", "cudahist-meta", "cudahist name=f "
          "post-messages=false", "cudahist", FALSE, 0},
    {"identity, 16 faces", NULL, "identity name=f", NULL, FALSE,
        RUN_REGIONS (16)},
    {"identity, 64 faces", NULL, "identity name=f", NULL, FALSE,
        RUN_REGIONS (64)},
    {"cudahist regions, 16 faces", "cudahist-regions-16", "cudahist name=f "
          "post-messages=false regions=meta", "cudahist", FALSE,
        RUN_REGIONS (16)},
    {"cudahist regions, 64 faces", "cudahist-regions-64", "cudahist name=f "
          "post-messages=false regions=meta", "cudahist", FALSE,
        RUN_REGIONS (64)},
    {"cudagauss sigma=8", "cudagauss-sigma-8", "cudagauss name=f sigma=8",
        "cudagauss", FALSE, 0},
    {"cudagauss sigma=8 regions, 16 faces", "cudagauss-regions-16",
          "cudagauss name=f sigma=8 regions=meta", "cudagauss", FALSE,
        RUN_REGIONS (16)},
    /* Frames the pipeline alone holds, as a decoder gives them: the in-place
     * editor's case, and the blur of the same boxes beside it. */
    {"cudagauss sigma=8 regions, 16 faces, writable",
          "cudagauss-regions-16-writable",
          "cudagauss name=f sigma=8 regions=meta", "cudagauss", FALSE,
        RUN_REGIONS (16) | RUN_WRITABLE},
    {"cudaredact pixelate, 16 faces, writable", "cudaredact-regions-16",
          "cudaredact name=f post-messages=false", "cudaredact", FALSE,
        RUN_REGIONS (16) | RUN_WRITABLE},
    {"cudaredact fill, 16 faces, writable", "cudaredact-fill-16",
          "cudaredact name=f post-messages=false method=fill", "cudaredact",
          FALSE, RUN_REGIONS (16) | RUN_WRITABLE},
    /* At 1080p the faces' shorter side is 84 pixels: this strength makes the
     * blur's sigma 8, cudagauss's above. */
    {"cudaredact blur sigma=8, 16 faces, writable", "cudaredact-blur-16",
          "cudaredact name=f post-messages=false method=blur strength=0.0952",
          "cudaredact", FALSE, RUN_REGIONS (16) | RUN_WRITABLE},
    {"cudamedian ! cudagauss ! cudahist", "chain",
          "cudamedian name=f ! cudagauss name=f1 ! cudahist name=f2",
        "cudamedian", FALSE, 0},
    {"control: cudamedian ! video/x-raw", NULL,
        "cudamedian name=f ! video/x-raw", "cudamedian", TRUE, 0},
    {"control: cudamedian, host map at sink", NULL, "cudamedian name=f",
        "cudamedian", TRUE, RUN_MAP_AT_SINK},
  };
  Shape shapes[MAX_SHAPES];
  guint n_shapes;
  PcieBound bounds[MAX_SHAPES];
  gchar *device = NULL, *no_bound = NULL, *why = NULL, *census_note = NULL;
  gchar *context_device = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func (free_row);
  GstCudaContext *context;
  gboolean all_ok = TRUE, all_resident = TRUE, controls_caught = TRUE;
  int status = 1;

  if (!select_shapes (opts->shapes, device_shapes,
          G_N_ELEMENTS (device_shapes), shapes, &n_shapes))
    return 1;
  context = bench_cuda_context_new (0, &context_device, &why);
  if (!context) {
    g_printerr ("stream-bench --memory cuda needs a usable CUDA device: %s\n",
        why);
    g_free (why);
    goto done;
  }
  opts->context = context;
  if (!bench_cuda_count_maps ())
    g_printerr ("GstCudaMemory maps cannot be counted here (no allocator "
        "\"%s\")\n", GST_CUDA_MEMORY_TYPE_NAME);

  measure_bounds (shapes, n_shapes, opts, bounds, &device, &no_bound);
  if (!device)
    device = g_strdup (context_device);

  g_print ("\nFrames in CUDA memory (a GstCudaBufferPool of our context, "
      "given to the pipeline); %d frames per case, backend %s\n",
      opts->frames, opts->backend);
  g_print ("fps from the first push to EOS at the sink; x PCIe: fps over the "
      "pinned up+down bound (above 1: no frame can have made the round trip); "
      "maps: GstCudaMemory host maps/downloads/uploads during the run\n");
  g_print ("%-34s %-9s %-9s %-5s %9s %9s %8s %-10s %s\n", "element", "format",
      "size", "depth", "fps", "us/frame", "x PCIe", "maps", "on device");

  for (guint s = 0; s < n_shapes; s++) {
    for (guint c = 0; c < G_N_ELEMENTS (cases); c++) {
      const gint depths = cases[c].key ? 3 : 1;
      if (cases[c].control && s > 0)
        continue;
      if (opts->case_pattern && !g_regex_match (opts->case_pattern,
              cases[c].label, 0, NULL))
        continue;
      if (cases[c].takes && !takes_format (cases[c].takes, shapes[s].format)) {
        g_print ("%-34s %-9s: format not taken, skipped\n", cases[c].label,
            shapes[s].format);
        continue;
      }
      for (gint d = 1; d <= depths; d++) {
        const gint depth = cases[c].key || cases[c].control ? d : 0;
        Row *r = add_row (cases[c].label, &shapes[s], depth, "cuda", NULL,
            &bounds[s]);
        r->middle = cases[c].middle;
        r->kernel_key = cases[c].key;
        r->control = cases[c].control;
        r->flags = cases[c].flags;
        r->out = run_case (r->middle, r->shape, depth, INPUT_CUDA, FALSE,
            opts->frames, r->flags, opts);
        all_ok = all_ok && r->out.ok;
        print_device_row (r);
        g_ptr_array_add (rows, r);
      }
    }
  }

  /* The census: one traced run per case. */
  if (opts->census_frames <= 0)
    census_note = g_strdup ("skipped (--census-frames 0)");
  else if (!bench_gpu_activity_built ())
    bench_gpu_activity_start (&census_note);    /* says why not */
  if (!census_note) {
    g_print ("\nTraced runs (CUPTI), %d frames per case\n",
        opts->census_frames);
    for (guint i = 0; i < rows->len; i++) {
      Row *r = g_ptr_array_index (rows, i);
      if (!r->out.ok)
        continue;
      r->census = run_case (r->middle, r->shape, r->depth, INPUT_CUDA, FALSE,
          opts->census_frames, r->flags | RUN_CENSUS, opts);
      r->have_census = TRUE;
      if (r->census.traced && r->census.arrived > 0 && r->kernel_key)
        r->kernel_us_traced = r->census.activity.kernel_busy_us /
            r->census.arrived;
      if (!r->census.traced && !census_note)
        census_note = g_strdup (r->census.census_note ? r->census.census_note
            : "tracing failed");
    }
  }

  /* Kernel time per frame: given, else the time the kernels ran in the
   * traced run of the same case at 1 frame in flight (where a frame's kernels
   * share the device with no other frame's: deeper runs overlap frames, and
   * their kernels' times add up to more than the wall time). */
  for (guint i = 0; i < rows->len; i++) {
    Row *r = g_ptr_array_index (rows, i);
    gchar *key;
    const gdouble *given;
    if (!r->kernel_key)
      continue;
    key = g_strdup_printf ("%s:%s:%dx%d", r->kernel_key, r->shape->format,
        r->shape->width, r->shape->height);
    given = g_hash_table_lookup (opts->given_kernel_us, key);
    g_free (key);
    if (given) {
      r->kernel_us = *given;
      r->kernel_source = "given";
    } else {
      for (guint k = 0; k < rows->len; k++) {
        const Row *alone = g_ptr_array_index (rows, k);
        if (alone->kernel_key == r->kernel_key && alone->shape == r->shape
            && alone->depth == 1 && alone->kernel_us_traced > 0) {
          r->kernel_us = alone->kernel_us_traced;
          r->kernel_source = "traced";
        }
      }
    }
  }

  g_print ("\nPer frame: wall time; kernel time (given, or traced: the time "
      "the kernels ran in the traced run at 1 frame in flight, so with no "
      "other frame's kernels beside them); host overhead = wall - kernel; "
      "%% of "
      "the kernel bound = kernel / wall (deeper runs overlap frames' kernels "
      "and may pass 100%%); busy: the time kernels ran per frame in this "
      "row's own traced run; copies in the traced run: host->device/"
      "device->host/on the device, and the bytes that crossed the bus per "
      "frame\n");
  if (census_note)
    g_print ("No traced runs: %s\n", census_note);
  g_print ("%-34s %-9s %-9s %-5s %9s %14s %9s %7s %9s %-24s %s\n", "element",
      "format", "size", "depth", "us/frame", "kernel us", "overhead",
      "kernel%", "busy us", "copies up/down/dd", "on device");
  for (guint i = 0; i < rows->len; i++) {
    Row *r = g_ptr_array_index (rows, i);
    print_device_summary_row (r);
    if (r->kernel_key && !g_str_equal (device_verdict (r), "yes"))
      all_resident = FALSE;
    if (r->control && !g_str_equal (device_verdict (r), "NO"))
      controls_caught = FALSE;
  }
  g_print ("\non device: yes where every buffer on every link was CUDA memory "
      "of our context, no GstCudaMemory map went to the host or came back, "
      "and (traced runs) less than 1%% of a frame per frame crossed the bus. "
      "The controls copy on purpose and must say NO: %s\n", controls_caught ?
      "they do" : "one DOES NOT, so the checks cannot be trusted");

  if (opts->json && !write_device_json (opts->json, device, no_bound, opts,
          shapes, n_shapes, bounds, rows, census_note))
    goto done;
  if (opts->json)
    g_print ("\nWrote %s\n", opts->json);
  status = all_ok && all_resident && controls_caught ? 0 : 2;
  if (!all_ok)
    g_printerr ("Some cases failed (see their notes)\n");
  if (all_ok && !all_resident)
    g_printerr ("Some cases did not keep their frames on the device\n");
  if (!controls_caught)
    g_printerr ("A control that copies was not caught by the checks\n");

done:
  g_ptr_array_unref (rows);
  gst_clear_object (&context);
  opts->context = NULL;
  g_free (device);
  g_free (context_device);
  g_free (no_bound);
  g_free (census_note);
  return status;
#else
  (void) opts;
  g_printerr ("stream-bench --memory cuda: this build has no "
      "gstreamer-cuda-1.0 "
      "(set up the build with -Dcuda-memory=enabled where "
      "libgstreamer-plugins-bad1.0-dev is installed)\n");
  return 1;
#endif
}

/* ---- many pipelines at once ---- */

typedef struct
{
  const Options *opts;
  const Shape *shape;
  gint frames;
  guint flags;                  /* RUN_* */
  gint *finished;               /* shared: cases that have returned */
  Outcome out;
} ConcurrentCase;

static gpointer
run_concurrent_case (gpointer data)
{
  ConcurrentCase *c = data;
  c->out = run_case ("cudamedian name=f", c->shape, 3, INPUT_POOL, FALSE,
      c->frames, c->flags, c->opts);
  g_atomic_int_inc (c->finished);
  return NULL;
}

/* User and system CPU seconds of this process or of its reaped children. */
static gdouble
cpu_seconds (int who)
{
  struct rusage usage;
  if (getrusage (who, &usage) != 0)
    return 0;
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
      (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static guint
process_threads (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  guint threads = 0;
  if (!dir)
    return 0;
  while (g_dir_read_name (dir))
    threads++;
  g_dir_close (dir);
  return threads;
}

/* What N pipelines at once gave. */
typedef struct
{
  gint frames, failed;
  gint64 first_push_us, last_eos_us;    /* over all pipelines */
  gdouble slowest_fps, fastest_fps;
  guint64 device_bytes, pinned_bytes;   /* the elements' own, summed */
  gchar *note;                  /* the first failure's */
} ConcurrentResult;

/* Nothing yet: merge_result() adds to it. */
#define CONCURRENT_RESULT_INIT \
  {.first_push_us = G_MAXINT64,.slowest_fps = G_MAXDOUBLE }

/* Adds `part` (pipelines of one process, or one pipeline) into `into`. */
static void
merge_result (ConcurrentResult * into, const ConcurrentResult * part)
{
  into->frames += part->frames;
  into->failed += part->failed;
  into->first_push_us = MIN (into->first_push_us, part->first_push_us);
  into->last_eos_us = MAX (into->last_eos_us, part->last_eos_us);
  into->slowest_fps = MIN (into->slowest_fps, part->slowest_fps);
  into->fastest_fps = MAX (into->fastest_fps, part->fastest_fps);
  into->device_bytes += part->device_bytes;
  into->pinned_bytes += part->pinned_bytes;
}

/* N pipelines of this process started together (RUN_* flags), each with its
 * own frames; the device's lowest free memory and the process's most threads
 * while they all run (sampled every 2 ms until the first ends). */
static ConcurrentResult
run_concurrently (Options * opts, const Shape * shape, gint n, guint flags,
    size_t *lowest_free, guint * most_threads)
{
  ConcurrentResult r = CONCURRENT_RESULT_INIT;
  ConcurrentCase *cases = g_new0 (ConcurrentCase, n);
  GThread **threads = g_new0 (GThread *, n);
  gint finished = 0;

  for (gint p = 0; p < n; p++) {
    cases[p].opts = opts;
    cases[p].shape = shape;
    cases[p].frames = opts->frames;
    cases[p].finished = &finished;
    cases[p].flags = flags;
    threads[p] = g_thread_new ("pipeline", run_concurrent_case, &cases[p]);
  }
  while (g_atomic_int_get (&finished) == 0) {
    size_t free_now = 0, total = 0;
    if (cudaMemGetInfo (&free_now, &total) == cudaSuccess)
      *lowest_free = MIN (*lowest_free, free_now);
    *most_threads = MAX (*most_threads, process_threads ());
    g_usleep (2000);
  }
  for (gint p = 0; p < n; p++) {
    const Outcome *out = &cases[p].out;
    ConcurrentResult one = CONCURRENT_RESULT_INIT;
    g_thread_join (threads[p]);
    one.frames = out->arrived;
    one.device_bytes = out->device_bytes;
    one.pinned_bytes = out->pinned_bytes;
    if (out->ok) {
      one.first_push_us = out->first_push_us;
      one.last_eos_us = out->eos_us;
      one.slowest_fps = one.fastest_fps = out->fps;
    } else {
      one.failed = 1;
      if (!r.note && out->note)
        r.note = g_strdup (out->note);
    }
    merge_result (&r, &one);
    free_outcome (&cases[p].out);
  }
  g_free (cases);
  g_free (threads);
  return r;
}

/* A child's result line, and reading it back. */
#define CHILD_RESULT "child-result"

static void
print_child_result (const ConcurrentResult * r)
{
  g_print (CHILD_RESULT " %d %d %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
      " %.1f %.1f %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", r->frames,
      r->failed, r->first_push_us, r->last_eos_us, r->slowest_fps,
      r->fastest_fps, r->device_bytes, r->pinned_bytes);
}

/* Adds a child's printed result into r; FALSE when its output has none. */
static gboolean
add_child_result (const gchar * output, ConcurrentResult * r)
{
  const gchar *line = output ? strstr (output, CHILD_RESULT " ") : NULL;
  ConcurrentResult c = { 0 };
  if (!line || sscanf (line + strlen (CHILD_RESULT), "%d %d %" G_GINT64_FORMAT
          " %" G_GINT64_FORMAT " %lf %lf %" G_GUINT64_FORMAT " %"
          G_GUINT64_FORMAT, &c.frames, &c.failed, &c.first_push_us,
          &c.last_eos_us, &c.slowest_fps, &c.fastest_fps, &c.device_bytes,
          &c.pinned_bytes) != 8)
    return FALSE;
  merge_result (r, &c);
  return TRUE;
}

/* N pipelines split over opts->processes copies of this program, started
 * together: each child waits until a start time a few seconds ahead. */
static ConcurrentResult
run_in_processes (Options * opts, gint n)
{
  ConcurrentResult r = CONCURRENT_RESULT_INIT;
  const gint processes = MIN (opts->processes, n);
  const gint64 start_at = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
  GPid *pids = g_new0 (GPid, processes);
  gint *outs = g_new0 (gint, processes);
  gchar *self = g_file_read_link ("/proc/self/exe", NULL);

  for (gint c = 0; c < processes; c++) {
    gchar *count = g_strdup_printf ("%d", n / processes + (c < n % processes));
    gchar *frames = g_strdup_printf ("%d", opts->frames);
    gchar *start = g_strdup_printf ("%" G_GINT64_FORMAT, start_at);
    gchar *argv[] = { self, (gchar *) "--pipelines", count, (gchar *) "--frames",
      frames, (gchar *) "--backend", opts->backend, (gchar *) "--start-at", start,
      NULL
    };
    GError *err = NULL;
    if (!g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
            NULL, NULL, &pids[c], NULL, &outs[c], NULL, &err)) {
      r.failed += n / processes;
      if (!r.note)
        r.note = g_strdup (err->message);
      g_clear_error (&err);
      outs[c] = -1;
    }
    g_free (count);
    g_free (frames);
    g_free (start);
  }
  for (gint c = 0; c < processes; c++) {
    GString *output = g_string_new (NULL);
    gchar chunk[4096];
    gssize got;
    if (outs[c] < 0) {
      g_string_free (output, TRUE);
      continue;
    }
    while ((got = read (outs[c], chunk, sizeof chunk)) > 0)
      g_string_append_len (output, chunk, got);
    close (outs[c]);
    waitpid (pids[c], NULL, 0);
    g_spawn_close_pid (pids[c]);
    if (!add_child_result (output->str, &r)) {
      r.failed++;
      if (!r.note)
        r.note = g_strdup ("a process gave no result");
    }
    g_string_free (output, TRUE);
  }
  g_free (self);
  g_free (pids);
  g_free (outs);
  return r;
}

/* --pipelines: each count of pipelines in turn, all of them started together,
 * each pipeline in a CUDA context of its own (as separate applications would
 * be) and all in one context (as one application can share it), in this
 * process or split over --processes; the fps counts every frame from the first
 * push of any pipeline to the last EOS. A child of --processes (--start-at)
 * runs its pipelines in their own contexts and prints one result line. */
static int
many_pipelines_main (Options * opts)
{
  static const Shape shape = { "NV12", 1920, 1080 };
  PcieBound bound = { 0 };
  gchar *device = NULL, *no_bound = NULL;
  gchar **counts = g_strsplit (opts->pipelines, ",", -1);
  gboolean all_ok = TRUE;
  const gboolean child = opts->start_at > 0;
  guint n_modes = 1;
#ifdef CF_HAVE_GST_CUDA
  GstCudaContext *shared = NULL;
#endif

  if (child) {
    const gint64 wait_us = opts->start_at - g_get_monotonic_time ();
    if (wait_us > 0)
      g_usleep (wait_us);
    ConcurrentResult r;
    size_t lowest_free = 0;
    guint most_threads = 0;
    r = run_concurrently (opts, &shape, MAX (atoi (opts->pipelines), 1), 0,
        &lowest_free, &most_threads);
    print_child_result (&r);
    g_free (r.note);
    g_strfreev (counts);
    return r.failed ? 2 : 0;
  }

  measure_bounds (&shape, 1, opts, &bound, &device, &no_bound);
#ifdef CF_HAVE_GST_CUDA
  if (opts->processes <= 1) {
    gchar *why = NULL;
    shared = bench_cuda_context_new (0, NULL, &why);
    if (!shared) {
      g_printerr ("no context to share: %s\n", why);
      g_free (why);
    }
    opts->context = shared;
    n_modes = shared ? 2 : 1;
  }
#endif
  g_print ("\n%-9s %-10s %9s %9s %12s %-16s %15s %15s %13s %8s %9s  %s\n",
      "pipelines", "contexts", "frames", "seconds", "fps (all)",
      "of PCIe bound", "fps/pl. min-max", "dev MiB/pl.", "elem. MiB/pl.",
      "threads", "CPU cores", "notes");
  for (guint i = 0; counts[i]; i++)
  for (guint mode = 0; mode < n_modes; mode++) {
    const gint n = atoi (counts[i]);
    if (n < 1) {
      g_printerr ("--pipelines: %s is not a count\n", counts[i]);
      all_ok = FALSE;
      continue;
    }
    size_t free_before = 0, total = 0, lowest_free;
    const guint threads_before = process_threads ();
    guint most_threads = threads_before;
    ConcurrentResult r;
    gchar *contexts;

    cudaMemGetInfo (&free_before, &total);
    lowest_free = free_before;
    /* The CPU time of the whole case (setup included) over its wall time:
     * the processes' if split, this one's if not. */
    const int who = opts->processes > 1 ? RUSAGE_CHILDREN : RUSAGE_SELF;
    const gdouble cpu_before = cpu_seconds (who);
    const gint64 wall_before = g_get_monotonic_time ();
    if (opts->processes > 1) {
      r = run_in_processes (opts, n);
      contexts = g_strdup_printf ("own, %d pr.", MIN (opts->processes, n));
    } else {
      r = run_concurrently (opts, &shape, n, mode ? RUN_SHARE_CONTEXT : 0,
          &lowest_free, &most_threads);
      contexts = g_strdup (mode ? "shared" : "own");
    }
    const gdouble cores = (cpu_seconds (who) - cpu_before) /
        ((g_get_monotonic_time () - wall_before) / 1e6);
    const gdouble seconds = r.last_eos_us > r.first_push_us ?
        (r.last_eos_us - r.first_push_us) / 1e6 : 0;
    const gdouble fps = seconds > 0 ? r.frames / seconds : 0;
    gchar *of_bound = bound.both_fps > 0 ?
        g_strdup_printf ("%.0f%% of %.0f", 100 * fps / bound.both_fps,
        bound.both_fps) : g_strdup ("-");
    gchar *spread = r.fastest_fps > 0 ? g_strdup_printf ("%.0f-%.0f",
        r.slowest_fps, r.fastest_fps) : g_strdup ("-");
    /* Other processes' memory and threads are not this process's to see. */
    gchar *device_mib = opts->processes > 1 ? g_strdup ("-") :
        g_strdup_printf ("%.1f", (free_before - lowest_free) /
        (1024.0 * 1024.0) / n);
    gchar *element_mib = g_strdup_printf ("%.1f+%.1f",
        r.device_bytes / (1024.0 * 1024.0) / n,
        r.pinned_bytes / (1024.0 * 1024.0) / n);
    g_print ("%-9d %-10s %9d %9.2f %12.1f %-16s %15s %15s %13s %8u %9.1f  %s%s\n",
        n, contexts, r.frames, seconds, fps, of_bound, spread, device_mib,
        element_mib, most_threads - threads_before, cores,
        r.failed ? "FAILED: " : "",
        r.failed ? (r.note ? r.note : "a pipeline failed") : "");
    all_ok = all_ok && r.failed == 0;
    g_free (contexts);
    g_free (device_mib);
    g_free (element_mib);
    g_free (spread);
    g_free (of_bound);
    g_free (r.note);
  }
  g_strfreev (counts);
#ifdef CF_HAVE_GST_CUDA
  gst_clear_object (&shared);
  opts->context = NULL;
#endif
  g_free (device);
  g_free (no_bound);
  return all_ok ? 0 : 2;
}

int
main (int argc, char *argv[])
{
  static const gchar *filters[] = { "cudamedian", "cudagauss", "cudahist" };
  Options opts = { 0 };
  Shape shapes[MAX_SHAPES];
  guint n_shapes;
  PcieBound bounds[MAX_SHAPES];
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

  if (opts.cuda_memory) {
    status = device_main (&opts);
    goto done;
  }
  if (opts.pipelines) {
    status = many_pipelines_main (&opts);
    goto done;
  }
  if (!select_shapes (opts.shapes, host_shapes, G_N_ELEMENTS (host_shapes),
          shapes, &n_shapes))
    goto done;

  measure_bounds (shapes, n_shapes, &opts, bounds, &device, &no_bound);

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

  for (guint s = 0; s < n_shapes; s++) {
    const Shape *shape = &shapes[s];
    const PcieBound *bound = &bounds[s];
    Row *r;

    /* identity: the pipeline's own ceiling. */
    r = add_row ("identity", shape, 0, "pool", NULL, bound);
    r->out = run_case ("identity name=f", shape, 0, INPUT_POOL, FALSE,
        opts.frames, 0, &opts);
    {
      Outcome lat = run_case ("identity name=f", shape, 0, INPUT_POOL, TRUE,
          opts.latency_frames, 0, &opts);
      r->out.latency_us = lat.latency_us;
      free_outcome (&lat);
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
        r->out = run_case (middle, shape, depth, INPUT_POOL, FALSE,
            opts.frames, 0, &opts);
        if (depth == 1) {
          Outcome lat = run_case (middle, shape, 1, INPUT_POOL, TRUE,
              opts.latency_frames, 0, &opts);
          r->out.latency_us = lat.latency_us;
          if (!lat.ok && lat.note && !r->out.note)
            r->out.note = g_strdup_printf ("latency: %s", lat.note);
          free_outcome (&lat);
        }
        all_ok = all_ok && r->out.ok;
        print_row (r);
        g_ptr_array_add (rows, r);
      }
      /* Foreign system memory, the element's pool ignored: buffers that
       * come back (a camera's), and new memory every frame, at most
       * FRESH_BYTES of it prepared. */
      r = add_row (name, shape, 3, "recycled", bound_kind, bound);
      r->out = run_case (middle, shape, 3, INPUT_RECYCLED, FALSE,
          opts.frames, 0, &opts);
      all_ok = all_ok && r->out.ok;
      print_row (r);
      g_ptr_array_add (rows, r);
      r = add_row (name, shape, 3, "fresh", bound_kind, bound);
      r->out = run_case (middle, shape, 3, INPUT_FRESH, FALSE,
          (gint) MIN ((guint64) opts.frames, MAX (FRESH_BYTES /
                  bound->bytes, 10)), 0, &opts);
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
          "cudadownload ! video/x-raw", shape, 0, INPUT_POOL, FALSE,
          opts.frames, 0, &opts);
      {
        Outcome lat = run_case ("cudaupload ! video/x-raw(memory:CUDAMemory) "
            "! cudadownload ! video/x-raw", shape, 0, INPUT_POOL, TRUE,
            opts.latency_frames, 0, &opts);
        r->out.latency_us = lat.latency_us;
        free_outcome (&lat);
      }
    } else {
      r->out.note = g_strdup ("skipped: no cudaupload/cudadownload "
          "(gst-plugins-bad nvcodec) here");
    }
    print_row (r);
    g_ptr_array_add (rows, r);
  }

  if (opts.json && !write_json (opts.json, device, no_bound, &opts, shapes,
          n_shapes, bounds, rows))
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
  g_free (opts.memory);
  g_free (opts.kernel_us);
  g_free (opts.pipelines);
  g_free (opts.shapes);
  g_free (opts.cases);
  if (opts.case_pattern)
    g_regex_unref (opts.case_pattern);
  if (opts.given_kernel_us)
    g_hash_table_unref (opts.given_kernel_us);
  return status;
}
