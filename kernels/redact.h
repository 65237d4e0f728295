// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Redaction of shapes in place: the C++ API of the kernels, free of GStreamer.
//
// A call edits views (planes, kernels/plane.h) in place, each with its own shapes in
// its own samples. Exact integer semantics, the same on every backend. Per view, with
// shapes S_0 .. S_{n-1}, each a box [x0, x1) x [y0, y1) of the view's samples (a
// sample's centre at x + 1/2, y + 1/2), and F = the view's feather:
//
// - Inside: a box holds the samples of its box; an ellipse (the one inscribed in its
//   box), those with dx^2 H^2 + dy^2 W^2 <= W^2 H^2, where W = x1 - x0,
//   H = y1 - y0, dx = 2x + 1 - x0 - x1, dy = 2y + 1 - y0 - y1 (64-bit integers).
//   A shape with a mask ignores the call's outline: it holds the samples (x, y) of
//   its box whose byte mask[(y - y0) * W + (x - x0)] is not zero (none, if every
//   byte is zero).
// - Step k_i(p): 0 inside S_i; else the least k in 1..F such that p is inside S_i
//   grown by k on every side (box [x0 - k, x1 + k) x [y0 - k, y1 + k), or the ellipse
//   inscribed in that box, or for a mask the samples within Chebyshev distance k,
//   max(|dx|, |dy|) <= k, of a sample inside: the same growth as a box's); none
//   past F.
// - Weight w_i(p): 256 at step 0; ((F + 1 - k) * 256) / (F + 1) at step k; 0 with none.
//   Fully redacted inside the shape, fading over F samples outside it.
// - Without invert: at p, the shape of the greatest weight wins (ties: the lowest
//   index), w = its weight and R its redacted value there. With invert:
//   w = 256 - max_i w_i(p), R the whole view's redacted value there.
// - Where w > 0, each processed channel (channel_mask) of p becomes
//       out = (R * w + in * (256 - w) + 128) >> 8
//   on values (SampleFormat: P010's padding bits off, and zero after); w == 0: p
//   untouched. Channels outside the mask, and every sample with w == 0, keep their
//   bytes.
// - R, per channel, from the input as it was before the call (whatever the order of
//   writes, shapes overlapping included):
//   Fill: the view's fill value of the channel.
//   Pixelate: blocks of block_width x block_height samples anchored at the box's
//   top-left corner (the view's top-left corner with invert, using the view's
//   invert_block_* sizes), cut by the box's edges (the view's with invert). A sample
//   takes the mean of the samples of its block, the block index clamped to the box's
//   blocks (so that the feather outside the box takes its nearest block), rounded
//   half up: (2 * sum + count) / (2 * count). A mask shape's blocks are cut by its
//   box, not by its mask: the mean takes every sample of the block in the box.
//   Blur: the view's Gaussian blur at the sample, as gauss.h computes it for the
//   whole view (make_gauss_params(sigma_x, sigma_y) with automatic kernel sizes and
//   BorderMode::Reflect101; samples outside every shape feed it as usual), with the
//   sigmas of the shape whose (sigma_x, sigma_y) is greatest (compared as pairs, x
//   first) among those whose written area (its box grown by F, clipped: redact_areas)
//   holds the sample: where shapes meet, the stronger blur hides both. With invert,
//   the view's invert_sigma_*.
//
// What a call writes: with invert, the whole view; without, each shape's box grown by
// F, clipped to the view (redact_areas).
//
// Masks cost memory in proportion to their grown boxes: both backends tabulate the
// step of every sample of a mask shape's box grown by F and clipped to the view
// (redact_mask_table_samples), and a view's tables together may hold at most
// kRedactMaskTableFactor times the view's samples.
#pragma once

#include "status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "executor.h"
#include "plane.h"
#include "regions.h"

namespace cf {

enum class RedactMethod { Pixelate, Fill, Blur };
enum class RedactOutline { Box, Ellipse };

constexpr int kRedactMaxFeather = 255;
constexpr int kRedactMaxViews = 8;         // a call's views (4 planes, 2 fields each)
constexpr int kRedactMaxShapes = 1024;     // a view's shapes
constexpr int kRedactMaxEllipseSide = 32768;  // the bound the 64-bit inside test needs
constexpr int kRedactMaskTableFactor = 2;     // a view's mask tables, in its samples

// One shape of a view: its box (within the view, non-empty); for Pixelate, the size
// of its blocks (1 up to the box's own size is meaningful; larger ones count as the
// box's size); for Blur, its Gaussian's sigmas in the view's samples
// (kGaussMinSigma..kGaussMaxSigma, gauss.h); optionally its own mask, which replaces
// the call's outline.
struct RedactShape {
  Box box;
  int block_width = 1;
  int block_height = 1;
  double sigma_x = 1.0;
  double sigma_y = 1.0;
  // Host memory read during the call: box.width * box.height bytes, row after row,
  // not zero inside. Null: the call's outline.
  const uint8_t *mask = nullptr;
};

struct RedactView {
  Plane plane;                      // edited in place
  const RedactShape *shapes = nullptr;  // host memory, read during the call
  int count = 0;                    // 0..kRedactMaxShapes
  int feather = 0;                  // 0..kRedactMaxFeather samples of this view
  int invert_block_width = 1;       // Pixelate with invert: the whole view's blocks
  int invert_block_height = 1;
  double invert_sigma_x = 1.0;      // Blur with invert: the whole view's sigmas
  double invert_sigma_y = 1.0;
  uint32_t fill[kMaxChannels] = {};  // Fill: a value per channel, within the format
};

struct RedactParams {
  RedactMethod method = RedactMethod::Pixelate;
  RedactOutline outline = RedactOutline::Box;
  bool invert = false;
};

// Whether both backends take the call: 1..kRedactMaxViews views, each a valid plane
// (is_valid_plane) of the format with shapes within it, positive block sizes, a
// feather in range, fill values within the format (those of the channels of
// channel_mask: the others are never used), ellipse boxes (shapes without a mask) no
// wider or taller than kRedactMaxEllipseSide, each view's mask tables within
// kRedactMaskTableFactor times its samples, Blur sigmas in range (the shapes', and the
// view's with invert). The CUDA backend also needs are_samples_aligned, for Blur on
// packed planes with channels not computed pixels of nothing but their channels (as
// gauss_cuda), mask tables of fewer than 2^32 - 1 samples in all, and a workspace (not
// null) of at least redact_cuda_workspace_bytes of the views' frame bytes on every
// call, whether or not its shapes overlap or have masks.
bool is_valid(const RedactParams &params, const RedactView *views, int count,
              SampleFormat format);

// The boxes of `view`'s samples that a call writes (some samples of them may keep
// their values): the whole plane with invert, else each shape's box grown by the
// feather and clipped to the plane.
std::vector<Box> redact_areas(const RedactParams &params, const RedactView &view);

// The samples of the table a mask shape of `view` needs: its box grown by the view's
// feather, clipped to the plane.
int64_t redact_mask_table_samples(const RedactView &view, const Box &box);

// Device memory the CUDA backend needs for views of `frame_bytes` bytes of samples in
// all (the sum over views of height * row span): the shape tables, the masks' step
// tables, and a copy of what overlapping shapes read (Pixelate) or, for Blur, the
// shapes' row sums where they fit in what is left, else the blurred views. Built
// without CUDA: none.
#ifdef CF_HAVE_CUDA
size_t redact_cuda_workspace_bytes(size_t frame_bytes);
#else
inline size_t redact_cuda_workspace_bytes(size_t) { return 0; }
#endif

// CUDA: device memory, queued on `stream`, `workspace` (device memory of
// workspace_bytes, at least redact_cuda_workspace_bytes of the views) used by the
// call's work until it is done; returns the launch error. CPU: host memory, any
// alignment, `threads` threads (0: one per core), cudaSuccess once done (Blur: host
// memory of the views' size, allocated for the call). Both return
// cudaErrorInvalidValue, having written nothing, for calls that are not valid (and
// the CUDA backend: a workspace too small).
cudaError_t redact_cuda(const RedactView *views, int count, SampleFormat format,
                        const RedactParams &params, void *workspace, size_t workspace_bytes,
                        cudaStream_t stream);
cudaError_t redact_cpu(const RedactView *views, int count, SampleFormat format,
                       const RedactParams &params, int threads = 0);

inline cudaError_t redact(const Executor &exec, const RedactView *views, int count,
                          SampleFormat format, const RedactParams &params, void *workspace,
                          size_t workspace_bytes) {
  (void)workspace;  // used on the device only
  (void)workspace_bytes;
  if (exec.on_device)
#ifdef CF_HAVE_CUDA
    return redact_cuda(views, count, format, params, workspace, workspace_bytes, exec.stream);
#else
    return cudaErrorNoDevice;  // no device without CUDA
#endif
  return redact_cpu(views, count, format, params, exec.cpu_threads);
}

}  // namespace cf
