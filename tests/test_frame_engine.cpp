// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The frame engine alone (plugin/frameengine.h), on the CPU backend, without a
// pipeline: frames leave in order once `depth` are in, each with its own results
// and state, numbered as they came; the engine holds a reference of its own to each
// buffer and gives every one back (taken out, drained, discarded, released); a
// failed frame is dropped whole and its failure comes back as it was made (the
// step and cause of the work, or why an input or output was refused); the latency
// it adds is depth - 1 frames; an input edited in place is mapped for writing. The
// plugin's objects are linked in.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "frameengine.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

constexpr int kWidth = 8;
constexpr int kHeight = 4;

GstVideoInfo gray8_info() {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_GRAY8, kWidth, kHeight);
  return info;
}

// A frame whose every sample is `value`.
GstBuffer *frame_of(guint8 value) {
  const GstVideoInfo info = gray8_info();
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  gst_buffer_memset(buffer, 0, value, GST_VIDEO_INFO_SIZE(&info));
  return buffer;
}

guint8 first_sample(GstBuffer *buffer) {
  guint8 value = 0;
  gst_buffer_extract(buffer, 0, &value, 1);
  return value;
}

// A filter's engine (host frames in and out) or an analysis's (no output path).
FrameEngine::Setup setup(guint depth, bool analysis) {
  FrameEngine::Setup s;
  s.info = gray8_info();
  s.depth = depth;
  s.result_size = analysis ? sizeof(guint32) : 0;
  s.frame_state_size = analysis ? sizeof(guint32) : 0;
  s.input = cf::make_host_frame_path(false);
  s.output = analysis ? cf::make_no_frame_path() : cf::make_host_frame_path(false);
  return s;
}

// Output = input + 1 (a filter); results = the first sample, state = the call's
// number (an analysis).
struct Work {
  int calls = 0;
  FrameWorkFn fn() {
    return [this](const FrameWork &work, const FrameSelection &) {
      ++calls;
      if (work.output.info) {
        for (int y = 0; y < kHeight; y++)
          for (int x = 0; x < kWidth; x++)
            work.output.data[0][y * work.output.stride[0] + x] =
                work.input.data[0][y * work.input.stride[0] + x] + 1;
      } else {
        *static_cast<guint32 *>(work.results) = work.input.data[0][0];
        *static_cast<guint32 *>(work.frame_state) = calls;
      }
      return FrameError();
    };
  }
};

void expect_ok(const FrameError &err, const char *what) {
  fail_if(static_cast<bool>(err), "%s: %s", what, err.describe().c_str());
}

// Submits a frame of `value` into a new output buffer (a filter), dropping the
// caller's references as CfBaseFilter does.
void submit_filtered(FrameEngine &engine, Work &work, guint8 value) {
  GstBuffer *input = frame_of(value);
  GstBuffer *output = frame_of(0);
  expect_ok(engine.submit(input, output, FrameSelection(), 0, work.fn()), "submit");
  gst_buffer_unref(input);
  gst_buffer_unref(output);
}

}  // namespace

// Frames leave in order once `depth` are in, each the filter of its own input,
// numbered from 1; the buffer handed out is the caller's alone.
GST_START_TEST(test_order_and_depth) {
  for (guint depth : {1u, 2u, 3u, 8u}) {
    FrameEngine engine;
    Work work;
    expect_ok(engine.set_up(setup(depth, false)), "configure");
    // The CPU's frames cannot overlap: none need wait for later ones (the
    // latency they add), whatever the engine's depth.
    fail_if(engine.overlaps());
    fail_unless_equals_int(engine.frames_held_back(), 0);
    for (int i = 0; i < 12; i++) {
      submit_filtered(engine, work, 10 + i);
      fail_unless_equals_int(engine.last_number(), i + 1);
      const bool full = static_cast<guint>(i + 1) >= depth;
      fail_unless(engine.oldest_may_leave() == full, "depth %u, %d in", depth, i + 1);
      if (!full)
        continue;
      FinishedFrame frame;
      expect_ok(engine.take_oldest(&frame), "take_oldest");
      // Check's fail_unless_equals_int declares a `first` of its own.
      const int oldest = i + 2 - static_cast<int>(depth);
      fail_unless_equals_int(frame.number, oldest);
      fail_unless_equals_int(first_sample(frame.buffer), 10 + oldest);
      fail_unless_equals_int(GST_MINI_OBJECT_REFCOUNT_VALUE(frame.buffer), 1);
      gst_buffer_unref(frame.buffer);
    }
    fail_unless_equals_int(work.calls, 12);
    expect_ok(engine.tear_down(), "release");
  }
}
GST_END_TEST;

// An analysis: its input goes on (the same buffer, writable once out), with the
// results and state of its own frame.
GST_START_TEST(test_results_follow_frames) {
  FrameEngine engine;
  Work work;
  expect_ok(engine.set_up(setup(3, true)), "configure");
  std::vector<GstBuffer *> inputs;
  for (guint8 value : {7, 9, 11}) {
    GstBuffer *buffer = frame_of(value);
    inputs.push_back(buffer);
    expect_ok(engine.submit(buffer, buffer, FrameSelection(), sizeof(guint32), work.fn()),
              "submit");
    gst_buffer_unref(buffer);
  }
  for (int i = 0; i < 3; i++) {
    FinishedFrame frame;
    expect_ok(engine.take_oldest(&frame), "take_oldest");
    fail_unless(frame.buffer == inputs[i], "frame %d: not its input", i);
    fail_unless(gst_buffer_is_writable(frame.buffer), "frame %d: not writable", i);
    fail_unless_equals_int(*static_cast<const guint32 *>(frame.results), 7 + 2 * i);
    fail_unless_equals_int(*static_cast<const guint32 *>(frame.frame_state), i + 1);
    gst_buffer_unref(frame.buffer);
  }
  fail_unless(engine.empty());
}
GST_END_TEST;

// Discarded frames give their buffers back; so does a release with frames in.
GST_START_TEST(test_discard_gives_buffers_back) {
  for (bool by_release : {false, true}) {
    FrameEngine engine;
    Work work;
    expect_ok(engine.set_up(setup(4, false)), "configure");
    GstBuffer *input = frame_of(1);
    GstBuffer *output = frame_of(0);
    expect_ok(engine.submit(input, output, FrameSelection(), 0, work.fn()), "submit");
    fail_unless(GST_MINI_OBJECT_REFCOUNT_VALUE(input) > 1 &&
                GST_MINI_OBJECT_REFCOUNT_VALUE(output) > 1, "the engine holds no reference");
    expect_ok(by_release ? engine.tear_down() : engine.discard(), "discard");
    fail_unless(engine.empty());
    fail_unless_equals_int(GST_MINI_OBJECT_REFCOUNT_VALUE(input), 1);
    fail_unless_equals_int(GST_MINI_OBJECT_REFCOUNT_VALUE(output), 1);
    gst_buffer_unref(input);
    gst_buffer_unref(output);
  }
}
GST_END_TEST;

// The work's failure comes back as it was made, the frame dropped whole, its
// number not used; the engine goes on with the next frame.
GST_START_TEST(test_failed_work) {
  FrameEngine engine;
  Work work;
  expect_ok(engine.set_up(setup(2, false)), "configure");
  GstBuffer *input = frame_of(3);
  GstBuffer *output = frame_of(0);
  const FrameWorkFn fails = [](const FrameWork &, const FrameSelection &) {
    return FrameError::failed("Filtering on the CPU", cudaErrorInvalidValue);
  };
  const FrameError err = engine.submit(input, output, FrameSelection(), 0, fails);
  fail_unless(err.kind == FrameError::Kind::Failed);
  fail_unless_equals_string(err.step, "Filtering on the CPU");
  fail_unless_equals_int(err.cause, cudaErrorInvalidValue);
  fail_unless(engine.empty() && engine.last_number() == 0);
  fail_unless_equals_int(GST_MINI_OBJECT_REFCOUNT_VALUE(input), 1);
  fail_unless_equals_int(GST_MINI_OBJECT_REFCOUNT_VALUE(output), 1);
  gst_buffer_unref(input);
  gst_buffer_unref(output);
  submit_filtered(engine, work, 5);
  fail_unless_equals_int(engine.last_number(), 1);
}
GST_END_TEST;

namespace {

// A buffer the host path refuses before any work, and the message it refuses it with.
struct Refusal {
  GstBuffer *buffer;
  std::string message;
};

// The same for inputs and outputs (`side`: "Input" or "Output"): a GstVideoMeta of
// another size, a buffer too small for its caps, planes outside the memory.
std::vector<Refusal> refusals(const std::string &side) {
  const GstVideoInfo info = gray8_info();
  GstBuffer *other_size = frame_of(1);
  gst_buffer_add_video_meta(other_size, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8,
                            kWidth / 2, kHeight);
  GstBuffer *too_small = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info) / 2,
                                                 nullptr);
  GstBuffer *outside = frame_of(1);
  gsize offsets[GST_VIDEO_MAX_PLANES] = {GST_VIDEO_INFO_SIZE(&info) - 1};
  gint strides[GST_VIDEO_MAX_PLANES] = {kWidth};
  gst_buffer_add_video_meta_full(outside, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_GRAY8,
                                 kWidth, kHeight, 1, offsets, strides);
  return {{other_size, side + " frame of another format or size than its caps"},
          {too_small, side + " frame that could not be mapped"},
          {outside, side + " frame whose planes do not lie in its memory"}};
}

}  // namespace

// Inputs and outputs the host path refuses before any work, the frame dropped whole.
GST_START_TEST(test_refused_frames) {
  FrameEngine engine;
  Work work;
  expect_ok(engine.set_up(setup(1, false)), "configure");
  for (bool output : {false, true}) {
    for (const Refusal &refusal : refusals(output ? "Output" : "Input")) {
      GstBuffer *good = frame_of(0);
      GstBuffer *input = output ? good : refusal.buffer;
      const char *message = refusal.message.c_str();
      const FrameError err =
          engine.submit(input, output ? refusal.buffer : good, FrameSelection(), 0, work.fn());
      fail_unless(err.kind == FrameError::Kind::Refused, "%s: not refused", message);
      fail_unless_equals_string(err.message.c_str(), message);
      if (output)
        fail_unless(engine.check_output(refusal.buffer).message == refusal.message,
                    "%s: check_output passed it", message);
      fail_unless_equals_int(GST_MINI_OBJECT_REFCOUNT_VALUE(refusal.buffer), 1);
      gst_buffer_unref(refusal.buffer);
      gst_buffer_unref(good);
    }
  }
  GstBuffer *fitting = frame_of(0);
  expect_ok(engine.check_output(fitting), "check_output");
  gst_buffer_unref(fitting);
  fail_unless_equals_int(work.calls, 0);
  fail_unless(engine.empty());
}
GST_END_TEST;

// An element that edits its input in place (Setup::edits_input): the input is
// mapped for writing, so the work's writes land in the buffer that goes on, and
// the areas it reports stay with the frame (the CPU's frame needs nothing sent
// back). A writable buffer whose memory another buffer shares gets a copy of it
// from GStreamer, the other buffer untouched; a buffer that is not writable is
// refused before any work.
GST_START_TEST(test_edits_input) {
  FrameEngine engine;
  FrameEngine::Setup in_place = setup(1, true);
  in_place.edits_input = true;
  expect_ok(engine.set_up(std::move(in_place)), "configure");
  int calls = 0;
  const FrameWorkFn edit = [&calls](const FrameWork &work, const FrameSelection &) {
    ++calls;
    work.input.data[0][0] = 200;
    PlaneArea first_sample;
    first_sample.row_bytes = first_sample.rows = 1;
    work.edited->push_back(first_sample);
    return FrameError();
  };
  GstBuffer *frame = frame_of(3);
  GstBuffer *sharer = gst_buffer_copy(frame);  // the same memory
  GstMemory *memory = gst_buffer_peek_memory(frame, 0);
  expect_ok(engine.submit(frame, frame, FrameSelection(), sizeof(guint32), edit), "submit");
  gst_buffer_unref(frame);
  FinishedFrame out;
  expect_ok(engine.take_oldest(&out), "take_oldest");
  fail_unless(out.buffer == frame, "not the input that left");
  fail_unless(gst_buffer_peek_memory(out.buffer, 0) != memory, "shared memory written");
  fail_unless_equals_int(first_sample(out.buffer), 200);
  fail_unless_equals_int(first_sample(sharer), 3);
  gst_buffer_unref(out.buffer);

  gst_buffer_ref(sharer);  // not writable now
  FrameError err;
  ASSERT_CRITICAL(err = engine.submit(sharer, sharer, FrameSelection(), sizeof(guint32), edit));
  fail_unless(err.kind == FrameError::Kind::Refused, "a buffer not writable taken");
  fail_unless_equals_int(first_sample(sharer), 3);
  fail_unless_equals_int(GST_MINI_OBJECT_REFCOUNT_VALUE(sharer), 2);
  gst_buffer_unref(sharer);
  gst_buffer_unref(sharer);
  fail_unless_equals_int(calls, 1);
}
GST_END_TEST;

static Suite *frame_engine_suite(void) {
  Suite *s = suite_create("frame_engine");
  TCase *tc = tcase_create("cpu");
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_order_and_depth);
  tcase_add_test(tc, test_results_follow_frames);
  tcase_add_test(tc, test_discard_gives_buffers_back);
  tcase_add_test(tc, test_failed_work);
  tcase_add_test(tc, test_refused_frames);
  tcase_add_test(tc, test_edits_input);
  return s;
}

GST_CHECK_MAIN(frame_engine);
