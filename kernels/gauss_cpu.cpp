// CPU backend of the Gaussian blur and unsharp mask. Each thread takes a band of rows:
// a horizontal pass over the source rows the band's windows reach, into unrounded
// sums, then a vertical pass over those, then the one rounding of gauss.h. Borders are
// dealt with before, where a source row is read into a padded one and where a tap of
// the vertical pass picks its row. Samples become values (plane.h) as they are read,
// and values samples as they are stored: the sums are those of the values.
//
// 8-bit samples run on vectors (Highway, chosen at run time): every sum fits 32 bits
// (gauss_tap_bits), and the horizontal sums of the last rows a window reaches are
// kept in a ring. 16-bit samples need 64-bit sums, which the vector units do not
// multiply: they run the scalar passes below, whole rows at a time.
#include <algorithm>
#include <cstdlib>
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

#ifndef CF_GAUSS_8BIT_JOB_DEFINED
#define CF_GAUSS_8BIT_JOB_DEFINED
namespace cf {
// An 8-bit call: the rows, and the parameters with the tap bits of 8-bit samples.
struct Gauss8BitJob {
  RowFilterJob rows;
  const GaussParams &params;
};
}  // namespace cf
#endif

HWY_BEFORE_NAMESPACE();
namespace cf {
namespace HWY_NAMESPACE {
namespace {

constexpr int kTapBits8 = gauss_tap_bits(SampleDepth::U8);

// out[x] = sum_j taps[j] * padded[x + j] for x < count (rounded up to whole vectors),
// each pair of mirrored taps applied to the sum of its two samples.
template <class D32, typename In>
HWY_INLINE void symmetric_taps(D32 d32, const std::vector<int32_t> &taps, const In *padded,
                               int count, uint32_t *HWY_RESTRICT out) {
  const hn::Rebind<In, D32> d_in;
  const int lanes = static_cast<int>(hn::Lanes(d32));
  const int radius = static_cast<int>(taps.size()) / 2;
  const auto load = [&](const In *p) { return hn::PromoteTo(d32, hn::LoadU(d_in, p)); };
  for (int x = 0; x < count; x += lanes) {
    const In *in = padded + x;
    auto sum = hn::Mul(load(in + radius), hn::Set(d32, static_cast<uint32_t>(taps[radius])));
    for (int j = 0; j < radius; ++j) {
      if (taps[j] == 0)
        continue;  // the tails of long kernels of small sigma
      sum = hn::Add(sum, hn::Mul(hn::Add(load(in + j), load(in + 2 * radius - j)),
                                 hn::Set(d32, static_cast<uint32_t>(taps[j]))));
    }
    hn::Store(sum, d32, out + x);
  }
}

// Vertical sums of the ring's rows for output row y, rounded once, unsharp-masked,
// as 8-bit values into out.
template <class D32>
HWY_INLINE void vertical_taps(D32 d32, const Gauss8BitJob &job, const uint32_t *const *rows,
                              const uint8_t *HWY_RESTRICT original, int count,
                              uint8_t *HWY_RESTRICT out) {
  const GaussParams &params = job.params;
  const std::vector<int32_t> &taps = params.taps_y;
  const hn::Repartition<int32_t, D32> di32;
  const hn::Rebind<uint8_t, D32> d8;
  const int lanes = static_cast<int>(hn::Lanes(d32));
  const int radius = static_cast<int>(taps.size()) / 2;
  const auto half = hn::Set(d32, uint32_t{1} << (2 * kTapBits8 - 1));
  const bool unsharp = params.mode == GaussMode::Unsharp;
  for (int x = 0; x < count; x += lanes) {
    auto sum = hn::Mul(hn::Load(d32, rows[radius] + x),
                       hn::Set(d32, static_cast<uint32_t>(taps[radius])));
    for (int i = 0; i < radius; ++i) {
      if (taps[i] == 0)
        continue;
      sum = hn::Add(sum, hn::Mul(hn::Add(hn::Load(d32, rows[i] + x),
                                         hn::Load(d32, rows[2 * radius - i] + x)),
                                 hn::Set(d32, static_cast<uint32_t>(taps[i]))));
    }
    auto result = hn::BitCast(di32, hn::ShiftRight<2 * kTapBits8>(hn::Add(sum, half)));
    if (unsharp) {
      const auto source = hn::PromoteTo(di32, hn::LoadU(d8, original + x));
      const auto detail = hn::Sub(source, result);
      // floor((amount_q8 * detail + 128) / 256): >> of a signed lane is arithmetic.
      const auto sharpened = hn::Add(
          source, hn::ShiftRight<8>(hn::Add(hn::Mul(hn::Set(di32, params.amount_q8), detail),
                                            hn::Set(di32, 128))));
      const auto clamped =
          hn::Min(hn::Max(sharpened, hn::Zero(di32)), hn::Set(di32, 255));
      const auto below_threshold =
          hn::Lt(hn::Abs(detail), hn::Set(di32, static_cast<int32_t>(params.threshold)));
      result = hn::IfThenElse(below_threshold, source, clamped);
    }
    hn::StoreU(hn::DemoteTo(d8, result), d8, out + x);
  }
}

}  // namespace

// Filters dst rows [y_begin, y_end) of an 8-bit plane.
void GaussRows8(const Gauss8BitJob &job, int y_begin, int y_end) {
  const hn::ScalableTag<uint32_t> d32;
  const int lanes = static_cast<int>(hn::Lanes(d32));
  const RowFilterJob &rows_job = job.rows;
  const Plane &src = rows_job.src;
  const int width = src.width;
  const int padded_width = (width + lanes - 1) / lanes * lanes;
  const int taps_y = static_cast<int>(job.params.taps_y.size());
  const int radius_y = taps_y / 2;

  // Source rows as values with their border columns, read up to whole vectors.
  auto padded = hwy::AllocateAligned<uint8_t>(padded_width + 2 * rows_job.radius_x + lanes);
  std::fill(padded.get(), padded.get() + padded_width + 2 * rows_job.radius_x + lanes, 0);
  // The horizontal sums of the last taps_y source rows, row r in slot r % taps_y: the
  // rows one output row reaches lie within taps_y consecutive rows.
  auto ring = hwy::AllocateAligned<uint32_t>(static_cast<size_t>(taps_y) * padded_width);
  std::vector<int> slot_row(taps_y, -1);
  // A row of the constant border: the taps sum to 2^B.
  auto constant_row = hwy::AllocateAligned<uint32_t>(padded_width);
  std::fill(constant_row.get(), constant_row.get() + padded_width,
            rows_job.constant << kTapBits8);
  auto original = hwy::AllocateAligned<uint8_t>(padded_width);
  std::fill(original.get(), original.get() + padded_width, 0);
  auto out = hwy::AllocateAligned<uint8_t>(padded_width);
  std::vector<const uint32_t *> window_rows(taps_y);

  for (int y = y_begin; y < y_end; ++y) {
    for (int i = 0; i < taps_y; ++i) {
      const int row = border_index(y + i - radius_y, src.height, rows_job.border_mode);
      if (row < 0) {
        window_rows[i] = constant_row.get();
        continue;
      }
      uint32_t *slot = ring.get() + static_cast<size_t>(row % taps_y) * padded_width;
      if (slot_row[row % taps_y] != row) {
        load_padded_row(rows_job, row, padded.get());
        symmetric_taps(d32, job.params.taps_x, padded.get(), width, slot);
        slot_row[row % taps_y] = row;
      }
      window_rows[i] = slot;
    }
    if (job.params.mode == GaussMode::Unsharp)
      load_values(src.data + y * src.row_pitch, width, src.pixel_stride, 0, original.get());
    vertical_taps(d32, job, window_rows.data(), original.get(), width, out.get());
    store_values(out.get(), width, rows_job.dst.data + y * rows_job.dst.row_pitch,
                 rows_job.dst.pixel_stride, 0);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace cf
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace cf {
HWY_EXPORT(GaussRows8);

namespace {

// floor(value / 256), negative values included (C++17 leaves >> of them to the compiler).
int32_t floor_div_256(int32_t value) { return value >= 0 ? value / 256 : -((255 - value) / 256); }

// A 16-bit call, fixed per call: the geometry, the taps and where every window column
// lies. Sums of one row (value * 2^B) and of the window (value * 2^(2B)) need 64 bits.
struct Gauss16BitJob {

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
void horizontal_pass(const Gauss16BitJob &job, const uint8_t *row, std::vector<uint32_t> &padded,
                     uint64_t *out) {
  const int width = job.src.width;
  for (size_t j = 0; j < padded.size(); ++j) {
    const ptrdiff_t offset = job.column_offsets[j];
    padded[j] = offset == kConstantColumn
                    ? job.constant
                    : uint32_t{load_sample<uint16_t>(row + offset)} >> job.padding_bits;
  }
  std::fill(out, out + width, uint64_t{0});
  for (size_t j = 0; j < job.params.taps_x.size(); ++j) {
    const auto tap = static_cast<uint64_t>(job.params.taps_x[j]);
    if (tap == 0)
      continue;  // the tails of long kernels of small sigma
    const uint32_t *in = padded.data() + j;
    for (int x = 0; x < width; ++x)
      out[x] += tap * in[x];
  }
}

// Writes dst(x, y) from the blurred (unrounded) sums of row y.
void store_row(const Gauss16BitJob &job, int y,
               const std::vector<uint64_t> &sums) {
  const int shift = 2 * job.bits;
  const uint64_t half = uint64_t{1} << (shift - 1);
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
          static_cast<int32_t>(load_sample<uint16_t>(src_row + x * src_stride) >> job.padding_bits);
      const int32_t detail = original - blurred;
      out = original;
      if (static_cast<uint32_t>(std::abs(detail)) >= params.threshold)
        out = std::clamp(original + floor_div_256(params.amount_q8 * detail + 128), 0,
                         static_cast<int32_t>(job.max_value));
    }
    store_sample(dst_row + x * dst_stride, static_cast<uint16_t>(out << job.padding_bits));
  }
}

// Filters dst rows [y_begin, y_end) of a 16-bit plane.
void gauss_rows(const Gauss16BitJob &job, int y_begin, int y_end) {
  const Plane &src = job.src;
  const int width = src.width;
  const int radius_y = job.radius_y();
  const BorderMode mode = job.params.border.mode;

  // The source rows the band's windows reach, [first_row, last_row]: rows beyond an
  // edge stand for rows in this range (or for the constant).
  const int first_row = std::max(0, y_begin - radius_y);
  const int last_row = std::min(src.height - 1, y_end - 1 + radius_y);
  std::vector<uint64_t> horizontal(static_cast<size_t>(last_row - first_row + 1) * width);
  std::vector<uint32_t> padded(job.column_offsets.size());
  for (int row = first_row; row <= last_row; ++row)
    horizontal_pass(job, src.data + row * src.row_pitch, padded,
                    horizontal.data() + static_cast<size_t>(row - first_row) * width);
  // A row of the constant border: the taps sum to 2^B.
  const std::vector<uint64_t> constant_row(width, uint64_t{job.constant} << job.bits);

  std::vector<uint64_t> sums(width);
  for (int y = y_begin; y < y_end; ++y) {
    std::fill(sums.begin(), sums.end(), uint64_t{0});
    for (int i = 0; i <= 2 * radius_y; ++i) {
      const auto tap = static_cast<uint64_t>(job.params.taps_y[i]);
      if (tap == 0)
        continue;
      const int row = border_index(y + i - radius_y, src.height, mode);
      const uint64_t *in =
          row < 0 ? constant_row.data()
                  : horizontal.data() + static_cast<size_t>(row - first_row) * width;
      for (int x = 0; x < width; ++x)
        sums[x] += tap * in[x];
    }
    store_row(job, y, sums);
  }
}

void gauss_plane_16bit(const Plane &src, const Plane &dst, SampleFormat format,
                 const GaussParams &params, int threads) {
  Gauss16BitJob job{src,
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

void gauss_plane_8bit(const Plane &src, const Plane &dst, const GaussParams &params,
                      int threads) {
  const Gauss8BitJob job{{src, dst, 0, params.border.mode,
                          std::min<uint32_t>(params.border.constant, 255),
                          static_cast<int>(params.taps_x.size()) / 2,
                          static_cast<int>(params.taps_y.size()) / 2},
                         params};
  const long work_per_row =
      static_cast<long>(src.width) * (params.taps_x.size() + params.taps_y.size());
  parallel_ranges(src.height, threads, work_per_row, [&](int begin, int end) {
    HWY_DYNAMIC_DISPATCH(GaussRows8)(job, begin, end);
  });
}

}  // namespace

cudaError_t gauss_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                      const GaussParams &params, int threads) {
  if (!is_valid(params, src, dst, format))
    return cudaErrorInvalidValue;
  if (format.depth == SampleDepth::U8)
    gauss_plane_8bit(src, dst, params, threads);
  else
    gauss_plane_16bit(src, dst, format, params, threads);
  return cudaSuccess;
}

}  // namespace cf
#endif  // HWY_ONCE
