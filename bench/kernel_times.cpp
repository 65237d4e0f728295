// Kernel-level timing on device-resident frames: CUDA events around each launch,
// warm-up first, median of many runs, rotating over enough frames that the L2 cache
// does not hold them.
//   kernel-times [WIDTH HEIGHT [RUNS]]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gauss.h"
#include "histogram.h"
#include "median.h"

namespace {

bool check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  return err == cudaSuccess;
}

// Device allocations, freed together.
struct DeviceMemory {
  std::vector<void *> blocks;
  ~DeviceMemory() {
    for (void *block : blocks)
      cudaFree(block);
  }
  uint8_t *allocate(size_t bytes) {
    void *block = nullptr;
    if (!check(cudaMalloc(&block, bytes), "cudaMalloc"))
      return nullptr;
    blocks.push_back(block);
    return static_cast<uint8_t *>(block);
  }
};

using Launch = std::function<cudaError_t(const cf::Plane &src, const cf::Plane &dst)>;

class Timer {
 public:
  Timer(int width, int height, int bytes, int runs, std::vector<uint8_t *> inputs,
        std::vector<uint8_t *> outputs)
      : width_(width), height_(height), bytes_(bytes), runs_(runs),
        inputs_(std::move(inputs)), outputs_(std::move(outputs)) {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~Timer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

  // Prints the median time of `launch` over the frames; false on a CUDA error.
  bool run(const std::string &name, const Launch &launch) {
    std::vector<float> times;
    const int count = static_cast<int>(inputs_.size());
    for (int run = -10; run < runs_; run++) {  // the first 10 warm up
      const int frame = (run + 10) % count;
      const ptrdiff_t pitch = static_cast<ptrdiff_t>(width_) * bytes_;
      const cf::Plane src{inputs_[frame], width_, height_, pitch, bytes_};
      const cf::Plane dst{outputs_[frame], width_, height_, pitch, bytes_};
      check(cudaEventRecord(start_), "cudaEventRecord");
      if (!check(launch(src, dst), name.c_str()))
        return false;
      check(cudaEventRecord(stop_), "cudaEventRecord");
      if (!check(cudaEventSynchronize(stop_), name.c_str()))
        return false;
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
      if (run >= 0)
        times.push_back(ms * 1000);
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    const float us = times[times.size() / 2];
    std::printf("%-6s %-34s %10.1f %10.1f\n", bytes_ == 1 ? "8" : "16", name.c_str(), us,
                width_ * double(height_) / us / 1e3);
    return true;
  }

 private:
  int width_, height_, bytes_, runs_;
  std::vector<uint8_t *> inputs_, outputs_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace

int main(int argc, char **argv) {
  const int width = argc > 2 ? std::atoi(argv[1]) : 3840;
  const int height = argc > 2 ? std::atoi(argv[2]) : 2160;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 100;
  cudaDeviceProp props{};
  if (!check(cudaGetDeviceProperties(&props, 0), "cudaGetDeviceProperties"))
    return 1;
  std::printf("device: %s, %dx%d, median of %d runs, random data unless said\n", props.name,
              width, height, runs);
  std::printf("%-6s %-34s %10s %10s\n", "depth", "kernel", "us", "GPix/s");

  for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16}) {
    const int bytes = cf::bytes_per_sample(depth);
    const size_t frame_bytes = static_cast<size_t>(width) * height * bytes;
    // At least 4x the L2 cache in inputs, so every run reads from device memory.
    const int count = std::max<int>(4, 4 * props.l2CacheSize / frame_bytes + 1);
    DeviceMemory memory;
    std::vector<uint8_t *> inputs, outputs;
    std::vector<uint8_t> host(frame_bytes);
    std::mt19937 random(1);
    for (int i = 0; i < count; i++) {
      for (auto &byte : host)
        byte = static_cast<uint8_t>(random());
      inputs.push_back(memory.allocate(frame_bytes));
      outputs.push_back(memory.allocate(frame_bytes));
      if (!inputs.back() || !outputs.back() ||
          !check(cudaMemcpy(inputs.back(), host.data(), frame_bytes, cudaMemcpyHostToDevice),
                 "upload"))
        return 1;
    }
    Timer timer(width, height, bytes, runs, inputs, outputs);

    for (const int window : {3, 5, 7, 9, 15, 31}) {
      cf::MedianParams params;
      params.window = window;
      if (!timer.run("median " + std::to_string(window) + "x" + std::to_string(window),
                     [&](const cf::Plane &src, const cf::Plane &dst) {
                       return cf::median_cuda(src, dst, depth, params, nullptr);
                     }))
        return 1;
    }
    const struct {
      double sigma;
      int kernel_size;
    } blurs[] = {{1, 5}, {1, 0}, {2, 9}, {2, 0}, {4.6, 15}, {10, 0}};
    for (const auto &blur : blurs) {
      const cf::GaussParams params =
          cf::make_gauss_params(blur.sigma, 0, blur.kernel_size, blur.kernel_size, depth, {});
      char name[64];
      std::snprintf(name, sizeof name, "gauss sigma %g, %zu taps", blur.sigma,
                    params.taps_x.size());
      if (!timer.run(name, [&](const cf::Plane &src, const cf::Plane &dst) {
            return cf::gauss_cuda(src, dst, depth, params, nullptr);
          }))
        return 1;
    }

    // Histograms: on the random frames, then on constant ones (every atomic on one bin).
    const std::vector<int> bin_counts =
        depth == cf::SampleDepth::U8 ? std::vector<int>{256} : std::vector<int>{1024, 65536};
    const size_t workspace_bytes = cf::histogram_cuda_workspace_bytes(bin_counts.back());
    uint8_t *counts = memory.allocate(bin_counts.back() * sizeof(uint32_t));
    uint8_t *summary = memory.allocate(sizeof(cf::HistogramSummary));
    uint8_t *workspace = memory.allocate(workspace_bytes);
    if (!counts || !summary || !workspace ||
        !check(cudaMemset(workspace, 0, workspace_bytes), "cudaMemset"))
      return 1;
    for (const char *data : {"random", "constant"}) {
      if (std::string(data) == "constant")
        for (uint8_t *frame : inputs)
          if (!check(cudaMemset(frame, 0x5a, frame_bytes), "cudaMemset"))
            return 1;
      for (const int bins : bin_counts) {
        cf::HistogramParams params;
        params.bins = bins;
        params.upper = cf::max_sample_value(depth);
        if (!timer.run("histogram " + std::to_string(bins) + " bins, " + data,
                       [&](const cf::Plane &src, const cf::Plane &) {
                         return cf::histogram_cuda(
                             src, depth, params, reinterpret_cast<uint32_t *>(counts),
                             reinterpret_cast<cf::HistogramSummary *>(summary), workspace,
                             nullptr);
                       }))
          return 1;
      }
    }
  }
  return 0;
}
