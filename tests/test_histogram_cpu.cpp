// The CPU histogram backend against the reference, its results independent of the
// thread count, samples at any alignment, and its refusal of invalid parameters.
#include <algorithm>

#include "histogram.h"
#include "histogram_cases.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::HistogramResult;
using cftest::TestImage;

namespace {

void histogram_cpu_all_cores(const cf::Plane &src, cf::SampleDepth depth,
                             const cf::HistogramParams &params, HistogramResult &result) {
  cf::histogram_cpu(src, depth, params, result.bins.data(), &result.summary);
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_histogram_matrix(histogram_cpu_all_cores); }
GST_END_TEST;

GST_START_TEST(test_large_frames) {
  cftest::check_histogram_large_frames(histogram_cpu_all_cores);
}
GST_END_TEST;

GST_START_TEST(test_thread_counts_agree) {
  for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16}) {
    // Odd height: the rows split unevenly over 3 and 4 threads. Samples below, in and
    // above the range.
    TestImage src(1921, 1081, depth);
    cftest::fill_random(src, 7);
    cftest::add_salt_and_pepper(src, 8, 30);
    cf::HistogramParams params = cftest::full_range_params(depth);
    params.bins = 7;
    params.lower = src.max_value() / 8;
    params.upper = src.max_value() - src.max_value() / 4;
    HistogramResult single = cftest::unwritten_result(params.bins, 0);
    cf::histogram_cpu(src.plane(), depth, params, single.bins.data(), &single.summary, 1);
    for (const int threads : {3, 4}) {
      HistogramResult multi = cftest::unwritten_result(params.bins, 0);
      cf::histogram_cpu(src.plane(), depth, params, multi.bins.data(), &multi.summary, threads);
      const auto difference = cftest::first_difference(multi, single);
      fail_if(difference.has_value(), "%s, %d threads vs. 1: %s", src.describe().c_str(),
              threads, difference ? difference->c_str() : "");
    }
  }
}
GST_END_TEST;

GST_START_TEST(test_unaligned_samples) {
  // 16-bit samples 3 bytes apart, rows 52 bytes: every other sample at an odd address.
  TestImage src(17, 9, cf::SampleDepth::U16, 3, 1);
  cftest::fill_random(src, 3);
  const cf::HistogramParams params = cftest::full_range_params(cf::SampleDepth::U16);
  HistogramResult got = cftest::unwritten_result(params.bins, 0);
  histogram_cpu_all_cores(src.plane(), cf::SampleDepth::U16, params, got);
  const auto difference = cftest::first_difference(
      got, cftest::reference_histogram(src.plane(), cf::SampleDepth::U16, params));
  fail_if(difference.has_value(), "%s: %s", src.describe().c_str(),
          difference ? difference->c_str() : "");
}
GST_END_TEST;

GST_START_TEST(test_invalid_params_leave_outputs_untouched) {
  for (const cftest::InvalidHistogramCall &call : cftest::invalid_histogram_calls()) {
    TestImage src(17, 9, call.depth);
    cftest::fill_random(src, 1);
    cf::Plane plane = src.plane();
    cf::HistogramParams params = cftest::full_range_params(call.depth);
    call.change(plane, params);
    // Room for every bin asked for: a backend that wrongly counts stays in bounds.
    const int bins = std::max(params.bins, 1);
    HistogramResult result = cftest::unwritten_result(bins, 0);
    cf::histogram_cpu(plane, call.depth, params, result.bins.data(), &result.summary);
    fail_if(cftest::first_difference(result, cftest::unwritten_result(bins, 0)).has_value(),
            "%s: outputs were written", call.what);
  }

  // No outputs to write to.
  TestImage src(17, 9, cf::SampleDepth::U8);
  const cf::HistogramParams params = cftest::full_range_params(cf::SampleDepth::U8);
  HistogramResult result = cftest::unwritten_result(params.bins, 0);
  cf::histogram_cpu(src.plane(), cf::SampleDepth::U8, params, nullptr, &result.summary);
  cf::histogram_cpu(src.plane(), cf::SampleDepth::U8, params, result.bins.data(), nullptr);
  fail_if(cftest::first_difference(result, cftest::unwritten_result(params.bins, 0)).has_value(),
          "a call without bins or summary wrote the other");
}
GST_END_TEST;

static Suite *histogram_cpu_suite(void) {
  Suite *suite = suite_create("histogram_cpu");
  TCase *tc = tcase_create("general");
  // Thousands of cases and frames up to 3841x2161: seconds, not Check's default 4 s.
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_matrix);
  tcase_add_test(tc, test_large_frames);
  tcase_add_test(tc, test_thread_counts_agree);
  tcase_add_test(tc, test_unaligned_samples);
  tcase_add_test(tc, test_invalid_params_leave_outputs_untouched);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(histogram_cpu);
