/* What the benchmark sources share: the buffer pool a source negotiating its
 * allocation would fill, so that frames are prepared where the element wants
 * them (pinned host memory on the CUDA backend). */
#pragma once

#include <gst/app/app.h>
#include <gst/gst.h>

G_BEGIN_DECLS

/* Asks the element downstream of `appsrc` for a pool for `caps` (frames of
 * `size` bytes), as a source negotiating its allocation does, or takes a plain
 * video pool when none is offered; configures it for at least `buffers`
 * buffers and activates it. `proposed`, if not NULL, receives the type name of
 * the offered pool (NULL where none was offered; g_free it). NULL where the
 * pool refuses the configuration or its activation. */
GstBufferPool *bench_upstream_pool (GstAppSrc * appsrc, GstCaps * caps,
    guint size, guint buffers, gchar ** proposed);

G_END_DECLS
