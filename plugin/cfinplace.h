// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* CfInPlace: the in-place role (the frame changed where it is, a few areas of
 * it), the private base class of elements that change part of a frame and
 * pass the rest on as it came, such as a redaction of boxes. It works in
 * place, as CfAnalyzer does: its frames leave as they came, the same buffer
 * and memory where the buffer was writable and its memory not shared (else
 * GStreamer copies them first), with only what a subclass wrote changed.
 *
 * Where the frame lives decides where the subclass writes: on the CPU the
 * mapped frame itself; in CUDA memory the frame's own memory, never copied
 * whole to change a box; in host memory on the CUDA backend a device copy of
 * the whole frame (the kernels may read around what they write), from which
 * only the areas the subclass reports come back. */
#pragma once

#include <vector>

#include "cfbasefilter.h"

G_BEGIN_DECLS

#define CF_TYPE_IN_PLACE (cf_in_place_get_type ())
G_DECLARE_DERIVABLE_TYPE (CfInPlace, cf_in_place, CF, IN_PLACE, CfBaseFilter)

G_END_DECLS

/* Installs an in-place element's properties on its class: regions (default
 * `default_regions`: an element that only makes sense on regions takes them
 * by default), region-types, region-padding and include-chroma (on by
 * default). */
void cf_in_place_class_install_properties (GObjectClass * klass,
    CfRegions default_regions);

/* What edit_frame wrote: per view (the index of the views it was given), the
 * boxes of that view's samples (rows of its field where it is one) whose
 * processed channels it wrote. */
using EditedAreas = std::vector<std::vector<cf::Box>>;

struct _CfInPlaceClass
{
  CfBaseFilterClass parent_class;

  /* Runs the kernels that change the frame: on the CPU at once, or queued on
   * exec.stream. Each view's src and dst are the same samples; its region
   * holds the selected regions' boxes in its samples (the whole plane with
   * regions=frame or selection.whole_frame; regions=meta with none: no
   * box). `selection` says
   * more of the regions (types, ids) where the edit depends on them;
   * `workspace`: the FrameSizes::workspace bytes of device memory that the
   * subclass's size_frames asked for, CUDA only.
   *
   * Into edited[i] goes every box of view i the kernels write, each within
   * the view (else the frame fails), and the kernels write nothing outside
   * them: in host memory on the CUDA backend only those boxes come back into
   * the frame (their rows from the first sample to the last, other bytes
   * between them included), elsewhere the frame is written where it is.
   * Boxes may overlap. Returns the first error (a CUDA error, or
   * cudaErrorInvalidValue where a kernel refused its input, on either
   * backend). */
  cudaError_t (*edit_frame) (CfInPlace * self,
      const std::vector<ComponentView> & views,
      const FrameSelection & selection, const cf::Executor & exec,
      void *workspace, EditedAreas * edited);
};
