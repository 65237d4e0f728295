// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CUDA Gaussian blur and unsharp masking in one pass over the frame.
//
// Each block owns a strip of kTileWidth output columns and walks down a band of rows.
// For every input row under the band (the band plus ry rows above and below) it stages
// the row's segment under the strip, kTileWidth + 2 rx samples with the border applied,
// in shared memory; each thread sums that segment horizontally for its kColumns output
// columns into a ring holding the last 2 ry + 1 horizontal sums of each column, and once
// the ring holds the 2 ry + 1 rows around an output row, sums them vertically, rounds
// and stores that row. The horizontal sums never leave the multiprocessor, and each
// input sample is read from device memory once per band (plus the strips' column halo).
//
// The arithmetic is gauss.h's, in integers only. With B = gauss_tap_bits(depth) and
// taps non-negative summing to 2^B, a row's horizontal sum of n-bit samples is below
// 2^(B + n) and the full sum plus the rounding term below 2^(2B + n): for 8-bit samples
// (B = 12) uint32 holds both, for 16-bit samples (B = 20) both take uint64 (Arithmetic
// picks the types from B). Every sum is exact, so the order of the additions does not
// matter and the result is the CPU backend's, bit for bit. The strip kernel turns
// samples into values (plane.h) as it stages them and values into samples as it stores
// them, so samples with padding bits (P010) are filtered as their values; the register
// kernel takes 8-bit samples, which have none.
//
// The common case, 8-bit samples in 4-byte aligned rows and up to 15 taps, takes a
// kernel without shared memory instead (the register kernel, below): the strip kernel
// spends over a hundred instructions per pixel staging and summing through shared
// memory, the register kernel a quarter of that.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuda_views.cuh"
#include "gauss.h"
#include "packed_cuda.h"

namespace cf {
namespace {

constexpr int kMaxRadius = kGaussMaxKernelSize / 2;

// Adjacent output columns per thread. The horizontal sum slides a window over the
// segment, so one shared-memory load and one tap load serve kColumns multiply-adds;
// a thread reads its ring entries of a row as one vector. Two keeps the segment reads
// free of bank conflicts for both sample sizes (a warp reads 32 consecutive 16-bit
// samples, or 64 consecutive bytes).
constexpr int kColumns = 2;

// The shortest bands, for frames too small to fill a wave of resident blocks (1080p and
// below): a block walks its band row after row, so the band's height is the kernel's
// chain of dependent steps, and short bands put more blocks to work at the price of 2 r
// rows of halo summed again per band. Measured at radii 2 to 7 (bench/TUNING.md section
// 12): bands of 2 r rows, at least 8 for the strip kernel and 4 for the register
// kernels, against 16 rows (4 r for the register kernels) that took up to twice as
// long; wider strip radii keep 16, not measured.
constexpr int strip_min_band_rows(int radius_y) { return std::clamp(2 * radius_y, 8, 16); }
constexpr int word_min_band_rows(int radius) { return std::max(4, 2 * radius); }
constexpr int kMaxGridY = 65535;

// Strip widths: the ring takes (2 ry + 1) * kTileWidth * sizeof(row sum) bytes of shared
// memory. Wide strips while their ring fits 32 KiB (8-bit samples: ry <= 31, 16-bit:
// ry <= 15), narrow ones above. Every 8-bit block then stays under 33 KiB; 16-bit blocks
// need more than the 48 KiB available without an opt-in from ry = 47 on, up to 62,688
// bytes at ry = 60 (every GPU from sm_75 on grants 64 KiB).
constexpr int kWideTile = 128;
constexpr int kNarrowTile = 64;
constexpr size_t kWideTileMaxRingBytes = 32 * 1024;

// Both 1-D kernels, passed by value: a launch owns its taps, so launches with different
// taps on concurrent streams cannot disturb one another (as __constant__ memory would).
struct Taps {
  uint32_t x[kGaussMaxKernelSize];
  uint32_t y[kGaussMaxKernelSize];
  int radius_x;
  int radius_y;
};

struct Sharpening {
  bool enabled;
  int32_t amount_q8;
  uint32_t threshold;
};

// How samples hold values (plane.h): value = sample >> padding_bits, stored back as
// value << padding_bits; max_value is the largest value, the clamp of sharpening.
struct Values {
  int padding_bits;
  uint32_t max_value;
};

template <typename Sample>
struct Arithmetic {
  static constexpr int kTapBits =
      gauss_tap_bits(sizeof(Sample) == 1 ? SampleDepth::U8 : SampleDepth::U16);
  static constexpr int kSampleBits = 8 * int(sizeof(Sample));
  static constexpr int kShift = 2 * kTapBits;
  // A horizontal sum is at most 2^B (2^n - 1), the full sum plus the rounding term at
  // most 2^2B (2^n - 1) + 2^(2B - 1) < 2^(2B + n).
  using RowSum = std::conditional_t<kTapBits + kSampleBits <= 32, uint32_t, uint64_t>;
  using Sum = std::conditional_t<2 * kTapBits + kSampleBits <= 32, uint32_t, uint64_t>;
  static_assert(kTapBits < 32 && 2 * kTapBits + kSampleBits <= 64, "sums fit 64 bits");
  static constexpr Sum kHalf = Sum(1) << (kShift - 1);
};

// out = |d| < threshold ? s : clamp(s + floor((amount_q8 * d + 128) / 256), 0, max)
// with d = s - blur. |amount_q8 * d| <= kGaussMaxAmountQ8 * 65535 < 2^28, so int32
// holds it exactly; the floor division by 256 is an arithmetic right shift of a signed
// value (nvcc, GCC and Clang shift signed values arithmetically, and C++20 requires
// it), which rounds towards minus infinity for negative details too.
static_assert(int64_t(kGaussMaxAmountQ8) * 65535 + 128 < (int64_t(1) << 31),
              "the sharpening products fit int32");
__device__ inline uint32_t sharpen(uint32_t sample, uint32_t blur, const Sharpening &sharpening,
                                   uint32_t max_value) {
  const int32_t detail = int32_t(sample) - int32_t(blur);
  const uint32_t magnitude = detail < 0 ? uint32_t(-detail) : uint32_t(detail);
  if (magnitude < sharpening.threshold)
    return sample;
  const int32_t value = int32_t(sample) + ((sharpening.amount_q8 * detail + 128) >> 8);
  return value < 0 ? 0u : value > int32_t(max_value) ? max_value : uint32_t(value);
}

template <typename Sample, int kTileWidth>
struct StripShape {
  using RowSum = typename Arithmetic<Sample>::RowSum;
  static constexpr int kThreads = kTileWidth / kColumns;
  // Segment samples each thread stages per row, at the largest radius.
  static constexpr int kLoads = (kTileWidth + 2 * kMaxRadius + kThreads - 1) / kThreads;
  static_assert(kTileWidth % (32 * kColumns) == 0, "whole warps");

  static size_t ring_bytes(int radius_y) {
    return size_t(2 * radius_y + 1) * kTileWidth * sizeof(RowSum);
  }
  // The ring, then two segment buffers.
  static size_t shared_bytes(int radius_x, int radius_y) {
    return ring_bytes(radius_y) + 2 * size_t(kTileWidth + 2 * radius_x) * sizeof(Sample);
  }
};

// Ring row s holds the horizontal sums of one input row, column c at entry
// s * kTileWidth + c; a thread's kColumns sums are one aligned vector.
template <typename RowSum>
struct alignas(sizeof(RowSum) * kColumns) ColumnSums {
  RowSum v[kColumns];
};

template <typename Sample, int kTileWidth>
__global__ void __launch_bounds__(StripShape<Sample, kTileWidth>::kThreads)
    gauss_kernel(SourceView<Sample> src, DestinationView<Sample> dst, Taps taps,
                 Sharpening sharpening, Values values, int band_rows) {
  using Shape = StripShape<Sample, kTileWidth>;
  using Math = Arithmetic<Sample>;
  using RowSum = typename Math::RowSum;
  using Sum = typename Math::Sum;
  using Sums = ColumnSums<RowSum>;
  constexpr int kThreads = Shape::kThreads;
  constexpr int kLoads = Shape::kLoads;
  extern __shared__ uint4 shared_memory[];  // 16-byte aligned

  const int radius_x = taps.radius_x;
  const int radius_y = taps.radius_y;
  const int window_rows = 2 * radius_y + 1;
  const int segment = kTileWidth + 2 * radius_x;
  RowSum *const ring = reinterpret_cast<RowSum *>(shared_memory);
  Sample *const segments = reinterpret_cast<Sample *>(ring + window_rows * kTileWidth);

  const int thread = threadIdx.x;
  const int strip_x = blockIdx.x * kTileWidth;
  const int x = strip_x + kColumns * thread;  // the thread's first output column
  const int band_y = blockIdx.y * band_rows;
  const int band_end = min(band_y + band_rows, src.height);
  // Input rows band_y - ry + t for t in [0, input_rows).
  const int input_rows = band_end - band_y + 2 * radius_y;
  // Threads right of the image stage samples and wait at the barriers, nothing else.
  const bool active = x < src.width;

  // The segment samples this thread stages, the same columns in every row: segment
  // position k * kThreads + thread, image column strip_x - rx + that.
  ptrdiff_t offsets[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int position = k * kThreads + thread;
    offsets[k] = position < segment ? src.column_offset(strip_x - radius_x + position) : -1;
  }
  uint32_t staged[kLoads];  // values
  auto fetch = [&](int t) {
    const uint8_t *row = src.row(band_y - radius_y + t);
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      staged[k] = src.at(row, offsets[k]) >> values.padding_bits;
  };
  auto stage = [&](Sample *buffer) {
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
      const int position = k * kThreads + thread;
      if (position < segment)
        buffer[position] = static_cast<Sample>(staged[k]);
    }
  };

  // Multiply-adds ring rows [first_slot, end_slot) with the vertical taps from
  // first_tap on.
  const RowSum *const ring_columns = ring + kColumns * thread;
  auto accumulate = [&](Sum(&sums)[kColumns], int first_slot, int end_slot, int first_tap) {
    const RowSum *entries = ring_columns + first_slot * kTileWidth;
    const uint32_t *tap = taps.y + first_tap;
    for (int s = first_slot; s < end_slot; ++s, entries += kTileWidth, ++tap) {
      const Sums h = *reinterpret_cast<const Sums *>(entries);
      const Sum weight = *tap;
#pragma unroll
      for (int c = 0; c < kColumns; ++c)
        sums[c] += weight * h.v[c];
    }
  };

  fetch(0);
  stage(segments);
  int slot = 0;  // ring row of input row t
  for (int t = 0; t < input_rows; ++t) {
    // Makes segment buffer t % 2 complete, and every thread done with buffer
    // (t + 1) % 2, which the end of this iteration refills: one barrier per row.
    __syncthreads();
    const bool more = t + 1 < input_rows;
    if (more)
      fetch(t + 1);  // loads in flight while this row is summed

    if (active) {
      // Horizontal: column x + c sums segment positions [x + c - strip_x, ... + 2 rx].
      const Sample *in = segments + (t & 1) * segment + kColumns * thread;
      uint32_t window[kColumns];
#pragma unroll
      for (int c = 0; c < kColumns; ++c)
        window[c] = in[c];
      Sums h = {};
      for (int j = 0; j < 2 * radius_x; ++j) {
        const RowSum weight = taps.x[j];
#pragma unroll
        for (int c = 0; c < kColumns; ++c)
          h.v[c] += weight * window[c];
#pragma unroll
        for (int c = 0; c + 1 < kColumns; ++c)
          window[c] = window[c + 1];
        window[kColumns - 1] = in[j + kColumns];
      }
#pragma unroll
      for (int c = 0; c < kColumns; ++c)
        h.v[c] += RowSum(taps.x[2 * radius_x]) * window[c];
      *reinterpret_cast<Sums *>(ring + slot * kTileWidth + kColumns * thread) = h;

      // Vertical, once the ring holds input rows t - 2 ry .. t: output row
      // band_y + t - 2 ry. Its oldest row sits in the ring row after this one.
      if (t >= 2 * radius_y) {
        const int oldest = slot + 1 == window_rows ? 0 : slot + 1;
        Sum sums[kColumns] = {};
        accumulate(sums, oldest, window_rows, 0);
        accumulate(sums, 0, oldest, window_rows - oldest);
        const int y = band_y + t - 2 * radius_y;
#pragma unroll
        for (int c = 0; c < kColumns; ++c) {
          if (x + c < dst.width) {
            const uint32_t blur = uint32_t((sums[c] + Math::kHalf) >> Math::kShift);
            const uint32_t out =
                sharpening.enabled
                    ? sharpen(src.inside(x + c, y) >> values.padding_bits, blur, sharpening,
                              values.max_value)
                    : blur;
            dst.store(x + c, y, out << values.padding_bits);
          }
        }
      }
    }

    if (more)
      stage(segments + ((t + 1) & 1) * segment);
    slot = slot + 1 == window_rows ? 0 : slot + 1;
  }
}

// ---------------------------------------------------------------------------------
// The register kernel: 8-bit samples in contiguous, 4-byte aligned rows and radii up
// to kWordMaxRadius, the common case, at a fraction of the instructions per pixel.
//
// Each warp owns a strip of 4-sample words and walks down a band of rows: per row one
// aligned 32-bit load per lane, no shared memory, no barriers. A lane's four horizontal
// sums are dot products of its word and its neighbours' (warp shuffles) with the taps
// packed into words per column of the word, four products per dp4a; a tap takes more
// than the byte dp4a multiplies by, so its high and low bytes take one dp4a each:
// sum = 256 sum(high) + sum(low). The last 2 R + 1 rows' horizontal sums stay in
// registers (the row loop unrolled by 2 R + 1, so that each ring slot is one fixed
// register), and the vertical sum adds the rows at equal distance first, one multiply
// per pair. The lanes at a warp's edges only feed their neighbours: strips overlap by
// those halo words. The sums are gauss.h's: a horizontal sum is below 2^(B + 8) = 2^20,
// the full one plus the rounding term below 2^32.
//
// Packed pixels of C channels (RGB, NV12's UV) take the same kernel over their row of
// samples, in one launch for every channel: a sample's neighbours are C samples away,
// so the taps of column c in word k sit on the bytes C apart from it (zero on the
// others' channels), the reach grows to C R samples, and channels not computed take the
// source's samples, blended into the word before its store. On pixels of 2 channels
// the column of a channel not computed is not summed at all. (Pixels of 4 channels
// would spend a dp4a per tap: the pixel kernel below takes them.)

constexpr int kWordSamples = 4;
constexpr int kWordMaxRadius = 7;
constexpr int kWordMaxChannels = 3;  // the word kernel's; 4-byte pixels: the pixel kernel
// Pixels of several channels up to this radius (9 taps), to bound the kernels' count
// and compile time; wider windows take the strip kernel channel by channel.
constexpr int kPackedMaxRadius = 4;
constexpr int kWordMaxHalo =
    (std::max(kWordMaxRadius, kWordMaxChannels * kPackedMaxRadius) + kWordSamples - 1) /
    kWordSamples;
constexpr int kWordSpan = 2 * kWordMaxHalo + 1;  // words -kWordMaxHalo..kWordMaxHalo
constexpr int kWordWarps = 4;                    // per block, each on its own strip

// The taps of the register kernel for radius R = max(rx, ry), both padded with zero
// taps to 2 R + 1 (zero products change no sum).
struct WordTaps {
  // Column c of a word: sum over words k of dp4a(word k, taps[c][k + kWordMaxHalo]);
  // byte b of word k is sample 4 k + b - c from the column.
  uint32_t high[kWordSamples][kWordSpan];
  uint32_t low[kWordSamples][kWordSpan];
  uint32_t vertical[kWordMaxRadius + 1];  // the vertical tap at distance k from the centre
};

constexpr int floor_div4(int value) { return value >= 0 ? value / 4 : -((3 - value) / 4); }

// Halo words each side a word's columns reach at a reach of `reach` samples (C R).
constexpr int word_halo(int reach) { return (reach + kWordSamples - 1) / kWordSamples; }

// The sample standing for row sample `sample` of pixels of C channels, width pixels a
// row: its byte offset in the row, or -1 where the border constant stands.
template <int C>
__device__ inline int packed_sample_offset(int sample, int width, BorderMode mode) {
  const int pixel = sample >= 0 ? sample / C : -((C - 1 - sample) / C);
  const int column = border_index(pixel, width, mode);
  return column < 0 ? -1 : column * C + (sample - pixel * C);
}

// Where a lane reads its words, row after row from first_row on. Inside: the four
// samples at x lie in the image, and so does every row the band reads: one aligned
// load. Otherwise the row and each column take the border, samples outside it the
// constant. Pixels of C channels.
template <bool kInside, int C>
struct WordSource {
  const SourceView<uint8_t> &src;
  int x;  // the word's first column, a multiple of 4
  // Inside: the word of the next row. Otherwise the next row, and the byte offsets in a
  // row of the samples standing for columns x .. x + 3 (-1: the constant), and whether
  // those are x .. x + 3 themselves.
  const uint8_t *next_word;
  int next_row;
  int offsets[kWordSamples];
  bool whole;

  __device__ WordSource(const SourceView<uint8_t> &view, int first_column, int first_row)
      : src(view), x(first_column), next_row(first_row) {
    if constexpr (kInside)
      next_word = src.data + first_row * src.row_pitch + x;
    whole = true;
#pragma unroll
    for (int b = 0; b < kWordSamples; ++b) {
      offsets[b] = packed_sample_offset<C>(x + b, src.width, src.mode);
      whole = whole && offsets[b] == x + b;
    }
  }

  __device__ uint32_t next() {
    if constexpr (kInside) {
      const uint32_t word = __ldg(reinterpret_cast<const uint32_t *>(next_word));
      next_word += src.row_pitch;
      return word;
    }
    return word(next_row++);
  }

  // The word of image row y (inside: one the band reads).
  __device__ uint32_t word(int y) const {
    if constexpr (kInside)
      return __ldg(reinterpret_cast<const uint32_t *>(src.data + y * src.row_pitch + x));
    const uint32_t constant = src.constant;
    const int row = border_index(y, src.height, src.mode);
    if (row < 0)
      return constant * 0x01010101u;
    const uint8_t *const start = src.data + row * src.row_pitch;
    if (whole)
      return __ldg(reinterpret_cast<const uint32_t *>(start + x));
    uint32_t word = 0;
#pragma unroll
    for (int b = 0; b < kWordSamples; ++b)
      word |= (offsets[b] < 0 ? constant : uint32_t(__ldg(start + offsets[b]))) << (8 * b);
    return word;
  }
};

// Horizontal sums of the four columns of this lane's word, of pixels of C channels:
// those of `active` only.
template <int R, int C>
__device__ inline void horizontal_sums(uint32_t word, const WordTaps &taps,
                                       const bool (&active)[kWordSamples],
                                       uint32_t (&sums)[kWordSamples]) {
  constexpr int kReach = C * R;
  constexpr int kHalo = word_halo(kReach);
  uint32_t words[2 * kHalo + 1];  // words[kHalo + k]: word k from this lane's
  words[kHalo] = word;
#pragma unroll
  for (int k = 1; k <= kHalo; ++k) {
    // Lanes without a neighbour k away get their own word: they only feed others.
    words[kHalo - k] = __shfl_up_sync(0xffffffffu, word, k);
    words[kHalo + k] = __shfl_down_sync(0xffffffffu, word, k);
  }
#pragma unroll
  for (int c = 0; c < kWordSamples; ++c) {
    if (!active[c])
      continue;
    uint32_t sum = 0;
#pragma unroll
    for (int k = floor_div4(c - kReach); k <= floor_div4(c + kReach); ++k)
      sum = __dp4a(words[kHalo + k], taps.high[c][kWordMaxHalo + k], sum);
    sum <<= 8;
#pragma unroll
    for (int k = floor_div4(c - kReach); k <= floor_div4(c + kReach); ++k)
      sum = __dp4a(words[kHalo + k], taps.low[c][kWordMaxHalo + k], sum);
    sums[c] = sum;
  }
}

// The four rounded results of a word's columns, from their sums plus the rounding
// term (below 2^32: the result is the top byte), as one word.
__device__ inline uint32_t word_of_results(const uint32_t (&rounded)[kWordSamples]) {
  static_assert(Arithmetic<uint8_t>::kShift == 24, "the result is the sum's top byte");
  const uint32_t low = __byte_perm(rounded[0], rounded[1], 0x73);
  const uint32_t high = __byte_perm(rounded[2], rounded[3], 0x73);
  return __byte_perm(low, high, 0x5410);
}

// The results of a word's columns (those of `active`) for the output row whose input
// rows sit in ring slots phase .. phase + 2 R (mod 2 R + 1), as one word.
template <int R>
__device__ inline uint32_t vertical_result(const uint32_t (&ring)[2 * R + 1][kWordSamples],
                                           int phase, const WordTaps &taps,
                                           const bool (&active)[kWordSamples]) {
  using Math = Arithmetic<uint8_t>;
  constexpr int kWindow = 2 * R + 1;
  uint32_t rounded[kWordSamples] = {};
#pragma unroll
  for (int c = 0; c < kWordSamples; ++c) {
    if (!active[c])
      continue;
    rounded[c] = Math::kHalf + taps.vertical[0] * ring[(phase + R) % kWindow][c];
#pragma unroll
    for (int k = 1; k <= R; ++k)
      rounded[c] += taps.vertical[k] * (ring[(phase + R - k) % kWindow][c] +
                                        ring[(phase + R + k) % kWindow][c]);
  }
  return word_of_results(rounded);
}

// One warp's strip: words first_word + lane, output rows [band_y, band_y + rows).
template <int R, int C, bool kInside>
__device__ inline void word_strip(const SourceView<uint8_t> &src,
                                  const DestinationView<uint8_t> &dst, const WordTaps &taps,
                                  const Sharpening &sharpening, unsigned channel_mask,
                                  int first_word, int band_y, int rows) {
  constexpr int kHalo = word_halo(C * R);
  constexpr int kWindow = 2 * R + 1;
  // Rows loaded ahead of the one summed, their loads in flight meanwhile.
  constexpr int kAhead = kWindow - 1 < 4 ? kWindow - 1 : 4;

  const int lane = threadIdx.x % 32;
  const int x = kWordSamples * (first_word + lane);  // a sample of the row
  const int row_samples = C * src.width;
  // Input row i is image row band_y - R + i, held in slot i % kWindow of both arrays
  // (its word, then its horizontal sums).
  WordSource<kInside, C> source(src, x, band_y - R);
  const bool stores = lane >= kHalo && lane < 32 - kHalo && x < row_samples;
  // The bytes of channels computed; the columns summed: all but those of a channel
  // not computed in every word (pixels of 1, 2 or 4 channels).
  const bool blend = C > 1 && channel_mask != all_channels(C);
  uint32_t computed = 0;
  bool active[kWordSamples];
#pragma unroll
  for (int c = 0; c < kWordSamples; ++c) {
    const bool filtered = (channel_mask >> ((x + c) % C)) & 1u;
    computed |= filtered ? 0xffu << (8 * c) : 0u;
    active[c] = filtered || kWordSamples % C != 0;
  }
  uint8_t *out = dst.data + band_y * dst.row_pitch + x;
  const int input_rows = rows + 2 * R;
  uint32_t loaded[kWindow];
  uint32_t ring[kWindow][kWordSamples];

#pragma unroll
  for (int i = 0; i < kAhead; ++i)
    loaded[i] = source.next();
#pragma unroll
  for (int i = 0; i < 2 * R; ++i) {
    if (i + kAhead < input_rows)
      loaded[(i + kAhead) % kWindow] = source.next();
    horizontal_sums<R, C>(loaded[i % kWindow], taps, active, ring[i % kWindow]);
  }

  for (int first = 0; first < rows; first += kWindow) {
#pragma unroll
    for (int phase = 0; phase < kWindow; ++phase) {
      // Output row j sums input rows j .. j + 2 R, the newest in slot `newest`.
      const int j = first + phase;
      if (j < rows) {
        const int newest = (phase + 2 * R) % kWindow;
        if (j + kAhead < rows)
          loaded[(newest + kAhead) % kWindow] = source.next();
        horizontal_sums<R, C>(loaded[newest], taps, active, ring[newest]);

        uint32_t result = vertical_result<R>(ring, phase, taps, active);
        if (stores) {
          const uint32_t original =
              sharpening.enabled || blend ? source.word(band_y + j) : 0u;
          if (sharpening.enabled) {
            uint32_t sharpened = 0;
#pragma unroll
            for (int c = 0; c < kWordSamples; ++c)
              sharpened |= sharpen((original >> (8 * c)) & 0xffu, (result >> (8 * c)) & 0xffu,
                                   sharpening, max_sample_value(SampleDepth::U8))
                           << (8 * c);
            result = sharpened;
          }
          if (blend)
            result = (result & computed) | (original & ~computed);
          if (kInside || x + kWordSamples <= row_samples) {
            *reinterpret_cast<uint32_t *>(out) = result;
          } else {
#pragma unroll
            for (int c = 0; c < kWordSamples; ++c)
              if (x + c < row_samples)
                out[c] = uint8_t(result >> (8 * c));
          }
        }
        out += dst.row_pitch;
      }
    }
  }
}

// Pixels of C channels, src.width pixels a row; channel_mask: those computed.
template <int R, int C>
__global__ void __launch_bounds__(32 * kWordWarps)
    gauss_word_kernel(SourceView<uint8_t> src, DestinationView<uint8_t> dst, WordTaps taps,
                      Sharpening sharpening, unsigned channel_mask, int band_rows) {
  constexpr int kHalo = word_halo(C * R);
  constexpr int kStripWords = 32 - 2 * kHalo;  // the words a strip stores
  const int strip = blockIdx.x * kWordWarps + threadIdx.x / 32;
  const int row_samples = C * src.width;
  const int words = (row_samples + kWordSamples - 1) / kWordSamples;
  if (strip * kStripWords >= words)
    return;  // the whole warp: no shuffle misses a lane
  const int first_word = strip * kStripWords - kHalo;
  const int band_y = blockIdx.y * band_rows;
  const int rows = min(band_rows, src.height - band_y);
  // Whether every word the warp loads, in every row the band reads, lies inside.
  const bool inside = first_word >= 0 && kWordSamples * (first_word + 32) <= row_samples &&
                      band_y - R >= 0 && band_y + rows + R <= src.height;
  if (inside)
    word_strip<R, C, true>(src, dst, taps, sharpening, channel_mask, first_word, band_y, rows);
  else
    word_strip<R, C, false>(src, dst, taps, sharpening, channel_mask, first_word, band_y, rows);
}

// ---------------------------------------------------------------------------------
// The pixel kernel: 4-byte pixels (RGBA, BGRx, ...) of 3 or 4 computed channels,
// radii up to kWordMaxRadius. The word kernel's columns C = 4
// samples apart spend a dp4a on each tap; here each lane loads 4 pixels (16 bytes),
// transposes them into one word per computed channel, 4 pixels of that channel side by
// side, and runs the word kernel's horizontal and vertical sums on each such word as
// on a GRAY8 word (a neighbouring lane holds the next 4 pixels of every channel): the
// same instructions per computed sample as GRAY8, plus the transposes (about one a
// sample). The results are transposed back, the channel not computed blended in from
// the source, and stored as one 16-byte vector (four 4-byte stores where rows are not
// 16-byte aligned).

constexpr int kPixelWarps = 4;

// Byte i of word k: pixel i's channel order[k] (order: nibble k is a channel).
__device__ inline uint32_t channel_word(const uint4 &pixels, uint32_t channel) {
  const uint32_t pick = channel | (4 + channel) << 4;  // byte `channel` of a, then of b
  return __byte_perm(__byte_perm(pixels.x, pixels.y, pick),
                     __byte_perm(pixels.z, pixels.w, pick), 0x5410);
}

// 4 pixels at p: one vector where the rows are 16-byte aligned.
__device__ inline uint4 load_pixels(const uint8_t *p, bool vectors) {
  if (vectors)
    return __ldg(reinterpret_cast<const uint4 *>(p));
  const uint32_t *words = reinterpret_cast<const uint32_t *>(p);
  return make_uint4(__ldg(words), __ldg(words + 1), __ldg(words + 2), __ldg(words + 3));
}

// Where a lane reads its 4 pixels x .. x + 3, row after row from first_row on: as in
// WordSource, inside whole, otherwise each pixel with the border.
template <bool kInside>
struct PixelSource {
  const SourceView<uint8_t> &src;
  int x;
  int next_row;
  bool vectors;    // 16-byte aligned rows
  int offsets[4];  // of pixels x .. x + 3 in a row, -1: the constant
  bool whole;

  __device__ PixelSource(const SourceView<uint8_t> &view, int first_pixel, int first_row,
                         bool aligned)
      : src(view), x(first_pixel), next_row(first_row), vectors(aligned) {
    whole = true;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int column = border_index(x + i, src.width, src.mode);
      offsets[i] = column < 0 ? -1 : 4 * column;
      whole = whole && column == x + i;
    }
  }

  __device__ uint4 next() { return pixels(next_row++); }

  // The pixels of image row y (inside: one the band reads).
  __device__ uint4 pixels(int y) const {
    if constexpr (kInside)
      return load_pixels(src.data + y * src.row_pitch + 4 * x, vectors);
    const uint32_t constant = src.constant * 0x01010101u;
    const int row = border_index(y, src.height, src.mode);
    if (row < 0)
      return make_uint4(constant, constant, constant, constant);
    const uint8_t *const start = src.data + row * src.row_pitch;
    if (whole)
      return load_pixels(start + 4 * x, vectors);
    uint32_t words[4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
      words[i] =
          offsets[i] < 0 ? constant : __ldg(reinterpret_cast<const uint32_t *>(start + offsets[i]));
    return make_uint4(words[0], words[1], words[2], words[3]);
  }
};

// N computed channels, order's first N nibbles; `computed`: their bytes in a pixel.
template <int R, int N, bool kInside>
__device__ inline void pixel_strip(const SourceView<uint8_t> &src,
                                   const DestinationView<uint8_t> &dst, const WordTaps &taps,
                                   const Sharpening &sharpening, uint32_t order,
                                   uint32_t computed, bool vectors, int first_group,
                                   int band_y, int rows) {
  constexpr int kHalo = word_halo(R);
  constexpr int kWindow = 2 * R + 1;
  constexpr int kAhead = kWindow - 1 < 4 ? kWindow - 1 : 4;
  const bool kAll[kWordSamples] = {true, true, true, true};

  const int lane = threadIdx.x % 32;
  const int x = 4 * (first_group + lane);  // a pixel
  PixelSource<kInside> source(src, x, band_y - R, vectors);
  const bool stores = lane >= kHalo && lane < 32 - kHalo && x < dst.width;
  // Transposed back, byte k of pixel word i is channel order[k]: one byte permutation
  // puts each channel in its place (the channel not computed takes any byte: blended).
  uint32_t place = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    place |= uint32_t(k) << (4 * ((order >> (4 * k)) & 0xfu));
  uint32_t channels[N];
#pragma unroll
  for (int k = 0; k < N; ++k)
    channels[k] = (order >> (4 * k)) & 0xfu;
  uint8_t *out = dst.data + band_y * dst.row_pitch + 4 * x;
  const int input_rows = rows + 2 * R;
  uint4 loaded[kWindow];
  uint32_t ring[N][kWindow][kWordSamples];
  auto sum_row = [&](const uint4 &pixels, int slot) {
#pragma unroll
    for (int k = 0; k < N; ++k)
      horizontal_sums<R, 1>(channel_word(pixels, channels[k]), taps, kAll, ring[k][slot]);
  };

#pragma unroll
  for (int i = 0; i < kAhead; ++i)
    loaded[i] = source.next();
#pragma unroll
  for (int i = 0; i < 2 * R; ++i) {
    if (i + kAhead < input_rows)
      loaded[(i + kAhead) % kWindow] = source.next();
    sum_row(loaded[i % kWindow], i % kWindow);
  }

  for (int first = 0; first < rows; first += kWindow) {
#pragma unroll
    for (int phase = 0; phase < kWindow; ++phase) {
      const int j = first + phase;
      if (j < rows) {
        const int newest = (phase + 2 * R) % kWindow;
        if (j + kAhead < rows)
          loaded[(newest + kAhead) % kWindow] = source.next();
        sum_row(loaded[newest], newest);

        uint32_t results[4] = {};  // per computed channel, 4 pixels
#pragma unroll
        for (int k = 0; k < N; ++k)
          results[k] = vertical_result<R>(ring[k], phase, taps, kAll);
        if (stores) {
          // Transposed back: word i holds pixel i, byte k its channel order[k].
          const uint32_t low = __byte_perm(results[0], results[1], 0x5140);
          const uint32_t high = __byte_perm(results[0], results[1], 0x7362);
          const uint32_t low2 = __byte_perm(results[2], results[3], 0x5140);
          const uint32_t high2 = __byte_perm(results[2], results[3], 0x7362);
          uint32_t words[4] = {__byte_perm(low, low2, 0x5410), __byte_perm(low, low2, 0x7632),
                               __byte_perm(high, high2, 0x5410),
                               __byte_perm(high, high2, 0x7632)};
          const uint4 original = N < 4 || sharpening.enabled ? source.pixels(band_y + j)
                                                             : make_uint4(0, 0, 0, 0);
          const uint32_t originals[4] = {original.x, original.y, original.z, original.w};
#pragma unroll
          for (int i = 0; i < 4; ++i) {
            words[i] = __byte_perm(words[i], 0, place);
            if (sharpening.enabled) {
              uint32_t sharpened = 0;
#pragma unroll
              for (int b = 0; b < 4; ++b)
                sharpened |= sharpen((originals[i] >> (8 * b)) & 0xffu,
                                     (words[i] >> (8 * b)) & 0xffu, sharpening,
                                     max_sample_value(SampleDepth::U8))
                             << (8 * b);
              words[i] = sharpened;
            }
            if (N < 4)
              words[i] = (words[i] & computed) | (originals[i] & ~computed);
          }
          if (vectors && (kInside || x + 4 <= dst.width)) {
            *reinterpret_cast<uint4 *>(out) = make_uint4(words[0], words[1], words[2], words[3]);
          } else {
#pragma unroll
            for (int i = 0; i < 4; ++i)
              if (x + i < dst.width)
                reinterpret_cast<uint32_t *>(out)[i] = words[i];
          }
        }
        out += dst.row_pitch;
      }
    }
  }
}

template <int R, int N>
__global__ void __launch_bounds__(32 * kPixelWarps)
    gauss_pixel_kernel(SourceView<uint8_t> src, DestinationView<uint8_t> dst, WordTaps taps,
                       Sharpening sharpening, uint32_t order, uint32_t computed,
                       bool vectors, int band_rows) {
  constexpr int kHalo = word_halo(R);
  constexpr int kStripGroups = 32 - 2 * kHalo;  // the 4-pixel groups a strip stores
  const int strip = blockIdx.x * kPixelWarps + threadIdx.x / 32;
  const int groups = (src.width + 3) / 4;
  if (strip * kStripGroups >= groups)
    return;  // the whole warp: no shuffle misses a lane
  const int first_group = strip * kStripGroups - kHalo;
  const int band_y = blockIdx.y * band_rows;
  const int rows = min(band_rows, src.height - band_y);
  const bool inside = first_group >= 0 && 4 * (first_group + 32) <= src.width &&
                      band_y - R >= 0 && band_y + rows + R <= src.height;
  if (inside)
    pixel_strip<R, N, true>(src, dst, taps, sharpening, order, computed, vectors, first_group,
                            band_y, rows);
  else
    pixel_strip<R, N, false>(src, dst, taps, sharpening, order, computed, vectors, first_group,
                             band_y, rows);
}

// ---------------------------------------------------------------------------------
// Launches.

template <typename Sample, int kTileWidth>
cudaError_t launch_strips(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                          const Taps &taps, const Sharpening &sharpening, const Values &values,
                          cudaStream_t stream) {
  using Shape = StripShape<Sample, kTileWidth>;
  const auto kernel = gauss_kernel<Sample, kTileWidth>;
  const size_t shared_bytes = Shape::shared_bytes(taps.radius_x, taps.radius_y);
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, Shape::kThreads, shared_bytes, &resident);
      e != cudaSuccess)
    return e;

  // Enough bands for one wave of resident blocks: taller bands would leave block slots
  // idle (a block walks its band serially), shorter ones would recompute more halo rows
  // for nothing. Where the frame is too small to fill the wave, the shortest bands
  // finish first, halo and all.
  const int strips = ceil_div(src.width, kTileWidth);
  const int wanted_blocks = std::max(1, resident);
  const int bands = ceil_div(wanted_blocks, strips);
  const int band_rows = std::max(
      {ceil_div(src.height, bands), strip_min_band_rows(taps.radius_y),
       ceil_div(src.height, kMaxGridY)});
  const dim3 grid(strips, ceil_div(src.height, band_rows));
  kernel<<<grid, Shape::kThreads, shared_bytes, stream>>>(src, dst, taps, sharpening, values,
                                                          band_rows);
  return cudaGetLastError();
}

// Whether the register kernels take the call: 8-bit samples (no padding bits), pixels
// side by side in 4-byte aligned rows, both radii up to kWordMaxRadius, symmetric
// vertical taps; 4-byte pixels (the pixel kernel) with 3 or 4 channels computed.
bool fits_word_kernel(const Plane &src, const Plane &dst, SampleFormat format,
                      const GaussParams &params) {
  const auto word_rows = [](const Plane &plane) {
    return plane.pixel_stride == plane.channels &&
           (plane.channels < 4 || __builtin_popcount(plane.channel_mask) >= 3) &&
           reinterpret_cast<uintptr_t>(plane.data) % 4 == 0 && plane.row_pitch % 4 == 0;
  };
  const std::vector<int32_t> &taps_y = params.taps_y;
  const int max_radius = src.channels == 1 ? kWordMaxRadius : kPackedMaxRadius;
  return format.depth == SampleDepth::U8 && format.padding_bits == 0 && word_rows(src) &&
         word_rows(dst) &&
         int(params.taps_x.size()) / 2 <= max_radius &&
         int(taps_y.size()) / 2 <= max_radius &&
         std::equal(taps_y.begin(), taps_y.end(), taps_y.rbegin());
}

// The 2 radius + 1 taps centred on `taps`, the rest zero.
std::vector<uint32_t> padded_taps(const std::vector<int32_t> &taps, int radius) {
  std::vector<uint32_t> padded(2 * radius + 1, 0);
  std::copy(taps.begin(), taps.end(), padded.begin() + (radius - int(taps.size()) / 2));
  return padded;
}

// Pixels of `channels` channels: column c's neighbours of its channel are the samples
// a multiple of `channels` away.
WordTaps make_word_taps(const GaussParams &params, int radius, int channels) {
  const std::vector<uint32_t> x = padded_taps(params.taps_x, radius);
  const std::vector<uint32_t> y = padded_taps(params.taps_y, radius);
  WordTaps taps{};
  for (int c = 0; c < kWordSamples; ++c)
    for (int k = -kWordMaxHalo; k <= kWordMaxHalo; ++k)
      for (int b = 0; b < kWordSamples; ++b) {
        // Sample 4 k + b - c from column c: pixel (4 k + b - c) / channels from it, tap
        // radius + that where the sample is of the column's channel.
        const int distance = kWordSamples * k + b - c;
        const int index = radius + distance / channels;
        const uint32_t tap = distance % channels == 0 && index >= 0 && index <= 2 * radius
                                 ? x[index]
                                 : 0;
        // Taps are at most 2^12: the high byte too fits 8 bits.
        taps.high[c][kWordMaxHalo + k] |= (tap >> 8) << (8 * b);
        taps.low[c][kWordMaxHalo + k] |= (tap & 0xffu) << (8 * b);
      }
  for (int k = 0; k <= radius; ++k)
    taps.vertical[k] = y[radius + k];
  return taps;
}

template <int R, int C>
cudaError_t launch_word_strips(const SourceView<uint8_t> &src,
                               const DestinationView<uint8_t> &dst, const WordTaps &taps,
                               const Sharpening &sharpening, unsigned channel_mask,
                               cudaStream_t stream) {
  const auto kernel = gauss_word_kernel<R, C>;
  constexpr int kThreads = 32 * kWordWarps;
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, kThreads, 0, &resident); e != cudaSuccess)
    return e;
  // As launch_strips: bands enough for one wave of resident warps.
  const int strips = ceil_div(ceil_div(C * src.width, kWordSamples), 32 - 2 * word_halo(C * R));
  const int bands = ceil_div(std::max(1, resident) * kWordWarps, strips);
  const int band_rows = std::max(
      {ceil_div(src.height, bands), word_min_band_rows(R), ceil_div(src.height, kMaxGridY)});
  const dim3 grid(ceil_div(strips, kWordWarps), ceil_div(src.height, band_rows));
  kernel<<<grid, kThreads, 0, stream>>>(src, dst, taps, sharpening, channel_mask, band_rows);
  return cudaGetLastError();
}

// Rows of whole 16-byte vectors: both planes' starts and pitches multiples of 16.
bool vector_rows(const Plane &src, const Plane &dst) {
  return (reinterpret_cast<uintptr_t>(src.data) | uintptr_t(src.row_pitch) |
          reinterpret_cast<uintptr_t>(dst.data) | uintptr_t(dst.row_pitch)) % 16 == 0;
}

template <int R, int N>
cudaError_t launch_pixel_strips(const SourceView<uint8_t> &src,
                                const DestinationView<uint8_t> &dst, const WordTaps &taps,
                                const Sharpening &sharpening, unsigned channel_mask,
                                bool vectors, cudaStream_t stream) {
  const auto kernel = gauss_pixel_kernel<R, N>;
  constexpr int kThreads = 32 * kPixelWarps;
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, kThreads, 0, &resident); e != cudaSuccess)
    return e;
  // The computed channels first, then the other; their bytes in a pixel.
  uint32_t order = 0;
  uint32_t computed = 0;
  int k = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int c = 0; c < 4; ++c)
      if (bool((channel_mask >> c) & 1u) == (pass == 0))
        order |= uint32_t(c) << (4 * k++);
  for (int c = 0; c < 4; ++c)
    if ((channel_mask >> c) & 1u)
      computed |= 0xffu << (8 * c);
  // As launch_word_strips, in groups of 4 pixels.
  const int strips = ceil_div(ceil_div(src.width, 4), 32 - 2 * word_halo(R));
  const int bands = ceil_div(std::max(1, resident) * kPixelWarps, strips);
  const int band_rows = std::max(
      {ceil_div(src.height, bands), word_min_band_rows(R), ceil_div(src.height, kMaxGridY)});
  const dim3 grid(ceil_div(strips, kPixelWarps), ceil_div(src.height, band_rows));
  kernel<<<grid, kThreads, 0, stream>>>(src, dst, taps, sharpening, order, computed, vectors,
                                        band_rows);
  return cudaGetLastError();
}

// launch(std::integral_constant<int, R>{}) for R = radius, which the kernels take at
// compile time; cudaErrorInvalidValue outside R..MaxRadius.
template <int R, int MaxRadius, class Launch>
cudaError_t with_radius(int radius, const Launch &launch) {
  if (radius == R)
    return launch(std::integral_constant<int, R>{});
  if constexpr (R < MaxRadius)
    return with_radius<R + 1, MaxRadius>(radius, launch);
  else
    return cudaErrorInvalidValue;
}

template <int N>
cudaError_t launch_pixel_radius(const SourceView<uint8_t> &src,
                                const DestinationView<uint8_t> &dst, int radius,
                                const WordTaps &taps, const Sharpening &sharpening,
                                unsigned channel_mask, bool vectors, cudaStream_t stream) {
  return with_radius<1, kPackedMaxRadius>(radius, [&](auto r) {
    return launch_pixel_strips<decltype(r)::value, N>(src, dst, taps, sharpening, channel_mask,
                                                      vectors, stream);
  });
}

template <int C>
cudaError_t launch_word_radius(const SourceView<uint8_t> &src,
                               const DestinationView<uint8_t> &dst, int radius,
                               const WordTaps &taps, const Sharpening &sharpening,
                               unsigned channel_mask, cudaStream_t stream) {
  // Packed pixels stop at kPackedMaxRadius.
  constexpr int kMaxRadius = C == 1 ? kWordMaxRadius : kPackedMaxRadius;
  return with_radius<1, kMaxRadius>(radius, [&](auto r) {
    return launch_word_strips<decltype(r)::value, C>(src, dst, taps, sharpening, channel_mask,
                                                     stream);
  });
}

cudaError_t launch_word(const Plane &src_plane, const Plane &dst_plane,
                        const SourceView<uint8_t> &src, const DestinationView<uint8_t> &dst,
                        const GaussParams &params, const Sharpening &sharpening,
                        cudaStream_t stream) {
  const int channels = src_plane.channels;
  const unsigned channel_mask = src_plane.channel_mask;
  // A single tap (radius 0) takes the smallest kernel, zero taps around it.
  const int radius = std::max<int>(1, std::max(params.taps_x.size(), params.taps_y.size()) / 2);
  if (channels == 4) {
    // The pixel kernel sums channel words as GRAY8 words: taps of one channel.
    const WordTaps taps = make_word_taps(params, radius, 1);
    const bool vectors = vector_rows(src_plane, dst_plane);
    if (__builtin_popcount(channel_mask) == 3)
      return launch_pixel_radius<3>(src, dst, radius, taps, sharpening, channel_mask, vectors,
                                    stream);
    return launch_pixel_radius<4>(src, dst, radius, taps, sharpening, channel_mask, vectors,
                                  stream);
  }
  const WordTaps taps = make_word_taps(params, radius, channels);
  switch (channels) {
  case 1:
    return launch_word_radius<1>(src, dst, radius, taps, sharpening, channel_mask, stream);
  case 2:
    return launch_word_radius<2>(src, dst, radius, taps, sharpening, channel_mask, stream);
  case 3:
    return launch_word_radius<3>(src, dst, radius, taps, sharpening, channel_mask, stream);
  }
  return cudaErrorInvalidValue;
}

template <typename Sample>
cudaError_t launch(const Plane &src, const Plane &dst, SampleFormat format,
                   const GaussParams &params, cudaStream_t stream) {
  const SourceView<Sample> source{src.data,         src.width,          src.height,
                                  src.row_pitch,    src.pixel_stride,   params.border.mode,
                                  static_cast<uint16_t>(border_sample(params.border, format))};
  const DestinationView<Sample> destination{dst.data, dst.width, dst.height, dst.row_pitch,
                                            dst.pixel_stride};
  const Sharpening sharpening{params.mode == GaussMode::Unsharp, params.amount_q8,
                              params.threshold};
  if constexpr (std::is_same_v<Sample, uint8_t>) {
    if (fits_word_kernel(src, dst, format, params))
      return launch_word(src, dst, source, destination, params, sharpening, stream);
  }
  // The strip kernel: one channel at a time.
  if (src.channels > 1)
    return filter_channels_cuda(src, dst, format, stream,
                                [&](const Plane &src_channel, const Plane &dst_channel) {
                                  return launch<Sample>(src_channel, dst_channel, format, params,
                                                        stream);
                                });
  const Values values{format.padding_bits, max_sample_value(format)};
  Taps taps{};
  std::copy(params.taps_x.begin(), params.taps_x.end(), taps.x);
  std::copy(params.taps_y.begin(), params.taps_y.end(), taps.y);
  taps.radius_x = int(params.taps_x.size()) / 2;
  taps.radius_y = int(params.taps_y.size()) / 2;
  if (StripShape<Sample, kWideTile>::ring_bytes(taps.radius_y) <= kWideTileMaxRingBytes)
    return launch_strips<Sample, kWideTile>(source, destination, taps, sharpening, values,
                                            stream);
  return launch_strips<Sample, kNarrowTile>(source, destination, taps, sharpening, values,
                                            stream);
}

}  // namespace

cudaError_t gauss_cuda(const Plane &src, const Plane &dst, SampleFormat format,
                       const GaussParams &params, cudaStream_t stream) {
  if (!is_valid(params, src, dst, format) || !are_samples_aligned(src, dst, format) ||
      !can_copy_pixels_whole(src, dst, format))
    return cudaErrorInvalidValue;
  switch (format.depth) {
  case SampleDepth::U8:
    return launch<uint8_t>(src, dst, format, params, stream);
  case SampleDepth::U16:
    return launch<uint16_t>(src, dst, format, params, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace cf
