// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "histresults.h"

#include <cstring>

#include "histogram.h"

gsize
hist_channel_result_size (guint bins)
{
  return GST_ROUND_UP_8 (bins * sizeof (uint32_t)) + sizeof (cf::HistogramSummary);
}

gsize
hist_block_size (guint bins)
{
  return GST_VIDEO_MAX_COMPONENTS * hist_channel_result_size (bins);
}

static const gchar *
channel_name (const GstVideoInfo & info, int component)
{
  if (GST_VIDEO_INFO_IS_GRAY (&info))
    return "gray";
  static const gchar *const yuv[] = { "Y", "U", "V", "A" };
  static const gchar *const rgb[] = { "R", "G", "B", "A" };
  return GST_VIDEO_INFO_IS_YUV (&info) ? yuv[component] : rgb[component];
}

/* For p of 1, 50 and 99: the smallest value v such that at least p % of the
 * binned samples are <= v, as the last value of v's bin; in one walk. */
static void
percentiles (const uint32_t *bins, guint n_bins, guint64 binned, guint lower,
    guint upper, guint (&found)[3])
{
  static const guint percents[3] = { 1, 50, 99 };
  const guint64 values = (guint64) upper - lower + 1;
  /* Values v with (v - lower) * n_bins / values == b end just before bin b+1. */
  const auto last_value = [&](guint b) {
    return lower + (guint) (((guint64) (b + 1) * values + n_bins - 1) / n_bins - 1);
  };
  guint k = 0;
  guint64 cumulative = 0;
  for (guint b = 0; b < n_bins - 1 && k < 3; b++) {
    cumulative += bins[b];
    for (; k < 3 && cumulative >= (binned * percents[k] + 99) / 100; k++)
      found[k] = binned ? last_value (b) : 0;
  }
  for (; k < 3; k++)
    found[k] = binned ? last_value (n_bins - 1) : 0;
}

/* A frame's results hold dozens of these. A GValue of a number holds no
 * resources, so a copy of one initialised value is initialised too: that skips
 * g_value_init's type checks. */
static void
append_uint (GValue * array, guint value)
{
  static const GValue initialised = [] {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, G_TYPE_UINT);
    return v;
  } ();
  GValue v = initialised;
  g_value_set_uint (&v, value);
  gst_value_array_append_and_take_value (array, &v);
}

/* The per-channel fields of the meta and the message, in their order: arrays
 * of one entry per channel. */
enum ChannelField
{
  FIELD_CHANNELS, FIELD_BINS, FIELD_TOTAL, FIELD_BELOW, FIELD_ABOVE, FIELD_MIN,
  FIELD_MAX, FIELD_MEAN, FIELD_P1, FIELD_P50, FIELD_P99, N_CHANNEL_FIELDS
};
static const gchar *const channel_field_names[N_CHANNEL_FIELDS] = {
  "channels", "bins", "total", "below", "above", "min", "max", "mean", "p1",
  "p50", "p99"
};
/* Their quarks, and those of the regions' own fields, looked up once: each
 * region of each frame sets them all. */
static GQuark channel_fields[N_CHANNEL_FIELDS];
static GQuark region_quarks[8];
enum
{ QUARK_REGIONS, QUARK_REGION, QUARK_ID, QUARK_TYPE, QUARK_X, QUARK_Y,
  QUARK_WIDTH, QUARK_HEIGHT
};

void
hist_results_init (void)
{
  static const gchar *const region_names[G_N_ELEMENTS (region_quarks)] = {
    "regions", "region", "id", "type", "x", "y", "width", "height"
  };
  for (int f = 0; f < N_CHANNEL_FIELDS; f++)
    channel_fields[f] = g_quark_from_static_string (channel_field_names[f]);
  for (guint q = 0; q < G_N_ELEMENTS (region_quarks); q++)
    region_quarks[q] = g_quark_from_static_string (region_names[q]);
}

/* Appends one channel's results (`bytes`: its bins, then its summary) to each
 * per-channel field. */
static void
append_channel (const HistResultsLayout & layout, const guint8 * bytes, int component,
    const HistFrameState & counted, GValue (&fields)[N_CHANNEL_FIELDS])
{
  const guint n_bins = layout.bins;
  const auto *bins = reinterpret_cast<const uint32_t *> (bytes);
  cf::HistogramSummary summary;
  memcpy (&summary, bytes + GST_ROUND_UP_8 (n_bins * sizeof (uint32_t)),
      sizeof summary);

  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_TYPE_STRING);
  g_value_set_static_string (&v, channel_name (*layout.info, component));
  gst_value_array_append_and_take_value (&fields[FIELD_CHANNELS], &v);

  GValue counts = G_VALUE_INIT;
  g_value_init (&counts, GST_TYPE_BUFFER);
  g_value_take_boxed (&counts, gst_buffer_new_memdup (bins,
          n_bins * sizeof (uint32_t)));
  gst_value_array_append_and_take_value (&fields[FIELD_BINS], &counts);

  const guint64 binned = (guint64) summary.samples - summary.below -
      summary.above;
  append_uint (&fields[FIELD_TOTAL], summary.samples);
  append_uint (&fields[FIELD_BELOW], summary.below);
  append_uint (&fields[FIELD_ABOVE], summary.above);
  append_uint (&fields[FIELD_MIN], summary.min);
  append_uint (&fields[FIELD_MAX], summary.max);
  g_value_init (&v, G_TYPE_DOUBLE);
  g_value_set_double (&v, summary.samples ?
      (gdouble) summary.sum / summary.samples : 0.0);
  gst_value_array_append_and_take_value (&fields[FIELD_MEAN], &v);
  guint found[3];
  percentiles (bins, n_bins, binned, counted.lower, counted.upper, found);
  append_uint (&fields[FIELD_P1], found[0]);
  append_uint (&fields[FIELD_P50], found[1]);
  append_uint (&fields[FIELD_P99], found[2]);
}

/* Sets the per-channel fields of one block of results (the frame's or a
 * region's) on `fields`. */
static void
set_channel_fields (const HistResultsLayout & layout, const guint8 * block,
    const HistFrameState & counted, GstStructure * fields)
{
  GValue arrays[N_CHANNEL_FIELDS] = { };
  for (GValue & array : arrays)
    gst_value_array_init (&array, counted.n_channels);
  for (guint i = 0; i < counted.n_channels; i++)
    append_channel (layout, block + i * hist_channel_result_size (layout.bins),
        counted.channels[i], counted, arrays);
  for (int f = 0; f < N_CHANNEL_FIELDS; f++)
    gst_structure_id_take_value (fields, channel_fields[f], &arrays[f]);
}

/* The "regions" field: a structure per region, its box (clipped) and its
 * per-channel fields. */
static void
set_regions (const HistResultsLayout & layout, const guint8 * bytes,
    const HistFrameState & counted, GstStructure * fields)
{
  GValue array = G_VALUE_INIT;
  gst_value_array_init (&array, counted.n_regions);
  for (guint r = 0; r < counted.n_regions; r++) {
    const FrameRegion & region = counted.regions[r];
    GstStructure *results = gst_structure_new_id (region_quarks[QUARK_REGION],
        region_quarks[QUARK_ID], G_TYPE_INT, region.id,
        region_quarks[QUARK_TYPE], G_TYPE_STRING, g_quark_to_string (region.type),
        region_quarks[QUARK_X], G_TYPE_UINT, (guint) region.box.x,
        region_quarks[QUARK_Y], G_TYPE_UINT, (guint) region.box.y,
        region_quarks[QUARK_WIDTH], G_TYPE_UINT, (guint) region.box.width,
        region_quarks[QUARK_HEIGHT], G_TYPE_UINT, (guint) region.box.height,
        0);
    set_channel_fields (layout, bytes + (1 + r) * hist_block_size (layout.bins),
        counted, results);
    GValue v = G_VALUE_INIT;
    g_value_init (&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&v, results);
    gst_value_array_append_and_take_value (&array, &v);
  }
  gst_structure_id_take_value (fields, region_quarks[QUARK_REGIONS], &array);
}

void
hist_set_results (const HistResultsLayout & layout, const guint8 * bytes,
    const HistFrameState & counted, GstStructure * fields)
{
  gst_structure_set (fields, "range-min", G_TYPE_UINT, counted.lower,
      "range-max", G_TYPE_UINT, counted.upper, nullptr);
  set_channel_fields (layout, bytes, counted, fields);
  if (layout.with_regions)
    set_regions (layout, bytes, counted, fields);
}

