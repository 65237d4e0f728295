// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* privacy-redact: faces redacted on a live stream, even where the detector
 * misses them.
 *
 * A pad probe stands in for a face detector: on every frame of videotestsrc it
 * attaches a GstVideoRegionOfInterestMeta of type "face" to each of three
 * boxes that move across the picture, and one of type "logo" that stays; like
 * a real detector, it misses face 1 on every fourth frame. The frames go
 * through
 *
 *   cudaredact region-types=face region-padding=8
 *
 * which pixelates (or, with --method fill, fills) the faces and nothing else,
 * holding a face the detector missed at its last box (its hold, 1 s by
 * default). The example writes the last frame before and after as two PNG
 * pictures, and with --check (and --method fill) checks every frame: no sample
 * of a face's own box survives, the missed frames included, and every sample
 * away from the faces' padded boxes, the logo's too, is unchanged. With
 * --hold 0 the missed face shows, and --check fails.
 *
 *   GST_PLUGIN_PATH=build/plugin build/examples/privacy-redact --output-dir /tmp
 *
 * A real detector attaches the same metas: Debian's facedetect (gstreamer1.0-
 * opencv) in place of the probe, or any element adding GstVideoRegionOfInterestMeta
 * or (GStreamer 1.24 and later) analytics object detections.
 */
#include <gst/app/app.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <stdlib.h>

#define FACES 3
#define PADDING 8
/* The face the stand-in detector misses on every fourth frame. */
#define MISSED_FACE 1

typedef struct
{
  gint width;
  gint height;
  gint frames;
  gchar *backend;
  gchar *method;
  gint64 hold;
  gchar *output_dir;
  gboolean check;
} Options;

/* ---- the stand-in detector ---- */

/* Box k of frame n: faces sweep right, 2 pixels a frame (less than the
 * padding: the box of the frame before still covers a face), one a third of
 * the width behind the other, each on its own row; k == FACES is the logo in
 * the top right corner. */
static GstVideoRectangle
box_of (gint k, guint64 n, gint width, gint height)
{
  GstVideoRectangle box = { 0, 0, width / 5, height / 5 };
  if (k == FACES) {
    box.x = width - box.w - 2;
    box.y = 2;
    return box;
  }
  box.x = (gint) ((n * 2 + k * width / 3) % (guint64) (width - box.w));
  box.y = height / 6 + k * height / 4;
  return box;
}

static gboolean
missed (gint k, guint64 n)
{
  return k == MISSED_FACE && n % 4 == 3;
}

static GstPadProbeReturn
attach_detections (GstPad * pad G_GNUC_UNUSED, GstPadProbeInfo * info,
    gpointer user_data)
{
  const Options *opts = user_data;
  GstBuffer *buffer = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));
  const guint64 n = GST_BUFFER_OFFSET (buffer);
  for (gint k = 0; k <= FACES; k++) {
    if (missed (k, n))
      continue;
    const GstVideoRectangle box = box_of (k, n, opts->width, opts->height);
    gst_buffer_add_video_region_of_interest_meta (buffer,
        k == FACES ? "logo" : "face", box.x, box.y, box.w, box.h);
  }
  GST_PAD_PROBE_INFO_DATA (info) = buffer;
  return GST_PAD_PROBE_OK;
}

/* ---- checking a frame ---- */

/* Whether luma pixel (x, y) lies within `margin` of face k's box in frame n. */
static gboolean
near_face (gint x, gint y, gint k, guint64 n, gint margin, const Options * opts)
{
  const GstVideoRectangle box = box_of (k, n, opts->width, opts->height);
  return x >= box.x - margin && x < box.x + box.w + margin &&
      y >= box.y - margin && y < box.y + box.h + margin;
}

/* Whether sample (x, y) of component c (I420: chroma at half size) covers a
 * pixel within `margin` of a face of frame n, or of frame n - 1 (a face held
 * at its last box). */
static gboolean
may_change (guint c, gint x, gint y, guint64 n, gint margin,
    const Options * opts)
{
  const gint scale = c == 0 ? 1 : 2;
  for (gint k = 0; k < FACES; k++)
    for (gint dy = 0; dy < scale; dy++)
      for (gint dx = 0; dx < scale; dx++)
        if (near_face (x * scale + dx, y * scale + dy, k, n, margin, opts) ||
            (n > 0 && near_face (x * scale + dx, y * scale + dy, k, n - 1,
                    margin, opts)))
          return TRUE;
  return FALSE;
}

/* Whether every pixel that sample (x, y) of component c covers lies in a
 * face's own box in frame n. */
static gboolean
in_face (guint c, gint x, gint y, guint64 n, const Options * opts)
{
  const gint scale = c == 0 ? 1 : 2;
  for (gint k = 0; k < FACES; k++)
    if (near_face (x * scale, y * scale, k, n, 0, opts) &&
        near_face (x * scale + scale - 1, y * scale + scale - 1, k, n, 0, opts))
      return TRUE;
  return FALSE;
}

/* Frame n of I420 (limited range) before and after method=fill in black:
 * every sample of each face's own box black, luma 16 and chroma 128, the
 * missed face too; unchanged away from the faces' padded boxes (grown by a
 * pixel: boxes grow to whole chroma samples). */
static gboolean
check_frame (GstVideoFrame * before, GstVideoFrame * after, guint64 n,
    const Options * opts)
{
  static const gchar *const names[] = { "luma", "U", "V" };
  for (guint c = 0; c < 3; c++) {
    const guint8 *in = GST_VIDEO_FRAME_COMP_DATA (before, c);
    const guint8 *out = GST_VIDEO_FRAME_COMP_DATA (after, c);
    const gint in_stride = GST_VIDEO_FRAME_COMP_STRIDE (before, c);
    const gint out_stride = GST_VIDEO_FRAME_COMP_STRIDE (after, c);
    const guint8 black = c == 0 ? 16 : 128;
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (before, c); y++)
      for (gint x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (before, c); x++) {
        const guint8 was = in[y * in_stride + x], is = out[y * out_stride + x];
        if (in_face (c, x, y, n, opts) && is != black) {
          g_printerr ("frame %" G_GUINT64_FORMAT ": %s at (%d, %d) of a face "
              "shows (%u)%s\n", n, names[c], x, y, is, n % 4 == 3 ?
              ", on a frame the detector missed a face" : "");
          return FALSE;
        }
        if (was != is && !may_change (c, x, y, n, PADDING + 1, opts)) {
          g_printerr ("frame %" G_GUINT64_FORMAT ": %s changed at (%d, %d), "
              "away from every face\n", n, names[c], x, y);
          return FALSE;
        }
      }
  }
  return TRUE;
}

static gboolean
check_samples (GstSample * before, GstSample * after, const Options * opts)
{
  GstVideoInfo info;
  GstVideoFrame in, out;
  if (!gst_video_info_from_caps (&info, gst_sample_get_caps (before)))
    return FALSE;
  if (!gst_video_frame_map (&in, &info, gst_sample_get_buffer (before),
          GST_MAP_READ))
    return FALSE;
  if (!gst_video_frame_map (&out, &info, gst_sample_get_buffer (after),
          GST_MAP_READ)) {
    gst_video_frame_unmap (&in);
    return FALSE;
  }
  const gboolean ok = check_frame (&in, &out,
      GST_BUFFER_OFFSET (gst_sample_get_buffer (before)), opts);
  gst_video_frame_unmap (&in);
  gst_video_frame_unmap (&out);
  return ok;
}

/* ---- the pictures ---- */

static gboolean
write_png (GstSample * sample, const gchar * dir, const gchar * name)
{
  GError *err = NULL;
  GstCaps *png = gst_caps_new_empty_simple ("image/png");
  GstSample *picture = gst_video_convert_sample (sample, png, 10 * GST_SECOND,
      &err);
  gst_caps_unref (png);
  if (!picture) {
    g_printerr ("Could not make %s: %s\n", name, err->message);
    g_clear_error (&err);
    return FALSE;
  }
  gchar *path = g_build_filename (dir, name, NULL);
  GstMapInfo map;
  gst_buffer_map (gst_sample_get_buffer (picture), &map, GST_MAP_READ);
  const gboolean ok = g_file_set_contents (path, (const gchar *) map.data,
      map.size, &err);
  gst_buffer_unmap (gst_sample_get_buffer (picture), &map);
  gst_sample_unref (picture);
  if (ok)
    g_print ("wrote %s\n", path);
  else {
    g_printerr ("Could not write %s: %s\n", path, err->message);
    g_clear_error (&err);
  }
  g_free (path);
  return ok;
}

/* ---- the pipeline ---- */

static GstElement *
make_pipeline (const Options * opts)
{
  GError *err = NULL;
  gchar *line = g_strdup_printf ("videotestsrc name=src num-buffers=%d "
      "pattern=smpte ! video/x-raw,format=I420,width=%d,height=%d,"
      "framerate=30/1 ! tee name=split "
      "split. ! queue ! appsink name=before sync=false "
      "split. ! queue ! cudaredact name=redact region-types=face "
      "region-padding=%d method=%s hold=%" G_GINT64_FORMAT " backend=%s ! "
      "appsink name=after sync=false", opts->frames, opts->width, opts->height,
      PADDING, opts->method, opts->hold, opts->backend);
  GstElement *pipeline = gst_parse_launch (line, &err);
  g_free (line);
  if (err) {
    g_printerr ("Could not build the pipeline: %s\n"
        "Is GST_PLUGIN_PATH set to the build's plugin folder "
        "(e.g. GST_PLUGIN_PATH=build/plugin)?\n", err->message);
    g_clear_error (&err);
    gst_clear_object (&pipeline);
    return NULL;
  }
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  GstPad *pad = gst_element_get_static_pad (src, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, attach_detections,
      (gpointer) opts, NULL);
  gst_object_unref (pad);
  gst_object_unref (src);
  return pipeline;
}

/* Pulls every frame from both sinks, checking each pair where asked; keeps
 * the last pair for the pictures. */
static gboolean
pull_frames (GstElement * pipeline, const Options * opts, GstSample ** before,
    GstSample ** after)
{
  GstElement *sinks[2] = {
    gst_bin_get_by_name (GST_BIN (pipeline), "before"),
    gst_bin_get_by_name (GST_BIN (pipeline), "after"),
  };
  gboolean ok = TRUE;
  gint frames = 0;
  for (;;) {
    GstSample *in = gst_app_sink_pull_sample (GST_APP_SINK (sinks[0]));
    GstSample *out = gst_app_sink_pull_sample (GST_APP_SINK (sinks[1]));
    if (!in || !out) {
      if (in)
        gst_sample_unref (in);
      if (out)
        gst_sample_unref (out);
      break;
    }
    frames++;
    if (opts->check && ok)
      ok = check_samples (in, out, opts);
    if (*before)
      gst_sample_unref (*before);
    if (*after)
      gst_sample_unref (*after);
    *before = in;
    *after = out;
  }
  gst_object_unref (sinks[0]);
  gst_object_unref (sinks[1]);
  if (frames != opts->frames) {
    g_printerr ("%d frames of %d came through\n", frames, opts->frames);
    return FALSE;
  }
  if (ok && opts->check)
    g_print ("%d frames checked: every face redacted, the missed ones too; "
        "the rest unchanged\n", frames);
  return ok;
}

/* The pipeline's error, if any, printed; TRUE where there was none. */
static gboolean
no_error (GstElement * pipeline)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gst_object_unref (bus);
  if (!msg)
    return TRUE;
  GError *err = NULL;
  gst_message_parse_error (msg, &err, NULL);
  g_printerr ("Error from %s: %s\n", GST_OBJECT_NAME (msg->src), err->message);
  g_clear_error (&err);
  gst_message_unref (msg);
  return FALSE;
}

static gboolean
parse_options (int *argc, char ***argv, Options * opts)
{
  GOptionEntry entries[] = {
    {"width", 0, 0, G_OPTION_ARG_INT, &opts->width, "Frame width", "W"},
    {"height", 0, 0, G_OPTION_ARG_INT, &opts->height, "Frame height", "H"},
    {"frames", 0, 0, G_OPTION_ARG_INT, &opts->frames, "Frames", "N"},
    {"backend", 0, 0, G_OPTION_ARG_STRING, &opts->backend,
        "cudaredact's backend: auto, cuda or cpu", "B"},
    {"method", 0, 0, G_OPTION_ARG_STRING, &opts->method,
        "cudaredact's method: pixelate (default) or fill", "M"},
    {"hold", 0, 0, G_OPTION_ARG_INT64, &opts->hold,
        "cudaredact's hold, in nanoseconds (default 1 s)", "NS"},
    {"output-dir", 0, 0, G_OPTION_ARG_FILENAME, &opts->output_dir,
        "Where privacy-redact-before.png and privacy-redact-after.png go", "DIR"},
    {"check", 0, 0, G_OPTION_ARG_NONE, &opts->check,
        "With --method fill: check every frame, faces filled (the missed ones "
          "too), everything else unchanged", NULL},
    {NULL},
  };
  GError *err = NULL;
  GOptionContext *context = g_option_context_new ("- redact the faces a "
      "stand-in detector finds, and those it misses");
  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, gst_init_get_option_group ());
  const gboolean ok = g_option_context_parse (context, argc, argv, &err);
  g_option_context_free (context);
  if (!ok) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  if (opts->width < 64 || opts->height < 64 || opts->frames < 1) {
    g_printerr ("--width and --height must be at least 64, --frames positive\n");
    return FALSE;
  }
  if (opts->check && g_strcmp0 (opts->method, "fill") != 0) {
    g_printerr ("--check needs --method fill\n");
    return FALSE;
  }
  return TRUE;
}

int
main (int argc, char *argv[])
{
  Options opts = {.width = 640,.height = 360,.frames = 60,.hold = GST_SECOND };
  GstElement *pipeline = NULL;
  GstSample *before = NULL, *after = NULL;
  int status = 1;

  if (!parse_options (&argc, &argv, &opts))
    goto done;
  if (!opts.backend)
    opts.backend = g_strdup ("auto");
  if (!opts.method)
    opts.method = g_strdup ("pixelate");
  if (!opts.output_dir)
    opts.output_dir = g_strdup (".");
  pipeline = make_pipeline (&opts);
  if (!pipeline)
    goto done;
  if (gst_element_set_state (pipeline,
          GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    if (no_error (pipeline))
      g_printerr ("Could not start the pipeline\n");
    goto done;
  }
  if (pull_frames (pipeline, &opts, &before, &after) && no_error (pipeline) &&
      write_png (before, opts.output_dir, "privacy-redact-before.png") &&
      write_png (after, opts.output_dir, "privacy-redact-after.png"))
    status = 0;

done:
  if (before)
    gst_sample_unref (before);
  if (after)
    gst_sample_unref (after);
  if (pipeline) {
    gst_element_set_state (pipeline, GST_STATE_NULL);
    gst_object_unref (pipeline);
  }
  g_free (opts.backend);
  g_free (opts.method);
  g_free (opts.output_dir);
  return status;
}
