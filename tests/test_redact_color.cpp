// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// plugin/redactcolor.h: the fill colour's value in each component, against numbers
// worked out by hand from the published equations (BT.601, BT.709, BT.2020's Kr and
// Kb; limited range Y = 16 + 219 Y', C = 128 + 224 P at 8 bits, scaled by 2^(d-8);
// full range Y = (2^d - 1) Y', C = 2^(d-1) + (2^d - 1) P), each with its sum beside
// it. Exact values: the fill is one colour, and a value off by one is a visibly
// different fill in a flat region.
#include <gst/video/video.h>

#include <initializer_list>

#include "redactcolor.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

constexpr guint32 kBlack = 0xff000000;
constexpr guint32 kWhite = 0xffffffff;
constexpr guint32 kRed = 0xffff0000;
constexpr guint32 kGreen = 0xff00ff00;

GstVideoInfo video_info(GstVideoFormat format, GstVideoColorMatrix matrix,
                        GstVideoColorRange range) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, 64, 48);
  info.colorimetry.matrix = matrix;
  info.colorimetry.range = range;
  return info;
}

GstVideoInfo video_info(GstVideoFormat format) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, 64, 48);
  return info;
}

// Y, U and V of `argb` in frames of `info` are y, u and v.
void expect_yuv(const GstVideoInfo &info, guint32 argb, guint32 y, guint32 u,
                guint32 v) {
  const guint32 got[] = {cf::fill_component_value(argb, info, GST_VIDEO_COMP_Y),
                         cf::fill_component_value(argb, info, GST_VIDEO_COMP_U),
                         cf::fill_component_value(argb, info, GST_VIDEO_COMP_V)};
  fail_unless(got[0] == y && got[1] == u && got[2] == v,
              "%s, 0x%08x: (%u, %u, %u), expected (%u, %u, %u)",
              GST_VIDEO_INFO_NAME(&info), argb, got[0], got[1], got[2], y, u, v);
}

void expect_rgba(const GstVideoInfo &info, guint32 argb, guint32 r, guint32 g,
                 guint32 b, guint32 a) {
  const guint32 got[] = {cf::fill_component_value(argb, info, GST_VIDEO_COMP_R),
                         cf::fill_component_value(argb, info, GST_VIDEO_COMP_G),
                         cf::fill_component_value(argb, info, GST_VIDEO_COMP_B),
                         cf::fill_component_value(argb, info, GST_VIDEO_COMP_A)};
  fail_unless(got[0] == r && got[1] == g && got[2] == b && got[3] == a,
              "%s, 0x%08x: (%u, %u, %u, %u), expected (%u, %u, %u, %u)",
              GST_VIDEO_INFO_NAME(&info), argb, got[0], got[1], got[2], got[3], r, g,
              b, a);
}

GST_START_TEST(test_bt601_limited) {
  const GstVideoInfo info = video_info(GST_VIDEO_FORMAT_I420,
                                       GST_VIDEO_COLOR_MATRIX_BT601,
                                       GST_VIDEO_COLOR_RANGE_16_235);
  // Y' 0: 16; Pb = Pr = 0: 128.
  expect_yuv(info, kBlack, 16, 128, 128);
  // Y' 1: 16 + 219 = 235.
  expect_yuv(info, kWhite, 235, 128, 128);
  // Red, Kr 0.299, Kb 0.114: Y = 16 + 219 x 0.299 = 81.48 -> 81;
  // Pb = -0.299 / 1.772 = -0.16874, U = 128 - 224 x 0.16874 = 90.20 -> 90;
  // Pr = 0.701 / 1.402 = 0.5, V = 128 + 112 = 240.
  expect_yuv(info, kRed, 81, 90, 240);
  // Green: Y = 16 + 219 x 0.587 = 144.55 -> 145;
  // Pb = -0.587 / 1.772 = -0.33126, U = 128 - 74.20 = 53.80 -> 54;
  // Pr = -0.587 / 1.402 = -0.41869, V = 128 - 93.79 = 34.21 -> 34.
  expect_yuv(info, kGreen, 145, 54, 34);
  // Alpha plays no part in Y, U, V.
  expect_yuv(info, 0x00ff0000, 81, 90, 240);
}
GST_END_TEST;

GST_START_TEST(test_bt709_limited) {
  const GstVideoInfo info = video_info(GST_VIDEO_FORMAT_NV12,
                                       GST_VIDEO_COLOR_MATRIX_BT709,
                                       GST_VIDEO_COLOR_RANGE_16_235);
  // Red, Kr 0.2126, Kb 0.0722: Y = 16 + 219 x 0.2126 = 62.56 -> 63;
  // Pb = -0.2126 / 1.8556 = -0.11457, U = 128 - 25.66 = 102.34 -> 102; V = 240.
  expect_yuv(info, kRed, 63, 102, 240);
  // Green: Y = 16 + 219 x 0.7152 = 172.63 -> 173;
  // Pb = -0.7152 / 1.8556 = -0.38543, U = 128 - 86.34 = 41.66 -> 42;
  // Pr = -0.7152 / 1.5748 = -0.45415, V = 128 - 101.73 = 26.27 -> 26.
  expect_yuv(info, kGreen, 173, 42, 26);
  expect_yuv(info, kWhite, 235, 128, 128);
}
GST_END_TEST;

GST_START_TEST(test_bt601_full) {
  const GstVideoInfo info = video_info(GST_VIDEO_FORMAT_Y444,
                                       GST_VIDEO_COLOR_MATRIX_BT601,
                                       GST_VIDEO_COLOR_RANGE_0_255);
  // Y = 255 Y', C = 128 + 255 P.
  expect_yuv(info, kBlack, 0, 128, 128);
  expect_yuv(info, kWhite, 255, 128, 128);
  // Red: Y = 255 x 0.299 = 76.245 -> 76; U = 128 - 255 x 0.16874 = 84.97 -> 85;
  // V = 128 + 127.5 = 255.5 -> 256, clamped to 255.
  expect_yuv(info, kRed, 76, 85, 255);
}
GST_END_TEST;

GST_START_TEST(test_unknown_colorimetry) {
  // An unknown range is limited; an unknown matrix, and RGB's, are BT.601's.
  expect_yuv(video_info(GST_VIDEO_FORMAT_I420, GST_VIDEO_COLOR_MATRIX_BT601,
                        GST_VIDEO_COLOR_RANGE_UNKNOWN),
             kRed, 81, 90, 240);
  expect_yuv(video_info(GST_VIDEO_FORMAT_I420, GST_VIDEO_COLOR_MATRIX_UNKNOWN,
                        GST_VIDEO_COLOR_RANGE_16_235),
             kRed, 81, 90, 240);
  expect_yuv(video_info(GST_VIDEO_FORMAT_I420, GST_VIDEO_COLOR_MATRIX_RGB,
                        GST_VIDEO_COLOR_RANGE_16_235),
             kRed, 81, 90, 240);
  // gst_video_info_set_format's default for I420 at 64 x 48: BT.601, limited.
  expect_yuv(video_info(GST_VIDEO_FORMAT_I420), kRed, 81, 90, 240);
}
GST_END_TEST;

GST_START_TEST(test_deep_yuv) {
  // P010 (10 bits, the value without its 6 padding bits), BT.2020 limited:
  // Y = 64 + 876 Y', C = 512 + 896 P.
  const GstVideoInfo p010 = video_info(GST_VIDEO_FORMAT_P010_10LE,
                                       GST_VIDEO_COLOR_MATRIX_BT2020,
                                       GST_VIDEO_COLOR_RANGE_16_235);
  expect_yuv(p010, kWhite, 940, 512, 512);
  expect_yuv(p010, kBlack, 64, 512, 512);
  // Red, Kr 0.2627, Kb 0.0593: Y = 64 + 876 x 0.2627 = 294.13 -> 294;
  // Pb = -0.2627 / 1.8814 = -0.13963, U = 512 - 125.11 = 386.89 -> 387; V = 960.
  expect_yuv(p010, kRed, 294, 387, 960);
  // P016, 16 bits limited: Y = 4096 + 56064 Y', C = 32768 + 57344 P.
  const GstVideoInfo p016 = video_info(GST_VIDEO_FORMAT_P016_LE,
                                       GST_VIDEO_COLOR_MATRIX_BT709,
                                       GST_VIDEO_COLOR_RANGE_16_235);
  expect_yuv(p016, kWhite, 60160, 32768, 32768);
  expect_yuv(p016, kBlack, 4096, 32768, 32768);
  // Full range at 16 bits: Y = 65535 Y', C = 32768 + 65535 P; red's Pr 0.5 gives
  // 32768 + 32767.5 = 65535.5 -> 65535 (clamped).
  const GstVideoInfo full16 = video_info(GST_VIDEO_FORMAT_Y444_16LE,
                                         GST_VIDEO_COLOR_MATRIX_BT709,
                                         GST_VIDEO_COLOR_RANGE_0_255);
  expect_yuv(full16, kWhite, 65535, 32768, 32768);
  fail_unless_equals_int(cf::fill_component_value(kRed, full16, GST_VIDEO_COMP_V),
                         65535);
}
GST_END_TEST;

GST_START_TEST(test_yuv_alpha) {
  // AYUV and A420: alpha is the colour's; Y, U, V as without it.
  for (GstVideoFormat format : {GST_VIDEO_FORMAT_AYUV, GST_VIDEO_FORMAT_A420}) {
    const GstVideoInfo info = video_info(format, GST_VIDEO_COLOR_MATRIX_BT601,
                                         GST_VIDEO_COLOR_RANGE_16_235);
    expect_yuv(info, 0x40ffffff, 235, 128, 128);
    fail_unless_equals_int(cf::fill_component_value(0x40ffffff, info, GST_VIDEO_COMP_A),
                           0x40);
    fail_unless_equals_int(cf::fill_component_value(kRed, info, GST_VIDEO_COMP_A), 255);
  }
  // 10-bit alpha: 0x40 x 1023 / 255 = 256.75 -> 257.
  const GstVideoInfo a420_10 = video_info(GST_VIDEO_FORMAT_A420_10LE,
                                          GST_VIDEO_COLOR_MATRIX_BT601,
                                          GST_VIDEO_COLOR_RANGE_16_235);
  expect_yuv(a420_10, 0x40ffffff, 940, 512, 512);
  fail_unless_equals_int(cf::fill_component_value(0x40ffffff, a420_10, GST_VIDEO_COMP_A),
                         257);
}
GST_END_TEST;

GST_START_TEST(test_gray) {
  // BT.601 luma, full range, whatever the caps say.
  const GstVideoInfo gray8 = video_info(GST_VIDEO_FORMAT_GRAY8,
                                        GST_VIDEO_COLOR_MATRIX_BT709,
                                        GST_VIDEO_COLOR_RANGE_16_235);
  // 255 x 0.299 = 76.245 -> 76.
  fail_unless_equals_int(cf::fill_component_value(kRed, gray8, GST_VIDEO_COMP_Y), 76);
  fail_unless_equals_int(cf::fill_component_value(kWhite, gray8, GST_VIDEO_COMP_Y), 255);
  fail_unless_equals_int(cf::fill_component_value(kBlack, gray8, GST_VIDEO_COMP_Y), 0);
  // 0x80 grey: 128.
  fail_unless_equals_int(cf::fill_component_value(0xff808080, gray8, GST_VIDEO_COMP_Y),
                         128);
  const GstVideoInfo gray16 = video_info(GST_VIDEO_FORMAT_GRAY16_LE);
  fail_unless_equals_int(cf::fill_component_value(kWhite, gray16, GST_VIDEO_COMP_Y),
                         65535);
  // 65535 x 0.299 = 19594.965 -> 19595.
  fail_unless_equals_int(cf::fill_component_value(kRed, gray16, GST_VIDEO_COMP_Y),
                         19595);
}
GST_END_TEST;

GST_START_TEST(test_rgb) {
  // The colour's own bytes, whatever the colorimetry says.
  const GstVideoInfo rgba = video_info(GST_VIDEO_FORMAT_RGBA);
  expect_rgba(rgba, kRed, 255, 0, 0, 255);
  expect_rgba(rgba, 0x80ff0000, 255, 0, 0, 0x80);
  expect_rgba(rgba, 0x12345678, 0x34, 0x56, 0x78, 0x12);
  // BGRx: components are R, G, B wherever the bytes lie; A (stored nowhere) is
  // the colour's.
  const GstVideoInfo bgrx = video_info(GST_VIDEO_FORMAT_BGRx);
  expect_rgba(bgrx, 0xff336699, 0x33, 0x66, 0x99, 0xff);
  expect_rgba(video_info(GST_VIDEO_FORMAT_ABGR), 0x7f00ff00, 0, 255, 0, 0x7f);
  expect_rgba(video_info(GST_VIDEO_FORMAT_RGB), kBlack, 0, 0, 0, 255);
  // No 16-bit RGB format is in the plugin's list; the rule holds for one all the
  // same: round (v x 65535 / 255) = 257 v.
  expect_rgba(video_info(GST_VIDEO_FORMAT_ARGB64), 0x80ff0001, 65535, 0, 257, 32896);
  // And at depths 255 does not divide: 10-bit R, G, B and 2-bit A, round (v x 1023
  // / 255) and round (v x 3 / 255): 0x80 is 513.51 -> 514 and 1.51 -> 2.
  expect_rgba(video_info(GST_VIDEO_FORMAT_BGR10A2_LE), 0x80ff8000, 1023, 514, 0, 2);
}
GST_END_TEST;

}  // namespace

int main(int argc, char **argv) {
  gst_check_init(&argc, &argv);
  Suite *suite = suite_create("redact_color");
  TCase *tcase = tcase_create("redact_color");
  suite_add_tcase(suite, tcase);
  tcase_add_test(tcase, test_bt601_limited);
  tcase_add_test(tcase, test_bt709_limited);
  tcase_add_test(tcase, test_bt601_full);
  tcase_add_test(tcase, test_unknown_colorimetry);
  tcase_add_test(tcase, test_deep_yuv);
  tcase_add_test(tcase, test_yuv_alpha);
  tcase_add_test(tcase, test_gray);
  tcase_add_test(tcase, test_rgb);
  return gst_check_run_suite(suite, "redact_color", __FILE__);
}
