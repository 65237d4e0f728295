// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Element-level checks through GstHarness and real pipelines, shared by every
// element's suite and by both backends: each check demands a backend ("cpu" on CI,
// "cuda" on GPU hosts) and compares every output sample with a reference.
#pragma once

#include <gst/check/gstcheck.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "plane.h"

// A property value refused, the property left as it was: GObject refuses one
// outside the property's range with a warning up to GLib 2.74 (Debian 12) and a
// critical in later releases (2.84, Debian 13); an element refuses what a range
// cannot say (an even window) with a warning. Either, as ASSERT_WARNING checks
// one.
#define CF_ASSERT_REFUSED(code)                                                     \
  G_STMT_START {                                                                    \
    _gst_check_expecting_log = TRUE;                                                \
    _gst_check_raised_warning = FALSE;                                              \
    _gst_check_raised_critical = FALSE;                                             \
    code;                                                                           \
    fail_unless(_gst_check_raised_warning || _gst_check_raised_critical,            \
                "Expected a warning or a critical, got nothing: %s", #code);        \
    _gst_check_expecting_log = FALSE;                                               \
  }                                                                                 \
  G_STMT_END

namespace cftest {

// Frames for harness tests: caps of 30 frames a second by default, frame i at
// i / 30 s, random bytes from the harness's (the element's proposed) allocator.
std::string caps_string(const char *format, int width, int height, int fps = 30);
GstVideoInfo video_info(const char *format, int width, int height);
GstClockTime frame_pts(int index);
GstBuffer *random_frame(GstHarness *h, const GstVideoInfo &info, uint32_t seed,
                        GstClockTime pts);
// Bytes of `buffer` from a generator seeded with `seed`.
void fill_random_bytes(GstBuffer *buffer, uint32_t seed);
// The border the properties border=`nick` border-value=`value` stand for with
// `depth` samples (values above the depth's maximum count as the maximum).
cf::Border border_of(const char *nick, uint32_t value, cf::SampleDepth depth);

// A component of a mapped frame as the kernels see it.
cf::Plane frame_plane(GstVideoFrame &frame, int component);

// One configuration of an element and what it must produce.
struct FilterUnderTest {
  std::string element;     // factory name, e.g. "cudamedian"
  std::string properties;  // e.g. "size=5 border=constant border-value=300"
  // Writes the expected result for one processed component into dst.
  std::function<void(const cf::Plane &src, const cf::Plane &dst, cf::SampleDepth depth)>
      reference;
};

// Back to NULL (which must succeed), then `element` and its own `bus` unreffed.
void stop_and_free(GstElement *element, GstBus *bus);

// The launch line of `filter` on `backend`: the filter's properties, then the data
// path's (frames-in-flight) and `extra` on top.
std::string element_line(const char *backend, const FilterUnderTest &filter,
                         guint frames_in_flight, const std::string &extra = "");
// A harness around that one element.
GstHarness *make_harness(const char *backend, const FilterUnderTest &filter,
                         guint frames_in_flight = 1, const std::string &extra = "");

// One random frame of `format` through a fresh harness, checked sample by sample:
// processed components against the reference, the rest (alpha, chroma unless
// include_chroma) unchanged. include-chroma set as include_chroma says, or left at
// its default where chroma_by_default.
void check_frame(const char *backend, const FilterUnderTest &filter, const char *format,
                 int width, int height, uint32_t seed, bool include_chroma = false,
                 bool chroma_by_default = false);
// Every supported format at 1x1, 2x3 and 17x9, for each variant.
void check_every_format(const char *backend, const std::vector<FilterUnderTest> &variants);
// 1921x1081 frames of the main format families.
void check_large_frames(const char *backend, const FilterUnderTest &filter);
// include-chroma on planar, semi-planar and packed YUV, even and odd widths; on by
// default.
void check_include_chroma(const char *backend, const FilterUnderTest &filter);
// A region as a detector attaches it, unchecked: a region-of-interest meta (whose
// box is unsigned) or, where the plugin takes them, an analytics object detection.
struct TestRegion {
  gint64 x, y, width, height;
  const char *type;
  bool detection;
  gint id = 0;  // set by attach_regions
};

// Regions of every kind an element must survive on a width x height frame: two
// overlapping, some reaching out of the frame at each side, wider and taller than the
// frame, empty ones, one far outside, one of a type not selected ("car"), a 1x1 one;
// analytics detections too where the plugin takes them.
std::vector<TestRegion> test_regions(gint64 width, gint64 height);
// Attaches them to `buffer`, setting each one's id.
void attach_regions(GstBuffer *buffer, std::vector<TestRegion> &regions);

// A region as the element must take it with region-types=face,plate: its id and type
// and its box in luma pixels (x0 .. x1 - 1, y0 .. y1 - 1), padded and clipped.
struct ExpectedRegion {
  gint id;
  const char *type;
  gint64 x0, y0, x1, y1;
};
// Those of `regions`, in the element's order (region-of-interest metas, then
// detections), each padded by `padding`; empty ones and cars left out.
std::vector<ExpectedRegion> expected_regions(const GstVideoInfo &info,
                                             const std::vector<TestRegion> &regions,
                                             gint64 padding);
// Whether sample (x, y) of `component` covers a pixel of the region.
bool covers(const GstVideoInfo &info, const ExpectedRegion &region, int component, int x,
            int y);

// regions=meta with region-types and region-padding: frames of every format (and
// with include-chroma) carrying regions of interest (and analytics object detections
// where the plugin takes them) of every kind, in and out of the frame, filtered
// inside the regions and unchanged elsewhere; a frame without regions unchanged.
void check_regions(const char *backend, const FilterUnderTest &filter);
// Interlaced frames (interlace-mode=interleaved, and mixed: a frame flagged
// interlaced, then a progressive one) of every format, with include-chroma, and
// with regions=meta: each field filtered as a picture of its own, against the
// reference run on the field's rows copied out; progressive frames whole; and
// alternate buffers, each one field, filtered as the picture they are.
void check_interlaced(const char *backend, const FilterUnderTest &filter);
// Region mistakes that would make an element do nothing, or the wrong thing, each
// warned of once: region-types (and, where the element has it, region-padding) set
// while regions=frame; region-types that no region of 30 frames matches.
void check_region_mistakes(const char *backend, const std::string &element, bool padding);
// 1,000 regions a frame: the first 256 filtered, the rest ignored, one warning.
void check_region_limit(const char *backend, const FilterUnderTest &filter);
// Input in host memory the element did not provide (its proposed pool ignored), at
// 2 frames in flight with include-chroma, every output checked, and `also_check` (if any) called on each
// input and output: a pool of its own whose buffers come back round after round (as
// v4l2src's), new memory every frame, frames that share one larger memory, frames
// whose planes are separate memories, and padded strides; frames small and large
// enough to be copied in several pieces. The CUDA backend pins recycled memory in
// place and stages the rest: each of those paths.
using FrameCheck = std::function<void(GstBuffer *in, GstBuffer *out, const GstVideoInfo &info,
                                      const std::string &what)>;
void check_foreign_input(const char *backend, const FilterUnderTest &filter,
                         const FrameCheck &also_check = {});
// Downstream answers the ALLOCATION query with a pool of its own, I420 17x9 with
// include-chroma: pools whose buffers hold the frame (the CPU backend writes into
// them), and pools the element must decline for one of its own, outputs still correct:
// GstVideoBufferPool's buffers of padding 33 left and 17 top, strides aligned to 256,
// which its video meta overruns; a plain pool of buffers a byte short; a pool of fewer
// buffers than the frames in flight (a deadlock). No output reaches outside its memory.
void check_downstream_pools(const char *backend, const FilterUnderTest &filter);
// With frames in flight: held back as frames-in-flight says, nothing lost or
// reordered at EOS, EOS last.
void check_eos_drain(const char *backend, const FilterUnderTest &filter);
// Frames in flight are dropped at a flush, and the stream goes on afterwards.
void check_flush(const char *backend, const FilterUnderTest &filter);
// New caps mid-stream: the old frames leave first, with the old size.
void check_caps_change(const char *backend, const FilterUnderTest &filter);
// videotestsrc ! element ! fakesink through NULL-PLAYING-NULL cycles.
void check_state_cycles(const char *backend, const FilterUnderTest &filter);
// LATENCY reports frames-in-flight - 1 frame durations (a non-live upstream).
void check_latency(const char *backend, const FilterUnderTest &filter);
// A live upstream: at frames-in-flight 1, 2 and 8 each frame leaves before the next
// comes, and LATENCY adds nothing to the minimum; frames shorter than their work
// all leave, in order.
void check_live_source(const char *backend, const FilterUnderTest &filter);

// Properties changed while frames are in flight apply from the next frame: frames in
// before the change filtered as `before` says, those after as `after` (the same
// element, the properties to set); frames-in-flight too, with a LATENCY message.
void check_changes_mid_stream(const char *backend, const FilterUnderTest &before,
                              const FilterUnderTest &after);
// QoS, on by default: frames a QoS event says are late are dropped with a QoS
// message, none with qos=false; behind a live source with a slow step downstream,
// the element drops frames.
void check_qos(const char *backend, const FilterUnderTest &filter);

// Backend-independent behaviour of an element.
void check_refused_caps(const char *element);
// backend and cuda-device-id changed while running: a warning naming each and when it
// takes effect; none while stopped.
void check_start_properties(const char *element);
// backend=cuda: an error at start without a device, running with one.
void check_backend_cuda_demanded(const char *element);
void check_missing_device_id(const char *element);
// backend=auto: CUDA where usable, else the CPU with one warning on the bus.
void check_auto_backend(const char *element);
// Each reason no device is usable, injected (no driver, a driver one CUDA major
// version older than the build's, no device, a device busy or prohibited): backend=auto
// says it and what to do in its warning or info message, backend=cuda in its error.
void check_device_messages(const char *element);
// What a user sees: gst-launch-1.0 (the installed one; skipped where there is none) of
// videotestsrc ! cudamedian ! cudagauss ! cudahist ! fakesink without a usable device
// (a fault plan stands in for a missing driver: GST_CUDAFILTERS_FAULT=driver:0) prints
// the cause of each element's fallback and what the element does on the CPU, in its
// warning and in its info messages alike (gst-launch-1.0 shows only the debug string
// of info messages), and never the CUDA runtime's words for another cause.
void check_launch_messages();

struct NamedTest {
  const char *name;
  TFun function;
};
#define CF_TEST(function) cftest::NamedTest{#function, function}

// Runs the tests as one Check suite. With backend "cuda" and no usable device, prints
// each test as skipped and returns 77 (meson's skip) instead.
int run_element_suite(const char *suite_name, const char *backend,
                      std::initializer_list<NamedTest> tests, int argc, char **argv);

}  // namespace cftest
