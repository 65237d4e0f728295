// The reference median against OpenCV's medianBlur: the function every backend is held
// to is the median everyone else computes, borders included.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <initializer_list>
#include <string>

#include "median_cases.h"
#include "reference_median.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::TestImage;

namespace {

// medianBlur replicates the border itself. For the other borders the image is padded
// by the window's radius first; in the cropped result no window reaches medianBlur's
// own border.
cv::Mat opencv_median(const TestImage &src, const cf::MedianParams &params) {
  const cf::Plane &plane = src.plane();
  const cv::Mat image(plane.height, plane.width,
                      src.depth() == cf::SampleDepth::U8 ? CV_8UC1 : CV_16UC1, plane.data,
                      static_cast<size_t>(plane.row_pitch));
  cv::Mat result;
  if (params.border.mode == cf::BorderMode::Replicate) {
    cv::medianBlur(image, result, params.window);
    return result;
  }
  const int radius = params.window / 2;
  const int opencv_border = params.border.mode == cf::BorderMode::Reflect101
                                ? cv::BORDER_REFLECT_101
                                : cv::BORDER_CONSTANT;
  cv::Mat padded;
  // For 8-bit OpenCV saturates a constant beyond 255, as the reference clamps it.
  cv::copyMakeBorder(image, padded, radius, radius, radius, radius, opencv_border,
                     cv::Scalar(params.border.constant));
  cv::medianBlur(padded, result, params.window);
  return result(cv::Rect(radius, radius, plane.width, plane.height));
}

uint32_t mat_sample(const cv::Mat &mat, int x, int y) {
  return mat.depth() == CV_8U ? mat.at<uint8_t>(y, x) : mat.at<uint16_t>(y, x);
}

// Sizes include odd ones and ones smaller than every window.
void check_against_opencv(cf::SampleDepth depth, std::initializer_list<int> windows) {
  constexpr int kSizes[][2] = {{1, 1}, {2, 3}, {4, 7}, {17, 9}, {64, 33}};
  uint32_t seed = 1;
  int cases = 0;
  for (const auto &size : kSizes)
    for (const int window : windows)
      for (const cf::Border &border : cftest::median_test_borders(depth))
        for (const cftest::ImageGenerator &image : cftest::image_generators()) {
          const cf::MedianParams params{window, border};
          TestImage src(size[0], size[1], depth);
          image.fill(src, seed);
          TestImage expected(size[0], size[1], depth);
          cftest::reference_median(src.plane(), expected.plane(), depth, params);
          const cv::Mat got = opencv_median(src, params);
          for (int y = 0; y < src.height(); ++y)
            for (int x = 0; x < src.width(); ++x)
              fail_unless(mat_sample(got, x, y) == expected.at(x, y),
                          "%s, window %d, %s, image %s (seed %u): at (%d, %d) OpenCV %u, "
                          "reference %u",
                          src.describe().c_str(), window, cftest::describe(border).c_str(),
                          image.name, seed, x, y, mat_sample(got, x, y), expected.at(x, y));
          ++seed;
          ++cases;
        }
  GST_INFO("%d cases agree with OpenCV", cases);
}

}  // namespace

GST_START_TEST(test_8bit) {
  check_against_opencv(cf::SampleDepth::U8, {3, 5, 7, 9, 15, 31});
}
GST_END_TEST;

// medianBlur takes 16-bit images with windows 3 and 5 only.
GST_START_TEST(test_16bit) {
  check_against_opencv(cf::SampleDepth::U16, {3, 5});
}
GST_END_TEST;

static Suite *reference_opencv_suite(void) {
  Suite *suite = suite_create("reference_opencv");
  TCase *tc = tcase_create("general");
  // The reference sorts every window: seconds, not Check's default 4 s.
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_8bit);
  tcase_add_test(tc, test_16bit);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(reference_opencv);
