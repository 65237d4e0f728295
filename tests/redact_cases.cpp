// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "redact_cases.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>

#include "filter_cases.h"
#include "reference_gauss.h"

// Last: Check defines macros (fail, ...) that break C++ headers.
#include <gst/check/gstcheck.h>

namespace cftest {
namespace {

// One view of a case: its plane's geometry and its shapes.
struct ViewSpec {
  int width;
  int height;
  int channels;
  unsigned mask;
  int row_padding;  // bytes after each row (even: 16-bit samples stay aligned)
  int feather;
  int invert_block_width;
  int invert_block_height;
  std::vector<cf::RedactShape> shapes;
  double invert_sigma_x = 2.2;
  double invert_sigma_y = 1.1;
  // What the shapes' masks point into, shared by the spec's copies.
  std::vector<std::shared_ptr<const std::vector<uint8_t>>> masks;
};

struct RedactCase {
  std::string name;
  cf::SampleFormat format;
  cf::RedactParams params;
  std::vector<ViewSpec> views;
  uint32_t seed;
};

// A frame holding every view's plane, with filler bytes between rows, between views
// and around them, all random: every byte is compared afterwards.
struct Frame {
  std::vector<uint8_t> bytes;
  std::vector<cf::RedactView> views;
};

constexpr size_t kGuardBytes = 64;

Frame make_frame(const RedactCase &test) {
  Frame frame;
  const int sample_bytes = cf::bytes_per_sample(test.format);
  std::vector<size_t> offsets;
  size_t size = kGuardBytes;
  for (const ViewSpec &spec : test.views) {
    offsets.push_back(size);
    const size_t pitch = size_t(spec.width) * spec.channels * sample_bytes + spec.row_padding;
    size += (pitch * spec.height + kGuardBytes + 15) / 16 * 16;
  }
  frame.bytes.resize(size + kGuardBytes);
  std::mt19937 random(test.seed);
  for (uint8_t &byte : frame.bytes)
    byte = uint8_t(random());
  for (size_t v = 0; v < test.views.size(); ++v) {
    const ViewSpec &spec = test.views[v];
    cf::RedactView view;
    view.plane.data = frame.bytes.data() + offsets[v];
    view.plane.width = spec.width;
    view.plane.height = spec.height;
    view.plane.pixel_stride = spec.channels * sample_bytes;
    view.plane.row_pitch = ptrdiff_t(spec.width) * view.plane.pixel_stride + spec.row_padding;
    view.plane.channels = spec.channels;
    view.plane.channel_mask = spec.mask;
    view.shapes = spec.shapes.data();
    view.count = int(spec.shapes.size());
    view.feather = spec.feather;
    view.invert_block_width = spec.invert_block_width;
    view.invert_block_height = spec.invert_block_height;
    view.invert_sigma_x = spec.invert_sigma_x;
    view.invert_sigma_y = spec.invert_sigma_y;
    for (int c = 0; c < cf::kMaxChannels; ++c)
      view.fill[c] = uint32_t(random() % (cf::max_sample_value(test.format) + 1));
    frame.views.push_back(view);
  }
  return frame;
}

uint8_t *sample_address(const cf::Plane &plane, cf::SampleFormat format, int x, int y, int c) {
  return plane.data + y * plane.row_pitch + ptrdiff_t(x) * plane.pixel_stride +
         c * cf::bytes_per_sample(format);
}

uint32_t read_whole(const uint8_t *at, cf::SampleFormat format) {
  if (format.depth == cf::SampleDepth::U8)
    return at[0];
  uint16_t sample;
  std::memcpy(&sample, at, 2);
  return sample;
}

void write_whole(uint8_t *at, cf::SampleFormat format, uint32_t sample) {
  if (format.depth == cf::SampleDepth::U8) {
    at[0] = uint8_t(sample);
  } else {
    const uint16_t s = uint16_t(sample);
    std::memcpy(at, &s, 2);
  }
}

// ---- The reference ----

// Whether (x, y) is inside the shape's outline grown by k: the box test on half-open
// edges; the ellipse in half-sample units about its centre, cx and a multiples of
// 1/2, so every product is a multiple of 1/16 far below 2^40 for the tests' boxes
// (sides under 4096) and doubles hold it exactly.
bool reference_inside(const cf::Box &box, bool ellipse, int k, int x, int y) {
  const int left = box.x - k, top = box.y - k;
  const int right = box.x + box.width + k, bottom = box.y + box.height + k;
  if (x < left || x >= right || y < top || y >= bottom)
    return false;
  if (!ellipse)
    return true;
  const double a = (right - left) / 2.0, b = (bottom - top) / 2.0;
  const double px = x + 0.5 - (left + right) / 2.0, py = y + 0.5 - (top + bottom) / 2.0;
  return px * px * b * b + py * py * a * a <= a * a * b * b;
}

// A mask shape's step: the distance max(|dx|, |dy|) to the nearest sample inside,
// searched over every byte of the mask; feather + 1 where it is farther (or none).
int reference_mask_step(const cf::RedactShape &shape, int feather, int x, int y) {
  int nearest = feather + 1;
  for (int my = 0; my < shape.box.height; ++my)
    for (int mx = 0; mx < shape.box.width; ++mx)
      if (shape.mask[my * shape.box.width + mx] != 0)
        nearest = std::min(nearest, std::max(std::abs(shape.box.x + mx - x),
                                             std::abs(shape.box.y + my - y)));
  return nearest;
}

// 256, fading, or 0: the least step k = 0, 1, ... feather at which the sample is inside.
int reference_weight(const cf::RedactShape &shape, bool ellipse, int feather, int x, int y) {
  const auto weight_of = [feather](int k) {
    return k == 0 ? 256 : k > feather ? 0 : (feather + 1 - k) * 256 / (feather + 1);
  };
  if (shape.mask != nullptr)
    return weight_of(reference_mask_step(shape, feather, x, y));
  for (int k = 0; k <= feather; ++k)
    if (reference_inside(shape.box, ellipse, k, x, y))
      return weight_of(k);
  return 0;
}

// Pixelate means, per block of the view's original values, computed on demand.
class ReferenceMeans {
public:
  ReferenceMeans(const cf::Plane &original, cf::SampleFormat format)
      : original_(original), format_(format) {}

  // The mean of channel c over the block of `area` (blocks of bw x bh from its corner,
  // cut by its edges) nearest to (x, y).
  uint32_t at(const cf::Box &area, int bw, int bh, int x, int y, int c) {
    bw = std::min(bw, area.width);
    bh = std::min(bh, area.height);
    const int column = std::clamp(x < area.x ? 0 : (x - area.x) / bw, 0,
                                  (area.width + bw - 1) / bw - 1);
    const int row = std::clamp(y < area.y ? 0 : (y - area.y) / bh, 0,
                               (area.height + bh - 1) / bh - 1);
    const int x0 = area.x + column * bw, y0 = area.y + row * bh;
    const int x1 = std::min(x0 + bw, area.x + area.width);
    const int y1 = std::min(y0 + bh, area.y + area.height);
    const auto key = std::make_tuple(x0, y0, x1, y1, c);
    if (const auto known = means_.find(key); known != means_.end())
      return known->second;
    uint64_t sum = 0, count = 0;
    for (int yy = y0; yy < y1; ++yy)
      for (int xx = x0; xx < x1; ++xx, ++count)
        sum += read_whole(sample_address(original_, format_, xx, yy, c), format_) >>
               format_.padding_bits;
    const uint32_t mean = uint32_t((2 * sum + count) / (2 * count));
    means_.emplace(key, mean);
    return mean;
  }

private:
  cf::Plane original_;
  cf::SampleFormat format_;
  std::map<std::tuple<int, int, int, int, int>, uint32_t> means_;
};

// Blur's values: the whole original view blurred once per pair of sigmas, on demand.
class ReferenceBlurs {
public:
  ReferenceBlurs(const cf::Plane &original, cf::SampleFormat format)
      : original_(original), format_(format) {}

  uint32_t at(double sigma_x, double sigma_y, int x, int y, int c) {
    auto known = blurred_.find({sigma_x, sigma_y});
    if (known == blurred_.end()) {
      std::vector<uint8_t> bytes(size_t(original_.row_pitch) * original_.height +
                                 original_.pixel_stride);
      const cf::GaussParams params = cf::make_gauss_params(sigma_x, sigma_y, 0, 0, format_,
                                                           {cf::BorderMode::Reflect101, 0});
      // The reference blurs one channel at a time: each channel as a plane of its own.
      for (int c = 0; c < original_.channels; ++c) {
        const auto channel = [&](const cf::Plane &plane, uint8_t *data) {
          cf::Plane one = plane;
          one.data = data + c * cf::bytes_per_sample(format_);
          one.channels = 1;
          one.channel_mask = 1;
          return one;
        };
        reference_gauss(channel(original_, original_.data), channel(original_, bytes.data()),
                        format_, params);
      }
      known = blurred_.emplace(std::make_pair(sigma_x, sigma_y), std::move(bytes)).first;
    }
    cf::Plane plane = original_;
    plane.data = known->second.data();
    return read_whole(sample_address(plane, format_, x, y, c), format_) >> format_.padding_bits;
  }

private:
  cf::Plane original_;
  cf::SampleFormat format_;
  std::map<std::pair<double, double>, std::vector<uint8_t>> blurred_;
};

// Blur's sigmas at (x, y): the greatest pair of the shapes whose box grown by the
// feather holds it, or the view's with invert.
std::pair<double, double> reference_sigmas(const cf::RedactView &view,
                                           const cf::RedactParams &params, int x, int y) {
  if (params.invert)
    return {view.invert_sigma_x, view.invert_sigma_y};
  std::pair<double, double> greatest{0, 0};
  const int f = view.feather;
  for (int s = 0; s < view.count; ++s) {
    const cf::RedactShape &shape = view.shapes[s];
    if (x >= shape.box.x - f && x < shape.box.x + shape.box.width + f && y >= shape.box.y - f &&
        y < shape.box.y + shape.box.height + f)
      greatest = std::max(greatest, std::make_pair(shape.sigma_x, shape.sigma_y));
  }
  return greatest;
}

// Writes into `expected` (laid out as `view`'s plane) what the call must make of the
// view, reading `original` only.
void reference_view(const cf::RedactView &view, const cf::Plane &original,
                    const cf::Plane &expected, cf::SampleFormat format,
                    const cf::RedactParams &params) {
  const bool ellipse = params.outline == cf::RedactOutline::Ellipse;
  ReferenceMeans means(original, format);
  ReferenceBlurs blurs(original, format);
  for (int y = 0; y < view.plane.height; ++y)
    for (int x = 0; x < view.plane.width; ++x) {
      int best = 0, winner = -1;
      for (int s = 0; s < view.count; ++s) {
        const int w = reference_weight(view.shapes[s], ellipse, view.feather, x, y);
        if (w > best) {
          best = w;
          winner = s;
        }
      }
      const int weight = params.invert ? 256 - best : best;
      if (weight == 0)
        continue;
      for (int c = 0; c < view.plane.channels; ++c) {
        if (!(view.plane.channel_mask & (1u << c)))
          continue;
        uint32_t redacted = view.fill[c];
        if (params.method == cf::RedactMethod::Pixelate) {
          if (params.invert)
            redacted = means.at({0, 0, view.plane.width, view.plane.height},
                                view.invert_block_width, view.invert_block_height, x, y, c);
          else
            redacted = means.at(view.shapes[winner].box, view.shapes[winner].block_width,
                                view.shapes[winner].block_height, x, y, c);
        } else if (params.method == cf::RedactMethod::Blur) {
          const auto [sigma_x, sigma_y] = reference_sigmas(view, params, x, y);
          redacted = blurs.at(sigma_x, sigma_y, x, y, c);
        }
        const uint32_t in =
            read_whole(sample_address(original, format, x, y, c), format) >> format.padding_bits;
        const uint32_t out = (redacted * weight + in * (256 - weight) + 128) / 256;
        write_whole(sample_address(expected, format, x, y, c), format,
                    out << format.padding_bits);
      }
    }
}

cf::Plane rebased(const cf::Plane &plane, const uint8_t *from, uint8_t *to) {
  cf::Plane moved = plane;
  moved.data = to + (plane.data - from);
  return moved;
}

std::string describe_case(const RedactCase &test) {
  char text[200];
  const char *const methods[] = {"pixelate", "fill", "blur"};
  std::snprintf(text, sizeof text, "%s: %s %s feather %d%s, %s%s, seed %u", test.name.c_str(),
                methods[int(test.params.method)],
                test.params.outline == cf::RedactOutline::Box ? "box" : "ellipse",
                test.views.empty() ? 0 : test.views[0].feather,
                test.params.invert ? " invert" : "",
                test.format.depth == cf::SampleDepth::U8 ? "U8" : "U16",
                test.format.padding_bits ? ">>6" : "", test.seed);
  return text;
}

// The first changed sample byte of view v outside its redact_areas, or nothing.
std::optional<std::string> outside_areas(const Frame &frame, const std::vector<uint8_t> &before,
                                         cf::SampleFormat format,
                                         const cf::RedactParams &params) {
  for (size_t v = 0; v < frame.views.size(); ++v) {
    const cf::RedactView &view = frame.views[v];
    const std::vector<cf::Box> areas = cf::redact_areas(params, view);
    const cf::Plane old = rebased(view.plane, frame.bytes.data(), const_cast<uint8_t *>(before.data()));
    for (int y = 0; y < view.plane.height; ++y)
      for (int x = 0; x < view.plane.width; ++x)
        for (int c = 0; c < view.plane.channels; ++c) {
          if (read_whole(sample_address(view.plane, format, x, y, c), format) ==
              read_whole(sample_address(old, format, x, y, c), format))
            continue;
          const bool covered = std::any_of(areas.begin(), areas.end(), [&](const cf::Box &b) {
            return x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;
          });
          if (!covered)
            return "view " + std::to_string(v) + " changed at (" + std::to_string(x) + ", " +
                   std::to_string(y) + ") outside redact_areas";
        }
  }
  return std::nullopt;
}

std::optional<std::string> run_case(const RedactRunner &run, const RedactCase &test) {
  Frame frame = make_frame(test);
  const std::vector<uint8_t> before = frame.bytes;
  std::vector<uint8_t> expected = frame.bytes;
  for (const cf::RedactView &view : frame.views)
    reference_view(view, rebased(view.plane, frame.bytes.data(), const_cast<uint8_t *>(before.data())),
                   rebased(view.plane, frame.bytes.data(), expected.data()), test.format,
                   test.params);
  const cudaError_t err =
      run(frame.bytes.data(), frame.bytes.size(), frame.views, test.format, test.params);
  if (err != cudaSuccess)
    return describe_case(test) + ": returned " + cudaGetErrorName(err);
  for (size_t i = 0; i < expected.size(); ++i)
    if (frame.bytes[i] != expected[i]) {
      std::string where = "byte " + std::to_string(i);
      for (size_t v = 0; v < frame.views.size(); ++v) {
        const cf::Plane &p = frame.views[v].plane;
        const ptrdiff_t offset = ptrdiff_t(i) - (p.data - frame.bytes.data());
        if (offset >= 0 && offset < p.row_pitch * p.height)
          where = "view " + std::to_string(v) + " row " + std::to_string(offset / p.row_pitch) +
                  " byte " + std::to_string(offset % p.row_pitch);
      }
      return describe_case(test) + ": " + where + " is " + std::to_string(frame.bytes[i]) +
             ", expected " + std::to_string(expected[i]) + " (was " +
             std::to_string(before[i]) + ")";
    }
  if (const auto problem = outside_areas(frame, before, test.format, test.params))
    return describe_case(test) + ": " + *problem;
  return std::nullopt;
}

void run_redact_cases(const char *name, const RedactRunner &run,
                      const std::vector<RedactCase> &cases) {
  run_cases(name, cases.size(),
            [&](size_t index) { return run_case(run, cases[index]); });
}

// ---- The cases ----

// Blur sigmas, taken by shape index so that some shapes share a pass and others not
// (and the random shapes stay as they were before Blur came).
constexpr double kSigmas[] = {1.5, 0.6, 2.8, 4.1};

void set_sigmas(cf::RedactShape &shape, int index) {
  shape.sigma_x = kSigmas[index % 4];
  shape.sigma_y = kSigmas[(index + index / 4) % 4];
}

// `count` shapes within a width x height plane, sides up to max_side, blocks 1..12.
std::vector<cf::RedactShape> random_shapes(std::mt19937 &random, int width, int height,
                                           int count, int max_side) {
  std::vector<cf::RedactShape> shapes;
  for (int i = 0; i < count; ++i) {
    cf::RedactShape shape;
    shape.box.width = 1 + int(random() % std::min(width, max_side));
    shape.box.height = 1 + int(random() % std::min(height, max_side));
    shape.box.x = int(random() % (width - shape.box.width + 1));
    shape.box.y = int(random() % (height - shape.box.height + 1));
    shape.block_width = 1 + int(random() % 12);
    shape.block_height = 1 + int(random() % 12);
    set_sigmas(shape, i);
    shapes.push_back(shape);
  }
  return shapes;
}

struct RedactLayout {
  cf::SampleFormat format;
  int channels;
  unsigned mask;
};

const RedactLayout kLayouts[] = {
    {cf::SampleDepth::U8, 1, 1},  {cf::SampleDepth::U16, 1, 1}, {kP010, 1, 1},
    {cf::SampleDepth::U8, 2, 3},  {kP010, 2, 3},                {cf::SampleDepth::U8, 4, 7},
    {cf::SampleDepth::U16, 4, 7},
};

// Every method, outline, feather and invert, for `make(params, feather)`.
template <typename Make>
void for_each_params(const Make &make, const std::vector<int> &feathers = {0, 1, 5, 40}) {
  for (const cf::RedactMethod method :
       {cf::RedactMethod::Fill, cf::RedactMethod::Pixelate, cf::RedactMethod::Blur})
    for (const cf::RedactOutline outline : {cf::RedactOutline::Box, cf::RedactOutline::Ellipse})
      for (const int feather : feathers)
        for (const bool invert : {false, true})
          make(cf::RedactParams{method, outline, invert}, feather);
}

ViewSpec view_spec(int width, int height, int channels, unsigned mask, int row_padding,
                   int feather, std::vector<cf::RedactShape> shapes) {
  return {width, height, channels, mask, row_padding, feather, 3, 5, std::move(shapes), 2.2, 1.1, {}};
}

// Gives `spec`'s shape s the mask `bytes` (its box's size, row after row).
void give_mask(ViewSpec &spec, size_t s, std::vector<uint8_t> bytes) {
  auto kept = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  spec.shapes[s].mask = kept->data();
  spec.masks.push_back(std::move(kept));
}

// A mask of a width x height box: a random blob (a disc about a random centre, with
// random holes and specks) or, by `kind`, every byte set, none set, or one set.
std::vector<uint8_t> random_mask(std::mt19937 &random, int width, int height, int kind) {
  std::vector<uint8_t> mask(size_t(width) * height, kind == 1 ? 0xff : 0);
  if (kind == 1 || kind == 2)
    return mask;
  if (kind == 3) {
    mask[random() % mask.size()] = 1;
    return mask;
  }
  const int cx = int(random() % width), cy = int(random() % height);
  const int r = 1 + int(random() % std::max(width, height));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const bool disc = (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r;
      const unsigned dice = random() % 16;
      mask[size_t(y) * width + x] = uint8_t((disc && dice != 0) || dice == 15 ? 1 + random() % 255 : 0);
    }
  return mask;
}

}  // namespace

void check_redact_matrix(const RedactRunner &run) {
  std::vector<RedactCase> cases;
  uint32_t seed = 1;
  const int sizes[][2] = {{37, 29}, {64, 48}, {21, 70}};
  for (const RedactLayout &layout : kLayouts)
    for_each_params([&](const cf::RedactParams &params, int feather) {
      const int *size = sizes[seed % 3];
      std::mt19937 random(seed);
      const int luma_count = 1 + int(random() % 6);
      ViewSpec luma = view_spec(size[0], size[1], layout.channels, layout.mask,
                                2 * int(random() % 5), feather,
                                random_shapes(random, size[0], size[1], luma_count, 24));
      const int cw = (size[0] + 1) / 2, ch = (size[1] + 1) / 2;
      ViewSpec chroma = view_spec(cw, ch, 2, 3, 2 * int(random() % 3), feather / 2,
                                  random_shapes(random, cw, ch, 1 + int(random() % 4), 12));
      chroma.invert_block_width = 2;
      chroma.invert_block_height = 4;
      cases.push_back({"matrix", layout.format, params, {luma, chroma}, seed++});
    });
  run_redact_cases("redact matrix", run, cases);
}

namespace {

std::vector<cf::RedactShape> shapes_of(const std::vector<cf::Box> &boxes, int block_width,
                                       int block_height) {
  std::vector<cf::RedactShape> shapes;
  for (const cf::Box &box : boxes) {
    shapes.push_back({box, block_width, block_height});
    set_sigmas(shapes.back(), int(shapes.size()) - 1);
  }
  return shapes;
}

// The edge cases' views, each with the plane it needs.
std::vector<std::pair<std::string, std::vector<ViewSpec>>> edge_views() {
  std::vector<std::pair<std::string, std::vector<ViewSpec>>> sets;
  auto one = [&](const char *name, int w, int h, std::vector<cf::RedactShape> shapes) {
    sets.push_back({name, {view_spec(w, h, 1, 1, 2, 0, std::move(shapes))}});
  };
  one("every edge", 23, 17,
      shapes_of({{0, 0, 5, 4}, {18, 0, 5, 3}, {0, 13, 4, 4}, {19, 14, 4, 3}, {9, 0, 3, 17},
                 {0, 8, 23, 1}},
                2, 3));
  one("whole plane", 19, 11, shapes_of({{0, 0, 19, 11}}, 4, 4));
  one("1x1 shape", 9, 7, shapes_of({{4, 3, 1, 1}}, 1, 1));
  one("1x1 plane", 1, 1, shapes_of({{0, 0, 1, 1}}, 3, 3));
  one("1-row plane", 41, 1, shapes_of({{3, 0, 7, 1}, {30, 0, 11, 1}}, 4, 2));
  one("1-column plane", 1, 33, shapes_of({{0, 5, 1, 9}, {0, 20, 1, 1}}, 1, 5));
  one("block over the box", 30, 20, shapes_of({{5, 4, 9, 7}, {18, 2, 3, 15}}, 40, 50));
  one("identical", 26, 18, shapes_of({{6, 5, 10, 8}, {6, 5, 10, 8}, {6, 5, 10, 8}}, 3, 2));
  one("nested", 30, 24,
      shapes_of({{2, 2, 26, 20}, {8, 6, 10, 9}, {11, 9, 3, 3}, {2, 2, 26, 20}}, 5, 4));
  one("feathers over boxes", 40, 20,
      shapes_of({{2, 3, 8, 8}, {12, 4, 6, 9}, {20, 10, 7, 6}, {29, 2, 9, 16}}, 3, 3));
  std::mt19937 random(99);
  std::vector<cf::RedactShape> spot;
  for (int i = 0; i < 80; ++i) {
    spot.push_back({{10 + i % 3, 8 + i % 2, 12, 10}, 1 + i % 5, 1 + i % 4});
    set_sigmas(spot.back(), i);
  }
  one("80 on one spot", 40, 30, spot);
  one("300 shapes", 97, 61, random_shapes(random, 97, 61, 300, 14));
  one("large block", 140, 90, shapes_of({{10, 5, 120, 80}}, 100, 70));
  sets.push_back({"empty view beside one",
                  {view_spec(20, 10, 1, 1, 0, 0, {}),
                   view_spec(16, 12, 1, 1, 4, 0, shapes_of({{3, 3, 6, 5}}, 2, 2))}});
  return sets;
}

// Blur's two ways on the CUDA backend (redact_cuda.cu): shapes apart whose taps fit
// its room (row sums), apart with one more sigma, past that room (passes), one whose
// row sums outgrow the workspace (passes), and 64 apart (row sums, the shapes more
// than the kernel's parameters hold).
std::vector<std::pair<std::string, ViewSpec>> blur_views() {
  const auto with_sigmas = [](std::vector<cf::RedactShape> shapes,
                              const std::vector<std::pair<double, double>> &sigmas) {
    for (size_t s = 0; s < shapes.size(); ++s)
      std::tie(shapes[s].sigma_x, shapes[s].sigma_y) = sigmas[s];
    return shapes;
  };
  const std::vector<cf::Box> apart = {{2, 3, 15, 12}, {35, 24, 20, 15}, {50, 2, 8, 10}};
  std::vector<cf::Box> grid;
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i)
      grid.push_back({2 + 10 * i, 1 + 7 * j, 4, 3});
  return {
      {"apart, wide sigmas",
       view_spec(80, 50, 1, 1, 2, 0,
                 with_sigmas(shapes_of({apart[0], apart[1]}, 6, 5), {{9.0, 7.5}, {12.0, 12.0}}))},
      {"apart, more sigmas",
       view_spec(80, 50, 1, 1, 2, 0,
                 with_sigmas(shapes_of(apart, 6, 5), {{9.0, 7.5}, {12.0, 12.0}, {3.3, 19.0}}))},
      {"whole plane, widest sigma",
       view_spec(19, 11, 1, 1, 2, 0,
                 with_sigmas(shapes_of({{0, 0, 19, 11}}, 4, 4),
                             {{cf::kGaussMaxSigma, cf::kGaussMaxSigma}}))},
      {"64 apart", view_spec(80, 60, 1, 1, 2, 0, shapes_of(grid, 2, 2))}};
}

}  // namespace

void check_redact_edge_cases(const RedactRunner &run) {
  std::vector<RedactCase> cases;
  uint32_t seed = 1000;
  // A named pair, not structured bindings: C++17 lambdas cannot capture those.
  for (const auto &edge : edge_views())
    for (const cf::SampleFormat format : {cf::SampleFormat(cf::SampleDepth::U8), kP010})
      for_each_params(
          [&](const cf::RedactParams &params, int feather) {
            std::vector<ViewSpec> with_feather = edge.second;
            for (ViewSpec &view : with_feather)
              view.feather = feather;
            cases.push_back({edge.first, format, params, with_feather, seed++});
          },
          {0, 3, 40});
  for (const auto &[name, view] : blur_views())
    for (const cf::SampleFormat format : {cf::SampleFormat(cf::SampleDepth::U8), kP010})
      for (const cf::RedactOutline outline : {cf::RedactOutline::Box, cf::RedactOutline::Ellipse}) {
        ViewSpec with_feather = view;
        with_feather.feather = outline == cf::RedactOutline::Box ? 0 : 3;
        cases.push_back({name, format, {cf::RedactMethod::Blur, outline, false},
                         {with_feather}, seed++});
      }
  run_redact_cases("redact edge", run, cases);
}

void check_redact_masks(const RedactRunner &run) {
  std::vector<RedactCase> cases;
  uint32_t seed = 5000;
  const RedactLayout layouts[] = {kLayouts[0], kLayouts[2], kLayouts[5], kLayouts[6]};
  for (const RedactLayout &layout : layouts)
    for_each_params([&](const cf::RedactParams &params, int feather) {
      std::mt19937 random(seed);
      const int width = 30 + int(random() % 20), height = 20 + int(random() % 20);
      ViewSpec luma = view_spec(width, height, layout.channels, layout.mask, 2, feather,
                                random_shapes(random, width, height, 1 + int(random() % 5), 20));
      ViewSpec chroma = view_spec(width / 2, height / 2, 2, 3, 0, feather / 2,
                                  random_shapes(random, width / 2, height / 2, 3, 10));
      for (ViewSpec *view : {&luma, &chroma}) {
        // Masks while their tables (boxes grown by the feather, within the plane)
        // stay within twice the plane, as redact.h allows.
        long table = 0;
        for (size_t s = 0; s < view->shapes.size(); ++s) {
          const cf::Box &b = view->shapes[s].box;
          const int f = view->feather;
          const long needed =
              long(std::min(view->width, b.x + b.width + f) - std::max(0, b.x - f)) *
              (std::min(view->height, b.y + b.height + f) - std::max(0, b.y - f));
          if (random() % 4 != 0 && table + needed <= 2L * view->width * view->height) {
            table += needed;
            const int kind = random() % 3 == 0 ? int(random() % 4) : 0;
            give_mask(*view, s, random_mask(random, b.width, b.height, kind));
          }
        }
      }
      cases.push_back({"masks", layout.format, params, {luma, chroma}, seed++});
    });
  // Masks on the plane's edges (their feather clipped), a mask the size of the plane,
  // and masks over one another and over a plain box.
  for_each_params(
      [&](const cf::RedactParams &params, int feather) {
        std::mt19937 random(seed);
        ViewSpec edges = view_spec(25, 19, 1, 1, 2, feather,
                                   shapes_of({{0, 0, 7, 6}, {17, 12, 8, 7}, {0, 10, 25, 3},
                                              {8, 4, 10, 9}},
                                             3, 2));
        for (size_t s = 0; s < 3; ++s)
          give_mask(edges, s, random_mask(random, edges.shapes[s].box.width,
                                          edges.shapes[s].box.height, 0));
        ViewSpec whole = view_spec(13, 11, 1, 1, 0, feather, shapes_of({{0, 0, 13, 11}}, 4, 4));
        give_mask(whole, 0, random_mask(random, 13, 11, 0));
        cases.push_back({"mask edges", cf::SampleDepth::U8, params, {edges, whole}, seed++});
      },
      {0, 2, 7});  // 9 would take more than twice the plane for the tables
  run_redact_cases("redact masks", run, cases);
}

void check_redact_invalid_calls(const RedactRunner &run) {
  const std::vector<cf::RedactShape> shapes = shapes_of({{1, 1, 4, 3}}, 2, 2);
  RedactCase base{"invalid", cf::SampleDepth::U8, {}, {view_spec(8, 6, 1, 1, 0, 2, shapes)}, 7};
  auto refused = [&](const char *what, cf::SampleFormat format, const cf::RedactParams &params,
                     const std::function<void(std::vector<cf::RedactView> &)> &spoil) {
    RedactCase test = base;
    test.format = format;
    Frame frame = make_frame(test);
    spoil(frame.views);
    const std::vector<uint8_t> before = frame.bytes;
    const cudaError_t err = run(frame.bytes.data(), frame.bytes.size(), frame.views, format, params);
    fail_unless(err == cudaErrorInvalidValue, "%s: returned %s", what, cudaGetErrorName(err));
    fail_unless(frame.bytes == before, "%s: the frame was written", what);
  };
  const cf::SampleFormat u8 = cf::SampleDepth::U8;
  const cf::RedactParams fill{cf::RedactMethod::Fill, cf::RedactOutline::Box, false};
  const cf::RedactParams ellipse{cf::RedactMethod::Pixelate, cf::RedactOutline::Ellipse, false};
  std::vector<cf::RedactShape> outside = shapes_of({{5, 1, 4, 3}}, 2, 2);
  std::vector<cf::RedactShape> empty = shapes_of({{1, 1, 0, 3}}, 2, 2);
  std::vector<cf::RedactShape> no_block = shapes_of({{1, 1, 4, 3}}, 0, 2);
  std::vector<cf::RedactShape> negative = shapes_of({{-1, 1, 4, 3}}, 2, 2);
  std::vector<cf::RedactShape> many(cf::kRedactMaxShapes + 1, shapes[0]);
  using Views = std::vector<cf::RedactView>;
  refused("no views", u8, fill, [](Views &v) { v.clear(); });
  refused("9 views", u8, fill, [](Views &v) { v.resize(9, v[0]); });
  refused("format U8>>1", {cf::SampleDepth::U8, 1}, fill, [](Views &) {});
  refused("format U16>>16", {cf::SampleDepth::U16, 16}, fill, [](Views &) {});
  refused("no data", u8, fill, [](Views &v) { v[0].plane.data = nullptr; });
  refused("mask past channels", u8, fill, [](Views &v) { v[0].plane.channel_mask = 2; });
  refused("box outside", u8, fill, [&](Views &v) { v[0].shapes = outside.data(); });
  refused("empty box", u8, fill, [&](Views &v) { v[0].shapes = empty.data(); });
  refused("negative box", u8, fill, [&](Views &v) { v[0].shapes = negative.data(); });
  refused("block 0", u8, {}, [&](Views &v) { v[0].shapes = no_block.data(); });
  refused("shapes missing", u8, fill, [](Views &v) { v[0].shapes = nullptr; });
  refused("negative count", u8, fill, [](Views &v) { v[0].count = -1; });
  refused("1025 shapes", u8, fill, [&](Views &v) {
    v[0].shapes = many.data();
    v[0].count = int(many.size());
  });
  refused("feather -1", u8, fill, [](Views &v) { v[0].feather = -1; });
  refused("feather 256", u8, fill, [](Views &v) { v[0].feather = 256; });
  refused("invert block 0", u8, {}, [](Views &v) { v[0].invert_block_height = 0; });
  refused("fill 256", u8, fill, [](Views &v) { v[0].fill[0] = 256; });
  refused("P010 fill 1024", kP010, fill, [](Views &v) { v[0].fill[0] = 1024; });
  const cf::RedactParams blur{cf::RedactMethod::Blur, cf::RedactOutline::Box, false};
  const cf::RedactParams blur_invert{cf::RedactMethod::Blur, cf::RedactOutline::Box, true};
  std::vector<cf::RedactShape> no_sigma = shapes, wide_sigma = shapes;
  no_sigma[0].sigma_y = 0;
  wide_sigma[0].sigma_x = cf::kGaussMaxSigma * 1.01;
  refused("blur sigma 0", u8, blur, [&](Views &v) { v[0].shapes = no_sigma.data(); });
  refused("blur sigma past the cap", u8, blur, [&](Views &v) { v[0].shapes = wide_sigma.data(); });
  refused("blur invert sigma 0.05", u8, blur_invert, [](Views &v) { v[0].invert_sigma_x = 0.05; });
  // Three masks of the whole 8x6 plane: tables of 3 x 48 samples, over twice its 48.
  const std::vector<uint8_t> full(48, 1);
  std::vector<cf::RedactShape> masked = shapes_of({{0, 0, 8, 6}, {0, 0, 8, 6}, {0, 0, 8, 6}}, 2, 2);
  for (cf::RedactShape &shape : masked)
    shape.mask = full.data();
  refused("mask tables over the budget", u8, fill, [&](Views &v) {
    v[0].shapes = masked.data();
    v[0].count = 3;
  });
  // An ellipse wider than the 64-bit inside test takes, on a plane of one row.
  RedactCase wide = base;
  wide.views = {view_spec(cf::kRedactMaxEllipseSide + 1, 1, 1, 1, 0, 0,
                          shapes_of({{0, 0, cf::kRedactMaxEllipseSide + 1, 1}}, 2, 2))};
  Frame frame = make_frame(wide);
  const std::vector<uint8_t> before = frame.bytes;
  fail_unless_equals_int(run(frame.bytes.data(), frame.bytes.size(), frame.views, u8, ellipse),
                         cudaErrorInvalidValue);
  fail_unless(frame.bytes == before, "wide ellipse: the frame was written");
}

}  // namespace cftest
