// Geometry of one colour component as the kernels see it. Kernels never see video
// formats: the plugin maps every format to one Plane per component it filters.
#pragma once

#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define CF_HOST_DEVICE __host__ __device__
#else
#define CF_HOST_DEVICE
#endif

namespace cf {

struct Plane {
  uint8_t *data = nullptr;   // first sample (row 0, column 0)
  int width = 0;
  int height = 0;
  ptrdiff_t row_pitch = 0;   // bytes from one row to the next
  int pixel_stride = 1;      // bytes from one sample to its right neighbour
};

// U16 samples are native-endian (GRAY16_LE on little-endian hosts and GPUs).
enum class SampleDepth { U8, U16 };

CF_HOST_DEVICE constexpr int bytes_per_sample(SampleDepth depth) {
  return depth == SampleDepth::U8 ? 1 : 2;
}

CF_HOST_DEVICE constexpr uint32_t max_sample_value(SampleDepth depth) {
  return depth == SampleDepth::U8 ? 0xffu : 0xffffu;
}

enum class BorderMode { Replicate, Reflect101, Constant };

struct Border {
  BorderMode mode = BorderMode::Replicate;
  uint16_t constant = 0;  // sample value outside the image with BorderMode::Constant
};

// Whether a backend can read the plane: non-empty, rows that do not overlap, samples
// at least sample-sized apart.
bool is_valid_plane(const Plane &plane, SampleDepth depth);

// Whether a backend can filter src into dst: both valid and of one size.
bool is_valid_plane_pair(const Plane &src, const Plane &dst, SampleDepth depth);

// Whether every sample of the plane(s) is aligned to its size, as the CUDA kernels
// need (they read and write samples whole); the CPU backends take any alignment.
bool are_samples_aligned(const Plane &plane, SampleDepth depth);
bool are_samples_aligned(const Plane &src, const Plane &dst, SampleDepth depth);

// Index of the sample that stands for position i of a row or column of n samples,
// or -1 where the border constant stands there. Reflect-101 mirrors about the edge
// samples (-1 -> 1) and keeps mirroring for windows larger than the image, as
// OpenCV's BORDER_REFLECT_101 does.
CF_HOST_DEVICE inline int border_index(int i, int n, BorderMode mode) {
  if (i >= 0 && i < n)
    return i;
  switch (mode) {
  case BorderMode::Replicate:
    return i < 0 ? 0 : n - 1;
  case BorderMode::Constant:
    return -1;
  case BorderMode::Reflect101:
  default: {
    if (n == 1)
      return 0;
    const int period = 2 * (n - 1);
    i %= period;
    if (i < 0)
      i += period;
    return i < n ? i : period - i;
  }
  }
}

}  // namespace cf
