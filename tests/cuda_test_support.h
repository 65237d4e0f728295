// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// What the GPU suites share: the device check that decides whether they run, a
// skip that names every test it did not run, and kernels run on device copies of
// host buffers and planes (built with CUDA only; without it no device is usable).
#pragma once

#include <gst/check/gstcheck.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "plane.h"
#include "status.h"
// The plugin's words for why no device is usable (inline there: nothing to link).
#include "../plugin/deviceproblem.h"

namespace cftest {

inline void fail_on_cuda_error(cudaError_t err, const std::string &what) {
  fail_unless(err == cudaSuccess, "%s: %s (%s)", what.c_str(), cudaGetErrorName(err),
              cudaGetErrorString(err));
}

#ifdef CF_HAVE_CUDA
// Bytes from a plane's first sample to the end of its last one.
inline size_t plane_span(const cf::Plane &plane, cf::SampleDepth depth) {
  return (plane.height - 1) * plane.row_pitch + cf::row_span_bytes(plane, depth);
}

// A host buffer that a kernel call reads or writes through a device copy.
struct HostBuffer {
  void *data;
  size_t bytes;
};

// The plane with its samples at `data` (a device copy laid out as the plane).
inline cf::Plane on_device(const cf::Plane &plane, uint8_t *data) {
  cf::Plane copy = plane;
  copy.data = data;
  return copy;
}

// Uploads every buffer to a device copy, calls launch(copies), which queues kernels on
// the default stream and returns the launch error, waits for them and downloads every
// copy back over its buffer: bytes a kernel must not write keep their values, and the
// caller sees any it wrote. Returns the launch error; other CUDA errors fail the
// running test, `kernel` naming the kernel.
template <typename Launch>
cudaError_t run_on_device_buffers(const std::vector<HostBuffer> &buffers,
                                  const std::string &kernel, Launch &&launch) {
  std::vector<uint8_t *> copies(buffers.size(), nullptr);
  for (size_t i = 0; i < buffers.size(); ++i) {
    fail_on_cuda_error(cudaMalloc(reinterpret_cast<void **>(&copies[i]), buffers[i].bytes),
                       "cudaMalloc");
    fail_on_cuda_error(
        cudaMemcpy(copies[i], buffers[i].data, buffers[i].bytes, cudaMemcpyHostToDevice),
        "upload");
  }
  const cudaError_t launched = launch(copies);
  fail_on_cuda_error(cudaDeviceSynchronize(), kernel + " run");
  for (size_t i = 0; i < buffers.size(); ++i) {
    fail_on_cuda_error(
        cudaMemcpy(buffers[i].data, copies[i], buffers[i].bytes, cudaMemcpyDeviceToHost),
        "download");
    fail_on_cuda_error(cudaFree(copies[i]), "cudaFree");
  }
  return launched;
}

// Calls launch(device_src, device_dst), which queues a kernel on the default stream and
// returns its launch error, on device copies with the host planes' layout (so that the
// matrices' checks of filler bytes between samples cover the kernels too), and copies
// both back. `kernel` names the kernel in failures.
template <typename Launch>
void run_on_device_copies(const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth,
                          const std::string &kernel, Launch &&launch) {
  const cudaError_t launched = run_on_device_buffers(
      {{src.data, plane_span(src, depth)}, {dst.data, plane_span(dst, depth)}}, kernel,
      [&](const std::vector<uint8_t *> &copies) {
        return launch(on_device(src, copies[0]), on_device(dst, copies[1]));
      });
  fail_on_cuda_error(launched, kernel + " launch");
}
#endif

// cudaSuccess when the host has `devices` CUDA devices or more and device 0 can run
// kernels.
inline cudaError_t probe_cuda_device(int devices = 1) {
#ifndef CF_HAVE_CUDA
  (void)devices;
  return cudaErrorNoDevice;
#else
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess && count < devices)
    err = cudaErrorNoDevice;
  if (err == cudaSuccess)
    err = cudaFree(nullptr);
  return err;
#endif
}

// Why no device is usable, given probe_cuda_device's error: the words of the plugin's
// own messages (plugin/deviceproblem.h), not the CUDA runtime's, which say "driver
// version is insufficient" where no driver is installed too.
inline std::string unusable_device_cause(cudaError_t err) {
#ifndef CF_HAVE_CUDA
  (void)err;
  return cf::kNoCudaBackend;
#else
  return cf::describe_device_problem(err, cf::installed_driver_version());
#endif
}

// What a GPU suite prints for each test it skips.
inline std::string skip_reason(int devices, cudaError_t err) {
  return "needs " + std::to_string(devices) + " usable CUDA device" + (devices > 1 ? "s" : "") +
      ": " + unusable_device_cause(err);
}

struct GpuTest {
  const char *name;
  TFun function;
};
#define CF_GPU_TEST(function) cftest::GpuTest{#function, function}

// Runs the tests as a Check suite on a host with `devices` usable devices; without
// them prints each test as skipped and returns 77, meson's exit status for a skipped
// test.
inline int run_gpu_suite(const char *suite_name, const std::vector<GpuTest> &tests,
                         int argc, char **argv, int devices = 1) {
  gst_check_init(&argc, &argv);
  const cudaError_t err = probe_cuda_device(devices);
  if (err != cudaSuccess) {
    const std::string reason = skip_reason(devices, err);
    for (const GpuTest &test : tests)
      std::printf("SKIP %s.%s: %s\n", suite_name, test.name, reason.c_str());
    return 77;
  }
  // CUDA cannot be used in a child forked after the probe initialised it.
  g_setenv("CK_FORK", "no", TRUE);
  Suite *suite = suite_create(suite_name);
  TCase *tc = tcase_create("cuda");
  tcase_set_timeout(tc, 600);
  suite_add_tcase(suite, tc);
  // GST_CHECKS picks tests by name, as gst-check's tcase_add_test does.
  for (const GpuTest &test : tests)
    if (_gst_check_run_test_func(test.name))
      _tcase_add_test(tc, test.function, test.name, 0, 0, 0, 1);
  return gst_check_run_suite(suite, suite_name, __FILE__);
}

}  // namespace cftest
