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
#include "median.h"

namespace {

bool check(cudaError_t err, const char *what) {
  if (err != cudaSuccess)
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  return err == cudaSuccess;
}

struct DeviceFrames {
  std::vector<uint8_t *> frames;
  ~DeviceFrames() {
    for (uint8_t *frame : frames)
      cudaFree(frame);
  }
};

using Launch = std::function<cudaError_t(const cf::Plane &src, const cf::Plane &dst)>;

struct Case {
  std::string name;
  Launch launch;
};

}  // namespace

int main(int argc, char **argv) {
  const int width = argc > 2 ? std::atoi(argv[1]) : 3840;
  const int height = argc > 2 ? std::atoi(argv[2]) : 2160;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 100;
  cudaDeviceProp props{};
  if (!check(cudaGetDeviceProperties(&props, 0), "cudaGetDeviceProperties"))
    return 1;
  std::printf("device: %s, %dx%d, median of %d runs, random data\n", props.name, width, height,
              runs);
  std::printf("%-6s %-28s %10s %10s\n", "depth", "kernel", "us", "GPix/s");

  for (const cf::SampleDepth depth : {cf::SampleDepth::U8, cf::SampleDepth::U16}) {
    const int bytes = cf::bytes_per_sample(depth);
    const size_t frame_bytes = static_cast<size_t>(width) * height * bytes;
    // At least 4x the L2 cache in inputs, so every run reads from device memory.
    const int count = std::max<int>(4, 4 * props.l2CacheSize / frame_bytes + 1);
    DeviceFrames inputs, outputs;
    std::vector<uint8_t> host(frame_bytes);
    std::mt19937 random(1);
    for (int i = 0; i < count; i++) {
      for (auto &byte : host)
        byte = static_cast<uint8_t>(random());
      uint8_t *in = nullptr, *out = nullptr;
      if (!check(cudaMalloc(reinterpret_cast<void **>(&in), frame_bytes), "cudaMalloc") ||
          !check(cudaMalloc(reinterpret_cast<void **>(&out), frame_bytes), "cudaMalloc"))
        return 1;
      inputs.frames.push_back(in);
      outputs.frames.push_back(out);
      if (!check(cudaMemcpy(in, host.data(), frame_bytes, cudaMemcpyHostToDevice), "upload"))
        return 1;
    }

    std::vector<Case> cases;
    for (const int window : {3, 5, 7, 9, 15, 31}) {
      cf::MedianParams params;
      params.window = window;
      cases.push_back({"median " + std::to_string(window) + "x" + std::to_string(window),
                       [=](const cf::Plane &src, const cf::Plane &dst) {
                         return cf::median_cuda(src, dst, depth, params, nullptr);
                       }});
    }
    const struct {
      double sigma;
      int kernel_size;
    } blurs[] = {{1, 5}, {1, 0}, {2, 9}, {2, 0}, {4.6, 15}, {10, 0}};
    for (const auto &blur : blurs) {
      const cf::GaussParams params = cf::make_gauss_params(
          blur.sigma, 0, blur.kernel_size, blur.kernel_size, depth, {});
      char name[64];
      std::snprintf(name, sizeof name, "gauss sigma %g, %zu taps", blur.sigma,
                    params.taps_x.size());
      cases.push_back({name, [=](const cf::Plane &src, const cf::Plane &dst) {
                         return cf::gauss_cuda(src, dst, depth, params, nullptr);
                       }});
    }

    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    for (const Case &c : cases) {
      std::vector<float> times;
      for (int run = -10; run < runs; run++) {  // the first 10 warm up
        const int frame = (run + 10) % count;
        const cf::Plane src{inputs.frames[frame], width, height,
                            static_cast<ptrdiff_t>(width) * bytes, bytes};
        const cf::Plane dst{outputs.frames[frame], width, height,
                            static_cast<ptrdiff_t>(width) * bytes, bytes};
        check(cudaEventRecord(start), "cudaEventRecord");
        if (!check(c.launch(src, dst), c.name.c_str()))
          return 1;
        check(cudaEventRecord(stop), "cudaEventRecord");
        if (!check(cudaEventSynchronize(stop), c.name.c_str()))
          return 1;
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (run >= 0)
          times.push_back(ms * 1000);
      }
      std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
      const float us = times[times.size() / 2];
      std::printf("%-6s %-28s %10.1f %10.1f\n", bytes == 1 ? "8" : "16", c.name.c_str(), us,
                  width * double(height) / us / 1e3);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  return 0;
}
