// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Foreign host memory on the CUDA backend (plugin/stagedhostpath.cpp: pinned in
// place, or staged), counted with the plugin's own resource counts: recycled
// memory is pinned in place at its second frame, once however many elements read
// it, and unpinned when the memory is freed, not before (teardown, flush and a caps
// change leave it pinned while it lives); memory that comes once is never pinned;
// memory the driver refuses to pin (already pinned, or the fault hook) is staged,
// and the refusal leaves no error behind for the kernels. Every output is compared
// with the CPU backend's. The gpu suite: skipped (77) without a usable device. The
// plugin's objects are linked in and registered as a static plugin, as for the
// fault test.
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "cuda_test_support.h"
#include "cudafaults.h"
#include "element_checks.h"
#include "resource_counts.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

G_BEGIN_DECLS
GST_PLUGIN_STATIC_DECLARE(cudafilters);
G_END_DECLS

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 240;  // GRAY8 rows without padding: buffers compare whole

void register_plugin() {
  static const bool registered = [] {
    GST_PLUGIN_STATIC_REGISTER(cudafilters);
    return true;
  }();
  (void)registered;
}

int pinned_in_place() { return cf_live_cuda_resources(CfCudaResource::RegisteredHostMemory); }

GstBufferPool *foreign_pool(guint buffers) {
  GstBufferPool *pool = gst_video_buffer_pool_new();
  GstStructure *config = gst_buffer_pool_get_config(pool);
  GstCaps *caps = gst_caps_from_string(cftest::caps_string("GRAY8", kWidth, kHeight).c_str());
  const GstVideoInfo info = cftest::video_info("GRAY8", kWidth, kHeight);
  gst_buffer_pool_config_set_params(config, caps, GST_VIDEO_INFO_SIZE(&info), buffers, buffers);
  gst_caps_unref(caps);
  fail_unless(gst_buffer_pool_set_config(pool, config));
  fail_unless(gst_buffer_pool_set_active(pool, TRUE));
  return pool;
}

// The pool's memory freed: its buffers go when the pool stops.
void free_pool(GstBufferPool *pool) {
  fail_unless(gst_buffer_pool_set_active(pool, FALSE));
  gst_object_unref(pool);
}

// An element on the CUDA backend beside the same on the CPU backend, at one frame
// in flight, so that each push returns with that frame's output.
struct ElementPair {
  GstHarness *cuda, *cpu;
  std::string what;

  explicit ElementPair(const std::string &line) : what(line) {
    register_plugin();
    cuda = gst_harness_new_parse(("cudamedian backend=cuda frames-in-flight=1 " + line).c_str());
    cpu = gst_harness_new_parse(("cudamedian backend=cpu frames-in-flight=1 " + line).c_str());
    fail_unless(cuda && cpu, "%s", line.c_str());
    for (GstHarness *h : {cuda, cpu})
      gst_harness_set_src_caps_str(h, cftest::caps_string("GRAY8", kWidth, kHeight).c_str());
  }
  ~ElementPair() {
    gst_harness_teardown(cuda);
    gst_harness_teardown(cpu);
  }

  // `frame` (its reference taken) through both; the outputs must agree.
  void push(GstBuffer *frame, uint32_t seed) {
    cftest::fill_random_bytes(frame, seed);
    fail_unless_equals_int(gst_harness_push(cpu, gst_buffer_ref(frame)), GST_FLOW_OK);
    fail_unless_equals_int(gst_harness_push(cuda, frame), GST_FLOW_OK);
    GstBuffer *want = gst_harness_pull(cpu);
    GstBuffer *got = gst_harness_pull(cuda);
    GstMapInfo map;
    fail_unless(gst_buffer_map(want, &map, GST_MAP_READ));
    fail_unless(gst_buffer_memcmp(got, 0, map.data, map.size) == 0,
                "%s: the CUDA backend's output differs from the CPU backend's", what.c_str());
    gst_buffer_unmap(want, &map);
    gst_buffer_unref(want);
    gst_buffer_unref(got);
  }

  // Each of the pool's buffers once, in turn.
  void push_round(GstBufferPool *pool, guint buffers, uint32_t seed) {
    std::vector<GstBuffer *> held;
    for (guint i = 0; i < buffers; i++) {
      GstBuffer *frame = nullptr;
      fail_unless_equals_int(gst_buffer_pool_acquire_buffer(pool, &frame, nullptr),
                             GST_FLOW_OK);
      held.push_back(frame);
    }
    // Released only after all were taken: the next round gets the same memories.
    for (guint i = 0; i < buffers; i++)
      push(held[i], seed + i);
  }
};

GST_START_TEST(test_recycled_memory_pinned_at_second_frame) {
  constexpr guint kBuffers = 3;
  GstBufferPool *pool = foreign_pool(kBuffers);
  {
    ElementPair pair("size=3");
    pair.push_round(pool, kBuffers, 1);
    fail_unless_equals_int(pinned_in_place(), 0);  // seen once: staged
    pair.push_round(pool, kBuffers, 10);
    fail_unless_equals_int(pinned_in_place(), kBuffers);
    pair.push_round(pool, kBuffers, 20);
    fail_unless_equals_int(pinned_in_place(), kBuffers);  // once each
  }
  // The elements are gone, the memory lives on in its pool: still pinned.
  fail_unless_equals_int(pinned_in_place(), kBuffers);
  free_pool(pool);
  cftest::expect_no_cuda_resources("after the pool");
}
GST_END_TEST;

guint64 uint64_property(GstHarness *h, const char *name) {
  GstElement *element = gst_harness_find_element(h, "cudamedian");
  guint64 value = 0;
  g_object_get(element, name, &value, nullptr);
  gst_object_unref(element);
  return value;
}

GST_START_TEST(test_new_memory_never_pinned) {
  {
    ElementPair pair("size=5");
    const GstVideoInfo info = cftest::video_info("GRAY8", kWidth, kHeight);
    const guint64 frame = GST_VIDEO_INFO_SIZE(&info);
    for (int i = 0; i < 6; i++) {
      pair.push(gst_buffer_new_allocate(nullptr, frame, nullptr), 30 + i);
      fail_unless_equals_int(pinned_in_place(), 0);
    }
    // What the element says it holds, at one frame in flight: a device copy of the
    // input and of the output; a pinned staging frame and at least one buffer of
    // its output pool. The CPU backend holds neither.
    fail_unless_equals_uint64(uint64_property(pair.cuda, "device-memory"), 2 * frame);
    const guint64 pinned = uint64_property(pair.cuda, "pinned-memory");
    fail_unless(pinned >= 2 * frame && pinned <= 6 * frame, "pinned-memory %" G_GUINT64_FORMAT
                " for frames of %" G_GUINT64_FORMAT " bytes", pinned, frame);
    fail_unless_equals_uint64(uint64_property(pair.cpu, "device-memory"), 0);
    fail_unless_equals_uint64(uint64_property(pair.cpu, "pinned-memory"), 0);
  }
  cftest::expect_no_cuda_resources("after teardown");
}
GST_END_TEST;

GST_START_TEST(test_two_elements_share_one_pinning) {
  constexpr guint kBuffers = 2;
  GstBufferPool *pool = foreign_pool(kBuffers);
  {
    // Two elements, each in a context of its own, read the same memories.
    ElementPair first("size=3"), second("size=5");
    for (int round = 0; round < 3; round++) {
      first.push_round(pool, kBuffers, 40 + 10 * round);
      second.push_round(pool, kBuffers, 45 + 10 * round);
    }
    fail_unless_equals_int(pinned_in_place(), kBuffers);
  }
  free_pool(pool);
  cftest::expect_no_cuda_resources("after the pool");
}
GST_END_TEST;

GST_START_TEST(test_flush_and_caps_change_keep_pinned_memory) {
  constexpr guint kBuffers = 2;
  GstBufferPool *pool = foreign_pool(kBuffers);
  {
    ElementPair pair("size=3");
    pair.push_round(pool, kBuffers, 60);
    pair.push_round(pool, kBuffers, 62);
    fail_unless_equals_int(pinned_in_place(), kBuffers);
    for (GstHarness *h : {pair.cuda, pair.cpu}) {
      fail_unless(gst_harness_push_event(h, gst_event_new_flush_start()));
      fail_unless(gst_harness_push_event(h, gst_event_new_flush_stop(TRUE)));
      GstSegment segment;
      gst_segment_init(&segment, GST_FORMAT_TIME);
      fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));
    }
    pair.push_round(pool, kBuffers, 64);
    fail_unless_equals_int(pinned_in_place(), kBuffers);
    // Other caps and back: the memory is still the pool's, still pinned.
    for (GstHarness *h : {pair.cuda, pair.cpu}) {
      gst_harness_set_src_caps_str(h, cftest::caps_string("GRAY8", 64, 48).c_str());
      gst_harness_set_src_caps_str(h, cftest::caps_string("GRAY8", kWidth, kHeight).c_str());
    }
    pair.push_round(pool, kBuffers, 66);
    fail_unless_equals_int(pinned_in_place(), kBuffers);
  }
  free_pool(pool);
  cftest::expect_no_cuda_resources("after the pool");
}
GST_END_TEST;

GST_START_TEST(test_memory_pinned_elsewhere_is_staged) {
  constexpr guint kBuffers = 2;
  GstBufferPool *pool = foreign_pool(kBuffers);
  // Someone else pinned the pool's memory: the element's pinning is refused.
  std::vector<GstBuffer *> held(kBuffers);
  std::vector<GstMapInfo> maps(kBuffers);
  for (guint i = 0; i < kBuffers; i++) {
    fail_unless_equals_int(gst_buffer_pool_acquire_buffer(pool, &held[i], nullptr), GST_FLOW_OK);
    fail_unless(gst_buffer_map(held[i], &maps[i], GST_MAP_READ));
    cftest::fail_on_cuda_error(cudaHostRegister(maps[i].data, maps[i].size,
                                                cudaHostRegisterPortable),
                               "cudaHostRegister");
  }
  for (guint i = 0; i < kBuffers; i++) {
    gst_buffer_unmap(held[i], &maps[i]);
    gst_buffer_unref(held[i]);
  }
  {
    ElementPair pair("size=3");
    for (int round = 0; round < 3; round++)
      pair.push_round(pool, kBuffers, 70 + 10 * round);
    fail_unless_equals_int(pinned_in_place(), 0);
    fail_unless_equals_int(cudaGetLastError(), cudaSuccess);
  }
  for (guint i = 0; i < kBuffers; i++) {
    fail_unless_equals_int(gst_buffer_pool_acquire_buffer(pool, &held[i], nullptr), GST_FLOW_OK);
    fail_unless(gst_buffer_map(held[i], &maps[i], GST_MAP_READ));
    cftest::fail_on_cuda_error(cudaHostUnregister(maps[i].data), "cudaHostUnregister");
    gst_buffer_unmap(held[i], &maps[i]);
  }
  for (GstBuffer *buffer : held)
    gst_buffer_unref(buffer);
  free_pool(pool);
  cftest::expect_no_cuda_resources("after the pool");
}
GST_END_TEST;

// The fault hook's pinned point on a pinning: cudamedian at one frame in flight makes
// its pinned allocations in this order: the output pool's buffer (1), the slot's
// staging at the first foreign frame (2), then the pinnings (3: the first buffer's).
GST_START_TEST(test_refused_pinning_is_staged) {
  constexpr guint kBuffers = 2;
  GstBufferPool *pool = foreign_pool(kBuffers);
  g_setenv("GST_CUDAFILTERS_FAULT", "pinned:3", TRUE);
  {
    ElementPair pair("size=3");
    g_unsetenv("GST_CUDAFILTERS_FAULT");
    for (int round = 0; round < 3; round++)
      pair.push_round(pool, kBuffers, 90 + 10 * round);
    fail_unless(cf_faults_injected_count() == 1 &&
                    pinned_in_place() == kBuffers - 1,
                "%d faults injected, %d memories pinned in place: the third pinned call "
                "was not the first pinning",
                cf_faults_injected_count(), pinned_in_place());
  }
  free_pool(pool);
  cftest::expect_no_cuda_resources("after the pool");
}
GST_END_TEST;

}  // namespace

int main(int argc, char **argv) {
  return cftest::run_gpu_suite("foreign_memory",
                               {CF_GPU_TEST(test_recycled_memory_pinned_at_second_frame),
                                CF_GPU_TEST(test_new_memory_never_pinned),
                                CF_GPU_TEST(test_two_elements_share_one_pinning),
                                CF_GPU_TEST(test_flush_and_caps_change_keep_pinned_memory),
                                CF_GPU_TEST(test_memory_pinned_elsewhere_is_staged),
                                CF_GPU_TEST(test_refused_pinning_is_staged)},
                               argc, argv);
}
