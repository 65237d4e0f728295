// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// cudahist's meta describes the samples as counted, and is tagged so that elements
// which change them drop it; nvcodec's cudadownload drops it too (it keeps only metas
// tagged "video" alone), as the docs tell users. A test that reads it past such an
// element relays it there, as an application reads it before: each cudahist's meta
// is noted as its frame leaves, and put back on the buffer of the same PTS that
// reaches a pad downstream, where that one lacks it.
#pragma once

#include <gst/gst.h>

#include <map>
#include <mutex>

namespace cftest {

namespace relay_detail {

struct Relay {
  std::mutex mutex;
  std::map<GstClockTime, GstStructure *> metas;
  ~Relay() {
    for (auto &noted : metas)
      gst_structure_free(noted.second);
  }
};

inline GstPadProbeReturn note(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *relay = static_cast<Relay *>(data);
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, "GstCudaHistMeta")) {
    std::lock_guard<std::mutex> lock(relay->mutex);
    GstStructure *&noted = relay->metas[GST_BUFFER_PTS(buffer)];
    if (noted)
      gst_structure_free(noted);
    noted = gst_structure_copy(gst_custom_meta_get_structure(meta));
  }
  return GST_PAD_PROBE_OK;
}

inline GstPadProbeReturn put_back(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *relay = static_cast<Relay *>(data);
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (gst_buffer_get_custom_meta(buffer, "GstCudaHistMeta"))
    return GST_PAD_PROBE_OK;
  std::lock_guard<std::mutex> lock(relay->mutex);
  auto noted = relay->metas.find(GST_BUFFER_PTS(buffer));
  if (noted == relay->metas.end())
    return GST_PAD_PROBE_OK;
  buffer = gst_buffer_make_writable(buffer);
  GstStructure *fields = gst_custom_meta_get_structure(
      gst_buffer_add_custom_meta(buffer, "GstCudaHistMeta"));
  gst_structure_foreach(
      noted->second,
      [](GQuark field, const GValue *value, gpointer into) -> gboolean {
        gst_structure_id_set_value(static_cast<GstStructure *>(into), field, value);
        return TRUE;
      },
      fields);
  GST_PAD_PROBE_INFO_DATA(info) = buffer;
  return GST_PAD_PROBE_OK;
}

}  // namespace relay_detail

// Relays the meta of every cudahist in `bin` to `pad` (downstream of them). The
// relay lives as long as `bin`.
inline void relay_hist_meta(GstBin *bin, GstPad *pad) {
  auto *relay = new relay_detail::Relay();
  g_object_set_data_full(G_OBJECT(bin), "cftest-hist-meta-relay", relay,
                         [](gpointer data) { delete static_cast<relay_detail::Relay *>(data); });
  GstIterator *elements = gst_bin_iterate_recurse(bin);
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(elements, &item) == GST_ITERATOR_OK) {
    auto *element = GST_ELEMENT(g_value_get_object(&item));
    GstElementFactory *factory = gst_element_get_factory(element);
    if (factory && g_str_equal(GST_OBJECT_NAME(factory), "cudahist")) {
      GstPad *src = gst_element_get_static_pad(element, "src");
      gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, relay_detail::note, relay, nullptr);
      gst_object_unref(src);
    }
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(elements);
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, relay_detail::put_back, relay, nullptr);
}

}  // namespace cftest
