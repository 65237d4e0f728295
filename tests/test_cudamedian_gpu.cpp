// cudamedian through the CUDA backend: the element suite of test_cudamedian.cpp with
// backend=cuda, so pinned pools, frames in flight on streams and the kernels run for
// real. Skipped, by name, where no CUDA device is usable.
#include "cuda_test_support.h"
#include "element_checks.h"

GST_START_TEST(test_every_format) { cftest::check_every_format("cuda"); }
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_large_frames("cuda"); }
GST_END_TEST;

GST_START_TEST(test_include_chroma) { cftest::check_include_chroma("cuda"); }
GST_END_TEST;

GST_START_TEST(test_window_sizes) { cftest::check_window_sizes("cuda"); }
GST_END_TEST;

GST_START_TEST(test_padded_strides) { cftest::check_padded_strides("cuda"); }
GST_END_TEST;

GST_START_TEST(test_eos_drain) { cftest::check_eos_drain("cuda"); }
GST_END_TEST;

GST_START_TEST(test_flush) { cftest::check_flush("cuda"); }
GST_END_TEST;

GST_START_TEST(test_caps_change) { cftest::check_caps_change("cuda"); }
GST_END_TEST;

GST_START_TEST(test_state_cycles) { cftest::check_state_cycles("cuda"); }
GST_END_TEST;

GST_START_TEST(test_latency) { cftest::check_latency("cuda"); }
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_gpu_suite(
      "cudamedian_gpu",
      {
       CF_GPU_TEST(test_every_format),
       CF_GPU_TEST(test_large_frames),
       CF_GPU_TEST(test_include_chroma),
       CF_GPU_TEST(test_window_sizes),
       CF_GPU_TEST(test_padded_strides),
       CF_GPU_TEST(test_eos_drain),
       CF_GPU_TEST(test_flush),
       CF_GPU_TEST(test_caps_change),
       CF_GPU_TEST(test_state_cycles),
       CF_GPU_TEST(test_latency),
      },
      argc, argv);
}
