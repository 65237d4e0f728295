// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Test images in host memory with a cf::Plane view: any pixel stride and row padding,
// every byte that is not a sample filled with a known pattern, so that tests see a
// backend writing anywhere but its samples. Samples of a format with padding bits
// (P010) are set and read as values (plane.h), or whole (stored, set_stored).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "plane.h"

namespace cftest {

class TestImage {
public:
  // pixel_stride: bytes from one sample to the next, 0 for packed samples (e.g. 3 or 4
  // for one channel of RGB or RGBA); row_padding: bytes after each row's last sample;
  // misalignment: bytes the first sample lies past an address aligned for any vector
  // (1 puts 16-bit samples at odd addresses).
  TestImage(int width, int height, cf::SampleFormat format, int pixel_stride = 0,
            int row_padding = 0, int misalignment = 0);
  // The plane points into storage_: moving keeps the buffer, copying would not.
  TestImage(const TestImage &) = delete;
  TestImage &operator=(const TestImage &) = delete;
  TestImage(TestImage &&) = default;
  TestImage &operator=(TestImage &&) = default;

  const cf::Plane &plane() const { return plane_; }
  cf::SampleFormat format() const { return format_; }
  cf::SampleDepth depth() const { return format_.depth; }
  int width() const { return plane_.width; }
  int height() const { return plane_.height; }
  // Of values: 255, 65535, 1023 for P010.
  uint32_t max_value() const { return cf::max_sample_value(format_); }

  // The value of a sample, and setting one (value <= max_value(): padding bits zero).
  uint32_t at(int x, int y) const;
  void set(int x, int y, uint32_t value);
  // The whole sample, padding bits included.
  uint32_t stored(int x, int y) const;
  void set_stored(int x, int y, uint32_t sample);

  // Every byte, samples and filler alike, to check that a buffer was left untouched.
  const std::vector<uint8_t> &bytes() const { return storage_; }
  // Offset from plane().data (negative: in the guard before it) of the first filler
  // byte that no longer holds its pattern.
  std::optional<ptrdiff_t> first_changed_filler() const;
  // "17x9 U16 stride 4 pitch 70", "17x9 U16>>6 stride 2 pitch 34" (6 padding bits),
  // "... misaligned by 1"
  std::string describe() const;

private:
  bool is_sample_byte(ptrdiff_t offset) const;

  // Filler bytes before the first and after the last row catch writes outside the plane.
  static constexpr ptrdiff_t kGuardBytes = 64;
  std::vector<uint8_t> storage_;
  ptrdiff_t data_offset_ = kGuardBytes;  // of plane_.data in storage_
  cf::Plane plane_;
  cf::SampleFormat format_;
};

// Whole samples (TestImage::stored), padding bits included.
struct Mismatch {
  int x;
  int y;
  uint32_t got;
  uint32_t expected;
};

// First sample (in row-major order) where the two images' whole samples differ (so
// padding bits count too); same size expected.
std::optional<Mismatch> first_mismatch(const TestImage &got, const TestImage &expected);
// "at (3, 7): got 12, expected 13"
std::string describe(const Mismatch &mismatch);

// Generators: seeded, so every failure reproduces.
void fill_random(TestImage &image, uint32_t seed);
void fill_constant(TestImage &image, uint32_t value);
void fill_checkerboard(TestImage &image);  // 0 and max in alternating pixels
void fill_horizontal_ramp(TestImage &image);  // 0 at the left to max at the right
void fill_vertical_ramp(TestImage &image);    // 0 at the top to max at the bottom
// Replaces `percent` % of the samples by 0 or max.
void add_salt_and_pepper(TestImage &image, uint32_t seed, int percent);
// Each sample randomly `low` or `high`.
void fill_two_value(TestImage &image, uint32_t seed, uint32_t low, uint32_t high);
// Every bit of every sample random, padding bits too (which every backend must ignore).
void fill_random_samples(TestImage &image, uint32_t seed);

struct ImageGenerator {
  const char *name;
  void (*fill)(TestImage &image, uint32_t seed);
};

// Random images and the adversarial ones, each with a name for failure messages.
const std::vector<ImageGenerator> &image_generators();
// image_generators() and "random-padding-bits" (fill_random_samples), for formats with
// padding bits.
const std::vector<ImageGenerator> &padding_image_generators();

}  // namespace cftest
