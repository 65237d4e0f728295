// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Filters restricted to output regions (regions.h), for every backend: a filter run
// with boxes must write, inside their union, exactly what the same filter writes on the
// whole plane, every computed channel; and leave every other sample of dst as it was:
// outside the boxes, and the channels not computed everywhere (both backends leave them
// untouched), and the samples of no channel between strided pixels, and every filler
// byte. src stays untouched.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gauss_cases.h"
#include "median_cases.h"
#include "plane.h"
#include "regions.h"

namespace cftest {

struct BoxSet {
  std::string name;
  std::vector<cf::Box> boxes;
};

// Box sets for a width x height plane, each box within it: none; one; several
// overlapping; boxes on each edge and corner; 1x1 boxes; the plane itself; 100 boxes
// (more than one launch's table of 64 holds); thin rows and columns. On tiny planes some
// sets repeat others.
std::vector<BoxSet> region_box_sets(int width, int height);

// The pixels of an image case: `channels` channels, those of channel_mask computed,
// pixels src_stride (dst_stride) samples apart (>= channels: the samples between are
// of no channel), rows padded by src_padding (dst_padding) samples, the first sample
// `misalignment` bytes past an aligned address (both planes).
struct RegionLayout {
  int channels = 1;
  unsigned channel_mask = 1;
  int src_stride = 1;
  int dst_stride = 1;
  int src_padding = 0;
  int dst_padding = 0;
  int misalignment = 0;
};

struct RegionImage {
  int width;
  int height;
  cf::SampleFormat format;
  RegionLayout layout;
};

// Filters src into dst (host memory) with the call's other parameters fixed, writing
// only `region`; fails the running test where the backend refuses the call.
using RegionFilter = std::function<void(const cf::Plane &src, const cf::Plane &dst,
                                        cf::SampleFormat format,
                                        const cf::OutputRegion &region)>;
struct NamedRegionFilter {
  std::string name;  // its parameters, for failure messages
  RegionFilter filter;
};

// For every image and filter: filters random src (padding bits random too) on the whole
// plane, then, for every set of region_box_sets, with the set's boxes into a dst filled
// with other random samples, and checks the result as the comment at the top says.
// Prints each failing case (image, filter, box set, where) and fails the running
// gst-check test if any failed.
void check_regions(const char *filter_name, const std::vector<RegionImage> &images,
                   const std::vector<NamedRegionFilter> &filters);

#ifdef CF_HAVE_CUDA
// Calls `filter` (a CUDA filter of 4x4 GRAY8 device planes, queued on the default
// stream) with each kind of region that is not valid (regions.h): boxes past the right
// or bottom edge, empty, at a negative position, of a huge width, a negative count,
// boxes missing. Each must be refused (cudaErrorInvalidValue) with nothing queued: dst
// keeps its bytes.
using DeviceRegionFilter = std::function<cudaError_t(const cf::Plane &src, const cf::Plane &dst,
                                                     const cf::OutputRegion &region)>;
void check_invalid_regions_cuda(const char *filter_name, const DeviceRegionFilter &filter);
#endif

// Images for check_regions: the sizes given x packed and strided one-channel planes,
// src and dst laid out differently, packed pixels of several channels with and without
// channels not computed, for 8-bit, 16-bit and P010 samples.
std::vector<RegionImage> region_images(const std::vector<std::pair<int, int>> &sizes);

// Gauss parameters that take each CUDA kernel: radii up to 7 with symmetric vertical
// taps (the group kernel, where the layout suits it), 19, 49 and 121 x 81 taps (the
// region tile kernel; 121 x 81 of 16-bit samples: the strip kernel, narrow tiles);
// blur and unsharp masking, every border mode, a constant beyond the range. `filter`
// gets each with the region.
std::vector<NamedRegionFilter> gauss_region_filters(const GaussFilter &filter);

// Median windows (3: the chunk kernel where rows hold whole aligned chunks, else the
// network; 5 and 7: the networks, packed pixels whole; 9: the pair network channel by
// channel; 15 and up: the moving histogram of 8-bit samples, the sorted-rows network
// (15) or bisection (17 and up) of 16-bit ones), each with a border mode in turn.
std::vector<NamedRegionFilter> median_region_filters(const MedianFilter &filter,
                                                     const std::vector<int> &windows);

}  // namespace cftest
