// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// RedactMethod::Blur's redacted values (redact.h), the part both backends share: the
// Gaussian passes that blur a view into a plane of its own, from which the blend then
// takes R. One pass per distinct pair of sigmas, in ascending order, each writing the
// areas of its shapes: where the areas of several meet, the last pass, of the greatest
// sigmas, is what stays.
#pragma once

#include <vector>

#include "gauss.h"
#include "plane.h"
#include "redact.h"

namespace cf {

struct RedactBlurPass {
  GaussParams params;       // its region points into `areas`
  std::vector<Box> areas;
};

// Whether sigma is one the blur takes.
bool is_valid_redact_sigma(double sigma);

// The passes of `view` (a valid call's, method Blur): one over the whole view with
// invert, else one per distinct (sigma_x, sigma_y) of its shapes.
std::vector<RedactBlurPass> redact_blur_passes(const RedactParams &params,
                                               const RedactView &view, SampleFormat format);

// A plane to blur `view` into, at `data`: the view's geometry and channels, rows packed
// (the view's row span apart).
Plane redact_blur_plane(const RedactView &view, SampleFormat format, uint8_t *data);

}  // namespace cf
