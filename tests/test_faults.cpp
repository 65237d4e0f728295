// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Fault injection on the CUDA path (plugin/cudafaults.h): for each element, each
// fault point and frames-in-flight 1 and 3, a CUDA call made to fail becomes an
// error from the element that names the CUDA error, the streaming thread stops
// with a fatal flow, the pipeline goes to NULL, and afterwards the plugin holds no
// CUDA resource (its own counts, exact) and no more device memory is in use than
// before (cudaMemGetInfo, which small leaks can hide in). The gpu suite: skipped
// (77) without a usable device. Every pipeline shares one CUDA context, as an
// application's pipelines would: the device's free memory then measures what the
// elements allocate, not the lifetime of a context of each pipeline.
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/gst.h>

#include <cuda_runtime_api.h>

#include <map>
#include <string>
#include <vector>

#include "cuda_test_support.h"
#include "cudafaults.h"
#include "element_checks.h"
#include "plugin_elements.h"
#include "resource_counts.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

// The test's environment has no cudafilters on its plugin path: the plugin's
// elements are those of its objects linked here, registered as a static plugin.
G_BEGIN_DECLS
GST_PLUGIN_STATIC_DECLARE(cudafilters);
G_END_DECLS

namespace {

struct Element {
  std::string name;
  const char *properties;
};

// Each element's properties here, by name, for every element of the plugin
// (tests/plugin_elements.txt; one without an entry fails the tests).
const std::map<std::string, const char *> kProperties = {
    {"cudamedian", "size=3"},
    {"cudagauss", "sigma=1.5"},
    {"cudahist", "post-messages=false"},
    {"cudaredact", "post-messages=false zones=<<4,4,24,16>>"},
};

std::vector<Element> elements() {
  std::vector<Element> all;
  for (const auto &[name, properties] :
       cftest::each_element(kProperties, "kProperties in test_faults.cpp"))
    all.push_back({name, properties});
  return all;
}

constexpr int kWidth = 64;
constexpr int kHeight = 48;
constexpr int kFrames = 6;
// More pinned allocations than a run of kFrames makes at any depth used here.
constexpr int kMaxPinnedCalls = 12;

enum class Expect {
  StartFails,  // the state change fails, with the element's error
  Error,       // the element's error while streaming; the source stops on a fatal flow
  // The element's error at the caps. GStreamer sends the caps again before the next
  // buffer, so after a one-shot failure the stream may go on once the error is
  // posted; the application stops on the ERROR.
  CapsError,
  // A pinned allocation: the element's error, or the source's where the pool the
  // element proposed upstream fails inside the source.
  PinnedError,
  DrainError,  // the element's error while draining at EOS (the source saw EOS)
  NoError,     // the stream ends normally (failing frees at teardown are only logged)
};

struct Fault {
  std::string spec;  // GST_CUDAFILTERS_FAULT
  Expect expect;
  std::string error_text;  // what the element's error must say
  const char *format = "GRAY8";
  const char *output_caps = "";  // between the element and the sink
  int frames = kFrames;
};

// How the element's messages name a CUDA error.
std::string named(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

Fault fault(const std::string &spec, Expect expect, cudaError_t err) {
  return {spec, expect, named(err)};
}

// A device that cannot be opened at start: the error gives the cause in the plugin's
// words, the skip reasons' (the runtime's error name goes to the debug string).
Fault start_fault(const std::string &spec, cudaError_t err) {
  return {spec, Expect::StartFails, cftest::unusable_device_cause(err)};
}

// Every fault point, at calls chosen to hit each path (plugin/cudafaults.h lists the
// calls at each point, in the order counted here).
std::vector<Fault> faults_at(const std::string &point, guint frames_in_flight) {
  std::vector<Fault> faults;
  if (point == "device") {
    // Calls 1 to 4 at start: counting devices, creating the context, making it
    // current, the runtime's first call in it; 5: making it current for the caps.
    faults.push_back(start_fault("device:1:cudaErrorNoDevice", cudaErrorNoDevice));
    faults.push_back(start_fault("device:2:cudaErrorInitializationError",
                                 cudaErrorInitializationError));
    faults.push_back(start_fault("device:3:cudaErrorDevicesUnavailable",
                                 cudaErrorDevicesUnavailable));
    faults.push_back(fault("device:5:cudaErrorDevicesUnavailable", Expect::CapsError,
                           cudaErrorDevicesUnavailable));
  } else if (point == "alloc") {
    // Each slot in turn: stream, events (cudahist: workspace, allocated and zeroed);
    // then the staging frames, allocated and zeroed.
    faults.push_back(fault("alloc:1:cudaErrorMemoryAllocation", Expect::CapsError,
                           cudaErrorMemoryAllocation));
    faults.push_back(fault("alloc:4:cudaErrorMemoryAllocation", Expect::CapsError,
                           cudaErrorMemoryAllocation));
    if (frames_in_flight == 3)  // in the second slot, after a whole first one
      faults.push_back(fault("alloc:7:cudaErrorMemoryAllocation", Expect::CapsError,
                             cudaErrorMemoryAllocation));
    // Output in CUDA memory (NV12: GRAY8 cannot be): after the caps' stream and
    // events (its end, and one to follow other streams) and staged input frame
    // (allocated and zeroed) of each slot, the first output buffer from the CUDA
    // memory pool. Filters only: cudahist's frames pass through.
    constexpr int kAllocationsPerSlot = 5;
    Fault pool = fault("alloc:" + std::to_string(kAllocationsPerSlot * frames_in_flight + 1) +
                           ":cudaErrorMemoryAllocation",
                       Expect::Error, cudaErrorMemoryAllocation);
    pool.format = "NV12";
    pool.output_caps = "video/x-raw(memory:CUDAMemory)";
    faults.push_back(pool);
  } else if (point == "pinned") {
    // Which pool allocates when depends on GStreamer's pools: every pinned
    // allocation in turn, until a run where the call aimed at never happens.
    for (int nth = 1; nth <= kMaxPinnedCalls; nth++)
      faults.push_back(fault("pinned:" + std::to_string(nth) + ":cudaErrorMemoryAllocation",
                             Expect::PinnedError, cudaErrorMemoryAllocation));
  } else if (point == "upload" || point == "kernel" || point == "download") {
    // One call per frame of GRAY8 (one plane; filters and cudahist alike, but
    // cudahist downloads nothing: see check_point).
    faults.push_back(fault(point + ":1:cudaErrorIllegalAddress", Expect::Error,
                           cudaErrorIllegalAddress));
    faults.push_back(fault(point + ":3:cudaErrorLaunchFailure", Expect::Error,
                           cudaErrorLaunchFailure));
    if (point == "upload") {
      // NV12: the chroma plane of the first frame fails after its luma was queued.
      Fault chroma = fault("upload:2:cudaErrorLaunchTimeout", Expect::Error,
                           cudaErrorLaunchTimeout);
      chroma.format = "NV12";
      faults.push_back(chroma);
    }
    if (point == "kernel")
      faults.push_back(fault("kernel:2:cudaErrorLaunchOutOfResources", Expect::Error,
                             cudaErrorLaunchOutOfResources));
  } else if (point == "sync") {
    // Each frame's end is recorded as it is queued; the oldest is waited for once
    // frames-in-flight of them are queued: that wait is call frames-in-flight + 1.
    faults.push_back(fault("sync:1:cudaErrorLaunchFailure", Expect::Error,
                           cudaErrorLaunchFailure));
    faults.push_back(fault("sync:" + std::to_string(frames_in_flight + 1) +
                               ":cudaErrorIllegalAddress",
                           Expect::Error, cudaErrorIllegalAddress));
    if (frames_in_flight == 3) {
      // Two frames, both held until EOS: the drain's wait for the first fails.
      Fault drain = fault("sync:3:cudaErrorECCUncorrectable", Expect::DrainError,
                          cudaErrorECCUncorrectable);
      drain.frames = 2;
      faults.push_back(drain);
    }
  } else if (point == "device-lost") {
    for (const char *spec : {"device-lost:1", "device-lost:3"})
      faults.push_back(fault(spec, Expect::Error, cudaErrorDevicesUnavailable));
  } else if (point == "free") {
    for (const char *spec : {"free:1:cudaErrorInvalidValue", "free:3:cudaErrorInvalidValue"})
      faults.push_back(fault(spec, Expect::NoError, cudaErrorInvalidValue));
  } else {
    fail("unknown fault point %s", point.c_str());
  }
  return faults;
}

// ---- what the plugin holds ----

size_t free_device_memory() {
  size_t free_bytes = 0, total_bytes = 0;
  cftest::fail_on_cuda_error(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return free_bytes;
}

// Fails unless the plugin holds no CUDA resource and the device has at least
// `free_bytes` free, as before the run.
void expect_nothing_held(const std::string &what, size_t free_bytes) {
  cftest::expect_no_cuda_resources(what + " after teardown");
  const size_t now = free_device_memory();
  fail_unless(now >= free_bytes, "%s: device memory in use grew by %zu bytes", what.c_str(),
              free_bytes - now);
}

// ---- one pipeline ----

struct Outcome {
  GstStateChangeReturn started;
  GstMessage *first;  // the first ERROR or EOS (nullptr: neither came)
  std::string source_debug;  // the debug text of the source's error, if asked for
  int frames_out;
};

// Once, before the first pipeline.
void register_plugin() {
  static const bool registered = [] {
    GST_PLUGIN_STATIC_REGISTER(cudafilters);
    return true;
  }();
  (void)registered;
}

// The CUDA context every pipeline of the test shares.
GstCudaContext *shared_context() {
  static GstCudaContext *context = gst_cuda_context_new(0);
  fail_unless(context != nullptr, "no CUDA context on device 0");
  return context;
}

std::string describe(const Element &element, guint frames_in_flight, const Fault &fault) {
  return std::string(element.name) + " frames-in-flight=" + std::to_string(frames_in_flight) +
      " " + fault.format + " " + fault.output_caps + " GST_CUDAFILTERS_FAULT=" + fault.spec;
}

// appsrc (pushing frames in plain system memory) ! element ! fakesink, with `spec` armed for the element's start (empty: unarmed); `frames`
// frames and EOS, then NULL. With `source_error`, after an error, also waits for
// the source's (posted when its streaming thread stops on a fatal flow).
Outcome run_pipeline(const Element &element, const std::string &extra_properties,
                     const std::string &output_caps,
                     guint frames_in_flight, const char *format, int frames,
                     const std::string &spec, bool source_error = false) {
  register_plugin();
  const std::string caps = cftest::caps_string(format, kWidth, kHeight);
  const std::string description = "appsrc name=src format=time caps=\"" + caps + "\" ! " +
      element.name + " name=filter backend=cuda frames-in-flight=" +
      std::to_string(frames_in_flight) + " " + element.properties + " " + extra_properties +
      (output_caps.empty() ? "" : " ! " + output_caps) + " ! fakesink name=sink sync=false enable-last-sample=false signal-handoffs=true";
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(description.c_str(), &error);
  fail_unless(pipeline != nullptr && error == nullptr, "%s", description.c_str());
  GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  Outcome outcome{GST_STATE_CHANGE_FAILURE, nullptr, "", 0};
  g_signal_connect(sink, "handoff",
                   G_CALLBACK(+[](GstElement *, GstBuffer *, GstPad *, gpointer count) {
                     ++*static_cast<int *>(count);
                   }),
                   &outcome.frames_out);
  GstBus *bus = gst_element_get_bus(pipeline);
  GstContext *context = gst_context_new_cuda_context(shared_context());
  gst_element_set_context(pipeline, context);
  gst_context_unref(context);

  if (spec.empty())
    g_unsetenv("GST_CUDAFILTERS_FAULT");
  else
    g_setenv("GST_CUDAFILTERS_FAULT", spec.c_str(), TRUE);
  outcome.started = gst_element_set_state(pipeline, GST_STATE_PLAYING);
  g_unsetenv("GST_CUDAFILTERS_FAULT");  // read at start only

  const auto done = static_cast<GstMessageType>(GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  if (outcome.started == GST_STATE_CHANGE_FAILURE) {
    outcome.first = gst_bus_pop_filtered(bus, done);
  } else {
    const GstVideoInfo info = cftest::video_info(format, kWidth, kHeight);
    for (int i = 0; i < frames; i++) {
      GstBuffer *frame = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
      gst_buffer_memset(frame, 0, static_cast<guint8>(17 * i), GST_VIDEO_INFO_SIZE(&info));
      GST_BUFFER_PTS(frame) = cftest::frame_pts(i);
      GST_BUFFER_DURATION(frame) = GST_SECOND / 30;
      GstFlowReturn pushed;
      g_signal_emit_by_name(src, "push-buffer", frame, &pushed);
      gst_buffer_unref(frame);
    }
    GstFlowReturn ended;
    g_signal_emit_by_name(src, "end-of-stream", &ended);
    outcome.first = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND, done);
  }
  if (source_error && outcome.first && GST_MESSAGE_TYPE(outcome.first) == GST_MESSAGE_ERROR) {
    GstMessage *message;
    while ((message = gst_bus_timed_pop_filtered(bus, 5 * GST_SECOND, GST_MESSAGE_ERROR))) {
      const bool from_src = GST_MESSAGE_SRC(message) == GST_OBJECT(src);
      if (from_src) {
        gchar *debug = nullptr;
        gst_message_parse_error(message, nullptr, &debug);
        outcome.source_debug = debug ? debug : "";
        g_free(debug);
      }
      gst_message_unref(message);
      if (from_src)
        break;
    }
  }

  fail_unless_equals_int(gst_element_set_state(pipeline, GST_STATE_NULL),
                         GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(bus);
  gst_object_unref(sink);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  return outcome;
}

// The element's error: fails unless `message` is one from "filter" whose text
// contains `text`.
void expect_element_error(GstMessage *message, const std::string &text,
                          const std::string &what) {
  fail_unless(message != nullptr, "%s: neither an error nor EOS", what.c_str());
  fail_unless(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR, "%s: EOS, no error",
              what.c_str());
  GError *error = nullptr;
  gchar *debug = nullptr;
  gst_message_parse_error(message, &error, &debug);
  const std::string source = GST_OBJECT_NAME(GST_MESSAGE_SRC(message));
  const std::string got = error->message;
  g_error_free(error);
  g_free(debug);
  fail_unless(source == "filter", "%s: the first error is from %s: %s", what.c_str(),
              source.c_str(), got.c_str());
  fail_unless(got.find(text) != std::string::npos,
              "%s: the error \"%s\" does not say \"%s\"", what.c_str(), got.c_str(),
              text.c_str());
}

// Runs one fault; returns whether it was injected (the call it aims at happened).
bool run_fault(const Element &element, guint frames_in_flight, const Fault &fault,
               size_t free_bytes) {
  const std::string what = describe(element, frames_in_flight, fault);
  Outcome outcome = run_pipeline(element, "", fault.output_caps, frames_in_flight,
                                 fault.format, fault.frames,
                                 fault.spec, fault.expect == Expect::Error);
  const bool injected = cf_faults_injected_count() > 0;
  if (fault.expect == Expect::PinnedError && !injected) {
    if (outcome.first)
      gst_message_unref(outcome.first);
    expect_nothing_held(what, free_bytes);
    return false;
  }
  fail_unless(injected, "%s: the call it aims at did not happen", what.c_str());
  switch (fault.expect) {
    case Expect::StartFails:
      fail_unless(outcome.started == GST_STATE_CHANGE_FAILURE, "%s: started",
                  what.c_str());
      expect_element_error(outcome.first, fault.error_text, what);
      break;
    case Expect::Error:
      fail_unless(outcome.started != GST_STATE_CHANGE_FAILURE, "%s: did not start",
                  what.c_str());
      expect_element_error(outcome.first, fault.error_text, what);
      // A caps-time failure stops the source as not-negotiated, a frame's as error.
      fail_unless(outcome.source_debug.find("reason error") != std::string::npos ||
                      outcome.source_debug.find("reason not-negotiated") !=
                          std::string::npos,
                  "%s: the source did not stop on a fatal flow (its error: \"%s\")",
                  what.c_str(), outcome.source_debug.c_str());
      break;
    case Expect::CapsError:
    case Expect::DrainError:
      fail_unless(outcome.started != GST_STATE_CHANGE_FAILURE, "%s: did not start",
                  what.c_str());
      expect_element_error(outcome.first, fault.error_text, what);
      break;
    case Expect::PinnedError:
      fail_unless(outcome.first != nullptr &&
                      GST_MESSAGE_TYPE(outcome.first) == GST_MESSAGE_ERROR,
                  "%s: no error", what.c_str());
      if (!g_str_equal(GST_OBJECT_NAME(GST_MESSAGE_SRC(outcome.first)), "src"))
        expect_element_error(outcome.first, fault.error_text, what);
      break;
    case Expect::NoError:
      fail_unless(outcome.first != nullptr &&
                      GST_MESSAGE_TYPE(outcome.first) == GST_MESSAGE_EOS,
                  "%s: did not end with EOS", what.c_str());
      fail_unless_equals_int(outcome.frames_out, fault.frames);
      break;
  }
  if (outcome.first)
    gst_message_unref(outcome.first);
  expect_nothing_held(what, free_bytes);
  return true;
}

// Runs every element unarmed in every configuration the faults use, so that the
// CUDA contexts and the kernels' modules are loaded; returns the device's free
// memory then.
size_t warm_up() {
  for (const Element &element : elements())
    for (guint frames_in_flight : {1u, 3u})
      for (const char *format : {"GRAY8", "NV12"}) {
        const Fault none{"", Expect::NoError, "", format};
        const std::string what = describe(element, frames_in_flight, none);
        Outcome outcome = run_pipeline(element, "", "", frames_in_flight, format, kFrames, "");
        fail_unless(outcome.first != nullptr &&
                        GST_MESSAGE_TYPE(outcome.first) == GST_MESSAGE_EOS,
                    "%s: did not end with EOS", what.c_str());
        gst_message_unref(outcome.first);
        fail_unless_equals_int(outcome.frames_out, kFrames);
      }
  // Output in CUDA memory too (the faults at the CUDA memory pool): the filters;
  // the frames of elements working in place leave in the memory they came in.
  for (const Element &element : elements()) {
    if (cftest::works_in_place(element.name))
      continue;
    Outcome outcome = run_pipeline(element, "", "video/x-raw(memory:CUDAMemory)", 1, "NV12",
                                   kFrames, "");
    fail_unless(outcome.first != nullptr && GST_MESSAGE_TYPE(outcome.first) == GST_MESSAGE_EOS,
                "%s with CUDA memory out: did not end with EOS", element.name.c_str());
    gst_message_unref(outcome.first);
  }
  const size_t free_bytes = free_device_memory();
  expect_nothing_held("after the warm-up", free_bytes);
  return free_bytes;
}

void check_point(const char *point) {
  const size_t free_bytes = warm_up();
  for (const Element &element : elements())
    for (guint frames_in_flight : {1u, 3u})
      for (const Fault &fault : faults_at(point, frames_in_flight)) {
        // Frames in place keep their memory (no output pool); an analysis's
        // kernels write its results into pinned memory (no download), where an
        // element that edits its frames sends back what it wrote.
        if (cftest::works_in_place(element.name) &&
            (*fault.output_caps ||
             (g_str_equal(point, "download") && !cftest::edits_frames(element.name))))
          continue;
        // Pinned faults go through the allocations in order: the first one missed
        // was the last allocation plus one; at least one must have happened.
        if (!run_fault(element, frames_in_flight, fault, free_bytes)) {
          fail_if(fault.spec == "pinned:1:cudaErrorMemoryAllocation",
                  "%s: no pinned allocation at all",
                  describe(element, frames_in_flight, fault).c_str());
          break;
        }
      }
}

}  // namespace

GST_START_TEST(test_device) { check_point("device"); }
GST_END_TEST;

GST_START_TEST(test_alloc) { check_point("alloc"); }
GST_END_TEST;

GST_START_TEST(test_pinned) { check_point("pinned"); }
GST_END_TEST;

GST_START_TEST(test_upload) { check_point("upload"); }
GST_END_TEST;

GST_START_TEST(test_kernel) { check_point("kernel"); }
GST_END_TEST;

GST_START_TEST(test_download) { check_point("download"); }
GST_END_TEST;

GST_START_TEST(test_sync) { check_point("sync"); }
GST_END_TEST;

GST_START_TEST(test_device_lost) { check_point("device-lost"); }
GST_END_TEST;

GST_START_TEST(test_free) { check_point("free"); }
GST_END_TEST;

// A device-id that does not exist: a clear error at start, and nothing held.
GST_START_TEST(test_missing_device_id) {
  const size_t free_bytes = warm_up();
  for (const Element &element : elements()) {
    cftest::check_missing_device_id(element.name.c_str());
    const std::string what = std::string(element.name) + " cuda-device-id=4000";
    Outcome outcome = run_pipeline(element, "cuda-device-id=4000", "", 1, "GRAY8", kFrames, "");
    fail_unless(outcome.started == GST_STATE_CHANGE_FAILURE, "%s: started", what.c_str());
    expect_element_error(outcome.first, "CUDA device 4000 does not exist", what);
    gst_message_unref(outcome.first);
    expect_nothing_held(what, free_bytes);
  }
}
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_gpu_suite("faults",
                               {CF_GPU_TEST(test_device), CF_GPU_TEST(test_alloc),
                                CF_GPU_TEST(test_pinned), CF_GPU_TEST(test_upload),
                                CF_GPU_TEST(test_kernel), CF_GPU_TEST(test_download),
                                CF_GPU_TEST(test_sync), CF_GPU_TEST(test_device_lost),
                                CF_GPU_TEST(test_free), CF_GPU_TEST(test_missing_device_id)},
                               argc, argv);
}
