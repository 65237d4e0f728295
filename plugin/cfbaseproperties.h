// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The properties of CfBaseFilter and its roles, one mechanism for all: each
 * has an id of CfProperty, wherever it is installed. The base installs its
 * own on its class; an element installs, through its role, the ones it has
 * (with its defaults, cf_base_filter_class_install_property), and its
 * set_property and get_property hand every id below
 * CF_PROP_FIRST_ELEMENT_PROPERTY to the base's, which keep all their values
 * in one BaseProperties. */
#pragma once

#include <gst/gst.h>

#include "elementdevice.h"
#include "frameselection.h"

G_BEGIN_DECLS

typedef enum
{
  CF_BORDER_REPLICATE,
  CF_BORDER_REFLECT_101,
  CF_BORDER_CONSTANT,
} CfBorder;

#define CF_TYPE_BORDER (cf_border_get_type ())
GType cf_border_get_type (void);

G_END_DECLS

enum CfProperty : guint
{
  CF_PROP_0,
  /* The base's, on every element. */
  CF_PROP_DEVICE_ID,
  CF_PROP_FRAMES_IN_FLIGHT,
  CF_PROP_BACKEND,
  CF_PROP_ACTIVE_BACKEND,
  CF_PROP_DEVICE_MEMORY,
  CF_PROP_PINNED_MEMORY,
  /* What of a frame is processed (frameselection.h). */
  CF_PROP_REGIONS,
  CF_PROP_REGION_TYPES,
  CF_PROP_REGION_PADDING,
  CF_PROP_MIN_CONFIDENCE,
  CF_PROP_INCLUDE_CHROMA,
  CF_PROP_INCLUDE_ALPHA,
  /* How a filter takes samples beyond the frame's edges. */
  CF_PROP_BORDER,
  CF_PROP_BORDER_VALUE,
  /* An element's own properties take ids from here on. */
  CF_PROP_FIRST_ELEMENT_PROPERTY,
};

constexpr gint kDefaultDeviceId = -1;
constexpr guint kDefaultFramesInFlight = 2;
constexpr guint kMaxFramesInFlight = 8;
constexpr CfBackend kDefaultBackend = CF_BACKEND_AUTO;

/* The values of the properties, under the element's object lock. */
struct BaseProperties
{
  gint device_id = kDefaultDeviceId;
  guint frames_in_flight = kDefaultFramesInFlight;
  CfBackend backend = kDefaultBackend;
  SelectionSettings selection;
  CfBorder border = CF_BORDER_REPLICATE;
  guint border_value = 0;
};

/* Installs the base's own properties on its class. */
void cf_base_filter_install_properties (GObjectClass * gobject_class);
/* Installs property `id` (from CF_PROP_REGIONS on) on an element's class,
 * with `default_value` for those whose default an element chooses (regions,
 * include-chroma, include-alpha, border); mutable while playing. */
void cf_base_filter_class_install_property (GObjectClass * klass,
    CfProperty id, gint default_value = 0);
/* At construction: the values of the properties the element's class
 * installed start as its defaults. */
void cf_base_filter_take_defaults (GObject * object);
/* The base's set_property and get_property, for every CfProperty id. */
void cf_base_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec);
void cf_base_filter_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec);
