// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Frames in equal frames out. For every element and every frames-in-flight depth,
// the buffers that leave an element are those that came in (count, order,
// timestamps, caps, contents), and serialized events keep their place among them,
// across EOS, caps changes, flushes, seeks and drains. What a flush may drop is
// stated in expect_accounted. Built twice: CF_TEST_BACKEND "cpu" (CI) and "cuda"
// (the gpu suite, skipped by name without a device).
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "element_checks.h"
#include "format_table.h"
#include "plane_access.h"
#include "plugin_elements.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

const char *const kBackend = CF_TEST_BACKEND;

// Each element's properties here, by name, for every element of the plugin
// (tests/plugin_elements.txt; one without an entry fails the tests).
const std::map<std::string, std::string> kProperties = {
    {"cudamedian", "size=5"},
    {"cudagauss", "sigma=1.5"},
    {"cudahist", ""},
    {"cudaredact", "zones=<<4,4,24,16>>"},
};

// No reference: frames here are constant, and every filter keeps a constant
// frame as it is, so the value of its samples says which frame it was.
std::vector<cftest::FilterUnderTest> elements() {
  std::vector<cftest::FilterUnderTest> all;
  for (const auto &[name, properties] :
       cftest::each_element(kProperties, "kProperties in test_frame_accounting.cpp"))
    all.push_back({name, properties, nullptr});
  return all;
}

const guint kDepths[] = {1, 2, 3, 8};

std::string name_of(const cftest::FilterUnderTest &element, guint depth) {
  return element.element + " frames-in-flight=" + std::to_string(depth);
}

// The one value of every sample of every component of `buffer` (a 16-bit
// sample counts when both its bytes are that value), or -1.
int uniform_value(GstBuffer *buffer, const GstVideoInfo &info) {
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, const_cast<GstVideoInfo *>(&info), buffer, GST_MAP_READ))
    return -1;
  int value = -1;
  bool uniform = true;
  const cftest::TableFormat &format = cftest::table_format(info);
  for (guint c = 0; c < format.components().size() && uniform; c++) {
    const cf::Plane plane = cftest::frame_plane(frame, c);
    const bool wide = format.sample_bytes == 2;
    const cf::SampleDepth depth = wide ? cf::SampleDepth::U16 : cf::SampleDepth::U8;
    for (int y = 0; y < plane.height && uniform; y++) {
      for (int x = 0; x < plane.width && uniform; x++) {
        const uint32_t sample = cftest::read_sample(plane, depth, x, y);
        const int low = sample & 0xff;
        if (value < 0)
          value = low;
        uniform = low == value && (!wide || (sample >> 8) == static_cast<uint32_t>(low));
      }
    }
  }
  gst_video_frame_unmap(&frame);
  return uniform ? value : -1;
}

// One buffer or serialized event that crossed a pad.
struct StreamItem {
  bool is_buffer = false;
  GstEventType event = GST_EVENT_UNKNOWN;
  std::string contents;  // an event's structure; a buffer's caps
  GstClockTime pts = GST_CLOCK_TIME_NONE;
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  guint64 offset = GST_BUFFER_OFFSET_NONE;
  gsize size = 0;
  int value = -1;          // buffers: uniform_value, when read
  bool discont = false;    // buffers: the DISCONT flag
  GstSegment segment = {};  // SEGMENT events

  bool operator==(const StreamItem &other) const {
    return is_buffer == other.is_buffer && event == other.event &&
        contents == other.contents && pts == other.pts && duration == other.duration &&
        offset == other.offset && size == other.size && value == other.value &&
        discont == other.discont;
  }

  std::string describe() const {
    if (!is_buffer)
      return std::string(gst_event_type_get_name(event)) +
          (event == GST_EVENT_CAPS || event == GST_EVENT_SEGMENT ? "" : " " + contents);
    gchar *text = g_strdup_printf("buffer pts %" GST_TIME_FORMAT " duration %" GST_TIME_FORMAT
                                  " offset %" G_GINT64_FORMAT " value %d, %" G_GSIZE_FORMAT
                                  " bytes%s",
                                  GST_TIME_ARGS(pts), GST_TIME_ARGS(duration),
                                  static_cast<gint64>(offset), value, size,
                                  discont ? ", DISCONT" : "");
    std::string described = text;
    g_free(text);
    return described;
  }
};

// The items around items[at], numbered: enough to see where two streams part
// (Check's messages must stay short).
std::string describe_around(const std::vector<StreamItem> &items, size_t at) {
  std::string text;
  const size_t first = at > 4 ? at - 4 : 0;
  for (size_t i = first; i < std::min(items.size(), first + 9); i++)
    text += "\n    " + std::to_string(i) + ": " + items[i].describe();
  if (items.size() > first + 9)
    text += "\n    ... " + std::to_string(items.size()) + " in all";
  return text;
}

// Records, in order, every buffer and every serialized or flush event that
// crosses `pad` (taken over), from any thread.
class PadRecorder {
 public:
  PadRecorder(GstPad *pad, bool read_values) : pad_(pad), read_values_(read_values) {
    fail_unless(pad != nullptr);
    probe_ = gst_pad_add_probe(
        pad,
        static_cast<GstPadProbeType>(GST_PAD_PROBE_TYPE_BUFFER |
                                     GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM |
                                     GST_PAD_PROBE_TYPE_EVENT_FLUSH),
        on_data, this, nullptr);
  }
  PadRecorder(const PadRecorder &) = delete;
  PadRecorder &operator=(const PadRecorder &) = delete;
  ~PadRecorder() {
    gst_pad_remove_probe(pad_, probe_);
    gst_object_unref(pad_);
  }

  std::vector<StreamItem> items() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_;
  }
  int buffers() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::count_if(items_.begin(), items_.end(),
                         [](const StreamItem &item) { return item.is_buffer; });
  }
  bool saw(GstEventType type) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::any_of(items_.begin(), items_.end(),
                       [type](const StreamItem &item) { return item.event == type; });
  }

 private:
  static GstPadProbeReturn on_data(GstPad *, GstPadProbeInfo *info, gpointer self) {
    static_cast<PadRecorder *>(self)->record(info);
    return GST_PAD_PROBE_OK;
  }

  void record(GstPadProbeInfo *info) {
    StreamItem item;
    if (GST_PAD_PROBE_INFO_TYPE(info) & GST_PAD_PROBE_TYPE_BUFFER) {
      GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
      item.is_buffer = true;
      item.contents = caps_;
      item.pts = GST_BUFFER_PTS(buffer);
      item.duration = GST_BUFFER_DURATION(buffer);
      item.offset = GST_BUFFER_OFFSET(buffer);
      item.size = gst_buffer_get_size(buffer);
      item.discont = GST_BUFFER_IS_DISCONT(buffer);
      if (read_values_ && have_info_)
        item.value = uniform_value(buffer, info_);
    } else {
      GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
      if (!GST_EVENT_IS_SERIALIZED(event) && GST_EVENT_TYPE(event) != GST_EVENT_FLUSH_START)
        return;  // out of band: free to overtake frames
      item.event = GST_EVENT_TYPE(event);
      if (const GstStructure *s = gst_event_get_structure(event)) {
        gchar *text = gst_structure_to_string(s);
        item.contents = text;
        g_free(text);
      }
      if (item.event == GST_EVENT_SEGMENT)
        gst_event_copy_segment(event, &item.segment);
      if (item.event == GST_EVENT_CAPS) {
        GstCaps *caps;
        gst_event_parse_caps(event, &caps);
        gchar *text = gst_caps_to_string(caps);
        caps_ = text;
        g_free(text);
        have_info_ = gst_video_info_from_caps(&info_, caps);
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    items_.push_back(std::move(item));
  }

  GstPad *pad_;
  const bool read_values_;
  gulong probe_ = 0;
  // The streaming thread's own: the caps that the next buffers come with.
  std::string caps_;
  GstVideoInfo info_ = {};
  bool have_info_ = false;
  mutable std::mutex mutex_;
  std::vector<StreamItem> items_;
};

// The items after each FLUSH_STOP (the first: before any), FLUSH_START left out:
// it travels out of band.
std::vector<std::vector<StreamItem>> split_at_flushes(const std::vector<StreamItem> &items) {
  std::vector<std::vector<StreamItem>> epochs(1);
  for (const StreamItem &item : items) {
    if (item.event == GST_EVENT_FLUSH_STOP)
      epochs.emplace_back();
    else if (item.event != GST_EVENT_FLUSH_START)
      epochs.back().push_back(item);
  }
  return epochs;
}

// What a flush may take, and nothing else: of the items that came in between two
// flushes, those that went out are an ordered prefix, and the rest are at most
// `max_discarded` buffers (frames in flight, dropped at the flush) and the events
// that waited behind them (dropped with them, as a queue drops them). After the
// last flush, and in a stream without one, out is exactly in.
void expect_accounted(const PadRecorder &in_pad, const PadRecorder &out_pad,
                      guint max_discarded, const std::string &what) {
  const std::vector<StreamItem> in_items = in_pad.items();
  const std::vector<StreamItem> out_items = out_pad.items();
  const auto in = split_at_flushes(in_items);
  const auto out = split_at_flushes(out_items);
  const auto flush_starts = [](const std::vector<StreamItem> &items) {
    return std::count_if(items.begin(), items.end(), [](const StreamItem &item) {
      return item.event == GST_EVENT_FLUSH_START;
    });
  };
  fail_unless(in.size() == out.size() && flush_starts(in_items) == flush_starts(out_items),
              "%s: %zu flushes in, %zu out", what.c_str(), in.size() - 1, out.size() - 1);
  for (size_t e = 0; e < in.size(); e++) {
    const std::vector<StreamItem> &came = in[e];
    const std::vector<StreamItem> &left = out[e];
    const size_t common =
        std::mismatch(came.begin(), came.end(), left.begin(), left.end()).first - came.begin();
    const bool from_a_frame = common == came.size() || came[common].is_buffer;
    const size_t discarded = std::count_if(came.begin() + common, came.end(),
                                           [](const StreamItem &item) { return item.is_buffer; });
    const bool last = e + 1 == in.size();
    fail_unless(common == left.size() && from_a_frame &&
                    (last ? common == came.size() : discarded <= max_discarded),
                "%s: after flush %zu, out is not %s in (at most %u frames dropped); they part "
                "at %zu\n  in:%s\n  out:%s",
                what.c_str(), e, last ? "exactly" : "a prefix of", last ? 0 : max_discarded,
                common, describe_around(came, common).c_str(),
                describe_around(left, common).c_str());
  }
}

// A harness around one element, both of its pads recorded, fed numbered frames:
// frame n has every sample n (so no more than 256 frames), offset n, a PTS of its
// own or none, and a duration that varies or is none.
class HarnessStream {
 public:
  HarnessStream(const cftest::FilterUnderTest &element, guint depth)
      : h_(cftest::make_harness(kBackend, element, depth)),
        in_(gst_pad_get_peer(h_->srcpad), true),
        out_(gst_pad_get_peer(h_->sinkpad), true),
        what_(name_of(element, depth)), depth_(depth) {}
  HarnessStream(const HarnessStream &) = delete;
  HarnessStream &operator=(const HarnessStream &) = delete;
  ~HarnessStream() { gst_harness_teardown(h_); }

  void set_caps(const char *format, int width, int height) {
    gst_harness_set_src_caps_str(h_, cftest::caps_string(format, width, height).c_str());
    info_ = cftest::video_info(format, width, height);
  }

  // New caps as appsrc sends them mid-stream: a CAPS event alone (the harness's
  // set_caps sends a SEGMENT after it).
  void push_caps_alone(const char *format, int width, int height) {
    GstCaps *caps = gst_caps_from_string(cftest::caps_string(format, width, height).c_str());
    push_event(gst_event_new_caps(caps));
    gst_caps_unref(caps);
    info_ = cftest::video_info(format, width, height);
  }

  void push_frames(int count) {
    for (int i = 0; i < count; i++)
      fail_unless_equals_int(gst_harness_push(h_, next_frame()), GST_FLOW_OK);
  }

  // A frame marked DISCONT: that frame, and no other, must leave marked.
  void push_discont_frame() {
    GstBuffer *frame = next_frame();
    GST_BUFFER_FLAG_SET(frame, GST_BUFFER_FLAG_DISCONT);
    fail_unless_equals_int(gst_harness_push(h_, frame), GST_FLOW_OK);
  }

  void push_event(GstEvent *event) {
    const std::string name = GST_EVENT_TYPE_NAME(event);
    fail_unless(gst_harness_push_event(h_, event), "%s: %s refused", what_.c_str(),
                name.c_str());
  }

  // A flush with a frame refused inside it, and the segment that must follow.
  void flush() {
    push_event(gst_event_new_flush_start());
    fail_unless_equals_int(gst_harness_push(h_, next_frame()), GST_FLOW_FLUSHING);
    push_event(gst_event_new_flush_stop(TRUE));
    push_segment(0);
  }

  void push_segment(GstClockTime start) {
    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    segment.start = segment.position = segment.time = start;
    push_event(gst_event_new_segment(&segment));
  }

  GstClockTime next_pts() const { return pts_of(next_); }

  // Its answer does not matter here, only that the element drains first.
  void query_drain() {
    GstQuery *drain = gst_query_new_drain();
    gst_pad_peer_query(h_->srcpad, drain);
    gst_query_unref(drain);
  }

  // Every frame that came in has gone out.
  void expect_drained(const char *by) const { expect_held(0, by); }

  // Downstream asking for the position hears the end of the last frame out (all
  // drained): that of the last one pushed that had a PTS.
  void expect_position_at_end(const char *after) const {
    int last = next_ - 1;
    while (last >= 0 && !GST_CLOCK_TIME_IS_VALID(pts_of(last)))
      last--;
    fail_unless(last >= 0, "no frame with a PTS");
    const GstClockTime duration = duration_of(last);
    const gint64 expected =
        pts_of(last) + (GST_CLOCK_TIME_IS_VALID(duration) ? duration : 0);
    GstQuery *query = gst_query_new_position(GST_FORMAT_TIME);
    fail_unless(gst_pad_peer_query(h_->sinkpad, query), "%s: POSITION query refused after %s",
                what_.c_str(), after);
    gint64 position = -1;
    gst_query_parse_position(query, nullptr, &position);
    gst_query_unref(query);
    fail_unless(position == expected,
                "%s: position %" GST_TIME_FORMAT " after %s, not %" GST_TIME_FORMAT,
                what_.c_str(), GST_TIME_ARGS(position), after, GST_TIME_ARGS(expected));
  }

  // All but `held` of the frames that came in have gone out.
  void expect_held(int held, const char *by) const {
    const int out = out_.buffers(), in = in_.buffers();
    fail_unless(out == in - held, "%s: %d of %d frames out after %s (%d held expected)",
                what_.c_str(), out, in, by, held);
  }

  // As many held as frames from a non-live upstream may wait for later ones:
  // none on the CPU (each leaves once its work is done), at most depth - 1 on
  // CUDA (fewer where the element found upstream idle and let them go).
  void expect_held_at_most_depth(const char *by) const {
    const int out = out_.buffers(), in = in_.buffers();
    const int most = g_str_equal(kBackend, "cpu") ? 0 : int(depth_) - 1;
    fail_unless(out <= in && out >= in - most,
                "%s: %d of %d frames out after %s (at most %d held expected)",
                what_.c_str(), out, in, by, most);
  }

  // EOS, then out must be in but for what flushes dropped, EOS last, every frame
  // out once.
  void finish(guint max_discarded) {
    push_event(gst_event_new_eos());
    expect_accounted(in_, out_, max_discarded, what_);
    const std::vector<StreamItem> out = out_.items();
    fail_unless(!out.empty() && out.back().event == GST_EVENT_EOS, "%s: EOS not last:%s",
                what_.c_str(), describe_around(out, out.size() - 1).c_str());
    std::set<int> values;
    for (const StreamItem &item : out) {
      if (!item.is_buffer)
        continue;
      fail_unless(item.value >= 0, "%s: %s is not a frame that went in", what_.c_str(),
                  item.describe().c_str());
      fail_unless(values.insert(item.value).second, "%s: %s went out twice", what_.c_str(),
                  item.describe().c_str());
    }
  }

 private:
  // Irregular on purpose: the element must copy timestamps, not make them.
  static GstClockTime pts_of(int n) {
    return n % 7 == 6 ? GST_CLOCK_TIME_NONE : n * 40 * GST_MSECOND + (n % 3) * 7 * GST_MSECOND;
  }
  static GstClockTime duration_of(int n) {
    return n % 5 == 4 ? GST_CLOCK_TIME_NONE : (20 + n) * GST_MSECOND;
  }

  GstBuffer *next_frame() {
    const int n = next_++;
    fail_unless(n < 256, "frame values run out");
    GstBuffer *buffer = gst_harness_create_buffer(h_, GST_VIDEO_INFO_SIZE(&info_));
    GstMapInfo map;
    fail_unless(gst_buffer_map(buffer, &map, GST_MAP_WRITE));
    memset(map.data, n, map.size);
    gst_buffer_unmap(buffer, &map);
    GST_BUFFER_PTS(buffer) = pts_of(n);
    GST_BUFFER_DURATION(buffer) = duration_of(n);
    GST_BUFFER_OFFSET(buffer) = n;
    return buffer;
  }

  GstHarness *h_;
  PadRecorder in_, out_;
  const std::string what_;
  const guint depth_;
  GstVideoInfo info_ = {};
  int next_ = 0;
};

template <typename Scenario>
void for_every_element_and_depth(Scenario &&scenario) {
  for (const cftest::FilterUnderTest &element : elements())
    for (guint depth : kDepths)
      scenario(element, depth);
}

}  // namespace

// (a) N frames, then EOS: all N out in order with their timestamps, EOS last;
// N below, at and above the depth; 8-bit and 16-bit samples, even and odd sizes.
GST_START_TEST(test_eos) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth) {
    const int d = depth;
    const struct {
      const char *format;
      int width, height;
    } kinds[] = {{"GRAY8", 64, 48}, {"I420", 37, 21}, {"GRAY16_LE", 33, 17}};
    for (int frames : {1, d - 1, 2 * d + 3}) {
      for (const auto &kind : kinds) {
        HarnessStream stream(element, depth);
        stream.set_caps(kind.format, kind.width, kind.height);
        stream.push_frames(frames);
        stream.finish(0);
      }
    }
  });
}
GST_END_TEST;

// (b) Caps changes, several in a row, of size and format, some with no frame
// between them, each followed by a SEGMENT (as the harness sends them) or alone
// (as appsrc does): every frame out, after the caps it came with.
GST_START_TEST(test_caps_changes) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth) {
    const int d = depth;
    const struct {
      const char *format;
      int width, height, frames;
    } steps[] = {{"GRAY8", 64, 48, d + 1}, {"NV12", 33, 17, d - 1}, {"RGBA", 64, 48, 1},
                 {"GRAY16_LE", 17, 9, 2 * d}, {"I420", 31, 15, 0}, {"YUY2", 64, 48, d},
                 {"BGR", 7, 5, 3}, {"GRAY8", 64, 48, d + 2}};
    for (bool caps_alone : {false, true}) {
      HarnessStream stream(element, depth);
      stream.set_caps(steps[0].format, steps[0].width, steps[0].height);
      stream.push_frames(steps[0].frames);
      for (size_t i = 1; i < G_N_ELEMENTS(steps); i++) {
        if (caps_alone)
          stream.push_caps_alone(steps[i].format, steps[i].width, steps[i].height);
        else
          stream.set_caps(steps[i].format, steps[i].width, steps[i].height);
        stream.push_frames(steps[i].frames);
      }
      stream.finish(0);
    }
  });
}
GST_END_TEST;

// (c) Flushes with no frame, some and many frames in flight, caps changes (to 16-bit
// samples too) and a drain between flushes, two flushes in a row: up to each flush, out is an
// ordered prefix of in, at most depth - 1 frames (those held) dropped; every frame
// pushed after the last flush out; none twice, none of the dropped ones later.
GST_START_TEST(test_flushes) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth) {
    const int d = depth;
    HarnessStream stream(element, depth);
    stream.set_caps("GRAY8", 64, 48);
    stream.flush();
    stream.push_frames(d - 1);
    stream.flush();
    stream.push_frames(d + 2);
    stream.flush();
    stream.set_caps("NV12", 33, 17);
    stream.push_frames(d);
    stream.push_event(gst_event_new_custom(GST_EVENT_CUSTOM_DOWNSTREAM,
                                           gst_structure_new_empty("cf-before-flush")));
    stream.push_frames(1);
    stream.flush();
    stream.flush();
    stream.set_caps("GRAY16_LE", 64, 48);
    stream.push_frames(d + 1);
    stream.flush();
    stream.push_frames(2 * d + 1);
    stream.finish(depth - 1);
  });
}
GST_END_TEST;

// (e) Serialized events among frames in flight. A GAP, a custom serialized event,
// tags and a sticky custom event wait behind the frames in flight (which stay in
// flight, where they overlap: the stream keeps its overlap) and keep their place
// among the frames; a
// new segment (a non-flushing seek) and a DRAIN query let every frame out first, and
// the position downstream asks for then is the end of the last one. A DISCONT frame
// leaves marked, and no other frame does.
GST_START_TEST(test_drains) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth) {
    const int d = depth;
    HarnessStream stream(element, depth);
    stream.set_caps("GRAY8", 64, 48);
    stream.push_frames(d + 1);
    stream.push_event(gst_event_new_gap(stream.next_pts(), 10 * GST_MSECOND));
    stream.expect_held_at_most_depth("GAP");
    stream.push_frames(2);
    stream.push_event(gst_event_new_custom(
        GST_EVENT_CUSTOM_DOWNSTREAM,
        gst_structure_new("cf-marker", "n", G_TYPE_INT, 1, nullptr)));
    stream.expect_held_at_most_depth("a custom serialized event");
    stream.push_frames(d);
    stream.push_event(gst_event_new_tag(
        gst_tag_list_new(GST_TAG_TITLE, "frame accounting", nullptr)));
    stream.expect_held_at_most_depth("TAG");
    // More events than the element holds behind its frames: past them the frames
    // leave first, and every event keeps its place.
    for (int n = 0; n < 100; n++)
      stream.push_event(gst_event_new_custom(
          GST_EVENT_CUSTOM_DOWNSTREAM,
          gst_structure_new("cf-many", "n", G_TYPE_INT, n, nullptr)));
    stream.push_discont_frame();
    stream.push_frames(1);
    stream.push_segment(stream.next_pts());
    stream.expect_drained("a new SEGMENT");
    stream.push_frames(d + 2);
    stream.query_drain();
    stream.expect_drained("a DRAIN query");
    stream.expect_position_at_end("a DRAIN query");
    stream.push_frames(d - 1);
    stream.push_event(gst_event_new_custom(
        GST_EVENT_CUSTOM_DOWNSTREAM_STICKY,
        gst_structure_new("cf-sticky", "n", G_TYPE_INT, 2, nullptr)));
    stream.expect_held_at_most_depth("a sticky custom event");
    stream.push_frames(2);
    stream.push_discont_frame();
    stream.push_frames(d);
    stream.finish(0);
  });
}
GST_END_TEST;

namespace {

void seek(GstElement *pipeline, GstSeekFlags flags, GstClockTime start, GstClockTime stop,
          const std::string &what) {
  fail_unless(gst_element_seek(pipeline, 1.0, GST_FORMAT_TIME, flags, GST_SEEK_TYPE_SET, start,
                               GST_SEEK_TYPE_SET, stop),
              "%s: seek to %" GST_TIME_FORMAT " refused", what.c_str(), GST_TIME_ARGS(start));
}

void pull(GstAppSink *sink, int samples, const std::string &what) {
  for (int i = 0; i < samples; i++) {
    GstSample *sample = gst_app_sink_try_pull_sample(sink, 10 * GST_SECOND);
    fail_unless(sample != nullptr, "%s: no sample", what.c_str());
    gst_sample_unref(sample);
  }
}

// Pulls until the element has sent `type` and no frame is left to pull.
void pull_until(GstAppSink *sink, const PadRecorder &out, GstEventType type,
                const std::string &what) {
  const gint64 deadline = g_get_monotonic_time() + 20 * G_TIME_SPAN_SECOND;
  for (;;) {
    GstSample *sample = gst_app_sink_try_pull_sample(sink, 50 * GST_MSECOND);
    if (sample)
      gst_sample_unref(sample);
    else if (out.saw(type))
      return;
    fail_unless(g_get_monotonic_time() < deadline, "%s: no %s", what.c_str(),
                gst_event_type_get_name(type));
  }
}

// The frames of a 30/1 videotestsrc follow each segment: the first at its start,
// each where the one before ended, all before its stop; a segment that ends
// (SEGMENT_DONE, EOS) has frames up to its stop. A flush cuts a segment short.
void expect_segments_followed(const std::vector<StreamItem> &items, const std::string &what) {
  const GstSegment *segment = nullptr;
  GstClockTime next = GST_CLOCK_TIME_NONE;
  for (size_t i = 0; i < items.size(); i++) {
    const StreamItem &item = items[i];
    if (item.event == GST_EVENT_SEGMENT) {
      segment = &item.segment;
      next = segment->start;
    } else if (item.event == GST_EVENT_FLUSH_STOP) {
      segment = nullptr;
    } else if (item.event == GST_EVENT_SEGMENT_DONE || item.event == GST_EVENT_EOS) {
      fail_unless(segment && next >= segment->stop, "%s: segment left at %" GST_TIME_FORMAT,
                  what.c_str(), GST_TIME_ARGS(next));
    } else if (item.is_buffer) {
      fail_unless(segment != nullptr, "%s: %s outside a segment", what.c_str(),
                  item.describe().c_str());
      fail_unless(item.pts == next && item.pts < segment->stop,
                  "%s: %s where the frame at %" GST_TIME_FORMAT " of a segment to %" GST_TIME_FORMAT
                  " belongs:%s",
                  what.c_str(), item.describe().c_str(), GST_TIME_ARGS(next),
                  GST_TIME_ARGS(segment->stop), describe_around(items, i).c_str());
      next = item.pts + item.duration;
    }
  }
}

// No error on `pipeline`'s bus, then NULL.
void expect_clean_end(GstElement *pipeline, const std::string &what) {
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *error = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  fail_unless(error == nullptr, "%s: %" GST_PTR_FORMAT, what.c_str(), error);
  gst_object_unref(bus);
  fail_unless_equals_int(gst_element_set_state(pipeline, GST_STATE_NULL),
                         GST_STATE_CHANGE_SUCCESS);
}

// (d) videotestsrc ! element ! appsink, PLAYING, `format` frames. The sink holds one
// sample at a time, so the stream waits for the test and each seek lands with frames
// in flight: two flushing seeks, a flushing segment seek played to SEGMENT_DONE, then
// a non-flushing seek played to EOS.
void check_seeks(const cftest::FilterUnderTest &element, guint depth, const char *format) {
  const std::string what = name_of(element, depth) + " seeking " + format;
  const std::string description =
      "videotestsrc is-live=false pattern=ball ! video/x-raw,format=" + std::string(format) +
      ",width=64,height=48,framerate=30/1 ! " +
      cftest::element_line(kBackend, element, depth, "name=filter") +
      " ! appsink name=sink sync=false max-buffers=1";
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(description.c_str(), &error);
  fail_unless(pipeline != nullptr && error == nullptr, "%s", description.c_str());
  GstElement *filter = gst_bin_get_by_name(GST_BIN(pipeline), "filter");
  auto *sink = GST_APP_SINK(gst_bin_get_by_name(GST_BIN(pipeline), "sink"));
  {
    PadRecorder in(gst_element_get_static_pad(filter, "sink"), false);
    PadRecorder out(gst_element_get_static_pad(filter, "src"), false);
    fail_if(gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
    pull(sink, 5, what);
    seek(pipeline, GST_SEEK_FLAG_FLUSH, 2 * GST_SECOND, 3 * GST_SECOND, what);
    pull(sink, 3, what);
    seek(pipeline, static_cast<GstSeekFlags>(GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_SEGMENT),
         GST_SECOND, 1500 * GST_MSECOND, what);
    pull_until(sink, out, GST_EVENT_SEGMENT_DONE, what);
    seek(pipeline, GST_SEEK_FLAG_NONE, 3 * GST_SECOND, 3500 * GST_MSECOND, what);
    pull_until(sink, out, GST_EVENT_EOS, what);
    expect_clean_end(pipeline, what);

    // A frame can be on its way out when the flush starts: depth, not depth - 1.
    expect_accounted(in, out, depth, what);
    const std::vector<StreamItem> items = out.items();
    expect_segments_followed(items, what);
    const auto after_last_flush = split_at_flushes(items).back();
    fail_unless_equals_int(std::count_if(after_last_flush.begin(), after_last_flush.end(),
                                         [](const StreamItem &item) { return item.is_buffer; }),
                           2 * 15);  // [1 s, 1.5 s) and [3 s, 3.5 s) at 30/1
  }
  gst_object_unref(sink);
  gst_object_unref(filter);
  gst_object_unref(pipeline);
}

}  // namespace

GST_START_TEST(test_seeks) {
  for_every_element_and_depth([](const cftest::FilterUnderTest &element, guint depth) {
    for (const char *format : {"I420", "GRAY16_LE"})
      check_seeks(element, depth, format);
  });
}
GST_END_TEST;

namespace {

// A uniform GRAY8 frame of value n, with PTS n frames of 30/1.
GstBuffer *numbered_frame(GstBuffer *buffer, int n) {
  GstMapInfo map;
  fail_unless(gst_buffer_map(buffer, &map, GST_MAP_WRITE));
  memset(map.data, n, map.size);
  gst_buffer_unmap(buffer, &map);
  GST_BUFFER_PTS(buffer) = n * (GST_SECOND / 30);
  GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
  return buffer;
}

const char *const kPushPullCaps = "video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1";

// `appsrc ! element ! SINK`, PLAYING; the caller unrefs it (after NULL).
GstElement *start_pipeline(const cftest::FilterUnderTest &element, guint depth, bool live,
                           const std::string &sink) {
  const std::string line = std::string("appsrc name=src format=time is-live=") +
      (live ? "true" : "false") + " caps=" + kPushPullCaps + " ! " +
      cftest::element_line(kBackend, element, depth, "name=element") + " ! " + sink;
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(line.c_str(), &error);
  fail_unless(pipeline != nullptr && error == nullptr, "%s", line.c_str());
  fail_if(gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  return pipeline;
}

// No error on `pipeline`'s bus, then NULL, and `pipeline` unreffed.
void stop_cleanly(GstElement *pipeline, const std::string &what) {
  expect_clean_end(pipeline, what);
  gst_object_unref(pipeline);
}

}  // namespace

// (f) An application that pushes one frame into a non-live appsrc and pulls it
// back before pushing the next gets each frame back, in order, at any
// frames-in-flight: no frame waits for a later one that cannot come.
GST_START_TEST(test_push_pull) {
  for (const cftest::FilterUnderTest &element : elements()) {
    for (guint depth : {1u, 2u, 8u}) {
      const std::string what = name_of(element, depth) + " push-pull";
      GstElement *pipeline = start_pipeline(element, depth, false, "appsink name=sink sync=false");
      GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
      GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
      GstVideoInfo info;
      GstCaps *caps = gst_caps_from_string(kPushPullCaps);
      fail_unless(gst_video_info_from_caps(&info, caps));
      gst_caps_unref(caps);
      for (int n = 0; n < 5; n++) {
        GstBuffer *frame = numbered_frame(gst_buffer_new_allocate(nullptr, info.size, nullptr), n);
        fail_unless_equals_int(gst_app_src_push_buffer(GST_APP_SRC(src), frame), GST_FLOW_OK);
        GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 2 * GST_SECOND);
        fail_unless(sample != nullptr, "%s: frame %d not back within 2 s", what.c_str(), n);
        GstBuffer *out = gst_sample_get_buffer(sample);
        fail_unless_equals_uint64(GST_BUFFER_PTS(out), n * (GST_SECOND / 30));
        fail_unless_equals_int(uniform_value(out, info), n);
        gst_sample_unref(sample);
      }
      gst_object_unref(sink);
      gst_object_unref(src);
      stop_cleanly(pipeline, what);
    }
  }
}
GST_END_TEST;

namespace {

// A buffer of `pool`, waiting at most 10 s for one to come back.
GstBuffer *acquire_within(GstBufferPool *pool, const std::string &what, int n) {
  GstBufferPoolAcquireParams params = {};
  params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  const gint64 deadline = g_get_monotonic_time() + 10 * G_TIME_SPAN_SECOND;
  for (;;) {
    GstBuffer *buffer = nullptr;
    if (gst_buffer_pool_acquire_buffer(pool, &buffer, &params) == GST_FLOW_OK)
      return buffer;
    fail_unless(g_get_monotonic_time() < deadline,
                "%s: frame %d: upstream's pool stays empty, its buffers held", what.c_str(), n);
    g_usleep(200);
  }
}

// What the element answers upstream's ALLOCATION query: the buffers it holds.
guint allocation_min(GstElement *element, GstCaps *caps) {
  GstPad *pad = gst_element_get_static_pad(element, "sink");
  GstQuery *query = gst_query_new_allocation(caps, TRUE);
  fail_unless(gst_pad_query(pad, query), "ALLOCATION refused");
  guint min = 0;
  fail_unless(gst_query_get_n_allocation_pools(query) > 0, "no buffer count in the answer");
  gst_query_parse_nth_allocation_pool(query, 0, nullptr, nullptr, &min, nullptr);
  gst_query_unref(query);
  gst_object_unref(pad);
  return min;
}

}  // namespace

// (g) Upstream's pool holds fewer buffers than the element may hold (1, and
// frames-in-flight - 1): every frame gets through, live or not, the element
// letting go of a frame's input once its work is done; and its ALLOCATION
// answer asks for as many buffers as it holds.
GST_START_TEST(test_small_upstream_pool) {
  for (const cftest::FilterUnderTest &element : elements()) {
    for (guint depth : {1u, 2u, 8u}) {
      for (bool live : {false, true}) {
        for (guint buffers : {1u, std::max(1u, depth - 1)}) {
          const std::string what = name_of(element, depth) + (live ? " live" : "") + ", " +
              std::to_string(buffers) + "-buffer upstream pool";
          GstElement *pipeline = start_pipeline(element, depth, live,
                                                "fakesink name=sink sync=false enable-last-sample=false "
                                                "signal-handoffs=true");
          GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
          std::atomic<int> frames_out{0};
          g_signal_connect(sink, "handoff",
                           G_CALLBACK(+[](GstElement *, GstBuffer *, GstPad *, gpointer count) {
                             ++*static_cast<std::atomic<int> *>(count);
                           }),
                           &frames_out);
          GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
          GstElement *filter = gst_bin_get_by_name(GST_BIN(pipeline), "element");
          GstCaps *caps = gst_caps_from_string(kPushPullCaps);
          GstVideoInfo info;
          fail_unless(gst_video_info_from_caps(&info, caps));
          GstBufferPool *pool = gst_buffer_pool_new();
          GstStructure *config = gst_buffer_pool_get_config(pool);
          gst_buffer_pool_config_set_params(config, caps, info.size, buffers, buffers);
          fail_unless(gst_buffer_pool_set_config(pool, config));
          fail_unless(gst_buffer_pool_set_active(pool, TRUE));
          const int frames = 2 * depth + 3;
          for (int n = 0; n < frames; n++)
            fail_unless_equals_int(gst_app_src_push_buffer(
                                       GST_APP_SRC(src),
                                       numbered_frame(acquire_within(pool, what, n), n)),
                                   GST_FLOW_OK);
          // The caps are set by now: the element is configured.
          const guint held = g_str_equal(kBackend, "cpu") || depth == 1 ? 1 : depth;
          fail_unless(allocation_min(filter, caps) >= held, "%s: ALLOCATION asks for fewer "
                      "than the %u buffers the element holds", what.c_str(), held);
          fail_unless_equals_int(gst_app_src_end_of_stream(GST_APP_SRC(src)), GST_FLOW_OK);
          GstBus *bus = gst_element_get_bus(pipeline);
          GstMessage *end = gst_bus_timed_pop_filtered(
              bus, 20 * GST_SECOND,
              static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
          fail_unless(end != nullptr && GST_MESSAGE_TYPE(end) == GST_MESSAGE_EOS,
                      "%s: no EOS", what.c_str());
          gst_message_unref(end);
          fail_unless_equals_int(frames_out.load(), frames);
          gst_object_unref(bus);
          gst_caps_unref(caps);
          gst_object_unref(sink);
          gst_object_unref(filter);
          gst_object_unref(src);
          stop_cleanly(pipeline, what);
          gst_buffer_pool_set_active(pool, FALSE);
          gst_object_unref(pool);
        }
      }
    }
  }
}
GST_END_TEST;

int main(int argc, char **argv) {
  return cftest::run_element_suite(
      g_str_equal(kBackend, "cuda") ? "frame_accounting_gpu" : "frame_accounting", kBackend,
      {
          CF_TEST(test_eos),
          CF_TEST(test_caps_changes),
          CF_TEST(test_flushes),
          CF_TEST(test_seeks),
          CF_TEST(test_drains),
          CF_TEST(test_push_pull),
          CF_TEST(test_small_upstream_pool),
      },
      argc, argv);
}
