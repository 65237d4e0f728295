// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#pragma once

#include "cffilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_MEDIAN (gst_cuda_median_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaMedian, gst_cuda_median, GST, CUDA_MEDIAN,
    CfFilter)

GST_ELEMENT_REGISTER_DECLARE (cudamedian);

G_END_DECLS
