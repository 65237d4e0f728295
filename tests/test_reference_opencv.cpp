// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The scalar references against OpenCV: the functions every backend is held to are
// the median, the Gaussian and the histogram everyone else computes, borders included.
// For P010 samples, those of the 10-bit values (OpenCV filters the values alone), and
// the references store their results with zero padding bits.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <vector>

#include "filter_cases.h"
#include "gauss.h"
#include "histogram.h"
#include "histogram_cases.h"
#include "reference_gauss.h"
#include "reference_histogram.h"
#include "reference_median.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::TestImage;

namespace {

// Sizes include odd ones and ones smaller than every window.
constexpr int kSizes[][2] = {{1, 1}, {2, 3}, {4, 7}, {17, 9}, {64, 33}};

// The values of src's samples (plane.h), as OpenCV sees an image: 8 or 16 bits.
cv::Mat values_of(const TestImage &src) {
  const bool bytes = src.depth() == cf::SampleDepth::U8;
  cv::Mat values(src.height(), src.width(), bytes ? CV_8UC1 : CV_16UC1);
  for (int y = 0; y < src.height(); ++y)
    for (int x = 0; x < src.width(); ++x) {
      if (bytes)
        values.at<uint8_t>(y, x) = static_cast<uint8_t>(src.at(x, y));
      else
        values.at<uint16_t>(y, x) = static_cast<uint16_t>(src.at(x, y));
    }
  return values;
}

// src's values padded by radius_x columns and radius_y rows as `border` says, so that
// in the result of a filter cropped back to src's size no window reaches OpenCV's own
// border.
cv::Mat padded(const TestImage &src, int radius_x, int radius_y, const cf::Border &border) {
  int opencv_border = cv::BORDER_CONSTANT;
  if (border.mode == cf::BorderMode::Replicate)
    opencv_border = cv::BORDER_REPLICATE;
  else if (border.mode == cf::BorderMode::Reflect101)
    opencv_border = cv::BORDER_REFLECT_101;
  cv::Mat result;
  // The constant clamped to the values' range, as the references clamp it.
  cv::copyMakeBorder(values_of(src), result, radius_y, radius_y, radius_x, radius_x,
                     opencv_border,
                     cv::Scalar(std::min<uint32_t>(border.constant, src.max_value())));
  return result;
}

// Whether every sample of `image` has its padding bits zero.
bool padding_bits_clear(const TestImage &image) {
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (image.stored(x, y) != cf::stored_sample(image.format(), image.at(x, y)))
        return false;
  return true;
}

// The images of `format`: with padding bits, one with random padding bits too.
const std::vector<cftest::ImageGenerator> &images_for(cf::SampleFormat format) {
  return format.padding_bits != 0 ? cftest::padding_image_generators()
                                  : cftest::image_generators();
}

cv::Mat opencv_median(const TestImage &src, const cf::MedianParams &params) {
  const int radius = params.window / 2;
  cv::Mat result;
  cv::medianBlur(padded(src, radius, radius, params.border), result, params.window);
  return result(cv::Rect(radius, radius, src.width(), src.height()));
}

uint32_t mat_sample(const cv::Mat &mat, int x, int y) {
  return mat.depth() == CV_8U ? mat.at<uint8_t>(y, x) : mat.at<uint16_t>(y, x);
}

void check_median_against_opencv(cf::SampleFormat format, std::initializer_list<int> windows) {
  uint32_t seed = 1;
  int cases = 0;
  for (const auto &size : kSizes)
    for (const int window : windows)
      for (const cf::Border &border : cftest::test_borders(format))
        for (const cftest::ImageGenerator &image : images_for(format)) {
          const cf::MedianParams params{window, border};
          TestImage src(size[0], size[1], format);
          image.fill(src, seed);
          TestImage expected(size[0], size[1], format);
          cftest::reference_median(src.plane(), expected.plane(), format, params);
          fail_unless(padding_bits_clear(expected), "%s: the reference left padding bits set",
                      src.describe().c_str());
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

// OpenCV's Gaussian of src, unrounded. Computed in double precision: OpenCV's CV_8U and
// CV_16U paths are fixed-point approximations of their own, measured up to 2.1 and
// 2.9 LSB away from the exact Gaussian, too far to hold a reference to 1 LSB of them.
cv::Mat opencv_gauss(const TestImage &src, double sigma_x, double sigma_y, int size_x,
                     int size_y, const cf::Border &border) {
  const int radius_x = size_x / 2;
  const int radius_y = size_y / 2;
  cv::Mat samples;
  padded(src, radius_x, radius_y, border).convertTo(samples, CV_64F);
  cv::Mat result;
  cv::GaussianBlur(samples, result, cv::Size(size_x, size_y), sigma_x, sigma_y);
  return result(cv::Rect(radius_x, radius_y, src.width(), src.height()));
}

// How the reference's samples differ from OpenCV's, rounded half up as the reference
// rounds, over many images.
struct Agreement {
  int max_difference = 0;
  std::string max_where;
  double difference_sum = 0;
  long samples = 0;
  long ties = 0;

  double mean() const { return samples > 0 ? difference_sum / samples : 0; }
};

// OpenCV's value this close to a half: both neighbours count as right. Which way such a
// value rounds is below what fixed-point taps resolve: at sigma 2.5 a checkerboard
// blurs to within 2e-5 of 127.5 away from its edges.
constexpr double kTie = 1e-3;

void compare(const TestImage &expected, const cv::Mat &opencv, const std::string &what,
             Agreement &agreement) {
  for (int y = 0; y < expected.height(); ++y)
    for (int x = 0; x < expected.width(); ++x) {
      const double value = opencv.at<double>(y, x);
      const double below = std::floor(value);
      const auto reference = static_cast<double>(expected.at(x, y));
      double difference = std::fabs(reference - std::floor(value + 0.5));
      if (std::fabs(value - below - 0.5) < kTie) {
        difference = std::min(std::fabs(reference - below), std::fabs(reference - below - 1));
        ++agreement.ties;
      }
      if (difference > agreement.max_difference) {
        agreement.max_difference = static_cast<int>(difference);
        agreement.max_where = what + " at (" + std::to_string(x) + ", " + std::to_string(y) +
                              "): reference " + std::to_string(expected.at(x, y)) +
                              ", OpenCV " + std::to_string(value);
      }
      agreement.difference_sum += difference;
      ++agreement.samples;
    }
}

// The Gaussian's acceptance criteria: every sample within 1 of OpenCV's, and a mean
// absolute difference below 0.05, for each sigma over every size, border and image.
void check_gauss_against_opencv(cf::SampleFormat format) {
  constexpr double kSigmas[][2] = {{0.5, 0.5}, {1, 1}, {2.5, 2.5}, {5, 5}, {10, 10}, {1, 2.5}};
  constexpr double kMaxMeanDifference = 0.05;
  std::string failures;
  uint32_t seed = 1;
  for (const auto &sigma : kSigmas) {
    const int size_x = cf::gauss_auto_kernel_size(sigma[0]);
    const int size_y = cf::gauss_auto_kernel_size(sigma[1]);
    Agreement agreement;
    for (const auto &size : kSizes)
      for (const cf::Border &border : cftest::test_borders(format))
        for (const cftest::ImageGenerator &image : images_for(format)) {
          const cf::GaussParams params =
              cf::make_gauss_params(sigma[0], sigma[1], size_x, size_y, format, border);
          TestImage src(size[0], size[1], format);
          image.fill(src, seed);
          TestImage expected(size[0], size[1], format);
          cftest::reference_gauss(src.plane(), expected.plane(), format, params);
          fail_unless(padding_bits_clear(expected), "%s: the reference left padding bits set",
                      src.describe().c_str());
          compare(expected,
                  opencv_gauss(src, sigma[0], sigma[1], size_x, size_y, border),
                  src.describe() + ", " + cftest::describe(border) + ", image " + image.name +
                      " (seed " + std::to_string(seed) + ")",
                  agreement);
          ++seed;
        }
    char figures[160];
    std::snprintf(figures, sizeof figures,
                  "sigma %gx%g (taps %dx%d): max difference %d, mean %.4f over %ld samples "
                  "(%ld ties)",
                  sigma[0], sigma[1], size_x, size_y, agreement.max_difference, agreement.mean(),
                  agreement.samples, agreement.ties);
    GST_INFO("%s", figures);
    if (agreement.max_difference > 1 || agreement.mean() >= kMaxMeanDifference)
      failures += std::string("\n  ") + figures + "; largest: " + agreement.max_where;
  }
  fail_unless(failures.empty(), "the reference differs from OpenCV's GaussianBlur:%s",
              failures.c_str());
}

// The reference's histogram against cv::calcHist, its summary against cv::minMaxLoc
// and cv::sum, over every size and the images whose histograms say something, whole
// and in a region. calcHist's uniform binning is floor(v * t - lower * t) with
// t = bins / (upper + 1 - lower) in floating point (its upper bound is exclusive): the
// ranges and bin counts below keep (upper + 1 - lower) / bins a power of two, so that
// t and every product and difference are exact and the binning is the reference's
// integer one. Elsewhere a bin edge can round to the neighbouring bin.
void check_histogram_against_opencv(cf::SampleFormat format) {
  struct Binning {
    uint32_t lower;
    uint32_t upper;  // inclusive
    int bins;
  };
  const std::vector<Binning> binnings = [&]() -> std::vector<Binning> {
    if (format.depth == cf::SampleDepth::U8)
      return {{0, 255, 1},   {0, 255, 2},   {0, 255, 16},
              {0, 255, 256}, {64, 191, 32}, {64, 191, 128}};
    if (format.padding_bits != 0)  // P010
      return {{0, 1023, 1}, {0, 1023, 256}, {0, 1023, 1024}, {256, 767, 2}, {256, 767, 512}};
    return {{0, 65535, 1},     {0, 65535, 256},   {0, 65535, 4096},
            {0, 65535, 65536}, {16384, 49151, 2}, {16384, 49151, 1024}};
  }();
  std::vector<const char *> images = {"random",        "constant-max", "horizontal-ramp",
                                      "vertical-ramp", "two-value",    "salt-and-pepper-on-random"};
  if (format.padding_bits != 0)
    images.push_back("random-padding-bits");
  uint32_t seed = 1;
  int cases = 0;
  for (const auto &size : kSizes)
    for (const char *name : images)
      for (const Binning &binning : binnings)
        for (const bool interior : {false, true}) {
          if (interior && (size[0] < 3 || size[1] < 3))
            continue;
          TestImage src(size[0], size[1], format);
          cftest::generator_named(name)->fill(src, seed);
          cf::HistogramParams params;
          params.bins = binning.bins;
          params.lower = binning.lower;
          params.upper = binning.upper;
          cv::Rect region(0, 0, size[0], size[1]);
          if (interior) {
            region = cv::Rect(1, 1, size[0] - 2, size[1] - 2);
            params.roi_x = params.roi_y = 1;
            params.roi_width = region.width;
            params.roi_height = region.height;
          }
          const cftest::HistogramResult expected =
              cftest::reference_histogram(src.plane(), format, params);

          const cv::Mat image = values_of(src)(region);
          const float range[] = {float(binning.lower), float(binning.upper) + 1};
          const float *ranges[] = {range};
          const int channels[] = {0};
          cv::Mat histogram;
          cv::calcHist(&image, 1, channels, cv::Mat(), histogram, 1, &binning.bins, ranges);
          const std::string what = src.describe() + ", image " + name + " (seed " +
                                   std::to_string(seed) + "), " + cftest::describe(params);
          // One check per case, not per bin: every check costs a message to Check.
          int bin = 0;
          while (bin < binning.bins && histogram.at<float>(bin) == float(expected.bins[bin]))
            ++bin;
          if (bin < binning.bins)
            fail("%s: bin %d: OpenCV %g, reference %u", what.c_str(), bin,
                 double(histogram.at<float>(bin)), expected.bins[bin]);

          double min = 0;
          double max = 0;
          cv::minMaxLoc(image, &min, &max);
          const double sum = cv::sum(image)[0];
          const cf::HistogramSummary &summary = expected.summary;
          fail_unless(min == summary.min && max == summary.max &&
                          sum == double(summary.sum) && summary.samples == image.total(),
                      "%s: OpenCV min %g max %g sum %g over %zu samples, reference min %u max "
                      "%u sum %llu over %u",
                      what.c_str(), min, max, sum, image.total(), summary.min, summary.max,
                      static_cast<unsigned long long>(summary.sum), summary.samples);
          ++seed;
          ++cases;
        }
  GST_INFO("%d cases agree with OpenCV", cases);
}

}  // namespace

GST_START_TEST(test_median_8bit) {
  check_median_against_opencv(cf::SampleDepth::U8, {3, 5, 7, 9, 15, 31});
}
GST_END_TEST;

// medianBlur takes 16-bit images with windows 3 and 5 only.
GST_START_TEST(test_median_16bit) {
  check_median_against_opencv(cf::SampleDepth::U16, {3, 5});
}
GST_END_TEST;

GST_START_TEST(test_gauss_8bit) { check_gauss_against_opencv(cf::SampleDepth::U8); }
GST_END_TEST;

GST_START_TEST(test_gauss_16bit) { check_gauss_against_opencv(cf::SampleDepth::U16); }
GST_END_TEST;

GST_START_TEST(test_histogram_8bit) { check_histogram_against_opencv(cf::SampleDepth::U8); }
GST_END_TEST;

GST_START_TEST(test_histogram_16bit) { check_histogram_against_opencv(cf::SampleDepth::U16); }
GST_END_TEST;

GST_START_TEST(test_median_p010) { check_median_against_opencv(cftest::kP010, {3, 5}); }
GST_END_TEST;

GST_START_TEST(test_gauss_p010) { check_gauss_against_opencv(cftest::kP010); }
GST_END_TEST;

GST_START_TEST(test_histogram_p010) { check_histogram_against_opencv(cftest::kP010); }
GST_END_TEST;

static Suite *reference_opencv_suite(void) {
  Suite *suite = suite_create("reference_opencv");
  TCase *tc = tcase_create("general");
  // The references sort or sum every window: seconds, not Check's default 4 s.
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_median_8bit);
  tcase_add_test(tc, test_median_16bit);
  tcase_add_test(tc, test_gauss_8bit);
  tcase_add_test(tc, test_gauss_16bit);
  tcase_add_test(tc, test_histogram_8bit);
  tcase_add_test(tc, test_histogram_16bit);
  tcase_add_test(tc, test_median_p010);
  tcase_add_test(tc, test_gauss_p010);
  tcase_add_test(tc, test_histogram_p010);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(reference_opencv);
