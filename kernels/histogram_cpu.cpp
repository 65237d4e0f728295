// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CPU backend of the histogram. Each thread counts how often every sample value occurs
// in its rows, per channel (one increment per sample, no arithmetic; every channel of
// a packed plane in the same pass over its pixels); the merged value counts then give
// the bins, below, above, min, max and sum exactly, in one pass over the at most 65536
// values instead of one per sample. Samples are counted by value (plane.h).
#include <algorithm>
#include <mutex>
#include <vector>

#include <hwy/base.h>

#include "cpu_parallel.h"
#include "cpu_samples.h"
#include "histogram.h"

namespace cf {
namespace {

// Counts per thread, per channel: counts[c * values + v] for channel c of every pixel
// (the channels not counted too: skipping them would cost more than counting). A run
// of equal samples would make every increment wait for the one before it (the same
// counter, through memory): 8-bit samples are spread over four tables of counts in turn
// (kCopies of each channel's), which keeps four increments in flight. Four tables of
// 65536 counts would not stay in cache: 16-bit samples count into one per channel.
template <typename Sample, int kChannels>
std::vector<uint32_t> count_values(const Plane &src, const HistogramRegion &region,
                                   SampleFormat format, int threads) {
  constexpr int kCopies = sizeof(Sample) == 1 ? (kChannels < 4 ? 4 / kChannels : 1) : 1;
  constexpr int kTables = kChannels * kCopies;
  const size_t values = size_t{max_sample_value(format)} + 1;
  const int padding_bits = format.padding_bits;
  std::vector<uint32_t> counts(kChannels * values, 0);
  std::mutex merge;
  const ptrdiff_t stride = src.pixel_stride;
  // Every range counts into tables of its own, merged after: 8-bit tables are small
  // enough for several ranges a thread, 16-bit ones (256 KiB a channel) are not.
  constexpr int kRangesPerThread = sizeof(Sample) == 1 ? 4 : 1;
  parallel_ranges(region.height, threads, long{region.width} * kChannels, [&](int begin, int end) {
    // Copies in locals: the counters are uint32_t, which may alias what the lambda
    // holds by reference, so those would be read again after every increment.
    const int shift = sizeof(Sample) == 1 ? 0 : padding_bits;  // 8-bit formats have none
    const ptrdiff_t step = stride;
    const HistogramRegion area = region;
    std::vector<uint32_t> local(kTables * values, 0);
    uint32_t *tables[kTables];  // channel c's copy k: tables[c * kCopies + k]
    for (int t = 0; t < kTables; ++t)
      tables[t] = local.data() + t * values;
    for (int y = begin; y < end; ++y) {
      const uint8_t *pixel = src.data + (area.y + y) * src.row_pitch + area.x * step;
      int x = 0;
      if constexpr (sizeof(Sample) == 1 && 8 % kChannels == 0) {
        // Dense 8-bit rows: eight samples per load (8-bit formats have no padding bits).
        constexpr int kPixels = 8 / kChannels;
        if (step == kChannels)
          for (; x + kPixels <= area.width; x += kPixels, pixel += 8) {
            const auto eight = load_sample<uint64_t>(pixel);
            // Unrolled: constant shifts and tables (GCC's -O2 keeps the loop otherwise).
            HWY_UNROLL(8)
            for (int k = 0; k < 8; ++k)
              ++tables[(k % kChannels) * kCopies + (k / kChannels) % kCopies]
                      [(eight >> (8 * k)) & 0xff];
          }
      }
      for (; x + kCopies <= area.width; x += kCopies)
        for (int k = 0; k < kCopies; ++k, pixel += step)
          for (int c = 0; c < kChannels; ++c)
            ++tables[c * kCopies + k][load_sample<Sample>(pixel + c * sizeof(Sample)) >> shift];
      for (; x < area.width; ++x, pixel += step)
        for (int c = 0; c < kChannels; ++c)
          ++tables[c * kCopies][load_sample<Sample>(pixel + c * sizeof(Sample)) >> shift];
    }
    const std::lock_guard<std::mutex> lock(merge);
    for (int t = 0; t < kTables; ++t) {
      uint32_t *channel_counts = counts.data() + (t / kCopies) * values;
      for (size_t v = 0; v < values; ++v)
        channel_counts[v] += tables[t][v];
    }
  }, kRangesPerThread);
  return counts;
}

template <typename Sample>
std::vector<uint32_t> count_values(const Plane &src, const HistogramRegion &region,
                                   SampleFormat format, int threads) {
  switch (src.channels) {
  case 1:
    return count_values<Sample, 1>(src, region, format, threads);
  case 2:
    return count_values<Sample, 2>(src, region, format, threads);
  case 3:
    return count_values<Sample, 3>(src, region, format, threads);
  default:
    return count_values<Sample, 4>(src, region, format, threads);
  }
}

// Bins and summary of one channel's `values` counts (count of value v: counts[v]).
void bin_counts(const uint32_t *counts, size_t values, SampleFormat format,
                const HistogramParams &params, const HistogramRegion &region,
                const HistogramOutput &output) {
  const uint32_t range = params.upper - params.lower + 1;
  HistogramSummary result;
  result.samples = static_cast<uint32_t>(region.width) * static_cast<uint32_t>(region.height);
  result.min = max_sample_value(format);
  std::fill(output.bins, output.bins + params.bins, 0u);
  for (uint32_t value = 0; value < values; ++value) {
    const uint32_t count = counts[value];
    if (count == 0)
      continue;
    result.sum += uint64_t{value} * count;
    result.min = std::min(result.min, value);
    result.max = std::max(result.max, value);
    if (value < params.lower)
      result.below += count;
    else if (value > params.upper)
      result.above += count;
    else  // (value - lower) * bins < 2^16 * 2^16: no overflow
      output.bins[(value - params.lower) * uint32_t(params.bins) / range] += count;
  }
  *output.summary = result;
}

}  // namespace

cudaError_t histogram_cpu(const Plane &src, SampleFormat format, const HistogramParams &params,
                          const HistogramOutput *outputs, int threads) {
  if (!is_valid(params, src, format) || !are_valid_outputs(src, outputs))
    return cudaErrorInvalidValue;
  const HistogramRegion region = resolve_region(params, src);
  const std::vector<uint32_t> counts =
      format.depth == SampleDepth::U8 ? count_values<uint8_t>(src, region, format, threads)
                                      : count_values<uint16_t>(src, region, format, threads);
  const size_t values = size_t{max_sample_value(format)} + 1;
  const HistogramOutput *output = outputs;
  for (int c = 0; c < src.channels; ++c)
    if (src.channel_mask & (1u << c))
      bin_counts(counts.data() + c * values, values, format, params, region, *output++);
  return cudaSuccess;
}

cudaError_t histogram_boxes_cpu(const Plane &src, SampleFormat format,
                                const HistogramParams &params, const Box *boxes, int count,
                                const HistogramOutput *outputs, int threads) {
  HistogramParams without_roi = params;  // boxes take the region's place
  without_roi.roi_x = without_roi.roi_y = without_roi.roi_width = without_roi.roi_height = 0;
  if (!is_valid(without_roi, src, format) || !are_valid_boxes(boxes, count, src) ||
      !are_valid_box_outputs(src, count, outputs))
    return cudaErrorInvalidValue;
  const size_t values = size_t{max_sample_value(format)} + 1;
  const HistogramOutput *output = outputs;
  // Box by box, each as the region of a histogram: the same counts by construction.
  for (int b = 0; b < count; ++b) {
    const HistogramRegion region{boxes[b].x, boxes[b].y, boxes[b].width, boxes[b].height};
    const std::vector<uint32_t> counts =
        format.depth == SampleDepth::U8 ? count_values<uint8_t>(src, region, format, threads)
                                        : count_values<uint16_t>(src, region, format, threads);
    for (int c = 0; c < src.channels; ++c)
      if (src.channel_mask & (1u << c))
        bin_counts(counts.data() + c * values, values, format, params, region, *output++);
  }
  return cudaSuccess;
}

void histogram_clear_cpu(int bins, const HistogramOutput *outputs, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    std::fill_n(outputs[i].bins, bins, 0u);
    *outputs[i].summary = HistogramSummary{};
  }
}

}  // namespace cf
