// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "device_delay.h"

#include <cstdint>

namespace {

__device__ uint64_t global_nanoseconds() {
  uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void delay_kernel(uint64_t nanoseconds) {
  const uint64_t end = global_nanoseconds() + nanoseconds;
  while (global_nanoseconds() < end) {
  }
}

}  // namespace

cudaError_t queue_device_delay(cudaStream_t stream, unsigned microseconds) {
  delay_kernel<<<1, 1, 0, stream>>>(uint64_t(microseconds) * 1000);
  return cudaGetLastError();
}
