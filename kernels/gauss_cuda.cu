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
// matter and the result is the CPU backend's, bit for bit.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cuda_views.cuh"
#include "gauss.h"

namespace cf {
namespace {

constexpr int kMaxRadius = kGaussMaxKernelSize / 2;

// Adjacent output columns per thread. The horizontal sum slides a window over the
// segment, so one shared-memory load and one tap load serve kColumns multiply-adds;
// a thread reads its ring entries of a row as one vector. Two keeps the segment reads
// free of bank conflicts for both sample sizes (a warp reads 32 consecutive 16-bit
// samples, or 64 consecutive bytes).
constexpr int kColumns = 2;

// Bands are at least this many rows: each band recomputes the horizontal sums of 2 ry
// rows of halo.
constexpr int kMinBandRows = 16;
constexpr int kMaxGridY = 65535;

// Strip widths: the ring takes (2 ry + 1) * kTileWidth * sizeof(row sum) bytes of shared
// memory. Wide strips while their ring fits 32 KiB (8-bit samples: ry <= 31, 16-bit:
// ry <= 15), narrow ones above. Every 8-bit block then stays under 33 KiB; 16-bit blocks
// need more than the 48 KiB available without an opt-in from ry = 47 on, up to 62,688
// bytes at ry = 60 (every GPU from sm_75 on grants 64 KiB).
constexpr int kWideTile = 128;
constexpr int kNarrowTile = 64;
constexpr size_t kWideTileMaxRingBytes = 32 * 1024;
constexpr size_t kDefaultSharedBytes = 48 * 1024;

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
  static constexpr uint32_t kMax = std::numeric_limits<Sample>::max();
};

// out = |d| < threshold ? s : clamp(s + floor((amount_q8 * d + 128) / 256), 0, max)
// with d = s - blur. The floor division by 256 is an arithmetic right shift of a signed
// 64-bit value (nvcc, GCC and Clang shift signed values arithmetically, and C++20
// requires it), which rounds towards minus infinity for negative details too.
__device__ inline uint32_t sharpen(uint32_t sample, uint32_t blur, const Sharpening &sharpening,
                                   uint32_t max_value) {
  const int32_t detail = int32_t(sample) - int32_t(blur);
  const uint32_t magnitude = detail < 0 ? uint32_t(-detail) : uint32_t(detail);
  if (magnitude < sharpening.threshold)
    return sample;
  const int64_t delta = (int64_t(sharpening.amount_q8) * detail + 128) >> 8;
  const int64_t value = int64_t(sample) + delta;
  return value < 0 ? 0u : value > int64_t(max_value) ? max_value : uint32_t(value);
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
                 Sharpening sharpening, int band_rows) {
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
  uint32_t staged[kLoads];
  auto fetch = [&](int t) {
    const uint8_t *row = src.row(band_y - radius_y + t);
#pragma unroll
    for (int k = 0; k < kLoads; ++k)
      staged[k] = src.at(row, offsets[k]);
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
            dst.store(x + c, y,
                      sharpening.enabled
                          ? sharpen(src.inside(x + c, y), blur, sharpening, Math::kMax)
                          : blur);
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
// Launches.

template <typename Sample, int kTileWidth>
cudaError_t launch_strips(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                          const Taps &taps, const Sharpening &sharpening, cudaStream_t stream) {
  using Shape = StripShape<Sample, kTileWidth>;
  const auto kernel = gauss_kernel<Sample, kTileWidth>;
  const size_t shared_bytes = Shape::shared_bytes(taps.radius_x, taps.radius_y);
  if (shared_bytes > kDefaultSharedBytes) {
    // Always the kernel's largest need, so that host threads launching it with
    // different radii never lower the limit under one another's launch.
    if (const cudaError_t e = cudaFuncSetAttribute(
            kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
            int(Shape::shared_bytes(kMaxRadius, kMaxRadius)));
        e != cudaSuccess)
      return e;
  }

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
      {ceil_div(src.height, bands), kMinBandRows, ceil_div(src.height, kMaxGridY)});
  const dim3 grid(strips, ceil_div(src.height, band_rows));
  kernel<<<grid, Shape::kThreads, shared_bytes, stream>>>(src, dst, taps, sharpening, band_rows);
  return cudaGetLastError();
}

template <typename Sample>
cudaError_t launch(const Plane &src, const Plane &dst, const GaussParams &params,
                   cudaStream_t stream) {
  const SourceView<Sample> source{
      src.data, src.width, src.height, src.row_pitch, src.pixel_stride, params.border.mode,
      static_cast<uint16_t>(std::min<uint32_t>(params.border.constant,
                                               std::numeric_limits<Sample>::max()))};
  const DestinationView<Sample> destination{dst.data, dst.width, dst.height, dst.row_pitch,
                                            dst.pixel_stride};
  Taps taps{};
  std::copy(params.taps_x.begin(), params.taps_x.end(), taps.x);
  std::copy(params.taps_y.begin(), params.taps_y.end(), taps.y);
  taps.radius_x = int(params.taps_x.size()) / 2;
  taps.radius_y = int(params.taps_y.size()) / 2;
  const Sharpening sharpening{params.mode == GaussMode::Unsharp, params.amount_q8,
                              params.threshold};
  if (StripShape<Sample, kWideTile>::ring_bytes(taps.radius_y) <= kWideTileMaxRingBytes)
    return launch_strips<Sample, kWideTile>(source, destination, taps, sharpening, stream);
  return launch_strips<Sample, kNarrowTile>(source, destination, taps, sharpening, stream);
}

}  // namespace

cudaError_t gauss_cuda(const Plane &src, const Plane &dst, SampleDepth depth,
                       const GaussParams &params, cudaStream_t stream) {
  if ((depth != SampleDepth::U8 && depth != SampleDepth::U16) ||
      !is_valid_plane_pair(src, dst, depth) || !are_samples_aligned(src, dst, depth) ||
      !is_valid(params, depth))
    return cudaErrorInvalidValue;
  switch (depth) {
  case SampleDepth::U8:
    return launch<uint8_t>(src, dst, params, stream);
  case SampleDepth::U16:
    return launch<uint16_t>(src, dst, params, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace cf
