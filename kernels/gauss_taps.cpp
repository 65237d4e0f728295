// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The Gaussian's integer taps, computed on the host once so that every backend
// filters with the very same numbers.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gauss.h"

namespace cf {

// sigma > 0; beyond kGaussMaxSigma the size stays at kGaussMaxKernelSize.
int gauss_auto_kernel_size(double sigma) {
  constexpr double kMaxRadius = (kGaussMaxKernelSize - 1) / 2;
  return 2 * static_cast<int>(std::min(std::ceil(3 * sigma), kMaxRadius)) + 1;
}

// Preconditions: sigma > 0, size odd and >= 1, bits 1..30 (2^bits fits int32_t).
// Where one fails the result is empty, which every kernel rejects as invalid taps.
std::vector<int32_t> gauss_taps(double sigma, int size, int bits) {
  if (!(sigma > 0) || size < 1 || size % 2 == 0 || bits < 1 || bits > 30)
    return {};
  const int radius = size / 2;
  // weights[i]: the Gaussian at distance i from the centre, one side only, so that the
  // taps come out symmetric whatever the rounding.
  std::vector<double> weights(radius + 1);
  double total = 0;
  for (int i = 0; i <= radius; ++i) {
    // The centre apart: 0 / (2 sigma^2) is NaN where sigma^2 underflows to 0.
    weights[i] = i == 0 ? 1.0 : std::exp(-(i * i) / (2 * sigma * sigma));
    total += i == 0 ? weights[i] : 2 * weights[i];
  }
  const int64_t one = int64_t{1} << bits;
  std::vector<int32_t> taps(size);
  int64_t outer_sum = 0;
  for (int i = 1; i <= radius; ++i) {
    // std::round rounds halves away from zero.
    const auto tap = static_cast<int32_t>(std::round(weights[i] / total * one));
    taps[radius - i] = taps[radius + i] = tap;
    outer_sum += 2 * tap;
  }
  taps[radius] = static_cast<int32_t>(one - outer_sum);
  return taps;
}

GaussParams make_gauss_params(double sigma_x, double sigma_y, int kernel_size_x,
                              int kernel_size_y, SampleFormat format, Border border) {
  if (sigma_y <= 0)
    sigma_y = sigma_x;
  if (kernel_size_x == 0)
    kernel_size_x = gauss_auto_kernel_size(sigma_x);
  if (kernel_size_y == 0)
    kernel_size_y = gauss_auto_kernel_size(sigma_y);
  const int bits = gauss_tap_bits(format);
  GaussParams params;
  params.taps_x = gauss_taps(sigma_x, kernel_size_x, bits);
  params.taps_y = gauss_taps(sigma_y, kernel_size_y, bits);
  params.border = border;
  return params;
}

namespace {

bool are_valid_taps(const std::vector<int32_t> &taps, int bits) {
  if (taps.size() % 2 == 0 || taps.size() > static_cast<size_t>(kGaussMaxKernelSize))
    return false;
  int64_t sum = 0;
  for (const int32_t tap : taps) {
    if (tap < 0)
      return false;
    sum += tap;
  }
  return sum == int64_t{1} << bits;
}

}  // namespace

bool is_valid(const GaussParams &params, SampleFormat format) {
  if (!is_valid(format))
    return false;
  const int bits = gauss_tap_bits(format);
  return are_valid_taps(params.taps_x, bits) && are_valid_taps(params.taps_y, bits) &&
         (params.mode == GaussMode::Blur || params.mode == GaussMode::Unsharp) &&
         params.amount_q8 >= 0 && params.amount_q8 <= kGaussMaxAmountQ8 &&
         params.threshold <= max_sample_value(format);
}

bool is_valid(const GaussParams &params, const Plane &src, const Plane &dst,
              SampleFormat format) {
  return is_valid(params, format) && is_valid_plane_pair(src, dst, format) &&
         is_valid(params.region, src);
}

}  // namespace cf
