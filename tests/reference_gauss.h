// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The plain, obviously-correct Gaussian blur and unsharp mask every backend is checked
// against, and that is itself checked against OpenCV.
#pragma once

#include "gauss.h"

namespace cftest {

// Same contract as cf::gauss_cpu for valid params: gauss.h's formula evaluated as it
// is written on the samples' values, one 2-D window sum per pixel, single-threaded.
void reference_gauss(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                     const cf::GaussParams &params);

}  // namespace cftest
