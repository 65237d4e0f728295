// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "memorycaps.h"

#include <gst/video/video.h>

#include "cudamemory.h"

/* Formats gstreamer-cuda's allocator holds. It aborts the process when asked
 * for GRAY8, GRAY16_LE, xRGB or xBGR, so they are never asked of it and never
 * appear with the CUDA memory feature. */
#define CUDA_MEMORY_FORMATS "{ I420, YV12, NV12, NV21, Y42B, Y444, YUY2, " \
    "UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, P010_10LE, P016_LE, " \
    "Y444_16LE }"
#define SYSTEM_MEMORY_FORMATS "{ GRAY8, GRAY16_LE, I420, YV12, NV12, NV21, " \
    "Y42B, Y444, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, xRGB, xBGR, " \
    "RGB, BGR, P010_10LE, P016_LE, Y444_16LE }"

GstCaps *
cf::memory_caps (bool cuda)
{
  static GstStaticCaps cuda_caps = GST_STATIC_CAPS
      (GST_VIDEO_CAPS_MAKE_WITH_FEATURES (CF_CUDA_MEMORY_FEATURE,
          CUDA_MEMORY_FORMATS));
  /* Fields one per buffer (interlace-mode=alternate) in host memory only:
   * gstreamer-cuda's allocator lays out whole frames. */
  static GstStaticCaps system_caps = GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE
      (SYSTEM_MEMORY_FORMATS) "; " GST_VIDEO_CAPS_MAKE_WITH_FEATURES
      (GST_CAPS_FEATURE_FORMAT_INTERLACED, SYSTEM_MEMORY_FORMATS)
      ", interlace-mode = (string) alternate");
  return gst_static_caps_get (cuda ? &cuda_caps : &system_caps);
}

GstCaps *
cf::template_caps (void)
{
  GstCaps *caps = gst_caps_new_empty ();
  if (!cf::cuda_memory_unusable_reason ())
    gst_caps_append (caps, cf::memory_caps (true));
  gst_caps_append (caps, cf::memory_caps (false));
  return caps;
}

bool
cf::caps_in_cuda_memory (const GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);
  return features &&
      gst_caps_features_contains (features, CF_CUDA_MEMORY_FEATURE);
}

/* The same frames in one memory type: `caps`' structures with the feature
 * `cuda` names in place of theirs (format:Interlaced kept), kept to the
 * formats that memory type holds. */
static GstCaps *
caps_in_memory (const GstCaps * caps, bool cuda)
{
  GstCaps *moved = gst_caps_copy (caps);
  for (guint i = 0; i < gst_caps_get_size (moved); i++) {
    GstCapsFeatures *features = gst_caps_get_features (moved, i);
    const bool alternate = features && !gst_caps_features_is_any (features) &&
        gst_caps_features_contains (features, GST_CAPS_FEATURE_FORMAT_INTERLACED);
    /* In host memory as GStreamer writes it: format:Interlaced alone. */
    gst_caps_set_features (moved, i, cuda ? gst_caps_features_new
        (CF_CUDA_MEMORY_FEATURE, alternate ?
            GST_CAPS_FEATURE_FORMAT_INTERLACED : nullptr, nullptr) :
        gst_caps_features_new (alternate ? GST_CAPS_FEATURE_FORMAT_INTERLACED :
            GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY, nullptr));
  }
  GstCaps *templ = cf::memory_caps (cuda);
  GstCaps *result = gst_caps_intersect_full (moved, templ,
      GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (templ);
  gst_caps_unref (moved);
  return result;
}

GstCaps *
cf::caps_in_memory_types (GstCaps * caps, GstCaps * filter, bool cuda_offered,
    bool convert)
{
  GstCaps *result = gst_caps_new_empty ();
  if (gst_caps_is_any (caps)) {
    if (cuda_offered)
      gst_caps_append (result, cf::memory_caps (true));
    gst_caps_append (result, cf::memory_caps (false));
  } else {
    for (guint i = 0; i < gst_caps_get_size (caps); i++) {
      GstCaps *one = gst_caps_copy_nth (caps, i);
      const bool in_cuda = cf::caps_in_cuda_memory (one);
      /* Its own memory type first (the least surprise: host frames stay host
       * frames unless a neighbour takes only CUDA memory). Frames in a memory
       * type not offered here cannot come or go at all. */
      for (bool cuda : {in_cuda, !in_cuda}) {
        if (((cuda || in_cuda) && !cuda_offered) || (cuda != in_cuda && !convert))
          break;
        result = gst_caps_merge (result, caps_in_memory (one, cuda));
      }
      gst_caps_unref (one);
    }
  }
  if (filter) {
    GstCaps *filtered = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = filtered;
  }
  return result;
}

GstCaps *
cf::keep_memory_type (GstCaps * caps, GstCaps * othercaps)
{
  const bool cuda = cf::caps_in_cuda_memory (caps);
  for (guint i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (othercaps, i);
    const bool other_cuda = features &&
        gst_caps_features_contains (features, CF_CUDA_MEMORY_FEATURE);
    if (other_cuda == cuda) {
      GstCaps *same_memory = gst_caps_copy_nth (othercaps, i);
      gst_caps_unref (othercaps);
      return same_memory;
    }
  }
  return othercaps;
}

std::string
cf::cuda_memory_needs_device (const gchar * why_on_cpu)
{
  return std::string ("CUDA memory needs the CUDA backend, and this element "
      "runs on the CPU (") + why_on_cpu + "): give it frames in system memory "
      "(video/x-raw), through cudadownload for one";
}

std::string
cf::why_no_cuda_memory (const gchar * why_on_cpu)
{
  /* The build's reason first: it holds whatever the backend. */
  if (const gchar * reason = cf::cuda_memory_unusable_reason ())
    return std::string ("Frames in CUDA memory are not supported: ") + reason +
        "; take them in system memory (video/x-raw)";
  return why_on_cpu ? cf::cuda_memory_needs_device (why_on_cpu) : "";
}

bool
cf::peer_takes_only_cuda_memory (GstPad * pad)
{
  GstCaps *caps = gst_pad_peer_query_caps (pad, nullptr);
  bool only_cuda = !gst_caps_is_empty (caps) && !gst_caps_is_any (caps);
  for (guint i = 0; only_cuda && i < gst_caps_get_size (caps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (caps, i);
    only_cuda = features && gst_caps_features_contains (features,
        CF_CUDA_MEMORY_FEATURE);
  }
  gst_caps_unref (caps);
  return only_cuda;
}

void
cf::explain_refused_cuda_caps (GstElement * element, GstCaps * caps,
    const gchar * why_on_cpu)
{
  static const GQuark warned = g_quark_from_static_string ("cf-refused-cuda");
  GstVideoInfo info;
  if (!cf::caps_in_cuda_memory (caps) ||
      !gst_video_info_from_caps (&info, caps) ||
      g_object_get_qdata (G_OBJECT (element), warned))
    return;
  const std::string why = cf::why_no_cuda_memory (why_on_cpu);
  if (!why.empty ()) {
    g_object_set_qdata (G_OBJECT (element), warned, GINT_TO_POINTER (1));
    GST_ELEMENT_WARNING (element, CORE, NEGOTIATION, ("%s", why.c_str ()),
        ("refused %" GST_PTR_FORMAT, caps));
    return;
  }
  GstCaps *templ = cf::memory_caps (true);
  const bool held = gst_caps_can_intersect (caps, templ);
  gst_caps_unref (templ);
  if (held)
    return;
  g_object_set_qdata (G_OBJECT (element), warned, GINT_TO_POINTER (1));
  GST_ELEMENT_WARNING (element, CORE, NEGOTIATION,
      ("%s frames cannot be in CUDA memory: gstreamer-cuda holds only "
          CUDA_MEMORY_FORMATS "; take them in system memory (video/x-raw)",
          GST_VIDEO_INFO_NAME (&info)), ("refused %" GST_PTR_FORMAT, caps));
}
