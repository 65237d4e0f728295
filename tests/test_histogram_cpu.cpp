// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CPU histogram backend against the reference, its results independent of the
// thread count, samples at any alignment, P010 samples against their values, and its
// refusal of invalid calls.
#include <algorithm>
#include <vector>

#include "filter_cases.h"
#include "histogram.h"
#include "histogram_cases.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::HistogramResult;
using cftest::TestImage;

namespace {

void histogram_cpu_all_cores(const cf::Plane &src, cf::SampleFormat format,
                             const cf::HistogramParams &params, HistogramResult &result) {
  const cudaError_t err =
      cf::histogram_cpu(src, format, params, result.bins.data(), &result.summary);
  fail_unless(err == cudaSuccess, "histogram_cpu returned %d", static_cast<int>(err));
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_histogram_matrix(histogram_cpu_all_cores); }
GST_END_TEST;

GST_START_TEST(test_large_frames) {
  cftest::check_histogram_large_frames(histogram_cpu_all_cores);
}
GST_END_TEST;

GST_START_TEST(test_padding_bits) {
  cftest::check_histogram_padding_bits(histogram_cpu_all_cores);
}
GST_END_TEST;

GST_START_TEST(test_thread_counts_agree) {
  for (const cf::SampleFormat format :
       {cf::SampleFormat(cf::SampleDepth::U8), cf::SampleFormat(cf::SampleDepth::U16),
        cftest::kP010}) {
    // Odd height: the rows split unevenly over 3 and 4 threads. Samples below, in and
    // above the range.
    TestImage src(1921, 1081, format);
    cftest::fill_random_samples(src, 7);
    cftest::add_salt_and_pepper(src, 8, 30);
    cf::HistogramParams params = cftest::full_range_params(format);
    params.bins = 7;
    params.lower = src.max_value() / 8;
    params.upper = src.max_value() - src.max_value() / 4;
    HistogramResult single = cftest::unwritten_result(params.bins, 0);
    fail_unless(cf::histogram_cpu(src.plane(), format, params, single.bins.data(),
                                  &single.summary, 1) == cudaSuccess);
    for (const int threads : {3, 4}) {
      HistogramResult multi = cftest::unwritten_result(params.bins, 0);
      fail_unless(cf::histogram_cpu(src.plane(), format, params, multi.bins.data(),
                                    &multi.summary, threads) == cudaSuccess);
      const auto difference = cftest::first_difference(multi, single);
      fail_if(difference.has_value(), "%s, %d threads vs. 1: %s", src.describe().c_str(),
              threads, difference ? difference->c_str() : "");
    }
  }
}
GST_END_TEST;

GST_START_TEST(test_unaligned_samples) {
  // 16-bit samples 3 bytes apart, rows 52 bytes: every other sample at an odd address.
  for (const cf::SampleFormat format : {cf::SampleFormat(cf::SampleDepth::U16), cftest::kP010}) {
    TestImage src(17, 9, format, 3, 1);
    cftest::fill_random_samples(src, 3);
    const cf::HistogramParams params = cftest::full_range_params(format);
    HistogramResult got = cftest::unwritten_result(params.bins, 0);
    histogram_cpu_all_cores(src.plane(), format, params, got);
    const auto difference = cftest::first_difference(
        got, cftest::reference_histogram(src.plane(), format, params));
    fail_if(difference.has_value(), "%s: %s", src.describe().c_str(),
            difference ? difference->c_str() : "");
  }
}
GST_END_TEST;

GST_START_TEST(test_invalid_calls_refused) {
  const cf::Executor cpu;
  for (const cftest::InvalidHistogramCall &call : cftest::invalid_histogram_calls()) {
    TestImage src(17, 9, call.valid_format);
    cftest::fill_random(src, 1);
    cf::Plane plane = src.plane();
    cf::HistogramParams params = cftest::full_range_params(call.valid_format);
    call.change(plane, params);
    fail_if(cf::is_valid(params, plane, call.format), "%s: is_valid accepts it", call.what);
    // Room for every bin asked for: a backend that wrongly counts stays in bounds.
    const int bins = std::max(params.bins, 1);
    HistogramResult result = cftest::unwritten_result(bins, 0);
    const cudaError_t err =
        cf::histogram_cpu(plane, call.format, params, result.bins.data(), &result.summary);
    fail_unless(err == cudaErrorInvalidValue, "%s: returned %d", call.what,
                static_cast<int>(err));
    const cf::HistogramOutput output{result.bins.data(), &result.summary};
    fail_unless(cf::histogram(cpu, plane, call.format, params, &output, nullptr) ==
                    cudaErrorInvalidValue,
                "%s: cf::histogram accepts it", call.what);
    fail_if(cftest::first_difference(result, cftest::unwritten_result(bins, 0)).has_value(),
            "%s: outputs were written", call.what);
  }

  // No outputs to write to.
  TestImage src(17, 9, cf::SampleDepth::U8);
  const cf::HistogramParams params = cftest::full_range_params(cf::SampleDepth::U8);
  HistogramResult result = cftest::unwritten_result(params.bins, 0);
  fail_unless(cf::histogram_cpu(src.plane(), cf::SampleDepth::U8, params, nullptr,
                                &result.summary) == cudaErrorInvalidValue);
  fail_unless(cf::histogram_cpu(src.plane(), cf::SampleDepth::U8, params, result.bins.data(),
                                nullptr) == cudaErrorInvalidValue);
  fail_if(cftest::first_difference(result, cftest::unwritten_result(params.bins, 0)).has_value(),
          "a call without bins or summary wrote the other");

  // A valid call through cf::histogram (no workspace on the CPU) counts.
  const cf::HistogramOutput output{result.bins.data(), &result.summary};
  fail_unless(cf::histogram(cpu, src.plane(), cf::SampleDepth::U8, params, &output, nullptr) ==
              cudaSuccess);
  fail_if(cftest::first_difference(
              result, cftest::reference_histogram(src.plane(), cf::SampleDepth::U8, params))
              .has_value(),
          "cf::histogram on the CPU");
}
GST_END_TEST;

// ---------------------------------------------------------------------------------
// Boxes.

namespace {

void box_histograms_cpu(const cf::Plane &src, cf::SampleFormat format,
                        const cf::HistogramParams &params, const std::vector<cf::Box> &boxes,
                        std::vector<HistogramResult> &results) {
  std::vector<cf::HistogramOutput> outputs;
  for (HistogramResult &result : results)
    outputs.push_back({result.bins.data(), &result.summary});
  const cudaError_t err = cf::histogram_boxes_cpu(src, format, params, boxes.data(),
                                                  int(boxes.size()), outputs.data());
  fail_unless(err == cudaSuccess, "histogram_boxes_cpu returned %d", static_cast<int>(err));
}

// The same through cf::histogram_boxes on one thread.
void box_histograms_dispatched(const cf::Plane &src, cf::SampleFormat format,
                               const cf::HistogramParams &params,
                               const std::vector<cf::Box> &boxes,
                               std::vector<HistogramResult> &results) {
  std::vector<cf::HistogramOutput> outputs;
  for (HistogramResult &result : results)
    outputs.push_back({result.bins.data(), &result.summary});
  cf::Executor cpu;
  cpu.cpu_threads = 1;
  const cudaError_t err = cf::histogram_boxes(cpu, src, format, params, boxes.data(),
                                              int(boxes.size()), outputs.data(), nullptr);
  fail_unless(err == cudaSuccess, "histogram_boxes returned %d", static_cast<int>(err));
}

}  // namespace

GST_START_TEST(test_box_matrix) { cftest::check_box_histogram_matrix(box_histograms_cpu); }
GST_END_TEST;

GST_START_TEST(test_box_matrix_one_thread) {
  cftest::check_box_histogram_matrix(box_histograms_dispatched);
}
GST_END_TEST;

GST_START_TEST(test_box_large_frames) {
  cftest::check_box_histogram_large_frames(box_histograms_cpu);
}
GST_END_TEST;

// Calls that must be refused, outputs untouched: invalid boxes, invalid params (those
// of the region aside, which boxes do not use), missing outputs.
GST_START_TEST(test_box_invalid_calls_refused) {
  const cf::Executor cpu;
  const auto refused = [&](const char *what, const cf::Plane &plane, cf::SampleFormat format,
                           const cf::HistogramParams &params, const cf::Box *boxes, int count,
                           int missing_output) {
    const int bins = std::max(params.bins, 1);
    const int outputs_count = std::max(count, 1);
    std::vector<HistogramResult> results(outputs_count, cftest::unwritten_result(bins, 0));
    std::vector<cf::HistogramOutput> outputs;
    for (HistogramResult &result : results)
      outputs.push_back({result.bins.data(), &result.summary});
    if (missing_output >= 0)
      outputs[missing_output].summary = nullptr;
    fail_unless(cf::histogram_boxes_cpu(plane, format, params, boxes, count, outputs.data()) ==
                    cudaErrorInvalidValue,
                "%s: histogram_boxes_cpu accepts it", what);
    fail_unless(cf::histogram_boxes(cpu, plane, format, params, boxes, count, outputs.data(),
                                    nullptr) == cudaErrorInvalidValue,
                "%s: histogram_boxes accepts it", what);
    for (const HistogramResult &result : results)
      fail_if(cftest::first_difference(result, cftest::unwritten_result(bins, 0)).has_value(),
              "%s: outputs were written", what);
  };

  TestImage src(17, 9, cf::SampleDepth::U8);
  cftest::fill_random(src, 1);
  const cf::HistogramParams params = cftest::full_range_params(cf::SampleDepth::U8);
  for (const cftest::InvalidBoxes &set : cftest::invalid_box_sets()) {
    fail_if(cf::are_valid_boxes(set.boxes.data(), int(set.boxes.size()), src.plane()),
            "%s: are_valid_boxes accepts it", set.what);
    refused(set.what, src.plane(), cf::SampleDepth::U8, params, set.boxes.data(),
            int(set.boxes.size()), -1);
  }
  const cf::Box whole{0, 0, 17, 9};
  refused("no boxes for a count of 1", src.plane(), cf::SampleDepth::U8, params, nullptr, 1, -1);
  refused("a negative count", src.plane(), cf::SampleDepth::U8, params, &whole, -1, -1);
  const std::vector<cf::Box> three{{0, 0, 1, 1}, whole, {2, 2, 3, 3}};
  refused("the second box without a summary", src.plane(), cf::SampleDepth::U8, params,
          three.data(), 3, 1);

  for (const cftest::InvalidHistogramCall &call : cftest::invalid_histogram_calls()) {
    if (cftest::changes_only_roi(call))
      continue;
    TestImage image(17, 9, call.valid_format);
    cftest::fill_random(image, 1);
    cf::Plane plane = image.plane();
    cf::HistogramParams changed = cftest::full_range_params(call.valid_format);
    call.change(plane, changed);
    refused(call.what, plane, call.format, changed, &whole, 1, -1);
  }

  // No outputs at all; none needed for no boxes, where nothing is counted.
  fail_unless(cf::histogram_boxes_cpu(src.plane(), cf::SampleDepth::U8, params, &whole, 1,
                                      nullptr) == cudaErrorInvalidValue);
  fail_unless(cf::histogram_boxes_cpu(src.plane(), cf::SampleDepth::U8, params, nullptr, 0,
                                      nullptr) == cudaSuccess);
}
GST_END_TEST;

// Box histograms on 3 and 4 threads as on one; 16-bit samples at odd addresses.
GST_START_TEST(test_box_threads_and_alignment) {
  for (const cf::SampleFormat format :
       {cf::SampleFormat(cf::SampleDepth::U8), cf::SampleFormat(cf::SampleDepth::U16),
        cftest::kP010}) {
    TestImage src(1921, 1081, format);
    cftest::fill_random_samples(src, 9);
    cf::HistogramParams params = cftest::full_range_params(format);
    params.bins = 7;
    params.lower = src.max_value() / 8;
    const std::vector<cf::Box> boxes{{0, 0, 1921, 1081}, {5, 7, 1000, 999}, {1920, 0, 1, 1081}};
    std::vector<HistogramResult> single(boxes.size(), cftest::unwritten_result(params.bins, 0));
    std::vector<cf::HistogramOutput> outputs;
    for (HistogramResult &result : single)
      outputs.push_back({result.bins.data(), &result.summary});
    fail_unless(cf::histogram_boxes_cpu(src.plane(), format, params, boxes.data(),
                                        int(boxes.size()), outputs.data(), 1) == cudaSuccess);
    for (const int threads : {3, 4}) {
      std::vector<HistogramResult> multi(boxes.size(), cftest::unwritten_result(params.bins, 0));
      outputs.clear();
      for (HistogramResult &result : multi)
        outputs.push_back({result.bins.data(), &result.summary});
      fail_unless(cf::histogram_boxes_cpu(src.plane(), format, params, boxes.data(),
                                          int(boxes.size()), outputs.data(),
                                          threads) == cudaSuccess);
      for (size_t b = 0; b < boxes.size(); ++b) {
        const auto difference = cftest::first_difference(multi[b], single[b]);
        fail_if(difference.has_value(), "%s box %zu, %d threads vs. 1: %s",
                src.describe().c_str(), b, threads, difference ? difference->c_str() : "");
      }
    }
  }
  for (const cf::SampleFormat format : {cf::SampleFormat(cf::SampleDepth::U16), cftest::kP010}) {
    TestImage src(17, 9, format, 3, 1);
    cftest::fill_random_samples(src, 3);
    std::vector<cf::Box> boxes{{0, 0, 17, 9}, {1, 2, 5, 6}};
    const cf::HistogramParams params = cftest::full_range_params(format);
    std::vector<HistogramResult> got(boxes.size(), cftest::unwritten_result(params.bins, 0));
    box_histograms_cpu(src.plane(), format, params, boxes, got);
    for (size_t b = 0; b < boxes.size(); ++b) {
      cf::HistogramParams region = params;
      region.roi_x = boxes[b].x;
      region.roi_y = boxes[b].y;
      region.roi_width = boxes[b].width;
      region.roi_height = boxes[b].height;
      const auto difference = cftest::first_difference(
          got[b], cftest::reference_histogram(src.plane(), format, region));
      fail_if(difference.has_value(), "%s box %zu: %s", src.describe().c_str(), b,
              difference ? difference->c_str() : "");
    }
  }
}
GST_END_TEST;

static Suite *histogram_cpu_suite(void) {
  Suite *suite = suite_create("histogram_cpu");
  TCase *tc = tcase_create("general");
  // Thousands of cases and frames up to 3841x2161: seconds, not Check's default 4 s.
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_matrix);
  tcase_add_test(tc, test_large_frames);
  tcase_add_test(tc, test_padding_bits);
  tcase_add_test(tc, test_thread_counts_agree);
  tcase_add_test(tc, test_unaligned_samples);
  tcase_add_test(tc, test_invalid_calls_refused);
  tcase_add_test(tc, test_box_matrix);
  tcase_add_test(tc, test_box_matrix_one_thread);
  tcase_add_test(tc, test_box_large_frames);
  tcase_add_test(tc, test_box_invalid_calls_refused);
  tcase_add_test(tc, test_box_threads_and_alignment);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(histogram_cpu);
