// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CUDA median kernels against the reference, on the same matrix as the CPU
// backend, P010 samples against their values, and refusal of invalid calls. Skipped,
// by name, where no CUDA device is usable.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "filter_cases.h"
#include "median.h"
#include "median_cases.h"
#include "packed_cases.h"
#include "region_cases.h"

#include "cuda_test_support.h"

namespace {

void median_cuda_via_device(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                            const cf::MedianParams &params) {
  cftest::run_on_device_copies(src, dst, format.depth, "median_cuda",
                               [&](const cf::Plane &device_src, const cf::Plane &device_dst) {
                                 return cf::median_cuda(device_src, device_dst, format, params,
                                                        nullptr);
                               });
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_median_matrix(median_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_median_large_frames(median_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_padding_bits) { cftest::check_median_padding_bits(median_cuda_via_device); }
GST_END_TEST;

// Packed planes channel by channel (packed_cuda.h), the others copied.
GST_START_TEST(test_packed_planes) { cftest::check_packed_median(median_cuda_via_device); }
GST_END_TEST;

// Output regions: every kernel, layout and box set against the whole plane's output,
// in sizes whose boxes span several of each kernel's tiles (1100 pixels: more than a
// block of the 3x3 chunk kernel or of the group kernel).
GST_START_TEST(test_regions) {
  cftest::check_regions("median_cuda regions",
                        cftest::region_images({{1, 1}, {67, 45}, {300, 70}, {1100, 23}}),
                        cftest::median_region_filters(median_cuda_via_device,
                                                      {3, 5, 7, 9, 15, 21, 31}));
}
GST_END_TEST;

GST_START_TEST(test_invalid_params) {
  // Real device memory: a call that wrongly passes the checks must not fault.
  cf::Plane plane;
  plane.width = plane.height = 4;
  plane.row_pitch = 8;
  cftest::fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&plane.data), 32),
                             "cudaMalloc");
  const cf::MedianParams valid{3, {}};
  struct InvalidCall {
    const char *what;
    cf::SampleFormat format;
    cf::MedianParams params;
  };
  const InvalidCall calls[] = {
      {"even window", cf::SampleDepth::U8, {4, {}}},
      {"window 33", cf::SampleDepth::U8, {33, {}}},
      {"8-bit samples with padding bits", {cf::SampleDepth::U8, 1}, valid},
      {"16 padding bits", {cf::SampleDepth::U16, 16}, valid},
      {"negative padding bits", {cf::SampleDepth::U16, -1}, valid},
      {"unknown depth", {static_cast<cf::SampleDepth>(7), 0}, valid},
  };
  cf::Executor device;
  device.on_device = true;
  for (const InvalidCall &call : calls) {
    // As 16-bit samples the plane holds 4 x 4 of them.
    cf::Plane call_plane = plane;
    call_plane.pixel_stride = cf::bytes_per_sample(call.format);
    fail_unless(cf::median_cuda(call_plane, call_plane, call.format, call.params, nullptr) ==
                    cudaErrorInvalidValue,
                "%s: accepted", call.what);
    fail_unless(cf::median(device, call_plane, call_plane, call.format, call.params) ==
                    cudaErrorInvalidValue,
                "%s: accepted by cf::median", call.what);
  }
  // 16-bit samples at an odd address: the CPU backend takes them, CUDA does not.
  cf::Plane odd = plane;
  odd.data += 1;
  odd.width = 3;
  odd.pixel_stride = 2;
  fail_unless_equals_int(cf::median_cuda(odd, odd, cftest::kP010, valid, nullptr),
                         cudaErrorInvalidValue);
  // Pixels of 3 channels 4 bytes apart, one channel not computed: the byte of no
  // channel would be copied with them (packed_cuda.h).
  cf::Plane sparse = plane;
  sparse.width = 2;
  sparse.pixel_stride = 4;
  sparse.channels = 3;
  sparse.channel_mask = 0x3;
  fail_unless_equals_int(cf::median_cuda(sparse, sparse, cf::SampleDepth::U8, valid, nullptr),
                         cudaErrorInvalidValue);
  cftest::fail_on_cuda_error(cudaFree(plane.data), "cudaFree");
}
GST_END_TEST;

// Regions that are not valid (regions.h): refused, nothing queued.
GST_START_TEST(test_invalid_regions) {
  cftest::check_invalid_regions_cuda(
      "median_cuda", [](const cf::Plane &src, const cf::Plane &dst, const cf::OutputRegion &region) {
        cf::MedianParams params;
        params.region = region;
        return cf::median_cuda(src, dst, cf::SampleDepth::U8, params, nullptr);
      });
}
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_gpu_suite(
      "median_cuda",
      {
       CF_GPU_TEST(test_matrix),
       CF_GPU_TEST(test_large_frames),
       CF_GPU_TEST(test_padding_bits),
       CF_GPU_TEST(test_packed_planes),
       CF_GPU_TEST(test_regions),
       CF_GPU_TEST(test_invalid_params),
       CF_GPU_TEST(test_invalid_regions),
      },
      argc, argv);
}
