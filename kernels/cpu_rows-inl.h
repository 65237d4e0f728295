// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// Rows in and out of the CPU filters' vector code, per Highway target (include after
// hwy/highway.h, inside foreach_target's loop). The filters compute on contiguous rows
// of values with the border already in place: a source row is read once into such a
// row, whatever its pixel stride and padding bits, and results are written back to
// the destination's layout. Interleaved samples (one component of RGBA, NV12's
// chroma) are split with vector loads; writes touch the component's samples only.

// Per-target include guard (Highway's convention for -inl.h headers).
#if defined(CF_CPU_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef CF_CPU_ROWS_INL_H_
#undef CF_CPU_ROWS_INL_H_
#else
#define CF_CPU_ROWS_INL_H_
#endif

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

// Source row `y` (border_index's result, >= 0) as values with job.radius_x border
// columns either side: out[j] stands for column j - radius_x.
template <typename T>
void load_padded_row(const RowFilterJob &job, int y, T *HWY_RESTRICT out) {
  const int width = job.src.width;
  const int radius = job.radius_x;
  T *row = out + radius;
  load_values(job.src.data + y * job.src.row_pitch, width, job.src.pixel_stride,
              job.padding_bits, row);
  // The border stands for samples of this very row (or for the constant).
  for (int j = 1; j <= radius; ++j) {
    const int left = border_index(-j, width, job.border_mode);
    const int right = border_index(width - 1 + j, width, job.border_mode);
    row[-j] = left < 0 ? static_cast<T>(job.constant) : row[left];
    row[width - 1 + j] = right < 0 ? static_cast<T>(job.constant) : row[right];
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace cf
HWY_AFTER_NAMESPACE();

#endif  // CF_CPU_ROWS_INL_H_
