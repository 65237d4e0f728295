// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CUDA redaction backend against the tests' reference (redact_cases.h), on device
// copies of the whole frame (filler bytes included), its refusal of invalid calls and
// of what only it refuses (misaligned 16-bit samples, a workspace too small). Skipped,
// by name, where no CUDA device is usable.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "redact.h"
#include "redact_cases.h"

#include "cuda_test_support.h"

namespace {

// Runs redact_cuda on a device copy of the frame, with a workspace of `spare` bytes
// more (or less) than the call needs.
cftest::RedactRunner cuda_runner(long long spare = 0) {
  return [spare](uint8_t *frame, size_t bytes, const std::vector<cf::RedactView> &views,
                 cf::SampleFormat format, const cf::RedactParams &params) {
    size_t frame_bytes = 0;
    for (const cf::RedactView &view : views)
      if (view.plane.data != nullptr && view.plane.width > 0 && view.plane.height > 0)
        frame_bytes += size_t(view.plane.height) * cf::row_span_bytes(view.plane, format);
    const size_t workspace_bytes =
        size_t((long long)cf::redact_cuda_workspace_bytes(frame_bytes) + spare);
    void *workspace = nullptr;
    cftest::fail_on_cuda_error(cudaMalloc(&workspace, workspace_bytes + 1), "cudaMalloc");
    const cudaError_t launched = cftest::run_on_device_buffers(
        {{frame, bytes}}, "redact_cuda", [&](const std::vector<uint8_t *> &copies) {
          std::vector<cf::RedactView> device_views = views;
          for (cf::RedactView &view : device_views)
            if (view.plane.data >= frame && view.plane.data < frame + bytes)
              view.plane.data = copies[0] + (view.plane.data - frame);
          return cf::redact_cuda(device_views.data(), int(device_views.size()), format, params,
                                 workspace, workspace_bytes, nullptr);
        });
    cftest::fail_on_cuda_error(cudaFree(workspace), "cudaFree");
    return launched;
  };
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_redact_matrix(cuda_runner()); }
GST_END_TEST;

GST_START_TEST(test_edge_cases) { cftest::check_redact_edge_cases(cuda_runner()); }
GST_END_TEST;

GST_START_TEST(test_masks) { cftest::check_redact_masks(cuda_runner()); }
GST_END_TEST;

GST_START_TEST(test_invalid_calls) { cftest::check_redact_invalid_calls(cuda_runner()); }
GST_END_TEST;

// What only the CUDA backend refuses: 16-bit samples at an odd address or pitch, a
// workspace one byte too small or missing. Nothing queued, nothing written.
GST_START_TEST(test_cuda_only_refusals) {
  uint8_t *data = nullptr;
  cftest::fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&data), 256), "cudaMalloc");
  cftest::fail_on_cuda_error(cudaMemset(data, 0x5a, 256), "cudaMemset");
  const cf::RedactShape shape{{0, 0, 2, 2}, 1, 1};
  cf::RedactView view;
  view.plane.data = data;
  view.plane.width = 4;
  view.plane.height = 4;
  view.plane.row_pitch = 16;
  view.plane.pixel_stride = 2;
  view.shapes = &shape;
  view.count = 1;
  const cf::SampleFormat format{cf::SampleDepth::U16, 6};
  const size_t needed = cf::redact_cuda_workspace_bytes(4 * cf::row_span_bytes(view.plane, format));
  void *workspace = nullptr;
  cftest::fail_on_cuda_error(cudaMalloc(&workspace, needed), "cudaMalloc");
  const cf::RedactParams params;
  cf::RedactView odd = view;
  odd.plane.data += 1;
  cf::RedactView odd_pitch = view;
  odd_pitch.plane.row_pitch = 15;
  fail_unless_equals_int(cf::redact_cuda(&odd, 1, format, params, workspace, needed, nullptr),
                         cudaErrorInvalidValue);
  fail_unless_equals_int(
      cf::redact_cuda(&odd_pitch, 1, format, params, workspace, needed, nullptr),
      cudaErrorInvalidValue);
  fail_unless_equals_int(cf::redact_cuda(&view, 1, format, params, workspace, needed - 1, nullptr),
                         cudaErrorInvalidValue);
  fail_unless_equals_int(cf::redact_cuda(&view, 1, format, params, nullptr, needed, nullptr),
                         cudaErrorInvalidValue);
  cftest::fail_on_cuda_error(cudaDeviceSynchronize(), "redact_cuda");
  std::vector<uint8_t> back(256);
  cftest::fail_on_cuda_error(cudaMemcpy(back.data(), data, 256, cudaMemcpyDeviceToHost),
                             "download");
  for (const uint8_t byte : back)
    fail_unless_equals_int(byte, 0x5a);
  cftest::fail_on_cuda_error(cudaFree(workspace), "cudaFree");
  cftest::fail_on_cuda_error(cudaFree(data), "cudaFree");
}
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_gpu_suite("redact_cuda",
                               {
                                   CF_GPU_TEST(test_matrix),
                                   CF_GPU_TEST(test_edge_cases),
                                   CF_GPU_TEST(test_masks),
                                   CF_GPU_TEST(test_invalid_calls),
                                   CF_GPU_TEST(test_cuda_only_refusals),
                               },
                               argc, argv);
}
