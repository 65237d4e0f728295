// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Geometry of the samples a kernel reads or writes. Kernels never see video formats:
// the plugin maps every format to Planes, one per component, or one per group of
// components that lie interleaved in one plane (RGBx, NV12's UV): a packed plane.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define CF_HOST_DEVICE __host__ __device__
#else
#define CF_HOST_DEVICE
#endif

// CF_UNROLL and CF_NO_UNROLL: `#pragma unroll` and `#pragma unroll 1` in device code,
// nothing in host code (nvcc's host pass included), whose compilers would warn of a
// pragma they do not know.
#ifdef __CUDA_ARCH__
#define CF_UNROLL _Pragma("unroll")
#define CF_NO_UNROLL _Pragma("unroll 1")
#else
#define CF_UNROLL
#define CF_NO_UNROLL
#endif

namespace cf {

constexpr int kMaxChannels = 4;

// A pixel holds `channels` samples side by side (channel c at data + c * sample size,
// of the format the call names); a pixel's neighbours are pixel_stride bytes away.
// Kernels compute the channels of channel_mask (bit c: channel c) on their own, each
// as if it were a plane of one channel; filters copy the other channels from src to
// dst unchanged (RGBx's x, alpha when not filtered), a histogram skips them.
struct Plane {
  uint8_t *data = nullptr;   // first sample (row 0, column 0, channel 0)
  int width = 0;
  int height = 0;
  ptrdiff_t row_pitch = 0;   // bytes from one row to the next
  int pixel_stride = 1;      // bytes from one pixel to its right neighbour
  int channels = 1;          // 1..kMaxChannels
  unsigned channel_mask = 1; // non-zero, below 1 << channels
};

// The mask of every channel of a plane of `channels` channels.
CF_HOST_DEVICE constexpr unsigned all_channels(int channels) {
  return (1u << channels) - 1;
}

// How a sample is stored: one byte, or two native-endian bytes (GRAY16_LE on
// little-endian hosts and GPUs).
enum class SampleDepth { U8, U16 };

// How one component's samples hold their values: the storage (depth) and how many of
// its low bits are padding below the value (GStreamer's GST_VIDEO_INFO_COMP_SHIFT).
// Every kernel reads a sample as its value
//   value = sample >> padding_bits        (whatever the padding bits hold)
// computes on values only, and stores value << padding_bits: outputs always have
// their padding bits zero. P010_10LE is {U16, 6}: 10-bit values 0..1023 in the top
// bits of 16-bit words; GRAY8, NV12, ... are {U8, 0}, GRAY16_LE, P016_LE, Y444_16LE
// {U16, 0}. A depth alone converts to the format without padding, so calls written for
// whole-word samples read as before.
//
// Every parameter that is a sample value is a value, not a stored sample: border
// constants, Gauss thresholds, histogram ranges, and the histogram's sum, min and
// max. Their range is 0..max_sample_value(format) (1023 for P010).
struct SampleFormat {
  SampleDepth depth = SampleDepth::U8;
  int padding_bits = 0;  // 0 for U8; 0..15 for U16

  constexpr SampleFormat() = default;
  CF_HOST_DEVICE constexpr SampleFormat(SampleDepth sample_depth, int padding = 0)
      : depth(sample_depth), padding_bits(padding) {}

  CF_HOST_DEVICE constexpr bool operator==(const SampleFormat &other) const {
    return depth == other.depth && padding_bits == other.padding_bits;
  }
  CF_HOST_DEVICE constexpr bool operator!=(const SampleFormat &other) const {
    return !(*this == other);
  }
};

CF_HOST_DEVICE constexpr int bytes_per_sample(SampleFormat format) {
  return format.depth == SampleDepth::U8 ? 1 : 2;
}

// Whether the kernels take samples of this format: U8 without padding (no 8-bit format
// has any), U16 with 0..15 padding bits (at least one value bit).
CF_HOST_DEVICE constexpr bool is_valid(SampleFormat format) {
  return format.depth == SampleDepth::U8 ? format.padding_bits == 0
         : format.depth == SampleDepth::U16
             ? format.padding_bits >= 0 && format.padding_bits < 16
             : false;
}

// Bits of a value: 8, 16, or 16 - padding_bits (10 for P010). For valid formats.
CF_HOST_DEVICE constexpr int value_bits(SampleFormat format) {
  return 8 * bytes_per_sample(format) - format.padding_bits;
}

// The largest value: 255, 65535, or 2^value_bits - 1 (1023 for P010). For valid formats.
CF_HOST_DEVICE constexpr uint32_t max_sample_value(SampleFormat format) {
  return (uint32_t{1} << value_bits(format)) - 1;
}

// A stored sample's value, and the sample that stores a value (at most
// max_sample_value(format)). For valid formats.
CF_HOST_DEVICE constexpr uint32_t sample_value(SampleFormat format, uint32_t sample) {
  return sample >> format.padding_bits;
}
CF_HOST_DEVICE constexpr uint32_t stored_sample(SampleFormat format, uint32_t value) {
  return value << format.padding_bits;
}

enum class BorderMode { Replicate, Reflect101, Constant };

struct Border {
  BorderMode mode = BorderMode::Replicate;
  // The value outside the image with BorderMode::Constant: a value (SampleFormat), not
  // a stored sample (700 for P010's 700 << 6); above max_sample_value it counts as
  // max_sample_value.
  uint16_t constant = 0;
};

// The stored sample that stands outside the image for border.constant.
CF_HOST_DEVICE constexpr uint32_t border_sample(const Border &border, SampleFormat format) {
  return stored_sample(format, border.constant < max_sample_value(format)
                                   ? uint32_t{border.constant}
                                   : max_sample_value(format));
}

// Whether a backend can read the plane: a valid format (is_valid), non-empty, 1 to
// kMaxChannels channels and a valid mask of them, rows that do not overlap, pixels
// that do not overlap.
bool is_valid_plane(const Plane &plane, SampleFormat format);

// Whether a backend can filter src into dst: both valid, of one size, with the same
// channels and mask.
bool is_valid_plane_pair(const Plane &src, const Plane &dst, SampleFormat format);

// Channel `channel` of a packed plane as a plane of one channel.
Plane channel_plane(const Plane &plane, int channel, SampleFormat format);

// Bytes of a row that a plane's pixels span: from the first sample to the last one's end.
size_t row_span_bytes(const Plane &plane, SampleFormat format);

// Whether every sample of the plane(s) is aligned to its size, as the CUDA kernels
// need (they read and write samples whole); the CPU backends take any alignment.
bool are_samples_aligned(const Plane &plane, SampleFormat format);
bool are_samples_aligned(const Plane &src, const Plane &dst, SampleFormat format);

// Index of the sample that stands for position i of a row or column of n samples,
// or -1 where the border constant stands there. Reflect-101 mirrors about the edge
// samples (-1 -> 1) and keeps mirroring for windows larger than the image, as
// OpenCV's BORDER_REFLECT_101 does.
CF_HOST_DEVICE inline int border_index(int i, int n, BorderMode mode) {
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
  case BorderMode::Replicate:
    return i < 0 ? 0 : n - 1;
  case BorderMode::Constant:
    return -1;
  case BorderMode::Reflect101:
  default: {
    if (n == 1)
      return 0;
    const int period = 2 * (n - 1);
    i %= period;
    if (i < 0)
      i += period;
    return i < n ? i : period - i;
  }
  }
}

}  // namespace cf
