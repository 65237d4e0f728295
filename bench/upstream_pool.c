#include "upstream_pool.h"

#include <gst/video/video.h>

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
