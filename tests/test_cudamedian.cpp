// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// cudamedian as a user sees it. Built twice: with CF_TEST_BACKEND "cpu" (CI) and
// "cuda" (the gpu suite, skipped by name without a device).
#include <string>

#include "element_checks.h"
#include "reference_median.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

const char *const kBackend = CF_TEST_BACKEND;

cftest::FilterUnderTest median(int size, const char *border, uint16_t border_value = 0) {
  return {"cudamedian",
          "size=" + std::to_string(size) + " border=" + border +
              " border-value=" + std::to_string(border_value),
          [size, border, border_value](const cf::Plane &src, const cf::Plane &dst,
                                       cf::SampleDepth depth) {
            cf::MedianParams params;
            params.window = size;
            params.border = cftest::border_of(border, border_value, depth);
            cftest::reference_median(src, dst, depth, params);
          }};
}

const cftest::FilterUnderTest kDefault = median(3, "replicate");

}  // namespace

GST_START_TEST(test_every_format) {
  std::vector<cftest::FilterUnderTest> variants;
  for (const char *border : {"replicate", "reflect-101", "constant"})
    for (int size : {3, 5})
      variants.push_back(median(size, border, 300));  // 300: clamps to 255 for 8-bit
  cftest::check_every_format(kBackend, variants);
}
GST_END_TEST;

GST_START_TEST(test_large_frames) {
  cftest::check_large_frames(kBackend, kDefault);
  cftest::check_frame(kBackend, median(5, "reflect-101"), "GRAY8", 1921, 1081, 8);
}
GST_END_TEST;

GST_START_TEST(test_include_chroma) {
  cftest::check_include_chroma(kBackend, median(3, "reflect-101"));
}
GST_END_TEST;

// Every window size class, on frames larger and smaller than the window.
GST_START_TEST(test_window_sizes) {
  uint32_t seed = 200;
  for (const char *format : {"GRAY8", "GRAY16_LE"})
    for (int size : {3, 5, 7, 9, 15, 31})
      for (const char *border : {"replicate", "reflect-101", "constant"}) {
        cftest::check_frame(kBackend, median(size, border, 40000), format, 67, 33, seed++);
        cftest::check_frame(kBackend, median(size, border, 40000), format, 5, 4, seed++);
      }
}
GST_END_TEST;

GST_START_TEST(test_foreign_input) { cftest::check_foreign_input(kBackend, median(3, "replicate")); }
GST_END_TEST;

GST_START_TEST(test_regions) { cftest::check_regions(kBackend, median(5, "reflect-101")); }
GST_END_TEST;

GST_START_TEST(test_region_limit) { cftest::check_region_limit(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_interlaced) { cftest::check_interlaced(kBackend, median(5, "reflect-101")); }
GST_END_TEST;

GST_START_TEST(test_start_properties) { cftest::check_start_properties("cudamedian"); }
GST_END_TEST;

GST_START_TEST(test_region_mistakes) {
  cftest::check_region_mistakes(kBackend, "cudamedian", true);
}
GST_END_TEST;

GST_START_TEST(test_downstream_pools) { cftest::check_downstream_pools(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_eos_drain) { cftest::check_eos_drain(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_flush) { cftest::check_flush(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_caps_change) { cftest::check_caps_change(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_state_cycles) { cftest::check_state_cycles(kBackend, median(5, "replicate")); }
GST_END_TEST;

GST_START_TEST(test_latency) { cftest::check_latency(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_live_source) { cftest::check_live_source(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_qos) { cftest::check_qos(kBackend, kDefault); }
GST_END_TEST;

GST_START_TEST(test_changes_mid_stream) {
  cftest::check_changes_mid_stream(kBackend, median(3, "replicate"), median(7, "constant", 99));
}
GST_END_TEST;

GST_START_TEST(test_refused_caps) { cftest::check_refused_caps("cudamedian"); }
GST_END_TEST;

GST_START_TEST(test_property_errors) {
  GstElement *element = gst_element_factory_make("cudamedian", nullptr);
  fail_unless(element != nullptr);
  // Even sizes, sizes out of range and zero frames in flight are refused with a
  // warning, and the previous value stays.
  g_object_set(element, "size", 7, nullptr);
  CF_ASSERT_REFUSED(g_object_set(element, "size", 4, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "size", 33, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "size", 1, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "frames-in-flight", 0u, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "border-value", 70000u, nullptr));
  gint size;
  guint in_flight;
  g_object_get(element, "size", &size, "frames-in-flight", &in_flight, nullptr);
  fail_unless_equals_int(size, 7);
  fail_unless_equals_int(in_flight, 2);
  gst_object_unref(element);

  // The path gst-launch-1.0 takes: a value that is not one of the enum's nicks.
  GError *error = nullptr;
  GstElement *parsed = gst_parse_launch("cudamedian border=mirror", &error);
  fail_unless(error != nullptr, "border=mirror accepted");
  fail_unless(g_error_matches(error, GST_PARSE_ERROR, GST_PARSE_ERROR_COULD_NOT_SET_PROPERTY));
  g_error_free(error);
  gst_clear_object(&parsed);
}
GST_END_TEST;

GST_START_TEST(test_backend_cuda_demanded) { cftest::check_backend_cuda_demanded("cudamedian"); }
GST_END_TEST;

GST_START_TEST(test_missing_device_id) { cftest::check_missing_device_id("cudamedian"); }
GST_END_TEST;

GST_START_TEST(test_auto_backend) { cftest::check_auto_backend("cudamedian"); }
GST_END_TEST;

GST_START_TEST(test_device_messages) { cftest::check_device_messages("cudamedian"); }
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_element_suite(
      g_str_equal(kBackend, "cuda") ? "cudamedian_gpu" : "cudamedian", kBackend,
      {
          CF_TEST(test_every_format),
          CF_TEST(test_large_frames),
          CF_TEST(test_include_chroma),
          CF_TEST(test_regions),
          CF_TEST(test_region_limit),
          CF_TEST(test_interlaced),
          CF_TEST(test_region_mistakes),
          CF_TEST(test_start_properties),
          CF_TEST(test_window_sizes),
          CF_TEST(test_foreign_input),
          CF_TEST(test_downstream_pools),
          CF_TEST(test_eos_drain),
          CF_TEST(test_flush),
          CF_TEST(test_caps_change),
          CF_TEST(test_state_cycles),
          CF_TEST(test_latency), CF_TEST(test_live_source), CF_TEST(test_qos), CF_TEST(test_changes_mid_stream),
          CF_TEST(test_refused_caps),
          CF_TEST(test_property_errors),
          CF_TEST(test_backend_cuda_demanded),
          CF_TEST(test_missing_device_id),
          CF_TEST(test_auto_backend), CF_TEST(test_device_messages),
      },
      argc, argv);
}
