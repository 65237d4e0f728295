// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "histogram_cases.h"

#include <algorithm>
#include <random>
#include <utility>

#include "filter_cases.h"
#include "test_image.h"

namespace cftest {
namespace {

// The layout's dst fields go unused.
struct HistogramCase {
  ImageCase image;
  cf::HistogramParams params;
};

// Entries after the bins that no backend may write.
constexpr int kGuardBins = 4;

struct Range {
  uint32_t lower;
  uint32_t upper;
};

// Full; narrow in the middle, where random images have many samples below and above;
// one value, which two-value images straddle; one end.
std::vector<Range> test_ranges(cf::SampleFormat format) {
  if (format.depth == cf::SampleDepth::U8)
    return {{0, 255}, {100, 149}, {128, 128}, {0, 99}};
  if (format.padding_bits != 0)
    return {{0, 1023}, {300, 723}, {512, 512}, {900, 1023}};
  return {{0, 65535}, {20000, 45535}, {32768, 32768}, {60000, 65535}};
}

// 20000 bins of 16-bit samples: one copy per block in shared memory, more than 48 KiB;
// 65536: more than fits (see histogram_cuda.cu). P010: one bin per value (1024), and
// more bins than values.
std::vector<int> test_bin_counts(cf::SampleFormat format) {
  if (format.depth == cf::SampleDepth::U8)
    return {1, 2, 7, 256};
  if (format.padding_bits != 0)
    return {1, 2, 7, 256, 1023, 1024, 4096, 65536};
  return {1, 2, 7, 256, 4096, 20000, 65536};
}

struct Region {
  int x;
  int y;
  int width;
  int height;
};

// Whole, interior, one sample, from the middle to the right and bottom edges (0 sizes),
// along the left and bottom edges.
std::vector<Region> test_regions(int width, int height) {
  std::vector<Region> regions = {{0, 0, 0, 0},
                                 {width / 2, height / 2, 1, 1},
                                 {width / 2, height / 2, 0, 0},
                                 {0, height / 3, (width + 1) / 2, 0}};
  if (width > 2 && height > 2)
    regions.push_back({1, 1, width - 2, height - 2});
  return regions;
}

// The images of image_generators() whose histograms say something, and constants at
// both ends and in the middle of the range.
std::vector<const ImageGenerator *> histogram_images(cf::SampleFormat format) {
  static const ImageGenerator constants[] = {
      {"constant-0", [](TestImage &image, uint32_t) { fill_constant(image, 0); }},
      {"constant-middle",
       [](TestImage &image, uint32_t) { fill_constant(image, (image.max_value() + 1) / 2); }},
  };
  std::vector<const ImageGenerator *> images = {
      generator_named("random"), generator_named("constant-max"),
      generator_named("horizontal-ramp"), generator_named("vertical-ramp"),
      generator_named("two-value")};
  for (const ImageGenerator &constant : constants)
    images.push_back(&constant);
  if (format.padding_bits != 0)
    images.push_back(generator_named("random-padding-bits"));  // random padding bits
  return images;
}

cf::HistogramParams params_of(int bins, const Range &range, const Region &region) {
  cf::HistogramParams params;
  params.bins = bins;
  params.lower = range.lower;
  params.upper = range.upper;
  params.roi_x = region.x;
  params.roi_y = region.y;
  params.roi_width = region.width;
  params.roi_height = region.height;
  return params;
}

std::optional<std::string> check_case(const HistogramCounter &count, const HistogramCase &test) {
  const ImageCase &image = test.image;
  const int bytes = cf::bytes_per_sample(image.format);
  TestImage src(image.width, image.height, image.format, image.layout.src_stride * bytes,
                image.layout.src_padding * bytes);
  image.image->fill(src, image.seed);
  const HistogramResult expected = reference_histogram(src.plane(), image.format, test.params);

  HistogramResult got = unwritten_result(test.params.bins, kGuardBins);
  const std::vector<uint8_t> src_before = src.bytes();
  count(src.plane(), image.format, test.params, got);

  std::string what;
  if (src.bytes() != src_before) {
    what = "src was modified";
  } else if (const auto difference = first_difference(got, expected)) {
    what = *difference;
  } else {
    return std::nullopt;
  }
  return describe(test.params) + ", image " + image.image->name + " (seed " +
         std::to_string(image.seed) + "), src " + src.describe() + ": " + what;
}

void run_histogram_cases(const HistogramCounter &count, const std::vector<HistogramCase> &cases) {
  run_cases("histogram", cases.size(),
            [&](size_t index) { return check_case(count, cases[index]); });
}

}  // namespace

std::optional<std::string> first_difference(const HistogramResult &got,
                                            const HistogramResult &expected) {
  const size_t bins = expected.bins.size();
  for (size_t i = 0; i < got.bins.size(); ++i) {
    const uint32_t wanted = i < bins ? expected.bins[i] : kGuardBin;
    if (got.bins[i] != wanted)
      return (i < bins ? "bin " : "guard after the bins, entry ") + std::to_string(i) +
             ": got " + std::to_string(got.bins[i]) + ", expected " + std::to_string(wanted);
  }
  const cf::HistogramSummary &g = got.summary;
  const cf::HistogramSummary &e = expected.summary;
  const struct {
    const char *name;
    uint64_t got;
    uint64_t expected;
  } fields[] = {{"sum", g.sum, e.sum},       {"samples", g.samples, e.samples},
                {"below", g.below, e.below}, {"above", g.above, e.above},
                {"min", g.min, e.min},       {"max", g.max, e.max}};
  for (const auto &field : fields)
    if (field.got != field.expected)
      return std::string("summary ") + field.name + ": got " + std::to_string(field.got) +
             ", expected " + std::to_string(field.expected);
  return std::nullopt;
}

HistogramResult unwritten_result(int bins, int guards) {
  HistogramResult result;
  result.bins.assign(bins + guards, kGuardBin);
  result.summary.sum = 0x5a5a5a5a5a5a5a5aull;
  result.summary.samples = result.summary.below = result.summary.above = result.summary.min =
      result.summary.max = kGuardBin;
  return result;
}

std::string describe(const cf::HistogramParams &params) {
  return "bins " + std::to_string(params.bins) + " over [" + std::to_string(params.lower) +
         ", " + std::to_string(params.upper) + "], region (" + std::to_string(params.roi_x) +
         ", " + std::to_string(params.roi_y) + ") " + std::to_string(params.roi_width) + "x" +
         std::to_string(params.roi_height);
}

void check_histogram_matrix(const HistogramCounter &count) {
  constexpr int kSizes[][2] = {{1, 1}, {2, 3}, {17, 9}, {64, 33}};
  const std::vector<Layout> &layouts = test_layouts();
  std::vector<HistogramCase> cases;
  uint32_t seed = 1;
  size_t combination = 0;  // rotates the layouts so each image meets each of them
  const auto add_cases = [&](const int(&size)[2], cf::SampleFormat format,
                             size_t images_per_case) {
    const std::vector<const ImageGenerator *> images = histogram_images(format);
    for (const Range &range : test_ranges(format))
      for (const int bins : test_bin_counts(format)) {
        for (const Region &region : test_regions(size[0], size[1])) {
          for (size_t k = 0; k < images_per_case; ++k) {
            const size_t image = (combination * images_per_case + k) % images.size();
            cases.push_back({{size[0], size[1], format, images[image],
                              layouts[(image + combination) % layouts.size()], seed++},
                             params_of(bins, range, region)});
          }
          ++combination;
        }
      }
  };
  for (const auto &size : kSizes)
    for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16})
      add_cases(size, depth, images_per_combination(histogram_images(depth).size()));
  // P010: three of its images per combination, in turn.
  for (const auto &size : kSizes)
    add_cases(size, kP010, images_per_combination(3));
  run_histogram_cases(count, cases);
}

void check_histogram_padding_bits(const HistogramCounter &count) {
  const cf::SampleFormat plain = cf::SampleDepth::U16;
  const Range ranges[] = {{0, 1023}, {300, 723}, {0, 0}, {1023, 1023}};
  const int bin_counts[] = {1, 7, 256, 1024, 65536};
  const std::vector<Layout> &layouts = test_layouts();
  const std::vector<const ImageGenerator *> images = histogram_images(plain);
  uint32_t seed = 301;
  size_t combination = 0;
  std::vector<HistogramCase> cases;
  for (const auto &size : {std::pair{17, 9}, std::pair{64, 33}, std::pair{1921, 61}})
    for (const Range &range : ranges)
      for (const int bins : bin_counts)
        for (const Region &region : test_regions(size.first, size.second)) {
          const size_t image = combination % images.size();
          cases.push_back({{size.first, size.second, kP010, images[image],
                            layouts[(image + combination) % layouts.size()], seed++},
                           params_of(bins, range, region)});
          ++combination;
        }
  run_cases("histogram on P010 vs. 16-bit values", cases.size(),
            [&](size_t index) -> std::optional<std::string> {
              const HistogramCase &test = cases[index];
              const ImageCase &image = test.image;
              const int bytes = cf::bytes_per_sample(kP010);
              TestImage src(image.width, image.height, kP010, image.layout.src_stride * bytes,
                            image.layout.src_padding * bytes);
              image.image->fill(src, image.seed);
              std::mt19937 generator(image.seed);
              std::uniform_int_distribution<uint32_t> padding(0, 63);
              TestImage values(image.width, image.height, plain,
                               image.layout.src_stride * bytes,
                               image.layout.src_padding * bytes);
              for (int y = 0; y < src.height(); ++y)
                for (int x = 0; x < src.width(); ++x) {
                  src.set_stored(x, y, src.stored(x, y) | padding(generator));
                  values.set(x, y, src.at(x, y));
                }
              HistogramResult expected = unwritten_result(test.params.bins, kGuardBins);
              count(values.plane(), plain, test.params, expected);
              expected.bins.resize(test.params.bins);
              HistogramResult got = unwritten_result(test.params.bins, kGuardBins);
              count(src.plane(), kP010, test.params, got);
              const auto difference = first_difference(got, expected);
              if (!difference)
                return std::nullopt;
              return describe(test.params) + ", image " + image.image->name + " (seed " +
                     std::to_string(image.seed) + ") with random padding bits, src " +
                     src.describe() + ": " + *difference;
            });
}

void check_histogram_large_frames(const HistogramCounter &count) {
  using cf::SampleDepth;
  const std::vector<Layout> &layouts = test_layouts();
  const Region whole{0, 0, 0, 0};
  const Region interior{3, 2, 1915, 1077};
  const Region to_edges{960, 540, 0, 0};
  run_histogram_cases(count, {
      {{1921, 1081, SampleDepth::U8, generator_named("random"), layouts[0], 201},
       params_of(256, {0, 255}, whole)},
      {{1921, 1081, SampleDepth::U8, generator_named("constant-max"), layouts[1], 202},
       params_of(7, {100, 149}, whole)},
      {{1921, 1081, SampleDepth::U8, generator_named("two-value"), layouts[3], 203},
       params_of(1, {128, 128}, interior)},
      {{1921, 1081, SampleDepth::U8, generator_named("salt-and-pepper-on-ramp"), layouts[0],
        204},
       params_of(7, {0, 99}, to_edges)},
      {{1921, 1081, SampleDepth::U16, generator_named("random"), layouts[0], 205},
       params_of(65536, {0, 65535}, whole)},
      {{1921, 1081, SampleDepth::U16, generator_named("horizontal-ramp"), layouts[4], 206},
       params_of(4096, {20000, 45535}, to_edges)},
      {{1921, 1081, SampleDepth::U16, generator_named("two-value"), layouts[0], 207},
       params_of(20000, {0, 65535}, interior)},
      {{1921, 1081, SampleDepth::U16, generator_named("vertical-ramp"), layouts[2], 208},
       params_of(256, {0, 65535}, whole)},
      {{3841, 2161, SampleDepth::U16, generator_named("random"), layouts[0], 209},
       params_of(4096, {0, 65535}, whole)},
      {{3841, 2161, SampleDepth::U8, generator_named("constant-max"), layouts[0], 210},
       params_of(256, {0, 255}, whole)},
      // Frames large enough for full batches of 16-byte loads in the 8-bit kernel: rows
      // of whole chunks (3840) and rows with edges (3841, 7681), whole and in a region.
      {{3841, 2161, SampleDepth::U8, generator_named("random"), layouts[0], 211},
       params_of(256, {0, 255}, whole)},
      {{3840, 2160, SampleDepth::U8, generator_named("random"), layouts[0], 212},
       params_of(256, {0, 255}, whole)},
      {{3840, 2160, SampleDepth::U8, generator_named("random"), layouts[0], 213},
       params_of(100, {10, 240}, Region{3, 2, 3833, 2155})},
      {{7681, 4321, SampleDepth::U8, generator_named("random"), layouts[0], 214},
       params_of(256, {0, 255}, whole)},
      // P010, padding bits random in most: packed and strided rows, bins in shared and
      // in global memory.
      {{1921, 1081, kP010, generator_named("random-padding-bits"), layouts[0], 215},
       params_of(1024, {0, 1023}, whole)},
      {{1921, 1081, kP010, generator_named("random-padding-bits"), layouts[3], 216},
       params_of(65536, {0, 1023}, interior)},
      {{1921, 1081, kP010, generator_named("horizontal-ramp"), layouts[0], 217},
       params_of(7, {300, 723}, to_edges)},
      {{3841, 2161, kP010, generator_named("random-padding-bits"), layouts[0], 218},
       params_of(256, {0, 1023}, whole)},
  });
}

const std::vector<InvalidHistogramCall> &invalid_histogram_calls() {
  using cf::HistogramParams;
  using cf::Plane;
  using cf::SampleDepth;
  const auto unchanged = [](Plane &, HistogramParams &) {};
  static const std::vector<InvalidHistogramCall> calls = {
      {"bins 0", SampleDepth::U8, [](Plane &, HistogramParams &p) { p.bins = 0; }},
      {"bins above the maximum", SampleDepth::U16,
       [](Plane &, HistogramParams &p) { p.bins = cf::kHistogramMaxBins16 + 1; }},
      {"lower above upper", SampleDepth::U8,
       [](Plane &, HistogramParams &p) {
         p.lower = 20;
         p.upper = 19;
         p.bins = 1;
       }},
      {"upper above 255", SampleDepth::U8, [](Plane &, HistogramParams &p) { p.upper = 256; }},
      {"upper above 65535", SampleDepth::U16,
       [](Plane &, HistogramParams &p) { p.upper = 65536; }},
      {"region left of the plane", SampleDepth::U8,
       [](Plane &, HistogramParams &p) { p.roi_x = -1; }},
      {"region above the plane", SampleDepth::U16,
       [](Plane &, HistogramParams &p) { p.roi_y = -1; }},
      {"region starting right of the plane", SampleDepth::U8,
       [](Plane &, HistogramParams &p) { p.roi_x = 17; }},
      {"region starting below the plane", SampleDepth::U8,
       [](Plane &, HistogramParams &p) { p.roi_y = 9; }},
      {"region wider than the plane", SampleDepth::U8,
       [](Plane &, HistogramParams &p) {
         p.roi_x = 5;
         p.roi_width = 13;
       }},
      {"region taller than the plane", SampleDepth::U16,
       [](Plane &, HistogramParams &p) {
         p.roi_y = 1;
         p.roi_height = 9;
       }},
      {"negative region width", SampleDepth::U8,
       [](Plane &, HistogramParams &p) { p.roi_width = -1; }},
      {"negative region height", SampleDepth::U8,
       [](Plane &, HistogramParams &p) { p.roi_height = -1; }},
      {"src without data", SampleDepth::U8,
       [](Plane &src, HistogramParams &) { src.data = nullptr; }},
      {"src of width 0", SampleDepth::U8, [](Plane &src, HistogramParams &) { src.width = 0; }},
      {"src rows overlap", SampleDepth::U8,
       [](Plane &src, HistogramParams &) { src.row_pitch = 5; }},
      {"16-bit samples 1 byte apart", SampleDepth::U16,
       [](Plane &src, HistogramParams &) { src.pixel_stride = 1; }},
      {"upper above 1023 for P010", kP010,
       [](Plane &, HistogramParams &p) { p.upper = 1024; }},
      {"lower above 1023 for P010", kP010,
       [](Plane &, HistogramParams &p) {
         p.lower = 1024;
         p.upper = 1024;
       }},
      {"8-bit samples with padding bits", SampleDepth::U8, unchanged,
       cf::SampleFormat(SampleDepth::U8, 1)},
      {"16 padding bits", SampleDepth::U16, unchanged, cf::SampleFormat(SampleDepth::U16, 16)},
      {"negative padding bits", SampleDepth::U16, unchanged,
       cf::SampleFormat(SampleDepth::U16, -1)},
      {"unknown depth", SampleDepth::U8, unchanged,
       cf::SampleFormat(static_cast<SampleDepth>(7), 0)},
  };
  return calls;
}

cf::HistogramParams full_range_params(cf::SampleFormat format) {
  cf::HistogramParams params;
  params.bins = 256;
  params.lower = 0;
  params.upper = cf::max_sample_value(format);
  return params;
}

}  // namespace cftest
