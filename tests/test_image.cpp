// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "test_image.h"

#include <random>

#include "plane_access.h"

namespace cftest {
namespace {

uint8_t filler_byte(size_t storage_offset) {
  return static_cast<uint8_t>(storage_offset * 131 + 0x5a);
}

// position * max / (length - 1), exact in 64 bits; a single sample gets 0.
uint32_t ramp_value(int position, int length, uint32_t max_value) {
  return length > 1 ? static_cast<uint32_t>(uint64_t{max_value} * position / (length - 1)) : 0;
}

}  // namespace

TestImage::TestImage(int width, int height, cf::SampleFormat format, int pixel_stride,
                     int row_padding, int misalignment)
    : format_(format) {
  plane_.width = width;
  plane_.height = height;
  plane_.pixel_stride = pixel_stride > 0 ? pixel_stride : cf::bytes_per_sample(format);
  plane_.row_pitch = static_cast<ptrdiff_t>(width) * plane_.pixel_stride + row_padding;
  // The guard before the plane ends where the plane starts, misaligned as asked from
  // an address aligned for any vector.
  constexpr size_t kVectorAlignment = 64;
  storage_.resize(2 * kGuardBytes + kVectorAlignment + misalignment + plane_.row_pitch * height);
  for (size_t i = 0; i < storage_.size(); ++i)
    storage_[i] = filler_byte(i);
  const auto start = reinterpret_cast<uintptr_t>(storage_.data()) + kGuardBytes;
  const auto to_alignment = (kVectorAlignment - start % kVectorAlignment) % kVectorAlignment;
  data_offset_ = kGuardBytes + static_cast<ptrdiff_t>(to_alignment) + misalignment;
  plane_.data = storage_.data() + data_offset_;
  fill_constant(*this, 0);
}

uint32_t TestImage::at(int x, int y) const { return cf::sample_value(format_, stored(x, y)); }

void TestImage::set(int x, int y, uint32_t value) {
  set_stored(x, y, cf::stored_sample(format_, value));
}

uint32_t TestImage::stored(int x, int y) const { return read_sample(plane_, format_.depth, x, y); }

void TestImage::set_stored(int x, int y, uint32_t sample) {
  write_sample(plane_, format_.depth, x, y, sample);
}

bool TestImage::is_sample_byte(ptrdiff_t offset) const {
  if (offset < 0 || offset >= plane_.row_pitch * plane_.height)
    return false;
  const ptrdiff_t in_row = offset % plane_.row_pitch;
  return in_row < static_cast<ptrdiff_t>(plane_.width) * plane_.pixel_stride &&
         in_row % plane_.pixel_stride < cf::bytes_per_sample(format_);
}

std::optional<ptrdiff_t> TestImage::first_changed_filler() const {
  for (size_t i = 0; i < storage_.size(); ++i) {
    const ptrdiff_t offset = static_cast<ptrdiff_t>(i) - data_offset_;
    if (!is_sample_byte(offset) && storage_[i] != filler_byte(i))
      return offset;
  }
  return std::nullopt;
}

std::string TestImage::describe() const {
  const auto misalignment = reinterpret_cast<uintptr_t>(plane_.data) % 64;
  const std::string padding =
      format_.padding_bits != 0 ? ">>" + std::to_string(format_.padding_bits) : "";
  return std::to_string(width()) + "x" + std::to_string(height()) +
         (format_.depth == cf::SampleDepth::U8 ? " U8" : " U16") + padding + " stride " +
         std::to_string(plane_.pixel_stride) + " pitch " + std::to_string(plane_.row_pitch) +
         (misalignment != 0 ? " misaligned by " + std::to_string(misalignment) : "");
}

std::optional<Mismatch> first_mismatch(const TestImage &got, const TestImage &expected) {
  for (int y = 0; y < expected.height(); ++y)
    for (int x = 0; x < expected.width(); ++x)
      if (got.stored(x, y) != expected.stored(x, y))
        return Mismatch{x, y, got.stored(x, y), expected.stored(x, y)};
  return std::nullopt;
}

std::string describe(const Mismatch &mismatch) {
  return "at (" + std::to_string(mismatch.x) + ", " + std::to_string(mismatch.y) +
         "): got " + std::to_string(mismatch.got) + ", expected " +
         std::to_string(mismatch.expected);
}

void fill_random(TestImage &image, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<uint32_t> value(0, image.max_value());
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      image.set(x, y, value(generator));
}

void fill_constant(TestImage &image, uint32_t value) {
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      image.set(x, y, value);
}

void fill_checkerboard(TestImage &image) {
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      image.set(x, y, (x + y) % 2 == 0 ? 0 : image.max_value());
}

void fill_horizontal_ramp(TestImage &image) {
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      image.set(x, y, ramp_value(x, image.width(), image.max_value()));
}

void fill_vertical_ramp(TestImage &image) {
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      image.set(x, y, ramp_value(y, image.height(), image.max_value()));
}

void add_salt_and_pepper(TestImage &image, uint32_t seed, int percent) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> hundred(0, 99);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (hundred(generator) < percent)
        image.set(x, y, hundred(generator) % 2 == 0 ? 0 : image.max_value());
}

void fill_two_value(TestImage &image, uint32_t seed, uint32_t low, uint32_t high) {
  std::mt19937 generator(seed);
  std::bernoulli_distribution pick_high(0.5);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      image.set(x, y, pick_high(generator) ? high : low);
}

void fill_random_samples(TestImage &image, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<uint32_t> sample(
      0, cf::max_sample_value(cf::SampleFormat(image.depth())));
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      image.set_stored(x, y, sample(generator));
}

const std::vector<ImageGenerator> &image_generators() {
  // Salt and pepper at 30 %: enough outliers that windows hold many of them.
  constexpr int kNoisePercent = 30;
  static const std::vector<ImageGenerator> generators = {
      {"random", fill_random},
      {"constant-max", [](TestImage &image, uint32_t) { fill_constant(image, image.max_value()); }},
      {"checkerboard", [](TestImage &image, uint32_t) { fill_checkerboard(image); }},
      {"horizontal-ramp", [](TestImage &image, uint32_t) { fill_horizontal_ramp(image); }},
      {"vertical-ramp", [](TestImage &image, uint32_t) { fill_vertical_ramp(image); }},
      {"salt-and-pepper-on-ramp",
       [](TestImage &image, uint32_t seed) {
         fill_horizontal_ramp(image);
         add_salt_and_pepper(image, seed, kNoisePercent);
       }},
      {"salt-and-pepper-on-random",
       [](TestImage &image, uint32_t seed) {
         fill_random(image, seed);
         add_salt_and_pepper(image, seed + 1, kNoisePercent);
       }},
      // Neighbours across the middle of the range: they differ in the top bit, so they
      // fall in different bins of any power-of-two binning.
      {"two-value",
       [](TestImage &image, uint32_t seed) {
         const uint32_t middle = (image.max_value() + 1) / 2;
         fill_two_value(image, seed, middle - 1, middle);
       }},
  };
  return generators;
}

const std::vector<ImageGenerator> &padding_image_generators() {
  static const std::vector<ImageGenerator> generators = [] {
    std::vector<ImageGenerator> all = image_generators();
    all.push_back({"random-padding-bits", fill_random_samples});
    return all;
  }();
  return generators;
}

}  // namespace cftest
