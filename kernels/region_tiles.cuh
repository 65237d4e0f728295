// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Output regions (regions.h) on the CUDA kernels: one launch for up to kMaxLaunchBoxes
// boxes of a plane, a 1-D grid over every box's tiles. A kernel's tiles are the ones it
// computes for the whole plane (a strip and band of rows, a run of chunks...), laid
// from each box's top-left corner (its left edge aligned down where the kernel's
// vector accesses need it), so that the grid, and the cost, follow the boxes' area.
// Each block finds its box in a table passed by value with the launch (no device
// memory to allocate or copy, and concurrent launches cannot disturb one another's),
// computes its tile as the whole-plane kernel does, and stores only the pixels of its
// box: overlapping boxes store the same values twice. More boxes than one table holds
// take successive launches of kMaxLaunchBoxes boxes each.
//
// Kernels take the tiling as a type: WholePlaneTiles (empty, the blocks of the 2-D grid
// the kernels always had, nothing looked up) or RegionTable, so the whole-plane code
// is what it was.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>

#include "cuda_views.cuh"
#include "plane.h"
#include "regions.h"

namespace cf {

// With a Gauss kernel's 968 bytes of taps the parameters stay under 3 KiB, within the
// 4 KiB every CUDA version takes.
constexpr int kMaxLaunchBoxes = 64;

struct WholePlaneTiles {};

struct RegionTable {
  int count;                         // boxes, 1..kMaxLaunchBoxes
  int first[kMaxLaunchBoxes + 1];    // box b's first tile; first[count]: all of them
  int columns[kMaxLaunchBoxes];      // tiles across box b
  Box boxes[kMaxLaunchBoxes];
};

template <class Tiles>
constexpr bool kRegionTiles = std::is_same_v<Tiles, RegionTable>;

// A block's box and its tile there (column, row of the box's tiles).
struct RegionTile {
  Box box;
  int column;
  int row;
};

#ifdef __CUDACC__
// The same for every thread of a block: the table is read from the parameters with the
// same index in every lane.
__device__ inline RegionTile find_region_tile(const RegionTable &table, int block) {
  int low = 0, high = table.count - 1;  // the last box whose first tile is <= block
  while (low < high) {
    const int middle = (low + high + 1) / 2;
    if (table.first[middle] <= block)
      low = middle;
    else
      high = middle - 1;
  }
  const int index = block - table.first[low];
  const int columns = table.columns[low];
  return {table.boxes[low], index % columns, index / columns};
}
#endif

// tiles_of(box) -> {columns, rows} of a kernel's tiles over a box; launch(table, tiles)
// queues one launch of `tiles` blocks. For each kMaxLaunchBoxes boxes in turn; a region
// without boxes queues nothing. Returns the first error.
struct TileCount {
  int columns;
  int rows;
};
template <class TilesOf, class Launch>
cudaError_t launch_region_tables(const OutputRegion &region, const TilesOf &tiles_of,
                                 const Launch &launch) {
  for (int first = 0; first < region.count; first += kMaxLaunchBoxes) {
    RegionTable table{};
    table.count = std::min(kMaxLaunchBoxes, region.count - first);
    int64_t tiles = 0;
    for (int b = 0; b < table.count; ++b) {
      const Box &box = region.boxes[first + b];
      const TileCount count = tiles_of(box);
      table.boxes[b] = box;
      table.columns[b] = count.columns;
      table.first[b] = int(tiles);
      tiles += int64_t(count.columns) * count.rows;
      // The grid's x limit, 2^31 - 1, is also int's.
      if (tiles > INT_MAX)
        return cudaErrorInvalidValue;
    }
    table.first[table.count] = int(tiles);
    if (const cudaError_t e = launch(table, int(tiles)); e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

// Tile rows for a region such that its tiles make about one wave of `resident` blocks
// and no more, as the whole-plane launches choose their bands: `column_rows` is the sum
// over the boxes of their tile columns times their height. Never below min_rows.
inline int region_band_rows(int64_t column_rows, int resident, int min_rows) {
  const int64_t rows = (column_rows + std::max(resident, 1) - 1) / std::max(resident, 1);
  return int(std::max<int64_t>(min_rows, std::min<int64_t>(rows, INT_MAX)));
}

// filter(src channel, dst channel) for every computed channel of a packed pair whose
// call has a region: the channels not computed stay as dst holds them (the whole-row
// copy of filter_channels_cuda would write outside the boxes).
template <class ChannelFilter>
cudaError_t filter_region_channels_cuda(const Plane &src, const Plane &dst, SampleFormat format,
                                        ChannelFilter filter) {
  for (int c = 0; c < src.channels; ++c)
    if (src.channel_mask & (1u << c))
      if (const cudaError_t e =
              filter(channel_plane(src, c, format), channel_plane(dst, c, format));
          e != cudaSuccess)
        return e;
  return cudaSuccess;
}

}  // namespace cf
