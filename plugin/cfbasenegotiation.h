// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfBaseFilter's part in negotiation (cfbasefilter.h): which caps it takes and
 * gives (memorycaps.h makes them), why it refuses caps in CUDA memory where
 * it does, the allocation it proposes upstream and decides downstream, and
 * what it adds to the queries GstBaseTransform answers. The base's class sets
 * these as its vfuncs. */
#pragma once

#include "cfbasefilter.h"

GstCaps *cf_base_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * filter);
GstCaps *cf_base_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps);
/* Whether frames of these caps can be set up: in CUDA memory only on the CUDA
 * backend. FALSE after posting an error that says why. */
bool cf_base_filter_memory_caps_usable (CfBaseFilter * self, GstCaps * incaps,
    GstCaps * outcaps);
/* Where the element takes no CUDA memory and downstream takes only that:
 * says why, once a start, as an error. */
void cf_base_filter_explain_cuda_only_downstream (CfBaseFilter * self);

gboolean cf_base_filter_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query);
gboolean cf_base_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query);

/* What a query GstBaseTransform answered needs of ours: an explanation of
 * refused CUDA caps, our latency. */
void cf_base_filter_complete_query (CfBaseFilter * self,
    GstPadDirection direction, GstQuery * query);
