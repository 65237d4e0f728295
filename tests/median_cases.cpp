// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "median_cases.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "filter_cases.h"
#include "reference_median.h"

namespace cftest {
namespace {

struct MedianCase {
  ImageCase images;
  cf::MedianParams params;
};

void run_median_cases(const MedianFilter &filter, const std::vector<MedianCase> &cases) {
  run_cases("median", cases.size(), [&](size_t index) -> std::optional<std::string> {
    const MedianCase &test = cases[index];
    const cf::SampleFormat format = test.images.format;
    const auto failure = check_image_case(
        test.images,
        [&](const cf::Plane &src, const cf::Plane &dst) { filter(src, dst, format, test.params); },
        [&](const cf::Plane &src, const cf::Plane &dst) {
          reference_median(src, dst, format, test.params);
        });
    if (!failure)
      return std::nullopt;
    return "window " + std::to_string(test.params.window) + ", " +
           describe(test.params.border) + ", " + *failure;
  });
}

constexpr int kSizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {17, 9}, {64, 33}};
constexpr int kWindows[] = {3, 5, 7, 9, 15, 31};

}  // namespace

void check_median_matrix(const MedianFilter &filter) {
  const std::vector<ImageGenerator> &images = image_generators();
  const size_t images_per_case = images_per_combination(images.size());
  const std::vector<Layout> &layouts = test_layouts();
  std::vector<MedianCase> cases;
  uint32_t seed = 1;
  size_t combination = 0;  // rotates the layouts so each image meets each of them
  for (const auto &size : kSizes)
    for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16})
      for (const int window : kWindows)
        for (const cf::Border &border : test_borders(depth)) {
          for (size_t k = 0; k < images_per_case; ++k) {
            const size_t image = (combination * images_per_case + k) % images.size();
            cases.push_back({{size[0], size[1], depth, &images[image],
                              layouts[(image + combination) % layouts.size()], seed++},
                             {window, border}});
          }
          ++combination;
        }
  // P010: its own images (random padding bits too), three per combination in turn.
  const std::vector<ImageGenerator> &padding_images = padding_image_generators();
  const size_t padding_images_per_case = images_per_combination(3);
  for (const auto &size : kSizes)
    for (const int window : kWindows)
      for (const cf::Border &border : test_borders(kP010)) {
        for (size_t k = 0; k < padding_images_per_case; ++k) {
          const size_t image =
              (combination * padding_images_per_case + k) % padding_images.size();
          cases.push_back({{size[0], size[1], kP010, &padding_images[image],
                            layouts[(image + combination) % layouts.size()], seed++},
                           {window, border}});
        }
        ++combination;
      }
  run_median_cases(filter, cases);
}

void check_median_large_frames(const MedianFilter &filter) {
  using cf::BorderMode;
  using cf::SampleDepth;
  const std::vector<Layout> &layouts = test_layouts();
  const ImageGenerator &random_padding = *generator_named("random-padding-bits");
  // The reference sorts window * window samples per pixel: large windows on a
  // 259x131 frame only, to keep the suite quick on a two-core CI machine.
  run_median_cases(filter, {
      {{1921, 1081, SampleDepth::U8, generator_named("random"), layouts[0], 101},
       {3, {BorderMode::Reflect101, 0}}},
      {{1921, 1081, SampleDepth::U8, generator_named("salt-and-pepper-on-random"), layouts[1],
        102},
       {5, {BorderMode::Constant, 77}}},
      {{1921, 1081, SampleDepth::U16, generator_named("random"), layouts[2], 103},
       {3, {BorderMode::Replicate, 0}}},
      {{1921, 1081, SampleDepth::U16, generator_named("salt-and-pepper-on-ramp"), layouts[3],
        104},
       {5, {BorderMode::Constant, 40000}}},
      {{259, 131, SampleDepth::U8, generator_named("salt-and-pepper-on-ramp"), layouts[0], 105},
       {9, {BorderMode::Replicate, 0}}},
      {{259, 131, SampleDepth::U16, generator_named("two-value"), layouts[0], 106},
       {7, {BorderMode::Constant, 40000}}},
      {{259, 131, SampleDepth::U16, generator_named("random"), layouts[4], 107},
       {15, {BorderMode::Reflect101, 0}}},
      {{259, 131, SampleDepth::U8, generator_named("random"), layouts[1], 108},
       {31, {BorderMode::Constant, 300}}},
      // Packed rows of whole 4-sample chunks: the 3x3 register kernel's path, over
      // several blocks, strips and warps, one chunk and one row.
      {{1920, 1080, SampleDepth::U8, generator_named("random"), layouts[0], 109},
       {3, {BorderMode::Reflect101, 0}}},
      {{2048, 67, SampleDepth::U8, generator_named("salt-and-pepper-on-random"), layouts[0],
        110},
       {3, {BorderMode::Constant, 77}}},
      {{1920, 1080, SampleDepth::U16, generator_named("random"), layouts[0], 111},
       {3, {BorderMode::Replicate, 0}}},
      {{516, 5, SampleDepth::U16, generator_named("random"), layouts[0], 112},
       {3, {BorderMode::Constant, 40000}}},
      {{132, 3, SampleDepth::U8, generator_named("random"), layouts[0], 113},
       {3, {BorderMode::Replicate, 0}}},
      {{4, 1, SampleDepth::U8, generator_named("random"), layouts[0], 114},
       {3, {BorderMode::Reflect101, 0}}},
      {{8, 2, SampleDepth::U16, generator_named("random"), layouts[0], 115},
       {3, {BorderMode::Reflect101, 0}}},
      // P010: the network (odd width), the 3x3 register kernel (whole chunks), the
      // moving histogram; padding bits set at random in most.
      {{1921, 1081, kP010, &random_padding, layouts[2], 116}, {3, {BorderMode::Replicate, 0}}},
      {{1920, 1080, kP010, &random_padding, layouts[0], 117},
       {3, {BorderMode::Constant, 700}}},
      {{1921, 1081, kP010, generator_named("salt-and-pepper-on-ramp"), layouts[0], 118},
       {5, {BorderMode::Constant, 40000}}},
      {{259, 131, kP010, &random_padding, layouts[1], 119}, {9, {BorderMode::Reflect101, 0}}},
      {{259, 131, kP010, &random_padding, layouts[0], 120}, {31, {BorderMode::Constant, 1023}}},
      // The 9x9 network (pairs of outputs) over several blocks of 256 columns and 16 rows,
      // odd widths and pitches, one row and one column.
      {{517, 67, SampleDepth::U16, generator_named("random"), layouts[3], 121},
       {9, {BorderMode::Constant, 40000}}},
      {{517, 67, SampleDepth::U8, generator_named("random"), layouts[1], 122},
       {9, {BorderMode::Reflect101, 0}}},
      {{517, 67, SampleDepth::U8, generator_named("two-value"), layouts[0], 123},
       {9, {BorderMode::Constant, 300}}},
      {{301, 1, SampleDepth::U16, generator_named("random"), layouts[0], 124},
       {9, {BorderMode::Reflect101, 0}}},
      {{1, 37, SampleDepth::U8, generator_named("random"), layouts[2], 125},
       {9, {BorderMode::Replicate, 0}}},
      {{517, 67, kP010, &random_padding, layouts[0], 126}, {9, {BorderMode::Constant, 40000}}},
      // The sorted-rows networks of 16-bit 11x11 to 15x15 the same way, and ties.
      {{517, 67, SampleDepth::U16, generator_named("random"), layouts[3], 127},
       {11, {BorderMode::Reflect101, 0}}},
      {{517, 67, SampleDepth::U16, generator_named("salt-and-pepper-on-ramp"), layouts[1], 128},
       {13, {BorderMode::Constant, 40000}}},
      {{517, 67, SampleDepth::U16, generator_named("random"), layouts[0], 129},
       {15, {BorderMode::Replicate, 0}}},
      {{517, 67, SampleDepth::U16, generator_named("two-value"), layouts[2], 130},
       {15, {BorderMode::Constant, 300}}},
      {{301, 1, SampleDepth::U16, generator_named("random"), layouts[0], 131},
       {15, {BorderMode::Reflect101, 0}}},
      {{1, 37, SampleDepth::U16, generator_named("random"), layouts[2], 132},
       {13, {BorderMode::Replicate, 0}}},
      {{517, 67, kP010, &random_padding, layouts[0], 133}, {11, {BorderMode::Constant, 40000}}},
      // The bisection of 16-bit 17x17 to 31x31 the same way: every window, ties, padding
      // bits, one row and one column.
      {{517, 67, SampleDepth::U16, generator_named("random"), layouts[3], 134},
       {17, {BorderMode::Reflect101, 0}}},
      {{517, 67, SampleDepth::U16, generator_named("salt-and-pepper-on-ramp"), layouts[1], 135},
       {19, {BorderMode::Constant, 40000}}},
      {{517, 67, SampleDepth::U16, generator_named("two-value"), layouts[0], 136},
       {21, {BorderMode::Replicate, 0}}},
      {{517, 67, SampleDepth::U16, generator_named("random"), layouts[2], 137},
       {23, {BorderMode::Constant, 65535}}},
      {{517, 67, SampleDepth::U16, generator_named("salt-and-pepper-on-random"), layouts[0],
        138},
       {25, {BorderMode::Reflect101, 0}}},
      {{301, 1, SampleDepth::U16, generator_named("random"), layouts[0], 139},
       {27, {BorderMode::Replicate, 0}}},
      {{1, 37, SampleDepth::U16, generator_named("random"), layouts[2], 140},
       {29, {BorderMode::Reflect101, 0}}},
      {{517, 67, kP010, &random_padding, layouts[0], 141}, {31, {BorderMode::Constant, 40000}}},
      {{517, 67, SampleDepth::U16, generator_named("random"), layouts[4], 142},
       {31, {BorderMode::Replicate, 0}}},
  });
}

void check_median_padding_bits(const MedianFilter &filter) {
  using cf::BorderMode;
  const std::vector<Layout> &layouts = test_layouts();
  const std::vector<ImageGenerator> &images = image_generators();
  struct PaddingCase {
    ImageCase images;
    cf::MedianParams params;
  };
  std::vector<PaddingCase> cases;
  uint32_t seed = 301;
  size_t combination = 0;
  // Borders whose constant is a P010 value, the same value for the 16-bit filter.
  const cf::Border borders[] = {{BorderMode::Replicate, 0}, {BorderMode::Reflect101, 0},
                                {BorderMode::Constant, 700}, {BorderMode::Constant, 1023}};
  for (const auto &size : {std::pair{17, 9}, std::pair{64, 33}})
    for (const int window : kWindows)
      for (const cf::Border &border : borders) {
        const size_t image = combination % images.size();
        cases.push_back({{size.first, size.second, kP010, &images[image],
                          layouts[(image + combination) % layouts.size()], seed++},
                         {window, border}});
        ++combination;
      }
  // The kernels' paths on larger frames: register kernel, networks, moving histogram.
  cases.push_back({{1920, 64, kP010, generator_named("random"), layouts[0], seed++},
                   {3, {BorderMode::Reflect101, 0}}});
  cases.push_back({{517, 67, kP010, generator_named("random"), layouts[0], seed++},
                   {9, {BorderMode::Reflect101, 0}}});
  cases.push_back({{517, 67, kP010, generator_named("salt-and-pepper-on-random"), layouts[0],
                    seed++},
                   {7, {BorderMode::Constant, 700}}});
  cases.push_back({{259, 131, kP010, generator_named("random"), layouts[0], seed++},
                   {15, {BorderMode::Replicate, 0}}});
  run_cases("median on P010 vs. 16-bit values", cases.size(),
            [&](size_t index) -> std::optional<std::string> {
              const PaddingCase &test = cases[index];
              const auto failure = check_padding_against_values(
                  test.images,
                  [&](const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format) {
                    filter(src, dst, format, test.params);
                  });
              if (!failure)
                return std::nullopt;
              return "window " + std::to_string(test.params.window) + ", " +
                     describe(test.params.border) + ", " + *failure;
            });
}

}  // namespace cftest
