// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The histogram test matrix, shared by the test binary of every backend.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "histogram.h"
#include "reference_histogram.h"
#include "regions.h"

namespace cftest {

// Counts src (host memory) with cf::histogram_cpu's contract into result (failing the
// running test where the backend refuses the call): bins into result.bins, whose
// entries after the first params.bins are guards no backend may write, and
// result.summary. A device backend copies in and out inside.
using HistogramCounter =
    std::function<void(const cf::Plane &src, cf::SampleFormat format,
                       const cf::HistogramParams &params, HistogramResult &result)>;

// The functions below run `count` on many cases, compare bins and summary with
// reference_histogram (or with itself, below), check that src and the guards after the
// bins stay untouched, print each failing case and fail the running gst-check test if
// any case failed.

// Sizes 1x1, 2x3, 17x9, 64x33 x 8-bit, 16-bit and P010 samples x bins 1, 2, 7, 256
// (16-bit also 4096, 20000, 65536; P010 also 1023, 1024, 4096, 65536) x ranges (full;
// narrow, with samples below and above; lower == upper; one end of the range) x
// regions (whole, interior, 1x1, to the edges, touching the left and bottom edges) x
// images (random, constant 0, middle and max, ramps, two-value; P010 also random
// padding bits), over packed and interleaved strides and padded rows.
// CF_TEST_CASES=quick: one image per combination (filter_cases.h).
void check_histogram_matrix(const HistogramCounter &count);

// A few 1921x1081 frames and two 3841x2161 ones, where rows, thread ranges and the
// work of a GPU's threads end in many places; P010 ones too.
void check_histogram_large_frames(const HistogramCounter &count);

// P010 samples with random padding bits count as the plain 16-bit samples of their
// values would, over several bin counts, ranges and regions.
void check_histogram_padding_bits(const HistogramCounter &count);

// What differs between a result and the expected one (expected.bins.size() bins
// compared; got.bins' further entries must still be kGuardBin), or nothing.
constexpr uint32_t kGuardBin = 0x5a5a5a5a;
std::optional<std::string> first_difference(const HistogramResult &got,
                                            const HistogramResult &expected);

// A result whose bins (params.bins, then `guards` guard entries) and summary hold
// patterns that no histogram has, to see what a backend wrote.
HistogramResult unwritten_result(int bins, int guards);

// "bins 7 over [100, 149], region (1, 1) 15x7"
std::string describe(const cf::HistogramParams &params);

// 256 bins over the format's full range of values, the whole plane.
cf::HistogramParams full_range_params(cf::SampleFormat format);

// The calls every backend must refuse, each a change to a valid call
// (full_range_params of `valid_format`) on a 17x9 plane of `valid_format`, made with
// `format`.
struct InvalidHistogramCall {
  const char *what;
  cf::SampleFormat valid_format;
  std::function<void(cf::Plane &src, cf::HistogramParams &params)> change;
  cf::SampleFormat format = valid_format;
};
const std::vector<InvalidHistogramCall> &invalid_histogram_calls();

// Boxes: counts src's boxes (host memory) with cf::histogram_boxes_cpu's contract into
// results[b * counted + k] (box b, k-th counted channel), each holding params.bins bins
// then guards, failing the running test where the backend refuses the call. A device
// backend copies in and out inside.
using BoxHistogramCounter = std::function<void(
    const cf::Plane &src, cf::SampleFormat format, const cf::HistogramParams &params,
    const std::vector<cf::Box> &boxes, std::vector<HistogramResult> &results)>;

// Each box's results against reference_histogram of that box as the region, channel by
// channel: 8-bit, 16-bit and P010 samples; planes of one channel (packed, padded rows,
// misaligned, strided) and packed planes of 2, 3 and 4 channels with several masks;
// sizes 1x1 to 300x20; box sets of one box, the whole plane, 1x1 boxes in the corners,
// overlapping boxes (one twice), boxes that tile the plane and touch its edges,
// one-row and one-column boxes, and 300 random ones (beyond a launch's boxes); bins 1,
// 7, 256 and 4096 (8-bit), up to 65536 (16-bit); params' roi fields set, to be ignored.
void check_box_histogram_matrix(const BoxHistogramCounter &count);

// 1921x1081 frames: an 8x8 grid of boxes, boxes over half the frame, 300 random ones;
// GRAY8, NV12's UV (2 channels), RGBA, 16-bit and P010 samples (65536 bins over 300
// boxes: many launches of few boxes on the GPU).
void check_box_histogram_large_frames(const BoxHistogramCounter &count);

// Invalid boxes on a 17x9 plane, each set refused whole (cudaErrorInvalidValue, nothing
// written), valid boxes before and after the invalid one.
struct InvalidBoxes {
  const char *what;
  std::vector<cf::Box> boxes;
};
const std::vector<InvalidBoxes> &invalid_box_sets();

// Whether an invalid call's change touches only params' roi fields, which box
// histograms do not use (so such calls are valid for them).
bool changes_only_roi(const InvalidHistogramCall &call);

// "(3, 4) 5x6"
std::string describe(const cf::Box &box);

}  // namespace cftest
