// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The median test matrix, shared by the test binary of every backend.
#pragma once

#include <functional>

#include "median.h"

namespace cftest {

// Filters src into dst, both in host memory, with cf::median_cpu's contract (failing
// the running test where the backend refuses the call); a device backend copies to the
// device and back inside.
using MedianFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst,
                                        cf::SampleFormat format, const cf::MedianParams &params)>;

// The functions below run `filter` on many cases, compare it with reference_median (or
// with itself, below), check that src and every dst byte outside the samples stay
// untouched, print each failing case and fail the running gst-check test if any case
// failed.

// Sizes 1x1, 2x3, 3x2, 17x9, 64x33 x windows 3, 5, 7, 9, 15, 31 x every border
// (constants inside and, for 8-bit and P010, beyond the range) x 8-bit, 16-bit and
// P010 samples x every image generator (for P010 also one with random padding bits;
// three images per combination in turn), over packed and interleaved strides, padded
// rows and src/dst layouts that differ. CF_TEST_CASES=quick: one image per combination
// (filter_cases.h).
void check_median_matrix(const MedianFilter &filter);

// A few large frames, 1921x1081 for the small windows and 259x131 for the large ones,
// where thread ranges and tiles end in many places, and 517x67, 301x1 and 1x37 for the
// 9x9 network; 8-bit, 16-bit and P010.
void check_median_large_frames(const MedianFilter &filter);

// P010 samples with random padding bits filter to the 16-bit filter of their values,
// stored with zero padding bits (check_padding_against_values), for every window on
// small and large frames and the kernels' paths.
void check_median_padding_bits(const MedianFilter &filter);

}  // namespace cftest
