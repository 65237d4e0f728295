// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Regions from upstream: the detections a buffer carries, as boxes of its
 * frame that an element filters or counts. Every GStreamer version carries
 * GstVideoRegionOfInterestMeta (a type name and a box); from 1.24 the
 * object-detection entries of GstAnalyticsRelationMeta (a label and a box)
 * count too, where the plugin is built with gstreamer-analytics-1.0.
 *
 * Boxes come from other elements and are never trusted: each is padded,
 * clipped to the frame (a meta left from a frame of another size, after a caps
 * change, is clipped like any other), skipped when nothing of it is left, and
 * a frame takes at most kMaxFrameRegions of them. */
#pragma once

#include <gst/video/video.h>

#include <string>
#include <vector>

#include "formatlayout.h"
#include "regions.h"

G_BEGIN_DECLS

typedef enum
{
  GST_CUDA_REGIONS_FRAME,
  GST_CUDA_REGIONS_META,
} GstCudaRegions;

#define GST_TYPE_CUDA_REGIONS (gst_cuda_regions_get_type ())
GType gst_cuda_regions_get_type (void);

G_END_DECLS

/* Regions a frame takes at most (an element may take fewer): those beyond, in
 * the metas' order, are ignored (with a warning, once per stream). */
constexpr guint kMaxFrameRegions = 256;

/* What the region properties say, at one moment. */
struct RegionSettings
{
  bool from_meta = false;       /* regions=meta */
  std::vector<GQuark> types;    /* empty: every type */
  guint padding = 0;            /* pixels added on every side */
};

/* The properties `regions`, `region-types` and (for filters)
 * `region-padding` of one element. Their values are under the element's
 * object lock. */
class RegionProperties
{
public:
  /* Installs them on `klass` with these ids, each mutable while playing;
   * `padding_id` 0: no region-padding. */
  static void install (GObjectClass * klass, guint regions_id, guint types_id,
      guint padding_id);

  /* FALSE for a property that is none of them. */
  bool set (GObject * object, const GValue * value, GParamSpec * pspec);
  bool get (GObject * object, GValue * value, GParamSpec * pspec) const;

  RegionSettings settings (GObject * object) const;
  /* With regions=frame, the region properties set to no effect, as
   * "region-types=face" (comma-separated); empty where none is. */
  std::string ignored (GObject * object) const;

private:
  GstCudaRegions mode_ = GST_CUDA_REGIONS_FRAME;
  std::string types_;
  std::vector<GQuark> type_quarks_;
  guint padding_ = 0;
};

/* One region of a frame: the meta's id and type, and its box in the frame's
 * (luma) pixels, padded and clipped, never empty. */
struct FrameRegion
{
  gint id;
  GQuark type;
  cf::Box box;
};

/* Frames that carry regions, none of a type region-types names, after which
 * the element says so: a misspelt type must not blur nothing in silence. */
constexpr guint kFramesBeforeTypeWarning = 30;

/* An element's regions from upstream: its region properties, and the regions
 * of the frame being submitted, collected in the metas' order
 * (region-of-interest metas first, then object detections). Warns once per
 * stream (until reset) of each mistake that would make it do nothing or the
 * wrong thing: a frame carrying more than kMaxFrameRegions; region properties
 * set while regions=frame; region-types that no region of the first
 * kFramesBeforeTypeWarning frames with regions matches. */
class RegionSelection
{
public:
  RegionProperties properties;

  /* The caps are set: frames of `info` follow. */
  void set_info (const GstVideoInfo & info) { info_ = info; }
  /* A new stream. */
  void reset ()
  {
    warned_over_limit_ = false;
    warned_ignored_ = false;
    type_check_ = TypeCheck ();
  }
  /* A frame is about to be submitted: takes what the properties say now and,
   * with regions=meta, the regions of `buffer`, at most `limit` of them. */
  void select (GstElement * element, GstBuffer * buffer, guint limit);

  /* The last selected frame's, until the next select. */
  bool from_meta () const { return from_meta_; }
  const std::vector<FrameRegion> & regions () const { return regions_; }

private:
  /* Whether region-types matches the regions the stream carries. */
  struct TypeCheck
  {
    bool decided = false;       /* a type matched, or the warning was given */
    guint frames = 0;           /* frames with regions, none matched */
    std::vector<GQuark> seen;   /* their types, the first few */
  };

  void check_types (GstElement * element, const RegionSettings & settings,
      const std::vector<GQuark> & frame_types);

  GstVideoInfo info_ {};
  bool warned_over_limit_ = false;
  bool warned_ignored_ = false;
  TypeCheck type_check_;
  bool from_meta_ = false;
  std::vector<FrameRegion> regions_;
};

namespace cf {

/* A region's type as a string that lives as long as the process: "" for none
 * (quark 0, which a meta may carry: g_quark_to_string gives NULL for it), and
 * a name that is not UTF-8 made valid (structures and messages take UTF-8
 * only). */
inline const gchar *
region_type_name (GQuark type)
{
  const gchar *name = g_quark_to_string (type);
  if (!name)
    return "";
  if (g_utf8_validate (name, -1, nullptr))
    return name;
  gchar *valid = g_utf8_make_valid (name, -1);
  const gchar *interned = g_intern_string (valid);
  g_free (valid);
  return interned;
}

/* A box of the frame (in luma pixels, within the frame) in the samples of
 * `component`, whose plane may be subsampled: every sample that covers a pixel
 * of the box is in. The one rule for regions and cudahist's roi-*. */
cf::Box component_box (const cf::Box & box, const GstVideoInfo & info,
    int component);
/* The regions' boxes in the samples of `component`; with `field` 0 or 1, in
 * those of that field as a picture of its own (rows of the field's rows, the
 * field's own subsampling, boxes on none of its rows left out). */
std::vector<cf::Box> component_boxes (const std::vector<FrameRegion> & regions,
    const GstVideoInfo & info, int component, int field = -1);

}  // namespace cf
