// The median test matrix, shared by the test binary of every backend.
#pragma once

#include <functional>

#include "median.h"

namespace cftest {

// Filters src into dst, both in host memory, with cf::median_cpu's contract; a device
// backend copies to the device and back inside.
using MedianFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst,
                                        cf::SampleDepth depth, const cf::MedianParams &params)>;

// Both functions below run `filter` on many cases, compare it with reference_median,
// check that src and every dst byte outside the samples stay untouched, print each
// failing case and fail the running gst-check test if any case failed.

// Sizes 1x1, 2x3, 3x2, 17x9, 64x33 x windows 3, 5, 7, 9, 15, 31 x every border
// (constants inside and, for 8-bit, beyond the range) x both depths x every image
// generator, over packed and interleaved strides, padded rows and src/dst layouts
// that differ. CF_TEST_CASES=quick: one image per combination (filter_cases.h).
void check_median_matrix(const MedianFilter &filter);

// A few large frames, 1921x1081 for the small windows and 259x131 for the large ones,
// where thread ranges and tiles end in many places.
void check_median_large_frames(const MedianFilter &filter);

}  // namespace cftest
