// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* region-blur: privacy masking, blurring only what a detector found.
 *
 * A pad probe stands in for a face detector: on every frame of videotestsrc it
 * attaches a GstVideoRegionOfInterestMeta of type "face" to each of three
 * boxes that move across the picture, and one of type "logo" that stays. The
 * frames go through
 *
 *   cudagauss regions=meta region-types=face region-padding=4 sigma=6
 *
 * which blurs the faces, their colour too (the filters process chroma by
 * default), and nothing else. The example writes the last frame before and
 * after as two PNG pictures, and with --check compares every frame: outside the
 * padded faces each sample is unchanged (the logo included), inside each face
 * luma and both chroma planes are blurred.
 *
 *   GST_PLUGIN_PATH=build/plugin build/examples/region-blur --output-dir /tmp
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
#define PADDING 4

typedef struct
{
  gint width;
  gint height;
  gint frames;
  gchar *backend;
  gchar *output_dir;
  gboolean check;
} Options;

/* ---- the stand-in detector ---- */

/* Box k of frame n: faces sweep right, one a third of the width behind the
 * other, each on its own row; k == FACES is the logo in the top right corner. */
static GstVideoRectangle
box_of (gint k, guint64 n, gint width, gint height)
{
  GstVideoRectangle box = { 0, 0, width / 5, height / 5 };
  if (k == FACES) {
    box.x = width - box.w - 2;
    box.y = 2;
    return box;
  }
  box.x = (gint) ((n * 7 + k * width / 3) % (guint64) (width - box.w));
  box.y = height / 6 + k * height / 4;
  return box;
}

static GstPadProbeReturn
attach_detections (GstPad * pad G_GNUC_UNUSED, GstPadProbeInfo * info,
    gpointer user_data)
{
  const Options *opts = user_data;
  GstBuffer *buffer = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));
  for (gint k = 0; k <= FACES; k++) {
    const GstVideoRectangle box = box_of (k, GST_BUFFER_OFFSET (buffer),
        opts->width, opts->height);
    gst_buffer_add_video_region_of_interest_meta (buffer,
        k == FACES ? "logo" : "face", box.x, box.y, box.w, box.h);
  }
  GST_PAD_PROBE_INFO_DATA (info) = buffer;
  return GST_PAD_PROBE_OK;
}

/* ---- checking a frame ---- */

static gboolean
in_face (gint x, gint y, guint64 n, const Options * opts)
{
  for (gint k = 0; k < FACES; k++) {
    const GstVideoRectangle box = box_of (k, n, opts->width, opts->height);
    if (x >= box.x - PADDING && x < box.x + box.w + PADDING &&
        y >= box.y - PADDING && y < box.y + box.h + PADDING)
      return TRUE;
  }
  return FALSE;
}

/* Whether chroma sample (x, y) of I420 covers a luma pixel of a face. */
static gboolean
chroma_in_face (gint x, gint y, guint64 n, const Options * opts)
{
  for (gint dy = 0; dy < 2; dy++)
    for (gint dx = 0; dx < 2; dx++)
      if (in_face (2 * x + dx, 2 * y + dy, n, opts))
        return TRUE;
  return FALSE;
}

/* Whether sample (x, y) of component c (I420: chroma at half size) lies in
 * face k's box. */
static gboolean
in_box (guint c, gint x, gint y, gint k, guint64 n, const Options * opts)
{
  const GstVideoRectangle box = box_of (k, n, opts->width, opts->height);
  const gint scale = c == 0 ? 1 : 2;
  return x * scale >= box.x && x * scale < box.x + box.w &&
      y * scale >= box.y && y * scale < box.y + box.h;
}

/* Frame n of I420 before and after: the same outside the faces, and luma and
 * both chroma components blurred inside each. */
static gboolean
check_frame (GstVideoFrame * before, GstVideoFrame * after, guint64 n,
    const Options * opts)
{
  gint changed[3][FACES] = { {0} };
  for (guint c = 0; c < 3; c++) {
    const guint8 *in = GST_VIDEO_FRAME_COMP_DATA (before, c);
    const guint8 *out = GST_VIDEO_FRAME_COMP_DATA (after, c);
    const gint in_stride = GST_VIDEO_FRAME_COMP_STRIDE (before, c);
    const gint out_stride = GST_VIDEO_FRAME_COMP_STRIDE (after, c);
    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (before, c); y++)
      for (gint x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (before, c); x++) {
        if (in[y * in_stride + x] == out[y * out_stride + x])
          continue;
        if (c == 0 ? !in_face (x, y, n, opts) : !chroma_in_face (x, y, n,
                opts)) {
          g_printerr ("frame %" G_GUINT64_FORMAT ": component %u changed at "
              "(%d, %d), outside every face\n", n, c, x, y);
          return FALSE;
        }
        for (gint k = 0; k < FACES; k++)
          changed[c][k] += in_box (c, x, y, k, n, opts);
      }
  }
  static const gchar *const names[] = { "luma", "U", "V" };
  for (guint c = 0; c < 3; c++)
    for (gint k = 0; k < FACES; k++)
      if (changed[c][k] == 0) {
        g_printerr ("frame %" G_GUINT64_FORMAT ": the %s of face %d is not "
            "blurred\n", n, names[c], k);
        return FALSE;
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
      "split. ! queue ! cudagauss name=blur regions=meta region-types=face "
      "region-padding=%d sigma=6 backend=%s ! appsink name=after sync=false",
      opts->frames, opts->width, opts->height, PADDING, opts->backend);
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
    g_print ("%d frames checked: faces blurred, the rest unchanged\n", frames);
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
        "cudagauss's backend: auto, cuda or cpu", "B"},
    {"output-dir", 0, 0, G_OPTION_ARG_FILENAME, &opts->output_dir,
        "Where region-blur-before.png and region-blur-after.png go", "DIR"},
    {"check", 0, 0, G_OPTION_ARG_NONE, &opts->check,
        "Check every frame: faces blurred, everything else unchanged", NULL},
    {NULL},
  };
  GError *err = NULL;
  GOptionContext *context = g_option_context_new ("- blur the faces a "
      "stand-in detector finds");
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
  return TRUE;
}

int
main (int argc, char *argv[])
{
  Options opts = {.width = 640,.height = 360,.frames = 60 };
  GstElement *pipeline = NULL;
  GstSample *before = NULL, *after = NULL;
  int status = 1;

  if (!parse_options (&argc, &argv, &opts))
    goto done;
  if (!opts.backend)
    opts.backend = g_strdup ("auto");
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
      write_png (before, opts.output_dir, "region-blur-before.png") &&
      write_png (after, opts.output_dir, "region-blur-after.png"))
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
  g_free (opts.output_dir);
  return status;
}
