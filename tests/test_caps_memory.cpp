// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Caps with and without the memory:CUDAMemory feature, on whatever machine runs the
// suite: the pad templates, caps queries on both pads (each element alone, in READY
// and in PAUSED, on every backend), caps transformed both ways through a peer,
// pipelines through each element with backend=auto, and CUDA caps forced on the
// elements. What the elements may offer depends on the build and the machine, found
// once in main():
//   - built without gstreamer-cuda-1.0 (-Dcuda-memory=disabled): system memory only,
//     in the templates too;
//   - built with it, no usable CUDA device (CI: the library installed, no driver):
//     CUDA memory in the templates, never offered in a caps query or transformed
//     caps; the CPU backend filters; CUDA caps forced on an element fail
//     negotiation with an error;
//   - with a usable device: CUDA memory offered first, a filter's transformed caps
//     in the same memory type first then the other, cudahist's in its input's.
// meson runs it against the plugin as built and, in builds with the library, against
// the same sources built without it (tests/meson.build); its argument,
// cuda-memory=yes or cuda-memory=no, says which of the two the loaded plugin is.
#include <gst/video/video.h>

#include <gmodule.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "cuda_test_support.h"
#include "element_checks.h"
#include "plugin_elements.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

// Every element of the plugin (tests/plugin_elements.txt).
const auto &kElements = cftest::kPluginElements;
const char *const kCudaFeature = "memory:CUDAMemory";

// The formats the README lists, and the four gstreamer-cuda's allocator cannot hold.
const std::set<std::string> kAllFormats = {"GRAY8", "GRAY16_LE", "I420", "YV12", "NV12",
    "NV21", "Y42B", "Y444", "YUY2", "UYVY", "RGBA", "BGRA", "RGBx", "BGRx", "ARGB", "ABGR",
    "xRGB", "xBGR", "RGB", "BGR", "P010_10LE", "P016_LE", "Y444_16LE"};
const std::set<std::string> kNeverInCudaMemory = {"GRAY8", "GRAY16_LE", "xRGB", "xBGR"};

// The build and the machine, found in main() before any test runs (and forks).
struct Machine {
  bool built_with_cuda_memory = false;  // the plugin under test has gstreamer-cuda
  bool driver_loads = false;            // libcuda.so.1 loads and counts a device
  bool device_usable = false;           // probe_cuda_device()
};
Machine g_machine;

std::set<std::string> cuda_memory_formats() {
  std::set<std::string> formats;
  for (const std::string &format : kAllFormats)
    if (!kNeverInCudaMemory.count(format))
      formats.insert(format);
  return formats;
}

// Whether an element offers CUDA memory in caps queries: in READY where the driver
// loads (the device is only tried at start), once started where it runs on CUDA;
// never with backend=cpu.
bool offers_cuda(GstState state, const std::string &backend) {
  if (!g_machine.built_with_cuda_memory || backend == "cpu")
    return false;
  return state == GST_STATE_READY ? g_machine.driver_loads : g_machine.device_usable;
}

bool in_cuda_memory(const GstCaps *caps, guint index) {
  return gst_caps_features_contains(gst_caps_get_features(caps, index), kCudaFeature);
}

// "cuda" or "system" for each structure, in order.
std::vector<std::string> memories_of(const GstCaps *caps) {
  std::vector<std::string> memories;
  for (guint i = 0; i < gst_caps_get_size(caps); i++)
    memories.push_back(in_cuda_memory(caps, i) ? "cuda" : "system");
  return memories;
}

template <typename Words>
std::string joined(const Words &words) {
  std::string text = "[";
  for (const std::string &word : words)
    text += (text.size() > 1 ? ", " : "") + word;
  return text + "]";
}

std::string caps_text(const GstCaps *caps) {
  gchar *text = gst_caps_to_string(caps);
  std::string copy = text;
  g_free(text);
  return copy;
}

// The formats of one structure (a single format or a list).
std::set<std::string> formats_of(const GstCaps *caps, guint index) {
  const GValue *value = gst_structure_get_value(gst_caps_get_structure(caps, index), "format");
  fail_unless(value != nullptr, "no format in %s", caps_text(caps).c_str());
  std::set<std::string> formats;
  if (G_VALUE_HOLDS_STRING(value)) {
    formats.insert(g_value_get_string(value));
  } else {
    fail_unless(GST_VALUE_HOLDS_LIST(value), "format of %s", caps_text(caps).c_str());
    for (guint i = 0; i < gst_value_list_get_size(value); i++)
      formats.insert(g_value_get_string(gst_value_list_get_value(value, i)));
  }
  return formats;
}

// The memory types of `caps` in order, each named once: "cuda" first, then
// "system" means every CUDA structure comes before every system one.
std::vector<std::string> memory_order(const GstCaps *caps) {
  std::vector<std::string> order;
  for (const std::string &memory : memories_of(caps))
    if (order.empty() || order.back() != memory)
      order.push_back(memory);
  return order;
}

// `caps` is video/x-raw in the memory types `memories` names, in that order, and
// in each every format that memory type holds. A template has one structure per
// memory type; a caps query may say a memory type in more than one structure
// (a union: what the other pad's template structures each transform to).
void expect_whole_memory_types(const GstCaps *caps, const std::vector<std::string> &memories,
                               const std::string &what, bool one_structure_each = false) {
  const std::vector<std::string> got_memories =
      one_structure_each ? memories_of(caps) : memory_order(caps);
  fail_unless(got_memories == memories, "%s: memory types %s, expected %s (%s)", what.c_str(),
              joined(memories_of(caps)).c_str(), joined(memories).c_str(),
              caps_text(caps).c_str());
  for (const std::string &memory : memories) {
    std::set<std::string> got;
    for (guint i = 0; i < gst_caps_get_size(caps); i++) {
      fail_unless(gst_structure_has_name(gst_caps_get_structure(caps, i), "video/x-raw"),
                  "%s: %s", what.c_str(), caps_text(caps).c_str());
      if (in_cuda_memory(caps, i) == (memory == "cuda")) {
        const std::set<std::string> formats = formats_of(caps, i);
        got.insert(formats.begin(), formats.end());
      }
    }
    const std::set<std::string> want = memory == "cuda" ? cuda_memory_formats() : kAllFormats;
    fail_unless(got == want, "%s: %s formats %s, expected %s", what.c_str(), memory.c_str(),
                joined(got).c_str(), joined(want).c_str());
  }
}

GstElement *make_element(const std::string &element, const std::string &backend) {
  GstElement *made = gst_element_factory_make(element.c_str(), nullptr);
  fail_unless(made != nullptr, "%s not found: is GST_PLUGIN_PATH set?", element.c_str());
  gst_util_set_object_arg(G_OBJECT(made), "backend", backend.c_str());
  return made;
}

// Brings `element` (with its own bus) to `state`; PAUSED starts it, which picks the
// backend.
void set_state(GstElement *element, GstBus *bus, GstState state) {
  gst_element_set_bus(element, bus);
  fail_unless(gst_element_set_state(element, state) != GST_STATE_CHANGE_FAILURE,
              "%s could not reach %s", GST_ELEMENT_NAME(element),
              gst_element_state_get_name(state));
}

// The text (message and debug) of an error or warning message.
std::string text_of(GstMessage *message) {
  GError *error = nullptr;
  gchar *debug = nullptr;
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR)
    gst_message_parse_error(message, &error, &debug);
  else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_INFO)
    gst_message_parse_info(message, &error, &debug);
  else
    gst_message_parse_warning(message, &error, &debug);
  std::string text = std::string(error->message) + " (" + (debug ? debug : "") + ")";
  g_error_free(error);
  g_free(debug);
  return text;
}

// The texts of the errors, warnings or info messages on `bus`.
std::vector<std::string> texts_on(GstBus *bus, GstMessageType type) {
  std::vector<std::string> texts;
  while (GstMessage *message = gst_bus_pop_filtered(bus, type)) {
    texts.push_back(text_of(message));
    gst_message_unref(message);
  }
  return texts;
}

std::string all(const std::vector<std::string> &texts) {
  std::string text;
  for (const std::string &t : texts)
    text += "\n  " + t;
  return text;
}

// The states and backends an element is queried in (backend=cuda does not start
// without a device).
const struct {
  GstState state;
  const char *backend;
} kStates[] = {
    {GST_STATE_READY, "auto"},  {GST_STATE_READY, "cuda"},  {GST_STATE_READY, "cpu"},
    {GST_STATE_PAUSED, "auto"}, {GST_STATE_PAUSED, "cpu"},
};

std::string describe(const std::string &element, GstState state, const std::string &backend) {
  return element + " backend=" + backend + " in " + gst_element_state_get_name(state);
}

// ---- the pad templates ----

// Both templates of each element: CUDA memory first (every format gstreamer-cuda
// holds, none of the four it cannot), then system memory with every format; system
// memory only without the library.
GST_START_TEST(test_pad_templates) {
  // One structure per memory type, then host memory's fields one per buffer
  // (format:Interlaced, interlace-mode=alternate).
  const std::vector<std::string> memories = g_machine.built_with_cuda_memory
      ? std::vector<std::string>{"cuda", "system", "system"}
      : std::vector<std::string>{"system", "system"};
  for (const char *element : kElements) {
    GstElementFactory *factory = gst_element_factory_find(element);
    fail_unless(factory != nullptr, "%s not found: is GST_PLUGIN_PATH set?", element);
    int templates = 0;
    for (const GList *l = gst_element_factory_get_static_pad_templates(factory); l;
         l = l->next) {
      auto *templ = static_cast<GstStaticPadTemplate *>(l->data);
      GstCaps *caps = gst_static_pad_template_get_caps(templ);
      expect_whole_memory_types(
          caps, memories, std::string(element) + " " + templ->name_template + " template", true);
      const guint fields = gst_caps_get_size(caps) - 1;
      fail_unless(gst_caps_features_contains(gst_caps_get_features(caps, fields),
                                             GST_CAPS_FEATURE_FORMAT_INTERLACED) &&
                      g_strcmp0(gst_structure_get_string(gst_caps_get_structure(caps, fields),
                                                         "interlace-mode"),
                                "alternate") == 0,
                  "%s: no alternate fields last (%s)", element, caps_text(caps).c_str());
      for (guint i = 0; i < gst_caps_get_size(caps); i++) {
        if (!in_cuda_memory(caps, i))
          continue;
        for (const std::string &format : formats_of(caps, i))
          fail_if(kNeverInCudaMemory.count(format), "%s: %s in CUDA memory", element,
                  format.c_str());
      }
      gst_caps_unref(caps);
      templates++;
    }
    fail_unless_equals_int(templates, 2);
    gst_object_unref(factory);
  }
}
GST_END_TEST;

// ---- caps queries of an element alone ----

// A caps query on either pad of an element with nothing linked: what the other
// pad's template transforms to, CUDA memory first where it is offered, system
// memory only where it is not. Started with backend=auto and no usable device, the
// element runs on the CPU after one warning that says so.
GST_START_TEST(test_query_caps_unlinked) {
  for (const char *element : kElements) {
    for (const auto &s : kStates) {
      const std::string what = describe(element, s.state, s.backend);
      GstElement *made = make_element(element, s.backend);
      GstBus *bus = gst_bus_new();
      set_state(made, bus, s.state);
      const std::vector<std::string> memories = offers_cuda(s.state, s.backend)
          ? std::vector<std::string>{"cuda", "system"}
          : std::vector<std::string>{"system"};
      for (const char *pad_name : {"sink", "src"}) {
        GstPad *pad = gst_element_get_static_pad(made, pad_name);
        GstCaps *caps = gst_pad_query_caps(pad, nullptr);
        expect_whole_memory_types(caps, memories, what + ", " + pad_name + " pad");
        gst_caps_unref(caps);
        gst_object_unref(pad);
      }
      if (s.state == GST_STATE_PAUSED) {
        gint active;
        g_object_get(made, "active-backend", &active, nullptr);
        const bool auto_backend = g_str_equal(s.backend, "auto");
        fail_unless_equals_int(active, auto_backend && g_machine.device_usable ? 1 : 2);
        // Once per process a warning, then per element an info message.
        const std::vector<std::string> notices =
            texts_on(bus, GstMessageType(GST_MESSAGE_WARNING | GST_MESSAGE_INFO));
        const bool told = auto_backend && !g_machine.device_usable;
        fail_unless_equals_int(notices.size(), told ? 1 : 0);
        if (told)
          fail_unless(notices[0].find("on the CPU") != std::string::npos, "%s",
                      notices[0].c_str());
      }
      cftest::stop_and_free(made, bus);
    }
  }
}
GST_END_TEST;

// ---- caps transformed through a peer ----

// A pad outside the element that answers caps queries with fixed caps: the peer
// whose caps the element transforms.
gboolean answer_with_peer_caps(GstPad *pad, GstObject *parent, GstQuery *query) {
  if (GST_QUERY_TYPE(query) != GST_QUERY_CAPS)
    return gst_pad_query_default(pad, parent, query);
  auto *peer_caps = static_cast<GstCaps *>(g_object_get_data(G_OBJECT(pad), "cf-peer-caps"));
  GstCaps *filter = nullptr;
  gst_query_parse_caps(query, &filter);
  GstCaps *caps = filter ? gst_caps_intersect_full(filter, peer_caps, GST_CAPS_INTERSECT_FIRST)
                         : gst_caps_ref(peer_caps);
  gst_query_set_caps_result(query, caps);
  gst_caps_unref(caps);
  return TRUE;
}

// Links a peer with `caps` to `pad`; free_peer unlinks and frees it.
GstPad *link_peer(GstPad *pad, const std::string &caps) {
  const bool sink = GST_PAD_IS_SINK(pad);
  GstPad *peer = gst_pad_new("peer", sink ? GST_PAD_SRC : GST_PAD_SINK);
  g_object_set_data_full(G_OBJECT(peer), "cf-peer-caps", gst_caps_from_string(caps.c_str()),
                         reinterpret_cast<GDestroyNotify>(gst_caps_unref));
  gst_pad_set_query_function(peer, answer_with_peer_caps);
  // Linked whatever the caps: what the element makes of them is the point.
  fail_unless_equals_int(sink ? gst_pad_link_full(peer, pad, GST_PAD_LINK_CHECK_NOTHING)
                              : gst_pad_link_full(pad, peer, GST_PAD_LINK_CHECK_NOTHING),
                         GST_PAD_LINK_OK);
  return peer;
}

void free_peer(GstPad *pad, GstPad *peer) {
  if (GST_PAD_IS_SINK(pad))
    gst_pad_unlink(peer, pad);
  else
    gst_pad_unlink(pad, peer);
  gst_object_unref(peer);
}

struct PeerCase {
  const char *memory;  // "system" or "cuda"
  const char *format;
};

const PeerCase kPeerCases[] = {
    {"system", "NV12"},  {"cuda", "NV12"},  {"system", "P010_10LE"}, {"cuda", "Y444_16LE"},
    {"cuda", "RGBA"},    {"system", "GRAY8"}, {"cuda", "GRAY8"},     {"system", "xRGB"},
};

std::string peer_caps_string(const PeerCase &c) {
  return std::string("video/x-raw") +
      (g_str_equal(c.memory, "cuda") ? "(memory:CUDAMemory)" : "") + ",format=" + c.format +
      ",width=320,height=240,framerate=25/1,pixel-aspect-ratio=1/1,interlace-mode=progressive";
}

// What an element whose offer is `offered` makes of a peer's caps: the same frames,
// in the peer's memory type first, then (a filter) in the other; CUDA memory only
// where offered and where the format can be in it, and nothing at all for frames in
// CUDA memory where it is not offered.
std::vector<std::string> expected_memories(const std::string &element, const PeerCase &c,
                                           bool offered) {
  const bool peer_cuda = g_str_equal(c.memory, "cuda");
  const bool cuda_format = !kNeverInCudaMemory.count(c.format);
  // The peer's caps must first pass the element's template.
  if (peer_cuda && !(g_machine.built_with_cuda_memory && cuda_format && offered))
    return {};
  std::vector<std::string> memories;
  memories.push_back(c.memory);
  if (!cftest::works_in_place(element)) {
    if (peer_cuda)
      memories.push_back("system");
    else if (offered && cuda_format)
      memories.push_back("cuda");
  }
  return memories;
}

// Each structure of `caps` describes the peer's frames: format, size and rate kept.
void expect_same_frames(const GstCaps *caps, const PeerCase &c, const std::string &what) {
  for (guint i = 0; i < gst_caps_get_size(caps); i++) {
    const GstStructure *s = gst_caps_get_structure(caps, i);
    const gchar *format = gst_structure_get_string(s, "format");
    gint width = 0, height = 0, fps_n = 0, fps_d = 0;
    fail_unless(format && g_str_equal(format, c.format) &&
                    gst_structure_get_int(s, "width", &width) && width == 320 &&
                    gst_structure_get_int(s, "height", &height) && height == 240 &&
                    gst_structure_get_fraction(s, "framerate", &fps_n, &fps_d) &&
                    fps_n == 25 && fps_d == 1,
                "%s: structure %u is not the peer's frames: %s", what.c_str(), i,
                caps_text(caps).c_str());
  }
}

// A caps query on the src pad with a peer on the sink pad, and on the sink pad with
// a peer on the src pad: the peer's caps transformed in each direction. The same
// query filtered to system memory keeps to it.
GST_START_TEST(test_transform_caps_through_peer) {
  for (const char *element : kElements) {
    for (const auto &s : kStates) {
      GstElement *made = make_element(element, s.backend);
      GstBus *bus = gst_bus_new();
      set_state(made, bus, s.state);
      const bool offered = offers_cuda(s.state, s.backend);
      for (const char *peer_side : {"sink", "src"}) {
        GstPad *peer_pad = gst_element_get_static_pad(made, peer_side);
        GstPad *queried = gst_element_get_static_pad(
            made, g_str_equal(peer_side, "sink") ? "src" : "sink");
        for (const PeerCase &c : kPeerCases) {
          const std::string peer_caps = peer_caps_string(c);
          const std::string what = describe(element, s.state, s.backend) + ", " +
              GST_PAD_NAME(queried) + " pad, peer " + peer_caps;
          GstPad *peer = link_peer(peer_pad, peer_caps);
          GstCaps *caps = gst_pad_query_caps(queried, nullptr);
          const std::vector<std::string> want = expected_memories(element, c, offered);
          fail_unless(memories_of(caps) == want, "%s: memory types %s, expected %s (%s)",
                      what.c_str(), joined(memories_of(caps)).c_str(), joined(want).c_str(),
                      caps_text(caps).c_str());
          expect_same_frames(caps, c, what);
          gst_caps_unref(caps);

          GstCaps *system_only = gst_caps_from_string("video/x-raw");
          caps = gst_pad_query_caps(queried, system_only);
          // The filter goes to the peer transformed: a peer in CUDA memory answers
          // it only where the element offers CUDA memory.
          const bool system_wanted = std::count(want.begin(), want.end(), "system") > 0 &&
              (g_str_equal(c.memory, "system") || offered);
          fail_unless(memories_of(caps) ==
                          (system_wanted ? std::vector<std::string>{"system"}
                                         : std::vector<std::string>{}),
                      "%s, filter video/x-raw: %s", what.c_str(), caps_text(caps).c_str());
          expect_same_frames(caps, c, what + ", filter video/x-raw");
          gst_caps_unref(caps);
          gst_caps_unref(system_only);
          free_peer(peer_pad, peer);
        }
        gst_object_unref(queried);
        gst_object_unref(peer_pad);
      }
      cftest::stop_and_free(made, bus);
    }
  }
}
GST_END_TEST;

// ---- pipelines ----

struct Run {
  int frames = 0;
  int cuda_frames = 0;  // buffers of CUDA memory reaching the sink
  std::vector<std::string> errors;
  // Warnings and info messages: a CPU fallback warns once per process, then tells
  // each element at info level.
  std::vector<std::string> notices;
  gint active_backend = 0;  // at EOS
  std::string output_caps;  // at EOS
};

void count_frame(GstElement *, GstBuffer *buffer, GstPad *, gpointer data) {
  auto *run = static_cast<Run *>(data);
  run->frames++;
  if (gst_buffer_n_memory(buffer) > 0 &&
      gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), "gst.cuda.memory"))
    run->cuda_frames++;
}

// Pushes 3 grey frames of its caps into the appsrc, then EOS.
void push_frames(GstElement *src) {
  GstCaps *caps = nullptr;
  g_object_get(src, "caps", &caps, nullptr);
  GstVideoInfo info;
  fail_unless(gst_video_info_from_caps(&info, caps));
  gst_caps_unref(caps);
  GstFlowReturn ret;
  for (int i = 0; i < 3; i++) {
    GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
    gst_buffer_memset(buffer, 0, 0x80, GST_VIDEO_INFO_SIZE(&info));
    GST_BUFFER_PTS(buffer) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    g_signal_emit_by_name(src, "push-buffer", buffer, &ret);
    gst_buffer_unref(buffer);
  }
  g_signal_emit_by_name(src, "end-of-stream", &ret);
}

// Runs `line` (an element named "e", a fakesink named "sink" and, if there is one,
// an appsrc named "src" that gets 3 frames) to EOS or an error. With `link_e_to`,
// "e" is linked to the element of that name without a look at caps, so that what
// they make of each other shows in negotiation, not at link time.
Run run_pipeline(const std::string &line, const char *link_e_to = nullptr) {
  Run run;
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(line.c_str(), &error);
  fail_unless(pipeline != nullptr && error == nullptr, "%s: %s", line.c_str(),
              error ? error->message : "");
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstElement *element = gst_bin_get_by_name(GST_BIN(pipeline), "e");
  if (link_e_to) {
    GstElement *next = gst_bin_get_by_name(GST_BIN(pipeline), link_e_to);
    fail_unless(gst_element_link_pads_full(element, "src", next, "sink",
                                           GST_PAD_LINK_CHECK_NOTHING));
    gst_object_unref(next);
  }
  g_object_set(sink, "signal-handoffs", TRUE, nullptr);
  g_signal_connect(sink, "handoff", G_CALLBACK(count_frame), &run);
  GstBus *bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  if (GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src")) {
    push_frames(src);
    gst_object_unref(src);
  }
  // Every message is read (a filtered pop would drop the warnings).
  const gint64 deadline = g_get_monotonic_time() + 60 * G_USEC_PER_SEC;
  bool ended = false;
  while (!ended) {
    const gint64 left = deadline - g_get_monotonic_time();
    fail_unless(left > 0, "%s: neither EOS nor an error in 60 s", line.c_str());
    GstMessage *message = gst_bus_timed_pop(bus, left * GST_USECOND);
    if (!message)
      continue;
    switch (GST_MESSAGE_TYPE(message)) {
      case GST_MESSAGE_ERROR:
        run.errors.push_back(text_of(message));
        ended = true;
        break;
      case GST_MESSAGE_WARNING:
      case GST_MESSAGE_INFO:
        run.notices.push_back(text_of(message));
        break;
      case GST_MESSAGE_EOS: {
        ended = true;
        g_object_get(element, "active-backend", &run.active_backend, nullptr);
        GstPad *pad = gst_element_get_static_pad(sink, "sink");
        if (GstCaps *caps = gst_pad_get_current_caps(pad)) {
          run.output_caps = caps_text(caps);
          gst_caps_unref(caps);
        }
        gst_object_unref(pad);
        break;
      }
      default:
        break;
    }
    gst_message_unref(message);
  }
  // Those posted meanwhile, read before NULL, where a pipeline's bus drops them.
  for (const std::string &text : texts_on(bus, GST_MESSAGE_ERROR))
    run.errors.push_back(text);
  for (const std::string &text :
       texts_on(bus, GstMessageType(GST_MESSAGE_WARNING | GST_MESSAGE_INFO)))
    run.notices.push_back(text);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(element);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return run;
}

// videotestsrc through each element with backend=auto: frames out in system memory
// and no error; without a usable device on the CPU, after one warning that says so.
GST_START_TEST(test_auto_backend_pipelines) {
  for (const char *element : kElements) {
    for (const char *format : {"NV12", "GRAY8", "P010_10LE", "RGBA"}) {
      const std::string line = std::string("videotestsrc num-buffers=5 ! video/x-raw,format=") +
          format + ",width=64,height=48 ! " + element +
          " name=e backend=auto ! fakesink name=sink";
      const Run run = run_pipeline(line);
      fail_unless(run.errors.empty(), "%s: errors:%s", line.c_str(), all(run.errors).c_str());
      fail_unless_equals_int(run.frames, 5);
      fail_unless_equals_int(run.cuda_frames, 0);
      fail_unless(g_str_has_prefix(run.output_caps.c_str(), "video/x-raw,"),
                  "%s: output caps %s", line.c_str(), run.output_caps.c_str());
      fail_unless_equals_int(run.active_backend, g_machine.device_usable ? 1 : 2);
      if (g_machine.device_usable) {
        fail_unless(run.notices.empty(), "%s: warnings:%s", line.c_str(),
                    all(run.notices).c_str());
      } else {
        fail_unless_equals_int(run.notices.size(), 1);
        fail_unless(run.notices[0].find("on the CPU") != std::string::npos, "%s",
                    run.notices[0].c_str());
      }
    }
  }
}
GST_END_TEST;

// CUDA caps forced on an element: from an appsrc into it, and by a caps filter after
// it. Without CUDA memory on offer, negotiation fails with an error (no frames, no
// crash). With a usable device a filter gives CUDA memory when the caps filter asks
// for it, while cudahist, whose frames keep their memory type, still cannot; the
// appsrc's host buffers under CUDA caps are an error there too.
GST_START_TEST(test_forced_cuda_caps) {
  const bool offered = offers_cuda(GST_STATE_PAUSED, "auto");
  for (const char *element : kElements) {
    const std::string into = std::string(
        "appsrc name=src format=time caps=\"video/x-raw(memory:CUDAMemory),format=NV12,"
        "width=64,height=48,framerate=30/1\" ! ") + element + " name=e ! fakesink name=sink";
    Run run = run_pipeline(into);
    fail_if(run.errors.empty(), "%s: no error", into.c_str());
    fail_unless_equals_int(run.frames, 0);
    // Refused in accept-caps (upstream's flow error says not-negotiated), or, by a
    // filter built with the library, in set_caps with an error of its own first.
    const std::string errors = all(run.errors);
    if (!offered)
      fail_unless(errors.find("not-negotiated") != std::string::npos ||
                      errors.find("CUDA memory needs the CUDA backend") != std::string::npos,
                  "%s:%s", into.c_str(), errors.c_str());

    const std::string out_of = std::string(
        "videotestsrc num-buffers=3 ! video/x-raw,format=NV12,width=64,height=48 ! ") +
        element + " name=e  capsfilter name=cf caps=video/x-raw(memory:CUDAMemory) ! "
        "fakesink name=sink";
    run = run_pipeline(out_of, "cf");
    if (offered && !cftest::works_in_place(element)) {
      fail_unless(run.errors.empty(), "%s:%s", out_of.c_str(), all(run.errors).c_str());
      fail_unless_equals_int(run.frames, 3);
      fail_unless_equals_int(run.cuda_frames, 3);
    } else {
      // Where the element takes no CUDA memory it says why first
      // (test_cuda_caps_on_cpu).
      fail_if(run.errors.empty(), "%s: no error", out_of.c_str());
      const std::string errors = all(run.errors);
      fail_unless(errors.find("not-negotiated") != std::string::npos ||
                      errors.find("CUDA memory needs the CUDA backend") != std::string::npos ||
                      errors.find("Frames in CUDA memory are not supported") !=
                          std::string::npos,
                  "%s:%s", out_of.c_str(), errors.c_str());
      fail_unless_equals_int(run.frames, 0);
    }
  }
}
GST_END_TEST;

// CUDA caps forced on an element running on the CPU (backend=cpu), from upstream
// and from downstream: the element itself says why, naming the CPU backend and
// the reason (or, built without gstreamer-cuda, that), besides upstream's
// not-negotiated.
GST_START_TEST(test_cuda_caps_on_cpu) {
  const char *const said = g_machine.built_with_cuda_memory
      ? "runs on the CPU (backend=cpu)" : "Frames in CUDA memory are not supported";
  for (const char *element : kElements) {
    const std::string into = std::string(
        "appsrc name=src format=time caps=\"video/x-raw(memory:CUDAMemory),format=NV12,"
        "width=64,height=48,framerate=30/1\" ! ") + element + " name=e backend=cpu ! "
        "fakesink name=sink";
    Run run = run_pipeline(into);
    fail_unless_equals_int(run.frames, 0);
    fail_unless((all(run.errors) + all(run.notices)).find(said) != std::string::npos,
                "%s: errors%s, notices%s", into.c_str(), all(run.errors).c_str(),
                all(run.notices).c_str());
    const std::string out_of = std::string(
        "videotestsrc num-buffers=3 ! video/x-raw,format=NV12,width=64,height=48 ! ") +
        element + " name=e backend=cpu capsfilter name=cf "
        "caps=video/x-raw(memory:CUDAMemory) ! fakesink name=sink";
    run = run_pipeline(out_of, "cf");
    fail_unless_equals_int(run.frames, 0);
    fail_unless(all(run.errors).find(said) != std::string::npos, "%s: errors%s",
                out_of.c_str(), all(run.errors).c_str());
  }
}
GST_END_TEST;

// Accept-caps of CUDA caps on the sink pad of a started element: NV12 where CUDA
// memory is offered, GRAY8 (which gstreamer-cuda cannot hold) nowhere. (Where CUDA
// memory is not offered, a filter built with the library still accepts CUDA NV12,
// which its caps query leaves out, and refuses it in set_caps with an error:
// test_forced_cuda_caps checks that error, not the answer.)
GST_START_TEST(test_accept_cuda_caps) {
  for (const char *element : kElements) {
    GstElement *made = make_element(element, "auto");
    GstBus *bus = gst_bus_new();
    set_state(made, bus, GST_STATE_PAUSED);
    GstPad *sink = gst_element_get_static_pad(made, "sink");
    for (const char *format : {"NV12", "GRAY8"}) {
      GstCaps *caps = gst_caps_from_string((std::string("video/x-raw(memory:CUDAMemory),format=") +
                                            format + ",width=64,height=48,framerate=30/1")
                                               .c_str());
      const bool offered = offers_cuda(GST_STATE_PAUSED, "auto");
      if (g_str_equal(format, "GRAY8") || offered)
        fail_unless_equals_int(gst_pad_query_accept_caps(sink, caps),
                               offered && g_str_equal(format, "NV12"));
      gst_caps_unref(caps);
    }
    gst_object_unref(sink);
    cftest::stop_and_free(made, bus);
  }
}
GST_END_TEST;

}  // namespace

int main(int argc, char **argv) {
  gst_check_init(&argc, &argv);
  // gst_check_init() leaves arguments that are not options.
  const std::string built = argc == 2 ? argv[1] : "";
  if (built != "cuda-memory=yes" && built != "cuda-memory=no") {
    std::fprintf(stderr, "usage: %s cuda-memory=yes|no (whether the plugin under test was "
                         "built with gstreamer-cuda-1.0; meson test says)\n", argv[0]);
    return 2;
  }
  g_machine.built_with_cuda_memory = built == "cuda-memory=yes";
  // What gstreamer-cuda's loader opens: without it no element offers CUDA memory.
  // It must also start and see a device: Debian's CUDA toolkit brings libcuda.so.1
  // without the kernel driver, where cuInit fails.
  if (GModule *driver = g_module_open("libcuda.so.1", G_MODULE_BIND_LAZY)) {
    using CuInit = int (*)(unsigned int);
    using CuDeviceGetCount = int (*)(int *);
    gpointer init = nullptr, count_devices = nullptr;
    int count = 0;
    g_machine.driver_loads = g_module_symbol(driver, "cuInit", &init) &&
        g_module_symbol(driver, "cuDeviceGetCount", &count_devices) &&
        reinterpret_cast<CuInit>(init)(0) == 0 &&
        reinterpret_cast<CuDeviceGetCount>(count_devices)(&count) == 0 && count > 0;
    g_module_close(driver);
  }
  const cudaError_t err = cftest::probe_cuda_device();
  g_machine.device_usable = err == cudaSuccess;
  std::printf("caps_memory: plugin built %s gstreamer-cuda-1.0; CUDA driver %s; %s%s%s\n",
              g_machine.built_with_cuda_memory ? "with" : "without",
              g_machine.driver_loads ? "loads" : "missing",
              g_machine.device_usable ? "a usable CUDA device" : "no usable CUDA device (",
              g_machine.device_usable ? "" : cftest::unusable_device_cause(err).c_str(),
              g_machine.device_usable ? "" : ")");
  std::fflush(stdout);
  // CUDA cannot be used in a child forked after the probe initialised it.
  if (g_machine.device_usable)
    g_setenv("CK_FORK", "no", TRUE);

  Suite *suite = suite_create("caps_memory");
  TCase *tc = tcase_create("caps");
  tcase_set_timeout(tc, 300);
  suite_add_tcase(suite, tc);
  tcase_add_test(tc, test_pad_templates);
  tcase_add_test(tc, test_query_caps_unlinked);
  tcase_add_test(tc, test_transform_caps_through_peer);
  tcase_add_test(tc, test_auto_backend_pipelines);
  tcase_add_test(tc, test_forced_cuda_caps);
  tcase_add_test(tc, test_cuda_caps_on_cpu);
  tcase_add_test(tc, test_accept_cuda_caps);
  return gst_check_run_suite(suite, "caps_memory", __FILE__);
}
