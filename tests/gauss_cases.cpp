// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "gauss_cases.h"

#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "filter_cases.h"
#include "reference_gauss.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

namespace cftest {
namespace {

// make_gauss_params' arguments: sigma_y 0 means sigma_x, sizes 0 automatic.
struct Kernel {
  double sigma_x;
  double sigma_y;
  int size_x;
  int size_y;
};

struct Mode {
  cf::GaussMode mode;
  int32_t amount_q8;
  uint32_t threshold;
};

constexpr int32_t kAmount1_5 = 384;
constexpr Mode kBlur{cf::GaussMode::Blur, 256, 0};
constexpr Mode kUnsharp{cf::GaussMode::Unsharp, kAmount1_5, 0};
constexpr Mode kUnsharpThreshold10{cf::GaussMode::Unsharp, kAmount1_5, 10};
// Amount 10, the largest: overshoots to 0 and the maximum wherever there is detail.
constexpr Mode kUnsharpStrong{cf::GaussMode::Unsharp, cf::kGaussMaxAmountQ8, 3};

struct GaussCase {
  ImageCase images;
  Kernel kernel;
  cf::Border border;
  Mode mode;
};

cf::GaussParams params_of(const GaussCase &test) {
  cf::GaussParams params =
      cf::make_gauss_params(test.kernel.sigma_x, test.kernel.sigma_y, test.kernel.size_x,
                            test.kernel.size_y, test.images.format, test.border);
  params.mode = test.mode.mode;
  params.amount_q8 = test.mode.amount_q8;
  params.threshold = test.mode.threshold;
  return params;
}

// "sigma 1x2.5, taps 7x17, replicate, unsharp amount 384/256 threshold 10"
std::string describe_params(const GaussCase &test, const cf::GaussParams &params) {
  char text[160];
  std::snprintf(text, sizeof text, "sigma %gx%g, taps %zux%zu, ", test.kernel.sigma_x,
                test.kernel.sigma_y > 0 ? test.kernel.sigma_y : test.kernel.sigma_x,
                params.taps_x.size(), params.taps_y.size());
  std::string mode = "blur";
  if (params.mode == cf::GaussMode::Unsharp)
    mode = "unsharp amount " + std::to_string(params.amount_q8) + "/256 threshold " +
           std::to_string(params.threshold);
  return text + describe(test.border) + ", " + mode;
}

void run_gauss_cases(const GaussFilter &filter, const std::vector<GaussCase> &cases) {
  run_cases("gauss", cases.size(), [&](size_t index) -> std::optional<std::string> {
    const GaussCase &test = cases[index];
    const cf::SampleFormat format = test.images.format;
    const cf::GaussParams params = params_of(test);
    const auto failure = check_image_case(
        test.images,
        [&](const cf::Plane &src, const cf::Plane &dst) { filter(src, dst, format, params); },
        [&](const cf::Plane &src, const cf::Plane &dst) {
          reference_gauss(src, dst, format, params);
        });
    if (!failure)
      return std::nullopt;
    return describe_params(test, params) + ", " + *failure;
  });
}

constexpr int kSizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {17, 9}, {64, 33}};
constexpr Kernel kKernels[] = {
    {0.5, 0, 0, 0},   {1, 0, 0, 0},      {2.5, 0, 0, 0},     {5, 0, 0, 0},
    {10, 0, 0, 0},    {1, 2.5, 0, 0},    {10, 0.5, 0, 0},
    // Explicit sizes: truncating a wide Gaussian, long tails of tiny or zero taps.
    {2.5, 0, 3, 3},   {2.5, 0, 15, 15},  {5, 0, 61, 61},     {10, 0, 121, 121},
    {1, 0, 121, 15},
};

}  // namespace

void check_gauss_matrix(const GaussFilter &filter) {
  constexpr Mode kModes[] = {kBlur, kUnsharp, kUnsharpThreshold10};
  constexpr size_t kModeCount = sizeof kModes / sizeof kModes[0];
  // Three of the generators per combination, in turn: for each size and depth every
  // kernel still meets every generator, at 3/8 of the reference's time.
  const size_t images_per_case = images_per_combination(3);
  const std::vector<ImageGenerator> &images = image_generators();
  const std::vector<Layout> &layouts = test_layouts();
  std::vector<GaussCase> cases;
  uint32_t seed = 1;
  size_t combination = 0;
  for (const auto &size : kSizes)
    for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16})
      for (const Kernel &kernel : kKernels)
        for (const cf::Border &border : test_borders(depth)) {
          for (size_t k = 0; k < images_per_case; ++k) {
            const size_t image = (combination * images_per_case + k) % images.size();
            cases.push_back({{size[0], size[1], depth, &images[image],
                              layouts[(image + combination) % layouts.size()], seed++},
                             kernel, border, kModes[(k + combination) % kModeCount]});
          }
          ++combination;
        }
  // P010: its own images (random padding bits too) and modes (amount 10 too).
  constexpr Mode kP010Modes[] = {kBlur, kUnsharp, kUnsharpThreshold10, kUnsharpStrong};
  constexpr size_t kP010ModeCount = sizeof kP010Modes / sizeof kP010Modes[0];
  const std::vector<ImageGenerator> &padding_images = padding_image_generators();
  for (const auto &size : kSizes)
    for (const Kernel &kernel : kKernels)
      for (const cf::Border &border : test_borders(cftest::kP010)) {
        for (size_t k = 0; k < images_per_case; ++k) {
          const size_t image = (combination * images_per_case + k) % padding_images.size();
          cases.push_back({{size[0], size[1], kP010, &padding_images[image],
                            layouts[(image + combination) % layouts.size()], seed++},
                           kernel, border, kP010Modes[(k + combination) % kP010ModeCount]});
        }
        ++combination;
      }
  run_gauss_cases(filter, cases);
}

void check_gauss_large_frames(const GaussFilter &filter) {
  using cf::BorderMode;
  using cf::SampleDepth;
  const std::vector<Layout> &layouts = test_layouts();
  const ImageGenerator &random_padding = *generator_named("random-padding-bits");
  // The reference sums the whole 2-D window per pixel: sigma above 1 on a 259x131
  // frame only, to keep the suite quick on a two-core CI machine.
  run_gauss_cases(filter, {
      {{1921, 1081, SampleDepth::U8, generator_named("random"), layouts[0], 201},
       {0.5, 0, 0, 0}, {BorderMode::Reflect101, 0}, kBlur},
      {{1921, 1081, SampleDepth::U8, generator_named("salt-and-pepper-on-random"), layouts[1],
        202},
       {1, 0, 0, 0}, {BorderMode::Constant, 77}, kUnsharp},
      {{1921, 1081, SampleDepth::U16, generator_named("random"), layouts[2], 203},
       {0.5, 0, 0, 0}, {BorderMode::Replicate, 0}, kUnsharpThreshold10},
      {{1921, 1081, SampleDepth::U16, generator_named("salt-and-pepper-on-ramp"), layouts[3],
        204},
       {1, 0, 0, 0}, {BorderMode::Constant, 40000}, kBlur},
      {{259, 131, SampleDepth::U8, generator_named("checkerboard"), layouts[4], 205},
       {5, 0, 0, 0}, {BorderMode::Constant, 300}, kBlur},
      {{259, 131, SampleDepth::U16, generator_named("two-value"), layouts[0], 206},
       {10, 0, 0, 0}, {BorderMode::Reflect101, 0}, kUnsharp},
      {{259, 131, SampleDepth::U8, generator_named("salt-and-pepper-on-ramp"), layouts[2], 207},
       {2.5, 10, 0, 0}, {BorderMode::Replicate, 0}, kUnsharpThreshold10},
      // 8-bit rows of whole 4-byte words, up to 15 taps: the group kernel's
      // interior path, over several bands and warps; then a row pitch of 520 for 517
      // samples (the last word sticks out), non-square windows and every mode.
      {{1920, 1080, SampleDepth::U8, generator_named("random"), layouts[0], 208},
       {1, 0, 5, 5}, {BorderMode::Reflect101, 0}, kBlur},
      {{1024, 300, SampleDepth::U8, generator_named("random"), layouts[0], 209},
       {2, 0, 9, 9}, {BorderMode::Reflect101, 0}, kBlur},
      {{517, 200, SampleDepth::U8, generator_named("salt-and-pepper-on-random"),
        Layout{1, 3, 1, 3}, 210},
       {4.6, 0, 15, 15}, {BorderMode::Constant, 77}, kUnsharpThreshold10},
      {{640, 120, SampleDepth::U8, generator_named("checkerboard"), layouts[0], 211},
       {1, 0, 5, 5}, {BorderMode::Replicate, 0}, kUnsharp},
      {{512, 96, SampleDepth::U8, generator_named("random"), layouts[0], 212},
       {1, 2.5, 7, 13}, {BorderMode::Constant, 300}, kBlur},
      // 16-bit rows of 15 taps, the group kernel's widest: its interior path, then odd
      // pitches (its samples loaded word by word) and a row that ends in a partial group.
      {{1024, 200, SampleDepth::U16, generator_named("random"), layouts[0], 219},
       {4.6, 0, 15, 15}, {BorderMode::Reflect101, 0}, kUnsharp},
      {{517, 120, SampleDepth::U16, generator_named("salt-and-pepper-on-ramp"),
        Layout{1, 3, 1, 1}, 220},
       {2, 3, 11, 15}, {BorderMode::Constant, 40000}, kUnsharpThreshold10},
      // P010: wide strips (ry <= 15) and narrow ones (sigma 10), every mode.
      {{1921, 1081, kP010, &random_padding, layouts[0], 213},
       {1, 0, 0, 0}, {BorderMode::Constant, 700}, kUnsharpStrong},
      {{1921, 1081, kP010, generator_named("salt-and-pepper-on-ramp"), layouts[2], 214},
       {0.5, 0, 0, 0}, {BorderMode::Reflect101, 0}, kBlur},
      {{259, 131, kP010, generator_named("two-value"), layouts[0], 215},
       {10, 0, 0, 0}, {BorderMode::Constant, 40000}, kUnsharp},
      {{259, 131, kP010, &random_padding, layouts[1], 216},
       {2.5, 5, 0, 0}, {BorderMode::Replicate, 0}, kUnsharpThreshold10},
      // 61 taps on rows wider than the CPU backend's column strips (its ring of row
      // sums kept within the L2 cache): 16-bit strips of 512 pixels, 8-bit of 1057,
      // the last one short; few rows, for the reference's 2-D windows.
      {{1100, 24, SampleDepth::U16, generator_named("random"), layouts[1], 217},
       {10, 0, 0, 0}, {BorderMode::Reflect101, 0}, kUnsharp},
      {{2200, 20, SampleDepth::U8, generator_named("salt-and-pepper-on-ramp"), layouts[0], 218},
       {10, 0, 0, 0}, {BorderMode::Constant, 77}, kBlur},
  });
}

void check_gauss_padding_bits(const GaussFilter &filter) {
  using cf::BorderMode;
  constexpr Kernel kPaddingKernels[] = {
      {0.5, 0, 0, 0}, {1, 0, 0, 0}, {2.5, 0, 0, 0}, {10, 0, 0, 0}, {1, 2.5, 0, 0},
      {5, 0, 61, 61}};
  constexpr Mode kModes[] = {kBlur, kUnsharp, kUnsharpThreshold10, kUnsharpStrong};
  // Borders whose constant is a P010 value, the same value for the 16-bit filter.
  const cf::Border borders[] = {{BorderMode::Replicate, 0}, {BorderMode::Reflect101, 0},
                                {BorderMode::Constant, 700}, {BorderMode::Constant, 1023}};
  const std::vector<Layout> &layouts = test_layouts();
  const std::vector<ImageGenerator> &images = image_generators();
  std::vector<GaussCase> cases;
  uint32_t seed = 301;
  size_t combination = 0;
  for (const auto &size : {std::pair{17, 9}, std::pair{64, 33}})
    for (const Kernel &kernel : kPaddingKernels)
      for (const cf::Border &border : borders)
        for (const Mode &mode : kModes) {
          const size_t image = combination % images.size();
          cases.push_back({{size.first, size.second, kP010, &images[image],
                            layouts[(image + combination) % layouts.size()], seed++},
                           kernel, border, mode});
          ++combination;
        }
  cases.push_back({{1921, 135, kP010, generator_named("salt-and-pepper-on-random"), layouts[0],
                    seed++},
                   {1, 0, 0, 0}, {BorderMode::Reflect101, 0}, kUnsharpStrong});
  run_cases("gauss on P010 vs. 16-bit values", cases.size(),
            [&](size_t index) -> std::optional<std::string> {
              const GaussCase &test = cases[index];
              const auto failure = check_padding_against_values(
                  test.images,
                  [&](const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format) {
                    GaussCase as_format = test;
                    as_format.images.format = format;
                    filter(src, dst, format, params_of(as_format));
                  });
              if (!failure)
                return std::nullopt;
              return describe_params(test, params_of(test)) + ", " + *failure;
            });
}

void check_gauss_unsharp_clamps(const GaussFilter &filter) {
  using cf::BorderMode;
  const char *const images[] = {"checkerboard", "salt-and-pepper-on-ramp",
                                "salt-and-pepper-on-random"};
  uint32_t seed = 401;
  for (const char *name : images)
    for (const Layout &layout : {Layout{1, 0, 1, 0}, Layout{2, 7, 3, 1}}) {
      GaussCase test{{67, 31, kP010, generator_named(name), layout, seed++},
                     {1, 0, 0, 0},
                     {BorderMode::Reflect101, 0},
                     kUnsharpStrong};
      const cf::GaussParams params = params_of(test);
      run_gauss_cases(filter, {test});

      TestImage src(test.images.width, test.images.height, kP010);
      test.images.image->fill(src, test.images.seed);
      TestImage dst(src.width(), src.height(), kP010);
      filter(src.plane(), dst.plane(), kP010, params);
      // Samples the clamps made: results 0 of non-zero samples, 1023 of smaller ones.
      int clamped_low = 0;
      int clamped_high = 0;
      for (int y = 0; y < src.height(); ++y)
        for (int x = 0; x < src.width(); ++x) {
          fail_unless(dst.stored(x, y) <= 1023u << 6 && dst.stored(x, y) % 64 == 0,
                      "%s: sample %u at (%d, %d)", name, dst.stored(x, y), x, y);
          clamped_low += dst.at(x, y) == 0 && src.at(x, y) != 0;
          clamped_high += dst.at(x, y) == 1023 && src.at(x, y) != 1023;
        }
      // A checkerboard sharpens to itself, at both clamps already.
      if (std::string(name) != "checkerboard")
        fail_unless(clamped_low > 0 && clamped_high > 0,
                    "%s: %d samples clamped to 0, %d to 1023: the clamps were not reached", name,
                    clamped_low, clamped_high);
    }
}

}  // namespace cftest
