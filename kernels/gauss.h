// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Gaussian blur and unsharp masking: the C++ API of the kernels, free of GStreamer.
//
// Exact by construction: the taps are integers that sum exactly to 2^B (derived from
// the Gaussian and rounded on the host, once, so every backend uses the same ones),
// all sums are integer, and there is one rounding at the end:
//   blur(x, y) = (sum_i sum_j taps_y[i] * taps_x[j] * src(x + j - rx, y + i - ry)
//                 + 2^(2B - 1)) >> 2B,       B = gauss_tap_bits(format)
// (rounding half up). Unsharp masking then adds amount times the detail, in
// fixed point with 8 fractional bits, where the detail is at least the threshold:
//   d = src - blur;  out = |d| < threshold ? src
//                        : clamp(src + floor((amount_q8 * d + 128) / 256), 0, max)
// src, the border constant, blur, threshold, out and max = max_sample_value(format)
// are all values (plane.h): with padding bits (P010) the formulas run on the 10-bit
// values, max is 1023, and out is stored as out << padding_bits. B depends on the
// storage only (20 for any 16-bit format).
#pragma once

#include "status.h"

#include <cstdint>
#include <vector>

#include "executor.h"
#include "plane.h"
#include "regions.h"

namespace cf {

constexpr double kGaussMinSigma = 0.1;
constexpr double kGaussMaxSigma = 20.0;
constexpr int kGaussMaxKernelSize = 121;  // 2 * ceil(3 * kGaussMaxSigma) + 1

// Fractional bits of the taps: with these, every pixel stays within 1 of the exact
// Gaussian's result (and of OpenCV's GaussianBlur computed in double) and the mean
// difference under 0.05; 16 bits for 16-bit samples would not (up to 3 off). Sums
// fit 32 bits for 8-bit samples; 16-bit samples need 64-bit sums.
constexpr int gauss_tap_bits(SampleFormat format) {
  return format.depth == SampleDepth::U8 ? 12 : 20;
}

// The odd kernel size chosen for sigma when none is given: covers +-3 sigma.
int gauss_auto_kernel_size(double sigma);

// Integer taps of a 1-D Gaussian of `sigma` over `size` (odd) samples, symmetric,
// each the Gaussian weight scaled by 2^bits and rounded; the centre tap takes the
// rounding residue so that the taps sum exactly to 2^bits.
std::vector<int32_t> gauss_taps(double sigma, int size, int bits);

enum class GaussMode { Blur, Unsharp };

struct GaussParams {
  std::vector<int32_t> taps_x;  // odd count <= kGaussMaxKernelSize, sum 2^B
  std::vector<int32_t> taps_y;
  Border border;             // its constant a value, clamped to the format's range
  GaussMode mode = GaussMode::Blur;
  int32_t amount_q8 = 256;   // unsharp: amount * 256, rounded; 0..kGaussMaxAmountQ8
  uint32_t threshold = 0;    // unsharp: smallest |detail| that is sharpened, a value
  OutputRegion region;       // the pixels written (regions.h): the whole plane by default
};

// Odd tap counts up to kGaussMaxKernelSize of non-negative taps summing exactly to
// 2^gauss_tap_bits(format) (the bound every sum relies on), a known mode, amount_q8 in
// 0..kGaussMaxAmountQ8, a threshold up to max_sample_value(format), a valid format.
constexpr int32_t kGaussMaxAmountQ8 = 2560;
bool is_valid(const GaussParams &params, SampleFormat format);

// Whether both backends take the call: valid params for the format, src and dst a
// valid pair (is_valid_plane_pair), a valid region of them. The CUDA backend also
// needs are_samples_aligned and, for packed planes with channels not computed, pixels
// of nothing but their channels (can_copy_pixels_whole, packed_cuda.h).
bool is_valid(const GaussParams &params, const Plane &src, const Plane &dst,
              SampleFormat format);

// The parameters for sigma_x/sigma_y (kernel sizes 0: automatic) and format.
GaussParams make_gauss_params(double sigma_x, double sigma_y, int kernel_size_x,
                              int kernel_size_y, SampleFormat format, Border border);

// src and dst: same width, height and format, no overlap; each computed channel of a
// packed plane filtered, the others copied. CUDA: device memory, queued on `stream`,
// returns the launch error. CPU: host memory, samples at any alignment, `threads`
// threads (0: one per core), cudaSuccess once done. Both return cudaErrorInvalidValue,
// having written nothing, for calls that are not valid (is_valid above; the CUDA
// backend: what it also needs, either).
cudaError_t gauss_cuda(const Plane &src, const Plane &dst, SampleFormat format,
                       const GaussParams &params, cudaStream_t stream);
cudaError_t gauss_cpu(const Plane &src, const Plane &dst, SampleFormat format,
                      const GaussParams &params, int threads = 0);

inline cudaError_t gauss(const Executor &exec, const Plane &src, const Plane &dst,
                         SampleFormat format, const GaussParams &params) {
  if (exec.on_device)
#ifdef CF_HAVE_CUDA
    return gauss_cuda(src, dst, format, params, exec.stream);
#else
    return cudaErrorNoDevice;  // no device without CUDA
#endif
  return gauss_cpu(src, dst, format, params, exec.cpu_threads);
}

}  // namespace cf
