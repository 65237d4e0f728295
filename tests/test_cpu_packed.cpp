// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CPU kernels on packed planes (several channels per pixel in one pass) against
// the references channel by channel, on one thread and on two.
#include <gst/check/gstcheck.h>

#include "gauss.h"
#include "histogram.h"
#include "median.h"
#include "packed_cases.h"

namespace {

void run_threads(const std::function<cudaError_t(int threads)> &call) {
  for (int threads : {1, 2})
    fail_unless_equals_int(call(threads), cudaSuccess);
}

}  // namespace

GST_START_TEST(test_median) {
  cftest::check_packed_median([](const cf::Plane &src, const cf::Plane &dst,
                                 cf::SampleFormat format, const cf::MedianParams &params) {
    run_threads([&](int threads) { return cf::median_cpu(src, dst, format, params, threads); });
  });
}
GST_END_TEST;

GST_START_TEST(test_gauss) {
  cftest::check_packed_gauss([](const cf::Plane &src, const cf::Plane &dst,
                                cf::SampleFormat format, const cf::GaussParams &params) {
    run_threads([&](int threads) { return cf::gauss_cpu(src, dst, format, params, threads); });
  });
}
GST_END_TEST;

GST_START_TEST(test_histogram) {
  cftest::check_packed_histogram([](const cf::Plane &src, cf::SampleFormat format,
                                    const cf::HistogramParams &params,
                                    std::vector<cftest::HistogramResult> &results) {
    std::vector<cf::HistogramOutput> outputs;
    for (cftest::HistogramResult &result : results)
      outputs.push_back({result.bins.data(), &result.summary});
    run_threads([&](int threads) {
      return cf::histogram_cpu(src, format, params, outputs.data(), threads);
    });
  });
}
GST_END_TEST;

GST_START_TEST(test_invalid_packed_planes) {
  uint8_t pixels[64] = {};
  const cf::Plane valid{pixels, 4, 2, 16, 4, 4, 0x7};
  fail_unless(cf::is_valid_plane(valid, cf::SampleDepth::U8));
  struct Change {
    const char *what;
    void (*apply)(cf::Plane &plane);
  };
  const Change changes[] = {
      {"no channels", [](cf::Plane &p) { p.channels = 0; }},
      {"5 channels", [](cf::Plane &p) { p.channels = 5; p.pixel_stride = 5; }},
      {"empty mask", [](cf::Plane &p) { p.channel_mask = 0; }},
      {"mask beyond the channels", [](cf::Plane &p) { p.channel_mask = 0x10; }},
      {"pixels overlapping", [](cf::Plane &p) { p.pixel_stride = 3; }},
      {"rows overlapping", [](cf::Plane &p) { p.row_pitch = 15; }},
  };
  const cf::MedianParams median{3, {}};
  const cf::GaussParams gauss = cf::make_gauss_params(1, 1, 0, 0, cf::SampleDepth::U8, {});
  cf::HistogramParams histogram;
  uint32_t bins[4][256];
  cf::HistogramSummary summaries[4];
  const cf::HistogramOutput outputs[4] = {
      {bins[0], &summaries[0]}, {bins[1], &summaries[1]}, {bins[2], &summaries[2]},
      {bins[3], &summaries[3]}};
  uint8_t out[64] = {};
  for (const Change &change : changes) {
    cf::Plane src = valid;
    change.apply(src);
    cf::Plane dst = src;
    dst.data = out;
    fail_if(cf::is_valid_plane(src, cf::SampleDepth::U8), "%s: valid", change.what);
    fail_unless_equals_int(cf::median_cpu(src, dst, cf::SampleDepth::U8, median),
                           cudaErrorInvalidValue);
    fail_unless_equals_int(cf::gauss_cpu(src, dst, cf::SampleDepth::U8, gauss),
                           cudaErrorInvalidValue);
    fail_unless_equals_int(cf::histogram_cpu(src, cf::SampleDepth::U8, histogram, outputs),
                           cudaErrorInvalidValue);
  }
  // src and dst of different channels or masks.
  cf::Plane dst = valid;
  dst.data = out;
  dst.channel_mask = 0xf;
  fail_unless_equals_int(cf::median_cpu(valid, dst, cf::SampleDepth::U8, median),
                         cudaErrorInvalidValue);
  // An output missing for one of the counted channels.
  const cf::HistogramOutput missing[3] = {outputs[0], outputs[1], {nullptr, &summaries[2]}};
  fail_unless_equals_int(cf::histogram_cpu(valid, cf::SampleDepth::U8, histogram, missing),
                         cudaErrorInvalidValue);
  for (uint8_t byte : out)
    fail_unless_equals_int(byte, 0);
}
GST_END_TEST;

static Suite *cpu_packed_suite() {
  Suite *suite = suite_create("cpu_packed");
  TCase *tc = tcase_create("packed");
  tcase_set_timeout(tc, 600);
  suite_add_tcase(suite, tc);
  tcase_add_test(tc, test_median);
  tcase_add_test(tc, test_gauss);
  tcase_add_test(tc, test_histogram);
  tcase_add_test(tc, test_invalid_packed_planes);
  return suite;
}

GST_CHECK_MAIN(cpu_packed);
