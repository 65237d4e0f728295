// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CPU Gaussian backend against the reference, its results independent of the
// thread count, P010 samples against their values and its clamps, its refusal of
// invalid calls, and the taps it is given.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "filter_cases.h"
#include "gauss.h"
#include "gauss_cases.h"
#include "region_cases.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::TestImage;

namespace {

void gauss_cpu_all_cores(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                         const cf::GaussParams &params) {
  const cudaError_t err = cf::gauss_cpu(src, dst, format, params);
  fail_unless(err == cudaSuccess, "gauss_cpu returned %d", static_cast<int>(err));
}

// What is wrong with gauss_taps(sigma, size, bits), or nothing.
std::optional<std::string> taps_problem(double sigma, int size, int bits) {
  const std::vector<int32_t> taps = cf::gauss_taps(sigma, size, bits);
  if (taps.size() != static_cast<size_t>(size))
    return std::to_string(taps.size()) + " taps";
  const int radius = size / 2;
  double weight_sum = 0;
  for (int i = -radius; i <= radius; ++i)
    weight_sum += std::exp(-i * i / (2 * sigma * sigma));
  int64_t sum = 0;
  for (int i = -radius; i <= radius; ++i) {
    const int32_t tap = taps[i + radius];
    sum += tap;
    if (tap < 0 || tap != taps[radius - i])
      return "tap " + std::to_string(i) + " is " + std::to_string(tap) + ", its mirror " +
             std::to_string(taps[radius - i]);
    // Rounded to nearest: the centre alone takes the residue of all the rounding.
    const double exact = std::ldexp(std::exp(-i * i / (2 * sigma * sigma)) / weight_sum, bits);
    if (i != 0 && std::fabs(tap - exact) > 0.5 + 1e-9)
      return "tap " + std::to_string(i) + " is " + std::to_string(tap) + ", the Gaussian " +
             std::to_string(exact);
  }
  if (sum != int64_t{1} << bits)
    return "taps sum to " + std::to_string(sum);
  return std::nullopt;
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_gauss_matrix(gauss_cpu_all_cores); }
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_gauss_large_frames(gauss_cpu_all_cores); }
GST_END_TEST;

GST_START_TEST(test_padding_bits) { cftest::check_gauss_padding_bits(gauss_cpu_all_cores); }
GST_END_TEST;

GST_START_TEST(test_unsharp_clamps) { cftest::check_gauss_unsharp_clamps(gauss_cpu_all_cores); }
GST_END_TEST;

// Output regions: every box set, layout and format against the whole plane's output.
GST_START_TEST(test_regions) {
  cftest::check_regions("gauss_cpu regions", cftest::region_images({{1, 1}, {10, 7}, {53, 41}}),
                        cftest::gauss_region_filters(gauss_cpu_all_cores));
}
GST_END_TEST;

GST_START_TEST(test_thread_counts_agree) {
  // The large frame's odd height splits unevenly over 3 and 4 threads; the small one
  // is worth 2 threads, bands of 17 rows shorter than the vertical radius of 30.
  const struct {
    int width;
    int height;
    double sigma_y;
  } frames[] = {{1921, 1081, 5}, {64, 33, 10}};
  for (const auto &frame : frames)
    for (const cf::SampleFormat format :
         {cf::SampleFormat(cf::SampleDepth::U8), cf::SampleFormat(cf::SampleDepth::U16),
          cftest::kP010}) {
      cf::GaussParams params = cf::make_gauss_params(2.5, frame.sigma_y, 0, 0, format,
                                                     {cf::BorderMode::Reflect101, 0});
      params.mode = cf::GaussMode::Unsharp;
      params.amount_q8 = 384;
      TestImage src(frame.width, frame.height, format);
      cftest::fill_random_samples(src, 7);
      cftest::add_salt_and_pepper(src, 8, 30);
      TestImage single(src.width(), src.height(), format);
      fail_unless(cf::gauss_cpu(src.plane(), single.plane(), format, params, 1) == cudaSuccess);
      for (const int threads : {3, 4}) {
        TestImage multi(src.width(), src.height(), format);
        fail_unless(cf::gauss_cpu(src.plane(), multi.plane(), format, params, threads) ==
                    cudaSuccess);
        const auto mismatch = cftest::first_mismatch(multi, single);
        fail_if(mismatch.has_value(), "%s, %d threads vs. 1: %s", src.describe().c_str(),
                threads, mismatch ? cftest::describe(*mismatch).c_str() : "");
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
    cf::GaussParams params;
  };
  const cf::GaussParams valid = cf::make_gauss_params(1, 0, 0, 0, cf::SampleDepth::U8, {});
  const auto src_with = [&](auto change) {
    cf::Plane plane = src.plane();
    change(plane);
    return plane;
  };
  const auto params_with = [&](auto change) {
    cf::GaussParams params = valid;
    change(params);
    return params;
  };
  // 2^12, the taps' sum for 8-bit samples.
  const int32_t one = 1 << cf::gauss_tap_bits(cf::SampleDepth::U8);
  const InvalidCall calls[] = {
      {"no taps", src.plane(), cf::SampleDepth::U8,
       params_with([](cf::GaussParams &p) { p.taps_x.clear(); })},
      {"even tap count", src.plane(), cf::SampleDepth::U8,
       params_with([&](cf::GaussParams &p) { p.taps_y = {one / 4, one / 4, one / 4, one / 4}; })},
      {"123 taps", src.plane(), cf::SampleDepth::U8,
       params_with([](cf::GaussParams &p) {
         p.taps_x = cf::gauss_taps(20, 123, cf::gauss_tap_bits(cf::SampleDepth::U8));
       })},
      {"taps sum 2^B - 1", src.plane(), cf::SampleDepth::U8,
       params_with([](cf::GaussParams &p) { p.taps_x[0] -= 1; })},
      {"negative tap", src.plane(), cf::SampleDepth::U8,
       params_with([&](cf::GaussParams &p) { p.taps_y = {-1, one + 2, -1}; })},
      {"16-bit taps for 8-bit samples", src.plane(), cf::SampleDepth::U8,
       cf::make_gauss_params(1, 0, 0, 0, cf::SampleDepth::U16, {})},
      {"negative amount", src.plane(), cf::SampleDepth::U8,
       params_with([](cf::GaussParams &p) { p.amount_q8 = -1; })},
      {"amount above 10", src.plane(), cf::SampleDepth::U8,
       params_with([](cf::GaussParams &p) { p.amount_q8 = 2561; })},
      {"threshold above 255", src.plane(), cf::SampleDepth::U8,
       params_with([](cf::GaussParams &p) { p.threshold = 256; })},
      {"narrower src", src_with([](cf::Plane &p) { p.width -= 1; }), cf::SampleDepth::U8, valid},
      {"taller src", src_with([](cf::Plane &p) { p.height += 1; }), cf::SampleDepth::U8, valid},
      {"src without data", src_with([](cf::Plane &p) { p.data = nullptr; }),
       cf::SampleDepth::U8, valid},
      {"src rows overlap", src_with([](cf::Plane &p) { p.row_pitch = 5; }), cf::SampleDepth::U8,
       valid},
      // 16-bit samples cannot be 1 byte apart.
      {"stride below sample size", src.plane(), cf::SampleDepth::U16,
       cf::make_gauss_params(1, 0, 0, 0, cf::SampleDepth::U16, {})},
      {"8-bit samples with padding bits", src.plane(), {cf::SampleDepth::U8, 1}, valid},
      {"unknown depth", src.plane(), {static_cast<cf::SampleDepth>(7), 0}, valid},
  };
  for (const InvalidCall &call : calls) {
    const cudaError_t err = cf::gauss_cpu(call.src, dst.plane(), call.format, call.params);
    fail_unless(err == cudaErrorInvalidValue, "%s: returned %d", call.what,
                static_cast<int>(err));
    fail_if(cf::is_valid(call.params, call.src, dst.plane(), call.format),
            "%s: is_valid accepts it", call.what);
    fail_unless(cf::gauss(cf::Executor{}, call.src, dst.plane(), call.format, call.params) ==
                    cudaErrorInvalidValue,
                "%s: cf::gauss accepts it", call.what);
    fail_unless(dst.bytes() == dst_before, "%s: dst was written", call.what);
  }

  // 16-bit planes: padding bits the kernels do not know, a threshold above P010's values.
  TestImage src16(17, 9, cf::SampleDepth::U16);
  cftest::fill_random(src16, 3);
  TestImage dst16(17, 9, cf::SampleDepth::U16);
  cftest::fill_random(dst16, 4);
  const std::vector<uint8_t> dst16_before = dst16.bytes();
  cf::GaussParams high_threshold = cf::make_gauss_params(1, 0, 0, 0, cftest::kP010, {});
  high_threshold.mode = cf::GaussMode::Unsharp;
  high_threshold.threshold = 1024;
  const InvalidCall calls16[] = {
      {"16 padding bits", src16.plane(), {cf::SampleDepth::U16, 16},
       cf::make_gauss_params(1, 0, 0, 0, cf::SampleDepth::U16, {})},
      {"negative padding bits", src16.plane(), {cf::SampleDepth::U16, -1},
       cf::make_gauss_params(1, 0, 0, 0, cf::SampleDepth::U16, {})},
      {"threshold above 1023 for P010", src16.plane(), cftest::kP010, high_threshold},
  };
  for (const InvalidCall &call : calls16) {
    fail_unless(cf::gauss_cpu(call.src, dst16.plane(), call.format, call.params) ==
                    cudaErrorInvalidValue,
                "%s: accepted", call.what);
    fail_unless(dst16.bytes() == dst16_before, "%s: dst was written", call.what);
  }
  // The same threshold is a valid one for plain 16-bit samples.
  fail_unless(cf::gauss_cpu(src16.plane(), dst16.plane(), cf::SampleDepth::U16,
                            high_threshold) == cudaSuccess);

  cf::Plane empty = dst.plane();
  empty.width = 0;
  fail_unless(cf::gauss_cpu(src_with([](cf::Plane &p) { p.width = 0; }), empty,
                            cf::SampleDepth::U8, valid) == cudaErrorInvalidValue);
  fail_unless(dst.bytes() == dst_before, "zero width: dst was written");

  // A valid call through cf::gauss succeeds and writes.
  fail_unless(cf::gauss(cf::Executor{}, src.plane(), dst.plane(), cf::SampleDepth::U8, valid) ==
              cudaSuccess);
  fail_unless(dst.bytes() != dst_before, "a valid call wrote nothing");
}
GST_END_TEST;

GST_START_TEST(test_taps) {
  for (const int bits : {cf::gauss_tap_bits(cf::SampleDepth::U8),
                         cf::gauss_tap_bits(cf::SampleDepth::U16)})
    for (double sigma = cf::kGaussMinSigma; sigma <= cf::kGaussMaxSigma; sigma *= 1.17)
      for (int size = 1; size <= cf::kGaussMaxKernelSize; size += 2)
        if (const auto problem = taps_problem(sigma, size, bits))
          fail("sigma %g, size %d, %d bits: %s", sigma, size, bits, problem->c_str());
  // Broken preconditions give no taps, which every backend refuses.
  fail_unless(cf::gauss_taps(1, 4, 12).empty());
  fail_unless(cf::gauss_taps(1, 0, 12).empty());
  fail_unless(cf::gauss_taps(0, 3, 12).empty());
  fail_unless(cf::gauss_taps(1, 3, 31).empty());
}
GST_END_TEST;

GST_START_TEST(test_kernel_sizes_and_params) {
  // 2 * ceil(3 * sigma) + 1, at most kGaussMaxKernelSize.
  const struct {
    double sigma;
    int size;
  } sizes[] = {{0.1, 3}, {0.5, 5}, {0.7, 7}, {1, 7}, {2.5, 17}, {5, 31}, {10, 61},
               {20, 121}, {25, 121}};
  for (const auto &expected : sizes)
    fail_unless_equals_int(cf::gauss_auto_kernel_size(expected.sigma), expected.size);

  const cf::Border border{cf::BorderMode::Constant, 9};
  const cf::GaussParams same = cf::make_gauss_params(2.5, 0, 0, 0, cf::SampleDepth::U16, border);
  fail_unless(same.taps_x == cf::gauss_taps(2.5, 17, cf::gauss_tap_bits(cf::SampleDepth::U16)));
  fail_unless(same.taps_y == same.taps_x);
  fail_unless(same.border.mode == border.mode && same.border.constant == border.constant);
  fail_unless(same.mode == cf::GaussMode::Blur);

  const cf::GaussParams apart = cf::make_gauss_params(1, 5, 0, 9, cf::SampleDepth::U8, {});
  fail_unless(apart.taps_x == cf::gauss_taps(1, 7, 12));
  fail_unless(apart.taps_y == cf::gauss_taps(5, 9, 12));
  const cf::GaussParams negative_y = cf::make_gauss_params(1, -1, 5, 0, cf::SampleDepth::U8, {});
  fail_unless(negative_y.taps_x == cf::gauss_taps(1, 5, 12));
  fail_unless(negative_y.taps_y == cf::gauss_taps(1, 7, 12));
}
GST_END_TEST;

static Suite *gauss_cpu_suite(void) {
  Suite *suite = suite_create("gauss_cpu");
  TCase *tc = tcase_create("general");
  // The reference sums every 2-D window: seconds, not Check's default 4 s.
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_matrix);
  tcase_add_test(tc, test_large_frames);
  tcase_add_test(tc, test_padding_bits);
  tcase_add_test(tc, test_unsharp_clamps);
  tcase_add_test(tc, test_regions);
  tcase_add_test(tc, test_thread_counts_agree);
  tcase_add_test(tc, test_invalid_calls_refused);
  tcase_add_test(tc, test_taps);
  tcase_add_test(tc, test_kernel_sizes_and_params);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(gauss_cpu);
