// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "histogram_cases.h"

#include <algorithm>
#include <limits>
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

// ---------------------------------------------------------------------------------
// Boxes.

namespace {

// How a box test's plane lies: `channels` side by side (packed: a TestImage of width *
// channels samples seen as pixels), or one channel of pixels `sample_stride` samples
// apart; row_padding and misalignment in bytes.
struct BoxLayout {
  int channels;
  unsigned mask;
  int sample_stride;  // 0: packed pixels of `channels` samples
  int row_padding;
  int misalignment;
};

std::string describe_layout(const BoxLayout &layout) {
  return std::to_string(layout.channels) + " channels mask " + std::to_string(layout.mask) +
         (layout.sample_stride != 0 ? " stride " + std::to_string(layout.sample_stride) : "") +
         " row padding " + std::to_string(layout.row_padding) + " misaligned by " +
         std::to_string(layout.misalignment);
}

// 8-bit: the pixels counted whole on the GPU (1, 2 and 4 channels at aligned addresses)
// and those counted channel by channel (odd pitches, misaligned, 3 channels, strided).
// 16-bit samples stay 2-byte aligned, as in every real format.
std::vector<BoxLayout> box_layouts(cf::SampleFormat format) {
  if (format.depth == cf::SampleDepth::U8)
    return {{1, 0x1, 0, 0, 0}, {1, 0x1, 0, 5, 1}, {1, 0x1, 3, 7, 0}, {2, 0x3, 0, 0, 0},
            {2, 0x2, 0, 3, 0}, {4, 0xf, 0, 4, 0}, {4, 0x7, 0, 0, 1}, {4, 0xe, 0, 0, 0},
            {3, 0x5, 0, 0, 0}};
  return {{1, 0x1, 0, 0, 0}, {1, 0x1, 0, 6, 0}, {1, 0x1, 3, 2, 0},
          {2, 0x3, 0, 0, 0}, {4, 0x7, 0, 4, 0}, {3, 0x6, 0, 0, 0}};
}

// A plane of `layout` and its storage.
struct BoxImage {
  BoxImage(int width, int height, cf::SampleFormat format, const BoxLayout &layout)
      : samples(layout.sample_stride != 0 ? width : width * layout.channels, height, format,
                layout.sample_stride * cf::bytes_per_sample(format), layout.row_padding,
                layout.misalignment),
        plane(samples.plane()) {
    if (layout.sample_stride == 0) {
      plane.width = width;
      plane.pixel_stride = layout.channels * cf::bytes_per_sample(format);
      plane.channels = layout.channels;
      plane.channel_mask = layout.mask;
    }
  }
  TestImage samples;
  cf::Plane plane;
};

struct BoxSet {
  std::string name;
  std::vector<cf::Box> boxes;
};

// `count` boxes of random places and sizes within a width x height plane, none larger
// than max_width x max_height.
std::vector<cf::Box> random_boxes(int width, int height, int count, int max_width,
                                  int max_height, uint32_t seed) {
  std::mt19937 generator(seed);
  std::vector<cf::Box> boxes;
  for (int i = 0; i < count; ++i) {
    cf::Box box;
    box.x = std::uniform_int_distribution<int>(0, width - 1)(generator);
    box.y = std::uniform_int_distribution<int>(0, height - 1)(generator);
    box.width =
        std::uniform_int_distribution<int>(1, std::min(max_width, width - box.x))(generator);
    box.height =
        std::uniform_int_distribution<int>(1, std::min(max_height, height - box.y))(generator);
    boxes.push_back(box);
  }
  return boxes;
}

// columns x rows boxes that tile the plane, each `scale` of its cell's width and height
// (centred), the last column and row to the plane's edges where scale is 1.
std::vector<cf::Box> grid_boxes(int width, int height, int columns, int rows, double scale) {
  std::vector<cf::Box> boxes;
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i) {
      const int x0 = int(int64_t(width) * i / columns);
      const int x1 = int(int64_t(width) * (i + 1) / columns);
      const int y0 = int(int64_t(height) * j / rows);
      const int y1 = int(int64_t(height) * (j + 1) / rows);
      const int w = std::max(1, int((x1 - x0) * scale));
      const int h = std::max(1, int((y1 - y0) * scale));
      boxes.push_back({x0 + (x1 - x0 - w) / 2, y0 + (y1 - y0 - h) / 2, w, h});
    }
  return boxes;
}

std::vector<BoxSet> box_sets(int width, int height, uint32_t seed) {
  const int w = width;
  const int h = height;
  std::vector<BoxSet> sets = {
      {"whole plane", {{0, 0, w, h}}},
      {"1x1 in the corners",
       {{0, 0, 1, 1}, {w - 1, 0, 1, 1}, {0, h - 1, 1, 1}, {w - 1, h - 1, 1, 1}}},
      {"300 random", random_boxes(w, h, 300, w, h, seed)},
  };
  if (w >= 3 && h >= 3) {
    sets.push_back({"one", {{w / 4, h / 3, std::max(1, w / 2), std::max(1, h / 2)}}});
    sets.push_back({"overlapping",
                    {{0, 0, w / 2 + 1, h / 2 + 1},
                     {w / 3, h / 3, w - w / 3, h - h / 3},
                     {w / 3, h / 3, w - w / 3, h - h / 3},
                     {1, 1, w - 2, h - 2},
                     {0, 0, w, h}}});
    sets.push_back({"tiling the plane", grid_boxes(w, h, 3, 2, 1.0)});
    sets.push_back({"rows and columns",
                    {{0, 0, w, 1}, {0, h - 1, w, 1}, {0, 0, 1, h}, {w - 1, 0, 1, h},
                     {w / 2, 0, 1, h}, {0, h / 2, w, 1}, {w - 2, h - 2, 2, 2}}});
  }
  return sets;
}

struct BoxParams {
  int bins;
  Range range;
};

std::vector<BoxParams> box_params(cf::SampleFormat format) {
  if (format.depth == cf::SampleDepth::U8)
    return {{256, {0, 255}}, {7, {100, 149}}, {1, {128, 128}}, {4096, {0, 255}}, {256, {0, 99}}};
  if (format.padding_bits != 0)
    return {{1024, {0, 1023}}, {7, {300, 723}}, {65536, {0, 1023}}, {256, {900, 1023}}};
  return {{256, {0, 65535}},
          {7, {20000, 45535}},
          {65536, {0, 65535}},
          {20000, {0, 65535}},
          {1, {32768, 32768}}};
}

struct BoxCase {
  int width;
  int height;
  cf::SampleFormat format;
  BoxLayout layout;
  const ImageGenerator *image;
  uint32_t seed;
  cf::HistogramParams params;
  BoxSet set;
};

int counted_channels(const cf::Plane &plane) {
  int counted = 0;
  for (int c = 0; c < plane.channels; ++c)
    counted += (plane.channel_mask >> c) & 1u;
  return counted;
}

std::optional<std::string> check_box_case(const BoxHistogramCounter &count, const BoxCase &test) {
  BoxImage src(test.width, test.height, test.format, test.layout);
  test.image->fill(src.samples, test.seed);
  const int counted = counted_channels(src.plane);
  std::vector<HistogramResult> got(test.set.boxes.size() * counted,
                                   unwritten_result(test.params.bins, kGuardBins));
  const std::vector<uint8_t> src_before = src.samples.bytes();
  count(src.plane, test.format, test.params, test.set.boxes, got);
  const std::string what = describe(test.params) + " (ignored), " +
                           std::to_string(test.width) + "x" + std::to_string(test.height) +
                           " " + describe_layout(test.layout) + ", image " + test.image->name +
                           " (seed " + std::to_string(test.seed) + "), src " +
                           src.samples.describe() + ", boxes " + test.set.name + ": ";
  if (src.samples.bytes() != src_before)
    return what + "src was modified";
  for (size_t b = 0; b < test.set.boxes.size(); ++b) {
    const cf::Box &box = test.set.boxes[b];
    cf::HistogramParams params = test.params;
    params.roi_x = box.x;
    params.roi_y = box.y;
    params.roi_width = box.width;
    params.roi_height = box.height;
    for (int c = 0, k = 0; c < src.plane.channels; ++c) {
      if (!((src.plane.channel_mask >> c) & 1u))
        continue;
      const HistogramResult expected = reference_histogram(
          cf::channel_plane(src.plane, c, test.format), test.format, params);
      if (const auto difference = first_difference(got[b * counted + k], expected))
        return what + "box " + std::to_string(b) + " " + describe(box) + ", channel " +
               std::to_string(c) + ": " + *difference;
      ++k;
    }
  }
  return std::nullopt;
}

void run_box_cases(const BoxHistogramCounter &count, const std::vector<BoxCase> &cases) {
  run_cases("box histograms", cases.size(),
            [&](size_t index) { return check_box_case(count, cases[index]); });
}

// Fields a box histogram must ignore.
cf::HistogramParams with_junk_roi(cf::HistogramParams params) {
  params.roi_x = -3;
  params.roi_y = 1 << 20;
  params.roi_width = -1;
  params.roi_height = 7;
  return params;
}

}  // namespace

void check_box_histogram_matrix(const BoxHistogramCounter &count) {
  constexpr int kSizes[][2] = {{1, 1}, {17, 9}, {64, 33}, {300, 20}};
  std::vector<BoxCase> cases;
  uint32_t seed = 501;
  size_t combination = 0;  // rotates params and images over the other choices
  for (const auto &size : kSizes)
    for (const cf::SampleFormat format :
         {cf::SampleFormat(cf::SampleDepth::U8), cf::SampleFormat(cf::SampleDepth::U16), kP010}) {
      const std::vector<BoxParams> params = box_params(format);
      std::vector<const ImageGenerator *> images = {
          generator_named("random"), generator_named("two-value"),
          generator_named("constant-max"), generator_named("horizontal-ramp")};
      if (format.padding_bits != 0)
        images.push_back(generator_named("random-padding-bits"));
      for (const BoxLayout &layout : box_layouts(format))
        for (const BoxSet &set : box_sets(size[0], size[1], seed)) {
          // Two of the params for each, in turn.
          for (int turn = 0; turn < 2; ++turn) {
            const BoxParams &chosen = params[(2 * combination + turn) % params.size()];
            cases.push_back({size[0], size[1], format, layout,
                             images[(combination + turn) % images.size()], seed++,
                             with_junk_roi(params_of(chosen.bins, chosen.range, {0, 0, 0, 0})),
                             set});
          }
          ++combination;
        }
    }
  run_box_cases(count, cases);
}

void check_box_histogram_large_frames(const BoxHistogramCounter &count) {
  using cf::SampleDepth;
  const BoxLayout gray{1, 0x1, 0, 0, 0};
  const BoxLayout uv{2, 0x3, 0, 0, 0};
  const BoxLayout rgba{4, 0x7, 0, 0, 0};
  const BoxLayout strided{1, 0x1, 2, 4, 0};
  const int w = 1921;
  const int h = 1081;
  const BoxSet grid{"8x8 grid", grid_boxes(w, h, 8, 8, 1.0)};
  const BoxSet half{"8x8 over half the frame", grid_boxes(w, h, 8, 8, 0.7071)};
  const BoxSet random{"300 random", random_boxes(w, h, 300, w / 4, h / 4, 77)};
  const BoxSet uv_grid{"8x8 grid", grid_boxes(961, 541, 8, 8, 1.0)};
  const BoxSet uv_random{"300 random", random_boxes(961, 541, 300, 961 / 3, 541 / 3, 78)};
  const auto params = [](int bins, Range range) {
    return with_junk_roi(params_of(bins, range, {0, 0, 0, 0}));
  };
  run_box_cases(count, {
      {w, h, SampleDepth::U8, gray, generator_named("random"), 601, params(256, {0, 255}), grid},
      {w, h, SampleDepth::U8, gray, generator_named("random"), 602, params(256, {0, 255}), half},
      {w, h, SampleDepth::U8, gray, generator_named("random"), 603, params(256, {0, 255}), random},
      {w, h, SampleDepth::U8, gray, generator_named("constant-max"), 604,
       params(4096, {0, 255}), grid},
      {w, h, SampleDepth::U8, strided, generator_named("salt-and-pepper-on-ramp"), 605,
       params(7, {0, 99}), random},
      {961, 541, SampleDepth::U8, uv, generator_named("random"), 606, params(256, {0, 255}),
       uv_grid},
      {961, 541, SampleDepth::U8, uv, generator_named("two-value"), 607, params(1, {128, 128}),
       uv_random},
      {w, h, SampleDepth::U8, rgba, generator_named("random"), 608, params(256, {0, 255}), grid},
      {w, h, SampleDepth::U8, rgba, generator_named("random"), 609, params(100, {10, 240}),
       random},
      {w, h, SampleDepth::U16, gray, generator_named("random"), 610, params(65536, {0, 65535}),
       random},
      {w, h, SampleDepth::U16, strided, generator_named("two-value"), 611,
       params(256, {0, 65535}), half},
      {w, h, SampleDepth::U16, gray, generator_named("vertical-ramp"), 612,
       params(20000, {0, 65535}), grid},
      {w, h, kP010, gray, generator_named("random-padding-bits"), 613, params(1024, {0, 1023}),
       grid},
      {961, 541, kP010, uv, generator_named("random-padding-bits"), 614,
       params(65536, {300, 723}), uv_random},
  });
}

const std::vector<InvalidBoxes> &invalid_box_sets() {
  constexpr int kMax = std::numeric_limits<int>::max();
  static const std::vector<InvalidBoxes> sets = {
      {"box left of the plane", {{0, 0, 17, 9}, {-1, 0, 2, 2}}},
      {"box above the plane", {{-0, -1, 2, 2}, {0, 0, 17, 9}}},
      {"box of width 0", {{3, 3, 0, 2}}},
      {"box of height 0", {{3, 3, 2, 0}, {0, 0, 1, 1}}},
      {"box of negative width", {{3, 3, -1, 2}}},
      {"box of negative height", {{0, 0, 1, 1}, {3, 3, 2, -3}}},
      {"box wider than the plane", {{0, 0, 18, 9}}},
      {"box taller than the plane", {{0, 0, 1, 1}, {0, 1, 17, 9}, {0, 0, 1, 1}}},
      {"box starting right of the plane", {{17, 0, 1, 1}}},
      {"box starting below the plane", {{0, 9, 1, 1}}},
      {"box whose end passes INT_MAX", {{16, 0, kMax, 1}}},
      {"box at INT_MAX", {{kMax, kMax, 1, 1}}},
      {"box at INT_MIN", {{std::numeric_limits<int>::min(), 0, 1, 1}}},
  };
  return sets;
}

bool changes_only_roi(const InvalidHistogramCall &call) {
  TestImage src(17, 9, call.valid_format);
  cf::Plane plane = src.plane();
  const cf::Plane before = plane;
  cf::HistogramParams params = full_range_params(call.valid_format);
  call.change(plane, params);
  cf::HistogramParams without_roi = params;
  without_roi.roi_x = without_roi.roi_y = without_roi.roi_width = without_roi.roi_height = 0;
  const cf::HistogramParams valid = full_range_params(call.valid_format);
  return call.format == call.valid_format && plane.data == before.data &&
         plane.width == before.width && plane.height == before.height &&
         plane.row_pitch == before.row_pitch && plane.pixel_stride == before.pixel_stride &&
         without_roi.bins == valid.bins && without_roi.lower == valid.lower &&
         without_roi.upper == valid.upper &&
         cf::is_valid(without_roi, plane, call.format);
}

std::string describe(const cf::Box &box) {
  return "(" + std::to_string(box.x) + ", " + std::to_string(box.y) + ") " +
         std::to_string(box.width) + "x" + std::to_string(box.height);
}

cf::HistogramParams full_range_params(cf::SampleFormat format) {
  cf::HistogramParams params;
  params.bins = 256;
  params.lower = 0;
  params.upper = cf::max_sample_value(format);
  return params;
}

}  // namespace cftest
