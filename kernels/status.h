// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The kernels' status and stream types. Both backends report faults as cudaError_t,
// so that a caller handles a kernel's failure one way on either. Built without CUDA
// (-Dcuda=disabled: no toolkit, CF_HAVE_CUDA undefined), the CPU backend keeps those
// names for the only values a build without CUDA returns, with CUDA's numbers, names
// and texts, and a stream type no call takes.
#pragma once

#ifdef CF_HAVE_CUDA
#include <cuda_runtime_api.h>
#else
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNoDevice = 100,  // asked for a device: there is none without CUDA
};
using cudaStream_t = struct CUstream_st *;

inline const char *cudaGetErrorName(cudaError_t err) {
  switch (err) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
  }
  return "cudaErrorUnknown";
}

inline const char *cudaGetErrorString(cudaError_t err) {
  switch (err) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  }
  return "unknown error";
}
#endif
