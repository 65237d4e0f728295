// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The properties of CfBaseFilter (cfbasefilter.h): their ids, defaults,
 * specs, and the base's set_property and get_property. */
#pragma once

#include <gst/gst.h>

#include "elementdevice.h"

enum CfBaseProperty
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
  PROP_BACKEND,
  PROP_ACTIVE_BACKEND,
  PROP_DEVICE_MEMORY,
  PROP_PINNED_MEMORY,
  /* Installed on the roles' classes, in this order (FrameSelector::install). */
  PROP_REGIONS,
  PROP_REGION_TYPES,
  PROP_REGION_PADDING,
  PROP_INCLUDE_CHROMA,
};

constexpr gint kDefaultDeviceId = -1;
constexpr guint kDefaultFramesInFlight = 2;
constexpr guint kMaxFramesInFlight = 8;
constexpr GstCudaFilterBackend kDefaultBackend = GST_CUDA_FILTER_BACKEND_AUTO;

/* Installs the base's own properties on its class. */
void cf_base_filter_install_properties (GObjectClass * gobject_class);
/* The base's set_property and get_property, which also keep the values of
 * the properties a role installs through it (what of a frame is processed:
 * frameselection.h). */
void cf_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void cf_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
