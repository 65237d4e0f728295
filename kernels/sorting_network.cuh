// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Comparator networks generated at compile time from a description, not typed by hand:
// Batcher's odd-even merge sort for any size, and the selection of the median of a
// K x K window whose columns are already sorted. Host and device code apply the same
// networks, so the host can prove them (0-1 principle) and the kernels run them from
// registers: every index is a template argument or an entry of a constant table that
// the compiler reads while it unrolls, none reaches local memory.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "median_network.h"
#include "plane.h"

namespace cf {

// After it, v[lo] holds the smaller and v[hi] the larger of the two values.
struct Comparator {
  int lo = 0;
  int hi = 0;
};

template <int Capacity>
struct Network {
  Comparator comparators[Capacity] = {};
  int size = 0;

  CF_HOST_DEVICE constexpr void add(int lo, int hi) { comparators[size++] = {lo, hi}; }
};

// Batcher's odd-even merge sort of n values at positions[0..n), ascending in that
// order. For n not a power of two it is the network of the next power of two without
// the comparators that touch a position >= n: those would face +infinity and do nothing.
template <typename Sink>
CF_HOST_DEVICE constexpr void append_batcher(Sink &network, const int *positions, int n) {
  for (int p = 1; p < n; p *= 2)
    for (int k = p; k >= 1; k /= 2)
      for (int j = k % p; j + k < n; j += 2 * k)
        for (int i = 0; i < k && i + j + k < n; ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p))
            network.add(positions[i + j], positions[i + j + k]);
}

// Counts comparators instead of storing them, to size a Network exactly.
struct ComparatorCount {
  int size = 0;
  CF_HOST_DEVICE constexpr void add(int, int) { ++size; }
};

template <int N>
CF_HOST_DEVICE constexpr int batcher_size() {
  int positions[N] = {};
  ComparatorCount count;
  append_batcher(count, positions, N);
  return count.size;
}

template <int N>
CF_HOST_DEVICE constexpr Network<batcher_size<N>()> make_sorting_network() {
  int positions[N] = {};
  for (int i = 0; i < N; ++i)
    positions[i] = i;
  Network<batcher_size<N>()> network;
  append_batcher(network, positions, N);
  return network;
}

template <int N>
inline constexpr auto kSortingNetwork = make_sorting_network<N>();

// Median of K x K values in cell i * K + j (row i, column j) whose columns are sorted
// ascending. Sorting the rows keeps the columns sorted; then cell (i, j) is at least
// every cell (i' <= i, j' <= j), so (i+1)(j+1)-1 cells lie below it and (K-i)(K-j)-1
// above it. Cells that cannot hold rank m = (K*K-1)/2 drop out, `surely_below` of them
// beneath it, and the median is the value of rank m - surely_below among the remaining
// candidates, which a sorting network over the candidates delivers at cell `output`.
// That network loses the comparators whose order the sorted rows and columns already
// imply, and the whole plan those that cannot reach `output`; the compiler then drops
// the unused halves (a min or max whose result nobody reads) of those that remain.
template <int K>
struct MedianPlan : Network<K * batcher_size<K>() + batcher_size<K * K>()> {
  static constexpr int kCells = K * K;
  static constexpr int kRank = (kCells - 1) / 2;

  int output = 0;  // cell holding the median
};

template <int K>
CF_HOST_DEVICE constexpr MedianPlan<K> make_median_plan() {
  using Plan = MedianPlan<K>;
  constexpr int kCells = Plan::kCells;
  constexpr int kRank = Plan::kRank;

  Plan all;
  for (int i = 0; i < K; ++i) {
    int row[K] = {};
    for (int j = 0; j < K; ++j)
      row[j] = i * K + j;
    append_batcher(all, row, K);
  }

  int candidates[kCells] = {};
  int candidate_count = 0;
  int surely_below = 0;
  for (int i = 0; i < K; ++i)
    for (int j = 0; j < K; ++j) {
      const int lowest_rank = (i + 1) * (j + 1) - 1;
      const int highest_rank = kCells - (K - i) * (K - j);
      if (highest_rank < kRank)
        ++surely_below;
      else if (lowest_rank <= kRank)
        candidates[candidate_count++] = i * K + j;
    }
  all.output = candidates[kRank - surely_below];

  Network<batcher_size<kCells>()> selection;
  append_batcher(selection, candidates, candidate_count);
  int cells[kCells] = {};
  for (int c = 0; c < kCells; ++c)
    cells[c] = c;
  median_network::KnownOrder<kCells> known;
  known.set_sorted_grid(cells, kCells, K);
  for (int c = 0; c < selection.size; ++c) {
    const Comparator cmp = selection.comparators[c];
    if (!known.le[cmp.lo][cmp.hi]) {
      all.add(cmp.lo, cmp.hi);
      known.apply(cmp.lo, cmp.hi);
    }
  }

  // Walk backwards from the output, keeping the comparators it depends on.
  bool needed[kCells] = {};
  bool keep[sizeof(all.comparators) / sizeof(Comparator)] = {};
  needed[all.output] = true;
  for (int c = all.size - 1; c >= 0; --c) {
    const Comparator cmp = all.comparators[c];
    if (needed[cmp.lo] || needed[cmp.hi]) {
      keep[c] = true;
      needed[cmp.lo] = needed[cmp.hi] = true;
    }
  }
  Plan pruned;
  for (int c = 0; c < all.size; ++c)
    if (keep[c])
      pruned.add(all.comparators[c].lo, all.comparators[c].hi);
  pruned.output = all.output;
  return pruned;
}

template <int K>
inline constexpr auto kMedianPlan = make_median_plan<K>();

// Applies `network` (a constexpr object with static storage) to v, calling
// order(a, b) for each comparator, which leaves min in a and max in b. Indices are
// template arguments so that v stays in registers.
template <int Lo, int Hi, typename T, std::size_t N, typename Order>
CF_HOST_DEVICE inline void compare_exchange(T (&v)[N], const Order &order) {
  static_assert(Lo >= 0 && Lo < static_cast<int>(N) && Hi >= 0 && Hi < static_cast<int>(N),
                "comparator outside the array");
  order(v[Lo], v[Hi]);
}

template <const auto &network, typename T, std::size_t N, typename Order, std::size_t... I>
CF_HOST_DEVICE inline void apply_network(T (&v)[N], const Order &order,
                                         std::index_sequence<I...>) {
  (compare_exchange<network.comparators[I].lo, network.comparators[I].hi>(v, order), ...);
}

template <const auto &network, typename T, std::size_t N, typename Order>
CF_HOST_DEVICE inline void apply_network(T (&v)[N], const Order &order) {
  apply_network<network>(v, order, std::make_index_sequence<network.size>{});
}

// The ops of a network of median_network.h, a word kind << 16 | a << 8 | b each, in a
// table read by index: a loop over it, unrolled, compiles to the code of a template per
// op at a fraction of nvcc's front-end memory (docs/tuning.md, "Median": the 15x15
// sorted-rows network as templates took gigabytes).
template <const auto &network>
inline constexpr auto kOpWords = [] {
  std::array<uint32_t, network.count> words{};
  for (int i = 0; i < network.count; ++i)
    words[i] = uint32_t(network.ops[i].kind) << 16 | uint32_t(network.ops[i].a) << 8 |
               network.ops[i].b;
  return words;
}();

#ifdef __CUDACC__
template <const auto &network>
__device__ constexpr auto kDeviceOpWords = kOpWords<network>;
#endif

// The highest wire any op of `network` touches.
template <const auto &network>
constexpr int highest_wire() {
  int highest = 0;
  for (int i = 0; i < network.count; ++i)
    highest = std::max({highest, int(network.ops[i].a), int(network.ops[i].b)});
  return highest;
}

// Applies ops [First, End) of a network of median_network.h (the CPU backend's pair
// networks, the sorted-rows networks) to v: its copies, and its comparators. A MinOnly
// or MaxOnly op runs whole: the half it drops writes a wire never read again, and the
// compiler removes it.
template <const auto &network, int First = 0, int End = network.count, typename T,
          std::size_t N, typename Order>
CF_HOST_DEVICE inline void apply_ops(T (&v)[N], const Order &order) {
  static_assert(highest_wire<network>() < static_cast<int>(N), "op outside the array");
#ifdef __CUDA_ARCH__
  const auto &words = kDeviceOpWords<network>;
#else
  const auto &words = kOpWords<network>;
#endif
  CF_UNROLL
  for (int i = First; i < End; ++i) {
    const uint32_t a = words[i] >> 8 & 0xff, b = words[i] & 0xff;
    if (median_network::OpKind(words[i] >> 16) == median_network::OpKind::Copy)
      v[b] = v[a];
    else
      order(v[a], v[b]);
  }
}

template <int K, int Row, typename T, typename Load, std::size_t... J>
CF_HOST_DEVICE inline void load_row(T (&cells)[K * K], const Load &load,
                                    std::index_sequence<J...>) {
  ((cells[Row * K + J] = load(Row, int(J))), ...);
}

template <const auto &network, int K, int Row, typename T, typename Load, typename Order>
CF_HOST_DEVICE inline void load_and_sort_rows(T (&cells)[K * K], const Load &load,
                                              const Order &order) {
  if constexpr (Row < K) {
    load_row<K, Row>(cells, load, std::make_index_sequence<K>{});
    constexpr int kFirst = Row == 0 ? 0 : network.row_end[Row - 1];
    apply_ops<network, kFirst, network.row_end[Row]>(cells, order);
    load_and_sort_rows<network, K, Row + 1>(cells, load, order);
  }
}

// The median of a K x K window whose columns are sorted, load(i, j) giving rank i of
// column j: median_network.h's sorted-rows network, each row loaded just before its
// sort so that only the candidates stay live. Cells the network never reads are loaded
// for nothing, and the compiler drops those loads.
template <int K, typename T, typename Load, typename Order>
CF_HOST_DEVICE inline T sorted_rows_median(const Load &load, const Order &order) {
  using median_network::kSortedRowsNetwork;
  T cells[K * K];
  load_and_sort_rows<kSortedRowsNetwork<K>, K, 0>(cells, load, order);
  apply_ops<kSortedRowsNetwork<K>, kSortedRowsNetwork<K>.row_end[K - 1]>(cells, order);
  return cells[kSortedRowsNetwork<K>.output];
}

}  // namespace cf
