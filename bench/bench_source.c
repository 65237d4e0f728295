// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "bench_source.h"

#include <gst/video/video.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

gboolean
bench_parse_options (const GOptionEntry * entries, const gchar * summary,
    int *argc, char ***argv)
{
  GOptionContext *context = g_option_context_new (summary);
  GError *err = NULL;
  gboolean ok;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_add_group (context, gst_init_get_option_group ());
  ok = g_option_context_parse (context, argc, argv, &err);
  g_option_context_free (context);
  if (!ok) {
    g_printerr ("%s\n", err->message);
    g_clear_error (&err);
  }
  return ok;
}

GstBufferPool *
bench_upstream_pool (GstAppSrc * appsrc, GstCaps * caps, guint size,
    guint buffers, gchar ** proposed)
{
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstPad *srcpad = gst_element_get_static_pad (GST_ELEMENT (appsrc), "src");
  GstBufferPool *pool = NULL;
  guint pool_size = size, min = 0, max = 0;
  GstStructure *config;

  if (gst_pad_peer_query (srcpad, query) &&
      gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &pool_size, &min,
        &max);
  gst_query_unref (query);
  gst_object_unref (srcpad);

  if (proposed)
    *proposed = pool ? g_strdup (G_OBJECT_TYPE_NAME (pool)) : NULL;
  if (!pool)
    pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, MAX (pool_size, size),
      MAX (min, buffers), max ? MAX (max, buffers) : 0);
  if (!gst_buffer_pool_set_config (pool, config) ||
      !gst_buffer_pool_set_active (pool, TRUE)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}

void
bench_fill_random (guint8 * data, gsize size, guint64 * state)
{
  guint64 x = *state;
  gsize i = 0;

  for (; i + 8 <= size; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    memcpy (data + i, &x, 8);
  }
  for (; i < size; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    data[i] = (guint8) x;
  }
  *state = x;
}

gboolean
bench_prepare_frames (GstBufferPool * pool, gsize size, GstBuffer ** frames,
    guint count)
{
  guint64 seed = 0x2545f4914f6cdd1dull;

  for (guint i = 0; i < count; i++) {
    GstMapInfo map;

    if (!pool)
      frames[i] = gst_buffer_new_allocate (NULL, size, NULL);
    else if (gst_buffer_pool_acquire_buffer (pool, &frames[i], NULL) !=
        GST_FLOW_OK)
      return FALSE;
    if (!gst_buffer_map (frames[i], &map, GST_MAP_WRITE))
      return FALSE;
    bench_fill_random (map.data, map.size, &seed);
    gst_buffer_unmap (frames[i], &map);
  }
  return TRUE;
}

void
bench_print_problem (GstMessage * msg, gchar ** note)
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

gboolean
bench_play_to_eos (GstElement * pipeline, gint timeout_s, gchar ** note)
{
  GstBus *bus = gst_element_get_bus (pipeline);
  const gint64 deadline = g_get_monotonic_time () +
      (gint64) timeout_s * G_TIME_SPAN_SECOND;
  gboolean done = FALSE, eos = FALSE;

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
    if (msg) {
      bench_print_problem (msg, note);
      gst_message_unref (msg);
    }
    if (note && !*note)
      *note = g_strdup ("could not start");
    gst_object_unref (bus);
    return FALSE;
  }

  while (!done) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_SECOND,
        GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    if (!msg) {
      if (g_get_monotonic_time () > deadline) {
        if (note && !*note)
          *note = g_strdup ("timed out");
        break;
      }
      continue;
    }
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_EOS:
        eos = done = TRUE;
        break;
      case GST_MESSAGE_ERROR:
        bench_print_problem (msg, note);
        done = TRUE;
        break;
      default:
        bench_print_problem (msg, NULL);
        break;
    }
    gst_message_unref (msg);
  }
  gst_object_unref (bus);
  return eos;
}

void
bench_json_string (GString * s, const gchar * value)
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

void
bench_json_number (GString * s, gdouble value, gboolean valid)
{
  if (valid && isfinite (value))
    g_string_append_printf (s, "%.6g", value);
  else
    g_string_append (s, "null");
}

static int
compare_doubles (gconstpointer a, gconstpointer b)
{
  const gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return (x > y) - (x < y);
}

gdouble
bench_median (gdouble * values, guint n)
{
  if (n == 0)
    return NAN;
  qsort (values, n, sizeof (gdouble), compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}
