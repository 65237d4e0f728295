// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "frameregions.h"

#include <algorithm>

#ifdef CF_HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#include "regionshapes.h"

GST_DEBUG_CATEGORY_STATIC (cf_regions_debug);
#define GST_CAT_DEFAULT cf_regions_debug

GType
cf_regions_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {CF_REGIONS_FRAME, "The whole frame", "frame"},
    {CF_REGIONS_META,
        "The regions of interest and object detections each buffer carries",
        "meta"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type)) {
    GST_DEBUG_CATEGORY_INIT (cf_regions_debug, "cudaregions", 0,
        "Regions from upstream metas");
    g_once_init_leave (&type, g_enum_register_static ("CfRegions", values));
  }
  return type;
}

/* A box of the frame from a meta's x, y, width and height (any of them out of
 * range), padded and clipped; false where nothing of it lies in the frame. */
static bool
clip_box (GstElement * element, gint64 x, gint64 y, gint64 width,
    gint64 height, const GstVideoInfo & info, guint padding, cf::Box * box)
{
  const gint64 frame_width = GST_VIDEO_INFO_WIDTH (&info);
  const gint64 frame_height = cf::picture_height (&info);
  const gint64 x0 = std::max<gint64> (0, x - padding);
  const gint64 y0 = std::max<gint64> (0, y - padding);
  const gint64 x1 = std::min (frame_width, x + width + padding);
  const gint64 y1 = std::min (frame_height, y + height + padding);
  if (width <= 0 || height <= 0 || x1 <= x0 || y1 <= y0) {
    GST_DEBUG_OBJECT (element, "box %" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
        " %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " holds nothing of the "
        "%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " frame: skipped", x, y,
        width, height, frame_width, frame_height);
    return false;
  }
  if (x < 0 || y < 0 || x + width > frame_width || y + height > frame_height)
    GST_DEBUG_OBJECT (element, "box %" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
        " %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " reaches beyond the "
        "%" G_GINT64_FORMAT "x%" G_GINT64_FORMAT " frame: clipped", x, y,
        width, height, frame_width, frame_height);
  *box = cf::Box {(int) x0, (int) y0, (int) (x1 - x0), (int) (y1 - y0)};
  return true;
}

static bool
type_selected (const std::vector<GQuark> & types, GQuark type)
{
  return types.empty () || std::find (types.begin (), types.end (), type) !=
      types.end ();
}

/* What the regions are read with. */
struct RegionReading
{
  GstElement *element;
  const GstVideoInfo & info;
  const RegionChoice & choice;
  guint limit;
  FoundRegions found;
};

/* Whether a meta's region of `type` is selected; its type is noted either
 * way. */
static bool
select_type (RegionReading & reading, GQuark type)
{
  if (reading.found.types.size () < kMaxFrameRegions)
    reading.found.types.push_back (type);
  return type_selected (reading.choice.types, type);
}

static void
keep_region (RegionReading & reading, const FrameRegion & region)
{
  if (reading.found.found++ < reading.limit)
    reading.found.kept.push_back (region);
}

/* One meta's region, where its type is selected and its box holds part of
 * the frame. */
static void
add_region (RegionReading & reading, const FrameRegion & meta, gint64 x,
    gint64 y, gint64 width, gint64 height)
{
  FrameRegion region = meta;
  if (select_type (reading, meta.type) &&
      clip_box (reading.element, x, y, width, height, reading.info,
          reading.choice.padding, &region.box))
    keep_region (reading, region);
}

#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
/* One meta's region of its own shape (false: none of it in the frame). */
static void
add_shaped_region (RegionReading & reading, const FrameRegion & meta,
    const std::function<bool (RegionShape *)> & rasterise)
{
  RegionShape shape;
  if (!select_type (reading, meta.type))
    return;
  /* Past the limit a region is only counted, whatever pixels it holds: no use
   * is made of its shape, and rasterising thousands would stall the stream. */
  if (reading.found.found >= reading.limit) {
    reading.found.found++;
    return;
  }
  if (!rasterise (&shape)) {
    GST_DEBUG_OBJECT (reading.element, "region %d holds no pixel of the "
        "frame: skipped", meta.id);
    return;
  }
  FrameRegion region = meta;
  region.box = shape.box;
  region.mask = std::move (shape.mask);
  keep_region (reading, region);
}
#endif

#ifdef CF_HAVE_GST_ANALYTICS
/* The first entry of `type` that entry `id` relates to by a relation of
 * `relations` (GstAnalyticsRelTypes bits), as
 * gst_analytics_relation_meta_get_direct_related finds it, walking only the
 * entries there are: that function (1.28 at least) reads the empty slot that a
 * relation to an id no entry has points at (a critical, then a crash), and
 * upstream's meta is not trusted. */
static bool
first_related (GstAnalyticsRelationMeta * meta, guint id, int relations,
    GstAnalyticsMtdType type, GstAnalyticsMtd * related)
{
  gpointer state = nullptr;
  while (gst_analytics_relation_meta_iterate (meta, &state, type, related))
    if (gst_analytics_relation_meta_get_relation (meta, id, related->id) &
        relations)
      return true;
  return false;
}

/* The tracker's id of `detection`, where a tracking entry relates to it. */
static void
find_track (GstAnalyticsRelationMeta * meta, GstAnalyticsODMtd * detection,
    FrameRegion * region)
{
  GstAnalyticsTrackingMtd tracking;
  guint64 id;
  GstClockTime first_seen, last_seen;
  gboolean lost;
  if (first_related (meta, detection->id, GST_ANALYTICS_REL_TYPE_ANY,
          gst_analytics_tracking_mtd_get_mtd_type (), &tracking) &&
      gst_analytics_tracking_mtd_get_info (&tracking, &id, &first_seen,
          &last_seen, &lost)) {
    region->tracked = true;
    region->track_id = id;
  }
}

static void
add_detections (RegionReading & reading, GstBuffer * buffer)
{
  GstAnalyticsRelationMeta *meta =
      gst_buffer_get_analytics_relation_meta (buffer);
  if (!meta)
    return;
  reading.found.analyzed = true;
  gpointer state = nullptr;
  GstAnalyticsODMtd detection;
  while (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_od_mtd_get_mtd_type (), &detection)) {
    gint x, y, width, height;
    gfloat confidence;
#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
    gfloat angle;
    if (!gst_analytics_od_mtd_get_oriented_location (&detection, &x, &y,
            &width, &height, &angle, &confidence))
      continue;
#else
    if (!gst_analytics_od_mtd_get_location (&detection, &x, &y, &width,
            &height, &confidence))
      continue;
#endif
    if (confidence < reading.choice.min_confidence) {
      GST_LOG_OBJECT (reading.element, "detection %u of confidence %.3f, "
          "under min-confidence: left out", detection.id, confidence);
      continue;
    }
    FrameRegion region {(gint) detection.id,
      gst_analytics_od_mtd_get_obj_type (&detection), {}};
    find_track (meta, &detection, &region);
#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
    if (angle != 0) {
      const GstVideoInfo & info = reading.info;
      add_shaped_region (reading, region, [&](RegionShape * shape) {
            return rotated_rect_shape (x, y, width, height, angle,
                reading.choice.padding, GST_VIDEO_INFO_WIDTH (&info),
                cf::picture_height (&info), shape);
          });
      continue;
    }
#endif
    add_region (reading, region, x, y, width, height);
  }
}
#endif

#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
/* What a segmentation mtd's regions are called, and how sure: the related
 * classification's entry of each index, else the related detection's. */
struct SegmentLabels
{
  bool classified;
  GstAnalyticsClsMtd classes;
  bool detected;
  GQuark detection_type = 0;
  gfloat detection_confidence = 1.0f;

  SegmentLabels (GstAnalyticsRelationMeta * meta, guint id)
  {
    classified = first_related (meta, id, GST_ANALYTICS_REL_TYPE_N_TO_N,
        gst_analytics_cls_mtd_get_mtd_type (), &classes);
    GstAnalyticsODMtd detection;
    detected = first_related (meta, id, GST_ANALYTICS_REL_TYPE_ANY,
        gst_analytics_od_mtd_get_mtd_type (), &detection);
    if (detected) {
      detection_type = gst_analytics_od_mtd_get_obj_type (&detection);
      gst_analytics_od_mtd_get_confidence_lvl (&detection,
          &detection_confidence);
    }
  }

  /* The type and confidence of the region of `index` (G_MAXSIZE: the values
   * the mtd does not list). */
  void of (gsize index, GQuark * type, gfloat * confidence)
  {
    if (classified && index < gst_analytics_cls_mtd_get_length (&classes)) {
      *type = gst_analytics_cls_mtd_get_quark (&classes, index);
      *confidence = gst_analytics_cls_mtd_get_level (&classes, index);
      return;
    }
    *type = detected ? detection_type : 0;
    *confidence = detected ? detection_confidence : 1.0f;
  }
};

/* The mask of `buffer` as the API describes it; false where it is not one
 * (then the whole location counts). */
static bool
map_label_mask (GstBuffer * buffer, GstMapInfo * map, LabelMask * mask)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  if (!meta || (meta->format != GST_VIDEO_FORMAT_GRAY8 &&
          meta->format != GST_VIDEO_FORMAT_GRAY16_LE))
    return false;
  mask->wide = meta->format == GST_VIDEO_FORMAT_GRAY16_LE;
  mask->width = (int) meta->width;
  mask->height = (int) meta->height;
  mask->stride = (gsize) meta->stride[0];
  gpointer data;
  gint stride;
  if (mask->stride != (gsize) mask->width * (mask->wide ? 2 : 1) ||
      !gst_video_meta_map (meta, 0, map, &data, &stride, GST_MAP_READ))
    return false;
  if (map->size < mask->stride * mask->height) {
    gst_video_meta_unmap (meta, 0, map);
    return false;
  }
  mask->data = static_cast<const guint8 *> (data);
  return true;
}

/* The regions of one segmentation mtd (read_regions says which). */
static void
add_segments (RegionReading & reading, GstAnalyticsRelationMeta * meta,
    GstAnalyticsSegmentationMtd * segmentation)
{
  gint x, y;
  guint w, h;
  GstBuffer *buffer = gst_analytics_segmentation_mtd_get_mask (segmentation,
      &x, &y, &w, &h);
  if (!buffer)
    return;
  const GstVideoInfo & info = reading.info;
  const int width = GST_VIDEO_INFO_WIDTH (&info);
  const int height = cf::picture_height (&info);
  SegmentLabels labels (meta, segmentation->id);
  GQuark type;
  gfloat confidence;
  const auto selected = [&](gsize index) {
    labels.of (index, &type, &confidence);
    if (confidence >= reading.choice.min_confidence)
      return true;
    GST_LOG_OBJECT (reading.element, "segment %u:%" G_GSIZE_FORMAT " of "
        "confidence %.3f, under min-confidence: left out", segmentation->id,
        index, confidence);
    return false;
  };
  const gint id = (gint) segmentation->id;
  GstMapInfo map;
  LabelMask mask {nullptr, 0, 0, 0, false, x, y, w, h};
  if (!map_label_mask (buffer, &map, &mask)) {
    GST_DEBUG_OBJECT (reading.element, "segmentation %u: a mask not of packed "
        "GRAY8 or GRAY16_LE rows: its whole location %d,%d %ux%u", id, x, y, w,
        h);
    if (selected (G_MAXSIZE))
      add_region (reading, FrameRegion {id, type, {}}, x, y, w, h);
    gst_buffer_unref (buffer);
    return;
  }
  std::vector<guint> listed;
  const gsize count = gst_analytics_segmentation_mtd_get_region_count
      (segmentation);
  for (gsize i = 0; i < count; i++)
    listed.push_back (gst_analytics_segmentation_mtd_get_region_id
        (segmentation, i));
  const MaskRegions regions (mask, std::move (listed));
  for (gsize i = 0; i < regions.count (); i++) {
    /* Label 0 is the background; past the listed ones, those none lists. */
    if ((i < count && regions.holds (i, 0)) || !selected (i < count ? i :
            G_MAXSIZE))
      continue;
    add_shaped_region (reading, FrameRegion {id, type, {}},
        [&](RegionShape * shape) {
          return label_shape (mask, regions, i, reading.choice.padding,
              width, height, shape);
        });
  }
  gst_video_meta_unmap (gst_buffer_get_video_meta (buffer), 0, &map);
  gst_buffer_unref (buffer);
}

static void
add_segmentations (RegionReading & reading, GstBuffer * buffer)
{
  GstAnalyticsRelationMeta *meta =
      gst_buffer_get_analytics_relation_meta (buffer);
  if (!meta)
    return;
  gpointer state = nullptr;
  GstAnalyticsSegmentationMtd segmentation;
  while (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_segmentation_mtd_get_mtd_type (), &segmentation))
    add_segments (reading, meta, &segmentation);
}
#endif

/* Whether `buffer` carries inference results: a GstTensorMeta (the analytics
 * library's from 1.26, onnxinference's before), found by its API's name so
 * that every version and build counts it. */
static bool
carries_tensors (GstBuffer * buffer)
{
  const GType tensors = g_type_from_name ("GstTensorMetaAPI");
  gpointer state = nullptr;
  return tensors &&
      gst_buffer_iterate_meta_filtered (buffer, &state, tensors) != nullptr;
}

FoundRegions
cf::read_regions (GstElement * element, GstBuffer * buffer,
    const GstVideoInfo & info, const RegionChoice & choice, guint limit)
{
  RegionReading reading {element, info, choice, limit, {}};
  gpointer state = nullptr;
  while (GstMeta * meta = gst_buffer_iterate_meta_filtered (buffer, &state,
          GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) {
    const auto *roi = reinterpret_cast<GstVideoRegionOfInterestMeta *> (meta);
    add_region (reading, FrameRegion {roi->id, roi->roi_type, {}}, roi->x,
        roi->y, roi->w, roi->h);
  }
#ifdef CF_HAVE_GST_ANALYTICS
  add_detections (reading, buffer);
#endif
#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
  add_segmentations (reading, buffer);
#endif
  reading.found.analyzed = reading.found.analyzed || carries_tensors (buffer);
  return std::move (reading.found);
}

cf::Box
cf::component_box (const cf::Box & box, const GstVideoInfo & info, int component)
{
  const ComponentLayout & layout = FormatLayout::of (info).component (component);
  /* The first sample that covers the box's first pixel, to the last that
   * covers its last one: a sample the box covers in part is in. */
  const int x0 = box.x >> layout.x_sub;
  const int y0 = box.y >> layout.y_sub;
  const int x1 = GST_VIDEO_SUB_SCALE (layout.x_sub, box.x + box.width);
  const int y1 = GST_VIDEO_SUB_SCALE (layout.y_sub, box.y + box.height);
  return {x0, y0, x1 - x0, y1 - y0};
}

/* The rows of `box` (within the frame) in `field`: field row k is frame row
 * 2k + field. Empty where the box has no row of the field. */
static cf::Box
field_box (cf::Box box, int field)
{
  const int first = (box.y - field + 1) / 2;
  const int end = (box.y + box.height - field + 1) / 2;
  box.y = first;
  box.height = end - first;
  return box;
}

std::vector<cf::Box>
cf::component_boxes (const std::vector<FrameRegion> & regions,
    const GstVideoInfo & info, int component, int field)
{
  std::vector<cf::Box> boxes;
  boxes.reserve (regions.size ());
  if (field < 0) {
    for (const FrameRegion & region : regions)
      boxes.push_back (cf::component_box (region.box, info, component));
    return boxes;
  }
  /* Where the frame's height is no multiple of four, a field of 4:2:0 has a
   * luma row more than its chroma rows cover: boxes end at the field's own. */
  const int field_rows = (FormatLayout::of (info).component_height (component,
          cf::picture_height (&info)) - field + 1) / 2;
  for (const FrameRegion & region : regions) {
    const cf::Box rows = field_box (region.box, field);
    if (rows.height <= 0)
      continue;
    cf::Box box = cf::component_box (rows, info, component);
    box.height = MIN (box.y + box.height, field_rows) - box.y;
    if (box.height > 0)
      boxes.push_back (box);
  }
  return boxes;
}
