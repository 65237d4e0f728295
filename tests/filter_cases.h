// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

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

// P010_10LE's samples: 10-bit values in the top bits of 16-bit words, 6 padding bits.
constexpr cf::SampleFormat kP010{cf::SampleDepth::U16, 6};

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
// 8-bit and formats with padding bits, one beyond it that must clamp to the maximum
// value (255, 1023 for P010).
std::vector<cf::Border> test_borders(cf::SampleFormat format);
// "replicate", "reflect-101", "constant 77"
std::string describe(const cf::Border &border);

// The generator of padding_image_generators() (image_generators() and one more) called
// `name`; fails the running test if none is.
const ImageGenerator *generator_named(const char *name);

// The images of one case: src filled by `image` from `seed`, src and dst laid out
// as `layout` says.
struct ImageCase {
  int width;
  int height;
  cf::SampleFormat format;
  const ImageGenerator *image;
  Layout layout;
  uint32_t seed;
};

// Filters src into dst, both in host memory, same size and format.
using PlaneFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst)>;
// The same for samples of `format`.
using FormatFilter =
    std::function<void(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format)>;

// Runs `filter` on the case's images and compares with `reference`: src untouched, no
// dst byte written but the samples, every whole sample equal (dst's padding bits start
// set: they must come out zero). What went wrong, or nothing.
std::optional<std::string> check_image_case(const ImageCase &test, const PlaneFilter &filter,
                                            const PlaneFilter &reference);

// Whether `filter` computes on P010 samples what it computes on their values: fills a
// kP010 src with test.image, then sets its padding bits at random, copies its values to
// a plain 16-bit image, filters both, and wants each P010 result sample to be the
// 16-bit result, clamped to 1023 (where unsharp masking overshoots), stored with its
// padding bits zero. test.format is not used; layouts as check_image_case. What went
// wrong, or nothing.
std::optional<std::string> check_padding_against_values(const ImageCase &test,
                                                        const FormatFilter &filter);

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
