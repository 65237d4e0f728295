#include "median_cases.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "reference_median.h"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

namespace cftest {
namespace {

// Pixel strides and row paddings in samples (scaled by the bytes per sample, so 16-bit
// samples stay 2-byte aligned as in every real format).
struct Layout {
  int src_stride;
  int src_padding;
  int dst_stride;
  int dst_padding;
};

// Packed first; then one channel of 2-, 3- and 4-channel pixels, padded rows, and src
// and dst laid out differently.
constexpr Layout kLayouts[] = {
    {1, 0, 1, 0}, {3, 5, 1, 0}, {1, 0, 4, 3}, {2, 7, 3, 1}, {4, 1, 2, 9},
};
constexpr size_t kLayoutCount = sizeof kLayouts / sizeof kLayouts[0];

struct MedianCase {
  int width;
  int height;
  cf::SampleDepth depth;
  cf::MedianParams params;
  const ImageGenerator *image;
  Layout layout;
  uint32_t seed;
};

const ImageGenerator *generator_named(const char *name) {
  for (const ImageGenerator &generator : image_generators())
    if (std::strcmp(generator.name, name) == 0)
      return &generator;
  fail("no image generator named %s", name);
  return nullptr;
}

// What went wrong in one case, or nothing.
std::optional<std::string> run_case(const MedianFilter &filter, const MedianCase &test) {
  const int bytes = cf::bytes_per_sample(test.depth);
  TestImage src(test.width, test.height, test.depth, test.layout.src_stride * bytes,
                test.layout.src_padding * bytes);
  test.image->fill(src, test.seed);
  TestImage expected(test.width, test.height, test.depth);
  reference_median(src.plane(), expected.plane(), test.depth, test.params);

  TestImage dst(test.width, test.height, test.depth, test.layout.dst_stride * bytes,
                test.layout.dst_padding * bytes);
  // Every sample starts off its expected value, so one left unwritten cannot pass.
  for (int y = 0; y < test.height; ++y)
    for (int x = 0; x < test.width; ++x)
      dst.set(x, y, (expected.at(x, y) + 1) & dst.max_value());

  const std::vector<uint8_t> src_before = src.bytes();
  filter(src.plane(), dst.plane(), test.depth, test.params);

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
  return "window " + std::to_string(test.params.window) + ", " + describe(test.params.border) +
         ", image " + test.image->name + " (seed " + std::to_string(test.seed) + "), src " +
         src.describe() + ", dst " + dst.describe() + ": " + what;
}

void run_cases(const MedianFilter &filter, const std::vector<MedianCase> &cases) {
  // Enough to see a pattern without drowning the log.
  constexpr int kMaxPrinted = 20;
  int failures = 0;
  std::string first_failure;
  for (const MedianCase &test : cases) {
    const auto failure = run_case(filter, test);
    if (!failure)
      continue;
    if (failures == 0)
      first_failure = *failure;
    if (failures < kMaxPrinted)
      g_printerr("median case failed: %s\n", failure->c_str());
    ++failures;
  }
  fail_unless(failures == 0, "%d of %zu median cases failed, the first: %s", failures,
              cases.size(), first_failure.c_str());
}

}  // namespace

std::vector<cf::Border> median_test_borders(cf::SampleDepth depth) {
  using cf::BorderMode;
  if (depth == cf::SampleDepth::U8)
    return {{BorderMode::Replicate, 0}, {BorderMode::Reflect101, 0},
            {BorderMode::Constant, 77}, {BorderMode::Constant, 300}};
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

void check_median_matrix(const MedianFilter &filter) {
  constexpr int kSizes[][2] = {{1, 1}, {2, 3}, {3, 2}, {17, 9}, {64, 33}};
  constexpr int kWindows[] = {3, 5, 7, 9, 15, 31};
  const std::vector<ImageGenerator> &images = image_generators();
  std::vector<MedianCase> cases;
  uint32_t seed = 1;
  size_t combination = 0;  // rotates the layouts so each image meets each of them
  for (const auto &size : kSizes)
    for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16})
      for (const int window : kWindows)
        for (const cf::Border &border : median_test_borders(depth)) {
          for (size_t i = 0; i < images.size(); ++i)
            cases.push_back({size[0], size[1], depth, {window, border}, &images[i],
                             kLayouts[(i + combination) % kLayoutCount], seed++});
          ++combination;
        }
  run_cases(filter, cases);
}

void check_median_large_frames(const MedianFilter &filter) {
  using cf::BorderMode;
  using cf::SampleDepth;
  // The reference sorts window * window samples per pixel: large windows on a
  // 259x131 frame only, to keep the suite quick on a two-core CI machine.
  run_cases(filter, {
      {1921, 1081, SampleDepth::U8, {3, {BorderMode::Reflect101, 0}},
       generator_named("random"), kLayouts[0], 101},
      {1921, 1081, SampleDepth::U8, {5, {BorderMode::Constant, 77}},
       generator_named("salt-and-pepper-on-random"), kLayouts[1], 102},
      {1921, 1081, SampleDepth::U16, {3, {BorderMode::Replicate, 0}},
       generator_named("random"), kLayouts[2], 103},
      {1921, 1081, SampleDepth::U16, {5, {BorderMode::Constant, 40000}},
       generator_named("salt-and-pepper-on-ramp"), kLayouts[3], 104},
      {259, 131, SampleDepth::U8, {9, {BorderMode::Replicate, 0}},
       generator_named("salt-and-pepper-on-ramp"), kLayouts[0], 105},
      {259, 131, SampleDepth::U16, {7, {BorderMode::Constant, 40000}},
       generator_named("two-value"), kLayouts[0], 106},
      {259, 131, SampleDepth::U16, {15, {BorderMode::Reflect101, 0}},
       generator_named("random"), kLayouts[4], 107},
      {259, 131, SampleDepth::U8, {31, {BorderMode::Constant, 300}},
       generator_named("random"), kLayouts[1], 108},
  });
}

}  // namespace cftest
