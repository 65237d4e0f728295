// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "region_cases.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "cuda_test_support.h"
#include "filter_cases.h"
#include "test_image.h"

namespace cftest {
namespace {

// The box clipped to the plane, where anything of it is left.
void add_clipped(std::vector<cf::Box> &boxes, int width, int height, int x, int y, int w,
                 int h) {
  const int x0 = std::max(0, x), y0 = std::max(0, y);
  const int x1 = std::min(width, x + w), y1 = std::min(height, y + h);
  if (x1 > x0 && y1 > y0)
    boxes.push_back({x0, y0, x1 - x0, y1 - y0});
}

// An image of `stride` samples a pixel (a TestImage of width * stride samples a row,
// so that its filler checks cover the bytes between rows) seen as pixels of the
// layout's channels.
struct RegionPlane {
  RegionPlane(const RegionImage &image, int stride, int padding)
      : samples(image.width * stride, image.height, image.format, 0,
                padding * cf::bytes_per_sample(image.format), image.layout.misalignment),
        plane(samples.plane()), stride(stride) {
    plane.width = image.width;
    plane.pixel_stride = stride * cf::bytes_per_sample(image.format);
    plane.channels = image.layout.channels;
    plane.channel_mask = image.layout.channel_mask;
  }
  // Sample s (channel s, or s >= channels: of no channel) of pixel x, row y, whole.
  uint32_t stored(int x, int s, int y) const { return samples.stored(x * stride + s, y); }

  TestImage samples;
  cf::Plane plane;
  int stride;
};

std::string describe(const RegionImage &image) {
  const RegionLayout &l = image.layout;
  return std::to_string(image.width) + "x" + std::to_string(image.height) + " " +
         (image.format.depth == cf::SampleDepth::U8 ? "U8" : "U16") + ">>" +
         std::to_string(image.format.padding_bits) + " " + std::to_string(l.channels) +
         " channels mask " + std::to_string(l.channel_mask) + " strides " +
         std::to_string(l.src_stride) + "/" + std::to_string(l.dst_stride) + " paddings " +
         std::to_string(l.src_padding) + "/" + std::to_string(l.dst_padding) +
         " misaligned by " + std::to_string(l.misalignment);
}

// The first sample of got (pixel x, sample s, row y) that differs from what the region
// call must leave there, or nothing.
std::optional<std::string> compare(const RegionImage &image, const std::vector<cf::Box> &boxes,
                                   const RegionPlane &got, const RegionPlane &whole,
                                   const RegionPlane &before) {
  std::vector<uint8_t> covered(size_t(image.width) * image.height, 0);
  for (const cf::Box &box : boxes)
    for (int y = box.y; y < box.y + box.height; ++y)
      std::fill_n(covered.begin() + size_t(y) * image.width + box.x, box.width, uint8_t{1});
  const RegionLayout &layout = image.layout;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      for (int s = 0; s < got.stride; ++s) {
        const bool inside = covered[size_t(y) * image.width + x] != 0;
        const bool computed = s < layout.channels && ((layout.channel_mask >> s) & 1u);
        const uint32_t expected =
            inside && computed ? whole.stored(x, s, y) : before.stored(x, s, y);
        const uint32_t value = got.stored(x, s, y);
        if (value != expected)
          return "pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") sample " +
                 std::to_string(s) + (inside ? " inside" : " outside") + " the boxes" +
                 (computed ? "" : ", not computed") + ": got " + std::to_string(value) +
                 ", expected " + std::to_string(expected) +
                 (inside && computed ? " (the whole plane's)" : " (as it was)");
      }
  return std::nullopt;
}

// Every box set of the image's size for one filter; the first failure.
std::optional<std::string> check_image(const RegionImage &image, const NamedRegionFilter &filter,
                                       uint32_t seed) {
  const RegionLayout &layout = image.layout;
  RegionPlane src(image, layout.src_stride, layout.src_padding);
  fill_random_samples(src.samples, seed);
  const std::vector<uint8_t> src_bytes = src.samples.bytes();
  const auto fresh_dst = [&] {
    RegionPlane dst(image, layout.dst_stride, layout.dst_padding);
    fill_random_samples(dst.samples, seed + 7919);
    return dst;
  };
  const std::string what = describe(image) + ", " + filter.name + ", ";

  RegionPlane whole = fresh_dst();
  filter.filter(src.plane, whole.plane, image.format, cf::OutputRegion{});
  const RegionPlane before = fresh_dst();
  for (const BoxSet &set : region_box_sets(image.width, image.height)) {
    RegionPlane got = fresh_dst();
    filter.filter(src.plane, got.plane, image.format, cf::OutputRegion::inside(set.boxes));
    if (const auto failure = compare(image, set.boxes, got, whole, before))
      return what + "boxes " + set.name + ": " + *failure;
    if (const auto changed = got.samples.first_changed_filler())
      return what + "boxes " + set.name + ": wrote the filler byte at offset " +
             std::to_string(*changed);
    if (src.samples.bytes() != src_bytes)
      return what + "boxes " + set.name + ": wrote into src";
  }
  return std::nullopt;
}

}  // namespace

std::vector<BoxSet> region_box_sets(int width, int height) {
  const int w = width, h = height;
  std::vector<BoxSet> sets;
  sets.push_back({"none", {}});

  BoxSet one{"one", {}};
  add_clipped(one.boxes, w, h, w / 4, h / 3, std::max(1, w / 2), std::max(1, h / 3));
  sets.push_back(one);

  BoxSet overlapping{"overlapping", {}};
  add_clipped(overlapping.boxes, w, h, w / 5, h / 5, std::max(1, w / 2), std::max(1, h / 2));
  add_clipped(overlapping.boxes, w, h, w / 3, h / 4, std::max(1, w / 2), std::max(1, h / 2));
  add_clipped(overlapping.boxes, w, h, w / 4 + 1, h / 3 + 1, std::max(1, w / 8),
              std::max(1, h / 8));
  add_clipped(overlapping.boxes, w, h, w / 5, h / 5, std::max(1, w / 2), std::max(1, h / 2));
  sets.push_back(overlapping);

  // Every edge and corner, boxes a little over a third of the plane.
  BoxSet edges{"edges and corners", {}};
  const int bw = std::max(1, w / 3 + 1), bh = std::max(1, h / 3 + 1);
  add_clipped(edges.boxes, w, h, 0, 0, bw, bh);
  add_clipped(edges.boxes, w, h, w - bw, 0, bw, bh);
  add_clipped(edges.boxes, w, h, 0, h - bh, bw, bh);
  add_clipped(edges.boxes, w, h, w - bw, h - bh, bw, bh);
  add_clipped(edges.boxes, w, h, w / 2, 0, 3, bh);       // top
  add_clipped(edges.boxes, w, h, w / 2 - 1, h - 2, 5, 2);  // bottom
  add_clipped(edges.boxes, w, h, 0, h / 2, 2, 3);        // left
  add_clipped(edges.boxes, w, h, w - 7, h / 2 - 1, 7, 2);  // right
  sets.push_back(edges);

  BoxSet pixels{"1x1", {}};
  for (const auto &at : {std::pair<int, int>{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1},
                         {w / 2, h / 2}, {w / 3 + 1, h / 5 + 2}, {w / 2 + 1, h / 2}})
    add_clipped(pixels.boxes, w, h, at.first, at.second, 1, 1);
  sets.push_back(pixels);

  sets.push_back({"the plane", {{0, 0, w, h}}});

  // Deterministic, spread over the plane, many overlapping, 1 to a fifth of each side.
  BoxSet many{"100 boxes", {}};
  uint32_t state = 12345;
  const auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return int(state >> 8);
  };
  while (many.boxes.size() < 100) {
    const int x = next() % w, y = next() % h;
    add_clipped(many.boxes, w, h, x, y, 1 + next() % std::max(1, w / 5),
                1 + next() % std::max(1, h / 5));
  }
  sets.push_back(many);

  BoxSet thin{"thin rows and columns", {}};
  add_clipped(thin.boxes, w, h, 0, h / 2, w, 1);
  add_clipped(thin.boxes, w, h, w / 7, h / 3, std::max(1, w / 2), 1);
  add_clipped(thin.boxes, w, h, w / 2, 0, 1, h);
  add_clipped(thin.boxes, w, h, w / 5 + 1, h / 4, 1, std::max(1, h / 2));
  add_clipped(thin.boxes, w, h, 0, h - 1, w, 1);
  add_clipped(thin.boxes, w, h, w - 1, 0, 1, h);
  add_clipped(thin.boxes, w, h, w / 3, h / 6, 2, std::max(1, h - h / 3));
  sets.push_back(thin);
  return sets;
}

void check_regions(const char *filter_name, const std::vector<RegionImage> &images,
                   const std::vector<NamedRegionFilter> &filters) {
  run_cases(filter_name, images.size() * filters.size(), [&](size_t index) {
    const RegionImage &image = images[index / filters.size()];
    return check_image(image, filters[index % filters.size()], uint32_t(index) * 31 + 5);
  });
}

std::vector<RegionImage> region_images(const std::vector<std::pair<int, int>> &sizes) {
  struct Shape {
    cf::SampleFormat format;
    RegionLayout layout;
  };
  const cf::SampleFormat u8 = cf::SampleDepth::U8, u16 = cf::SampleDepth::U16;
  const Shape shapes[] = {
      // One channel: packed; strided and padded, src and dst differently; 8-bit samples
      // at an odd address.
      {u8, {1, 0x1, 1, 1, 0, 0, 0}},
      {u8, {1, 0x1, 3, 2, 5, 1, 0}},
      {u8, {1, 0x1, 1, 1, 3, 0, 1}},
      {u16, {1, 0x1, 1, 1, 0, 0, 0}},
      {u16, {1, 0x1, 2, 3, 1, 2, 0}},
      {kP010, {1, 0x1, 1, 1, 0, 0, 0}},
      {kP010, {1, 0x1, 4, 1, 0, 3, 0}},
      // Packed pixels: RGBA, RGBx, xRGB, RGB, NV12's UV and one of its channels; 16-bit
      // and P010 pairs, 16-bit RGBx.
      {u8, {4, 0xf, 4, 4, 0, 0, 0}},
      {u8, {4, 0x7, 4, 4, 0, 0, 0}},
      {u8, {4, 0xe, 4, 4, 4, 0, 0}},
      {u8, {3, 0x7, 3, 3, 0, 0, 0}},
      {u8, {2, 0x3, 2, 2, 0, 0, 0}},
      {u8, {2, 0x2, 2, 2, 2, 2, 0}},
      {u16, {2, 0x3, 2, 2, 0, 0, 0}},
      {u16, {4, 0x7, 4, 4, 0, 0, 0}},
      {kP010, {2, 0x3, 2, 2, 0, 0, 0}},
      {kP010, {2, 0x1, 2, 2, 0, 0, 0}},
  };
  std::vector<RegionImage> images;
  for (const auto &size : sizes)
    for (const Shape &shape : shapes)
      images.push_back({size.first, size.second, shape.format, shape.layout});
  return images;
}

std::vector<NamedRegionFilter> gauss_region_filters(const GaussFilter &filter) {
  struct Kernel {
    double sigma_x, sigma_y;
    int size_x, size_y;  // 0: automatic
    cf::Border border;
    bool unsharp;
  };
  const Kernel kernels[] = {
      {1, 0, 0, 0, {cf::BorderMode::Replicate, 0}, false},       // 7 taps
      {2, 0.6, 3, 15, {cf::BorderMode::Reflect101, 0}, true},    // radius 1 x 7
      {0.8, 0, 5, 5, {cf::BorderMode::Constant, 2000}, false},   // the clamped constant
      {3, 0, 0, 0, {cf::BorderMode::Constant, 77}, true},        // 19 taps
      {8, 0, 0, 0, {cf::BorderMode::Reflect101, 0}, false},      // 49 taps
      {20, 13, 121, 81, {cf::BorderMode::Replicate, 0}, false},  // 121 x 81 taps
  };
  std::vector<NamedRegionFilter> filters;
  for (const Kernel &k : kernels) {
    char name[128];
    std::snprintf(name, sizeof name, "sigma %g/%g, sizes %d/%d, %s%s", k.sigma_x, k.sigma_y,
                  k.size_x, k.size_y, describe(k.border).c_str(),
                  k.unsharp ? ", unsharp 1.5 threshold 3" : "");
    filters.push_back({name, [filter, k](const cf::Plane &src, const cf::Plane &dst,
                                         cf::SampleFormat format,
                                         const cf::OutputRegion &region) {
                         cf::GaussParams params = cf::make_gauss_params(
                             k.sigma_x, k.sigma_y, k.size_x, k.size_y, format, k.border);
                         if (k.unsharp) {
                           params.mode = cf::GaussMode::Unsharp;
                           params.amount_q8 = 384;
                           params.threshold = 3;
                         }
                         params.region = region;
                         filter(src, dst, format, params);
                       }});
  }
  return filters;
}

std::vector<NamedRegionFilter> median_region_filters(const MedianFilter &filter,
                                                     const std::vector<int> &windows) {
  const cf::Border borders[] = {{cf::BorderMode::Replicate, 0},
                                {cf::BorderMode::Reflect101, 0},
                                {cf::BorderMode::Constant, 77},
                                {cf::BorderMode::Constant, 2000}};
  std::vector<NamedRegionFilter> filters;
  for (size_t i = 0; i < windows.size(); ++i) {
    const int window = windows[i];
    const cf::Border border = borders[i % 4];
    filters.push_back({std::to_string(window) + "x" + std::to_string(window) + " " +
                           describe(border),
                       [filter, window, border](const cf::Plane &src, const cf::Plane &dst,
                                                cf::SampleFormat format,
                                                const cf::OutputRegion &region) {
                         cf::MedianParams params;
                         params.window = window;
                         params.border = border;
                         params.region = region;
                         filter(src, dst, format, params);
                       }});
  }
  return filters;
}

#ifdef CF_HAVE_CUDA
void check_invalid_regions_cuda(const char *filter_name, const DeviceRegionFilter &filter) {
  cf::Plane src;
  src.width = src.height = 4;
  src.row_pitch = 8;
  fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&src.data), 32), "cudaMalloc");
  cf::Plane dst = src;
  fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&dst.data), 32), "cudaMalloc");
  fail_on_cuda_error(cudaMemset(src.data, 0x11, 32), "cudaMemset");
  fail_on_cuda_error(cudaMemset(dst.data, 0x5a, 32), "cudaMemset");
  const std::vector<cf::Box> past_right{{0, 0, 1, 1}, {1, 1, 4, 1}};
  const std::vector<cf::Box> past_bottom{{2, 3, 1, 2}};
  const std::vector<cf::Box> empty{{1, 1, 0, 1}};
  const std::vector<cf::Box> negative{{-1, 0, 2, 2}};
  const std::vector<cf::Box> huge{{1, 1, 2147483647, 1}};
  cf::OutputRegion negative_count = cf::OutputRegion::inside(past_right);
  negative_count.count = -1;
  const cf::OutputRegion missing{false, nullptr, 2};
  const cf::OutputRegion regions[] = {
      cf::OutputRegion::inside(past_right), cf::OutputRegion::inside(past_bottom),
      cf::OutputRegion::inside(empty),      cf::OutputRegion::inside(negative),
      cf::OutputRegion::inside(huge),       negative_count,
      missing,
  };
  for (const cf::OutputRegion &region : regions)
    fail_unless_equals_int(filter(src, dst, region), cudaErrorInvalidValue);
  fail_on_cuda_error(cudaDeviceSynchronize(), filter_name);
  uint8_t bytes[32];
  fail_on_cuda_error(cudaMemcpy(bytes, dst.data, 32, cudaMemcpyDeviceToHost), "download");
  for (const uint8_t byte : bytes)
    fail_unless_equals_int(byte, 0x5a);
  fail_on_cuda_error(cudaFree(src.data), "cudaFree");
  fail_on_cuda_error(cudaFree(dst.data), "cudaFree");
}
#endif

}  // namespace cftest
