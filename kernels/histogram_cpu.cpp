// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CPU backend of the histogram. Each thread counts how often every sample value occurs
// in its rows (one increment per sample, no arithmetic); the merged value counts then
// give the bins, below, above, min, max and sum exactly, in one pass over the at most
// 65536 values instead of one per sample. Samples are counted by value (plane.h).
#include <algorithm>
#include <mutex>
#include <vector>

#include "cpu_parallel.h"
#include "cpu_samples.h"
#include "histogram.h"

namespace cf {
namespace {

// Counts per thread. A run of equal samples would make every increment wait for the
// one before it (the same counter, through memory): 8-bit samples are spread over four
// tables of counts in turn, which keeps four increments in flight. Four tables of
// 65536 counts would not stay in cache: 16-bit samples count into one.
template <typename Sample>
std::vector<uint32_t> count_values(const Plane &src, const HistogramRegion &region,
                                   SampleFormat format, int threads) {
  constexpr int kTables = sizeof(Sample) == 1 ? 4 : 1;
  const size_t values = size_t{max_sample_value(format)} + 1;
  const int padding_bits = format.padding_bits;
  std::vector<uint32_t> counts(values, 0);
  std::mutex merge;
  const ptrdiff_t stride = src.pixel_stride;
  parallel_ranges(region.height, threads, region.width, [&](int begin, int end) {
    // Copies in locals: the counters are uint32_t, which may alias what the lambda
    // holds by reference, so those would be read again after every increment.
    const int shift = sizeof(Sample) == 1 ? 0 : padding_bits;  // 8-bit formats have none
    const ptrdiff_t step = stride;
    const HistogramRegion area = region;
    std::vector<uint32_t> local(kTables * values, 0);
    uint32_t *tables[kTables];
    for (int t = 0; t < kTables; ++t)
      tables[t] = local.data() + t * values;
    for (int y = begin; y < end; ++y) {
      const uint8_t *sample = src.data + (area.y + y) * src.row_pitch + area.x * step;
      int x = 0;
      if constexpr (sizeof(Sample) == 1) {
        // Packed 8-bit rows: eight samples per load (8-bit formats have no padding bits).
        if (step == 1)
          for (; x + 8 <= area.width; x += 8, sample += 8) {
            const auto eight = load_sample<uint64_t>(sample);
            for (int k = 0; k < 8; ++k)
              ++tables[k % kTables][(eight >> (8 * k)) & 0xff];
          }
      }
      for (; x + kTables <= area.width; x += kTables)
        for (int t = 0; t < kTables; ++t, sample += step)
          ++tables[t][load_sample<Sample>(sample) >> shift];
      for (; x < area.width; ++x, sample += step)
        ++tables[0][load_sample<Sample>(sample) >> shift];
    }
    const std::lock_guard<std::mutex> lock(merge);
    for (int t = 0; t < kTables; ++t)
      for (size_t v = 0; v < values; ++v)
        counts[v] += tables[t][v];
  });
  return counts;
}

}  // namespace

cudaError_t histogram_cpu(const Plane &src, SampleFormat format, const HistogramParams &params,
                          uint32_t *bins, HistogramSummary *summary, int threads) {
  if (!is_valid(params, src, format) || bins == nullptr || summary == nullptr)
    return cudaErrorInvalidValue;
  const HistogramRegion region = resolve_region(params, src);
  const std::vector<uint32_t> counts =
      format.depth == SampleDepth::U8 ? count_values<uint8_t>(src, region, format, threads)
                                      : count_values<uint16_t>(src, region, format, threads);

  const uint32_t range = params.upper - params.lower + 1;
  HistogramSummary result;
  result.samples = static_cast<uint32_t>(region.width) * static_cast<uint32_t>(region.height);
  result.min = max_sample_value(format);
  std::fill(bins, bins + params.bins, 0u);
  for (uint32_t value = 0; value < counts.size(); ++value) {
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
      bins[(value - params.lower) * uint32_t(params.bins) / range] += count;
  }
  *summary = result;
  return cudaSuccess;
}

}  // namespace cf
