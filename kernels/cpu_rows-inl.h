// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// Rows in and out of the CPU filters' vector code, per Highway target (include after
// hwy/highway.h, inside foreach_target's loop). The filters compute on contiguous rows
// of values with the border already in place: a source row is read once into such a
// row, whatever its pixel stride and padding bits, and results are written back to
// the destination's layout. Interleaved samples are split with vector loads: a
// packed plane's pixels (RGBA, NV12's UV) into one row per computed channel at once,
// a single component of such a plane on its own; writes of single components touch
// their samples only, packed planes are written whole, pixel by pixel, with the
// channels not computed copied from the source.

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

template <int kChannels, class D, class V = hn::Vec<D>>
HWY_INLINE void load_pixels(D d, const hn::TFromD<D> *in, V (&pixels)[kChannels]) {
  if constexpr (kChannels == 2)
    hn::LoadInterleaved2(d, in, pixels[0], pixels[1]);
  else if constexpr (kChannels == 3)
    hn::LoadInterleaved3(d, in, pixels[0], pixels[1], pixels[2]);
  else
    hn::LoadInterleaved4(d, in, pixels[0], pixels[1], pixels[2], pixels[3]);
}

template <int kChannels, class D, class V = hn::Vec<D>>
HWY_INLINE void store_pixels(D d, const V (&pixels)[kChannels], hn::TFromD<D> *out) {
  if constexpr (kChannels == 2)
    hn::StoreInterleaved2(pixels[0], pixels[1], d, out);
  else if constexpr (kChannels == 3)
    hn::StoreInterleaved3(pixels[0], pixels[1], pixels[2], d, out);
  else
    hn::StoreInterleaved4(pixels[0], pixels[1], pixels[2], pixels[3], d, out);
}

// Values of samples, and samples of values: 8-bit samples have no padding bits.
template <typename T, class V>
HWY_INLINE V values_of(V samples, int padding_bits) {
  if constexpr (sizeof(T) == 1)
    return samples;
  else
    return hn::ShiftRightSame(samples, padding_bits);
}
template <typename T, class V>
HWY_INLINE V samples_of(V values, int padding_bits) {
  if constexpr (sizeof(T) == 1)
    return values;
  else
    return hn::ShiftLeftSame(values, padding_bits);
}

// Whole vectors of pixels of kChannels samples side by side into the rows of the
// computed channels (by_channel[c], null for channels not computed); returns the
// pixels done. The loops over channels unroll: the pixels' vectors stay in registers.
template <typename T, int kChannels>
int load_packed_values(const T *in, int count, int padding_bits, T *const *by_channel) {
  const hn::ScalableTag<T> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  int x = 0;
  for (; x + lanes <= count; x += lanes) {
    hn::Vec<decltype(d)> pixels[kChannels];
    load_pixels<kChannels>(d, in + kChannels * x, pixels);
    HWY_UNROLL(4)
    for (int c = 0; c < kChannels; ++c)
      if (by_channel[c] != nullptr)
        hn::StoreU(values_of<T>(pixels[c], padding_bits), d, by_channel[c] + x);
  }
  return x;
}

// The rows of the computed channels (by_channel[c], null for the others) into whole
// vectors of pixels, with kCopies the channels not computed from `source`; returns
// the pixels done.
template <typename T, int kChannels, bool kCopies>
int store_packed_values(const T *const *by_channel, int count, const T *source, T *out,
                        int padding_bits) {
  const hn::ScalableTag<T> d;
  const int lanes = static_cast<int>(hn::Lanes(d));
  int x = 0;
  for (; x + lanes <= count; x += lanes) {
    hn::Vec<decltype(d)> pixels[kChannels];
    if constexpr (kCopies)
      load_pixels<kChannels>(d, source + kChannels * x, pixels);
    HWY_UNROLL(4)
    for (int c = 0; c < kChannels; ++c)
      if (!kCopies || by_channel[c] != nullptr)
        pixels[c] = samples_of<T>(hn::LoadU(d, by_channel[c] + x), padding_bits);
    store_pixels<kChannels>(d, pixels, out + kChannels * x);
  }
  return x;
}

// store_packed_values for the plane's channels.
template <typename T, int kChannels>
int store_packed_values(const T *const *by_channel, int count, const T *source, T *out,
                        int padding_bits) {
  return source != nullptr
             ? store_packed_values<T, kChannels, true>(by_channel, count, source, out,
                                                       padding_bits)
             : store_packed_values<T, kChannels, false>(by_channel, count, source, out,
                                                        padding_bits);
}

// Whether the plane's pixels are its channels' samples and nothing else, so that
// whole vectors of them can be loaded and stored.
template <typename T>
bool is_dense(const Plane &plane) {
  return plane.channels > 1 && plane.pixel_stride == plane.channels * static_cast<int>(sizeof(T));
}

// out[k][x] = value of channel channels[k] of pixel x of `row`, x < count, k < computed.
template <typename T>
void load_channel_values(const uint8_t *row, int count, const Plane &plane, int padding_bits,
                         const int *channels, int computed, T *const *out) {
  if (!is_dense<T>(plane)) {
    for (int k = 0; k < computed; ++k)
      load_values(row + channels[k] * sizeof(T), count, plane.pixel_stride, padding_bits,
                  out[k]);
    return;
  }
  const auto *in = reinterpret_cast<const T *>(row);
  T *by_channel[kMaxChannels] = {};
  for (int k = 0; k < computed; ++k)
    by_channel[channels[k]] = out[k];
  int x = 0;
  switch (plane.channels) {
  case 2:
    x = load_packed_values<T, 2>(in, count, padding_bits, by_channel);
    break;
  case 3:
    x = load_packed_values<T, 3>(in, count, padding_bits, by_channel);
    break;
  default:
    x = load_packed_values<T, 4>(in, count, padding_bits, by_channel);
    break;
  }
  for (; x < count; ++x)
    for (int k = 0; k < computed; ++k)
      out[k][x] = static_cast<T>(load_sample<T>(row + x * static_cast<ptrdiff_t>(plane.pixel_stride) +
                                                channels[k] * sizeof(T)) >>
                                 padding_bits);
}

// Stores in[k][x] << padding_bits as channel channels[k] of pixel x of dst_row, x < count,
// and copies the other channels of dst's pixels from src_row (src's row of the same y).
template <typename T>
void store_channel_values(const T *const *in, const int *channels, int computed, int count,
                          const Plane &src, const uint8_t *src_row, const Plane &dst,
                          uint8_t *dst_row, int padding_bits) {
  const bool copies = dst.channel_mask != all_channels(dst.channels);
  int x = 0;
  if (is_dense<T>(dst) && is_dense<T>(src)) {
    const auto *source = copies ? reinterpret_cast<const T *>(src_row) : nullptr;
    auto *out = reinterpret_cast<T *>(dst_row);
    const T *by_channel[kMaxChannels] = {};
    for (int k = 0; k < computed; ++k)
      by_channel[channels[k]] = in[k];
    switch (dst.channels) {
    case 2:
      x = store_packed_values<T, 2>(by_channel, count, source, out, padding_bits);
      break;
    case 3:
      x = store_packed_values<T, 3>(by_channel, count, source, out, padding_bits);
      break;
    default:
      x = store_packed_values<T, 4>(by_channel, count, source, out, padding_bits);
      break;
    }
  }
  if (x == count)
    return;
  const ptrdiff_t dst_pixel = dst.pixel_stride;
  for (int k = 0; k < computed; ++k)
    store_values(in[k] + x, count - x, dst_row + x * dst_pixel + channels[k] * sizeof(T),
                 dst.pixel_stride, padding_bits);
  if (!copies)
    return;
  for (int c = 0; c < dst.channels; ++c)
    if (!(dst.channel_mask & (1u << c)))
      for (int i = x; i < count; ++i)
        store_sample(dst_row + i * dst_pixel + c * sizeof(T),
                     load_sample<T>(src_row + i * static_cast<ptrdiff_t>(src.pixel_stride) +
                                    c * sizeof(T)));
}

// Source row `y` (border_index's result, >= 0) as one row of values per computed
// channel (computed_channels) with job.radius_x border columns either side:
// out[k][j] stands for column j - radius_x of the k-th computed channel.
template <typename T>
void load_padded_rows(const RowFilterJob &job, int y, T *const *out) {
  const int width = job.src.width;
  const int radius = job.radius_x;
  int channels[kMaxChannels];
  const int computed = computed_channels(job.src, channels);
  T *rows[kMaxChannels];
  for (int k = 0; k < computed; ++k)
    rows[k] = out[k] + radius;
  load_channel_values(job.src.data + y * job.src.row_pitch, width, job.src, job.padding_bits,
                      channels, computed, rows);
  // The border stands for samples of this very row (or for the constant).
  for (int j = 1; j <= radius; ++j) {
    const int left = border_index(-j, width, job.border_mode);
    const int right = border_index(width - 1 + j, width, job.border_mode);
    for (int k = 0; k < computed; ++k) {
      T *row = rows[k];
      row[-j] = left < 0 ? static_cast<T>(job.constant) : row[left];
      row[width - 1 + j] = right < 0 ? static_cast<T>(job.constant) : row[right];
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace cf
HWY_AFTER_NAMESPACE();

#endif  // CF_CPU_ROWS_INL_H_
