// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Regions from upstream: the detections a buffer carries, as boxes of its
 * frame that an element filters or counts. Every GStreamer version carries
 * GstVideoRegionOfInterestMeta (a type name and a box); from 1.24 the
 * object-detection entries of GstAnalyticsRelationMeta (a label and a box)
 * count too, where the plugin is built with gstreamer-analytics-1.0; from
 * 1.26 with their own shape where they have one: an oriented detection's
 * rotated rectangle, and each region of a segmentation mask
 * (GstAnalyticsSegmentationMtd, read_regions says which).
 *
 * Boxes come from other elements and are never trusted: each is padded,
 * clipped to the frame (a meta left from a frame of another size, after a caps
 * change, is clipped like any other), skipped when nothing of it is left, and
 * a frame takes at most kMaxFrameRegions of them. */
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <vector>

#include "formatlayout.h"
#include "regions.h"

G_BEGIN_DECLS

typedef enum
{
  CF_REGIONS_FRAME,
  CF_REGIONS_META,
} CfRegions;

#define CF_TYPE_REGIONS (cf_regions_get_type ())
GType cf_regions_get_type (void);

G_END_DECLS

/* Regions a frame takes at most (an element may take fewer): those beyond, in
 * the metas' order, are ignored (with a warning, once per stream). */
constexpr guint kMaxFrameRegions = 256;

/* Where a frame's region came from: a meta of the buffer, or an element that
 * adds its own (a region held over from frames before, a fixed zone). */
enum class RegionOrigin
{
  kMeta,
  kHeld,
  kZone,
};

/* One region of a frame: the meta's id and type, and its box in the frame's
 * (luma) pixels, padded and clipped, never empty. */
struct FrameRegion
{
  gint id;
  GQuark type;
  cf::Box box;
  RegionOrigin origin = RegionOrigin::kMeta;
  /* The id a tracker gave the object (a GstAnalyticsTrackingMtd related to
   * its detection), which stays the same from frame to frame. */
  bool tracked = false;
  guint64 track_id = 0;
  /* Its own shape within the box, where it has one (regionshapes.h): a byte
   * per pixel of the box, row after row, not zero inside. Null: the whole
   * box. */
  std::shared_ptr<const std::vector<guint8>> mask = nullptr;
};

/* Which regions of the metas count. */
struct RegionChoice
{
  std::vector<GQuark> types;    /* empty: every type */
  guint padding = 0;            /* pixels added on every side */
  /* Object detections less confident are left out (regions of interest
   * carry no confidence). */
  gdouble min_confidence = 0.0;
};

/* The regions of a buffer's metas, as they are read. */
struct FoundRegions
{
  std::vector<FrameRegion> kept;        /* at most the limit read with */
  gsize found = 0;              /* of a selected type and in the frame */
  std::vector<GQuark> types;    /* of the first kMaxFrameRegions metas */
  /* The buffer carries analytics results (a GstAnalyticsRelationMeta or a
   * tensor meta): a detector looked at the frame, whether or not it found
   * anything. */
  bool analyzed = false;
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

/* The regions of `buffer`'s metas that `choice` selects, for a frame of
 * `info`: each box padded, clipped, skipped where nothing of it is left; at
 * most `limit` kept, the rest only counted, so that a buffer of many thousand
 * metas costs no more.
 *
 * From 1.26, shapes (regionshapes.h): an oriented detection (a rotation not 0)
 * is its rectangle grown by the padding on its own sides, in the box bounding
 * it. A segmentation mtd gives a region per region id it lists, but for id 0
 * (the background by convention: segmentationoverlay draws nothing there),
 * and one more for the mask's values not 0 that it does not list
 * (yolosegv8tensordec lists only 0 and marks its object with another value):
 * the pixels of that value (values), the mask mapped onto the frame through
 * its location (nearest sample), grown by the padding. A region's type and
 * confidence are those of a classification related N_TO_N to the mtd (its
 * entry of the region's index), else of an object detection related to it,
 * else type none and no confidence (kept whatever min-confidence says). A mask
 * that cannot be read as the API says (no video meta, a format other than
 * GRAY8 or GRAY16_LE, rows not packed) is its whole location box: rows of a
 * padded stride cannot be told from yolosegv8tensordec's packed rows, whose
 * meta gives the pool's stride. */
FoundRegions read_regions (GstElement * element, GstBuffer * buffer,
    const GstVideoInfo & info, const RegionChoice & choice, guint limit);

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
