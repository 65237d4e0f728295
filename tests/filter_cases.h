// What the test matrices of every filter share: sample layouts, borders, and the
// checks of one filter call against its reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plane.h"
#include "test_image.h"

namespace cftest {

// Pixel strides and row paddings in samples (scaled by the bytes per sample, so 16-bit
// samples stay 2-byte aligned as in every real format).
struct Layout {
  int src_stride;
  int src_padding;
  int dst_stride;
  int dst_padding;
};

// Packed first; then one channel of 2-, 3- and 4-channel pixels, padded rows, and src
// and dst laid out differently.
const std::vector<Layout> &test_layouts();

// The borders every backend is tested with: a constant inside the range and, for
// 8-bit, one beyond it that must clamp to 255.
std::vector<cf::Border> test_borders(cf::SampleDepth depth);
// "replicate", "reflect-101", "constant 77"
std::string describe(const cf::Border &border);

// The generator of image_generators() called `name`; fails the running test if none is.
const ImageGenerator *generator_named(const char *name);

// The images of one case: src filled by `image` from `seed`, src and dst laid out
// as `layout` says.
struct ImageCase {
  int width;
  int height;
  cf::SampleDepth depth;
  const ImageGenerator *image;
  Layout layout;
  uint32_t seed;
};

// Filters src into dst, both in host memory, same size and depth.
using PlaneFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst)>;

// Runs `filter` on the case's images and compares with `reference`: src untouched, no
// dst byte written but the samples, every sample equal. What went wrong, or nothing.
std::optional<std::string> check_image_case(const ImageCase &test, const PlaneFilter &filter,
                                            const PlaneFilter &reference);

// How many images each combination of a matrix's other parameters meets, of `full`:
// all `full`, or, with CF_TEST_CASES=quick in the environment, one, the images taken
// in turn (for slow runs such as compute-sanitizer's: every size, depth, parameter,
// border and layout is still tested). Other values than quick and full fail the test.
size_t images_per_combination(size_t full);
// Whether CF_TEST_CASES=quick asks for the reduced set (failing the test on values
// other than quick and full).
bool quick_cases();

// Calls check(i) for every i below `count`, prints the first failures (named with
// `filter_name`) and fails the running gst-check test if any case failed.
void run_cases(const char *filter_name, size_t count,
               const std::function<std::optional<std::string>(size_t index)> &check);

}  // namespace cftest
