// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Fuzz target: the input bytes are a small program run on
//   appsrc ! ELEMENT [! ELEMENT [! ELEMENT]] ! appsink
// with elements among cudamedian, cudagauss and cudahist on the CPU backend, mostly
// while PLAYING: new caps, frames of many sizes and layouts (padded, tight,
// overlapping and bottom-up strides in a GstVideoMeta, too few bytes, several
// memories, read-only foreign memory), regions of interest in and out of the frame
// and by the hundred, every property set to values in and out of range, flushes,
// EOS, renegotiation, state changes and latency queries; downstream's answer to the
// ALLOCATION query (pools of buffers that may not hold the frame, of too few buffers,
// with and without the video meta) is the input's first choice.
//
// Element errors on the bus are fine: bad input must end as one. A failure aborts
// with a message: a sanitizer report, a g_critical, a step that hangs, a frame
// downstream that does not fit its caps, or frames lost although nothing (an error,
// a flush, READY, a renegotiation) allowed it.
//
// tests/fuzz/run-fuzz.sh runs it under libFuzzer; replay_main.cpp runs the kept
// corpus (tests/fuzz/corpus/) through it as the meson test fuzz_corpus.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "formatlayout.h"

GST_ELEMENT_REGISTER_DECLARE(cudamedian);
GST_ELEMENT_REGISTER_DECLARE(cudagauss);
GST_ELEMENT_REGISTER_DECLARE(cudahist);

namespace {

constexpr int kMaxActions = 48;
constexpr int kMaxFrames = 24;
constexpr int kMaxSide = 97;
// Tiny frames take milliseconds: a step this slow is a hang.
constexpr int kHangSeconds = 20;

const char *const kElements[] = {"cudamedian", "cudagauss", "cudahist"};

[[noreturn]] void fail(const char *what, const char *detail = "") {
  fprintf(stderr, "FUZZ FAILURE: %s%s%s\n", what, *detail ? ": " : "", detail);
  fflush(stderr);
  abort();
}

bool verbose() {
  static const bool on = g_getenv("CF_FUZZ_VERBOSE") != nullptr;
  return on;
}

// With CF_FUZZ_VERBOSE set: what the program does, to read a reproducer.
void trace(const char *format, ...) G_GNUC_PRINTF(1, 2);
void trace(const char *format, ...) {
  if (!verbose())
    return;
  va_list args;
  va_start(args, format);
  gchar *text = gst_info_strdup_vprintf(format, args);  // knows GST_PTR_FORMAT
  va_end(args);
  fprintf(stderr, "%s\n", text);
  g_free(text);
}

// The input as a stream of choices; past its end every choice is 0 (the first).
// Each choice is its own statement: the order in which a function's arguments are
// evaluated differs between compilers, and the corpus must mean the same to all.
class Choices {
public:
  Choices(const uint8_t *data, size_t size) : data_(data), size_(size) {}
  bool done() const { return pos_ >= size_; }
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint32_t u32() {
    uint32_t value = 0;
    for (int i = 0; i < 4; i++)
      value = value << 8 | byte();
    return value;
  }
  uint64_t u64() {
    const uint64_t high = u32();
    return high << 32 | u32();
  }
  // One of 0 .. n-1 (n > 0).
  uint32_t below(uint32_t n) { return n > 256 ? u32() % n : byte() % n; }
  bool flag() { return byte() & 1; }

private:
  const uint8_t *data_;
  size_t size_;
  size_t pos_ = 0;
};

// Aborts when a step outlives its deadline, naming the step.
class Watchdog {
public:
  static Watchdog &instance() {
    static Watchdog *watchdog = new Watchdog();  // runs until the process ends
    return *watchdog;
  }
  void arm(const char *step) {
    std::lock_guard<std::mutex> lock(mutex_);
    step_ = step;
    deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(kHangSeconds);
    armed_ = true;
    wake_.notify_one();
  }
  void disarm() {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = false;
  }

private:
  Watchdog() { std::thread([this] { watch(); }).detach(); }
  void watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (!armed_) {
        wake_.wait(lock);
      } else if (wake_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ &&
                 std::chrono::steady_clock::now() >= deadline_) {
        fprintf(stderr, "FUZZ FAILURE: hang: '%s' did not finish within %d s\n", step_,
                kHangSeconds);
        fflush(stderr);
        abort();
      }
    }
  }
  std::mutex mutex_;
  std::condition_variable wake_;
  bool armed_ = false;
  const char *step_ = "";
  std::chrono::steady_clock::time_point deadline_;
};

// GLib's log: criticals are failures; warnings (values refused by GLib or by an
// element, as they must be) are only shown with CF_FUZZ_VERBOSE set.
void on_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer) {
  if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL))
    fail(domain ? domain : "g_critical", message);
  if (verbose())
    g_log_default_handler(domain, level, message, nullptr);
}

// Formats of the elements' caps (all three take the same).
std::vector<std::string> template_formats() {
  GstElement *element = gst_element_factory_make(kElements[0], nullptr);
  GstCaps *caps = gst_pad_template_get_caps(
      gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(element), "sink"));
  const GValue *list = gst_structure_get_value(gst_caps_get_structure(caps, 0), "format");
  std::vector<std::string> formats;
  for (guint i = 0; i < gst_value_list_get_size(list); i++)
    formats.emplace_back(g_value_get_string(gst_value_list_get_value(list, i)));
  gst_caps_unref(caps);
  gst_object_unref(element);
  return formats;
}

const std::vector<std::string> &formats() {
  static const std::vector<std::string> all = template_formats();
  return all;
}

void init_once() {
  static const bool initialized = [] {
    // Only what this file creates and registers: no plugins loaded, no registry file.
    g_setenv("GST_REGISTRY_DISABLE", "yes", TRUE);
    g_log_set_default_handler(on_log, nullptr);
    g_log_set_always_fatal(static_cast<GLogLevelFlags>(G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL));
    gst_init(nullptr, nullptr);
    if (!GST_ELEMENT_REGISTER(cudamedian, nullptr) || !GST_ELEMENT_REGISTER(cudagauss, nullptr) ||
        !GST_ELEMENT_REGISTER(cudahist, nullptr))
      fail("could not register the elements");
    if (formats().empty())
      fail("no formats in the elements' caps");
    return true;
  }();
  (void)initialized;
}

// Properties the program may set: every writable one but GstObject's and
// `backend` (the run stays on the CPU).
const std::vector<GParamSpec *> &settable_properties(GstElement *element) {
  static std::map<GType, std::vector<GParamSpec *>> by_type;
  std::vector<GParamSpec *> &specs = by_type[G_OBJECT_TYPE(element)];
  if (specs.empty()) {
    guint n = 0;
    GParamSpec **all = g_object_class_list_properties(G_OBJECT_GET_CLASS(element), &n);
    for (guint i = 0; i < n; i++)
      if ((all[i]->flags & G_PARAM_WRITABLE) && !(all[i]->flags & G_PARAM_CONSTRUCT_ONLY) &&
          all[i]->owner_type != GST_TYPE_OBJECT && strcmp(all[i]->name, "backend") != 0)
        specs.push_back(all[i]);
    g_free(all);
  }
  return specs;
}

// A number for a property of range [min, max]: the bounds, the default, just
// outside the bounds, anywhere inside, any value of the type, or a small one.
template <typename T> T choose_number(Choices &in, T min, T max, T fallback) {
  using Limits = std::numeric_limits<T>;
  switch (in.below(7)) {
  case 0:
    return min;
  case 1:
    return max;
  case 2:
    return fallback;
  case 3:
    return min > Limits::lowest() ? T(min - 1) : min;
  case 4:
    return max < Limits::max() ? T(max + 1) : max;
  case 5:
    if constexpr (Limits::is_integer) {
      const uint64_t span = uint64_t(max) - uint64_t(min);
      const uint64_t r = in.u64();
      return T(uint64_t(min) + (span == UINT64_MAX ? r : r % (span + 1)));
    } else {
      return T(min + (max - min) * (in.u32() / 4294967295.0));
    }
  default:
    if constexpr (Limits::is_integer) {
      return T(in.u64());
    } else {
      const uint64_t bits = in.u64();  // NaN and infinities too
      double any;
      memcpy(&any, &bits, sizeof any);
      return T(any);
    }
  }
}

// A value of the property's own type; false for types no property here has.
bool choose_value(Choices &in, GParamSpec *pspec, GValue *value) {
  g_value_init(value, pspec->value_type);
  if (G_IS_PARAM_SPEC_INT(pspec)) {
    auto *spec = G_PARAM_SPEC_INT(pspec);
    g_value_set_int(value, choose_number(in, spec->minimum, spec->maximum, spec->default_value));
  } else if (G_IS_PARAM_SPEC_UINT(pspec)) {
    auto *spec = G_PARAM_SPEC_UINT(pspec);
    g_value_set_uint(value, choose_number(in, spec->minimum, spec->maximum, spec->default_value));
  } else if (G_IS_PARAM_SPEC_INT64(pspec)) {
    auto *spec = G_PARAM_SPEC_INT64(pspec);
    g_value_set_int64(value, choose_number(in, spec->minimum, spec->maximum, spec->default_value));
  } else if (G_IS_PARAM_SPEC_UINT64(pspec)) {
    auto *spec = G_PARAM_SPEC_UINT64(pspec);
    g_value_set_uint64(value,
                       choose_number(in, spec->minimum, spec->maximum, spec->default_value));
  } else if (G_IS_PARAM_SPEC_DOUBLE(pspec)) {
    auto *spec = G_PARAM_SPEC_DOUBLE(pspec);
    g_value_set_double(value,
                       choose_number(in, spec->minimum, spec->maximum, spec->default_value));
  } else if (G_IS_PARAM_SPEC_FLOAT(pspec)) {
    auto *spec = G_PARAM_SPEC_FLOAT(pspec);
    g_value_set_float(value, choose_number(in, spec->minimum, spec->maximum, spec->default_value));
  } else if (G_IS_PARAM_SPEC_BOOLEAN(pspec)) {
    g_value_set_boolean(value, in.flag());
  } else if (G_IS_PARAM_SPEC_STRING(pspec)) {
    // region-types: lists of the types the frames' regions carry, spaces and
    // empty names among them, and bytes of any value.
    static const char *const kLists[] = {"", "face", "face,plate", " plate , ,car,",
                                         ",,,"};
    const guint pick = in.below(G_N_ELEMENTS(kLists) + 1);
    if (pick < G_N_ELEMENTS(kLists)) {
      g_value_set_string(value, kLists[pick]);
    } else {
      std::string bytes;
      for (int n = in.below(12); n > 0; n--)
        bytes += char(1 + in.below(255));
      g_value_set_string(value, bytes.c_str());
    }
  } else if (G_IS_PARAM_SPEC_ENUM(pspec)) {
    GEnumClass *enums = G_PARAM_SPEC_ENUM(pspec)->enum_class;
    const guint pick = in.below(enums->n_values + 1);  // one past: not a value
    g_value_set_enum(value, pick < enums->n_values ? enums->values[pick].value
                                                   : enums->maximum + 1 + in.byte());
  } else {
    g_value_unset(value);
    return false;
  }
  return true;
}

GstCaps *choose_caps(Choices &in) {
  const std::string &format = formats()[in.below(formats().size())];
  // Mostly very small frames, so that each input runs fast.
  const int width = 1 + (in.flag() ? in.below(16) : in.below(kMaxSide));
  const int height = 1 + (in.flag() ? in.below(16) : in.below(kMaxSide));
  const int fps_n = in.below(61);
  const int fps_d = 1 + in.below(4);
  GstCaps *caps = gst_caps_new_simple("video/x-raw", "format", G_TYPE_STRING, format.c_str(),
                                      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
                                      "framerate", GST_TYPE_FRACTION, fps_n, fps_d, nullptr);
  static const char *const kInterlaceModes[] = {"interleaved", "mixed", "alternate"};
  const guint mode = in.below(8);
  if (mode < G_N_ELEMENTS(kInterlaceModes)) {
    gst_caps_set_simple(caps, "interlace-mode", G_TYPE_STRING, kInterlaceModes[mode], nullptr);
    if (mode == 2 && in.flag())
      gst_caps_set_features(caps, 0,
                            gst_caps_features_new(GST_CAPS_FEATURE_FORMAT_INTERLACED, nullptr));
  }
  return caps;
}

// `size` bytes from `seed`, allocated to the byte so that AddressSanitizer sees any
// access past their end.
guint8 *random_bytes(gsize size, uint32_t seed) {
  auto *bytes = static_cast<guint8 *>(g_malloc(std::max<gsize>(size, 1)));
  uint32_t state = seed | 1;
  for (gsize i = 0; i < size; i++) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    bytes[i] = static_cast<guint8>(state);
  }
  return bytes;
}

GstMemory *wrap(guint8 *bytes, gsize size, bool read_only) {
  return gst_memory_new_wrapped(read_only ? GST_MEMORY_FLAG_READONLY : GstMemoryFlags(0), bytes,
                                size, 0, size, bytes, g_free);
}

// Plane offsets and strides of a frame laid out its own way.
struct Layout {
  gsize offsets[GST_VIDEO_MAX_PLANES] = {};
  gint strides[GST_VIDEO_MAX_PLANES] = {};
  gsize size = 0;
};

Layout choose_layout(Choices &in, const GstVideoInfo &info) {
  Layout layout;
  gsize end = in.below(64);
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); p++) {
    const gint row_bytes = gint(cf_plane_row_bytes(&info, p));
    const gint rows = cf_plane_rows(&info, p);
    gint stride = GST_VIDEO_INFO_PLANE_STRIDE(&info, p);
    switch (in.below(6)) {
    case 0:
      break;  // as GstVideoInfo lays it out
    case 1:
      stride = row_bytes + gint(in.below(128));  // padded, maybe odd
      break;
    case 2:
      stride = row_bytes;  // tight
      break;
    case 3:
      stride = gint(in.below(row_bytes));  // rows overlap
      break;
    case 4:
      stride = -(row_bytes + gint(in.below(64)));  // bottom-up
      break;
    default:
      stride = gint(in.below(4 * row_bytes + 129)) - 2 * row_bytes - 64;  // anything
      break;
    }
    const gsize span = gsize(std::abs(stride)) * gsize(std::max(rows - 1, 0)) + gsize(row_bytes);
    layout.offsets[p] = stride < 0 ? end + span - gsize(row_bytes) : end;
    layout.strides[p] = stride;
    end += span + in.below(32);
  }
  layout.size = end;
  if (in.below(4) == 0)  // the meta promises more than the buffer holds
    layout.size -= std::min<gsize>(layout.size, 1 + in.below(64));
  return layout;
}

// Regions of interest as a detector might attach them: none, a few, or more than a
// frame takes (kMaxFrameRegions), with boxes in, across and far outside frames of
// any size this fuzzer makes, empty ones, of the types region-types names and others.
void add_regions(Choices &in, GstBuffer *buffer) {
  static const char *const kTypes[] = {"face", "plate", "car"};
  const int count = in.below(8) == 0 ? in.below(600) : in.below(6);
  for (int i = 0; i < count; i++) {
    const bool anywhere = in.below(8) == 0;
    const guint x = anywhere ? in.u32() : in.below(kMaxSide + 8);
    const guint y = anywhere ? in.u32() : in.below(kMaxSide + 8);
    const guint width = anywhere ? in.u32() : in.below(kMaxSide + 8);
    const guint height = anywhere ? in.u32() : in.below(kMaxSide + 8);
    gst_buffer_add_video_region_of_interest_meta(buffer, kTypes[in.below(3)], x, y, width,
                                                 height);
  }
}

// A frame for `info` (nullptr: no caps yet) in one of several shapes.
GstBuffer *make_frame(Choices &in, const GstVideoInfo *info) {
  const gsize frame_size = info ? GST_VIDEO_INFO_SIZE(info) : 1 + in.below(4096);
  const uint32_t seed = in.u32();
  enum Shape { kWrapped, kAllocated, kTooSmall, kVideoMeta, kSeveralMemories, kReadOnly };
  const int shape = in.below(kReadOnly + 1);
  const bool with_meta = info && (shape == kVideoMeta || (shape == kSeveralMemories && in.flag()));
  Layout layout;
  gsize size = frame_size;
  if (with_meta) {
    layout = choose_layout(in, *info);
    size = layout.size;
  } else if (shape == kTooSmall) {
    size = in.below(uint32_t(frame_size));
  }

  GstBuffer *buffer = gst_buffer_new();
  guint8 *bytes = random_bytes(size, seed);
  if (shape == kAllocated) {
    GstAllocationParams params;
    gst_allocation_params_init(&params);
    params.align = (gsize(1) << in.below(7)) - 1;
    params.prefix = in.below(16);
    params.padding = in.below(16);
    GstMemory *memory = gst_allocator_alloc(nullptr, size, &params);
    gst_buffer_append_memory(buffer, memory);
    gst_buffer_fill(buffer, 0, bytes, size);
    g_free(bytes);
  } else if (shape == kSeveralMemories && size > 1) {
    // Two or three memories, cut anywhere (mid-row, mid-plane).
    gsize cuts[] = {1 + in.below(uint32_t(size - 1)), 1 + in.below(uint32_t(size - 1)), size};
    const int pieces = in.flag() ? 3 : 2;
    if (pieces == 2)
      cuts[1] = size;
    std::sort(cuts, cuts + 2);
    gsize begin = 0;
    for (int i = 0; i < pieces; i++) {
      const gsize end = i == pieces - 1 ? size : cuts[i];
      if (end > begin)
        gst_buffer_append_memory(
            buffer, wrap(static_cast<guint8 *>(g_memdup2(bytes + begin, end - begin)),
                         end - begin, false));
      begin = end;
    }
    g_free(bytes);
  } else if (size > 0) {
    gst_buffer_append_memory(buffer, wrap(bytes, size, shape == kReadOnly));
  } else {
    g_free(bytes);
  }

  if (with_meta) {
    GstVideoFormat format = GST_VIDEO_INFO_FORMAT(info);
    guint width = GST_VIDEO_INFO_WIDTH(info), height = GST_VIDEO_INFO_HEIGHT(info);
    switch (in.below(16)) {  // now and then a meta that does not match the caps
    case 0:
      width = width - 1 + in.below(3);
      break;
    case 1:
      height = height - 1 + in.below(3);
      break;
    case 2:
      format = gst_video_format_from_string(formats()[in.below(formats().size())].c_str());
      break;
    default:
      break;
    }
    gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, format, width, height,
                                   GST_VIDEO_INFO_N_PLANES(info), layout.offsets,
                                   layout.strides);
  }
  add_regions(in, buffer);
  return buffer;
}

// The smallest mask (2^n - 1) of at least `value`.
guint mask_at_least(guint value) {
  guint mask = 0;
  while (mask < value)
    mask = mask << 1 | 1;
  return mask;
}

// How appsink answers the ALLOCATION query, for every caps: as appsink does, with
// nothing, or with a pool of buffers that may not hold the frame: a
// GstVideoBufferPool of any padding and stride alignment, with or without the video
// meta and alignment options, a plain GstBufferPool, or a size without a pool;
// buffers of any size (often too small), any minimum and maximum (even a maximum
// below the minimum), and an allocator's alignment, prefix and padding.
struct AllocationAnswer {
  enum Kind { kAppsink, kNothing, kVideoPool, kPlainPool, kNoPool, kKinds };
  int kind = kAppsink;
  GstVideoAlignment align;
  bool video_meta = false;
  bool alignment = false;
  int size_mode = 0;
  guint size_bytes = 0;
  guint min = 0;
  guint max = 0;
  GstAllocationParams params;

  // The buffer size it answers for frames of `frame_size` bytes.
  guint size(gsize frame_size) const {
    switch (size_mode) {
    case 0:
      return guint(frame_size);
    case 1:
      return guint(frame_size - std::min<gsize>(frame_size, size_bytes));  // short
    case 2:
      return guint(frame_size + size_bytes);
    default:
      return guint(frame_size * (size_bytes % 8) / 8);
    }
  }
};

AllocationAnswer choose_allocation(Choices &in) {
  AllocationAnswer answer;
  gst_video_alignment_reset(&answer.align);
  gst_allocation_params_init(&answer.params);
  answer.kind = int(in.below(AllocationAnswer::kKinds));
  if (answer.kind == AllocationAnswer::kAppsink || answer.kind == AllocationAnswer::kNothing)
    return answer;
  answer.align.padding_top = in.below(40);
  answer.align.padding_bottom = in.below(40);
  answer.align.padding_left = in.below(40);
  answer.align.padding_right = in.below(40);
  // Masks of up to 1024 bytes, or any byte's bits (GstVideoBufferPool ORs the planes').
  // A mask (2^n - 1), as GstVideoBufferPool takes it: another value makes the pool's
  // own allocation assert, a lie of downstream's rather than the element's mistake.
  const guint stride_align = in.flag() ? (1u << in.below(11)) - 1 : mask_at_least(in.byte());
  for (guint &plane_align : answer.align.stride_align)
    plane_align = stride_align;
  answer.video_meta = in.flag();
  answer.alignment = in.flag();
  answer.size_mode = int(in.below(4));
  answer.size_bytes = in.below(4096);
  // appsink keeps up to two buffers (its preroll buffer and its last sample): an
  // answer that did not count them could starve the elements where they are right.
  answer.min = 2 + in.below(4);
  answer.max = in.flag() ? 0 : in.below(12);
  answer.params.align = (gsize(1) << in.below(8)) - 1;
  answer.params.prefix = in.below(64);
  answer.params.padding = in.below(64);
  return answer;
}

// Answers appsink's ALLOCATION queries as `data`, an AllocationAnswer, says.
GstPadProbeReturn answer_allocation(GstPad *, GstPadProbeInfo *info, gpointer data) {
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
  const auto &answer = *static_cast<const AllocationAnswer *>(data);
  if (GST_QUERY_TYPE(query) != GST_QUERY_ALLOCATION || answer.kind == AllocationAnswer::kAppsink)
    return GST_PAD_PROBE_OK;
  GstCaps *caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  GstVideoInfo video;
  if (answer.kind == AllocationAnswer::kNothing || !caps ||
      !gst_video_info_from_caps(&video, caps))
    return GST_PAD_PROBE_HANDLED;
  const guint size = answer.size(GST_VIDEO_INFO_SIZE(&video));
  trace("ALLOCATION answered: kind %d, %u bytes, %u to %u buffers", answer.kind, size, answer.min,
        answer.max);
  gst_query_add_allocation_param(query, nullptr, &answer.params);
  gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  GstBufferPool *pool = nullptr;
  if (answer.kind != AllocationAnswer::kNoPool) {
    pool = answer.kind == AllocationAnswer::kVideoPool ? gst_video_buffer_pool_new()
                                                       : gst_buffer_pool_new();
    GstStructure *config = gst_buffer_pool_get_config(pool);
    // A maximum below the minimum goes into the query only: GStreamer refuses it
    // with a critical.
    const bool valid = answer.max == 0 || answer.max >= answer.min;
    gst_buffer_pool_config_set_params(config, caps, size, valid ? answer.min : 0,
                                      valid ? answer.max : 0);
    if (answer.video_meta)
      gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (answer.alignment) {
      gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
      gst_buffer_pool_config_set_video_alignment(config, &answer.align);
    }
    if (!gst_buffer_pool_set_config(pool, config))
      trace("  (the pool refused its configuration)");
  }
  gst_query_add_allocation_pool(query, pool, size, answer.min, answer.max);
  if (pool)
    gst_object_unref(pool);
  return GST_PAD_PROBE_HANDLED;
}

// Every plane of a mapped frame inside the memory mapped for it.
bool planes_inside_memory(const GstVideoFrame &frame) {
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&frame); p++) {
    const auto *memory_begin = frame.meta ? frame.map[p].data : frame.map[0].data;
    const gsize memory_size = frame.meta ? frame.map[p].size : frame.map[0].size;
    const auto *first_row = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
    const gint rows = cf_plane_rows(&frame.info, p);
    const guint8 *last_row = first_row + ptrdiff_t(stride) * (rows - 1);
    const guint8 *lowest = std::min(first_row, last_row);
    const guint8 *highest = std::max(first_row, last_row) + cf_plane_row_bytes(&frame.info, p);
    if (lowest < memory_begin || highest > memory_begin + memory_size)
      return false;
  }
  return true;
}

struct Run {
  AllocationAnswer allocation;
  GstElement *pipeline = nullptr;
  GstElement *src = nullptr;
  GstElement *sink = nullptr;
  std::vector<GstElement *> filters;
  GstVideoInfo info;
  bool have_info = false;  // whether `info` describes the caps last set
  int pushed = 0;          // frames appsrc took
  std::atomic<int> received{0};
  bool may_lose = false;   // frames may go without an error (flush, READY, renegotiation)
  bool saw_error = false;
};

GstFlowReturn on_new_sample(GstAppSink *sink, gpointer user_data) {
  GstSample *sample = gst_app_sink_pull_sample(sink);
  if (!sample)
    return GST_FLOW_FLUSHING;
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, gst_sample_get_caps(sample)))
    fail("a frame downstream with caps that describe no frame");
  GstVideoFrame frame;
  if (!gst_video_frame_map(&frame, &info, gst_sample_get_buffer(sample), GST_MAP_READ))
    fail("a frame downstream that does not map with its caps");
  if (!planes_inside_memory(frame))
    fail("a frame downstream whose planes reach outside its memory");
  gst_video_frame_unmap(&frame);
  gst_sample_unref(sample);
  static_cast<Run *>(user_data)->received++;
  return GST_FLOW_OK;
}

void build(Run &run, Choices &in) {
  run.pipeline = gst_pipeline_new(nullptr);
  run.src = GST_ELEMENT(g_object_new(GST_TYPE_APP_SRC, nullptr));
  run.sink = GST_ELEMENT(g_object_new(GST_TYPE_APP_SINK, nullptr));
  const gboolean live = in.flag();
  trace("appsrc is-live=%d", live);
  g_object_set(run.src, "format", GST_FORMAT_TIME, "is-live", live, nullptr);
  g_object_set(run.sink, "sync", FALSE, nullptr);
  GstAppSinkCallbacks callbacks = {};
  callbacks.new_sample = on_new_sample;
  gst_app_sink_set_callbacks(GST_APP_SINK(run.sink), &callbacks, &run, nullptr);

  gst_bin_add(GST_BIN(run.pipeline), run.src);
  GstElement *previous = run.src;
  for (int n = 1 + in.below(3); n > 0; n--) {
    GstElement *filter = gst_element_factory_make(kElements[in.below(3)], nullptr);
    trace("element %s", GST_ELEMENT_NAME(filter));
    gst_util_set_object_arg(G_OBJECT(filter), "backend", "cpu");
    if (in.flag() && g_object_class_find_property(G_OBJECT_GET_CLASS(filter), "regions"))
      gst_util_set_object_arg(G_OBJECT(filter), "regions", "meta");
    gst_bin_add(GST_BIN(run.pipeline), filter);
    if (!gst_element_link(previous, filter))
      fail("could not link the pipeline");
    run.filters.push_back(filter);
    previous = filter;
  }
  gst_bin_add(GST_BIN(run.pipeline), run.sink);
  if (!gst_element_link(previous, run.sink))
    fail("could not link the pipeline");
  GstPad *pad = gst_element_get_static_pad(run.sink, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, answer_allocation, &run.allocation,
                    nullptr);
  gst_object_unref(pad);
}

void set_caps(Run &run, Choices &in) {
  GstCaps *caps = choose_caps(in);
  run.have_info = gst_video_info_from_caps(&run.info, caps);
  trace("caps %" GST_PTR_FORMAT, caps);
  gst_app_src_set_caps(GST_APP_SRC(run.src), caps);
  gst_caps_unref(caps);
}

void push_frame(Run &run, Choices &in) {
  GstBuffer *buffer = make_frame(in, run.have_info ? &run.info : nullptr);
  switch (in.below(3)) {
  case 0:
    break;  // no timestamps
  case 1:
    GST_BUFFER_PTS(buffer) = run.pushed * (GST_SECOND / 30);
    GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    break;
  default:
    GST_BUFFER_PTS(buffer) = in.u64();
    GST_BUFFER_DURATION(buffer) = in.u32();
    // A frame that ends past the clock's last time has an end before its start
    // once added up: GstBaseSink clips it away, without an error.
    if (GST_BUFFER_PTS_IS_VALID(buffer) &&
        GST_BUFFER_PTS(buffer) >= GST_CLOCK_TIME_NONE - GST_BUFFER_DURATION(buffer)) {
      trace("  a frame that ends past the clock's last time: a sink may drop it");
      run.may_lose = true;
    }
    break;
  }
  trace("push %" GST_PTR_FORMAT, buffer);
  const GstFlowReturn ret = gst_app_src_push_buffer(GST_APP_SRC(run.src), buffer);
  if (ret == GST_FLOW_OK)
    run.pushed++;
  else
    trace("  -> %s", gst_flow_get_name(ret));
}

void set_property(Run &run, Choices &in) {
  GstElement *filter = run.filters[in.below(run.filters.size())];
  const std::vector<GParamSpec *> &specs = settable_properties(filter);
  GParamSpec *pspec = specs[in.below(specs.size())];
  GValue value = G_VALUE_INIT;
  if (!choose_value(in, pspec, &value))
    return;
  gchar *shown = g_strdup_value_contents(&value);
  trace("%s %s=%s", GST_ELEMENT_NAME(filter), pspec->name, shown);
  g_free(shown);
  // A value outside the property's range never reaches the element: GObject
  // refuses it, with a warning up to GLib 2.74 and a critical in later releases.
  GValue validated = G_VALUE_INIT;
  g_value_init(&validated, pspec->value_type);
  g_value_copy(&value, &validated);
  if (g_param_value_validate(pspec, &validated))
    trace("  -> outside its range: refused by GObject");
  else
    g_object_set_property(G_OBJECT(filter), pspec->name, &value);
  g_value_unset(&validated);
  g_value_unset(&value);
}

void flush(Run &run, Choices &in) {
  trace("flush");
  // Under the pipeline's state lock, as an event sent to the pipeline would be:
  // sent to appsrc alone, the flush takes appsrc's state lock, then (recomputing
  // the latency) the pipeline's, while the pipeline's async state change takes
  // them the other way round: a deadlock in GStreamer, not in the elements.
  GST_STATE_LOCK(run.pipeline);
  gst_element_send_event(run.src, gst_event_new_flush_start());
  gst_element_send_event(run.src, gst_event_new_flush_stop(in.flag()));
  GST_STATE_UNLOCK(run.pipeline);
  run.may_lose = true;
}

// New caps downstream (or none), then a RECONFIGURE upstream.
void renegotiate(Run &run, Choices &in) {
  GstCaps *caps = in.flag() ? choose_caps(in) : nullptr;
  trace("renegotiate to %" GST_PTR_FORMAT, caps);
  gst_app_sink_set_caps(GST_APP_SINK(run.sink), caps);
  if (caps)
    gst_caps_unref(caps);
  // Where negotiation fails, GstBaseSrc drops the frame it was pushing and
  // retries, and with EOS next posts no error.
  run.may_lose = true;
  GstPad *pad = gst_element_get_static_pad(run.sink, "sink");
  gst_pad_push_event(pad, gst_event_new_reconfigure());
  gst_object_unref(pad);
}

void change_state(Run &run, Choices &in) {
  static const GstState kStates[] = {GST_STATE_NULL, GST_STATE_READY, GST_STATE_PAUSED,
                                     GST_STATE_PLAYING};
  const GstState state = kStates[in.below(G_N_ELEMENTS(kStates))];
  // GstBin can lose a change to PAUSED or PLAYING asked for while it completes an
  // asynchronous one (it aborts its continuation, and nothing commits the new
  // state): a hang in GStreamer, not in the elements. Down to READY is safe.
  if (state >= GST_STATE_PAUSED &&
      gst_element_get_state(run.pipeline, nullptr, nullptr, 0) == GST_STATE_CHANGE_ASYNC) {
    trace("state %s skipped: a change is under way", gst_element_state_get_name(state));
    return;
  }
  if (state <= GST_STATE_READY)
    run.may_lose = true;  // frames in flight are dropped at stop
  trace("state %s", gst_element_state_get_name(state));
  gst_element_set_state(run.pipeline, state);
}

void query_latency(Run &run) {
  GstQuery *query = gst_query_new_latency();
  gst_element_query(run.pipeline, query);
  gst_query_unref(query);
}

void note_message(Run &run, GstMessage *message) {
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    run.saw_error = true;
    if (verbose()) {
      GError *error = nullptr;
      gst_message_parse_error(message, &error, nullptr);
      fprintf(stderr, "error from %s: %s\n", GST_MESSAGE_SRC_NAME(message), error->message);
      g_error_free(error);
    }
  }
  gst_message_unref(message);
}

// PLAYING, EOS, and every frame out (or an error); then NULL.
void finish(Run &run) {
  Watchdog &watchdog = Watchdog::instance();
  watchdog.arm("PLAYING and EOS at the end");
  gst_element_set_state(run.pipeline, GST_STATE_PLAYING);
  gst_app_src_end_of_stream(GST_APP_SRC(run.src));
  GstBus *bus = gst_element_get_bus(run.pipeline);
  GstMessage *last = gst_bus_timed_pop_filtered(
      bus, (kHangSeconds - 2) * GST_SECOND,
      static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  if (!last)
    fail("hang: neither EOS nor an error after the end of the stream");
  note_message(run, last);
  watchdog.arm("setting the pipeline to NULL");
  if (gst_element_set_state(run.pipeline, GST_STATE_NULL) != GST_STATE_CHANGE_SUCCESS)
    fail("the pipeline did not go to NULL");
  while (GstMessage *message = gst_bus_pop(bus))
    note_message(run, message);
  gst_object_unref(bus);
  watchdog.disarm();
  trace("end: %d pushed, %d out%s%s", run.pushed, run.received.load(),
        run.saw_error ? ", error" : "", run.may_lose ? ", frames may be dropped" : "");

  if (!run.saw_error && !run.may_lose && run.received != run.pushed) {
    char counts[64];
    snprintf(counts, sizeof counts, "%d pushed, %d out", run.pushed, run.received.load());
    fail("frames lost without an error", counts);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  init_once();
  Choices in(data, size);
  Watchdog &watchdog = Watchdog::instance();
  Run run;
  // First: a 0 here (appsink's own answer) runs an input of before as it ran then.
  run.allocation = choose_allocation(in);
  watchdog.arm("building the pipeline");
  build(run, in);
  set_caps(run, in);
  watchdog.arm("setting the pipeline to PLAYING");
  gst_element_set_state(run.pipeline, GST_STATE_PLAYING);

  int frames = 0;
  for (int action = 0; action < kMaxActions && !in.done(); action++) {
    const uint8_t op = in.byte() % 16;
    if (op < 6) {
      if (frames++ >= kMaxFrames)
        continue;
      watchdog.arm("pushing a frame");
      push_frame(run, in);
    } else if (op < 8) {
      watchdog.arm("setting caps");
      set_caps(run, in);
    } else if (op < 11) {
      watchdog.arm("setting a property");
      set_property(run, in);
    } else if (op == 11) {
      watchdog.arm("flushing");
      flush(run, in);
    } else if (op == 12) {
      watchdog.arm("EOS");
      trace("EOS");
      gst_app_src_end_of_stream(GST_APP_SRC(run.src));
    } else if (op == 13) {
      watchdog.arm("renegotiating");
      renegotiate(run, in);
    } else if (op == 14) {
      watchdog.arm("changing state");
      change_state(run, in);
    } else {
      watchdog.arm("querying the latency");
      trace("latency query");
      query_latency(run);
    }
  }
  finish(run);
  gst_object_unref(run.pipeline);
  return 0;
}
