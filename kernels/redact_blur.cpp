// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "redact_blur.h"

#include <algorithm>
#include <map>
#include <utility>

namespace cf {

bool is_valid_redact_sigma(double sigma) {
  return sigma >= kGaussMinSigma && sigma <= kGaussMaxSigma;
}

std::vector<RedactBlurPass> redact_blur_passes(const RedactParams &params,
                                               const RedactView &view, SampleFormat format) {
  const Border border{BorderMode::Reflect101, 0};
  std::vector<RedactBlurPass> passes;
  if (params.invert) {
    passes.push_back({make_gauss_params(view.invert_sigma_x, view.invert_sigma_y, 0, 0, format,
                                        border),
                      {}});
    return passes;
  }
  // Ordered by (sigma_x, sigma_y): the greatest pass comes last.
  std::map<std::pair<double, double>, std::vector<Box>> areas_by_sigma;
  const std::vector<Box> areas = redact_areas(params, view);
  for (int s = 0; s < view.count; ++s)
    areas_by_sigma[{view.shapes[s].sigma_x, view.shapes[s].sigma_y}].push_back(areas[s]);
  for (auto &[sigma, boxes] : areas_by_sigma) {
    passes.push_back(
        {make_gauss_params(sigma.first, sigma.second, 0, 0, format, border), std::move(boxes)});
  }
  // Regions point into their own pass's areas, which no longer move.
  for (RedactBlurPass &pass : passes)
    pass.params.region = OutputRegion::inside(pass.areas);
  return passes;
}

Plane redact_blur_plane(const RedactView &view, SampleFormat format, uint8_t *data) {
  Plane plane = view.plane;
  plane.data = data;
  plane.row_pitch = ptrdiff_t(row_span_bytes(view.plane, format));
  return plane;
}

}  // namespace cf
