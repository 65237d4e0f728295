// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// The CPU backends' vector code where it has edges of its own, against the scalar
// references: widths around every target's vector length and twice it (the median
// works on pairs of columns) and around the median's strips of 256 columns, one-pixel
// and one-row images, samples 2, 3 and 4 apart (split with interleaved vector loads)
// and 5 apart (not), padded rows, samples at odd addresses, every border mode; and the
// median's selection networks on the inputs that decide them, alone and as the CUDA
// 7x7 to 15x15 kernels combine them, and the CUDA 17x17 to 31x31 kernels' bisection.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "filter_cases.h"
#include "gauss.h"
#include "median.h"
#include "median_bisection.h"
#include "median_network.h"
#include "reference_gauss.h"
#include "reference_median.h"
#include "sorting_network.cuh"
#include "test_image.h"

// Last: Check defines macros (fail, ...) that break C++ and OpenCV headers.
#include <gst/check/gstcheck.h>

using cftest::TestImage;

namespace {

// Around 16, 32 and 64 lanes (8- and 16-bit samples on SSE4, AVX2, AVX-512) and
// around twice that many columns.
constexpr int kWidths[] = {1,  2,  3,  4,  5,   7,   8,   9,   15,  16,  17,  31,  32, 33,
                           34, 63, 64, 65, 66, 127, 128, 129, 130, 255, 256, 257, 258};
constexpr int kHeights[] = {1, 2, 5, 9};
// Pixel strides in samples, with the row padding (samples) and misalignment (bytes)
// that go with each in turn.
constexpr int kStrides[] = {1, 2, 3, 4, 5};

struct EdgeLayout {
  int src_stride;
  int dst_stride;
  int padding;
  int misalignment;
};

// The layout of case `index`: every src stride meets every dst stride in turn.
EdgeLayout layout_for(size_t index) {
  const size_t strides = std::size(kStrides);
  return {kStrides[index % strides], kStrides[(index / strides + index) % strides],
          static_cast<int>(index % 3), static_cast<int>(index / 2 % 2)};
}

using PlaneFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst)>;

// Filters a random image of the case with `filter` and `reference`; what differs, or
// nothing. Padding bits of P010 samples are set at random (they must be ignored).
std::optional<std::string> check_edge_case(int width, int height, cf::SampleFormat format,
                                           const EdgeLayout &layout, uint32_t seed,
                                           const PlaneFilter &filter,
                                           const PlaneFilter &reference) {
  const int bytes = cf::bytes_per_sample(format);
  TestImage src(width, height, format, layout.src_stride * bytes, layout.padding * bytes,
                layout.misalignment);
  cftest::fill_random_samples(src, seed);
  TestImage expected(width, height, format);
  reference(src.plane(), expected.plane());
  TestImage dst(width, height, format, layout.dst_stride * bytes, layout.padding * bytes,
                layout.misalignment);
  cftest::fill_random_samples(dst, seed + 1);
  const std::vector<uint8_t> src_before = src.bytes();
  filter(src.plane(), dst.plane());
  std::string what;
  if (src.bytes() != src_before)
    what = "src was modified";
  else if (const auto offset = dst.first_changed_filler())
    what = "dst byte at offset " + std::to_string(*offset) + " is not a sample but was written";
  else if (const auto mismatch = cftest::first_mismatch(dst, expected))
    what = cftest::describe(*mismatch);
  else
    return std::nullopt;
  return "seed " + std::to_string(seed) + ", src " + src.describe() + ", dst " +
         dst.describe() + ": " + what;
}

std::vector<cf::SampleFormat> formats() {
  return {cf::SampleDepth::U8, cf::SampleDepth::U16, cftest::kP010};
}

// Runs `check(width, height, format, border, layout, seed)` over the widths x formats x
// `variants`, the height, border and layout taken in turn.
void run_edge_cases(const char *what, int variants,
                    const std::function<std::optional<std::string>(
                        int width, int height, cf::SampleFormat format, const cf::Border &border,
                        int variant, const EdgeLayout &layout, uint32_t seed)> &check) {
  struct Case {
    int width;
    cf::SampleFormat format;
    int variant;
  };
  std::vector<Case> cases;
  for (const int width : kWidths)
    for (const cf::SampleFormat format : formats())
      for (int variant = 0; variant < variants; ++variant)
        cases.push_back({width, format, variant});
  cftest::run_cases(what, cases.size(), [&](size_t index) -> std::optional<std::string> {
    const Case &test = cases[index];
    const std::vector<cf::Border> borders = cftest::test_borders(test.format);
    const cf::Border &border = borders[index % borders.size()];
    const int height = kHeights[index / 3 % std::size(kHeights)];
    const auto failure = check(test.width, height, test.format, border, test.variant,
                               layout_for(index), static_cast<uint32_t>(index + 1));
    if (!failure)
      return std::nullopt;
    return cftest::describe(border) + ", " + *failure;
  });
}

}  // namespace

GST_START_TEST(test_median_edges) {
  // The networks, and 8-bit column histograms in strips of 256 columns.
  constexpr int kWindows[] = {3, 5, 7, 9, 15};
  run_edge_cases("median edge", std::size(kWindows),
                 [&](int width, int height, cf::SampleFormat format, const cf::Border &border,
                     int variant, const EdgeLayout &layout,
                     uint32_t seed) -> std::optional<std::string> {
                   const cf::MedianParams params{kWindows[variant], border};
                   const auto failure = check_edge_case(
                       width, height, format, layout, seed,
                       [&](const cf::Plane &src, const cf::Plane &dst) {
                         fail_unless(cf::median_cpu(src, dst, format, params) == cudaSuccess);
                       },
                       [&](const cf::Plane &src, const cf::Plane &dst) {
                         cftest::reference_median(src, dst, format, params);
                       });
                   if (!failure)
                     return std::nullopt;
                   return "window " + std::to_string(params.window) + ", " + *failure;
                 });
}
GST_END_TEST;

GST_START_TEST(test_gauss_edges) {
  // Kernels of 3, 5 and 11 taps, blurred and unsharp-masked (threshold 0 and 12).
  struct Variant {
    double sigma;
    int size;
    cf::GaussMode mode;
    uint32_t threshold;
  };
  const Variant variants[] = {{0.6, 3, cf::GaussMode::Blur, 0},
                              {0.8, 0, cf::GaussMode::Unsharp, 0},
                              {1.6, 0, cf::GaussMode::Blur, 0},
                              {1.6, 0, cf::GaussMode::Unsharp, 12}};
  run_edge_cases("gauss edge", std::size(variants),
                 [&](int width, int height, cf::SampleFormat format, const cf::Border &border,
                     int index, const EdgeLayout &layout,
                     uint32_t seed) -> std::optional<std::string> {
                   const Variant &variant = variants[index];
                   cf::GaussParams params = cf::make_gauss_params(
                       variant.sigma, 0, variant.size, variant.size, format, border);
                   params.mode = variant.mode;
                   params.amount_q8 = 448;
                   params.threshold = variant.threshold;
                   const auto failure = check_edge_case(
                       width, height, format, layout, seed,
                       [&](const cf::Plane &src, const cf::Plane &dst) {
                         fail_unless(cf::gauss_cpu(src, dst, format, params) == cudaSuccess);
                       },
                       [&](const cf::Plane &src, const cf::Plane &dst) {
                         cftest::reference_gauss(src, dst, format, params);
                       });
                   if (!failure)
                     return std::nullopt;
                   return std::to_string(params.taps_x.size()) + " taps, " +
                          (variant.mode == cf::GaussMode::Unsharp ? "unsharp, " : "blur, ") +
                          *failure;
                 });
}
GST_END_TEST;

// A network of median_network.h on 64 inputs of 0s and 1s at once, one per bit: min is
// AND, max is OR.
template <typename Network>
void apply_to_bits(const Network &network, std::vector<uint64_t> &wires) {
  namespace net = cf::median_network;
  for (int i = 0; i < network.count; ++i) {
    const net::Op op = network.ops[i];
    const uint64_t a = wires[op.a], b = wires[op.b];
    switch (op.kind) {
    case net::OpKind::Copy:
      wires[op.b] = a;
      break;
    case net::OpKind::MinMax:
      wires[op.a] = a & b;
      wires[op.b] = a | b;
      break;
    case net::OpKind::MinOnly:
      wires[op.a] = a & b;
      break;
    case net::OpKind::MaxOnly:
      wires[op.b] = a | b;
      break;
    }
  }
}

// The 0-1 principle: a comparator network selects ranks correctly on all inputs if it
// does on all inputs of zeros and ones. A sorted column of 0s and 1s is its number of
// 0s; every combination of those over the pair network's W + 1 columns is checked, 64
// at a time (one per bit: min is AND, max is OR), up to 7x7 (8^8 of them). The 9x9
// network's 10^10 would take minutes: 2^20 combinations drawn at random check it, their
// counts of 0s near the median's rank, where a comparator missing would show.
template <int kWindow>
void check_pair_network() {
  namespace net = cf::median_network;
  constexpr net::Network network = net::make_pair_network(kWindow);
  constexpr int kColumns = kWindow + 1;
  const int median_rank = (kWindow * kWindow - 1) / 2;
  std::vector<uint64_t> wires(network.wires);
  int zeros[kColumns] = {};
  uint64_t combinations = 1;
  for (int c = 0; c < kColumns; ++c)
    combinations *= kWindow + 1;
  const bool every = combinations <= uint64_t{1} << 24;
  const uint64_t checked = every ? combinations : uint64_t{1} << 20;
  std::mt19937 random(kWindow);
  uint64_t expected_first = 0, expected_second = 0;
  for (uint64_t combination = 0; combination < checked;) {
    std::fill(wires.begin(), wires.end(), 0);
    expected_first = expected_second = 0;
    int bit = 0;
    for (; bit < 64 && combination < checked; ++bit, ++combination) {
      if (!every)
        for (int &count : zeros)
          count = static_cast<int>(random() % (kWindow + 1));
      int ones_first = 0, ones_second = 0;
      for (int c = 0; c < kColumns; ++c) {
        for (int k = zeros[c]; k < kWindow; ++k)
          wires[c * kWindow + k] |= uint64_t{1} << bit;
        if (c < kWindow)
          ones_first += kWindow - zeros[c];
        if (c > 0)
          ones_second += kWindow - zeros[c];
      }
      // The median of 0s and 1s is 1 where fewer than median_rank + 1 are 0.
      const int samples = kWindow * kWindow;
      expected_first |= uint64_t{samples - ones_first <= median_rank} << bit;
      expected_second |= uint64_t{samples - ones_second <= median_rank} << bit;
      for (int c = 0; every && c < kColumns && ++zeros[c] > kWindow; ++c)
        zeros[c] = 0;
    }
    apply_to_bits(network, wires);
    const uint64_t used = bit == 64 ? ~uint64_t{0} : (uint64_t{1} << bit) - 1;
    fail_unless(((wires[network.first] ^ expected_first) & used) == 0 &&
                    ((wires[network.second] ^ expected_second) & used) == 0,
                "%dx%d pair network: wrong median before combination %llu", kWindow, kWindow,
                static_cast<unsigned long long>(combination));
  }

  // The column sort, on every column of 0s and 1s.
  constexpr net::ColumnSort sort = net::make_column_sort(kWindow);
  for (unsigned column = 0; column < (1u << kWindow); ++column) {
    int values[kWindow];
    for (int k = 0; k < kWindow; ++k)
      values[k] = (column >> k) & 1;
    for (int i = 0; i < sort.count; ++i) {
      const net::Op op = sort.ops[i];
      const int a = values[op.a], b = values[op.b];
      values[op.a] = std::min(a, b);
      values[op.b] = std::max(a, b);
    }
    for (int k = 1; k < kWindow; ++k)
      fail_unless(values[sort.rank_wire[k - 1]] <= values[sort.rank_wire[k]],
                  "%d-wire column sort: ranks %d and %d out of order for column %u", kWindow,
                  k - 1, k, column);
  }
}

// Min and max of two words of two 16-bit lanes each, lane by lane: the CUDA kernels'
// __vminu2 and __vmaxu2.
struct LaneOrder {
  void operator()(uint32_t &a, uint32_t &b) const {
    uint32_t low = 0, high = 0;
    for (int shift : {0, 16}) {
      const uint32_t x = (a >> shift) & 0xffffu, y = (b >> shift) & 0xffffu;
      low |= std::min(x, y) << shift;
      high |= std::max(x, y) << shift;
    }
    a = low;
    b = high;
  }
};

// The CUDA 7x7 and 9x9 kernels' medians (median_cuda.cu), the same templates run on the
// host: each column sorted in place by sorting_network.cuh's Batcher network (rank k at
// index k), then the pair network applied by apply_ops (copies, and comparators of which
// one half is kept) to words of two 16-bit lanes, a min/max instruction of two outputs.
// Each lane against the medians of its windows; random values, and values of 3 levels,
// for ties.
template <int kWindow>
void check_cuda_pair_medians() {
  constexpr int kColumns = kWindow + 1;
  namespace net = cf::median_network;
  std::mt19937 random(kWindow);
  for (int trial = 0; trial < 20000; ++trial) {
    const uint32_t levels = trial % 2 ? 65536 : 3;
    uint32_t wires[net::kPairNetwork<kWindow>.wires] = {};
    std::vector<uint32_t> lanes[2][kColumns];
    for (int c = 0; c < kColumns; ++c) {
      uint32_t column[kWindow];
      for (uint32_t &word : column) {
        word = random() % levels | random() % levels << 16;
        for (int lane = 0; lane < 2; ++lane)
          lanes[lane][c].push_back(word >> (16 * lane) & 0xffffu);
      }
      cf::apply_network<cf::kSortingNetwork<kWindow>>(column, LaneOrder{});
      for (int k = 0; k < kWindow; ++k)
        wires[c * kWindow + k] = column[k];
    }
    cf::apply_ops<net::kPairNetwork<kWindow>>(wires, LaneOrder{});
    for (int lane = 0; lane < 2; ++lane)
      for (int second = 0; second < 2; ++second) {
        std::vector<uint32_t> window;
        for (int c = second; c < second + kWindow; ++c)
          window.insert(window.end(), lanes[lane][c].begin(), lanes[lane][c].end());
        const auto median = window.begin() + window.size() / 2;
        std::nth_element(window.begin(), median, window.end());
        const int output =
            second ? net::kPairNetwork<kWindow>.second : net::kPairNetwork<kWindow>.first;
        const uint32_t got = wires[output] >> (16 * lane) & 0xffffu;
        fail_unless(got == *median,
                    "CUDA %dx%d pair medians, trial %d, lane %d, %s window: got %u, expected %u",
                    kWindow, kWindow, trial, lane, second ? "second" : "first", got, *median);
      }
  }
}

// The sorted-rows network (the CUDA kernel's 11x11 to 15x15) by the 0-1 principle: 2^20
// combinations of columns of 0s and 1s drawn at random, half of them with every column
// near the median's share of 0s; then sorting_network.cuh's sorted_rows_median, as the kernel runs it,
// on words of two 16-bit lanes against each lane's median: random values and values of
// 3 levels, for ties.
template <int kWindow>
void check_sorted_rows_network() {
  namespace net = cf::median_network;
  constexpr const net::SortedRowsNetwork &network = net::kSortedRowsNetwork<kWindow>;
  constexpr int kSamples = kWindow * kWindow;
  const int median_rank = (kSamples - 1) / 2;
  std::mt19937 random(kWindow);
  std::vector<uint64_t> wires(kSamples);
  constexpr uint64_t kCombinations = uint64_t{1} << 20;
  for (uint64_t combination = 0; combination < kCombinations; combination += 64) {
    std::fill(wires.begin(), wires.end(), 0);
    uint64_t expected = 0;
    for (int bit = 0; bit < 64; ++bit) {
      // Zeros per column anywhere, or around the share that puts the median at the 0/1
      // edge in every column.
      int ones = 0;
      for (int c = 0; c < kWindow; ++c) {
        const int near_half = kWindow / 2 + int(random() % 6) - 2;
        const int zeros = bit % 2 ? near_half : int(random() % (kWindow + 1));
        for (int k = zeros; k < kWindow; ++k)
          wires[k * kWindow + c] |= uint64_t{1} << bit;
        ones += kWindow - zeros;
      }
      expected |= uint64_t{kSamples - ones <= median_rank} << bit;
    }
    apply_to_bits(network, wires);
    fail_unless(wires[network.output] == expected,
                "%dx%d sorted-rows network: wrong median in combinations %llu to %llu", kWindow,
                kWindow, static_cast<unsigned long long>(combination),
                static_cast<unsigned long long>(combination + 63));
  }

  for (int trial = 0; trial < 4000; ++trial) {
    const uint32_t levels = trial % 2 ? 65536 : 3;
    uint32_t columns[kWindow][kWindow];  // [column][rank], sorted lane by lane
    std::vector<uint32_t> lanes[2];
    for (auto &column : columns) {
      for (uint32_t &word : column) {
        word = random() % levels | random() % levels << 16;
        for (int lane = 0; lane < 2; ++lane)
          lanes[lane].push_back(word >> (16 * lane) & 0xffffu);
      }
      cf::apply_network<cf::kSortingNetwork<kWindow>>(column, LaneOrder{});
    }
    const uint32_t median = cf::sorted_rows_median<kWindow, uint32_t>(
        [&](int i, int j) { return columns[j][i]; }, LaneOrder{});
    for (int lane = 0; lane < 2; ++lane) {
      auto middle = lanes[lane].begin() + median_rank;
      std::nth_element(lanes[lane].begin(), middle, lanes[lane].end());
      const uint32_t got = median >> (16 * lane) & 0xffffu;
      fail_unless(got == *middle, "CUDA %dx%d sorted-rows median, trial %d, lane %d: got %u, "
                  "expected %u", kWindow, kWindow, trial, lane, got, *middle);
    }
  }
}

// Per lane, 1 where the word's lane exceeds the threshold's, added to count: the CUDA
// kernels' __vmaxu2 and __viaddmin_u16x2 (add modulo 2^16, then min).
struct LaneCount {
  void count_above(uint32_t &count, uint32_t word, uint32_t threshold,
                   uint32_t negated) const {
    for (int shift : {0, 16}) {
      const uint32_t lane = std::max(word >> shift & 0xffffu, threshold >> shift & 0xffffu);
      count += std::min((lane + (negated >> shift)) & 0xffffu, 1u) << shift;
    }
  }
};

// median_bisection.h's bisection as the CUDA 17x17 to 31x31 kernels run it: a run of 8
// outputs over words of two 16-bit lanes, each lane against the medians of its windows.
// Random values, 3 levels (ties), the two extremes, and P010 (10 value bits over 6 of
// random padding, which the median leaves clear).
template <int kWindow>
void check_bisection_medians() {
  constexpr int kOutputs = 8;
  constexpr int kColumns = kOutputs + kWindow - 1;
  std::mt19937 random(kWindow);
  for (int trial = 0; trial < 400; ++trial) {
    const int kind = trial % 4;
    const uint32_t value_bits = kind == 3 ? 0xffc0u : 0xffffu;
    const auto sample = [&]() -> uint32_t {
      switch (kind) {
      case 1:
        return random() % 3 * 20000;
      case 2:
        return random() % 2 * 0xffffu;
      }
      return random() & 0xffffu;
    };
    std::vector<uint32_t> words(kWindow * kColumns);
    for (uint32_t &word : words)
      word = sample() | sample() << 16;
    uint32_t medians[kOutputs];
    cf::bisection_medians<kWindow>([&](int i, int c) { return words[i * kColumns + c]; },
                                   value_bits, LaneCount{}, medians);
    for (int output = 0; output < kOutputs; ++output)
      for (int lane = 0; lane < 2; ++lane) {
        std::vector<uint32_t> window;
        for (int i = 0; i < kWindow; ++i)
          for (int j = 0; j < kWindow; ++j)
            window.push_back(words[i * kColumns + output + j] >> (16 * lane) & 0xffffu);
        const auto middle = window.begin() + window.size() / 2;
        std::nth_element(window.begin(), middle, window.end());
        const uint32_t got = medians[output] >> (16 * lane) & 0xffffu;
        fail_unless(got == (*middle & value_bits),
                    "CUDA %dx%d bisection, trial %d, output %d, lane %d: got %u, expected %u",
                    kWindow, kWindow, trial, output, lane, got, *middle & value_bits);
      }
  }
}

template <int... kWindow>
void check_bisection_medians_of(std::integer_sequence<int, kWindow...>) {
  (check_bisection_medians<kWindow>(), ...);
}

GST_START_TEST(test_median_networks) {
  static_assert(cf::median_network::kMaxNetworkWindow == 9, "a check per network");
  check_pair_network<3>();
  check_pair_network<5>();
  check_pair_network<7>();
  check_pair_network<9>();
  check_cuda_pair_medians<7>();
  check_cuda_pair_medians<9>();
  static_assert(cf::median_network::kMaxSortedRowsWindow == 15, "a check per network");
  check_sorted_rows_network<11>();
  check_sorted_rows_network<13>();
  check_sorted_rows_network<15>();
  static_assert(cf::kMedianMaxWindow == 31, "a check per bisected window");
  check_bisection_medians_of(std::integer_sequence<int, 17, 19, 21, 23, 25, 27, 29, 31>{});
}
GST_END_TEST;

static Suite *cpu_vector_edges_suite(void) {
  Suite *suite = suite_create("cpu_vector_edges");
  TCase *tc = tcase_create("general");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_median_edges);
  tcase_add_test(tc, test_gauss_edges);
  tcase_add_test(tc, test_median_networks);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(cpu_vector_edges);
