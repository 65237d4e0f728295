// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CUDA Gaussian kernels against the reference, on the same matrix as the CPU
// backend, P010 samples against their values and the clamps, and refusal of invalid
// calls. Skipped, by name, where no CUDA device is usable.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "filter_cases.h"
#include "gauss.h"
#include "gauss_cases.h"
#include "packed_cases.h"
#include "region_cases.h"

#include "cuda_test_support.h"

namespace {

void gauss_cuda_via_device(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                           const cf::GaussParams &params) {
  cftest::run_on_device_copies(src, dst, format.depth, "gauss_cuda",
                               [&](const cf::Plane &device_src, const cf::Plane &device_dst) {
                                 return cf::gauss_cuda(device_src, device_dst, format, params,
                                                       nullptr);
                               });
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_gauss_matrix(gauss_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_gauss_large_frames(gauss_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_padding_bits) { cftest::check_gauss_padding_bits(gauss_cuda_via_device); }
GST_END_TEST;

// Packed planes channel by channel (packed_cuda.h), the others copied.
GST_START_TEST(test_packed_planes) { cftest::check_packed_gauss(gauss_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_unsharp_clamps) {
  cftest::check_gauss_unsharp_clamps(gauss_cuda_via_device);
}
GST_END_TEST;

// Output regions: every kernel, layout and box set against the whole plane's output,
// in sizes whose boxes span several of each kernel's tiles (1100 pixels: more than a
// block of the 3x3 chunk kernel or of the group kernel).
GST_START_TEST(test_regions) {
  cftest::check_regions("gauss_cuda regions",
                        cftest::region_images({{1, 1}, {67, 45}, {300, 70}, {1100, 23}}),
                        cftest::gauss_region_filters(gauss_cuda_via_device));
}
GST_END_TEST;

GST_START_TEST(test_invalid_params) {
  // Real device memory: a call that wrongly passes the checks must not fault.
  cf::Plane plane;
  plane.width = plane.height = 4;
  plane.row_pitch = 4;
  cftest::fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&plane.data), 16), "cudaMalloc");
  const cf::SampleDepth depth = cf::SampleDepth::U8;
  const cf::GaussParams valid = cf::make_gauss_params(1, 0, 0, 0, depth, {});
  const int32_t one = 1 << cf::gauss_tap_bits(depth);

  cf::GaussParams even = valid;
  even.taps_x = {one / 2, one / 2};
  cf::GaussParams too_long = valid;
  too_long.taps_y = cf::gauss_taps(20, cf::kGaussMaxKernelSize + 2, cf::gauss_tap_bits(depth));
  cf::GaussParams wrong_sum = valid;
  wrong_sum.taps_x[0] += 1;
  cf::GaussParams negative = valid;
  negative.taps_y = {-1, one + 2, -1};
  cf::GaussParams amount = valid;
  amount.amount_q8 = 2561;
  cf::GaussParams threshold = valid;
  threshold.threshold = 256;
  cf::Executor device;
  device.on_device = true;
  for (const cf::GaussParams *params : {&even, &too_long, &wrong_sum, &negative, &amount,
                                        &threshold}) {
    fail_unless_equals_int(cf::gauss_cuda(plane, plane, depth, *params, nullptr),
                           cudaErrorInvalidValue);
    fail_unless_equals_int(cf::gauss(device, plane, plane, depth, *params),
                           cudaErrorInvalidValue);
  }

  // Formats the kernels do not know, a threshold above P010's values, 16-bit samples
  // at an odd address (the CPU backend takes those), on 16-bit planes.
  cf::Plane wide = plane;
  wide.width = 2;
  wide.pixel_stride = 2;
  const cf::GaussParams valid16 = cf::make_gauss_params(1, 0, 0, 0, cf::SampleDepth::U16, {});
  cf::GaussParams high_threshold = valid16;
  high_threshold.mode = cf::GaussMode::Unsharp;
  high_threshold.threshold = 1024;
  fail_unless_equals_int(cf::gauss_cuda(plane, plane, {cf::SampleDepth::U8, 1}, valid, nullptr),
                         cudaErrorInvalidValue);
  fail_unless_equals_int(cf::gauss_cuda(wide, wide, {cf::SampleDepth::U16, 16}, valid16, nullptr),
                         cudaErrorInvalidValue);
  fail_unless_equals_int(cf::gauss_cuda(wide, wide, {cf::SampleDepth::U16, -1}, valid16, nullptr),
                         cudaErrorInvalidValue);
  fail_unless_equals_int(cf::gauss_cuda(wide, wide, cftest::kP010, high_threshold, nullptr),
                         cudaErrorInvalidValue);
  cf::Plane odd = wide;
  odd.data += 1;
  odd.width = 1;  // within the allocation
  fail_unless_equals_int(cf::gauss_cuda(odd, odd, cftest::kP010, valid16, nullptr),
                         cudaErrorInvalidValue);
  // Pixels of 3 channels 4 bytes apart, one channel not computed: the byte of no
  // channel would be copied with them (packed_cuda.h).
  cf::Plane sparse = plane;
  sparse.width = 1;
  sparse.pixel_stride = 4;
  sparse.channels = 3;
  sparse.channel_mask = 0x3;
  fail_unless_equals_int(cf::gauss_cuda(sparse, sparse, depth, valid, nullptr),
                         cudaErrorInvalidValue);
  cftest::fail_on_cuda_error(cudaFree(plane.data), "cudaFree");
}
GST_END_TEST;

// Regions that are not valid (regions.h): refused, nothing queued.
GST_START_TEST(test_invalid_regions) {
  cftest::check_invalid_regions_cuda(
      "gauss_cuda", [](const cf::Plane &src, const cf::Plane &dst, const cf::OutputRegion &region) {
        cf::GaussParams params = cf::make_gauss_params(1, 0, 0, 0, cf::SampleDepth::U8, {});
        params.region = region;
        return cf::gauss_cuda(src, dst, cf::SampleDepth::U8, params, nullptr);
      });
}
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_gpu_suite(
      "gauss_cuda",
      {
       CF_GPU_TEST(test_matrix),
       CF_GPU_TEST(test_large_frames),
       CF_GPU_TEST(test_padding_bits),
       CF_GPU_TEST(test_packed_planes),
       CF_GPU_TEST(test_unsharp_clamps),
       CF_GPU_TEST(test_regions),
       CF_GPU_TEST(test_invalid_params),
       CF_GPU_TEST(test_invalid_regions),
      },
      argc, argv);
}
