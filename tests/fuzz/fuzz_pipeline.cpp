// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Fuzz target: the input bytes are a small program run on
//   appsrc ! ELEMENT [! ELEMENT [! ELEMENT]] ! appsink
// with elements among the plugin's (tests/plugin_elements.txt) on the CPU backend,
// mostly while PLAYING: new caps, frames of many sizes and layouts (padded, tight,
// overlapping and bottom-up strides in a GstVideoMeta, too few bytes, several
// memories, read-only foreign memory), every property set to values in and out of
// range (one at a time, or several in a row between frames), flushes, EOS,
// renegotiation, state changes, latency queries, and bursts of frames alike (up to
// kMaxFrames an input). Frames carry what detectors attach: regions of interest
// (GstVideoRegionOfInterestMeta) of any type quark (0, names region-types does and
// does not name, odd strings, numbers no quark has), any id, boxes in, across and
// far outside the frame or with numbers that read negative, and params (a
// "detection" with "confidence" and "label-id" of any type, other structures), one
// by one or by the hundred; and, where built with gstreamer-analytics-1.0
// (CF_HAVE_GST_ANALYTICS, GStreamer 1.24+), an analytics relation meta of object
// detections (any label, any gint box, any confidence), classifications and
// tracking entries, related to each other or to ids no entry has; from 1.26
// (CF_HAVE_GST_ANALYTICS_SHAPES) oriented detections (any angle) and segmentation
// masks (GRAY8 or GRAY16 of any size and values, padded, short of bytes, any region
// ids, any location). Downstream's
// answer to the ALLOCATION query (pools of buffers that may not hold the frame, of
// too few buffers, with and without the video meta) is the input's first choice.
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

#ifdef CF_HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif

#include "formatlayout.h"
#include "plugin_elements.h"

// The plugin's objects are linked in: its elements are registered as a static plugin.
G_BEGIN_DECLS
GST_PLUGIN_STATIC_DECLARE(cudafilters);
G_END_DECLS

namespace {

constexpr int kMaxActions = 64;
// Frames an input pushes at most (kFramesBeforeTypeWarning, 30, and more fit).
constexpr int kMaxFrames = 64;
constexpr int kMaxSide = 97;
// Tiny frames take milliseconds: a step this slow is a hang.
constexpr int kHangSeconds = 20;

// Every element of the plugin; an input picks them by their index here.
const auto &kElements = cftest::kPluginElements;

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
// A choice added to the program reads so that 0 does what the program did before
// (the types, ids and params of regions, analytics, storms and bursts were added so;
// the kept corpus was rewritten then to mean what it meant: tests/fuzz/README.md).
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
  // Where the stream stands, and back there: a burst reads one frame's choices
  // again for each of its frames.
  size_t position() const { return pos_; }
  void rewind(size_t position) { pos_ = std::min(position, size_); }

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

// Formats of the elements' caps in system memory (each takes the same), in
// the order of their caps: the frames here are in system memory, and some formats
// (GRAY8, GRAY16_LE, xRGB, xBGR) are taken there only.
std::vector<std::string> template_formats() {
  GstElement *element = gst_element_factory_make(kElements[0], nullptr);
  GstCaps *caps = gst_pad_template_get_caps(
      gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(element), "sink"));
  std::vector<std::string> formats;
  for (guint s = 0; s < gst_caps_get_size(caps); s++) {
    GstCapsFeatures *features = gst_caps_get_features(caps, s);
    if (features &&
        !gst_caps_features_is_equal(features, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      continue;
    const GValue *list = gst_structure_get_value(gst_caps_get_structure(caps, s), "format");
    for (guint i = 0; i < gst_value_list_get_size(list); i++) {
      const std::string format = g_value_get_string(gst_value_list_get_value(list, i));
      if (std::find(formats.begin(), formats.end(), format) == formats.end())
        formats.push_back(format);
    }
  }
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
    GST_PLUGIN_STATIC_REGISTER(cudafilters);
    for (const char *name : kElements)
      if (GstElementFactory *factory = gst_element_factory_find(name))
        gst_object_unref(factory);
      else
        fail("an element of tests/plugin_elements.txt the plugin does not register", name);
    if (formats().empty())
      fail("no formats in the elements' caps");
    return true;
  }();
  (void)initialized;
}

// Properties the program may set: every writable one but GstObject's and
// `backend` (the run stays on the CPU), by name (an input names the same property
// whatever order the element installs them in).
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
    std::sort(specs.begin(), specs.end(),
              [](GParamSpec *a, GParamSpec *b) { return strcmp(a->name, b->name) < 0; });
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
    // empty names among them, names no region has, the name a region without a
    // type is shown as, the same name again and again, a long list, and bytes of
    // any value.
    static const std::string kLong = [] {
      std::string list;
      for (int i = 0; i < 64; i++)
        list += "type" + std::to_string(i) + ",";
      return list + "face";
    }();
    static const char *const kLists[] = {
        "",     "face",   "face,plate",  " plate , ,car,", ",,,",           "person",
        "(none)", "face,(none)", "FACE", "face,face,face", "car,person,plate", "%s%n",
        kLong.c_str()};
    const guint pick = in.below(G_N_ELEMENTS(kLists) + 1);
    if (pick < G_N_ELEMENTS(kLists)) {
      g_value_set_string(value, kLists[pick]);
    } else {
      std::string bytes;
      for (int n = in.below(12); n > 0; n--)
        bytes += char(1 + in.below(255));
      g_value_set_string(value, bytes.c_str());
    }
  } else if (GST_IS_PARAM_SPEC_ARRAY_LIST(pspec)) {
    // zones: arrays of up to 70 arrays of numbers, mostly of four (a box), any of
    // them out of the frame or negative, now and then of another length or empty.
    for (int n = in.below(71); n > 0; n--) {
      GValue box = G_VALUE_INIT;
      gst_value_array_init(&box, 4);
      for (int k = in.flag() ? 4 : in.below(6); k > 0; k--) {
        GValue number = G_VALUE_INIT;
        g_value_init(&number, G_TYPE_INT);
        g_value_set_int(&number, choose_number(in, -16, 128, 8));
        gst_value_array_append_and_take_value(&box, &number);
      }
      gst_value_array_append_and_take_value(value, &box);
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
    const gint row_bytes = gint(cf::plane_row_bytes(&info, p));
    const gint rows = cf::plane_rows(&info, p);
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

// A region's type: the types region-types names (by name, as most detectors
// attach them), none (quark 0: legal for the meta, and g_quark_to_string gives
// NULL for it), names no list names or names differing in case or spaces, odd
// strings (a comma in a name, format directives, bytes that are not UTF-8, a long
// one), any bytes, or any number (most of them no quark: no name either).
GQuark choose_type(Choices &in) {
  static const char *const kTypes[] = {"face", "plate", "car"};
  static const char *const kOthers[] = {"person", "Face", "FACE", "face ", " face",
                                        "license-plate", "(none)", ""};
  static const std::string kLongName(1000, 'x');
  static const char *const kOdd[] = {"face,plate", "face,", ",", "%s%s%n%x", "\xff\xfe\xfd",
                                     "fa\xc3\x28" "ce", "face\nplate", "\t", kLongName.c_str()};
  switch (in.below(6)) {
  case 0:
    return g_quark_from_static_string(kTypes[in.below(G_N_ELEMENTS(kTypes))]);
  case 1:
    return 0;
  case 2:
    return g_quark_from_static_string(kOthers[in.below(G_N_ELEMENTS(kOthers))]);
  case 3:
    return g_quark_from_static_string(kOdd[in.below(G_N_ELEMENTS(kOdd))]);
  case 4: {
    std::string bytes;
    for (int n = in.below(16); n > 0; n--)
      bytes += char(1 + in.below(255));
    return g_quark_from_string(bytes.c_str());
  }
  default:
    return in.u32();
  }
}

// A type as a trace shows it.
std::string type_shown(GQuark type) {
  const gchar *name = g_quark_to_string(type);
  if (!name)
    return "(quark " + std::to_string(type) + ", no name)";
  gchar *escaped = g_strescape(name, nullptr);
  std::string shown = std::string("\"") + (strlen(escaped) > 40 ? std::string(escaped, 40) + "..."
                                                                : std::string(escaped)) + "\"";
  g_free(escaped);
  return shown;
}

// A coordinate of a region of interest's box (guint in the meta): small, in and
// around frames this fuzzer makes, or any; then now and then one that reads
// negative as a gint, or overflows once added to another.
guint roi_coordinate(Choices &in, bool anywhere) {
  const guint value = anywhere ? in.u32() : in.below(kMaxSide + 8);
  switch (in.below(5)) {
  case 1:
    return guint(-gint64(1 + in.below(256)));  // -1 .. -256 as a gint
  case 2:
    return guint(G_MAXINT) - in.below(4);
  case 3:
    return guint(G_MAXINT) + 1 + in.below(4);  // G_MININT ... as a gint
  case 4:
    return G_MAXUINT - in.below(4);
  default:
    return value;
  }
}

// A number as an analytics detector might give it (a confidence, a score): in
// 0..1, NaN, infinities, negative, above 1, the smallest subnormal, or any bits.
double choose_level(Choices &in) {
  switch (in.below(8)) {
  case 0:
    return in.u32() / 4294967295.0;
  case 1:
    return std::numeric_limits<double>::quiet_NaN();
  case 2:
    return std::numeric_limits<double>::infinity();
  case 3:
    return -std::numeric_limits<double>::infinity();
  case 4:
    return -1.0;
  case 5:
    return 2.0;
  case 6:
    return std::numeric_limits<float>::denorm_min();
  default: {
    const uint64_t bits = in.u64();
    double any;
    memcpy(&any, &bits, sizeof any);
    return any;
  }
  }
}

// A field of a region's param of any of the types such fields take (and some
// they should not): numbers of every width, strings, booleans, a structure, an
// array.
void set_param_field(Choices &in, GstStructure *param, const char *field, int depth) {
  static const char *const kStrings[] = {"", "face", "0.9", "high", "\xff\xfe", "%s%n"};
  GValue value = G_VALUE_INIT;
  switch (in.below(depth > 0 ? 8 : 10)) {
  case 0:
    g_value_init(&value, G_TYPE_DOUBLE);
    g_value_set_double(&value, choose_level(in));
    break;
  case 1:
    g_value_init(&value, G_TYPE_FLOAT);
    g_value_set_float(&value, float(choose_level(in)));
    break;
  case 2:
    g_value_init(&value, G_TYPE_INT);
    g_value_set_int(&value, gint(in.u32()));
    break;
  case 3:
    g_value_init(&value, G_TYPE_UINT);
    g_value_set_uint(&value, in.u32());
    break;
  case 4:
    g_value_init(&value, G_TYPE_INT64);
    g_value_set_int64(&value, gint64(in.u64()));
    break;
  case 5:
    g_value_init(&value, G_TYPE_UINT64);
    g_value_set_uint64(&value, in.u64());
    break;
  case 6:
    g_value_init(&value, G_TYPE_STRING);
    g_value_set_string(&value, kStrings[in.below(G_N_ELEMENTS(kStrings))]);
    break;
  case 7:
    g_value_init(&value, G_TYPE_BOOLEAN);
    g_value_set_boolean(&value, in.flag());
    break;
  case 8: {
    GstStructure *inner = gst_structure_new_empty("inner");
    set_param_field(in, inner, "confidence", depth + 1);
    g_value_init(&value, GST_TYPE_STRUCTURE);
    gst_value_set_structure(&value, inner);
    gst_structure_free(inner);
    break;
  }
  default: {
    g_value_init(&value, GST_TYPE_ARRAY);
    for (int n = in.below(4); n > 0; n--) {
      GValue item = G_VALUE_INIT;
      g_value_init(&item, G_TYPE_DOUBLE);
      g_value_set_double(&item, choose_level(in));
      gst_value_array_append_and_take_value(&value, &item);
    }
    break;
  }
  }
  gst_structure_take_value(param, field, &value);
}

// A param of a region of interest (gst_video_region_of_interest_meta_add_param),
// as detectors attach them: a "detection" with "confidence" and "label-id" of any
// type, or others, with fields of any type.
GstStructure *choose_param(Choices &in) {
  static const char *const kNames[] = {"detection", "classification", "tracking",
                                       "roi/extra", "GstVideoRegionOfInterestMeta", "face"};
  static const char *const kFields[] = {"confidence", "label-id", "label", "x", "score",
                                        "id", "class", "width"};
  const guint name = in.below(G_N_ELEMENTS(kNames));
  GstStructure *param = gst_structure_new_empty(kNames[name]);
  if (name == 0) {
    set_param_field(in, param, "confidence", 0);
    set_param_field(in, param, "label-id", 0);
  }
  for (int n = in.below(4); n > 0; n--)
    set_param_field(in, param, kFields[in.below(G_N_ELEMENTS(kFields))], 0);
  return param;
}

// One region of interest's meta as chosen: its type, box, ids and params.
struct Roi {
  GQuark type = 0;
  guint x = 0, y = 0, width = 0, height = 0;
  int id_kind = 0;  // 0: as the meta sets them
  gint id = 0, parent_id = 0;
  std::vector<GstStructure *> params;
};

Roi choose_roi(Choices &in) {
  Roi roi;
  const bool anywhere = in.below(8) == 0;
  roi.x = roi_coordinate(in, anywhere);
  roi.y = roi_coordinate(in, anywhere);
  roi.width = roi_coordinate(in, anywhere);
  roi.height = roi_coordinate(in, anywhere);
  roi.type = choose_type(in);
  roi.id_kind = int(in.below(5));
  switch (roi.id_kind) {
  case 2:
    roi.id = gint(in.u32());
    roi.parent_id = gint(in.u32());
    break;
  case 3: {
    static const gint kExtremes[] = {G_MININT, -1, G_MAXINT};
    roi.id = kExtremes[in.below(3)];
    roi.parent_id = kExtremes[in.below(3)];
    break;
  }
  case 4:
    roi.id = roi.parent_id = 7;  // every region the same id
    break;
  default:
    break;
  }
  for (int n = in.below(4); n > 0; n--)
    roi.params.push_back(choose_param(in));
  return roi;
}

void attach_roi(GstBuffer *buffer, const Roi &roi, int index, bool copy_params) {
  GstVideoRegionOfInterestMeta *meta = gst_buffer_add_video_region_of_interest_meta_id(
      buffer, roi.type, roi.x, roi.y, roi.width, roi.height);
  if (roi.id_kind == 1) {
    meta->id = index;
    meta->parent_id = index - 1;
  } else if (roi.id_kind > 1) {
    meta->id = roi.id;
    meta->parent_id = roi.parent_id;
  }
  for (GstStructure *param : roi.params)  // the meta takes it
    gst_video_region_of_interest_meta_add_param(meta, copy_params ? gst_structure_copy(param)
                                                                  : param);
}

// Whether the trace leaves out the regions and detections of a frame (those of a
// burst's frames after the first: the same).
bool regions_untraced = false;

void trace_roi(const Roi &roi, const char *what) {
  if (regions_untraced)
    return;
  trace("  %s: type %s, box %d,%d %dx%d (as gint), ids kind %d, %zu params", what,
        type_shown(roi.type).c_str(), gint(roi.x), gint(roi.y), gint(roi.width),
        gint(roi.height), roi.id_kind, roi.params.size());
}

// Regions of interest as a detector might attach them: none, a few, or more than a
// frame takes (kMaxFrameRegions), each its own or many alike (the same box, or one
// moved along a grid); boxes in, across and far outside frames of any size this
// fuzzer makes, empty ones, and ones whose numbers read negative or overflow; of
// any type, any id, with params of any kind.
void add_regions(Choices &in, GstBuffer *buffer) {
  const int count = in.below(8) == 0 ? in.below(600) : in.below(6);
  const uint32_t alike = in.below(3);  // 0: each its own; 1: one box; 2: a grid
  if (count == 0)
    return;
  if (alike == 0) {
    for (int i = 0; i < count; i++) {
      const Roi roi = choose_roi(in);
      if (i < 4)
        trace_roi(roi, "region");
      attach_roi(buffer, roi, i, false);
    }
    if (count > 4 && !regions_untraced)
      trace("  ... %d regions in all", count);
    return;
  }
  Roi roi = choose_roi(in);
  trace_roi(roi, alike == 1 ? "regions alike" : "regions on a grid");
  if (!regions_untraced)
    trace("  ... %d of them", count);
  const Roi first = roi;
  for (int i = 0; i < count; i++) {
    if (alike == 2) {
      roi.x = first.x + guint(i % 16) * 6;
      roi.y = first.y + guint(i / 16) * 6;
    }
    attach_roi(buffer, roi, i, true);
  }
  for (GstStructure *param : roi.params)
    gst_structure_free(param);
}

// Analytics detections (GstAnalyticsRelationMeta, GStreamer 1.24 and later) as a
// detector might attach them: object detections of any label (quark 0 among
// them), boxes of any gint (negative, G_MAXINT, G_MININT), any location
// confidence (NaN, infinities, negative); classifications and tracking entries
// beside them; oriented detections and segmentation masks; relations between them,
// and to ids that no entry has. The choices are read in every build (an input means
// the same everywhere); the meta is only attached where the target is built with
// gstreamer-analytics-1.0, oriented detections and masks from GStreamer 1.26.
enum DetectionKind { kObject, kClassification = 2, kTracking, kOriented, kSegmentation };

// A segmentation's mask and the regions it lists.
struct MaskChoice {
  GstVideoFormat format = GST_VIDEO_FORMAT_GRAY8;
  guint width = 0, height = 0;
  guint stride = 0;        // bytes
  gsize bytes = 0;         // of the buffer: stride x height, or short of it
  std::vector<guint8> values;
  std::vector<guint> region_ids;
  guint location_w = 0, location_h = 0;
  bool instance = false;
};

struct Detection {
  int kind = kObject;  // DetectionKind; 1 is an object detection too
  GQuark label = 0;
  gint x = 0, y = 0, width = 0, height = 0;
  float confidence = 0;
  float angle = 0;
  guint64 track_id = 0;
  GstClockTime first_seen = 0;
  MaskChoice mask;
};

gint detection_coordinate(Choices &in) {
  switch (in.below(6)) {
  case 0:
    return gint(in.below(kMaxSide + 8));
  case 1:
    return -gint(1 + in.below(256));
  case 2:
    return G_MAXINT - gint(in.below(4));
  case 3:
    return G_MININT + gint(in.below(4));
  case 4:
    return gint(in.u32());
  default:
    return 0;
  }
}

// A mask as segmentation decoders make them, and as they should not: small, of any
// values (mostly few labels), rows padded or not, a buffer shorter than its meta
// says, a region list with duplicates, 0, or labels the mask lacks.
MaskChoice choose_mask(Choices &in) {
  static const GstVideoFormat kFormats[] = {GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE,
                                            GST_VIDEO_FORMAT_GRAY16_BE};
  MaskChoice mask;
  mask.format = kFormats[in.below(3)];
  const guint sample = mask.format == GST_VIDEO_FORMAT_GRAY8 ? 1 : 2;
  mask.width = 1 + in.below(12);
  mask.height = 1 + in.below(12);
  mask.stride = mask.width * sample + (in.flag() ? in.below(5) : 0);
  mask.bytes = gsize(mask.stride) * mask.height;
  if (in.below(8) == 0)
    mask.bytes = in.below(uint32_t(mask.bytes));  // short of its rows
  const uint32_t labels = in.flag() ? 1 + in.below(4) : 256;
  mask.values.resize(mask.bytes);
  for (guint8 &value : mask.values)
    value = guint8(in.below(labels));
  for (int n = in.below(6); n > 0; n--)
    mask.region_ids.push_back(in.flag() ? in.below(5) : in.u32());
  mask.location_w = in.flag() ? guint(detection_coordinate(in)) : kMaxSide;
  mask.location_h = in.flag() ? guint(detection_coordinate(in)) : kMaxSide;
  mask.instance = in.flag();
  return mask;
}

Detection choose_detection(Choices &in) {
  Detection detection;
  detection.kind = int(in.below(6));
  detection.label = choose_type(in);
  detection.confidence = float(choose_level(in));
  if (detection.kind < kClassification || detection.kind == kOriented) {
    detection.x = detection_coordinate(in);
    detection.y = detection_coordinate(in);
    detection.width = detection_coordinate(in);
    detection.height = detection_coordinate(in);
    if (detection.kind == kOriented)
      detection.angle = float(in.flag() ? choose_level(in) : in.below(64) * G_PI / 16);
  } else if (detection.kind == kTracking) {
    detection.track_id = in.u64();
    detection.first_seen = in.flag() ? GST_CLOCK_TIME_NONE : in.u64();
  } else if (detection.kind == kSegmentation) {
    detection.x = in.flag() ? 0 : detection_coordinate(in);
    detection.y = in.flag() ? 0 : detection_coordinate(in);
    detection.mask = choose_mask(in);
  }
  return detection;
}

#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
// The mask of `d` in a buffer of its own, described by a GstVideoMeta (which
// the library requires), added as a segmentation at d's location.
gboolean add_segmentation(GstAnalyticsRelationMeta *meta, const Detection &d,
                          GstAnalyticsMtd *handle) {
  const MaskChoice &mask = d.mask;
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, mask.bytes, nullptr);
  gst_buffer_fill(buffer, 0, mask.values.data(), mask.bytes);
  gsize offset[GST_VIDEO_MAX_PLANES] = {0};
  gint stride[GST_VIDEO_MAX_PLANES] = {gint(mask.stride)};
  gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE, mask.format, mask.width,
                                 mask.height, 1, offset, stride);
  std::vector<guint> ids = mask.region_ids;
  return gst_analytics_relation_meta_add_segmentation_mtd(
      meta, buffer, mask.instance ? GST_SEGMENTATION_TYPE_INSTANCE : GST_SEGMENTATION_TYPE_SEMANTIC,
      ids.size(), ids.data(), d.x, d.y, mask.location_w, mask.location_h,
      reinterpret_cast<GstAnalyticsSegmentationMtd *>(handle));
}
#endif

void add_detections(Choices &in, GstBuffer *buffer) {
  const uint32_t how = in.below(4);  // 0: none; 1: a few; 2: many alike; 3: an empty meta
  if (how == 0)
    return;
  std::vector<Detection> detections;
  if (how == 1) {
    for (int n = 1 + in.below(8); n > 0; n--)
      detections.push_back(choose_detection(in));
  } else if (how == 2) {
    const int count = in.below(600);
    Detection detection = choose_detection(in);
    for (int i = 0; i < count; i++) {
      detections.push_back(detection);
      detection.x = gint(guint(detection.x) + 5);  // wraps: no UB here
    }
  }
  struct Relation {
    guint type, first, second;
  };
  std::vector<Relation> relations;
  for (int n = detections.empty() ? 0 : in.below(5); n > 0; n--) {
    Relation relation;
    relation.type = in.below(4);
    relation.first = in.below(uint32_t(std::min<size_t>(detections.size(), 255)) + 1);
    relation.second = in.below(uint32_t(std::min<size_t>(detections.size(), 255)) + 1);
    relations.push_back(relation);
  }
  if (!regions_untraced && detections.empty()) {
    trace("  analytics: an empty relation meta");
  } else if (!regions_untraced) {
    const Detection &d = detections[0];
    trace("  analytics: %zu entries, %zu relations; the first: kind %d, label %s, box %d,%d "
          "%dx%d, confidence %g, angle %g, mask %ux%u of %zu ids",
          detections.size(), relations.size(), d.kind, type_shown(d.label).c_str(), d.x, d.y,
          d.width, d.height, double(d.confidence), double(d.angle), d.mask.width,
          d.mask.height, d.mask.region_ids.size());
  }
#ifdef CF_HAVE_GST_ANALYTICS
  GstAnalyticsRelationMeta *meta = gst_buffer_add_analytics_relation_meta(buffer);
  if (!meta)
    fail("could not add an analytics relation meta");
  std::vector<guint> ids;
  for (const Detection &d : detections) {
    GstAnalyticsMtd handle = {};
    gboolean added = FALSE;
    switch (d.kind) {
    case kClassification:
      added = gst_analytics_relation_meta_add_one_cls_mtd(meta, d.confidence, d.label, &handle);
      break;
    case kTracking:
      added = gst_analytics_relation_meta_add_tracking_mtd(meta, d.track_id, d.first_seen,
                                                           &handle);
      break;
#ifdef CF_HAVE_GST_ANALYTICS_SHAPES
    case kOriented:
      added = gst_analytics_relation_meta_add_oriented_od_mtd(
          meta, d.label, d.x, d.y, d.width, d.height, d.angle, d.confidence, &handle);
      break;
    case kSegmentation:
      added = add_segmentation(meta, d, &handle);
      break;
#else
    case kSegmentation:
      break;
#endif
    default:
      added = gst_analytics_relation_meta_add_od_mtd(meta, d.label, d.x, d.y, d.width,
                                                     d.height, d.confidence, &handle);
      break;
    }
    if (added)
      ids.push_back(handle.id);
  }
  static const GstAnalyticsRelTypes kRelations[] = {
      GST_ANALYTICS_REL_TYPE_NONE, GST_ANALYTICS_REL_TYPE_IS_PART_OF,
      GST_ANALYTICS_REL_TYPE_CONTAIN, GST_ANALYTICS_REL_TYPE_RELATE_TO};
  for (const Relation &relation : relations) {
    // An index past the entries: an id no entry has (GStreamer refuses it, or
    // relates a slot no entry fills yet).
    const guint first = relation.first < ids.size() ? ids[relation.first] : guint(ids.size());
    const guint second =
        relation.second < ids.size() ? ids[relation.second] : guint(ids.size());
    gst_analytics_relation_meta_set_relation(meta, kRelations[relation.type], first, second);
  }
#else
  (void)buffer;
  if (!regions_untraced)
    trace("  (not attached: built without gstreamer-analytics-1.0)");
#endif
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
  add_detections(in, buffer);
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
    const gint rows = cf::plane_rows(&frame.info, p);
    const guint8 *last_row = first_row + ptrdiff_t(stride) * (rows - 1);
    const guint8 *lowest = std::min(first_row, last_row);
    const guint8 *highest = std::max(first_row, last_row) + cf::plane_row_bytes(&frame.info, p);
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
  bool live = false;       // appsrc is-live
  bool saw_error = false;
  std::atomic<bool> error_posted{false};  // an error is on the bus (settle stops waiting)
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

GstBusSyncReply on_bus_message(GstBus *, GstMessage *message, gpointer user_data) {
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR)
    static_cast<Run *>(user_data)->error_posted = true;
  return GST_BUS_PASS;
}

void build(Run &run, Choices &in) {
  run.pipeline = gst_pipeline_new(nullptr);
  GstBus *bus = gst_element_get_bus(run.pipeline);
  gst_bus_set_sync_handler(bus, on_bus_message, &run, nullptr);
  gst_object_unref(bus);
  run.src = GST_ELEMENT(g_object_new(GST_TYPE_APP_SRC, nullptr));
  run.sink = GST_ELEMENT(g_object_new(GST_TYPE_APP_SINK, nullptr));
  run.live = in.flag();
  trace("appsrc is-live=%d", run.live);
  g_object_set(run.src, "format", GST_FORMAT_TIME, "is-live", gboolean(run.live), nullptr);
  g_object_set(run.sink, "sync", FALSE, nullptr);
  GstAppSinkCallbacks callbacks = {};
  callbacks.new_sample = on_new_sample;
  gst_app_sink_set_callbacks(GST_APP_SINK(run.sink), &callbacks, &run, nullptr);

  gst_bin_add(GST_BIN(run.pipeline), run.src);
  GstElement *previous = run.src;
  for (int n = 1 + in.below(3); n > 0; n--) {
    const char *name = kElements[in.below(G_N_ELEMENTS(kElements))];
    GstElement *filter = gst_element_factory_make(name, nullptr);
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

// The next frame, timestamped or not, as the input says.
GstBuffer *next_frame(Run &run, Choices &in) {
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
  return buffer;
}

void push(Run &run, GstBuffer *buffer) {
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
  // Frames in flight are dropped at stop. A live GstBaseSrc going to PAUSED drops the
  // frame it has just taken from appsrc's queue (its clock sync unscheduled:
  // gstbasesrc.c's get_range), before any element sees it.
  if (state <= GST_STATE_READY || (state == GST_STATE_PAUSED && run.live))
    run.may_lose = true;
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
  } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_WARNING && verbose()) {
    GError *warning = nullptr;
    gst_message_parse_warning(message, &warning, nullptr);
    fprintf(stderr, "warning from %s: %s\n", GST_MESSAGE_SRC_NAME(message), warning->message);
    g_error_free(warning);
  }
  gst_message_unref(message);
}

// PLAYING, EOS, and every frame out (or an error); then NULL.
void finish(Run &run) {
  Watchdog &watchdog = Watchdog::instance();
  watchdog.arm("PLAYING and EOS at the end");
  const gint64 start = g_get_monotonic_time();
  gst_element_set_state(run.pipeline, GST_STATE_PLAYING);
  // A live appsrc that was PAUSED refuses EOS (FLUSHING) until its streaming thread
  // runs again: maybe after set_state returns, or never (GStreamer's live basesrc,
  // whose create returned FLUSHING while PAUSED, is not always started again by
  // PLAYING; nothing downstream sets that flag). Asked again for a while.
  bool eos_taken = false;
  while (!(eos_taken = gst_app_src_end_of_stream(GST_APP_SRC(run.src)) != GST_FLOW_FLUSHING) &&
         g_get_monotonic_time() < start + 2 * G_TIME_SPAN_SECOND)
    g_usleep(1000);
  if (!eos_taken) {
    trace("appsrc still flushing in PLAYING: no EOS to wait for");
    run.may_lose = true;
  }
  GstBus *bus = gst_element_get_bus(run.pipeline);
  // The elements' warnings on the way (shown with CF_FUZZ_VERBOSE), up to EOS or
  // the first error; without EOS, those already there.
  const gint64 deadline = eos_taken ? start + (kHangSeconds - 2) * G_TIME_SPAN_SECOND : 0;
  GstMessage *last = nullptr;
  for (;;) {
    const gint64 left = deadline - g_get_monotonic_time();
    last = gst_bus_timed_pop_filtered(
        bus, left > 0 ? GstClockTime(left) * GST_USECOND : 0,
        static_cast<GstMessageType>(GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING));
    if (!last || GST_MESSAGE_TYPE(last) != GST_MESSAGE_WARNING)
      break;
    note_message(run, last);
  }
  if (!last && eos_taken)
    fail("hang: neither EOS nor an error after the end of the stream");
  if (last)
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

// Waits a while for the frames pushed so far to leave appsrc's queue and, unless
// frames may be lost, to come out: a change that follows comes between frames, not
// while they still wait in the queue. No wait where none can come: an error on the
// bus, a pipeline not (going) PLAYING.
void settle(Run &run) {
  Watchdog::instance().arm("waiting for the frames pushed");
  const gint64 until = g_get_monotonic_time() + 500 * G_TIME_SPAN_MILLISECOND;
  while (!run.error_posted && g_get_monotonic_time() < until) {
    GstState state = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING;
    gst_element_get_state(run.pipeline, &state, &pending, 0);
    if (state != GST_STATE_PLAYING && pending != GST_STATE_PLAYING)
      break;
    if (gst_app_src_get_current_level_buffers(GST_APP_SRC(run.src)) == 0 &&
        (run.may_lose || run.received >= run.pushed))
      break;
    g_usleep(200);
  }
  trace("settled: %d pushed, %d out", run.pushed, run.received.load());
}

// Several properties set in a row, of one element or several, once the frames
// pushed so far are through, then a few frames: what an application does when its
// user changes settings while frames flow.
void property_storm(Run &run, Choices &in, int &frames) {
  Watchdog &watchdog = Watchdog::instance();
  const int sets = 2 + int(in.below(7));
  settle(run);
  trace("property storm: %d sets", sets);
  for (int i = 0; i < sets; i++) {
    watchdog.arm("setting a property (storm)");
    set_property(run, in);
  }
  for (int n = in.below(5); n > 0 && frames < kMaxFrames; n--, frames++) {
    watchdog.arm("pushing a frame (storm)");
    push(run, next_frame(run, in));
  }
}

// Frames alike (their choices read again for each), as many as a stream gives in
// a second or two: what an element counts over frames (kFramesBeforeTypeWarning
// frames of regions of types region-types does not name) comes within reach.
void burst(Run &run, Choices &in, int &frames) {
  Watchdog &watchdog = Watchdog::instance();
  const int count = 2 + int(in.below(63));
  trace("burst of %d frames alike", count);
  const size_t recipe = in.position();
  if (frames >= kMaxFrames) {  // the frame's choices read all the same
    gst_buffer_unref(next_frame(run, in));
    return;
  }
  for (int i = 0; i < count && frames < kMaxFrames; i++, frames++) {
    watchdog.arm("pushing a frame (burst)");
    in.rewind(recipe);
    regions_untraced = i > 0;
    push(run, next_frame(run, in));
  }
  regions_untraced = false;
}

// With CF_FUZZ_VERBOSE set: the properties an input may set, by their index.
void trace_properties(const Run &run) {
  if (!verbose())
    return;
  for (GstElement *filter : run.filters) {
    std::string names;
    const std::vector<GParamSpec *> &specs = settable_properties(filter);
    for (size_t i = 0; i < specs.size(); i++)
      names += " " + std::to_string(i) + ":" + specs[i]->name;
    trace("properties of %s:%s", GST_ELEMENT_NAME(filter), names.c_str());
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
  trace_properties(run);
  set_caps(run, in);
  watchdog.arm("setting the pipeline to PLAYING");
  gst_element_set_state(run.pipeline, GST_STATE_PLAYING);

  int frames = 0;
  for (int action = 0; action < kMaxActions && !in.done(); action++) {
    const uint8_t op = in.byte() % 19;
    if (op < 6) {
      if (frames++ >= kMaxFrames)
        continue;
      watchdog.arm("pushing a frame");
      push(run, next_frame(run, in));
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
    } else if (op == 15) {
      watchdog.arm("querying the latency");
      trace("latency query");
      query_latency(run);
    } else if (op == 16) {
      property_storm(run, in, frames);
    } else if (op == 17) {
      burst(run, in, frames);
    } else {
      settle(run);
    }
  }
  finish(run);
  gst_object_unref(run.pipeline);
  return 0;
}
