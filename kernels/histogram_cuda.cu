// CUDA histogram of one component, in one kernel launch per frame.
//
// Every block counts its share of the region into sub-histograms in shared memory and
// adds them, with global atomics, into running totals kept in the workspace; the last
// block to finish (an atomic ticket) copies the totals out as the frame's result and
// zeroes them for the next frame. So nothing is cleared before a launch, and the serial
// tail costs O(bins), where merging a copy per block would cost O(blocks x bins).
//
// Collisions: lanes of a warp that add to one shared-memory word take turns, and in a
// constant image every add collides. Two things keep such images as fast as random
// ones:
//  - replicated sub-histograms: bin b of replica r is word b * R + r, and lane l adds
//    to replica l % R. With R = 32 each lane has its own bank and word whatever the
//    data (no conflict at all); with fewer, at most 32 / R lanes share a word.
//  - runs: a thread whose chunk of samples holds one value adds them in one atomic.
// R is the largest power of two up to 32 whose sub-histograms fit kReplicaBytes: 32
// for every 8-bit histogram (at most 256 bins) and 16-bit ones up to 256 bins, halving
// as the bins double, down to 1 for 4097 to 8192 bins. Beyond, one copy while the
// device's shared memory per block holds it (up to 58K bins on Hopper, 41K on A100,
// 25K on sm_86/89, 16K on Turing); beyond that (65536 bins everywhere), blocks add
// straight to the totals in global memory. There a warp first combines its lanes'
// adds to one bin (__match_any_sync), or to one value across the warp, since
// same-address atomics from every multiprocessor queue at one L2 slice.
#include <algorithm>
#include <cstdint>

#include "cuda_views.cuh"
#include "histogram.h"

namespace cf {
namespace {

constexpr int kThreads = 512;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kChunkBytes = 16;  // one vector load
constexpr int kMaxReplicas = 32;
constexpr size_t kReplicaBytes = 40 * 1024;
constexpr size_t kDefaultSharedBytes = 48 * 1024;

// Slots of a histogram of `bins` bins: the bins, then one for the samples above the
// range and one for those below it, which so cost no more than the others.
constexpr int above_slot(int bins) { return bins; }
constexpr int below_slot(int bins) { return bins + 1; }
constexpr int slot_count(int bins) { return bins + 2; }
constexpr uint32_t kNoSlot = 0xffffffffu;  // an invalid sample, counted nowhere

// The workspace: running totals that every block adds to and the last block empties,
// zero between launches (zero is neutral for each), then slot_count(bins) counts.
struct Totals {
  unsigned long long sum;
  unsigned int ticket;  // blocks finished in this launch
  unsigned int min_complement;  // ~min: atomicMax of complements, with 0 neutral
  unsigned int max;
};
constexpr size_t kCountsOffset = 256;
static_assert(sizeof(Totals) <= kCountsOffset, "counts follow the totals");

// A block's totals in shared memory, ahead of its sub-histograms.
struct alignas(16) BlockTotals {
  unsigned long long sum;
  unsigned int min;
  unsigned int max;
  int is_last;
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

  // At most, whatever the row's alignment.
  static int items_per_row(int width) {
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

  static int items_per_row(int width) { return (width + kSamples - 1) / kSamples; }

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

// kInShared: counts in `replicas` sub-histograms in shared memory, else straight into
// the totals in global memory. replicas is a power of two passed as a count, not a
// shift: the compiler then forms a slot's address in one multiply-add, not three steps.
template <typename Sample, typename Rows, bool kInShared>
__global__ void __launch_bounds__(kThreads)
    histogram_kernel(Region region, Binning binning, int replicas, uint32_t samples,
                     Totals *totals, uint32_t *bins_out, HistogramSummary *summary_out) {
  extern __shared__ uint4 shared_memory[];  // 16-byte aligned
  BlockTotals &block = *reinterpret_cast<BlockTotals *>(shared_memory);
  uint32_t *const sub_histograms =
      reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(shared_memory) + kBlockTotalsBytes);
  uint32_t *const counts =
      reinterpret_cast<uint32_t *>(reinterpret_cast<uint8_t *>(totals) + kCountsOffset);
  const int bins = binning.bins;
  const unsigned lane = threadIdx.x % 32;

  for (int i = threadIdx.x; i < slot_count(bins) * replicas; i += kThreads)
    sub_histograms[i] = 0;
  if (threadIdx.x == 0)
    block = {0, 0xffffffffu, 0, 0};
  __syncthreads();

  // Items in row-major order, item i taken by thread i % (threads of the grid). Every
  // lane of a warp takes the same number of turns (those past the end with nothing to
  // count), so the warp-wide steps of count_global find the whole warp.
  const unsigned grid_threads = gridDim.x * kThreads;
  const unsigned thread = blockIdx.x * kThreads + threadIdx.x;
  const uint64_t items = uint64_t(region.height) * unsigned(region.items_per_row);
  const uint64_t warp_first = thread - lane;
  const unsigned turns =
      warp_first < items ? unsigned((items - warp_first + grid_threads - 1) / grid_threads) : 0;
  unsigned y = thread / region.items_per_row;
  int c = int(thread % region.items_per_row);
  const unsigned step_rows = grid_threads / region.items_per_row;
  const int step_items = int(grid_threads % region.items_per_row);

  const Replica replica{sub_histograms + (kInShared ? lane & unsigned(replicas - 1) : 0),
                        uint32_t(replicas)};
  ThreadTotals mine;
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
    mine.add(chunk);
    if constexpr (kInShared)
      count_shared(replica, chunk, binning);
    else
      count_global(counts, chunk, binning);
    y += step_rows;
    c += step_items;
    if (c >= region.items_per_row) {
      c -= region.items_per_row;
      ++y;
    }
  }

  // The block's sum, min and max: warp reductions, then one shared-memory atomic each
  // per warp.
  const unsigned long long sum = warp_reduce(mine.sum, [](auto a, auto b) { return a + b; });
  const uint32_t min = warp_reduce(mine.min, [](uint32_t a, uint32_t b) { return ::min(a, b); });
  const uint32_t max = warp_reduce(mine.max, [](uint32_t a, uint32_t b) { return ::max(a, b); });
  if (lane == 0) {
    atomicAdd(&block.sum, sum);
    atomicMin(&block.min, min);
    atomicMax(&block.max, max);
  }
  __syncthreads();

  // Into the totals: each slot the sum of its replicas, read starting at a different
  // replica in each thread to spread the threads of a warp over the banks.
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

  // The last block to take a ticket sees every other block's additions: the barrier
  // orders the block's additions before thread 0's fence, the fence before its ticket
  // (as in a cooperative groups grid sync). atomicInc wraps the ticket back to 0 for
  // the next launch.
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    const bool is_last = atomicInc(&totals->ticket, gridDim.x - 1) == gridDim.x - 1;
    if (is_last)
      __threadfence();
    block.is_last = is_last;
  }
  __syncthreads();
  if (!block.is_last)
    return;
  for (int bin = threadIdx.x; bin < bins; bin += kThreads)
    bins_out[bin] = atomicExch(&counts[bin], 0u);
  if (threadIdx.x == 0) {
    HistogramSummary summary;
    summary.sum = atomicExch(&totals->sum, 0ull);
    summary.samples = samples;
    summary.below = atomicExch(&counts[below_slot(bins)], 0u);
    summary.above = atomicExch(&counts[above_slot(bins)], 0u);
    summary.min = ~atomicExch(&totals->min_complement, 0u);
    summary.max = atomicExch(&totals->max, 0u);
    *summary_out = summary;
  }
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

using Kernel = void (*)(Region, Binning, int, uint32_t, Totals *, uint32_t *,
                        HistogramSummary *);

template <typename Sample, typename Rows>
cudaError_t launch(const Plane &src, const HistogramParams &params, uint32_t *bins,
                   HistogramSummary *summary, void *workspace, cudaStream_t stream) {
  const HistogramRegion roi = resolve_region(params, src);
  const Region region{src.data + roi.y * src.row_pitch + ptrdiff_t(roi.x) * src.pixel_stride,
                      src.row_pitch,
                      src.pixel_stride,
                      roi.width,
                      unsigned(roi.height),
                      Rows::items_per_row(roi.width)};

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
  Kernel kernel = histogram_kernel<Sample, Rows, true>;
  // 8-bit histograms have at most 256 bins: always in shared memory, 32 replicas.
  static_assert(size_t(slot_count(256)) * kMaxReplicas * sizeof(uint32_t) <= kReplicaBytes);
  if constexpr (sizeof(Sample) == 2)
    if (replicas == 0)
      kernel = histogram_kernel<Sample, Rows, false>;
  const size_t shared_bytes = kBlockTotalsBytes + sub_histogram_bytes(params.bins, replicas);
  if (shared_bytes > kDefaultSharedBytes) {
    // Always the device's limit, so that host threads launching it with different bin
    // counts never lower the limit under one another's launch.
    if (const cudaError_t e =
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, max_shared);
        e != cudaSuccess)
      return e;
  }
  if (const cudaError_t e = resident_blocks(kernel, kThreads, shared_bytes, &resident);
      e != cudaSuccess)
    return e;

  // One wave of resident blocks, each thread with at least one item: more blocks would
  // only add sub-histograms to clear and merge.
  const uint64_t items = uint64_t(roi.height) * unsigned(region.items_per_row);
  const uint64_t wanted = (items + kThreads - 1) / kThreads;
  const int blocks = int(std::max<uint64_t>(
      1, std::min<uint64_t>(wanted, uint64_t(resident))));
  kernel<<<blocks, kThreads, shared_bytes, stream>>>(
      region, make_binning(params), replicas,
      uint32_t(roi.width) * uint32_t(roi.height), static_cast<Totals *>(workspace), bins,
      summary);
  return cudaGetLastError();
}

template <typename Sample>
cudaError_t launch_depth(const Plane &src, const HistogramParams &params, uint32_t *bins,
                         HistogramSummary *summary, void *workspace, cudaStream_t stream) {
  if (src.pixel_stride == int(sizeof(Sample)))
    return launch<Sample, PackedRows<Sample>>(src, params, bins, summary, workspace, stream);
  return launch<Sample, StridedRows<Sample>>(src, params, bins, summary, workspace, stream);
}

}  // namespace

size_t histogram_cuda_workspace_bytes(int bins) {
  return kCountsOffset +
         size_t(slot_count(std::clamp(bins, 1, kHistogramMaxBins16))) * sizeof(uint32_t);
}

cudaError_t histogram_cuda(const Plane &src, SampleDepth depth, const HistogramParams &params,
                           uint32_t *bins, HistogramSummary *summary, void *workspace,
                           cudaStream_t stream) {
  if (!is_valid(params, src, depth) || !are_samples_aligned(src, depth) || bins == nullptr ||
      summary == nullptr || workspace == nullptr)
    return cudaErrorInvalidValue;
  if (depth == SampleDepth::U8)
    return launch_depth<uint8_t>(src, params, bins, summary, workspace, stream);
  return launch_depth<uint16_t>(src, params, bins, summary, workspace, stream);
}

}  // namespace cf
