// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The plain, obviously-correct histogram every backend is checked against, and that is
// itself checked against OpenCV.
#pragma once

#include <cstdint>
#include <vector>

#include "histogram.h"

namespace cftest {

// What one histogram call writes.
struct HistogramResult {
  std::vector<uint32_t> bins;
  cf::HistogramSummary summary;
};

// histogram.h's definitions for valid params, evaluated as written: one loop over the
// region's values, 64-bit arithmetic, single-threaded. bins has params.bins entries.
HistogramResult reference_histogram(const cf::Plane &src, cf::SampleFormat format,
                                    const cf::HistogramParams &params);

}  // namespace cftest
