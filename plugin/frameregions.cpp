// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "frameregions.h"

#include <algorithm>

#ifdef CF_HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

GST_DEBUG_CATEGORY_STATIC (cf_regions_debug);
#define GST_CAT_DEFAULT cf_regions_debug

GType
gst_cuda_regions_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_REGIONS_FRAME, "The whole frame", "frame"},
    {GST_CUDA_REGIONS_META,
        "The regions of interest and object detections each buffer carries",
        "meta"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaRegions",
            values));
  return type;
}

void
RegionProperties::install (GObjectClass * klass, guint regions_id,
    guint types_id, guint padding_id)
{
  static gsize debug_initialised = 0;
  if (g_once_init_enter (&debug_initialised)) {
    GST_DEBUG_CATEGORY_INIT (cf_regions_debug, "cudaregions", 0,
        "Regions from upstream metas");
    g_once_init_leave (&debug_initialised, 1);
  }
  const auto flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property (klass, regions_id,
      g_param_spec_enum ("regions", "Regions",
          "Where the element works: the whole frame, or the boxes of the "
          "GstVideoRegionOfInterestMeta (and, on GStreamer 1.24 and later, of "
          "the analytics object detections) of each buffer",
          GST_TYPE_CUDA_REGIONS, GST_CUDA_REGIONS_FRAME, flags));
  g_object_class_install_property (klass, types_id,
      g_param_spec_string ("region-types", "Region types",
          "regions=meta: comma-separated types of the regions to take (the "
          "region of interest's type, or the detection's label, such as "
          "\"face,license-plate\"); empty takes every type", "", flags));
  if (padding_id == 0)
    return;
  g_object_class_install_property (klass, padding_id,
      g_param_spec_uint ("region-padding", "Region padding",
          "regions=meta: pixels added on every side of each box (clipped to "
          "the frame)", 0, G_MAXUINT16, 0, flags));
}

/* The quarks of a comma-separated list of names, spaces around them ignored. */
static std::vector<GQuark>
parse_types (const gchar * list)
{
  std::vector<GQuark> quarks;
  gchar **names = g_strsplit (list ? list : "", ",", -1);
  for (gchar **name = names; *name; name++)
    if (*g_strstrip (*name))
      quarks.push_back (g_quark_from_string (*name));
  g_strfreev (names);
  return quarks;
}

bool
RegionProperties::set (GObject * object, const GValue * value,
    GParamSpec * pspec)
{
  const gchar *name = g_param_spec_get_name (pspec);
  GST_OBJECT_LOCK (object);
  bool known = true;
  if (g_str_equal (name, "regions")) {
    mode_ = static_cast<GstCudaRegions> (g_value_get_enum (value));
  } else if (g_str_equal (name, "region-types")) {
    const gchar *types = g_value_get_string (value);
    types_ = types ? types : "";
    type_quarks_ = parse_types (types);
  } else if (g_str_equal (name, "region-padding")) {
    padding_ = g_value_get_uint (value);
  } else {
    known = false;
  }
  GST_OBJECT_UNLOCK (object);
  return known;
}

bool
RegionProperties::get (GObject * object, GValue * value,
    GParamSpec * pspec) const
{
  const gchar *name = g_param_spec_get_name (pspec);
  GST_OBJECT_LOCK (object);
  bool known = true;
  if (g_str_equal (name, "regions"))
    g_value_set_enum (value, mode_);
  else if (g_str_equal (name, "region-types"))
    g_value_set_string (value, types_.c_str ());
  else if (g_str_equal (name, "region-padding"))
    g_value_set_uint (value, padding_);
  else
    known = false;
  GST_OBJECT_UNLOCK (object);
  return known;
}

RegionSettings
RegionProperties::settings (GObject * object) const
{
  RegionSettings settings;
  GST_OBJECT_LOCK (object);
  settings.from_meta = mode_ == GST_CUDA_REGIONS_META;
  if (settings.from_meta) {
    settings.types = type_quarks_;
    settings.padding = padding_;
  }
  GST_OBJECT_UNLOCK (object);
  return settings;
}

std::string
RegionProperties::ignored (GObject * object) const
{
  std::string ignored;
  GST_OBJECT_LOCK (object);
  if (mode_ == GST_CUDA_REGIONS_FRAME) {
    if (!type_quarks_.empty ())
      ignored = "region-types=" + types_;
    if (padding_ > 0)
      ignored += (ignored.empty ()? "" : ", ") +
          std::string ("region-padding=") + std::to_string (padding_);
  }
  GST_OBJECT_UNLOCK (object);
  return ignored;
}

/* A box of the frame from a meta's x, y, width and height (any of them out of
 * range), padded and clipped; false where nothing of it lies in the frame. */
static bool
clip_box (GstElement * element, gint64 x, gint64 y, gint64 width,
    gint64 height, const GstVideoInfo & info, guint padding, cf::Box * box)
{
  const gint64 frame_width = GST_VIDEO_INFO_WIDTH (&info);
  const gint64 frame_height = cf_picture_height (&info);
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
type_selected (const RegionSettings & settings, GQuark type)
{
  return settings.types.empty () || std::find (settings.types.begin (),
      settings.types.end (), type) != settings.types.end ();
}

/* A frame's regions as its metas are read: at most `limit` kept, the rest
 * only counted, so that a buffer of many thousand metas costs no more. */
struct FoundRegions
{
  std::vector<FrameRegion> &kept;
  const guint limit;
  gsize found = 0;
  std::vector<GQuark> types;    /* the first kMaxFrameRegions metas' */
};

/* One meta's region, where its type is selected and its box holds part of
 * the frame. */
static void
add_region (GstElement * element, const GstVideoInfo & info,
    const RegionSettings & settings, gint id, GQuark type, gint64 x, gint64 y,
    gint64 width, gint64 height, FoundRegions & regions)
{
  if (regions.types.size () < kMaxFrameRegions)
    regions.types.push_back (type);
  FrameRegion region {id, type, {}};
  if (!type_selected (settings, type) || !clip_box (element, x, y, width,
          height, info, settings.padding, &region.box))
    return;
  if (regions.found++ < regions.limit)
    regions.kept.push_back (region);
}

#ifdef CF_HAVE_GST_ANALYTICS
static void
add_detections (GstElement * element, GstBuffer * buffer,
    const GstVideoInfo & info, const RegionSettings & settings,
    FoundRegions & regions)
{
  GstAnalyticsRelationMeta *meta =
      gst_buffer_get_analytics_relation_meta (buffer);
  if (!meta)
    return;
  gpointer state = nullptr;
  GstAnalyticsODMtd detection;
  while (gst_analytics_relation_meta_iterate (meta, &state,
          gst_analytics_od_mtd_get_mtd_type (), &detection)) {
    gint x, y, width, height;
    gfloat confidence;
    if (gst_analytics_od_mtd_get_location (&detection, &x, &y, &width, &height,
            &confidence))
      add_region (element, info, settings, (gint) detection.id,
          gst_analytics_od_mtd_get_obj_type (&detection), x, y, width, height,
          regions);
  }
}
#endif

void
RegionSelection::select (GstElement * element, GstBuffer * buffer,
    guint limit)
{
  const RegionSettings settings = properties.settings (G_OBJECT (element));
  from_meta_ = settings.from_meta;
  regions_.clear ();
  if (!from_meta_) {
    if (warned_ignored_)
      return;
    const std::string ignored = properties.ignored (G_OBJECT (element));
    warned_ignored_ = !ignored.empty ();
    if (warned_ignored_)
      GST_ELEMENT_WARNING (element, STREAM, FAILED, ("%s set, but regions=frame: "
              "the whole frame is processed; set regions=meta to work on the "
              "regions", ignored.c_str ()), (nullptr));
    return;
  }
  FoundRegions found {regions_, limit, 0, {}};
  gpointer state = nullptr;
  while (GstMeta * meta = gst_buffer_iterate_meta_filtered (buffer, &state,
          GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) {
    const auto *roi = reinterpret_cast<GstVideoRegionOfInterestMeta *> (meta);
    add_region (element, info_, settings, roi->id, roi->roi_type, roi->x,
        roi->y, roi->w, roi->h, found);
  }
#ifdef CF_HAVE_GST_ANALYTICS
  add_detections (element, buffer, info_, settings, found);
#endif
  check_types (element, settings, found.types);
  if (found.found <= limit || warned_over_limit_ || limit == 0)
    return;
  warned_over_limit_ = true;
  GST_ELEMENT_WARNING (element, STREAM, FAILED,
      ("A frame carries %zu regions; only the first %u are used (the most "
          "the element takes in a frame)", found.found, limit), (nullptr));
}

/* The quarks' names, comma-separated; a region without a type shows as
 * "(none)". */
static std::string
type_names (const std::vector<GQuark> & types)
{
  std::string names;
  for (GQuark type : types) {
    const gchar *name = cf::region_type_name (type);
    names += (names.empty ()? "" : ",") + std::string (*name ? name : "(none)");
  }
  return names;
}

void
RegionSelection::check_types (GstElement * element,
    const RegionSettings & settings, const std::vector<GQuark> & frame_types)
{
  if (type_check_.decided || settings.types.empty () || frame_types.empty ())
    return;
  constexpr gsize kTypesNamed = 8;
  for (GQuark type : frame_types) {
    if (type_selected (settings, type)) {
      type_check_.decided = true;
      return;
    }
    if (type_check_.seen.size () < kTypesNamed && std::find (type_check_.seen.begin (),
            type_check_.seen.end (), type) == type_check_.seen.end ())
      type_check_.seen.push_back (type);
  }
  if (++type_check_.frames < kFramesBeforeTypeWarning)
    return;
  type_check_.decided = true;
  GST_ELEMENT_WARNING (element, STREAM, FAILED, ("No region of %u frames is of "
          "a type region-types names (%s): their types are %s. Types match "
          "exactly, case included", type_check_.frames,
          type_names (settings.types).c_str (),
          type_names (type_check_.seen).c_str ()), (nullptr));
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
          cf_picture_height (&info)) - field + 1) / 2;
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
