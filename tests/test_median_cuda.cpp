// The CUDA median kernels against the reference, on the same matrix as the CPU
// backend. Skipped, by name, where no CUDA device is usable.
#include <cuda_runtime_api.h>

#include "median.h"
#include "median_cases.h"

#include "cuda_test_support.h"

namespace {

void median_cuda_via_device(const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth,
                            const cf::MedianParams &params) {
  cftest::run_on_device_copies(src, dst, depth, "median_cuda",
                               [&](const cf::Plane &device_src, const cf::Plane &device_dst) {
                                 return cf::median_cuda(device_src, device_dst, depth, params,
                                                        nullptr);
                               });
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_median_matrix(median_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_median_large_frames(median_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_invalid_params) {
  cf::Plane plane;
  plane.width = plane.height = 4;
  plane.row_pitch = 4;
  const cf::MedianParams even{4, {}};
  fail_unless_equals_int(cf::median_cuda(plane, plane, cf::SampleDepth::U8, even, nullptr),
                         cudaErrorInvalidValue);
  const cf::MedianParams too_large{33, {}};
  fail_unless_equals_int(cf::median_cuda(plane, plane, cf::SampleDepth::U8, too_large, nullptr),
                         cudaErrorInvalidValue);
}
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_gpu_suite(
      "median_cuda",
      {
       CF_GPU_TEST(test_matrix),
       CF_GPU_TEST(test_large_frames),
       CF_GPU_TEST(test_invalid_params),
      },
      argc, argv);
}
