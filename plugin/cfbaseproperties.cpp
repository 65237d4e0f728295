// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfbaseproperties.h"

#include "cfbasefilterstate.h"

void
cf_base_filter_install_properties (GObjectClass * gobject_class)
{
  const auto ready_flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);
  const auto playing_flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  const auto read_only = static_cast<GParamFlags> (G_PARAM_READABLE |
      G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device to run on (-1 = any: that of the first CUDA element "
          "upstream, or of CUDA memory that comes in, so that a chain follows "
          "its first element; else that of a CUDA context the pipeline "
          "shares, else the first); a device that does not exist is an error "
          "at start", -1, G_MAXINT, kDefaultDeviceId, ready_flags));
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames processed at once on the CUDA backend, each on its own CUDA "
          "stream, so that transfers and kernels overlap: while frames come "
          "faster than their work, a frame waits for up to this many - 1 later "
          "ones (reported as latency); a frame whose work is done leaves as "
          "soon as no later frame comes. With 1, CUDA memory out and GStreamer "
          "1.24+, a filter's frames leave once their work is queued, on the "
          "memory's stream. A change applies from the next frame",
          1, kMaxFramesInFlight, kDefaultFramesInFlight, playing_flags));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend", "Where frames are processed",
          GST_TYPE_CUDA_FILTER_BACKEND, kDefaultBackend, ready_flags));
  g_object_class_install_property (gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_enum ("active-backend", "Active backend",
          "The backend in use while running (auto while stopped)",
          GST_TYPE_CUDA_FILTER_BACKEND, GST_CUDA_FILTER_BACKEND_AUTO,
          read_only));
  g_object_class_install_property (gobject_class, PROP_DEVICE_MEMORY,
      g_param_spec_uint64 ("device-memory", "Device memory",
          "Bytes of device memory the element holds now (CUDA backend): a "
          "device copy of each frame in flight for each side in host memory, "
          "and its kernels' workspace; the CUDA memory pool of its output is "
          "not counted", 0, G_MAXUINT64, 0, read_only));
  g_object_class_install_property (gobject_class, PROP_PINNED_MEMORY,
      g_param_spec_uint64 ("pinned-memory", "Pinned memory",
          "Bytes of pinned host memory the element holds now (CUDA backend): "
          "the buffers of the pools it made (offered upstream, and its "
          "output's), wherever they are, a pinned copy of each frame in "
          "flight once foreign host memory comes in, and results; foreign "
          "memory pinned in place is not counted", 0, G_MAXUINT64, 0,
          read_only));
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

void
cf_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  auto *self = CF_BASE_FILTER (object);
  auto & props = state_of (self).props;
  if (prop_id == PROP_DEVICE_ID || prop_id == PROP_BACKEND)
    warn_if_running (object, pspec);
  bool resizes = false;
  if (state_of (self).selector.set (object, value, pspec, &resizes)) {
    /* The frames are sized for the regions (an analyzer's results): the
     * frames in flight leave, and the change applies from the next frame. */
    if (resizes)
      cf_base_filter_configure_again (self);
    return;
  }
  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      props.device_id = g_value_get_int (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      props.frames_in_flight = g_value_get_uint (value);
      cf_base_filter_configure_again (CF_BASE_FILTER (object));
      break;
    case PROP_BACKEND:
      props.backend = static_cast<GstCudaFilterBackend> (g_value_get_enum
          (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

void
cf_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  auto & st = state_of (CF_BASE_FILTER (object));
  if (st.selector.get (object, value, pspec))
    return;
  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_int (value, st.props.device_id);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, st.props.frames_in_flight);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, st.props.backend);
      break;
    case PROP_ACTIVE_BACKEND:
      g_value_set_enum (value, st.device.active ());
      break;
    case PROP_DEVICE_MEMORY:
      g_value_set_uint64 (value, st.stream.engine ().device_bytes ());
      break;
    case PROP_PINNED_MEMORY:
      g_value_set_uint64 (value, st.stream.engine ().pinned_bytes () +
          st.pools.pinned_bytes ());
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}
