// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Every supported format mapped to what the kernels take (kernels/plane.h):
 * the components an element processes, as views of one component each, or of
 * several that lie interleaved in one plane (RGBx, BGRA, RGB, NV12's UV) as one
 * packed plane whose channel_mask holds the processed ones, so that one pass of
 * whole vectors covers them. Kernels never see a format. */
#pragma once

#include <gst/video/video.h>

#include <vector>

#include "formatlayout.h"
#include "frameplanes.h"
#include "plane.h"
#include "regions.h"

/* One view of a frame to process: in device memory on the CUDA backend, host
 * memory on the CPU backend. */
struct ComponentView
{
  /* Of each channel of src: GST_VIDEO_COMP_Y, _U, ... _R, _G, _B, _A, or -1
   * where it is no component (RGBx's x) */
  int channel_components[cf::kMaxChannels];
  cf::Plane src;
  cf::Plane dst;                /* filters only: where the result goes */
  cf::SampleFormat format;      /* sample size, and P010's low padding bits */
  cf::OutputRegion region;      /* filters, in place: the part of dst written */
  /* The field src and dst hold, every other row from row `field` (0: the top
   * field), or -1: every row, the whole frame. */
  int field = -1;

  /* The first channel's component that is one: the view's components share
   * one size. */
  int first_component () const
  {
    int c = 0;
    while (channel_components[c] < 0)
      c++;
    return channel_components[c];
  }
};

/* The components of frames of `info` that an element processes: luma (plus
 * chroma when asked) of YUV formats, every colour channel of RGB formats, the
 * grey level; alpha only when asked. Chosen per frame: include-chroma may
 * change while playing. */
class ProcessedComponents
{
public:
  ProcessedComponents (const GstVideoInfo & info, bool include_chroma,
      bool include_alpha);

  /* The views of one frame read from `in` (and written to `out`: filters);
   * with `fields`, of each of its two fields, a picture of its own. */
  std::vector<ComponentView> views (const FramePlanes & in,
      const FramePlanes * out, bool fields = false) const;
  /* The planes (bit p: plane p) whose row bytes the views do not all write:
   * alpha of planar formats, padding bytes of YUY2, unprocessed chroma. A
   * filter copies them through. */
  guint planes_to_copy () const;

private:
  /* The first processed component of a view, whose plane view it widens to
   * the view's channels. */
  struct Group
  {
    int component;
    int channel;
    int channels;
    unsigned channel_mask;
    int channel_components[cf::kMaxChannels];
  };

  const GstVideoInfo *info_;
  const FormatLayout *layout_;
  std::vector<Group> groups_;
};

struct FrameRegion;

namespace cf {

/* Restricts each view (of a frame of `info`) to the boxes of `regions` in its
 * samples, its field's where it is one. Returns the boxes, which the views'
 * regions point into: kept until the kernels are queued, which read them at
 * launch. */
std::vector<std::vector<cf::Box>> restrict_to_regions (
    std::vector<ComponentView> & views,
    const std::vector<FrameRegion> & regions, const GstVideoInfo & info);

}  // namespace cf
