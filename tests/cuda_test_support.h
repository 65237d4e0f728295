// What the GPU suites share: the device check that decides whether they run, and a
// skip that names every test it did not run.
#pragma once

#include <gst/check/gstcheck.h>

#include <cuda_runtime_api.h>

#include <cstdio>
#include <initializer_list>

namespace cftest {

// cudaSuccess when device 0 can run kernels.
inline cudaError_t probe_cuda_device() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaSuccess && count == 0)
    err = cudaErrorNoDevice;
  if (err == cudaSuccess)
    err = cudaFree(nullptr);
  return err;
}

struct GpuTest {
  const char *name;
  TFun function;
};
#define CF_GPU_TEST(function) cftest::GpuTest{#function, function}

// Runs the tests as a Check suite on a usable device; without one prints each test
// as skipped and returns 77, meson's exit status for a skipped test.
inline int run_gpu_suite(const char *suite_name, std::initializer_list<GpuTest> tests,
                         int argc, char **argv) {
  gst_check_init(&argc, &argv);
  const cudaError_t err = probe_cuda_device();
  if (err != cudaSuccess) {
    for (const GpuTest &test : tests)
      std::printf("SKIP %s.%s: no usable CUDA device (%s)\n", suite_name, test.name,
                  cudaGetErrorString(err));
    return 77;
  }
  // CUDA cannot be used in a child forked after the probe initialised it.
  g_setenv("CK_FORK", "no", TRUE);
  Suite *suite = suite_create(suite_name);
  TCase *tc = tcase_create("cuda");
  tcase_set_timeout(tc, 600);
  suite_add_tcase(suite, tc);
  for (const GpuTest &test : tests)
    _tcase_add_test(tc, test.function, test.name, 0, 0, 0, 1);
  return gst_check_run_suite(suite, suite_name, __FILE__);
}

}  // namespace cftest
