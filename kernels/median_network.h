// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// Selection networks for the CPU median (and the CUDA median's 7x7 to 15x15), generated
// at compile time from a description rather than typed comparator by comparator.
//
// The CPU kernel sorts every window column first (once per column and output row,
// shared by all windows that hold it), so a network starts from W sorted columns of
// W wires. It computes the medians of two horizontally adjacent windows at once: the
// W - 1 columns they share are merged once, then merged with each window's own
// column. Merges are Batcher's odd-even merges of any lengths; every comparator whose
// outputs never reach either median is dropped, and of the rest only the min or max
// that is needed is kept. Wires 0 .. (W + 1) * W - 1 are the inputs, wire c * W + k
// rank k of column c; the merge with the second window's column works on copies of the
// shared merge's wires (further wires), as a merge reorders its wires in place.
#pragma once

#include <array>
#include <cstdint>

namespace cf::median_network {

enum class OpKind : uint8_t {
  Copy,        // wire b = wire a
  MinMax,      // (a, b) = (min, max)
  MinOnly,     // a = min(a, b); b's value is not used again
  MaxOnly,     // b = max(a, b); a's value is not used again
};

struct Op {
  OpKind kind;
  uint8_t a;
  uint8_t b;
};

// The widest pair network (9x9); wider windows use the CPU's sliding histogram.
constexpr int kMaxNetworkWindow = 9;
// A pair network's wires: (W + 1) * W inputs and a copy of the W - 1 shared columns.
static_assert(2 * kMaxNetworkWindow * kMaxNetworkWindow <= 256, "wire numbers fit Op's bytes");
// The widest sorted-rows network (below): one wire a window sample.
constexpr int kMaxSortedRowsWindow = 15;
static_assert(kMaxSortedRowsWindow * kMaxSortedRowsWindow <= 256, "wire numbers fit Op's bytes");

// Wires of one sorted list, in ascending order of their values: at most a window's.
struct WireList {
  std::array<uint8_t, kMaxSortedRowsWindow * kMaxSortedRowsWindow> wire{};
  int size = 0;

  constexpr void push(int w) { wire[size++] = static_cast<uint8_t>(w); }
  constexpr WireList every_other(int first) const {
    WireList out;
    for (int i = first; i < size; i += 2)
      out.push(wire[i]);
    return out;
  }
};

class Builder {
public:
  static constexpr int kCapacity = 4096;

  constexpr explicit Builder(int first_free_wire) : next_wire_(first_free_wire) {}

  // Batcher's odd-even merge of two sorted lists of any lengths: the evens of both
  // merged, the odds of both merged, then one rank of comparators between them.
  constexpr WireList merge(const WireList &a, const WireList &b) {
    if (a.size == 0)
      return b;
    if (b.size == 0)
      return a;
    WireList out;
    if (a.size == 1 && b.size == 1) {
      add(OpKind::MinMax, a.wire[0], b.wire[0]);
      out.push(a.wire[0]);
      out.push(b.wire[0]);
      return out;
    }
    const WireList evens = merge(a.every_other(0), b.every_other(0));
    const WireList odds = merge(a.every_other(1), b.every_other(1));
    out.push(evens.wire[0]);
    int i = 1;
    for (; i < evens.size && i - 1 < odds.size; ++i) {
      add(OpKind::MinMax, odds.wire[i - 1], evens.wire[i]);
      out.push(odds.wire[i - 1]);
      out.push(evens.wire[i]);
    }
    for (int j = i - 1; j < odds.size; ++j)
      out.push(odds.wire[j]);
    for (int j = i; j < evens.size; ++j)
      out.push(evens.wire[j]);
    return out;
  }

  // Merges lists[0 .. count) pairwise, level by level, into one sorted list.
  constexpr WireList merge_all(std::array<WireList, kMaxSortedRowsWindow + 1> lists, int count) {
    while (count > 1) {
      int merged = 0;
      for (int i = 0; i < count; i += 2)
        lists[merged++] = i + 1 < count ? merge(lists[i], lists[i + 1]) : lists[i];
      count = merged;
    }
    return count == 1 ? lists[0] : WireList{};
  }

  // Sorts wires first .. first + count - 1: Batcher's merges of single wires.
  constexpr WireList sort_run(int first, int count) {
    std::array<WireList, kMaxSortedRowsWindow + 1> singles{};
    for (int k = 0; k < count; ++k)
      singles[k].push(first + k);
    return merge_all(singles, count);
  }

  // The same values on fresh wires.
  constexpr WireList copy(const WireList &list) {
    WireList out;
    for (int i = 0; i < list.size; ++i) {
      add(OpKind::Copy, list.wire[i], next_wire_);
      out.push(next_wire_++);
    }
    return out;
  }

  constexpr void add(OpKind kind, int a, int b) {
    ops_[count_++] = {kind, static_cast<uint8_t>(a), static_cast<uint8_t>(b)};
  }

  std::array<Op, kCapacity> ops_{};
  int count_ = 0;
  int next_wire_;
};

// What is known about the order of the values at N positions while a network runs:
// le[p][q] says value p <= value q for sure. Sound, not complete: a comparator whose
// order is already known does nothing and can go.
template <int N>
struct KnownOrder {
  bool le[N][N] = {};
  int size = N;  // positions in use

  // Positions 0 .. count - 1 at cells cell[k] (i * window + j) of a grid whose rows and
  // columns are sorted ascending: (i, j) is at most every (i', j') with i <= i', j <= j'.
  constexpr void set_sorted_grid(const int *cell, int count, int window) {
    size = count;
    for (int a = 0; a < count; ++a)
      for (int b = 0; b < count; ++b)
        le[a][b] = cell[a] / window <= cell[b] / window && cell[a] % window <= cell[b] % window;
  }

  // After a comparator: min at position lo, max at hi. For each other position p, only
  // its order against lo and hi changes.
  constexpr void apply(int lo, int hi) {
    for (int p = 0; p < size; ++p) {
      if (p == lo || p == hi)
        continue;
      const bool below_lo = le[p][lo], below_hi = le[p][hi];
      const bool above_lo = le[lo][p], above_hi = le[hi][p];
      le[p][lo] = below_lo && below_hi;  // p <= min needs p below both
      le[p][hi] = below_lo || below_hi;
      le[lo][p] = above_lo || above_hi;
      le[hi][p] = above_lo && above_hi;
    }
    le[lo][lo] = le[hi][hi] = le[lo][hi] = true;
    le[hi][lo] = false;  // unknown: only a redundant comparator would have it
  }
};

// The ops of `builder` that the wires marked `needed` depend on, in their order; of a
// comparator whose min or max alone is read later, only that half. source[k]: the
// builder's index of kept op k.
struct PrunedOps {
  std::array<Op, Builder::kCapacity> ops{};
  std::array<uint16_t, Builder::kCapacity> source{};
  int count = 0;
};

constexpr PrunedOps keep_needed(const Builder &builder, std::array<bool, 256> needed) {
  PrunedOps backwards;
  for (int i = builder.count_ - 1; i >= 0; --i) {
    const Op op = builder.ops_[i];
    Op kept = op;
    if (op.kind == OpKind::Copy) {
      if (!needed[op.b])
        continue;
      needed[op.b] = false;
      needed[op.a] = true;
    } else {
      const bool min_needed = needed[op.a];
      const bool max_needed = needed[op.b];
      if (!min_needed && !max_needed)
        continue;
      kept.kind = min_needed && max_needed ? OpKind::MinMax
                  : min_needed             ? OpKind::MinOnly
                                           : OpKind::MaxOnly;
      needed[op.a] = needed[op.b] = true;
    }
    backwards.ops[backwards.count] = kept;
    backwards.source[backwards.count++] = static_cast<uint16_t>(i);
  }
  PrunedOps pruned;
  pruned.count = backwards.count;
  for (int k = 0; k < pruned.count; ++k) {
    pruned.ops[k] = backwards.ops[pruned.count - 1 - k];
    pruned.source[k] = backwards.source[pruned.count - 1 - k];
  }
  return pruned;
}

// The pruned network for window W, over wires [0, wires): outputs on wire `first`
// (window of columns 0 .. W - 1) and `second` (columns 1 .. W).
struct Network {
  std::array<Op, Builder::kCapacity> ops{};
  int count = 0;
  int wires = 0;
  int first = 0;
  int second = 0;
};

constexpr Network make_pair_network(int window) {
  const int inputs = (window + 1) * window;
  Builder builder(inputs);
  const auto column = [window](int c) {
    WireList list;
    for (int k = 0; k < window; ++k)
      list.push(c * window + k);
    return list;
  };
  std::array<WireList, kMaxSortedRowsWindow + 1> shared{};
  for (int c = 1; c < window; ++c)
    shared[c - 1] = column(c);
  const WireList merged = builder.merge_all(shared, window - 1);
  const WireList left = builder.merge(builder.copy(merged), column(0));
  const WireList right = builder.merge(merged, column(window));
  const int median_rank = (window * window - 1) / 2;

  Network network;
  network.wires = builder.next_wire_;
  network.first = left.wire[median_rank];
  network.second = right.wire[median_rank];
  std::array<bool, 256> needed{};
  needed[network.first] = needed[network.second] = true;
  const PrunedOps pruned = keep_needed(builder, needed);
  network.ops = pruned.ops;
  network.count = pruned.count;
  return network;
}

// The median of one W x W window whose columns are sorted: wire i * W + j holds rank i
// of column j. Sorting the rows keeps the columns sorted, and then cell (i, j) is at
// least the (i + 1)(j + 1) - 1 cells up and left of it and at most the (W - i)(W - j) - 1
// down and right: only the cells that may hold rank m = (W * W - 1) / 2 stay candidates,
// the cells surely below counted. Each row's candidates are a sorted run; odd-even merges
// of the runs, less the comparators whose order is known and pruned back from the rank
// m still wanted, finish it. Row i's sort is ops
// [row_end[i - 1], row_end[i]), before any merge, so a kernel can load a row just before
// sorting it and keep only the candidates live (151 values at 15x15 instead of 225).
struct SortedRowsNetwork {
  std::array<Op, Builder::kCapacity> ops{};
  int count = 0;
  int output = 0;
  std::array<int, kMaxSortedRowsWindow> row_end{};
};

// Merge comparators whose order the sorted rows and columns, and the merges before
// them, already imply do nothing (15x15: 116 of 1422): drops those of builder's ops
// from first_merge on. Only candidates are merged: their order alone is followed, at
// position[wire].
constexpr void drop_implied_merges(
    Builder &builder, const std::array<WireList, kMaxSortedRowsWindow + 1> &candidates, int runs,
    int window, int first_merge) {
  std::array<int, kMaxSortedRowsWindow * kMaxSortedRowsWindow> cell{};
  std::array<int, 256> position{};
  int count = 0;
  for (int r = 0; r < runs; ++r)
    for (int k = 0; k < candidates[r].size; ++k) {
      position[candidates[r].wire[k]] = count;
      cell[count++] = candidates[r].wire[k];
    }
  KnownOrder<kMaxSortedRowsWindow * kMaxSortedRowsWindow> known;
  known.set_sorted_grid(cell.data(), count, window);
  int kept = first_merge;
  for (int k = kept; k < builder.count_; ++k) {
    const Op op = builder.ops_[k];
    if (known.le[position[op.a]][position[op.b]])
      continue;
    known.apply(position[op.a], position[op.b]);
    builder.ops_[kept++] = op;
  }
  builder.count_ = kept;
}

constexpr SortedRowsNetwork make_sorted_rows_network(int window) {
  Builder builder(window * window);
  std::array<int, kMaxSortedRowsWindow> row_source_end{};
  std::array<WireList, kMaxSortedRowsWindow + 1> candidates{};
  const int median_rank = (window * window - 1) / 2;
  int surely_below = 0;
  int runs = 0;
  for (int i = 0; i < window; ++i) {
    const WireList row = builder.sort_run(i * window, window);
    row_source_end[i] = builder.count_;
    WireList run;
    for (int j = 0; j < window; ++j) {
      const int lowest_rank = (i + 1) * (j + 1) - 1;
      const int highest_rank = window * window - (window - i) * (window - j);
      if (highest_rank < median_rank)
        ++surely_below;
      else if (lowest_rank <= median_rank)
        run.push(row.wire[j]);
    }
    if (run.size > 0)
      candidates[runs++] = run;
  }
  const WireList merged = builder.merge_all(candidates, runs);
  drop_implied_merges(builder, candidates, runs, window, row_source_end[window - 1]);

  SortedRowsNetwork network;
  network.output = merged.wire[median_rank - surely_below];
  std::array<bool, 256> needed{};
  needed[network.output] = true;
  const PrunedOps pruned = keep_needed(builder, needed);
  network.ops = pruned.ops;
  network.count = pruned.count;
  for (int i = 0; i < window; ++i) {
    int end = 0;
    while (end < pruned.count && pruned.source[end] < row_source_end[i])
      ++end;
    network.row_end[i] = end;
  }
  return network;
}

// Sorting network for one column of W wires: Batcher's merges of single wires,
// unpruned. Rank k ends on wire rank_wire[k] (merges leave values where they are).
struct ColumnSort {
  std::array<Op, 64> ops{};
  int count = 0;
  std::array<uint8_t, kMaxNetworkWindow> rank_wire{};
};

constexpr ColumnSort make_column_sort(int window) {
  Builder builder(window);
  const WireList sorted = builder.sort_run(0, window);
  ColumnSort sort;
  for (int i = 0; i < builder.count_; ++i)
    sort.ops[i] = builder.ops_[i];
  sort.count = builder.count_;
  for (int k = 0; k < window; ++k)
    sort.rank_wire[k] = sorted.wire[k];
  return sort;
}

// The networks, built once per window: the CPU backend runs the pair networks and
// column sorts, the CUDA backend the pair networks of 7x7 and 9x9 and the sorted-rows
// networks of 11x11 to 15x15 (median_cuda.cu).
template <int kWindow>
inline constexpr Network kPairNetwork = make_pair_network(kWindow);
template <int kWindow>
inline constexpr SortedRowsNetwork kSortedRowsNetwork = make_sorted_rows_network(kWindow);
template <int kWindow>
inline constexpr ColumnSort kColumnSort = make_column_sort(kWindow);

}  // namespace cf::median_network
