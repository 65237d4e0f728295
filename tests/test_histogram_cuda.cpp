// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The CUDA histogram kernel against the reference, on the same matrix as the CPU
// backend; P010 samples against their values; frames queued back to back on one
// workspace; refusal of invalid calls.
// Skipped, by name, where no CUDA device is usable.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "filter_cases.h"
#include "histogram.h"
#include "histogram_cases.h"
#include "packed_cases.h"
#include "test_image.h"

#include "cuda_test_support.h"

using cftest::HistogramResult;
using cftest::TestImage;

namespace {

// One workspace for every call of the binary, zeroed once, as an element keeps its
// own: each call relies on the one before having left it zeroed. Freed before main
// returns (compute-sanitizer's leak check runs at exit).
void *workspace_in_use = nullptr;

void *shared_workspace() {
  if (workspace_in_use == nullptr) {
    const size_t bytes = cf::histogram_cuda_workspace_bytes(cf::kHistogramMaxBins16);
    cftest::fail_on_cuda_error(cudaMalloc(&workspace_in_use, bytes), "cudaMalloc");
    cftest::fail_on_cuda_error(cudaMemset(workspace_in_use, 0, bytes), "cudaMemset");
  }
  return workspace_in_use;
}

cftest::HostBuffer src_buffer(const cf::Plane &src, cf::SampleFormat format) {
  return {src.data, cftest::plane_span(src, format.depth)};
}

cftest::HostBuffer bins_buffer(HistogramResult &result) {
  return {result.bins.data(), result.bins.size() * sizeof(uint32_t)};
}

cftest::HostBuffer summary_buffer(HistogramResult &result) {
  return {&result.summary, sizeof result.summary};
}

// Queues histogram_cuda on device copies of src (laid out as src), bins and summary.
cudaError_t count_on_copies(const cf::Plane &src, cf::SampleFormat format,
                            const cf::HistogramParams &params, uint8_t *src_copy,
                            uint8_t *bins_copy, uint8_t *summary_copy) {
  return cf::histogram_cuda(cftest::on_device(src, src_copy), format, params,
                            reinterpret_cast<uint32_t *>(bins_copy),
                            reinterpret_cast<cf::HistogramSummary *>(summary_copy),
                            shared_workspace(), nullptr);
}

void histogram_cuda_via_device(const cf::Plane &src, cf::SampleFormat format,
                               const cf::HistogramParams &params, HistogramResult &result) {
  const cudaError_t launched = cftest::run_on_device_buffers(
      {src_buffer(src, format), bins_buffer(result), summary_buffer(result)}, "histogram_cuda",
      [&](const std::vector<uint8_t *> &copies) {
        return count_on_copies(src, format, params, copies[0], copies[1], copies[2]);
      });
  cftest::fail_on_cuda_error(launched, "histogram_cuda launch");
}

// Every computed channel of a packed src into its own device copies of bins and summary.
void packed_histogram_cuda_via_device(const cf::Plane &src, cf::SampleFormat format,
                                      const cf::HistogramParams &params,
                                      std::vector<HistogramResult> &results) {
  std::vector<cftest::HostBuffer> buffers{src_buffer(src, format)};
  for (HistogramResult &result : results) {
    buffers.push_back(bins_buffer(result));
    buffers.push_back(summary_buffer(result));
  }
  const cudaError_t launched = cftest::run_on_device_buffers(
      buffers, "histogram_cuda", [&](const std::vector<uint8_t *> &copies) {
        std::vector<cf::HistogramOutput> outputs;
        for (size_t k = 0; k < results.size(); ++k)
          outputs.push_back({reinterpret_cast<uint32_t *>(copies[1 + 2 * k]),
                             reinterpret_cast<cf::HistogramSummary *>(copies[2 + 2 * k])});
        return cf::histogram_cuda(cftest::on_device(src, copies[0]), format, params,
                                  outputs.data(), shared_workspace(), nullptr);
      });
  cftest::fail_on_cuda_error(launched, "histogram_cuda launch");
}

}  // namespace

GST_START_TEST(test_matrix) { cftest::check_histogram_matrix(histogram_cuda_via_device); }
GST_END_TEST;

GST_START_TEST(test_packed_planes) {
  cftest::check_packed_histogram(packed_histogram_cuda_via_device);
}
GST_END_TEST;

GST_START_TEST(test_large_frames) {
  cftest::check_histogram_large_frames(histogram_cuda_via_device);
}
GST_END_TEST;

GST_START_TEST(test_padding_bits) {
  cftest::check_histogram_padding_bits(histogram_cuda_via_device);
}
GST_END_TEST;

// Frames queued one after the other on one stream with one workspace, as an element
// queues them, with no wait in between: each launch relies on the last block of the
// one before having emptied the workspace. The same frame several times, then frames
// of other sizes, depths, bin counts and ways of counting.
GST_START_TEST(test_back_to_back_frames) {
  using cf::SampleDepth;
  struct Frame {
    int width;
    int height;
    cf::SampleFormat format;
    const char *image;
    int bins;
    int repeats;
  };
  const Frame frames[] = {
      {1921, 1081, SampleDepth::U8, "random", 256, 3},
      {17, 9, SampleDepth::U16, "two-value", 65536, 3},
      {64, 33, SampleDepth::U8, "constant-max", 7, 2},
      {1921, 1081, SampleDepth::U16, "random", 20000, 2},
      {1, 1, SampleDepth::U8, "random", 1, 2},
      {3841, 2161, SampleDepth::U16, "salt-and-pepper-on-random", 4096, 2},
      {1921, 1081, SampleDepth::U16, "horizontal-ramp", 65536, 2},
      {1921, 1081, cftest::kP010, "random-padding-bits", 1024, 2},
      {64, 33, SampleDepth::U16, "random", 256, 1},
  };
  std::vector<TestImage> images;
  std::vector<cf::HistogramParams> params;
  std::vector<HistogramResult> expected;
  std::vector<size_t> run_frames;  // the frame of each run, in launch order
  uint32_t seed = 1;
  for (const Frame &frame : frames) {
    images.emplace_back(frame.width, frame.height, frame.format);
    cftest::generator_named(frame.image)->fill(images.back(), seed++);
    params.push_back(cftest::full_range_params(frame.format));
    params.back().bins = frame.bins;
    expected.push_back(
        cftest::reference_histogram(images.back().plane(), frame.format, params.back()));
    run_frames.insert(run_frames.end(), frame.repeats, images.size() - 1);
  }

  // Every frame's src, uploaded once, then every run's bins and summary.
  std::vector<HistogramResult> results;
  std::vector<cftest::HostBuffer> buffers;
  for (size_t f = 0; f < images.size(); ++f)
    buffers.push_back(src_buffer(images[f].plane(), frames[f].format));
  results.reserve(run_frames.size());  // the buffers point into them
  for (const size_t f : run_frames) {
    results.push_back(cftest::unwritten_result(frames[f].bins, 4));
    buffers.push_back(bins_buffer(results.back()));
    buffers.push_back(summary_buffer(results.back()));
  }

  const cudaError_t launched = cftest::run_on_device_buffers(
      buffers, "histogram_cuda", [&](const std::vector<uint8_t *> &copies) {
        for (size_t run = 0; run < run_frames.size(); ++run) {
          const size_t f = run_frames[run];
          uint8_t *const *outputs = &copies[images.size() + 2 * run];
          if (const cudaError_t e = count_on_copies(images[f].plane(), frames[f].format,
                                                    params[f], copies[f], outputs[0],
                                                    outputs[1]);
              e != cudaSuccess)
            return e;
        }
        return cudaSuccess;
      });
  cftest::fail_on_cuda_error(launched, "histogram_cuda launch");

  for (size_t run = 0; run < run_frames.size(); ++run) {
    const size_t f = run_frames[run];
    const auto difference = cftest::first_difference(results[run], expected[f]);
    fail_if(difference.has_value(), "run %zu, frame %zu (%s, %s): %s", run + 1, f,
            images[f].describe().c_str(), frames[f].image,
            difference ? difference->c_str() : "");
  }
}
GST_END_TEST;

namespace {

enum class Missing { kNothing, kBins, kSummary, kWorkspace };

// histogram_cuda returns cudaErrorInvalidValue for src and the params made by `change`
// (or without `missing`), and writes nothing: on device copies, so that a call that
// wrongly passed the checks would count into the outputs, not fault.
// `format` (default: src's) is the format the call is made with.
void check_refused(const char *what, TestImage &src,
                   const std::function<void(cf::Plane &, cf::HistogramParams &)> &change,
                   Missing missing = Missing::kNothing,
                   std::optional<cf::SampleFormat> call_format = std::nullopt) {
  const cf::SampleFormat format = call_format.value_or(src.format());
  cf::Plane plane = src.plane();
  cf::HistogramParams params = cftest::full_range_params(src.format());
  change(plane, params);
  const int bins = std::max(params.bins, 1);
  HistogramResult result = cftest::unwritten_result(bins, 0);
  const cudaError_t returned = cftest::run_on_device_buffers(
      {src_buffer(src.plane(), src.format()), bins_buffer(result), summary_buffer(result)},
      "histogram_cuda",
      [&](const std::vector<uint8_t *> &copies) {
        // The changes leave data where it was or make it null.
        return cf::histogram_cuda(
            cftest::on_device(plane, plane.data != nullptr ? copies[0] : nullptr), format, params,
            missing == Missing::kBins ? nullptr : reinterpret_cast<uint32_t *>(copies[1]),
            missing == Missing::kSummary ? nullptr
                                         : reinterpret_cast<cf::HistogramSummary *>(copies[2]),
            missing == Missing::kWorkspace ? nullptr : shared_workspace(), nullptr);
      });
  fail_unless(returned == cudaErrorInvalidValue, "%s: returned %s", what,
              cudaGetErrorName(returned));
  fail_if(cftest::first_difference(result, cftest::unwritten_result(bins, 0)).has_value(),
          "%s: outputs were written", what);
}

}  // namespace

GST_START_TEST(test_invalid_calls) {
  for (const cftest::InvalidHistogramCall &call : cftest::invalid_histogram_calls()) {
    TestImage src(17, 9, call.valid_format);
    cftest::fill_random(src, 1);
    check_refused(call.what, src, call.change, Missing::kNothing, call.format);
  }
  // What the kernel needs beyond the CPU backend: aligned samples, and its buffers.
  const auto unchanged = [](cf::Plane &, cf::HistogramParams &) {};
  TestImage odd_stride(17, 9, cf::SampleDepth::U16, 3, 0);
  check_refused("16-bit samples 3 bytes apart", odd_stride, unchanged);
  TestImage odd_pitch(17, 9, cftest::kP010, 2, 1);
  check_refused("P010 rows 35 bytes apart", odd_pitch, unchanged);
  TestImage src(17, 9, cf::SampleDepth::U8);
  check_refused("no bins", src, unchanged, Missing::kBins);
  check_refused("no summary", src, unchanged, Missing::kSummary);
  check_refused("no workspace", src, unchanged, Missing::kWorkspace);

  // The executor's dispatch refuses the same.
  cf::Executor device;
  device.on_device = true;
  const cf::HistogramParams params = cftest::full_range_params(cf::SampleDepth::U8);
  fail_unless_equals_int(cf::histogram(device, src.plane(), cf::SampleDepth::U8, params,
                                       nullptr, shared_workspace()),
                         cudaErrorInvalidValue);
}
GST_END_TEST;

int main(int argc, char **argv) {
  const int status = cftest::run_gpu_suite(
      "histogram_cuda",
      {
       CF_GPU_TEST(test_matrix),
       CF_GPU_TEST(test_packed_planes),
       CF_GPU_TEST(test_large_frames),
       CF_GPU_TEST(test_padding_bits),
       CF_GPU_TEST(test_back_to_back_frames),
       CF_GPU_TEST(test_invalid_calls),
      },
      argc, argv);
  if (workspace_in_use != nullptr)
    cudaFree(workspace_in_use);
  return status;
}
