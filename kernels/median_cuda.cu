// CUDA median filter. Windows 3, 5 and 7 run generated sorting networks on pairs of
// 16-bit lanes and share the column sorts between neighbouring outputs; windows 9 to 31
// run Huang's moving histogram down strips of rows, whose cost per output grows with
// the window's side, not with its area.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cuda_views.cuh"
#include "median.h"
#include "sorting_network.cuh"

namespace cf {
namespace {

// ---------------------------------------------------------------------------------
// Windows 3, 5, 7: sorting networks.
//
// A uint32 carries two 16-bit lanes, row y in the low and row y+1 in the high lane,
// so that one __vminu2/__vmaxu2 (a single VIMNMX on sm_90) serves two outputs for
// 8- and 16-bit samples alike; byte lanes (__vminu4) would be emulated on sm_80+.
// A warp spans 32 * kNetworkRun columns of one row pair; kNetworkWarps warps stack.

constexpr int kNetworkRun = 8;  // outputs per thread along its row pair; a power of two
constexpr int kNetworkWarps = 8;
constexpr int kNetworkThreads = 32 * kNetworkWarps;
constexpr int kNetworkBlockColumns = 32 * kNetworkRun;
constexpr int kNetworkBlockRows = 2 * kNetworkWarps;

// Shared-memory word of tile column c: a gap after each run of kNetworkRun columns
// makes the run starts of a warp's threads (kNetworkRun + 1 words apart, an odd
// number) fall in 32 different banks. Note padded(t * run + c) = t * (run + 1) + padded(c).
constexpr int padded_column(int column) { return column + column / kNetworkRun; }

struct PackedOrder {
  __device__ void operator()(uint32_t &a, uint32_t &b) const {
    const uint32_t low = __vminu2(a, b);
    b = __vmaxu2(a, b);
    a = low;
  }
};

template <int K, typename Sample>
__global__ void __launch_bounds__(kNetworkThreads)
    median_network_kernel(SourceView<Sample> src, DestinationView<Sample> dst) {
  constexpr int kRadius = K / 2;
  constexpr int kTileColumns = kNetworkBlockColumns + K - 1;
  constexpr int kTileRows = kNetworkBlockRows + K - 1;
  // Pair row p holds tile row p in the low lane and tile row p + 1 in the high lane.
  constexpr int kPairRows = kTileRows - 1;
  constexpr int kPitchWords = padded_column(kTileColumns - 1) + 1;
  __shared__ uint32_t pairs[kPairRows * kPitchWords];

  // Each sample goes to the low lane of its own pair row and the high lane of the one
  // above (little-endian: the low lane is the lower address).
  uint16_t *lanes = reinterpret_cast<uint16_t *>(pairs);
  const int tile_x = int(blockIdx.x) * kNetworkBlockColumns - kRadius;
  const int tile_y = int(blockIdx.y) * kNetworkBlockRows - kRadius;
  for (int row = threadIdx.y; row < kTileRows; row += kNetworkWarps) {
    const uint8_t *src_row = src.row(tile_y + row);
    for (int column = threadIdx.x; column < kTileColumns; column += 32) {
      const uint16_t sample = src.at(src_row, src.column_offset(tile_x + column));
      const int word = row * kPitchWords + padded_column(column);
      if (row < kPairRows)
        lanes[2 * word] = sample;
      if (row > 0)
        lanes[2 * (word - kPitchWords) + 1] = sample;
    }
  }
  __syncthreads();

  const int x = blockIdx.x * kNetworkBlockColumns + threadIdx.x * kNetworkRun;
  const int y = blockIdx.y * kNetworkBlockRows + 2 * threadIdx.y;
  if (x >= dst.width || y >= dst.height)
    return;
  // Window row i of output row y (and of y + 1 in the high lane) is pair row 2 ty + i.
  const uint32_t *window_top = pairs + 2 * threadIdx.y * kPitchWords;
  const int run_word = threadIdx.x * (kNetworkRun + 1);

  // The last K sorted columns, column c in slot c % K: each column is sorted once and
  // serves the K outputs whose windows contain it.
  uint32_t sorted_columns[K][K];
#pragma unroll
  for (int c = 0; c < kNetworkRun + K - 1; ++c) {
    uint32_t(&column)[K] = sorted_columns[c % K];
#pragma unroll
    for (int i = 0; i < K; ++i)
      column[i] = window_top[i * kPitchWords + run_word + padded_column(c)];
    apply_network<kSortingNetwork<K>>(column, PackedOrder{});

    if (c >= K - 1) {
      const int output = c - (K - 1);
      uint32_t cells[K * K];
#pragma unroll
      for (int i = 0; i < K; ++i)
#pragma unroll
        for (int j = 0; j < K; ++j)
          cells[i * K + j] = sorted_columns[(output + j) % K][i];
      apply_network<kMedianPlan<K>>(cells, PackedOrder{});

      const uint32_t medians = cells[kMedianPlan<K>.output];
      if (x + output < dst.width) {
        dst.store(x + output, y, medians & 0xffffu);
        if (y + 1 < dst.height)
          dst.store(x + output, y + 1, medians >> 16);
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// Windows 9 to 31: Huang's moving histogram. Each thread walks down one column over
// a strip of rows with a private histogram: per row it removes the K samples leaving
// the window and adds the K entering, and a pointer moves to the median bin.
// 16-bit samples count their high byte (coarse) and, for the samples in the coarse
// median bin only, their low byte (fine); the fine histogram is rebuilt from the
// window when the coarse median changes bin.

constexpr int kBins = 256;
constexpr int kWordsPerHistogram = kBins / 2;  // uint16 counts, two to a word
constexpr int kMinStripRows = 16;

template <typename Sample>
struct HistogramShape {
  static constexpr int kLevels = sizeof(Sample);  // coarse, plus fine for 16-bit
  static constexpr int kShift = kLevels == 2 ? 8 : 0;  // sample to coarse bin
  // 32 KiB of shared memory per block either way: no opt-in above 48 KiB needed.
  static constexpr int kThreads = kLevels == 2 ? 32 : 64;
  static constexpr int kBlockWords = kLevels * kWordsPerHistogram * kThreads;
};

// One thread's 256 uint16 counts. Bins 2w and 2w+1 share a word and the threads' words
// for one bin pair are consecutive, so a thread always hits bank threadIdx.x % 32,
// whatever bins the threads of its warp touch.
template <int kThreads>
class ThreadHistogram {
 public:
  __device__ explicit ThreadHistogram(uint32_t *level_words)
      : words_(level_words + threadIdx.x) {}

  __device__ uint16_t &operator[](int bin) const {
    return reinterpret_cast<uint16_t *>(words_ + (bin >> 1) * kThreads)[bin & 1];
  }

  __device__ void clear() const {
    for (int w = 0; w < kWordsPerHistogram; ++w)
      words_[w * kThreads] = 0;
  }

 private:
  uint32_t *words_;
};

// A histogram with Huang's pointer: `median` is a bin, `below` counts the samples in
// the bins under it. May start at bin 256 (all counted below) to search downwards.
template <int kThreads>
struct MovingMedian {
  ThreadHistogram<kThreads> counts;
  int median = 0;
  int below = 0;

  __device__ explicit MovingMedian(uint32_t *level_words) : counts(level_words) {}

  __device__ void add(int bin, int delta) {
    counts[bin] += delta;
    if (bin < median)
      below += delta;
  }

  // Moves to the bin holding the sample of 0-based rank `rank` (< the total count).
  __device__ void seek(int rank) {
    while (below > rank) {
      --median;
      below -= counts[median];
    }
    while (below + counts[median] <= rank) {
      below += counts[median];
      ++median;
    }
  }
};

// Stands in for the fine level of 8-bit samples.
struct NoLevel {
  __device__ explicit NoLevel(uint32_t *) {}
};

template <typename Sample>
__global__ void __launch_bounds__(HistogramShape<Sample>::kThreads)
    median_histogram_kernel(SourceView<Sample> src, DestinationView<Sample> dst, int window,
                            int strip_rows) {
  using Shape = HistogramShape<Sample>;
  constexpr bool kTwoLevels = Shape::kLevels == 2;
  constexpr int kThreads = Shape::kThreads;
  __shared__ uint32_t words[Shape::kBlockWords];

  const int x = blockIdx.x * kThreads + threadIdx.x;
  if (x >= src.width)
    return;
  const int radius = window / 2;
  const int rank = (window * window - 1) / 2;
  const int y_first = blockIdx.y * strip_rows;
  const int y_end = min(y_first + strip_rows, src.height);

  MovingMedian<kThreads> coarse(words);
  std::conditional_t<kTwoLevels, MovingMedian<kThreads>, NoLevel> fine(
      words + kWordsPerHistogram * kThreads);

  // Counts the low bytes of the window's samples in the coarse median bin. The fine
  // pointer starts at the end of that bin next to the previous one: the median has
  // most likely just crossed into it.
  auto rebuild_fine = [&](int y, bool coarse_moved_up) {
    if constexpr (kTwoLevels) {
      fine.counts.clear();
      for (int dy = -radius; dy <= radius; ++dy) {
        const uint8_t *row = src.row(y + dy);
        for (int dx = -radius; dx <= radius; ++dx) {
          const uint32_t sample = src.at(row, src.column_offset(x + dx));
          if (int(sample >> 8) == coarse.median)
            ++fine.counts[sample & 0xff];
        }
      }
      fine.median = coarse_moved_up ? 0 : kBins;
      fine.below = coarse_moved_up ? 0 : coarse.counts[coarse.median];
    }
  };

  auto seek_median = [&](int y, int previous_coarse) {
    coarse.seek(rank);
    if constexpr (kTwoLevels) {
      if (coarse.median != previous_coarse)
        rebuild_fine(y, coarse.median > previous_coarse);
      fine.seek(rank - coarse.below);
      return uint32_t(coarse.median << 8 | fine.median);
    } else {
      return uint32_t(coarse.median);
    }
  };

  auto update = [&](uint32_t sample, int delta) {
    const int coarse_bin = sample >> Shape::kShift;
    coarse.add(coarse_bin, delta);
    if constexpr (kTwoLevels)
      if (coarse_bin == coarse.median)
        fine.add(sample & 0xff, delta);
  };

  coarse.counts.clear();
  for (int dy = -radius; dy <= radius; ++dy) {
    const uint8_t *row = src.row(y_first + dy);
    for (int dx = -radius; dx <= radius; ++dx)
      coarse.add(src.at(row, src.column_offset(x + dx)) >> Shape::kShift, 1);
  }
  // Bin -1 differs from any bin, so the fine level is built for the first row.
  dst.store(x, y_first, seek_median(y_first, -1));

  for (int y = y_first + 1; y < y_end; ++y) {
    const uint8_t *leaving = src.row(y - radius - 1);
    const uint8_t *entering = src.row(y + radius);
    for (int dx = -radius; dx <= radius; ++dx) {
      update(src.at(leaving, src.column_offset(x + dx)), -1);
      update(src.at(entering, src.column_offset(x + dx)), 1);
    }
    dst.store(x, y, seek_median(y, coarse.median));
  }
}

// ---------------------------------------------------------------------------------
// Launches.

constexpr int kMaxGridY = 65535;

template <int K, typename Sample>
cudaError_t launch_network(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                           cudaStream_t stream) {
  const dim3 grid(ceil_div(src.width, kNetworkBlockColumns),
                  ceil_div(src.height, kNetworkBlockRows));
  if (grid.y > kMaxGridY)
    return cudaErrorInvalidValue;
  median_network_kernel<K, Sample><<<grid, dim3(32, kNetworkWarps), 0, stream>>>(src, dst);
  return cudaGetLastError();
}

template <typename Sample>
cudaError_t launch_histogram(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                             int window, cudaStream_t stream) {
  constexpr int kThreads = HistogramShape<Sample>::kThreads;
  int resident = 0;
  if (const cudaError_t e =
          resident_blocks(median_histogram_kernel<Sample>, kThreads, 0, &resident);
      e != cudaSuccess)
    return e;

  // As many strips as fit one wave of resident blocks: more would repeat the K * K
  // setup of a strip more often (or start a second, mostly idle wave), fewer would
  // leave multiprocessors idle.
  const int block_columns = ceil_div(src.width, kThreads);
  const int strips = std::max(1, resident / block_columns);
  const int strip_rows = std::max({kMinStripRows, ceil_div(src.height, strips),
                                   ceil_div(src.height, kMaxGridY)});
  const dim3 grid(block_columns, ceil_div(src.height, strip_rows));
  median_histogram_kernel<Sample><<<grid, kThreads, 0, stream>>>(src, dst, window, strip_rows);
  return cudaGetLastError();
}

template <typename Sample>
cudaError_t launch(const Plane &src, const Plane &dst, const MedianParams &params,
                   cudaStream_t stream) {
  const SourceView<Sample> source{
      src.data, src.width, src.height, src.row_pitch, src.pixel_stride, params.border.mode,
      static_cast<uint16_t>(std::min<uint32_t>(params.border.constant,
                                               std::numeric_limits<Sample>::max()))};
  const DestinationView<Sample> destination{dst.data, dst.width, dst.height, dst.row_pitch,
                                            dst.pixel_stride};
  switch (params.window) {
  case 3:
    return launch_network<3>(source, destination, stream);
  case 5:
    return launch_network<5>(source, destination, stream);
  case 7:
    return launch_network<7>(source, destination, stream);
  default:
    return launch_histogram(source, destination, params.window, stream);
  }
}

}  // namespace

cudaError_t median_cuda(const Plane &src, const Plane &dst, SampleDepth depth,
                        const MedianParams &params, cudaStream_t stream) {
  if (!is_valid(params) || !is_valid_plane_pair(src, dst, depth) ||
      !are_samples_aligned(src, dst, depth))
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
