// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CUDA median filter. Windows 3 to 9 (and 11 to 15 of 16-bit samples) run generated
// sorting networks on pairs of 16-bit lanes and share the column sorts between
// neighbouring outputs, at a cost that does not depend on the data or the sample width;
// 16-bit windows 17 to 31 find the median by bisection on the value on the same tile
// (median_bisection.h), at a cost that does not depend on the data either; 8-bit windows
// 11 to 31 run Huang's moving histogram down strips of rows, whose cost per output grows
// with the window's side, not with its area.
//
// Every kernel takes the window's samples as stored, padding bits and all, and clears
// the padding bits of the median it stores (`keep`, the mask of the value bits; two
// lanes of it in `keep_lanes`): clearing them maps samples non-decreasingly, the median
// commutes with such maps, so that is the median of the values, stored (plane.h), as
// the CPU backend computes it. Without padding bits the mask changes nothing.
//
// Output regions (regions.h): every kernel runs one launch per kMaxLaunchBoxes boxes over
// the boxes' tiles only (region_tiles.cuh) and stores the pixels inside them, computed
// channels only: channels not computed keep what dst holds, as on the CPU backend
// (filter_boxes_cpu), where a whole-plane call copies them.
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuda_views.cuh"
#include "median.h"
#include "median_bisection.h"
#include "packed_cuda.h"
#include "region_tiles.cuh"
#include "sorting_network.cuh"

namespace cf {
namespace {

// ---------------------------------------------------------------------------------
// Windows 3 to 9, and 11 to 15 of 16-bit samples: sorting networks.
//
// A uint32 carries two 16-bit lanes, row y in the low and row y+1 in the high lane,
// so that one __vminu2/__vmaxu2 (a single VIMNMX on sm_90) serves two outputs for
// 8- and 16-bit samples alike; byte lanes (__vminu4) would be emulated on sm_80+.
// A warp spans 32 * kNetworkRun samples of one row pair; kNetworkWarps warps stack.
//
// Packed pixels of C channels (C = 1, 2, 4) share the block: its 32 * kNetworkRun
// samples are kNetworkRun-pixel runs of each channel, thread t taking channel
// t / (32 / C). The tile keeps the pixels' layout, word padded_column(p) * C + c for
// channel c of pixel p, so the run starts of a warp's threads still fall in 32 banks;
// threads of a channel not computed copy their centre samples.

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

// The medians of a thread's run: the window of its first output starts at word
// run_word of window_top, rows kPitchWords apart, pixels C words apart.
template <int K, int C>
__device__ inline void network_medians(const uint32_t *window_top, int run_word,
                                       int pitch_words, uint32_t keep_lanes,
                                       uint32_t (&medians)[kNetworkRun]) {
  // The last K sorted columns, column c in slot c % K: each column is sorted once and
  // serves the K outputs whose windows contain it.
  uint32_t sorted_columns[K][K];
#pragma unroll
  for (int c = 0; c < kNetworkRun + K - 1; ++c) {
    uint32_t(&column)[K] = sorted_columns[c % K];
#pragma unroll
    for (int i = 0; i < K; ++i)
      column[i] = window_top[i * pitch_words + run_word + padded_column(c) * C];
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

      medians[output] = cells[kMedianPlan<K>.output] & keep_lanes;
    }
  }
}

// Windows 7 and 9: the CPU backend's pair network (median_network.h) gives two
// neighbouring outputs at once and merges the K - 1 sorted columns they share once: with
// the column sorts, fewer min/max per output word (two output rows) than network_medians'
// row sorts and selection (kMedianPlan<K>), in fewer registers (docs/tuning.md, "Median
// 9x9: a network, not a histogram"). The same ring of sorted columns, one slot more: a
// pair's windows span K + 1 columns.
template <int K, int C>
__device__ inline void pair_network_medians(const uint32_t *window_top, int run_word,
                                            int pitch_words, uint32_t keep_lanes,
                                            uint32_t (&medians)[kNetworkRun]) {
  static_assert(kNetworkRun % 2 == 0, "outputs come in pairs");
  using median_network::kPairNetwork;
  uint32_t sorted_columns[K + 1][K];
#pragma unroll
  for (int c = 0; c < kNetworkRun + K - 1; ++c) {
    uint32_t(&column)[K] = sorted_columns[c % (K + 1)];
#pragma unroll
    for (int i = 0; i < K; ++i)
      column[i] = window_top[i * pitch_words + run_word + padded_column(c) * C];
    apply_network<kSortingNetwork<K>>(column, PackedOrder{});

    // Outputs 2p and 2p + 1 span columns 2p .. 2p + K: rank k of their column j is wire
    // j * K + k.
    if (c >= K && (c - K) % 2 == 0) {
      const int first = c - K;
      uint32_t wires[kPairNetwork<K>.wires];
#pragma unroll
      for (int j = 0; j <= K; ++j)
#pragma unroll
        for (int k = 0; k < K; ++k)
          wires[j * K + k] = sorted_columns[(first + j) % (K + 1)][k];
      apply_ops<kPairNetwork<K>>(wires, PackedOrder{});

      medians[first] = wires[kPairNetwork<K>.first] & keep_lanes;
      medians[first + 1] = wires[kPairNetwork<K>.second] & keep_lanes;
    }
  }
}

// Windows 11 to 15 (16-bit samples; 8-bit ones are faster on the moving histogram): a
// ring of K + 1 sorted columns no longer fits the registers (15x15: 240 words), so a
// warp sorts the columns of its row pair once into shared memory, rank i of tile column
// c at word i * pitch_words + padded_column(c), and each output runs the sorted-rows
// network (median_network.h) on its window's K columns, a row of ranks at a time:
// 15x15 keeps 151 values live. No pair sharing: per output word 3644 min/max at 15x15,
// 2470 at 13x13, 1546 at 11x11.
template <int K>
__device__ inline void sort_columns(const uint32_t *window_top, uint32_t *sorted,
                                    int pitch_words, int columns) {
  for (int c = threadIdx.x; c < columns; c += 32) {
    uint32_t column[K];
#pragma unroll
    for (int i = 0; i < K; ++i)
      column[i] = window_top[i * pitch_words + padded_column(c)];
    apply_network<kSortingNetwork<K>>(column, PackedOrder{});
#pragma unroll
    for (int i = 0; i < K; ++i)
      sorted[i * pitch_words + padded_column(c)] = column[i];
  }
  __syncwarp();
}

template <int K>
__device__ inline void sorted_rows_medians(const uint32_t *sorted, int run_word,
                                           int pitch_words, uint32_t keep_lanes,
                                           uint32_t (&medians)[kNetworkRun]) {
  // One output's network is thousands of instructions: unrolling the run would only
  // multiply the code.
#pragma unroll 1
  for (int output = 0; output < kNetworkRun; ++output) {
    const auto rank_of_column = [&](int i, int j) {
      return sorted[i * pitch_words + run_word + padded_column(output + j)];
    };
    medians[output] = sorted_rows_median<K, uint32_t>(rank_of_column, PackedOrder{}) & keep_lanes;
  }
}

// 16-bit windows 17 to 31: the sorted-rows network would keep more candidates than
// registers hold (17x17: 187), so each output bisects its value (median_bisection.h)
// over the tile as staged, its run of kNetworkRun outputs sharing every row's loads.
// Per output word and value bit, K * K max and add-and-min (VIMNMX, VIADDMNMX on sm_90)
// and as many multiply-adds: the max and add-and-min fill the ALU pipe, so the counts
// add up on the FMA pipe, a multiply-add by `one` that neither compiler can fold back
// into an ALU add (inline PTX, and a one read from a kernel argument).
struct LaneCount {
  uint32_t one;

  __device__ void count_above(uint32_t &count, uint32_t word, uint32_t threshold,
                              uint32_t negated) const {
    const uint32_t above = __viaddmin_u16x2(__vmaxu2(word, threshold), negated, 0x00010001u);
    asm("mad.lo.u32 %0, %1, %2, %0;" : "+r"(count) : "r"(above), "r"(one));
  }
};

template <int K>
__device__ inline void bisection_run_medians(const uint32_t *window_top, int run_word,
                                             int pitch_words, uint32_t keep_lanes,
                                             uint32_t (&medians)[kNetworkRun]) {
  const auto word = [&](int i, int c) {
    return window_top[i * pitch_words + run_word + padded_column(c)];
  };
  // Every 16-bit format's value bits reach the top bit: one.
  const uint32_t one = keep_lanes >> 31;
  bisection_medians<K>(word, keep_lanes & 0xffffu, LaneCount{one}, medians);
}

// Words of a row of the network kernel's tile (and of its sorted columns).
template <int K, int C>
constexpr int network_pitch_words() {
  constexpr int kTileColumns = kNetworkBlockColumns / C + K - 1;
  return (padded_column(kTileColumns - 1) + 1) * C;
}

// Pair row p holds tile row p in the low lane and tile row p + 1 in the high lane.
constexpr int network_pair_rows(int window) { return kNetworkBlockRows + window - 2; }

template <int K>
constexpr bool kSortsRows =
    K > median_network::kMaxNetworkWindow && K <= median_network::kMaxSortedRowsWindow;
template <int K>
constexpr bool kBisects = K > median_network::kMaxSortedRowsWindow;

// The network kernel's shared memory, all of it dynamic (31x31's tile alone is past the
// 48 KiB of static shared memory): the tile of pair rows, then for the sorted-rows
// networks every warp's sorted columns.
template <int K, int C>
constexpr size_t network_dynamic_bytes() {
  const size_t sorted_words = kSortsRows<K> ? size_t(kNetworkWarps) * K : 0;
  return (network_pair_rows(K) + sorted_words) * network_pitch_words<K, C>() * 4;
}

// A network block's first output pixel and row; it stores pixels clip_x0 .. clip_x1 - 1
// of rows .. clip_y1 - 1.
struct NetworkBlock {
  int x, y, clip_x0, clip_x1, clip_y1;
};

template <int C, class Tiles, typename Sample>
__device__ __forceinline__ NetworkBlock network_block(const Tiles &tiles,
                                                      const DestinationView<Sample> &dst) {
  constexpr int kBlockPixels = kNetworkBlockColumns / C;
  if constexpr (kRegionTiles<Tiles>) {
    const RegionTile tile = find_region_tile(tiles, blockIdx.x);
    return {tile.box.x / kNetworkRun * kNetworkRun + tile.column * kBlockPixels,
            tile.box.y + tile.row * kNetworkBlockRows, tile.box.x, tile.box.x + tile.box.width,
            tile.box.y + tile.box.height};
  } else {
    return {int(blockIdx.x) * kBlockPixels, int(blockIdx.y) * kNetworkBlockRows, 0, dst.width,
            dst.height};
  }
}

// The network kernel's tile, its top-left sample at (tile_x, tile_y), into the pair rows:
// each sample goes to the low lane of its own pair row and the high lane of the one
// above (little-endian: the low lane is the lower address).
template <int K, typename Sample, int C>
__device__ __forceinline__ void stage_network_tile(const SourceView<Sample> &src,
                                                   uint32_t *pairs, int tile_x, int tile_y) {
  constexpr int kTileSamples = (kNetworkBlockColumns / C + K - 1) * C;
  constexpr int kTileRows = kNetworkBlockRows + K - 1;
  constexpr int kPairRows = network_pair_rows(K);
  constexpr int kPitchWords = network_pitch_words<K, C>();
  uint16_t *lanes = reinterpret_cast<uint16_t *>(pairs);
  // A thread stages the same samples in every row: their offsets (border applied) are
  // found once, and a row's loads are all issued before their stores.
  constexpr int kColumnsPerThread = (kTileSamples + 31) / 32;
  ptrdiff_t offsets[kColumnsPerThread];
#pragma unroll
  for (int k = 0; k < kColumnsPerThread; ++k) {
    const int sample = k * 32 + int(threadIdx.x);
    const ptrdiff_t pixel = src.column_offset(tile_x + sample / C);
    offsets[k] = pixel < 0 ? -1 : pixel + sample % C * ptrdiff_t(sizeof(Sample));
  }
  for (int row = threadIdx.y; row < kTileRows; row += kNetworkWarps) {
    const uint8_t *src_row = src.row(tile_y + row);
    uint16_t samples[kColumnsPerThread];
#pragma unroll
    for (int k = 0; k < kColumnsPerThread; ++k)
      samples[k] = src.at(src_row, offsets[k]);
#pragma unroll
    for (int k = 0; k < kColumnsPerThread; ++k) {
      const int sample = k * 32 + threadIdx.x;
      if (sample >= kTileSamples)
        break;
      const int word = row * kPitchWords + padded_column(sample / C) * C + sample % C;
      if (row < kPairRows)
        lanes[2 * word] = samples[k];
      if (row > 0)
        lanes[2 * (word - kPitchWords) + 1] = samples[k];
    }
  }
}

// C: channels of a pixel, channel_mask: those computed.
// A region's tile is a block's kBlockPixels x kNetworkBlockRows from its box's
// top-left corner, the corner's column aligned down to a run (the runs' vector stores).
template <int K, typename Sample, int C, class Tiles>
__global__ void __launch_bounds__(kNetworkThreads)
    median_network_kernel(SourceView<Sample> src, DestinationView<Sample> dst,
                          bool packed_rows, uint32_t keep_lanes, unsigned channel_mask,
                          Tiles tiles) {
  constexpr int kRadius = K / 2;
  constexpr int kTileColumns = kNetworkBlockColumns / C + K - 1;  // pixels
  constexpr int kPairRows = network_pair_rows(K);
  constexpr int kPitchWords = network_pitch_words<K, C>();
  extern __shared__ uint32_t pairs[];
  uint32_t *sorted_columns = pairs + kPairRows * kPitchWords;

  const NetworkBlock block = network_block<C>(tiles, dst);
  stage_network_tile<K, Sample, C>(src, pairs, block.x - kRadius, block.y - kRadius);
  __syncthreads();

  constexpr int kChannelThreads = 32 / C;
  const int channel = threadIdx.x / kChannelThreads;
  const int run = threadIdx.x % kChannelThreads;
  const int x = block.x + run * kNetworkRun;  // a pixel
  const int y = block.y + 2 * threadIdx.y;
  // Window row i of output row y (and of y + 1 in the high lane) is pair row 2 ty + i.
  const uint32_t *window_top = pairs + 2 * threadIdx.y * kPitchWords;
  uint32_t *sorted = sorted_columns + threadIdx.y * K * kPitchWords;
  static_assert(C == 1 || !(kSortsRows<K> || kBisects<K>),
                "pixels of several channels go channel by channel");
  static_assert(sizeof(Sample) == 2 || !(kSortsRows<K> || kBisects<K>),
                "8-bit samples take the moving histogram");
  if constexpr (kSortsRows<K>) {
    if (y < block.clip_y1)  // the same for the whole warp, which sorts together
      sort_columns<K>(window_top, sorted, kPitchWords, kTileColumns);
  }
  if (x >= block.clip_x1 || (kRegionTiles<Tiles> && x + kNetworkRun <= block.clip_x0) ||
      y >= block.clip_y1)
    return;
  // A region leaves the channels not computed as dst holds them.
  if (kRegionTiles<Tiles> && !((channel_mask >> channel) & 1u))
    return;
  const int run_word = run * (kNetworkRun + 1) * C + channel;
  uint32_t medians[kNetworkRun];  // row y in the low lane, y + 1 in the high lane
  if (!((channel_mask >> channel) & 1u)) {
    // The centre samples, as they were: window row and column kRadius.
#pragma unroll
    for (int output = 0; output < kNetworkRun; ++output)
      medians[output] =
          window_top[kRadius * kPitchWords + run_word + padded_column(output + kRadius) * C];
  } else if constexpr (kSortsRows<K>) {
    sorted_rows_medians<K>(sorted, run_word, kPitchWords, keep_lanes, medians);
  } else if constexpr (kBisects<K>) {
    bisection_run_medians<K>(window_top, run_word, kPitchWords, keep_lanes, medians);
  } else if constexpr (K >= 7) {
    pair_network_medians<K, C>(window_top, run_word, kPitchWords, keep_lanes, medians);
  } else {
    network_medians<K, C>(window_top, run_word, kPitchWords, keep_lanes, medians);
  }

  // A thread's run of outputs is contiguous in packed rows: one vector store a row.
  using Run = std::conditional_t<sizeof(Sample) == 1, uint2, uint4>;
  const bool whole_run = packed_rows && (!kRegionTiles<Tiles> || x >= block.clip_x0) &&
                         x + kNetworkRun <= block.clip_x1;
  for (int lane = 0; lane < 2 && y + lane < block.clip_y1; ++lane) {
    if (whole_run) {
      // The lane's 16 bits of two medians side by side; for 8-bit samples only their low
      // bytes, and two such pairs make a word.
      const uint32_t pick = sizeof(Sample) == 1 ? (lane ? 0x0062 : 0x0040)
                                                : (lane ? 0x7632 : 0x5410);
      uint32_t words[kNetworkRun * sizeof(Sample) / 4];
#pragma unroll
      for (int w = 0; w < int(sizeof(words) / 4); ++w) {
        if constexpr (sizeof(Sample) == 1) {
          const uint32_t *four = medians + 4 * w;
          words[w] = __byte_perm(__byte_perm(four[0], four[1], pick),
                                 __byte_perm(four[2], four[3], pick), 0x5410);
        } else {
          words[w] = __byte_perm(medians[2 * w], medians[2 * w + 1], pick);
        }
      }
      *reinterpret_cast<Run *>(dst.data + (y + lane) * dst.row_pitch +
                               ptrdiff_t(x) * sizeof(Sample)) =
          *reinterpret_cast<const Run *>(words);
    } else {
      DestinationView<Sample> channel_dst = dst;
      channel_dst.data += channel * sizeof(Sample);
      for (int output = 0; output < kNetworkRun && x + output < block.clip_x1; ++output)
        if (!kRegionTiles<Tiles> || x + output >= block.clip_x0)
          channel_dst.store(x + output, y + lane,
                            lane ? medians[output] >> 16 : medians[output] & 0xffffu);
    }
  }
}

// ---------------------------------------------------------------------------------
// Window 3 on contiguous, aligned rows: registers only, no shared memory.
//
// Each thread owns two chunks of 4 adjacent samples (a chunk is one 32-bit word of 8-bit
// samples or two of 16-bit ones) and walks down a strip of rows. A chunk becomes two words of
// 16-bit lanes, P and Q, whose left and right neighbours are P and Q with their lanes
// shifted, and the samples just outside the chunk. Each row is sorted horizontally once
// (min, median, max of 3) and serves three output rows: the median of 9 is
// med3(max of the row minima, median of the row medians, min of the row maxima).
// Packed pixels of C channels take the same path over their samples, with neighbours C
// samples away: the words of the 4 samples C before and after a chunk are funnel shifts
// of it and the 32 bits around it (a pixel's samples are loaded and stored together,
// one launch for every channel), and channels not computed take their centre sample,
// blended in before the store.
// About 20 instructions an output (11 of them min/max) where the shared-memory network
// spends several times that on staging and scattered single-sample stores.

constexpr int kChunk = 4;          // samples per chunk
constexpr int kThreadChunks = 2;   // adjacent chunks per thread: shares the row overhead
constexpr int kThreadSamples = kChunk * kThreadChunks;
constexpr int kChunkThreads = 128;  // threads per block, all along x
constexpr int kMinChunkStripRows = 8;
constexpr int kMaxChunkStripRows = 64;

__device__ inline uint32_t min3(uint32_t a, uint32_t b, uint32_t c) {
  return __vimin3_u16x2(a, b, c);
}
__device__ inline uint32_t max3(uint32_t a, uint32_t b, uint32_t c) {
  return __vimax3_u16x2(a, b, c);
}
__device__ inline uint32_t med3(uint32_t a, uint32_t b, uint32_t c) {
  return __vmaxu2(__vminu2(a, b), __vminu2(__vmaxu2(a, b), c));
}

// Minimum, median and maximum of the three horizontal neighbours of each lane.
struct SortedRow {
  uint32_t low, mid, high;
};

__device__ inline SortedRow sort_row(uint32_t left, uint32_t centre, uint32_t right) {
  return {min3(left, centre, right), med3(left, centre, right), max3(left, centre, right)};
}

__device__ inline uint32_t median_of_rows(const SortedRow &a, const SortedRow &b,
                                          const SortedRow &c) {
  return med3(max3(a.low, b.low, c.low), med3(a.mid, b.mid, c.mid),
              min3(a.high, b.high, c.high));
}

// How a chunk of 4 samples maps to two words of 16-bit lanes and back.
template <typename Sample>
struct ChunkLanes;

// 8-bit: P holds samples 0 and 2, Q samples 1 and 3.
template <>
struct ChunkLanes<uint8_t> {
  using Word = uint32_t;
  __device__ static Word broadcast(uint32_t v) { return v * 0x01010101u; }
  // The first and last 32 bits of a chunk.
  __device__ static uint32_t head(Word w) { return w; }
  __device__ static uint32_t tail(Word w) { return w; }
  // Bits of the samples of channels computed, the others' from `centre`.
  __device__ static Word blend(Word result, Word centre, Word computed) {
    return (result & computed) | (centre & ~computed);
  }
  __device__ static uint32_t sample(Word w, int b) { return (w >> (8 * b)) & 0xffu; }
  __device__ static uint32_t first(Word w) { return w & 0xffu; }
  __device__ static uint32_t last(Word w) { return w >> 24; }
  __device__ static void split(Word w, uint32_t &p, uint32_t &q) {
    p = w & 0x00ff00ffu;
    q = (w >> 8) & 0x00ff00ffu;
  }
  __device__ static Word join(uint32_t p, uint32_t q) { return __byte_perm(p, q, 0x6240); }
  // Left and right neighbours of each lane of P and Q; `before` is sample -1 and
  // `after` sample 4.
  __device__ static void neighbours(uint32_t p, uint32_t q, uint32_t before, uint32_t after,
                                    uint32_t (&left)[2], uint32_t (&right)[2]) {
    left[0] = (q << 16) | before;
    right[0] = q;
    left[1] = p;
    right[1] = (p >> 16) | (after << 16);
  }
  // The same for samples C apart (C > 1); `before` and `after` are the 4 samples before
  // and after the chunk. A clamped funnel shift of 0 or 32 bits is one of its inputs.
  template <int C>
  __device__ static void neighbours(Word w, uint32_t before, uint32_t after,
                                    uint32_t (&left)[2], uint32_t (&right)[2]) {
    split(__funnelshift_rc(before, w, 32 - 8 * C), left[0], left[1]);
    split(__funnelshift_rc(w, after, 8 * C), right[0], right[1]);
  }
};

// 16-bit: P holds samples 0 and 1, Q samples 2 and 3.
template <>
struct ChunkLanes<uint16_t> {
  using Word = uint2;
  __device__ static Word broadcast(uint32_t v) { return make_uint2(v * 0x10001u, v * 0x10001u); }
  __device__ static uint32_t head(Word w) { return w.x; }
  __device__ static uint32_t tail(Word w) { return w.y; }
  __device__ static Word blend(Word result, Word centre, Word computed) {
    return make_uint2((result.x & computed.x) | (centre.x & ~computed.x),
                      (result.y & computed.y) | (centre.y & ~computed.y));
  }
  __device__ static uint32_t sample(Word w, int b) {
    return ((b < 2 ? w.x : w.y) >> (16 * (b % 2))) & 0xffffu;
  }
  __device__ static uint32_t first(Word w) { return w.x & 0xffffu; }
  __device__ static uint32_t last(Word w) { return w.y >> 16; }
  __device__ static void split(Word w, uint32_t &p, uint32_t &q) {
    p = w.x;
    q = w.y;
  }
  __device__ static Word join(uint32_t p, uint32_t q) { return make_uint2(p, q); }
  __device__ static void neighbours(uint32_t p, uint32_t q, uint32_t before, uint32_t after,
                                    uint32_t (&left)[2], uint32_t (&right)[2]) {
    const uint32_t middle = __byte_perm(p, q, 0x5432);  // samples 1 and 2
    left[0] = (p << 16) | before;
    right[0] = middle;
    left[1] = middle;
    right[1] = (q >> 16) | (after << 16);
  }
  // Pixels of 2 channels: P and Q are whole pixels, their neighbours are words;
  // `before` and `after` are the 2 samples before and after the chunk.
  template <int C>
  __device__ static void neighbours(Word w, uint32_t before, uint32_t after,
                                    uint32_t (&left)[2], uint32_t (&right)[2]) {
    static_assert(C == 2, "16-bit pixels of at most 2 channels");
    left[0] = before;
    right[0] = w.y;
    left[1] = w.x;
    right[1] = after;
  }
};

// The 32 bits of samples just before or after a thread's chunks of pixels of C
// channels (C > 1), border applied, read whole where they lie in the row.
template <typename Sample, int C>
struct EdgeSamples {
  static constexpr int kSamples = 4 / int(sizeof(Sample));
  ptrdiff_t offsets[kSamples];  // in a row, -1 for the border constant
  bool whole;                   // the samples lie in the row, side by side

  // The samples from row sample `first` on.
  __device__ EdgeSamples(const SourceView<Sample> &src, int first) {
    whole = true;
#pragma unroll
    for (int i = 0; i < kSamples; ++i) {
      const int sample = first + i;
      const int pixel = sample >= 0 ? sample / C : -((C - 1 - sample) / C);
      const int column = border_index(pixel, src.width, src.mode);
      offsets[i] = column < 0 ? -1
                              : ptrdiff_t(column) * src.pixel_stride +
                                    (sample - pixel * C) * int(sizeof(Sample));
      whole = whole && offsets[i] == ptrdiff_t(sample) * int(sizeof(Sample));
    }
  }

  __device__ uint32_t load(const SourceView<Sample> &src, const uint8_t *row) const {
    if (row != nullptr && whole)
      return __ldg(reinterpret_cast<const uint32_t *>(row + offsets[0]));
    uint32_t word = 0;
#pragma unroll
    for (int i = 0; i < kSamples; ++i)
      word |= src.at(row, offsets[i]) << (8 * int(sizeof(Sample)) * i);
    return word;
  }
};

// A chunk kernel thread's first sample; it computes chunks before row_samples, stores
// samples clip_s0 .. clip_s1 - 1 of rows y_first .. y_end - 1.
struct ChunkSpan {
  int x, row_samples, clip_s0, clip_s1, y_first, y_end;
};

template <int C, class Tiles, typename Sample>
__device__ __forceinline__ ChunkSpan chunk_span(const Tiles &tiles, int strip_rows,
                                                const SourceView<Sample> &src) {
  ChunkSpan span;
  if constexpr (kRegionTiles<Tiles>) {
    const RegionTile tile = find_region_tile(tiles, blockIdx.x);
    span.clip_s0 = tile.box.x * C;
    span.clip_s1 = (tile.box.x + tile.box.width) * C;
    span.x = span.clip_s0 / kChunk * kChunk +
             (tile.column * kChunkThreads + threadIdx.x) * kThreadSamples;
    // Rows hold whole chunks (suits_chunks): the chunk holding the box's last sample
    // ends within the row.
    span.row_samples = (span.clip_s1 + kChunk - 1) / kChunk * kChunk;
    span.y_first = tile.box.y + tile.row * strip_rows;
    span.y_end = min(span.y_first + strip_rows, tile.box.y + tile.box.height);
  } else {
    span.x = (blockIdx.x * kChunkThreads + threadIdx.x) * kThreadSamples;
    span.row_samples = src.width * C;
    span.clip_s0 = 0;
    span.clip_s1 = span.row_samples;
    span.y_first = blockIdx.y * strip_rows;
    span.y_end = min(span.y_first + strip_rows, src.height);
  }
  return span;
}

// Per chunk of a thread's (its first sample x), the bits of its samples whose channel
// is computed.
template <typename Sample, int C>
__device__ __forceinline__ void computed_bits(
    int x, unsigned channel_mask, typename ChunkLanes<Sample>::Word (&computed)[kThreadChunks]) {
#pragma unroll
  for (int k = 0; k < kThreadChunks; ++k) {
    uint32_t bits[kChunk];
#pragma unroll
    for (int b = 0; b < kChunk; ++b)
      bits[b] = (channel_mask >> ((x + k * kChunk + b) % C)) & 1u ? 0xffffffffu : 0u;
    if constexpr (sizeof(Sample) == 1)
      computed[k] = __byte_perm(__byte_perm(bits[0], bits[1], 0x0040),
                                __byte_perm(bits[2], bits[3], 0x0040), 0x5410);
    else
      computed[k] = make_uint2(__byte_perm(bits[0], bits[1], 0x5410),
                               __byte_perm(bits[2], bits[3], 0x5410));
  }
}

// C: channels of a pixel, src.width pixels a row; channel_mask: those computed. A
// region's tile is a block's run of chunks from the chunk holding its box's first
// sample, and a strip of the box's rows; chunks partly in the box, or with channels not
// computed, store their samples in the box one by one (a read-modify-write of the chunk
// could undo a neighbouring box's stores), those of computed channels only.
template <typename Sample, int C, class Tiles>
__global__ void __launch_bounds__(kChunkThreads)
    median3_chunk_kernel(SourceView<Sample> src, DestinationView<Sample> dst, int strip_rows,
                         uint32_t keep_lanes, unsigned channel_mask, Tiles tiles) {
  using Lanes = ChunkLanes<Sample>;
  using Word = typename Lanes::Word;
  constexpr int kLast = kThreadChunks - 1;
  constexpr bool kRegion = kRegionTiles<Tiles>;
  const ChunkSpan span = chunk_span<C>(tiles, strip_rows, src);
  const int x = span.x, row_samples = span.row_samples, clip_s0 = span.clip_s0,
            clip_s1 = span.clip_s1, y_first = span.y_first, y_end = span.y_end;
  if (kRegion && x >= row_samples)
    return;  // no shared memory, no shuffles: nothing waits for the thread
  bool inside[kThreadChunks];
#pragma unroll
  for (int k = 0; k < kThreadChunks; ++k)
    inside[k] = x + k * kChunk < row_samples;
  // The samples just before and after this thread's chunks, with the border applied:
  // loads that hit the cache lines of the neighbouring threads' chunks cost fewer
  // instructions than shuffles with fix-ups at warp and frame edges. One sample each
  // side for C = 1, else 32 bits each side.
  const int span_end = min(x + kThreadSamples, row_samples);
  const ptrdiff_t before_offset = src.column_offset(x - 1);
  const ptrdiff_t after_offset = src.column_offset(span_end);
  const EdgeSamples<Sample, C> before_edge(src, x - EdgeSamples<Sample, C>::kSamples);
  const EdgeSamples<Sample, C> after_edge(src, span_end);
  const uint32_t constant = src.constant;
  const bool blend = C > 1 && channel_mask != all_channels(C);
  Word computed[kThreadChunks];
  computed_bits<Sample, C>(x, channel_mask, computed);

  // A row's chunks, and the samples around them that this thread reads itself: all
  // loads of a row are issued together, a row ahead of their use.
  struct RowLoad {
    Word words[kThreadChunks];
    uint32_t before, after;
  };
  // Strips away from the top and bottom edges need no row border: a branch per strip
  // instead of a border lookup per row.
  auto load = [&](int y, auto interior) {
    const uint8_t *row =
        interior ? src.data + ptrdiff_t(y) * src.row_pitch : src.row(y);
    RowLoad loaded;
    const Word outside = Lanes::broadcast(row == nullptr ? constant : 0);
#pragma unroll
    for (int k = 0; k < kThreadChunks; ++k)
      loaded.words[k] = inside[k] && row != nullptr
                            ? __ldg(reinterpret_cast<const Word *>(
                                  row + ptrdiff_t(x + k * kChunk) * sizeof(Sample)))
                            : outside;
    if constexpr (C == 1) {
      loaded.before = src.at(row, before_offset);
      loaded.after = src.at(row, after_offset);
    } else {
      loaded.before = before_edge.load(src, row);
      loaded.after = after_edge.load(src, row);
    }
    return loaded;
  };
  auto sort = [&](const RowLoad &loaded, SortedRow (&sorted)[kThreadChunks][2]) {
#pragma unroll
    for (int k = 0; k < kThreadChunks; ++k) {
      // A chunk whose right neighbour lies outside the frame has the thread's `after`.
      const bool next_inside = k < kLast && inside[k + 1];
      uint32_t p, q;
      Lanes::split(loaded.words[k], p, q);
      uint32_t left[2], right[2];
      if constexpr (C == 1) {
        const uint32_t before = k > 0 ? Lanes::last(loaded.words[k - 1]) : loaded.before;
        const uint32_t after = next_inside ? Lanes::first(loaded.words[k + 1]) : loaded.after;
        Lanes::neighbours(p, q, before, after, left, right);
      } else {
        const uint32_t before = k > 0 ? Lanes::tail(loaded.words[k - 1]) : loaded.before;
        const uint32_t after = next_inside ? Lanes::head(loaded.words[k + 1]) : loaded.after;
        Lanes::template neighbours<C>(loaded.words[k], before, after, left, right);
      }
      sorted[k][0] = sort_row(left[0], p, right[0]);
      sorted[k][1] = sort_row(left[1], q, right[1]);
    }
  };

  // Rows y - 1, y and y + 1 sorted; the next row is loaded a row ahead.
  auto filter_strip = [&](auto interior) {
    SortedRow above[kThreadChunks][2], centre[kThreadChunks][2], below[kThreadChunks][2];
    sort(load(y_first - 1, interior), above);
    sort(load(y_first, interior), centre);
    RowLoad next = load(y_first + 1, interior);
    // Unrolled three times, the rows' roles rotate through registers without moves.
#pragma unroll 3
    for (int y = y_first; y < y_end; ++y) {
      const RowLoad loaded = next;
      if (y + 1 < y_end)
        next = load(y + 2, interior);
      sort(loaded, below);
      uint8_t *const out = dst.data + y * dst.row_pitch + ptrdiff_t(x) * sizeof(Sample);
#pragma unroll
      for (int k = 0; k < kThreadChunks; ++k) {
        const uint32_t p = median_of_rows(above[k][0], centre[k][0], below[k][0]) & keep_lanes;
        const uint32_t q = median_of_rows(above[k][1], centre[k][1], below[k][1]) & keep_lanes;
        if (kRegion && inside[k] &&
            (blend || x + k * kChunk < clip_s0 || x + (k + 1) * kChunk > clip_s1)) {
          const Word result = Lanes::join(p, q);
          Sample *const samples = reinterpret_cast<Sample *>(out) + k * kChunk;
#pragma unroll
          for (int b = 0; b < kChunk; ++b) {
            const int at = x + k * kChunk + b;
            if (at >= clip_s0 && at < clip_s1 && ((channel_mask >> (at % C)) & 1u))
              samples[b] = static_cast<Sample>(Lanes::sample(result, b));
          }
        } else if (inside[k]) {
          Word result = Lanes::join(p, q);
          // The centre row was loaded two rows ago: its line is still in L1.
          if (blend)
            result = Lanes::blend(result,
                                  __ldg(reinterpret_cast<const Word *>(
                                            src.data + ptrdiff_t(y) * src.row_pitch +
                                            ptrdiff_t(x) * sizeof(Sample)) +
                                        k),
                                  computed[k]);
          reinterpret_cast<Word *>(out)[k] = result;
        }
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          above[k][h] = centre[k][h];
          centre[k][h] = below[k][h];
        }
      }
    }
  };
  if (y_first >= 1 && y_end + 1 <= src.height)
    filter_strip(std::true_type{});
  else
    filter_strip(std::false_type{});
}

// Whether both planes suit median3_chunk_kernel: contiguous pixels of at most 32 bits,
// whole chunks per row, every chunk aligned for one vector access.
template <typename Sample>
bool suits_chunks(const Plane &src, const Plane &dst) {
  constexpr size_t kChunkBytes = kChunk * sizeof(Sample);
  const int pixel_bytes = src.channels * int(sizeof(Sample));
  const uintptr_t alignment = reinterpret_cast<uintptr_t>(src.data) |
                              reinterpret_cast<uintptr_t>(dst.data) | uintptr_t(src.row_pitch) |
                              uintptr_t(dst.row_pitch);
  return src.pixel_stride == pixel_bytes && dst.pixel_stride == pixel_bytes &&
         pixel_bytes <= 4 && src.width * src.channels % kChunk == 0 &&
         alignment % kChunkBytes == 0;
}

// ---------------------------------------------------------------------------------
// 8-bit windows 11 to 31 (and 16-bit ones where the network kernel's shared memory does
// not fit): Huang's moving histogram. Each thread walks down one column over
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

// A region's tile is a block's kThreads columns from its box's first column and a strip
// of the box's rows.
template <typename Sample, class Tiles>
__global__ void __launch_bounds__(HistogramShape<Sample>::kThreads)
    median_histogram_kernel(SourceView<Sample> src, DestinationView<Sample> dst, int window,
                            int strip_rows, uint32_t keep, Tiles tiles) {
  using Shape = HistogramShape<Sample>;
  constexpr bool kTwoLevels = Shape::kLevels == 2;
  constexpr int kThreads = Shape::kThreads;
  __shared__ uint32_t words[Shape::kBlockWords];

  int x, x_end, y_first, y_end;
  if constexpr (kRegionTiles<Tiles>) {
    const RegionTile tile = find_region_tile(tiles, blockIdx.x);
    x = tile.box.x + tile.column * kThreads + threadIdx.x;
    x_end = tile.box.x + tile.box.width;
    y_first = tile.box.y + tile.row * strip_rows;
    y_end = min(y_first + strip_rows, tile.box.y + tile.box.height);
  } else {
    x = blockIdx.x * kThreads + threadIdx.x;
    x_end = src.width;
    y_first = blockIdx.y * strip_rows;
    y_end = min(y_first + strip_rows, src.height);
  }
  if (x >= x_end)
    return;
  const int radius = window / 2;
  const int rank = (window * window - 1) / 2;

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
  dst.store(x, y_first, seek_median(y_first, -1) & keep);

  for (int y = y_first + 1; y < y_end; ++y) {
    const uint8_t *leaving = src.row(y - radius - 1);
    const uint8_t *entering = src.row(y + radius);
    for (int dx = -radius; dx <= radius; ++dx) {
      update(src.at(leaving, src.column_offset(x + dx)), -1);
      update(src.at(entering, src.column_offset(x + dx)), 1);
    }
    dst.store(x, y, seek_median(y, coarse.median) & keep);
  }
}

// ---------------------------------------------------------------------------------
// Launches. Each takes the call's region: the whole plane on the kernel's 2-D grid, or
// the boxes' tiles (region_tiles.cuh).

constexpr int kMaxGridY = 65535;

template <int K, typename Sample, int C>
cudaError_t launch_network_of(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                              uint32_t keep, unsigned channel_mask, const OutputRegion &region,
                              cudaStream_t stream) {
  constexpr int kBlockPixels = kNetworkBlockColumns / C;
  constexpr size_t kSharedBytes = network_dynamic_bytes<K, C>();
  const dim3 block(32, kNetworkWarps);
  // Runs start every kNetworkRun samples: vector stores where rows are packed and aligned.
  const uintptr_t alignment = reinterpret_cast<uintptr_t>(dst.data) | uintptr_t(dst.row_pitch);
  const bool packed_rows = dst.pixel_stride == int(sizeof(Sample)) &&
                           alignment % (kNetworkRun * sizeof(Sample)) == 0;
  if (region.whole_plane) {
    const dim3 grid(ceil_div(src.width, kBlockPixels), ceil_div(src.height, kNetworkBlockRows));
    if (grid.y > kMaxGridY)
      return cudaErrorInvalidValue;
    median_network_kernel<K, Sample, C><<<grid, block, kSharedBytes, stream>>>(
        src, dst, packed_rows, keep * 0x10001u, channel_mask, WholePlaneTiles{});
    return cudaGetLastError();
  }
  return launch_region_tables(
      region,
      [&](const Box &box) {
        const int first = box.x / kNetworkRun * kNetworkRun;
        return TileCount{ceil_div(box.x + box.width - first, kBlockPixels),
                         ceil_div(box.height, kNetworkBlockRows)};
      },
      [&](const RegionTable &table, int tiles) {
        median_network_kernel<K, Sample, C><<<tiles, block, kSharedBytes, stream>>>(
            src, dst, packed_rows, keep * 0x10001u, channel_mask, table);
        return cudaGetLastError();
      });
}

// Whether the network kernel takes the plane whole: pixels of 1, 2 or 4 channels side
// by side. Else channel by channel.
bool suits_network(const Plane &src, const Plane &dst, SampleFormat format) {
  const int c = src.channels;
  const int pixel_bytes = c * bytes_per_sample(format);
  return (c == 1 || c == 2 || c == 4) && src.pixel_stride == pixel_bytes &&
         dst.pixel_stride == pixel_bytes;
}

template <int K, typename Sample>
cudaError_t launch_network(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                           uint32_t keep, int channels, unsigned channel_mask,
                           const OutputRegion &region, cudaStream_t stream) {
  switch (channels) {
  case 1:
    return launch_network_of<K, Sample, 1>(src, dst, keep, channel_mask, region, stream);
  case 2:
    return launch_network_of<K, Sample, 2>(src, dst, keep, channel_mask, region, stream);
  case 4:
    return launch_network_of<K, Sample, 4>(src, dst, keep, channel_mask, region, stream);
  }
  return cudaErrorInvalidValue;
}

template <typename Sample, int C>
cudaError_t launch_chunks_of(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                             uint32_t keep, unsigned channel_mask, const OutputRegion &region,
                             cudaStream_t stream) {
  constexpr int kBlockSamples = kChunkThreads * kThreadSamples;
  // Strips for about one wave of resident blocks: each strip sorts two rows more than it
  // outputs, so strips are no shorter than needed to fill the device.
  const auto strip_rows_for = [](int64_t column_rows, int resident) {
    const int64_t rows = (column_rows + std::max(resident, 1) - 1) / std::max(resident, 1);
    return int(std::max<int64_t>(kMinChunkStripRows,
                                 std::min<int64_t>(kMaxChunkStripRows, rows)));
  };
  if (region.whole_plane) {
    const auto kernel = median3_chunk_kernel<Sample, C, WholePlaneTiles>;
    int resident = 0;
    if (const cudaError_t e = resident_blocks(kernel, kChunkThreads, 0, &resident);
        e != cudaSuccess)
      return e;
    const int block_columns = ceil_div(src.width * C, kBlockSamples);
    const int strips = std::max(1, resident / block_columns);
    const int strip_rows =
        std::max({kMinChunkStripRows, std::min(kMaxChunkStripRows, ceil_div(src.height, strips)),
                  ceil_div(src.height, kMaxGridY)});
    const dim3 grid(block_columns, ceil_div(src.height, strip_rows));
    kernel<<<grid, kChunkThreads, 0, stream>>>(src, dst, strip_rows, keep * 0x10001u,
                                               channel_mask, WholePlaneTiles{});
    return cudaGetLastError();
  }
  const auto kernel = median3_chunk_kernel<Sample, C, RegionTable>;
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, kChunkThreads, 0, &resident);
      e != cudaSuccess)
    return e;
  // From the chunk holding the box's first sample to its last sample.
  const auto box_columns = [](const Box &box) {
    const int first = box.x * C / kChunk * kChunk;
    return ceil_div((box.x + box.width) * C - first, kBlockSamples);
  };
  int64_t column_rows = 0;
  for (int b = 0; b < region.count; ++b)
    column_rows += int64_t(box_columns(region.boxes[b])) * region.boxes[b].height;
  const int strip_rows = strip_rows_for(column_rows, resident);
  return launch_region_tables(
      region,
      [&](const Box &box) {
        return TileCount{box_columns(box), ceil_div(box.height, strip_rows)};
      },
      [&](const RegionTable &table, int tiles) {
        kernel<<<tiles, kChunkThreads, 0, stream>>>(src, dst, strip_rows, keep * 0x10001u,
                                                    channel_mask, table);
        return cudaGetLastError();
      });
}

// Pixels of 1 to 4 channels of 8 bits, or 1 or 2 of 16 bits (suits_chunks).
template <typename Sample>
cudaError_t launch_chunks(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                          uint32_t keep, int channels, unsigned channel_mask,
                          const OutputRegion &region, cudaStream_t stream) {
  switch (channels) {
  case 1:
    return launch_chunks_of<Sample, 1>(src, dst, keep, channel_mask, region, stream);
  case 2:
    return launch_chunks_of<Sample, 2>(src, dst, keep, channel_mask, region, stream);
  }
  if constexpr (sizeof(Sample) == 1) {
    switch (channels) {
    case 3:
      return launch_chunks_of<Sample, 3>(src, dst, keep, channel_mask, region, stream);
    case 4:
      return launch_chunks_of<Sample, 4>(src, dst, keep, channel_mask, region, stream);
    }
  }
  return cudaErrorInvalidValue;
}

template <typename Sample>
cudaError_t launch_histogram(const SourceView<Sample> &src, const DestinationView<Sample> &dst,
                             int window, uint32_t keep, const OutputRegion &region,
                             cudaStream_t stream) {
  constexpr int kThreads = HistogramShape<Sample>::kThreads;
  if (region.whole_plane) {
    const auto kernel = median_histogram_kernel<Sample, WholePlaneTiles>;
    int resident = 0;
    if (const cudaError_t e = resident_blocks(kernel, kThreads, 0, &resident); e != cudaSuccess)
      return e;
    // As many strips as fit one wave of resident blocks: more would repeat the K * K
    // setup of a strip more often (or start a second, mostly idle wave), fewer would
    // leave multiprocessors idle.
    const int block_columns = ceil_div(src.width, kThreads);
    const int strips = std::max(1, resident / block_columns);
    const int strip_rows = std::max({kMinStripRows, ceil_div(src.height, strips),
                                     ceil_div(src.height, kMaxGridY)});
    const dim3 grid(block_columns, ceil_div(src.height, strip_rows));
    kernel<<<grid, kThreads, 0, stream>>>(src, dst, window, strip_rows, keep,
                                          WholePlaneTiles{});
    return cudaGetLastError();
  }
  const auto kernel = median_histogram_kernel<Sample, RegionTable>;
  int resident = 0;
  if (const cudaError_t e = resident_blocks(kernel, kThreads, 0, &resident); e != cudaSuccess)
    return e;
  int64_t column_rows = 0;
  for (int b = 0; b < region.count; ++b)
    column_rows += int64_t(ceil_div(region.boxes[b].width, kThreads)) * region.boxes[b].height;
  const int strip_rows = region_band_rows(column_rows, resident, kMinStripRows);
  return launch_region_tables(
      region,
      [&](const Box &box) {
        return TileCount{ceil_div(box.width, kThreads), ceil_div(box.height, strip_rows)};
      },
      [&](const RegionTable &table, int tiles) {
        kernel<<<tiles, kThreads, 0, stream>>>(src, dst, window, strip_rows, keep, table);
        return cudaGetLastError();
      });
}

// 16-bit windows 11 to 31 on the network kernel where the device gives a block its
// shared memory (15x15: 145 KiB of sorted columns and 35 KiB of tile; 31x31: 56 KiB of
// tile), else on the moving histogram. Both the whole plane's kernel and the region's
// are allowed the shared memory (resident_blocks) before either launches.
template <int K>
cudaError_t launch_large_window(const SourceView<uint16_t> &src,
                                const DestinationView<uint16_t> &dst, uint32_t keep,
                                unsigned channel_mask, const OutputRegion &region,
                                cudaStream_t stream) {
  // nvcc 13.0's device pass takes the network for a constant only where host code has
  // evaluated it first ("attempt to access run-time storage" otherwise).
  if constexpr (kSortsRows<K>)
    static_assert(median_network::kSortedRowsNetwork<K>.count > 0, "a network to run");
  int resident = 0;
  const cudaError_t e =
      region.whole_plane
          ? resident_blocks(median_network_kernel<K, uint16_t, 1, WholePlaneTiles>,
                            kNetworkThreads, network_dynamic_bytes<K, 1>(), &resident)
          : resident_blocks(median_network_kernel<K, uint16_t, 1, RegionTable>,
                            kNetworkThreads, network_dynamic_bytes<K, 1>(), &resident);
  if (e != cudaSuccess)
    return e;
  if (resident == 0)
    return launch_histogram(src, dst, K, keep, region, stream);
  return launch_network_of<K, uint16_t, 1>(src, dst, keep, channel_mask, region, stream);
}

// The windows of launch_large_window, one instantiation each.
template <int... K>
cudaError_t launch_large_window_of(std::integer_sequence<int, K...>, int window,
                                   const SourceView<uint16_t> &src,
                                   const DestinationView<uint16_t> &dst, uint32_t keep,
                                   unsigned channel_mask, const OutputRegion &region,
                                   cudaStream_t stream) {
  cudaError_t result = cudaErrorInvalidValue;
  ((window == K &&
    (result = launch_large_window<K>(src, dst, keep, channel_mask, region, stream), true)) ||
   ...);
  return result;
}
using LargeWindows = std::integer_sequence<int, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31>;
static_assert(kMedianMaxWindow == 31, "LargeWindows lists every window from 11");

template <typename Sample>
cudaError_t launch(const Plane &src, const Plane &dst, SampleFormat format,
                   const MedianParams &params, cudaStream_t stream) {
  const SourceView<Sample> source{src.data,         src.width,          src.height,
                                  src.row_pitch,    src.pixel_stride,   params.border.mode,
                                  static_cast<uint16_t>(border_sample(params.border, format))};
  const DestinationView<Sample> destination{dst.data, dst.width, dst.height, dst.row_pitch,
                                            dst.pixel_stride};
  const OutputRegion &region = params.region;
  // The value bits of a sample: 0xff, 0xffff, 0xffc0 for P010.
  const uint32_t keep = stored_sample(format, max_sample_value(format));
  // The register and network kernels filter packed pixels whole up to 7x7; 9x9 (a
  // network twice as large as 7x7's), the moving histogram and pixels of 3 channels go one
  // channel at a time: one 9x9 kernel a sample type keeps the compile time down.
  if (params.window == 3 && suits_chunks<Sample>(src, dst))
    return launch_chunks(source, destination, keep, src.channels, src.channel_mask, region,
                         stream);
  const bool whole = params.window <= 7 && suits_network(src, dst, format);
  const auto channel_by_channel = [&](const Plane &src_channel, const Plane &dst_channel) {
    return launch<Sample>(src_channel, dst_channel, format, params, stream);
  };
  if (src.channels > 1 && !whole)
    return region.whole_plane
               ? filter_channels_cuda(src, dst, format, stream, channel_by_channel)
               : filter_region_channels_cuda(src, dst, format, channel_by_channel);
  switch (params.window) {
  case 3:
    return launch_network<3>(source, destination, keep, src.channels, src.channel_mask, region,
                             stream);
  case 5:
    return launch_network<5>(source, destination, keep, src.channels, src.channel_mask, region,
                             stream);
  case 7:
    return launch_network<7>(source, destination, keep, src.channels, src.channel_mask, region,
                             stream);
  case 9:
    return launch_network_of<9, Sample, 1>(source, destination, keep, src.channel_mask, region,
                                           stream);
  }
  if constexpr (sizeof(Sample) == 2)
    return launch_large_window_of(LargeWindows{}, params.window, source, destination, keep,
                                  src.channel_mask, region, stream);
  else
    return launch_histogram(source, destination, params.window, keep, region, stream);
}

}  // namespace

cudaError_t median_cuda(const Plane &src, const Plane &dst, SampleFormat format,
                        const MedianParams &params, cudaStream_t stream) {
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
