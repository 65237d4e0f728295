// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The redaction benchmarks' faces (kernel-times, cpu-bench): 16 boxes of face_w x
// face_h in a 4x4 grid over a width x height plane, apart as a detector gives them,
// with what cudaredact's defaults make of such a box (6 blocks across its longer side,
// rounded up to 2 for 4:2:0 chroma; blur sigma 0.15 times its shorter side, rounded up
// to the next of 8 steps per octave).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "redact.h"

namespace cfbench {

inline std::vector<cf::RedactShape> grid_faces(int width, int height, int face_w, int face_h) {
  const int block = ((std::max(face_w, face_h) + 5) / 6 + 1) / 2 * 2;
  const double sigma = std::exp2(std::ceil(std::log2(0.15 * std::min(face_w, face_h)) * 8) / 8);
  const int w = std::min(face_w, width), h = std::min(face_h, height);
  std::vector<cf::RedactShape> faces;
  for (int j = 0; j < 4; j++)
    for (int i = 0; i < 4; i++) {
      const int x = std::clamp((2 * i + 1) * width / 8 - w / 2, 0, width - w);
      const int y = std::clamp((2 * j + 1) * height / 8 - h / 2, 0, height - h);
      faces.push_back({{x, y, w, h}, block, block, sigma, sigma});
    }
  return faces;
}

}  // namespace cfbench
