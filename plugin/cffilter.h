// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfFilter: the filter role (frame in, new frame out), a private base
 * class of cudamedian and cudagauss. A subclass says which kernels run from a
 * frame's views into the new frame's (filter_frame); this class copies through
 * what no kernel writes (alpha, unprocessed chroma), and installs the
 * properties every filter has, the border's default the subclass's. */
#pragma once

#include <vector>

#include "cfbasefilter.h"

G_BEGIN_DECLS

#define CF_TYPE_FILTER (cf_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (CfFilter, cf_filter, CF, FILTER,
    CfBaseFilter)

G_END_DECLS

struct _CfFilterClass
{
  CfBaseFilterClass parent_class;

  /* Runs the kernels from each view's src to its dst: on the CPU at once, or
   * queued on exec.stream. Returns the first error (a CUDA error, or
   * cudaErrorInvalidValue where a kernel refused its input, on either
   * backend). */
  cudaError_t (*filter_frame) (CfFilter * filter,
      const std::vector<ComponentView> & views, const cf::Executor & exec);
};

/* Installs a filter's properties on an element's class: regions (default
 * `default_regions`), region-types, region-padding, include-chroma (on by
 * default), border (default `default_border`) and border-value. */
void cf_filter_class_install_properties (GObjectClass * klass,
    CfRegions default_regions, CfBorder default_border);

/* Whether `size`, a value for the window-size property `pspec`, is odd, as every
 * window of the kernels is. A GParamSpecInt's range cannot say "odd": an even
 * size is refused here the way GObject refuses one outside the range, with a
 * warning naming the element, and the caller leaves the property as it was. */
gboolean cf_filter_accept_window_size (GObject * object,
    GParamSpec * pspec, gint size);

/* The border those two properties say, for samples of `format`. */
cf::Border cf_filter_border (CfFilter * filter,
    cf::SampleFormat format);
