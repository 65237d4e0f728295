// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// Rows in and out of the CPU filters' vector code, per Highway target (include after
// hwy/highway.h, inside foreach_target's loop). The filters compute on contiguous rows
// of values with the border already in place: a source row is read once into such a
// row, whatever its pixel stride and padding bits, and results are written back to
// the destination's layout. A packed plane's rows (RGBA, NV12's UV: pixels of several
// channels side by side) are read and written whole, with whole vectors; the filters
// compute on every channel of such rows, neighbours one pixel of samples apart, and
// the channels not computed are restored from the source as the row is stored. A
// single component of an interleaved plane is split out with vector loads; its
// writes touch its samples only.

// Per-target include guard (Highway's convention for -inl.h headers).
#if defined(CF_CPU_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CF_CPU_ROWS_INL_H_
#undef CF_CPU_ROWS_INL_H_
#else
#define CF_CPU_ROWS_INL_H_
#endif

#include <algorithm>

#include <hwy/highway.h>

#include "cpu_rows.h"
#include "cpu_samples.h"

HWY_BEFORE_NAMESPACE();
namespace cf {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// out[x] = value of sample x of `row` (samples pixel_stride bytes apart), x < count.
template <typename T>
void load_values(const uint8_t *row, int count, int pixel_stride, int padding_bits,
                 T *HWY_RESTRICT out) {
  const hn::ScalableTag<T> d;
  using V = hn::Vec<decltype(d)>;
  const int lanes = static_cast<int>(hn::Lanes(d));
  const auto *in = reinterpret_cast<const T *>(row);
  const int samples_apart = pixel_stride % static_cast<int>(sizeof(T)) == 0
                                ? pixel_stride / static_cast<int>(sizeof(T))
                                : 0;
  int x = 0;
  // An interleaved load of the last block would read past the last sample: those
  // blocks stop one sample short of the end and the scalar loop finishes.
  switch (samples_apart) {
  case 1:
    for (; x + lanes <= count; x += lanes)
      hn::StoreU(hn::ShiftRightSame(hn::LoadU(d, in + x), padding_bits), d, out + x);
    break;
  case 2:
    for (; x + lanes < count; x += lanes) {
      V first, second;
      hn::LoadInterleaved2(d, in + 2 * x, first, second);
      hn::StoreU(hn::ShiftRightSame(first, padding_bits), d, out + x);
    }
    break;
  case 3:
    for (; x + lanes < count; x += lanes) {
      V first, second, third;
      hn::LoadInterleaved3(d, in + 3 * x, first, second, third);
      hn::StoreU(hn::ShiftRightSame(first, padding_bits), d, out + x);
    }
    break;
  case 4:
    for (; x + lanes < count; x += lanes) {
      V first, second, third, fourth;
      hn::LoadInterleaved4(d, in + 4 * x, first, second, third, fourth);
      hn::StoreU(hn::ShiftRightSame(first, padding_bits), d, out + x);
    }
    break;
  default:
    break;
  }
  for (; x < count; ++x)
    out[x] = static_cast<T>(load_sample<T>(row + x * static_cast<ptrdiff_t>(pixel_stride)) >>
                            padding_bits);
}

// Stores in[x] << padding_bits as sample x of `row`, x < count.
template <typename T>
void store_values(const T *HWY_RESTRICT in, int count, uint8_t *row, int pixel_stride,
                  int padding_bits) {
  const hn::ScalableTag<T> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  int x = 0;
  if (pixel_stride == static_cast<int>(sizeof(T))) {
    auto *out = reinterpret_cast<T *>(row);
    for (; x + lanes <= count; x += lanes)
      hn::StoreU(hn::ShiftLeftSame(hn::LoadU(d, in + x), padding_bits), d, out + x);
  }
  // Interleaved samples one by one: a vector store would write the other components'
  // bytes too.
  uint8_t *sample = row + x * static_cast<ptrdiff_t>(pixel_stride);
  if (padding_bits == 0) {
    for (; x + 4 <= count; x += 4, sample += 4 * static_cast<ptrdiff_t>(pixel_stride)) {
      store_sample(sample, in[x]);
      store_sample(sample + pixel_stride, in[x + 1]);
      store_sample(sample + 2 * pixel_stride, in[x + 2]);
      store_sample(sample + 3 * pixel_stride, in[x + 3]);
    }
  }
  for (; x < count; ++x, sample += pixel_stride)
    store_sample(sample, static_cast<T>(in[x] << padding_bits));
}

// Pixels [x_begin - radius_x, x_end + radius_x) of source row `y` (border_index's
// result, >= 0) as values: out[(j - x_begin + radius_x) * channels + c] stands for
// channel c of pixel j, every channel (computed or not); pixels outside the frame as
// the border says. For planes the row code takes (cpu_rows.h).
template <typename T>
void load_padded_pixels(const RowFilterJob &job, int y, int x_begin, int x_end,
                        T *HWY_RESTRICT out) {
  const int width = job.src.width;
  const int samples = job.src.channels;
  const int sample_step = job.src.pixel_stride / samples;
  const int span_begin = x_begin - job.radius_x;
  const int span_end = x_end + job.radius_x;
  // The frame's pixels in the span, read at once.
  const int first = std::max(0, span_begin);
  const int last = std::min(width, span_end);
  const uint8_t *row = job.src.data + y * job.src.row_pitch;
  load_values(row + ptrdiff_t(first) * job.src.pixel_stride, (last - first) * samples,
              sample_step, job.padding_bits, out + (first - span_begin) * samples);
  // The border stands for pixels of this very row (or for the constant), read
  // where the span does not hold them.
  const auto fill = [&](int pixel) {
    T *to = out + (pixel - span_begin) * samples;
    const int source = border_index(pixel, width, job.border_mode);
    if (source < 0)
      std::fill(to, to + samples, static_cast<T>(job.constant));
    else if (source >= first && source < last)
      std::copy(out + (source - span_begin) * samples, out + (source - span_begin + 1) * samples,
                to);
    else
      load_values(row + ptrdiff_t(source) * job.src.pixel_stride, samples, sample_step,
                  job.padding_bits, to);
  };
  for (int pixel = span_begin; pixel < first; ++pixel)
    fill(pixel);
  for (int pixel = last; pixel < span_end; ++pixel)
    fill(pixel);
}

// Stores values[j * channels + c] << padding_bits as channel c of pixel j of dst row
// `y`, for the computed channels; the others are copied from src row `y`.
template <typename T>
void store_pixel_values(const T *HWY_RESTRICT values, const RowFilterJob &job, int y) {
  const int samples = job.dst.channels;
  const int count = job.dst.width * samples;
  uint8_t *row = job.dst.data + y * job.dst.row_pitch;
  if (job.dst.channel_mask == all_channels(samples)) {
    store_values(values, count, row, job.dst.pixel_stride / samples, job.padding_bits);
    return;
  }
  // Channels not computed: blended in from the source, lane by lane.
  const hn::ScalableTag<T> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  auto *out = reinterpret_cast<T *>(row);
  const auto *source = reinterpret_cast<const T *>(job.src.data + y * job.src.row_pitch);
  HWY_ALIGN T lane_pattern[hn::MaxLanes(d)];
  for (int lane = 0; lane < lanes; ++lane)
    lane_pattern[lane] = (job.dst.channel_mask >> (lane % samples)) & 1 ? T(~T{0}) : T{0};
  // Whole pixels per step only: lanes is a multiple of 2 and 4, not of 3 (and none on
  // a target of one lane).
  const int step = lanes / samples * samples;
  const auto computed = hn::MaskFromVec(hn::Load(d, lane_pattern));
  int x = 0;
  for (; step > 0 && x + lanes <= count; x += step)
    hn::StoreU(hn::IfThenElse(computed,
                              hn::ShiftLeftSame(hn::LoadU(d, values + x), job.padding_bits),
                              hn::LoadU(d, source + x)),
               d, out + x);
  for (; x < count; ++x)
    store_sample(row + x * sizeof(T),
                 (job.dst.channel_mask >> (x % samples)) & 1
                     ? static_cast<T>(values[x] << job.padding_bits)
                     : load_sample<T>(job.src.data + y * job.src.row_pitch + x * sizeof(T)));
}

}  // namespace HWY_NAMESPACE
}  // namespace cf
HWY_AFTER_NAMESPACE();

#endif  // CF_CPU_ROWS_INL_H_
