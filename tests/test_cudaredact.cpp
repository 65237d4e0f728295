// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// cudaredact as a user sees it. Built twice: with CF_TEST_BACKEND "cpu" (CI) and
// "cuda" (the gpu suite, skipped by name without a device). Expectations come from
// the tests' own format table and from what the element documents, worked out here
// sample by sample (the kernels' own semantics are test_redact_*'s).
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#ifdef CF_HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#include "element_checks.h"
#include "format_table.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

const char *const kBackend = CF_TEST_BACKEND;

// The whole frame as one block per plane (regions=frame, blocks=1): every processed
// sample becomes its plane's mean, rounded half up; worked out from the plane alone,
// so the shared checks can drive it.
const cftest::FilterUnderTest kPlaneMean = {
    "cudaredact", "regions=frame method=pixelate blocks=1",
    [](const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth) {
      const int bytes = depth == cf::SampleDepth::U8 ? 1 : 2;
      const auto at = [&](const cf::Plane &plane, int x, int y) {
        return plane.data + y * plane.row_pitch + x * plane.pixel_stride;
      };
      uint64_t sum = 0;
      for (int y = 0; y < src.height; y++)
        for (int x = 0; x < src.width; x++) {
          const uint8_t *sample = at(src, x, y);
          sum += bytes == 1 ? sample[0] : uint32_t(sample[0] | sample[1] << 8);
        }
      const uint64_t count = uint64_t(src.width) * src.height;
      const uint32_t mean = uint32_t((2 * sum + count) / (2 * count));
      for (int y = 0; y < dst.height; y++)
        for (int x = 0; x < dst.width; x++) {
          uint8_t *sample = at(dst, x, y);
          sample[0] = uint8_t(mean);
          if (bytes == 2)
            sample[1] = uint8_t(mean >> 8);
        }
    }};

// Frames without regions pass as they came.
const cftest::FilterUnderTest kUntouched = {
    "cudaredact", "",
    [](const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth) {
      const int bytes = depth == cf::SampleDepth::U8 ? 1 : 2;
      for (int y = 0; y < dst.height; y++)
        for (int x = 0; x < dst.width; x++)
          std::copy_n(src.data + y * src.row_pitch + x * src.pixel_stride, bytes,
                      dst.data + y * dst.row_pitch + x * dst.pixel_stride);
    }};

// A box of frame pixels [x0, x1) x [y0, y1).
struct Rect {
  int x0, y0, x1, y1;
  bool holds(int x, int y) const { return x >= x0 && x < x1 && y >= y0 && y < y1; }
};

// The multiples of frame pixels the element grows boxes to: the largest
// subsampling of the format's components, across and down.
Rect snapped(const cftest::TableFormat &format, Rect box, int width, int height) {
  int gx = 1, gy = 1;
  for (char c : format.components()) {
    gx = std::max(gx, cftest::x_factor(format, c));
    gy = std::max(gy, cftest::y_factor(format, c));
  }
  return {box.x0 / gx * gx, box.y0 / gy * gy, std::min(width, (box.x1 + gx - 1) / gx * gx),
          std::min(height, (box.y1 + gy - 1) / gy * gy)};
}

// Black in the format's component `c`: limited-range YUV (the default colorimetry
// of these frames) has luma 16 and chroma at the middle, scaled to the value bits;
// RGB and grey are zero.
uint32_t black(const cftest::TableFormat &format, char c) {
  if (!format.is_yuv())
    return 0;
  const int shift = format.value_bits - 8;
  return c == 'Y' ? 16u << shift : 128u << shift;
}

// A harness around cudaredact with `properties`, on a bus of its own.
GstHarness *redact_harness(const std::string &properties, const char *format, int width,
                           int height) {
  GstHarness *h = gst_harness_new_parse(
      ("cudaredact backend=" + std::string(kBackend) + " " + properties).c_str());
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(h->element, bus);
  gst_object_unref(bus);
  gst_harness_set_caps_str(h, cftest::caps_string(format, width, height).c_str(),
                           cftest::caps_string(format, width, height).c_str());
  return h;
}

// The harness's end. Its bus's messages hold their element: the bus lets them go
// first, or the element and the bus would keep each other.
void redact_teardown(GstHarness *h) {
  if (GstBus *bus = gst_element_get_bus(h->element)) {
    gst_bus_set_flushing(bus, TRUE);
    gst_object_unref(bus);
  }
  gst_element_set_bus(h->element, nullptr);
  gst_harness_teardown(h);
}

// The error messages on the harness's bus, one a line.
std::string bus_errors(GstHarness *h) {
  std::string errors;
  GstBus *bus = gst_element_get_bus(h->element);
  while (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
    GError *error = nullptr;
    gchar *debug = nullptr;
    gst_message_parse_error(message, &error, &debug);
    errors += std::string(error->message) + " (" + (debug ? debug : "") + ")\n";
    g_clear_error(&error);
    g_free(debug);
    gst_message_unref(message);
  }
  gst_object_unref(bus);
  return errors;
}

// Pushes `frame` (with whatever metas it carries) and pulls it back, keeping a copy
// of what went in.
GstBuffer *push_and_pull(GstHarness *h, GstBuffer *frame, GstBuffer **in_copy) {
  *in_copy = gst_buffer_copy_deep(frame);
  const GstFlowReturn pushed = gst_harness_push(h, frame);
  fail_unless(pushed == GST_FLOW_OK, "pushing a frame: %s, %s", gst_flow_get_name(pushed),
              bus_errors(h).c_str());
  GstBuffer *out = gst_harness_pull(h);
  fail_unless(out != nullptr);
  return out;
}

void add_roi(GstBuffer *buffer, const Rect &box, const char *type = "face") {
  gst_buffer_add_video_region_of_interest_meta(buffer, type, guint(box.x0), guint(box.y0),
                                               guint(box.x1 - box.x0), guint(box.y1 - box.y0));
}

// Every sample of every component of `out`: `expect(c, x, y, in)` for the processed
// ones, the input's value for alpha. `what` names the case.
using Expectation = std::function<uint32_t(char component, int x, int y,
                                           const cftest::TableComponent &in)>;
void check_samples(const GstVideoInfo &info, GstBuffer *in, GstBuffer *out,
                   const Expectation &expect, const std::string &what) {
  const cftest::TableFormat &format = cftest::table_format(info);
  GstVideoFrame in_frame, out_frame;
  fail_unless(gst_video_frame_map(&in_frame, const_cast<GstVideoInfo *>(&info), in, GST_MAP_READ));
  fail_unless(gst_video_frame_map(&out_frame, const_cast<GstVideoInfo *>(&info), out,
                                  GST_MAP_READ));
  for (char c : format.components()) {
    const cftest::TableComponent before(format, in_frame, c);
    const cftest::TableComponent after(format, out_frame, c);
    for (int y = 0; y < after.height(); y++)
      for (int x = 0; x < after.width(); x++) {
        const uint32_t wanted = c == 'A' ? before.value(x, y) : expect(c, x, y, before);
        if (after.value(x, y) != wanted)
          fail("%s: %s %c (%d, %d) is %u, expected %u (was %u)", what.c_str(), format.name, c,
               x, y, after.value(x, y), wanted, before.value(x, y));
      }
  }
  gst_video_frame_unmap(&in_frame);
  gst_video_frame_unmap(&out_frame);
}

// Pushes `frame` and checks every sample of what comes back (check_samples).
void push_and_check(GstHarness *h, GstBuffer *frame, const GstVideoInfo &info,
                    const Expectation &expect, const std::string &what) {
  GstBuffer *in = nullptr;
  GstBuffer *out = push_and_pull(h, frame, &in);
  check_samples(info, in, out, expect, what);
  gst_buffer_unref(in);
  gst_buffer_unref(out);
}

// Whether sample (x, y) of component c covers only pixels of `box`.
bool inside(const cftest::TableFormat &format, char c, const Rect &box, int x, int y) {
  const int fx = cftest::x_factor(format, c), fy = cftest::y_factor(format, c);
  return Rect{box.x0 / fx, box.y0 / fy, (box.x1 + fx - 1) / fx, (box.y1 + fy - 1) / fy}.holds(
      x, y);
}

// Frames of `format` with a face box, method=fill in black: the snapped box black,
// every other sample as it came.
void check_fill(const char *format_name, int width, int height, const Rect &box) {
  const GstVideoInfo info = cftest::video_info(format_name, width, height);
  const cftest::TableFormat &format = cftest::table_format(info);
  GstHarness *h = redact_harness("method=fill post-messages=false", format_name, width, height);
  const std::string what = std::string("fill ") + format_name + " " + std::to_string(width) +
                           "x" + std::to_string(height);
  GstBuffer *frame = cftest::random_frame(h, info, 7, cftest::frame_pts(0));
  add_roi(frame, box);
  GstBuffer *in = nullptr;
  GstBuffer *out = push_and_pull(h, frame, &in);
  const Rect redacted = snapped(format, box, width, height);
  check_samples(info, in, out,
                [&](char c, int x, int y, const cftest::TableComponent &before) {
                  return inside(format, c, redacted, x, y) ? black(format, c)
                                                           : before.value(x, y);
                },
                what);
  gst_buffer_unref(in);
  gst_buffer_unref(out);
  redact_teardown(h);
}

}  // namespace

GST_START_TEST(test_fill_every_format) {
  for (const cftest::TableFormat &format : cftest::table_formats()) {
    check_fill(format.name, 34, 22, {5, 3, 18, 12});
    check_fill(format.name, 33, 21, {0, 9, 40, 21});
  }
}
GST_END_TEST;

// method=pixelate: blocks of ceil(L / blocks) pixels (grown to a multiple of the
// subsampling) anchored at the snapped box's corner, each the rounded mean of its
// samples inside the box.
GST_START_TEST(test_pixelate) {
  for (const char *format_name : {"GRAY8", "NV12", "I420", "YUY2", "RGBA", "P010_10LE",
                                  "GRAY16_LE", "Y444"}) {
    const int width = 40, height = 30;
    const GstVideoInfo info = cftest::video_info(format_name, width, height);
    const cftest::TableFormat &format = cftest::table_format(info);
    const Rect box = {7, 5, 27, 18};
    GstHarness *h = redact_harness("blocks=3 post-messages=false", format_name, width, height);
    GstBuffer *frame = cftest::random_frame(h, info, 11, cftest::frame_pts(0));
    add_roi(frame, box);
    GstBuffer *in = nullptr;
    GstBuffer *out = push_and_pull(h, frame, &in);
    const Rect r = snapped(format, box, width, height);
    int grid = 1;
    for (char c : format.components())
      grid = std::max({grid, cftest::x_factor(format, c), cftest::y_factor(format, c)});
    const int longer = std::max(r.x1 - r.x0, r.y1 - r.y0);
    const int side = ((longer + 2) / 3 + grid - 1) / grid * grid;
    check_samples(
        info, in, out,
        [&](char c, int x, int y, const cftest::TableComponent &before) -> uint32_t {
          if (!inside(format, c, r, x, y))
            return before.value(x, y);
          const int fx = cftest::x_factor(format, c), fy = cftest::y_factor(format, c);
          const Rect samples = {r.x0 / fx, r.y0 / fy, (r.x1 + fx - 1) / fx,
                                (r.y1 + fy - 1) / fy};
          const int bw = side / fx, bh = side / fy;
          const int bx = samples.x0 + (x - samples.x0) / bw * bw;
          const int by = samples.y0 + (y - samples.y0) / bh * bh;
          uint64_t sum = 0, count = 0;
          for (int j = by; j < std::min(by + bh, samples.y1); j++)
            for (int i = bx; i < std::min(bx + bw, samples.x1); i++, count++)
              sum += before.value(i, j);
          return uint32_t((2 * sum + count) / (2 * count));
        },
        std::string("pixelate ") + format_name);
    gst_buffer_unref(in);
    gst_buffer_unref(out);
    redact_teardown(h);
  }
}
GST_END_TEST;

// A Gaussian's integer taps as cudagauss documents them: exp(-i^2 / (2 sigma^2)) over
// 2 ceil(3 sigma) + 1 samples, normalised, scaled by 2^bits and rounded (halves away
// from zero), the centre taking what makes them sum to 2^bits.
std::vector<int64_t> documented_taps(double sigma, int bits) {
  const int radius = int(std::ceil(3 * sigma));
  double total = 0;
  for (int i = -radius; i <= radius; i++)
    total += std::exp(-double(i * i) / (2 * sigma * sigma));
  std::vector<int64_t> taps(2 * radius + 1);
  int64_t outer = 0;
  for (int i = 1; i <= radius; i++) {
    taps[radius - i] = taps[radius + i] =
        std::llround(std::exp(-double(i * i) / (2 * sigma * sigma)) / total * double(1 << bits));
    outer += 2 * taps[radius + i];
  }
  taps[radius] = (int64_t{1} << bits) - outer;
  return taps;
}

// The Gaussian blur of a component at (x, y), mirrored at the edges without repeating
// the edge sample (reflect-101), rounded half up once.
uint32_t documented_blur(const cftest::TableComponent &in, double sigma_x, double sigma_y,
                         int bits, int x, int y) {
  const std::vector<int64_t> tx = documented_taps(sigma_x, bits), ty = documented_taps(sigma_y, bits);
  const int rx = int(tx.size()) / 2, ry = int(ty.size()) / 2;
  const auto mirror = [](int i, int n) { return i < 0 ? -i : i >= n ? 2 * n - 2 - i : i; };
  int64_t sum = 0;
  for (int j = -ry; j <= ry; j++)
    for (int i = -rx; i <= rx; i++)
      sum += ty[j + ry] * tx[i + rx] *
             in.value(mirror(x + i, in.width()), mirror(y + j, in.height()));
  return uint32_t((sum + (int64_t{1} << (2 * bits - 1))) >> (2 * bits));
}

// method=blur: inside the snapped box, each component's whole-plane Gaussian blur of
// sigma = strength x the box's shorter side, rounded up to the next of 8 steps per
// octave, in the component's samples (halved where it is subsampled).
GST_START_TEST(test_blur) {
  for (const char *format_name : {"GRAY8", "NV12", "I420", "YUY2", "RGBA", "P010_10LE",
                                  "GRAY16_LE", "Y444"})
    for (const double strength : {0.15, 0.3}) {
      const int width = 40, height = 30;
      const GstVideoInfo info = cftest::video_info(format_name, width, height);
      const cftest::TableFormat &format = cftest::table_format(info);
      const Rect box = {7, 5, 27, 18};
      GstHarness *h = redact_harness("method=blur strength=" + std::to_string(strength) +
                                         " post-messages=false",
                                     format_name, width, height);
      GstBuffer *frame = cftest::random_frame(h, info, 13, cftest::frame_pts(0));
      add_roi(frame, box);
      GstBuffer *in = nullptr;
      GstBuffer *out = push_and_pull(h, frame, &in);
      const Rect r = snapped(format, box, width, height);
      const double wanted = strength * std::min(r.x1 - r.x0, r.y1 - r.y0);
      const double sigma = std::exp2(std::ceil(std::log2(wanted) * 8) / 8);
      const int bits = format.sample_bytes == 1 ? 12 : 20;
      check_samples(
          info, in, out,
          [&](char c, int x, int y, const cftest::TableComponent &before) -> uint32_t {
            if (!inside(format, c, r, x, y))
              return before.value(x, y);
            return documented_blur(before, sigma / cftest::x_factor(format, c),
                                   sigma / cftest::y_factor(format, c), bits, x, y);
          },
          std::string("blur ") + format_name + " strength " + std::to_string(strength));
      gst_buffer_unref(in);
      gst_buffer_unref(out);
      redact_teardown(h);
    }
}
GST_END_TEST;

// A region whose blur would pass the cap: one warning for the stream, naming the way
// out, and the frames still leave.
GST_START_TEST(test_blur_cap_warning) {
  const int width = 64, height = 48;
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstHarness *h = redact_harness("method=blur strength=1", "GRAY8", width, height);
  for (int i = 0; i < 3; i++) {
    GstBuffer *frame = cftest::random_frame(h, info, 21 + i, cftest::frame_pts(i));
    add_roi(frame, {4, 4, 60, 44});
    GstBuffer *in = nullptr;
    GstBuffer *out = push_and_pull(h, frame, &in);
    gst_buffer_unref(in);
    gst_buffer_unref(out);
  }
  GstBus *bus = gst_element_get_bus(h->element);
  int warnings = 0;
  while (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING)) {
    GError *error = nullptr;
    gst_message_parse_warning(message, &error, nullptr);
    fail_unless(std::string(error->message).find("method=pixelate") != std::string::npos,
                "the warning names no way out: %s", error->message);
    g_clear_error(&error);
    gst_message_unref(message);
    warnings++;
  }
  gst_object_unref(bus);
  fail_unless_equals_int(warnings, 1);
  redact_teardown(h);
}
GST_END_TEST;

// shape=ellipse: the box's corners stay, its centre goes; feather: samples just
// outside the shape between the original and the fill, none beyond it.
GST_START_TEST(test_ellipse_and_feather) {
  const int width = 48, height = 40;
  const Rect box = {10, 8, 30, 28};
  GstHarness *h = redact_harness("method=fill fill-color=0xffffffff shape=ellipse feather=4 "
                                 "post-messages=false",
                                 "GRAY8", width, height);
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstBuffer *frame = gst_harness_create_buffer(h, GST_VIDEO_INFO_SIZE(&info));
  gst_buffer_memset(frame, 0, 0, GST_VIDEO_INFO_SIZE(&info));
  gst_buffer_add_video_meta(frame, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, width,
                            height);
  add_roi(frame, box);
  GstBuffer *in = nullptr;
  GstBuffer *out = push_and_pull(h, frame, &in);
  GstMapInfo map;
  fail_unless(gst_buffer_map(out, &map, GST_MAP_READ));
  const int stride = GST_VIDEO_INFO_PLANE_STRIDE(&info, 0);
  const auto at = [&](int x, int y) { return map.data[y * stride + x]; };
  fail_unless_equals_int(at(20, 18), 255);  // the centre
  // The box's corners lie outside the ellipse: in its feather at most.
  fail_unless(at(10, 8) < 255 && at(29, 27) < 255, "corners %d, %d", at(10, 8), at(29, 27));
  // Just left of the ellipse's leftmost point: fading, between 0 and 255.
  fail_unless(at(9, 18) > 0 && at(9, 18) < 255, "feather at (9, 18): %d", at(9, 18));
  fail_unless(at(8, 18) < at(9, 18), "feather does not fade outwards");
  fail_unless_equals_int(at(4, 18), 0);  // past the feather
  gst_buffer_unmap(out, &map);
  gst_buffer_unref(in);
  gst_buffer_unref(out);
  redact_teardown(h);
}
GST_END_TEST;

// Interlaced frames (interlace-mode=interleaved): each field a picture of its own,
// boxes grown to whole rows of both fields (twice the format's vertical
// subsampling), so that both fields of the box are redacted alike.
GST_START_TEST(test_interlaced) {
  for (const char *format_name : {"GRAY8", "NV12", "I420", "YUY2"}) {
    const int width = 32, height = 24;
    const std::string caps =
        cftest::caps_string(format_name, width, height) + ",interlace-mode=interleaved";
    GstCaps *parsed = gst_caps_from_string(caps.c_str());
    GstVideoInfo info;
    fail_unless(gst_video_info_from_caps(&info, parsed));
    gst_caps_unref(parsed);
    const cftest::TableFormat &format = cftest::table_format(info);
    GstHarness *h = gst_harness_new_parse(
        ("cudaredact backend=" + std::string(kBackend) + " method=fill post-messages=false")
            .c_str());
    gst_harness_set_caps_str(h, caps.c_str(), caps.c_str());
    GstBuffer *frame = cftest::random_frame(h, info, 90, cftest::frame_pts(0));
    const Rect box = {5, 3, 18, 13};
    add_roi(frame, box);
    GstBuffer *in = nullptr;
    GstBuffer *out = push_and_pull(h, frame, &in);
    Rect r = snapped(format, box, width, height);
    int gy = 1;
    for (char c : format.components())
      gy = std::max(gy, cftest::y_factor(format, c));
    r.y0 = box.y0 / (2 * gy) * (2 * gy);
    r.y1 = std::min(height, (box.y1 + 2 * gy - 1) / (2 * gy) * (2 * gy));
    check_samples(info, in, out,
                  [&](char c, int x, int y, const cftest::TableComponent &before) {
                    return inside(format, c, r, x, y) ? black(format, c) : before.value(x, y);
                  },
                  std::string("interlaced ") + format_name);
    gst_buffer_unref(in);
    gst_buffer_unref(out);
    redact_teardown(h);
  }
}
GST_END_TEST;

// invert=true: everything but the box redacted.
GST_START_TEST(test_invert) {
  const int width = 36, height = 24;
  const GstVideoInfo info = cftest::video_info("NV12", width, height);
  const cftest::TableFormat &format = cftest::table_format(info);
  const Rect box = {6, 4, 20, 14};
  GstHarness *h =
      redact_harness("method=fill invert=true post-messages=false", "NV12", width, height);
  GstBuffer *frame = cftest::random_frame(h, info, 5, cftest::frame_pts(0));
  add_roi(frame, box);
  push_and_check(
      h, frame, info,
      [&](char c, int x, int y, const cftest::TableComponent &before) {
        return inside(format, c, box, x, y) ? before.value(x, y) : black(format, c);
      },
      "invert");
  redact_teardown(h);
}
GST_END_TEST;

namespace {

// The "cudaredact" element messages posted so far on the harness's bus, in order.
std::vector<GstStructure *> redact_messages(GstHarness *h) {
  std::vector<GstStructure *> messages;
  GstBus *bus = gst_element_get_bus(h->element);
  while (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    const GstStructure *s = gst_message_get_structure(message);
    if (gst_structure_has_name(s, "cudaredact"))
      messages.push_back(gst_structure_copy(s));
    gst_message_unref(message);
  }
  gst_object_unref(bus);
  return messages;
}

// The zones property of the harness's cudaredact, as numbers.
std::vector<std::vector<int>> zones_of(GstElement *element) {
  GValue zones = G_VALUE_INIT;
  g_value_init(&zones, GST_TYPE_ARRAY);
  g_object_get_property(G_OBJECT(element), "zones", &zones);
  std::vector<std::vector<int>> numbers;
  for (guint i = 0; i < gst_value_array_get_size(&zones); i++) {
    const GValue *zone = gst_value_array_get_value(&zones, i);
    numbers.emplace_back();
    for (guint n = 0; n < gst_value_array_get_size(zone); n++)
      numbers.back().push_back(g_value_get_int(gst_value_array_get_value(zone, n)));
  }
  g_value_unset(&zones);
  return numbers;
}

void check_message(const GstStructure *s, guint redacted, guint held, guint zones,
                   gboolean whole_frame, GstClockTime pts) {
  guint value;
  gboolean whole;
  guint64 timestamp;
  fail_unless(gst_structure_get_uint(s, "redacted", &value));
  fail_unless_equals_int(value, redacted);
  fail_unless(gst_structure_get_uint(s, "held", &value));
  fail_unless_equals_int(value, held);
  fail_unless(gst_structure_get_uint(s, "zones", &value));
  fail_unless_equals_int(value, zones);
  fail_unless(gst_structure_get_boolean(s, "whole-frame", &whole));
  fail_unless_equals_int(whole, whole_frame);
  fail_unless(gst_structure_get_uint64(s, "timestamp", &timestamp));
  fail_unless_equals_uint64(timestamp, pts);
  fail_unless(gst_structure_has_field(s, "running-time"));
  fail_unless(gst_structure_has_field(s, "stream-time"));
  fail_unless(gst_structure_has_field(s, "duration"));
}

// Whether every processed sample inside `box` of `out` is black and every one
// outside unchanged from `in`; where `redacted` is false, the box unchanged too.
void check_box(const GstVideoInfo &info, GstBuffer *in, GstBuffer *out, const Rect &box,
               bool redacted, const std::string &what) {
  const cftest::TableFormat &format = cftest::table_format(info);
  const Rect r = snapped(format, box, GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info));
  check_samples(info, in, out,
                [&](char c, int x, int y, const cftest::TableComponent &before) {
                  return redacted && inside(format, c, r, x, y) ? black(format, c)
                                                                : before.value(x, y);
                },
                what);
}

}  // namespace

// zones: redacted on every frame, regions or none; clipped; one wholly outside
// ignored. The messages count them, with the frame's times.
GST_START_TEST(test_zones_and_messages) {
  const int width = 32, height = 24;
  GstHarness *h = redact_harness(
      "method=fill zones=\"<<2,2,6,4>,<28,20,100,100>,<1000,1000,5,5>>\"", "GRAY8", width,
      height);
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  for (int i = 0; i < 2; i++) {
    GstBuffer *frame = cftest::random_frame(h, info, 20 + i, cftest::frame_pts(i));
    if (i == 1)
      add_roi(frame, {10, 10, 14, 14});
    push_and_check(
        h, frame, info,
        [&](char, int x, int y, const cftest::TableComponent &before) -> uint32_t {
          const bool zone = Rect{2, 2, 8, 6}.holds(x, y) || Rect{28, 20, 32, 24}.holds(x, y);
          const bool face = i == 1 && Rect{10, 10, 14, 14}.holds(x, y);
          return zone || face ? 0 : before.value(x, y);
        },
        "zones, frame " + std::to_string(i));
  }
  std::vector<GstStructure *> messages = redact_messages(h);
  fail_unless_equals_int(messages.size(), 2);
  check_message(messages[0], 0, 0, 2, FALSE, cftest::frame_pts(0));
  check_message(messages[1], 1, 0, 2, FALSE, cftest::frame_pts(1));
  for (GstStructure *s : messages)
    gst_structure_free(s);

  GstElement *element = gst_harness_find_element(h, "cudaredact");
  const std::vector<std::vector<int>> set = {{2, 2, 6, 4}, {28, 20, 100, 100}, {1000, 1000, 5, 5}};
  fail_unless(zones_of(element) == set);
  gst_object_unref(element);
  redact_teardown(h);
}
GST_END_TEST;

// hold: a face the detector stops finding stays redacted at its last box while the
// frame is at most hold after the last frame that had it; then no more.
GST_START_TEST(test_hold) {
  const int width = 32, height = 24;
  const Rect face = {4, 4, 12, 12};
  // Frames 1/30 s apart: frame 3 is exactly 100 ms after frame 0.
  GstHarness *h = redact_harness("method=fill hold=100000000", "I420", width, height);
  const GstVideoInfo info = cftest::video_info("I420", width, height);
  for (int i = 0; i < 5; i++) {
    GstBuffer *frame = cftest::random_frame(h, info, 30 + i, cftest::frame_pts(i));
    if (i == 0)
      add_roi(frame, face);
    GstBuffer *in = nullptr;
    GstBuffer *out = push_and_pull(h, frame, &in);
    check_box(info, in, out, face, i <= 3, "hold, frame " + std::to_string(i));
    gst_buffer_unref(in);
    gst_buffer_unref(out);
  }
  std::vector<GstStructure *> messages = redact_messages(h);
  fail_unless_equals_int(messages.size(), 5);
  check_message(messages[0], 1, 0, 0, FALSE, cftest::frame_pts(0));
  for (int i = 1; i <= 3; i++)
    check_message(messages[i], 1, 1, 0, FALSE, cftest::frame_pts(i));
  check_message(messages[4], 0, 0, 0, FALSE, cftest::frame_pts(4));
  for (GstStructure *s : messages)
    gst_structure_free(s);

  // A flush forgets what was held.
  GstBuffer *frame = cftest::random_frame(h, info, 40, cftest::frame_pts(5));
  add_roi(frame, face);
  gst_buffer_unref(gst_harness_push_and_pull(h, frame));
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_start()));
  fail_unless(gst_harness_push_event(h, gst_event_new_flush_stop(TRUE)));
  GstSegment segment;
  gst_segment_init(&segment, GST_FORMAT_TIME);
  fail_unless(gst_harness_push_event(h, gst_event_new_segment(&segment)));
  frame = cftest::random_frame(h, info, 41, cftest::frame_pts(6));
  GstBuffer *in = nullptr;
  GstBuffer *out = push_and_pull(h, frame, &in);
  check_box(info, in, out, face, false, "hold after a flush");
  gst_buffer_unref(in);
  gst_buffer_unref(out);
  redact_teardown(h);

  // hold=0: nothing held.
  h = redact_harness("method=fill hold=0 post-messages=false", "I420", width, height);
  for (int i = 0; i < 2; i++) {
    frame = cftest::random_frame(h, info, 50 + i, cftest::frame_pts(i));
    if (i == 0)
      add_roi(frame, face);
    out = push_and_pull(h, frame, &in);
    check_box(info, in, out, face, i == 0, "hold=0, frame " + std::to_string(i));
    gst_buffer_unref(in);
    gst_buffer_unref(out);
  }
  redact_teardown(h);
}
GST_END_TEST;

// New caps mid-stream: a region held over is clipped to the new frames, and
// redacted there.
GST_START_TEST(test_hold_across_caps) {
  GstHarness *h = redact_harness("method=fill post-messages=false", "GRAY8", 64, 48);
  const GstVideoInfo large = cftest::video_info("GRAY8", 64, 48);
  GstBuffer *frame = cftest::random_frame(h, large, 100, cftest::frame_pts(0));
  add_roi(frame, {20, 10, 50, 40});
  gst_buffer_unref(gst_harness_push_and_pull(h, frame));
  gst_harness_set_caps_str(h, cftest::caps_string("GRAY8", 32, 24).c_str(),
                           cftest::caps_string("GRAY8", 32, 24).c_str());
  const GstVideoInfo small = cftest::video_info("GRAY8", 32, 24);
  frame = cftest::random_frame(h, small, 101, cftest::frame_pts(1));
  push_and_check(
      h, frame, small,
      [&](char, int x, int y, const cftest::TableComponent &before) {
        return Rect{20, 10, 32, 24}.holds(x, y) ? 0u : before.value(x, y);
      },
      "held across caps");
  redact_teardown(h);
}
GST_END_TEST;

#ifdef CF_HAVE_GST_ANALYTICS
namespace {

// A frame with an analytics relation meta (a detector looked at it), with a face
// detection of `confidence` where `box` is given.
void add_detection(GstBuffer *frame, const Rect *box, float confidence = 0.9f) {
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta(frame);
  fail_unless(meta != nullptr);
  if (!box)
    return;
  GstAnalyticsODMtd detection;
  fail_unless(gst_analytics_relation_meta_add_od_mtd(
      meta, g_quark_from_static_string("face"), box->x0, box->y0, box->x1 - box->x0,
      box->y1 - box->y0, confidence, &detection));
}

}  // namespace

// whole-frame=unanalyzed: once frames carried analytics results, one without is
// redacted whole (with one warning); whole-frame=never leaves it.
GST_START_TEST(test_whole_frame) {
  const int width = 32, height = 24;
  const Rect face = {4, 4, 12, 12};
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  for (const char *mode : {"unanalyzed", "never"}) {
    const bool whole = g_str_equal(mode, "unanalyzed");
    GstHarness *h = redact_harness(std::string("method=fill hold=0 whole-frame=") + mode,
                                     "GRAY8", width, height);
    for (int i = 0; i < 3; i++) {
      GstBuffer *frame = cftest::random_frame(h, info, 60 + i, cftest::frame_pts(i));
      if (i == 0)
        add_detection(frame, &face);
      if (i == 2)
        add_detection(frame, nullptr);
      push_and_check(
          h, frame, info,
          [&](char, int x, int y, const cftest::TableComponent &before) {
            const bool redacted = (i == 0 && face.holds(x, y)) || (i == 1 && whole);
            return redacted ? 0u : before.value(x, y);
          },
          std::string("whole-frame=") + mode + ", frame " + std::to_string(i));
    }
    std::vector<GstStructure *> messages = redact_messages(h);
    fail_unless_equals_int(messages.size(), 3);
    check_message(messages[1], 0, 0, 0, whole, cftest::frame_pts(1));
    check_message(messages[2], 0, 0, 0, FALSE, cftest::frame_pts(2));
    for (GstStructure *s : messages)
      gst_structure_free(s);
    redact_teardown(h);
  }
}
GST_END_TEST;

// min-confidence leaves out less confident detections.
GST_START_TEST(test_min_confidence) {
  const int width = 32, height = 24;
  const Rect sure = {2, 2, 8, 8}, unsure = {20, 10, 28, 18};
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstHarness *h = redact_harness("method=fill min-confidence=0.5 post-messages=false", "GRAY8",
                                 width, height);
  GstBuffer *frame = cftest::random_frame(h, info, 70, cftest::frame_pts(0));
  add_detection(frame, &sure, 0.9f);
  add_detection(frame, &unsure, 0.2f);
  push_and_check(
      h, frame, info,
      [&](char, int x, int y, const cftest::TableComponent &before) {
        return sure.holds(x, y) ? 0u : before.value(x, y);
      },
      "min-confidence");
  redact_teardown(h);
}
GST_END_TEST;

// A detection related to an id that no entry has (GStreamer takes a relation to a
// slot of the meta that no entry fills yet, and its own search for related entries
// then reads that empty slot) is redacted as any other, its tracker looked for
// among the entries there are.
GST_START_TEST(test_relation_to_no_entry) {
  const int width = 32, height = 24;
  const Rect box = {4, 6, 20, 16};
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstHarness *h = redact_harness("method=fill post-messages=false", "GRAY8", width, height);
  GstBuffer *frame = cftest::random_frame(h, info, 75, cftest::frame_pts(0));
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta(frame);
  GstAnalyticsODMtd detection;
  fail_unless(gst_analytics_relation_meta_add_od_mtd(meta, g_quark_from_static_string("face"),
                                                     box.x0, box.y0, box.x1 - box.x0,
                                                     box.y1 - box.y0, 0.9f, &detection));
  fail_unless(gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_RELATE_TO,
                                                       detection.id, detection.id + 1),
              "GStreamer refused the relation to an empty slot: the case is not made");
  push_and_check(
      h, frame, info,
      [&](char, int x, int y, const cftest::TableComponent &before) {
        return box.holds(x, y) ? 0u : before.value(x, y);
      },
      "relation to no entry");
  redact_teardown(h);
}
GST_END_TEST;
#endif

#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
namespace {

// Whether pixel (x, y)'s centre lies in the rectangle of corner (rx, ry) and size
// w x h turned by `angle` clockwise about its centre: on the inner side of each of
// its four edges, the corners turned as the analytics library documents.
bool in_rotated(double rx, double ry, double w, double h, double angle, int x, int y) {
  const double cx = rx + w / 2, cy = ry + h / 2;
  double corners[4][2] = {{-w / 2, -h / 2}, {w / 2, -h / 2}, {w / 2, h / 2}, {-w / 2, h / 2}};
  for (auto &corner : corners) {
    const double u = corner[0], v = corner[1];
    corner[0] = cx + u * std::cos(angle) - v * std::sin(angle);
    corner[1] = cy + u * std::sin(angle) + v * std::cos(angle);
  }
  const double px = x + 0.5, py = y + 0.5;
  for (int i = 0; i < 4; i++) {
    const double *a = corners[i], *b = corners[(i + 1) % 4];
    if ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0]) < -1e-9)
      return false;
  }
  return true;
}

}  // namespace

// Oriented detections: the rotated rectangle itself, in every plane (a chroma sample
// wherever a pixel it covers is inside), at several angles.
GST_START_TEST(test_oriented_detection) {
  const int width = 64, height = 48;
  const double rx = 20, ry = 14, w = 24, h = 12;
  for (const char *format_name : {"GRAY8", "NV12", "I420"})
    for (const double angle : {0.3, 1.0, 2.5, 3.9}) {
      const GstVideoInfo info = cftest::video_info(format_name, width, height);
      const cftest::TableFormat &format = cftest::table_format(info);
      GstHarness *h_ = redact_harness("method=fill post-messages=false", format_name, width,
                                      height);
      GstBuffer *frame = cftest::random_frame(h_, info, 120, cftest::frame_pts(0));
      GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta(frame);
      GstAnalyticsODMtd detection;
      fail_unless(gst_analytics_relation_meta_add_oriented_od_mtd(
          meta, g_quark_from_static_string("plate"), int(rx), int(ry), int(w), int(h),
          float(angle), 0.9f, &detection));
      push_and_check(
          h_, frame, info,
          [&](char c, int x, int y, const cftest::TableComponent &before) {
            const int fx = cftest::x_factor(format, c), fy = cftest::y_factor(format, c);
            bool inside = false;
            for (int j = y * fy; j < (y + 1) * fy; j++)
              for (int i = x * fx; i < (x + 1) * fx; i++)
                inside = inside || in_rotated(rx, ry, w, h, float(angle), i, j);
            return inside ? black(format, c) : before.value(x, y);
          },
          std::string("oriented ") + format_name + " at " + std::to_string(angle));
      redact_teardown(h_);
    }
}
GST_END_TEST;

// More oriented detections than the regions the element takes: the frame is
// redacted whole, as with boxes (those past the limit are counted, not drawn).
GST_START_TEST(test_oriented_over_the_limit) {
  const int width = 64, height = 48, count = 300;
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstHarness *h = redact_harness("method=fill", "GRAY8", width, height);
  GstBuffer *frame = cftest::random_frame(h, info, 125, cftest::frame_pts(0));
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta(frame);
  for (int i = 0; i < count; i++) {
    GstAnalyticsODMtd detection;
    fail_unless(gst_analytics_relation_meta_add_oriented_od_mtd(
        meta, g_quark_from_static_string("face"), i % 50, i % 40, 6, 4, 0.5f, 0.9f,
        &detection));
  }
  push_and_check(
      h, frame, info, [&](char, int, int, const cftest::TableComponent &) { return 0u; },
      "300 oriented detections");
  std::vector<GstStructure *> messages = redact_messages(h);
  fail_unless_equals_int(messages.size(), 1);
  gboolean whole = FALSE;
  fail_unless(gst_structure_get_boolean(messages[0], "whole-frame", &whole) && whole);
  for (GstStructure *s : messages)
    gst_structure_free(s);
  redact_teardown(h);
}
GST_END_TEST;

namespace {

// The label of frame pixel (x, y) in an 8x6 mask over the frame's rectangle
// (10, 8, 32, 24): each mask sample 4x4 pixels. Regions 3 and 7 listed (with 0),
// 9 painted but not listed.
constexpr int kMaskX = 10, kMaskY = 8;
const uint8_t kLabels[6][8] = {
    {0, 0, 3, 3, 0, 0, 0, 0}, {0, 3, 3, 3, 0, 7, 7, 0}, {0, 0, 3, 0, 0, 7, 0, 0},
    {0, 0, 0, 0, 7, 7, 0, 0}, {9, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 3}};

int label_at(int x, int y) {
  if (x < kMaskX || x >= kMaskX + 32 || y < kMaskY || y >= kMaskY + 24)
    return 0;
  return kLabels[(y - kMaskY) / 4][(x - kMaskX) / 4];
}

// The mask above as a segmentation of `frame`; its regions (0, 3, 7 in that order)
// classified as `classes` with `levels` where given, as yolosegv8tensordec relates
// them (N to N).
struct Location {
  gint x, y;
  guint w, h;
};

void add_segmentation(GstBuffer *frame, const std::vector<const char *> &classes = {},
                      std::vector<gfloat> levels = {},
                      const Location &at = {kMaskX, kMaskY, 32, 24}) {
  GstBuffer *mask = gst_buffer_new_allocate(nullptr, sizeof kLabels, nullptr);
  gst_buffer_fill(mask, 0, kLabels, sizeof kLabels);
  gst_buffer_add_video_meta(mask, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, 8, 6);
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta(frame);
  guint ids[] = {0, 3, 7};
  GstAnalyticsSegmentationMtd segmentation;
  fail_unless(gst_analytics_relation_meta_add_segmentation_mtd(
      meta, mask, GST_SEGMENTATION_TYPE_INSTANCE, 3, ids, at.x, at.y, at.w, at.h,
      &segmentation));
  if (classes.empty())
    return;
  std::vector<GQuark> quarks;
  for (const char *name : classes)
    quarks.push_back(g_quark_from_string(name));
  GstAnalyticsClsMtd classification;
  fail_unless(gst_analytics_relation_meta_add_cls_mtd(meta, quarks.size(), levels.data(),
                                                      quarks.data(), &classification));
  fail_unless(gst_analytics_relation_meta_set_relation(meta, GST_ANALYTICS_REL_TYPE_N_TO_N,
                                                       segmentation.id, classification.id));
}

}  // namespace

// Segmentation masks: the pixels of each region (not the background), feathered by
// their distance to the nearest one.
GST_START_TEST(test_segmentation_feather) {
  const int width = 64, height = 48, feather = 3;
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstHarness *h = redact_harness("method=fill fill-color=0xffffffff feather=3 "
                                 "post-messages=false",
                                 "GRAY8", width, height);
  GstBuffer *frame = gst_harness_create_buffer(h, GST_VIDEO_INFO_SIZE(&info));
  gst_buffer_memset(frame, 0, 0, GST_VIDEO_INFO_SIZE(&info));
  gst_buffer_add_video_meta(frame, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8, width,
                            height);
  add_segmentation(frame);
  push_and_check(
      h, frame, info,
      [&](char, int x, int y, const cftest::TableComponent &) -> uint32_t {
        int nearest = feather + 1;
        for (int j = 0; j < height; j++)
          for (int i = 0; i < width; i++)
            if (label_at(i, j) != 0)
              nearest = std::min(nearest, std::max(std::abs(i - x), std::abs(j - y)));
        const int weight =
            nearest == 0 ? 256
                         : (feather + 1 - std::min(nearest, feather + 1)) * 256 / (feather + 1);
        return uint32_t((255 * weight + 128) >> 8);
      },
      "segmentation feather");
  redact_teardown(h);
}
GST_END_TEST;

// Segmentation masks pixelated: each region its own shape, whose blocks (anchored
// at the corner of the box bounding its pixels) take the mean of the whole block.
GST_START_TEST(test_segmentation_pixelate) {
  const int width = 64, height = 48;
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstHarness *h = redact_harness("blocks=2 post-messages=false", "GRAY8", width, height);
  GstBuffer *frame = cftest::random_frame(h, info, 130, cftest::frame_pts(0));
  add_segmentation(frame);
  push_and_check(
      h, frame, info,
      [&](char, int x, int y, const cftest::TableComponent &before) -> uint32_t {
        const int label = label_at(x, y);
        if (label == 0) return before.value(x, y);
        // Region 9 is the values not listed; each region's box bounds its pixels.
        Rect r{width, height, 0, 0};
        for (int j = 0; j < height; j++)
          for (int i = 0; i < width; i++)
            if (label_at(i, j) == label)
              r = {std::min(r.x0, i), std::min(r.y0, j), std::max(r.x1, i + 1),
                   std::max(r.y1, j + 1)};
        const int side = (std::max(r.x1 - r.x0, r.y1 - r.y0) + 1) / 2;
        const int bx = r.x0 + (x - r.x0) / side * side, by = r.y0 + (y - r.y0) / side * side;
        uint64_t sum = 0, count = 0;
        for (int j = by; j < std::min(by + side, r.y1); j++)
          for (int i = bx; i < std::min(bx + side, r.x1); i++, count++) sum += before.value(i, j);
        return uint32_t((2 * sum + count) / (2 * count));
      },
      "segmentation pixelate");
  redact_teardown(h);
}
GST_END_TEST;

// A mask over a location of no whole number of pixels a sample, reaching out of
// the frame: each pixel takes its nearest sample, (x - x0) * 8 / w down.
GST_START_TEST(test_segmentation_scaled) {
  const int width = 64, height = 48;
  const Location at = {-7, 5, 45, 31};
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  GstHarness *h = redact_harness("method=fill post-messages=false", "GRAY8", width, height);
  GstBuffer *frame = cftest::random_frame(h, info, 145, cftest::frame_pts(0));
  add_segmentation(frame, {}, {}, at);
  push_and_check(
      h, frame, info,
      [&](char, int x, int y, const cftest::TableComponent &before) -> uint32_t {
        const int dx = x - at.x, dy = y - at.y;
        if (dx < 0 || dx >= int(at.w) || dy < 0 || dy >= int(at.h)) return before.value(x, y);
        const int label = kLabels[dy * 6 / int(at.h)][dx * 8 / int(at.w)];
        return label != 0 ? 0u : before.value(x, y);
      },
      "segmentation scaled");
  redact_teardown(h);
}
GST_END_TEST;

// A segmentation's regions take the type and confidence of their class in the
// related classification: region-types and min-confidence select among them as
// among detections. Region 9, which the mask paints but does not list, has no class:
// no type, full confidence.
GST_START_TEST(test_segmentation_classes) {
  const int width = 64, height = 48;
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  const struct {
    const char *properties;
    std::vector<const char *> classes;
    std::vector<gfloat> levels;
    std::vector<int> redacted;  // labels
  } cases[] = {
      {"region-types=face", {"background", "face", "plate"}, {0.9f, 0.9f, 0.9f}, {3}},
      {"region-types=plate,face", {"background", "face", "plate"}, {0.9f, 0.9f, 0.9f}, {3, 7}},
      {"min-confidence=0.5", {"background", "face", "face"}, {0.9f, 0.9f, 0.2f}, {3, 9}},
      {"min-confidence=0.5", {"background", "face", "face"}, {0.9f, 0.4f, 0.6f}, {7, 9}},
  };
  for (const auto &c : cases) {
    GstHarness *h = redact_harness(std::string("method=fill post-messages=false ") + c.properties,
                                   "GRAY8", width, height);
    GstBuffer *frame = cftest::random_frame(h, info, 140, cftest::frame_pts(0));
    add_segmentation(frame, c.classes, c.levels);
    push_and_check(
        h, frame, info,
        [&](char, int x, int y, const cftest::TableComponent &before) -> uint32_t {
          const int label = label_at(x, y);
          const bool redacted = label != 0 && std::find(c.redacted.begin(), c.redacted.end(),
                                                        label) != c.redacted.end();
          return redacted ? 0u : before.value(x, y);
        },
        std::string("segmentation classes, ") + c.properties);
    redact_teardown(h);
  }
}
GST_END_TEST;
#endif

// More regions than a frame takes (256): the frame is redacted whole, so that the
// regions left out are hidden too; 256 are redacted as boxes.
GST_START_TEST(test_too_many_regions) {
  const int width = 64, height = 48;
  const GstVideoInfo info = cftest::video_info("GRAY8", width, height);
  for (int count : {256, 300}) {
    GstHarness *h = redact_harness("method=fill", "GRAY8", width, height);
    GstBuffer *frame = cftest::random_frame(h, info, 80, cftest::frame_pts(0));
    for (int i = 0; i < count; i++)  // one-pixel boxes on the first rows
      add_roi(frame, {i % width, i / width, i % width + 1, i / width + 1});
    GstBuffer *in = nullptr;
    GstBuffer *out = push_and_pull(h, frame, &in);
    check_samples(info, in, out,
                  [&](char, int x, int y, const cftest::TableComponent &before) {
                    return count > 256 || y * width + x < count ? 0u : before.value(x, y);
                  },
                  std::to_string(count) + " regions");
    std::vector<GstStructure *> messages = redact_messages(h);
    fail_unless_equals_int(messages.size(), 1);
    check_message(messages[0], 256, 0, 0, count > 256, cftest::frame_pts(0));
    gst_structure_free(messages[0]);
    gst_buffer_unref(in);
    gst_buffer_unref(out);
    redact_teardown(h);
  }
}
GST_END_TEST;

GST_START_TEST(test_property_errors) {
  GstElement *element = gst_element_factory_make("cudaredact", nullptr);
  fail_unless(element != nullptr);
  gst_util_set_object_arg(G_OBJECT(element), "zones", "<<1,2,3,4>>");
  CF_ASSERT_REFUSED(gst_util_set_object_arg(G_OBJECT(element), "zones", "<<1,2,3>>"));
  CF_ASSERT_REFUSED(gst_util_set_object_arg(G_OBJECT(element), "zones", "<<1,2,0,4>>"));
  CF_ASSERT_REFUSED(g_object_set(element, "blocks", 0u, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "blocks", 65u, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "feather", 256u, nullptr));
  CF_ASSERT_REFUSED(g_object_set(element, "min-confidence", 1.5, nullptr));
  const std::vector<std::vector<int>> kept = {{1, 2, 3, 4}};
  fail_unless(zones_of(element) == kept);
  guint blocks;
  g_object_get(element, "blocks", &blocks, nullptr);
  fail_unless_equals_int(blocks, 6);
  gst_object_unref(element);

  GError *error = nullptr;
  GstElement *parsed = gst_parse_launch("cudaredact method=blur-ish", &error);
  fail_unless(error != nullptr, "method=blur-ish accepted");
  g_error_free(error);
  gst_clear_object(&parsed);
}
GST_END_TEST;

GST_START_TEST(test_every_format) { cftest::check_every_format(kBackend, {kPlaneMean}); }
GST_END_TEST;

GST_START_TEST(test_large_frames) { cftest::check_large_frames(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_include_chroma) { cftest::check_include_chroma(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_foreign_input) { cftest::check_foreign_input(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_eos_drain) { cftest::check_eos_drain(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_flush) { cftest::check_flush(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_caps_change) { cftest::check_caps_change(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_state_cycles) { cftest::check_state_cycles(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_latency) { cftest::check_latency(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_live_source) { cftest::check_live_source(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_qos) { cftest::check_qos(kBackend, kPlaneMean); }
GST_END_TEST;

GST_START_TEST(test_changes_mid_stream) {
  cftest::check_changes_mid_stream(kBackend, kUntouched, kPlaneMean);
}
GST_END_TEST;

GST_START_TEST(test_region_mistakes) {
  // Its regions default to meta: the mistakes are of regions=frame set.
  cftest::check_region_mistakes(kBackend, "cudaredact regions=frame", true);
}
GST_END_TEST;

GST_START_TEST(test_start_properties) { cftest::check_start_properties("cudaredact"); }
GST_END_TEST;

GST_START_TEST(test_refused_caps) { cftest::check_refused_caps("cudaredact"); }
GST_END_TEST;

GST_START_TEST(test_backend_cuda_demanded) { cftest::check_backend_cuda_demanded("cudaredact"); }
GST_END_TEST;

GST_START_TEST(test_missing_device_id) { cftest::check_missing_device_id("cudaredact"); }
GST_END_TEST;

GST_START_TEST(test_auto_backend) { cftest::check_auto_backend("cudaredact"); }
GST_END_TEST;

GST_START_TEST(test_device_messages) { cftest::check_device_messages("cudaredact"); }
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_element_suite(
      g_str_equal(kBackend, "cuda") ? "cudaredact_gpu" : "cudaredact", kBackend,
      {
          CF_TEST(test_fill_every_format),
          CF_TEST(test_pixelate),
          CF_TEST(test_blur),
          CF_TEST(test_blur_cap_warning),
          CF_TEST(test_ellipse_and_feather),
          CF_TEST(test_invert),
          CF_TEST(test_interlaced),
          CF_TEST(test_zones_and_messages),
          CF_TEST(test_hold),
          CF_TEST(test_hold_across_caps),
#ifdef CF_HAVE_GST_ANALYTICS
          CF_TEST(test_whole_frame),
          CF_TEST(test_min_confidence),
          CF_TEST(test_relation_to_no_entry),
#endif
#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
          CF_TEST(test_oriented_detection),
          CF_TEST(test_oriented_over_the_limit),
          CF_TEST(test_segmentation_feather),
          CF_TEST(test_segmentation_pixelate),
          CF_TEST(test_segmentation_classes),
          CF_TEST(test_segmentation_scaled),
#endif
          CF_TEST(test_too_many_regions),
          CF_TEST(test_property_errors),
          CF_TEST(test_every_format),
          CF_TEST(test_large_frames),
          CF_TEST(test_include_chroma),
          CF_TEST(test_foreign_input),
          CF_TEST(test_eos_drain),
          CF_TEST(test_flush),
          CF_TEST(test_caps_change),
          CF_TEST(test_state_cycles),
          CF_TEST(test_latency), CF_TEST(test_live_source), CF_TEST(test_qos),
          CF_TEST(test_changes_mid_stream),
          CF_TEST(test_region_mistakes),
          CF_TEST(test_start_properties),
          CF_TEST(test_refused_caps),
          CF_TEST(test_backend_cuda_demanded),
          CF_TEST(test_missing_device_id),
          CF_TEST(test_auto_backend), CF_TEST(test_device_messages),
      },
      argc, argv);
}
