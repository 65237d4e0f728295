#include "plane.h"

namespace cf {

bool is_valid_plane(const Plane &plane, SampleDepth depth) {
  const int sample_bytes = bytes_per_sample(depth);
  if (plane.data == nullptr || plane.width <= 0 || plane.height <= 0 ||
      plane.pixel_stride < sample_bytes)
    return false;
  return plane.height == 1 ||
         plane.row_pitch >= ptrdiff_t(plane.width - 1) * plane.pixel_stride + sample_bytes;
}

bool is_valid_plane_pair(const Plane &src, const Plane &dst, SampleDepth depth) {
  return is_valid_plane(src, depth) && is_valid_plane(dst, depth) && src.width == dst.width &&
         src.height == dst.height;
}

bool are_samples_aligned(const Plane &plane, SampleDepth depth) {
  const uintptr_t alignment_bits = reinterpret_cast<uintptr_t>(plane.data) |
                                   uintptr_t(plane.pixel_stride) | uintptr_t(plane.row_pitch);
  return alignment_bits % bytes_per_sample(depth) == 0;
}

bool are_samples_aligned(const Plane &src, const Plane &dst, SampleDepth depth) {
  return are_samples_aligned(src, depth) && are_samples_aligned(dst, depth);
}

}  // namespace cf
