// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The colour a redacted region is filled with, in the components of the
 * frames' format: the one place that turns an ARGB colour (as textoverlay's
 * `color`, 0xAARRGGBB) into the values of Y, U, V, R, G, B or A that stand for
 * it under the caps' colorimetry.
 *
 * The colour's R', G', B' are taken as they are, as the caps' own (gamma
 * encoded) values: no transfer function or primaries are converted, as
 * textoverlay and videoconvert's fills do. Every value is the component's
 * value, not its stored sample: P010's padding bits left out (0..1023), 16-bit
 * formats 0..65535; depths are the format's (GstVideoFormatInfo's, as
 * gst_video_color_range_offsets reads them).
 *
 * RGB formats: R, G, B and A from the colour, each scaled from 8 bits to the
 * component's depth as round (v x max / 255) (the caps' range is not applied:
 * RGB fills are full range, as GStreamer's RGB frames nearly always are).
 *
 * YUV formats: Kr and Kb from the caps' matrix (gst_video_color_matrix_get_Kr_Kb;
 * an unknown matrix, or RGB's: BT.601's, 0.299 and 0.114), on R, G, B in 0..1:
 *   Y' = Kr R + (1 - Kr - Kb) G + Kb B
 *   Pb = (B - Y') / (2 (1 - Kb)),  Pr = (R - Y') / (2 (1 - Kr))
 * then the range, with the offsets and scales gst_video_color_range_offsets
 * gives at the format's depth d:
 *   full (0-255):     Y = Y' (2^d - 1),            U = 2^(d-1) + Pb (2^d - 1)
 *   limited (16-235): Y = 2^(d-4) + Y' 219 2^(d-8), U = 2^(d-1) + Pb 224 2^(d-8)
 * (V as U, with Pr); an unknown range counts as limited. A of YUV formats with
 * alpha (A420, AYUV): the colour's alpha scaled as for RGB.
 *
 * GRAY formats (their only component, luma, is GST_VIDEO_COMP_Y, 0): BT.601's
 * luma, full range, whatever the caps say: Y = Y' (2^d - 1); A: the colour's
 * alpha scaled.
 *
 * Every value is rounded to nearest (halves up, in doubles: the same on every
 * machine) and clamped to 0 .. 2^d - 1. */
#pragma once

#include <gst/video/video.h>

namespace cf {

/* The value of component `component` (GST_VIDEO_COMP_Y, _U, _V, _R, _G, _B,
 * _A) of frames of `info` that stands for `argb`. GST_VIDEO_COMP_A of a format
 * without alpha gives the colour's alpha at the format's depth (nothing stores
 * it); a component the format cannot have (U or V of a GRAY format, one past
 * GST_VIDEO_COMP_A) is a programming error: a critical, and 0. */
guint32 fill_component_value (guint32 argb, const GstVideoInfo & info,
    int component);

}  // namespace cf
