// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// Selection networks for the CPU median (and the CUDA median's 7x7 and 9x9), generated
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

// The widest network generated (9x9); wider windows use the CPU's sliding histogram.
constexpr int kMaxNetworkWindow = 9;
// A pair network's wires: (W + 1) * W inputs and a copy of the W - 1 shared columns.
static_assert(2 * kMaxNetworkWindow * kMaxNetworkWindow <= 256, "wire numbers fit Op's bytes");

// Wires of one sorted list, in ascending order of their values: at most a window's.
struct WireList {
  std::array<uint8_t, kMaxNetworkWindow * kMaxNetworkWindow> wire{};
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
  constexpr WireList merge_all(std::array<WireList, kMaxNetworkWindow + 1> lists, int count) {
    while (count > 1) {
      int merged = 0;
      for (int i = 0; i < count; i += 2)
        lists[merged++] = i + 1 < count ? merge(lists[i], lists[i + 1]) : lists[i];
      count = merged;
    }
    return count == 1 ? lists[0] : WireList{};
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
  std::array<WireList, kMaxNetworkWindow + 1> shared{};
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
  // Backwards from the two outputs: which wires' values are still needed.
  std::array<bool, 256> needed{};
  needed[network.first] = needed[network.second] = true;
  std::array<Op, Builder::kCapacity> kept{};
  int kept_count = 0;
  for (int i = builder.count_ - 1; i >= 0; --i) {
    const Op op = builder.ops_[i];
    if (op.kind == OpKind::Copy) {
      if (needed[op.b]) {
        kept[kept_count++] = op;
        needed[op.b] = false;
        needed[op.a] = true;
      }
      continue;
    }
    const bool min_needed = needed[op.a];
    const bool max_needed = needed[op.b];
    if (!min_needed && !max_needed)
      continue;
    kept[kept_count++] = {min_needed && max_needed ? OpKind::MinMax
                          : min_needed             ? OpKind::MinOnly
                                                   : OpKind::MaxOnly,
                          op.a, op.b};
    needed[op.a] = needed[op.b] = true;
  }
  for (int i = 0; i < kept_count; ++i)
    network.ops[i] = kept[kept_count - 1 - i];
  network.count = kept_count;
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
  std::array<WireList, kMaxNetworkWindow + 1> singles{};
  for (int k = 0; k < window; ++k)
    singles[k].push(k);
  const WireList sorted = builder.merge_all(singles, window);
  ColumnSort sort;
  for (int i = 0; i < builder.count_; ++i)
    sort.ops[i] = builder.ops_[i];
  sort.count = builder.count_;
  for (int k = 0; k < window; ++k)
    sort.rank_wire[k] = sorted.wire[k];
  return sort;
}

// The networks, built once per window: the CPU backend runs both, the CUDA backend the
// pair networks of 7x7 and 9x9 (median_cuda.cu).
template <int kWindow>
inline constexpr Network kPairNetwork = make_pair_network(kWindow);
template <int kWindow>
inline constexpr ColumnSort kColumnSort = make_column_sort(kWindow);

}  // namespace cf::median_network
