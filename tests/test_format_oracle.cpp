// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Every element (median, Gauss blur and unsharp masking, histogram, redaction) x every
// format x include-chroma false and true, on the whole frame and on regions (redaction:
// the whole frame), against an oracle
// that shares nothing with the plugin: where each component lies comes from the tests'
// own table (format_table.h), and each processed component must equal the same
// samples filtered alone, as a GRAY8 or GRAY16_LE frame, by the same element (P010 as
// 10-bit values, clamped at 10 bits); every other byte of the output is the input's,
// and none is left unwritten (the output's memory starts as a pattern; three frames
// of different samples go through each element). cudahist's fields are counted here
// from the samples. Built once per backend: the CPU in CI, the CUDA backend in the
// gpu suite, there with frames in system memory and in CUDA memory (cudaupload).
#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <glib/gstdio.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "element_checks.h"
#include "format_table.h"
#include "hist_meta_relay.h"

#ifndef CF_TEST_BACKEND
#error "CF_TEST_BACKEND must name the backend (cpu or cuda)"
#endif

namespace {

using cftest::TableComponent;
using cftest::TableFormat;

constexpr int kWidth = 23;
constexpr int kHeight = 13;
constexpr int kFrames = 3;
constexpr guint8 kUnwritten = 0xbe;

// Boxes in luma pixels, within the frame: one at an odd corner, one reaching the
// right and bottom edges, a single pixel at odd coordinates.
struct LumaBox {
  int x, y, width, height;
};
const LumaBox kBoxes[] = {{3, 1, 7, 5}, {12, 6, 11, 7}, {5, 9, 1, 1}};

struct Variant {
  const char *element;
  const char *properties;
};
const Variant kFilters[] = {
    {"cudamedian", "size=5"},
    {"cudagauss", "sigma=1.3"},
    // Overshoots: P010 must clamp at its 10-bit maximum, not at 16 bits.
    {"cudagauss", "mode=unsharp sigma=1 amount=3"},
};

// What the frames go through: the element alone (system memory), or between
// cudaupload and cudadownload (CUDA memory), or after nvh265dec.
enum class Memory { System, Cuda, Nvdec };

struct Config {
  const TableFormat *format;
  Variant variant;
  bool include_chroma;
  bool regions;
  Memory memory;
  // interlace-mode=interleaved: each field, every other row, a picture of its own.
  bool interlaced = false;

  std::string describe() const {
    return std::string(variant.element) + " " + variant.properties + " " + format->name +
        " include-chroma=" + (include_chroma ? "true" : "false") +
        (regions ? " regions=meta" : "") + (interlaced ? " interlaced" : "") +
        (memory == Memory::Cuda ? " in CUDA memory" : memory == Memory::Nvdec ? " after nvh265dec" : "");
  }
};

// ---- the element's output memory starts as a pattern ----

// System memory filled with kUnwritten: an allocator that GstBaseTransform gives the
// element's output pool (the harness proposes it downstream).
struct PatternAllocator {
  GstAllocator parent;
};
struct PatternAllocatorClass {
  GstAllocatorClass parent_class;
};
G_DEFINE_TYPE(PatternAllocator, pattern_allocator, GST_TYPE_ALLOCATOR)

GstMemory *pattern_alloc(GstAllocator *, gsize size, GstAllocationParams *params) {
  GstMemory *memory = gst_allocator_alloc(nullptr, size, params);
  GstMapInfo map;
  if (memory && gst_memory_map(memory, &map, GST_MAP_WRITE)) {
    memset(map.data, kUnwritten, map.size);
    gst_memory_unmap(memory, &map);
  }
  return memory;
}

void pattern_allocator_class_init(PatternAllocatorClass *klass) {
  GST_ALLOCATOR_CLASS(klass)->alloc = pattern_alloc;
}
void pattern_allocator_init(PatternAllocator *) {}

// ---- frames ----

std::string element_line(const Config &config, const std::string &extra,
                         const char *backend = CF_TEST_BACKEND) {
  return std::string(config.variant.element) + " backend=" + backend + " " +
      config.variant.properties + " frames-in-flight=1 include-chroma=" +
      (config.include_chroma ? "true" : "false") + (config.regions ? " regions=meta" : "") +
      " " + extra;
}

// The CUDA context of the first element that made one, offered to every later one
// before it starts, as a pipeline's elements share one: a context of its own each
// would cost most of the suite's time on the CUDA backend.
GstContext *shared_cuda_context = nullptr;

// The caps of the frames a configuration pushes.
std::string frame_caps(const char *format, int width, int height, bool interlaced) {
  return cftest::caps_string(format, width, height) +
      (interlaced ? ",interlace-mode=interleaved" : "");
}

// Their GstVideoInfo: interlaced 4:2:0 frames are laid out for more rows.
GstVideoInfo frame_info(const char *format, int width, int height, bool interlaced) {
  GstCaps *caps = gst_caps_from_string(frame_caps(format, width, height, interlaced).c_str());
  GstVideoInfo info;
  fail_unless(gst_video_info_from_caps(&info, caps));
  gst_caps_unref(caps);
  return info;
}

GstHarness *make_harness(const std::string &element, Memory memory, const char *format,
                         int width, int height, bool interlaced = false) {
  const std::string line = memory == Memory::Cuda
      ? "cudaupload ! " + element + " ! cudadownload" : element;
  GError *error = nullptr;
  GstElement *bin = gst_parse_bin_from_description(line.c_str(), TRUE, &error);
  fail_unless(bin != nullptr, "could not make %s: %s", line.c_str(),
              error ? error->message : "");
  if (shared_cuda_context)
    gst_element_set_context(bin, shared_cuda_context);
  GstHarness *h = gst_harness_new_with_element(bin, "sink", "src");
  cftest::relay_hist_meta(GST_BIN(bin), h->sinkpad);
  if (!shared_cuda_context)
    shared_cuda_context = gst_element_get_context(bin, "gst.cuda.context");
  gst_object_unref(bin);
  // The harness takes the one reference, not a floating one.
  GstAllocator *allocator =
      GST_ALLOCATOR(gst_object_ref_sink(g_object_new(pattern_allocator_get_type(), nullptr)));
  gst_harness_set_propose_allocator(h, allocator, nullptr);
  gst_harness_set_src_caps_str(h, frame_caps(format, width, height, interlaced).c_str());
  return h;
}

GstBuffer *random_frame(const GstVideoInfo &info, uint32_t seed, int index) {
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  cftest::fill_random_bytes(buffer, seed);
  GST_BUFFER_PTS(buffer) = cftest::frame_pts(index);
  GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
  return buffer;
}

void attach_boxes(GstBuffer *buffer, const std::vector<LumaBox> &boxes) {
  for (const LumaBox &box : boxes)
    gst_buffer_add_video_region_of_interest_meta(buffer, "face", box.x, box.y, box.width,
                                                 box.height);
}

// Pushes the frames (regions attached where given) and returns what comes out.
std::vector<GstBuffer *> run(GstHarness *h, const std::vector<GstBuffer *> &inputs,
                             const std::vector<LumaBox> *boxes, const std::string &what) {
  for (GstBuffer *input : inputs) {
    GstBuffer *copy = gst_buffer_copy_deep(input);
    if (boxes)
      attach_boxes(copy, *boxes);
    fail_unless_equals_int(gst_harness_push(h, copy), GST_FLOW_OK);
  }
  fail_unless(gst_harness_push_event(h, gst_event_new_eos()));
  std::vector<GstBuffer *> outputs;
  for (size_t i = 0; i < inputs.size(); i++) {
    GstBuffer *out = gst_harness_pull(h);
    fail_unless(out != nullptr, "%s: frame %zu did not come out", what.c_str(), i);
    outputs.push_back(out);
  }
  return outputs;
}

void unref_all(const std::vector<GstBuffer *> &buffers) {
  for (GstBuffer *buffer : buffers)
    gst_buffer_unref(buffer);
}

struct MappedFrame {
  GstVideoFrame frame;
  MappedFrame(GstBuffer *buffer, const GstVideoInfo &info) {
    fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ));
  }
  ~MappedFrame() { gst_video_frame_unmap(&frame); }
};

// ---- which samples a box covers, counted sample by sample ----

// A picture of one component's samples: the whole plane, or one field of it.
struct Picture {
  int width, height, x_factor, y_factor;
};

Picture whole(const TableComponent &component) {
  return {component.width(), component.height(), component.x_factor(), component.y_factor()};
}

// Field `field` of an interlaced frame's component: its rows field, field + 2, ...
Picture field_of(const TableComponent &component, int field) {
  return {component.width(), (component.height() - field + 1) / 2, component.x_factor(),
          component.y_factor()};
}

// The luma rows of `box` in field `field`, the field's row k being the frame's row
// 2k + field: of height 0 or less where the box holds none of the field's rows.
LumaBox field_rows(const LumaBox &box, int field) {
  const int first = (box.y - field + 1) / 2;
  const int end = (box.y + box.height - field + 1) / 2;
  return {box.x, first, box.width, end - first};
}

// The samples of a picture that cover at least one pixel of the box (in the
// picture's luma pixels); of height 0 or less where none does.
LumaBox covered(const Picture &picture, const LumaBox &box) {
  int x0 = picture.width, x1 = -1, y0 = picture.height, y1 = -1;
  for (int x = 0; x < picture.width; x++)
    if (x * picture.x_factor <= box.x + box.width - 1 &&
        (x + 1) * picture.x_factor - 1 >= box.x) {
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
    }
  for (int y = 0; y < picture.height; y++)
    if (y * picture.y_factor <= box.y + box.height - 1 &&
        (y + 1) * picture.y_factor - 1 >= box.y) {
      y0 = std::min(y0, y);
      y1 = std::max(y1, y);
    }
  return {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
}

// The boxes of kBoxes as the samples of a picture (field -1: the whole component;
// else that field) cover them, those covering none left out.
std::vector<LumaBox> covered_boxes(const TableComponent &component, int field) {
  std::vector<LumaBox> boxes;
  for (const LumaBox &box : kBoxes) {
    const LumaBox rows = field < 0 ? box : field_rows(box, field);
    if (rows.height <= 0)
      continue;
    const LumaBox samples =
        covered(field < 0 ? whole(component) : field_of(component, field), rows);
    if (samples.height > 0)
      boxes.push_back(samples);
  }
  return boxes;
}

// Whether sample (x, y) of the component covers a pixel of any of kBoxes (of an
// interlaced frame: in its own field).
bool in_any_box(const TableComponent &component, int x, int y, bool interlaced) {
  const int field = interlaced ? y % 2 : -1;
  const int row = interlaced ? y / 2 : y;
  const std::vector<LumaBox> boxes = covered_boxes(component, field);
  return std::any_of(boxes.begin(), boxes.end(), [&](const LumaBox &samples) {
    return x >= samples.x && x < samples.x + samples.width && row >= samples.y &&
           row < samples.y + samples.height;
  });
}

bool is_processed(char component, bool include_chroma) {
  if (component == 'A')
    return false;
  return !(component == 'U' || component == 'V') || include_chroma;
}

// ---- filters ----

// Grey pictures (values, width x height, row by row) through the same element on the
// CPU backend, `boxes` their regions where the configuration asks: the outputs'
// values, clamped to the format's maximum. On the CPU backend, whose results are the
// CUDA backend's bit for bit (each kernel suite checks both against the scalar
// references; a grey frame shares no layout with the format under test): a CUDA
// element for every component would make the gpu suite's run too long.
std::vector<std::vector<uint32_t>> filtered_as_gray(const Config &config,
                                                    const std::vector<std::vector<uint32_t>> &pictures,
                                                    int width, int height,
                                                    const std::vector<LumaBox> &boxes) {
  const TableFormat &gray = cftest::table_format(config.format->gray_name());
  const GstVideoInfo gray_info = cftest::video_info(gray.name, width, height);
  std::vector<GstBuffer *> gray_inputs;
  for (size_t i = 0; i < pictures.size(); i++) {
    GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&gray_info),
                                                nullptr);
    GST_BUFFER_PTS(buffer) = cftest::frame_pts(int(i));
    GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    GstVideoFrame frame;
    fail_unless(gst_video_frame_map(&frame, &gray_info, buffer, GST_MAP_WRITE));
    const TableComponent samples(gray, frame, 'Y');
    for (int y = 0; y < height; y++)
      for (int x = 0; x < width; x++)
        samples.set_value(x, y, pictures[i][size_t(y) * width + x]);
    gst_video_frame_unmap(&frame);
    gray_inputs.push_back(buffer);
  }
  GstHarness *h = make_harness(element_line(config, "", "cpu"), Memory::System, gray.name,
                               width, height);
  const std::vector<GstBuffer *> outputs =
      run(h, gray_inputs, config.regions ? &boxes : nullptr, config.describe() + " alone");
  std::vector<std::vector<uint32_t>> values;
  for (size_t i = 0; i < outputs.size(); i++) {
    MappedFrame out(outputs[i], gray_info);
    const TableComponent samples(gray, out.frame, 'Y');
    std::vector<uint32_t> frame_values;
    for (int y = 0; y < samples.height(); y++)
      for (int x = 0; x < samples.width(); x++)
        frame_values.push_back(std::min(samples.value(x, y), config.format->max_value()));
    values.push_back(frame_values);
  }
  unref_all(gray_inputs);
  unref_all(outputs);
  gst_harness_teardown(h);
  return values;
}

// One component of each input frame, alone as a grey frame (of an interlaced frame,
// each field's rows alone as one), through the same element: its values, row by row.
std::vector<std::vector<uint32_t>> filtered_alone(const Config &config,
                                                  const std::vector<GstBuffer *> &inputs,
                                                  const GstVideoInfo &info, char letter) {
  std::vector<std::vector<uint32_t>> values(inputs.size());
  for (int field : config.interlaced ? std::vector<int>{0, 1} : std::vector<int>{-1}) {
    // Frame row of the picture's row k.
    const auto frame_row = [field](int k) { return field < 0 ? k : 2 * k + field; };
    std::vector<std::vector<uint32_t>> pictures;
    std::vector<LumaBox> boxes;
    int width = 0, rows = 0;
    for (size_t i = 0; i < inputs.size(); i++) {
      MappedFrame in(inputs[i], info);
      const TableComponent component(*config.format, in.frame, letter);
      width = component.width();
      rows = field < 0 ? component.height() : field_of(component, field).height;
      values[i].resize(size_t(width) * component.height());
      if (i == 0)
        boxes = covered_boxes(component, field);
      std::vector<uint32_t> picture;
      for (int k = 0; k < rows; k++)
        for (int x = 0; x < width; x++)
          picture.push_back(component.value(x, frame_row(k)));
      pictures.push_back(picture);
    }
    if (rows == 0)
      continue;
    const auto filtered = filtered_as_gray(config, pictures, width, rows, boxes);
    for (size_t i = 0; i < inputs.size(); i++)
      for (int k = 0; k < rows; k++)
        for (int x = 0; x < width; x++)
          values[i][size_t(frame_row(k)) * width + x] = filtered[i][size_t(k) * width + x];
  }
  return values;
}

// Every byte of out's rows that is no processed sample is in's.
void check_other_bytes(const Config &config, const GstVideoFrame &in,
                       const GstVideoFrame &out, const std::string &what) {
  const TableFormat &format = *config.format;
  std::vector<std::vector<std::vector<bool>>> processed(format.planes.size());
  for (size_t p = 0; p < format.planes.size(); p++)
    processed[p].assign(cftest::plane_rows(in.info, int(p)),
                        std::vector<bool>(cftest::row_bytes(in.info, int(p)), false));
  for (char letter : format.components()) {
    if (!is_processed(letter, config.include_chroma))
      continue;
    const TableComponent component(format, in, letter);
    for (size_t p = 0; p < format.planes.size(); p++) {
      if (!std::strchr(format.planes[p].group, letter))
        continue;
      const auto *base = static_cast<const uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&in, p));
      const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&in, p);
      for (int y = 0; y < component.height(); y++)
        for (int x = 0; x < component.width(); x++) {
          const ptrdiff_t at = component.address(x, y) - base - ptrdiff_t{y} * stride;
          for (int b = 0; b < format.sample_bytes; b++)
            processed[p][y][at + b] = true;
        }
    }
  }
  for (size_t p = 0; p < format.planes.size(); p++) {
    const auto *a = static_cast<const uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&in, p));
    const auto *b = static_cast<const uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&out, p));
    for (size_t y = 0; y < processed[p].size(); y++)
      for (size_t x = 0; x < processed[p][y].size(); x++) {
        const uint8_t want = a[y * GST_VIDEO_FRAME_PLANE_STRIDE(&in, p) + x];
        const uint8_t got = b[y * GST_VIDEO_FRAME_PLANE_STRIDE(&out, p) + x];
        fail_unless(processed[p][y][x] || got == want,
                    "%s: plane %zu row %zu byte %zu (%s) is %#x, the input's %#x", what.c_str(),
                    p, y, x,
                    cftest::is_sample_byte(format, int(p), GST_VIDEO_FRAME_WIDTH(&in), int(x))
                        ? "a sample not processed" : "no sample",
                    got, want);
      }
  }
}

// The element's outputs of `inputs` (frames of `info`) against the oracle.
void check_filtered(const Config &config, const GstVideoInfo &info,
                    const std::vector<GstBuffer *> &inputs,
                    const std::vector<GstBuffer *> &outputs) {
  const TableFormat &format = *config.format;
  const std::string what = config.describe();
  for (char letter : format.components()) {
    if (!is_processed(letter, config.include_chroma))
      continue;
    const auto expected = filtered_alone(config, inputs, info, letter);
    for (size_t i = 0; i < inputs.size(); i++) {
      MappedFrame in(inputs[i], info);
      MappedFrame out(outputs[i], info);
      const TableComponent source(format, in.frame, letter);
      const TableComponent component(format, out.frame, letter);
      const uint32_t padding_mask = (1u << (8 * format.sample_bytes - format.value_bits)) - 1;
      for (int y = 0; y < component.height(); y++)
        for (int x = 0; x < component.width(); x++) {
          // Outside the regions the input passes as it is, padding bits too.
          if (config.regions && !in_any_box(source, x, y, config.interlaced)) {
            fail_unless(component.stored(x, y) == source.stored(x, y),
                        "%s frame %zu: %c at %d,%d, outside the regions, stored %#x for %#x",
                        what.c_str(), i, letter, x, y, component.stored(x, y),
                        source.stored(x, y));
            continue;
          }
          const uint32_t want = expected[i][size_t(y) * component.width() + x];
          fail_unless(component.value(x, y) == want && !(component.stored(x, y) & padding_mask),
                      "%s frame %zu: %c at %d,%d stored %#x (value %u); alone as %s it gives %u",
                      what.c_str(), i, letter, x, y, component.stored(x, y),
                      component.value(x, y), format.gray_name(), want);
        }
    }
  }
  for (size_t i = 0; i < inputs.size(); i++) {
    MappedFrame in(inputs[i], info);
    MappedFrame out(outputs[i], info);
    check_other_bytes(config, in.frame, out.frame, what + " frame " + std::to_string(i));
  }
}

void check_filter(const Config &config, uint32_t seed) {
  const TableFormat &format = *config.format;
  const GstVideoInfo info = frame_info(format.name, kWidth, kHeight, config.interlaced);
  std::vector<GstBuffer *> inputs;
  for (int i = 0; i < kFrames; i++)
    inputs.push_back(random_frame(info, seed + i, i));
  std::vector<LumaBox> boxes(std::begin(kBoxes), std::end(kBoxes));
  GstHarness *h = make_harness(element_line(config, ""), config.memory, format.name, kWidth,
                               kHeight, config.interlaced);
  const std::vector<GstBuffer *> outputs = run(h, inputs, config.regions ? &boxes : nullptr,
                                               config.describe());
  check_filtered(config, info, inputs, outputs);
  unref_all(inputs);
  unref_all(outputs);
  gst_harness_teardown(h);
}

// ---- cudahist ----

const GValue *field(const GstStructure *s, const char *name) {
  const GValue *value = gst_structure_get_value(s, name);
  fail_unless(value != nullptr, "no field %s in %" GST_PTR_FORMAT, name, s);
  return value;
}

guint uint_at(const GstStructure *s, const char *name, guint index) {
  return g_value_get_uint(gst_value_array_get_value(field(s, name), index));
}

// The fields of one channel, counted as numpy would: np.bincount of the values'
// bins, their min, max and mean, and percentiles from the cumulative counts.
struct Counted {
  std::vector<uint32_t> bins;
  guint total = 0, min = G_MAXUINT, max = 0;
  double sum = 0;
};

Counted count(const TableComponent &component, const LumaBox &box, guint n_bins,
              guint max_value) {
  Counted counted;
  counted.bins.assign(n_bins, 0);
  for (int y = box.y; y < box.y + box.height; y++)
    for (int x = box.x; x < box.x + box.width; x++) {
      const guint v = component.value(x, y);
      counted.bins[uint64_t(v) * n_bins / (uint64_t(max_value) + 1)]++;
      counted.total++;
      counted.min = std::min(counted.min, v);
      counted.max = std::max(counted.max, v);
      counted.sum += v;
    }
  return counted;
}

// The last value of the first bin where the cumulative count reaches percent %.
guint percentile(const Counted &counted, guint percent, guint max_value) {
  const uint64_t needed = (uint64_t(counted.total) * percent + 99) / 100;
  uint64_t cumulative = 0;
  const uint64_t n_bins = counted.bins.size();
  for (uint64_t b = 0; b < n_bins; b++) {
    cumulative += counted.bins[b];
    if (cumulative >= needed)
      return guint(((b + 1) * (uint64_t(max_value) + 1) + n_bins - 1) / n_bins - 1);
  }
  return max_value;
}

void check_channel(const GstStructure *s, guint index, const Counted &want,
                   guint max_value, const std::string &what) {
  GstBuffer *bins = gst_value_get_buffer(gst_value_array_get_value(field(s, "bins"), index));
  std::vector<uint32_t> got(gst_buffer_get_size(bins) / sizeof(uint32_t));
  gst_buffer_extract(bins, 0, got.data(), got.size() * sizeof(uint32_t));
  fail_unless(got == want.bins, "%s: the bins differ from the samples' counts", what.c_str());
  const struct {
    const char *name;
    guint value;
  } fields[] = {{"total", want.total}, {"below", 0}, {"above", 0},
                {"min", want.total ? want.min : 0}, {"max", want.max},
                {"p1", percentile(want, 1, max_value)}, {"p50", percentile(want, 50, max_value)},
                {"p99", percentile(want, 99, max_value)}};
  for (const auto &f : fields)
    fail_unless(uint_at(s, f.name, index) == f.value, "%s: %s %u, counted %u", what.c_str(),
                f.name, uint_at(s, f.name, index), f.value);
  const double mean = g_value_get_double(gst_value_array_get_value(field(s, "mean"), index));
  fail_unless(std::fabs(mean - (want.total ? want.sum / want.total : 0)) < 1e-6,
              "%s: mean %f", what.c_str(), mean);
}

const char *channel_name(const TableFormat &format, char letter) {
  static const char names[][2] = {"Y", "U", "V", "R", "G", "B", "A"};
  if (format.is_gray())
    return "gray";
  return names[std::strchr("YUVRGBA", letter) - "YUVRGBA"];
}

// The frame's (or a region's) fields against counts of the samples in `box`.
void check_counts(const GstStructure *s, const Config &config, const GstVideoFrame &frame,
                  const LumaBox *box, guint n_bins, const std::string &what) {
  const TableFormat &format = *config.format;
  const GValue *names = field(s, "channels");
  guint index = 0;
  for (char letter : format.components()) {
    if (!is_processed(letter, config.include_chroma))
      continue;
    fail_unless(index < gst_value_array_get_size(names), "%s: too few channels", what.c_str());
    fail_unless_equals_string(g_value_get_string(gst_value_array_get_value(names, index)),
                              channel_name(format, letter));
    const TableComponent component(format, frame, letter);
    const LumaBox samples = box ? covered(whole(component), *box)
                                : LumaBox{0, 0, component.width(), component.height()};
    check_channel(s, index, count(component, samples, n_bins, format.max_value()),
                  format.max_value(), what + " " + channel_name(format, letter));
    index++;
  }
  fail_unless_equals_int(gst_value_array_get_size(names), index);
}

void check_hist(const Config &config, uint32_t seed) {
  const TableFormat &format = *config.format;
  const std::string what = config.describe();
  const GstVideoInfo info = cftest::video_info(format.name, kWidth, kHeight);
  // A bin a value for 8 and 10 bits; 16-bit values 64 to a bin.
  const guint n_bins = format.sample_bytes == 1 ? 256 : 1024;
  std::vector<GstBuffer *> inputs;
  for (int i = 0; i < kFrames; i++)
    inputs.push_back(random_frame(info, seed + i, i));
  std::vector<LumaBox> boxes(std::begin(kBoxes), std::end(kBoxes));
  GstHarness *h = make_harness(element_line(config, "bins=" + std::to_string(n_bins)),
                               config.memory, format.name, kWidth, kHeight);
  const std::vector<GstBuffer *> outputs = run(h, inputs, config.regions ? &boxes : nullptr,
                                               what);
  for (int i = 0; i < kFrames; i++) {
    MappedFrame in(inputs[i], info);
    MappedFrame out(outputs[i], info);
    for (size_t p = 0; p < format.planes.size(); p++)
      for (int y = 0; y < cftest::plane_rows(format, int(p), kHeight); y++)
        fail_unless(memcmp(static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&in.frame, p)) +
                               y * GST_VIDEO_FRAME_PLANE_STRIDE(&in.frame, p),
                           static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&out.frame, p)) +
                               y * GST_VIDEO_FRAME_PLANE_STRIDE(&out.frame, p),
                           cftest::row_bytes(format, int(p), kWidth)) == 0,
                    "%s: the frame changed", what.c_str());
    GstCustomMeta *meta = gst_buffer_get_custom_meta(outputs[i], "GstCudaHistMeta");
    fail_unless(meta != nullptr, "%s: no GstCudaHistMeta", what.c_str());
    const GstStructure *s = gst_custom_meta_get_structure(meta);
    const std::string frame_what = what + " frame " + std::to_string(i);
    check_counts(s, config, in.frame, nullptr, n_bins, frame_what);
    if (!config.regions)
      continue;
    const GValue *regions = field(s, "regions");
    fail_unless_equals_int(gst_value_array_get_size(regions), G_N_ELEMENTS(kBoxes));
    for (guint r = 0; r < G_N_ELEMENTS(kBoxes); r++)
      check_counts(gst_value_get_structure(gst_value_array_get_value(regions, r)), config,
                   in.frame, &kBoxes[r], n_bins, frame_what + " region " + std::to_string(r));
  }
  unref_all(inputs);
  unref_all(outputs);
  gst_harness_teardown(h);
}

// ---- P010 from NVDEC (gpu suite) ----

constexpr int kDecodedFrames = 10;

// A HEVC Main10 clip, which nvh265dec gives as P010_10LE: made here with x265enc
// where it exists (320x240, kDecodedFrames frames; into *made, for the caller to
// remove), else the file CF_TEST_MAIN10_CLIP names; "" with the reason in *why.
std::string main10_clip(std::string *made, std::string *why) {
  if (GstElementFactory *x265 = gst_element_factory_find("x265enc")) {
    gst_object_unref(x265);
    gchar *dir = g_dir_make_tmp("cf-main10-XXXXXX", nullptr);
    fail_unless(dir != nullptr, "no temporary folder");
    *made = std::string(dir) + "/main10.mp4";
    g_free(dir);
    const std::string line = "videotestsrc num-buffers=" + std::to_string(kDecodedFrames) +
        " pattern=snow ! video/x-raw,format=I420_10LE,width=320,height=240,framerate=30/1 ! "
        "x265enc speed-preset=ultrafast ! h265parse ! mp4mux ! filesink location=" + *made;
    GstElement *pipeline = gst_parse_launch(line.c_str(), nullptr);
    fail_unless(pipeline != nullptr, "could not make %s", line.c_str());
    gst_element_set_state(pipeline, GST_STATE_PLAYING);
    GstBus *bus = gst_element_get_bus(pipeline);
    GstMessage *end = gst_bus_timed_pop_filtered(
        bus, 60 * GST_SECOND, GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    fail_unless(end && GST_MESSAGE_TYPE(end) == GST_MESSAGE_EOS, "encoding the clip failed");
    gst_message_unref(end);
    gst_object_unref(bus);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
    return *made;
  }
  const char *named = g_getenv("CF_TEST_MAIN10_CLIP");
  if (named && g_file_test(named, G_FILE_TEST_IS_REGULAR))
    return named;
  *why = named ? std::string("CF_TEST_MAIN10_CLIP=") + named + " is no file"
               : "no x265enc here to make a clip, and CF_TEST_MAIN10_CLIP names none";
  return "";
}

// The clip's frames decoded by nvh265dec, then through `line` (ending in system
// memory), copied: pools upstream may hold fewer buffers than the clip has frames.
// Their info in *info. Fails, rather than waits, where they do not all come within a
// minute.
std::vector<GstBuffer *> decoded(const std::string &clip, const std::string &line,
                                 GstVideoInfo *info) {
  const std::string all = "filesrc name=file ! qtdemux ! h265parse ! nvh265dec ! " + line +
      " ! appsink name=sink sync=false";
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(all.c_str(), &error);
  fail_unless(pipeline != nullptr && error == nullptr, "%s: %s", all.c_str(),
              error ? error->message : "");
  GstElement *file = gst_bin_get_by_name(GST_BIN(pipeline), "file");
  g_object_set(file, "location", clip.c_str(), nullptr);
  gst_object_unref(file);
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstBus *bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  std::vector<GstBuffer *> frames;
  GstCaps *caps = nullptr;
  std::string failure;
  const gint64 deadline = g_get_monotonic_time() + 60 * G_TIME_SPAN_SECOND;
  while (frames.size() < size_t(kDecodedFrames) && failure.empty()) {
    if (GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
      GError *err = nullptr;
      gst_message_parse_error(message, &err, nullptr);
      failure = err->message;
      g_error_free(err);
      gst_message_unref(message);
    } else if (GstSample *sample =
                   gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 100 * GST_MSECOND)) {
      frames.push_back(gst_buffer_copy_deep(gst_sample_get_buffer(sample)));
      if (!caps)
        caps = gst_caps_ref(gst_sample_get_caps(sample));
      gst_sample_unref(sample);
    } else if (gst_app_sink_is_eos(GST_APP_SINK(sink))) {
      failure = "EOS after " + std::to_string(frames.size()) + " frames";
    } else if (g_get_monotonic_time() > deadline) {
      failure = std::to_string(frames.size()) + " frames in a minute";
    }
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  fail_unless(failure.empty(), "%s: %s", all.c_str(), failure.c_str());
  fail_unless(gst_video_info_from_caps(info, caps), "%s: no video caps", all.c_str());
  gst_caps_unref(caps);
  return frames;
}

// NVDEC's P010 in CUDA memory straight into each filter, downloaded once: against
// the oracle, with the decoded frames as the input.
GST_START_TEST(test_nvdec_main10) {
  std::string made, why;
  const std::string clip = main10_clip(&made, &why);
  fail_if(clip.empty(), "the NVDEC test did not run: %s", why.c_str());
  GstVideoInfo info;
  const std::vector<GstBuffer *> inputs = decoded(clip, "cudadownload", &info);
  fail_unless_equals_string(GST_VIDEO_INFO_NAME(&info), "P010_10LE");
  const TableFormat &format = cftest::table_format(info);
  for (const Variant &variant : kFilters)
    for (bool include_chroma : {false, true}) {
      const Config config{&format, variant, include_chroma, false, Memory::Nvdec};
      GstVideoInfo out_info;
      const std::vector<GstBuffer *> outputs =
          decoded(clip, element_line(config, "") + " ! cudadownload", &out_info);
      fail_unless(gst_video_info_is_equal(&info, &out_info));
      check_filtered(config, info, inputs, outputs);
      unref_all(outputs);
    }
  unref_all(inputs);
  if (!made.empty()) {
    g_remove(made.c_str());
    gchar *dir = g_path_get_dirname(made.c_str());
    g_rmdir(dir);
    g_free(dir);
  }
}
GST_END_TEST;

// ---- the matrix ----

std::vector<Memory> memories() {
  if (g_str_equal(CF_TEST_BACKEND, "cuda"))
    return {Memory::System, Memory::Cuda};
  return {Memory::System};
}

template <typename Check>
void every_configuration(const Variant &variant, Check &&check, bool interlaced = false) {
  uint32_t seed = 1;
  for (Memory memory : memories())
    for (const TableFormat &format : cftest::table_formats()) {
      if (memory == Memory::Cuda && !cftest::held_in_cuda_memory(format))
        continue;
      for (bool include_chroma : {false, true})
        for (bool regions : {false, true})
          check(Config{&format, variant, include_chroma, regions, memory, interlaced},
                seed += kFrames);
    }
}

GST_START_TEST(test_median_every_format) {
  every_configuration(kFilters[0], check_filter);
}
GST_END_TEST;

GST_START_TEST(test_gauss_every_format) {
  every_configuration(kFilters[1], check_filter);
}
GST_END_TEST;

GST_START_TEST(test_unsharp_every_format) {
  every_configuration(kFilters[2], check_filter);
}
GST_END_TEST;

// Interlaced frames: each field filtered as its own picture, against each field's rows
// filtered alone.
GST_START_TEST(test_fields_every_format) {
  every_configuration(kFilters[0], check_filter, true);
  every_configuration(kFilters[1], check_filter, true);
}
GST_END_TEST;

GST_START_TEST(test_hist_every_format) {
  every_configuration(Variant{"cudahist", ""}, check_hist);
}
GST_END_TEST;

// cudaredact with the whole frame one block (regions=frame, blocks=1): each processed
// component becomes the mean of its samples, as the same samples alone in a grey frame
// do. Its boxes snap to the chroma grid, which a grey frame has not: whole frames only.
GST_START_TEST(test_redact_every_format) {
  every_configuration(Variant{"cudaredact", "regions=frame blocks=1 post-messages=false"},
                      [](const Config &config, uint32_t seed) {
                        if (!config.regions)
                          check_filter(config, seed);
                      });
}
GST_END_TEST;

}  // namespace

int main(int argc, char **argv) {
  if (g_str_equal(CF_TEST_BACKEND, "cuda"))
    return cftest::run_element_suite(
        "format_oracle", CF_TEST_BACKEND,
        {CF_TEST(test_median_every_format), CF_TEST(test_gauss_every_format),
         CF_TEST(test_unsharp_every_format), CF_TEST(test_fields_every_format),
         CF_TEST(test_hist_every_format), CF_TEST(test_redact_every_format),
         CF_TEST(test_nvdec_main10)},
        argc, argv);
  return cftest::run_element_suite(
      "format_oracle", CF_TEST_BACKEND,
      {CF_TEST(test_median_every_format), CF_TEST(test_gauss_every_format),
       CF_TEST(test_unsharp_every_format), CF_TEST(test_fields_every_format),
       CF_TEST(test_hist_every_format), CF_TEST(test_redact_every_format)},
      argc, argv);
}
