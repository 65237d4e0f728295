// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "memorycaps.h"

#include <gst/video/video.h>

#include "cudamemory.h"
#include "formatlayout.h"

/* The formats of frames in CUDA memory (`cuda`: those gstreamer-cuda's
 * allocator holds) or in system memory (all), as a caps list "{ I420, ... }"
 * in the table's order. */
static std::string
format_list (bool cuda)
{
  std::string list;
  for (const FormatLayout & layout : FormatLayout::all ())
    if (layout.cuda_memory || !cuda)
      list = list + (list.empty ()? "{ " : ", ") +
          gst_video_format_to_string (layout.format);
  return list + " }";
}

/* Caps parsed from `description`, kept for the life of the process as
 * GstStaticCaps are. */
static GstCaps *
kept_caps (gchar * description)
{
  GstCaps *caps = gst_caps_from_string (description);
  g_free (description);
  GST_MINI_OBJECT_FLAG_SET (caps, GST_MINI_OBJECT_FLAG_MAY_BE_LEAKED);
  return caps;
}

GstCaps *
cf::memory_caps (bool cuda)
{
  /* Made once, on first use, from the format table (a function-local static
   * is initialised by one thread while any other waits). */
  static const std::string all = format_list (false);
  static GstCaps *const cuda_caps = kept_caps (g_strdup_printf
      (GST_VIDEO_CAPS_MAKE_WITH_FEATURES (CF_CUDA_MEMORY_FEATURE, "%s"),
          format_list (true).c_str ()));
  /* Fields one per buffer (interlace-mode=alternate) in host memory only:
   * gstreamer-cuda's allocator lays out whole frames. */
  static GstCaps *const system_caps = kept_caps (g_strdup_printf
      (GST_VIDEO_CAPS_MAKE ("%s") "; " GST_VIDEO_CAPS_MAKE_WITH_FEATURES
          (GST_CAPS_FEATURE_FORMAT_INTERLACED, "%s")
          ", interlace-mode = (string) alternate", all.c_str (), all.c_str ()));
  return gst_caps_ref (cuda ? cuda_caps : system_caps);
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
      ("%s frames cannot be in CUDA memory: gstreamer-cuda holds only %s; "
          "take them in system memory (video/x-raw)",
          GST_VIDEO_INFO_NAME (&info), format_list (true).c_str ()),
      ("refused %" GST_PTR_FORMAT, caps));
}
