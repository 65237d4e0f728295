#include "plane.h"

namespace cf {
namespace {

bool is_valid_plane(const Plane &plane, int sample_bytes) {
  if (plane.data == nullptr || plane.width <= 0 || plane.height <= 0 ||
      plane.pixel_stride < sample_bytes)
    return false;
  return plane.height == 1 ||
         plane.row_pitch >= ptrdiff_t(plane.width - 1) * plane.pixel_stride + sample_bytes;
}

bool is_aligned(const Plane &plane, int sample_bytes) {
  const uintptr_t alignment_bits = reinterpret_cast<uintptr_t>(plane.data) |
                                   uintptr_t(plane.pixel_stride) | uintptr_t(plane.row_pitch);
  return alignment_bits % sample_bytes == 0;
}

}  // namespace

bool is_valid_plane_pair(const Plane &src, const Plane &dst, SampleDepth depth) {
  const int sample_bytes = bytes_per_sample(depth);
  return is_valid_plane(src, sample_bytes) && is_valid_plane(dst, sample_bytes) &&
         src.width == dst.width && src.height == dst.height;
}

bool are_samples_aligned(const Plane &src, const Plane &dst, SampleDepth depth) {
  const int sample_bytes = bytes_per_sample(depth);
  return is_aligned(src, sample_bytes) && is_aligned(dst, sample_bytes);
}

}  // namespace cf
