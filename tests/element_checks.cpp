// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "element_checks.h"

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#ifdef CF_HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstring>
#include <future>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>

#include "cuda_test_support.h"
#include "format_table.h"
#include "plugin_elements.h"
#include "plane_access.h"
#include "test_image.h"

namespace cftest {

GstClockTime frame_pts(int index) { return index * (GST_SECOND / 30); }

std::string caps_string(const char *format, int width, int height, int fps) {
  return std::string("video/x-raw,format=") + format + ",width=" +
      std::to_string(width) + ",height=" + std::to_string(height) +
      ",framerate=" + std::to_string(fps) + "/1";
}

GstVideoInfo video_info(const char *format, int width, int height) {
  GstVideoInfo info;
  GstCaps *caps = gst_caps_from_string(caps_string(format, width, height).c_str());
  fail_unless(gst_video_info_from_caps(&info, caps));
  gst_caps_unref(caps);
  return info;
}

cf::Border border_of(const char *nick, uint32_t value, cf::SampleDepth depth) {
  cf::Border border;
  if (g_str_equal(nick, "replicate"))
    border.mode = cf::BorderMode::Replicate;
  else if (g_str_equal(nick, "reflect-101"))
    border.mode = cf::BorderMode::Reflect101;
  else if (g_str_equal(nick, "constant"))
    border.mode = cf::BorderMode::Constant;
  else
    fail("unknown border %s", nick);
  border.constant = static_cast<uint16_t>(std::min(value, cf::max_sample_value(depth)));
  return border;
}

namespace {

void fill_random(guint8 *data, gsize size, uint32_t seed) {
  std::mt19937 random(seed);
  for (gsize i = 0; i < size; i++)
    data[i] = static_cast<guint8>(random());
}

}  // namespace

void fill_random_bytes(GstBuffer *buffer, uint32_t seed) {
  GstMapInfo map;
  fail_unless(gst_buffer_map(buffer, &map, GST_MAP_WRITE));
  fill_random(map.data, map.size, seed);
  gst_buffer_unmap(buffer, &map);
}

GstBuffer *random_frame(GstHarness *h, const GstVideoInfo &info, uint32_t seed,
                        GstClockTime pts) {
  GstBuffer *buffer = gst_harness_create_buffer(h, GST_VIDEO_INFO_SIZE(&info));
  fill_random_bytes(buffer, seed);
  GST_BUFFER_PTS(buffer) = pts;
  GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
  return buffer;
}

cf::Plane frame_plane(GstVideoFrame &frame, int component) {
  return table_plane(frame, guint(component));
}

std::string element_line(const char *backend, const FilterUnderTest &filter,
                         guint frames_in_flight, const std::string &extra) {
  return filter.element + " backend=" + backend + " " + filter.properties +
      " frames-in-flight=" + std::to_string(frames_in_flight) + " " + extra;
}

GstHarness *make_harness(const char *backend, const FilterUnderTest &filter,
                         guint frames_in_flight, const std::string &extra) {
  const std::string line = element_line(backend, filter, frames_in_flight, extra);
  GstHarness *h = gst_harness_new_parse(line.c_str());
  fail_unless(h != nullptr, "could not make %s", line.c_str());
  // A file's pace, not a camera's (GstHarness says live by default): on CUDA,
  // frames may wait for frames-in-flight - 1 later ones. check_live_source sets
  // it live.
  gst_harness_set_live(h, FALSE);
  return h;
}

namespace {

const char *const kFormats[] = {"GRAY8", "GRAY16_LE", "I420", "YV12", "NV12",
    "NV21", "Y42B", "Y444", "YUY2", "UYVY", "RGBA", "BGRA", "RGBx", "BGRx",
    "ARGB", "ABGR", "xRGB", "xBGR", "RGB", "BGR"};

// What the element promises, stated on its own: luma (plus chroma when asked) of
// YUV, the colour channels of RGB, the grey level; alpha and the rest untouched.
bool is_filtered(const TableFormat &format, char component, bool include_chroma) {
  if (component == 'A')
    return false;
  if (format.is_yuv())
    return component == 'Y' || include_chroma;
  return true;
}

// The bytes of out's rows that hold no component's sample (RGBx's x) as in in.
std::optional<std::string> first_other_byte_changed(const GstVideoFrame &in,
                                                    const GstVideoFrame &out) {
  const TableFormat &format = table_format(in.info);
  const int width = GST_VIDEO_INFO_WIDTH(&in.info);
  for (guint p = 0; p < format.planes.size(); p++) {
    const auto *in_plane = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&in, p));
    const auto *out_plane = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&out, p));
    for (int y = 0; y < plane_rows(in.info, int(p)); y++)
      for (int b = 0; b < row_bytes(in.info, int(p)); b++)
        if (!is_sample_byte(format, int(p), width, b) &&
            in_plane[y * GST_VIDEO_FRAME_PLANE_STRIDE(&in, p) + b] !=
                out_plane[y * GST_VIDEO_FRAME_PLANE_STRIDE(&out, p) + b])
          return "plane " + std::to_string(p) + " byte " + std::to_string(b) + " of row " +
                 std::to_string(y) + ", no component's";
  }
  return std::nullopt;
}

// Whether the filter writes a component's sample at (x, y): everywhere, or inside
// the regions only.
using WrittenFn = std::function<bool(int component, int x, int y)>;

// Checks out against the reference of in, sample by sample: the filtered value where
// the filter writes, in's elsewhere.
// The reference's result for a component plane: of the whole plane, or, of an
// interlaced frame, of each field on its own: its rows (y % 2 == field) copied out as
// a picture, filtered, and put back.
TestImage reference_result(const FilterUnderTest &filter, const cf::Plane &src,
                           cf::SampleDepth depth, bool fields) {
  TestImage expected(src.width, src.height, depth);
  if (!fields) {
    filter.reference(src, expected.plane(), depth);
    return expected;
  }
  for (int field = 0; field < 2 && field < src.height; field++) {
    const int rows = (src.height - field + 1) / 2;
    TestImage picture(src.width, rows, depth), filtered(src.width, rows, depth);
    for (int k = 0; k < rows; k++)
      for (int x = 0; x < src.width; x++)
        write_sample(picture.plane(), depth, x, k, read_sample(src, depth, x, 2 * k + field));
    filter.reference(picture.plane(), filtered.plane(), depth);
    for (int k = 0; k < rows; k++)
      for (int x = 0; x < src.width; x++)
        write_sample(expected.plane(), depth, x, 2 * k + field,
                     read_sample(filtered.plane(), depth, x, k));
  }
  return expected;
}

void expect_filtered(GstBuffer *in, GstBuffer *out, const GstVideoInfo &info,
                     const FilterUnderTest &filter, bool include_chroma,
                     const std::string &what, const WrittenFn &written = {},
                     bool fields = false) {
  GstVideoFrame in_frame, out_frame;
  fail_unless(gst_video_frame_map(&in_frame, const_cast<GstVideoInfo *>(&info), in,
                                  GST_MAP_READ));
  fail_unless(gst_video_frame_map(&out_frame, const_cast<GstVideoInfo *>(&info), out,
                                  GST_MAP_READ));
  const TableFormat &format = table_format(info);
  for (guint c = 0; c < format.components().size(); c++) {
    const cf::Plane src = frame_plane(in_frame, c);
    const cf::Plane got = frame_plane(out_frame, c);
    const cf::SampleDepth depth = format.sample_format().depth;
    const bool filtered = is_filtered(format, component_letter(format, c), include_chroma);
    const TestImage expected = filtered ? reference_result(filter, src, depth, fields)
                                        : TestImage(src.width, src.height, depth);
    for (int y = 0; y < src.height; y++) {
      for (int x = 0; x < src.width; x++) {
        const bool changed = filtered && (!written || written(c, x, y));
        const uint32_t g = read_sample(got, depth, x, y);
        const uint32_t e = read_sample(changed ? expected.plane() : src, depth, x, y);
        if (g != e) {
          gst_video_frame_unmap(&in_frame);
          gst_video_frame_unmap(&out_frame);
          fail("%s: component %u at (%d, %d): got %u, expected %u (%s)", what.c_str(), c,
               x, y, g, e, changed ? "filtered" : "passed through");
        }
      }
    }
  }
  const std::optional<std::string> changed = first_other_byte_changed(in_frame, out_frame);
  gst_video_frame_unmap(&in_frame);
  gst_video_frame_unmap(&out_frame);
  fail_if(changed.has_value(), "%s: %s changed", what.c_str(), changed ? changed->c_str() : "");
}

std::string describe(const FilterUnderTest &filter, const char *format, int width, int height) {
  return filter.element + " " + filter.properties + " " + format + " " +
      std::to_string(width) + "x" + std::to_string(height);
}

// EOS, then every one of `inputs` out, in order: its PTS, filtered. Unrefs them.
void expect_all_out_at_eos(GstHarness *h, std::vector<GstBuffer *> &inputs,
                           const GstVideoInfo &info, const FilterUnderTest &filter,
                           const std::string &what) {
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  fail_unless_equals_int(gst_harness_buffers_received(h), inputs.size());
  for (GstBuffer *in : inputs) {
    GstBuffer *out = gst_harness_pull(h);
    fail_unless_equals_uint64(GST_BUFFER_PTS(out), GST_BUFFER_PTS(in));
    expect_filtered(in, out, info, filter, true, what);
    gst_buffer_unref(out);
    gst_buffer_unref(in);
  }
  inputs.clear();
}

// After `pushed` frames from a non-live upstream, the frames out: on the CPU,
// whose frames cannot overlap, every one (each leaves once its work is done);
// on CUDA, all but at most frames-in-flight - 1 held for later ones (fewer
// where the element found upstream idle and let them go).
void expect_out_after(GstHarness *h, const char *backend, guint depth, int pushed,
                      const std::string &what) {
  const int out = gst_harness_buffers_received(h);
  if (g_str_equal(backend, "cpu"))
    fail_unless(out == pushed, "%s: %d out after %d in", what.c_str(), out, pushed);
  else
    fail_unless(out + int(depth - 1) >= pushed && out <= pushed,
                "%s: %d out after %d in, at most %u held", what.c_str(), out, pushed,
                depth - 1);
}

}  // namespace

void check_frame(const char *backend, const FilterUnderTest &filter, const char *format,
                 int width, int height, uint32_t seed, bool include_chroma,
                 bool chroma_by_default) {
  const std::string what = describe(filter, format, width, height) +
      (chroma_by_default ? " by default" : include_chroma ? " include-chroma" : "");
  GstHarness *h = make_harness(backend, filter, 1, chroma_by_default ? ""
                               : include_chroma ? "include-chroma=true"
                                                : "include-chroma=false");
  gst_harness_set_src_caps_str(h, caps_string(format, width, height).c_str());
  const GstVideoInfo info = video_info(format, width, height);
  GstBuffer *in = random_frame(h, info, seed, 0);
  gst_buffer_ref(in);
  fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  GstBuffer *out = gst_harness_pull(h);
  fail_unless(out != nullptr, "%s: no output", what.c_str());
  if (g_str_equal(backend, "cuda")) {
    // The element's pools: pinned memory up (proposed to upstream) and down.
    fail_unless(gst_memory_is_type(gst_buffer_peek_memory(in, 0), "CfPinnedMemory"),
                "%s: input not from the proposed pinned pool", what.c_str());
    // An element that edits its frames gets GStreamer's copy of this one, which the
    // test holds too: memory of GStreamer's.
    fail_unless(edits_frames(filter.element) ||
                    gst_memory_is_type(gst_buffer_peek_memory(out, 0), "CfPinnedMemory"),
                "%s: output not pinned", what.c_str());
  }
  expect_filtered(in, out, info, filter, include_chroma, what);
  gst_buffer_unref(in);
  gst_buffer_unref(out);
  gst_harness_teardown(h);
}

void check_every_format(const char *backend, const std::vector<FilterUnderTest> &variants) {
  const int sizes[][2] = {{1, 1}, {2, 3}, {17, 9}};
  uint32_t seed = 1;
  for (const char *format : kFormats)
    for (const auto &size : sizes)
      for (const FilterUnderTest &filter : variants)
        check_frame(backend, filter, format, size[0], size[1], seed++);
}

void check_large_frames(const char *backend, const FilterUnderTest &filter) {
  uint32_t seed = 50;
  for (const char *format : {"GRAY8", "GRAY16_LE", "NV12", "I420", "RGBA", "RGB", "YUY2"})
    check_frame(backend, filter, format, 1921, 1081, seed++);
}

void check_include_chroma(const char *backend, const FilterUnderTest &filter) {
  uint32_t seed = 100;
  for (const char *format : {"I420", "YV12", "NV12", "NV21", "Y42B", "Y444", "YUY2", "UYVY"})
    for (int width : {17, 18})
      check_frame(backend, filter, format, width, 9, seed++, true);
  // Filters process chroma unless told not to.
  for (const char *format : {"NV12", "I420", "YUY2"})
    check_frame(backend, filter, format, 17, 9, seed++, true, true);
}

std::vector<TestRegion> test_regions(gint64 width, gint64 height) {
  std::vector<TestRegion> regions = {
      {3, 2, 7, 5, "face", false},          {6, 4, 9, 6, "plate", false},
      {0, 0, 2, 1, "face", false},          {width - 2, height - 1, 10, 10, "face", false},
      {width - 1, 0, 5, 1, "plate", false}, {0, height - 2, 1, G_MAXUINT, "face", false},
      {2, height / 2, G_MAXUINT, 1, "face", false}, {10, 5, 0, 4, "face", false},
      {4, 6, 3, 0, "plate", false},         {G_MAXUINT - 3, 2, 8, 8, "face", false},
      {1, 1, width, height, "car", false},  {width / 2, height / 3, 1, 1, "plate", false}};
#ifdef CF_HAVE_GST_ANALYTICS
  for (const TestRegion &detection : std::initializer_list<TestRegion>{
           {-3, -2, 6, 5, "face", true},  {width - 4, 3, 2, 3, "plate", true},
           {5, 5, 4, 4, "car", true},     {-10, -10, 5, 5, "face", true},
           {2, height - 3, 4, -2, "face", true}})
    regions.push_back(detection);
#endif
  return regions;
}

void attach_regions(GstBuffer *buffer, std::vector<TestRegion> &regions) {
  gint next_id = 100;
  for (TestRegion &r : regions) {
    if (!r.detection) {
      GstVideoRegionOfInterestMeta *meta = gst_buffer_add_video_region_of_interest_meta(
          buffer, r.type, guint(r.x), guint(r.y), guint(r.width), guint(r.height));
      meta->id = r.id = next_id++;
      continue;
    }
#ifdef CF_HAVE_GST_ANALYTICS
    GstAnalyticsRelationMeta *meta = gst_buffer_get_analytics_relation_meta(buffer);
    if (!meta)
      meta = gst_buffer_add_analytics_relation_meta(buffer);
    GstAnalyticsODMtd detection;
    fail_unless(gst_analytics_relation_meta_add_od_mtd(meta, g_quark_from_string(r.type),
                                                       gint(r.x), gint(r.y), gint(r.width),
                                                       gint(r.height), 0.9f, &detection));
    r.id = gint(detection.id);
#endif
  }
}

std::vector<ExpectedRegion> expected_regions(const GstVideoInfo &info,
                                             const std::vector<TestRegion> &regions,
                                             gint64 padding) {
  std::vector<ExpectedRegion> expected;
  for (bool detections : {false, true})
    for (const TestRegion &r : regions) {
      if (r.detection != detections || g_str_equal(r.type, "car") || r.width <= 0 ||
          r.height <= 0)
        continue;
      const ExpectedRegion region{
          r.id, r.type, std::max<gint64>(0, r.x - padding), std::max<gint64>(0, r.y - padding),
          std::min<gint64>(GST_VIDEO_INFO_WIDTH(&info), r.x + r.width + padding),
          std::min<gint64>(GST_VIDEO_INFO_HEIGHT(&info), r.y + r.height + padding)};
      if (region.x1 > region.x0 && region.y1 > region.y0)
        expected.push_back(region);
    }
  return expected;
}

bool covers(const GstVideoInfo &info, const ExpectedRegion &region, int component, int x,
            int y) {
  const TableFormat &format = table_format(info);
  const char letter = component_letter(format, guint(component));
  const gint64 x_factor = cftest::x_factor(format, letter);
  const gint64 y_factor = cftest::y_factor(format, letter);
  // Sample x covers luma pixels x * x_factor .. (x + 1) * x_factor - 1.
  return (x + 1) * x_factor > region.x0 && x * x_factor < region.x1 &&
         (y + 1) * y_factor > region.y0 && y * y_factor < region.y1;
}

void check_regions(const char *backend, const FilterUnderTest &filter) {
  struct Case {
    const char *format;
    int width;
    int height;
    bool include_chroma;
  };
  std::vector<Case> cases;
  for (const char *format : kFormats)
    cases.push_back({format, 33, 21, false});
  for (const char *format : {"I420", "NV21", "Y42B", "YUY2", "UYVY"})
    cases.push_back({format, 32, 17, true});
  uint32_t seed = 300;
  for (const Case &c : cases) {
    const std::string what = describe(filter, c.format, c.width, c.height) +
                             (c.include_chroma ? " include-chroma" : "") + " regions=meta";
    GstHarness *h = make_harness(backend, filter, 1,
                                 std::string("regions=meta region-types=face,plate "
                                             "region-padding=1") +
                                     (c.include_chroma ? " include-chroma=true"
                                                       : " include-chroma=false"));
    gst_harness_set_src_caps_str(h, caps_string(c.format, c.width, c.height).c_str());
    const GstVideoInfo info = video_info(c.format, c.width, c.height);
    std::vector<TestRegion> regions = test_regions(c.width, c.height);
    GstBuffer *with_regions = random_frame(h, info, seed++, frame_pts(0));
    attach_regions(with_regions, regions);
    const std::vector<ExpectedRegion> boxes = expected_regions(info, regions, 1);
    GstBuffer *without = random_frame(h, info, seed++, frame_pts(1));
    for (GstBuffer *in : {with_regions, without}) {
      gst_buffer_ref(in);
      fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
    }
    fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
    GstBuffer *out = gst_harness_pull(h);
    fail_unless(out != nullptr, "%s: no output", what.c_str());
    // The regions go on with the frame, for the elements downstream.
    const GType roi = GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE;
    fail_unless_equals_int(gst_buffer_get_n_meta(out, roi), gst_buffer_get_n_meta(with_regions, roi));
    expect_filtered(with_regions, out, info, filter, c.include_chroma, what,
                    [&](int component, int x, int y) {
                      return std::any_of(boxes.begin(), boxes.end(),
                                         [&](const ExpectedRegion &box) {
                                           return covers(info, box, component, x, y);
                                         });
                    });
    gst_buffer_unref(out);
    out = gst_harness_pull(h);
    fail_unless(out != nullptr, "%s: no output for the frame without regions", what.c_str());
    expect_filtered(without, out, info, filter, c.include_chroma, what + ", no regions",
                    [](int, int, int) { return false; });
    gst_buffer_unref(out);
    gst_buffer_unref(with_regions);
    gst_buffer_unref(without);
    gst_harness_teardown(h);
  }
}

namespace {

// Whether sample (x, y) of `component` of an interlaced frame covers a pixel of the
// region, each field a picture of its own: frame row y is row y / 2 of field y % 2,
// and the region holds the rows of each field that lie within its own.
bool covers_in_field(const GstVideoInfo &info, const ExpectedRegion &region, int component,
                     int x, int y) {
  const int field = y % 2;
  ExpectedRegion rows = region;
  rows.y0 = (region.y0 - field + 1) / 2;
  rows.y1 = (region.y1 - field + 1) / 2;
  return covers(info, rows, component, x, y / 2);
}

}  // namespace

void check_interlaced(const char *backend, const FilterUnderTest &filter) {
  struct Case {
    const char *format;
    int width;
    int height;
    const char *mode;
    bool regions;
  };
  std::vector<Case> cases;
  // Heights of 4n + 2 and 4n: in the first, a field of 4:2:0 has a luma row more
  // than its chroma rows cover.
  for (const char *format : kFormats)
    for (int height : {10, 12})
      cases.push_back({format, 17, height, "interleaved", false});
  for (const char *format : {"I420", "NV12", "YUY2", "RGBA", "GRAY16_LE"})
    cases.push_back({format, 17, 10, "mixed", false});
  for (const char *format : kFormats)
    cases.push_back({format, 17, 21, "alternate", false});
  for (const char *format : {"I420", "NV21", "Y42B", "YUY2", "RGBx", "GRAY8"})
    for (const char *mode : {"interleaved", "mixed", "alternate"})
      cases.push_back({format, 33, 22, mode, true});
  uint32_t seed = 500;
  for (const Case &c : cases) {
    const std::string what = describe(filter, c.format, c.width, c.height) +
                             " interlace-mode=" + c.mode + (c.regions ? " regions=meta" : "");
    GstHarness *h = make_harness(backend, filter, 1,
                                 c.regions ? "include-chroma=true regions=meta "
                                             "region-types=face,plate region-padding=1"
                                           : "include-chroma=true");
    // Interlaced 4:2:0 frames of a height of 4n + 2 are larger than progressive
    // ones: GStreamer lays out their planes for 4n + 4 rows.
    const bool mixed = g_str_equal(c.mode, "mixed");
    const bool alternate = g_str_equal(c.mode, "alternate");
    std::string caps_text = caps_string(c.format, c.width, c.height) + ",interlace-mode=" + c.mode;
    if (alternate)
      caps_text.replace(0, std::strlen("video/x-raw"), "video/x-raw(format:Interlaced)");
    GstCaps *caps = gst_caps_from_string(caps_text.c_str());
    GstVideoInfo info;
    fail_unless(gst_video_info_from_caps(&info, caps));
    gst_harness_set_src_caps(h, caps);
    // An alternate buffer is one field, a picture of half the frame's rows (the
    // top field the larger), its regions in its own rows.
    const int picture_height = alternate ? (c.height + 1) / 2 : c.height;
    const GstVideoInfo picture = video_info(c.format, c.width, picture_height);
    std::vector<TestRegion> regions = test_regions(c.width, picture_height);
    // Two frames: interleaved, both of two fields; mixed, the first flagged
    // interlaced, the second a progressive frame; alternate, a top field and a
    // bottom one.
    GstBuffer *frames[2];
    for (int i = 0; i < 2; i++) {
      frames[i] = random_frame(h, info, seed++, frame_pts(i));
      if (mixed && i == 0)
        GST_BUFFER_FLAG_SET(frames[i], GST_VIDEO_BUFFER_FLAG_INTERLACED);
      if (alternate)
        GST_BUFFER_FLAG_SET(frames[i], i == 0 ? GST_VIDEO_BUFFER_FLAG_TOP_FIELD
                                              : GST_VIDEO_BUFFER_FLAG_BOTTOM_FIELD);
      if (c.regions)
        attach_regions(frames[i], regions);
      gst_buffer_ref(frames[i]);
      fail_unless_equals_int(gst_harness_push(h, frames[i]), GST_FLOW_OK);
    }
    const std::vector<ExpectedRegion> boxes = expected_regions(picture, regions, 1);
    fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
    for (int i = 0; i < 2; i++) {
      const bool fields = !alternate && (!mixed || i == 0);
      GstBuffer *out = gst_harness_pull(h);
      fail_unless(out != nullptr, "%s: no output for frame %d", what.c_str(), i);
      WrittenFn written;
      if (c.regions)
        written = [&](int component, int x, int y) {
          return std::any_of(boxes.begin(), boxes.end(), [&](const ExpectedRegion &box) {
            return fields ? covers_in_field(picture, box, component, x, y)
                          : covers(picture, box, component, x, y);
          });
        };
      expect_filtered(frames[i], out, info, filter, true,
                      what + (fields ? ", by field" : alternate ? ", one field" : ", progressive"),
                      written, fields);
      gst_buffer_unref(out);
      gst_buffer_unref(frames[i]);
    }
    gst_harness_teardown(h);
  }
}

void check_region_limit(const char *backend, const FilterUnderTest &filter) {
  // 1,000 regions on each of two GRAY8 frames: 256 single pixels on a grid (the
  // limit), then a box over the bottom half and more single pixels, all beyond it.
  constexpr int kSize = 64, kTaken = 256, kCarried = 1000;
  GstHarness *h = make_harness(backend, filter, 1, "regions=meta");
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", kSize, kSize).c_str());
  const GstVideoInfo info = video_info("GRAY8", kSize, kSize);
  const auto taken = [](int, int x, int y) { return x % 2 == 0 && y % 4 == 0 && y < 32; };
  for (int frame = 0; frame < 2; frame++) {
    GstBuffer *in = random_frame(h, info, 500 + frame, frame_pts(frame));
    for (int r = 0; r < kCarried; r++) {
      const guint x = r < kTaken ? 2 * (r % 32) : guint(r % kSize);
      const guint y = r < kTaken ? 4 * (r / 32) : kSize / 2;
      gst_buffer_add_video_region_of_interest_meta(in, "face", x, y, 1, r == kTaken ? kSize / 2 : 1);
    }
    gst_buffer_ref(in);
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
    GstBuffer *out = gst_harness_pull(h);
    fail_unless(out != nullptr);
    expect_filtered(in, out, info, filter, false, filter.element + " 1000 regions", taken);
    gst_buffer_unref(out);
    gst_buffer_unref(in);
  }
  int warnings = 0;
  while (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING)) {
    GError *error = nullptr;
    gst_message_parse_warning(message, &error, nullptr);
    fail_unless(strstr(error->message, "1000 regions") != nullptr, "%s", error->message);
    g_error_free(error);
    gst_message_unref(message);
    warnings++;
  }
  fail_unless_equals_int(warnings, 1);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}

namespace {

// The messages of the warnings `bus` holds, popped.
std::vector<std::string> warnings_on(GstBus *bus) {
  std::vector<std::string> messages;
  while (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING)) {
    GError *error = nullptr;
    gst_message_parse_warning(message, &error, nullptr);
    messages.push_back(error->message);
    g_error_free(error);
    gst_message_unref(message);
  }
  return messages;
}

// `frames` GRAY8 frames through `element` with `properties`, each carrying a region of
// interest of type `type` (none where null); the warnings they raised.
std::vector<std::string> region_warnings(const char *backend, const std::string &element,
                                         const std::string &properties, const char *type,
                                         int frames) {
  const std::string line = element + " backend=" + backend + " frames-in-flight=1 " + properties;
  GstHarness *h = gst_harness_new_parse(line.c_str());
  fail_unless(h != nullptr, "could not make %s", line.c_str());
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  const GstVideoInfo info = video_info("GRAY8", 16, 8);
  for (int i = 0; i < frames; i++) {
    GstBuffer *in = random_frame(h, info, 900 + i, frame_pts(i));
    // "": a region without a type (quark 0), as an upstream element may attach.
    if (type)
      gst_buffer_add_video_region_of_interest_meta_id(in, *type ? g_quark_from_string(type) : 0,
                                                      2, 2, 4, 4);
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
    gst_buffer_unref(gst_harness_pull(h));
  }
  std::vector<std::string> warnings = warnings_on(bus);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
  return warnings;
}

bool contains_all(const std::string &text, std::initializer_list<const char *> parts) {
  return std::all_of(parts.begin(), parts.end(),
                     [&](const char *part) { return text.find(part) != std::string::npos; });
}

}  // namespace

void check_start_properties(const char *element) {
  const std::string line = std::string(element) + " backend=cpu";
  // Stopped: no word.
  GstElement *stopped = gst_parse_launch(line.c_str(), nullptr);
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(stopped, bus);
  gst_util_set_object_arg(G_OBJECT(stopped), "backend", "auto");
  g_object_set(stopped, "cuda-device-id", 0, nullptr);
  fail_unless(warnings_on(bus).empty(), "a warning for a stopped element");
  gst_element_set_bus(stopped, nullptr);
  gst_object_unref(stopped);
  // Running: a warning for each, naming the property and when it takes effect.
  GstHarness *h = gst_harness_new_parse((line + " name=running").c_str());
  gst_element_set_bus(h->element, bus);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  GstElement *running = gst_bin_get_by_name(GST_BIN(h->element), "running");
  for (const char *name : {"backend", "cuda-device-id"}) {
    gst_util_set_object_arg(G_OBJECT(running), name, g_str_equal(name, "backend") ? "auto" : "0");
    const std::vector<std::string> warnings = warnings_on(bus);
    fail_unless_equals_int(warnings.size(), 1);
    fail_unless(contains_all(warnings[0], {name, "starts again"}), "%s", warnings[0].c_str());
  }
  gst_object_unref(running);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}

void check_region_mistakes(const char *backend, const std::string &element, bool padding) {
  // Region properties with regions=frame: one warning naming them, whatever the frames.
  const std::string ignored = padding ? "region-types=face region-padding=4" : "region-types=face";
  std::vector<std::string> warnings = region_warnings(backend, element, ignored, "face", 3);
  fail_unless_equals_int(warnings.size(), 1);
  fail_unless(contains_all(warnings[0], {"region-types=face", "regions=meta"}), "%s",
              warnings[0].c_str());
  fail_unless(!padding || contains_all(warnings[0], {"region-padding=4"}), "%s",
              warnings[0].c_str());
  // Types that match no region: nothing until kFramesBeforeTypeWarning frames with
  // regions, then one warning naming the types seen and asked; none for frames without
  // regions, nor where the type matches (exactly).
  const std::string asked = "regions=meta region-types=face";
  fail_unless(region_warnings(backend, element, asked, "Face", 29).empty());
  warnings = region_warnings(backend, element, asked, "Face", 31);
  fail_unless_equals_int(warnings.size(), 1);
  fail_unless(contains_all(warnings[0], {"(face)", "Face", "30 frames"}), "%s",
              warnings[0].c_str());
  fail_unless(region_warnings(backend, element, asked, nullptr, 31).empty());
  fail_unless(region_warnings(backend, element, asked, "face", 31).empty());
  // Regions without a type: the same warning, naming them "(none)".
  warnings = region_warnings(backend, element, asked, "", 31);
  fail_unless_equals_int(warnings.size(), 1);
  fail_unless(contains_all(warnings[0], {"(face)", "(none)", "30 frames"}), "%s",
              warnings[0].c_str());
}

namespace {

// Frames of one kind of foreign memory: frame(i, seed) makes frame i of random bytes.
struct ForeignInput {
  const char *name;
  std::function<GstBuffer *(int i, uint32_t seed)> frame;
};

// A GstVideoMeta at the default layout of `info`, or with every row `row_padding`
// bytes longer and every plane `plane_gap` bytes further; the buffer size it needs.
gsize add_layout_meta(GstBuffer *buffer, const GstVideoInfo &info, gsize row_padding,
                      gsize plane_gap) {
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gint strides[GST_VIDEO_MAX_PLANES] = {};
  gsize end = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); p++) {
    offsets[p] = end + plane_gap;
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE(&info, p) + row_padding;
    end = offsets[p] + strides[p] * plane_rows(info, int(p));
  }
  if (buffer)
    gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE,
                                   GST_VIDEO_INFO_FORMAT(&info), GST_VIDEO_INFO_WIDTH(&info),
                                   GST_VIDEO_INFO_HEIGHT(&info), GST_VIDEO_INFO_N_PLANES(&info),
                                   offsets, strides);
  return end;
}

GstBuffer *random_buffer(gsize size, uint32_t seed) {
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, size, nullptr);
  fill_random_bytes(buffer, seed);
  return buffer;
}

}  // namespace

void check_foreign_input(const char *backend, const FilterUnderTest &filter,
                         const FrameCheck &also_check) {
  // Each recycled buffer comes twice: the CUDA backend pins it at its second frame.
  constexpr int kRounds = 2;
  constexpr int kPoolBuffers = 2;
  constexpr int kFrames = kRounds * kPoolBuffers;
  // NV12 1024x520: a luma plane of two 512 KiB pieces, a chroma plane of one.
  struct Shape {
    const char *format;
    int width, height;
  } shapes[] = {{"GRAY8", 33, 17}, {"NV12", 1024, 520},   {"RGBA", 40, 30}, {"I420", 35, 21},
                {"GRAY16_LE", 65, 33}, {"YUY2", 17, 5}, {"RGB", 33, 17}};
  uint32_t seed = 900;
  for (const Shape &shape : shapes) {
    const GstVideoInfo info = video_info(shape.format, shape.width, shape.height);
    const gsize frame_size = GST_VIDEO_INFO_SIZE(&info);

    GstBufferPool *pool = gst_video_buffer_pool_new();
    GstStructure *config = gst_buffer_pool_get_config(pool);
    GstCaps *caps = gst_caps_from_string(caps_string(shape.format, shape.width,
                                                     shape.height).c_str());
    gst_buffer_pool_config_set_params(config, caps, frame_size, kPoolBuffers, kPoolBuffers);
    gst_caps_unref(caps);
    fail_unless(gst_buffer_pool_set_config(pool, config));
    fail_unless(gst_buffer_pool_set_active(pool, TRUE));

    // kFrames frames back to back in one memory (a ring a source fills), each pushed
    // as a share of it; written through this mapping, as shares are read-only.
    GstBuffer *ring = gst_buffer_new_allocate(nullptr, frame_size * kFrames, nullptr);
    GstMapInfo ring_map;
    fail_unless(gst_buffer_map(ring, &ring_map, GST_MAP_WRITE));

    const ForeignInput inputs[] = {
        {"recycled pool buffers",
         [&](int, uint32_t frame_seed) {
           GstBuffer *buffer = nullptr;
           fail_unless_equals_int(gst_buffer_pool_acquire_buffer(pool, &buffer, nullptr),
                                  GST_FLOW_OK);
           fill_random_bytes(buffer, frame_seed);
           return buffer;
         }},
        {"new memory every frame",
         [&](int, uint32_t frame_seed) { return random_buffer(frame_size, frame_seed); }},
        {"shares of one memory",
         [&](int i, uint32_t frame_seed) {
           fill_random(ring_map.data + i * frame_size, frame_size, frame_seed);
           return gst_buffer_copy_region(ring, GST_BUFFER_COPY_MEMORY, i * frame_size,
                                         frame_size);
         }},
        {"a memory per plane",
         [&](int, uint32_t frame_seed) {
           GstBuffer *buffer = gst_buffer_new();
           // Planes back to back, as add_layout_meta lays them out.
           for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); p++) {
             GstMemory *memory = gst_allocator_alloc(
                 nullptr, GST_VIDEO_INFO_PLANE_STRIDE(&info, p) * plane_rows(info, int(p)),
                 nullptr);
             GstMapInfo map;
             fail_unless(gst_memory_map(memory, &map, GST_MAP_WRITE));
             fill_random(map.data, map.size, frame_seed + 7919 * p);
             gst_memory_unmap(memory, &map);
             gst_buffer_append_memory(buffer, memory);
           }
           add_layout_meta(buffer, info, 0, 0);
           return buffer;
         }},
        {"padded strides",
         [&](int, uint32_t frame_seed) {
           GstBuffer *buffer = random_buffer(add_layout_meta(nullptr, info, 96, 7), frame_seed);
           add_layout_meta(buffer, info, 96, 7);
           return buffer;
         }},
    };
    for (const ForeignInput &input : inputs) {
      const std::string what = describe(filter, shape.format, shape.width, shape.height) +
          ", " + input.name;
      GstHarness *h = make_harness(backend, filter, 2, "include-chroma=true");
      gst_harness_set_src_caps_str(h, caps_string(shape.format, shape.width,
                                                  shape.height).c_str());
      // What each frame held when it went in: its memory is refilled since.
      std::vector<GstBuffer *> sent;
      int checked = 0;
      auto check_arrived = [&] {
        while (gst_harness_buffers_in_queue(h) > 0) {
          GstBuffer *out = gst_harness_pull(h);
          const std::string frame_what = what + ", frame " + std::to_string(checked);
          expect_filtered(sent[checked], out, info, filter, true, frame_what);
          if (also_check)
            also_check(sent[checked], out, info, frame_what);
          gst_buffer_unref(out);
          checked++;
        }
      };
      for (int i = 0; i < kFrames; i++) {
        GstBuffer *frame = input.frame(i, seed++);
        GST_BUFFER_PTS(frame) = frame_pts(i);
        GST_BUFFER_DURATION(frame) = GST_SECOND / 30;
        sent.push_back(gst_buffer_copy_deep(frame));
        const GstFlowReturn pushed = gst_harness_push(h, frame);
        fail_unless(pushed == GST_FLOW_OK, "%s: %s", what.c_str(), gst_flow_get_name(pushed));
        check_arrived();
      }
      fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
      check_arrived();
      fail_unless(checked == kFrames, "%s: %d frames out of %d", what.c_str(), checked, kFrames);
      for (GstBuffer *buffer : sent)
        gst_buffer_unref(buffer);
      gst_harness_teardown(h);
    }
    gst_buffer_unmap(ring, &ring_map);
    gst_buffer_unref(ring);
    fail_unless(gst_buffer_pool_set_active(pool, FALSE));
    gst_object_unref(pool);
  }
}

namespace {

// How downstream answers the ALLOCATION query: a GstVideoBufferPool with the video
// meta and alignment options, or a plain GstBufferPool of buffers `size_cut` bytes
// short of the frame; at most `max_buffers` buffers (0: no limit).
struct PoolAnswer {
  const char *name;
  bool video_pool;
  GstVideoAlignment align;
  gsize size_cut;
  guint max_buffers;
  bool holds_frame;  // whether its buffers hold the frame: the CPU backend uses them
  GstBufferPool *pool;  // the pool answered, once asked
};

GstPadProbeReturn answer_allocation(GstPad *, GstPadProbeInfo *probe, gpointer data) {
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY(probe);
  if (GST_QUERY_TYPE(query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  auto &answer = *static_cast<PoolAnswer *>(data);
  GstCaps *caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  GstVideoInfo info;
  fail_unless(gst_video_info_from_caps(&info, caps));
  GstBufferPool *pool = answer.video_pool ? gst_video_buffer_pool_new() : gst_buffer_pool_new();
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, GST_VIDEO_INFO_SIZE(&info) - answer.size_cut,
                                    0, answer.max_buffers);
  if (answer.video_pool) {
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
    gst_buffer_pool_config_set_video_alignment(config, &answer.align);
  }
  fail_unless(gst_buffer_pool_set_config(pool, config), "%s: not configured", answer.name);
  // The size the pool settled on (the aligned frame's).
  guint size = 0;
  config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_get_params(config, nullptr, &size, nullptr, nullptr);
  gst_structure_free(config);
  gst_query_add_allocation_pool(query, pool, size, 0, answer.max_buffers);
  gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  gst_clear_object(&answer.pool);
  answer.pool = pool;
  return GST_PAD_PROBE_HANDLED;
}

// Where a component's last sample ends past the memory its plane is mapped from,
// which one, reckoned from the tests' own table (not the plugin's planes).
std::optional<std::string> sample_outside_memory(const GstVideoFrame &frame) {
  const TableFormat &format = table_format(frame.info);
  for (size_t p = 0; p < format.planes.size(); p++) {
    const GstMapInfo &map = frame.meta ? frame.map[p] : frame.map[0];
    for (char letter : std::string(format.planes[p].group)) {
      if (letter == 'x')
        continue;
      const TableComponent component(format, frame, letter);
      const gsize end = gsize(component.address(component.width() - 1, component.height() - 1) -
                              map.data) + format.sample_bytes;
      if (end > map.size)
        return std::string("component ") + letter + " ends at byte " + std::to_string(end) +
               " of a memory of " + std::to_string(map.size) + " bytes";
    }
  }
  return std::nullopt;
}

// gst_harness_push, failing where it has not returned after 10 s: the element waits
// for a buffer that never comes back.
GstFlowReturn push_in_time(GstHarness *h, GstBuffer *buffer, const std::string &what) {
  auto pushed = std::make_shared<std::promise<GstFlowReturn>>();
  std::future<GstFlowReturn> result = pushed->get_future();
  std::thread([h, buffer, pushed] { pushed->set_value(gst_harness_push(h, buffer)); }).detach();
  fail_unless(result.wait_for(std::chrono::seconds(10)) == std::future_status::ready,
              "%s: a push did not return in 10 s", what.c_str());
  return result.get();
}

}  // namespace

void check_downstream_pools(const char *backend, const FilterUnderTest &filter) {
  constexpr int kWidth = 17, kHeight = 9;
  constexpr guint kFramesInFlight = 3;
  // GstVideoBufferPool (1.22 to 1.28, gst_video_info_align_full) pads 17x9 I420 to
  // strides of 1024 and 512 and 512 pixels left; 17 rows on top put its chroma planes 9
  // rows down in planes of 13 rows, where the frame needs 5 more: V ends at byte
  // 40,201 of a buffer of 39,936.
  GstVideoAlignment overrun;
  gst_video_alignment_reset(&overrun);
  overrun.padding_top = 17;
  overrun.padding_left = 33;
  GstVideoAlignment padded;
  gst_video_alignment_reset(&padded);
  padded.padding_top = 2;
  padded.padding_left = 16;
  padded.padding_right = 8;
  padded.padding_bottom = 4;
  for (guint p = 0; p < GST_VIDEO_MAX_PLANES; p++) {
    overrun.stride_align[p] = 255;
    padded.stride_align[p] = 15;
  }
  PoolAnswer answers[] = {
      {"GstVideoBufferPool padded 33 left, 17 top, strides aligned to 256", true, overrun, 0, 0,
       false, nullptr},
      {"GstVideoBufferPool padded, strides aligned to 16", true, padded, 0, 0, true, nullptr},
      {"GstBufferPool of buffers a byte short", false, padded, 1, 0, false, nullptr},
      {"GstVideoBufferPool of 2 buffers", true, padded, 0, 2, false, nullptr},
  };
  const GstVideoInfo info = video_info("I420", kWidth, kHeight);
  uint32_t seed = 700;
  for (PoolAnswer &answer : answers) {
    const std::string what = describe(filter, "I420", kWidth, kHeight) + ", " + answer.name;
    GstHarness *h = make_harness(backend, filter, kFramesInFlight, "include-chroma=true");
    gst_pad_add_probe(h->sinkpad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, answer_allocation,
                      &answer, nullptr);
    gst_harness_set_src_caps_str(h, caps_string("I420", kWidth, kHeight).c_str());
    std::vector<GstBuffer *> sent;
    for (guint i = 0; i <= kFramesInFlight; i++) {
      GstBuffer *in = random_frame(h, info, seed++, frame_pts(i));
      sent.push_back(gst_buffer_ref(in));
      const GstFlowReturn pushed = push_in_time(h, in, what);
      fail_unless(pushed == GST_FLOW_OK, "%s: %s", what.c_str(), gst_flow_get_name(pushed));
    }
    fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
    fail_unless(answer.pool != nullptr, "%s: no ALLOCATION query", what.c_str());
    // The CUDA backend writes host frames into pinned buffers of its own.
    const bool downstream_pool = answer.holds_frame && g_str_equal(backend, "cpu");
    for (GstBuffer *in : sent) {
      GstBuffer *out = gst_harness_pull(h);
      fail_unless(out != nullptr, "%s: no output", what.c_str());
      GstVideoFrame frame;
      fail_unless(
          gst_video_frame_map(&frame, const_cast<GstVideoInfo *>(&info), out, GST_MAP_READ));
      const std::optional<std::string> outside = sample_outside_memory(frame);
      gst_video_frame_unmap(&frame);
      fail_if(outside.has_value(), "%s: output %s", what.c_str(), outside ? outside->c_str() : "");
      fail_unless((out->pool == answer.pool) == downstream_pool, "%s: downstream's pool %s",
                  what.c_str(), downstream_pool ? "not used" : "used");
      expect_filtered(in, out, info, filter, true, what);
      gst_buffer_unref(out);
      gst_buffer_unref(in);
    }
    gst_harness_teardown(h);
    gst_object_unref(answer.pool);
  }
}

void check_eos_drain(const char *backend, const FilterUnderTest &filter) {
  for (guint depth : {1u, 2u, 3u, 8u}) {
    GstHarness *h = make_harness(backend, filter, depth);
    gst_harness_set_src_caps_str(h, caps_string("GRAY8", 64, 48).c_str());
    const GstVideoInfo info = video_info("GRAY8", 64, 48);
    const int frames = 10;
    std::vector<GstBuffer *> inputs;
    for (int i = 0; i < frames; i++) {
      GstBuffer *in = random_frame(h, info, 400 + i, frame_pts(i));
      inputs.push_back(gst_buffer_ref(in));
      fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
      expect_out_after(h, backend, depth, i + 1, "drain");
    }
    expect_all_out_at_eos(h, inputs, info, filter, "drain");
    // EOS comes after every frame.
    GstEvent *event;
    bool saw_eos = false;
    while ((event = gst_harness_try_pull_event(h))) {
      saw_eos |= GST_EVENT_TYPE(event) == GST_EVENT_EOS;
      gst_event_unref(event);
    }
    fail_unless(saw_eos);
    gst_harness_teardown(h);
  }
}

void check_flush(const char *backend, const FilterUnderTest &filter) {
  GstHarness *h = make_harness(backend, filter, 3);
  gst_harness_set_src_caps_str(h, caps_string("RGBA", 32, 16).c_str());
  const GstVideoInfo info = video_info("RGBA", 32, 16);
  for (int i = 0; i < 2; i++)
    fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 500 + i, frame_pts(i))),
                           GST_FLOW_OK);
  // The flush drops those still in flight.
  expect_out_after(h, backend, 3, 2, "flush");
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_start()));
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_stop(TRUE)));
  const guint before_flush = gst_harness_buffers_received(h);
  for (guint i = 0; i < before_flush; i++)
    gst_buffer_unref(gst_harness_pull(h));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));
  GstBuffer *after = random_frame(h, info, 510, frame_pts(7));
  gst_buffer_ref(after);
  fail_unless_equals_int(gst_harness_push(h, after), GST_FLOW_OK);
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  fail_unless_equals_int(gst_harness_buffers_received(h), before_flush + 1);
  GstBuffer *out = gst_harness_pull(h);
  fail_unless_equals_uint64(GST_BUFFER_PTS(out), frame_pts(7));
  expect_filtered(after, out, info, filter, true, "after flush");
  gst_buffer_unref(out);
  gst_buffer_unref(after);
  gst_harness_teardown(h);
}

void check_caps_change(const char *backend, const FilterUnderTest &filter) {
  GstHarness *h = make_harness(backend, filter, 3);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  const GstVideoInfo small = video_info("GRAY8", 16, 8);
  const GstVideoInfo large = video_info("NV12", 40, 30);
  std::vector<GstBuffer *> inputs;
  for (int i = 0; i < 2; i++) {
    GstBuffer *in = random_frame(h, small, 600 + i, frame_pts(i));
    inputs.push_back(gst_buffer_ref(in));
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  }
  gst_harness_set_src_caps_str(h, caps_string("NV12", 40, 30).c_str());
  // Draining for the new caps pushed the two old frames out.
  fail_unless_equals_int(gst_harness_buffers_received(h), 2);
  GstBuffer *in = random_frame(h, large, 610, frame_pts(2));
  inputs.push_back(gst_buffer_ref(in));
  fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  for (int i = 0; i < 3; i++) {
    GstBuffer *out = gst_harness_pull(h);
    const GstVideoInfo &info = i < 2 ? small : large;
    fail_unless_equals_uint64(gst_buffer_get_size(out), GST_VIDEO_INFO_SIZE(&info));
    expect_filtered(inputs[i], out, info, filter, true, "caps change");
    gst_buffer_unref(out);
    gst_buffer_unref(inputs[i]);
  }
  gst_harness_teardown(h);
}

void check_state_cycles(const char *backend, const FilterUnderTest &filter) {
  const std::string description =
      "videotestsrc num-buffers=12 pattern=snow ! video/x-raw,format=I420,width=96,height=64 ! " +
      element_line(backend, filter, 3) + " ! fakesink name=sink signal-handoffs=true";
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(description.c_str(), &error);
  fail_unless(pipeline != nullptr && error == nullptr, "%s", description.c_str());
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  int frames_out = 0;
  g_signal_connect(sink, "handoff",
                   G_CALLBACK(+[](GstElement *, GstBuffer *, GstPad *, gpointer count) {
                     ++*static_cast<int *>(count);
                   }),
                   &frames_out);
  GstBus *bus = gst_element_get_bus(pipeline);
  for (int cycle = 0; cycle < 3; cycle++) {
    frames_out = 0;
    fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
    GstMessage *message = gst_bus_timed_pop_filtered(
        bus, 60 * GST_SECOND, static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    fail_unless(message != nullptr);
    fail_unless_equals_int(GST_MESSAGE_TYPE(message), GST_MESSAGE_EOS);
    gst_message_unref(message);
    fail_unless_equals_int(frames_out, 12);
    fail_unless_equals_int(gst_element_set_state(pipeline, GST_STATE_NULL),
                           GST_STATE_CHANGE_SUCCESS);
  }
  gst_object_unref(bus);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
}

namespace {

// The LATENCY answer of the element itself: a pad between (the harness's bin's)
// folds the minimum of a non-live stream away.
void element_latency(GstHarness *h, const FilterUnderTest &filter, gboolean *live,
                     GstClockTime *min, GstClockTime *max = nullptr) {
  GstElement *element = gst_harness_find_element(h, filter.element.c_str());
  GstPad *src = gst_element_get_static_pad(element, "src");
  GstQuery *query = gst_query_new_latency();
  fail_unless(gst_pad_query(src, query));
  gst_query_parse_latency(query, live, min, max);
  gst_query_unref(query);
  gst_object_unref(src);
  gst_object_unref(element);
}

}  // namespace

void check_latency(const char *backend, const FilterUnderTest &filter) {
  for (guint depth : {1u, 3u}) {
    GstHarness *h = make_harness(backend, filter, depth);
    gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 16, 25).c_str());
    gboolean live;
    GstClockTime min;
    element_latency(h, filter, &live, &min);
    fail_unless(!live);
    // Frames wait for later ones only where their work overlaps (CUDA).
    const guint held = g_str_equal(backend, "cpu") ? 0 : depth - 1;
    fail_unless_equals_uint64(min, held * (GST_SECOND / 25));
    gst_harness_teardown(h);
  }
  // Ours added to an upstream latency near the largest time stays there, not wrapped:
  // a live upstream (a non-live one's minimum is folded away before it reaches us)
  // whose maximum is near the largest time too.
  GstHarness *h = make_harness(backend, filter, 3);
  gst_harness_set_live(h, TRUE);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 16, 25).c_str());
  static const GstClockTime upstream = GST_CLOCK_TIME_NONE - GST_SECOND / 50;
  gst_harness_set_upstream_latency(h, upstream);
  gst_pad_add_probe(h->srcpad, GstPadProbeType(GST_PAD_PROBE_TYPE_QUERY_UPSTREAM | GST_PAD_PROBE_TYPE_PULL),
                    +[](GstPad *, GstPadProbeInfo *info, gpointer) {
                      GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
                      if (GST_QUERY_TYPE(query) == GST_QUERY_LATENCY)
                        gst_query_set_latency(query, TRUE, upstream, upstream);
                      return GST_PAD_PROBE_OK;
                    },
                    nullptr, nullptr);
  GstClockTime min, max;
  element_latency(h, filter, nullptr, &min, &max);
  for (GstClockTime latency : {min, max})
    fail_unless(latency >= upstream && GST_CLOCK_TIME_IS_VALID(latency),
                "latency %" G_GUINT64_FORMAT " after an upstream %" G_GUINT64_FORMAT, latency,
                upstream);
  gst_harness_teardown(h);
}

void check_live_source(const char *backend, const FilterUnderTest &filter) {
  const GstVideoInfo info = video_info("GRAY8", 64, 48);
  for (guint depth : {1u, 2u, 8u}) {
    GstHarness *h = make_harness(backend, filter, depth);
    gst_harness_set_live(h, TRUE);
    gst_harness_set_src_caps_str(h, caps_string("GRAY8", 64, 48, 25).c_str());
    gboolean live;
    GstClockTime min;
    element_latency(h, filter, &live, &min);
    fail_unless(live);
    fail_unless_equals_uint64(min, 0);
    for (int i = 0; i < 6; i++) {
      GstBuffer *in = random_frame(h, info, 700 + i, frame_pts(i));
      gst_buffer_ref(in);
      fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
      // Out before the next frame comes.
      fail_unless_equals_int(gst_harness_buffers_received(h), i + 1);
      GstBuffer *out = gst_harness_pull(h);
      fail_unless_equals_uint64(GST_BUFFER_PTS(out), frame_pts(i));
      expect_filtered(in, out, info, filter, true, "live");
      gst_buffer_unref(out);
      gst_buffer_unref(in);
    }
    gst_harness_teardown(h);
  }
  // Frames that last 1 ns, shorter than any work: the CPU backend still lets each
  // leave at once (its frames cannot overlap); CUDA overlaps them, holding at most
  // frames-in-flight - 1 back. Either way all come out, in order, filtered.
  const guint depth = 3;
  GstHarness *h = make_harness(backend, filter, depth);
  gst_harness_set_live(h, TRUE);
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 64, 48, 25).c_str());
  const int frames = 12;
  std::vector<GstBuffer *> inputs;
  for (int i = 0; i < frames; i++) {
    GstBuffer *in = random_frame(h, info, 720 + i, i);
    GST_BUFFER_DURATION(in) = 1;
    inputs.push_back(gst_buffer_ref(in));
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
    const guint out = gst_harness_buffers_received(h);
    if (g_str_equal(backend, "cpu")) {
      fail_unless_equals_int(out, i + 1);
    } else {
      fail_unless(out + (depth - 1) >= guint(i + 1) && out <= guint(i + 1),
                  "%u out after %d in", out, i + 1);
    }
  }
  expect_all_out_at_eos(h, inputs, info, filter, "live, behind");
  gst_harness_teardown(h);
}

void check_changes_mid_stream(const char *backend, const FilterUnderTest &before,
                              const FilterUnderTest &after) {
  // Two frames in flight from a non-live upstream: frames 0 and 1 are in (on the
  // CPU, through already) when the properties change, 2 and 3 come after.
  GstHarness *h = make_harness(backend, before, 2);
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  GstElement *element = gst_harness_find_element(h, before.element.c_str());
  gst_harness_set_src_caps_str(h, caps_string("NV12", 40, 30).c_str());
  const GstVideoInfo info = video_info("NV12", 40, 30);
  std::vector<GstBuffer *> inputs;
  auto push = [&](int i) {
    GstBuffer *in = random_frame(h, info, 850 + i, frame_pts(i));
    inputs.push_back(gst_buffer_ref(in));
    fail_unless_equals_int(gst_harness_push(h, in), GST_FLOW_OK);
  };
  push(0);
  push(1);
  gchar **settings = g_strsplit(after.properties.c_str(), " ", -1);
  for (gchar **setting = settings; *setting; setting++) {
    gchar **pair = g_strsplit(*setting, "=", 2);
    if (pair[0] && pair[1])
      gst_util_set_object_arg(G_OBJECT(element), pair[0], pair[1]);
    g_strfreev(pair);
  }
  g_strfreev(settings);
  push(2);
  push(3);
  expect_out_after(h, backend, 2, 4, "changes mid-stream");
  // frames-in-flight 2 -> 1 while running: the next frame leaves as soon as it is in,
  // and the pipeline is told to ask for the latency again.
  while (GstMessage *message = gst_bus_pop(bus))
    gst_message_unref(message);
  g_object_set(element, "frames-in-flight", 1u, nullptr);
  push(4);
  fail_unless_equals_int(gst_harness_buffers_received(h), 5);
  GstMessage *latency = gst_bus_pop_filtered(bus, GST_MESSAGE_LATENCY);
  fail_unless(latency != nullptr, "no LATENCY message after frames-in-flight changed");
  gst_message_unref(latency);
  for (int i = 0; i < 5; i++) {
    GstBuffer *out = gst_harness_pull(h);
    expect_filtered(inputs[i], out, info, i < 2 ? before : after, true,
                    "frame " + std::to_string(i) + (i < 2 ? " before " : " after ") +
                        after.properties);
    gst_buffer_unref(out);
    gst_buffer_unref(inputs[i]);
  }
  gst_object_unref(element);
  gst_element_set_bus(h->element, nullptr);
  gst_object_unref(bus);
  gst_harness_teardown(h);
}

namespace {

// Every QoS message `element` posted on `bus`: the frames it dropped, as the last says.
int qos_messages_from(GstBus *bus, GstElement *element, guint64 *dropped) {
  int count = 0;
  while (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_QOS)) {
    if (GST_MESSAGE_SRC(message) == GST_OBJECT(element)) {
      count++;
      gst_message_parse_qos_stats(message, nullptr, nullptr, dropped);
    }
    gst_message_unref(message);
  }
  return count;
}

// `line` (a live source, an element named filter, a sink that syncs) to its end: the
// element posted QoS messages and dropped frames.
void expect_qos_drops(const std::string &line) {
  guint64 dropped = 0;
  GstElement *pipeline = gst_parse_launch(line.c_str(), nullptr);
  fail_unless(pipeline != nullptr, "%s", line.c_str());
  GstElement *filter_element = gst_bin_get_by_name(GST_BIN(pipeline), "filter");
  GstBus *pipeline_bus = gst_element_get_bus(pipeline);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  // Popping filtered would drop the QoS messages on the way.
  int qos_messages = 0;
  dropped = 0;
  for (bool ended = false; !ended;) {
    GstMessage *message = gst_bus_timed_pop(pipeline_bus, 30 * GST_SECOND);
    fail_unless(message != nullptr, "%s did not end", line.c_str());
    fail_if(GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR, "%s failed", line.c_str());
    ended = GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS;
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_QOS &&
        GST_MESSAGE_SRC(message) == GST_OBJECT(filter_element)) {
      qos_messages++;
      gst_message_parse_qos_stats(message, nullptr, nullptr, &dropped);
    }
    gst_message_unref(message);
  }
  fail_unless(qos_messages >= 1, "%s: no QoS message from the element", line.c_str());
  fail_unless(dropped > 0, "%s: nothing dropped", line.c_str());
  gst_object_unref(filter_element);
  stop_and_free(pipeline, pipeline_bus);
}

// Frames 0 to 7, with a QoS event after the first two saying that downstream wants
// nothing before frame 5's end: the frames that came out, by index.
std::vector<int> frames_after_qos(const char *backend, const FilterUnderTest &filter,
                                  const char *qos, GstBus *bus, GstElement **element) {
  GstHarness *h = make_harness(backend, filter, 1, qos);
  gst_element_set_bus(h->element, bus);
  *element = gst_harness_find_element(h, filter.element.c_str());
  gst_harness_set_src_caps_str(h, caps_string("GRAY8", 16, 8).c_str());
  const GstVideoInfo info = video_info("GRAY8", 16, 8);
  std::vector<int> out;
  for (int i = 0; i < 8; i++) {
    if (i == 2)
      fail_unless(gst_harness_push_upstream_event(
          h, gst_event_new_qos(GST_QOS_TYPE_UNDERFLOW, 1.5,
                               GST_CLOCK_DIFF(frame_pts(2), frame_pts(5)) + GST_MSECOND,
                               frame_pts(2))));
    fail_unless_equals_int(gst_harness_push(h, random_frame(h, info, 800 + i, frame_pts(i))),
                           GST_FLOW_OK);
  }
  while (GstBuffer *buffer = gst_harness_try_pull(h)) {
    out.push_back(int(gst_util_uint64_scale_round(GST_BUFFER_PTS(buffer), 30, GST_SECOND)));
    gst_buffer_unref(buffer);
  }
  gst_element_set_bus(h->element, nullptr);
  gst_harness_teardown(h);
  return out;
}

}  // namespace

void check_qos(const char *backend, const FilterUnderTest &filter) {
  GstBus *bus = gst_bus_new();
  GstElement *element = nullptr;
  // On by default, as in GStreamer's video filters: frames 2 to 5 are dropped, and
  // the element says so.
  std::vector<int> out = frames_after_qos(backend, filter, "", bus, &element);
  gboolean enabled = FALSE;
  g_object_get(element, "qos", &enabled, nullptr);
  fail_unless(enabled, "qos is off by default");
  fail_unless(out == std::vector<int>({0, 1, 6, 7}), "%zu frames out", out.size());
  guint64 dropped = 0;
  fail_unless(qos_messages_from(bus, element, &dropped) >= 1, "no QoS message");
  fail_unless_equals_uint64(dropped, 4);
  gst_object_unref(element);
  // qos=false: every frame.
  out = frames_after_qos(backend, filter, "qos=false", bus, &element);
  fail_unless_equals_int(out.size(), 8);
  fail_unless_equals_int(qos_messages_from(bus, element, &dropped), 0);
  gst_object_unref(element);

  // A live source faster than what follows it, a sink that syncs: the sink's QoS
  // events make the element drop late frames. Behind a slow step downstream, and
  // (the CPU backend) behind the element's own work: a 15x15 median of 1080p frames
  // takes far longer than the millisecond a frame lasts.
  expect_qos_drops("videotestsrc is-live=true num-buffers=60 ! "
                   "video/x-raw,format=GRAY8,width=64,height=48,framerate=100/1 ! " +
                   element_line(backend, filter, 2, "name=filter") +
                   " ! identity sleep-time=30000 ! fakesink sync=true qos=true");
  if (g_str_equal(backend, "cpu") && filter.element == "cudamedian")
    expect_qos_drops("videotestsrc is-live=true num-buffers=30 ! "
                     "video/x-raw,format=GRAY8,width=1920,height=1080,framerate=1000/1 ! "
                     "cudamedian name=filter backend=cpu size=15 ! fakesink sync=true qos=true");
  gst_object_unref(bus);
}

void stop_and_free(GstElement *element, GstBus *bus) {
  fail_unless_equals_int(gst_element_set_state(element, GST_STATE_NULL),
                         GST_STATE_CHANGE_SUCCESS);
  gst_element_set_bus(element, nullptr);
  gst_object_unref(bus);
  gst_object_unref(element);
}

namespace {

GstElement *make_element(const char *element) {
  GstElement *made = gst_element_factory_make(element, nullptr);
  fail_unless(made != nullptr, "%s not found: is GST_PLUGIN_PATH set?", element);
  return made;
}

bool cuda_device_usable() { return probe_cuda_device() == cudaSuccess; }

// Starts `element` with its own bus; returns the state change's result.
GstStateChangeReturn start_with_bus(GstElement *element, GstBus *bus) {
  gst_element_set_bus(element, bus);
  return gst_element_set_state(element, GST_STATE_PAUSED);
}

// The text and the debug string of an error, warning or info message, checked readable
// where gst-launch-1.0 shows it: it prints the text of errors and warnings but only
// the debug string of info messages (every release from 1.22 to 1.28), so an info
// message's debug string must say its text.
struct Told {
  std::string text, debug;
};
Told told_by(GstMessage *message) {
  GError *error = nullptr;
  gchar *debug = nullptr;
  switch (GST_MESSAGE_TYPE(message)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error(message, &error, &debug);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning(message, &error, &debug);
      break;
    default:
      gst_message_parse_info(message, &error, &debug);
      break;
  }
  Told told{error->message, debug ? debug : ""};
  g_error_free(error);
  g_free(debug);
  fail_if(told.text.empty(), "a message without text: %s", told.debug.c_str());
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_INFO)
    fail_unless(told.debug.find(told.text) != std::string::npos,
                "info message \"%s\": gst-launch-1.0 shows only its debug string \"%s\"",
                told.text.c_str(), told.debug.c_str());
  return told;
}

// The error on the bus; fails if there is none.
Told told_error_on(GstBus *bus) {
  GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(message != nullptr, "no error message on the bus");
  const Told told = told_by(message);
  gst_message_unref(message);
  return told;
}

// The message of the error on the bus; fails if there is none.
std::string error_on(GstBus *bus) { return told_error_on(bus).text; }

}  // namespace

void check_refused_caps(const char *element) {
  GstElement *made = make_element(element);
  GstPad *sink = gst_element_get_static_pad(made, "sink");
  for (const char *caps : {"video/x-raw,format=GRAY16_BE,width=8,height=8",
                           "video/x-raw,format=v210,width=8,height=8",
                           // One field per buffer: in host memory only.
                           "video/x-raw(memory:CUDAMemory,format:Interlaced),format=NV12,"
                           "width=8,height=8,interlace-mode=alternate",
                           "audio/x-raw,format=S16LE"}) {
    GstCaps *refused = gst_caps_from_string(caps);
    fail_if(gst_pad_query_accept_caps(sink, refused), "%s accepted %s", element, caps);
    gst_caps_unref(refused);
  }
  gst_object_unref(sink);
  gst_object_unref(made);
}

void check_backend_cuda_demanded(const char *element) {
  GstElement *made = make_element(element);
  gst_util_set_object_arg(G_OBJECT(made), "backend", "cuda");
  GstBus *bus = gst_bus_new();
  const GstStateChangeReturn ret = start_with_bus(made, bus);
  if (cuda_device_usable()) {
    fail_unless(ret != GST_STATE_CHANGE_FAILURE);
  } else {
    fail_unless_equals_int(ret, GST_STATE_CHANGE_FAILURE);
    const std::string error = error_on(bus);
    fail_unless(error.find("CUDA") != std::string::npos, "%s", error.c_str());
  }
  stop_and_free(made, bus);
}

void check_missing_device_id(const char *element) {
  GstElement *made = make_element(element);
  g_object_set(made, "cuda-device-id", 4000, nullptr);
  GstBus *bus = gst_bus_new();
  fail_unless_equals_int(start_with_bus(made, bus), GST_STATE_CHANGE_FAILURE);
  const std::string error = error_on(bus);
  fail_unless(error.find("4000") != std::string::npos, "%s", error.c_str());
  stop_and_free(made, bus);
}

namespace {

// The warnings and the info messages on `bus`, popped (each checked readable), and how
// many were warnings.
std::vector<Told> told_on(GstBus *bus, int *warnings) {
  std::vector<Told> told;
  *warnings = 0;
  const auto types = GstMessageType(GST_MESSAGE_WARNING | GST_MESSAGE_INFO);
  while (GstMessage *message = gst_bus_pop_filtered(bus, types)) {
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_WARNING)
      ++*warnings;
    told.push_back(told_by(message));
    gst_message_unref(message);
  }
  return told;
}

// Their texts alone.
std::vector<std::string> notices_on(GstBus *bus, int *warnings) {
  std::vector<std::string> texts;
  for (const Told &told : told_on(bus, warnings))
    texts.push_back(told.text);
  return texts;
}

// What an element says it does on the CPU: cudahist counts, the filters filter.
std::string on_the_cpu(const char *element) {
  return std::string(g_str_equal(element, "cudahist") ? "Counting" : "Filtering") +
      " on the CPU";
}

// Fails unless `text` says the element works on the CPU in its own verb, never the
// other one.
void says_on_the_cpu(const char *element, const std::string &text) {
  const std::string own = on_the_cpu(element);
  const std::string other = on_the_cpu(g_str_equal(element, "cudahist") ? "cudamedian" :
                                                                          "cudahist");
  fail_unless(text.find(own) != std::string::npos, "%s: \"%s\" does not say \"%s\"",
              element, text.c_str(), own.c_str());
  fail_unless(text.find(other) == std::string::npos, "%s: \"%s\" says \"%s\"", element,
              text.c_str(), other.c_str());
}

}  // namespace

void check_auto_backend(const char *element) {
  const bool device = cuda_device_usable();
  // Two elements, the first started twice: without a device, each says once that it
  // filters on the CPU; a warning at most once in the process, info messages after.
  int warnings = 0;
  for (int made_count = 0; made_count < 2; made_count++) {
    GstElement *made = make_element(element);
    GstBus *bus = gst_bus_new();
    for (int cycle = 0; cycle < (made_count == 0 ? 2 : 1); cycle++) {
      fail_unless(start_with_bus(made, bus) != GST_STATE_CHANGE_FAILURE);
      gint active_backend;
      g_object_get(made, "active-backend", &active_backend, nullptr);
      fail_unless_equals_int(active_backend, device ? 1 : 2);  // cuda : cpu
      fail_unless_equals_int(gst_element_set_state(made, GST_STATE_NULL),
                             GST_STATE_CHANGE_SUCCESS);
    }
    int warned = 0;
    const std::vector<std::string> told = notices_on(bus, &warned);
    fail_unless_equals_int(told.size(), device ? 0 : 1);  // said once, not at every start
    if (!told.empty()) {
      says_on_the_cpu(element, told[0]);
      // The cause in the words the skipped GPU tests print for it (after "needs 1 usable
      // CUDA device: ").
      const std::string reason = skip_reason(1, probe_cuda_device());
      const std::string cause = reason.substr(reason.find(": ") + 2);
      fail_unless(told[0].find(cause) != std::string::npos,
                  "\"%s\" names another cause than the skipped tests' \"%s\"", told[0].c_str(),
                  reason.c_str());
    }
    warnings += warned;
    stop_and_free(made, bus);
  }
  fail_unless(warnings <= 1, "%d warnings of the CPU fallback in one process", warnings);
}

#ifndef CF_HAVE_CUDA
// Built without CUDA: backend=auto says so in one info message, no warning; a CUDA
// device asked for (backend=cuda, a cuda-device-id) is an error in the same words.
void check_device_messages(const char *element) {
  const auto says_no_cuda = [](const std::string &text) {
    fail_unless(contains_all(text, {"no CUDA backend", "-Dcuda=disabled"}), "%s",
                text.c_str());
  };
  GstElement *made = make_element(element);
  GstBus *bus = gst_bus_new();
  fail_unless(start_with_bus(made, bus) != GST_STATE_CHANGE_FAILURE);
  int warned = 0;
  const std::vector<std::string> told = notices_on(bus, &warned);
  fail_unless_equals_int(warned, 0);
  fail_unless_equals_int(told.size(), 1);
  says_no_cuda(told[0]);
  says_on_the_cpu(element, told[0]);
  stop_and_free(made, bus);
  for (const std::string setting : {"backend=cuda", "cuda-device-id=0"}) {
    made = make_element(element);
    const size_t equals = setting.find('=');
    gst_util_set_object_arg(G_OBJECT(made), setting.substr(0, equals).c_str(),
                            setting.substr(equals + 1).c_str());
    bus = gst_bus_new();
    fail_unless_equals_int(start_with_bus(made, bus), GST_STATE_CHANGE_FAILURE);
    const std::string error = error_on(bus);
    says_no_cuda(error);
    fail_unless(error.find(setting) != std::string::npos, "%s", error.c_str());
    stop_and_free(made, bus);
  }
}
#else
void check_device_messages(const char *element) {
  int runtime = 0;
  fail_unless_equals_int(cudaRuntimeGetVersion(&runtime), cudaSuccess);
  const auto version = [](int v) {
    return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  };
  const int older = runtime - 1000;  // a driver one CUDA major version behind
  struct Case {
    std::string plan;
    cudaError_t error;  // what the CUDA runtime reports
    std::vector<std::string> words;
  };
  const std::vector<Case> cases = {
      {"driver:0",
       cudaErrorInsufficientDriver,
       {"no NVIDIA driver is installed", "install one for CUDA " + version(runtime)}},
      {"driver:" + std::to_string(older),
       cudaErrorInsufficientDriver,
       {"runs CUDA " + version(older) + " at most", "needs CUDA " + version(runtime),
        "or newer", "update the driver", "no newer than " + version(older)}},
      {"driver:" + std::to_string(runtime) + ":cudaErrorNoDevice",
       cudaErrorNoDevice,
       {"sees no GPU", "nvidia-smi", "CUDA_VISIBLE_DEVICES"}},
      {"driver:" + std::to_string(runtime) + ":cudaErrorDevicesUnavailable",
       cudaErrorDevicesUnavailable,
       {"busy or unavailable", "compute mode", "prohibited"}},
  };
  // The cause named one way: the plugin's words in the text, never the runtime's own
  // ("CUDA driver version is insufficient" where no driver is installed) in the text
  // or the debug string (the debug log), which names the runtime's error only.
  const auto says_all = [](const Told &told, const Case &c) {
    for (const std::string &word : c.words)
      fail_unless(told.text.find(word) != std::string::npos,
                  "%s: \"%s\" says nothing of \"%s\"", c.plan.c_str(), told.text.c_str(),
                  word.c_str());
    const std::string runtime_words = cudaGetErrorString(c.error);
    for (const std::string *said : {&told.text, &told.debug})
      fail_unless(said->find(runtime_words) == std::string::npos,
                  "%s: \"%s\" names the cause in the CUDA runtime's words too",
                  c.plan.c_str(), said->c_str());
    fail_unless(told.debug.find(cudaGetErrorName(c.error)) != std::string::npos,
                "%s: debug string \"%s\" does not name %s", c.plan.c_str(),
                told.debug.c_str(), cudaGetErrorName(c.error));
  };
  for (const Case &c : cases) {
    g_setenv("GST_CUDAFILTERS_FAULT", c.plan.c_str(), TRUE);
    // backend=auto: on the CPU, told why in a warning (once per process) or info.
    GstElement *made = make_element(element);
    GstBus *bus = gst_bus_new();
    fail_unless(start_with_bus(made, bus) != GST_STATE_CHANGE_FAILURE);
    gint active_backend;
    g_object_get(made, "active-backend", &active_backend, nullptr);
    fail_unless_equals_int(active_backend, 2);  // cpu
    int warned = 0;
    const std::vector<Told> told = told_on(bus, &warned);
    fail_unless_equals_int(told.size(), 1);
    says_all(told[0], c);
    says_on_the_cpu(element, told[0].text);
    stop_and_free(made, bus);
    // backend=cuda: an error at start, in the same words.
    made = make_element(element);
    gst_util_set_object_arg(G_OBJECT(made), "backend", "cuda");
    bus = gst_bus_new();
    fail_unless_equals_int(start_with_bus(made, bus), GST_STATE_CHANGE_FAILURE);
    says_all(told_error_on(bus), c);
    stop_and_free(made, bus);
  }
  g_unsetenv("GST_CUDAFILTERS_FAULT");
}
#endif

namespace {

// How many times `part` occurs in `text`.
size_t occurrences(const std::string &text, const std::string &part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    count++;
  return count;
}

}  // namespace

void check_launch_messages() {
  gchar *launch = g_find_program_in_path("gst-launch-1.0");
  if (launch == nullptr) {
    g_print("SKIP test_launch_messages: no gst-launch-1.0 (gstreamer1.0-tools) here\n");
    return;
  }
  gchar **env = g_get_environ();
  env = g_environ_unsetenv(env, "GST_DEBUG");  // its log would repeat the texts
  // Under AddressSanitizer, gst-launch-1.0 loads the instrumented plugin with the
  // runtime preloaded, as tests/sanitizers/asan-exec.sh runs uninstrumented programs.
  if (const gchar *asan_runtime = g_environ_getenv(env, "CF_ASAN_RUNTIME")) {
    const std::string options = std::string(g_environ_getenv(env, "ASAN_OPTIONS")
                                                ? g_environ_getenv(env, "ASAN_OPTIONS")
                                                : "") + ":detect_leaks=0";
    env = g_environ_setenv(env, "ASAN_OPTIONS", options.c_str(), TRUE);
    env = g_environ_setenv(env, "LD_PRELOAD", asan_runtime, TRUE);
  }
#ifdef CF_HAVE_CUDA
  env = g_environ_setenv(env, "GST_CUDAFILTERS_FAULT", "driver:0", TRUE);
  const std::string cause = cf::describe_device_problem(cudaErrorInsufficientDriver, 0);
#else
  const std::string cause = cf::kNoCudaBackend;
#endif
  const gchar *argv[] = {launch, "videotestsrc", "num-buffers=3", "!", "cudamedian", "!",
                         "cudagauss", "!", "cudahist", "!", "fakesink", nullptr};
  gchar *out = nullptr, *err = nullptr;
  gint status = 0;
  GError *error = nullptr;
  const gboolean ran = g_spawn_sync(nullptr, const_cast<gchar **>(argv), env, G_SPAWN_DEFAULT,
                                    nullptr, nullptr, &out, &err, &status, &error);
  fail_unless(ran, "gst-launch-1.0: %s", ran ? "" : error->message);
  const std::string printed = std::string(out) + err;
  g_free(out);
  g_free(err);
  g_strfreev(env);
  g_free(launch);
  fail_unless(WIFEXITED(status) && WEXITSTATUS(status) == 0, "gst-launch-1.0 failed:\n%s",
              printed.c_str());
  // One warning (or, without CUDA, an info message) and two info messages: each says
  // the cause and its element's verb where gst-launch-1.0 prints it.
  const struct {
    std::string part;
    size_t times;
  } expected[] = {{cause, 3}, {"Counting on the CPU", 1}, {"Filtering on the CPU", 2}};
  for (const auto &e : expected)
    fail_unless(occurrences(printed, e.part) == e.times, "\"%s\" printed %zu times, not %zu:\n%s",
                e.part.c_str(), occurrences(printed, e.part), e.times, printed.c_str());
  fail_unless(printed.find("insufficient") == std::string::npos,
              "another cause's words printed:\n%s", printed.c_str());
}

int run_element_suite(const char *suite_name, const char *backend,
                      std::initializer_list<NamedTest> tests, int argc, char **argv) {
  if (g_str_equal(backend, "cuda")) {
    std::vector<GpuTest> gpu_tests;
    for (const NamedTest &test : tests)
      gpu_tests.push_back({test.name, test.function});
    return run_gpu_suite(suite_name, gpu_tests, argc, argv);
  }
  gst_check_init(&argc, &argv);
  Suite *suite = suite_create(suite_name);
  TCase *tc = tcase_create(backend);
  tcase_set_timeout(tc, 600);
  suite_add_tcase(suite, tc);
  for (const NamedTest &test : tests)
    if (_gst_check_run_test_func(test.name))
      _tcase_add_test(tc, test.function, test.name, 0, 0, 0, 1);
  return gst_check_run_suite(suite, suite_name, __FILE__);
}

}  // namespace cftest
