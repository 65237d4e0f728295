#include "filter_cases.h"

#include <cstring>

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

namespace cftest {

const std::vector<Layout> &test_layouts() {
  static const std::vector<Layout> layouts = {
      {1, 0, 1, 0}, {3, 5, 1, 0}, {1, 0, 4, 3}, {2, 7, 3, 1}, {4, 1, 2, 9},
  };
  return layouts;
}

std::vector<cf::Border> test_borders(cf::SampleDepth depth) {
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

const ImageGenerator *generator_named(const char *name) {
  for (const ImageGenerator &generator : image_generators())
    if (std::strcmp(generator.name, name) == 0)
      return &generator;
  fail("no image generator named %s", name);
  return nullptr;
}

std::optional<std::string> check_image_case(const ImageCase &test, const PlaneFilter &filter,
                                            const PlaneFilter &reference) {
  const int bytes = cf::bytes_per_sample(test.depth);
  TestImage src(test.width, test.height, test.depth, test.layout.src_stride * bytes,
                test.layout.src_padding * bytes);
  test.image->fill(src, test.seed);
  TestImage expected(test.width, test.height, test.depth);
  reference(src.plane(), expected.plane());

  TestImage dst(test.width, test.height, test.depth, test.layout.dst_stride * bytes,
                test.layout.dst_padding * bytes);
  // Every sample starts off its expected value, so one left unwritten cannot pass.
  for (int y = 0; y < test.height; ++y)
    for (int x = 0; x < test.width; ++x)
      dst.set(x, y, (expected.at(x, y) + 1) & dst.max_value());

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
