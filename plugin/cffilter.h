// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfFilter: the filter role (frame in, new frame out), a private base
 * class of cudamedian and cudagauss. A subclass says which kernels run from a
 * frame's views into the new frame's (filter_frame); this class copies through
 * what no kernel writes (alpha, unprocessed chroma), and keeps the border
 * properties each subclass installs with its own default. */
#pragma once

#include <vector>

#include "cfbasefilter.h"

G_BEGIN_DECLS

#define CF_TYPE_FILTER (cf_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (CfFilter, cf_filter, CF, FILTER,
    CfBaseFilter)

typedef enum
{
  GST_CUDA_FILTER_BORDER_REPLICATE,
  GST_CUDA_FILTER_BORDER_REFLECT_101,
  GST_CUDA_FILTER_BORDER_CONSTANT,
} GstCudaFilterBorder;

#define GST_TYPE_CUDA_FILTER_BORDER (gst_cuda_filter_border_get_type ())
GType gst_cuda_filter_border_get_type (void);

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

/* Installs `border` (default `default_border`) and `border-value` on a
 * subclass. This class keeps their values: the subclass's set_property and
 * get_property hand property ids they do not know to the two functions below,
 * which answer FALSE for any but these two. */
void cf_filter_class_install_border_properties (GObjectClass * klass,
    guint border_prop_id, guint border_value_prop_id,
    GstCudaFilterBorder default_border);
gboolean cf_filter_set_border_property (GObject * object,
    const GValue * value, GParamSpec * pspec);
gboolean cf_filter_get_border_property (GObject * object,
    GValue * value, GParamSpec * pspec);

/* Whether `size`, a value for the window-size property `pspec`, is odd, as every
 * window of the kernels is. A GParamSpecInt's range cannot say "odd": an even
 * size is refused here the way GObject refuses one outside the range, with a
 * warning naming the element, and the caller leaves the property as it was. */
gboolean cf_filter_accept_window_size (GObject * object,
    GParamSpec * pspec, gint size);

/* The border those two properties say, for samples of `format`. */
cf::Border cf_filter_border (CfFilter * filter,
    cf::SampleFormat format);
