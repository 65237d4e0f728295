// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#pragma once

#include "cfinplace.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_REDACT (gst_cuda_redact_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaRedact, gst_cuda_redact, GST, CUDA_REDACT,
    CfInPlace)

typedef enum
{
  GST_CUDA_REDACT_METHOD_PIXELATE,
  GST_CUDA_REDACT_METHOD_FILL,
  GST_CUDA_REDACT_METHOD_BLUR,
} GstCudaRedactMethod;

typedef enum
{
  GST_CUDA_REDACT_SHAPE_BOX,
  GST_CUDA_REDACT_SHAPE_ELLIPSE,
} GstCudaRedactShape;

typedef enum
{
  GST_CUDA_REDACT_WHOLE_FRAME_NEVER,
  GST_CUDA_REDACT_WHOLE_FRAME_UNANALYZED,
} GstCudaRedactWholeFrame;

GST_ELEMENT_REGISTER_DECLARE (cudaredact);

G_END_DECLS
