// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfAnalyzer: the analysis role (frame in, results out, the frame passed
 * on untouched), the private base class of cudahist, as GStreamer keeps level
 * and videoanalyse apart from transforms. It works in place: GstBaseTransform
 * gives it no output pool, and its frames leave as they came, writable for the
 * results a subclass attaches to them (CfBaseFilter's attach_results, which
 * the subclass sets). With regions=meta a subclass analyses the frame's
 * regions too. */
#pragma once

#include <vector>

#include "cfbasefilter.h"

G_BEGIN_DECLS

#define CF_TYPE_ANALYZER (cf_analyzer_get_type ())
G_DECLARE_DERIVABLE_TYPE (CfAnalyzer, cf_analyzer, CF, ANALYZER, CfBaseFilter)

G_END_DECLS

/* Installs an analyzer's properties on an element's class: regions (default
 * `default_regions`), region-types, include-chroma and include-alpha (both off
 * by default). */
void cf_analyzer_class_install_properties (GObjectClass * klass,
    CfRegions default_regions);

struct _CfAnalyzerClass
{
  CfBaseFilterClass parent_class;

  /* Caps are set: in `sizes`, the bytes of one frame's results, for the frame
   * and for each region, the most regions a frame's results hold (it comes
   * set to what the element takes, 0 with regions=frame: lower it where the
   * results would pass a bound) and, `on_device`, the device workspace of one
   * frame in flight. FALSE (after posting an error) refuses the caps; nothing
   * takes effect unless it returns TRUE. */
  gboolean (*size_results) (CfAnalyzer * analyzer, const GstVideoInfo & info,
      bool on_device, FrameSizes * sizes);
  /* Runs the kernels that put each view's results, the frame's and those of
   * each of `regions` (NULL: regions=frame; at most size_results's
   * max_regions; the results hold that many),
   * into `results` (host memory; on CUDA pinned and mapped, addressed as the
   * device sees it, for the kernels to write; `workspace`: device memory, CUDA
   * only), and writes into `frame_state` (frame_state_size bytes, kept with
   * the frame) what attach_results needs to know of how this frame was
   * analysed: properties may change meanwhile. Returns the first error (a CUDA
   * error, or cudaErrorInvalidValue where a kernel refused its input, on
   * either backend). */
  cudaError_t (*analyze_frame) (CfAnalyzer * analyzer,
      const std::vector<ComponentView> & views,
      const std::vector<FrameRegion> * regions, const cf::Executor & exec,
      void *results, void *workspace, void *frame_state);
  gsize frame_state_size;
};
