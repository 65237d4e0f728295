// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// cudahist as a user sees it: frames pass through untouched, every buffer carries the
// histogram meta (until an element changes its samples), the bus gets messages as
// interval says. Built twice: with
// CF_TEST_BACKEND "cpu" (CI) and "cuda" (the gpu suite, skipped by name without a
// device).
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <malloc.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "element_checks.h"
#include "format_table.h"
#include "plane_access.h"
#include "reference_histogram.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

const char *const kBackend = CF_TEST_BACKEND;

// Frames leave cudahist as they came.
cftest::FilterUnderTest hist(const std::string &properties = "") {
  return {"cudahist", properties,
          [](const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth) {
            for (int y = 0; y < src.height; y++)
              for (int x = 0; x < src.width; x++)
                cftest::write_sample(dst, depth, x, y, cftest::read_sample(src, depth, x, y));
          }};
}

struct HistConfig {
  guint bins = 256;
  guint range_min = 0;
  guint range_max = 65535;
  guint roi[4] = {0, 0, 0, 0};
  bool include_chroma = false;
  bool include_alpha = false;

  std::string properties() const {
    return "bins=" + std::to_string(bins) + " range-min=" + std::to_string(range_min) +
        " range-max=" + std::to_string(range_max) + " roi-x=" + std::to_string(roi[0]) +
        " roi-y=" + std::to_string(roi[1]) + " roi-width=" + std::to_string(roi[2]) +
        " roi-height=" + std::to_string(roi[3]) +
        " include-chroma=" + (include_chroma ? "true" : "false") +
        " include-alpha=" + (include_alpha ? "true" : "false");
  }
};

GstHarness *make_harness(const HistConfig &config, const std::string &extra = "") {
  const std::string line = std::string("cudahist backend=") + kBackend +
      " frames-in-flight=1 " + config.properties() + " " + extra;
  GstHarness *h = gst_harness_new_parse(line.c_str());
  fail_unless(h != nullptr, "%s", line.c_str());
  return h;
}

using cftest::caps_string;
using cftest::frame_pts;
using cftest::random_frame;
using cftest::video_info;

guint uint_at(const GValue *array, guint index) {
  return g_value_get_uint(gst_value_array_get_value(array, index));
}

const GValue *field(const GstStructure *s, const char *name) {
  const GValue *value = gst_structure_get_value(s, name);
  fail_unless(value != nullptr, "no field %s in %" GST_PTR_FORMAT, name, s);
  return value;
}

// The guint32 counts of a channel's "bins" buffer.
std::vector<uint32_t> counts_of(GstBuffer *buffer) {
  const gsize size = gst_buffer_get_size(buffer);
  fail_unless(size % sizeof(uint32_t) == 0, "bins of %zu bytes", size);
  std::vector<uint32_t> values(size / sizeof(uint32_t));
  gst_buffer_extract(buffer, 0, values.data(), size);
  return values;
}

// Channel `index`'s counts: a GstBuffer of guint32 in "bins".
std::vector<uint32_t> counts_at(const GValue *bins, guint index) {
  const GValue *counts = gst_value_array_get_value(bins, index);
  fail_unless(GST_VALUE_HOLDS_BUFFER(counts), "bins hold %s, not GstBuffer",
              G_VALUE_TYPE_NAME(counts));
  return counts_of(gst_value_get_buffer(counts));
}

// The smallest v with at least percent % of the binned samples <= v, as the last
// value of its bin (the element's documented rule), counted the slow way.
guint expected_percentile(const std::vector<uint32_t> &bins, guint lower, guint upper,
                          guint percent) {
  uint64_t binned = 0;
  for (uint32_t count : bins)
    binned += count;
  if (binned == 0)
    return 0;
  uint64_t cumulative = 0;
  for (guint v = lower;; v++) {
    const uint64_t bin = uint64_t(v - lower) * bins.size() / (uint64_t(upper) - lower + 1);
    // All of v's bin counts once v is its last value.
    const bool last_of_bin =
        v == upper || uint64_t(v + 1 - lower) * bins.size() / (uint64_t(upper) - lower + 1) != bin;
    if (!last_of_bin)
      continue;
    cumulative += bins[bin];
    if (cumulative * 100 >= binned * percent)
      return v;
  }
}

// The channels cudahist counts in frames of `info` with `config`, in its order.
std::vector<int> counted_channels(const GstVideoInfo &info, const HistConfig &config) {
  std::vector<int> channels;
  const cftest::TableFormat &format = cftest::table_format(info);
  for (guint c = 0; c < format.components().size(); c++) {
    const char letter = cftest::component_letter(format, c);
    if (letter == 'A' && !config.include_alpha)
      continue;
    if (format.is_yuv() && letter != 'Y' && !config.include_chroma)
      continue;
    channels.push_back(c);
  }
  return channels;
}

// Sets the rectangle of component c's plane that a histogram counts.
using RoiOf = std::function<void(int c, const cf::Plane &plane, cf::HistogramParams &params)>;

// Checks the per-channel fields of `s` (the frame's, or a region's) against the
// reference counts of each counted channel of `frame` in the rectangle roi_of gives.
void expect_channel_fields(const GstStructure *s, GstVideoFrame &frame,
                           const HistConfig &config, const RoiOf &roi_of,
                           const std::string &what) {
  const GstVideoInfo &info = frame.info;
  const std::vector<int> channels = counted_channels(info, config);
  const GValue *names = field(s, "channels");
  fail_unless_equals_int(gst_value_array_get_size(names), channels.size());

  for (size_t i = 0; i < channels.size(); i++) {
    const int c = channels[i];
    const cf::SampleDepth depth = cftest::table_format(info).sample_format().depth;
    const cf::Plane plane = cftest::frame_plane(frame, c);

    cf::HistogramParams params;
    params.bins = config.bins;
    params.upper = std::min(config.range_max, cf::max_sample_value(depth));
    params.lower = std::min(config.range_min, params.upper);
    roi_of(c, plane, params);
    const cftest::HistogramResult expected = cftest::reference_histogram(plane, depth, params);

    const std::string channel = what + " channel " +
        g_value_get_string(gst_value_array_get_value(names, i));
    const std::vector<uint32_t> bins = counts_at(field(s, "bins"), i);
    fail_unless_equals_int(bins.size(), config.bins);
    for (guint b = 0; b < config.bins; b++)
      fail_unless(bins[b] == expected.bins[b], "%s: bin %u: %u, expected %u",
                  channel.c_str(), b, bins[b], expected.bins[b]);
    const struct {
      const char *name;
      uint32_t value;
    } summary[] = {{"total", expected.summary.samples}, {"below", expected.summary.below},
                   {"above", expected.summary.above},   {"min", expected.summary.min},
                   {"max", expected.summary.max}};
    for (const auto &f : summary)
      fail_unless(uint_at(field(s, f.name), i) == f.value, "%s: %s %u, expected %u",
                  channel.c_str(), f.name, uint_at(field(s, f.name), i), f.value);
    const double mean = g_value_get_double(gst_value_array_get_value(field(s, "mean"), i));
    fail_unless(std::abs(mean - double(expected.summary.sum) / expected.summary.samples) < 1e-9,
                "%s: mean %f", channel.c_str(), mean);
    const struct {
      const char *name;
      guint percent;
    } percentiles[] = {{"p1", 1}, {"p50", 50}, {"p99", 99}};
    for (const auto &p : percentiles)
      fail_unless_equals_int(uint_at(field(s, p.name), i),
                             expected_percentile(expected.bins, params.lower, params.upper,
                                                 p.percent));
  }
}

// A box's rectangle in component c: every sample that covers one of its pixels
// (sample x covers luma pixels x * factor .. (x + 1) * factor - 1).
RoiOf covering_roi(const GstVideoInfo &info, gint64 x0, gint64 y0, gint64 x1, gint64 y1) {
  return [&info, x0, y0, x1, y1](int c, const cf::Plane &plane, cf::HistogramParams &params) {
    const cftest::TableFormat &format = cftest::table_format(info);
    const int x_factor = cftest::x_factor(format, cftest::component_letter(format, c));
    const int y_factor = cftest::y_factor(format, cftest::component_letter(format, c));
    int first_x = plane.width, last_x = -1, first_y = plane.height, last_y = -1;
    for (int x = 0; x < plane.width; x++)
      if ((x + 1) * gint64(x_factor) > x0 && x * gint64(x_factor) < x1) {
        first_x = std::min(first_x, x);
        last_x = x;
      }
    for (int y = 0; y < plane.height; y++)
      if ((y + 1) * gint64(y_factor) > y0 && y * gint64(y_factor) < y1) {
        first_y = std::min(first_y, y);
        last_y = y;
      }
    params.roi_x = first_x;
    params.roi_y = first_y;
    params.roi_width = last_x - first_x + 1;
    params.roi_height = last_y - first_y + 1;
  };
}

// The frame's own rectangle: roi-* in luma pixels, clipped to the frame (a size of 0:
// to the edge), counted as a region's box is.
RoiOf frame_roi(const GstVideoInfo &info, const HistConfig &config) {
  const gint64 width = GST_VIDEO_INFO_WIDTH(&info), height = GST_VIDEO_INFO_HEIGHT(&info);
  const gint64 x1 = config.roi[2] ? std::min<gint64>(gint64(config.roi[0]) + config.roi[2], width)
                                  : width;
  const gint64 y1 = config.roi[3] ? std::min<gint64>(gint64(config.roi[1]) + config.roi[3], height)
                                  : height;
  return covering_roi(info, config.roi[0], config.roi[1], x1, y1);
}

RoiOf region_roi(const GstVideoInfo &info, const cftest::ExpectedRegion &region) {
  return covering_roi(info, region.x0, region.y0, region.x1, region.y1);
}

// channels: the frame's and, where `regions` is given, each region's.
void expect_results(const GstStructure *s, GstBuffer *in, const GstVideoInfo &info,
                    const HistConfig &config, const std::string &what,
                    const std::vector<cftest::ExpectedRegion> *regions) {
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, const_cast<GstVideoInfo *>(&info), in, GST_MAP_READ));
  expect_channel_fields(s, frame, config, frame_roi(info, config), what);
  fail_unless(gst_structure_has_field(s, "regions") == (regions != nullptr),
              "%s: a regions field without regions=meta, or none with it", what.c_str());
  for (size_t r = 0; regions && r < regions->size(); r++) {
    const GValue *list = field(s, "regions");
    fail_unless_equals_int(gst_value_array_get_size(list), regions->size());
    const cftest::ExpectedRegion &want = (*regions)[r];
    const GstStructure *got = gst_value_get_structure(gst_value_array_get_value(list, r));
    gint id = -1;
    guint x = 0, y = 0, width = 0, height = 0;
    fail_unless(gst_structure_get(got, "id", G_TYPE_INT, &id, "x", G_TYPE_UINT, &x, "y",
                                  G_TYPE_UINT, &y, "width", G_TYPE_UINT, &width, "height",
                                  G_TYPE_UINT, &height, nullptr),
                "%s: region %zu: %" GST_PTR_FORMAT, what.c_str(), r, got);
    fail_unless_equals_int(id, want.id);
    fail_unless_equals_string(gst_structure_get_string(got, "type"), want.type);
    fail_unless(x == want.x0 && y == want.y0 && width == want.x1 - want.x0 &&
                    height == want.y1 - want.y0,
                "%s: region %zu at %u,%u %ux%u", what.c_str(), r, x, y, width, height);
    expect_channel_fields(got, frame, config, region_roi(info, want),
                          what + " region " + std::to_string(r));
  }
  gst_video_frame_unmap(&frame);
}

// The same for the meta of `out`.
void expect_meta(GstBuffer *in, GstBuffer *out, const GstVideoInfo &info,
                 const HistConfig &config, const std::string &what,
                 const std::vector<cftest::ExpectedRegion> *regions = nullptr) {
  GstCustomMeta *meta = gst_buffer_get_custom_meta(out, "GstCudaHistMeta");
  fail_unless(meta != nullptr, "%s: no GstCudaHistMeta", what.c_str());
  expect_results(gst_custom_meta_get_structure(meta), in, info, config, what, regions);
}

// One random frame through a fresh harness: the frame unchanged and the very same
// memory, the meta right.
// With interlace-mode `interlace`: every sample counted, as in a progressive frame
// (alternate: a buffer holds one field).
void check_counts(const char *format, int width, int height, const HistConfig &config,
                  uint32_t seed, const char *interlace = "progressive") {
  const std::string what = std::string(format) + " " + std::to_string(width) + "x" +
      std::to_string(height) + " " + interlace + " " + config.properties();
  GstHarness *h = make_harness(config);
  std::string caps_text = caps_string(format, width, height) + ",interlace-mode=" + interlace;
  if (g_str_equal(interlace, "alternate"))
    caps_text.replace(0, std::strlen("video/x-raw"), "video/x-raw(format:Interlaced)");
  GstCaps *caps = gst_caps_from_string(caps_text.c_str());
  GstVideoInfo info;
  fail_unless(gst_video_info_from_caps(&info, caps));
  gst_harness_set_src_caps(h, caps);
  GstBuffer *in = random_frame(h, info, seed, frame_pts(0));
  GstMemory *memory = gst_buffer_peek_memory(in, 0);
  gst_buffer_ref(in);
  fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(h);
  fail_unless(out != nullptr, "%s: no output", what.c_str());
  // Passed on as it came: no copy of the samples.
  fail_unless(gst_buffer_peek_memory(out, 0) == memory, "%s: frame copied", what.c_str());
  expect_meta(in, out, info, config, what);
  gst_buffer_unref(in);
  gst_buffer_unref(out);
  gst_harness_teardown(h);
}

}  // namespace

GST_START_TEST(test_every_format) {
  cftest::check_every_format(kBackend, {hist(), hist("include-chroma=true include-alpha=true")});
}
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_large_frames(kBackend, hist()); }
GST_END_TEST;

// The counts of frames in every kind of foreign memory (include-chroma=true).
GST_START_TEST(test_foreign_input) {
  HistConfig config;
  config.include_chroma = true;
  cftest::check_foreign_input(
      kBackend, hist(),
      [&](GstBuffer *in, GstBuffer *out, const GstVideoInfo &info, const std::string &what) {
        expect_meta(in, out, info, config, what);
      });
}
GST_END_TEST;

GST_START_TEST(test_eos_drain) { cftest::check_eos_drain(kBackend, hist()); }
GST_END_TEST;

GST_START_TEST(test_flush) { cftest::check_flush(kBackend, hist()); }
GST_END_TEST;

GST_START_TEST(test_caps_change) { cftest::check_caps_change(kBackend, hist()); }
GST_END_TEST;

GST_START_TEST(test_state_cycles) { cftest::check_state_cycles(kBackend, hist()); }
GST_END_TEST;

GST_START_TEST(test_latency) { cftest::check_latency(kBackend, hist()); }
GST_END_TEST;

GST_START_TEST(test_live_source) { cftest::check_live_source(kBackend, hist()); }
GST_END_TEST;

GST_START_TEST(test_qos) { cftest::check_qos(kBackend, hist()); }
GST_END_TEST;

// bins, the range and the roi changed while two frames are in flight: the frames in
// before the change are counted as before, those after with the new values; then
// regions=meta, from the next frame.
GST_START_TEST(test_changes_mid_stream) {
  HistConfig before, after;
  before.include_chroma = after.include_chroma = true;
  after.bins = 64;
  after.range_min = 16;
  after.range_max = 200;
  after.roi[0] = 3, after.roi[1] = 5, after.roi[2] = 20, after.roi[3] = 11;
  GstHarness *h = make_harness(before, "frames-in-flight=2");
  gst_harness_set_live(h, FALSE);
  GstElement *element = gst_harness_find_element(h, "cudahist");
  gst_harness_set_src_caps_str(h, caps_string("NV12", 40, 30).c_str());
  const GstVideoInfo info = video_info("NV12", 40, 30);
  std::vector<GstBuffer *> inputs;
  std::vector<cftest::TestRegion> regions = cftest::test_regions(40, 30);
  for (int i = 0; i < 5; i++) {
    if (i == 2)
      g_object_set(element, "bins", after.bins, "range-min", after.range_min, "range-max",
                   after.range_max, "roi-x", after.roi[0], "roi-y", after.roi[1], "roi-width",
                   after.roi[2], "roi-height", after.roi[3], nullptr);
    // Regions from the next frame on: the results grow room for them.
    if (i == 4) {
      gst_util_set_object_arg(G_OBJECT(element), "regions", "meta");
      gst_util_set_object_arg(G_OBJECT(element), "region-types", "face,plate");
    }
    GstBuffer *in = random_frame(h, info, 870 + i, frame_pts(i));
    if (i == 4)
      cftest::attach_regions(in, regions);
    inputs.push_back(gst_buffer_ref(in));
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  }
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  const std::vector<cftest::ExpectedRegion> expected = cftest::expected_regions(info, regions, 0);
  for (int i = 0; i < 5; i++) {
    GstBuffer *out = gst_harness_pull(h);
    fail_unless(out != nullptr);
    expect_meta(inputs[i], out, info, i < 2 ? before : after,
                "frame " + std::to_string(i) + (i < 2 ? ", before" : ", after"),
                i == 4 ? &expected : nullptr);
    gst_buffer_unref(out);
    gst_buffer_unref(inputs[i]);
  }
  gst_object_unref(element);
  gst_harness_teardown(h);
}
GST_END_TEST;

GST_START_TEST(test_counts) {
  uint32_t seed = 1;
  HistConfig plain;
  for (const char *format : {"GRAY8", "GRAY16_LE", "I420", "NV12", "YUY2", "RGBA", "RGB", "xBGR"})
    for (const auto &size : {std::pair{1, 1}, std::pair{17, 9}, std::pair{320, 241}})
      check_counts(format, size.first, size.second, plain, seed++);

  HistConfig all;
  all.include_chroma = all.include_alpha = true;
  all.bins = 7;
  for (const char *format : {"I420", "NV21", "Y42B", "UYVY", "ARGB", "BGRA"})
    check_counts(format, 65, 33, all, seed++);
  for (const char *format : {"I420", "NV12", "YUY2", "GRAY16_LE"})
    for (const char *interlace : {"interleaved", "alternate"})
      check_counts(format, 17, 10, all, seed++, interlace);

  HistConfig narrow;  // many samples below and above the range
  narrow.bins = 13;
  narrow.range_min = 40;
  narrow.range_max = 200;
  check_counts("GRAY8", 64, 48, narrow, seed++);
  check_counts("RGB", 64, 48, narrow, seed++);
  narrow.range_min = narrow.range_max = 100;
  narrow.bins = 1;
  check_counts("GRAY8", 64, 48, narrow, seed++);

  HistConfig wide;  // 16-bit: many bins, a range of its own
  wide.bins = 65536;
  check_counts("GRAY16_LE", 300, 200, wide, seed++);
  wide.bins = 1000;
  wide.range_min = 1000;
  wide.range_max = 60000;
  check_counts("GRAY16_LE", 300, 200, wide, seed++);

  HistConfig roi;  // a region, also partly outside the frame (clipped)
  roi.roi[0] = 5;
  roi.roi[1] = 3;
  roi.roi[2] = 21;
  roi.roi[3] = 11;
  roi.include_chroma = true;
  for (const char *format : {"GRAY8", "I420", "NV12", "YUY2", "RGBA"})
    check_counts(format, 40, 30, roi, seed++);
  roi.roi[2] = roi.roi[3] = 1000;
  check_counts("I420", 40, 30, roi, seed++);
}
GST_END_TEST;

// regions=meta: the frame's histogram as before, and one per region of the types
// asked, in the meta and in the message, for every kind of region (partly outside,
// empty, overlapping, not selected); frames without regions get an empty list.
GST_START_TEST(test_regions) {
  HistConfig config;
  config.bins = 16;
  config.roi[0] = 2;
  config.include_chroma = true;
  uint32_t seed = 400;
  for (const char *format : {"GRAY8", "GRAY16_LE", "I420", "NV12", "YUY2", "Y444", "RGBA",
                             "xRGB", "RGB"}) {
    const std::string what = std::string(format) + " regions=meta";
    GstHarness *h = make_harness(config, "regions=meta region-types=face,plate interval=0");
    GstBus *bus = gst_bus_new();
    gst_element_set_bus(h->element, bus);
    gst_harness_set_src_caps_str(h, caps_string(format, 35, 22).c_str());
    const GstVideoInfo info = video_info(format, 35, 22);
    std::vector<cftest::TestRegion> regions = cftest::test_regions(35, 22);
    GstBuffer *in = random_frame(h, info, seed++, frame_pts(0));
    cftest::attach_regions(in, regions);
    const std::vector<cftest::ExpectedRegion> expected = cftest::expected_regions(info, regions, 0);
    GstBuffer *bare = random_frame(h, info, seed++, frame_pts(1));
    for (GstBuffer *frame : {in, bare}) {
      gst_buffer_ref(frame);
      fail_unless_equals_int(gst_harness_push(h, frame), GST_FLOW_OK);
    }
    const std::vector<cftest::ExpectedRegion> none;
    for (GstBuffer *frame : {in, bare}) {
      GstBuffer *out = gst_harness_pull(h);
      fail_unless(out != nullptr, "%s: no output", what.c_str());
      expect_meta(frame, out, info, config, what, frame == in ? &expected : &none);
      gst_buffer_unref(out);
    }
    for (GstBuffer *frame : {in, bare}) {
      GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT);
      fail_unless(message != nullptr, "%s: no message", what.c_str());
      expect_results(gst_message_get_structure(message), frame, info, config,
                     what + " message", frame == in ? &expected : &none);
      gst_message_unref(message);
    }
    gst_element_set_bus(h->element, nullptr);
    gst_object_unref(bus);
    gst_buffer_unref(in);
    gst_buffer_unref(bare);
    gst_harness_teardown(h);
  }
}
GST_END_TEST;

// Every "bins" buffer of the frame and of its regions shares one block of counts: a
// buffer an application keeps holds its counts after the frame (and its meta) is gone.
GST_START_TEST(test_counts_outlive_frame) {
  HistConfig config;
  config.include_chroma = true;
  GstHarness *h = make_harness(config, "regions=meta post-messages=false");
  gst_harness_set_src_caps_str(h, caps_string("NV12", 35, 22).c_str());
  const GstVideoInfo info = video_info("NV12", 35, 22);
  GstBuffer *in = random_frame(h, info, 77, frame_pts(0));
  std::vector<cftest::TestRegion> regions_in = cftest::test_regions(35, 22);
  cftest::attach_regions(in, regions_in);
  fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(h);
  fail_unless(out != nullptr, "no output");
  const GstStructure *s =
      gst_custom_meta_get_structure(gst_buffer_get_custom_meta(out, "GstCudaHistMeta"));
  std::vector<const GValue *> all_bins{field(s, "bins")};
  const GValue *regions = field(s, "regions");
  fail_unless(gst_value_array_get_size(regions) > 0, "no regions counted");
  for (guint r = 0; r < gst_value_array_get_size(regions); r++)
    all_bins.push_back(field(gst_value_get_structure(gst_value_array_get_value(regions, r)),
                             "bins"));
  std::vector<GstBuffer *> kept;
  std::vector<std::vector<uint32_t>> counts;
  for (const GValue *bins : all_bins)
    for (guint c = 0; c < gst_value_array_get_size(bins); c++) {
      kept.push_back(gst_buffer_ref(gst_value_get_buffer(gst_value_array_get_value(bins, c))));
      counts.push_back(counts_at(bins, c));
    }
  gst_buffer_unref(out);
  gst_harness_teardown(h);
  for (size_t i = 0; i < kept.size(); i++) {
    fail_unless(counts_of(kept[i]) == counts[i],
                "bins buffer %zu changed once the frame was freed", i);
    gst_buffer_unref(kept[i]);
  }
}
GST_END_TEST;

GST_START_TEST(test_messages) {
  struct {
    std::string properties;
    std::vector<int> frames;  // that a message reports
  } cases[] = {
      {"interval=0", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
      {"interval-frames=3 interval=0", {2, 5, 8}},
      {"interval=99000000", {0, 3, 6, 9}},  // 99 ms at 30 fps
      {"interval-frames=2 interval=99000000", {1, 4, 7}},  // both must have passed
      {"post-messages=false", {}},
      // The largest interval: one message, not one a frame (the end of the
      // interval must not wrap).
      {"interval=18446744073709551615", {0}},
  };
  for (const auto &c : cases) {
    HistConfig config;
    GstHarness *h = make_harness(config, c.properties);
    GstBus *bus = gst_bus_new();
    gst_element_set_bus(h->element, bus);
    gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
    const GstVideoInfo info = video_info("GRAY8", 16, 8);
    std::vector<GstStructure *> metas;
    for (int i = 0; i < 10; i++) {
      fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 700 + i, frame_pts(i))), GST_FLOW_OK);
      GstBuffer *out = gst_harness_pull(h);
      // Every buffer has its meta, messages or not.
      GstCustomMeta *meta = gst_buffer_get_custom_meta(out, "GstCudaHistMeta");
      fail_unless(meta != nullptr);
      metas.push_back(gst_structure_copy(gst_custom_meta_get_structure(meta)));
      gst_buffer_unref(out);
    }
    std::vector<int> reported;
    GstMessage *message;
    while ((message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT))) {
      const GstStructure *s = gst_message_get_structure(message);
      fail_unless(gst_structure_has_name(s, "cudahist"));
      guint64 timestamp, running_time, stream_time, duration;
      fail_unless(gst_structure_get_uint64(s, "timestamp", &timestamp));
      fail_unless(gst_structure_get_uint64(s, "running-time", &running_time));
      fail_unless(gst_structure_get_uint64(s, "stream-time", &stream_time));
      fail_unless(gst_structure_get_uint64(s, "duration", &duration));
      fail_unless_equals_uint64(running_time, timestamp);
      fail_unless_equals_uint64(duration, GST_SECOND / 30);
      const int frame = static_cast<int>(timestamp / (GST_SECOND / 30));
      fail_unless(frame < static_cast<int>(metas.size()));
      // The message carries its frame's results, as the meta does.
      fail_unless(gst_structure_foreach(
                      metas[frame],
                      [](GQuark field, const GValue *value, gpointer message) -> gboolean {
                        const GValue *sent = gst_structure_id_get_value(
                            static_cast<const GstStructure *>(message), field);
                        return sent && gst_value_compare(value, sent) == GST_VALUE_EQUAL;
                      },
                      const_cast<GstStructure *>(s)),
                  "'%s': message of frame %d differs from its meta", c.properties.c_str(),
                  frame);
      reported.push_back(frame);
      gst_message_unref(message);
    }
    fail_unless(reported == c.frames, "'%s': messages for %zu frames", c.properties.c_str(),
                reported.size());
    for (GstStructure *meta : metas)
      gst_structure_free(meta);
    gst_element_set_bus(h->element, nullptr);
    gst_object_unref(bus);
    gst_harness_teardown(h);
  }
}
GST_END_TEST;

namespace {

// A harness of cudahist with `properties` for GRAY8 16x8 frames, its messages on a
// bus of its own (*bus).
GstHarness *message_harness(const std::string &properties, GstBus **bus) {
  GstHarness *h = make_harness(HistConfig(), properties);
  *bus = gst_bus_new();
  gst_element_set_bus(h->element, *bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  return h;
}

void free_message_harness(GstHarness *h, GstBus *bus) {
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}

// One frame with `pts` (GST_CLOCK_TIME_NONE: no timestamp, and no duration) in and out.
void push_frame(GstHarness *h, uint32_t seed, GstClockTime pts) {
  const GstVideoInfo info = video_info("GRAY8", 16, 8);
  GstBuffer *in = random_frame(h, info, seed, pts);
  if (!GST_CLOCK_TIME_IS_VALID(pts))
    GST_BUFFER_DURATION(in) = GST_CLOCK_TIME_NONE;
  fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(h);
  fail_unless(out != nullptr);
  gst_buffer_unref(out);
}

// The "timestamp" of each message on `bus`, in order; the bus emptied.
std::vector<guint64> pop_message_timestamps(GstBus *bus) {
  std::vector<guint64> timestamps;
  while (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    const GstStructure *s = gst_message_get_structure(message);
    fail_unless(gst_structure_has_name(s, "cudahist"));
    guint64 timestamp = 0, running_time = 0;
    fail_unless(gst_structure_get_uint64(s, "timestamp", &timestamp));
    fail_unless(gst_structure_get_uint64(s, "running-time", &running_time));
    fail_unless_equals_uint64(running_time, timestamp);
    timestamps.push_back(timestamp);
    gst_message_unref(message);
  }
  return timestamps;
}

}  // namespace

// Messages by default as level posts its own: at most one per 100 ms of running time,
// for the first frame whose running time is 100 ms or more past the last message's.
GST_START_TEST(test_default_message_rate) {
  GstElement *element = gst_element_factory_make("cudahist", nullptr);
  fail_unless(element != nullptr);
  gboolean post_messages = FALSE;
  guint64 interval = 0;
  guint interval_frames = 0;
  g_object_get(element, "post-messages", &post_messages, "interval", &interval,
               "interval-frames", &interval_frames, nullptr);
  fail_unless(post_messages);
  fail_unless_equals_uint64(interval, 100 * GST_MSECOND);
  fail_unless_equals_int(interval_frames, 1);
  gst_object_unref(element);

  GstBus *bus;
  GstHarness *h = message_harness("", &bus);
  std::vector<guint64> expected;
  GstClockTime last = GST_CLOCK_TIME_NONE;
  for (int i = 0; i < 30; i++) {
    push_frame(h, 900 + i, frame_pts(i));
    if (!GST_CLOCK_TIME_IS_VALID(last) || frame_pts(i) - last >= 100 * GST_MSECOND) {
      expected.push_back(frame_pts(i));
      last = frame_pts(i);
    }
  }
  // frame_pts steps by 33,333,333 ns, so 3 steps fall 1 ns short: every fourth frame.
  fail_unless_equals_int(expected.size(), 8);
  const std::vector<guint64> got = pop_message_timestamps(bus);
  fail_unless(got == expected, "%zu messages for 30 frames at 30 fps, expected %zu",
              got.size(), expected.size());
  // A flushing seek back to the start: running time starts again below the last
  // message's, and the interval with it, so the first frame there posts.
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_start()));
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));
  for (int i = 0; i < 3; i++)
    push_frame(h, 930 + i, frame_pts(i));
  fail_unless(pop_message_timestamps(bus) == std::vector<guint64>{frame_pts(0)},
              "no message, or more than one, for the first frame after a seek back");
  free_message_harness(h, bus);
}
GST_END_TEST;

// Frames without a timestamp have no running time: they wait out the interval on the
// monotonic clock, so a burst of them posts once, not once a frame, and another
// burst once the interval has passed posts once more; interval=0 still lets each post.
GST_START_TEST(test_messages_without_timestamps) {
  GstBus *bus;
  GstHarness *h = message_harness("interval=1000000000", &bus);
  for (int i = 0; i < 10; i++)
    push_frame(h, 950 + i, GST_CLOCK_TIME_NONE);
  std::vector<guint64> got = pop_message_timestamps(bus);
  fail_unless_equals_int(got.size(), 1);
  fail_unless_equals_uint64(got[0], GST_CLOCK_TIME_NONE);
  g_usleep(G_USEC_PER_SEC * 11 / 10);
  for (int i = 0; i < 5; i++)
    push_frame(h, 960 + i, GST_CLOCK_TIME_NONE);
  fail_unless_equals_int(pop_message_timestamps(bus).size(), 1);
  free_message_harness(h, bus);

  h = message_harness("interval=0", &bus);
  for (int i = 0; i < 10; i++)
    push_frame(h, 970 + i, GST_CLOCK_TIME_NONE);
  got = pop_message_timestamps(bus);
  fail_unless(got == std::vector<guint64>(10, GST_CLOCK_TIME_NONE),
              "interval=0: %zu messages for 10 frames without timestamps", got.size());
  free_message_harness(h, bus);
}
GST_END_TEST;

namespace {

// Elements from GStreamer's plugins that test_meta_tags puts after cudahist; where
// one is missing its cases are left out and the suite reports itself skipped.
const char *const kMetaTagElements[] = {"videoconvert", "videoscale", "videoflip"};

bool have_element(const char *name) {
  GstElementFactory *factory = gst_element_factory_find(name);
  if (factory)
    gst_object_unref(factory);
  return factory != nullptr;
}

// The Y channel's "total" of the meta of `buffer` (16 x 8 = 128), or -1 without one.
gint64 meta_total(GstBuffer *buffer) {
  GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, "GstCudaHistMeta");
  if (!meta)
    return -1;
  return uint_at(field(gst_custom_meta_get_structure(meta), "total"), 0);
}

}  // namespace

// The meta describes the samples counted: an element after cudahist that changes them
// (converts the format, scales, flips, filters) drops it, as the meta's tags ask; one
// that passes the buffer on keeps it, and so does a copy of the whole buffer, not a
// copy of part of it.
GST_START_TEST(test_meta_tags) {
  const std::string ours = std::string(" backend=") + kBackend + " frames-in-flight=1";
  const struct {
    std::string after;
    const char *needs;  // one of kMetaTagElements, or none
    bool kept;
  } cases[] = {
      {"videoconvert ! capsfilter caps=\"video/x-raw,format=RGBA\"", "videoconvert", false},
      {"videoscale ! capsfilter caps=\"video/x-raw,width=8,height=4\"", "videoscale", false},
      // video-direction: method=horizontal-flip leaves 1.22.0's videoflip at identity.
      {"videoflip video-direction=horiz", "videoflip", false},
      {"cudamedian" + ours, nullptr, false},
      {"cudagauss" + ours, nullptr, false},
      {"identity", nullptr, true},
      {"queue", nullptr, true},
      {"tee ! queue", nullptr, true},
      // Nothing to change: the buffer passed on as it came.
      {"videoconvert", "videoconvert", true},
  };
  const GstVideoInfo info = video_info("I420", 16, 8);
  for (const auto &c : cases) {
    if (c.needs && !have_element(c.needs)) {
      g_print("test_meta_tags: no element %s here, '%s' left out\n", c.needs, c.after.c_str());
      continue;
    }
    const std::string line = "cudahist" + ours + " ! " + c.after;
    GstHarness *h = gst_harness_new_parse(line.c_str());
    fail_unless(h != nullptr, "%s", line.c_str());
    gst_harness_set_src_caps_str(h, caps_string("I420", 16, 8).c_str());
    fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 990, frame_pts(0))),
                           GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    fail_unless(out != nullptr, "%s: no output", line.c_str());
    fail_unless(meta_total(out) == (c.kept ? 128 : -1), "%s: the meta %s", line.c_str(),
                c.kept ? "is gone" : "is still there");
    gst_buffer_unref(out);
    gst_harness_teardown(h);
  }

  GstHarness *h = make_harness(HistConfig());
  gst_harness_set_src_caps_str(h, caps_string("I420", 16, 8).c_str());
  fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 991, frame_pts(0))),
                         GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(h);
  fail_unless(out != nullptr);
  const gsize size = gst_buffer_get_size(out);
  const struct {
    const char *what;
    GstBuffer *copy;
    bool kept;
  } copies[] = {
      {"gst_buffer_copy", gst_buffer_copy(out), true},
      {"gst_buffer_copy_deep", gst_buffer_copy_deep(out), true},
      {"a region of the whole buffer", gst_buffer_copy_region(out, GST_BUFFER_COPY_ALL, 0, size),
       true},
      {"a region of half the buffer",
       gst_buffer_copy_region(out, GST_BUFFER_COPY_ALL, 0, size / 2), false},
  };
  for (const auto &c : copies) {
    fail_unless(meta_total(c.copy) == (c.kept ? 128 : -1), "%s: the meta %s", c.what,
                c.kept ? "is gone" : "is still there");
    gst_buffer_unref(c.copy);
  }
  gst_buffer_unref(out);
  gst_harness_teardown(h);
}
GST_END_TEST;

// More bins than an 8-bit format's limit: refused when the caps arrive, with a message.
GST_START_TEST(test_too_many_bins) {
  HistConfig config;
  config.bins = 4097;
  GstHarness *h = make_harness(config);
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  const GstVideoInfo info = video_info("GRAY8", 16, 8);
  fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 1, frame_pts(0))),
                         GST_FLOW_NOT_NEGOTIATED);
  GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(message != nullptr);
  GError *error = nullptr;
  gst_message_parse_error(message, &error, nullptr);
  fail_unless(g_strrstr(error->message, "4097") != nullptr, "%s", error->message);
  g_error_free(error);
  gst_message_unref(message);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST;

namespace {

// `count` regions of interest of type face on a width x height frame, boxes of 2x2
// where they fit.
void add_faces(GstBuffer *buffer, int count, int width, int height) {
  for (int r = 0; r < count; r++)
    gst_buffer_add_video_region_of_interest_meta(buffer, "face", (r * 2) % width,
                                                 (r * 2 / width * 2) % height, 2, 2);
}

// The regions of the meta of `buffer`; -1 where it has no meta or no region field.
int regions_counted(GstBuffer *buffer) {
  GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, "GstCudaHistMeta");
  if (!meta)
    return -1;
  const GValue *regions = gst_structure_get_value(gst_custom_meta_get_structure(meta),
                                                  "regions");
  return regions ? int(gst_value_array_get_size(regions)) : -1;
}

}  // namespace

// A change refused while playing, then another: bins=4097 on 8-bit frames is an error,
// and until the frames can be set up again no frame is processed (each fails), so that
// regions=meta set next finds no frame counted for one configuration and sized for
// another; a valid bins again and the frames flow, with their regions.
GST_START_TEST(test_refused_change_then_another) {
  GstHarness *h = make_harness(HistConfig(), "post-messages=false");
  GstElement *element = gst_harness_find_element(h, "cudahist");
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 64, 48).c_str());
  const GstVideoInfo info = video_info("GRAY8", 64, 48);
  int n = 0;
  const auto push = [&](int regions) {
    GstBuffer *in = random_frame(h, info, 40 + n, frame_pts(n));
    n++;
    add_faces(in, regions, 64, 48);
    return gst_harness_push(h, in);
  };
  fail_unless_equals_int(push(0), GST_FLOW_OK);
  gst_buffer_unref(gst_harness_pull(h));
  g_object_set(element, "bins", 4097u, nullptr);
  fail_unless_equals_int(push(0), GST_FLOW_ERROR);
  GstMessage *error = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(error != nullptr, "bins=4097 on GRAY8 frames: no error");
  gst_message_unref(error);
  g_object_set(element, "regions", 1 /* meta */, nullptr);
  for (int i = 0; i < 3; i++)
    fail_unless_equals_int(push(200), GST_FLOW_ERROR);
  g_object_set(element, "bins", 64u, nullptr);
  fail_unless_equals_int(push(200), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(h);
  fail_unless_equals_int(regions_counted(out), 200);
  gst_buffer_unref(out);
  fail_unless_equals_int(gst_harness_buffers_received(h), 2);
  gst_object_unref(element);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST;

// A segment in another format than TIME (appsrc's default is BYTES): frames with
// timestamps have no running time there; the message says none, and nothing on the
// way is a critical (which Check fails on).
GST_START_TEST(test_bytes_segment) {
  GstBus *bus;
  GstHarness *h = message_harness("interval=0", &bus);
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_BYTES);
  fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));
  push_frame(h, 990, frame_pts(3));
  GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT);
  fail_unless(message != nullptr, "no message");
  const GstStructure *s = gst_message_get_structure(message);
  guint64 timestamp = 0, running_time = 0, stream_time = 0;
  fail_unless(gst_structure_get_uint64(s, "timestamp", &timestamp));
  fail_unless(gst_structure_get_uint64(s, "running-time", &running_time));
  fail_unless(gst_structure_get_uint64(s, "stream-time", &stream_time));
  fail_unless_equals_uint64(timestamp, frame_pts(3));
  fail_unless_equals_uint64(running_time, GST_CLOCK_TIME_NONE);
  fail_unless_equals_uint64(stream_time, GST_CLOCK_TIME_NONE);
  gst_message_unref(message);
  free_message_harness(h, bus);
}
GST_END_TEST;

// Region types as upstream may give them, each in the results as a string: none
// (quark 0) as "", a name that is not UTF-8 made valid (a structure takes UTF-8 only,
// and would drop the field), others as they are.
GST_START_TEST(test_region_type_names) {
  GstHarness *h = make_harness(HistConfig(), "regions=meta post-messages=false");
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  const GstVideoInfo info = video_info("GRAY8", 16, 8);
  GstBuffer *in = random_frame(h, info, 70, frame_pts(0));
  const GQuark types[] = {0, g_quark_from_string("pl\xffte"), g_quark_from_string("face")};
  for (GQuark type : types)
    gst_buffer_add_video_region_of_interest_meta_id(in, type, 1, 1, 4, 4);
  fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  GstBuffer *out = gst_harness_pull(h);
  GstCustomMeta *meta = gst_buffer_get_custom_meta(out, "GstCudaHistMeta");
  fail_unless(meta != nullptr);
  const GValue *regions = field(gst_custom_meta_get_structure(meta), "regions");
  fail_unless_equals_int(gst_value_array_get_size(regions), 3);
  const char *expected[] = {"", "pl\uFFFDte", "face"};
  for (guint r = 0; r < 3; r++) {
    const GstStructure *region = gst_value_get_structure(gst_value_array_get_value(regions, r));
    const gchar *type = gst_structure_get_string(region, "type");
    fail_unless(type != nullptr, "region %u: no type", r);
    fail_unless_equals_string(type, expected[r]);
  }
  gst_buffer_unref(out);
  gst_harness_teardown(h);
}
GST_END_TEST;

namespace {

// Bytes of results the element holds: on the CUDA backend its pinned memory (results
// are there), on the CPU what the process has allocated (GStreamer's and the test's
// own allocations are few and small beside a histogram block of a megabyte).
guint64 held_bytes(GstElement *element) {
  if (g_str_equal(kBackend, "cuda")) {
    guint64 pinned = 0;
    g_object_get(element, "pinned-memory", &pinned, nullptr);
    return pinned;
  }
  return mallinfo2().uordblks;
}

}  // namespace

// What cudahist holds grows with the regions frames carry, not with what could come:
// at 65536 bins (a block of results, four channels, is a megabyte) and regions=meta,
// two frames in flight without regions hold a few blocks, not 257 each; a frame of
// 200 regions holds at most 32 MiB of region results (31 regions counted, with a
// warning naming the limit).
GST_START_TEST(test_results_in_proportion) {
  GstHarness *h = gst_harness_new_parse(
      (std::string("cudahist backend=") + kBackend +
       " frames-in-flight=2 bins=65536 regions=meta post-messages=false").c_str());
  gst_harness_set_live(h, FALSE);
  GstElement *element = gst_harness_find_element(h, "cudahist");
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY16_LE", 8, 8).c_str());
  const GstVideoInfo info = video_info("GRAY16_LE", 8, 8);
  constexpr guint64 kMiB = 1 << 20;
  const guint64 before = held_bytes(element);
  for (int i = 0; i < 20; i++) {
    fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 60 + i, frame_pts(i))),
                           GST_FLOW_OK);
    while (GstBuffer *out = gst_harness_try_pull(h)) {
      fail_unless_equals_int(regions_counted(out), 0);
      gst_buffer_unref(out);
    }
  }
  const guint64 without_regions = held_bytes(element);
  fail_unless(without_regions < before + 16 * kMiB, "%" G_GUINT64_FORMAT
              " MiB more held for frames without regions", (without_regions - before) / kMiB);
  // On CUDA a frame without regions may still be in flight: frames told apart by PTS.
  for (int i = 20; i < 24; i++) {
    GstBuffer *in = random_frame(h, info, 60 + i, frame_pts(i));
    add_faces(in, 200, 8, 8);
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
    while (GstBuffer *out = gst_harness_try_pull(h)) {
      fail_unless_equals_int(regions_counted(out), GST_BUFFER_PTS(out) >= frame_pts(20) ? 31 : 0);
      gst_buffer_unref(out);
    }
  }
  const guint64 with_regions = held_bytes(element);
  fail_unless(with_regions < before + 3 * 34 * kMiB, "%" G_GUINT64_FORMAT
              " MiB more held for frames of 200 regions", (with_regions - before) / kMiB);
  GstMessage *warning = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING);
  fail_unless(warning != nullptr, "no warning of the regions past the limit");
  GError *error = nullptr;
  gst_message_parse_warning(warning, &error, nullptr);
  fail_unless(g_strrstr(error->message, "only the first 31") != nullptr, "%s", error->message);
  g_error_free(error);
  gst_message_unref(warning);
  gst_object_unref(element);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST;

// roi-* and a region meta of the same box count the same samples: every sample that
// covers a pixel of the box, chroma included; a box inside the frame warns of nothing.
GST_START_TEST(test_roi_as_region) {
  const struct {
    const char *format;
    int width, height;
    guint box[4];
    std::vector<guint> totals;  // Y, U, V
  } cases[] = {
      {"I420", 8, 8, {3, 3, 1, 1}, {1, 1, 1}},
      {"I420", 8, 8, {1, 1, 2, 2}, {4, 4, 4}},
      {"I420", 8, 8, {2, 1, 3, 5}, {15, 6, 6}},
      {"P010_10LE", 7, 5, {4, 2, 2, 2}, {4, 1, 1}},
      {"P010_10LE", 7, 5, {5, 3, 2, 2}, {4, 4, 4}},
      {"NV12", 7, 5, {6, 4, 1, 1}, {1, 1, 1}},
      {"YUY2", 7, 5, {0, 0, 3, 2}, {6, 4, 4}},
  };
  for (const auto &c : cases) {
    HistConfig config;
    std::copy(std::begin(c.box), std::end(c.box), config.roi);
    config.include_chroma = true;
    GstHarness *h = make_harness(config, "regions=meta");
    GstBus *bus = gst_bus_new();
    gst_element_set_bus(h->element, bus);
    gst_harness_set_src_caps_str(h, caps_string(c.format, c.width, c.height).c_str());
    const GstVideoInfo info = video_info(c.format, c.width, c.height);
    GstBuffer *in = random_frame(h, info, 77, frame_pts(0));
    gst_buffer_add_video_region_of_interest_meta(in, "face", c.box[0], c.box[1], c.box[2],
                                                 c.box[3]);
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    const GstStructure *frame =
        gst_custom_meta_get_structure(gst_buffer_get_custom_meta(out, "GstCudaHistMeta"));
    const GstStructure *region =
        gst_value_get_structure(gst_value_array_get_value(field(frame, "regions"), 0));
    for (guint i = 0; i < 3; i++) {
      fail_unless_equals_int(uint_at(field(frame, "total"), i), c.totals[i]);
      for (const char *name : {"total", "min", "max", "p50"})
        fail_unless_equals_int(uint_at(field(frame, name), i), uint_at(field(region, name), i));
      fail_unless(counts_at(field(frame, "bins"), i) == counts_at(field(region, "bins"), i),
                  "%s: roi %u,%u %ux%u and its region count other samples", c.format, c.box[0],
                  c.box[1], c.box[2], c.box[3]);
    }
    GstMessage *warning = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING);
    fail_unless(warning == nullptr, "%s: a warning for a box inside the frame", c.format);
    gst_buffer_unref(out);
    gst_element_set_bus(h->element, nullptr);
    gst_object_unref(bus);
    gst_harness_teardown(h);
  }
}
GST_END_TEST;

GST_START_TEST(test_start_properties) { cftest::check_start_properties("cudahist"); }
GST_END_TEST;

GST_START_TEST(test_region_mistakes) {
  cftest::check_region_mistakes(kBackend, "cudahist", false);
}
GST_END_TEST;

// A region entirely outside the frame counts nothing, with one warning.
GST_START_TEST(test_roi_outside) {
  HistConfig config;
  config.roi[0] = 100;
  GstHarness *h = make_harness(config);
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  const GstVideoInfo info = video_info("GRAY8", 16, 8);
  for (int i = 0; i < 3; i++) {
    fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 1, frame_pts(i))), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    const GstStructure *s =
        gst_custom_meta_get_structure(gst_buffer_get_custom_meta(out, "GstCudaHistMeta"));
    fail_unless_equals_int(uint_at(field(s, "total"), 0), 0);
    gst_buffer_unref(out);
  }
  int warnings = 0;
  GstMessage *message;
  while ((message = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING))) {
    warnings++;
    gst_message_unref(message);
  }
  fail_unless_equals_int(warnings, 1);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}
GST_END_TEST;

GST_START_TEST(test_property_errors) {
  GstElement *element = gst_element_factory_make("cudahist", nullptr);
  fail_unless(element != nullptr);
  CF_ASSERT_REFUSED(g_object_set(element, "bins", 0u, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "bins", 65537u, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "interval-frames", 0u, nullptr));
  guint bins;
  g_object_get(element, "bins", &bins, nullptr);
  fail_unless_equals_int(bins, 256);
  // A range whose minimum passes its maximum: refused either way round, the old
  // range kept.
  g_object_set(element, "range-min", 100u, "range-max", 300u, nullptr);
  CF_ASSERT_REFUSED(g_object_set(element, "range-min", 301u, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "range-max", 99u, nullptr));
  guint range_min, range_max;
  g_object_get(element, "range-min", &range_min, "range-max", &range_max, nullptr);
  fail_unless_equals_int(range_min, 100);
  fail_unless_equals_int(range_max, 300);
  g_object_set(element, "range-min", 300u, "range-max", 300u, nullptr);
  g_object_get(element, "range-min", &range_min, "range-max", &range_max, nullptr);
  fail_unless_equals_int(range_min, 300);
  fail_unless_equals_int(range_max, 300);
  gst_object_unref(element);
}
GST_END_TEST;

GST_START_TEST(test_refused_caps) { cftest::check_refused_caps("cudahist"); }
GST_END_TEST;

GST_START_TEST(test_backend_cuda_demanded) { cftest::check_backend_cuda_demanded("cudahist"); }
GST_END_TEST;

GST_START_TEST(test_missing_device_id) { cftest::check_missing_device_id("cudahist"); }
GST_END_TEST;

GST_START_TEST(test_auto_backend) { cftest::check_auto_backend("cudahist"); }
GST_END_TEST;

GST_START_TEST(test_device_messages) { cftest::check_device_messages("cudahist"); }
GST_END_TEST;

// The three elements' fallback messages as gst-launch-1.0 prints them: cudahist's says
// it counts, the filters' that they filter, each with the cause.
GST_START_TEST(test_launch_messages) { cftest::check_launch_messages(); }
GST_END_TEST;

int main(int argc, char **argv) {
  const int status = cftest::run_element_suite(
      g_str_equal(kBackend, "cuda") ? "cudahist_gpu" : "cudahist", kBackend,
      {
          CF_TEST(test_every_format),
          CF_TEST(test_large_frames),
          CF_TEST(test_foreign_input),
          CF_TEST(test_eos_drain),
          CF_TEST(test_flush),
          CF_TEST(test_caps_change),
          CF_TEST(test_state_cycles),
          CF_TEST(test_latency), CF_TEST(test_live_source), CF_TEST(test_qos), CF_TEST(test_changes_mid_stream),
          CF_TEST(test_counts),
          CF_TEST(test_messages),
          CF_TEST(test_default_message_rate),
          CF_TEST(test_messages_without_timestamps),
          CF_TEST(test_meta_tags),
          CF_TEST(test_regions),
          CF_TEST(test_region_mistakes),
          CF_TEST(test_start_properties),
          CF_TEST(test_counts_outlive_frame),
          CF_TEST(test_too_many_bins),
          CF_TEST(test_refused_change_then_another),
          CF_TEST(test_region_type_names),
          CF_TEST(test_bytes_segment),
          CF_TEST(test_results_in_proportion),
          CF_TEST(test_roi_as_region),
          CF_TEST(test_roi_outside),
          CF_TEST(test_property_errors),
          CF_TEST(test_refused_caps),
          CF_TEST(test_backend_cuda_demanded),
          CF_TEST(test_missing_device_id),
          CF_TEST(test_auto_backend), CF_TEST(test_device_messages), CF_TEST(test_launch_messages),
      },
      argc, argv);
  // test_meta_tags left out what it could not build: skipped, saying why (the
  // elements come from gstreamer1.0-plugins-base and -good).
  bool missing = false;
  for (const char *name : kMetaTagElements)
    if (status == 0 && !have_element(name)) {
      g_print("SKIP: no element %s, so test_meta_tags did not check it\n", name);
      missing = true;
    }
  return missing ? 77 : status;
}
