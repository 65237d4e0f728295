#include "bench_source.h"

#include <gst/video/video.h>

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
