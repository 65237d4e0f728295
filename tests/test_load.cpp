// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Load: eight pipelines appsrc ! cudamedian ! cudagauss ! cudahist ! appsink (every
// element of the plugin, in the order of tests/plugin_elements.txt), each
// with its own format, size and properties, first one at a time, then all eight at
// once, each in its own threads. Together they must give what each gave alone: the
// same frames (every sample byte), the same histogram meta, the same timestamps.
// Built twice: CF_TEST_BACKEND "cpu" (CI, frames a quarter of the size on each side)
// and "cuda" (the gpu suite, skipped by name without a device). On the gpu build,
// CF_LOAD_DEVICES="0,1" (default "0") lists the CUDA devices to use: element k of
// pipeline i runs on device number (i + k) of the list when alone and (i + k + 1)
// when together, so with two devices every pipeline spans both, and each result is
// also compared across devices.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "element_checks.h"
#include "format_table.h"
#include "filter_cases.h"
#include "plugin_elements.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

const char *const kBackend = CF_TEST_BACKEND;
const bool kOnDevice = g_str_equal(kBackend, "cuda");
constexpr int kFrames = 40;

struct LoadConfig {
  const char *format;
  int width, height;  // on the gpu build; the cpu build divides both by 4
  // Each element's properties, by name, for every element of the plugin
  // (tests/plugin_elements.txt; one without an entry fails the test).
  std::map<std::string, std::string> properties;
  guint frames_in_flight;
};

// Every kernel family: median networks and sliding histograms, blur and unsharp,
// histograms of 32 to 4096 bins with ROI and range.
const LoadConfig kConfigs[] = {
    {"GRAY8", 640, 480,
     {{"cudamedian", "size=3"}, {"cudagauss", "sigma=1.0"}, {"cudahist", "bins=256"},
      {"cudaredact", "zones=<<10,10,64,48>>"}}, 2},
    {"NV12", 1280, 720,
     {{"cudamedian", "size=5 include-chroma=true"},
      {"cudagauss", "sigma=2.5 border=constant border-value=16"},
      {"cudahist", "bins=64 roi-x=8 roi-y=4 roi-width=64 roi-height=32"},
      {"cudaredact", "zones=<<100,50,300,200>> method=fill shape=ellipse feather=8"}},
     3},
    {"RGBA", 1920, 1080,
     {{"cudamedian", "size=7 border=reflect-101"},
      {"cudagauss", "mode=unsharp sigma=1.5 amount=0.8 threshold=2"},
      {"cudahist", "include-alpha=true"},
      {"cudaredact", "zones=<<64,64,256,256>> invert=true"}},
     4},
    {"I420", 1024, 768,
     {{"cudamedian", "size=9"},
      {"cudagauss", "sigma=0.8"},
      {"cudahist", "range-min=16 range-max=235 include-chroma=true"},
      {"cudaredact", "regions=frame blocks=12"}},
     1},
    {"GRAY16_LE", 800, 600,
     {{"cudamedian", "size=3 border=constant border-value=40000"},
      {"cudagauss", "sigma=3"},
      {"cudahist", "bins=1024"},
      {"cudaredact", "zones=<<1,1,333,222>,<200,100,300,300>> blocks=9"}},
     8},
    {"YUY2", 1280, 720,
     {{"cudamedian", "size=5"},
      {"cudagauss", "sigma=1.2 sigma-y=2.0"},
      {"cudahist", "include-chroma=true bins=128"},
      {"cudaredact", "zones=<<7,5,99,77>> method=fill fill-color=0xff2080c0"}},
     2},
    {"BGR", 960, 540,
     {{"cudamedian", "size=3"}, {"cudagauss", "sigma=0.6 kernel-size=5"}, {"cudahist", "bins=32"},
      {"cudaredact", "zones=<<0,0,40,40>> feather=3"}},
     3},
    {"Y444", 1920, 1080,
     {{"cudamedian", "size=15"}, {"cudagauss", "sigma=4"}, {"cudahist", "bins=4096"},
      {"cudaredact", "zones=<<500,300,640,480>> shape=ellipse"}}, 2},
};

// What a pipeline made of one frame.
struct FrameResult {
  GstClockTime pts;
  GstClockTime duration;
  size_t samples_hash;    // every sample byte, row padding left out
  std::string hist_meta;  // the GstCudaHistMeta structure
};

size_t hash_samples(GstBuffer *buffer, const GstVideoInfo &info) {
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, const_cast<GstVideoInfo *>(&info), buffer,
                                  GST_MAP_READ));
  size_t hash = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); p++) {
    const auto *data = static_cast<const char *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    const size_t row_bytes = cftest::row_bytes(info, int(p));
    for (int y = 0; y < cftest::plane_rows(info, int(p)); y++) {
      const std::string_view row(data + y * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p), row_bytes);
      hash = hash * 31 + std::hash<std::string_view>{}(row);
    }
  }
  gst_video_frame_unmap(&frame);
  return hash;
}

#ifdef CF_HAVE_CUDA
// The CUDA devices CF_LOAD_DEVICES lists.
std::vector<int> listed_devices() {
  const char *list = g_getenv("CF_LOAD_DEVICES");
  if (!list)
    list = "0";
  int count = 0;
  fail_unless(cudaGetDeviceCount(&count) == cudaSuccess);
  std::vector<int> devices;
  gchar **ids = g_strsplit(list, ",", -1);
  for (gchar **id = ids; *id; id++) {
    gchar *end = nullptr;
    const gint64 device = g_ascii_strtoll(*id, &end, 10);
    fail_unless(end != *id && *end == '\0' && device >= 0 && device < count,
                "CF_LOAD_DEVICES=\"%s\": \"%s\" is not a CUDA device of this host, which has "
                "%d (0 to %d)",
                list, *id, count, count - 1);
    devices.push_back(static_cast<int>(device));
  }
  g_strfreev(ids);
  fail_unless(!devices.empty(), "CF_LOAD_DEVICES is empty");
  return devices;
}
#endif

std::vector<int> devices_to_use() {
#ifdef CF_HAVE_CUDA
  if (kOnDevice)
    return listed_devices();
#endif
  return {0};  // device-id means nothing to the CPU backend
}

// One pipeline of kConfigs[index], fed kFrames random frames from its own thread;
// results are gathered in the sink's streaming thread and read after EOS.
class LoadPipeline {
 public:
  LoadPipeline(int index, const std::vector<int> &devices, int rotation) : index_(index) {
    const LoadConfig &config = kConfigs[index];
    // Quarter sides on the CPU and for slow runs (CF_TEST_CASES=quick: sanitizers).
    const int scale = kOnDevice && !cftest::quick_cases() ? 1 : 4;
    width_ = config.width / scale;
    height_ = config.height / scale;
    info_ = cftest::video_info(config.format, width_, height_);
    description_ = "appsrc name=src format=time block=true max-buffers=4 caps=\"" +
        cftest::caps_string(config.format, width_, height_) + "\"";
    const auto elements = cftest::each_element(
        config.properties, "kConfigs[" + std::to_string(index) + "] in test_load.cpp");
    for (size_t k = 0; k < elements.size(); k++) {
      const int device = devices[(index + k + rotation) % devices.size()];
      description_ += " ! " + cftest::element_line(
          kBackend, {elements[k].first, elements[k].second, nullptr}, config.frames_in_flight,
          kOnDevice ? "cuda-device-id=" + std::to_string(device) : "");
    }
    description_ += " ! appsink name=sink sync=false";

    GError *error = nullptr;
    pipeline_ = gst_parse_launch(description_.c_str(), &error);
    fail_unless(pipeline_ != nullptr && error == nullptr, "%s: %s", description_.c_str(),
                error ? error->message : "");
    src_ = GST_APP_SRC(gst_bin_get_by_name(GST_BIN(pipeline_), "src"));
    sink_ = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(pipeline_), "sink"));
    GstAppSinkCallbacks callbacks = {};
    callbacks.new_sample = on_sample;
    gst_app_sink_set_callbacks(sink_, &callbacks, this, nullptr);
  }
  LoadPipeline(const LoadPipeline &) = delete;
  LoadPipeline &operator=(const LoadPipeline &) = delete;
  ~LoadPipeline() {
    gst_element_set_state(pipeline_, GST_STATE_NULL);
    if (feeder_.joinable())
      feeder_.join();
    gst_object_unref(src_);
    gst_object_unref(sink_);
    gst_object_unref(pipeline_);
  }

  // Feeds frames once `go` is ready.
  void start(std::shared_future<void> go) {
    fail_if(gst_element_set_state(pipeline_, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE,
            "%s did not start", description_.c_str());
    feeder_ = std::thread([this, go] {
      go.wait();
      feed();
    });
  }

  // Waits for EOS; fails on an error.
  const std::vector<FrameResult> &finish() {
    GstBus *bus = gst_element_get_bus(pipeline_);
    GstMessage *message = gst_bus_timed_pop_filtered(
        bus, 300 * GST_SECOND, static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    gst_object_unref(bus);
    fail_unless(message != nullptr, "%s: no EOS", description_.c_str());
    std::string error;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
      GError *gerror = nullptr;
      gst_message_parse_error(message, &gerror, nullptr);
      error = gerror->message;
      g_error_free(gerror);
    }
    gst_message_unref(message);
    fail_unless(error.empty(), "%s: %s", description_.c_str(), error.c_str());
    fail_unless_equals_int(gst_element_set_state(pipeline_, GST_STATE_NULL),
                           GST_STATE_CHANGE_SUCCESS);
    feeder_.join();
    return results_;
  }

  std::string name() const {
    return "pipeline " + std::to_string(index_) + " (" + kConfigs[index_].format + " " +
        std::to_string(width_) + "x" + std::to_string(height_) + ")";
  }
  const std::string &description() const { return description_; }

 private:
  void feed() {
    for (int n = 0; n < kFrames; n++) {
      GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info_), nullptr);
      cftest::fill_random_bytes(buffer, index_ * 1000 + n);
      GST_BUFFER_PTS(buffer) = cftest::frame_pts(n);
      GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
      if (gst_app_src_push_buffer(src_, buffer) != GST_FLOW_OK)
        return;  // stopped: finish() says why
    }
    gst_app_src_end_of_stream(src_);
  }

  static GstFlowReturn on_sample(GstAppSink *sink, gpointer self_) {
    auto *self = static_cast<LoadPipeline *>(self_);
    GstSample *sample = gst_app_sink_pull_sample(sink);
    GstBuffer *buffer = gst_sample_get_buffer(sample);
    GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, "GstCudaHistMeta");
    gchar *fields = meta ? gst_structure_to_string(gst_custom_meta_get_structure(meta)) : nullptr;
    self->results_.push_back({GST_BUFFER_PTS(buffer), GST_BUFFER_DURATION(buffer),
                              hash_samples(buffer, self->info_), fields ? fields : ""});
    g_free(fields);
    gst_sample_unref(sample);
    return GST_FLOW_OK;
  }

  const int index_;
  int width_, height_;
  GstVideoInfo info_;
  std::string description_;
  GstElement *pipeline_;
  GstAppSrc *src_;
  GstAppSink *sink_;
  std::thread feeder_;
  std::vector<FrameResult> results_;
};

constexpr int kPipelines = sizeof kConfigs / sizeof kConfigs[0];

// A few characters of two long texts where they first differ.
std::string first_difference(const std::string &a, const std::string &b) {
  const size_t at = std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
  const size_t from = at > 40 ? at - 40 : 0;
  return "at character " + std::to_string(at) + ": \"" + a.substr(from, 80) + "\" against \"" +
      b.substr(from, 80) + "\"";
}

}  // namespace

GST_START_TEST(test_eight_pipelines_at_once) {
  const std::vector<int> devices = devices_to_use();

  // Alone: every frame out once, in order, with its timestamps and a meta.
  std::promise<void> ready;
  ready.set_value();
  const std::shared_future<void> now = ready.get_future().share();
  std::vector<std::vector<FrameResult>> alone;
  for (int i = 0; i < kPipelines; i++) {
    LoadPipeline pipeline(i, devices, 0);
    pipeline.start(now);
    alone.push_back(pipeline.finish());
    const std::vector<FrameResult> &frames = alone.back();
    fail_unless(frames.size() == kFrames, "%s alone: %zu frames out of %d",
                pipeline.name().c_str(), frames.size(), kFrames);
    for (int n = 0; n < kFrames; n++) {
      fail_unless(frames[n].pts == cftest::frame_pts(n) && frames[n].duration == GST_SECOND / 30,
                  "%s alone: frame %d at %" GST_TIME_FORMAT, pipeline.name().c_str(), n,
                  GST_TIME_ARGS(frames[n].pts));
      fail_if(frames[n].hist_meta.empty(), "%s alone: frame %d without a histogram meta",
              pipeline.name().c_str(), n);
    }
  }

  // Together, on the devices rotated by one, all fed from the same moment: the
  // same, frame by frame.
  std::vector<std::unique_ptr<LoadPipeline>> together;
  for (int i = 0; i < kPipelines; i++)
    together.push_back(std::make_unique<LoadPipeline>(i, devices, 1));
  std::promise<void> go;
  const std::shared_future<void> all_started = go.get_future().share();
  for (auto &pipeline : together)
    pipeline->start(all_started);
  go.set_value();
  for (int i = 0; i < kPipelines; i++) {
    const std::vector<FrameResult> &frames = together[i]->finish();
    const std::string what = together[i]->name() + " with " +
        std::to_string(kPipelines - 1) + " others (" + together[i]->description() + ")";
    fail_unless(frames.size() == kFrames, "%s: %zu frames out of %d", what.c_str(),
                frames.size(), kFrames);
    for (int n = 0; n < kFrames; n++) {
      fail_unless(frames[n].pts == alone[i][n].pts && frames[n].duration == alone[i][n].duration,
                  "%s: frame %d at %" GST_TIME_FORMAT ", alone at %" GST_TIME_FORMAT, what.c_str(),
                  n, GST_TIME_ARGS(frames[n].pts), GST_TIME_ARGS(alone[i][n].pts));
      fail_unless(frames[n].samples_hash == alone[i][n].samples_hash,
                  "%s: frame %d differs from the same frame alone", what.c_str(), n);
      fail_unless(frames[n].hist_meta == alone[i][n].hist_meta,
                  "%s: frame %d's histogram differs from alone %s", what.c_str(), n,
                  first_difference(frames[n].hist_meta, alone[i][n].hist_meta).c_str());
    }
  }
}
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_element_suite(kOnDevice ? "load_gpu" : "load", kBackend,
                                   {CF_TEST(test_eight_pipelines_at_once)}, argc, argv);
}
