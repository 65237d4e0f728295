// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* hist-meta: cudahist's histograms read from the meta on every buffer.
 *
 * Runs
 *
 *   videotestsrc num-buffers=FRAMES pattern=PATTERN
 *     ! video/x-raw,format=FORMAT,width=WIDTH,height=HEIGHT
 *     ! cudahist post-messages=false backend=BACKEND ! appsink
 *
 * pulls every frame from the appsink, reads its custom meta "GstCudaHistMeta"
 * and prints, per channel, total, min, max, mean and median (p50). It checks
 * each frame too: the meta is there, its bins add up to its total, and bins,
 * total, below, above, min, max, mean, p1, p50 and p99 are exactly what a plain
 * loop over the frame's own samples gives, with the element's defaults (256
 * bins over the format's whole range, the whole frame). Exit status 1 on the
 * first frame that differs, so it doubles as a test.
 *
 *   GST_PLUGIN_PATH=build/plugin build/examples/hist-meta --format NV12
 */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <string.h>

#define META_NAME "GstCudaHistMeta"
/* cudahist's defaults, which this program leaves alone. */
#define DEFAULT_BINS 256

typedef struct
{
  gint frames;
  gchar *format;
  gint width;
  gint height;
  gchar *pattern;
  gchar *backend;
} Options;

/* One channel's results: from the meta, or counted here. */
typedef struct
{
  guint n_bins;
  guint *bins;
  guint total, below, above, min, max;
  gdouble mean;
  guint p1, p50, p99;
} Channel;

/* ---- the pipeline ---- */

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

/* Prints the warnings waiting on the bus; FALSE (after printing it) if an
 * error is among them. */
static gboolean
no_error_on_bus (GstBus * bus)
{
  GstMessage *msg;
  gboolean ok = TRUE;

  while ((msg = gst_bus_pop_filtered (bus,
              GST_MESSAGE_ERROR | GST_MESSAGE_WARNING))) {
    print_problem (msg);
    ok = ok && GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR;
    gst_message_unref (msg);
  }
  return ok;
}

/* Sets the options on the pipeline's elements, checking them against what
 * the elements take. */
static gboolean
configure (GstElement * pipeline, const Options * opts)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstElement *filter = gst_bin_get_by_name (GST_BIN (pipeline), "caps");
  GstElement *hist = gst_bin_get_by_name (GST_BIN (pipeline), "hist");
  GstPad *sinkpad = gst_element_get_static_pad (hist, "sink");
  GstCaps *accepted = gst_pad_get_pad_template_caps (sinkpad);
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING,
      opts->format, "width", G_TYPE_INT, opts->width, "height", G_TYPE_INT,
      opts->height, NULL);
  GParamSpecEnum *patterns = G_PARAM_SPEC_ENUM (g_object_class_find_property
      (G_OBJECT_GET_CLASS (src), "pattern"));
  GParamSpecEnum *backends = G_PARAM_SPEC_ENUM (g_object_class_find_property
      (G_OBJECT_GET_CLASS (hist), "backend"));
  GEnumValue *pattern =
      g_enum_get_value_by_nick (patterns->enum_class, opts->pattern);
  GEnumValue *backend =
      g_enum_get_value_by_nick (backends->enum_class, opts->backend);
  gboolean ok = FALSE;

  if (!gst_caps_can_intersect (accepted, caps))
    g_printerr ("cudahist does not take format %s "
        "(gst-inspect-1.0 cudahist lists its formats)\n", opts->format);
  else if (!pattern)
    g_printerr ("--pattern: no videotestsrc pattern %s "
        "(gst-inspect-1.0 videotestsrc lists them)\n", opts->pattern);
  else if (!backend)
    g_printerr ("--backend must be auto, cuda or cpu\n");
  else
    ok = TRUE;
  if (ok) {
    g_object_set (src, "num-buffers", opts->frames, "pattern", pattern->value,
        NULL);
    g_object_set (filter, "caps", caps, NULL);
    g_object_set (hist, "backend", backend->value, NULL);
  }
  gst_caps_unref (caps);
  gst_caps_unref (accepted);
  gst_object_unref (sinkpad);
  gst_object_unref (hist);
  gst_object_unref (filter);
  gst_object_unref (src);
  return ok;
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

/* ---- the meta ---- */

/* Entry i of the array field `name` of s, which must hold `type`. */
static const GValue *
array_entry (const GstStructure * s, const gchar * name, guint i, GType type)
{
  const GValue *array = gst_structure_get_value (s, name);
  const GValue *entry;

  if (!array || !GST_VALUE_HOLDS_ARRAY (array)) {
    g_printerr ("the meta has no array field \"%s\"\n", name);
    return NULL;
  }
  if (i >= gst_value_array_get_size (array)) {
    g_printerr ("the meta's \"%s\" has no entry %u\n", name, i);
    return NULL;
  }
  entry = gst_value_array_get_value (array, i);
  if (!G_VALUE_HOLDS (entry, type)) {
    g_printerr ("the meta's \"%s\" holds %s, not %s\n", name,
        G_VALUE_TYPE_NAME (entry), g_type_name (type));
    return NULL;
  }
  return entry;
}

static gboolean
get_uint (const GstStructure * s, const gchar * name, guint i, guint * out)
{
  const GValue *entry = array_entry (s, name, i, G_TYPE_UINT);

  if (entry)
    *out = g_value_get_uint (entry);
  return entry != NULL;
}

/* Channel i of the meta's structure; bins to be freed by the caller. */
static gboolean
read_channel (const GstStructure * s, guint i, Channel * ch)
{
  const GValue *bins = array_entry (s, "bins", i, GST_TYPE_BUFFER);
  const GValue *mean = array_entry (s, "mean", i, G_TYPE_DOUBLE);
  GstBuffer *counts;

  if (!bins || !mean)
    return FALSE;
  /* One guint32 a bin, in this machine's byte order. */
  counts = gst_value_get_buffer (bins);
  if (gst_buffer_get_size (counts) % sizeof (guint32) != 0) {
    g_printerr ("the meta's bins hold %" G_GSIZE_FORMAT " bytes, not guint32s\n",
        gst_buffer_get_size (counts));
    return FALSE;
  }
  ch->n_bins = gst_buffer_get_size (counts) / sizeof (guint32);
  ch->bins = g_new (guint, ch->n_bins);
  gst_buffer_extract (counts, 0, ch->bins, ch->n_bins * sizeof (guint32));
  ch->mean = g_value_get_double (mean);
  return get_uint (s, "total", i, &ch->total) &&
      get_uint (s, "below", i, &ch->below) &&
      get_uint (s, "above", i, &ch->above) &&
      get_uint (s, "min", i, &ch->min) && get_uint (s, "max", i, &ch->max) &&
      get_uint (s, "p1", i, &ch->p1) && get_uint (s, "p50", i, &ch->p50) &&
      get_uint (s, "p99", i, &ch->p99);
}

/* ---- the same, counted here ---- */

/* The channels cudahist counts by default, as the meta names them, and their
 * components: grey, luma, or red, green and blue (no chroma, no alpha). */
static guint
expected_channels (const GstVideoInfo * info, const gchar * names[],
    guint components[])
{
  if (GST_VIDEO_INFO_IS_GRAY (info)) {
    names[0] = "gray";
    components[0] = GST_VIDEO_COMP_Y;
    return 1;
  }
  if (GST_VIDEO_INFO_IS_YUV (info)) {
    names[0] = "Y";
    components[0] = GST_VIDEO_COMP_Y;
    return 1;
  }
  names[0] = "R";
  names[1] = "G";
  names[2] = "B";
  components[0] = GST_VIDEO_COMP_R;
  components[1] = GST_VIDEO_COMP_G;
  components[2] = GST_VIDEO_COMP_B;
  return 3;
}

static guint
read_sample (const GstVideoFrame * frame, guint c, gint x, gint y)
{
  const guint8 *sample = (const guint8 *) GST_VIDEO_FRAME_COMP_DATA (frame, c)
      + y * GST_VIDEO_FRAME_COMP_STRIDE (frame, c)
      + x * GST_VIDEO_FRAME_COMP_PSTRIDE (frame, c);

  if (GST_VIDEO_FRAME_COMP_DEPTH (frame, c) <= 8)
    return *sample;
  /* P010's 10-bit values lie in the top bits of their 16-bit words. */
  return (GST_VIDEO_FORMAT_INFO_IS_LE (frame->info.finfo) ?
      GST_READ_UINT16_LE (sample) : GST_READ_UINT16_BE (sample)) >>
      GST_VIDEO_FORMAT_INFO_SHIFT (frame->info.finfo, c);
}

/* The bin of value v, for lower <= v <= upper, as cudahist documents it. */
static guint
bin_of (guint v, guint lower, guint upper, guint n_bins)
{
  const guint64 values = (guint64) upper - lower + 1;

  return (guint) ((guint64) (v - lower) * n_bins / values);
}

/* The documented percentile: the smallest value v such that at least
 * `percent` % of the binned samples are <= v, then the last value of v's bin.
 * counts: samples per value, lower..upper. */
static guint
percentile (const guint64 * counts, guint64 binned, guint lower, guint upper,
    guint n_bins, guint percent)
{
  guint64 cumulative = 0;
  guint v = lower;

  if (binned == 0)
    return 0;
  for (;; v++) {
    cumulative += counts[v - lower];
    if (cumulative * 100 >= binned * percent || v == upper)
      break;
  }
  while (v < upper && bin_of (v + 1, lower, upper, n_bins) ==
      bin_of (v, lower, upper, n_bins))
    v++;
  return v;
}

/* Counts component c of the whole frame into n_bins bins over lower..upper,
 * with a plain loop over its samples. */
static void
count_channel (const GstVideoFrame * frame, guint c, guint lower, guint upper,
    guint n_bins, Channel * ch)
{
  const gint width = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
  const gint height = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
  guint64 *counts = g_new0 (guint64, (gsize) upper - lower + 1);
  guint64 sum = 0, binned;

  ch->n_bins = n_bins;
  ch->bins = g_new0 (guint, n_bins);
  ch->total = width * height;
  ch->below = ch->above = 0;
  ch->min = G_MAXUINT;
  ch->max = 0;
  for (gint y = 0; y < height; y++) {
    for (gint x = 0; x < width; x++) {
      const guint v = read_sample (frame, c, x, y);
      sum += v;
      ch->min = MIN (ch->min, v);
      ch->max = MAX (ch->max, v);
      if (v < lower) {
        ch->below++;
      } else if (v > upper) {
        ch->above++;
      } else {
        ch->bins[bin_of (v, lower, upper, n_bins)]++;
        counts[v - lower]++;
      }
    }
  }
  if (ch->total == 0)
    ch->min = 0;
  ch->mean = ch->total ? (gdouble) sum / ch->total : 0.0;
  binned = (guint64) ch->total - ch->below - ch->above;
  ch->p1 = percentile (counts, binned, lower, upper, n_bins, 1);
  ch->p50 = percentile (counts, binned, lower, upper, n_bins, 50);
  ch->p99 = percentile (counts, binned, lower, upper, n_bins, 99);
  g_free (counts);
}

/* Whether the meta's channel equals the one counted here; prints how not. */
static gboolean
same_channel (const Channel * meta, const Channel * mine, const gchar * name)
{
  guint64 binned = 0;
  gboolean same = TRUE;

  for (guint b = 0; b < meta->n_bins; b++)
    binned += meta->bins[b];
  if (binned + meta->below + meta->above != meta->total) {
    g_printerr ("%s: bins sum to %" G_GUINT64_FORMAT " + below %u + above %u "
        "!= total %u\n", name, binned, meta->below, meta->above, meta->total);
    same = FALSE;
  }
  if (meta->n_bins != mine->n_bins) {
    g_printerr ("%s: %u bins, expected the default %u\n", name, meta->n_bins,
        mine->n_bins);
    return FALSE;
  }
  for (guint b = 0; b < meta->n_bins; b++) {
    if (meta->bins[b] != mine->bins[b]) {
      g_printerr ("%s: bin %u holds %u, the frame has %u\n", name, b,
          meta->bins[b], mine->bins[b]);
      same = FALSE;
    }
  }
#define SAME_UINT(field) \
  if (meta->field != mine->field) { \
    g_printerr ("%s: " #field " %u, the frame's %u\n", name, meta->field, \
        mine->field); \
    same = FALSE; \
  }
  SAME_UINT (total);
  SAME_UINT (below);
  SAME_UINT (above);
  SAME_UINT (min);
  SAME_UINT (max);
  SAME_UINT (p1);
  SAME_UINT (p50);
  SAME_UINT (p99);
#undef SAME_UINT
  /* The same division of the same integers: equal to the last bit. */
  if (meta->mean != mine->mean) {
    g_printerr ("%s: mean %.17g, the frame's %.17g\n", name, meta->mean,
        mine->mean);
    same = FALSE;
  }
  return same;
}

/* Prints and checks one frame's meta against the frame. */
static gboolean
check_frame (GstSample * sample, guint number)
{
  GstBuffer *buffer = gst_sample_get_buffer (sample);
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buffer, META_NAME);
  const GstStructure *s;
  GstVideoInfo info;
  GstVideoFrame frame;
  const gchar *names[GST_VIDEO_MAX_COMPONENTS];
  guint components[GST_VIDEO_MAX_COMPONENTS];
  guint n_channels, lower = 0, upper = 0, format_max;
  const GValue *channels;
  gboolean ok = TRUE;

  if (!meta) {
    g_printerr ("frame %u: no %s\n", number, META_NAME);
    return FALSE;
  }
  s = gst_custom_meta_get_structure (meta);
  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) ||
      !gst_video_frame_map (&frame, &info, buffer, GST_MAP_READ)) {
    g_printerr ("frame %u: could not map it\n", number);
    return FALSE;
  }

  /* What the defaults say: the format's channels and whole range. */
  n_channels = expected_channels (&info, names, components);
  format_max = (1u << GST_VIDEO_INFO_COMP_DEPTH (&info, 0)) - 1;
  channels = gst_structure_get_value (s, "channels");
  if (!gst_structure_get_uint (s, "range-min", &lower) ||
      !gst_structure_get_uint (s, "range-max", &upper) ||
      lower != 0 || upper != format_max) {
    g_printerr ("frame %u: range %u..%u, expected the default 0..%u\n",
        number, lower, upper, format_max);
    ok = FALSE;
  } else if (!channels || !GST_VALUE_HOLDS_ARRAY (channels) ||
      gst_value_array_get_size (channels) != n_channels) {
    gchar *found = channels ? gst_value_serialize (channels) : NULL;
    g_printerr ("frame %u: channels %s, expected %u of them\n", number,
        found ? found : "missing", n_channels);
    g_free (found);
    ok = FALSE;
  }

  for (guint i = 0; ok && i < n_channels; i++) {
    const GValue *name = array_entry (s, "channels", i, G_TYPE_STRING);
    Channel from_meta = { 0 }, counted = { 0 };

    if (!name || !g_str_equal (g_value_get_string (name), names[i])) {
      g_printerr ("frame %u: channel %u is %s, expected %s\n", number, i,
          name ? g_value_get_string (name) : "missing", names[i]);
      ok = FALSE;
      break;
    }
    ok = read_channel (s, i, &from_meta);
    if (ok) {
      g_print ("frame %3u %-4s total %u  min %3u  max %3u  mean %8.3f  "
          "p50 %3u\n", number, names[i], from_meta.total, from_meta.min,
          from_meta.max, from_meta.mean, from_meta.p50);
      count_channel (&frame, components[i], lower, upper, DEFAULT_BINS,
          &counted);
      ok = same_channel (&from_meta, &counted, names[i]);
      if (!ok)
        g_printerr ("frame %u: the meta differs from the frame\n", number);
    }
    g_free (from_meta.bins);
    g_free (counted.bins);
  }
  gst_video_frame_unmap (&frame);
  return ok;
}

/* Pulls and checks every frame; TRUE if all of them, and --frames of them,
 * came and were right. */
static gboolean
pull_frames (GstElement * pipeline, const Options * opts)
{
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *hist = gst_bin_get_by_name (GST_BIN (pipeline), "hist");
  GstBus *bus = gst_element_get_bus (pipeline);
  guint frames = 0;
  gboolean ok = TRUE;

  while (ok) {
    /* A pipeline that fails posts an error and never reaches EOS: look at the
     * bus between samples. */
    GstSample *sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
        100 * GST_MSECOND);

    ok = no_error_on_bus (bus);
    if (!sample) {
      if (gst_app_sink_is_eos (GST_APP_SINK (sink)))
        break;
      continue;
    }
    /* Read while playing: the element reports "auto" once stopped. */
    if (frames == 0) {
      g_print ("cudahist %dx%d %s, backend=%s\n", opts->width, opts->height,
          opts->format, enum_nick (G_OBJECT (hist), "active-backend"));
    }
    ok = ok && check_frame (sample, frames);
    frames++;
    gst_sample_unref (sample);
  }
  if (ok && frames != (guint) opts->frames) {
    g_printerr ("%u frames came out, expected %d\n", frames, opts->frames);
    ok = FALSE;
  }
  if (ok)
    g_print ("%u frames of %s %dx%d: every meta matches the frame's own "
        "histogram\n", frames, opts->format, opts->width, opts->height);
  gst_object_unref (bus);
  gst_object_unref (hist);
  gst_object_unref (sink);
  return ok;
}

/* ---- main ---- */

static gboolean
parse_options (int *argc, char ***argv, Options * opts)
{
  const GOptionEntry entries[] = {
    {"frames", 0, 0, G_OPTION_ARG_INT, &opts->frames,
        "Frames to count (default 30)", "N"},
    {"format", 0, 0, G_OPTION_ARG_STRING, &opts->format,
        "Video format, any cudahist takes: GRAY8, NV12, I420, RGBx... "
          "(default GRAY8)", "FORMAT"},
    {"width", 0, 0, G_OPTION_ARG_INT, &opts->width,
        "Frame width (default 320)", "PIXELS"},
    {"height", 0, 0, G_OPTION_ARG_INT, &opts->height,
        "Frame height (default 240)", "PIXELS"},
    {"pattern", 0, 0, G_OPTION_ARG_STRING, &opts->pattern,
        "videotestsrc pattern (default snow: random samples)", "PATTERN"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &opts->backend,
        "auto, cuda or cpu (default auto)", "BACKEND"},
    G_OPTION_ENTRY_NULL
  };
  GOptionContext *context =
      g_option_context_new ("- cudahist's histograms from its meta, checked");
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
    opts->format = g_strdup ("GRAY8");
  if (!opts->pattern)
    opts->pattern = g_strdup ("snow");
  if (!opts->backend)
    opts->backend = g_strdup ("auto");
  if (opts->width < 1 || opts->height < 1 || opts->frames < 1) {
    g_printerr ("--width, --height and --frames must be positive\n");
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char *argv[])
{
  Options opts = {.frames = 30,.width = 320,.height = 240 };
  GstElement *pipeline = NULL;
  GError *err = NULL;
  int status = 1;

  if (!parse_options (&argc, &argv, &opts))
    goto done;

  pipeline = gst_parse_launch ("videotestsrc name=src ! capsfilter name=caps ! "
      "cudahist name=hist post-messages=false ! "
      "appsink name=sink sync=false max-buffers=2", &err);
  if (err) {
    g_printerr ("Could not build the pipeline: %s\n"
        "Is GST_PLUGIN_PATH set to the build's plugin folder "
        "(e.g. GST_PLUGIN_PATH=build/plugin)?\n", err->message);
    g_clear_error (&err);
    goto done;
  }
  if (!configure (pipeline, &opts))
    goto done;

  if (gst_element_set_state (pipeline,
          GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    GstBus *bus = gst_element_get_bus (pipeline);
    if (no_error_on_bus (bus))
      g_printerr ("Could not start the pipeline\n");
    gst_object_unref (bus);
  } else if (pull_frames (pipeline, &opts)) {
    status = 0;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);

done:
  gst_clear_object (&pipeline);
  g_free (opts.format);
  g_free (opts.pattern);
  g_free (opts.backend);
  return status;
}
