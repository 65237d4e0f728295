// The CPU median backend against the reference, and its results independent of the
// thread count.
#include <vector>

#include "median.h"
#include "median_cases.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::TestImage;

namespace {

void median_cpu_all_cores(const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth,
                          const cf::MedianParams &params) {
  cf::median_cpu(src, dst, depth, params);
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

GST_START_TEST(test_thread_counts_agree) {
  const cf::MedianParams params{5, {cf::BorderMode::Reflect101, 0}};
  for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16}) {
    // Odd height: the rows split unevenly over 3 and 4 threads.
    TestImage src(1921, 1081, depth);
    cftest::fill_random(src, 7);
    cftest::add_salt_and_pepper(src, 8, 30);
    TestImage single(src.width(), src.height(), depth);
    cf::median_cpu(src.plane(), single.plane(), depth, params, 1);
    for (const int threads : {3, 4}) {
      TestImage multi(src.width(), src.height(), depth);
      cf::median_cpu(src.plane(), multi.plane(), depth, params, threads);
      const auto mismatch = cftest::first_mismatch(multi, single);
      fail_if(mismatch.has_value(), "%s, %d threads vs. 1: %s", src.describe().c_str(), threads,
              mismatch ? cftest::describe(*mismatch).c_str() : "");
    }
  }
}
GST_END_TEST;

GST_START_TEST(test_invalid_params_leave_dst_untouched) {
  TestImage src(17, 9, cf::SampleDepth::U8);
  cftest::fill_random(src, 1);
  TestImage dst(17, 9, cf::SampleDepth::U8);
  cftest::fill_random(dst, 2);
  const std::vector<uint8_t> dst_before = dst.bytes();

  struct InvalidCall {
    const char *what;
    cf::Plane src;
    cf::SampleDepth depth;
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
  };
  for (const InvalidCall &call : calls) {
    cf::median_cpu(call.src, dst.plane(), call.depth, call.params);
    fail_unless(dst.bytes() == dst_before, "%s: dst was written", call.what);
  }

  cf::Plane empty = dst.plane();
  empty.width = 0;
  cf::median_cpu(src_with([](cf::Plane &p) { p.width = 0; }), empty, cf::SampleDepth::U8,
                 valid_params);
  fail_unless(dst.bytes() == dst_before, "zero width: dst was written");
}
GST_END_TEST;

static Suite *median_cpu_suite(void) {
  Suite *suite = suite_create("median_cpu");
  TCase *tc = tcase_create("general");
  // The reference sorts every window: seconds, not Check's default 4 s.
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_matrix);
  tcase_add_test(tc, test_large_frames);
  tcase_add_test(tc, test_thread_counts_agree);
  tcase_add_test(tc, test_invalid_params_leave_dst_untouched);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(median_cpu);
