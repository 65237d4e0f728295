// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The plain, obviously-correct median filter every backend is checked against, and
// that is itself checked against OpenCV.
#pragma once

#include "median.h"

namespace cftest {

// Same contract as cf::median_cpu, one sort of the window's values per pixel,
// single-threaded.
void reference_median(const cf::Plane &src, const cf::Plane &dst, cf::SampleFormat format,
                      const cf::MedianParams &params);

}  // namespace cftest
