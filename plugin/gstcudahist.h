// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#pragma once

#include "cfanalyzer.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_HIST (gst_cuda_hist_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaHist, gst_cuda_hist, GST, CUDA_HIST,
    CfAnalyzer)

/* The name of the custom meta (gst_meta_register_custom) cudahist attaches to
 * every buffer; its structure holds the fields of the element message, without
 * the times. Read it with gst_buffer_get_custom_meta (buffer,
 * GST_CUDA_HIST_META_NAME) and gst_custom_meta_get_structure (). */
#define GST_CUDA_HIST_META_NAME "GstCudaHistMeta"

GST_ELEMENT_REGISTER_DECLARE (cudahist);

G_END_DECLS
