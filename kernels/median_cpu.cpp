// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CPU backend of the median filter. Windows up to 9x9 run a selection network on
// vectors (median_network.h): every window column is sorted once per output row, then
// each pair of neighbouring windows merges its sorted columns, many pixels per
// instruction, as many as the target's vectors hold (Highway, chosen at run time).
// Larger windows count: 8-bit samples in column histograms (Perreault and Hebert,
// vector steps), 16-bit samples in a two-level histogram of the window slid along
// each row, so a step costs 2 * window sample updates plus two short bin walks
// instead of a sort of window * window samples.
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "median_cpu.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/aligned_allocator.h>
#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "cpu_parallel.h"
#include "cpu_rows-inl.h"
#include "cpu_samples.h"
#include "median.h"
#include "median_network.h"

HWY_BEFORE_NAMESPACE();
namespace cf {
namespace HWY_NAMESPACE {
namespace {

namespace net = median_network;

template <net::OpKind kKind, int kA, int kB, class V>
HWY_INLINE void apply_op(V *wires) {
  if constexpr (kKind == net::OpKind::Copy) {
    wires[kB] = wires[kA];
  } else if constexpr (kKind == net::OpKind::MinMax) {
    const V a = wires[kA];
    wires[kA] = hn::Min(a, wires[kB]);
    wires[kB] = hn::Max(a, wires[kB]);
  } else if constexpr (kKind == net::OpKind::MinOnly) {
    wires[kA] = hn::Min(wires[kA], wires[kB]);
  } else {
    wires[kB] = hn::Max(wires[kA], wires[kB]);
  }
}

// The ops as template arguments: every wire index a constant, so the wires live in
// registers rather than in the array.
template <const auto &kNet, size_t kFirst, class V, size_t... kI>
HWY_INLINE void apply_op_run(V *wires, std::index_sequence<kI...>) {
  (apply_op<kNet.ops[kFirst + kI].kind, kNet.ops[kFirst + kI].a, kNet.ops[kFirst + kI].b>(wires),
   ...);
}

// In runs of at most 128: clang refuses fold expressions nested deeper than 256.
template <const auto &kNet, size_t kFirst = 0, class V>
HWY_INLINE void apply_ops(V *wires) {
  constexpr size_t kLeft = static_cast<size_t>(kNet.count) - kFirst;
  if constexpr (kLeft > 0) {
    constexpr size_t kRun = kLeft < 128 ? kLeft : 128;
    apply_op_run<kNet, kFirst>(wires, std::make_index_sequence<kRun>());
    apply_ops<kNet, kFirst + kRun>(wires);
  }
}

// The median networks keep a row's sorted columns in chunks of at most kChunkBytes of
// a half row, and of at most kSortedBytes of sorted columns (both halves, every rank):
// within the first-level cache, where a 4K RGBA row's would not be.
constexpr int kChunkBytes = 2048;
constexpr int kSortedBytes = 28 * 1024;

// An unsigned integer as wide as kSamples samples of T: a pixel of a packed row.
template <typename T, int kSamples>
struct PixelOf {
  using type = hwy::MakeWide<typename PixelOf<T, kSamples / 2>::type>;
};
template <typename T>
struct PixelOf<T, 1> {
  using type = T;
};

// The medians of the windows of columns 0 .. kWindow - 1 (into `first`) and 1 ..
// kWindow (`second`) of a vector of pixel pairs, from their sorted columns: rank k of
// column c at columns + ((c % 2) * kWindow + k) * rank_stride + c / 2 * samples.
template <typename T, int kWindow>
HWY_INLINE void pair_medians(const T *HWY_RESTRICT columns, size_t rank_stride, int samples,
                             T *HWY_RESTRICT first, T *HWY_RESTRICT second) {
  const hn::ScalableTag<T> d;
  hn::Vec<decltype(d)> wires[net::kPairNetwork<kWindow>.wires];
  HWY_UNROLL(10)
  for (int c = 0; c <= kWindow; ++c)
    HWY_UNROLL(10)
    for (int k = 0; k < kWindow; ++k)
      wires[c * kWindow + k] =
          hn::LoadU(d, columns + ((c % 2) * kWindow + k) * rank_stride + c / 2 * samples);
  apply_ops<net::kPairNetwork<kWindow>>(wires);
  hn::Store(wires[net::kPairNetwork<kWindow>.first], d, first);
  hn::Store(wires[net::kPairNetwork<kWindow>.second], d, second);
}

// The same, not inlined: one copy per sample type and window rather than one per pixel
// layout too. For the 9x9 network, which inline doubled this file's compile time
// (under the sanitizers too); out of line the smaller windows run slower
// (docs/benchmarks.md, "The CPU backend"), so they stay inline.
template <typename T, int kWindow>
HWY_NOINLINE void pair_medians_call(const T *HWY_RESTRICT columns, size_t rank_stride,
                                    int samples, T *HWY_RESTRICT first, T *HWY_RESTRICT second) {
  pair_medians<T, kWindow>(columns, rank_stride, samples, first, second);
}

// The last kWindow source rows read, each in slot row % kWindow, split into their even
// and odd pixels (halves of half_length samples each): the rows a window reaches
// (border rows included) lie within kWindow consecutive rows.
template <typename T, int kWindow, int kSamples>
class SplitRows {
public:
  using Pixel = typename PixelOf<T, kSamples>::type;

  SplitRows(const RowFilterJob &job, int half_length)
      : job_(job),
        half_length_(half_length),
        row_length_(2 * static_cast<size_t>(half_length)),
        rows_(hwy::AllocateAligned<T>(kWindow * row_length_)),
        constant_row_(hwy::AllocateAligned<T>(row_length_)),
        padded_(hwy::AllocateAligned<T>(row_length_)) {
    std::fill(slot_row_, slot_row_ + kWindow, -1);
    std::fill(constant_row_.get(), constant_row_.get() + row_length_,
              static_cast<T>(job.constant));
    std::fill(padded_.get(), padded_.get() + row_length_, T{0});
  }

  // Source row source_row (border_index's result; negative: the constant row), split.
  const T *row(int source_row) {
    if (source_row < 0)
      return constant_row_.get();
    T *slot = rows_.get() + (source_row % kWindow) * row_length_;
    if (slot_row_[source_row % kWindow] != source_row) {
      const hn::ScalableTag<T> d;
      const hn::ScalableTag<Pixel> d_pixel;
      const int lanes = static_cast<int>(hn::Lanes(d));
      load_padded_pixels(job_, source_row, 0, job_.src.width, padded_.get());
      const auto *pixels = reinterpret_cast<const Pixel *>(padded_.get());
      for (int j = 0; j < half_length_; j += lanes) {
        hn::Vec<decltype(d_pixel)> even, odd;
        hn::LoadInterleaved2(d_pixel, pixels + 2 * (j / kSamples), even, odd);
        hn::Store(hn::BitCast(d, even), d, slot + j);
        hn::Store(hn::BitCast(d, odd), d, slot + half_length_ + j);
      }
      slot_row_[source_row % kWindow] = source_row;
    }
    return slot;
  }

private:
  const RowFilterJob &job_;
  const int half_length_;
  const size_t row_length_;
  int slot_row_[kWindow];
  hwy::AlignedFreeUniquePtr<T[]> rows_;
  hwy::AlignedFreeUniquePtr<T[]> constant_row_;
  // A source row as read, before the split (whole vectors of pixel pairs).
  hwy::AlignedFreeUniquePtr<T[]> padded_;
};

// The source row the next output row reads first and the destination row this one
// writes, fetched while it computes: copy loops alone would wait for memory. A cache
// line or so per step, a row's length over the row.
struct RowPrefetch {
  const uint8_t *next_source;  // or nullptr
  const uint8_t *destination;
  ptrdiff_t row_bytes;
  ptrdiff_t bytes_per_sample;

  RowPrefetch(const RowFilterJob &job, int y, int radius, int samples)
      : next_source(y + 1 + radius < job.src.height
                        ? job.src.data + (y + 1 + radius) * job.src.row_pitch
                        : nullptr),
        destination(job.dst.data + y * job.dst.row_pitch),
        row_bytes(ptrdiff_t{job.src.width - 1} * job.src.pixel_stride),
        bytes_per_sample(job.src.pixel_stride / samples) {}

  // Ahead of half sample j.
  HWY_INLINE void at(int j) const {
    const ptrdiff_t ahead = 2 * ptrdiff_t{j} * bytes_per_sample;
    if (ahead <= row_bytes) {
      if (next_source != nullptr)
        hwy::Prefetch(next_source + ahead);
      hwy::Prefetch(destination + ahead);
    }
  }
};

// Half samples [begin, end) of the window's columns sorted, rank k of half sample j of
// half h at sorted[(h * kWindow + k) * sorted_length + j - begin].
template <typename T, int kWindow>
HWY_INLINE void sort_columns(const T *const *window_rows, int half_length, int begin, int end,
                             const RowPrefetch &prefetch, T *sorted, size_t sorted_length) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const int lanes = static_cast<int>(hn::Lanes(d));
  for (int j = begin; j < end; j += lanes) {
    prefetch.at(j);
    V even[kWindow], odd[kWindow];
    // Loops over wires fully unrolled (kWindow + 1 <= 10): their vectors then
    // stay in registers.
    HWY_UNROLL(10)
    for (int i = 0; i < kWindow; ++i) {
      even[i] = hn::Load(d, window_rows[i] + j);
      odd[i] = hn::Load(d, window_rows[i] + half_length + j);
    }
    apply_ops<net::kColumnSort<kWindow>>(even);
    apply_ops<net::kColumnSort<kWindow>>(odd);
    HWY_UNROLL(10)
    for (int k = 0; k < kWindow; ++k) {
      hn::Store(even[net::kColumnSort<kWindow>.rank_wire[k]], d,
                sorted + k * sorted_length + j - begin);
      hn::Store(odd[net::kColumnSort<kWindow>.rank_wire[k]], d,
                sorted + (kWindow + k) * sorted_length + j - begin);
    }
  }
}

// The medians of pairs [begin, end) (in samples) from their sorted columns (sorted, as
// sort_columns leaves them from begin on), into out's pixels.
template <typename T, int kWindow, int kSamples>
HWY_INLINE void chunk_medians(const T *sorted, size_t sorted_length, int begin, int end,
                              T *out) {
  using Pixel = typename PixelOf<T, kSamples>::type;
  const hn::ScalableTag<T> d;
  const hn::ScalableTag<Pixel> d_pixel;
  const int lanes = static_cast<int>(hn::Lanes(d));
  auto *out_pixels = reinterpret_cast<Pixel *>(out);
  for (int j = begin; j < end; j += lanes) {
    HWY_ALIGN T first[hn::MaxLanes(d)], second[hn::MaxLanes(d)];
    if constexpr (kWindow >= 9)
      pair_medians_call<T, kWindow>(sorted + j - begin, sorted_length, kSamples, first, second);
    else
      pair_medians<T, kWindow>(sorted + j - begin, sorted_length, kSamples, first, second);
    hn::StoreInterleaved2(hn::BitCast(d_pixel, hn::Load(d, first)),
                          hn::BitCast(d_pixel, hn::Load(d, second)), d_pixel,
                          out_pixels + 2 * (j / kSamples));
  }
}

// Rows [y_begin, y_end) of a window of kWindow x kWindow, pixels of kSamples samples
// (every channel of a packed row at once, neighbours kSamples samples apart). Lane j
// of a vector works on sample j of the pair of output pixels 2p and 2p + 1, whose
// windows span padded columns 2p .. 2p + kWindow: each source row is kept split into
// its even and odd pixels so that each of the kWindow + 1 columns is one contiguous
// load.
template <typename T, int kWindow, int kSamples>
void median_network_rows(const RowFilterJob &job, int y_begin, int y_end) {
  const hn::ScalableTag<T> d;
  constexpr int kRadius = kWindow / 2;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const int pairs = (job.src.width + 1) / 2;
  // Samples of each half (even, odd pixels): every pair block and the last block's
  // window, in whole vectors, so that every half starts aligned.
  const int half_length = ((pairs + kWindow) * kSamples + 2 * lanes - 1) / lanes * lanes;
  SplitRows<T, kWindow, kSamples> rows(job, half_length);
  // The halves in chunks whose sorted columns stay in the first-level cache:
  // sorted[(half * kWindow + k) * sorted_length + j]: rank k of sample chunk_begin + j
  // of the half, for a chunk's pairs and the columns their windows reach beyond it.
  // Whole vectors: every column stays aligned.
  const int chunk =
      std::min({half_length, kChunkBytes / static_cast<int>(sizeof(T)),
                kSortedBytes / (2 * kWindow * static_cast<int>(sizeof(T))) / lanes * lanes});
  const int reach = ((kWindow / 2) * kSamples + 2 * lanes - 1) / lanes * lanes;
  const int sorted_length = chunk + reach;
  auto sorted = hwy::AllocateAligned<T>(2 * kWindow * static_cast<size_t>(sorted_length));
  auto out = hwy::AllocateAligned<T>(2 * static_cast<size_t>(half_length));

  for (int y = y_begin; y < y_end; ++y) {
    const T *window_rows[kWindow];
    for (int i = 0; i < kWindow; ++i)
      window_rows[i] = rows.row(border_index(y + i - kRadius, job.src.height, job.border_mode));
    const RowPrefetch prefetch(job, y, kRadius, kSamples);
    for (int chunk_begin = 0; chunk_begin < pairs * kSamples; chunk_begin += chunk) {
      const int sort_end = std::min(half_length, chunk_begin + sorted_length);
      sort_columns<T, kWindow>(window_rows, half_length, chunk_begin, sort_end, prefetch,
                               sorted.get(), sorted_length);
      const int chunk_end = std::min(pairs * kSamples, chunk_begin + chunk);
      chunk_medians<T, kWindow, kSamples>(sorted.get(), sorted_length, chunk_begin, chunk_end,
                                          out.get());
    }
    store_pixel_values(out.get(), job, y);
  }
}

template <typename T, int kSamples>
void median_network_rows(const RowFilterJob &job, int y_begin, int y_end) {
  switch (2 * job.radius_x + 1) {
  case 3:
    return median_network_rows<T, 3, kSamples>(job, y_begin, y_end);
  case 5:
    return median_network_rows<T, 5, kSamples>(job, y_begin, y_end);
  case 7:
    return median_network_rows<T, 7, kSamples>(job, y_begin, y_end);
  default:
    static_assert(net::kMaxNetworkWindow == 9, "a case per network window");
    return median_network_rows<T, 9, kSamples>(job, y_begin, y_end);
  }
}

// For planes of 1, 2 or 4 channels that the row code takes (takes_network_rows).
template <typename T>
void median_network_rows(const RowFilterJob &job, int y_begin, int y_end) {
#if HWY_TARGET == HWY_SCALAR
  // A vector of one lane holds no pixel of several samples: channel by channel.
  if (job.src.channels > 1) {
    const SampleFormat format(sizeof(T) == 1 ? SampleDepth::U8 : SampleDepth::U16,
                              job.padding_bits);
    for (int c = 0; c < job.src.channels; ++c)
      if (job.src.channel_mask & (1u << c)) {
        RowFilterJob channel = job;
        channel.src = channel_plane(job.src, c, format);
        channel.dst = channel_plane(job.dst, c, format);
        median_network_rows<T, 1>(channel, y_begin, y_end);
      }
    const auto rows = [&](Plane plane) {
      plane.data += y_begin * plane.row_pitch;
      plane.height = y_end - y_begin;
      return plane;
    };
    copy_channels_not_computed(rows(job.src), rows(job.dst), format);
    return;
  }
  median_network_rows<T, 1>(job, y_begin, y_end);
#else
  switch (job.src.channels) {
  case 1:
    return median_network_rows<T, 1>(job, y_begin, y_end);
  case 2:
    return median_network_rows<T, 2>(job, y_begin, y_end);
  default:
    return median_network_rows<T, 4>(job, y_begin, y_end);
  }
#endif
}

// 8-bit windows wider than the networks: Perreault and Hebert's constant-time median.
// Every image column keeps a histogram of its window's rows, coarse (16 bins of 16
// values, one 16-lane vector) and fine (256 bins); moving down a row updates each
// column by one sample out and one in. Along a row the window's coarse histogram
// gains the entering column's and loses the leaving one's (one vector each), the
// coarse bin holding the median is found, and only that bin's 16 fine counts are
// brought up to date: from the columns that moved since it was last used, or summed
// afresh where that is more than a window ago.
class ColumnHistograms {
public:
  static constexpr int kCoarse = 16;  // bins of 16 values; 16 values per fine segment
  using D = hn::CappedTag<uint16_t, kCoarse>;

  // A count of columns that cannot be negative, so that no compiler sees a size
  // beyond every object's in it (GCC 14's -Wstringop-overflow did, from an int).
  explicit ColumnHistograms(int columns)
      : columns_(static_cast<size_t>(std::max(columns, 0))),
        coarse_(hwy::AllocateAligned<uint16_t>(columns_ * kCoarse)),
        fine_(hwy::AllocateAligned<uint16_t>(columns_ * 256)) {
    std::fill_n(coarse_.get(), columns_ * kCoarse, uint16_t{0});
    std::fill_n(fine_.get(), columns_ * 256, uint16_t{0});
  }

  void change(int column, uint8_t value, int delta) {
    coarse_[column * kCoarse + (value >> 4)] += delta;
    fine_[column * 256 + value] += delta;
  }
  const uint16_t *coarse(int column) const { return coarse_.get() + column * kCoarse; }
  const uint16_t *fine(int column, int bin) const { return fine_.get() + column * 256 + bin * 16; }

private:
  size_t columns_;
  hwy::AlignedFreeUniquePtr<uint16_t[]> coarse_;
  hwy::AlignedFreeUniquePtr<uint16_t[]> fine_;
};

// window += histogram of `in` - histogram of `out`, 16 counts.
HWY_INLINE void slide(uint16_t *HWY_RESTRICT window, const uint16_t *in, const uint16_t *out) {
  const ColumnHistograms::D d;
  for (int k = 0; k < 16; k += static_cast<int>(hn::Lanes(d)))
    hn::Store(hn::Sub(hn::Add(hn::Load(d, window + k), hn::Load(d, in + k)), hn::Load(d, out + k)),
              d, window + k);
}

// out[x], x in [0, count): the median of the window over histograms x .. x + window - 1,
// the coarse counts slid along the row, each fine segment slid from where it was last
// counted or counted afresh where that is a window or more behind.
HWY_INLINE void row_medians(const ColumnHistograms &histograms, int window, int count,
                            uint8_t *out) {
  const ColumnHistograms::D d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const int median_rank = (window * window - 1) / 2;
  alignas(64) uint16_t coarse[16];
  alignas(64) uint16_t fine[16][16];
  int fine_x[16];  // the window position each fine segment was counted for
  std::fill(coarse, coarse + 16, uint16_t{0});
  for (int i = 0; i < window; ++i)
    for (int k = 0; k < 16; k += lanes)
      hn::Store(hn::Add(hn::Load(d, coarse + k), hn::Load(d, histograms.coarse(i) + k)), d,
                coarse + k);
  std::fill(fine_x, fine_x + 16, -window);
  for (int x = 0; x < count; ++x) {
    if (x > 0)
      slide(coarse, histograms.coarse(x + window - 1), histograms.coarse(x - 1));
    int below = 0;
    int bin = 0;
    while (below + coarse[bin] <= median_rank)
      below += coarse[bin++];
    uint16_t *segment = fine[bin];
    if (x - fine_x[bin] >= window) {
      std::fill(segment, segment + 16, uint16_t{0});
      for (int i = x; i < x + window; ++i)
        for (int k = 0; k < 16; k += lanes)
          hn::Store(hn::Add(hn::Load(d, segment + k), hn::Load(d, histograms.fine(i, bin) + k)),
                    d, segment + k);
    } else {
      for (int t = fine_x[bin] + 1; t <= x; ++t)
        slide(segment, histograms.fine(t + window - 1, bin), histograms.fine(t - 1, bin));
    }
    fine_x[bin] = x;
    int value = 0;
    while (below + segment[value] <= median_rank)
      below += segment[value++];
    out[x] = static_cast<uint8_t>(bin * 16 + value);
  }
}

// Rows [y_begin, y_end), in strips of columns whose histograms stay in cache (all of
// a 4K row's would not: every step would miss it twice).
void median_histogram_rows_8bit(const RowFilterJob &job, int window, int y_begin, int y_end) {
  constexpr int kStripWidth = 256;
  const int width = job.src.width;
  const int radius = window / 2;
  const auto constant = static_cast<uint8_t>(job.constant);
  // column_of[j]: the image column padded column j stands for, or -1 (the constant).
  std::vector<int> column_of(width + 2 * radius);
  for (int j = 0; j < static_cast<int>(column_of.size()); ++j)
    column_of[j] = border_index(j - radius, width, job.border_mode);
  auto values = hwy::AllocateAligned<uint8_t>(width);
  auto out = hwy::AllocateAligned<uint8_t>(kStripWidth);

  for (int x_begin = 0; x_begin < width; x_begin += kStripWidth) {
    const int x_end = std::min(width, x_begin + kStripWidth);
    // Histogram i: padded column x_begin + i. The image columns they stand for.
    const int columns = x_end - x_begin + window - 1;
    const int *strip_column = column_of.data() + x_begin;
    int first = width, last = -1;
    for (int i = 0; i < columns; ++i)
      if (strip_column[i] >= 0) {
        first = std::min(first, strip_column[i]);
        last = std::max(last, strip_column[i]);
      }
    ColumnHistograms histograms(columns);
    // Adds (+1) or removes (-1) source row `row` (border_index's result) in every column.
    const auto change_row = [&](int row, int delta) {
      if (row >= 0 && last >= first)
        load_values(job.src.data + row * job.src.row_pitch +
                        first * ptrdiff_t{job.src.pixel_stride},
                    last - first + 1, job.src.pixel_stride, 0, values.get());
      for (int i = 0; i < columns; ++i)
        histograms.change(i, row < 0 || strip_column[i] < 0 ? constant
                                                            : values[strip_column[i] - first],
                          delta);
    };
    for (int i = -radius; i <= radius; ++i)
      change_row(border_index(y_begin + i, job.src.height, job.border_mode), +1);

    for (int y = y_begin; y < y_end; ++y) {
      if (y > y_begin) {
        change_row(border_index(y - 1 - radius, job.src.height, job.border_mode), -1);
        change_row(border_index(y + radius, job.src.height, job.border_mode), +1);
      }
      row_medians(histograms, window, x_end - x_begin, out.get());
      store_values(out.get(), x_end - x_begin,
                   job.dst.data + y * job.dst.row_pitch + x_begin * ptrdiff_t{job.dst.pixel_stride},
                   job.dst.pixel_stride, 0);
    }
  }
}

}  // namespace

void MedianHistogramRows8(const RowFilterJob &job, int y_begin, int y_end) {
  median_histogram_rows_8bit(job, 2 * job.radius_x + 1, y_begin, y_end);
}

void MedianNetworkRows8(const RowFilterJob &job, int y_begin, int y_end) {
  median_network_rows<uint8_t>(job, y_begin, y_end);
}

void MedianNetworkRows16(const RowFilterJob &job, int y_begin, int y_end) {
  median_network_rows<uint16_t>(job, y_begin, y_end);
}

}  // namespace HWY_NAMESPACE
}  // namespace cf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cf {
HWY_EXPORT(MedianNetworkRows8);
HWY_EXPORT(MedianNetworkRows16);
HWY_EXPORT(MedianHistogramRows8);

namespace {

// Counts of the window's samples at two resolutions: the coarse bins (a value's top
// half of bits) locate the median in a few steps, the fine bins (full values) inside
// the chosen coarse bin pin it down.
template <typename Sample>
class WindowHistogram {
public:
  static constexpr int kValueBits = 8 * sizeof(Sample);
  // 16-bit: 256 coarse bins of 256 values (8-bit samples use ColumnHistograms).
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
void median_histogram_plane(const Plane &src, const Plane &dst, SampleFormat format,
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

// Planes of windows up to kMaxNetworkWindow: the selection networks, band by band,
// each band of every plane in turn. A band's source rows (a few hundred KB of
// interleaved RGBA at 4K) then stay in cache from one component to the next, where
// plane after plane would read the whole frame from memory once per component.
void median_network_planes(const std::vector<MedianPlane> &planes, int threads) {
  std::vector<RowFilterJob> jobs;
  int tallest = 0;
  int widest_window = 0;
  long work_per_row = 0;
  for (const MedianPlane &plane : planes) {
    const int radius = plane.params.window / 2;
    jobs.push_back({plane.src, plane.dst, plane.format.padding_bits, plane.params.border.mode,
                    sample_value(plane.format, border_sample(plane.params.border, plane.format)),
                    radius, radius});
    tallest = std::max(tallest, plane.src.height);
    widest_window = std::max(widest_window, plane.params.window);
    // Per sample: a column sort and about half a pair network, on whole vectors.
    work_per_row += static_cast<long>(plane.src.width) * plane.src.channels *
                    plane.params.window * plane.params.window;
  }
  // Each band reads window - 1 rows beyond its own again: bands of many rows keep that
  // small, and few enough to stay in cache. Threads claim them one by one (their cost
  // is in them already): the last one a thread takes is all it can lag behind.
  const int band_rows = std::max(32, 8 * widest_window);
  const int bands = (tallest + band_rows - 1) / band_rows;
  parallel_ranges(bands, threads, work_per_row * band_rows, [&](int begin, int end) {
    for (int band = begin; band < end; ++band)
      for (size_t i = 0; i < jobs.size(); ++i) {
        // Planes of fewer rows (subsampled chroma) in as many bands.
        const int height = jobs[i].src.height;
        const int y_begin = static_cast<int>(static_cast<long>(band) * height / bands);
        const int y_end = static_cast<int>(static_cast<long>(band + 1) * height / bands);
        if (y_begin == y_end)
          continue;
        if (planes[i].format.depth == SampleDepth::U8)
          HWY_DYNAMIC_DISPATCH(MedianNetworkRows8)(jobs[i], y_begin, y_end);
        else
          HWY_DYNAMIC_DISPATCH(MedianNetworkRows16)(jobs[i], y_begin, y_end);
      }
  }, bands);
}

// 8-bit planes of wider windows: column histograms (MedianHistogramRows8).
void median_column_histograms_plane(const MedianPlane &plane, int threads) {
  const int radius = plane.params.window / 2;
  const RowFilterJob job{plane.src, plane.dst, 0, plane.params.border.mode,
                         border_sample(plane.params.border, plane.format), radius, radius};
  // Per pixel: a few vector steps and two walks of up to 16 bins; per band, the
  // column histograms of its first window.
  const long work_per_row = static_cast<long>(plane.src.width) * (64 + plane.params.window);
  parallel_ranges(plane.src.height, threads, work_per_row, [&](int begin, int end) {
    HWY_DYNAMIC_DISPATCH(MedianHistogramRows8)(job, begin, end);
  });
}

// Whether the network rows take the plane whole: one channel, or 2 or 4 channels of
// dense pixels (pixel pairs split as one wider integer).
bool takes_network_rows(const MedianPlane &plane) {
  return takes_rows_of(plane.src, plane.dst, plane.format) && plane.src.channels != 3;
}

}  // namespace

cudaError_t median_cpu(const std::vector<MedianPlane> &planes, int threads) {
  for (const MedianPlane &plane : planes)
    if (!is_valid(plane.params, plane.src, plane.dst, plane.format))
      return cudaErrorInvalidValue;
  std::vector<MedianPlane> network_planes;
  std::vector<MedianPlane> whole_planes;
  for (const MedianPlane &plane : planes) {
    if (plane.params.region.whole_plane) {
      whole_planes.push_back(plane);
      continue;
    }
    MedianParams whole_plane = plane.params;
    whole_plane.region = {};
    const int radius = plane.params.window / 2;
    if (const cudaError_t err = filter_boxes_cpu(
            plane.src, plane.dst, plane.format, plane.params.region, radius, radius,
            [&](const Plane &box_src, const Plane &box_dst) {
              return median_cpu(box_src, box_dst, plane.format, whole_plane, threads);
            });
        err != cudaSuccess)
      return err;
  }
  const auto filter = [&](const MedianPlane &plane) {
    if (plane.params.window <= median_network::kMaxNetworkWindow)
      network_planes.push_back(plane);
    else if (plane.format.depth == SampleDepth::U8)
      median_column_histograms_plane(plane, threads);
    else
      median_histogram_plane<uint16_t>(plane.src, plane.dst, plane.format, plane.params, threads);
  };
  for (const MedianPlane &plane : whole_planes) {
    if (plane.src.channels == 1 ||
        (takes_network_rows(plane) && plane.params.window <= median_network::kMaxNetworkWindow)) {
      filter(plane);
      continue;
    }
    // Each computed channel on its own (RGB's 3-sample pixels, wider windows).
    for (int c = 0; c < plane.src.channels; ++c)
      if (plane.src.channel_mask & (1u << c))
        filter({channel_plane(plane.src, c, plane.format), channel_plane(plane.dst, c, plane.format),
                plane.format, plane.params});
    copy_channels_not_computed(plane.src, plane.dst, plane.format);
  }
  if (!network_planes.empty())
    median_network_planes(network_planes, threads);
  return cudaSuccess;
}

cudaError_t median_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                       const MedianParams &params, int threads) {
  return median_cpu({{src, dst, format, params}}, threads);
}

}  // namespace cf
#endif  // HWY_ONCE
