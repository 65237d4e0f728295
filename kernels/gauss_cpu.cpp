// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CPU backend of the Gaussian blur and unsharp mask, on vectors (Highway, the target
// chosen at run time). Each thread takes a band of rows. A source row is read once
// into a row of values with its border columns (cpu_rows-inl.h), its horizontal sums
// go into a ring holding the last rows a window reaches, and each output row is the
// vertical sum of the ring's rows, rounded once as gauss.h says, unsharp-masked and
// stored. Mirrored taps are applied to the sum of their two inputs.
//
// Every sum is an exact integer, in one of two arithmetics:
// - 8-bit samples: 32-bit lanes. Row sums reach 255 * 2^12, window sums 255 * 2^24.
// - 16-bit samples: window sums reach 65535 * 2^40, beyond 32-bit lanes and beyond the
//   vector units' multiplies. Doubles hold integers below 2^53 exactly: a row sum
//   (< 2^36) is one double, and the vertical taps are split in two parts of which each
//   sums the rows exactly (Sums16); the rounding is done on those two sums.
#include <algorithm>
#include <vector>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "gauss_cpu.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/aligned_allocator.h>
#include <hwy/highway.h>

#include "cpu_parallel.h"
#include "cpu_rows-inl.h"
#include "cpu_samples.h"
#include "gauss.h"

#ifndef CF_GAUSS_JOB_DEFINED
#define CF_GAUSS_JOB_DEFINED
namespace cf {
struct GaussJob {
  RowFilterJob rows;
  const GaussParams &params;
  uint32_t max_value;  // of the format's values
};
}  // namespace cf
#endif

HWY_BEFORE_NAMESPACE();
namespace cf {
namespace HWY_NAMESPACE {
namespace {

// Vectors a pass works on at once: four independent sums hide the multiplies
// latency, and each tap is broadcast once for all four. The loops over them unroll
// (HWY_UNROLL: GCC's -O2 keeps them, and the sums with them, in memory otherwise).
constexpr int kBlock = 4;

// Unsharp masking of one vector of 32-bit values, as gauss.h says.
template <class DI32, class VI32 = hn::Vec<DI32>>
HWY_INLINE VI32 unsharp(DI32 di32, const GaussParams &params, uint32_t max_value,
                        VI32 source, VI32 blurred) {
  const VI32 detail = hn::Sub(source, blurred);
  // floor((amount_q8 * detail + 128) / 256): >> of a signed lane is arithmetic.
  const VI32 sharpened = hn::Add(
      source, hn::ShiftRight<8>(hn::Add(hn::Mul(hn::Set(di32, params.amount_q8), detail),
                                        hn::Set(di32, 128))));
  const VI32 clamped = hn::Min(hn::Max(sharpened, hn::Zero(di32)),
                               hn::Set(di32, static_cast<int32_t>(max_value)));
  const auto below_threshold =
      hn::Lt(hn::Abs(detail), hn::Set(di32, static_cast<int32_t>(params.threshold)));
  return hn::IfThenElse(below_threshold, source, clamped);
}

// 8-bit samples: sums in 32-bit lanes, one ring row per source row.
struct Sums8 {
  using Sample = uint8_t;
  using Sum = uint32_t;
  static constexpr int kBits = gauss_tap_bits(SampleDepth::U8);
  using D = hn::ScalableTag<uint32_t>;

  static int lanes() { return static_cast<int>(hn::Lanes(D())); }

  // sums[x] = sum_j taps[j] * padded[x + j * samples], x < count rounded up to kBlock
  // vectors: neighbours are pixels of `samples` samples.
  static void horizontal(const std::vector<int32_t> &taps, const Sample *padded, int count,
                         int samples, Sum *sums) {
    const D d;
    const hn::Rebind<Sample, D> d_in;
    const int radius = static_cast<int>(taps.size()) / 2;
    const int lanes = Sums8::lanes();
    const auto load = [&](const Sample *p) { return hn::PromoteTo(d, hn::LoadU(d_in, p)); };
    for (int x = 0; x < count; x += kBlock * lanes) {
      const Sample *in = padded + x;
      hn::Vec<D> sum[kBlock];
      const auto centre = hn::Set(d, static_cast<Sum>(taps[radius]));
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b)
        sum[b] = hn::Mul(load(in + b * lanes + radius * samples), centre);
      for (int j = 0; j < radius; ++j) {
        if (taps[j] == 0)
          continue;  // the tails of long kernels of small sigma
        const auto tap = hn::Set(d, static_cast<Sum>(taps[j]));
        HWY_UNROLL(4)
        for (int b = 0; b < kBlock; ++b)
          sum[b] = hn::Add(sum[b],
                           hn::Mul(hn::Add(load(in + b * lanes + j * samples),
                                           load(in + b * lanes + (2 * radius - j) * samples)),
                                   tap));
      }
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b)
        hn::Store(sum[b], d, sums + x + b * lanes);
    }
  }

  // The ring row of a constant row: the taps sum to 2^B.
  static void constant_row(uint32_t constant, int count, Sum *sums) {
    std::fill(sums, sums + count, constant << kBits);
  }

  // out[x] = the output value of the window whose rows' sums are rows[i].
  static void vertical(const GaussJob &job, const Sum *const *rows, const Sample *original,
                       int count, Sample *out) {
    const D d;
    const hn::Repartition<int32_t, D> di32;
    const hn::Rebind<Sample, D> d_out;
    const std::vector<int32_t> &taps = job.params.taps_y;
    const int radius = static_cast<int>(taps.size()) / 2;
    const int lanes = Sums8::lanes();
    const auto half = hn::Set(d, Sum{1} << (2 * kBits - 1));
    for (int x = 0; x < count; x += kBlock * lanes) {
      hn::Vec<D> sum[kBlock];
      const auto centre = hn::Set(d, static_cast<Sum>(taps[radius]));
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b)
        sum[b] = hn::Mul(hn::Load(d, rows[radius] + x + b * lanes), centre);
      for (int i = 0; i < radius; ++i) {
        if (taps[i] == 0)
          continue;
        const auto tap = hn::Set(d, static_cast<Sum>(taps[i]));
        const Sum *top = rows[i] + x;
        const Sum *bottom = rows[2 * radius - i] + x;
        HWY_UNROLL(4)
        for (int b = 0; b < kBlock; ++b)
          sum[b] = hn::Add(sum[b], hn::Mul(hn::Add(hn::Load(d, top + b * lanes),
                                                   hn::Load(d, bottom + b * lanes)),
                                           tap));
      }
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b) {
        auto value = hn::BitCast(di32, hn::ShiftRight<2 * kBits>(hn::Add(sum[b], half)));
        if (job.params.mode == GaussMode::Unsharp)
          value = unsharp(di32, job.params, job.max_value,
                          hn::PromoteTo(di32, hn::LoadU(d_out, original + x + b * lanes)), value);
        hn::StoreU(hn::DemoteTo(d_out, value), d_out, out + x + b * lanes);
      }
    }
  }
};

// 16-bit samples: exact integers in doubles. A row sum R < 2^36 is one double; the
// vertical pass splits each tap t = t_high * 2^kTapSplit + t_low and sums the rows
// with either part, sum t_high R < 2^46 and sum t_low R < 121 * 2^10 * 2^36 < 2^53,
// both exact. (Rows kept as R = hi * 2^20 + lo instead, two doubles a sample, made the
// vertical pass read twice the bytes from the ring: it waited on the L2 cache.)
struct Sums16 {
  using Sample = uint16_t;
  using Sum = double;
  static constexpr int kBits = gauss_tap_bits(SampleDepth::U16);
  static constexpr int kTapSplit = 10;
  static_assert(double{kGaussMaxKernelSize} * ((1 << kTapSplit) - 1) * 65535.0 *
                        double{1 << kBits} <
                    9007199254740992.0 /* 2^53 */,
                "the low parts' window sum must stay exact in a double");
  using D = hn::ScalableTag<double>;

  static int lanes() { return static_cast<int>(hn::Lanes(D())); }

  // Values of samples as doubles.
  static hn::Vec<D> load(const Sample *p) {
    const D d;
    const hn::Rebind<int32_t, D> di32;
    return hn::PromoteTo(d, hn::PromoteTo(di32, hn::LoadU(hn::Rebind<Sample, D>(), p)));
  }

  static void horizontal(const std::vector<int32_t> &taps, const Sample *padded, int count,
                         int samples, Sum *sums) {
    const D d;
    const int radius = static_cast<int>(taps.size()) / 2;
    const int lanes = Sums16::lanes();
    for (int x = 0; x < count; x += kBlock * lanes) {
      const Sample *in = padded + x;
      hn::Vec<D> sum[kBlock];
      const auto centre = hn::Set(d, double{1} * taps[radius]);
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b)
        sum[b] = hn::Mul(load(in + b * lanes + radius * samples), centre);
      for (int j = 0; j < radius; ++j) {
        if (taps[j] == 0)
          continue;
        const auto tap = hn::Set(d, double{1} * taps[j]);
        HWY_UNROLL(4)
        for (int b = 0; b < kBlock; ++b)
          sum[b] = hn::MulAdd(hn::Add(load(in + b * lanes + j * samples),
                                      load(in + b * lanes + (2 * radius - j) * samples)),
                              tap, sum[b]);
      }
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b)
        hn::Store(sum[b], d, sums + x + b * lanes);
    }
  }

  static void constant_row(uint32_t constant, int count, Sum *sums) {
    std::fill(sums, sums + count, double{1} * constant * (1 << kBits));
  }

  // The window sum H * 2^S + L (S = kTapSplit), (sum + 2^(2B-1)) >> 2B: with
  // H = q * 2^(2B-S) + r, that is q + floor((r * 2^S + L + 2^(2B-1)) / 2^2B), every term
  // exact (below 2^53).
  static HWY_INLINE hn::Vec<D> rounded(hn::Vec<D> high_sum, hn::Vec<D> low_sum) {
    const D d;
    constexpr int kQuotientShift = 2 * kBits - kTapSplit;
    const auto quotient_unit = hn::Set(d, double(uint64_t{1} << kQuotientShift));
    const auto per_quotient_unit = hn::Set(d, 1.0 / double(uint64_t{1} << kQuotientShift));
    const auto quotient = hn::Floor(hn::Mul(high_sum, per_quotient_unit));
    const auto remainder = hn::NegMulAdd(quotient, quotient_unit, high_sum);
    const auto rest =
        hn::MulAdd(remainder, hn::Set(d, double{1 << kTapSplit}),
                   hn::Add(low_sum, hn::Set(d, double(uint64_t{1} << (2 * kBits - 1)))));
    return hn::Add(
        quotient, hn::Floor(hn::Mul(rest, hn::Set(d, 1.0 / double(uint64_t{1} << (2 * kBits))))));
  }

  static void vertical(const GaussJob &job, const Sum *const *rows, const Sample *original,
                       int count, Sample *out) {
    const D d;
    const hn::Rebind<int32_t, D> di32;
    const hn::Rebind<Sample, D> d_out;
    const std::vector<int32_t> &taps = job.params.taps_y;
    const int radius = static_cast<int>(taps.size()) / 2;
    const int lanes = Sums16::lanes();
    const auto high_part = [&](int i) { return hn::Set(d, double{1} * (taps[i] >> kTapSplit)); };
    const auto low_part = [&](int i) {
      return hn::Set(d, double{1} * (taps[i] & ((1 << kTapSplit) - 1)));
    };
    for (int x = 0; x < count; x += kBlock * lanes) {
      hn::Vec<D> high_sums[kBlock], low_sums[kBlock];
      const auto centre_high = high_part(radius);
      const auto centre_low = low_part(radius);
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b) {
        const auto centre_row = hn::Load(d, rows[radius] + x + b * lanes);
        high_sums[b] = hn::Mul(centre_row, centre_high);
        low_sums[b] = hn::Mul(centre_row, centre_low);
      }
      for (int i = 0; i < radius; ++i) {
        if (taps[i] == 0)
          continue;
        const auto high = high_part(i);
        const auto low = low_part(i);
        const Sum *top = rows[i] + x;
        const Sum *bottom = rows[2 * radius - i] + x;
        HWY_UNROLL(4)
        for (int b = 0; b < kBlock; ++b) {
          const auto pair = hn::Add(hn::Load(d, top + b * lanes), hn::Load(d, bottom + b * lanes));
          high_sums[b] = hn::MulAdd(pair, high, high_sums[b]);
          low_sums[b] = hn::MulAdd(pair, low, low_sums[b]);
        }
      }
      HWY_UNROLL(4)
      for (int b = 0; b < kBlock; ++b) {
        const int at = x + b * lanes;
        auto value = hn::DemoteTo(di32, rounded(high_sums[b], low_sums[b]));
        if (job.params.mode == GaussMode::Unsharp)
          value = unsharp(di32, job.params, job.max_value,
                          hn::PromoteTo(di32, hn::LoadU(d_out, original + at)), value);
        hn::StoreU(hn::DemoteTo(d_out, value), d_out, out + at);
      }
    }
  }
};

// Bytes a band's ring of row sums may take: a strip of columns at a time keeps it in
// the core's L2 cache (of 512 KiB a core and more on the machines we build for). The
// ring of whole 4K rows at 61 taps (16-bit samples, RGBA) is megabytes, past L2: the
// filter then waited on L3 and took much longer a pixel at 4K than at 1080p.
constexpr size_t kRingBytes = 256 * 1024;
// Strips no narrower: each reads the radius_x pixels either side once more.
constexpr int kMinStripSamples = 512;

// Pixels a strip takes whose ring holds ring_bytes_per_sample a sample.
inline int strip_width(const Plane &src, size_t ring_bytes_per_sample) {
  return std::min(
      src.width, std::max(kMinStripSamples, static_cast<int>(kRingBytes / ring_bytes_per_sample)) /
                     src.channels);
}

// The strip of columns [x_begin, x_end) as planes of its own, for the unsharp mask's
// source and the stores.
inline RowFilterJob strip_job(const RowFilterJob &rows_job, int x_begin, int x_end) {
  RowFilterJob strip = rows_job;
  for (Plane *plane : {&strip.src, &strip.dst}) {
    plane->data += ptrdiff_t(x_begin) * plane->pixel_stride;
    plane->width = x_end - x_begin;
  }
  return strip;
}

// Filters dst rows [y_begin, y_end), every channel of a packed row at once (the
// horizontal taps reach pixels of `channels` samples apart), in strips of columns.
template <class Sums>
void gauss_rows(const GaussJob &job, int y_begin, int y_end) {
  using Sample = typename Sums::Sample;
  using Sum = typename Sums::Sum;
  const RowFilterJob &rows_job = job.rows;
  const Plane &src = rows_job.src;
  const int lanes = Sums::lanes();
  const int samples = src.channels;
  const int taps_y = static_cast<int>(job.params.taps_y.size());
  const int radius_y = taps_y / 2;
  const auto padded_to_block = [&](int count) {
    return (count + kBlock * lanes - 1) / (kBlock * lanes) * (kBlock * lanes);
  };
  const int strip_pixels = strip_width(src, size_t(taps_y + 1) * sizeof(Sum));
  const int padded_count = padded_to_block(strip_pixels * samples);  // of the widest strip

  // A strip's source row as values with its border pixels, read up to whole vectors.
  const size_t padded_length = padded_count + 2 * rows_job.radius_x * samples + lanes;
  auto padded = hwy::AllocateAligned<Sample>(padded_length);
  std::fill(padded.get(), padded.get() + padded_length, Sample{0});
  // The sums of the last taps_y source rows, row r in slot r % taps_y: the rows one
  // output row reaches lie within taps_y consecutive rows. One more slot: the constant.
  auto ring = hwy::AllocateAligned<Sum>(size_t(taps_y + 1) * padded_count);
  const auto slot_row_sums = [&](int slot) { return ring.get() + size_t(slot) * padded_count; };
  Sums::constant_row(rows_job.constant, padded_count, slot_row_sums(taps_y));
  auto original = hwy::AllocateAligned<Sample>(padded_count);
  // (The max: GCC 12 cannot tell that padded_count is positive and warns.)
  std::fill_n(original.get(), std::max(padded_count, 0), Sample{0});
  auto out = hwy::AllocateAligned<Sample>(padded_count);
  std::vector<const Sum *> window_rows(taps_y);

  for (int x_begin = 0; x_begin < src.width; x_begin += strip_pixels) {
    const int x_end = std::min(src.width, x_begin + strip_pixels);
    const int count = (x_end - x_begin) * samples;
    const RowFilterJob strip = strip_job(rows_job, x_begin, x_end);
    std::vector<int> slot_row(taps_y, -1);
    for (int y = y_begin; y < y_end; ++y) {
      for (int i = 0; i < taps_y; ++i) {
        const int row = border_index(y + i - radius_y, src.height, rows_job.border_mode);
        const int slot = row < 0 ? taps_y : row % taps_y;
        if (row >= 0 && slot_row[slot] != row) {
          load_padded_pixels(rows_job, row, x_begin, x_end, padded.get());
          Sums::horizontal(job.params.taps_x, padded.get(), count, samples, slot_row_sums(slot));
          slot_row[slot] = row;
        }
        window_rows[i] = slot_row_sums(slot);
      }
      if (job.params.mode == GaussMode::Unsharp)
        load_values(strip.src.data + y * src.row_pitch, count, src.pixel_stride / samples,
                    rows_job.padding_bits, original.get());
      Sums::vertical(job, window_rows.data(), original.get(), count, out.get());
      store_pixel_values(out.get(), strip, y);
    }
  }
}

}  // namespace

void GaussRows8(const GaussJob &job, int y_begin, int y_end) {
  gauss_rows<Sums8>(job, y_begin, y_end);
}

void GaussRows16(const GaussJob &job, int y_begin, int y_end) {
  gauss_rows<Sums16>(job, y_begin, y_end);
}

}  // namespace HWY_NAMESPACE
}  // namespace cf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cf {
HWY_EXPORT(GaussRows8);
HWY_EXPORT(GaussRows16);

cudaError_t gauss_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                      const GaussParams &params, int threads) {
  if (!is_valid(params, src, dst, format))
    return cudaErrorInvalidValue;
  if (!params.region.whole_plane) {
    GaussParams whole_plane = params;
    whole_plane.region = {};
    return filter_boxes_cpu(src, dst, format, params.region,
                            static_cast<int>(params.taps_x.size()) / 2,
                            static_cast<int>(params.taps_y.size()) / 2,
                            [&](const Plane &box_src, const Plane &box_dst) {
                              return gauss_cpu(box_src, box_dst, format, whole_plane, threads);
                            });
  }
  if (!takes_rows_of(src, dst, format)) {
    // Pixels with bytes of no channel between them: each computed channel on its own.
    for (int c = 0; c < src.channels; ++c)
      if (src.channel_mask & (1u << c))
        gauss_cpu(channel_plane(src, c, format), channel_plane(dst, c, format), format, params,
                  threads);
    copy_channels_not_computed(src, dst, format);
    return cudaSuccess;
  }
  const GaussJob job{{src, dst, format.padding_bits, params.border.mode,
                      std::min<uint32_t>(params.border.constant, max_sample_value(format)),
                      static_cast<int>(params.taps_x.size()) / 2,
                      static_cast<int>(params.taps_y.size()) / 2},
                     params,
                     max_sample_value(format)};
  const long work_per_row = static_cast<long>(src.width) * src.channels *
                            (params.taps_x.size() + params.taps_y.size());
  parallel_ranges(src.height, threads, work_per_row, [&](int begin, int end) {
    if (format.depth == SampleDepth::U8)
      HWY_DYNAMIC_DISPATCH(GaussRows8)(job, begin, end);
    else
      HWY_DYNAMIC_DISPATCH(GaussRows16)(job, begin, end);
  });
  return cudaSuccess;
}

}  // namespace cf
#endif  // HWY_ONCE
