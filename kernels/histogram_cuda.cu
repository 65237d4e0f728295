// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// CUDA histograms of a plane's channels, in one kernel launch per frame (per channel
// for planes whose pixels are not counted whole, below).
//
// Every block counts its share of the region into sub-histograms in shared memory and
// adds them, with global atomics, into running totals kept in the workspace; the last
// block to finish (an atomic ticket) turns the totals into the frame's result and
// zeroes them for the next frame. So nothing is cleared before a launch, and the serial
// tail costs O(bins), where merging a copy per block would cost O(blocks x bins).
//
// 8-bit samples (value_histogram_kernel) are counted by value, as the CPU backend
// does: a sample's byte is its sub-histogram index, so the per-sample work is two
// instructions, a byte permutation that forms the count's address and a shared-memory
// atomic, whatever the bins, range or region. The last block maps the 256 value counts
// to bins, below and above, and derives min, max and sum from them. Packed rows are
// read as whole 16-byte aligned chunks, several loads in flight per thread, their few
// samples outside whole chunks apart. Packed pixels of 2 or 4 channels (NV12's UV,
// RGBA) are counted in the same pass: byte k of an aligned word is channel k % C, and
// each channel has its own sub-histograms, so a sample still costs a byte permutation
// and an atomic. Other packed planes are counted channel by channel.
//
// 16-bit samples (slot_histogram_kernel) are binned per sample, with a running sum,
// min and max per thread; samples with padding bits (P010) become their values
// (plane.h) as they are loaded, so everything after counts values.
//
// Collisions: lanes of a warp that add to one shared-memory word take turns, and in a
// constant image every add collides. Two things keep such images as fast as random
// ones:
//  - replicated sub-histograms: bin b of replica r is word b * R + r, and lane l adds
//    to replica l % R. With R = 32 each lane has its own bank and word whatever the
//    data (no conflict at all); with fewer, at most 32 / R lanes share a word. The
//    256 values of 8-bit samples always have 32, laid out differently (ValueCounter).
//  - (16-bit) runs: a thread whose chunk of samples holds one value adds them in one
//    atomic.
// For 16-bit samples R is the largest power of two up to 32 whose sub-histograms fit
// kReplicaBytes: 32 up to 256 bins, halving as the bins double, down to 1 for 4097 to
// 8192 bins. Beyond, one copy while the device's shared memory per block holds it (up
// to 58K bins on Hopper, 41K on A100, 25K on sm_86/89, 16K on Turing); beyond that
// (65536 bins everywhere), blocks add straight to the totals in global memory. There a
// warp first combines its lanes' adds to one bin (__match_any_sync), or to one value
// across the warp, since same-address atomics from every multiprocessor queue at one
// L2 slice.
//
// Histograms of many boxes of a plane (histogram_boxes_cuda) reuse these counters, a
// launch for a batch of boxes: see the section at the end.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cuda_views.cuh"
#include "histogram.h"

namespace cf {
namespace {

constexpr int kThreads = 512;  // of slot_histogram_kernel
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kLanes = 32;
constexpr int kChunkBytes = 16;  // one vector load
constexpr int kMaxReplicas = kLanes;
constexpr size_t kReplicaBytes = 40 * 1024;

// Slots of a histogram of `bins` bins: the bins, then one for the samples above the
// range and one for those below it, which so cost no more than the others.
constexpr int above_slot(int bins) { return bins; }
constexpr int below_slot(int bins) { return bins + 1; }
constexpr int slot_count(int bins) { return bins + 2; }
constexpr uint32_t kNoSlot = 0xffffffffu;  // an invalid sample, counted nowhere

// value_histogram_kernel: one block per multiprocessor, whose threads all take part
// in merging its sub-histograms (kMergeThreadsPerValue per value).
constexpr int kValues = 256;  // of an 8-bit sample
constexpr int kMergeThreadsPerValue = 4;
constexpr int kValueThreads = kValues * kMergeThreadsPerValue;
// Copies of the value totals in the workspace, block b adding to copy b % kValueCopies:
// blocks finish at about the same time, and fewer of them then queue at each counter.
constexpr int kValueCopies = 16;
constexpr int kLoadsInFlight = 4;  // 16-byte loads a thread issues before counting them

// The workspace: running totals that every block adds to and the last block empties,
// zero between launches (zero is neutral for each), then the counts:
// slot_count(bins) of them for 16-bit samples, kValueCopies x kValues for 8-bit ones.
struct Totals {
  unsigned long long sum;
  unsigned int ticket;  // blocks finished in this launch
  unsigned int min_complement;  // ~min: atomicMax of complements, with 0 neutral
  unsigned int max;
};
constexpr size_t kCountsOffset = 256;
static_assert(sizeof(Totals) <= kCountsOffset, "counts follow the totals");

// A block's sum, min and max in shared memory, ahead of its sub-histograms.
struct alignas(16) BlockTotals {
  unsigned long long sum;
  unsigned int min;
  unsigned int max;
};
constexpr size_t kBlockTotalsBytes = sizeof(BlockTotals);
static_assert(kBlockTotalsBytes % 16 == 0, "sub-histograms stay aligned");

// The region of interest.
struct Region {
  const uint8_t *first;  // sample (roi_x, roi_y)
  ptrdiff_t row_pitch;
  int pixel_stride;
  int width;  // samples per row
  unsigned height;
  int items_per_row;  // chunks of samples, see PackedRows and StridedRows
};

// Sample v goes to bin (v - lower) * bins / range where t = v - lower < range. With
// M = ceil(2^32 bins / range) = scale_high 2^32 + scale_low (scale_high is 1 only for
// bins == range), floor(t M / 2^32) is that bin exactly for every t < range <= 2^16:
// M range = 2^32 bins + e with e < range, so t M / 2^32 = t bins / range + t e /
// (2^32 range), and with t bins = q range + r, r < range, the fraction
// (r + t e / 2^32) / range stays below 1 as t e < 2^32. And t = range gives exactly
// bins, the slot above the range.
struct Binning {
  uint32_t lower;
  uint32_t range;
  uint32_t scale_high;
  uint32_t scale_low;
  int bins;

  // Without a branch or select: samples outside the range clamp to t = range, the
  // slot above it, and those below add 1 (v - lower wraps around to 2^32 - 65535 or
  // more there, its top bit set).
  __device__ uint32_t slot(uint32_t value) const {
    const uint32_t offset = value - lower;
    const uint32_t t = ::min(offset, range);
    return t * scale_high + __umulhi(t, scale_low) + (offset >> 31);
  }
};

Binning make_binning(const HistogramParams &params) {
  const uint32_t range = params.upper - params.lower + 1;
  const uint64_t scale = ((uint64_t(params.bins) << 32) + range - 1) / range;
  return {params.lower, range, uint32_t(scale >> 32), uint32_t(scale), params.bins};
}

// One thread's samples of one turn. Invalid ones (past the row's end) count nowhere.
template <typename Sample>
struct Chunk {
  static constexpr int kSamples = kChunkBytes / int(sizeof(Sample));
  static constexpr uint32_t kAllValid = (1u << kSamples) - 1;
  uint32_t sample[kSamples];  // 0 where invalid
  uint32_t valid;             // bit k: sample[k] lies in the region
  bool run;                   // every sample valid and of one value

  __device__ bool is_valid(int k) const { return (valid >> k) & 1u; }

  // The samples' values (plane.h). Samples of one value keep one value: run holds.
  __device__ void to_values(int padding_bits) {
#pragma unroll
    for (int k = 0; k < kSamples; ++k)
      sample[k] >>= padding_bits;
  }
};

template <typename Sample>
__device__ Sample load(const uint8_t *address) {
  return __ldg(reinterpret_cast<const Sample *>(address));
}

// Packed samples (pixel_stride == sample size): the row is read in the 16-byte aligned
// chunks that hold it, item c being the c-th from the one holding the first sample.
// Whole chunks are one vector load; the partial ones at either end are read sample by
// sample, so nothing outside the region is read.
template <typename Sample>
struct PackedRows {
  static constexpr int kSamples = Chunk<Sample>::kSamples;

  // At most, whatever the row's alignment (the box kernels find their items with it too).
  __host__ __device__ static int items_per_row(int width) {
    return int((int64_t(width) * int(sizeof(Sample)) + 2 * kChunkBytes - 2) / kChunkBytes);
  }

  __device__ static Chunk<Sample> load_chunk(const Region &region, unsigned y, int c) {
    const uint8_t *row = region.first + y * region.row_pitch;
    const int64_t row_bytes = int64_t(region.width) * int(sizeof(Sample));
    // Byte offset of the chunk from the row's first sample, negative for the first chunk
    // of a row that starts in the middle of one.
    const int offset = c * kChunkBytes - int(reinterpret_cast<uintptr_t>(row) % kChunkBytes);
    Chunk<Sample> chunk;
    if (offset >= 0 && offset + kChunkBytes <= row_bytes) {
      const uint4 vector = __ldg(reinterpret_cast<const uint4 *>(row + offset));
      const uint32_t words[4] = {vector.x, vector.y, vector.z, vector.w};
      constexpr int kPerWord = 4 / int(sizeof(Sample));
#pragma unroll
      for (int k = 0; k < kSamples; ++k) {
        // One byte permutation: the sample's bytes to the bottom, zeros above.
        const int first_byte = (k % kPerWord) * int(sizeof(Sample));
        const int selector = sizeof(Sample) == 1 ? 0x4440 | first_byte
                                                 : 0x4400 | (first_byte + 1) << 4 | first_byte;
        chunk.sample[k] = __byte_perm(words[k / kPerWord], 0, selector);
      }
      chunk.valid = Chunk<Sample>::kAllValid;
      // All four words equal, and the first made of copies of its first sample.
      const uint32_t splat =
          __byte_perm(words[0], 0, sizeof(Sample) == 1 ? 0x0000 : 0x1010);
      chunk.run = words[0] == words[1] && words[0] == words[2] && words[0] == words[3] &&
                  words[0] == splat;
    } else {
      chunk.valid = 0;
#pragma unroll
      for (int k = 0; k < kSamples; ++k) {
        const int at = offset + k * int(sizeof(Sample));
        const bool inside = at >= 0 && at < row_bytes;
        chunk.sample[k] = inside ? load<Sample>(row + at) : 0;
        chunk.valid |= uint32_t(inside) << k;
      }
      chunk.run = false;
    }
    return chunk;
  }
};

// Any pixel stride: item c of a row holds its samples c * kSamples onwards, each read
// on its own (the lines they share come from L1).
template <typename Sample>
struct StridedRows {
  static constexpr int kSamples = Chunk<Sample>::kSamples;

  __host__ __device__ static int items_per_row(int width) {
    return (width + kSamples - 1) / kSamples;
  }

  __device__ static Chunk<Sample> load_chunk(const Region &region, unsigned y, int c) {
    const unsigned x = unsigned(c) * kSamples;
    const uint8_t *first =
        region.first + y * region.row_pitch + ptrdiff_t(x) * region.pixel_stride;
    Chunk<Sample> chunk;
    chunk.valid = 0;
#pragma unroll
    for (int k = 0; k < kSamples; ++k) {
      const bool inside = x + k < unsigned(region.width);
      chunk.sample[k] = inside ? load<Sample>(first + ptrdiff_t(k) * region.pixel_stride) : 0;
      chunk.valid |= uint32_t(inside) << k;
    }
    uint32_t differences = 0;
#pragma unroll
    for (int k = 1; k < kSamples; ++k)
      differences |= chunk.sample[k] ^ chunk.sample[0];
    chunk.run = chunk.valid == Chunk<Sample>::kAllValid && differences == 0;
    return chunk;
  }
};

// One thread's running sum, min and max.
struct ThreadTotals {
  unsigned long long sum = 0;
  uint32_t min = 0xffffffffu;
  uint32_t max = 0;

  template <typename Sample>
  __device__ void add(const Chunk<Sample> &chunk) {
    constexpr int kSamples = Chunk<Sample>::kSamples;
    if (chunk.run) {
      const uint32_t value = chunk.sample[0];
      sum += value * kSamples;
      min = ::min(min, value);
      max = ::max(max, value);
      return;
    }
    if (chunk.valid == Chunk<Sample>::kAllValid)
      add_samples<true>(chunk);
    else
      add_samples<false>(chunk);
  }

  // kAllValid: a path without a test per sample for the chunks inside a row.
  template <bool kAllValid, typename Sample>
  __device__ void add_samples(const Chunk<Sample> &chunk) {
    uint32_t chunk_sum = 0;  // at most 16 * 255 or 8 * 65535; invalid samples are 0
#pragma unroll
    for (int k = 0; k < Chunk<Sample>::kSamples; ++k) {
      const uint32_t value = chunk.sample[k];
      chunk_sum += value;
      if (kAllValid || chunk.is_valid(k)) {
        min = ::min(min, value);
        max = ::max(max, value);
      }
    }
    sum += chunk_sum;
  }
};

template <typename T, typename Op>
__device__ T warp_reduce(T value, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2)
    value = op(value, __shfl_xor_sync(kFullMask, value, offset));
  return value;
}

// This lane's replica in shared memory: slot s at first[s * replicas].
struct Replica {
  uint32_t *first;
  uint32_t replicas;

  __device__ void add(uint32_t slot, uint32_t count) const {
    atomicAdd(&first[slot * replicas], count);
  }
};

// kAllValid: a path without a test per sample for the chunks inside a row.
template <bool kAllValid, typename Sample>
__device__ void count_samples_shared(const Replica &replica, const Chunk<Sample> &chunk,
                                     const Binning &binning) {
#pragma unroll
  for (int k = 0; k < Chunk<Sample>::kSamples; ++k)
    if (kAllValid || chunk.is_valid(k))
      replica.add(binning.slot(chunk.sample[k]), 1);
}

template <typename Sample>
__device__ void count_shared(const Replica &replica, const Chunk<Sample> &chunk,
                             const Binning &binning) {
  if (chunk.run)
    replica.add(binning.slot(chunk.sample[0]), Chunk<Sample>::kSamples);
  else if (chunk.valid == Chunk<Sample>::kAllValid)
    count_samples_shared<true>(replica, chunk, binning);
  else
    count_samples_shared<false>(replica, chunk, binning);
}

// Counts straight into the totals in global memory; every lane of the warp calls it.
template <typename Sample>
__device__ void count_global(uint32_t *counts, const Chunk<Sample> &chunk,
                             const Binning &binning) {
  constexpr int kSamples = Chunk<Sample>::kSamples;
  const unsigned lane = threadIdx.x % 32;
  const uint32_t first = __shfl_sync(kFullMask, chunk.sample[0], 0);
  if (__all_sync(kFullMask, chunk.run && chunk.sample[0] == first)) {
    if (lane == 0)
      atomicAdd(&counts[binning.slot(first)], uint32_t(32 * kSamples));
    return;
  }
#pragma unroll
  for (int k = 0; k < kSamples; ++k) {
    const uint32_t slot = chunk.is_valid(k) ? binning.slot(chunk.sample[k]) : kNoSlot;
    const unsigned peers = __match_any_sync(kFullMask, slot);
    if (slot != kNoSlot && lane == unsigned(__ffs(peers) - 1))
      atomicAdd(&counts[slot], uint32_t(__popc(peers)));
  }
}

// Calls count(chunk) for this thread's chunks of the region: items in row-major order,
// item i taken by thread i % (threads of the grid). Every lane of a warp takes the same
// number of turns (those past the end with a chunk of no valid sample), so that count
// may hold warp-wide steps.
template <typename Sample, typename Rows, typename Count>
__device__ void for_each_chunk(const Region &region, Count count) {
  const unsigned lane = threadIdx.x % kLanes;
  const unsigned grid_threads = gridDim.x * blockDim.x;
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const uint64_t items = uint64_t(region.height) * unsigned(region.items_per_row);
  const uint64_t warp_first = thread - lane;
  const unsigned turns =
      warp_first < items ? unsigned((items - warp_first + grid_threads - 1) / grid_threads) : 0;
  unsigned y = thread / region.items_per_row;
  int c = int(thread % region.items_per_row);
  const unsigned step_rows = grid_threads / region.items_per_row;
  const int step_items = int(grid_threads % region.items_per_row);
  for (unsigned turn = 0; turn < turns; ++turn) {
    Chunk<Sample> chunk;
    if (y < region.height) {
      chunk = Rows::load_chunk(region, y, c);
    } else {
      chunk.valid = 0;
      chunk.run = false;
#pragma unroll
      for (int k = 0; k < Chunk<Sample>::kSamples; ++k)
        chunk.sample[k] = 0;
    }
    count(chunk);
    y += step_rows;
    c += step_items;
    if (c >= region.items_per_row) {
      c -= region.items_per_row;
      ++y;
    }
  }
}

// Adds every thread's sum, min and max to the block's: warp reductions, then one
// shared-memory atomic each per warp. Whole warps call it.
__device__ void add_to_block(BlockTotals &block, unsigned long long sum, uint32_t min,
                             uint32_t max) {
  sum = warp_reduce(sum, [](auto a, auto b) { return a + b; });
  min = warp_reduce(min, [](uint32_t a, uint32_t b) { return ::min(a, b); });
  max = warp_reduce(max, [](uint32_t a, uint32_t b) { return ::max(a, b); });
  if (threadIdx.x % kLanes == 0) {
    atomicAdd(&block.sum, sum);
    atomicMin(&block.min, min);
    atomicMax(&block.max, max);
  }
}

// Whether this block is the last to finish of the `blocks` that add to `totals` (the
// launch's, or a box's tiles); every thread of the block calls it after its last
// addition to the totals. The last block to take a ticket sees every other block's
// additions: the barrier orders the block's additions before thread 0's fence, the
// fence before its ticket (as in a cooperative groups grid sync). atomicInc wraps the
// ticket back to 0 for the next launch.
__device__ bool is_last_block(Totals *totals, unsigned blocks) {
  __shared__ bool is_last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const bool last = atomicInc(&totals->ticket, blocks - 1) == blocks - 1;
    if (last)
      __threadfence();
    is_last = last;
  }
  __syncthreads();
  return is_last;
}

// What a block of slot_histogram_kernel or slot_boxes_kernel does, in its order.

// Clears the block's sub-histograms (`replicas` copies of slot_count(bins) slots) and
// totals.
__device__ void clear_slot_block(uint32_t *sub_histograms, int bins, int replicas,
                                 BlockTotals &block) {
  for (int i = threadIdx.x; i < slot_count(bins) * replicas; i += kThreads)
    sub_histograms[i] = 0;
  if (threadIdx.x == 0)
    block = {0, 0xffffffffu, 0};
  __syncthreads();
}

// Counts one of a thread's chunks: its values into the thread's sum, min and max
// (`mine`), its slots into the thread's replica in shared memory (kInShared) or
// straight into the totals' slots, `counts`.
template <bool kInShared, typename Sample>
__device__ __forceinline__ void count_slot_chunk(const Chunk<Sample> &samples_read,
                                                 int padding_bits, const Replica &replica,
                                                 uint32_t *counts, const Binning &binning,
                                                 ThreadTotals &mine) {
  Chunk<Sample> chunk = samples_read;
  chunk.to_values(padding_bits);
  mine.add(chunk);
  if constexpr (kInShared)
    count_shared(replica, chunk, binning);
  else
    count_global(counts, chunk, binning);
}

// Adds the block's counts and totals to the totals in the workspace: each slot the sum
// of its replicas, read starting at a different replica in each thread to spread the
// threads of a warp over the banks.
template <bool kInShared>
__device__ void add_slot_block(const uint32_t *sub_histograms, int bins, int replicas,
                               const BlockTotals &block, uint32_t *counts, Totals *totals) {
  if constexpr (kInShared) {
    for (int slot = threadIdx.x; slot < slot_count(bins); slot += kThreads) {
      const uint32_t *slot_replicas = sub_histograms + slot * replicas;
      uint32_t count = 0;
      for (int r = 0; r < replicas; ++r)
        count += slot_replicas[(r + slot) & (replicas - 1)];
      if (count != 0)
        atomicAdd(&counts[slot], count);
    }
  }
  if (threadIdx.x == 0 && block.min != 0xffffffffu) {  // the block counted samples
    if (block.sum != 0)
      atomicAdd(&totals->sum, block.sum);
    atomicMax(&totals->min_complement, ~block.min);
    atomicMax(&totals->max, block.max);
  }
}

// The last block: the totals (emptied) to `output`'s bins and summary.
__device__ void finish_slots(int bins, uint32_t samples, uint32_t *counts, Totals *totals,
                             const HistogramOutput &output) {
  for (int bin = threadIdx.x; bin < bins; bin += kThreads)
    output.bins[bin] = atomicExch(&counts[bin], 0u);
  if (threadIdx.x == 0) {
    HistogramSummary summary;
    summary.sum = atomicExch(&totals->sum, 0ull);
    summary.samples = samples;
    summary.below = atomicExch(&counts[below_slot(bins)], 0u);
    summary.above = atomicExch(&counts[above_slot(bins)], 0u);
    summary.min = ~atomicExch(&totals->min_complement, 0u);
    summary.max = atomicExch(&totals->max, 0u);
    *output.summary = summary;
  }
}

// 16-bit samples. kInShared: counts in `replicas` sub-histograms in shared memory, else
// straight into the totals in global memory. replicas is a power of two passed as a
// count, not a shift: the compiler then forms a slot's address in one multiply-add, not
// three steps.
template <typename Sample, typename Rows, bool kInShared>
__global__ void __launch_bounds__(kThreads)
    slot_histogram_kernel(Region region, Binning binning, int replicas, int padding_bits,
                          uint32_t samples, Totals *totals, uint32_t *bins_out,
                          HistogramSummary *summary_out) {
  extern __shared__ uint4 shared_memory[];  // 16-byte aligned
  BlockTotals &block = *reinterpret_cast<BlockTotals *>(shared_memory);
  uint32_t *const sub_histograms =
      reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(shared_memory) + kBlockTotalsBytes);
  uint32_t *const counts =
      reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(totals) + kCountsOffset);
  const int bins = binning.bins;
  clear_slot_block(sub_histograms, bins, replicas, block);

  const unsigned lane = threadIdx.x % kLanes;
  const Replica replica{sub_histograms + (kInShared ? lane & unsigned(replicas - 1) : 0),
                        uint32_t(replicas)};
  ThreadTotals mine;
  for_each_chunk<Sample, Rows>(region, [&](const Chunk<Sample> &chunk) {
    count_slot_chunk<kInShared>(chunk, padding_bits, replica, counts, binning, mine);
  });
  add_to_block(block, mine.sum, mine.min, mine.max);
  __syncthreads();

  add_slot_block<kInShared>(sub_histograms, bins, replicas, block, counts, totals);
  if (is_last_block(totals, gridDim.x))
    finish_slots(bins, samples, counts, totals, {bins_out, summary_out});
}

// ---------------------------------------------------------------------------------
// 8-bit samples, counted by value.

// The sub-histograms of the sample values in shared memory: value v's kLanes counts,
// one for each lane, lie in the first half of its kValueBytes, so that the address of
// a sample's count is a byte permutation away (ValueCounter::add_byte): the value as
// the second byte, the lane's offset as the first. The offsets (lane % 16) * 8 +
// (lane / 16) * 4 put the 32 lanes of a warp on 32 different banks whatever the data.
// The second halves stay unused: neither cleared nor read.
//
// A second channel's counts take the second halves; channels 2 and 3 the same layout
// kValuePlaneBytes further on: channel c's counts for value v lie at
// (c / 2) kValuePlaneBytes + v kValueBytes + (c % 2) kValueCountsBytes.
constexpr int kValueBytes = 256;
constexpr int kValueCountsBytes = kLanes * sizeof(uint32_t);  // the first half
constexpr int kValuePlaneBytes = kValues * kValueBytes;

// Shared memory of the sub-histograms of pixels of C channels.
constexpr size_t value_shared_bytes(int channels) {
  return size_t((channels - 1) / 2) * kValuePlaneBytes + (kValues - 1) * kValueBytes +
         (channels == 1 ? 1 : 2) * kValueCountsBytes;
}

// Byte offset of channel c's sub-histograms.
constexpr uint32_t channel_counts_offset(int c) {
  return uint32_t(c / 2) * kValuePlaneBytes + uint32_t(c % 2) * kValueCountsBytes;
}

// Counts the samples of pixels of C channels (C = 1, 2 or 4), of the channels of
// `counted` (a mask).
template <int C>
struct ValueCounter {
  uint32_t sub_histograms;  // shared-memory address
  uint32_t lane_offsets[C]; // of the lane's count of channel c, in bytes: bits 0-7 and 16-23
  unsigned counted;

  __device__ ValueCounter(const void *shared, unsigned lane, unsigned channel_mask)
      : sub_histograms(uint32_t(__cvta_generic_to_shared(shared))), counted(channel_mask) {
#pragma unroll
    for (int c = 0; c < C; ++c)
      lane_offsets[c] = lane % 16 * 8 + lane / 16 * 4 + channel_counts_offset(c);
  }

  __device__ void add_at(uint32_t offset) const {
    // A shared-memory reduction on a 32-bit address, so that the compiler folds the
    // sub-histograms' address into the instruction rather than adding it apart.
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(sub_histograms + offset) : "memory");
  }

  // A sample of channel c, c known at run time only (so not lane_offsets[c], which would
  // put the array in local memory).
  __device__ void add(uint32_t value, int c) const {
    if ((counted >> c) & 1u)
      add_at(value * kValueBytes + lane_offsets[0] + channel_counts_offset(c));
  }

  // Byte k of word: the offset of its count in one byte permutation (byte k of word as
  // the second byte, the lane's offset in the others).
  __device__ void add_byte(uint32_t word, int k) const {
    static_assert(kValueBytes == 256 && 2 * kValueCountsBytes <= 256, "value * 256 + offset");
    add_at(__byte_perm(word, lane_offsets[k % C], 0x7604 | k << 4));
  }

  // A 16-byte aligned chunk of a row whose pixels start at aligned addresses: byte k
  // of each word is channel k % C.
  __device__ void add_chunk(const uint4 &chunk) const {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      if (C > 1 && !((counted >> (k % C)) & 1u))
        continue;
      add_byte(chunk.x, k);
      add_byte(chunk.y, k);
      add_byte(chunk.z, k);
      add_byte(chunk.w, k);
    }
  }
};

// Packed 8-bit rows (pixel_stride 1), each read as the same number of whole 16-byte
// aligned chunks from its first aligned sample on, and the samples outside those
// chunks (its edges: at most 15 before and 30 in all) one by one.
//
// Thread t takes chunk t % chunks_per_row of row t / chunks_per_row, then that of every
// row_step-th row after it, where row_step = (threads of the grid) / chunks_per_row:
// the address of its next chunk is one addition and one rounding up away. The host
// works out what follows from row_step (fit_to_grid) and so saves every thread three
// divisions.
struct ChunkedRows {
  const uint8_t *first;  // sample (roi_x, roi_y)
  ptrdiff_t row_pitch;
  unsigned height;
  unsigned chunks_per_row;
  unsigned edge_samples;    // per row: width - 16 chunks_per_row, at most 30
  unsigned chunk_threads;   // row_step * chunks_per_row: the threads that take chunks
  unsigned turns;           // chunks of each of those, height / row_step,
  unsigned longer_threads;  // and one more for threads below this
  ptrdiff_t step;           // bytes from a thread's chunk to its next: row_step rows
};
static_assert(2 * (kChunkBytes - 1) < kLanes, "a warp reads a row's edges at once");

ChunkedRows chunked_rows(const uint8_t *first, ptrdiff_t row_pitch, int width, int height) {
  // The rows' alignments repeat after at most 16 rows; every row holds this many
  // whole chunks after its first aligned sample.
  unsigned chunks = unsigned(width) / kChunkBytes;
  for (int y = 0; y < std::min(height, kChunkBytes); ++y) {
    const uintptr_t row = reinterpret_cast<uintptr_t>(first) + uintptr_t(y * row_pitch);
    const unsigned head = unsigned(-row % kChunkBytes);
    const unsigned whole = head < unsigned(width) ? (unsigned(width) - head) / kChunkBytes : 0;
    chunks = std::min(chunks, whole);
  }
  ChunkedRows rows{};
  rows.first = first;
  rows.row_pitch = row_pitch;
  rows.height = unsigned(height);
  rows.chunks_per_row = chunks;
  rows.edge_samples = unsigned(width) - chunks * kChunkBytes;
  return rows;
}

// grid_threads: at least chunks_per_row.
void fit_to_grid(ChunkedRows &rows, unsigned grid_threads) {
  if (rows.chunks_per_row == 0)
    return;  // no thread takes chunks
  const unsigned row_step = grid_threads / rows.chunks_per_row;
  rows.chunk_threads = row_step * rows.chunks_per_row;
  rows.turns = rows.height / row_step;
  rows.longer_threads = rows.height % row_step * rows.chunks_per_row;
  rows.step = ptrdiff_t(row_step) * rows.row_pitch;
}

__device__ uintptr_t row_address(const ChunkedRows &rows, unsigned y) {
  return reinterpret_cast<uintptr_t>(rows.first) + uintptr_t(ptrdiff_t(y) * rows.row_pitch);
}

// Samples before a row's first 16-byte aligned one.
__device__ unsigned head_samples(uintptr_t row) { return unsigned(-row % kChunkBytes); }

// Loads `chunks` (kWhole: kLoadsInFlight) chunks, one per row, from the one whose
// first sample lies at or after `position` on, `step` bytes apart, then counts them.
template <bool kWhole, int C>
__device__ void count_loads(uintptr_t &position, uintptr_t step, unsigned chunks,
                            const ValueCounter<C> &counter) {
  uint4 loaded[kLoadsInFlight];
#pragma unroll
  for (int k = 0; k < kLoadsInFlight; ++k) {
    if (kWhole || k < int(chunks)) {
      const uintptr_t aligned = (position + kChunkBytes - 1) & ~uintptr_t(kChunkBytes - 1);
      loaded[k] = __ldg(reinterpret_cast<const uint4 *>(aligned));
      position += step;
    }
  }
#pragma unroll
  for (int k = 0; k < kLoadsInFlight; ++k)
    if (kWhole || k < int(chunks))
      counter.add_chunk(loaded[k]);
}

// The whole chunks.
template <int C>
__device__ void count_chunks(const ChunkedRows &rows, const ValueCounter<C> &counter) {
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  if (thread >= rows.chunk_threads)
    return;
  const unsigned turns = rows.turns + (thread < rows.longer_threads ? 1 : 0);
  const unsigned per_row = rows.chunks_per_row;
  // Chunk c of a row starts at the first aligned address at or after row + 16 c.
  uintptr_t position = row_address(rows, thread / per_row) + thread % per_row * kChunkBytes;
  const uintptr_t step = uintptr_t(rows.step);
  unsigned turn = 0;
  for (; turns - turn >= kLoadsInFlight; turn += kLoadsInFlight)
    count_loads<true>(position, step, kLoadsInFlight, counter);
  if (turn < turns)
    count_loads<false>(position, step, turns - turn, counter);
}

// The edges: row y taken by warp y % (warps of the grid), one sample per lane.
template <int C>
__device__ void count_edges(const ChunkedRows &rows, const ValueCounter<C> &counter) {
  const unsigned lane = threadIdx.x % kLanes;
  if (lane >= rows.edge_samples)
    return;
  const unsigned grid_warps = gridDim.x * blockDim.x / kLanes;
  const unsigned chunk_bytes = rows.chunks_per_row * kChunkBytes;
  for (unsigned y = (blockIdx.x * blockDim.x + threadIdx.x) / kLanes; y < rows.height;
       y += grid_warps) {
    const uintptr_t row = row_address(rows, y);
    // Lanes below the head read it, the others the samples after the chunks. A row
    // without chunks is all edge, its head at most as long.
    const unsigned x = lane < head_samples(row) ? lane : lane + chunk_bytes;
    counter.add(__ldg(reinterpret_cast<const uint8_t *>(row + x)), x % C);
  }
}

template <int C>
__device__ void count_values(const ChunkedRows &rows, const ValueCounter<C> &counter) {
  count_chunks(rows, counter);
  count_edges(rows, counter);
}

// Any pixel stride, one channel: the chunks of StridedRows.
__device__ void count_values(const Region &region, const ValueCounter<1> &counter) {
  for_each_chunk<uint8_t, StridedRows<uint8_t>>(region, [&](const Chunk<uint8_t> &chunk) {
#pragma unroll
    for (int k = 0; k < Chunk<uint8_t>::kSamples; ++k)
      if (chunk.is_valid(k))
        counter.add(chunk.sample[k], 0);
  });
}

// Adds each value's count, the sum of its lanes' counts, to `totals`:
// kMergeThreadsPerValue threads per value, each reading 8 counts in two 16-byte reads,
// in an order that puts the 8 threads of each quarter warp on different banks.
// sub_histograms: one channel's, at channel_counts_offset.
__device__ void merge_values(const uint4 *sub_histograms, uint32_t *totals) {
  static_assert(kMergeThreadsPerValue * 8 * sizeof(uint32_t) == kValueCountsBytes,
                "8 counts per thread");
  const unsigned value = threadIdx.x / kMergeThreadsPerValue;
  const unsigned part = threadIdx.x % kMergeThreadsPerValue;
  const uint4 *counts = sub_histograms + value * (kValueBytes / 16) + 2 * part;
  const uint4 a = counts[value % 2];
  const uint4 b = counts[1 - value % 2];
  uint32_t count = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
  count += __shfl_xor_sync(kFullMask, count, 1);
  count += __shfl_xor_sync(kFullMask, count, 2);
  if (part == 0 && count != 0)
    atomicAdd(&totals[value], count);
}

// Where the counted channels' results go: outputs[c] for each channel c of `counted`.
struct ValueOutputs {
  unsigned counted;  // channel mask
  HistogramOutput outputs[kMaxChannels];
};

// Channel c's value totals in the workspace.
__device__ uint32_t *channel_totals(Totals *totals, int c) {
  return reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(totals) + kCountsOffset) +
         c * kValueCopies * kValues;
}

// Channel c's outputs (c < C), chosen among the kernel's parameters by constant indices:
// an index known only at run time copies the parameters to local memory, where the last
// block waits for them (docs/tuning.md, "Histogram: where its time goes").
template <int C>
__device__ HistogramOutput channel_outputs(const ValueOutputs &out, int c) {
  HistogramOutput chosen = out.outputs[0];
#pragma unroll
  for (int i = 1; i < C; ++i)
    if (c == i)
      chosen = out.outputs[i];
  return chosen;
}

// The value counts of each channel in shared memory cleared: their kValueCountsBytes / 16
// vectors of each value's kValueBytes / 16.
template <int C>
__device__ void clear_value_counts(uint4 *shared_memory) {
  constexpr int kCountVectors = kValueCountsBytes / 16;
  static_assert(kValues * kCountVectors % kValueThreads == 0, "whole turns");
#pragma unroll
  for (int c = 0; c < C; ++c) {
    uint4 *const counts = shared_memory + channel_counts_offset(c) / 16;
#pragma unroll
    for (int turn = 0; turn < kValues * kCountVectors / kValueThreads; ++turn) {
      const unsigned vector = turn * kValueThreads + threadIdx.x;
      counts[vector / kCountVectors * (kValueBytes / 16) + vector % kCountVectors] =
          make_uint4(0, 0, 0, 0);
    }
  }
  __syncthreads();
}

// The last block (of a launch, or of a box's tiles): the value totals (emptied) to
// bins, below, above, sum, min and max, kValues threads a channel, every channel of
// `counted` (a mask) at once. value_totals(c): channel c's kCopies copies of kValues
// counts, one after another; output_of(c): where channel c's results go.
// slots: shared memory for C x slot_count(bins) counts.
template <int C, int kCopies, typename ValueTotals, typename OutputOf>
__device__ void finish_values(const Binning &binning, uint32_t samples, unsigned counted_mask,
                              const ValueTotals &value_totals, const OutputOf &output_of,
                              uint32_t *slots) {
  static_assert(kValues % kLanes == 0 && C * kValues <= kValueThreads,
                "whole warps, one value of one channel each");
  __shared__ BlockTotals block[C];
  const int c = threadIdx.x / kValues;
  const uint32_t value = threadIdx.x % kValues;
  const bool counted = c < C && ((counted_mask >> c) & 1u);
  const int bins = binning.bins;
  uint32_t *const channel_slots = slots + c * slot_count(bins);
  if (counted) {
    for (int slot = value; slot < slot_count(bins); slot += kValues)
      channel_slots[slot] = 0;
    if (value == 0)
      block[c] = {0, 0xffffffffu, 0};
  }
  __syncthreads();
  if (counted) {
    uint32_t *const value_counts = value_totals(c);
    uint32_t count = 0;
#pragma unroll
    for (int copy = 0; copy < kCopies; ++copy)
      count += atomicExch(&value_counts[copy * kValues + value], 0u);
    if (count != 0)
      atomicAdd(&channel_slots[binning.slot(value)], count);
    add_to_block(block[c], uint64_t(value) * count, count != 0 ? value : 0xffffffffu,
                 count != 0 ? value : 0);
  }
  __syncthreads();
  if (!counted)
    return;
  const HistogramOutput output = output_of(c);
  for (int bin = value; bin < bins; bin += kValues)
    output.bins[bin] = channel_slots[bin];
  if (value == 0) {
    HistogramSummary summary;
    summary.sum = block[c].sum;
    summary.samples = samples;
    summary.below = channel_slots[below_slot(bins)];
    summary.above = channel_slots[above_slot(bins)];
    summary.min = block[c].min;  // the region is never empty
    summary.max = block[c].max;
    *output.summary = summary;
  }
}

// Rows: ChunkedRows, or Region (with StridedRows) for C = 1. Pixels of C channels,
// those of `out.counted` counted. Needs value_shared_bytes(C) of dynamic shared memory.
template <typename Rows, int C>
__global__ void __launch_bounds__(kValueThreads, 1)
    value_histogram_kernel(Rows rows, Binning binning, uint32_t samples, Totals *totals,
                           ValueOutputs out) {
  static_assert(C * slot_count(kHistogramMaxBins8) * sizeof(uint32_t) <= value_shared_bytes(C),
                "the slots fit the sub-histograms");
  extern __shared__ uint4 shared_memory[];  // 16-byte aligned
  clear_value_counts<C>(shared_memory);
  const ValueCounter<C> counter(shared_memory, threadIdx.x % kLanes, out.counted);
  count_values(rows, counter);
  __syncthreads();
#pragma unroll
  for (int c = 0; c < C; ++c)
    if ((out.counted >> c) & 1u)
      merge_values(shared_memory + channel_counts_offset(c) / 16,
                   channel_totals(totals, c) + blockIdx.x % kValueCopies * kValues);
  if (is_last_block(totals, gridDim.x))  // the slots reuse the sub-histograms, done with now
    finish_values<C, kValueCopies>(
        binning, samples, out.counted, [&](int c) { return channel_totals(totals, c); },
        [&](int c) { return channel_outputs<C>(out, c); },
        reinterpret_cast<uint32_t *>(shared_memory));
}

// ---------------------------------------------------------------------------------
// Launches.

size_t sub_histogram_bytes(int bins, int replicas) {
  return size_t(slot_count(bins)) * size_t(replicas) * sizeof(uint32_t);
}

// The replicas of one block's sub-histograms, or 0 where not even one copy fits the
// shared memory a block may have.
int replicas_for(int bins, size_t max_shared) {
  for (int replicas = kMaxReplicas; replicas >= 1; replicas /= 2)
    if (sub_histogram_bytes(bins, replicas) <= kReplicaBytes)
      return replicas;
  return kBlockTotalsBytes + sub_histogram_bytes(bins, 1) <= max_shared ? 1 : 0;
}

template <typename Rows>
Region region_of(const Plane &src, const HistogramRegion &roi) {
  return {src.data + roi.y * src.row_pitch + ptrdiff_t(roi.x) * src.pixel_stride,
          src.row_pitch,
          src.pixel_stride,
          roi.width,
          unsigned(roi.height),
          Rows::items_per_row(roi.width)};
}

// One wave of resident blocks, but none whose threads would all find nothing to do:
// more blocks would only add sub-histograms to clear and merge.
int grid_blocks(uint64_t busy_threads, int threads, int resident) {
  const uint64_t wanted = (busy_threads + threads - 1) / threads;
  return int(std::max<uint64_t>(1, std::min<uint64_t>(wanted, uint64_t(resident))));
}

using SlotKernel = void (*)(Region, Binning, int, int, uint32_t, Totals *, uint32_t *,
                            HistogramSummary *);

template <typename Rows>
cudaError_t launch_slots(const Plane &src, SampleFormat format, const HistogramParams &params,
                         uint32_t *bins, HistogramSummary *summary, void *workspace,
                         cudaStream_t stream) {
  const HistogramRegion roi = resolve_region(params, src);
  const Region region = region_of<Rows>(src, roi);

  int device = 0;
  int max_shared = 0;
  int resident = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return e;
  if (const cudaError_t e =
          cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      e != cudaSuccess)
    return e;
  const int replicas = replicas_for(params.bins, size_t(max_shared));
  const SlotKernel kernel = replicas != 0 ? slot_histogram_kernel<uint16_t, Rows, true>
                                          : slot_histogram_kernel<uint16_t, Rows, false>;
  const size_t shared_bytes = kBlockTotalsBytes + sub_histogram_bytes(params.bins, replicas);
  if (const cudaError_t e = resident_blocks(kernel, kThreads, shared_bytes, &resident);
      e != cudaSuccess)
    return e;

  const uint64_t items = uint64_t(roi.height) * unsigned(region.items_per_row);
  kernel<<<grid_blocks(items, kThreads, resident), kThreads, shared_bytes, stream>>>(
      region, make_binning(params), replicas, format.padding_bits,
      uint32_t(roi.width) * uint32_t(roi.height), static_cast<Totals *>(workspace), bins,
      summary);
  return cudaGetLastError();
}

// value_histogram_kernel<Rows, C> on `rows`: busy_threads find something to count;
// the grid needs min_threads at least.
template <typename Rows, int C>
cudaError_t launch_values(Rows rows, uint64_t busy_threads, unsigned min_threads,
                          const HistogramParams &params, uint32_t samples,
                          const ValueOutputs &outputs, void *workspace, cudaStream_t stream) {
  const auto kernel = value_histogram_kernel<Rows, C>;
  int resident = 0;
  if (const cudaError_t e =
          resident_blocks(kernel, kValueThreads, value_shared_bytes(C), &resident);
      e != cudaSuccess)
    return e;
  const int blocks = std::max(grid_blocks(busy_threads, kValueThreads, resident),
                              int((min_threads + kValueThreads - 1) / kValueThreads));
  if constexpr (std::is_same_v<Rows, ChunkedRows>)
    fit_to_grid(rows, unsigned(blocks) * kValueThreads);
  kernel<<<blocks, kValueThreads, value_shared_bytes(C), stream>>>(
      rows, make_binning(params), samples, static_cast<Totals *>(workspace), outputs);
  return cudaGetLastError();
}

// Packed pixels of C channels (1, 2 or 4), pixels at addresses that are multiples of C.
template <int C>
cudaError_t launch_packed_8bit(const Plane &src, const HistogramRegion &roi,
                               const HistogramParams &params, const ValueOutputs &outputs,
                               void *workspace, cudaStream_t stream) {
  const ChunkedRows rows = chunked_rows(src.data + roi.y * src.row_pitch + roi.x * C,
                                        src.row_pitch, roi.width * C, roi.height);
  // A thread per chunk, a warp per row's edges; a thread at least per chunk of a row.
  const uint64_t busy_threads =
      std::max(uint64_t(rows.height) * rows.chunks_per_row,
               rows.edge_samples != 0 ? uint64_t(rows.height) * kLanes : 0);
  return launch_values<ChunkedRows, C>(rows, busy_threads, rows.chunks_per_row, params,
                                       uint32_t(roi.width) * uint32_t(roi.height), outputs,
                                       workspace, stream);
}

// Whether launch_8bit counts src in one pass: 1, 2 or 4 channels side by side, every
// pixel at an address that is a multiple of its size. Else channel by channel.
bool counts_pixels_whole(const Plane &src) {
  const int c = src.channels;
  return (c == 1 || c == 2 || c == 4) && src.pixel_stride == c &&
         (reinterpret_cast<uintptr_t>(src.data) | uintptr_t(src.row_pitch)) % c == 0;
}

// outputs: those of the counted channels of src, in order.
cudaError_t launch_8bit(const Plane &src, const HistogramParams &params,
                        const HistogramOutput *outputs, void *workspace, cudaStream_t stream) {
  const HistogramRegion roi = resolve_region(params, src);
  ValueOutputs value_outputs{src.channel_mask, {}};
  for (int c = 0, k = 0; c < src.channels; ++c)
    if ((src.channel_mask >> c) & 1u)
      value_outputs.outputs[c] = outputs[k++];
  switch (counts_pixels_whole(src) ? src.channels : 0) {
  case 1:
    return launch_packed_8bit<1>(src, roi, params, value_outputs, workspace, stream);
  case 2:
    return launch_packed_8bit<2>(src, roi, params, value_outputs, workspace, stream);
  case 4:
    return launch_packed_8bit<4>(src, roi, params, value_outputs, workspace, stream);
  }
  const Region region = region_of<StridedRows<uint8_t>>(src, roi);
  return launch_values<Region, 1>(region, uint64_t(roi.height) * unsigned(region.items_per_row),
                                  1, params, uint32_t(roi.width) * uint32_t(roi.height),
                                  value_outputs, workspace, stream);
}

}  // namespace

size_t histogram_cuda_workspace_bytes(int bins) {
  const size_t counts = std::max<size_t>(slot_count(std::clamp(bins, 1, kHistogramMaxBins16)),
                                         kMaxChannels * kValueCopies * kValues);
  return kCountsOffset + counts * sizeof(uint32_t);
}

namespace {

// One channel of 16-bit samples (a plane of one).
cudaError_t histogram_channel(const Plane &src, SampleFormat format, const HistogramParams &params,
                              uint32_t *bins, HistogramSummary *summary, void *workspace,
                              cudaStream_t stream) {
  if (src.pixel_stride == int(sizeof(uint16_t)))
    return launch_slots<PackedRows<uint16_t>>(src, format, params, bins, summary, workspace,
                                              stream);
  return launch_slots<StridedRows<uint16_t>>(src, format, params, bins, summary, workspace,
                                             stream);
}

}  // namespace

// 8-bit packed pixels of 2 or 4 channels in one pass (launch_8bit); other packed
// planes channel by channel.
cudaError_t histogram_cuda(const Plane &src, SampleFormat format, const HistogramParams &params,
                           const HistogramOutput *outputs, void *workspace, cudaStream_t stream) {
  if (!is_valid(params, src, format) || !are_samples_aligned(src, format) ||
      !are_valid_outputs(src, outputs) || workspace == nullptr)
    return cudaErrorInvalidValue;
  if (format.depth == SampleDepth::U8 && counts_pixels_whole(src))
    return launch_8bit(src, params, outputs, workspace, stream);
  const HistogramOutput *output = outputs;
  for (int c = 0; c < src.channels; ++c)
    if (src.channel_mask & (1u << c)) {
      const Plane channel = channel_plane(src, c, format);
      // 8-bit samples (no padding bits, is_valid) are counted by value.
      if (const cudaError_t err =
              format.depth == SampleDepth::U8
                  ? launch_8bit(channel, params, output, workspace, stream)
                  : histogram_channel(channel, format, params, output->bins, output->summary,
                                      workspace, stream);
          err != cudaSuccess)
        return err;
      ++output;
    }
  return cudaSuccess;
}

// ---------------------------------------------------------------------------------
// Histograms of boxes (histogram_boxes_cuda).
//
// One launch counts a batch of boxes. Its grid is a list of tiles, each a run of
// tile_items consecutive items (chunks of rows, as above) of one box: box i's tiles are
// blocks first_tile[i] .. first_tile[i + 1] - 1, so that a block finds its box by a
// binary search of the batch, which every block reads alike from the kernel's
// parameters. The host picks the smallest tile that keeps the tiles within one wave of
// resident blocks, so boxes of any sizes spread over every multiprocessor, as one
// frame's region does. Each box has its own totals in the workspace: a block counts its
// tile in shared memory as the whole-frame kernels do, adds its counts to its box's
// totals, and the last of the box's blocks (the box's own ticket) turns them into the
// box's results and leaves them zeroed. Every box's results are written once, by one
// block, while other boxes' blocks still count.
//
// The batch travels in the kernel's parameters, which hold 4 KiB on every driver:
// batches of more boxes than that holds take several launches (histogram_boxes_cuda_batch).

namespace {

// Bytes of a batch in the kernel's parameters, of the 4 KiB every device takes: the rest
// leaves room for the kernel's other parameters.
constexpr size_t kBoxBatchBytes = 3968;

// At most this much workspace for the boxes of one launch; 16-bit samples of many bins
// take fewer boxes a launch.
constexpr size_t kBoxWorkspaceBudget = size_t{8} << 20;

// C: channels of a pixel counted at once (1 where a plane is counted channel by channel).
template <int C>
struct BoxBatch {
  static constexpr int kCapacity =
      int((kBoxBatchBytes - 4 * sizeof(uint32_t)) /
          (sizeof(uint32_t) + sizeof(Box) + C * sizeof(HistogramOutput)));
  int count;                             // boxes of the batch, 1..kCapacity
  unsigned counted;                      // channel mask
  uint32_t tile_items;                   // items of a tile (a box's last may hold fewer)
  uint32_t first_tile[kCapacity + 1];    // [count]: the grid's blocks
  Box boxes[kCapacity];
  HistogramOutput outputs[kCapacity][C];  // box i's of channel c, by channel
};
static_assert(sizeof(BoxBatch<1>) <= kBoxBatchBytes && sizeof(BoxBatch<2>) <= kBoxBatchBytes &&
                  sizeof(BoxBatch<4>) <= kBoxBatchBytes,
              "a batch fits the kernel's parameters");
static_assert(BoxBatch<1>::kCapacity == 109 && BoxBatch<2>::kCapacity == 76 &&
                  BoxBatch<4>::kCapacity == 47,
              "histogram.h says how many boxes a launch counts");

// A box's totals in the workspace: Totals, then (at kCountsOffset) its counts: value
// counts of channel c at c * kValues for 8-bit samples, slot_count(bins) for 16-bit.
size_t box_workspace_stride(int bins) {
  const size_t counts = std::max<size_t>(slot_count(std::clamp(bins, 1, kHistogramMaxBins16)),
                                         kMaxChannels * kValues);
  return (kCountsOffset + counts * sizeof(uint32_t) + 255) / 256 * 256;
}

// Boxes of a launch: those a batch holds (capacity), fewer where their totals would
// pass kBoxWorkspaceBudget.
int boxes_per_launch(int bins, int capacity) {
  const size_t budget = std::max<size_t>(1, kBoxWorkspaceBudget / box_workspace_stride(bins));
  return int(std::min<size_t>(size_t(capacity), budget));
}

// The samples of src (a plane, or one channel of one) the kernels read.
struct PlaneView {
  const uint8_t *data;
  ptrdiff_t row_pitch;
  int pixel_stride;
};

// A block's tile: items first_item .. first_item + items - 1 of box `box`, one of its
// `tiles` tiles.
struct Tile {
  int box;
  unsigned tiles;
  uint64_t first_item;
  unsigned items;
};

// The batch's box of this block: the last whose first tile is this block or one before
// (first_tile increases strictly, every box having a tile at least). Every thread finds
// the same: no divergence, and the batch is read alike.
template <int C>
__device__ int find_box(const BoxBatch<C> &batch) {
  int low = 0;
  int high = batch.count - 1;
  while (low < high) {
    const int middle = (low + high + 1) / 2;
    if (batch.first_tile[middle] <= blockIdx.x)
      low = middle;
    else
      high = middle - 1;
  }
  return low;
}

// This block's tile of box `box`, whose rows hold items_per_row items each (as the host
// counted them).
template <int C>
__device__ Tile find_tile(const BoxBatch<C> &batch, int box, unsigned items_per_row,
                          unsigned height) {
  Tile tile;
  tile.box = box;
  tile.tiles = batch.first_tile[box + 1] - batch.first_tile[box];
  tile.first_item = uint64_t(blockIdx.x - batch.first_tile[box]) * batch.tile_items;
  const uint64_t left = uint64_t(height) * items_per_row - tile.first_item;
  tile.items = unsigned(left < batch.tile_items ? left : batch.tile_items);
  return tile;
}

// Items of a box's rows, for the reader of each kind of plane (the host and the kernels
// must agree).
template <typename Rows>
__host__ __device__ unsigned box_items_per_row(int width) {
  return unsigned(Rows::items_per_row(width));
}

// The 16-byte aligned chunks that a row of 8-bit pixels of C channels touches at most,
// whatever its alignment (count_packed_tile).
template <int C>
__host__ __device__ unsigned packed_items_per_row(int width) {
  return unsigned((int64_t(width) * C + 2 * kChunkBytes - 2) / kChunkBytes);
}

__device__ Region box_region(const PlaneView &plane, const Box &box, unsigned items_per_row) {
  return {plane.data + ptrdiff_t(box.y) * plane.row_pitch + ptrdiff_t(box.x) * plane.pixel_stride,
          plane.row_pitch,
          plane.pixel_stride,
          box.width,
          unsigned(box.height),
          int(items_per_row)};
}

// As for_each_chunk, over the items of a tile: item first_item + threadIdx.x, then every
// blockDim.x-th after it, up to first_item + items. Every lane of a warp takes the same
// number of turns (those past the end with a chunk of no valid sample), so that count
// may hold warp-wide steps.
template <typename Sample, typename Rows, typename Count>
__device__ void for_each_tile_chunk(const Region &region, uint64_t first_item, unsigned items,
                                    Count count) {
  const unsigned lane = threadIdx.x % kLanes;
  const unsigned warp_first = threadIdx.x - lane;
  const unsigned turns =
      warp_first < items ? (items - warp_first + blockDim.x - 1) / blockDim.x : 0;
  const unsigned per_row = unsigned(region.items_per_row);
  const uint64_t item = first_item + threadIdx.x;
  unsigned y = unsigned(item / per_row);
  unsigned c = unsigned(item % per_row);
  const unsigned step_rows = blockDim.x / per_row;
  const unsigned step_items = blockDim.x % per_row;
  for (unsigned turn = 0; turn < turns; ++turn) {
    Chunk<Sample> chunk;
    if (threadIdx.x + turn * blockDim.x < items) {
      chunk = Rows::load_chunk(region, y, int(c));
    } else {
      chunk.valid = 0;
      chunk.run = false;
#pragma unroll
      for (int k = 0; k < Chunk<Sample>::kSamples; ++k)
        chunk.sample[k] = 0;
    }
    count(chunk);
    y += step_rows;
    c += step_items;
    if (c >= per_row) {
      c -= per_row;
      ++y;
    }
  }
}

// 8-bit pixels of C channels at addresses that are multiples of C, a tile's items of a
// box whose rows start at `first`: item (y, c) is the c-th 16-byte aligned chunk from
// the one that holds row y's first sample. Chunks within the row are counted whole
// (ValueCounter::add_chunk), kLoadsInFlight loaded before any is counted; those it
// holds in part sample by sample, reading nothing outside it.
template <int C>
__device__ void count_packed_tile(const uint8_t *first, ptrdiff_t row_pitch, unsigned row_bytes,
                                  unsigned per_row, uint64_t first_item, unsigned items,
                                  const ValueCounter<C> &counter) {
  if (threadIdx.x >= items)
    return;
  const unsigned turns = (items - threadIdx.x + kValueThreads - 1) / kValueThreads;
  const uint64_t item = first_item + threadIdx.x;
  unsigned y = unsigned(item / per_row);
  unsigned c = unsigned(item % per_row);
  const unsigned step_rows = kValueThreads / per_row;
  const unsigned step_items = kValueThreads % per_row;
  for (unsigned turn = 0; turn < turns; turn += kLoadsInFlight) {
    uint4 loaded[kLoadsInFlight];
    uintptr_t rows[kLoadsInFlight];
    uintptr_t chunks[kLoadsInFlight];
    bool whole[kLoadsInFlight];
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) {
      whole[k] = false;
      rows[k] = 0;
      chunks[k] = 0;
      if (turn + k < turns) {
        const uintptr_t row =
            reinterpret_cast<uintptr_t>(first) + uintptr_t(ptrdiff_t(y) * row_pitch);
        const uintptr_t chunk = (row & ~uintptr_t(kChunkBytes - 1)) + uintptr_t(c) * kChunkBytes;
        rows[k] = row;
        chunks[k] = chunk;
        whole[k] = chunk >= row && chunk + kChunkBytes <= row + row_bytes;
        if (whole[k])
          loaded[k] = __ldg(reinterpret_cast<const uint4 *>(chunk));
        y += step_rows;
        c += step_items;
        if (c >= per_row) {
          c -= per_row;
          ++y;
        }
      }
    }
#pragma unroll
    for (int k = 0; k < kLoadsInFlight; ++k) {
      if (turn + k >= turns)
        continue;
      if (whole[k]) {
        counter.add_chunk(loaded[k]);
        continue;
      }
      // The chunk is 16-byte aligned: its byte b is channel b % C.
#pragma unroll
      for (int b = 0; b < kChunkBytes; ++b) {
        const uintptr_t at = chunks[k] + b;
        if (at >= rows[k] && at < rows[k] + row_bytes)
          counter.add(__ldg(reinterpret_cast<const uint8_t *>(at)), b % C);
      }
    }
  }
}

// 8-bit samples, counted by value: kPacked, pixels of C channels (1, 2 or 4) at
// addresses that are multiples of C; else one channel (C = 1) of any pixel stride.
// Needs value_shared_bytes(C) of dynamic shared memory.
template <int C, bool kPacked>
__global__ void __launch_bounds__(kValueThreads, 1)
    value_boxes_kernel(const __grid_constant__ BoxBatch<C> batch, PlaneView plane,
                       Binning binning, uint8_t *workspace, unsigned box_stride) {
  static_assert(kPacked || C == 1, "strided pixels channel by channel");
  static_assert(C * slot_count(kHistogramMaxBins8) * sizeof(uint32_t) <= value_shared_bytes(C),
                "the slots fit the sub-histograms");
  extern __shared__ uint4 shared_memory[];  // 16-byte aligned
  clear_value_counts<C>(shared_memory);

  const int box_index = find_box(batch);
  const Box box = batch.boxes[box_index];
  const unsigned per_row = kPacked ? packed_items_per_row<C>(box.width)
                                   : box_items_per_row<StridedRows<uint8_t>>(box.width);
  const Tile tile = find_tile(batch, box_index, per_row, unsigned(box.height));

  const ValueCounter<C> counter(shared_memory, threadIdx.x % kLanes, batch.counted);
  if constexpr (kPacked) {
    const uint8_t *first = plane.data + ptrdiff_t(box.y) * plane.row_pitch + ptrdiff_t(box.x) * C;
    count_packed_tile<C>(first, plane.row_pitch, unsigned(box.width) * C, per_row,
                         tile.first_item, tile.items, counter);
  } else {
    const Region region = box_region(plane, box, per_row);
    for_each_tile_chunk<uint8_t, StridedRows<uint8_t>>(
        region, tile.first_item, tile.items, [&](const Chunk<uint8_t> &chunk) {
#pragma unroll
          for (int k = 0; k < Chunk<uint8_t>::kSamples; ++k)
            if (chunk.is_valid(k))
              counter.add(chunk.sample[k], 0);
        });
  }
  __syncthreads();

  uint8_t *const box_space = workspace + size_t(tile.box) * box_stride;
  Totals *const totals = reinterpret_cast<Totals *>(box_space);
  uint32_t *const counts = reinterpret_cast<uint32_t *>(box_space + kCountsOffset);
#pragma unroll
  for (int c = 0; c < C; ++c)
    if ((batch.counted >> c) & 1u)
      merge_values(shared_memory + channel_counts_offset(c) / 16, counts + c * kValues);
  if (is_last_block(totals, tile.tiles))  // the slots reuse the sub-histograms, done with now
    finish_values<C, 1>(
        binning, uint32_t(box.width) * uint32_t(box.height), batch.counted,
        [&](int c) { return counts + c * kValues; },
        [&](int c) { return batch.outputs[tile.box][c]; },
        reinterpret_cast<uint32_t *>(shared_memory));
}

// 16-bit samples of one channel, as slot_histogram_kernel, per box.
template <typename Rows, bool kInShared>
__global__ void __launch_bounds__(kThreads)
    slot_boxes_kernel(const __grid_constant__ BoxBatch<1> batch, PlaneView plane,
                      Binning binning, int replicas, int padding_bits, uint8_t *workspace,
                      unsigned box_stride) {
  extern __shared__ uint4 shared_memory[];  // 16-byte aligned
  BlockTotals &block = *reinterpret_cast<BlockTotals *>(shared_memory);
  uint32_t *const sub_histograms =
      reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(shared_memory) + kBlockTotalsBytes);
  const int bins = binning.bins;
  clear_slot_block(sub_histograms, bins, replicas, block);

  const int box_index = find_box(batch);
  const Box box = batch.boxes[box_index];
  const unsigned per_row = box_items_per_row<Rows>(box.width);
  const Tile tile = find_tile(batch, box_index, per_row, unsigned(box.height));
  const Region region = box_region(plane, box, per_row);

  uint8_t *const box_space = workspace + size_t(tile.box) * box_stride;
  Totals *const totals = reinterpret_cast<Totals *>(box_space);
  uint32_t *const counts = reinterpret_cast<uint32_t *>(box_space + kCountsOffset);

  const unsigned lane = threadIdx.x % kLanes;
  const Replica replica{sub_histograms + (kInShared ? lane & unsigned(replicas - 1) : 0),
                        uint32_t(replicas)};
  ThreadTotals mine;
  for_each_tile_chunk<uint16_t, Rows>(
      region, tile.first_item, tile.items, [&](const Chunk<uint16_t> &chunk) {
        count_slot_chunk<kInShared>(chunk, padding_bits, replica, counts, binning, mine);
      });
  add_to_block(block, mine.sum, mine.min, mine.max);
  __syncthreads();

  add_slot_block<kInShared>(sub_histograms, bins, replicas, block, counts, totals);
  if (is_last_block(totals, tile.tiles))
    finish_slots(bins, uint32_t(box.width) * uint32_t(box.height), counts, totals,
                 batch.outputs[tile.box][0]);
}

// Splits the batch's boxes of items[i] items into tiles: the fewest items a tile (at
// least min_items, one per thread) that keep the tiles within `blocks` (one wave of
// resident blocks, or one tile a box where the boxes are more). Returns the tiles.
template <int C>
uint32_t plan_tiles(BoxBatch<C> &batch, const uint64_t *items, int blocks, unsigned min_items) {
  constexpr uint64_t kMaxTileItems = uint64_t{1} << 30;
  const uint64_t most = *std::max_element(items, items + batch.count);
  const auto tiles_of = [&](uint64_t tile_items) {
    uint64_t tiles = 0;
    for (int i = 0; i < batch.count; ++i)
      tiles += (items[i] + tile_items - 1) / tile_items;
    return tiles;
  };
  const uint64_t limit = uint64_t(std::max(blocks, batch.count));
  // The smallest tile within the limit: tiles_of decreases as the tile grows, and a
  // tile of `most` items (one a box) is within it.
  uint64_t low = std::min<uint64_t>(min_items, most);
  uint64_t high = std::max<uint64_t>(low, std::min(most, kMaxTileItems));
  while (low < high) {
    const uint64_t middle = low + (high - low) / 2;
    if (tiles_of(middle) <= limit)
      high = middle;
    else
      low = middle + 1;
  }
  batch.tile_items = uint32_t(std::max<uint64_t>(low, 1));
  uint32_t tiles = 0;
  for (int i = 0; i < batch.count; ++i) {
    batch.first_tile[i] = tiles;
    tiles += uint32_t((items[i] + batch.tile_items - 1) / batch.tile_items);
  }
  batch.first_tile[batch.count] = tiles;
  return tiles;
}

// Counts `count` boxes in batches of at most `per_launch`: fill(batch, first box) fills
// a batch's boxes, outputs and channel mask, items(box) says how many items a box has,
// launch(batch, blocks) launches the kernel.
template <int C, typename Fill, typename Items, typename Launch>
cudaError_t launch_batches(const Box *boxes, int count, int per_launch, int resident,
                           unsigned min_items, const Fill &fill, const Items &items_of,
                           const Launch &launch) {
  if (resident <= 0)
    return cudaErrorInvalidConfiguration;  // the kernel fits no multiprocessor
  for (int first = 0; first < count; first += per_launch) {
    BoxBatch<C> batch{};
    batch.count = std::min(per_launch, count - first);
    uint64_t items[BoxBatch<C>::kCapacity];
    for (int i = 0; i < batch.count; ++i) {
      batch.boxes[i] = boxes[first + i];
      items[i] = items_of(boxes[first + i]);
    }
    fill(batch, first);
    const uint32_t tiles = plan_tiles(batch, items, resident, min_items);
    if (const cudaError_t e = launch(batch, tiles); e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

// Outputs of the k-th counted channel of each box: outputs[b * counted + k].
struct BoxOutputs {
  const HistogramOutput *outputs;
  int counted;  // channels of each box
};

// 8-bit pixels of C channels counted whole (counts_pixels_whole), or (kPacked false)
// the k-th counted channel of src as `plane`, a plane of one channel.
template <int C, bool kPacked>
cudaError_t launch_value_boxes(const Plane &plane, const HistogramParams &params,
                               const Box *boxes, int count, const BoxOutputs &outputs, int k,
                               void *workspace, cudaStream_t stream) {
  const auto kernel = value_boxes_kernel<C, kPacked>;
  int resident = 0;
  if (const cudaError_t e =
          resident_blocks(kernel, kValueThreads, value_shared_bytes(C), &resident);
      e != cudaSuccess)
    return e;
  const PlaneView view{plane.data, plane.row_pitch, plane.pixel_stride};
  const Binning binning = make_binning(params);
  const unsigned stride = unsigned(box_workspace_stride(params.bins));
  const unsigned mask = kPacked ? plane.channel_mask : 1u;
  return launch_batches<C>(
      boxes, count, boxes_per_launch(params.bins, BoxBatch<C>::kCapacity), resident,
      kValueThreads,
      [&](BoxBatch<C> &batch, int first) {
        batch.counted = mask;
        for (int i = 0; i < batch.count; ++i) {
          const HistogramOutput *box_outputs =
              outputs.outputs + size_t(first + i) * outputs.counted;
          for (int c = 0, j = 0; c < C; ++c)
            if ((mask >> c) & 1u)
              batch.outputs[i][c] = box_outputs[kPacked ? j++ : k];
        }
      },
      [&](const Box &box) {
        const unsigned per_row = kPacked ? packed_items_per_row<C>(box.width)
                                         : box_items_per_row<StridedRows<uint8_t>>(box.width);
        return uint64_t(box.height) * per_row;
      },
      [&](const BoxBatch<C> &batch, uint32_t blocks) {
        kernel<<<blocks, kValueThreads, value_shared_bytes(C), stream>>>(
            batch, view, binning, static_cast<uint8_t *>(workspace), stride);
        return cudaGetLastError();
      });
}

// 16-bit samples of `plane`, the k-th counted channel of src as a plane of one.
template <typename Rows>
cudaError_t launch_slot_boxes(const Plane &plane, SampleFormat format,
                              const HistogramParams &params, const Box *boxes, int count,
                              const BoxOutputs &outputs, int k, void *workspace,
                              cudaStream_t stream) {
  int device = 0;
  int max_shared = 0;
  int resident = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess)
    return e;
  if (const cudaError_t e =
          cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
      e != cudaSuccess)
    return e;
  const int replicas = replicas_for(params.bins, size_t(max_shared));
  const auto kernel =
      replicas != 0 ? slot_boxes_kernel<Rows, true> : slot_boxes_kernel<Rows, false>;
  const size_t shared_bytes = kBlockTotalsBytes + sub_histogram_bytes(params.bins, replicas);
  if (const cudaError_t e = resident_blocks(kernel, kThreads, shared_bytes, &resident);
      e != cudaSuccess)
    return e;
  const PlaneView view{plane.data, plane.row_pitch, plane.pixel_stride};
  const Binning binning = make_binning(params);
  const unsigned stride = unsigned(box_workspace_stride(params.bins));
  return launch_batches<1>(
      boxes, count, boxes_per_launch(params.bins, BoxBatch<1>::kCapacity), resident, kThreads,
      [&](BoxBatch<1> &batch, int first) {
        batch.counted = 1;
        for (int i = 0; i < batch.count; ++i)
          batch.outputs[i][0] = outputs.outputs[size_t(first + i) * outputs.counted + k];
      },
      [&](const Box &box) {
        return uint64_t(box.height) * box_items_per_row<Rows>(box.width);
      },
      [&](const BoxBatch<1> &batch, uint32_t blocks) {
        kernel<<<blocks, kThreads, shared_bytes, stream>>>(batch, view, binning, replicas,
                                                            format.padding_bits,
                                                            static_cast<uint8_t *>(workspace),
                                                            stride);
        return cudaGetLastError();
      });
}

}  // namespace

int histogram_boxes_cuda_batch(const Plane &src, SampleFormat format, int bins) {
  HistogramParams params;
  params.bins = bins;
  params.upper = 0;
  if (!is_valid(params, src, format) || !are_samples_aligned(src, format))
    return 0;
  if (format.depth == SampleDepth::U8 && counts_pixels_whole(src))
    switch (src.channels) {
    case 2:
      return boxes_per_launch(bins, BoxBatch<2>::kCapacity);
    case 4:
      return boxes_per_launch(bins, BoxBatch<4>::kCapacity);
    }
  return boxes_per_launch(bins, BoxBatch<1>::kCapacity);
}

size_t histogram_boxes_cuda_workspace_bytes(int bins, int boxes) {
  const int batch =
      std::min(std::max(boxes, 0), boxes_per_launch(bins, BoxBatch<1>::kCapacity));
  return size_t(batch) * box_workspace_stride(bins);
}

cudaError_t histogram_boxes_cuda(const Plane &src, SampleFormat format,
                                 const HistogramParams &params, const Box *boxes, int count,
                                 const HistogramOutput *outputs, void *workspace,
                                 cudaStream_t stream) {
  HistogramParams without_roi = params;  // boxes take the region's place
  without_roi.roi_x = without_roi.roi_y = without_roi.roi_width = without_roi.roi_height = 0;
  if (!is_valid(without_roi, src, format) || !are_samples_aligned(src, format) ||
      !are_valid_boxes(boxes, count, src) || !are_valid_box_outputs(src, count, outputs) ||
      (count > 0 && workspace == nullptr))
    return cudaErrorInvalidValue;
  if (count == 0)
    return cudaSuccess;
  int counted = 0;
  for (int c = 0; c < src.channels; ++c)
    counted += (src.channel_mask >> c) & 1u;
  const BoxOutputs box_outputs{outputs, counted};
  if (format.depth == SampleDepth::U8 && counts_pixels_whole(src)) {
    switch (src.channels) {
    case 1:
      return launch_value_boxes<1, true>(src, params, boxes, count, box_outputs, 0, workspace,
                                         stream);
    case 2:
      return launch_value_boxes<2, true>(src, params, boxes, count, box_outputs, 0, workspace,
                                         stream);
    case 4:
      return launch_value_boxes<4, true>(src, params, boxes, count, box_outputs, 0, workspace,
                                         stream);
    }
  }
  for (int c = 0, k = 0; c < src.channels; ++c) {
    if (!((src.channel_mask >> c) & 1u))
      continue;
    const Plane channel = channel_plane(src, c, format);
    cudaError_t err = cudaSuccess;
    if (format.depth == SampleDepth::U8)
      err = launch_value_boxes<1, false>(channel, params, boxes, count, box_outputs, k,
                                         workspace, stream);
    else if (channel.pixel_stride == int(sizeof(uint16_t)))
      err = launch_slot_boxes<PackedRows<uint16_t>>(channel, format, params, boxes, count,
                                                    box_outputs, k, workspace, stream);
    else
      err = launch_slot_boxes<StridedRows<uint16_t>>(channel, format, params, boxes, count,
                                                     box_outputs, k, workspace, stream);
    if (err != cudaSuccess)
      return err;
    ++k;
  }
  return cudaSuccess;
}

cudaError_t histogram_clear_cuda(int bins, const HistogramOutput *outputs, size_t count,
                                 cudaStream_t stream) {
  for (size_t i = 0; i < count; ++i) {
    if (cudaError_t err = cudaMemsetAsync(outputs[i].bins, 0, bins * sizeof(uint32_t), stream))
      return err;
    if (cudaError_t err = cudaMemsetAsync(outputs[i].summary, 0, sizeof(HistogramSummary), stream))
      return err;
  }
  return cudaSuccess;
}

}  // namespace cf
