// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CPU backend of the Gaussian blur and unsharp mask. Each thread takes a band of rows:
// a horizontal pass over the source rows the band's windows reach, into a buffer of
// unrounded sums, then a vertical pass over that buffer, then the one rounding
// of gauss.h. Both passes add one tap's products to a whole row at a time; borders are
// dealt with before, where a source row is gathered into a padded one and where a tap
// of the vertical pass picks its row. Samples become values (plane.h) as they are
// gathered, and values samples as they are stored: the sums are those of the values.
#include <algorithm>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "cpu_parallel.h"
#include "cpu_samples.h"
#include "gauss.h"

namespace cf {
namespace {

// floor(value / 256), negative values included (C++17 leaves >> of them to the compiler).
int32_t floor_div_256(int32_t value) { return value >= 0 ? value / 256 : -((255 - value) / 256); }

// Fixed per call: the geometry, the taps and where every window column and row lies.
template <typename Sample>
struct GaussJob {
  // Sums of one row (sample * 2^B) and of the window (sample * 2^(2B)) fit 32 bits
  // for 8-bit samples only (gauss_tap_bits).
  using HorizontalSum = std::conditional_t<sizeof(Sample) == 1, uint32_t, uint64_t>;
  using VerticalSum = HorizontalSum;

  const Plane &src;
  const Plane &dst;
  const GaussParams &params;
  int bits;                  // B of gauss.h
  int padding_bits;          // of the format: value = sample >> padding_bits
  uint32_t constant;         // border constant, a value clamped to the format's range
  uint32_t max_value;        // of the format's values
  // column_offsets[j]: byte offset within a source row of padded column j, that is
  // image column j - radius_x (or kConstantColumn).
  std::vector<ptrdiff_t> column_offsets;

  int radius_x() const { return static_cast<int>(params.taps_x.size()) / 2; }
  int radius_y() const { return static_cast<int>(params.taps_y.size()) / 2; }
};

// Horizontal sums of one source row's values: out[x] = sum_j taps_x[j] *
// row(x + j - radius_x), at most max_value * 2^B.
template <typename Sample>
void horizontal_pass(const GaussJob<Sample> &job, const uint8_t *row, std::vector<uint32_t> &padded,
                     typename GaussJob<Sample>::HorizontalSum *out) {
  using HorizontalSum = typename GaussJob<Sample>::HorizontalSum;
  const int width = job.src.width;
  for (size_t j = 0; j < padded.size(); ++j) {
    const ptrdiff_t offset = job.column_offsets[j];
    padded[j] = offset == kConstantColumn
                    ? job.constant
                    : uint32_t{load_sample<Sample>(row + offset)} >> job.padding_bits;
  }
  std::fill(out, out + width, HorizontalSum{0});
  for (size_t j = 0; j < job.params.taps_x.size(); ++j) {
    const auto tap = static_cast<HorizontalSum>(job.params.taps_x[j]);
    if (tap == 0)
      continue;  // the tails of long kernels of small sigma
    const uint32_t *in = padded.data() + j;
    for (int x = 0; x < width; ++x)
      out[x] += tap * in[x];
  }
}

// Writes dst(x, y) from the blurred (unrounded) sums of row y.
template <typename Sample>
void store_row(const GaussJob<Sample> &job, int y,
               const std::vector<typename GaussJob<Sample>::VerticalSum> &sums) {
  using VerticalSum = typename GaussJob<Sample>::VerticalSum;
  const int shift = 2 * job.bits;
  const VerticalSum half = VerticalSum{1} << (shift - 1);
  const uint8_t *src_row = job.src.data + y * job.src.row_pitch;
  uint8_t *dst_row = job.dst.data + y * job.dst.row_pitch;
  const auto dst_stride = static_cast<ptrdiff_t>(job.dst.pixel_stride);
  const auto src_stride = static_cast<ptrdiff_t>(job.src.pixel_stride);
  const GaussParams &params = job.params;
  for (int x = 0; x < job.src.width; ++x) {
    const auto blurred = static_cast<int32_t>((sums[x] + half) >> shift);
    int32_t out = blurred;
    if (params.mode == GaussMode::Unsharp) {
      const auto original =
          static_cast<int32_t>(load_sample<Sample>(src_row + x * src_stride) >> job.padding_bits);
      const int32_t detail = original - blurred;
      out = original;
      if (static_cast<uint32_t>(std::abs(detail)) >= params.threshold)
        out = std::clamp(original + floor_div_256(params.amount_q8 * detail + 128), 0,
                         static_cast<int32_t>(job.max_value));
    }
    store_sample(dst_row + x * dst_stride, static_cast<Sample>(out << job.padding_bits));
  }
}

// Filters dst rows [y_begin, y_end).
template <typename Sample>
void gauss_rows(const GaussJob<Sample> &job, int y_begin, int y_end) {
  using HorizontalSum = typename GaussJob<Sample>::HorizontalSum;
  using VerticalSum = typename GaussJob<Sample>::VerticalSum;
  const Plane &src = job.src;
  const int width = src.width;
  const int radius_y = job.radius_y();
  const BorderMode mode = job.params.border.mode;

  // The source rows the band's windows reach, [first_row, last_row]: rows beyond an
  // edge stand for rows in this range (or for the constant).
  const int first_row = std::max(0, y_begin - radius_y);
  const int last_row = std::min(src.height - 1, y_end - 1 + radius_y);
  std::vector<HorizontalSum> horizontal(static_cast<size_t>(last_row - first_row + 1) * width);
  std::vector<uint32_t> padded(job.column_offsets.size());
  for (int row = first_row; row <= last_row; ++row)
    horizontal_pass(job, src.data + row * src.row_pitch, padded,
                    horizontal.data() + static_cast<size_t>(row - first_row) * width);
  // A row of the constant border: the taps sum to 2^B.
  const std::vector<HorizontalSum> constant_row(width, HorizontalSum{job.constant} << job.bits);

  std::vector<VerticalSum> sums(width);
  for (int y = y_begin; y < y_end; ++y) {
    std::fill(sums.begin(), sums.end(), VerticalSum{0});
    for (int i = 0; i <= 2 * radius_y; ++i) {
      const auto tap = static_cast<VerticalSum>(job.params.taps_y[i]);
      if (tap == 0)
        continue;
      const int row = border_index(y + i - radius_y, src.height, mode);
      const HorizontalSum *in =
          row < 0 ? constant_row.data()
                  : horizontal.data() + static_cast<size_t>(row - first_row) * width;
      for (int x = 0; x < width; ++x)
        sums[x] += tap * in[x];
    }
    store_row(job, y, sums);
  }
}

template <typename Sample>
void gauss_plane(const Plane &src, const Plane &dst, SampleFormat format,
                 const GaussParams &params, int threads) {
  GaussJob<Sample> job{src,
                       dst,
                       params,
                       gauss_tap_bits(format),
                       format.padding_bits,
                       std::min<uint32_t>(params.border.constant, max_sample_value(format)),
                       max_sample_value(format),
                       {}};
  const int radius_x = job.radius_x();
  job.column_offsets.resize(src.width + 2 * radius_x);
  for (int j = 0; j < static_cast<int>(job.column_offsets.size()); ++j) {
    const int column = border_index(j - radius_x, src.width, params.border.mode);
    job.column_offsets[j] =
        column < 0 ? kConstantColumn : column * static_cast<ptrdiff_t>(src.pixel_stride);
  }
  const long work_per_row =
      static_cast<long>(src.width) * (params.taps_x.size() + params.taps_y.size());
  parallel_ranges(src.height, threads, work_per_row,
                  [&](int begin, int end) { gauss_rows(job, begin, end); });
}

}  // namespace

cudaError_t gauss_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                      const GaussParams &params, int threads) {
  if (!is_valid(params, src, dst, format))
    return cudaErrorInvalidValue;
  if (format.depth == SampleDepth::U8)
    gauss_plane<uint8_t>(src, dst, format, params, threads);
  else
    gauss_plane<uint16_t>(src, dst, format, params, threads);
  return cudaSuccess;
}

}  // namespace cf
