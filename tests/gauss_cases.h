// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The Gaussian test matrix, shared by the test binary of every backend.
#pragma once

#include <functional>

#include "gauss.h"

namespace cftest {

// Filters src into dst, both in host memory, with cf::gauss_cpu's contract (failing
// the running test where the backend refuses the call); a device backend copies to the
// device and back inside.
using GaussFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst,
                                       cf::SampleFormat format, const cf::GaussParams &params)>;

// The functions below run `filter` on many cases, compare it with reference_gauss (or
// with itself, below), check that src and every dst byte outside the samples stay
// untouched, print each failing case and fail the running gst-check test if any case
// failed.

// Sizes 1x1, 2x3, 3x2, 17x9, 64x33 x kernels (sigma 0.5 to 10 with automatic sizes,
// sigma_y != sigma_x, explicit sizes 3, 15, 61 and 121) x every border x 8-bit,
// 16-bit and P010 samples, each combination on three of the image generators in turn
// (for P010 also one with random padding bits), in turn blurred or unsharp-masked
// (amount 1.5, thresholds 0 and 10; for P010 also amount 10, which overshoots to the
// clamps), over packed and interleaved strides, padded rows and src/dst layouts that
// differ. CF_TEST_CASES=quick: one image per combination (filter_cases.h).
void check_gauss_matrix(const GaussFilter &filter);

// A few large frames, 1921x1081 for sigma 0.5 and 1 and 259x131 for larger ones, where
// thread ranges and tiles end in many places; 8-bit, 16-bit and P010.
void check_gauss_large_frames(const GaussFilter &filter);

// P010 samples with random padding bits filter to the 16-bit filter of their values,
// clamped to 1023, stored with zero padding bits (check_padding_against_values): blur
// and unsharp masking (overshooting to both clamps) with several kernels and borders.
void check_gauss_padding_bits(const GaussFilter &filter);

// Unsharp masking of P010 checkerboards and salt and pepper with amount 10 against the
// reference, and that the results do reach 0 and 1023 << 6 (the clamps) and nothing
// above.
void check_gauss_unsharp_clamps(const GaussFilter &filter);

}  // namespace cftest
