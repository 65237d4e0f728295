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
#include <random>
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

// ---------------------------------------------------------------------------------
// Boxes.

namespace {

// One box workspace for every box call of the binary, as an element keeps its own: each
// call relies on the one before having left it zeroed (test_box_workspace_left_zeroed
// checks that it is). Large enough for every bin count and 2^20 boxes.
void *box_workspace_in_use = nullptr;
size_t box_workspace_size = 0;

void *box_workspace() {
  if (box_workspace_in_use == nullptr) {
    for (int bins = 1; bins <= cf::kHistogramMaxBins16; ++bins)
      box_workspace_size =
          std::max(box_workspace_size, cf::histogram_boxes_cuda_workspace_bytes(bins, 1 << 20));
    cftest::fail_on_cuda_error(cudaMalloc(&box_workspace_in_use, box_workspace_size),
                               "cudaMalloc");
    cftest::fail_on_cuda_error(cudaMemset(box_workspace_in_use, 0, box_workspace_size),
                               "cudaMemset");
  }
  return box_workspace_in_use;
}

// Every result's bins, guards included, one after the other in one buffer, and the
// summaries in another: two device copies for any number of boxes.
struct PackedResults {
  std::vector<uint32_t> bins;
  std::vector<cf::HistogramSummary> summaries;
  std::vector<size_t> offsets;  // of each result's bins

  explicit PackedResults(const std::vector<HistogramResult> &results) {
    for (const HistogramResult &result : results) {
      offsets.push_back(bins.size());
      bins.insert(bins.end(), result.bins.begin(), result.bins.end());
      summaries.push_back(result.summary);
    }
  }

  void unpack(std::vector<HistogramResult> &results) const {
    for (size_t i = 0; i < results.size(); ++i) {
      std::copy_n(bins.begin() + offsets[i], results[i].bins.size(), results[i].bins.begin());
      results[i].summary = summaries[i];
    }
  }

  // The outputs in device copies of bins and summaries.
  std::vector<cf::HistogramOutput> outputs(uint8_t *bins_copy, uint8_t *summaries_copy) const {
    std::vector<cf::HistogramOutput> list;
    for (size_t i = 0; i < offsets.size(); ++i)
      list.push_back({reinterpret_cast<uint32_t *>(bins_copy) + offsets[i],
                      reinterpret_cast<cf::HistogramSummary *>(summaries_copy) + i});
    return list;
  }

  std::vector<cftest::HostBuffer> buffers() {
    return {{bins.data(), bins.size() * sizeof(uint32_t)},
            {summaries.data(), summaries.size() * sizeof(cf::HistogramSummary)}};
  }
};

// kDispatch: through cf::histogram_boxes with an on-device executor.
template <bool kDispatch>
void box_histograms_cuda_via_device(const cf::Plane &src, cf::SampleFormat format,
                                    const cf::HistogramParams &params,
                                    const std::vector<cf::Box> &boxes,
                                    std::vector<HistogramResult> &results) {
  PackedResults packed(results);
  std::vector<cftest::HostBuffer> buffers = packed.buffers();
  buffers.push_back(src_buffer(src, format));
  const cudaError_t launched = cftest::run_on_device_buffers(
      buffers, "histogram_boxes_cuda", [&](const std::vector<uint8_t *> &copies) {
        const std::vector<cf::HistogramOutput> outputs = packed.outputs(copies[0], copies[1]);
        const cf::Plane plane = cftest::on_device(src, copies[2]);
        if constexpr (kDispatch) {
          cf::Executor device;
          device.on_device = true;
          return cf::histogram_boxes(device, plane, format, params, boxes.data(),
                                     int(boxes.size()), outputs.data(), box_workspace());
        }
        return cf::histogram_boxes_cuda(plane, format, params, boxes.data(), int(boxes.size()),
                                        outputs.data(), box_workspace(), nullptr);
      });
  cftest::fail_on_cuda_error(launched, "histogram_boxes_cuda launch");
  packed.unpack(results);
}

}  // namespace

GST_START_TEST(test_box_matrix) {
  cftest::check_box_histogram_matrix(box_histograms_cuda_via_device<false>);
}
GST_END_TEST;

GST_START_TEST(test_box_large_frames) {
  cftest::check_box_histogram_large_frames(box_histograms_cuda_via_device<true>);
}
GST_END_TEST;

// The batch sizes histogram.h documents, and workspaces that hold a launch's boxes.
GST_START_TEST(test_box_batches) {
  TestImage gray(64, 33, cf::SampleDepth::U8);
  TestImage uv(64, 33, cf::SampleDepth::U8, 2);  // one channel of two: strided
  fail_unless_equals_int(cf::histogram_boxes_cuda_batch(gray.plane(), cf::SampleDepth::U8, 256),
                         109);
  fail_unless_equals_int(cf::histogram_boxes_cuda_batch(uv.plane(), cf::SampleDepth::U8, 256), 109);
  cf::Plane packed_uv = gray.plane();
  packed_uv.width = 32;
  packed_uv.pixel_stride = 2;
  packed_uv.channels = 2;
  packed_uv.channel_mask = 3;
  fail_unless_equals_int(cf::histogram_boxes_cuda_batch(packed_uv, cf::SampleDepth::U8, 256), 76);
  cf::Plane rgba = gray.plane();
  rgba.width = 16;
  rgba.pixel_stride = 4;
  rgba.channels = 4;
  rgba.channel_mask = 7;
  fail_unless_equals_int(cf::histogram_boxes_cuda_batch(rgba, cf::SampleDepth::U8, 256), 47);
  TestImage gray16(64, 33, cf::SampleDepth::U16);
  fail_unless_equals_int(
      cf::histogram_boxes_cuda_batch(gray16.plane(), cf::SampleDepth::U16, 65536), 31);
  fail_unless_equals_int(cf::histogram_boxes_cuda_batch(gray16.plane(), cf::SampleDepth::U16, 0),
                         0);
  fail_unless(cf::histogram_boxes_cuda_workspace_bytes(256, 0) == 0);
  fail_unless(cf::histogram_boxes_cuda_workspace_bytes(256, 300) ==
              cf::histogram_boxes_cuda_workspace_bytes(256, 109));
  fail_unless(cf::histogram_boxes_cuda_workspace_bytes(256, 2) <
              cf::histogram_boxes_cuda_workspace_bytes(256, 3));
  fail_unless(cf::histogram_boxes_cuda_workspace_bytes(65536, 300) <= (size_t{9} << 20));

  // 300 boxes in a workspace of exactly the size asked for, in CUDA memory that ends
  // right there: a kernel writing beyond it faults (compute-sanitizer names it).
  for (const cf::SampleFormat format :
       {cf::SampleFormat(cf::SampleDepth::U8), cf::SampleFormat(cf::SampleDepth::U16)}) {
    for (const int bins : {1, 256, 4096, 65536}) {
      if (format.depth == cf::SampleDepth::U8 && bins > cf::kHistogramMaxBins8)
        continue;
      TestImage src(200, 100, format);
      cftest::fill_random(src, uint32_t(bins));
      cf::HistogramParams params = cftest::full_range_params(format);
      params.bins = bins;
      const std::vector<cf::Box> boxes = [] {
        std::vector<cf::Box> list;
        for (int i = 0; i < 300; ++i)
          list.push_back({i % 199, i % 97, 1 + i % 2, 1 + i % 3});
        return list;
      }();
      std::vector<HistogramResult> results(boxes.size(), cftest::unwritten_result(bins, 4));
      PackedResults packed(results);
      std::vector<cftest::HostBuffer> buffers = packed.buffers();
      buffers.push_back(src_buffer(src.plane(), format));
      const size_t bytes = cf::histogram_boxes_cuda_workspace_bytes(bins, int(boxes.size()));
      void *workspace = nullptr;
      cftest::fail_on_cuda_error(cudaMalloc(&workspace, bytes), "cudaMalloc");
      cftest::fail_on_cuda_error(cudaMemset(workspace, 0, bytes), "cudaMemset");
      const cudaError_t launched = cftest::run_on_device_buffers(
          buffers, "histogram_boxes_cuda", [&](const std::vector<uint8_t *> &copies) {
            const std::vector<cf::HistogramOutput> outputs = packed.outputs(copies[0], copies[1]);
            return cf::histogram_boxes_cuda(cftest::on_device(src.plane(), copies[2]), format,
                                            params, boxes.data(), int(boxes.size()),
                                            outputs.data(), workspace, nullptr);
          });
      cftest::fail_on_cuda_error(launched, "histogram_boxes_cuda launch");
      std::vector<uint8_t> left(bytes);
      cftest::fail_on_cuda_error(cudaMemcpy(left.data(), workspace, bytes, cudaMemcpyDeviceToHost),
                                 "download");
      cftest::fail_on_cuda_error(cudaFree(workspace), "cudaFree");
      fail_unless(std::all_of(left.begin(), left.end(), [](uint8_t b) { return b == 0; }),
                  "bins %d: the workspace was not left zeroed", bins);
      packed.unpack(results);
      for (size_t b = 0; b < boxes.size(); ++b) {
        cf::HistogramParams region = params;
        region.roi_x = boxes[b].x;
        region.roi_y = boxes[b].y;
        region.roi_width = boxes[b].width;
        region.roi_height = boxes[b].height;
        const auto difference = cftest::first_difference(
            results[b], cftest::reference_histogram(src.plane(), format, region));
        fail_if(difference.has_value(), "bins %d, box %zu: %s", bins, b,
                difference ? difference->c_str() : "");
      }
    }
  }
}
GST_END_TEST;

// Box calls queued back to back on one stream and workspace, between whole-frame
// histograms on their own workspace, with no wait in between; then the box workspace
// must be all zero again.
GST_START_TEST(test_box_back_to_back_calls) {
  using cf::SampleDepth;
  struct Call {
    cf::SampleFormat format;
    int bins;
    int boxes;  // random ones
  };
  const Call calls[] = {
      {SampleDepth::U8, 256, 64}, {SampleDepth::U8, 256, 64},  {SampleDepth::U16, 65536, 100},
      {SampleDepth::U8, 4096, 300}, {cftest::kP010, 1024, 7}, {SampleDepth::U16, 20000, 40},
      {SampleDepth::U8, 1, 1},     {SampleDepth::U16, 256, 250},
  };
  std::vector<TestImage> images;
  std::vector<cf::HistogramParams> params;
  std::vector<std::vector<cf::Box>> box_lists;
  std::vector<std::vector<HistogramResult>> results;
  std::vector<HistogramResult> frame_results;
  uint32_t seed = 40;
  for (const Call &call : calls) {
    images.emplace_back(1921, 1081, call.format);
    cftest::fill_random_samples(images.back(), seed);
    params.push_back(cftest::full_range_params(call.format));
    params.back().bins = call.bins;
    std::mt19937 generator(seed++);
    std::vector<cf::Box> boxes;
    for (int i = 0; i < call.boxes; ++i) {
      cf::Box box;
      box.x = std::uniform_int_distribution<int>(0, 1920)(generator);
      box.y = std::uniform_int_distribution<int>(0, 1080)(generator);
      box.width = std::uniform_int_distribution<int>(1, std::min(400, 1921 - box.x))(generator);
      box.height = std::uniform_int_distribution<int>(1, std::min(300, 1081 - box.y))(generator);
      boxes.push_back(box);
    }
    box_lists.push_back(boxes);
    results.emplace_back(boxes.size(), cftest::unwritten_result(call.bins, 4));
    frame_results.push_back(cftest::unwritten_result(call.bins, 4));
  }
  std::vector<PackedResults> packed;
  std::vector<cftest::HostBuffer> buffers;
  for (size_t i = 0; i < images.size(); ++i) {
    packed.emplace_back(results[i]);
  }
  for (size_t i = 0; i < images.size(); ++i) {
    buffers.push_back(src_buffer(images[i].plane(), calls[i].format));
    const std::vector<cftest::HostBuffer> box_buffers = packed[i].buffers();
    buffers.insert(buffers.end(), box_buffers.begin(), box_buffers.end());
    buffers.push_back(bins_buffer(frame_results[i]));
    buffers.push_back(summary_buffer(frame_results[i]));
  }
  const cudaError_t launched = cftest::run_on_device_buffers(
      buffers, "histogram_boxes_cuda", [&](const std::vector<uint8_t *> &copies) {
        for (size_t i = 0; i < images.size(); ++i) {
          uint8_t *const *mine = &copies[5 * i];
          const cf::Plane plane = cftest::on_device(images[i].plane(), mine[0]);
          const std::vector<cf::HistogramOutput> outputs = packed[i].outputs(mine[1], mine[2]);
          if (const cudaError_t e = cf::histogram_boxes_cuda(
                  plane, calls[i].format, params[i], box_lists[i].data(),
                  int(box_lists[i].size()), outputs.data(), box_workspace(), nullptr);
              e != cudaSuccess)
            return e;
          if (const cudaError_t e = cf::histogram_cuda(
                  plane, calls[i].format, params[i], reinterpret_cast<uint32_t *>(mine[3]),
                  reinterpret_cast<cf::HistogramSummary *>(mine[4]), shared_workspace(),
                  nullptr);
              e != cudaSuccess)
            return e;
        }
        return cudaSuccess;
      });
  cftest::fail_on_cuda_error(launched, "histogram_boxes_cuda launch");
  for (size_t i = 0; i < images.size(); ++i) {
    packed[i].unpack(results[i]);
    const cf::HistogramParams &frame = params[i];
    const auto frame_difference = cftest::first_difference(
        frame_results[i], cftest::reference_histogram(images[i].plane(), calls[i].format, frame));
    fail_if(frame_difference.has_value(), "call %zu, the frame: %s", i,
            frame_difference ? frame_difference->c_str() : "");
    for (size_t b = 0; b < box_lists[i].size(); ++b) {
      cf::HistogramParams region = frame;
      region.roi_x = box_lists[i][b].x;
      region.roi_y = box_lists[i][b].y;
      region.roi_width = box_lists[i][b].width;
      region.roi_height = box_lists[i][b].height;
      const auto difference = cftest::first_difference(
          results[i][b],
          cftest::reference_histogram(images[i].plane(), calls[i].format, region));
      fail_if(difference.has_value(), "call %zu, box %zu %s: %s", i, b,
              cftest::describe(box_lists[i][b]).c_str(), difference ? difference->c_str() : "");
    }
  }
}
GST_END_TEST;

// Run after the other box tests: every call left the shared box workspace zeroed.
GST_START_TEST(test_box_workspace_left_zeroed) {
  // The workspace is made by the first call where this test runs alone.
  TestImage src(5, 5, cf::SampleDepth::U8);
  std::vector<HistogramResult> results(1, cftest::unwritten_result(256, 0));
  box_histograms_cuda_via_device<false>(src.plane(), cf::SampleDepth::U8,
                                        cftest::full_range_params(cf::SampleDepth::U8),
                                        {{0, 0, 5, 5}}, results);
  std::vector<uint8_t> left(box_workspace_size);
  cftest::fail_on_cuda_error(
      cudaMemcpy(left.data(), box_workspace(), left.size(), cudaMemcpyDeviceToHost), "download");
  const auto first = std::find_if(left.begin(), left.end(), [](uint8_t b) { return b != 0; });
  fail_unless(first == left.end(), "byte %td of the box workspace is not zero",
              first - left.begin());
}
GST_END_TEST;

namespace {

enum class MissingForBoxes { kNothing, kBoxes, kOutputs, kSecondBins, kWorkspace };

// histogram_boxes_cuda returns cudaErrorInvalidValue and writes nothing, on device
// copies (so that a call that wrongly passed the checks would count into the outputs,
// not fault).
void check_boxes_refused(const std::string &what, TestImage &src, cf::Plane plane,
                         cf::SampleFormat format, const cf::HistogramParams &params,
                         const std::vector<cf::Box> &boxes, int count,
                         MissingForBoxes missing = MissingForBoxes::kNothing) {
  const int bins = std::max(params.bins, 1);
  std::vector<HistogramResult> results(std::max<size_t>(boxes.size(), 2),
                                       cftest::unwritten_result(bins, 0));
  PackedResults packed(results);
  std::vector<cftest::HostBuffer> buffers = packed.buffers();
  buffers.push_back(src_buffer(src.plane(), src.format()));
  const cudaError_t returned = cftest::run_on_device_buffers(
      buffers, "histogram_boxes_cuda", [&](const std::vector<uint8_t *> &copies) {
        std::vector<cf::HistogramOutput> outputs = packed.outputs(copies[0], copies[1]);
        if (missing == MissingForBoxes::kSecondBins)
          outputs[1].bins = nullptr;
        return cf::histogram_boxes_cuda(
            cftest::on_device(plane, plane.data != nullptr ? copies[2] : nullptr), format, params,
            missing == MissingForBoxes::kBoxes ? nullptr : boxes.data(), count,
            missing == MissingForBoxes::kOutputs ? nullptr : outputs.data(),
            missing == MissingForBoxes::kWorkspace ? nullptr : box_workspace(), nullptr);
      });
  fail_unless(returned == cudaErrorInvalidValue, "%s: returned %s", what.c_str(),
              cudaGetErrorName(returned));
  packed.unpack(results);
  for (const HistogramResult &result : results)
    fail_if(cftest::first_difference(result, cftest::unwritten_result(bins, 0)).has_value(),
            "%s: outputs were written", what.c_str());
}

}  // namespace

GST_START_TEST(test_box_invalid_calls) {
  TestImage src(17, 9, cf::SampleDepth::U8);
  cftest::fill_random(src, 1);
  const cf::HistogramParams params = cftest::full_range_params(cf::SampleDepth::U8);
  for (const cftest::InvalidBoxes &set : cftest::invalid_box_sets())
    check_boxes_refused(set.what, src, src.plane(), cf::SampleDepth::U8, params, set.boxes,
                        int(set.boxes.size()));
  const std::vector<cf::Box> two{{0, 0, 17, 9}, {3, 3, 2, 2}};
  check_boxes_refused("no boxes", src, src.plane(), cf::SampleDepth::U8, params, two, 2,
                      MissingForBoxes::kBoxes);
  check_boxes_refused("a negative count", src, src.plane(), cf::SampleDepth::U8, params, two,
                      -1);
  check_boxes_refused("no outputs", src, src.plane(), cf::SampleDepth::U8, params, two, 2,
                      MissingForBoxes::kOutputs);
  check_boxes_refused("the second box without bins", src, src.plane(), cf::SampleDepth::U8,
                      params, two, 2, MissingForBoxes::kSecondBins);
  check_boxes_refused("no workspace", src, src.plane(), cf::SampleDepth::U8, params, two, 2,
                      MissingForBoxes::kWorkspace);
  TestImage odd_stride(17, 9, cf::SampleDepth::U16, 3, 0);
  check_boxes_refused("16-bit samples 3 bytes apart", odd_stride, odd_stride.plane(),
                      cf::SampleDepth::U16, cftest::full_range_params(cf::SampleDepth::U16),
                      two, 2);
  for (const cftest::InvalidHistogramCall &call : cftest::invalid_histogram_calls()) {
    if (cftest::changes_only_roi(call))
      continue;
    TestImage image(17, 9, call.valid_format);
    cftest::fill_random(image, 1);
    cf::Plane plane = image.plane();
    cf::HistogramParams changed = cftest::full_range_params(call.valid_format);
    call.change(plane, changed);
    check_boxes_refused(call.what, image, plane, call.format, changed, two, 2);
  }

  // No boxes: nothing to do, nothing needed.
  fail_unless_equals_int(cf::histogram_boxes_cuda(src.plane(), cf::SampleDepth::U8, params,
                                                  nullptr, 0, nullptr, nullptr, nullptr),
                         cudaSuccess);
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
       CF_GPU_TEST(test_box_matrix),
       CF_GPU_TEST(test_box_large_frames),
       CF_GPU_TEST(test_box_batches),
       CF_GPU_TEST(test_box_back_to_back_calls),
       CF_GPU_TEST(test_box_invalid_calls),
       CF_GPU_TEST(test_box_workspace_left_zeroed),
      },
      argc, argv);
  if (workspace_in_use != nullptr)
    cudaFree(workspace_in_use);
  if (box_workspace_in_use != nullptr)
    cudaFree(box_workspace_in_use);
  return status;
}
