// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "histresults.h"

#include <cstring>

#include "formatlayout.h"
#include "histogram.h"

gsize
cf::hist_channel_result_size (guint bins)
{
  return GST_ROUND_UP_8 (bins * sizeof (uint32_t)) + sizeof (cf::HistogramSummary);
}

gsize
cf::hist_block_size (guint bins)
{
  return GST_VIDEO_MAX_COMPONENTS * cf::hist_channel_result_size (bins);
}

static const gchar *
channel_name (const GstVideoInfo & info, int component)
{
  const ColorFamily family = FormatLayout::of (info).family;
  if (family == ColorFamily::Gray)
    return "gray";
  static const gchar *const yuv[] = { "Y", "U", "V", "A" };
  static const gchar *const rgb[] = { "R", "G", "B", "A" };
  return family == ColorFamily::Yuv ? yuv[component] : rgb[component];
}

/* For p of 1, 50 and 99: the smallest value v such that at least p % of the
 * binned samples are <= v, as the last value of v's bin. One walk for the
 * three, over groups of bins where a group ends before the next percentile:
 * every region of every frame takes it. */
static void
percentiles (const uint32_t *bins, guint n_bins, guint64 binned, guint lower,
    guint upper, guint (&found)[3])
{
  static const guint percents[3] = { 1, 50, 99 };
  if (binned == 0) {
    found[0] = found[1] = found[2] = 0;
    return;
  }
  const guint64 values = (guint64) upper - lower + 1;
  /* Values v with (v - lower) * n_bins / values == b end just before bin b+1. */
  const auto last_value = [&](guint b) {
    return lower + (guint) (((guint64) (b + 1) * values + n_bins - 1) / n_bins - 1);
  };
  constexpr guint kGroup = 16;
  guint b = 0;
  guint64 before = 0;           /* samples in the bins before b */
  for (int k = 0; k < 3; k++) {
    const guint64 needed = (binned * percents[k] + 99) / 100;
    /* The last bin is the answer where none before it reaches: groups and
     * single bins stop short of it. */
    for (; b + kGroup < n_bins; b += kGroup) {
      guint64 group = 0;
      for (guint i = 0; i < kGroup; i++)
        group += bins[b + i];
      if (before + group >= needed)
        break;
      before += group;
    }
    for (; b < n_bins - 1 && before + bins[b] < needed; b++)
      before += bins[b];
    found[k] = last_value (b);
  }
}

static void
append_uint (GValue * array, guint value)
{
  GValue v = G_VALUE_INIT;
  g_value_init (&v, G_TYPE_UINT);
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
cf::hist_results_init (void)
{
  static const gchar *const region_names[G_N_ELEMENTS (region_quarks)] = {
    "regions", "region", "id", "type", "x", "y", "width", "height"
  };
  for (int f = 0; f < N_CHANNEL_FIELDS; f++)
    channel_fields[f] = g_quark_from_static_string (channel_field_names[f]);
  for (guint q = 0; q < G_N_ELEMENTS (region_quarks); q++)
    region_quarks[q] = g_quark_from_static_string (region_names[q]);
}

/* The counts of every channel of every block of a frame's results, copied
 * into one reference-counted block: each "bins" buffer holds a reference and
 * wraps its part, rather than allocating and copying its own. */
class CountsMemory
{
public:
  explicit CountsMemory (gsize size)
    : size_ (size), data_ (static_cast<guint8 *> (g_atomic_rc_box_alloc (size)))
  {
  }
  ~CountsMemory ()
  {
    g_atomic_rc_box_release (data_);
  }
  CountsMemory (const CountsMemory &) = delete;
  CountsMemory & operator= (const CountsMemory &) = delete;

  /* Copies `bins`; returns the copy, and a buffer of it in `buffer`. */
  const uint32_t *add (const uint32_t *bins, guint n_bins, GstBuffer ** buffer)
  {
    const gsize size = n_bins * sizeof (uint32_t);
    auto *copy = reinterpret_cast<uint32_t *> (data_ + used_);
    memcpy (copy, bins, size);
    *buffer = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, data_,
        size_, used_, size, g_atomic_rc_box_acquire (data_),
        g_atomic_rc_box_release);
    used_ += size;
    return copy;
  }

private:
  gsize size_;
  guint8 *data_;
  gsize used_ = 0;
};

/* Appends one channel's results (`bytes`: its bins, then its summary) to each
 * per-channel field. */
static void
append_channel (const cf::HistResultsLayout & layout, const guint8 * bytes,
    int component, const HistFrameState & counted, CountsMemory & counts,
    GValue (&fields)[N_CHANNEL_FIELDS])
{
  const guint n_bins = layout.bins;
  cf::HistogramSummary summary;
  memcpy (&summary, bytes + GST_ROUND_UP_8 (n_bins * sizeof (uint32_t)),
      sizeof summary);

  GValue name = G_VALUE_INIT;
  g_value_init (&name, G_TYPE_STRING);
  g_value_set_static_string (&name, channel_name (*layout.info, component));
  gst_value_array_append_and_take_value (&fields[FIELD_CHANNELS], &name);

  GstBuffer *bins_buffer;
  const uint32_t *bins = counts.add (reinterpret_cast<const uint32_t *> (bytes),
      n_bins, &bins_buffer);
  GValue bins_value = G_VALUE_INIT;
  g_value_init (&bins_value, GST_TYPE_BUFFER);
  g_value_take_boxed (&bins_value, bins_buffer);
  gst_value_array_append_and_take_value (&fields[FIELD_BINS], &bins_value);

  const guint64 binned = (guint64) summary.samples - summary.below -
      summary.above;
  append_uint (&fields[FIELD_TOTAL], summary.samples);
  append_uint (&fields[FIELD_BELOW], summary.below);
  append_uint (&fields[FIELD_ABOVE], summary.above);
  append_uint (&fields[FIELD_MIN], summary.min);
  append_uint (&fields[FIELD_MAX], summary.max);
  GValue mean = G_VALUE_INIT;
  g_value_init (&mean, G_TYPE_DOUBLE);
  g_value_set_double (&mean, summary.samples ?
      (gdouble) summary.sum / summary.samples : 0.0);
  gst_value_array_append_and_take_value (&fields[FIELD_MEAN], &mean);
  guint found[3];
  percentiles (bins, n_bins, binned, counted.lower, counted.upper, found);
  append_uint (&fields[FIELD_P1], found[0]);
  append_uint (&fields[FIELD_P50], found[1]);
  append_uint (&fields[FIELD_P99], found[2]);
}

/* Sets the per-channel fields of one block of results (the frame's or a
 * region's) on `fields`. */
static void
set_channel_fields (const cf::HistResultsLayout & layout, const guint8 * block,
    const HistFrameState & counted, CountsMemory & counts, GstStructure * fields)
{
  GValue arrays[N_CHANNEL_FIELDS] = { };
  for (GValue & array : arrays)
    gst_value_array_init (&array, counted.n_channels);
  for (guint i = 0; i < counted.n_channels; i++)
    append_channel (layout,
        block + i * cf::hist_channel_result_size (layout.bins),
        counted.channels[i], counted, counts, arrays);
  for (int f = 0; f < N_CHANNEL_FIELDS; f++)
    gst_structure_id_take_value (fields, channel_fields[f], &arrays[f]);
}

/* A region's own fields: its id, type and box (clipped). */
static GstStructure *
new_region_structure (const FrameRegion & region)
{
  GstStructure *results = gst_structure_new_id_empty (region_quarks[QUARK_REGION]);
  GValue id = G_VALUE_INIT;
  g_value_init (&id, G_TYPE_INT);
  g_value_set_int (&id, region.id);
  gst_structure_id_take_value (results, region_quarks[QUARK_ID], &id);
  GValue type = G_VALUE_INIT;
  g_value_init (&type, G_TYPE_STRING);
  /* It lives as long as the process (region_type_name). */
  g_value_set_static_string (&type, cf::region_type_name (region.type));
  gst_structure_id_take_value (results, region_quarks[QUARK_TYPE], &type);
  const int box[4] = { region.box.x, region.box.y, region.box.width,
    region.box.height
  };
  for (int i = 0; i < 4; i++) {
    GValue coordinate = G_VALUE_INIT;
    g_value_init (&coordinate, G_TYPE_UINT);
    g_value_set_uint (&coordinate, (guint) box[i]);
    gst_structure_id_take_value (results, region_quarks[QUARK_X + i],
        &coordinate);
  }
  return results;
}

/* The "regions" field: a structure per region, its box (clipped) and its
 * per-channel fields. */
static void
set_regions (const cf::HistResultsLayout & layout, const guint8 * bytes,
    const HistFrameState & counted, CountsMemory & counts, GstStructure * fields)
{
  const std::vector<FrameRegion> & regions = *layout.regions;
  GValue array = G_VALUE_INIT;
  gst_value_array_init (&array, regions.size ());
  for (gsize r = 0; r < regions.size (); r++) {
    GstStructure *results = new_region_structure (regions[r]);
    set_channel_fields (layout,
        bytes + (1 + r) * cf::hist_block_size (layout.bins), counted, counts,
        results);
    GValue region = G_VALUE_INIT;
    g_value_init (&region, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&region, results);
    gst_value_array_append_and_take_value (&array, &region);
  }
  gst_structure_id_take_value (fields, region_quarks[QUARK_REGIONS], &array);
}

void
cf::hist_set_results (const cf::HistResultsLayout & layout, const guint8 * bytes,
    const HistFrameState & counted, GstStructure * fields)
{
  const gsize n_blocks = 1 + (layout.regions ? layout.regions->size () : 0);
  CountsMemory counts (n_blocks * counted.n_channels * layout.bins *
      sizeof (uint32_t));
  gst_structure_set (fields, "range-min", G_TYPE_UINT, counted.lower,
      "range-max", G_TYPE_UINT, counted.upper, nullptr);
  set_channel_fields (layout, bytes, counted, counts, fields);
  if (layout.regions)
    set_regions (layout, bytes, counted, counts, fields);
}
