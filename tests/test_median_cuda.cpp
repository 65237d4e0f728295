// The CUDA median kernels against the reference, on the same matrix as the CPU
// backend. Skipped, by name, where no CUDA device is usable.
#include <cuda_runtime_api.h>

#include "median.h"
#include "median_cases.h"

#include "cuda_test_support.h"

namespace {

void fail_on_cuda_error(cudaError_t err, const char *what) {
  fail_unless(err == cudaSuccess, "%s: %s (%s)", what, cudaGetErrorName(err),
              cudaGetErrorString(err));
}

// Bytes from a plane's first sample to the end of its last one.
size_t plane_span(const cf::Plane &plane, cf::SampleDepth depth) {
  return (plane.height - 1) * plane.row_pitch +
         static_cast<size_t>(plane.width - 1) * plane.pixel_stride +
         cf::bytes_per_sample(depth);
}

// Device copies with the host planes' layout, so that the matrix's checks of filler
// bytes between samples cover the kernels too.
void median_cuda_via_device(const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth,
                            const cf::MedianParams &params) {
  const size_t src_bytes = plane_span(src, depth);
  const size_t dst_bytes = plane_span(dst, depth);
  uint8_t *device_src = nullptr;
  uint8_t *device_dst = nullptr;
  fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&device_src), src_bytes), "cudaMalloc");
  fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&device_dst), dst_bytes), "cudaMalloc");
  fail_on_cuda_error(cudaMemcpy(device_src, src.data, src_bytes, cudaMemcpyHostToDevice), "upload");
  fail_on_cuda_error(cudaMemcpy(device_dst, dst.data, dst_bytes, cudaMemcpyHostToDevice), "upload");
  cf::Plane device_src_plane = src;
  cf::Plane device_dst_plane = dst;
  device_src_plane.data = device_src;
  device_dst_plane.data = device_dst;
  fail_on_cuda_error(cf::median_cuda(device_src_plane, device_dst_plane, depth, params, nullptr),
                     "median_cuda launch");
  fail_on_cuda_error(cudaDeviceSynchronize(), "median_cuda run");
  fail_on_cuda_error(cudaMemcpy(dst.data, device_dst, dst_bytes, cudaMemcpyDeviceToHost),
                     "download");
  fail_on_cuda_error(cudaFree(device_src), "cudaFree");
  fail_on_cuda_error(cudaFree(device_dst), "cudaFree");
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
