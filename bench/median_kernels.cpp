// Kernel-level timing of the CUDA median on device-resident frames: CUDA events
// around each launch, warm-up first, median of many runs, rotating over enough
// frames that the L2 cache does not hold them.
//   median-kernels [WIDTH HEIGHT [RUNS]]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

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

}  // namespace

int main(int argc, char **argv) {
  const int width = argc > 2 ? std::atoi(argv[1]) : 3840;
  const int height = argc > 2 ? std::atoi(argv[2]) : 2160;
  const int runs = argc > 3 ? std::atoi(argv[3]) : 100;
  cudaDeviceProp props{};
  if (!check(cudaGetDeviceProperties(&props, 0), "cudaGetDeviceProperties"))
    return 1;
  std::printf("device: %s, %dx%d, median of %d runs\n", props.name, width, height, runs);
  std::printf("%-6s %-6s %10s %10s\n", "depth", "window", "us", "GPix/s");

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
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    for (const int window : {3, 5, 7, 9, 15, 31}) {
      cf::MedianParams params;
      params.window = window;
      std::vector<float> times;
      for (int run = -10; run < runs; run++) {  // the first 10 warm up
        cf::Plane src{inputs.frames[(run + 10) % count], width, height,
                      static_cast<ptrdiff_t>(width) * bytes, bytes};
        cf::Plane dst{outputs.frames[(run + 10) % count], width, height,
                      static_cast<ptrdiff_t>(width) * bytes, bytes};
        check(cudaEventRecord(start), "cudaEventRecord");
        if (!check(cf::median_cuda(src, dst, depth, params, nullptr), "median_cuda"))
          return 1;
        check(cudaEventRecord(stop), "cudaEventRecord");
        if (!check(cudaEventSynchronize(stop), "median_cuda run"))
          return 1;
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (run >= 0)
          times.push_back(ms * 1000);
      }
      std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
      const float us = times[times.size() / 2];
      std::printf("%-6s %-6d %10.1f %10.1f\n", bytes == 1 ? "8" : "16", window, us,
                  width * double(height) / us / 1e3);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  return 0;
}
