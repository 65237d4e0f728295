// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// call-cost: the host time of each CUDA call a frame in CUDA memory needs (a kernel
// launch, a device-to-device copy of a 1080p chroma plane, an event record, a wait for
// work already done, a context push and pop), in the device's primary context and in a
// GstCudaContext pushed the way the elements push theirs. It is the floor under the
// host overhead column of stream-bench --memory cuda: an element makes at least a
// launch, a record and a wait per frame.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>

#include "bench_cuda.h"
#include "device_delay.h"

namespace {

constexpr int kBatches = 40;
constexpr int kCallsPerBatch = 500;  // few enough to stay within the launch queue

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Costs {
  double launch, copy, record, wait;
};

// Microseconds of host time per call, each call timed in batches with the device
// drained between them (untimed), so that no call waits for a full queue.
template <typename Call>
double per_call(cudaStream_t stream, Call &&call) {
  double total = 0;
  for (int b = 0; b < kBatches; b++) {
    const double start = now_us();
    for (int i = 0; i < kCallsPerBatch; i++)
      call();
    total += now_us() - start;
    cudaStreamSynchronize(stream);
  }
  return total / (kBatches * kCallsPerBatch);
}

bool measure(Costs *costs) {
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  void *src = nullptr, *dst = nullptr;
  size_t src_pitch = 0, dst_pitch = 0;
  constexpr int kRowBytes = 1920, kRows = 540;  // 1080p NV12's chroma plane
  bool ok = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess &&
            cudaEventCreateWithFlags(&done, cudaEventDisableTiming) == cudaSuccess &&
            cudaMallocPitch(&src, &src_pitch, kRowBytes, kRows) == cudaSuccess &&
            cudaMallocPitch(&dst, &dst_pitch, kRowBytes, kRows) == cudaSuccess &&
            cudaMemset2D(src, src_pitch, 0, kRowBytes, kRows) == cudaSuccess;
  cudaError_t err = cudaSuccess;
  auto keep = [&](cudaError_t e) {
    if (err == cudaSuccess)
      err = e;
  };
  // Twice: the first pass loads the module and warms the driver's paths.
  for (int pass = 0; ok && pass < 2; pass++) {
    costs->launch = per_call(stream, [&] { keep(queue_device_delay(stream, 0)); });
    costs->copy = per_call(stream, [&] {
      keep(cudaMemcpy2DAsync(dst, dst_pitch, src, src_pitch, kRowBytes, kRows,
                             cudaMemcpyDeviceToDevice, stream));
    });
    costs->record = per_call(stream, [&] { keep(cudaEventRecord(done, stream)); });
    costs->wait = per_call(stream, [&] { keep(cudaEventSynchronize(done)); });
  }
  ok = ok && err == cudaSuccess;
  if (!ok)
    std::fprintf(stderr, "call-cost: %s\n",
                 cudaGetErrorString(err != cudaSuccess ? err : cudaGetLastError()));
  cudaFree(src);
  cudaFree(dst);
  if (done)
    cudaEventDestroy(done);
  if (stream)
    cudaStreamDestroy(stream);
  return ok;
}

void print(const char *where, const Costs &c) {
  std::printf("%-32s %8.2f %10.2f %8.2f %8.2f\n", where, c.launch, c.copy, c.record, c.wait);
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  gchar *device = nullptr, *why = nullptr;
  GstCudaContext *context = bench_cuda_context_new(0, &device, &why);
  if (!context) {
    std::fprintf(stderr, "call-cost needs a usable CUDA device: %s\n", why);
    g_free(why);
    return 1;
  }
  std::printf("Host time per CUDA call, microseconds (%s; %d calls each)\n", device,
              kBatches * kCallsPerBatch);
  std::printf("%-32s %8s %10s %8s %8s\n", "context", "launch", "2D copy", "record", "wait");
  Costs primary{}, shared{};
  bool ok = cudaSetDevice(0) == cudaSuccess && measure(&primary);
  if (ok)
    print("primary context", primary);
  if (ok && gst_cuda_context_push(context)) {
    ok = measure(&shared);
    gst_cuda_context_pop(nullptr);
    if (ok)
      print("GstCudaContext, pushed", shared);
  } else {
    ok = false;
  }
  const int push_pops = kBatches * kCallsPerBatch;
  const double start = now_us();
  for (int i = 0; ok && i < push_pops; i++)
    ok = gst_cuda_context_push(context) && gst_cuda_context_pop(nullptr);
  if (ok)
    std::printf("context push + pop: %.2f us\n", (now_us() - start) / push_pops);
  gst_object_unref(context);
  g_free(device);
  return ok ? 0 : 1;
}
