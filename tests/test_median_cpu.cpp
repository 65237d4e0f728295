// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CPU median backend against the reference, its results independent of the
// thread count, P010 samples against their values, and its refusal of invalid calls.
#include <random>
#include <vector>

#include "filter_cases.h"
#include "median.h"
#include "median_cases.h"
#include "region_cases.h"
#include "reference_median.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::TestImage;

namespace {

void median_cpu_all_cores(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                          const cf::MedianParams &params) {
  const cudaError_t err = cf::median_cpu(src, dst, format, params);
  fail_unless(err == cudaSuccess, "median_cpu returned %d", static_cast<int>(err));
}

}  // namespace

GST_START_TEST(test_matrix) {
  cftest::check_median_matrix(median_cpu_all_cores);
}
GST_END_TEST;

GST_START_TEST(test_large_frames) {
  cftest::check_median_large_frames(median_cpu_all_cores);
}
GST_END_TEST;

GST_START_TEST(test_padding_bits) {
  cftest::check_median_padding_bits(median_cpu_all_cores);
}
GST_END_TEST;

// Output regions: every box set, layout and format against the whole plane's output.
GST_START_TEST(test_regions) {
  cftest::check_regions("median_cpu regions", cftest::region_images({{1, 1}, {10, 7}, {53, 41}}),
                        cftest::median_region_filters(median_cpu_all_cores, {3, 5, 9, 15}));
}
GST_END_TEST;

GST_START_TEST(test_thread_counts_agree) {
  const cf::MedianParams params{5, {cf::BorderMode::Reflect101, 0}};
  for (const cf::SampleFormat format :
       {cf::SampleFormat(cf::SampleDepth::U8), cf::SampleFormat(cf::SampleDepth::U16),
        cftest::kP010}) {
    // Odd height: the rows split unevenly over 3 and 4 threads.
    TestImage src(1921, 1081, format);
    cftest::fill_random_samples(src, 7);
    cftest::add_salt_and_pepper(src, 8, 30);
    TestImage single(src.width(), src.height(), format);
    fail_unless(cf::median_cpu(src.plane(), single.plane(), format, params, 1) == cudaSuccess);
    for (const int threads : {3, 4}) {
      TestImage multi(src.width(), src.height(), format);
      fail_unless(cf::median_cpu(src.plane(), multi.plane(), format, params, threads) ==
                  cudaSuccess);
      const auto mismatch = cftest::first_mismatch(multi, single);
      fail_if(mismatch.has_value(), "%s, %d threads vs. 1: %s", src.describe().c_str(), threads,
              mismatch ? cftest::describe(*mismatch).c_str() : "");
    }
  }
}
GST_END_TEST;

GST_START_TEST(test_invalid_calls_refused) {
  TestImage src(17, 9, cf::SampleDepth::U8);
  cftest::fill_random(src, 1);
  TestImage dst(17, 9, cf::SampleDepth::U8);
  cftest::fill_random(dst, 2);
  const std::vector<uint8_t> dst_before = dst.bytes();

  struct InvalidCall {
    const char *what;
    cf::Plane src;
    cf::SampleFormat format;
    cf::MedianParams params;
  };
  const cf::MedianParams valid_params{3, {}};
  const auto src_with = [&](auto change) {
    cf::Plane plane = src.plane();
    change(plane);
    return plane;
  };
  const InvalidCall calls[] = {
      {"even window", src.plane(), cf::SampleDepth::U8, {4, {}}},
      {"window 1", src.plane(), cf::SampleDepth::U8, {1, {}}},
      {"window 33", src.plane(), cf::SampleDepth::U8, {33, {}}},
      {"narrower src", src_with([](cf::Plane &p) { p.width -= 1; }), cf::SampleDepth::U8,
       valid_params},
      {"taller src", src_with([](cf::Plane &p) { p.height += 1; }), cf::SampleDepth::U8,
       valid_params},
      {"src without data", src_with([](cf::Plane &p) { p.data = nullptr; }),
       cf::SampleDepth::U8, valid_params},
      {"src rows overlap", src_with([](cf::Plane &p) { p.row_pitch = 5; }),
       cf::SampleDepth::U8, valid_params},
      // 16-bit samples cannot be 1 byte apart.
      {"stride below sample size", src.plane(), cf::SampleDepth::U16, valid_params},
      // Formats the kernels do not know.
      {"8-bit samples with padding bits", src.plane(), {cf::SampleDepth::U8, 1}, valid_params},
      {"16 padding bits", src.plane(), {cf::SampleDepth::U16, 16}, valid_params},
      {"negative padding bits", src.plane(), {cf::SampleDepth::U16, -1}, valid_params},
      {"unknown depth", src.plane(), {static_cast<cf::SampleDepth>(7), 0}, valid_params},
  };
  for (const InvalidCall &call : calls) {
    const cudaError_t err = cf::median_cpu(call.src, dst.plane(), call.format, call.params);
    fail_unless(err == cudaErrorInvalidValue, "%s: returned %d", call.what,
                static_cast<int>(err));
    fail_unless(!cf::is_valid(call.params, call.src, dst.plane(), call.format),
                "%s: is_valid accepts it", call.what);
    fail_unless(dst.bytes() == dst_before, "%s: dst was written", call.what);
    // The same through the executor's dispatch.
    fail_unless(cf::median(cf::Executor{}, call.src, dst.plane(), call.format, call.params) ==
                    cudaErrorInvalidValue,
                "%s: cf::median accepts it", call.what);
    fail_unless(dst.bytes() == dst_before, "%s: dst was written by cf::median", call.what);
  }

  cf::Plane empty = dst.plane();
  empty.width = 0;
  fail_unless(cf::median_cpu(src_with([](cf::Plane &p) { p.width = 0; }), empty,
                             cf::SampleDepth::U8, valid_params) == cudaErrorInvalidValue);
  fail_unless(dst.bytes() == dst_before, "zero width: dst was written");

  // A valid call through cf::median succeeds and writes.
  fail_unless(cf::median(cf::Executor{}, src.plane(), dst.plane(), cf::SampleDepth::U8,
                         valid_params) == cudaSuccess);
  fail_unless(dst.bytes() != dst_before, "a valid call wrote nothing");
}
GST_END_TEST;

// Several planes in one call (the plugin's CPU path): the four components of an
// interleaved RGBA-like frame and a subsampled plane of its own size, windows of both
// kinds (network and sliding histogram), each plane as the reference filters it; an
// invalid plane among them refuses the whole call, writing nothing.
GST_START_TEST(test_planes_in_one_call) {
  constexpr int kWidth = 301, kHeight = 97;
  std::vector<uint8_t> rgba(kWidth * 4 * kHeight), rgba_out(rgba.size(), 0);
  std::mt19937 generator(5);
  for (uint8_t &byte : rgba)
    byte = static_cast<uint8_t>(generator());
  TestImage chroma(kWidth / 2, kHeight / 2, cf::SampleDepth::U8, 2);
  cftest::fill_random(chroma, 6);
  TestImage chroma_out(chroma.width(), chroma.height(), cf::SampleDepth::U8, 2);
  const auto component = [&](std::vector<uint8_t> &frame, int c) {
    return cf::Plane{frame.data() + c, kWidth, kHeight, kWidth * 4, 4};
  };
  for (const int window : {3, 7, 9}) {
    const cf::MedianParams params{window, {cf::BorderMode::Reflect101, 0}};
    std::vector<cf::MedianPlane> planes;
    for (int c = 0; c < 4; ++c)
      planes.push_back({component(rgba, c), component(rgba_out, c), cf::SampleDepth::U8,
                        {window, {cf::BorderMode::Constant, static_cast<uint16_t>(60 * c)}}});
    planes.push_back({chroma.plane(), chroma_out.plane(), cf::SampleDepth::U8, params});
    fail_unless(cf::median_cpu(planes, 2) == cudaSuccess);
    for (const cf::MedianPlane &plane : planes) {
      TestImage expected(plane.src.width, plane.src.height, cf::SampleDepth::U8);
      cftest::reference_median(plane.src, expected.plane(), plane.format, plane.params);
      for (int y = 0; y < plane.src.height; ++y)
        for (int x = 0; x < plane.src.width; ++x)
          fail_unless(plane.dst.data[y * plane.dst.row_pitch + x * plane.dst.pixel_stride] ==
                          expected.at(x, y),
                      "window %d, plane of %dx%d at (%d, %d)", window, plane.src.width,
                      plane.src.height, x, y);
    }
  }

  const std::vector<uint8_t> before = rgba_out;
  std::vector<cf::MedianPlane> planes = {
      {component(rgba, 0), component(rgba_out, 0), cf::SampleDepth::U8, {3, {}}},
      {component(rgba, 1), component(rgba_out, 1), cf::SampleDepth::U8, {4, {}}}};
  fail_unless(cf::median_cpu(planes) == cudaErrorInvalidValue);
  fail_unless(rgba_out == before, "a refused call wrote");
}
GST_END_TEST;

static Suite *median_cpu_suite(void) {
  Suite *suite = suite_create("median_cpu");
  TCase *tc = tcase_create("general");
  // The reference sorts every window: seconds, not Check's default 4 s.
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_matrix);
  tcase_add_test(tc, test_large_frames);
  tcase_add_test(tc, test_padding_bits);
  tcase_add_test(tc, test_regions);
  tcase_add_test(tc, test_thread_counts_agree);
  tcase_add_test(tc, test_invalid_calls_refused);
  tcase_add_test(tc, test_planes_in_one_call);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(median_cpu);
