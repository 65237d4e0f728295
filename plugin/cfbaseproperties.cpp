// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfbaseproperties.h"

#include "cfbasefilterstate.h"

GType
cf_border_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {CF_BORDER_REPLICATE, "Repeat the edge sample (aaa|abcd|ddd)",
        "replicate"},
    {CF_BORDER_REFLECT_101, "Mirror about the edge sample (cb|abcd|cb)",
        "reflect-101"},
    {CF_BORDER_CONSTANT, "The value of border-value (kk|abcd|kk)", "constant"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("CfBorder", values));
  return type;
}

void
cf_base_filter_install_properties (GObjectClass * gobject_class)
{
  const auto ready_flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);
  const auto playing_flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  const auto read_only = static_cast<GParamFlags> (G_PARAM_READABLE |
      G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, CF_PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device to run on (-1 = any: that of the first CUDA element "
          "upstream, or of CUDA memory that comes in, so that a chain follows "
          "its first element; else that of a CUDA context the pipeline "
          "shares, else the first); a device that does not exist is an error "
          "at start", -1, G_MAXINT, kDefaultDeviceId, ready_flags));
  g_object_class_install_property (gobject_class, CF_PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames processed at once on the CUDA backend, each on its own CUDA "
          "stream, so that transfers and kernels overlap: while frames come "
          "faster than their work, a frame waits for up to this many - 1 later "
          "ones (reported as latency); a frame whose work is done leaves as "
          "soon as no later frame comes. With 1, CUDA memory out and GStreamer "
          "1.24+, a filter's frames leave once their work is queued, on the "
          "memory's stream. A change applies from the next frame",
          1, kMaxFramesInFlight, kDefaultFramesInFlight, playing_flags));
  g_object_class_install_property (gobject_class, CF_PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend", "Where frames are processed",
          CF_TYPE_BACKEND, kDefaultBackend, ready_flags));
  g_object_class_install_property (gobject_class, CF_PROP_ACTIVE_BACKEND,
      g_param_spec_enum ("active-backend", "Active backend",
          "The backend in use while running (auto while stopped)",
          CF_TYPE_BACKEND, CF_BACKEND_AUTO,
          read_only));
  g_object_class_install_property (gobject_class, CF_PROP_DEVICE_MEMORY,
      g_param_spec_uint64 ("device-memory", "Device memory",
          "Bytes of device memory the element holds now (CUDA backend): a "
          "device copy of each frame in flight for each side in host memory, "
          "and its kernels' workspace; the CUDA memory pool of its output is "
          "not counted", 0, G_MAXUINT64, 0, read_only));
  g_object_class_install_property (gobject_class, CF_PROP_PINNED_MEMORY,
      g_param_spec_uint64 ("pinned-memory", "Pinned memory",
          "Bytes of pinned host memory the element holds now (CUDA backend): "
          "the buffers of the pools it made (offered upstream, and its "
          "output's), wherever they are, a pinned copy of each frame in "
          "flight once foreign host memory comes in, and results; foreign "
          "memory pinned in place is not counted", 0, G_MAXUINT64, 0,
          read_only));
}

/* The spec of a property an element installs through its role. */
static GParamSpec *
role_property_spec (CfProperty id, gint default_value)
{
  const auto flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  switch (id) {
    case CF_PROP_REGIONS:
      return g_param_spec_enum ("regions", "Regions",
          "Where the element works: the whole frame, or the boxes of the "
          "GstVideoRegionOfInterestMeta (and, on GStreamer 1.24 and later, of "
          "the analytics object detections) of each buffer",
          CF_TYPE_REGIONS, default_value, flags);
    case CF_PROP_REGION_TYPES:
      return g_param_spec_string ("region-types", "Region types",
          "regions=meta: comma-separated types of the regions to take (the "
          "region of interest's type, or the detection's label, such as "
          "\"face,license-plate\"); empty takes every type", "", flags);
    case CF_PROP_REGION_PADDING:
      return g_param_spec_uint ("region-padding", "Region padding",
          "regions=meta: pixels added on every side of each box (clipped to "
          "the frame)", 0, G_MAXUINT16, 0, flags);
    case CF_PROP_MIN_CONFIDENCE:
      return g_param_spec_double ("min-confidence", "Minimum confidence",
          "regions=meta: object detections less confident than this are left "
          "out (regions of interest carry no confidence and always count)",
          0.0, 1.0, 0.0, flags);
    case CF_PROP_INCLUDE_CHROMA:
      return g_param_spec_boolean ("include-chroma", "Include chroma",
          "Also process the chroma (U, V) components of YUV formats, not only "
          "luma", default_value, flags);
    case CF_PROP_INCLUDE_ALPHA:
      return g_param_spec_boolean ("include-alpha", "Include alpha",
          "Also process the alpha channel of formats that have one",
          default_value, flags);
    case CF_PROP_BORDER:
      return g_param_spec_enum ("border", "Border",
          "How samples outside the frame are taken", CF_TYPE_BORDER,
          default_value, flags);
    case CF_PROP_BORDER_VALUE:
      return g_param_spec_uint ("border-value", "Border value",
          "Sample value outside the frame with border=constant, in the "
          "format's own range (values above 255 count as 255 for 8-bit "
          "formats)", 0, G_MAXUINT16, 0, flags);
    default:
      g_return_val_if_reached (nullptr);
  }
}

void
cf_base_filter_class_install_property (GObjectClass * klass, CfProperty id,
    gint default_value)
{
  g_object_class_install_property (klass, id, role_property_spec (id,
          default_value));
}

/* backend and cuda-device-id are read at start: a change while running takes
 * effect at the next one, which the application is told. */
static void
warn_if_running (GObject * object, GParamSpec * pspec)
{
  GST_OBJECT_LOCK (object);
  const bool running = GST_STATE (object) >= GST_STATE_PAUSED;
  GST_OBJECT_UNLOCK (object);
  if (running)
    GST_ELEMENT_WARNING (object, LIBRARY, SETTINGS, ("%s changed while running: "
            "it takes effect when the element starts again (from READY)",
            g_param_spec_get_name (pspec)), (nullptr));
}

/* Keeps a writable property's value, under the object lock; FALSE for an id
 * that is none of them. */
static bool
store (BaseProperties & props, guint prop_id, const GValue * value)
{
  SelectionSettings & selection = props.selection;
  switch (prop_id) {
    case CF_PROP_DEVICE_ID:
      props.device_id = g_value_get_int (value);
      return true;
    case CF_PROP_FRAMES_IN_FLIGHT:
      props.frames_in_flight = g_value_get_uint (value);
      return true;
    case CF_PROP_BACKEND:
      props.backend = static_cast<CfBackend> (g_value_get_enum
          (value));
      return true;
    case CF_PROP_REGIONS:
      selection.regions = static_cast<CfRegions> (g_value_get_enum (value));
      return true;
    case CF_PROP_REGION_TYPES:
      selection.set_region_types (g_value_get_string (value));
      return true;
    case CF_PROP_REGION_PADDING:
      selection.region_choice.padding = g_value_get_uint (value);
      return true;
    case CF_PROP_MIN_CONFIDENCE:
      selection.region_choice.min_confidence = g_value_get_double (value);
      return true;
    case CF_PROP_INCLUDE_CHROMA:
      selection.include_chroma = g_value_get_boolean (value);
      return true;
    case CF_PROP_INCLUDE_ALPHA:
      selection.include_alpha = g_value_get_boolean (value);
      return true;
    case CF_PROP_BORDER:
      props.border = static_cast<CfBorder> (g_value_get_enum (value));
      return true;
    case CF_PROP_BORDER_VALUE:
      props.border_value = g_value_get_uint (value);
      return true;
    default:
      return false;
  }
}

/* Whether a change of the property changes what the frames in flight are
 * sized for: they leave, and the frames are configured again, before the
 * next one. */
static bool
resizes_frames (CfBaseFilter * self, guint prop_id)
{
  return prop_id == CF_PROP_FRAMES_IN_FLIGHT || (prop_id == CF_PROP_REGIONS &&
      CF_BASE_FILTER_GET_CLASS (self)->sized_by_regions);
}

void
cf_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  auto *self = CF_BASE_FILTER (object);
  if (prop_id == CF_PROP_DEVICE_ID || prop_id == CF_PROP_BACKEND)
    warn_if_running (object, pspec);
  GST_OBJECT_LOCK (object);
  const bool known = store (state_of (self).props, prop_id, value);
  GST_OBJECT_UNLOCK (object);
  if (!known)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  else if (resizes_frames (self, prop_id))
    cf_base_filter_mark_frames_outdated (self);
}

void
cf_base_filter_take_defaults (GObject * object)
{
  guint n_specs = 0;
  GParamSpec **specs = g_object_class_list_properties (G_OBJECT_GET_CLASS
      (object), &n_specs);
  auto & props = state_of (CF_BASE_FILTER (object)).props;
  for (guint i = 0; i < n_specs; i++) {
    /* Ids are per installing class: GstObject's and GstBaseTransform's
     * are others. */
    if (!g_type_is_a (specs[i]->owner_type, CF_TYPE_BASE_FILTER) ||
        specs[i]->param_id >= CF_PROP_FIRST_ELEMENT_PROPERTY ||
        !(specs[i]->flags & G_PARAM_WRITABLE))
      continue;
    GValue value = G_VALUE_INIT;
    g_value_init (&value, specs[i]->value_type);
    g_param_value_set_default (specs[i], &value);
    (void) store (props, specs[i]->param_id, &value);
    g_value_unset (&value);
  }
  g_free (specs);
}

void
cf_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  auto & st = state_of (CF_BASE_FILTER (object));
  const BaseProperties & props = st.props;
  const SelectionSettings & selection = props.selection;
  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case CF_PROP_DEVICE_ID:
      g_value_set_int (value, props.device_id);
      break;
    case CF_PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, props.frames_in_flight);
      break;
    case CF_PROP_BACKEND:
      g_value_set_enum (value, props.backend);
      break;
    case CF_PROP_ACTIVE_BACKEND:
      g_value_set_enum (value, st.device.active ());
      break;
    case CF_PROP_DEVICE_MEMORY:
      g_value_set_uint64 (value, st.scheduler.engine ().device_bytes ());
      break;
    case CF_PROP_PINNED_MEMORY:
      g_value_set_uint64 (value, st.scheduler.engine ().pinned_bytes () +
          st.pools.pinned_bytes ());
      break;
    case CF_PROP_REGIONS:
      g_value_set_enum (value, selection.regions);
      break;
    case CF_PROP_REGION_TYPES:
      g_value_set_string (value, selection.region_types.c_str ());
      break;
    case CF_PROP_REGION_PADDING:
      g_value_set_uint (value, selection.region_choice.padding);
      break;
    case CF_PROP_MIN_CONFIDENCE:
      g_value_set_double (value, selection.region_choice.min_confidence);
      break;
    case CF_PROP_INCLUDE_CHROMA:
      g_value_set_boolean (value, selection.include_chroma);
      break;
    case CF_PROP_INCLUDE_ALPHA:
      g_value_set_boolean (value, selection.include_alpha);
      break;
    case CF_PROP_BORDER:
      g_value_set_enum (value, props.border);
      break;
    case CF_PROP_BORDER_VALUE:
      g_value_set_uint (value, props.border_value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}
