// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "filter_cases.h"

#include <algorithm>
#include <cstring>
#include <random>

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

namespace cftest {

const std::vector<Layout> &test_layouts() {
  static const std::vector<Layout> layouts = {
      {1, 0, 1, 0}, {3, 5, 1, 0}, {1, 0, 4, 3}, {2, 7, 3, 1}, {4, 1, 2, 9},
  };
  return layouts;
}

std::vector<cf::Border> test_borders(cf::SampleFormat format) {
  using cf::BorderMode;
  if (format.depth == cf::SampleDepth::U8)
    return {{BorderMode::Replicate, 0}, {BorderMode::Reflect101, 0},
            {BorderMode::Constant, 77}, {BorderMode::Constant, 300}};
  if (format.padding_bits != 0)
    return {{BorderMode::Replicate, 0}, {BorderMode::Reflect101, 0},
            {BorderMode::Constant, 700}, {BorderMode::Constant, 40000}};
  return {{BorderMode::Replicate, 0}, {BorderMode::Reflect101, 0},
          {BorderMode::Constant, 40000}};
}

std::string describe(const cf::Border &border) {
  switch (border.mode) {
  case cf::BorderMode::Replicate:
    return "replicate";
  case cf::BorderMode::Reflect101:
    return "reflect-101";
  case cf::BorderMode::Constant:
  default:
    return "constant " + std::to_string(border.constant);
  }
}

const ImageGenerator *generator_named(const char *name) {
  for (const ImageGenerator &generator : padding_image_generators())  // every one
    if (std::strcmp(generator.name, name) == 0)
      return &generator;
  fail("no image generator named %s", name);
  return nullptr;
}

std::optional<std::string> check_image_case(const ImageCase &test, const PlaneFilter &filter,
                                            const PlaneFilter &reference) {
  const int bytes = cf::bytes_per_sample(test.format);
  TestImage src(test.width, test.height, test.format, test.layout.src_stride * bytes,
                test.layout.src_padding * bytes);
  test.image->fill(src, test.seed);
  TestImage expected(test.width, test.height, test.format);
  reference(src.plane(), expected.plane());

  TestImage dst(test.width, test.height, test.format, test.layout.dst_stride * bytes,
                test.layout.dst_padding * bytes);
  // Every sample starts off its expected value, so one left unwritten cannot pass, and
  // with its padding bits set, which the filter must clear.
  const uint32_t padding_mask = (1u << test.format.padding_bits) - 1;
  for (int y = 0; y < test.height; ++y)
    for (int x = 0; x < test.width; ++x)
      dst.set_stored(x, y,
                     cf::stored_sample(test.format, (expected.at(x, y) + 1) & dst.max_value()) |
                         padding_mask);

  const std::vector<uint8_t> src_before = src.bytes();
  filter(src.plane(), dst.plane());

  std::string what;
  if (src.bytes() != src_before) {
    what = "src was modified";
  } else if (const auto offset = dst.first_changed_filler()) {
    what = "dst byte at offset " + std::to_string(*offset) + " is not a sample but was written";
  } else if (const auto mismatch = first_mismatch(dst, expected)) {
    what = describe(*mismatch);
  } else {
    return std::nullopt;
  }
  return std::string("image ") + test.image->name + " (seed " + std::to_string(test.seed) +
         "), src " + src.describe() + ", dst " + dst.describe() + ": " + what;
}

std::optional<std::string> check_padding_against_values(const ImageCase &test,
                                                        const FormatFilter &filter) {
  const cf::SampleFormat plain = cf::SampleDepth::U16;
  const int bytes = cf::bytes_per_sample(kP010);
  const Layout &layout = test.layout;
  TestImage src(test.width, test.height, kP010, layout.src_stride * bytes,
                layout.src_padding * bytes);
  test.image->fill(src, test.seed);
  std::mt19937 generator(test.seed);
  std::uniform_int_distribution<uint32_t> padding(0, (1u << kP010.padding_bits) - 1);
  TestImage values(test.width, test.height, plain, layout.src_stride * bytes,
                   layout.src_padding * bytes);
  for (int y = 0; y < test.height; ++y)
    for (int x = 0; x < test.width; ++x) {
      src.set_stored(x, y, src.stored(x, y) | padding(generator));
      values.set(x, y, src.at(x, y));
    }

  TestImage dst(test.width, test.height, kP010, layout.dst_stride * bytes,
                layout.dst_padding * bytes);
  TestImage values_dst(test.width, test.height, plain, layout.dst_stride * bytes,
                       layout.dst_padding * bytes);
  // Every bit set: an unwritten sample or padding bit left set shows.
  for (int y = 0; y < test.height; ++y)
    for (int x = 0; x < test.width; ++x)
      dst.set_stored(x, y, 0xffff);
  filter(src.plane(), dst.plane(), kP010);
  filter(values.plane(), values_dst.plane(), plain);

  TestImage expected(test.width, test.height, kP010);
  for (int y = 0; y < test.height; ++y)
    for (int x = 0; x < test.width; ++x)
      expected.set(x, y, std::min(values_dst.at(x, y), expected.max_value()));
  std::string what;
  if (const auto offset = dst.first_changed_filler())
    what = "dst byte at offset " + std::to_string(*offset) + " is not a sample but was written";
  else if (const auto mismatch = first_mismatch(dst, expected))
    what = describe(*mismatch) + " (the 16-bit filter of the values: " +
           std::to_string(values_dst.at(mismatch->x, mismatch->y)) + ")";
  else
    return std::nullopt;
  return std::string("image ") + test.image->name + " (seed " + std::to_string(test.seed) +
         ") with random padding bits, src " + src.describe() + ", dst " + dst.describe() +
         ": " + what;
}

bool quick_cases() {
  const char *cases = g_getenv("CF_TEST_CASES");
  if (cases == nullptr || std::strcmp(cases, "full") == 0)
    return false;
  fail_unless(std::strcmp(cases, "quick") == 0, "CF_TEST_CASES=%s: quick or full expected",
              cases);
  return true;
}

size_t images_per_combination(size_t full) { return quick_cases() ? 1 : full; }

void run_cases(const char *filter_name, size_t count,
               const std::function<std::optional<std::string>(size_t index)> &check) {
  // Enough to see a pattern without drowning the log.
  constexpr int kMaxPrinted = 20;
  int failures = 0;
  std::string first_failure;
  for (size_t i = 0; i < count; ++i) {
    const auto failure = check(i);
    if (!failure)
      continue;
    if (failures == 0)
      first_failure = *failure;
    if (failures < kMaxPrinted)
      g_printerr("%s case failed: %s\n", filter_name, failure->c_str());
    ++failures;
  }
  fail_unless(failures == 0, "%d of %zu %s cases failed, the first: %s", failures, count,
              filter_name, first_failure.c_str());
}

}  // namespace cftest
