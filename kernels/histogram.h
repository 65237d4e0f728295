// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Histograms of each computed channel of a plane (plane.h: one component, or several
// interleaved in a packed plane, counted in one pass): the C++ API of the kernels, free
// of GStreamer.
//
// Counts are exact. A sample of value v (plane.h: sample >> padding_bits, so 0..1023
// for P010) of the region of interest with lower <= v <= upper goes to bin
// (v - lower) * bins / (upper - lower + 1); samples outside [lower, upper] go to no bin
// and are counted in `below` or `above`. min, max and sum are of the values of every
// sample of the region, in range or not.
#pragma once

#include "status.h"

#include <cstdint>

#include "executor.h"
#include "plane.h"
#include "regions.h"

namespace cf {

constexpr int kHistogramMaxBins8 = 4096;
constexpr int kHistogramMaxBins16 = 65536;

struct HistogramParams {
  int bins = 256;
  uint32_t lower = 0;      // inclusive; <= upper <= max_sample_value(format), values
  uint32_t upper = 255;    // inclusive
  // The region counted, within the plane; a width or height of 0 means "to the edge".
  int roi_x = 0;
  int roi_y = 0;
  int roi_width = 0;
  int roi_height = 0;
};

// Everything but the bins, for one frame's component.
struct HistogramSummary {
  uint64_t sum = 0;       // of the values of every sample in the region
  uint32_t samples = 0;   // in the region
  uint32_t below = 0;     // samples of values < lower
  uint32_t above = 0;     // samples of values > upper
  uint32_t min = 0;       // value, of the region (0 for an empty region)
  uint32_t max = 0;       // value
};

// The region params select on src, its 0 sizes resolved.
struct HistogramRegion {
  int x;
  int y;
  int width;
  int height;
};
HistogramRegion resolve_region(const HistogramParams &params, const Plane &src);

// Whether params can be counted on src: a valid plane and format (is_valid_plane); bins
// 1..kHistogramMaxBins8 (8-bit storage) or ..kHistogramMaxBins16 (16-bit, with padding
// bits too), more than upper - lower + 1 too (then some bins stay empty);
// lower <= upper <= max_sample_value(format); a region of non-negative offsets and sizes
// that lies within the plane (after resolving 0 sizes) and holds fewer than 2^32
// samples, so that every count fits its uint32.
bool is_valid(const HistogramParams &params, const Plane &src, SampleFormat format);

// Where the results of one counted channel go: bins[params.bins] and *summary.
struct HistogramOutput {
  uint32_t *bins;
  HistogramSummary *summary;
};

// Whether outputs (not null) has bins and a summary (not null) for every counted
// channel of src.
bool are_valid_outputs(const Plane &src, const HistogramOutput *outputs);

// Device workspace histogram_cuda needs for `bins` bins on the current device. A
// workspace for more bins serves fewer too. Built without CUDA: none.
#ifdef CF_HAVE_CUDA
size_t histogram_cuda_workspace_bytes(int bins);
#else
inline size_t histogram_cuda_workspace_bytes(int) { return 0; }
#endif

// Counts every channel of src.channel_mask (device memory) into outputs[k] (device
// memory), k-th counted channel in ascending order, queued on `stream`: one kernel for
// every channel of 8-bit pixels of 1, 2 or 4 side-by-side channels at addresses that
// are multiples of their size, else one per channel; nothing needs clearing beforehand. workspace: device memory of
// histogram_cuda_workspace_bytes(bins) bytes, zeroed once after allocation
// (cudaMemset) and then left to the kernel, which leaves it zeroed again after every
// frame; reused from frame to frame but not shared by launches that may run at the
// same time. src's samples must be aligned to their size (are_samples_aligned).
// Returns the launch error; cudaErrorInvalidValue, with nothing queued, for invalid
// params (is_valid), unaligned samples or null pointers.
cudaError_t histogram_cuda(const Plane &src, SampleFormat format, const HistogramParams &params,
                           const HistogramOutput *outputs, void *workspace, cudaStream_t stream);

// The same on the host (outputs in host memory, no workspace), with `threads` threads
// (0: one per core), for samples at any alignment, every channel in one pass over src.
// cudaSuccess once done; cudaErrorInvalidValue, leaving the outputs as they were, for
// invalid params (is_valid) or null pointers.
cudaError_t histogram_cpu(const Plane &src, SampleFormat format, const HistogramParams &params,
                          const HistogramOutput *outputs, int threads = 0);

// outputs and src in device memory with exec.on_device (and the workspace of
// histogram_cuda), host memory otherwise (workspace unused).
inline cudaError_t histogram(const Executor &exec, const Plane &src, SampleFormat format,
                             const HistogramParams &params, const HistogramOutput *outputs,
                             void *workspace) {
  if (exec.on_device)
#ifdef CF_HAVE_CUDA
    return histogram_cuda(src, format, params, outputs, workspace, exec.stream);
#else
    return (void)workspace, cudaErrorNoDevice;  // no device without CUDA
#endif
  return histogram_cpu(src, format, params, outputs, exec.cpu_threads);
}

// ---------------------------------------------------------------------------------
// Histograms of boxes: one histogram per box and counted channel, of one plane in one
// call (the plugin counts each detected object's box, besides the frame's region).
//
// Each box (regions.h: x, y, width, height in src's pixels) is counted as the region of
// a histogram call would be: the same bins, lower and upper, the same below, above,
// min, max, sum and samples. params.roi_* are not used (a box is the region). Boxes may
// overlap: a sample in several boxes counts in each.
//
// Outputs: outputs[b * counted + k] for box b and the k-th counted channel of
// src.channel_mask (ascending), counted = the channels in the mask.

// Whether the boxes can be counted on src: count >= 0, boxes not null where count > 0,
// each box non-empty, within the plane and of fewer than 2^32 samples.
bool are_valid_boxes(const Box *boxes, int count, const Plane &src);

// Whether outputs (not null where count > 0) has bins and a summary (not null) for every
// counted channel of src of each of `count` boxes.
bool are_valid_box_outputs(const Plane &src, int count, const HistogramOutput *outputs);

// Boxes histogram_boxes_cuda counts in one kernel launch at most, for src, format and
// bins; more are counted in launches of this many, one after the other on the stream.
// One launch counts every channel of 8-bit pixels of 1, 2 or 4 side-by-side channels at
// addresses that are multiples of their size (as histogram_cuda): 109 boxes of 1
// channel (GRAY8, NV12's Y), 76 of 2 (NV12's UV), 47 of 4 (RGBA), the most that a
// kernel's 4 KiB of parameters hold (the limit every driver takes); other planes are
// counted channel by channel, a launch per channel and 109 boxes, fewer for 16-bit
// samples of many bins, whose counts per box fill the workspace (31 boxes for 65536
// bins). 0 for planes, formats or bins histogram_boxes_cuda refuses.
int histogram_boxes_cuda_batch(const Plane &src, SampleFormat format, int bins);

// Device workspace histogram_boxes_cuda needs for `boxes` boxes of `bins` bins, any
// plane (a histogram_cuda workspace does not serve). Not more than 8 MiB and a box's
// counts. Built without CUDA: none.
#ifdef CF_HAVE_CUDA
size_t histogram_boxes_cuda_workspace_bytes(int bins, int boxes);
#else
inline size_t histogram_boxes_cuda_workspace_bytes(int, int) { return 0; }
#endif

// Counts the boxes of src (device memory) into outputs (device memory, or host memory
// mapped into the device; each output word written once, at the end of its box),
// queued on `stream`: one kernel launch for up to histogram_boxes_cuda_batch boxes.
// Nothing needs clearing beforehand. workspace: device memory of at least
// histogram_boxes_cuda_workspace_bytes(params.bins, count) bytes, zeroed once after
// allocation (cudaMemset) and left zeroed again by every call, as histogram_cuda's;
// not shared by calls that may run at the same time. boxes and outputs: host memory,
// read during the call. src's samples must be aligned to their size
// (are_samples_aligned). count 0: nothing queued.
// Returns the first launch error; cudaErrorInvalidValue, with nothing queued, for
// invalid params (is_valid, roi_* aside), boxes (are_valid_boxes), unaligned samples or
// null pointers.
cudaError_t histogram_boxes_cuda(const Plane &src, SampleFormat format,
                                 const HistogramParams &params, const Box *boxes, int count,
                                 const HistogramOutput *outputs, void *workspace,
                                 cudaStream_t stream);

// The same on the host (outputs in host memory, no workspace), with `threads` threads
// (0: one per core), for samples at any alignment. cudaSuccess once done;
// cudaErrorInvalidValue, leaving the outputs as they were, for invalid params, boxes or
// null pointers.
cudaError_t histogram_boxes_cpu(const Plane &src, SampleFormat format,
                                const HistogramParams &params, const Box *boxes, int count,
                                const HistogramOutput *outputs, int threads = 0);

// outputs and src in device memory with exec.on_device (and the workspace of
// histogram_boxes_cuda), host memory otherwise (workspace unused).
inline cudaError_t histogram_boxes(const Executor &exec, const Plane &src, SampleFormat format,
                                   const HistogramParams &params, const Box *boxes, int count,
                                   const HistogramOutput *outputs, void *workspace) {
  if (exec.on_device)
#ifdef CF_HAVE_CUDA
    return histogram_boxes_cuda(src, format, params, boxes, count, outputs, workspace,
                                exec.stream);
#else
    return (void)workspace, cudaErrorNoDevice;  // no device without CUDA
#endif
  return histogram_boxes_cpu(src, format, params, boxes, count, outputs, exec.cpu_threads);
}

// Empty results, as a region of no samples has them: the bins and the summary of each
// of outputs[0..count) zeroed. In device memory queued on `stream`, or in host memory
// at once; with exec, as it runs.
#ifdef CF_HAVE_CUDA
cudaError_t histogram_clear_cuda(int bins, const HistogramOutput *outputs, size_t count,
                                 cudaStream_t stream);
#endif
void histogram_clear_cpu(int bins, const HistogramOutput *outputs, size_t count);
inline cudaError_t histogram_clear(const Executor &exec, int bins,
                                   const HistogramOutput *outputs, size_t count) {
  if (exec.on_device)
#ifdef CF_HAVE_CUDA
    return histogram_clear_cuda(bins, outputs, count, exec.stream);
#else
    return cudaErrorNoDevice;  // no device without CUDA
#endif
  histogram_clear_cpu(bins, outputs, count);
  return cudaSuccess;
}

// Planes of one counted channel: its bins and summary.
inline cudaError_t histogram_cuda(const Plane &src, SampleFormat format,
                                  const HistogramParams &params, uint32_t *bins,
                                  HistogramSummary *summary, void *workspace,
                                  cudaStream_t stream) {
  const HistogramOutput output{bins, summary};
  return histogram_cuda(src, format, params, &output, workspace, stream);
}
inline cudaError_t histogram_cpu(const Plane &src, SampleFormat format,
                                 const HistogramParams &params, uint32_t *bins,
                                 HistogramSummary *summary, int threads = 0) {
  const HistogramOutput output{bins, summary};
  return histogram_cpu(src, format, params, &output, threads);
}

}  // namespace cf
