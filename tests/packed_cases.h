// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Packed planes (plane.h: pixels of several channels, some not computed) against the
// references applied channel by channel, for every backend: 2, 3 and 4 channels of
// 8- and 16-bit samples (P010 too), every mask the elements use and more, 1-pixel and
// odd sizes around the vector widths, odd row pitches, misaligned samples, every
// border. Channels not computed must come out as they went in, padding bits and all;
// no byte outside the samples may change.
#pragma once

#include <functional>
#include <vector>

#include "gauss_cases.h"
#include "histogram_cases.h"
#include "median_cases.h"

namespace cftest {

void check_packed_median(const MedianFilter &filter);
void check_packed_gauss(const GaussFilter &filter);

// Counts src's computed channels into results[k] (k-th computed channel), which hold
// as many bins as params asks for; fails the running test if the call fails.
using PackedHistogramCounter =
    std::function<void(const cf::Plane &src, cf::SampleFormat format,
                       const cf::HistogramParams &params, std::vector<HistogramResult> &results)>;
void check_packed_histogram(const PackedHistogramCounter &count);

}  // namespace cftest
