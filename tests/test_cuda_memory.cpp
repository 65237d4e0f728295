// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Frames in CUDA memory (gpu suite): each element with its input and its output in
// system or CUDA memory, all four ways, gives byte for byte what the CPU backend
// gives for the same frames. CUDA memory comes from nvcodec's cudaupload (or
// nvh264dec) and goes back through cudadownload, so every pipeline also checks that
// the elements share one CUDA context with nvcodec's. Sizes include 1366x768, where
// GstCudaMemory's planes are pitched unlike GstVideoInfo's defaults. Then: two of
// our elements in a row hand each other CUDA memory; two pipelines in contexts of
// their own on one device; caps in CUDA memory of a format
// gstreamer-cuda cannot hold are refused with a clear message; frames in = frames
// out in CUDA memory with frames in flight, across EOS, a flush, a caps change and
// state cycles; the memory type changing mid-stream at one element; frames that
// NVDEC decoded, filtered where they lie. Run with the argument two-devices (hosts
// with two GPUs): each element on the second device, and frames of one device
// refused with a clear error by an element held to the other, and chains whose
// first CUDA element is on the second device followed there by every element of
// ours left at cuda-device-id=-1. Built against
// GStreamer 1.24+, a filter's frames in CUDA memory leave before their work is
// done, ordered on the memory's stream; against 1.26+, a context that prefers
// stream-ordered allocation gets it in our pools.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <glib/gstdio.h>

#include <dlfcn.h>

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#ifdef CF_HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudastream.h>
#endif
#if GST_CHECK_VERSION(1, 26, 0)
#include <cuda.h>
#endif

#include <atomic>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "cuda_test_support.h"
#include "element_checks.h"
#include "format_table.h"
#include "hist_meta_relay.h"
#include "plugin_elements.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

constexpr int kFrames = 4;
const char *const kCudaCaps = "video/x-raw(memory:CUDAMemory)";
// From the end of a stream, the longest wait for the next sample.
constexpr gint64 kSampleTimeout = 30 * G_TIME_SPAN_SECOND;

// ---- Pipelines ----

// Buffers that crossed a pad, by where their memory is.
struct MemoryCount {
  std::atomic<int> cuda{0}, host{0};
};

struct Output {
  std::vector<GstSample *> samples;
  std::string error;  // the first error on the bus
  // Buffers entering and leaving the element named "probed", if there is one.
  MemoryCount in, out;

  Output() = default;
  Output(const Output &) = delete;
  Output &operator=(const Output &) = delete;
  ~Output() { clear(); }

  void clear() {
    for (GstSample *sample : samples)
      gst_sample_unref(sample);
    samples.clear();
    error.clear();
    in.cuda = in.host = out.cuda = out.host = 0;
  }
};

GstPadProbeReturn count_memory(GstPad *, GstPadProbeInfo *info, gpointer data) {
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  auto *count = static_cast<MemoryCount *>(data);
  if (gst_buffer_n_memory(buffer) > 0 &&
      gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), "gst.cuda.memory"))
    ++count->cuda;
  else
    ++count->host;
  return GST_PAD_PROBE_OK;
}

void expect_memory(const MemoryCount &count, int cuda, int host, const std::string &what) {
  fail_unless(count.cuda == cuda && count.host == host,
              "%s: %d buffers in CUDA memory and %d in host memory, not %d and %d", what.c_str(),
              count.cuda.load(), count.host.load(), cuda, host);
}

// Frames of one format and size in a row.
struct Stretch {
  const char *format;
  int width, height;
  int frames;
};

GstCaps *host_caps(const Stretch &stretch) {
  const GstVideoInfo info = cftest::video_info(stretch.format, stretch.width, stretch.height);
  return gst_video_info_to_caps(&info);
}

// Frame `index` of a stream: random bytes of its own, 30 frames a second.
// Detections for regions=meta (the other configurations ignore them) on frame `index`:
// three faces that move from frame to frame, reaching out of the frame at times, and a
// car.
void add_detections(GstBuffer *buffer, guint width, guint height, int index) {
  for (guint k = 0; k < 3; k++)
    gst_buffer_add_video_region_of_interest_meta(
        buffer, "face", (index * 37 + k * width / 3) % width, k * height / 3 + index % 7,
        width / 5 + k, height / 6 + 2 * k);
  gst_buffer_add_video_region_of_interest_meta(buffer, "car", width / 2, height / 2, width / 4,
                                               height / 4);
}

// cudaupload keeps no region-of-interest meta (nvcodec copies metas of the video tag
// alone): frames reaching the element under test without them get their detections
// again, as a detector working on CUDA memory would attach them.
GstPadProbeReturn restore_detections(GstPad *pad, GstPadProbeInfo *info, gpointer) {
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (gst_buffer_get_video_region_of_interest_meta(buffer))
    return GST_PAD_PROBE_OK;
  GstCaps *caps = gst_pad_get_current_caps(pad);
  GstVideoInfo video;
  const bool known = caps && gst_video_info_from_caps(&video, caps);
  if (caps)
    gst_caps_unref(caps);
  if (!known)
    return GST_PAD_PROBE_OK;
  buffer = gst_buffer_make_writable(buffer);
  add_detections(buffer, GST_VIDEO_INFO_WIDTH(&video), GST_VIDEO_INFO_HEIGHT(&video),
                 int(GST_BUFFER_PTS(buffer) / cftest::frame_pts(1)));
  GST_PAD_PROBE_INFO_DATA(info) = buffer;
  return GST_PAD_PROBE_OK;
}

GstBuffer *host_frame(const Stretch &stretch, uint32_t seed, int index) {
  const GstVideoInfo info = cftest::video_info(stretch.format, stretch.width, stretch.height);
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  cftest::fill_random_bytes(buffer, seed + index);
  add_detections(buffer, stretch.width, stretch.height, index);
  GST_BUFFER_PTS(buffer) = cftest::frame_pts(index);
  GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
  return buffer;
}

// An appsrc (seekable: a flushing seek reaches it) and an appsink around `middle`.
std::string app_line(const std::string &middle, bool seekable = false) {
  return std::string("appsrc name=src format=time") + (seekable ? " stream-type=seekable" : "") +
         " ! " + middle + " ! appsink name=sink sync=false";
}

// A parsed pipeline: fed through an appsrc named "src" and drained by an appsink named
// "sink" where it has them, its samples and first error in `out`, and the memory of
// the buffers that cross the element named "probed", if any, counted there.
class Pipeline {
 public:
  Pipeline(const std::string &description, Output &out) : out_(out), what_(description) {
    GError *error = nullptr;
    pipeline_ = gst_parse_launch(description.c_str(), &error);
    fail_unless(pipeline_ != nullptr && error == nullptr, "%s: %s", description.c_str(),
                error ? error->message : "");
    bus_ = gst_element_get_bus(pipeline_);
    src_ = gst_bin_get_by_name(GST_BIN(pipeline_), "src");
    sink_ = gst_bin_get_by_name(GST_BIN(pipeline_), "sink");
    if (sink_) {
      GstPad *sinkpad = gst_element_get_static_pad(sink_, "sink");
      cftest::relay_hist_meta(GST_BIN(pipeline_), sinkpad);
      gst_object_unref(sinkpad);
    }
    if (src_) {
      // A flushing seek reaches a seekable appsrc, which must agree to it; it drops
      // only frames still queued in it, and the tests seek with none there.
      static GstAppSrcCallbacks callbacks = {};
      callbacks.seek_data = [](GstAppSrc *, guint64, gpointer) -> gboolean { return TRUE; };
      gst_app_src_set_callbacks(GST_APP_SRC(src_), &callbacks, nullptr, nullptr);
    }
    if (GstElement *probed = gst_bin_get_by_name(GST_BIN(pipeline_), "probed")) {
      GstPad *sinkpad = gst_element_get_static_pad(probed, "sink");
      gst_pad_add_probe(sinkpad, GST_PAD_PROBE_TYPE_BUFFER, restore_detections, nullptr,
                        nullptr);
      gst_object_unref(sinkpad);
      for (auto [pad_name, count] : {std::pair{"sink", &out.in}, std::pair{"src", &out.out}}) {
        GstPad *pad = gst_element_get_static_pad(probed, pad_name);
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, count_memory, count, nullptr);
        gst_object_unref(pad);
      }
      gst_object_unref(probed);
    }
  }
  Pipeline(const Pipeline &) = delete;
  Pipeline &operator=(const Pipeline &) = delete;
  // Not on a failed test: Check's failures jump over destructors.
  ~Pipeline() {
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    if (src_)
      gst_object_unref(src_);
    if (sink_)
      gst_object_unref(sink_);
    gst_object_unref(bus_);
    gst_object_unref(pipeline_);
  }

  // The location of the filesrc or filesink named "file".
  void set_location(const std::string &path) {
    GstElement *file = gst_bin_get_by_name(GST_BIN(pipeline_), "file");
    fail_unless(file != nullptr, "%s: no element named file", what_.c_str());
    g_object_set(file, "location", path.c_str(), nullptr);
    gst_object_unref(file);
  }

  // The element named `name` (a new reference).
  GstElement *element(const char *name) const {
    GstElement *found = gst_bin_get_by_name(GST_BIN(pipeline_), name);
    fail_unless(found != nullptr, "%s: no element named %s", what_.c_str(), name);
    return found;
  }

  // The CUDA context its elements made, as a GstContext to share.
  GstContext *cuda_context() const {
    GstContext *context = gst_element_get_context(pipeline_, "gst.cuda.context");
    fail_unless(context != nullptr, "%s: no CUDA context", what_.c_str());
    return context;
  }
  // Before play(): every element of the pipeline uses this one.
  void share(GstContext *context) { gst_element_set_context(pipeline_, context); }

  void play() {
    fail_if(gst_element_set_state(pipeline_, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE,
            "%s: could not play", what_.c_str());
    playing_ = true;
  }

  // Back to NULL; frames are numbered from 0 again.
  void stop() {
    fail_unless_equals_int(gst_element_set_state(pipeline_, GST_STATE_NULL),
                           GST_STATE_CHANGE_SUCCESS);
    playing_ = false;
    next_ = 0;
  }

  void set_caps(const GstCaps *caps) { gst_app_src_set_caps(GST_APP_SRC(src_), caps); }

  // The next frames pushed are numbered from `index`.
  void number_from(int index) { next_ = index; }

  // The stretch's caps, then its frames, numbered on; playing from the first caps.
  void push_stretch(const Stretch &stretch, uint32_t seed) {
    GstCaps *caps = host_caps(stretch);
    set_caps(caps);
    gst_caps_unref(caps);
    if (!playing_)
      play();
    for (int i = 0; i < stretch.frames; i++)
      push(host_frame(stretch, seed, next_++));
  }

  // Each sample's caps and buffer, as they are.
  void push_samples(const std::vector<GstSample *> &samples) {
    for (GstSample *sample : samples) {
      set_caps(gst_sample_get_caps(sample));
      if (!playing_)
        play();
      push(gst_buffer_ref(gst_sample_get_buffer(sample)));
      next_++;
    }
  }

  // Every stretch, then EOS.
  void feed(const std::vector<Stretch> &stretches, uint32_t seed) {
    for (const Stretch &stretch : stretches)
      push_stretch(stretch, seed);
    end_of_stream();
  }

  void end_of_stream() {
    fail_unless_equals_int(gst_app_src_end_of_stream(GST_APP_SRC(src_)), GST_FLOW_OK);
  }

  // Pulls until `count` samples are in all, EOS, an error, or no sample for a while;
  // whether `count` are in.
  bool pull(size_t count) {
    gint64 deadline = g_get_monotonic_time() + kSampleTimeout;
    while (out_.samples.size() < count) {
      if (GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink_), 50 * GST_MSECOND)) {
        // A sample of our own: appsink (1.22) reuses the one it returns, and after a
        // flush sets its caps without checking that it is writable (a critical).
        out_.samples.push_back(gst_sample_new(gst_sample_get_buffer(sample),
                                              gst_sample_get_caps(sample), nullptr, nullptr));
        gst_sample_unref(sample);
        deadline = g_get_monotonic_time() + kSampleTimeout;
      } else if (gst_app_sink_is_eos(GST_APP_SINK(sink_)) || take_error() ||
                 g_get_monotonic_time() > deadline) {
        break;
      }
    }
    take_error();
    return out_.samples.size() >= count;
  }

  void pull_to_eos() {
    pull(SIZE_MAX);
    fail_unless(!out_.error.empty() || gst_app_sink_is_eos(GST_APP_SINK(sink_)),
                "%s: no EOS and no error: stuck", what_.c_str());
  }

  // For a pipeline without an appsink.
  void wait_for_eos() {
    GstMessage *message = gst_bus_timed_pop_filtered(
        bus_, 60 * GST_SECOND, static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    fail_unless(message != nullptr, "%s: no EOS", what_.c_str());
    const bool eos = GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS;
    gst_message_unref(message);
    if (!eos)
      take_error();
    fail_unless(eos, "%s: %s", what_.c_str(), out_.error.c_str());
  }

  // A flushing seek to the start: every element flushes; the frames pushed next
  // are in the new segment.
  void flush() {
    fail_unless(gst_element_seek_simple(pipeline_, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, 0),
                "%s: flushing seek refused", what_.c_str());
  }

 private:
  void push(GstBuffer *buffer) {
    fail_unless_equals_int(gst_app_src_push_buffer(GST_APP_SRC(src_), buffer), GST_FLOW_OK);
  }

  // Whether an error came (the first one kept in out_.error).
  bool take_error() {
    if (GstMessage *message = gst_bus_pop_filtered(bus_, GST_MESSAGE_ERROR)) {
      GError *err = nullptr;
      gchar *debug = nullptr;
      gst_message_parse_error(message, &err, &debug);
      if (out_.error.empty())
        out_.error = std::string(err->message) + " (" + (debug ? debug : "") + ")";
      g_error_free(err);
      g_free(debug);
      gst_message_unref(message);
    }
    return !out_.error.empty();
  }

  Output &out_;
  const std::string what_;
  GstElement *pipeline_ = nullptr;
  GstBus *bus_ = nullptr;
  GstElement *src_ = nullptr;
  GstElement *sink_ = nullptr;
  bool playing_ = false;
  int next_ = 0;
};

// `middle` between an appsrc and an appsink: the stretches' random frames (seeded by
// `seed`) in, EOS, every output sample out, or the first error.
void run(const std::string &middle, const std::vector<Stretch> &stretches, uint32_t seed,
         Output &out) {
  Pipeline pipeline(app_line(middle), out);
  pipeline.feed(stretches, seed);
  pipeline.pull_to_eos();
}

int frames_of(const std::vector<Stretch> &stretches) {
  int frames = 0;
  for (const Stretch &stretch : stretches)
    frames += stretch.frames;
  return frames;
}

// What the CPU backend makes of the same frames in system memory: the reference.
void run_on_cpu(const cftest::FilterUnderTest &element, const std::vector<Stretch> &stretches,
                uint32_t seed, Output &want) {
  run(cftest::element_line("cpu", element, 1), stretches, seed, want);
  fail_unless(want.error.empty(), "%s on the CPU: %s", element.element.c_str(),
              want.error.c_str());
  fail_unless_equals_int(want.samples.size(), frames_of(stretches));
}

// ---- Comparisons ----

GstClockTime pts_of(GstSample *sample) { return GST_BUFFER_PTS(gst_sample_get_buffer(sample)); }

// Timestamps, every sample byte of every plane (row padding aside) and the histogram
// meta, if any, of `got` equal `want`'s.
void check_same_sample(GstSample *got, GstSample *want, const std::string &what) {
  GstBuffer *got_buffer = gst_sample_get_buffer(got);
  GstBuffer *want_buffer = gst_sample_get_buffer(want);
  fail_unless(GST_BUFFER_PTS(got_buffer) == GST_BUFFER_PTS(want_buffer) &&
                  GST_BUFFER_DURATION(got_buffer) == GST_BUFFER_DURATION(want_buffer),
              "%s: PTS %" GST_TIME_FORMAT " duration %" GST_TIME_FORMAT ", not %" GST_TIME_FORMAT
              " and %" GST_TIME_FORMAT,
              what.c_str(), GST_TIME_ARGS(GST_BUFFER_PTS(got_buffer)),
              GST_TIME_ARGS(GST_BUFFER_DURATION(got_buffer)),
              GST_TIME_ARGS(GST_BUFFER_PTS(want_buffer)),
              GST_TIME_ARGS(GST_BUFFER_DURATION(want_buffer)));
  GstVideoInfo got_info, want_info;
  fail_unless(gst_video_info_from_caps(&got_info, gst_sample_get_caps(got)));
  fail_unless(gst_video_info_from_caps(&want_info, gst_sample_get_caps(want)));
  fail_unless(GST_VIDEO_INFO_FORMAT(&got_info) == GST_VIDEO_INFO_FORMAT(&want_info) &&
                  got_info.width == want_info.width && got_info.height == want_info.height,
              "%s: a %dx%d %s frame, not %dx%d %s", what.c_str(), got_info.width, got_info.height,
              GST_VIDEO_INFO_NAME(&got_info), want_info.width, want_info.height,
              GST_VIDEO_INFO_NAME(&want_info));
  GstVideoFrame a, b;
  fail_unless(gst_video_frame_map(&a, &got_info, got_buffer, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&b, &want_info, want_buffer, GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&a); p++) {
    const gsize row_bytes = cftest::row_bytes(a.info, int(p));
    for (int y = 0; y < cftest::plane_rows(a.info, int(p)); y++) {
      const auto *ra = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&a, p)) +
                       y * GST_VIDEO_FRAME_PLANE_STRIDE(&a, p);
      const auto *rb = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&b, p)) +
                       y * GST_VIDEO_FRAME_PLANE_STRIDE(&b, p);
      if (memcmp(ra, rb, row_bytes) != 0) {
        gsize x = 0;
        while (ra[x] == rb[x])
          x++;
        // The bytes from the first that differs: whether they are shifted, stale or noise.
        const auto bytes_at = [&](const guint8 *row) {
          std::string text;
          for (gsize i = x; i < std::min<gsize>(x + 6, row_bytes); i++)
            text += " " + std::to_string(row[i]);
          return text;
        };
        fail("%s: plane %u row %d differs from byte %zu:%s, not%s", what.c_str(), p, y, x,
             bytes_at(ra).c_str(), bytes_at(rb).c_str());
      }
    }
  }
  gst_video_frame_unmap(&a);
  gst_video_frame_unmap(&b);
  GstCustomMeta *ma = gst_buffer_get_custom_meta(got_buffer, "GstCudaHistMeta");
  GstCustomMeta *mb = gst_buffer_get_custom_meta(want_buffer, "GstCudaHistMeta");
  fail_unless((ma == nullptr) == (mb == nullptr), "%s: histogram meta", what.c_str());
  if (ma) {
    gchar *sa = gst_structure_to_string(gst_custom_meta_get_structure(ma));
    gchar *sb = gst_structure_to_string(gst_custom_meta_get_structure(mb));
    fail_unless(g_str_equal(sa, sb), "%s: histograms differ:\n%s\n%s", what.c_str(), sa, sb);
    g_free(sa);
    g_free(sb);
  }
}

// Frames a flush may drop: up to `max` of those pushed just before frame `at` (the
// first one pushed after the flush).
struct Droppable {
  int at = 0;
  int max = 0;
};

// `got` holds `want`'s frames (told apart by PTS), in the same order and each the
// same, but for those `droppable` allows; and no error.
void check_same(const Output &got, const Output &want, const std::string &what,
                Droppable droppable = {}) {
  fail_unless(got.error.empty(), "%s: %s", what.c_str(), got.error.c_str());
  size_t w = 0;
  const auto skip_dropped = [&](GstClockTime until) {
    for (; w < want.samples.size() && pts_of(want.samples[w]) != until; w++) {
      const int index = static_cast<int>(w);
      fail_unless(index < droppable.at && index + droppable.max >= droppable.at,
                  "%s: frame %d (PTS %" GST_TIME_FORMAT ") is missing: %zu frames out of %zu",
                  what.c_str(), index, GST_TIME_ARGS(pts_of(want.samples[w])),
                  got.samples.size(), want.samples.size());
    }
  };
  for (size_t g = 0; g < got.samples.size(); g++, w++) {
    const GstClockTime pts = pts_of(got.samples[g]);
    skip_dropped(pts);
    fail_unless(w < want.samples.size(),
                "%s: output %zu (PTS %" GST_TIME_FORMAT ") is no frame that went in, or is out "
                "of order",
                what.c_str(), g, GST_TIME_ARGS(pts));
    check_same_sample(got.samples[g], want.samples[w], what + ", frame " + std::to_string(w));
  }
  skip_dropped(GST_CLOCK_TIME_NONE);
}

// ---- Configurations ----

struct Config {
  const char *element;  // with its properties
  const char *format;
  int width, height;
};

const Config kConfigs[] = {
    {"cudamedian size=3 include-chroma=true", "NV12", 1366, 768},
    {"cudamedian size=9", "I420", 1366, 768},
    {"cudamedian size=5 include-chroma=true", "YUY2", 322, 241},
    {"cudamedian size=3 border=constant border-value=9", "RGBA", 640, 480},
    {"cudamedian size=7", "P010_10LE", 1366, 768},
    {"cudagauss sigma=1.5 include-chroma=true", "NV12", 1366, 768},
    {"cudagauss mode=unsharp sigma=1.2 amount=0.8", "BGR", 321, 241},
    {"cudagauss sigma=2", "Y444_16LE", 640, 360},
    {"cudagauss sigma=1", "P016_LE", 1366, 768},
    {"cudahist bins=64 include-chroma=true", "NV12", 1366, 768},
    {"cudahist bins=1024", "P010_10LE", 640, 480},
    {"cudahist include-alpha=true", "BGRA", 333, 217},
    {"cudagauss sigma=4 regions=meta region-padding=3 include-chroma=true", "NV12", 1366, 768},
    {"cudagauss sigma=2 regions=meta region-types=face", "P010_10LE", 640, 360},
    {"cudamedian size=5 regions=meta region-types=face include-chroma=true", "I420", 640,
     480},
    {"cudahist bins=64 regions=meta include-chroma=true", "NV12", 1366, 768},
    {"cudaredact zones=<<100,80,300,200>,<250,150,120,90>> feather=4 hold=0", "NV12", 1366,
     768},
    {"cudaredact method=fill shape=ellipse zones=<<10,10,200,100>> hold=0", "P010_10LE", 640,
     360},
    {"cudaredact blocks=8 hold=0", "I420", 640, 480},
    {"cudaredact invert=true zones=<<30,20,100,80>> hold=0", "BGRx", 333, 217},
};

// The element a configuration runs.
std::string configured_name(const Config &c) {
  const std::string line = c.element;
  return line.substr(0, line.find(' '));
}

// One of each for the stream-level tests, by name, for every element of the plugin
// (tests/plugin_elements.txt; one without an entry fails the tests).
const std::map<std::string, std::string> kProperties = {
    {"cudamedian", "size=5 include-chroma=true"},
    {"cudagauss", "sigma=1.5 include-chroma=true"},
    {"cudahist", "bins=64 include-chroma=true"},
    {"cudaredact", "zones=<<2,2,12,10>,<9,5,20,20>> feather=2 hold=0"},
};

// Those elements; no reference: the tests compare with the CPU backend's output.
std::vector<cftest::FilterUnderTest> elements() {
  std::vector<cftest::FilterUnderTest> all;
  for (const auto &[name, properties] :
       cftest::each_element(kProperties, "kProperties in test_cuda_memory.cpp"))
    all.push_back({name, properties, nullptr});
  return all;
}

const guint kDepths[] = {1, 3};

std::string name_of(const cftest::FilterUnderTest &element, guint depth) {
  return element.element + " " + element.properties +
         " frames-in-flight=" + std::to_string(depth);
}

// The element on the CUDA backend between cudaupload and cudadownload, in CUDA
// memory on both sides.
std::string in_cuda_memory(const cftest::FilterUnderTest &element, guint depth) {
  return std::string("cudaupload ! ") + kCudaCaps + " ! " +
         cftest::element_line("cuda", element, depth, "name=probed") + " ! " + kCudaCaps +
         " ! cudadownload ! video/x-raw";
}

// ---- Tests ----

GST_START_TEST(test_four_ways) {
  // Every element of the plugin has its configurations.
  std::vector<std::string> configured;
  for (const Config &c : kConfigs)
    configured.push_back(configured_name(c));
  cftest::check_element_data(configured, "kConfigs in test_cuda_memory.cpp");
  for (const Config &c : kConfigs) {
    const std::vector<Stretch> stream = {{c.format, c.width, c.height, kFrames}};
    Output want;
    run(std::string(c.element) + " backend=cpu", stream, 7, want);
    fail_unless(want.error.empty(), "%s", want.error.c_str());
    fail_unless_equals_int(want.samples.size(), kFrames);
    const std::string cuda = std::string(c.element) + " backend=cuda name=probed";
    const std::string up = std::string("cudaupload ! ") + kCudaCaps + " ! ";
    const std::string down = std::string(" ! ") + kCudaCaps + " ! cudadownload ! video/x-raw";
    const struct {
      const char *name;
      std::string line;
      bool cuda_in, cuda_out;
    } ways[] = {
        {"system -> system", cuda + " ! video/x-raw", false, false},
        {"system -> CUDA", cuda + down, false, true},
        {"CUDA -> system", up + cuda + " ! video/x-raw", true, false},
        {"CUDA -> CUDA", up + cuda + down, true, true},
    };
    for (const auto &way : ways) {
      if (cftest::works_in_place(configured_name(c)) && way.cuda_in != way.cuda_out)
        continue;
      const std::string what = std::string(c.element) + " " + c.format + " " +
                               std::to_string(c.width) + "x" + std::to_string(c.height) +
                               ", " + way.name;
      Output got;
      run(way.line, stream, 7, got);
      check_same(got, want, what);
      expect_memory(got.in, way.cuda_in ? kFrames : 0, way.cuda_in ? 0 : kFrames, what + " in");
      expect_memory(got.out, way.cuda_out ? kFrames : 0, way.cuda_out ? 0 : kFrames,
                    what + " out");
    }
  }
}
GST_END_TEST;

// cudamedian ! cudagauss in CUDA memory from end to end: the CUDA buffers of the
// first reach the second as they are.
GST_START_TEST(test_chain_without_copies) {
  const std::string median = "cudamedian size=5 include-chroma=true";
  const std::string gauss = "cudagauss sigma=1.2 include-chroma=true";
  const std::vector<Stretch> stream = {{"NV12", 1366, 768, kFrames}};
  Output want;
  run(median + " backend=cpu ! " + gauss + " backend=cpu ! cudahist backend=cpu", stream, 11,
      want);
  const std::string cuda = std::string(" ! ") + kCudaCaps + " ! ";
  Output got;
  run("cudaupload" + cuda + median + cuda + gauss + " name=probed" + cuda + "cudahist" + cuda +
          "cudadownload ! video/x-raw",
      stream, 11, got);
  check_same(got, want, "chain in CUDA memory");
  expect_memory(got.in, kFrames, 0, "chain in CUDA memory, into cudagauss");
}
GST_END_TEST;

// The GstCudaContext object a pipeline's elements share.
GObject *context_object(const Pipeline &pipeline) {
  GstContext *context = pipeline.cuda_context();
  const GValue *value = gst_structure_get_value(gst_context_get_structure(context),
                                                "gst.cuda.context");
  fail_unless(value != nullptr && G_VALUE_HOLDS_OBJECT(value), "no gst.cuda.context field");
  auto *object = static_cast<GObject *>(g_value_get_object(value));
  gst_context_unref(context);
  return object;
}

// Two pipelines, each with a context of its own on one device, one after the other:
// what a kernel needs set in a context (more than 48 KiB of shared memory, for 16-bit
// Gauss at sigma 20) is set in the second one too.
GST_START_TEST(test_two_contexts_of_one_device) {
  const std::string gauss = "cudagauss sigma=20";
  const std::vector<Stretch> stream = {{"P016_LE", 320, 200, 2}};
  Output want;
  run(gauss + " backend=cpu", stream, 13, want);
  fail_unless(want.error.empty(), "%s", want.error.c_str());
  Output first, second;
  const std::string line = app_line(std::string("cudaupload ! ") + kCudaCaps + " ! " + gauss +
                                    " backend=cuda ! " + kCudaCaps +
                                    " ! cudadownload ! video/x-raw");
  Pipeline a(line, first);
  a.feed(stream, 13);
  a.pull_to_eos();
  Pipeline b(line, second);
  b.feed(stream, 13);
  b.pull_to_eos();
  fail_if(context_object(a) == context_object(b), "the two pipelines share one context");
  check_same(first, want, gauss + " in the first context");
  check_same(second, want, gauss + " in the second context");
}
GST_END_TEST;

// GRAY8 in CUDA memory: refused in negotiation with a message that says why, and
// the process goes on.
GST_START_TEST(test_format_cuda_memory_cannot_hold) {
  GstElement *median = gst_element_factory_make("cudamedian", nullptr);
  GstPad *sink = gst_element_get_static_pad(median, "sink");
  GstCaps *caps = gst_caps_from_string(
      "video/x-raw(memory:CUDAMemory),format=GRAY8,width=64,height=48,framerate=30/1");
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(median, bus);
  gst_element_set_state(median, GST_STATE_READY);
  fail_if(gst_pad_query_accept_caps(sink, caps));
  GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING);
  fail_unless(msg != nullptr, "no message saying why");
  GError *err = nullptr;
  gst_message_parse_warning(msg, &err, nullptr);
  fail_unless(strstr(err->message, "GRAY8 frames cannot be in CUDA memory") != nullptr, "%s",
              err->message);
  g_error_free(err);
  gst_message_unref(msg);
  gst_element_set_state(median, GST_STATE_NULL);
  gst_element_set_bus(median, nullptr);
  gst_object_unref(bus);
  gst_caps_unref(caps);
  gst_object_unref(sink);
  gst_object_unref(median);
  // A pipeline that insists is refused, where it is built (the link) or else when
  // it runs (negotiation), and the test process lives on.
  const std::string insisting = std::string("cudaupload ! ") + kCudaCaps +
                                ",format=GRAY8 ! cudamedian";
  GError *error = nullptr;
  GstElement *built = gst_parse_launch(app_line(insisting).c_str(), &error);
  if (built)
    gst_object_unref(built);
  if (error) {
    fail_unless(strstr(error->message, "GRAY8") != nullptr, "refused without saying why: %s",
                error->message);
    g_error_free(error);
  } else {
    Output out;
    run(insisting, {{"GRAY8", 64, 48, kFrames}}, 3, out);
    fail_if(out.error.empty());
  }
}
GST_END_TEST;

// Frames in = frames out in CUDA memory, from cudaupload to cudadownload, for each
// element with 1 and 3 frames in flight: each scenario below compares every frame
// out (count, order, timestamps, contents) with the CPU backend's output for the
// same frames, and checks that every frame entered and left in CUDA memory.
template <typename Scenario>
void for_every_element_and_depth(Scenario &&scenario) {
  for (const cftest::FilterUnderTest &element : elements())
    for (guint depth : kDepths)
      scenario(element, depth, name_of(element, depth) + " in CUDA memory");
}

// More frames than are in flight, then EOS: every frame drains.
GST_START_TEST(test_cuda_memory_eos) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth,
                                 const std::string &what) {
    const std::vector<Stretch> stream = {{"NV12", 320, 240, static_cast<int>(2 * depth + 3)}};
    Output want, got;
    run_on_cpu(element, stream, 21, want);
    run(in_cuda_memory(element, depth), stream, 21, got);
    check_same(got, want, what + ", EOS");
    const int frames = frames_of(stream);
    expect_memory(got.in, frames, 0, what + ", EOS, in");
    expect_memory(got.out, frames, 0, what + ", EOS, out");
  });
}
GST_END_TEST;

// A flushing seek while the element holds its frames in flight: it drops at most
// those, and every frame pushed after the flush comes out.
GST_START_TEST(test_cuda_memory_flush) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth,
                                 const std::string &what) {
    const int d = depth;
    const Stretch before = {"NV12", 320, 240, d + 2}, after = {"NV12", 320, 240, d + 1};
    Output want, got;
    run_on_cpu(element, {{"NV12", 320, 240, before.frames + after.frames}}, 31, want);
    {
      Pipeline pipeline(app_line(in_cuda_memory(element, depth), true), got);
      pipeline.push_stretch(before, 31);
      // A frame leaves once frames-in-flight - 1 later ones came: wait for those, so
      // that every frame pushed is in the element and only its frames in flight are
      // there when the flush comes (the appsink would drop frames it holds).
      fail_unless(pipeline.pull(before.frames - (d - 1)), "%s: %zu of %d frames out before "
                  "the flush: %s", what.c_str(), got.samples.size(), before.frames - (d - 1),
                  got.error.c_str());
      pipeline.flush();
      pipeline.push_stretch(after, 31);
      pipeline.end_of_stream();
      pipeline.pull_to_eos();
    }
    check_same(got, want, what + ", flush", {before.frames, d});
    expect_memory(got.in, before.frames + after.frames, 0, what + ", flush, in");
    fail_unless(got.out.host == 0, "%s, flush: host memory out", what.c_str());
  });
}
GST_END_TEST;

// New sizes mid-stream with frames in flight: the held frames leave first, at
// their size, and the new ones follow at theirs; also pitched 1366x768.
GST_START_TEST(test_cuda_memory_caps_change) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth,
                                 const std::string &what) {
    const int d = depth;
    const std::vector<Stretch> stream = {
        {"NV12", 320, 240, d + 1}, {"NV12", 1366, 768, d + 1}, {"NV12", 640, 360, 1}};
    Output want, got;
    run_on_cpu(element, stream, 41, want);
    run(in_cuda_memory(element, depth), stream, 41, got);
    check_same(got, want, what + ", caps change");
    const int frames = frames_of(stream);
    expect_memory(got.in, frames, 0, what + ", caps change, in");
    expect_memory(got.out, frames, 0, what + ", caps change, out");
  });
}
GST_END_TEST;

// One pipeline, NULL -> PLAYING -> NULL twice: each run gives every frame.
GST_START_TEST(test_cuda_memory_state_cycles) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth,
                                 const std::string &what) {
    const std::vector<Stretch> stream = {{"NV12", 320, 240, static_cast<int>(depth + 2)}};
    Output want, got;
    run_on_cpu(element, stream, 51, want);
    Pipeline pipeline(app_line(in_cuda_memory(element, depth)), got);
    for (int cycle = 0; cycle < 2; cycle++) {
      const std::string run_what = what + ", state cycle " + std::to_string(cycle);
      pipeline.feed(stream, 51);
      pipeline.pull_to_eos();
      check_same(got, want, run_what);
      expect_memory(got.in, frames_of(stream), 0, run_what + ", in");
      pipeline.stop();
      got.clear();
    }
  });
}
GST_END_TEST;

// CUDA buffers that cudaupload made of a stretch's frames (numbered from `first`), in
// a pipeline of their own that lives as long as they do. Pipelines that take them
// share its CUDA context, as an application would share one.
class Uploads {
 public:
  Uploads(const Stretch &stretch, uint32_t seed, int first)
      : pipeline_(app_line(std::string("cudaupload ! ") + kCudaCaps), frames_) {
    pipeline_.number_from(first);
    pipeline_.feed({stretch}, seed);
    pipeline_.pull_to_eos();
    fail_unless(frames_.error.empty(), "uploading: %s", frames_.error.c_str());
    fail_unless_equals_int(frames_.samples.size(), stretch.frames);
    for (GstSample *sample : frames_.samples)
      fail_unless(gst_memory_is_type(gst_buffer_peek_memory(gst_sample_get_buffer(sample), 0),
                                     "gst.cuda.memory"),
                  "cudaupload gave no CUDA memory");
  }

  const std::vector<GstSample *> &samples() const { return frames_.samples; }
  void share_context_with(Pipeline &pipeline) const {
    GstContext *context = pipeline_.cuda_context();
    pipeline.share(context);
    gst_context_unref(context);
  }

 private:
  Output frames_;
  Pipeline pipeline_;
};

// One element instance fed host frames, then CUDA frames, then host frames again,
// with frames in flight at each change: the appsrc itself pushes the CUDA buffers
// (made beforehand by cudaupload) with caps that carry the feature. The output
// stays in one memory type or follows the input's; every frame is the CPU
// backend's.
GST_START_TEST(test_memory_type_changes) {
  constexpr int kRun = 4;  // frames of each memory type, more than are in flight
  constexpr guint kDepth = 3;
  const Stretch stretch = {"NV12", 1366, 768, kRun};
  for (const cftest::FilterUnderTest &element : elements()) {
    Output want;
    run_on_cpu(element, {{"NV12", 1366, 768, 3 * kRun}}, 61, want);
    const Uploads uploads(stretch, 61, kRun);
    const bool analysis = cftest::works_in_place(element.element);
    // With the output left free (cudadownload takes both), the frames stay in the
    // memory they come in, through each switch.
    const struct {
      const char *name;
      std::string after;      // between the element and the appsink
      int cuda_out, host_out;  // frames the element gives in each memory type
      bool output_forced;      // a caps filter decides the output's memory type
    } outputs[] = {
        {"output in system memory", "video/x-raw", 0, 3 * kRun, true},
        {"output in CUDA memory", std::string(kCudaCaps) + " ! cudadownload ! video/x-raw",
         3 * kRun, 0, true},
        {"output left free", "cudadownload ! video/x-raw", kRun, 2 * kRun, false},
    };
    for (const auto &output : outputs) {
      // cudahist's frames pass through: their memory type is the input's.
      if (analysis && output.output_forced)
        continue;
      const std::string what =
          name_of(element, kDepth) + ", system -> CUDA -> system memory, " + output.name;
      Output got;
      {
        Pipeline pipeline(
            app_line(cftest::element_line("cuda", element, kDepth, "name=probed") + " ! " +
                     output.after),
            got);
        uploads.share_context_with(pipeline);
        pipeline.push_stretch(stretch, 61);
        pipeline.push_samples(uploads.samples());
        pipeline.push_stretch(stretch, 61);
        pipeline.end_of_stream();
        pipeline.pull_to_eos();
      }
      check_same(got, want, what);
      expect_memory(got.in, kRun, 2 * kRun, what + ", in");
      expect_memory(got.out, output.cuda_out, output.host_out, what + ", out");
    }
  }
}
GST_END_TEST;

// The decoder test's clip: H.264 in MP4, made here with x264enc where it exists
// (320x240 I420, 30 frames), else the file CF_TEST_CLIP names (a relative path from
// the working directory or the source tree); "" with the reason in *why when neither.
// A clip made here goes in *made, for the caller to remove.
std::string decoder_clip(std::string *made, std::string *why) {
  if (GstElementFactory *x264 = gst_element_factory_find("x264enc")) {
    gst_object_unref(x264);
    GError *error = nullptr;
    gchar *dir = g_dir_make_tmp("cf-decoder-XXXXXX", &error);
    fail_unless(dir != nullptr, "temporary folder: %s", error ? error->message : "");
    *made = std::string(dir) + "/clip.mp4";
    g_free(dir);
    Output none;
    Pipeline pipeline(
        "videotestsrc num-buffers=30 pattern=snow ! "
        "video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! "
        "x264enc speed-preset=veryfast ! mp4mux ! filesink name=file",
        none);
    pipeline.set_location(*made);
    pipeline.play();
    pipeline.wait_for_eos();
    pipeline.stop();
    return *made;
  }
  const char *named = g_getenv("CF_TEST_CLIP");
  if (!named || !*named) {
    *why = "no x264enc here to make a clip, and CF_TEST_CLIP names none";
    return "";
  }
  if (g_file_test(named, G_FILE_TEST_IS_REGULAR))
    return named;
  // meson runs tests in the build directory, from which __FILE__ is this file.
  gchar *tests_dir = g_path_get_dirname(__FILE__);
  gchar *in_source = g_build_filename(tests_dir, "..", named, nullptr);
  const std::string from_source = in_source;
  g_free(in_source);
  g_free(tests_dir);
  if (!g_path_is_absolute(named) && g_file_test(from_source.c_str(), G_FILE_TEST_IS_REGULAR))
    return from_source;
  gchar *cwd = g_get_current_dir();
  *why = std::string("CF_TEST_CLIP=") + named + " is no file (working directory " + cwd +
         ", source tree " + from_source + ")";
  g_free(cwd);
  return "";
}

// The first kDecodedFrames frames are compared: enough, and quick at 1080p.
constexpr int kDecodedFrames = 30;

// NVDEC's frames in CUDA memory straight into the element (no caps between them:
// the element must take CUDA memory from the decoder), filtered there and
// downloaded once, equal to the CPU backend's output for the same decoded frames
// with the same detections.
GST_START_TEST(test_decoder_to_element) {
  std::string made, why;
  const std::string clip = decoder_clip(&made, &why);
  if (clip.empty()) {
    std::printf("test_decoder_to_element did not run: %s\n", why.c_str());
    fail("the decoder test did not run: %s", why.c_str());
  }
  std::printf("test_decoder_to_element: clip %s\n", clip.c_str());
  const std::string decode = "filesrc name=file ! qtdemux ! h264parse ! nvh264dec ! ";
  const std::string sink = " ! appsink name=sink sync=false max-buffers=2";
  for (const cftest::FilterUnderTest &element : elements()) {
    const std::string what = name_of(element, 3) + " after nvh264dec";
    Output want, got;
    const struct {
      std::string line;
      Output &out;
    } decodings[] = {
        // Named "probed" too, so that its frames get the same detections.
        {decode + "cudadownload ! video/x-raw ! " +
             cftest::element_line("cpu", element, 1, "name=probed") + sink,
         want},
        {decode + cftest::element_line("cuda", element, 3, "name=probed") + " ! " + kCudaCaps +
             " ! cudadownload ! video/x-raw" + sink,
         got},
    };
    for (const auto &decoding : decodings) {
      Pipeline pipeline(decoding.line, decoding.out);
      pipeline.set_location(clip);
      pipeline.play();
      pipeline.pull(kDecodedFrames);
      pipeline.stop();
    }
    fail_unless(want.error.empty(), "%s, on the CPU: %s", what.c_str(), want.error.c_str());
    fail_unless(!want.samples.empty(), "%s: nothing decoded", what.c_str());
    if (!made.empty())
      fail_unless_equals_int(want.samples.size(), kDecodedFrames);
    check_same(got, want, what);
    fail_unless_equals_int(got.samples.size(), want.samples.size());
    // The probe saw every frame that came out enter, maybe a few more.
    const int out = got.samples.size();
    fail_unless(got.in.host == 0 && got.in.cuda >= out,
                "%s: %d frames from the decoder in CUDA memory, %d in host memory, %d out",
                what.c_str(), got.in.cuda.load(), got.in.host.load(), out);
    fail_unless(got.out.host == 0, "%s: host memory out", what.c_str());
  }
  if (!made.empty()) {
    g_remove(made.c_str());
    gchar *dir = g_path_get_dirname(made.c_str());
    g_rmdir(dir);
    g_free(dir);
  }
}
GST_END_TEST;

// ---- Two devices (cuda_memory_two_devices: skipped on hosts with fewer) ----

// The device of the CUDA context a pipeline's elements share.
guint context_device(const Pipeline &pipeline) {
  guint device = G_MAXUINT;
  g_object_get(context_object(pipeline), "cuda-device-id", &device, nullptr);
  return device;
}

// Each element on the second device, in its CUDA memory from end to end and in
// system memory: the bytes the CPU backend gives, in a context of device 1.
GST_START_TEST(test_second_device) {
  for (const cftest::FilterUnderTest &element : elements()) {
    const std::vector<Stretch> stream = {{"NV12", 1366, 768, kFrames}};
    Output want;
    run_on_cpu(element, stream, 17, want);
    const std::string filter =
        cftest::element_line("cuda", element, 2, "cuda-device-id=1 name=probed");
    const std::string cuda = std::string(" ! ") + kCudaCaps + " ! ";
    const struct {
      const char *name;
      std::string line;
      int cuda_frames;
    } ways[] = {
        {"CUDA memory", "cudaupload cuda-device-id=1" + cuda + filter + cuda +
                            "cudadownload cuda-device-id=1 ! video/x-raw",
         kFrames},
        {"system memory", filter + " ! video/x-raw", 0},
    };
    for (const auto &way : ways) {
      const std::string what = element.element + " on device 1, " + way.name;
      Output got;
      Pipeline pipeline(app_line(way.line), got);
      pipeline.feed(stream, 17);
      pipeline.pull_to_eos();
      check_same(got, want, what);
      expect_memory(got.in, way.cuda_frames, kFrames - way.cuda_frames, what + " in");
      fail_unless_equals_int(context_device(pipeline), 1);
    }
  }
}
GST_END_TEST;

// Frames in CUDA memory of device 1 reaching an element held to device 0: an element
// error naming both devices, no frame out, and the process goes on.
GST_START_TEST(test_frames_of_another_device) {
  const std::vector<Stretch> stream = {{"NV12", 640, 480, kFrames}};
  const std::string cuda = std::string(" ! ") + kCudaCaps + " ! ";
  Output got;
  run("cudaupload cuda-device-id=1" + cuda +
          cftest::element_line("cuda", elements()[0], 2, "cuda-device-id=0") + cuda +
          "cudadownload cuda-device-id=0 ! video/x-raw",
      stream, 19, got);
  fail_unless(got.error.find("another CUDA context (device 1)") != std::string::npos &&
                  got.error.find("(device 0)") != std::string::npos,
              "error: \"%s\"", got.error.c_str());
  fail_unless_equals_int(got.samples.size(), 0);
}
GST_END_TEST;

// The device of the CUDA context `element` answers a CONTEXT query with (on its src
// pad, as a neighbour asks), G_MAXUINT where it answers none.
guint answered_device(GstElement *element) {
  GstQuery *query = gst_query_new_context(GST_CUDA_CONTEXT_TYPE);
  GstPad *src = gst_element_get_static_pad(element, "src");
  guint device = G_MAXUINT;
  GstContext *context = nullptr;
  if (gst_pad_query(src, query))
    gst_query_parse_context(query, &context);
  GstCudaContext *cuda_context = nullptr;
  if (context && gst_structure_get(gst_context_get_structure(context), GST_CUDA_CONTEXT_TYPE,
                                   GST_TYPE_CUDA_CONTEXT, &cuda_context, nullptr)) {
    g_object_get(cuda_context, "cuda-device-id", &device, nullptr);
    gst_object_unref(cuda_context);
  }
  gst_object_unref(src);
  gst_query_unref(query);
  return device;
}

// Buffers in CUDA memory that left an element, and those of a device other than 1.
struct DeviceCount {
  std::atomic<int> cuda{0}, elsewhere{0};
};

GstPadProbeReturn count_devices(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *count = static_cast<DeviceCount *>(data);
  GstMemory *memory = gst_buffer_peek_memory(GST_PAD_PROBE_INFO_BUFFER(info), 0);
  if (!gst_is_cuda_memory(memory))
    return GST_PAD_PROBE_OK;
  ++count->cuda;
  guint device = G_MAXUINT;
  g_object_get(GST_CUDA_MEMORY_CAST(memory)->context, "cuda-device-id", &device, nullptr);
  if (device != 1)
    ++count->elsewhere;
  return GST_PAD_PROBE_OK;
}

// A chain follows the device of its first CUDA element. cudadownload, at the end
// and left at -1, goes to READY first and makes a context on device 0, which the
// elements of ours, also at -1, are given; the first CUDA element is on device 1
// (cudaupload, or one of ours). Each element of ours moves to the context upstream
// answers with when caps come, and to that of CUDA memory of another context that
// reaches it, before its first frame, dropping device 0's: no frame leaves an
// element in CUDA memory other than device 1's (so none crosses devices), each
// element of ours answers a CONTEXT query with a context of device 1, and the
// frames are those of the CPU backend.
GST_START_TEST(test_chain_follows_first_device) {
  const std::string median = "cudamedian size=5 include-chroma=true";
  const std::string gauss = "cudagauss sigma=1.2 include-chroma=true";
  const std::string hist = "cudahist bins=64";
  const std::string cuda = std::string(" ! ") + kCudaCaps + " ! ";
  const std::vector<Stretch> stream = {{"NV12", 1366, 768, kFrames}};
  const std::string all_on_cpu =
      median + " backend=cpu ! " + gauss + " backend=cpu ! " + hist + " backend=cpu";
  const struct {
    std::string chain, on_cpu;
    std::vector<const char *> ours;
    bool cuda_links;  // CUDA memory between the elements (else as negotiated)
  } chains[] = {
      {"cudaupload cuda-device-id=1" + cuda + median + " name=m" + cuda + gauss + " name=g" +
           cuda + hist + " name=h" + cuda + "cudadownload ! video/x-raw",
       all_on_cpu, {"m", "g", "h"}, true},
      {median + " cuda-device-id=1 name=m" + cuda + gauss + " name=g" + cuda +
           "cudadownload ! video/x-raw",
       median + " backend=cpu ! " + gauss + " backend=cpu", {"m", "g"}, true},
      // As gst-launch-1.0 negotiates it: system memory between the elements
      // (cudaupload and cudadownload pass through), no memory to follow; each
      // element asks upstream for its context at the caps.
      {"cudaupload cuda-device-id=1 ! " + median + " name=m ! " + gauss + " name=g ! " + hist +
           " name=h ! cudadownload",
       all_on_cpu, {"m", "g", "h"}, false},
  };
  for (const auto &chain : chains) {
    Output want, got;
    run(chain.on_cpu, stream, 29, want);
    fail_unless(want.error.empty(), "%s: %s", chain.on_cpu.c_str(), want.error.c_str());
    Pipeline pipeline(app_line(chain.chain), got);
    std::vector<GstElement *> ours;
    std::vector<DeviceCount> left(chain.ours.size());
    for (size_t i = 0; i < chain.ours.size(); i++) {
      ours.push_back(pipeline.element(chain.ours[i]));
      GstPad *src = gst_element_get_static_pad(ours.back(), "src");
      gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, count_devices, &left[i], nullptr);
      gst_object_unref(src);
    }
    pipeline.feed(stream, 29);
    pipeline.pull_to_eos();
    check_same(got, want, chain.chain);
    for (size_t i = 0; i < ours.size(); i++) {
      const std::string what = chain.chain + ", element " + chain.ours[i];
      fail_unless((left[i].cuda == kFrames || !chain.cuda_links) && left[i].elsewhere == 0,
                  "%s: %d frames out in CUDA memory, %d of them not of device 1", what.c_str(),
                  left[i].cuda.load(), left[i].elsewhere.load());
      fail_unless_equals_int(answered_device(ours[i]), 1);
      gst_object_unref(ours[i]);
    }
  }
}
GST_END_TEST;

#ifdef CF_HAVE_GST_CUDA_STREAM
// Of the buffers that crossed a pad, those whose memory's stream still had work
// queued then.
struct StreamWork {
  std::atomic<int> buffers{0}, pending{0};
};

GstPadProbeReturn note_stream_work(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *work = static_cast<StreamWork *>(data);
  GstMemory *memory = gst_buffer_peek_memory(GST_PAD_PROBE_INFO_BUFFER(info), 0);
  ++work->buffers;
  if (!gst_is_cuda_memory(memory))
    return GST_PAD_PROBE_OK;
  GstCudaMemory *cuda_memory = GST_CUDA_MEMORY_CAST(memory);
  GstCudaStream *stream = gst_cuda_memory_get_stream(cuda_memory);
  if (stream && gst_cuda_context_push(cuda_memory->context)) {
    if (cudaStreamQuery(reinterpret_cast<cudaStream_t>(gst_cuda_stream_get_handle(stream))) ==
        cudaErrorNotReady)
      ++work->pending;
    gst_cuda_context_pop(nullptr);
  }
  return GST_PAD_PROBE_OK;
}

// At one frame in flight, a filter's frames in CUDA memory leave as soon as their
// work is queued: the memory's stream is ordered after it, so the element does not
// wait for it. A 7x7 median of 4K RGBA takes about 0.5 ms, so work is still queued
// on the stream of frames as they leave; cudadownload, which waits for that
// stream, gets what the CPU backend gives. At two in flight frames leave finished.
GST_START_TEST(test_frames_leave_ordered) {
  const cftest::FilterUnderTest median = {"cudamedian", "size=7", nullptr};
  const std::vector<Stretch> stream = {{"RGBA", 3840, 2160, 6}};
  Output want;
  run_on_cpu(median, stream, 23, want);
  for (guint depth : {1u, 2u}) {
    const std::string what = "cudamedian size=7, 4K RGBA in CUDA memory, frames-in-flight=" +
                             std::to_string(depth);
    Output got;
    StreamWork at_src;
    Pipeline pipeline(app_line(in_cuda_memory(median, depth)), got);
    GstElement *element = pipeline.element("probed");
    GstPad *src = gst_element_get_static_pad(element, "src");
    gst_pad_add_probe(src, GST_PAD_PROBE_TYPE_BUFFER, note_stream_work, &at_src, nullptr);
    gst_object_unref(src);
    gst_object_unref(element);
    pipeline.feed(stream, 23);
    pipeline.pull_to_eos();
    check_same(got, want, what);
    fail_unless_equals_int(at_src.buffers, 6);
    if (depth == 1)
      fail_unless(at_src.pending > 0, "%s: the work of every frame had finished when it "
                  "left: waited for, not ordered", what.c_str());
    else
      fail_unless(at_src.pending == 0, "%s: %d frames left before their work finished",
                  what.c_str(), at_src.pending.load());
  }
}
GST_END_TEST;
#endif

#if GST_CHECK_VERSION(1, 26, 0)
// Of the buffers that crossed a pad in CUDA memory, those whose memory came from a
// CUDA memory pool: allocated stream-ordered.
struct StreamOrderedCount {
  std::atomic<int> buffers{0}, stream_ordered{0};
};

// The driver's cuPointerGetAttribute: gstreamer-cuda's loader does not load it.
using PointerGetAttribute = CUresult (*)(void *, CUpointer_attribute, CUdeviceptr);
PointerGetAttribute pointer_get_attribute() {
  static PointerGetAttribute get = [] {
    void *driver = dlopen("libcuda.so.1", RTLD_NOW);
    return driver ? reinterpret_cast<PointerGetAttribute>(dlsym(driver, "cuPointerGetAttribute"))
                  : nullptr;
  }();
  return get;
}

GstPadProbeReturn note_stream_ordered(GstPad *, GstPadProbeInfo *info, gpointer data) {
  GstMemory *memory = gst_buffer_peek_memory(GST_PAD_PROBE_INFO_BUFFER(info), 0);
  auto *count = static_cast<StreamOrderedCount *>(data);
  GstMapInfo map;
  if (!gst_is_cuda_memory(memory) ||
      !gst_memory_map(memory, &map, static_cast<GstMapFlags>(GST_MAP_READ | GST_MAP_CUDA)))
    return GST_PAD_PROBE_OK;
  ++count->buffers;
  GstCudaContext *context = GST_CUDA_MEMORY_CAST(memory)->context;
  CUmemoryPool pool = nullptr;
  if (gst_cuda_context_push(context)) {
    if (pointer_get_attribute()(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE,
                                reinterpret_cast<CUdeviceptr>(map.data)) == CUDA_SUCCESS &&
        pool)
      ++count->stream_ordered;
    gst_cuda_context_pop(nullptr);
  }
  gst_memory_unmap(memory, &map);
  return GST_PAD_PROBE_OK;
}

// A context that prefers stream-ordered allocation (1.26's prefer-stream-ordered-alloc)
// gets it in the pools of ours it reaches, as nvcodec's elements do: the pool
// cudamedian proposes to cudaupload and the one cudagauss proposes to cudamedian hold
// memory from a CUDA memory pool, and the frames are what the CPU backend makes of
// them, at one frame in flight (ordered on the memory's stream) and at two (waited
// for). A context that does not prefer it gets none.
GST_START_TEST(test_stream_ordered_allocation) {
  fail_unless(pointer_get_attribute() != nullptr, "no cuPointerGetAttribute in libcuda.so.1");
  const std::string median = "cudamedian size=5";
  const std::string gauss = "cudagauss sigma=1.5";
  const std::vector<Stretch> stream = {{"RGBA", 3840, 2160, 6}};
  Output want;
  run(median + " backend=cpu ! " + gauss + " backend=cpu", stream, 29, want);
  const bool by_environment = g_getenv("GST_CUDA_ENABLE_STREAM_ORDERED_ALLOC") != nullptr;
  const struct {
    gboolean prefer;
    guint depth;
  } cases[] = {{TRUE, 1}, {TRUE, 2}, {FALSE, 1}};
  for (const auto &c : cases) {
    if (!c.prefer && by_environment)
      continue;
    GstCudaContext *cuda_context = gst_cuda_context_new(0);
    fail_unless(cuda_context != nullptr, "no CUDA context on device 0");
    gboolean supported = FALSE;
    g_object_get(cuda_context, "stream-ordered-alloc", &supported, nullptr);
    fail_unless(supported, "device 0 has no stream-ordered allocation");
    g_object_set(cuda_context, "prefer-stream-ordered-alloc", c.prefer, nullptr);
    GstContext *context = gst_context_new_cuda_context(cuda_context);
    gst_object_unref(cuda_context);

    const std::string in_flight = " backend=cuda frames-in-flight=" + std::to_string(c.depth);
    const std::string cuda = std::string(" ! ") + kCudaCaps + " ! ";
    const std::string what = median + " ! " + gauss + ", 4K RGBA in CUDA memory, a context " +
                             (c.prefer ? "preferring" : "not preferring") +
                             " stream-ordered allocation, frames-in-flight=" +
                             std::to_string(c.depth);
    Output got;
    StreamOrderedCount into_median, into_gauss;
    Pipeline pipeline(app_line("cudaupload" + cuda + median + in_flight + " name=probed" + cuda +
                               gauss + in_flight + cuda + "cudadownload ! video/x-raw"),
                      got);
    pipeline.share(context);
    gst_context_unref(context);
    GstElement *element = pipeline.element("probed");
    for (auto [pad_name, count] : {std::pair{"sink", &into_median}, std::pair{"src", &into_gauss}}) {
      GstPad *pad = gst_element_get_static_pad(element, pad_name);
      gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, note_stream_ordered, count, nullptr);
      gst_object_unref(pad);
    }
    gst_object_unref(element);
    pipeline.feed(stream, 29);
    pipeline.pull_to_eos();
    check_same(got, want, what);
    for (auto [pool, count] : {std::pair{"cudamedian's", &into_median},
                               std::pair{"cudagauss's", &into_gauss}}) {
      fail_unless_equals_int(count->buffers, 6);
      fail_unless(count->stream_ordered == (c.prefer ? 6 : 0),
                  "%s: %d of 6 buffers from the pool %s proposed were allocated stream-ordered",
                  what.c_str(), count->stream_ordered.load(), pool);
    }
  }
}
GST_END_TEST;
#endif

}  // namespace

int main(int argc, char **argv) {
  if (argc > 1 && g_str_equal(argv[1], "two-devices"))
    return cftest::run_gpu_suite("cuda_memory_two_devices",
                                 {
                                     CF_GPU_TEST(test_second_device),
                                     CF_GPU_TEST(test_frames_of_another_device),
                                     CF_GPU_TEST(test_chain_follows_first_device),
                                 },
                                 argc, argv, 2);
  return cftest::run_gpu_suite("cuda_memory",
                               {
                                   CF_GPU_TEST(test_four_ways),
                                   CF_GPU_TEST(test_chain_without_copies),
                                   CF_GPU_TEST(test_two_contexts_of_one_device),
                                   CF_GPU_TEST(test_format_cuda_memory_cannot_hold),
                                   CF_GPU_TEST(test_cuda_memory_eos),
                                   CF_GPU_TEST(test_cuda_memory_flush),
                                   CF_GPU_TEST(test_cuda_memory_caps_change),
                                   CF_GPU_TEST(test_cuda_memory_state_cycles),
                                   CF_GPU_TEST(test_memory_type_changes),
                                   CF_GPU_TEST(test_decoder_to_element),
#ifdef CF_HAVE_GST_CUDA_STREAM
                                   CF_GPU_TEST(test_frames_leave_ordered),
#endif
#if GST_CHECK_VERSION(1, 26, 0)
                                   CF_GPU_TEST(test_stream_ordered_allocation),
#endif
                               },
                               argc, argv);
}
