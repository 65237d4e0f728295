// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Caps of the frames the elements take, in system memory (video/x-raw) and in
 * CUDA memory (video/x-raw(memory:CUDAMemory)), every supported format in each
 * memory type that can hold it. */
#pragma once

#include <gst/gst.h>

#include <string>

namespace cf {

/* Frames of every format `cuda` memory (or system memory) holds. */
GstCaps *memory_caps (bool cuda);
/* The pad templates: CUDA memory first (preferred where a neighbour offers
 * both) where this process can take it (cuda_memory_unusable_reason()), then
 * system memory. */
GstCaps *template_caps (void);
bool caps_in_cuda_memory (const GstCaps * caps);

/* The same frames as `caps`' (format and size kept), in the memory type each
 * structure names and, where `convert`, then in the other (a filter converts
 * the memory type; an analysis passes its frames on as they came); CUDA memory
 * only where `cuda_offered`. Intersected with `filter` if given. */
GstCaps *caps_in_memory_types (GstCaps * caps, GstCaps * filter,
    bool cuda_offered, bool convert);
/* Of `othercaps`, the structure in `caps`' memory type where there is one:
 * where a neighbour takes frames in both, they stay in the one they come in.
 * Takes `othercaps`, returns what to fixate. */
GstCaps *keep_memory_type (GstCaps * caps, GstCaps * othercaps);

/* The one text for frames in CUDA memory refused because the element runs on
 * the CPU backend, for the reason `why_on_cpu` ("backend=cpu", ...). */
std::string cuda_memory_needs_device (const gchar * why_on_cpu);
/* Why the element takes no CUDA memory, the build's reason (a build without
 * gstreamer-cuda, or for another series) before the CPU backend's
 * (`why_on_cpu`; NULL on CUDA); "" where it does take it. */
std::string why_no_cuda_memory (const gchar * why_on_cpu);
/* Says, once per element, why `caps` in CUDA memory were refused: the element
 * runs on the CPU backend (`why_on_cpu` says why; NULL on CUDA), a format
 * gstreamer-cuda cannot hold, or a build without it (accept-caps queries come
 * often, and may only probe: a warning). */
void explain_refused_cuda_caps (GstElement * element, GstCaps * caps,
    const gchar * why_on_cpu);
/* Whether `pad`'s peer takes frames in CUDA memory only. */
bool peer_takes_only_cuda_memory (GstPad * pad);

}  // namespace cf
