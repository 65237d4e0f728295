// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Redaction on the CPU (redact.h), scalar: per view, the redacted values (every
// pixelate block's means, or the blurred view) are computed first from the untouched
// samples, then the rows are written in parallel, each sample by its winning shape
// (or, with invert, by the view).
#include <algorithm>
#include <climits>
#include <cstring>
#include <utility>
#include <vector>

#include "cpu_parallel.h"
#include "cpu_samples.h"
#include "redact.h"
#include "redact_blur.h"
#include "redact_math.h"

namespace cf {

bool is_valid(const RedactParams &params, const RedactView *views, int count,
              SampleFormat format) {
  if (views == nullptr || count < 1 || count > kRedactMaxViews || !is_valid(format))
    return false;
  const bool ellipse = params.outline == RedactOutline::Ellipse;
  for (int v = 0; v < count; ++v) {
    const RedactView &view = views[v];
    if (!is_valid_plane(view.plane, format) || view.count < 0 || view.count > kRedactMaxShapes ||
        (view.count > 0 && view.shapes == nullptr) || view.feather < 0 ||
        view.feather > kRedactMaxFeather || view.invert_block_width < 1 ||
        view.invert_block_height < 1)
      return false;
    for (int c = 0; c < view.plane.channels; ++c)
      if ((view.plane.channel_mask & (1u << c)) && view.fill[c] > max_sample_value(format))
        return false;
    int64_t table_samples = 0;
    for (int s = 0; s < view.count; ++s) {
      const RedactShape &shape = view.shapes[s];
      if (!is_within(shape.box, view.plane) || shape.block_width < 1 || shape.block_height < 1)
        return false;
      if (shape.mask != nullptr)
        table_samples += redact_mask_table_samples(view, shape.box);
      else if (ellipse && (shape.box.width > kRedactMaxEllipseSide ||
                           shape.box.height > kRedactMaxEllipseSide))
        return false;
      if (params.method == RedactMethod::Blur &&
          !(is_valid_redact_sigma(shape.sigma_x) && is_valid_redact_sigma(shape.sigma_y)))
        return false;
    }
    if (params.method == RedactMethod::Blur && params.invert &&
        !(is_valid_redact_sigma(view.invert_sigma_x) &&
          is_valid_redact_sigma(view.invert_sigma_y)))
      return false;
    if (table_samples >
        int64_t{kRedactMaskTableFactor} * view.plane.width * view.plane.height)
      return false;
  }
  return true;
}

std::vector<Box> redact_areas(const RedactParams &params, const RedactView &view) {
  if (params.invert)
    return {Box{0, 0, view.plane.width, view.plane.height}};
  std::vector<Box> areas;
  areas.reserve(view.count);
  for (int s = 0; s < view.count; ++s) {
    const Box &box = view.shapes[s].box;
    const int x0 = std::max(0, box.x - view.feather);
    const int y0 = std::max(0, box.y - view.feather);
    const int x1 = int(std::min<int64_t>(view.plane.width, int64_t{box.x} + box.width + view.feather));
    const int y1 = int(std::min<int64_t>(view.plane.height, int64_t{box.y} + box.height + view.feather));
    areas.push_back({x0, y0, x1 - x0, y1 - y0});
  }
  return areas;
}

namespace {

// Where pixelate blocks lie: a grid anchored at the area's top-left corner, cut by its
// edges. Blocks larger than the area count as the area's size.
struct BlockGrid {
  RedactEdges area;
  int block_width;
  int block_height;
  int columns;
  int rows;
  std::vector<uint32_t> values;  // per block, per channel: the rounded mean

  BlockGrid(const RedactEdges &edges, int width, int height)
      : area(edges), block_width(std::min(width, edges.x1 - edges.x0)),
        block_height(std::min(height, edges.y1 - edges.y0)),
        columns((edges.x1 - edges.x0 + block_width - 1) / block_width),
        rows((edges.y1 - edges.y0 + block_height - 1) / block_height) {}

  const uint32_t *value_at(int x, int y) const {
    const int column = redact_block_index(x, area.x0, block_width, columns);
    const int row = redact_block_index(y, area.y0, block_height, rows);
    return &values[(size_t(row) * columns + column) * kMaxChannels];
  }
  // The first column of samples past x's block (INT_MAX past the last block, which
  // the feather beyond the area also takes).
  int block_end(int x) const {
    const int column = redact_block_index(x, area.x0, block_width, columns);
    return column + 1 < columns ? area.x0 + (column + 1) * block_width : INT_MAX;
  }
};

template <typename Sample>
uint32_t value_at(const Plane &plane, SampleFormat format, int x, int y, int c) {
  const uint8_t *at = plane.data + y * plane.row_pitch + ptrdiff_t{x} * plane.pixel_stride +
                      c * int(sizeof(Sample));
  return sample_value(format, load_sample<Sample>(at));
}

// The means of the blocks of one row of the grid, from the plane as it is now.
template <typename Sample>
void compute_means(const Plane &plane, SampleFormat format, BlockGrid &grid, int row) {
  for (int column = 0; column < grid.columns; ++column) {
      const int x0 = grid.area.x0 + column * grid.block_width;
      const int y0 = grid.area.y0 + row * grid.block_height;
      const int x1 = std::min(grid.area.x1, x0 + grid.block_width);
      const int y1 = std::min(grid.area.y1, y0 + grid.block_height);
    const uint64_t count = uint64_t(x1 - x0) * uint64_t(y1 - y0);
    for (int c = 0; c < plane.channels; ++c) {
      if (!(plane.channel_mask & (1u << c)))
        continue;
      uint64_t sum = 0;
      for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x)
          sum += value_at<Sample>(plane, format, x, y, c);
      grid.values[(size_t(row) * grid.columns + column) * kMaxChannels + c] =
          redact_mean(sum, count);
    }
  }
}

RedactEdges edges_of(const Box &box) {
  return {box.x, box.y, box.x + box.width, box.y + box.height};
}

// One view's call: its shapes' edges and masks' step tables, and the redacted values
// of each shape (or, with invert, of the view).
struct ViewJob {
  const RedactView *view;
  std::vector<RedactEdges> shapes;
  std::vector<std::vector<uint16_t>> steps;  // per shape: empty without a mask
  std::vector<BlockGrid> grids;  // pixelate: per shape, or one for the view with invert
  std::vector<uint8_t> blurred_bytes;  // blur: the view blurred where it is written
  Plane blurred;
  cudaError_t status = cudaSuccess;
};

// The view blurred into job.blurred, every pass in order.
void blur_view(ViewJob &job, SampleFormat format, const RedactParams &params, int threads) {
  const RedactView &view = *job.view;
  job.blurred_bytes.resize(size_t(view.plane.height) * row_span_bytes(view.plane, format));
  job.blurred = redact_blur_plane(view, format, job.blurred_bytes.data());
  for (const RedactBlurPass &pass : redact_blur_passes(params, view, format))
    if ((job.status = gauss_cpu(view.plane, job.blurred, format, pass.params, threads)) !=
        cudaSuccess)
      return;
}

// The redacted values of sample (x, y), per channel, where they come from a plane (blur).
template <typename Sample>
void values_at(const Plane &plane, SampleFormat format, int x, int y, uint32_t *values) {
  for (int c = 0; c < plane.channels; ++c)
    if (plane.channel_mask & (1u << c))
      values[c] = value_at<Sample>(plane, format, x, y, c);
}

void tabulate_masks(ViewJob &job, int threads) {
  const RedactView &view = *job.view;
  job.steps.resize(view.count);
  parallel_ranges(view.count, threads, 1 << 14, [&](int begin, int end) {
    for (int s = begin; s < end; ++s) {
      if (view.shapes[s].mask == nullptr)
        continue;
      job.steps[s].resize(size_t(redact_mask_table_samples(view, view.shapes[s].box)));
      redact_mask_steps(job.shapes[s], view.shapes[s].mask, view.feather, view.plane.width,
                        view.plane.height, job.steps[s].data());
    }
  });
}

template <typename Sample>
ViewJob prepare_view(const RedactView &view, SampleFormat format, const RedactParams &params,
                     int threads) {
  ViewJob job{&view, {}, {}, {}, {}, {}};
  for (int s = 0; s < view.count; ++s)
    job.shapes.push_back(edges_of(view.shapes[s].box));
  tabulate_masks(job, threads);
  if (params.method == RedactMethod::Blur)
    blur_view(job, format, params, threads);
  if (params.method != RedactMethod::Pixelate)
    return job;
  if (params.invert) {
    job.grids.emplace_back(RedactEdges{0, 0, view.plane.width, view.plane.height},
                           view.invert_block_width, view.invert_block_height);
  } else {
    for (int s = 0; s < view.count; ++s)
      job.grids.emplace_back(job.shapes[s], view.shapes[s].block_width,
                             view.shapes[s].block_height);
  }
  if (job.grids.empty())
    return job;
  // Every row of blocks of every grid, spread over the threads: one grid (the whole
  // view, with invert) is most of the work where there is one.
  std::vector<std::pair<int, int>> rows;  // (grid, row)
  long area = 0;
  for (int g = 0; g < int(job.grids.size()); ++g) {
    BlockGrid &grid = job.grids[g];
    grid.values.assign(size_t(grid.columns) * grid.rows * kMaxChannels, 0);
    for (int row = 0; row < grid.rows; ++row)
      rows.push_back({g, row});
    area += long(grid.area.x1 - grid.area.x0) * (grid.area.y1 - grid.area.y0);
  }
  const long work = area / long(rows.size()) + 1;
  parallel_ranges(int(rows.size()), threads, work, [&](int begin, int end) {
    for (int i = begin; i < end; ++i)
      compute_means<Sample>(view.plane, format, job.grids[rows[i].first], rows[i].second);
  });
  return job;
}

// The weight a sample takes and which shape's values (-1: the view's, with invert).
struct Decision {
  int weight;
  int shape;
};

Decision decide(const ViewJob &job, const std::vector<int> &row_shapes, bool ellipse,
                bool invert, int x, int y) {
  const RedactView &view = *job.view;
  Decision best{0, -1};
  for (const int s : row_shapes) {
    const int w = redact_any_shape_weight(
        job.shapes[s], job.steps[s].empty() ? nullptr : job.steps[s].data(), ellipse,
        view.feather, view.plane.width, view.plane.height, x, y);
    if (w > best.weight)  // ties keep the lower index: shapes come in index order
      best = {w, s};
  }
  if (invert)
    return {kRedactFullWeight - best.weight, -1};
  return best;
}

// Samples [x_begin, x_end) of row y wholly redacted (invert with no shape on the row,
// or one shape's box alone there): stores alone, a block's values (`grid`'s, for
// pixelate) looked up once.
template <typename Sample>
void store_redacted(const ViewJob &job, SampleFormat format, RedactMethod method,
                    const BlockGrid *grid, int y, int x_begin, int x_end) {
  const Plane &plane = job.view->plane;
  uint8_t *row = plane.data + y * plane.row_pitch;
  const bool pixelate = method == RedactMethod::Pixelate;
  const bool blur = method == RedactMethod::Blur;
  uint32_t blurred[kMaxChannels] = {};
  for (int x = x_begin; x < x_end;) {
    if (blur)
      values_at<Sample>(job.blurred, format, x, y, blurred);
    const uint32_t *values = pixelate ? grid->value_at(x, y) : blur ? blurred : job.view->fill;
    const int end = pixelate ? std::min(x_end, grid->block_end(x)) : blur ? x + 1 : x_end;
    for (int c = 0; c < plane.channels; ++c) {
      if (!(plane.channel_mask & (1u << c)))
        continue;
      const Sample stored = Sample(stored_sample(format, values[c]));
      uint8_t *at = row + ptrdiff_t{x} * plane.pixel_stride + c * int(sizeof(Sample));
      for (int i = x; i < end; ++i, at += plane.pixel_stride)
        store_sample<Sample>(at, stored);
    }
    x = end;
  }
}

// Where the row's shapes are boxes without feather or mask that do not meet on it (the
// common case), each wholly redacts its own samples and nothing else changes: stored
// alone, with no weights. False, having written nothing, elsewhere. `by_x`: scratch.
template <typename Sample>
bool store_apart(const ViewJob &job, SampleFormat format, const RedactParams &params, int y,
                 const std::vector<int> &row_shapes, std::vector<int> &by_x) {
  if (params.invert || params.outline != RedactOutline::Box || job.view->feather != 0)
    return false;
  for (const int s : row_shapes)
    if (!job.steps[s].empty())
      return false;
  by_x = row_shapes;
  std::sort(by_x.begin(), by_x.end(),
            [&](int a, int b) { return job.shapes[a].x0 < job.shapes[b].x0; });
  for (size_t i = 1; i < by_x.size(); ++i)
    if (job.shapes[by_x[i - 1]].x1 > job.shapes[by_x[i]].x0)
      return false;
  const bool pixelate = params.method == RedactMethod::Pixelate;
  for (const int s : by_x)
    store_redacted<Sample>(job, format, params.method, pixelate ? &job.grids[s] : nullptr, y,
                           job.shapes[s].x0, job.shapes[s].x1);
  return true;
}

// Row y of the view. `row_shapes` and `by_x`: scratch.
template <typename Sample>
void write_row(const ViewJob &job, SampleFormat format, const RedactParams &params, int y,
               std::vector<int> &row_shapes, std::vector<int> &by_x) {
  const RedactView &view = *job.view;
  const Plane &plane = view.plane;
  const int feather = view.feather;
  row_shapes.clear();
  int x_begin = params.invert ? 0 : plane.width, x_end = params.invert ? plane.width : 0;
  for (int s = 0; s < view.count; ++s) {
    const RedactEdges &e = job.shapes[s];
    if (y < e.y0 - feather || y >= e.y1 + feather)
      continue;
    row_shapes.push_back(s);
    x_begin = std::min(x_begin, std::max(0, e.x0 - feather));
    x_end = std::max(x_end, std::min(plane.width, e.x1 + feather));
  }
  const bool ellipse = params.outline == RedactOutline::Ellipse;
  const bool pixelate = params.method == RedactMethod::Pixelate;
  const bool blur = params.method == RedactMethod::Blur;
  if (params.invert && row_shapes.empty()) {
    store_redacted<Sample>(job, format, params.method, pixelate ? &job.grids[0] : nullptr, y, 0,
                           plane.width);
    return;
  }
  if (store_apart<Sample>(job, format, params, y, row_shapes, by_x))
    return;
  // A block's values serve every sample up to the block's end: looked up once.
  uint32_t blurred[kMaxChannels] = {};
  const uint32_t *redacted = blur ? blurred : view.fill;
  int values_shape = -2, values_end = 0;
  for (int x = x_begin; x < x_end; ++x) {
    const Decision decision = decide(job, row_shapes, ellipse, params.invert, x, y);
    if (decision.weight == 0)
      continue;
    if (blur)
      values_at<Sample>(job.blurred, format, x, y, blurred);
    if (pixelate && (decision.shape != values_shape || x >= values_end)) {
      const BlockGrid &grid = job.grids[params.invert ? 0 : decision.shape];
      redacted = grid.value_at(x, y);
      values_shape = decision.shape;
      values_end = grid.block_end(x);
    }
    uint8_t *pixel = plane.data + y * plane.row_pitch + ptrdiff_t{x} * plane.pixel_stride;
    for (int c = 0; c < plane.channels; ++c) {
      if (!(plane.channel_mask & (1u << c)))
        continue;
      uint8_t *at = pixel + c * int(sizeof(Sample));
      // Wholly redacted: the input does not count.
      const uint32_t in = decision.weight == kRedactFullWeight
                              ? 0
                              : sample_value(format, load_sample<Sample>(at));
      const uint32_t out = redact_blend(redacted[c], in, decision.weight);
      store_sample<Sample>(at, Sample(stored_sample(format, out)));
    }
  }
}

template <typename Sample>
cudaError_t redact_view(const RedactView &view, SampleFormat format, const RedactParams &params,
                        int threads) {
  const ViewJob job = prepare_view<Sample>(view, format, params, threads);
  if (job.status != cudaSuccess)
    return job.status;
  const long work = long(view.plane.width) * (1 + view.count / 8);
  parallel_ranges(view.plane.height, threads, work, [&](int begin, int end) {
    std::vector<int> row_shapes, by_x;
    for (int y = begin; y < end; ++y)
      write_row<Sample>(job, format, params, y, row_shapes, by_x);
  });
  return cudaSuccess;
}

}  // namespace

cudaError_t redact_cpu(const RedactView *views, int count, SampleFormat format,
                       const RedactParams &params, int threads) {
  if (!is_valid(params, views, count, format))
    return cudaErrorInvalidValue;
  for (int v = 0; v < count; ++v) {
    const cudaError_t e = format.depth == SampleDepth::U8
                              ? redact_view<uint8_t>(views[v], format, params, threads)
                              : redact_view<uint16_t>(views[v], format, params, threads);
    if (e != cudaSuccess)
      return e;
  }
  return cudaSuccess;
}

}  // namespace cf
