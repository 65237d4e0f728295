// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CPU backend of the median filter: a two-level histogram of the window slides along
// each row, so a step costs 2 * window sample updates plus two short bin walks
// instead of a sort of window * window samples.
#include <algorithm>
#include <limits>
#include <vector>

#include "cpu_parallel.h"
#include "cpu_samples.h"
#include "median.h"

namespace cf {
namespace {

// Counts of the window's samples at two resolutions: the coarse bins (a value's top
// half of bits) locate the median in a few steps, the fine bins (full values) inside
// the chosen coarse bin pin it down.
template <typename Sample>
class WindowHistogram {
public:
  static constexpr int kValueBits = 8 * sizeof(Sample);
  // 8-bit: 16 coarse bins of 16 values; 16-bit: 256 coarse bins of 256 values.
  static constexpr int kCoarseShift = kValueBits / 2;
  static constexpr int kCoarseBins = 1 << (kValueBits - kCoarseShift);

  WindowHistogram() : coarse_(kCoarseBins, 0), fine_(size_t{1} << kValueBits, 0) {}

  // Adds `delta` samples of `value` (removes them where negative).
  void change(Sample value, int delta) {
    coarse_[value >> kCoarseShift] += delta;
    fine_[value] += delta;
  }

  // The value of 0-based rank `rank` among the counted samples (sorted ascending).
  Sample value_at_rank(int rank) const {
    int below = 0;
    int coarse = 0;
    while (below + coarse_[coarse] <= rank)
      below += coarse_[coarse++];
    int value = coarse << kCoarseShift;
    while (below + fine_[value] <= rank)
      below += fine_[value++];
    return static_cast<Sample>(value);
  }

private:
  static_assert(kMedianMaxWindow * kMedianMaxWindow <= std::numeric_limits<uint16_t>::max(),
                "a bin must hold a whole window");
  std::vector<uint16_t> coarse_;
  std::vector<uint16_t> fine_;  // 128 KiB for 16-bit: stays in L2
};

// Filters rows [y_begin, y_end). column_offsets[j] is the byte offset within a source
// row of window column j - radius (or kConstantColumn).
//
// The window is counted as stored, padding bits and all, and the median's padding bits
// cleared (`keep`) as it is stored: clearing them is a non-decreasing map of samples,
// and the median (an order statistic) commutes with non-decreasing maps, so that is the
// median of the values, stored (plane.h).
template <typename Sample>
void median_rows(const Plane &src, const Plane &dst, SampleFormat format,
                 const MedianParams &params, const std::vector<ptrdiff_t> &column_offsets,
                 int y_begin, int y_end) {
  const int window = params.window;
  const int radius = window / 2;
  const int median_rank = (window * window - 1) / 2;
  const auto constant = static_cast<Sample>(border_sample(params.border, format));
  const auto keep = static_cast<Sample>(stored_sample(format, max_sample_value(format)));

  WindowHistogram<Sample> histogram;
  std::vector<const uint8_t *> rows;  // the window's rows that lie inside src
  rows.reserve(window);
  for (int y = y_begin; y < y_end; ++y) {
    rows.clear();
    for (int dy = -radius; dy <= radius; ++dy) {
      const int row = border_index(y + dy, src.height, params.border.mode);
      if (row >= 0)
        rows.push_back(src.data + row * src.row_pitch);
    }
    const int constant_rows = window - static_cast<int>(rows.size());

    // Adds (+1) or removes (-1) one window column; border constants are counted in bulk.
    const auto update_column = [&](ptrdiff_t offset, int delta) {
      if (offset == kConstantColumn) {
        histogram.change(constant, delta * window);
        return;
      }
      for (const uint8_t *row : rows)
        histogram.change(load_sample<Sample>(row + offset), delta);
      if (constant_rows > 0)
        histogram.change(constant, delta * constant_rows);
    };

    uint8_t *out = dst.data + y * dst.row_pitch;
    for (int j = 0; j < window; ++j)
      update_column(column_offsets[j], +1);
    store_sample(out, static_cast<Sample>(histogram.value_at_rank(median_rank) & keep));
    for (int x = 1; x < src.width; ++x) {
      update_column(column_offsets[x - 1], -1);
      update_column(column_offsets[x + window - 1], +1);
      store_sample(out + x * static_cast<ptrdiff_t>(dst.pixel_stride),
                   static_cast<Sample>(histogram.value_at_rank(median_rank) & keep));
    }
    // Leave the histogram empty for the next row: far cheaper than clearing 64 Ki bins.
    for (int j = src.width - 1; j < src.width - 1 + window; ++j)
      update_column(column_offsets[j], -1);
  }
}

template <typename Sample>
void median_plane(const Plane &src, const Plane &dst, SampleFormat format,
                  const MedianParams &params, int threads) {
  const int radius = params.window / 2;
  std::vector<ptrdiff_t> column_offsets(src.width + params.window - 1);
  for (int j = 0; j < static_cast<int>(column_offsets.size()); ++j) {
    const int column = border_index(j - radius, src.width, params.border.mode);
    column_offsets[j] =
        column < 0 ? kConstantColumn : column * static_cast<ptrdiff_t>(src.pixel_stride);
  }
  // Per pixel: 2 * window sample updates and the walk over the coarse bins.
  const long work_per_row =
      static_cast<long>(src.width) * (2 * params.window + WindowHistogram<Sample>::kCoarseBins);
  parallel_ranges(src.height, threads, work_per_row, [&](int begin, int end) {
    median_rows<Sample>(src, dst, format, params, column_offsets, begin, end);
  });
}

}  // namespace

cudaError_t median_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                       const MedianParams &params, int threads) {
  if (!is_valid(params, src, dst, format))
    return cudaErrorInvalidValue;
  if (format.depth == SampleDepth::U8)
    median_plane<uint8_t>(src, dst, format, params, threads);
  else
    median_plane<uint16_t>(src, dst, format, params, threads);
  return cudaSuccess;
}

}  // namespace cf
