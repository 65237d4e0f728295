// The Gaussian test matrix, shared by the test binary of every backend.
#pragma once

#include <functional>

#include "gauss.h"

namespace cftest {

// Filters src into dst, both in host memory, with cf::gauss_cpu's contract; a device
// backend copies to the device and back inside.
using GaussFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst,
                                       cf::SampleDepth depth, const cf::GaussParams &params)>;

// Both functions below run `filter` on many cases, compare it with reference_gauss,
// check that src and every dst byte outside the samples stay untouched, print each
// failing case and fail the running gst-check test if any case failed.

// Sizes 1x1, 2x3, 3x2, 17x9, 64x33 x kernels (sigma 0.5 to 10 with automatic sizes,
// sigma_y != sigma_x, explicit sizes 3, 15, 61 and 121) x every border x both
// depths, each combination on three of the image generators in turn, in turn blurred
// or unsharp-masked (amount 1.5, thresholds 0 and 10), over packed and interleaved
// strides, padded rows and src/dst layouts that differ. CF_TEST_CASES=quick: one image
// per combination (filter_cases.h).
void check_gauss_matrix(const GaussFilter &filter);

// A few large frames, 1921x1081 for sigma 0.5 and 1 and 259x131 for larger ones, where
// thread ranges and tiles end in many places.
void check_gauss_large_frames(const GaussFilter &filter);

}  // namespace cftest
