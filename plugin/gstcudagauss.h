// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#pragma once

#include "cffilter.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_GAUSS (gst_cuda_gauss_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaGauss, gst_cuda_gauss, GST, CUDA_GAUSS, CfFilter)

typedef enum
{
  GST_CUDA_GAUSS_MODE_BLUR,
  GST_CUDA_GAUSS_MODE_UNSHARP,
} GstCudaGaussMode;

GST_ELEMENT_REGISTER_DECLARE (cudagauss);

G_END_DECLS
