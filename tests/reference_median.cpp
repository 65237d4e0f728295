#include "reference_median.h"

#include <algorithm>
#include <vector>

#include "plane_access.h"

namespace cftest {

void reference_median(const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth,
                      const cf::MedianParams &params) {
  const int radius = params.window / 2;
  const uint32_t constant =
      std::min<uint32_t>(params.border.constant, cf::max_sample_value(depth));
  std::vector<uint32_t> window;
  for (int y = 0; y < src.height; ++y) {
    for (int x = 0; x < src.width; ++x) {
      window.clear();
      for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
          const int row = cf::border_index(y + dy, src.height, params.border.mode);
          const int column = cf::border_index(x + dx, src.width, params.border.mode);
          window.push_back(row < 0 || column < 0 ? constant
                                                 : read_sample(src, depth, column, row));
        }
      }
      std::sort(window.begin(), window.end());
      write_sample(dst, depth, x, y, window[(window.size() - 1) / 2]);
    }
  }
}

}  // namespace cftest
