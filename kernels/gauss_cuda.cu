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
// them, so samples with padding bits (P010) are filtered as their values; so does the
// group kernel.
//
// Up to 15 taps with symmetric vertical taps, pixels side by side in 4-byte aligned rows
// take the group kernel instead (below), whose lanes keep the window's rows in registers:
// the strip kernel spends over a hundred instructions per pixel staging and summing
// through shared memory, the group kernel a fraction of that. The strip kernel takes
// the rest: wider windows, strided channels, odd alignments, 16-bit pixels of 3 or more
// channels.
//
// Output regions (regions.h) cost their boxes' area: one launch per kMaxLaunchBoxes
// boxes over the boxes' tiles only (region_tiles.cuh). The group kernel takes them on
// its own tiles; the strip kernel's calls go to the region tile kernel (below), whose
// warps split a tile's rows rather than walk them, or where its shared memory would not
// fit (16-bit samples, ry > 36), to the strip kernel on the boxes' strips. Inside the
// boxes only the computed channels are written: channels not computed keep what dst
// holds, as on the CPU backend (filter_boxes_cpu), where a whole-plane call copies them.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda_views.cuh"
#include "gauss.h"
#include "packed_cuda.h"
#include "region_tiles.cuh"

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
// rows of halo summed again per band. At radii 2 to 7 (docs/tuning.md, "Gauss on small
// frames: shorter bands"), bands of 2 r rows, at least 8 for the strip kernel and 4 for
// the register kernels of then (the group kernel's forerunners, which walked their
// bands as it does), were faster than 16 rows (4 r for the register kernels); wider
// strip radii keep 16, not measured.
constexpr int strip_min_band_rows(int radius_y) { return std::clamp(2 * radius_y, 8, 16); }
constexpr int group_min_band_rows(int radius) { return std::max(4, 2 * radius); }
constexpr int kMaxGridY = 65535;
// A region's bands may be shorter than the whole plane's: boxes that hold less than a
// wave of tiles finish sooner spread over more blocks, halo rows and all.
constexpr int kRegionMinBandRows = 4;

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

// A thread's horizontal sums of one staged row: column c weighs in[c .. c + 2 rx] with
// taps.x, a window of kColumns samples sliding along `in`.
template <typename RowSum, typename Sample>
__device__ __forceinline__ ColumnSums<RowSum> horizontal_sums(const Sample *in,
                                                               const Taps &taps, int radius_x) {
  uint32_t window[kColumns];
#pragma unroll
  for (int c = 0; c < kColumns; ++c)
    window[c] = in[c];
  ColumnSums<RowSum> h = {};
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
  return h;
}

// A strip kernel's block: the strip's first column and the band's rows [y, end); a
// region's tile stores only the columns before x_end (its box's right edge) and the rows
// of its box.
struct StripBand {
  int x, y, end, x_end;
};

template <int kTileWidth, class Tiles, typename Sample>
__device__ __forceinline__ StripBand strip_band(const Tiles &tiles, int band_rows,
                                                const SourceView<Sample> &src,
                                                const DestinationView<Sample> &dst) {
  if constexpr (kRegionTiles<Tiles>) {
    const RegionTile tile = find_region_tile(tiles, blockIdx.x);
    const int band_y = tile.box.y + tile.row * band_rows;
    return {tile.box.x + tile.column * kTileWidth, band_y,
            min(band_y + band_rows, tile.box.y + tile.box.height), tile.box.x + tile.box.width};
  } else {
    const int band_y = blockIdx.y * band_rows;
    return {int(blockIdx.x * kTileWidth), band_y, min(band_y + band_rows, src.height),
            dst.width};
  }
}

// Multiplies-adds a thread's columns of ring rows [first_slot, end_slot) (ring_columns:
// its first column in ring row 0) with the vertical taps from first_tap on.
template <int kTileWidth, typename Sum, typename RowSum>
__device__ __forceinline__ void accumulate(Sum (&sums)[kColumns], const RowSum *ring_columns,
                                           const uint32_t *taps_y, int first_slot,
                                           int end_slot, int first_tap) {
  const RowSum *entries = ring_columns + first_slot * kTileWidth;
  const uint32_t *tap = taps_y + first_tap;
  for (int s = first_slot; s < end_slot; ++s, entries += kTileWidth, ++tap) {
    const ColumnSums<RowSum> h = *reinterpret_cast<const ColumnSums<RowSum> *>(entries);
    const Sum weight = *tap;
#pragma unroll
    for (int c = 0; c < kColumns; ++c)
      sums[c] += weight * h.v[c];
  }
}

// Output row y's columns x .. x + kColumns - 1 before x_end, from their window sums: the
// blur, or the unsharp mask of it.
template <typename Sample, typename Sum>
__device__ __forceinline__ void store_columns(const SourceView<Sample> &src,
                                              const DestinationView<Sample> &dst,
                                              const Sum (&sums)[kColumns], int x, int y,
                                              int x_end, const Sharpening &sharpening,
                                              const Values &values) {
  using Math = Arithmetic<Sample>;
#pragma unroll
  for (int c = 0; c < kColumns; ++c) {
    if (x + c < x_end) {
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

template <typename Sample, int kTileWidth, class Tiles>
__global__ void __launch_bounds__(StripShape<Sample, kTileWidth>::kThreads)
    gauss_kernel(SourceView<Sample> src, DestinationView<Sample> dst, Taps taps,
                 Sharpening sharpening, Values values, int band_rows, Tiles tiles) {
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
  const StripBand band = strip_band<kTileWidth>(tiles, band_rows, src, dst);
  const int strip_x = band.x, band_y = band.y, band_end = band.end, x_end = band.x_end;
  const int x = strip_x + kColumns * thread;  // the thread's first output column
  // Input rows band_y - ry + t for t in [0, input_rows).
  const int input_rows = band_end - band_y + 2 * radius_y;
  // Threads right of the image (or box) stage samples and wait at the barriers, nothing
  // else.
  const bool active = x < x_end;

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

  const RowSum *const ring_columns = ring + kColumns * thread;

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
      *reinterpret_cast<Sums *>(ring + slot * kTileWidth + kColumns * thread) =
          horizontal_sums<RowSum>(segments + (t & 1) * segment + kColumns * thread, taps,
                                  radius_x);

      // Vertical, once the ring holds input rows t - 2 ry .. t: output row
      // band_y + t - 2 ry. Its oldest row sits in the ring row after this one.
      if (t >= 2 * radius_y) {
        const int oldest = slot + 1 == window_rows ? 0 : slot + 1;
        Sum sums[kColumns] = {};
        accumulate<kTileWidth>(sums, ring_columns, taps.y, oldest, window_rows, 0);
        accumulate<kTileWidth>(sums, ring_columns, taps.y, 0, oldest, window_rows - oldest);
        store_columns(src, dst, sums, x, band_y + t - 2 * radius_y, x_end, sharpening, values);
      }
    }

    if (more)
      stage(segments + ((t + 1) & 1) * segment);
    slot = slot + 1 == window_rows ? 0 : slot + 1;
  }
}

// ---------------------------------------------------------------------------------
// The region tile kernel: the strip kernel's arithmetic for boxes (region_tiles.cuh).
// A strip kernel's block walks its band's rows one after another, 2 ry halo rows
// included, so a tile's time is that chain's length whatever its area, and boxes that
// fill a fraction of a wave would take most of the whole plane's time. Here the warps
// of a block split the rows instead: each stages and sums horizontally its share of the
// tile's input rows into shared memory (every row's sums kept, not a ring), then after
// one barrier sums its share of the output rows vertically. Tiles of 64 columns, at
// least kRegionTileMinRows rows, where all of it fits 48 KiB of shared memory (8-bit
// samples always; 16-bit ones up to ry = 36); else the strip kernel takes the boxes.

constexpr int kRegionTileWidth = 32 * kColumns;  // a warp's columns
constexpr int kRegionTileWarps = 8;
constexpr int kRegionTileMinRows = 16;
constexpr int kRegionTileMaxRows = 64;
constexpr size_t kRegionTileMaxShared = 48 * 1024;

template <typename Sample>
struct RegionTileShape {
  using RowSum = typename Arithmetic<Sample>::RowSum;
  static constexpr int kThreads = 32 * kRegionTileWarps;
  // Segment samples each lane stages per row, at the largest radius.
  static constexpr int kLoads = (kRegionTileWidth + 2 * kMaxRadius + 31) / 32;
  // The rows' horizontal sums, then a segment buffer per warp.
  CF_HOST_DEVICE static size_t sums_bytes(int radius_y, int rows) {
    return size_t(rows + 2 * radius_y) * kRegionTileWidth * sizeof(RowSum);
  }
  static size_t shared_bytes(int radius_x, int radius_y, int rows) {
    return sums_bytes(radius_y, rows) +
           size_t(kRegionTileWarps) * (kRegionTileWidth + 2 * radius_x) * sizeof(Sample);
  }
};

template <typename Sample>
__global__ void __launch_bounds__(RegionTileShape<Sample>::kThreads)
    gauss_region_tile_kernel(SourceView<Sample> src, DestinationView<Sample> dst, Taps taps,
                             Sharpening sharpening, Values values, int tile_rows,
                             RegionTable tiles) {
  using Shape = RegionTileShape<Sample>;
  using Math = Arithmetic<Sample>;
  using RowSum = typename Math::RowSum;
  using Sum = typename Math::Sum;
  using Sums = ColumnSums<RowSum>;
  constexpr int kLoads = Shape::kLoads;
  extern __shared__ uint4 shared_memory[];  // 16-byte aligned

  const int radius_x = taps.radius_x;
  const int radius_y = taps.radius_y;
  const int segment = kRegionTileWidth + 2 * radius_x;
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  RowSum *const sums = reinterpret_cast<RowSum *>(shared_memory);
  // sums_bytes is a multiple of 256 bytes: the segments start aligned.
  Sample *const staged = reinterpret_cast<Sample *>(
                             reinterpret_cast<uint8_t *>(shared_memory) +
                             Shape::sums_bytes(radius_y, tile_rows)) +
                         warp * segment;

  const RegionTile tile = find_region_tile(tiles, blockIdx.x);
  const int tile_x = tile.box.x + tile.column * kRegionTileWidth;
  const int tile_y = tile.box.y + tile.row * tile_rows;
  const int rows = min(tile_rows, tile.box.y + tile.box.height - tile_y);
  const int x_end = tile.box.x + tile.box.width;
  const int input_rows = rows + 2 * radius_y;  // from tile_y - ry on

  // The segment samples this lane stages, the same columns in every row.
  ptrdiff_t offsets[kLoads];
#pragma unroll
  for (int k = 0; k < kLoads; ++k) {
    const int position = k * 32 + lane;
    offsets[k] = position < segment ? src.column_offset(tile_x - radius_x + position) : -1;
  }
  for (int t = warp; t < input_rows; t += kRegionTileWarps) {
    const uint8_t *row = src.row(tile_y - radius_y + t);
    uint32_t loaded[kLoads];  // values
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      loaded[k] = src.at(row, offsets[k]) >> values.padding_bits;
    __syncwarp();  // every lane done with the previous row's segment
#pragma unroll
    for (int k = 0; k < kLoads; ++k) {
      const int position = k * 32 + lane;
      if (position < segment)
        staged[position] = static_cast<Sample>(loaded[k]);
    }
    __syncwarp();
    // Column tile_x + kColumns lane + c sums segment positions from kColumns lane + c.
    *reinterpret_cast<Sums *>(sums + t * kRegionTileWidth + kColumns * lane) =
        horizontal_sums<RowSum>(staged + kColumns * lane, taps, radius_x);
  }
  __syncthreads();

  const int x = tile_x + kColumns * lane;
  for (int o = warp; o < rows; o += kRegionTileWarps) {
    // Output row tile_y + o: input rows o .. o + 2 ry of the tile.
    Sum acc[kColumns] = {};
    const RowSum *entries = sums + o * kRegionTileWidth + kColumns * lane;
    for (int i = 0; i <= 2 * radius_y; ++i, entries += kRegionTileWidth) {
      const Sums h = *reinterpret_cast<const Sums *>(entries);
      const Sum weight = taps.y[i];
#pragma unroll
      for (int c = 0; c < kColumns; ++c)
        acc[c] += weight * h.v[c];
    }
    const int y = tile_y + o;
#pragma unroll
    for (int c = 0; c < kColumns; ++c) {
      if (x + c < x_end) {
        const uint32_t blur = uint32_t((acc[c] + Math::kHalf) >> Math::kShift);
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

// The region tile kernel where its shared memory fits (std::nullopt where not). Tiles
// of kRegionTileMinRows rows while the boxes hold at most a wave of them; taller ones,
// up to kRegionTileMaxRows, for larger boxes: fewer halo rows summed per output row.
template <typename Sample>
std::optional<cudaError_t> launch_region_tiles(const SourceView<Sample> &src,
                                               const DestinationView<Sample> &dst,
                                               const Taps &taps, const Sharpening &sharpening,
                                               const Values &values, const OutputRegion &region,
                                               cudaStream_t stream) {
  using Shape = RegionTileShape<Sample>;
  const auto shared_bytes = [&](int rows) {
    return Shape::shared_bytes(taps.radius_x, taps.radius_y, rows);
  };
  if (shared_bytes(kRegionTileMinRows) > kRegionTileMaxShared)
    return std::nullopt;
  const auto kernel = gauss_region_tile_kernel<Sample>;
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, Shape::kThreads,
                                            shared_bytes(kRegionTileMinRows), &resident);
      e != cudaSuccess)
    return e;
  int64_t column_rows = 0;
  for (int b = 0; b < region.count; ++b)
    column_rows +=
        int64_t(ceil_div(region.boxes[b].width, kRegionTileWidth)) * region.boxes[b].height;
  int rows = std::min(region_band_rows(column_rows, resident, kRegionTileMinRows),
                      kRegionTileMaxRows);
  while (rows > kRegionTileMinRows && shared_bytes(rows) > kRegionTileMaxShared)
    --rows;
  const size_t bytes = shared_bytes(rows);
  return launch_region_tables(
      region,
      [&](const Box &box) {
        return TileCount{ceil_div(box.width, kRegionTileWidth), ceil_div(box.height, rows)};
      },
      [&](const RegionTable &table, int tiles) {
        kernel<<<tiles, Shape::kThreads, bytes, stream>>>(src, dst, taps, sharpening, values,
                                                          rows, table);
        return cudaGetLastError();
      });
}

// ---------------------------------------------------------------------------------
// The group kernel: pixels side by side in 4-byte aligned rows (one sample, or packed
// channels of 1 to 4 bytes a pixel), radii up to kGroupMaxRadius, symmetric vertical
// taps: GRAY8, GRAY16 and P010, the planes of YUV formats, NV12's and P010's UV pairs,
// RGB and RGBA-like pixels, YUY2-like luma.
//
// Each lane owns a group of 4 pixels and walks down a band: per row one load of 4 to 16
// bytes, no shared memory, no barriers. The vertical sums come first: the ring holds the
// last 2 R + 1 rows as loaded (samples, not sums, so 15 rows of RGBA take 60 registers
// where a ring of row sums would take 180), and each output row sums them per computed
// sample, the rows at equal distance from the centre added before their multiply. The
// horizontal sums then run over those vertical sums, a neighbour's taken from the lanes
// beside (warp shuffles); the lanes at a warp's edges only feed their neighbours, so
// strips overlap by those halo lanes. The sums are the strip kernel's types
// (Arithmetic): a vertical sum is below 2^(B + n), a row of them summed with the
// horizontal taps plus the rounding term below 2^(2B + n). The ring moves down one row a
// step (register moves: a loop unrolled 2 R + 1 times, which fixed ring slots need,
// would outgrow the instruction cache); the row after it is loaded at the top of the
// step and lands while the step computes. The ring's centre row gives sharpening its
// samples and the channels not computed their bytes.

constexpr int kGroupPixels = 4;
constexpr int kGroupMaxRadius = 7;
constexpr int kGroupWarps = 4;  // per block, each on its own strip

// Lanes each side whose pixels a group's window reaches.
constexpr int group_halo(int radius) { return (radius + kGroupPixels - 1) / kGroupPixels; }

struct GroupTaps {
  uint32_t x[2 * kGroupMaxRadius + 1];  // centred on x[kGroupMaxRadius], zero beyond R
  uint32_t y[kGroupMaxRadius + 1];      // the vertical tap at distance k from the centre
};

// Pixels of C samples of type Sample, N of them computed; a group is kWords words.
template <typename Sample, int C, int N>
struct GroupLayout {
  static constexpr int kSampleBytes = int(sizeof(Sample));
  static constexpr int kPixelBytes = C * kSampleBytes;
  static_assert(kPixelBytes <= 4, "pixels of at most 4 bytes");
  static constexpr int kWords = kGroupPixels * kPixelBytes / 4;
  using Vector = std::conditional_t<kWords == 2, uint2, uint4>;
  static constexpr bool kVectors = kWords == 2 || kWords == 4;  // else words alone
  // Computed channels chosen at run time (some not computed) sit at a run-time byte
  // of their pixel, which stays in one word: pixels of 1, 2 or 4 bytes.
  static_assert(N == C || 4 % kPixelBytes == 0, "pixels that do not straddle words");

  // Byte of the group holding sample (pixel i, computed channel n), the n-th computed
  // channel at byte `offset` of its pixel; its word, known at compile time.
  __device__ static int byte(int i, int n, int offset) {
    return kPixelBytes * i + (N == C ? n * kSampleBytes : offset);
  }
  static constexpr int word(int i, int n) {
    return N == C ? (kPixelBytes * i + n * kSampleBytes) / 4 : kPixelBytes * i / 4;
  }
  // Pixels whose samples sit at distinct bytes of their words: with channels chosen at
  // run time those repeat every word, and each kept once (registers, not recomputed).
  static constexpr int kSelectorPixels = N == C ? kGroupPixels : 4 / kPixelBytes;
};

// Byte permutations (__byte_perm) that take the sample at byte `offset` of a word to
// the bottom of a word of zeros (extract), and that put a sample's bytes back at that
// offset, the word's other bytes kept (insert).
template <int kSampleBytes>
__device__ inline uint32_t extract_selector(int offset) {
  return kSampleBytes == 1 ? 0x4440u | uint32_t(offset)
                           : 0x4400u | uint32_t(offset + 1) << 4 | uint32_t(offset);
}
template <int kSampleBytes>
__device__ inline uint32_t insert_selector(int offset) {
  uint32_t selector = 0x3210u;
#pragma unroll
  for (int b = 0; b < kSampleBytes; ++b)
    selector = (selector & ~(0xfu << (4 * (offset + b)))) | uint32_t(4 + b) << (4 * (offset + b));
  return selector;
}

// Where a lane reads its group of pixels x .. x + 3, row after row: inside, its words
// (one vector where rows are aligned to it); otherwise each pixel with the border, the
// constant where it stands.
template <typename Sample, int C, int N, bool kInside>
struct GroupSource {
  using Layout = GroupLayout<Sample, C, N>;
  static constexpr int kWords = Layout::kWords;
  static constexpr int kPixelBytes = Layout::kPixelBytes;

  const SourceView<Sample> &src;
  int x;
  bool vectors;
  int offsets[kGroupPixels];  // byte offsets in a row of the pixels standing for x ..
  bool whole;                 // those are x .. x + 3 themselves
  uint32_t constant_word;     // the border constant in every sample of a word

  __device__ GroupSource(const SourceView<Sample> &view, int first_pixel, bool aligned)
      : src(view), x(first_pixel), vectors(aligned) {
    constant_word =
        uint32_t(src.constant) * (Layout::kSampleBytes == 1 ? 0x01010101u : 0x10001u);
    whole = true;
#pragma unroll
    for (int i = 0; i < kGroupPixels; ++i) {
      const int column = border_index(x + i, src.width, src.mode);
      offsets[i] = column < 0 ? -1 : kPixelBytes * column;
      whole = whole && column == x + i;
    }
  }

  __device__ void load_whole(const uint8_t *p, uint32_t (&words)[kWords]) const {
    if constexpr (Layout::kVectors) {
      if (vectors) {
        using Vector = typename Layout::Vector;
        const Vector v = __ldg(reinterpret_cast<const Vector *>(p));
        const uint32_t *const parts = reinterpret_cast<const uint32_t *>(&v);
#pragma unroll
        for (int w = 0; w < kWords; ++w)
          words[w] = parts[w];
        return;
      }
    }
#pragma unroll
    for (int w = 0; w < kWords; ++w)
      words[w] = __ldg(reinterpret_cast<const uint32_t *>(p) + w);
  }

  // The group of image row y (inside: one the band reads).
  __device__ void load(int y, uint32_t (&words)[kWords]) const {
    if constexpr (kInside) {
      load_whole(src.data + y * src.row_pitch + kPixelBytes * x, words);
      return;
    }
    const int row = border_index(y, src.height, src.mode);
    if (row < 0) {
#pragma unroll
      for (int w = 0; w < kWords; ++w)
        words[w] = constant_word;
      return;
    }
    const uint8_t *const start = src.data + row * src.row_pitch;
    if (whole) {
      load_whole(start + kPixelBytes * x, words);
      return;
    }
#pragma unroll
    for (int w = 0; w < kWords; ++w)
      words[w] = 0;
#pragma unroll
    for (int i = 0; i < kGroupPixels; ++i) {
      if constexpr (4 % kPixelBytes == 0) {
        // A pixel is one load, within one word.
        using Pixel = std::conditional_t<
            kPixelBytes == 4, uint32_t, std::conditional_t<kPixelBytes == 2, uint16_t, uint8_t>>;
        const uint32_t pixel =
            offsets[i] < 0 ? constant_word & (0xffffffffu >> (32 - 8 * kPixelBytes))
                           : __ldg(reinterpret_cast<const Pixel *>(start + offsets[i]));
        words[i * kPixelBytes / 4] |= pixel << (8 * (i * kPixelBytes % 4));
      } else {
#pragma unroll
        for (int b = 0; b < kPixelBytes; b += Layout::kSampleBytes) {
          // Samples never straddle words.
          const int at = kPixelBytes * i + b;
          const uint32_t sample = offsets[i] < 0 ? src.constant : src.at(start, offsets[i] + b);
          words[at / 4] |= sample << (8 * (at % 4));
        }
      }
    }
  }
};

// The byte permutations of sample (pixel i, computed channel n) in its word, at
// [n][i % kSelectorPixels].
template <class Layout, int N>
__device__ __forceinline__ void group_selectors(
    uint32_t channel_offsets, uint32_t (&extract)[N][Layout::kSelectorPixels],
    uint32_t (&insert)[N][Layout::kSelectorPixels]) {
#pragma unroll
  for (int n = 0; n < N; ++n)
#pragma unroll
    for (int i = 0; i < Layout::kSelectorPixels; ++i) {
      const int at = Layout::byte(i, n, int((channel_offsets >> (8 * n)) & 0xffu)) % 4;
      extract[n][i] = extract_selector<Layout::kSampleBytes>(at);
      insert[n][i] = insert_selector<Layout::kSampleBytes>(at);
    }
}

// line[R + i] holds the vertical sum of the lane's pixel x + i: line's R entries either
// side, those of pixels x - R .. x - 1 and x + 4 .. x + 3 + R, from the lanes around.
template <int R, typename RowSum>
__device__ __forceinline__ void line_halo(RowSum (&line)[kGroupPixels + 2 * R]) {
#pragma unroll
  for (int d = 1; d <= R; ++d) {
    // Pixel x - d is pixel 4 L - d of the lane L to the left, x + 3 + d pixel
    // d + 3 - 4 L of the lane L to the right, L = ceil(d / 4). Lanes without such
    // a neighbour get their own sums: they only feed others.
    const int lanes = group_halo(d);
    line[R - d] = __shfl_up_sync(0xffffffffu, line[R + kGroupPixels * lanes - d], lanes);
    line[R + kGroupPixels - 1 + d] =
        __shfl_down_sync(0xffffffffu, line[R + d + kGroupPixels - 1 - kGroupPixels * lanes],
                         lanes);
  }
}

// A storing lane's group, its words in `result`, into the row at `out` (pixel x): as
// group_strip says.
template <typename Sample, int C, int N, bool kInside, bool kRegion>
__device__ __forceinline__ void store_group(
    const uint32_t (&result)[GroupLayout<Sample, C, N>::kWords], uint8_t *out, int x,
    const DestinationView<Sample> &dst, bool vectors, uint32_t channel_offsets, int clip_x0,
    int clip_x1) {
  using Layout = GroupLayout<Sample, C, N>;
  constexpr int kWords = Layout::kWords;
  constexpr int kPixelBytes = Layout::kPixelBytes;
  constexpr int kSampleBytes = Layout::kSampleBytes;
  const bool whole_group = kRegion ? N == C && x >= clip_x0 && x + kGroupPixels <= clip_x1
                                   : kInside || x + kGroupPixels <= dst.width;
  if (Layout::kVectors && vectors && whole_group) {
    using Vector = typename Layout::Vector;
    Vector v;
    uint32_t *const parts = reinterpret_cast<uint32_t *>(&v);
#pragma unroll
    for (int w = 0; w < kWords; ++w)
      parts[w] = result[w];
    *reinterpret_cast<Vector *>(out) = v;
  } else if (whole_group) {
#pragma unroll
    for (int w = 0; w < kWords; ++w)
      reinterpret_cast<uint32_t *>(out)[w] = result[w];
  } else if constexpr (kRegion) {
#pragma unroll
    for (int i = 0; i < kGroupPixels; ++i) {
      if (x + i < clip_x0 || x + i >= clip_x1)
        continue;
#pragma unroll
      for (int n = 0; n < N; ++n) {
        const int at = Layout::byte(i, n, int((channel_offsets >> (8 * n)) & 0xffu));
        const uint32_t sample = result[at / 4] >> (8 * (at % 4));
        if constexpr (kSampleBytes == 1)
          out[at] = uint8_t(sample);
        else
          *reinterpret_cast<uint16_t *>(out + at) = uint16_t(sample);
      }
    }
  } else {
    // The row's last group, partly outside: its pixels inside (pixels of 3 bytes
    // sample by sample).
#pragma unroll
    for (int i = 0; i < kGroupPixels; ++i) {
      if (x + i >= dst.width)
        break;
      if constexpr (kPixelBytes == 4) {
        reinterpret_cast<uint32_t *>(out)[i] = result[i];
      } else if constexpr (kPixelBytes == 2) {
        reinterpret_cast<uint16_t *>(out)[i] = uint16_t(result[i / 2] >> (16 * (i % 2)));
      } else {
#pragma unroll
        for (int b = 0; b < kPixelBytes; ++b) {
          const int at = kPixelBytes * i + b;
          out[at] = uint8_t(result[at / 4] >> (8 * (at % 4)));
        }
      }
    }
  }
}

// kRegion: the lane stores only pixels clip_x0 .. clip_x1 - 1 of the row, and of those
// only the computed samples unless every channel is (the other channels stay as dst
// holds them). Samples one by one, never a read-modify-write of a word: a neighbouring
// box's block may be storing into the same word.
template <typename Sample, int C, int N, int R, bool kInside, bool kRegion>
__device__ inline void group_strip(const SourceView<Sample> &src,
                                   const DestinationView<Sample> &dst, const GroupTaps &taps,
                                   const Sharpening &sharpening, const Values &values,
                                   uint32_t channel_offsets, bool vectors, int first_group,
                                   int band_y, int rows, int clip_x0, int clip_x1) {
  using Layout = GroupLayout<Sample, C, N>;
  using Math = Arithmetic<Sample>;
  using RowSum = typename Math::RowSum;
  using Sum = typename Math::Sum;
  constexpr int kWords = Layout::kWords;
  constexpr int kPixelBytes = Layout::kPixelBytes;
  constexpr int kSampleBytes = Layout::kSampleBytes;
  constexpr int kWindow = 2 * R + 1;
  constexpr int kHalo = group_halo(R);

  const int lane = threadIdx.x % 32;
  const int x = kGroupPixels * (first_group + lane);
  GroupSource<Sample, C, N, kInside> source(src, x, vectors);
  const bool stores = lane >= kHalo && lane < 32 - kHalo &&
                     (kRegion ? x < clip_x1 && x + kGroupPixels > clip_x0 : x < dst.width);

  // The byte permutations of sample (pixel i, computed channel n) in its word, at
  // [n][i % kSelectorPixels].
  constexpr int kSelectorPixels = Layout::kSelectorPixels;
  uint32_t extract[N][kSelectorPixels];
  uint32_t insert[N][kSelectorPixels];
  group_selectors<Layout, N>(channel_offsets, extract, insert);
  const auto value_of = [&](const uint32_t(&words)[kWords], int n, int i) -> uint32_t {
    const uint32_t sample =
        __byte_perm(words[Layout::word(i, n)], 0, extract[n][i % kSelectorPixels]);
    if constexpr (kSampleBytes == 1)
      return sample;
    return sample >> values.padding_bits;
  };

  // ring[k]: input row band_y + j - R + k at output row j.
  uint32_t ring[kWindow][kWords];
  uint32_t incoming[kWords];
#pragma unroll
  for (int k = 0; k < 2 * R; ++k)
    source.load(band_y - R + k, ring[k]);
  source.load(band_y + R, incoming);
  uint8_t *out = dst.data + band_y * dst.row_pitch + kPixelBytes * x;

  for (int j = 0; j < rows; ++j) {
#pragma unroll
    for (int w = 0; w < kWords; ++w)
      ring[2 * R][w] = incoming[w];
    if (j + 1 < rows)
      source.load(band_y + j + R + 1, incoming);  // lands while this row computes

    uint32_t result[kWords];
#pragma unroll
    for (int w = 0; w < kWords; ++w)
      result[w] = ring[R][w];
#pragma unroll
    for (int n = 0; n < N; ++n) {
      // Vertical sums of the group's pixels, then of the R pixels each side.
      RowSum line[kGroupPixels + 2 * R];  // line[R + i]: pixel x + i
#pragma unroll
      for (int i = 0; i < kGroupPixels; ++i) {
        RowSum sum = RowSum(taps.y[0]) * value_of(ring[R], n, i);
#pragma unroll
        for (int k = 1; k <= R; ++k)
          sum += RowSum(taps.y[k]) * (value_of(ring[R - k], n, i) + value_of(ring[R + k], n, i));
        line[R + i] = sum;
      }
      line_halo<R>(line);
#pragma unroll
      for (int i = 0; i < kGroupPixels; ++i) {
        Sum sum = Math::kHalf;
#pragma unroll
        for (int k = 0; k < kWindow; ++k)
          sum += Sum(taps.x[kGroupMaxRadius - R + k]) * line[i + k];
        uint32_t out_value = uint32_t(sum >> Math::kShift);
        if (sharpening.enabled)
          out_value = sharpen(value_of(ring[R], n, i), out_value, sharpening, values.max_value);
        if constexpr (kSampleBytes == 2)
          out_value <<= values.padding_bits;
        uint32_t &word = result[Layout::word(i, n)];
        word = __byte_perm(word, out_value, insert[n][i % kSelectorPixels]);
      }
    }

    if (stores)
      store_group<Sample, C, N, kInside, kRegion>(result, out, x, dst, vectors, channel_offsets,
                                                  clip_x0, clip_x1);
    out += dst.row_pitch;
#pragma unroll
    for (int k = 0; k < 2 * R; ++k)
#pragma unroll
      for (int w = 0; w < kWords; ++w)
        ring[k][w] = ring[k + 1][w];
  }
}

// A region's tile is a block's kGroupWarps strips, from the group holding its box's
// first column (groups stay aligned for the vector accesses), and a band of its rows.
constexpr int group_strip_groups(int radius) { return 32 - 2 * group_halo(radius); }

template <typename Sample, int C, int N, int R, class Tiles>
__global__ void __launch_bounds__(32 * kGroupWarps)
    gauss_group_kernel(SourceView<Sample> src, DestinationView<Sample> dst, GroupTaps taps,
                       Sharpening sharpening, Values values, uint32_t channel_offsets,
                       bool vectors, int band_rows, Tiles tiles) {
  constexpr int kHalo = group_halo(R);
  constexpr int kStripGroups = group_strip_groups(R);  // the groups a strip stores
  constexpr bool kRegion = kRegionTiles<Tiles>;
  // Groups from origin_group on (groups of them), rows band_y .. band_y + rows - 1,
  // pixels stored clip_x0 .. clip_x1 - 1.
  int strip, origin_group, groups, band_y, rows, clip_x0, clip_x1;
  if constexpr (kRegion) {
    const RegionTile tile = find_region_tile(tiles, blockIdx.x);
    clip_x0 = tile.box.x;
    clip_x1 = tile.box.x + tile.box.width;
    origin_group = clip_x0 / kGroupPixels;
    groups = (clip_x1 + kGroupPixels - 1) / kGroupPixels - origin_group;
    strip = tile.column * kGroupWarps + threadIdx.x / 32;
    band_y = tile.box.y + tile.row * band_rows;
    rows = min(band_rows, tile.box.y + tile.box.height - band_y);
  } else {
    clip_x0 = 0;
    clip_x1 = dst.width;
    origin_group = 0;
    groups = (src.width + kGroupPixels - 1) / kGroupPixels;
    strip = blockIdx.x * kGroupWarps + threadIdx.x / 32;
    band_y = blockIdx.y * band_rows;
    rows = min(band_rows, src.height - band_y);
  }
  if (strip * kStripGroups >= groups)
    return;  // the whole warp: no shuffle misses a lane
  const int first_group = origin_group + strip * kStripGroups - kHalo;
  // Whether every group the warp loads, in every row the band reads, lies inside.
  const bool inside = first_group >= 0 && kGroupPixels * (first_group + 32) <= src.width &&
                      band_y - R >= 0 && band_y + rows + R <= src.height;
  if (inside)
    group_strip<Sample, C, N, R, true, kRegion>(src, dst, taps, sharpening, values,
                                                channel_offsets, vectors, first_group, band_y,
                                                rows, clip_x0, clip_x1);
  else
    group_strip<Sample, C, N, R, false, kRegion>(src, dst, taps, sharpening, values,
                                                 channel_offsets, vectors, first_group, band_y,
                                                 rows, clip_x0, clip_x1);
}

// ---------------------------------------------------------------------------------
// Launches.

// The rows of each band where `columns` blocks span the frame: as many bands as one wave
// of `resident` blocks holds, and never more. Taller bands would leave block slots idle
// (a block walks its band serially), shorter ones recompute more halo rows for nothing,
// and blocks past the wave would run after it (Nsight Compute put such a partial wave at
// up to half of sigma 10's time). Where the frame is too small to fill the wave, bands
// of min_rows finish first, halo and all.
int one_wave_band_rows(int height, int columns, int resident, int min_rows) {
  const int bands = std::max(1, resident / columns);
  return std::max({ceil_div(height, bands), min_rows, ceil_div(height, kMaxGridY)});
}

template <typename Sample, int kTileWidth>
cudaError_t launch_strips(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                          const Taps &taps, const Sharpening &sharpening, const Values &values,
                          const OutputRegion &region, cudaStream_t stream) {
  using Shape = StripShape<Sample, kTileWidth>;
  const size_t shared_bytes = Shape::shared_bytes(taps.radius_x, taps.radius_y);
  if (region.whole_plane) {
    const auto kernel = gauss_kernel<Sample, kTileWidth, WholePlaneTiles>;
    int resident = 0;
    if (const cudaError_t e = resident_blocks(kernel, Shape::kThreads, shared_bytes, &resident);
        e != cudaSuccess)
      return e;
    const int strips = ceil_div(src.width, kTileWidth);
    const int band_rows =
        one_wave_band_rows(src.height, strips, resident, strip_min_band_rows(taps.radius_y));
    const dim3 grid(strips, ceil_div(src.height, band_rows));
    kernel<<<grid, Shape::kThreads, shared_bytes, stream>>>(src, dst, taps, sharpening, values,
                                                            band_rows, WholePlaneTiles{});
    return cudaGetLastError();
  }

  const auto kernel = gauss_kernel<Sample, kTileWidth, RegionTable>;
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, Shape::kThreads, shared_bytes, &resident);
      e != cudaSuccess)
    return e;
  // Bands as the whole plane's, for one wave over the boxes' strips; boxes much smaller
  // than the plane get shorter bands than it would, down to region_min_band_rows.
  int64_t column_rows = 0;
  for (int b = 0; b < region.count; ++b)
    column_rows += int64_t(ceil_div(region.boxes[b].width, kTileWidth)) * region.boxes[b].height;
  const int band_rows = region_band_rows(column_rows, resident, kRegionMinBandRows);
  return launch_region_tables(
      region,
      [&](const Box &box) {
        return TileCount{ceil_div(box.width, kTileWidth), ceil_div(box.height, band_rows)};
      },
      [&](const RegionTable &table, int tiles) {
        kernel<<<tiles, Shape::kThreads, shared_bytes, stream>>>(src, dst, taps, sharpening,
                                                                 values, band_rows, table);
        return cudaGetLastError();
      });
}

// The layouts the group kernel takes: pixels of C channels, N of them computed.
template <int C, int N>
using GroupChannels = std::pair<std::integral_constant<int, C>, std::integral_constant<int, N>>;

// launch(GroupChannels<C, N>{}) for the plane's layout where the group kernel takes it,
// else std::nullopt: 8-bit pixels of 1 to 4 channels (of 2 channels 1 or 2 computed,
// of 3 all, of 4 three or four), 16-bit ones of 1 channel or 2 both computed. The
// layouts not taken are rare enough to leave to the strip kernel rather than compile
// the kernel for them.
template <typename Sample, class Launch>
std::optional<cudaError_t> with_group_channels(const Plane &plane, const Launch &launch) {
  const int computed = __builtin_popcount(plane.channel_mask);
  if constexpr (sizeof(Sample) == 2) {
    if (plane.channels == 1)
      return launch(GroupChannels<1, 1>{});
    if (plane.channels == 2 && computed == 2)
      return launch(GroupChannels<2, 2>{});
  } else {
    switch (plane.channels * 8 + computed) {
    case 1 * 8 + 1:
      return launch(GroupChannels<1, 1>{});
    case 2 * 8 + 1:
      return launch(GroupChannels<2, 1>{});
    case 2 * 8 + 2:
      return launch(GroupChannels<2, 2>{});
    case 3 * 8 + 3:
      return launch(GroupChannels<3, 3>{});
    case 4 * 8 + 3:
      return launch(GroupChannels<4, 3>{});
    case 4 * 8 + 4:
      return launch(GroupChannels<4, 4>{});
    }
  }
  return std::nullopt;
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

// The 2 radius + 1 taps centred on `taps`, the rest zero.
std::vector<uint32_t> padded_taps(const std::vector<int32_t> &taps, int radius) {
  std::vector<uint32_t> padded(2 * radius + 1, 0);
  std::copy(taps.begin(), taps.end(), padded.begin() + (radius - int(taps.size()) / 2));
  return padded;
}

template <typename Sample, int C, int N, int R>
cudaError_t launch_group_strips(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                                const GroupTaps &taps, const Sharpening &sharpening,
                                const Values &values, uint32_t channel_offsets, bool vectors,
                                const OutputRegion &region, cudaStream_t stream) {
  constexpr int kThreads = 32 * kGroupWarps;
  // A warp a strip, kGroupWarps strips a block: the block columns over groups first ..
  // end - 1.
  const auto block_columns = [](int first, int end) {
    return ceil_div(ceil_div(end - first, group_strip_groups(R)), kGroupWarps);
  };
  if (region.whole_plane) {
    const auto kernel = gauss_group_kernel<Sample, C, N, R, WholePlaneTiles>;
    int resident = 0;
    if (const cudaError_t e = resident_blocks(kernel, kThreads, 0, &resident); e != cudaSuccess)
      return e;
    const int columns = block_columns(0, ceil_div(src.width, kGroupPixels));
    const int band_rows =
        one_wave_band_rows(src.height, columns, resident, group_min_band_rows(R));
    const dim3 grid(columns, ceil_div(src.height, band_rows));
    kernel<<<grid, kThreads, 0, stream>>>(src, dst, taps, sharpening, values, channel_offsets,
                                          vectors, band_rows, WholePlaneTiles{});
    return cudaGetLastError();
  }

  const auto kernel = gauss_group_kernel<Sample, C, N, R, RegionTable>;
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, kThreads, 0, &resident); e != cudaSuccess)
    return e;
  const auto box_columns = [&](const Box &box) {
    return block_columns(box.x / kGroupPixels, ceil_div(box.x + box.width, kGroupPixels));
  };
  int64_t column_rows = 0;
  for (int b = 0; b < region.count; ++b)
    column_rows += int64_t(box_columns(region.boxes[b])) * region.boxes[b].height;
  const int band_rows = region_band_rows(column_rows, resident, group_min_band_rows(R));
  return launch_region_tables(
      region,
      [&](const Box &box) {
        return TileCount{box_columns(box), ceil_div(box.height, band_rows)};
      },
      [&](const RegionTable &table, int tiles) {
        kernel<<<tiles, kThreads, 0, stream>>>(src, dst, taps, sharpening, values,
                                               channel_offsets, vectors, band_rows, table);
        return cudaGetLastError();
      });
}

// The group kernel where it takes the call (std::nullopt where not): pixels side by
// side in 4-byte aligned rows, a layout with_group_channels takes, both radii up to
// kGroupMaxRadius, symmetric vertical taps.
template <typename Sample>
std::optional<cudaError_t> launch_group(const Plane &src_plane, const Plane &dst_plane,
                                        const SourceView<Sample> &src,
                                        const DestinationView<Sample> &dst,
                                        const GaussParams &params, const Sharpening &sharpening,
                                        const Values &values, cudaStream_t stream) {
  const int pixel_bytes = src_plane.channels * int(sizeof(Sample));
  const auto group_rows = [&](const Plane &plane) {
    return plane.pixel_stride == pixel_bytes &&
           (reinterpret_cast<uintptr_t>(plane.data) | uintptr_t(plane.row_pitch)) % 4 == 0;
  };
  const std::vector<int32_t> &taps_y = params.taps_y;
  const int radius = int(std::max(params.taps_x.size(), params.taps_y.size())) / 2;
  if (!group_rows(src_plane) || !group_rows(dst_plane) || radius > kGroupMaxRadius ||
      !std::equal(taps_y.begin(), taps_y.end(), taps_y.rbegin()))
    return std::nullopt;

  // A single tap (radius 0) takes the smallest kernel, zero taps around it.
  const int kernel_radius = std::max(1, radius);
  const std::vector<uint32_t> x = padded_taps(params.taps_x, kernel_radius);
  const std::vector<uint32_t> y = padded_taps(params.taps_y, kernel_radius);
  GroupTaps taps{};
  std::copy(x.begin(), x.end(), taps.x + kGroupMaxRadius - kernel_radius);
  std::copy(y.begin() + kernel_radius, y.end(), taps.y);
  uint32_t channel_offsets = 0;  // byte n: the n-th computed channel's in a pixel
  for (int c = 0, n = 0; c < src_plane.channels; ++c)
    if ((src_plane.channel_mask >> c) & 1u)
      channel_offsets |= uint32_t(c * int(sizeof(Sample))) << (8 * n++);
  const uintptr_t group_bytes = kGroupPixels * pixel_bytes;
  const bool vectors = (reinterpret_cast<uintptr_t>(src_plane.data) |
                        uintptr_t(src_plane.row_pitch) |
                        reinterpret_cast<uintptr_t>(dst_plane.data) |
                        uintptr_t(dst_plane.row_pitch)) % group_bytes == 0;
  return with_group_channels<Sample>(src_plane, [&](auto channels) {
    using Channels = decltype(channels);
    return with_radius<1, kGroupMaxRadius>(kernel_radius, [&](auto r) {
      return launch_group_strips<Sample, Channels::first_type::value,
                                 Channels::second_type::value, decltype(r)::value>(
          src, dst, taps, sharpening, values, channel_offsets, vectors, params.region, stream);
    });
  });
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
  const Values values{format.padding_bits, max_sample_value(format)};
  if (const std::optional<cudaError_t> launched = launch_group(
          src, dst, source, destination, params, sharpening, values, stream))
    return *launched;
  // The strip kernel: one channel at a time.
  if (src.channels > 1 && !params.region.whole_plane)
    return filter_region_channels_cuda(src, dst, format,
                                       [&](const Plane &src_channel, const Plane &dst_channel) {
                                         return launch<Sample>(src_channel, dst_channel, format,
                                                               params, stream);
                                       });
  if (src.channels > 1)
    return filter_channels_cuda(src, dst, format, stream,
                                [&](const Plane &src_channel, const Plane &dst_channel) {
                                  return launch<Sample>(src_channel, dst_channel, format, params,
                                                        stream);
                                });
  Taps taps{};
  std::copy(params.taps_x.begin(), params.taps_x.end(), taps.x);
  std::copy(params.taps_y.begin(), params.taps_y.end(), taps.y);
  taps.radius_x = int(params.taps_x.size()) / 2;
  taps.radius_y = int(params.taps_y.size()) / 2;
  if (!params.region.whole_plane)
    if (const std::optional<cudaError_t> launched = launch_region_tiles<Sample>(
            source, destination, taps, sharpening, values, params.region, stream))
      return *launched;
  if (StripShape<Sample, kWideTile>::ring_bytes(taps.radius_y) <= kWideTileMaxRingBytes)
    return launch_strips<Sample, kWideTile>(source, destination, taps, sharpening, values,
                                            params.region, stream);
  return launch_strips<Sample, kNarrowTile>(source, destination, taps, sharpening, values,
                                            params.region, stream);
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
