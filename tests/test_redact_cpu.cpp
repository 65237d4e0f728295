// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CPU redaction backend against the tests' reference (redact_cases.h), with one
// thread and with several, and its refusal of invalid calls.
#include <cstdint>
#include <vector>

#include "redact.h"
#include "redact_cases.h"

// Last: Check defines macros (fail, ...) that break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

cftest::RedactRunner cpu_runner(int threads) {
  return [threads](uint8_t *, size_t, const std::vector<cf::RedactView> &views,
                   cf::SampleFormat format, const cf::RedactParams &params) {
    return cf::redact_cpu(views.data(), int(views.size()), format, params, threads);
  };
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_redact_matrix(cpu_runner(0)); }
GST_END_TEST;

GST_START_TEST(test_matrix_one_thread) { cftest::check_redact_matrix(cpu_runner(1)); }
GST_END_TEST;

GST_START_TEST(test_edge_cases) { cftest::check_redact_edge_cases(cpu_runner(0)); }
GST_END_TEST;

GST_START_TEST(test_edge_cases_three_threads) { cftest::check_redact_edge_cases(cpu_runner(3)); }
GST_END_TEST;

GST_START_TEST(test_masks) { cftest::check_redact_masks(cpu_runner(0)); }
GST_END_TEST;

GST_START_TEST(test_invalid_calls) { cftest::check_redact_invalid_calls(cpu_runner(0)); }
GST_END_TEST;

// The executor's CPU path is redact_cpu's.
GST_START_TEST(test_executor) {
  cftest::check_redact_edge_cases([](uint8_t *, size_t, const std::vector<cf::RedactView> &views,
                                     cf::SampleFormat format, const cf::RedactParams &params) {
    return cf::redact(cf::Executor{}, views.data(), int(views.size()), format, params, nullptr, 0);
  });
}
GST_END_TEST;

static Suite *redact_cpu_suite() {
  Suite *suite = suite_create("redact_cpu");
  TCase *tc = tcase_create("cpu");
  tcase_set_timeout(tc, 240);
  suite_add_tcase(suite, tc);
  tcase_add_test(tc, test_matrix);
  tcase_add_test(tc, test_matrix_one_thread);
  tcase_add_test(tc, test_edge_cases);
  tcase_add_test(tc, test_edge_cases_three_threads);
  tcase_add_test(tc, test_masks);
  tcase_add_test(tc, test_invalid_calls);
  tcase_add_test(tc, test_executor);
  return suite;
}

GST_CHECK_MAIN(redact_cpu);
