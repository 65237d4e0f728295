// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Redaction on CUDA (redact.h): one kernel launch per call, over every view and shape.
//
// Work units. Without invert, each shape's box is cut into cells: its pixelate blocks
// (each at most the box's size), or for Fill and Blur tiles of kFillTileWidth x
// kFillTileHeight.
// A unit is one cell of one shape of one view; it computes its block's means itself,
// from its own samples only, and writes its cell, plus, on the box's edges, the part of
// the feather band that clamps to it: so every sample of a shape's box grown by its
// feather belongs to exactly one unit of that shape. With invert, the units are the
// cells of each whole view (its invert blocks, or tiles for Fill).
//
// Winners. A unit first collects, in index order, the view's other shapes whose grown
// box meets its write rectangle (into shared memory; past kListCapacity of them it
// goes through all the view's shapes instead); where the host found no two grown
// boxes of the view meeting, there is none to collect and it skips the search. Per sample it then writes only where its
// own shape wins (greatest weight, ties to the lowest index); with invert it takes
// 256 minus the greatest weight of them all. So each sample is written by one unit,
// which reads the sample's input value before writing it.
//
// Means from the input before the call. A unit reads only its own block, inside its
// shape's box, which no other unit of that shape writes; another shape's unit writes
// there only if its grown box meets that box. The host checks for such a pair per view
// (an O(n log n) sweep) and, only where one exists, first copies the view's bounding
// box of all shapes into the workspace, from which that view's units take their means.
// Invert units read and write only their own cell: no copy.
//
// Groups. A unit runs on one warp, or on a whole block (block_warps) where some unit
// writes more than kWarpUnitSamples samples (large blocks, wide feathers); the host
// chooses per call. The grid's rows are the shapes (with invert, the views), its
// columns their cells: a block finds its unit from its own indices, with no search
// through the tables, whose first reads on each multiprocessor wait on memory. A
// unit's time is the chain of waits it runs through, not the samples it touches: so
// a block's means are loaded in batches (add_block_samples), and a warp finds its
// samples with no division (for_each_column).
//
// Tables. The views, and up to kInlineShapes shapes, travel by value in the kernel's
// parameters; more shapes go to the workspace with one cudaMemcpyAsync. The masks'
// step tables (redact_mask_steps, made on the host) go there with one more.
//
// Blur. Where no two areas of a view meet (each sample's R then comes from its own
// shape's sigmas), the taps fit the parameters and the sums the workspace, the
// Gaussian is computed in two launches of all views and shapes at once: the first
// writes each shape's row sums (the horizontal pass, over its area's columns and the
// rows of its area grown by the vertical radius) into the workspace; the units of the
// second sum them down their columns as they write. The integers are gauss.h's, exact
// in any order, so R is the one the CPU backend gets from gauss_cpu. Elsewhere (invert,
// areas that meet, sums too many) gauss_cuda blurs each view into the workspace, pass
// after pass (redact_blur.h), and the units take R from there.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuda_views.cuh"
#include "gauss.h"
#include "packed_cuda.h"
#include "redact.h"
#include "redact_blur.h"
#include "redact_math.h"

namespace cf {
namespace {

constexpr int kThreads = 256;
constexpr int kWarpSize = 32;
constexpr int kWarps = kThreads / kWarpSize;
constexpr int kInlineShapes = 48;
constexpr int kInlineTaps = 96;
constexpr int kListCapacity = 48;
constexpr int kFillTileWidth = 64;
constexpr int kFillTileHeight = 1;
constexpr int kWarpUnitSamples = 512;
constexpr int kMeanBatch = 4;
constexpr int kMaxGrid = 1 << 20;
constexpr size_t kWorkspaceAlignment = 256;
constexpr uint32_t kNoSteps = UINT32_MAX;

// One shape of the call (its view's shapes, in order, one after the other per view).
struct DeviceShape {
  RedactEdges box;
  int cell_width;   // pixelate: the block, at most the box; fill: a tile
  int cell_height;
  int columns;      // cells across the box
  int rows;         // and down
  int view;
  uint32_t steps;   // a mask's step table, at mask_steps + steps; kNoSteps: none
  // Blur from row sums: this shape's, from LaunchTable::row_sums + row_sums, and its
  // taps' tables in LaunchTable::taps.
  uint32_t row_sums;
  uint16_t taps_x;
  uint16_t taps_y;
};

struct DeviceView {
  uint8_t *data;
  ptrdiff_t row_pitch;
  // Where the means are read: the plane itself, or a copy of it whose first sample is
  // the plane's (mean_x, mean_y).
  const uint8_t *mean_data;
  ptrdiff_t mean_pitch;
  int mean_x;
  int mean_y;
  // Blur: the view blurred, with the view's pixel stride.
  const uint8_t *blurred;
  ptrdiff_t blurred_pitch;
  int width;
  int height;
  int pixel_stride;
  int channels;
  unsigned channel_mask;
  int feather;
  int first_shape;  // of the call's shapes
  int shape_count;
  // No two of its shapes' boxes grown by the feather meet (without invert).
  bool isolated;
  uint32_t fill[kMaxChannels];
  // With invert: the view's cells.
  int cell_width;
  int cell_height;
  int columns;
  int rows;
};

struct LaunchTable {
  DeviceView views[kRedactMaxViews];
  int view_count;
  int shape_count;
  int padding_bits;
  bool invert;
  bool ellipse;
  const uint16_t *mask_steps;  // the masks' step tables, one after the other
  // Blur from row sums (uint32_t for 8-bit samples, uint64_t for 16-bit); null: from
  // the blurred views.
  void *row_sums;
  int tap_bits;  // gauss_tap_bits
  // Each axis' taps as a radius r and then the taps at distance 0..r (they are
  // symmetric), one table after the other.
  int32_t taps[kInlineTaps];
  // Null: the shapes are the inline ones below.
  const DeviceShape *device_shapes;
  DeviceShape shapes[kInlineShapes];
};
static_assert(sizeof(LaunchTable) <= 3800, "kernel parameters stay within 4 KiB");

// `bytes` rounded up to a whole number of kWorkspaceAlignment: what a table or copy
// takes of the workspace.
constexpr size_t workspace_room(size_t bytes) {
  return (bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
}

constexpr size_t kShapeTableBytes =
    workspace_room(size_t(kRedactMaxViews) * kRedactMaxShapes * sizeof(DeviceShape));

__device__ __forceinline__ DeviceShape shape_at(const LaunchTable &table, int s) {
  return table.device_shapes != nullptr ? table.device_shapes[s] : table.shapes[s];
}

// What a unit does: its view, its shape (-1 with invert), the block whose means it
// takes and the rectangle it writes.
struct Unit {
  int view;
  int shape;
  RedactEdges block;
  RedactEdges write;
};

// A block's warps: one unit of them all, or as many warp units. Pixelate's units (a
// mean, then the writes) are faster on four: a whole-block unit has fewer threads to
// sum, and a call's few blocks of warp units spread over more multiprocessors. Fill's
// and blur's are faster on eight.
constexpr int block_warps(RedactMethod method) {
  return method == RedactMethod::Pixelate ? 4 : kWarps;
}

// The cells of the grid row's owner: its shape, or with invert its view.
__device__ __forceinline__ int cells_of(const LaunchTable &table, int owner) {
  if (table.invert)
    return table.views[owner].columns * table.views[owner].rows;
  const DeviceShape shape = shape_at(table, owner);
  return shape.columns * shape.rows;
}

__device__ __forceinline__ Unit find_unit(const LaunchTable &table, int owner, int cell) {
  if (table.invert) {
    const DeviceView &view = table.views[owner];
    const int x0 = int(unsigned(cell) % unsigned(view.columns)) * view.cell_width;
    const int y0 = int(unsigned(cell) / unsigned(view.columns)) * view.cell_height;
    const RedactEdges block{x0, y0, min(view.width, x0 + view.cell_width),
                            min(view.height, y0 + view.cell_height)};
    return {owner, -1, block, block};
  }
  const DeviceShape shape = shape_at(table, owner);
  const DeviceView &view = table.views[shape.view];
  const int column = int(unsigned(cell) % unsigned(shape.columns));
  const int row = int(unsigned(cell) / unsigned(shape.columns));
  const int rows = shape.rows;
  const RedactEdges block{shape.box.x0 + column * shape.cell_width,
                          shape.box.y0 + row * shape.cell_height,
                          min(shape.box.x1, shape.box.x0 + (column + 1) * shape.cell_width),
                          min(shape.box.y1, shape.box.y0 + (row + 1) * shape.cell_height)};
  const int f = view.feather;
  const RedactEdges write{column == 0 ? max(0, block.x0 - f) : block.x0,
                          row == 0 ? max(0, block.y0 - f) : block.y0,
                          column == shape.columns - 1 ? min(view.width, block.x1 + f) : block.x1,
                          row == rows - 1 ? min(view.height, block.y1 + f) : block.y1};
  return {shape.view, owner, block, write};
}

// Another shape a unit must weigh its samples against.
struct OtherShape {
  RedactEdges box;
  int index;
  uint32_t steps;
};

__device__ __forceinline__ int shape_weight(const LaunchTable &table, const DeviceView &view,
                                            const RedactEdges &box, uint32_t steps, int x,
                                            int y) {
  return redact_any_shape_weight(box, steps == kNoSteps ? nullptr : table.mask_steps + steps,
                                 table.ellipse, view.feather, view.width, view.height, x, y);
}

template <int kGroupWarps>
__device__ inline void group_sync() {
  if constexpr (kGroupWarps == 1)
    __syncwarp();
  else
    __syncthreads();
}

// Lists, in index order, the view's shapes other than the unit's own whose grown box
// meets the unit's write rectangle; the group's first warp does it. Returns their
// count to every thread of the group (above kListCapacity: only the count is kept).
template <int kGroupWarps>
__device__ __forceinline__ int collect_others(const LaunchTable &table, const Unit &unit,
                                              OtherShape *list, int *count, int rank) {
  const DeviceView &view = table.views[unit.view];
  if (view.isolated)  // the same for the whole block: its units are one shape's
    return 0;
  const int f = view.feather;
  const auto meets = [&](const RedactEdges &box) {
    return box.x0 - f < unit.write.x1 && unit.write.x0 < box.x1 + f &&
           box.y0 - f < unit.write.y1 && unit.write.y0 < box.y1 + f;
  };
  if (table.device_shapes == nullptr && rank < kWarpSize) {
    // Shapes in the parameters: one shape at a time for the whole warp, as the
    // parameter space serves one address at a time.
    int found = 0;
    for (int s = view.first_shape; s < view.first_shape + view.shape_count; ++s) {
      const RedactEdges box = table.shapes[s].box;
      if (s == unit.shape || !meets(box))
        continue;
      if (rank == 0 && found < kListCapacity)
        list[found] = {box, s, table.shapes[s].steps};
      ++found;
    }
    if (rank == 0)
      *count = found;
  } else if (rank < kWarpSize) {
    int found = 0;
    for (int base = 0; base < view.shape_count; base += kWarpSize) {
      const int s = view.first_shape + base + rank;
      bool hit = false;
      DeviceShape shape{};
      if (base + rank < view.shape_count && s != unit.shape) {
        shape = shape_at(table, s);
        hit = meets(shape.box);
      }
      const unsigned hits = __ballot_sync(0xffffffffu, hit);
      const int position = found + __popc(hits & ((1u << rank) - 1));
      if (hit && position < kListCapacity)
        list[position] = {shape.box, s, shape.steps};
      found += __popc(hits);
    }
    if (rank == 0)
      *count = found;
  }
  group_sync<kGroupWarps>();
  return *count;
}

// The samples of a rectangle that fall to one thread of a group, as columns: f(x, y,
// y_step) for each, its samples (x, y), (x, y + y_step), ... below the rectangle's end.
// Narrow rectangles take several rows a pass, wide ones a row. A warp lays its rows
// out a power of two apart (at least half its lanes busy), with no division, which
// would take longer than a warp unit's loads.
template <int kGroupThreads, class Column>
__device__ __forceinline__ void for_each_column(const RedactEdges &r, int rank, Column column) {
  const int width = r.x1 - r.x0;
  if (width >= kGroupThreads) {
    for (int x = r.x0 + rank; x < r.x1; x += kGroupThreads)
      column(x, r.y0, 1);
    return;
  }
  if constexpr (kGroupThreads == kWarpSize) {
    const int row_bits = 32 - __clz(width - 1);  // 2^row_bits >= width
    const int x = rank & ((1 << row_bits) - 1);
    if (x < width)
      column(r.x0 + x, r.y0 + (rank >> row_bits), kWarpSize >> row_bits);
  } else {
    const int rows_per_pass = kGroupThreads / width;
    if (rank < rows_per_pass * width)
      column(r.x0 + rank % width, r.y0 + rank / width, rows_per_pass);
  }
}

// f(x, y) for each sample of the rectangle that falls to this thread of the group;
// wide rectangles row by row (fill's and blur's writes were slower column by column).
template <int kGroupThreads, class Body>
__device__ inline void for_each_sample(const RedactEdges &r, int rank, Body body) {
  if (r.x1 - r.x0 >= kGroupThreads) {
    for (int y = r.y0; y < r.y1; ++y)
      for (int x = r.x0 + rank; x < r.x1; x += kGroupThreads)
        body(x, y);
    return;
  }
  for_each_column<kGroupThreads>(r, rank, [&](int x, int y0, int y_step) {
    for (int y = y0; y < r.y1; y += y_step)
      body(x, y);
  });
}

// Adds each of the kChannels channels of the block's samples that fall to this thread
// of the group to `sums`. Down each column the loads go kMeanBatch at a time with no
// branch between them (past the block's end a load repeats the column's first
// sample, and adds nothing), so that their round trips to memory overlap.
template <typename Sample, int kGroupThreads, int kChannels, typename Sum>
__device__ __forceinline__ void add_block_samples(const DeviceView &view, int padding_bits,
                                                  const RedactEdges &block, int rank,
                                                  Sum *sums) {
  for_each_column<kGroupThreads>(block, rank, [&](int x, int y0, int y_step) {
    const uint8_t *first = view.mean_data + ptrdiff_t(y0 - view.mean_y) * view.mean_pitch +
                           ptrdiff_t(x - view.mean_x) * view.pixel_stride;
    const ptrdiff_t step = ptrdiff_t(y_step) * view.mean_pitch;
    for (int y = y0; y < block.y1; y += kMeanBatch * y_step, first += kMeanBatch * step) {
      Sample values[kMeanBatch][kChannels];
      CF_UNROLL
      for (int k = 0; k < kMeanBatch; ++k) {
        const Sample *pixel = reinterpret_cast<const Sample *>(
            y + k * y_step < block.y1 ? first + k * step : first);
        CF_UNROLL
        for (int c = 0; c < kChannels; ++c)
          values[k][c] = pixel[c];
      }
      CF_UNROLL
      for (int k = 0; k < kMeanBatch; ++k)
        CF_UNROLL
        for (int c = 0; c < kChannels; ++c)
          sums[c] += y + k * y_step < block.y1 ? Sum(values[k][c] >> padding_bits) : Sum(0);
    }
  });
}

// The rounded mean of each channel over the unit's block, in every thread (channels
// outside the view's mask are computed too, and never written).
template <typename Sample, int kGroupWarps, int kChannels>
__device__ void block_means_of(const DeviceView &view, int padding_bits,
                               const RedactEdges &block, int rank,
                               unsigned long long (*partials)[kMaxChannels], uint32_t *means) {
  // A warp's unit writes at most kWarpUnitSamples samples (launch_kernel), its block
  // among them: its sums stay below 2^32, and take half the shuffles.
  static_assert(kWarpUnitSamples <= 65536, "a warp's block sums fit 32 bits");
  using Sum = std::conditional_t<kGroupWarps == 1, uint32_t, unsigned long long>;
  Sum sums[kChannels] = {};
  add_block_samples<Sample, kGroupWarps * kWarpSize, kChannels>(view, padding_bits, block, rank,
                                                                 sums);
  CF_UNROLL
  for (int c = 0; c < kChannels; ++c)
    CF_UNROLL
    for (int offset = kWarpSize / 2; offset > 0; offset /= 2)
      sums[c] += __shfl_xor_sync(0xffffffffu, sums[c], offset);
  if constexpr (kGroupWarps > 1) {
    if (rank % kWarpSize == 0)
      for (int c = 0; c < kChannels; ++c)
        partials[rank / kWarpSize][c] = sums[c];
    __syncthreads();
    for (int c = 0; c < kChannels; ++c) {
      sums[c] = 0;
      for (int w = 0; w < kGroupWarps; ++w)
        sums[c] += partials[w][c];
    }
    __syncthreads();  // before the partials are written again
  }
  const Sum count = Sum(block.x1 - block.x0) * Sum(block.y1 - block.y0);
  CF_UNROLL
  for (int c = 0; c < kChannels; ++c)
    means[c] = redact_mean(sums[c], count);
}

// block_means_of for the view's number of channels: loads and shuffles for those only.
template <typename Sample, int kGroupWarps>
__device__ void block_means(const DeviceView &view, int padding_bits, const RedactEdges &block,
                            int rank, unsigned long long (*partials)[kMaxChannels],
                            uint32_t *means) {
  switch (view.channels) {
  case 1:
    return block_means_of<Sample, kGroupWarps, 1>(view, padding_bits, block, rank, partials,
                                                  means);
  case 2:
    return block_means_of<Sample, kGroupWarps, 2>(view, padding_bits, block, rank, partials,
                                                  means);
  case 3:
    return block_means_of<Sample, kGroupWarps, 3>(view, padding_bits, block, rank, partials,
                                                  means);
  default:
    return block_means_of<Sample, kGroupWarps, 4>(view, padding_bits, block, rank, partials,
                                                  means);
  }
}

// The weight the unit writes at (x, y): its shape's where it wins, else 0; with invert
// 256 minus the greatest weight.
__device__ __forceinline__ int unit_weight(const LaunchTable &table, const DeviceView &view,
                                           const Unit &unit, const OtherShape *list,
                                           int others, int x, int y) {
  const bool all = others > kListCapacity;  // the list overflowed: every shape of the view
  const int n = all ? view.shape_count : others;
  int weight = 0;
  if (unit.shape >= 0) {
    const DeviceShape own = shape_at(table, unit.shape);
    weight = shape_weight(table, view, own.box, own.steps, x, y);
    if (weight == 0)
      return 0;
  }
  for (int i = 0; i < n; ++i) {
    const int index = all ? view.first_shape + i : list[i].index;
    if (index == unit.shape)
      continue;
    const OtherShape other_shape =
        all ? OtherShape{shape_at(table, index).box, index, shape_at(table, index).steps}
            : list[i];
    const int other = shape_weight(table, view, other_shape.box, other_shape.steps, x, y);
    if (unit.shape >= 0) {
      if (other > weight || (other == weight && index < unit.shape))
        return 0;
    } else if (other > weight) {
      weight = other;
      if (weight == kRedactFullWeight)
        break;
    }
  }
  return unit.shape >= 0 ? weight : kRedactFullWeight - weight;
}

// Blur from row sums (the file's comment): 8-bit samples' sums fit uint32_t, 16-bit
// ones' need uint64_t (gauss.h).
template <typename Sample>
using RowSum = std::conditional_t<sizeof(Sample) == 1, uint32_t, uint64_t>;

// The taps into shared memory, where the sums' loops read them without waiting on the
// parameters' constant cache; before any thread reads them.
__device__ __forceinline__ void load_taps(const LaunchTable &table, int32_t *taps) {
  for (int i = int(threadIdx.x); i < kInlineTaps; i += int(blockDim.x))
    taps[i] = table.taps[i];
  __syncthreads();
}

// The sum over |k| <= radius of taps[1 + |k|] times the value at centre + k * step.
// No branch between the loads, unrolled: several of them are in flight at once.
template <typename Sum, typename Element>
__device__ __forceinline__ Sum tap_sum(const Element *centre, ptrdiff_t step,
                                       const int32_t *taps, int radius, int padding_bits) {
  Sum total = 0;
  const Element *element = centre - radius * step;
#pragma unroll 8
  for (int k = -radius; k <= radius; ++k, element += step)
    total += Sum(taps[1 + abs(k)]) * (Sum(*element) >> padding_bits);
  return total;
}

// tap_sum across a row where the taps reach past the view's edges (Reflect101).
template <typename Sum, typename Sample>
__device__ Sum edge_tap_sum(const Sample *row, ptrdiff_t step, int x, int width,
                            const int32_t *taps, int radius, int padding_bits) {
  Sum total = 0;
  for (int k = -radius; k <= radius; ++k)
    total += Sum(taps[1 + abs(k)]) *
             (Sum(row[border_index(x + k, width, BorderMode::Reflect101) * step]) >> padding_bits);
  return total;
}

// The first launch: a grid row per shape, each thread one of its row sums, every
// computed channel of it, from the view's values (rows and columns reflected at the
// view's edges, as gauss_cuda's Reflect101 border).
template <typename Sample>
__global__ void __launch_bounds__(kThreads) row_sums_kernel(const LaunchTable table) {
  __shared__ int32_t all_taps[kInlineTaps];
  load_taps(table, all_taps);
  const DeviceShape shape = shape_at(table, int(blockIdx.y));
  const DeviceView &view = table.views[shape.view];
  const RedactEdges area = redact_table_area(shape.box, view.feather, view.width, view.height);
  const int32_t *taps = all_taps + shape.taps_x;
  const int radius_x = taps[0], radius_y = all_taps[shape.taps_y];
  const int width = area.x1 - area.x0;
  const int count = (area.y1 - area.y0 + 2 * radius_y) * width;
  const int channels = view.channels, padding = table.padding_bits;
  const unsigned channel_mask = view.channel_mask;
  const ptrdiff_t step = view.pixel_stride / ptrdiff_t(sizeof(Sample));  // aligned samples
  RowSum<Sample> *sums = static_cast<RowSum<Sample> *>(table.row_sums) + shape.row_sums;
  for (int i = int(blockIdx.x) * kThreads + int(threadIdx.x); i < count;
       i += int(gridDim.x) * kThreads) {
    const int x = area.x0 + i % width;
    const int y = border_index(area.y0 - radius_y + i / width, view.height, BorderMode::Reflect101);
    const Sample *row = reinterpret_cast<const Sample *>(view.data + ptrdiff_t(y) * view.row_pitch);
    const bool inside = x >= radius_x && x + radius_x < view.width;
    CF_UNROLL
    for (int c = 0; c < kMaxChannels; ++c) {
      if (c >= channels)
        break;
      RowSum<Sample> total = 0;
      if (channel_mask & (1u << c))
        total = inside ? tap_sum<RowSum<Sample>>(row + x * step + c, step, taps, radius_x, padding)
                       : edge_tap_sum<RowSum<Sample>>(row + c, step, x, view.width, taps, radius_x,
                                                      padding);
      sums[size_t(i) * size_t(channels) + size_t(c)] = total;
    }
  }
}

// A unit's shape's row sums: those of its area's top-left sample, the area's corner
// and width, and the vertical taps.
template <typename Sample>
struct ShapeSums {
  const RowSum<Sample> *sums;
  const int32_t *taps_y;
  int x0;
  int y0;
  int width;
};

// `taps`: the table's, in shared memory (load_taps).
template <typename Sample>
__device__ __forceinline__ ShapeSums<Sample> shape_sums(const LaunchTable &table,
                                                        const DeviceView &view,
                                                        const int32_t *taps, int s) {
  const DeviceShape shape = shape_at(table, s);
  const RedactEdges area = redact_table_area(shape.box, view.feather, view.width, view.height);
  return {static_cast<const RowSum<Sample> *>(table.row_sums) + shape.row_sums,
          taps + shape.taps_y, area.x0, area.y0, area.x1 - area.x0};
}

// The second launch's R at (x, y): the row sums of the column summed with the vertical
// taps, rounded once (gauss.h), each computed channel.
template <typename Sample>
__device__ __forceinline__ void blur_from_sums(const LaunchTable &table, const DeviceView &view,
                                               const ShapeSums<Sample> &own, int x, int y,
                                               uint32_t *values) {
  const int radius = own.taps_y[0], channels = view.channels, shift = 2 * table.tap_bits;
  const unsigned channel_mask = view.channel_mask;
  const ptrdiff_t stride = ptrdiff_t(own.width) * channels;
  // Row y - own.y0 + radius of the sums is the view's row y.
  const RowSum<Sample> *centre = own.sums + ptrdiff_t(y - own.y0 + radius) * stride +
                                 ptrdiff_t(x - own.x0) * channels;
  CF_UNROLL
  for (int c = 0; c < kMaxChannels; ++c)
    if (c < channels && (channel_mask & (1u << c)))
      values[c] = uint32_t((tap_sum<RowSum<Sample>>(centre + c, stride, own.taps_y, radius, 0) +
                            (RowSum<Sample>(1) << (shift - 1))) >>
                           shift);
}

// kPlain: boxes without feather, masks or invert, no two of a view's meeting (the
// host's is_plain): each unit's samples are its own block, wholly redacted,
// so the weights and the other shapes drop out of the code the units run.
template <typename Sample, int kGroupWarps, RedactMethod kMethod, bool kPlain>
__global__ void __launch_bounds__(block_warps(kMethod) * kWarpSize)
    redact_kernel(const LaunchTable table) {
  constexpr int kGroups = block_warps(kMethod) / kGroupWarps;
  constexpr int kGroupThreads = kGroupWarps * kWarpSize;
  __shared__ OtherShape lists[kGroups][kListCapacity];
  __shared__ int list_counts[kGroups];
  __shared__ unsigned long long partials[kGroupWarps][kMaxChannels];
  __shared__ int32_t taps[kMethod == RedactMethod::Blur ? kInlineTaps : 1];
  if constexpr (kMethod == RedactMethod::Blur)
    if (table.row_sums != nullptr)
      load_taps(table, taps);
  const int group = threadIdx.x / kGroupThreads;
  const int rank = threadIdx.x % kGroupThreads;
  const int padding = table.padding_bits;
  const int owner = int(blockIdx.y);
  const int cells = cells_of(table, owner);
  for (int cell = int(blockIdx.x) * kGroups + group; cell < cells;
       cell += int(gridDim.x) * kGroups) {
    const Unit unit = find_unit(table, owner, cell);
    const DeviceView &view = table.views[unit.view];
    const int others =
        kPlain ? 0
               : collect_others<kGroupWarps>(table, unit, lists[group], &list_counts[group],
                                             rank);
    uint32_t redacted[kMaxChannels] = {};
    ShapeSums<Sample> own_sums{};
    if constexpr (kMethod == RedactMethod::Blur)
      if (table.row_sums != nullptr)
        own_sums = shape_sums<Sample>(table, view, taps, unit.shape);
    if constexpr (kMethod == RedactMethod::Pixelate)
      block_means<Sample, kGroupWarps>(view, padding, unit.block, rank, partials, redacted);
    else
      for (int c = 0; c < kMaxChannels; ++c)
        redacted[c] = view.fill[c];
    // kPlain: no feather, so a unit writes its block (pixelate) or tile, and takes the
    // same samples of it as the means did.
    for_each_sample<kGroupThreads>(kPlain ? unit.block : unit.write, rank, [&](int x, int y) {
      const int weight =
          kPlain ? kRedactFullWeight : unit_weight(table, view, unit, lists[group], others, x, y);
      if (weight == 0)
        return;
      Sample *pixel = reinterpret_cast<Sample *>(view.data + ptrdiff_t(y) * view.row_pitch +
                                                 ptrdiff_t(x) * view.pixel_stride);
      uint32_t values[kMaxChannels];
      CF_UNROLL
      for (int c = 0; c < kMaxChannels; ++c)
        values[c] = redacted[c];
      if constexpr (kMethod == RedactMethod::Blur) {
        if (table.row_sums != nullptr) {
          blur_from_sums(table, view, own_sums, x, y, values);
        } else {
          const Sample *blurred = reinterpret_cast<const Sample *>(
              view.blurred + ptrdiff_t(y) * view.blurred_pitch +
              ptrdiff_t(x) * view.pixel_stride);
          CF_UNROLL
          for (int c = 0; c < kMaxChannels; ++c)
            if (c < view.channels && (view.channel_mask & (1u << c)))
              values[c] = uint32_t(blurred[c]) >> padding;
        }
      }
      // Wholly redacted samples are only stored: no load waits before each store
      // (in place, a store could alias the next sample's load).
      const bool whole = weight == kRedactFullWeight;
      CF_UNROLL
      for (int c = 0; c < kMaxChannels; ++c)
        if (c < view.channels && (view.channel_mask & (1u << c))) {
          const uint32_t in = whole ? 0 : uint32_t(pixel[c]) >> padding;
          pixel[c] = Sample(redact_blend(values[c], in, weight) << padding);
        }
    });
    group_sync<kGroupWarps>();  // before the next unit's list replaces this one
  }
}

// ---- Host side ----

// Whether some shape's box grown by `growth` meets another shape's box. Box i meets
// box j grown by g exactly when the two boxes, each grown by g to the right and below
// only, meet (the condition is symmetric), so a sweep over x with the active boxes
// ordered by y finds any such pair in O(n log n): while none is found the active
// boxes are disjoint in y, and a new one meets one only if it meets a neighbour.
bool shapes_interfere(const RedactView &view, int growth) {
  const int f = growth;
  std::vector<std::pair<long long, int>> events;  // (x * 2 + insert, shape)
  for (int s = 0; s < view.count; ++s) {
    const Box &b = view.shapes[s].box;
    events.push_back({2LL * b.x + 1, s});
    events.push_back({2LL * (int64_t{b.x} + b.width + f), s});
  }
  std::sort(events.begin(), events.end());  // removals before insertions at one x
  std::set<std::pair<long long, int>> active;  // (y0, shape)
  for (const auto &[key, s] : events) {
    const Box &b = view.shapes[s].box;
    const long long y0 = b.y, y1 = int64_t{b.y} + b.height + f;
    if (key % 2 == 0) {
      active.erase({y0, s});
      continue;
    }
    const auto next = active.lower_bound({y0, -1});
    if (next != active.end() && next->first < y1)
      return true;
    if (next != active.begin()) {
      const Box &p = view.shapes[std::prev(next)->second].box;
      if (int64_t{p.y} + p.height + f > y0)
        return true;
    }
    active.insert({y0, s});
  }
  return false;
}

size_t frame_bytes_of(const RedactView *views, int count, SampleFormat format) {
  size_t bytes = 0;
  for (int v = 0; v < count; ++v)
    bytes += size_t(views[v].plane.height) * row_span_bytes(views[v].plane, format);
  return bytes;
}

DeviceView device_view(const RedactView &view, const RedactParams &params, int first_shape) {
  const Plane &plane = view.plane;
  DeviceView d{};
  d.data = plane.data;
  d.row_pitch = plane.row_pitch;
  d.mean_data = plane.data;
  d.mean_pitch = plane.row_pitch;
  d.width = plane.width;
  d.height = plane.height;
  d.pixel_stride = plane.pixel_stride;
  d.channels = plane.channels;
  d.channel_mask = plane.channel_mask;
  d.feather = view.feather;
  d.first_shape = first_shape;
  d.shape_count = view.count;
  // Grown boxes meet exactly when one grown by twice the feather meets the other.
  d.isolated = !params.invert && (view.count < 2 || !shapes_interfere(view, 2 * view.feather));
  for (int c = 0; c < kMaxChannels; ++c)
    d.fill[c] = view.fill[c];
  const bool pixelate = params.method == RedactMethod::Pixelate;
  d.cell_width = std::min(plane.width, pixelate ? view.invert_block_width : kFillTileWidth);
  d.cell_height = std::min(plane.height, pixelate ? view.invert_block_height : kFillTileHeight);
  d.columns = ceil_div(plane.width, d.cell_width);
  d.rows = ceil_div(plane.height, d.cell_height);
  return d;
}

// How the call's units are spread: the most cells of one grid row's owner, and the
// most samples one unit writes.
struct UnitSpread {
  long long units = 0;
  int most_cells = 0;
  long long largest = 0;

  void add(int columns, int rows, long long samples) {
    units += (long long)columns * rows;
    most_cells = std::max(most_cells, columns * rows);
    largest = std::max(largest, samples);
  }
};

// The call's views and shapes, and how its units spread.
UnitSpread build_tables(const RedactView *views, int count, const RedactParams &params,
                        LaunchTable &table, std::vector<DeviceShape> &shapes) {
  const bool pixelate = params.method == RedactMethod::Pixelate;
  UnitSpread spread;
  for (int v = 0; v < count; ++v) {
    const RedactView &view = views[v];
    DeviceView &d = table.views[v];
    d = device_view(view, params, int(shapes.size()));
    if (params.invert)
      spread.add(d.columns, d.rows, (long long)d.cell_width * d.cell_height);
    for (int s = 0; s < view.count; ++s) {
      const RedactShape &shape = view.shapes[s];
      const Box &b = shape.box;
      DeviceShape e{{b.x, b.y, b.x + b.width, b.y + b.height}, 0, 0, 0, 0, v, kNoSteps, 0, 0, 0};
      e.cell_width = std::min(b.width, pixelate ? shape.block_width : kFillTileWidth);
      e.cell_height = std::min(b.height, pixelate ? shape.block_height : kFillTileHeight);
      e.columns = ceil_div(b.width, e.cell_width);
      e.rows = ceil_div(b.height, e.cell_height);
      shapes.push_back(e);
      if (!params.invert)
        spread.add(e.columns, e.rows,
                   (long long)(e.cell_width + 2 * view.feather) *
                       (e.cell_height + 2 * view.feather));
    }
  }
  return spread;
}

// Whether the call takes redact_kernel's kPlain.
bool is_plain(const RedactView *views, int count, const RedactParams &params,
              const LaunchTable &table) {
  if (params.invert || params.outline != RedactOutline::Box)
    return false;
  for (int v = 0; v < count; ++v) {
    if (views[v].feather != 0 || !table.views[v].isolated)
      return false;
    for (int s = 0; s < views[v].count; ++s)
      if (views[v].shapes[s].mask != nullptr)
        return false;
  }
  return true;
}

// The masks' step tables, made here and uploaded into the workspace at `*offset`,
// each mask shape pointed at its own.
cudaError_t upload_mask_steps(const RedactView *views, int count, LaunchTable &table,
                              std::vector<DeviceShape> &shapes, uint8_t *workspace,
                              size_t *offset, cudaStream_t stream) {
  size_t samples = 0;
  for (int v = 0; v < count; ++v)
    for (int s = 0; s < views[v].count; ++s)
      if (views[v].shapes[s].mask != nullptr) {
        shapes[table.views[v].first_shape + s].steps = uint32_t(samples);
        samples += size_t(redact_mask_table_samples(views[v], views[v].shapes[s].box));
      }
  if (samples == 0)
    return cudaSuccess;
  // Pageable memory: the copy is staged before the call returns.
  std::vector<uint16_t> steps(samples);
  for (int v = 0; v < count; ++v)
    for (int s = 0; s < views[v].count; ++s) {
      const DeviceShape &shape = shapes[table.views[v].first_shape + s];
      if (shape.steps != kNoSteps)
        redact_mask_steps(shape.box, views[v].shapes[s].mask, views[v].feather,
                          views[v].plane.width, views[v].plane.height,
                          steps.data() + shape.steps);
    }
  uint8_t *device_steps = workspace + *offset;
  *offset += workspace_room(samples * sizeof(uint16_t));
  table.mask_steps = reinterpret_cast<const uint16_t *>(device_steps);
  return cudaMemcpyAsync(device_steps, steps.data(), samples * sizeof(uint16_t),
                         cudaMemcpyHostToDevice, stream);
}

// Where a view's shapes interfere, copies the bounding box of its shapes' boxes into
// the workspace at `*offset` and points the view's means there.
cudaError_t copy_read_area(const RedactView &view, SampleFormat format, DeviceView &d,
                           uint8_t *workspace, size_t *offset, cudaStream_t stream) {
  int x0 = INT_MAX, y0 = INT_MAX, x1 = 0, y1 = 0;
  for (int s = 0; s < view.count; ++s) {
    const Box &b = view.shapes[s].box;
    x0 = std::min(x0, b.x);
    y0 = std::min(y0, b.y);
    x1 = std::max(x1, b.x + b.width);
    y1 = std::max(y1, b.y + b.height);
  }
  Plane area = view.plane;
  area.data += y0 * view.plane.row_pitch + ptrdiff_t{x0} * view.plane.pixel_stride;
  area.width = x1 - x0;
  const size_t span = row_span_bytes(area, format);
  uint8_t *copy = workspace + *offset;
  *offset += workspace_room(span * size_t(y1 - y0));
  const cudaError_t e =
      y1 - y0 == 1
          ? cudaMemcpyAsync(copy, area.data, span, cudaMemcpyDeviceToDevice, stream)
          : cudaMemcpy2DAsync(copy, span, area.data, size_t(view.plane.row_pitch), span,
                              size_t(y1 - y0), cudaMemcpyDeviceToDevice, stream);
  d.mean_data = copy;
  d.mean_pitch = ptrdiff_t(span);
  d.mean_x = x0;
  d.mean_y = y0;
  return e;
}

// Blur from row sums where the call allows it (the file's comment): each shape's taps
// into the table, its row sums into the workspace at `*offset`, and the most row sums
// of one shape into `*most_sums`. False, with nothing changed, where some view's
// areas meet, the taps do not fit kInlineTaps or the sums the workspace.
bool place_row_sums(const RedactView *views, int count, SampleFormat format, LaunchTable &table,
                    std::vector<DeviceShape> &shapes, uint8_t *workspace,
                    size_t workspace_bytes, size_t *offset, int64_t *most_sums) {
  const int bits = gauss_tap_bits(format);
  std::vector<int32_t> taps;
  std::map<double, uint16_t> taps_of_sigma;
  const auto taps_at = [&](double sigma) {
    const auto [place, added] = taps_of_sigma.try_emplace(sigma, uint16_t(taps.size()));
    if (added) {
      const std::vector<int32_t> all = gauss_taps(sigma, gauss_auto_kernel_size(sigma), bits);
      const int radius = int(all.size()) / 2;
      taps.push_back(radius);
      taps.insert(taps.end(), all.begin() + radius, all.end());
    }
    return place->second;
  };
  uint64_t sums = 0;
  int64_t most = 0;
  std::vector<DeviceShape> placed = shapes;
  for (int v = 0; v < count; ++v) {
    const DeviceView &d = table.views[v];
    if (!d.isolated)
      return false;
    for (int s = 0; s < views[v].count; ++s) {
      DeviceShape &shape = placed[size_t(d.first_shape + s)];
      shape.taps_x = taps_at(views[v].shapes[s].sigma_x);
      shape.taps_y = taps_at(views[v].shapes[s].sigma_y);
      if (taps.size() > size_t(kInlineTaps))
        return false;
      const RedactEdges area = redact_table_area(shape.box, d.feather, d.width, d.height);
      const int64_t shape_sums = int64_t(area.y1 - area.y0 + 2 * taps[shape.taps_y]) *
                                 (area.x1 - area.x0);
      shape.row_sums = uint32_t(sums);
      sums += uint64_t(shape_sums) * uint64_t(d.channels);
      most = std::max(most, shape_sums);
    }
  }
  const size_t bytes = sums * (format.depth == SampleDepth::U8 ? 4 : 8);
  if (sums > UINT32_MAX || most > INT_MAX || *offset + bytes > workspace_bytes)
    return false;
  std::copy(taps.begin(), taps.end(), table.taps);
  table.tap_bits = bits;
  table.row_sums = workspace + *offset;
  *offset += workspace_room(bytes);
  *most_sums = most;
  shapes = std::move(placed);
  return true;
}

template <typename Sample>
cudaError_t launch_row_sums(const LaunchTable &table, int64_t most_sums, cudaStream_t stream) {
  const int columns = int(std::max<int64_t>(
      1, std::min<int64_t>((most_sums + kThreads - 1) / kThreads, kMaxGrid / table.shape_count)));
  row_sums_kernel<Sample><<<dim3(unsigned(columns), unsigned(table.shape_count)), kThreads, 0,
                            stream>>>(table);
  return cudaGetLastError();
}

// The shapes into the kernel's parameters where they fit, else into the workspace's
// start.
cudaError_t place_shapes(const std::vector<DeviceShape> &shapes, LaunchTable &table,
                         uint8_t *workspace, cudaStream_t stream) {
  if (shapes.size() <= size_t(kInlineShapes)) {
    std::copy(shapes.begin(), shapes.end(), table.shapes);
    return cudaSuccess;
  }
  table.device_shapes = reinterpret_cast<const DeviceShape *>(workspace);
  // Pageable memory: the copy is staged before the call returns.
  return cudaMemcpyAsync(workspace, shapes.data(), shapes.size() * sizeof(DeviceShape),
                         cudaMemcpyHostToDevice, stream);
}

// A grid row per owner (shape, or view with invert), its columns enough for the most
// cells of one, within kMaxGrid blocks in all (blocks then take several cells each).
template <typename Sample, RedactMethod kMethod, bool kPlain>
cudaError_t launch_kernel(const LaunchTable &table, const UnitSpread &spread,
                          cudaStream_t stream) {
  const bool whole_block_units = spread.largest > kWarpUnitSamples;
  constexpr int kBlockWarps = block_warps(kMethod);
  const int groups = whole_block_units ? 1 : kBlockWarps;
  const int owners = table.invert ? table.view_count : table.shape_count;
  const int columns = std::max(1, std::min((spread.most_cells + groups - 1) / groups,
                                           kMaxGrid / owners));
  const dim3 grid{unsigned(columns), unsigned(owners)};
  if (whole_block_units)
    redact_kernel<Sample, kBlockWarps, kMethod, kPlain>
        <<<grid, kBlockWarps * kWarpSize, 0, stream>>>(table);
  else
    redact_kernel<Sample, 1, kMethod, kPlain><<<grid, kBlockWarps * kWarpSize, 0, stream>>>(table);
  return cudaGetLastError();
}

// The kernel of the call's method and plainness, a code path of its own each: the
// units run little code, and a smaller kernel waits less on instruction fetches. For
// blur from row sums (most_sums > 0), the row sums' launch first.
template <typename Sample>
cudaError_t launch_kernels(RedactMethod method, bool plain, int64_t most_sums,
                           const LaunchTable &table, const UnitSpread &spread,
                           cudaStream_t stream) {
  if (most_sums > 0)
    if (const cudaError_t e = launch_row_sums<Sample>(table, most_sums, stream); e != cudaSuccess)
      return e;
  switch (method) {
  case RedactMethod::Pixelate:
    return plain ? launch_kernel<Sample, RedactMethod::Pixelate, true>(table, spread, stream)
                 : launch_kernel<Sample, RedactMethod::Pixelate, false>(table, spread, stream);
  case RedactMethod::Fill:
    return plain ? launch_kernel<Sample, RedactMethod::Fill, true>(table, spread, stream)
                 : launch_kernel<Sample, RedactMethod::Fill, false>(table, spread, stream);
  case RedactMethod::Blur:
  default:
    return plain ? launch_kernel<Sample, RedactMethod::Blur, true>(table, spread, stream)
                 : launch_kernel<Sample, RedactMethod::Blur, false>(table, spread, stream);
  }
}

bool is_valid_cuda_call(const RedactView *views, int count, SampleFormat format,
                        const RedactParams &params, void *workspace, size_t workspace_bytes) {
  if (!is_valid(params, views, count, format))
    return false;
  uint64_t mask_steps = 0;  // DeviceShape::steps counts them in 32 bits
  for (int v = 0; v < count; ++v) {
    const Plane &plane = views[v].plane;
    if (!are_samples_aligned(plane, format))
      return false;
    // The blurred view takes the view's pixel stride: gauss_cuda's own condition.
    if (params.method == RedactMethod::Blur && !can_copy_pixels_whole(plane, plane, format))
      return false;
    for (int s = 0; s < views[v].count; ++s)
      if (views[v].shapes[s].mask != nullptr)
        mask_steps += uint64_t(redact_mask_table_samples(views[v], views[v].shapes[s].box));
  }
  if (mask_steps >= kNoSteps)
    return false;
  return workspace != nullptr &&
         workspace_bytes >= redact_cuda_workspace_bytes(frame_bytes_of(views, count, format));
}

// Each view blurred into the workspace at `*offset`, pass after pass.
cudaError_t blur_views(const RedactView *views, int count, SampleFormat format,
                       const RedactParams &params, LaunchTable &table, uint8_t *workspace,
                       size_t *offset, cudaStream_t stream) {
  for (int v = 0; v < count; ++v) {
    const RedactView &view = views[v];
    if (view.count == 0 && !params.invert)
      continue;
    const Plane blurred = redact_blur_plane(view, format, workspace + *offset);
    *offset += workspace_room(size_t(view.plane.height) * size_t(blurred.row_pitch));
    for (const RedactBlurPass &pass : redact_blur_passes(params, view, format))
      if (const cudaError_t e = gauss_cuda(view.plane, blurred, format, pass.params, stream);
          e != cudaSuccess)
        return e;
    table.views[v].blurred = blurred.data;
    table.views[v].blurred_pitch = blurred.row_pitch;
  }
  return cudaSuccess;
}

}  // namespace

size_t redact_cuda_workspace_bytes(size_t frame_bytes) {
  // A view's samples are at most its bytes, and its mask tables at most
  // kRedactMaskTableFactor times its samples (is_valid).
  const size_t mask_steps =
      size_t(kRedactMaskTableFactor) * frame_bytes * sizeof(uint16_t) + kWorkspaceAlignment;
  return kShapeTableBytes + mask_steps + frame_bytes + kRedactMaxViews * kWorkspaceAlignment;
}

cudaError_t redact_cuda(const RedactView *views, int count, SampleFormat format,
                        const RedactParams &params, void *workspace, size_t workspace_bytes,
                        cudaStream_t stream) {
  if (!is_valid_cuda_call(views, count, format, params, workspace, workspace_bytes))
    return cudaErrorInvalidValue;
  LaunchTable table{};
  table.view_count = count;
  table.padding_bits = format.padding_bits;
  table.invert = params.invert;
  table.ellipse = params.outline == RedactOutline::Ellipse;
  const bool pixelate = params.method == RedactMethod::Pixelate;
  std::vector<DeviceShape> shapes;
  const UnitSpread spread = build_tables(views, count, params, table, shapes);
  if (spread.units == 0)
    return cudaSuccess;
  table.shape_count = int(shapes.size());
  uint8_t *base = static_cast<uint8_t *>(workspace);
  size_t offset = kShapeTableBytes;
  if (const cudaError_t e =
          upload_mask_steps(views, count, table, shapes, base, &offset, stream);
      e != cudaSuccess)
    return e;
  // Boxes that meet grown by the feather meet grown by twice it: only views not
  // isolated are swept again.
  for (int v = 0; v < count && pixelate && !params.invert; ++v)
    if (!table.views[v].isolated &&
        (views[v].feather == 0 || shapes_interfere(views[v], views[v].feather)))
      if (const cudaError_t e =
              copy_read_area(views[v], format, table.views[v], base, &offset, stream);
          e != cudaSuccess)
        return e;
  int64_t most_sums = 0;  // > 0: blur from row sums
  if (params.method == RedactMethod::Blur && !params.invert)
    place_row_sums(views, count, format, table, shapes, base, workspace_bytes, &offset,
                   &most_sums);
  if (params.method == RedactMethod::Blur && most_sums == 0)
    if (const cudaError_t e =
            blur_views(views, count, format, params, table, base, &offset, stream);
        e != cudaSuccess)
      return e;
  if (const cudaError_t e = place_shapes(shapes, table, base, stream); e != cudaSuccess)
    return e;
  const bool plain = is_plain(views, count, params, table);
  return format.depth == SampleDepth::U8
             ? launch_kernels<uint8_t>(params.method, plain, most_sums, table, spread, stream)
             : launch_kernels<uint16_t>(params.method, plain, most_sums, table, spread, stream);
}

}  // namespace cf
