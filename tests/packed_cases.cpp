// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "packed_cases.h"

#include <gst/check/gstcheck.h>

#include <string>

#include "filter_cases.h"
#include "median_network.h"
#include "reference_gauss.h"
#include "reference_median.h"

namespace cftest {
namespace {

struct PackedLayout {
  int channels;
  unsigned channel_mask;
  cf::SampleFormat format;
};

// RGBA/BGRA/RGBx (alpha or x last, not filtered), ARGB/xRGB (first), every channel of
// RGBA and RGB, NV12's UV; YUY2-like luma alone, 16-bit and P010 pixels.
const PackedLayout kLayouts[] = {
    {4, 0xf, cf::SampleDepth::U8},  {4, 0x7, cf::SampleDepth::U8},
    {4, 0xe, cf::SampleDepth::U8},  {3, 0x7, cf::SampleDepth::U8},
    {2, 0x3, cf::SampleDepth::U8},  {2, 0x1, cf::SampleDepth::U8},
    {2, 0x3, cf::SampleDepth::U16}, {4, 0x7, cf::SampleDepth::U16},
    {2, 0x3, kP010},                {2, 0x2, kP010},
};

// 1-pixel rows and columns, sizes either side of whole vectors of pixels, rows longer
// than the median networks' chunks (2 KB of a half row). The CUDA kernels that take
// pixels whole need rows of whole 4-sample chunks (median 3x3) or 4-byte aligned rows
// (Gauss): 12 and 40 pixels make those of 2 and 3 channels too, and 17 pixels of 3
// channels end in a partial word. 256x40 holds warps and bands of the Gauss kernels
// that lie wholly inside the frame (their path without border checks).
const int kSizes[][2] = {{1, 1},  {3, 1},  {1, 4},  {2, 3},    {12, 7},  {17, 9},
                         {40, 6}, {67, 5}, {256, 40}, {2301, 3}};

// A packed image: a TestImage of width * channels samples per row (so its filler
// checks cover the bytes between rows) seen as pixels of `channels` samples.
struct PackedImage {
  PackedImage(int width, int height, const PackedLayout &layout, int row_padding,
              int misalignment)
      : samples(width * layout.channels, height, layout.format, 0,
                row_padding * layout.channels, misalignment),
        plane(samples.plane()) {
    plane.width = width;
    plane.pixel_stride = layout.channels * cf::bytes_per_sample(layout.format);
    plane.channels = layout.channels;
    plane.channel_mask = layout.channel_mask;
  }
  cf::Plane channel(int c) const { return cf::channel_plane(plane, c, samples.format()); }

  TestImage samples;
  cf::Plane plane;
};

std::string describe(const PackedLayout &layout, int width, int height, int row_padding,
                     int misalignment) {
  return std::to_string(width) + "x" + std::to_string(height) + " " +
         std::to_string(layout.channels) + " channels mask " +
         std::to_string(layout.channel_mask) + " " +
         (layout.format.depth == cf::SampleDepth::U8 ? "U8" : "U16") + ">>" +
         std::to_string(layout.format.padding_bits) + " row padding " +
         std::to_string(row_padding) + " misaligned by " + std::to_string(misalignment);
}

// Calls check(layout, width, height, row_padding, misalignment, seed, what) on every case.
template <class Check>
void for_each_case(Check &&check) {
  uint32_t seed = 1;
  for (const PackedLayout &layout : kLayouts)
    for (const auto &size : kSizes)
      for (int row_padding : {0, 3})
        for (int misalignment : {0, 1}) {
          // 16-bit samples stay 2-byte aligned, as in every real format.
          if (misalignment && layout.format.depth == cf::SampleDepth::U16)
            continue;
          check(layout, size[0], size[1], row_padding, misalignment, seed++,
                describe(layout, size[0], size[1], row_padding, misalignment));
        }
}

// Runs filter(src, dst, format, params) on a random packed image and compares dst
// with reference(src channel, dst channel, format, params) on each computed channel and
// src's samples elsewhere.
template <class Params, class Filter, class Reference>
void check_packed_filter(const PackedLayout &layout, int width, int height, int row_padding,
                         int misalignment, uint32_t seed, const std::string &what,
                         const Params &params, const Filter &filter,
                         const Reference &reference) {
  PackedImage src(width, height, layout, row_padding, misalignment);
  fill_random_samples(src.samples, seed);
  PackedImage expected(width, height, layout, row_padding, misalignment);
  for (int c = 0; c < layout.channels; ++c) {
    if (layout.channel_mask & (1u << c)) {
      reference(src.channel(c), expected.channel(c), layout.format, params);
      continue;
    }
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        expected.samples.set_stored(x * layout.channels + c, y,
                                    src.samples.stored(x * layout.channels + c, y));
  }
  // Different samples at first: every one must be written.
  PackedImage got(width, height, layout, row_padding, misalignment);
  fill_random_samples(got.samples, seed + 1000);
  filter(src.plane, got.plane, layout.format, params);
  if (const auto mismatch = first_mismatch(got.samples, expected.samples))
    fail("%s: channel %d of pixel %d, row %d: got %u, expected %u", what.c_str(),
         mismatch->x % layout.channels, mismatch->x / layout.channels, mismatch->y,
         mismatch->got, mismatch->expected);
  if (const auto changed = got.samples.first_changed_filler())
    fail("%s: wrote the filler byte at offset %td", what.c_str(), *changed);
  if (const auto changed = src.samples.first_changed_filler())
    fail("%s: wrote into src at offset %td", what.c_str(), *changed);
}

}  // namespace

void check_packed_median(const MedianFilter &filter) {
  for_each_case([&](const PackedLayout &layout, int width, int height, int row_padding,
                    int misalignment, uint32_t seed, const std::string &what) {
    for (const cf::Border &border : test_borders(layout.format))
      for (int window : {3, 5, 7, 9, 11}) {
        // Windows beyond the CPU's networks (its histograms, channel by channel) are
        // slow to count: one border is enough. The frame of whole inside warps is there
        // for the CUDA kernels of pixels whole, which stop at 7x7.
        if ((window > cf::median_network::kMaxNetworkWindow &&
             border.mode != cf::BorderMode::Reflect101) ||
            (window > 7 && width * height > 4096))
          continue;
        check_packed_filter(layout, width, height, row_padding, misalignment, seed,
                            what + " window " + std::to_string(window) + " " + describe(border),
                            cf::MedianParams{window, border}, filter, reference_median);
      }
  });
}

void check_packed_gauss(const GaussFilter &filter) {
  for_each_case([&](const PackedLayout &layout, int width, int height, int row_padding,
                    int misalignment, uint32_t seed, const std::string &what) {
    for (const cf::Border &border : test_borders(layout.format)) {
      std::vector<std::pair<std::string, cf::GaussParams>> variants;
      variants.emplace_back("sigma 1", cf::make_gauss_params(1, 1, 0, 0, layout.format, border));
      variants.emplace_back("sigma 0.8 x 2",
                            cf::make_gauss_params(0.8, 2, 0, 0, layout.format, border));
      cf::GaussParams unsharp = cf::make_gauss_params(1.5, 1.5, 0, 0, layout.format, border);
      unsharp.mode = cf::GaussMode::Unsharp;
      unsharp.amount_q8 = 384;
      unsharp.threshold = 2;
      variants.emplace_back("unsharp", unsharp);
      // 15 taps: the widest the kernels that keep rows in registers take.
      variants.emplace_back("15 taps",
                            cf::make_gauss_params(4.6, 4.6, 15, 15, layout.format, border));
      for (const auto &[name, params] : variants)
        check_packed_filter(layout, width, height, row_padding, misalignment, seed,
                            what + " " + name + " " + describe(border), params, filter,
                            reference_gauss);
    }
  });
}

void check_packed_histogram(const PackedHistogramCounter &count) {
  for_each_case([&](const PackedLayout &layout, int width, int height, int row_padding,
                    int misalignment, uint32_t seed, const std::string &what) {
    PackedImage src(width, height, layout, row_padding, misalignment);
    fill_random_samples(src.samples, seed);
    cf::HistogramParams partial;  // a range within the values, a region within the frame
    partial.bins = 7;
    partial.lower = 3;
    partial.upper = cf::max_sample_value(layout.format) / 2;
    partial.roi_x = width / 3;
    partial.roi_y = height / 2;
    for (const cf::HistogramParams &params : {full_range_params(layout.format), partial}) {
      std::vector<HistogramResult> got;
      std::vector<HistogramResult> expected;
      for (int c = 0; c < layout.channels; ++c)
        if (layout.channel_mask & (1u << c)) {
          got.push_back(unwritten_result(params.bins, 0));
          expected.push_back(reference_histogram(src.channel(c), layout.format, params));
        }
      count(src.plane, layout.format, params, got);
      for (size_t k = 0; k < got.size(); ++k)
        if (const auto difference = first_difference(got[k], expected[k]))
          fail("%s %s: counted channel %zu: %s", what.c_str(), describe(params).c_str(), k,
               difference->c_str());
    }
  });
}

}  // namespace cftest
