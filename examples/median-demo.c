// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* median-demo: salt-and-pepper noise through cudamedian.
 *
 * Makes an SMPTE test pattern, turns a share of its pixels into salt (maximum)
 * or pepper (0), pushes that frame --frames times through
 * appsrc ! cudamedian ! appsink, prints the frame rate and the backend that
 * ran, and writes one PNG picture: noisy input on the left, filtered output on
 * the right.
 *
 *   GST_PLUGIN_PATH=build/plugin build/examples/median-demo --backend cpu
 */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <string.h>

/* The same noise on every run, so runs compare. */
#define NOISE_SEED 42
#define SEPARATOR_WIDTH 8
#define SEPARATOR_GREY 0x80

typedef struct
{
  gint width;
  gint height;
  gchar *format;
  gint size;
  gint frames;
  gchar *backend;
  gint frames_in_flight;
  gint device_id;
  gdouble noise;
  gchar *output;
} Options;

/* What the appsrc callback needs to push the noisy frame again and again. */
typedef struct
{
  GstCaps *caps;
  GstVideoInfo info;
  GstVideoFrame noisy;
  gint frames;
  gint pushed;
  GstClockTime duration;
  GstBufferPool *pool;
  gboolean pool_from_element;
  gint64 start_us;
} Feeder;

/* ---- pipelines ---- */

static void
print_problem (GstMessage * msg)
{
  GError *err = NULL;
  gchar *debug = NULL;
  const gboolean is_error = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR;

  if (is_error)
    gst_message_parse_error (msg, &err, &debug);
  else
    gst_message_parse_warning (msg, &err, &debug);
  g_printerr ("%s from %s: %s\n", is_error ? "ERROR" : "WARNING",
      GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
  if (debug)
    g_printerr ("Additional debug info:\n%s\n", debug);
  g_clear_error (&err);
  g_free (debug);
}

static GstElement *
parse_pipeline (const gchar * description)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (description, &err);

  /* A pipeline can come back with an error set when parts of it are missing. */
  if (err) {
    g_printerr ("Could not build \"%s\": %s\n", description, err->message);
    g_clear_error (&err);
    gst_clear_object (&pipeline);
  }
  return pipeline;
}

static gboolean
start_pipeline (GstElement * pipeline)
{
  GstBus *bus;
  GstMessage *msg;

  if (gst_element_set_state (pipeline,
          GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE)
    return TRUE;

  /* The element that refused to start has posted why. */
  bus = gst_element_get_bus (pipeline);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  if (msg) {
    print_problem (msg);
    gst_message_unref (msg);
  } else {
    g_printerr ("Could not start pipeline %s\n", GST_OBJECT_NAME (pipeline));
  }
  gst_object_unref (bus);
  return FALSE;
}

/* Waits for the end of the stream, printing warnings on the way. FALSE after
 * an error, which it prints. */
static gboolean
wait_for_eos (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessageType type = GST_MESSAGE_WARNING;

  while (type == GST_MESSAGE_WARNING) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    type = GST_MESSAGE_TYPE (msg);
    if (type != GST_MESSAGE_EOS)
      print_problem (msg);
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return type == GST_MESSAGE_EOS;
}

/* The newest sample of the pipeline's appsink "sink", after EOS. */
static GstSample *
pull_last_sample (GstElement * pipeline)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0);

  if (!sample)
    g_printerr ("No frame came out of pipeline %s\n",
        GST_OBJECT_NAME (pipeline));
  gst_object_unref (sink);
  return sample;
}

/* Plays a one-frame pipeline to its end: input, if any, goes into its appsrc
 * "src"; output, if asked for, is the last sample of its appsink "sink". */
static gboolean
run_one_frame (GstElement * pipeline, GstSample * input, GstSample ** output)
{
  gboolean ok = start_pipeline (pipeline);

  if (ok && input) {
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    gst_app_src_push_sample (GST_APP_SRC (src), input);
    gst_app_src_end_of_stream (GST_APP_SRC (src));
    gst_object_unref (src);
  }
  ok = ok && wait_for_eos (pipeline);
  if (ok && output) {
    *output = pull_last_sample (pipeline);
    ok = *output != NULL;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  return ok;
}

/* ---- the noisy frame ---- */

static GstSample *
capture_test_pattern (const Options * opts)
{
  gchar *description = g_strdup_printf ("videotestsrc pattern=smpte "
      "num-buffers=1 ! video/x-raw,format=%s,width=%d,height=%d,framerate=30/1 "
      "! appsink name=sink wait-on-eos=false", opts->format, opts->width,
      opts->height);
  GstElement *pipeline = parse_pipeline (description);
  GstSample *sample = NULL;

  g_free (description);
  if (pipeline) {
    run_one_frame (pipeline, NULL, &sample);
    gst_object_unref (pipeline);
  }
  return sample;
}

/* Sets one sample of a full-resolution component to 0 or its maximum. */
static void
set_sample (GstVideoFrame * frame, guint c, gint x, gint y, gboolean to_max)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint8 *sample = (guint8 *) GST_VIDEO_FRAME_COMP_DATA (frame, c) +
      y * GST_VIDEO_FRAME_COMP_STRIDE (frame, c) +
      x * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);
  const guint depth = GST_VIDEO_FRAME_COMP_DEPTH (frame, c);
  const guint value = to_max ?
      ((1u << depth) - 1) << GST_VIDEO_FORMAT_INFO_SHIFT (finfo, c) : 0;

  if (depth <= 8)
    *sample = value;
  else if (GST_VIDEO_FORMAT_INFO_IS_LE (finfo))
    GST_WRITE_UINT16_LE (sample, value);
  else
    GST_WRITE_UINT16_BE (sample, value);
}

/* Turns about `fraction` of the pixels black or white. RGB and grey formats:
 * every colour component. YUV formats: luma only, since chroma is subsampled
 * in most of them (no per-pixel sample to set). */
static void
add_salt_and_pepper (GstVideoFrame * frame, gdouble fraction)
{
  const GstVideoFormatInfo *finfo = frame->info.finfo;
  guint components[GST_VIDEO_MAX_COMPONENTS];
  guint n_components = 0;
  GRand *rand = g_rand_new_with_seed (NOISE_SEED);

  for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (frame); c++) {
    if (c == GST_VIDEO_COMP_A)
      continue;
    if (GST_VIDEO_FORMAT_INFO_IS_YUV (finfo) && c != GST_VIDEO_COMP_Y)
      continue;
    components[n_components++] = c;
  }

  for (gint y = 0; y < GST_VIDEO_FRAME_HEIGHT (frame); y++) {
    for (gint x = 0; x < GST_VIDEO_FRAME_WIDTH (frame); x++) {
      if (g_rand_double (rand) >= fraction)
        continue;
      const gboolean salt = g_rand_boolean (rand);
      for (guint i = 0; i < n_components; i++)
        set_sample (frame, components[i], x, y, salt);
    }
  }
  g_rand_free (rand);
}

/* A noisy copy of the pattern, same caps. */
static GstSample *
make_noisy (GstSample * pattern, gdouble fraction)
{
  GstCaps *caps = gst_sample_get_caps (pattern);
  GstBuffer *buffer = gst_buffer_copy_deep (gst_sample_get_buffer (pattern));
  GstVideoInfo info;
  GstVideoFrame frame;
  GstSample *noisy = NULL;

  if (gst_video_info_from_caps (&info, caps) &&
      gst_video_frame_map (&frame, &info, buffer, GST_MAP_READWRITE)) {
    add_salt_and_pepper (&frame, fraction);
    gst_video_frame_unmap (&frame);
    noisy = gst_sample_new (buffer, caps, NULL, NULL);
  } else {
    g_printerr ("Could not map the test pattern\n");
  }
  gst_buffer_unref (buffer);
  return noisy;
}

/* ---- through cudamedian ---- */

/* Asks the element for its buffer pool, as a source negotiating its
 * allocation does: on the CUDA backend cudamedian offers pinned memory, which
 * it uploads from directly. Without an offer, a pool of plain memory. Called
 * from appsrc's first need-data, when appsrc has negotiated its caps. */
static gboolean
setup_input_pool (Feeder * feeder, GstAppSrc * appsrc)
{
  GstQuery *query = gst_query_new_allocation (feeder->caps, TRUE);
  GstPad *srcpad = gst_element_get_static_pad (GST_ELEMENT (appsrc), "src");
  GstBufferPool *pool = NULL;
  guint size = GST_VIDEO_INFO_SIZE (&feeder->info);
  guint min = 0, max = 0;
  GstStructure *config;

  if (gst_pad_peer_query (srcpad, query) &&
      gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
  gst_query_unref (query);
  gst_object_unref (srcpad);

  feeder->pool_from_element = pool != NULL;
  if (!pool)
    pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, feeder->caps, size, min, max);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return FALSE;
  }
  feeder->pool = pool;
  return TRUE;
}

/* appsrc's need-data: one more copy of the noisy frame, or the end. */
static void
feed_frame (GstAppSrc * appsrc, G_GNUC_UNUSED guint length, gpointer user_data)
{
  Feeder *feeder = user_data;
  GstBuffer *buffer = NULL;
  GstVideoFrame frame;

  if (feeder->pushed == feeder->frames) {
    gst_app_src_end_of_stream (appsrc);
    return;
  }
  if (!feeder->pool && !setup_input_pool (feeder, appsrc)) {
    GST_ELEMENT_ERROR (appsrc, RESOURCE, SETTINGS,
        ("Could not set up a pool for the input frames"), (NULL));
    return;
  }
  if (feeder->pushed == 0)
    feeder->start_us = g_get_monotonic_time ();

  /* Writing each frame into a fresh buffer is what a real source does. */
  if (gst_buffer_pool_acquire_buffer (feeder->pool, &buffer,
          NULL) != GST_FLOW_OK
      || !gst_video_frame_map (&frame, &feeder->info, buffer,
          GST_MAP_WRITE)) {
    GST_ELEMENT_ERROR (appsrc, RESOURCE, WRITE,
        ("Could not get an input buffer"), (NULL));
    gst_clear_buffer (&buffer);
    return;
  }
  gst_video_frame_copy (&frame, &feeder->noisy);
  gst_video_frame_unmap (&frame);

  GST_BUFFER_PTS (buffer) = feeder->pushed * feeder->duration;
  GST_BUFFER_DURATION (buffer) = feeder->duration;
  feeder->pushed++;
  gst_app_src_push_buffer (appsrc, buffer);
}

/* Checks the options against cudamedian's own property ranges and sets them. */
static gboolean
configure_median (GstElement * median, const Options * opts)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (median);
  GParamSpecInt *size =
      G_PARAM_SPEC_INT (g_object_class_find_property (klass, "size"));
  GParamSpecUInt *in_flight = G_PARAM_SPEC_UINT (g_object_class_find_property
      (klass, "frames-in-flight"));
  GParamSpecEnum *backends =
      G_PARAM_SPEC_ENUM (g_object_class_find_property (klass, "backend"));
  GEnumValue *backend =
      g_enum_get_value_by_nick (backends->enum_class, opts->backend);
  GstPad *sinkpad = gst_element_get_static_pad (median, "sink");
  GstCaps *accepted = gst_pad_get_pad_template_caps (sinkpad);
  GstCaps *wanted = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, opts->format, NULL);
  const gboolean format_ok = gst_caps_can_intersect (accepted, wanted);

  gst_caps_unref (wanted);
  gst_caps_unref (accepted);
  gst_object_unref (sinkpad);

  if (!format_ok) {
    g_printerr ("cudamedian does not take format %s "
        "(gst-inspect-1.0 cudamedian lists its formats)\n", opts->format);
    return FALSE;
  }
  if (opts->size % 2 == 0 || opts->size < size->minimum ||
      opts->size > size->maximum) {
    g_printerr ("--size must be odd, %d to %d\n", size->minimum,
        size->maximum);
    return FALSE;
  }
  if (opts->frames_in_flight < (gint) in_flight->minimum ||
      opts->frames_in_flight > (gint) in_flight->maximum) {
    g_printerr ("--frames-in-flight must be %u to %u\n", in_flight->minimum,
        in_flight->maximum);
    return FALSE;
  }
  if (!backend) {
    g_printerr ("--backend must be auto, cuda or cpu\n");
    return FALSE;
  }
  g_object_set (median, "size", opts->size, "frames-in-flight",
      (guint) opts->frames_in_flight, "backend", backend->value, "cuda-device-id",
      opts->device_id, NULL);
  return TRUE;
}

/* The nick of an enum property's current value. */
static const gchar *
enum_nick (GObject * object, const gchar * property)
{
  GParamSpec *pspec =
      g_object_class_find_property (G_OBJECT_GET_CLASS (object), property);
  gint value;

  g_object_get (object, property, &value, NULL);
  return g_enum_get_value (G_PARAM_SPEC_ENUM (pspec)->enum_class,
      value)->value_nick;
}

/* Pushes the noisy frame opts->frames times through the pipeline, prints the
 * result line and returns the last filtered frame. */
static GstSample *
run_filter (GstElement * pipeline, GstElement * median, GstSample * noisy,
    const Options * opts)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstAppSrcCallbacks callbacks = {.need_data = feed_frame };
  Feeder feeder = {.caps = gst_sample_get_caps (noisy),.frames = opts->frames };
  GstSample *filtered = NULL;

  if (!gst_video_info_from_caps (&feeder.info, feeder.caps) ||
      !gst_video_frame_map (&feeder.noisy, &feeder.info,
          gst_sample_get_buffer (noisy), GST_MAP_READ)) {
    g_printerr ("Could not map the noisy frame\n");
    goto done;
  }
  feeder.duration = gst_util_uint64_scale_int (GST_SECOND,
      GST_VIDEO_INFO_FPS_D (&feeder.info), GST_VIDEO_INFO_FPS_N (&feeder.info));
  g_object_set (src, "caps", feeder.caps, "format", GST_FORMAT_TIME, NULL);
  gst_app_src_set_callbacks (GST_APP_SRC (src), &callbacks, &feeder, NULL);

  if (start_pipeline (pipeline) && wait_for_eos (pipeline)) {
    const gdouble seconds =
        (g_get_monotonic_time () - feeder.start_us) / (gdouble) G_USEC_PER_SEC;
    /* Read while still PLAYING: the element reports "auto" once stopped. */
    const gchar *backend = enum_nick (G_OBJECT (median), "active-backend");

    g_print ("cudamedian %dx%d %s size=%d: %d frames in %.3f s = %.1f fps, "
        "backend=%s", opts->width, opts->height, opts->format, opts->size,
        opts->frames, seconds, opts->frames / seconds, backend);
    /* device-id -1 is the first device. */
    if (g_str_equal (backend, "cuda"))
      g_print (" (device %d)", MAX (opts->device_id, 0));
    if (feeder.pool_from_element)
      g_print (", input in cudamedian's buffers");
    g_print ("\n");
    filtered = pull_last_sample (pipeline);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_video_frame_unmap (&feeder.noisy);

done:
  if (feeder.pool) {
    gst_buffer_pool_set_active (feeder.pool, FALSE);
    gst_object_unref (feeder.pool);
  }
  gst_object_unref (src);
  return filtered;
}

/* ---- the picture ---- */

static GstSample *
to_rgb (GstSample * sample)
{
  GstElement *pipeline = parse_pipeline ("appsrc name=src format=time ! "
      "videoconvert ! video/x-raw,format=RGB ! appsink name=sink sync=false "
      "wait-on-eos=false");
  GstSample *rgb = NULL;

  if (pipeline) {
    run_one_frame (pipeline, sample, &rgb);
    gst_object_unref (pipeline);
  }
  return rgb;
}

/* left | separator | right, from two RGB frames of one size. */
static GstSample *
side_by_side (GstSample * left, GstSample * right)
{
  GstVideoInfo in_info, out_info;
  GstVideoFrame l, r, out;
  GstBuffer *buffer;
  GstCaps *caps;
  GstSample *picture;
  gsize row_bytes, separator_bytes;

  gst_video_info_from_caps (&in_info, gst_sample_get_caps (left));
  gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_RGB,
      2 * GST_VIDEO_INFO_WIDTH (&in_info) + SEPARATOR_WIDTH,
      GST_VIDEO_INFO_HEIGHT (&in_info));
  row_bytes = GST_VIDEO_INFO_WIDTH (&in_info) *
      GST_VIDEO_INFO_COMP_PSTRIDE (&in_info, 0);
  separator_bytes = SEPARATOR_WIDTH * GST_VIDEO_INFO_COMP_PSTRIDE (&in_info, 0);
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out_info),
      NULL);

  gst_video_frame_map (&l, &in_info, gst_sample_get_buffer (left),
      GST_MAP_READ);
  gst_video_frame_map (&r, &in_info, gst_sample_get_buffer (right),
      GST_MAP_READ);
  gst_video_frame_map (&out, &out_info, buffer, GST_MAP_WRITE);
  for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT (&out_info); y++) {
    guint8 *row = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&out, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&out, 0);
    memcpy (row, (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&l, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&l, 0), row_bytes);
    memset (row + row_bytes, SEPARATOR_GREY, separator_bytes);
    memcpy (row + row_bytes + separator_bytes,
        (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&r, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&r, 0), row_bytes);
  }
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&r);
  gst_video_frame_unmap (&l);

  caps = gst_video_info_to_caps (&out_info);
  picture = gst_sample_new (buffer, caps, NULL, NULL);
  gst_caps_unref (caps);
  gst_buffer_unref (buffer);
  return picture;
}

static gboolean
write_before_after (GstSample * noisy, GstSample * filtered, const gchar * path)
{
  GstSample *left = to_rgb (noisy);
  GstSample *right = left ? to_rgb (filtered) : NULL;
  GstSample *picture;
  GstElement *pipeline, *file;
  gboolean ok = FALSE;

  if (!right)
    goto done;
  picture = side_by_side (left, right);
  pipeline = parse_pipeline ("appsrc name=src format=time ! pngenc ! "
      "filesink name=file");
  if (pipeline) {
    file = gst_bin_get_by_name (GST_BIN (pipeline), "file");
    g_object_set (file, "location", path, NULL);
    gst_object_unref (file);
    ok = run_one_frame (pipeline, picture, NULL);
    gst_object_unref (pipeline);
  }
  gst_sample_unref (picture);

done:
  if (left)
    gst_sample_unref (left);
  if (right)
    gst_sample_unref (right);
  return ok;
}

/* ---- main ---- */

static gboolean
parse_options (int *argc, char ***argv, Options * opts)
{
  const GOptionEntry entries[] = {
    {"width", 0, 0, G_OPTION_ARG_INT, &opts->width,
        "Frame width (default 1920)", "PIXELS"},
    {"height", 0, 0, G_OPTION_ARG_INT, &opts->height,
        "Frame height (default 1080)", "PIXELS"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &opts->format,
        "Video format, any cudamedian takes (default RGBx)", "FORMAT"},
    {"size", 0, 0, G_OPTION_ARG_INT, &opts->size,
        "Median window, odd (default 3)", "N"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &opts->frames,
        "Frames to filter (default 300)", "N"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &opts->backend,
        "auto, cuda or cpu (default auto)", "BACKEND"},
    {"frames-in-flight", 0, 0, G_OPTION_ARG_INT, &opts->frames_in_flight,
        "Frames cudamedian works on at once (default 2)", "N"},
    {"device-id", 0, 0, G_OPTION_ARG_INT, &opts->device_id,
        "CUDA device (default -1, the first)", "N"},
    {"noise", 0, 0, G_OPTION_ARG_DOUBLE, &opts->noise,
        "Percent of pixels turned into salt or pepper (default 5)", "PERCENT"},
    {"output", 0, 0, G_OPTION_ARG_FILENAME, &opts->output,
        "Before/after picture (default cudamedian-before-after.png)", "FILE"},
    G_OPTION_ENTRY_NULL
  };
  GOptionContext *context =
      g_option_context_new ("- salt-and-pepper noise through cudamedian");
  GError *err = NULL;
  gboolean ok;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, gst_init_get_option_group ());
  ok = g_option_context_parse (context, argc, argv, &err);
  g_option_context_free (context);
  if (!ok) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  /* GOption leaves options that were not given untouched. */
  if (!opts->format)
    opts->format = g_strdup ("RGBx");
  if (!opts->backend)
    opts->backend = g_strdup ("auto");
  if (!opts->output)
    opts->output = g_strdup ("cudamedian-before-after.png");
  if (opts->width < 1 || opts->height < 1 || opts->frames < 1) {
    g_printerr ("--width, --height and --frames must be positive\n");
    return FALSE;
  }
  if (opts->noise < 0 || opts->noise > 100) {
    g_printerr ("--noise must be 0 to 100\n");
    return FALSE;
  }
  if (opts->device_id < -1) {
    g_printerr ("--device-id must be -1 (the first device) or more\n");
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char *argv[])
{
  Options opts = {
    .width = 1920,.height = 1080,.size = 3,.frames = 300,
    .frames_in_flight = 2,.device_id = -1,.noise = 5,
  };
  GstElement *pipeline = NULL, *median = NULL;
  GstSample *pattern = NULL, *noisy = NULL, *filtered = NULL;
  int status = 1;

  if (!parse_options (&argc, &argv, &opts))
    goto done;

  pipeline = parse_pipeline ("appsrc name=src ! cudamedian name=median ! "
      "appsink name=sink sync=false max-buffers=1 drop=true wait-on-eos=false");
  if (!pipeline) {
    g_printerr ("Is GST_PLUGIN_PATH set to the build's plugin folder "
        "(e.g. GST_PLUGIN_PATH=build/plugin)?\n");
    goto done;
  }
  median = gst_bin_get_by_name (GST_BIN (pipeline), "median");
  if (!configure_median (median, &opts))
    goto done;

  pattern = capture_test_pattern (&opts);
  noisy = pattern ? make_noisy (pattern, opts.noise / 100) : NULL;
  filtered = noisy ? run_filter (pipeline, median, noisy, &opts) : NULL;
  if (!filtered || !write_before_after (noisy, filtered, opts.output))
    goto done;
  g_print ("Wrote %s: noisy input left, filtered output right\n",
      opts.output);
  status = 0;

done:
  if (filtered)
    gst_sample_unref (filtered);
  if (noisy)
    gst_sample_unref (noisy);
  if (pattern)
    gst_sample_unref (pattern);
  gst_clear_object (&median);
  gst_clear_object (&pipeline);
  g_free (opts.format);
  g_free (opts.backend);
  g_free (opts.output);
  return status;
}
