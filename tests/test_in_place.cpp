// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The in-place role (plugin/cfinplace.h) through a test element of its own,
// cftestfill: it writes kFill into every byte of the processed samples inside
// each region of interest (regions=meta) and reports those boxes as edited; with
// stray=true it first writes kStray, on the frame as the kernels see it, over
// every processed sample outside the rows of those boxes (what the staged path
// brings back), and still reports the boxes alone. Real pipelines
// (appsrc ! cftestfill ! appsink) check, against what the test computes from its
// own table of formats:
//   - inside the boxes the value, outside every byte as it came in;
//   - a writable input leaves as the same buffer with the same memory; one the
//     test still holds is copied by GStreamer, the test's left as it was;
//   - GRAY8, GRAY16_LE, NV12, I420, P010_10LE, RGBA, BGRx, YUY2, and interlaced
//     (interleaved) NV12, each field a picture of its own;
//   - the areas the role reports for a copy of the frame the work wrote (stray
//     writes included), copied back by the test as the staged path does, give
//     the same frame (also in the CPU suite: the rows and bytes of each area).
// Built twice: "cpu" (the default suite: the CPU backend on host memory) and
// "cuda" (the gpu suite, skipped without a usable device): host memory on the
// CUDA backend (a device copy of which only the edited areas come back: stray
// writes outside them must not reach the frame), and CUDA memory between
// cudaupload and cudadownload, written where it is. The plugin's objects are
// linked in; the test element is registered in the process.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cfinplace.h"
#include "cuda_test_support.h"
#include "element_checks.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

constexpr guint8 kFill = 0xA5;
constexpr guint8 kStray = 0x3C;
constexpr int kWidth = 64;
constexpr int kHeight = 48;
constexpr int kFrames = 3;

// ---- cftestfill ----

struct CfTestFill {
  CfInPlace parent;
  gboolean stray;
};
struct CfTestFillClass {
  CfInPlaceClass parent_class;
};
GType cf_test_fill_get_type();
G_DEFINE_TYPE(CfTestFill, cf_test_fill, CF_TYPE_IN_PLACE)

enum { PROP_STRAY = CF_PROP_FIRST_ELEMENT_PROPERTY };

// Every byte of the processed channels' samples of `box` of `view` set to
// `value`: with memset on the CPU, on the device a pitched copy whose "rows" are
// the box row's pixels, one channel's sample each.
cudaError_t fill_box(const ComponentView &view, const cf::Box &box, guint8 value,
                     const cf::Executor &exec) {
  const int bps = cf::bytes_per_sample(view.format);
  const cf::Plane &plane = view.dst;
  static std::vector<guint8> pattern;
  pattern.assign(static_cast<size_t>(box.width) * bps, value);
  for (int y = box.y; y < box.y + box.height; y++)
    for (int c = 0; c < plane.channels; c++) {
      if (!(plane.channel_mask & (1u << c)))
        continue;
      guint8 *first = plane.data + y * plane.row_pitch + box.x * plane.pixel_stride + c * bps;
      if (!exec.on_device) {
        for (int x = 0; x < box.width; x++)
          memset(first + x * plane.pixel_stride, value, bps);
        continue;
      }
#ifdef CF_HAVE_CUDA
      if (cudaError_t err = cudaMemcpy2DAsync(first, plane.pixel_stride, pattern.data(), bps, bps,
                                              box.width, cudaMemcpyHostToDevice, exec.stream))
        return err;
      // The pattern is pageable: the copy has read it once the call returns.
#else
      return cudaErrorNoDevice;
#endif
    }
  return cudaSuccess;
}

// Byte ranges [first, end) of memory, as the kernels address it.
using Ranges = std::vector<std::pair<uintptr_t, uintptr_t>>;

// The rows of every box of every view, each from its first sample to its last:
// what the staged path brings back (cfinplace.h).
Ranges reported_ranges(const std::vector<ComponentView> &views,
                       const std::vector<std::vector<cf::Box>> &boxes) {
  Ranges ranges;
  for (size_t i = 0; i < views.size(); i++)
    for (const cf::Box &box : boxes[i]) {
      cf::Plane row = views[i].dst;
      row.width = box.width;
      const size_t bytes = cf::row_span_bytes(row, views[i].format);
      for (int y = box.y; y < box.y + box.height; y++) {
        const auto first = reinterpret_cast<uintptr_t>(row.data + y * row.row_pitch +
                                                       box.x * row.pixel_stride);
        ranges.emplace_back(first, first + bytes);
      }
    }
  return ranges;
}

// kStray into every processed sample of `view` outside `reported`: writes the
// contract forbids, made on purpose, which must stay where the kernels made
// them. On the device, on a host copy of the view's bytes, uploaded again.
cudaError_t stray_view(const ComponentView &view, const Ranges &reported,
                       const cf::Executor &exec) {
  const cf::Plane &plane = view.dst;
  const int bps = cf::bytes_per_sample(view.format);
  [[maybe_unused]] const size_t span =
      (plane.height - 1) * plane.row_pitch + cf::row_span_bytes(plane, view.format);
  std::vector<guint8> host;
  guint8 *bytes = plane.data;
  if (exec.on_device) {
#ifdef CF_HAVE_CUDA
    host.resize(span);
    cudaError_t err =
        cudaMemcpyAsync(host.data(), plane.data, span, cudaMemcpyDeviceToHost, exec.stream);
    if (err == cudaSuccess)
      err = cudaStreamSynchronize(exec.stream);
    if (err != cudaSuccess)
      return err;
    bytes = host.data();
#else
    return cudaErrorNoDevice;
#endif
  }
  for (int y = 0; y < plane.height; y++)
    for (int x = 0; x < plane.width; x++)
      for (int c = 0; c < plane.channels; c++) {
        const size_t offset = y * plane.row_pitch + x * plane.pixel_stride + c * bps;
        const auto first = reinterpret_cast<uintptr_t>(plane.data + offset);
        bool inside = false;
        for (const auto &range : reported)
          inside = inside || (first < range.second && first + bps > range.first);
        if ((plane.channel_mask & (1u << c)) && !inside)
          memset(bytes + offset, kStray, bps);
      }
#ifdef CF_HAVE_CUDA
  if (exec.on_device) {
    cudaError_t err =
        cudaMemcpyAsync(plane.data, host.data(), span, cudaMemcpyHostToDevice, exec.stream);
    return err == cudaSuccess ? cudaStreamSynchronize(exec.stream) : err;
  }
#endif
  return cudaSuccess;
}

cudaError_t cf_test_fill_edit_frame(CfInPlace *self, const std::vector<ComponentView> &views,
                                    const FrameSelection &, const cf::Executor &exec, void *,
                                    EditedAreas *edited) {
  GST_OBJECT_LOCK(self);
  const bool stray = reinterpret_cast<CfTestFill *>(self)->stray;
  GST_OBJECT_UNLOCK(self);
  for (size_t i = 0; i < views.size(); i++) {
    const ComponentView &view = views[i];
    if (view.region.whole_plane)
      (*edited)[i] = {cf::Box{0, 0, view.dst.width, view.dst.height}};
    else
      (*edited)[i].assign(view.region.boxes, view.region.boxes + view.region.count);
  }
  const Ranges reported = reported_ranges(views, *edited);
  for (size_t i = 0; i < views.size(); i++) {
    if (stray)
      if (cudaError_t err = stray_view(views[i], reported, exec))
        return err;
    for (const cf::Box &box : (*edited)[i])
      if (cudaError_t err = fill_box(views[i], box, kFill, exec))
        return err;
  }
  return cudaSuccess;
}

void cf_test_fill_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  if (id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_set_property(object, id, value, pspec);
    return;
  }
  if (id != PROP_STRAY) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(object);
  reinterpret_cast<CfTestFill *>(object)->stray = g_value_get_boolean(value);
  GST_OBJECT_UNLOCK(object);
}

void cf_test_fill_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  if (id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_get_property(object, id, value, pspec);
    return;
  }
  if (id != PROP_STRAY) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(object);
  g_value_set_boolean(value, reinterpret_cast<CfTestFill *>(object)->stray);
  GST_OBJECT_UNLOCK(object);
}

void cf_test_fill_class_init(CfTestFillClass *klass) {
  auto *gobject_class = G_OBJECT_CLASS(klass);
  gobject_class->set_property = cf_test_fill_set_property;
  gobject_class->get_property = cf_test_fill_get_property;
  cf_in_place_class_install_properties(gobject_class, CF_REGIONS_FRAME);
  g_object_class_install_property(
      gobject_class, PROP_STRAY,
      g_param_spec_boolean("stray", "Stray", "Also write outside the areas reported", FALSE,
                           static_cast<GParamFlags>(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS)));
  gst_element_class_set_static_metadata(GST_ELEMENT_CLASS(klass), "Test fill", "Filter/Video",
                                        "Fills regions in place (tests only)", "tests");
  klass->parent_class.edit_frame = cf_test_fill_edit_frame;
}

void cf_test_fill_init(CfTestFill *self) { self->stray = FALSE; }

void register_test_element() {
  static const bool registered =
      gst_element_register(nullptr, "cftestfill", GST_RANK_NONE, cf_test_fill_get_type());
  fail_unless(registered);
}

// ---- the test's own table of formats ----

// One processed component: its plane, the byte of its first sample in a row,
// bytes between samples, log2 of its subsampling, bytes per sample.
struct Component {
  int plane, offset, pixel_stride, x_sub, y_sub, bytes;
};
// A plane: `group_bytes` bytes per `group_pixels` pixels of a row, rows halved
// `y_sub` times.
struct PlaneShape {
  int group_pixels, group_bytes, y_sub;
};
struct Format {
  const char *name;
  std::vector<PlaneShape> planes;
  std::vector<Component> processed;  // alpha and padding bytes are not
  bool in_cuda_memory;               // gstreamer-cuda's allocator holds it
};

const std::vector<Format> &formats() {
  static const std::vector<Format> table = {
      {"GRAY8", {{1, 1, 0}}, {{0, 0, 1, 0, 0, 1}}, false},
      {"GRAY16_LE", {{1, 2, 0}}, {{0, 0, 2, 0, 0, 2}}, false},
      {"NV12", {{1, 1, 0}, {2, 2, 1}}, {{0, 0, 1, 0, 0, 1}, {1, 0, 2, 1, 1, 1}, {1, 1, 2, 1, 1, 1}},
       true},
      {"I420",
       {{1, 1, 0}, {2, 1, 1}, {2, 1, 1}},
       {{0, 0, 1, 0, 0, 1}, {1, 0, 1, 1, 1, 1}, {2, 0, 1, 1, 1, 1}},
       true},
      {"P010_10LE",
       {{1, 2, 0}, {2, 4, 1}},
       {{0, 0, 2, 0, 0, 2}, {1, 0, 4, 1, 1, 2}, {1, 2, 4, 1, 1, 2}},
       true},
      {"RGBA", {{1, 4, 0}}, {{0, 0, 4, 0, 0, 1}, {0, 1, 4, 0, 0, 1}, {0, 2, 4, 0, 0, 1}}, true},
      {"BGRx", {{1, 4, 0}}, {{0, 0, 4, 0, 0, 1}, {0, 1, 4, 0, 0, 1}, {0, 2, 4, 0, 0, 1}}, true},
      {"YUY2", {{2, 4, 0}}, {{0, 0, 2, 0, 0, 1}, {0, 1, 4, 1, 0, 1}, {0, 3, 4, 1, 0, 1}}, true},
  };
  return table;
}

const Format &format_named(const std::string &name) {
  for (const Format &format : formats())
    if (name == format.name)
      return format;
  g_error("no format %s", name.c_str());
}

// Boxes in luma pixels: odd corners, one past the frame's corner (clipped), and
// one of two rows, which the fields of 4:2:0 video cover with chroma of two
// rows, a progressive frame with one.
struct Roi {
  int x, y, width, height;
};
const std::vector<Roi> kBoxes = {
    {3, 5, 10, 7}, {30, 20, 9, 11}, {58, 40, 20, 20}, {40, 2, 6, 2}};

// A frame's planes, rows without padding.
using Planes = std::vector<std::vector<guint8>>;

int plane_row_bytes(const PlaneShape &shape) {
  return (kWidth + shape.group_pixels - 1) / shape.group_pixels * shape.group_bytes;
}
int plane_rows(const PlaneShape &shape) {
  return (kHeight + (1 << shape.y_sub) - 1) >> shape.y_sub;
}

Planes read_planes(GstBuffer *buffer, const Format &format, const GstVideoInfo &info) {
  GstVideoFrame frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ));
  Planes planes;
  for (size_t p = 0; p < format.planes.size(); p++) {
    const int row_bytes = plane_row_bytes(format.planes[p]);
    std::vector<guint8> rows;
    for (int y = 0; y < plane_rows(format.planes[p]); y++) {
      const auto *row = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p)) +
                        y * GST_VIDEO_FRAME_PLANE_STRIDE(&frame, p);
      rows.insert(rows.end(), row, row + row_bytes);
    }
    planes.push_back(rows);
  }
  gst_video_frame_unmap(&frame);
  return planes;
}

// The samples' first and last index that cover pixels first..last, subsampled
// `sub` times.
void covered(int first, int last, int sub, int *from, int *to) {
  *from = first >> sub;
  *to = last >> sub;
}

// What cftestfill makes of `input`: kFill in every byte of each processed
// sample that covers a pixel of a box (clipped to the frame); with `fields`,
// each field's rows a picture of their own, subsampled within the field.
Planes expected_planes(Planes planes, const Format &format, bool fields) {
  for (const Roi &roi : kBoxes) {
    const int x0 = roi.x, x1 = MIN(roi.x + roi.width, kWidth) - 1;
    const int y0 = roi.y, y1 = MIN(roi.y + roi.height, kHeight) - 1;
    for (const Component &c : format.processed) {
      const int row_bytes = plane_row_bytes(format.planes[c.plane]);
      int sx0, sx1;
      covered(x0, x1, c.x_sub, &sx0, &sx1);
      std::vector<int> rows;  // plane rows covered
      for (int field = 0; field < (fields ? 2 : 1); field++) {
        if (!fields) {
          int r0, r1;
          covered(y0, y1, c.y_sub, &r0, &r1);
          for (int r = r0; r <= r1; r++)
            rows.push_back(r);
          continue;
        }
        // Field rows of the box: frame rows y0..y1 of parity `field`.
        const int f0 = (y0 - field + 1) / 2, f1 = (y1 - field) / 2;
        if (f1 < f0)
          continue;
        int r0, r1;
        covered(f0, f1, c.y_sub, &r0, &r1);
        for (int r = r0; r <= r1; r++)
          rows.push_back(2 * r + field);
      }
      for (int r : rows)
        for (int sx = sx0; sx <= sx1; sx++)
          memset(&planes[c.plane][r * row_bytes + c.offset + sx * c.pixel_stride], kFill, c.bytes);
    }
  }
  return planes;
}

void expect_planes(const Planes &got, const Planes &want, const std::string &what) {
  for (size_t p = 0; p < want.size(); p++)
    for (size_t i = 0; i < want[p].size(); i++)
      fail_unless(got[p][i] == want[p][i], "%s: plane %zu byte %zu is 0x%02x, expected 0x%02x",
                  what.c_str(), p, i, got[p][i], want[p][i]);
}

// ---- pipelines ----

enum class Memory { Host, Cuda };

std::string caps_of(const Format &format, bool interlaced) {
  return std::string("video/x-raw,format=") + format.name + ",width=" + std::to_string(kWidth) +
         ",height=" + std::to_string(kHeight) + ",framerate=30/1" +
         (interlaced ? ",interlace-mode=interleaved" : "");
}

void add_boxes(GstBuffer *buffer) {
  for (const Roi &roi : kBoxes)
    gst_buffer_add_video_region_of_interest_meta(buffer, "face", roi.x, roi.y, roi.width,
                                                 roi.height);
}

// cudaupload keeps no region-of-interest meta: frames reaching cftestfill get the
// boxes again, as a detector on CUDA memory would attach them.
GstPadProbeReturn restore_boxes(GstPad *, GstPadProbeInfo *info, gpointer) {
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (!gst_buffer_get_video_region_of_interest_meta(buffer)) {
    buffer = gst_buffer_make_writable(buffer);
    add_boxes(buffer);
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
  }
  return GST_PAD_PROBE_OK;
}

// The buffers and first memories that pass a pad, in order.
struct Seen {
  std::vector<GstBuffer *> buffers;
  std::vector<GstMemory *> memories;
};
GstPadProbeReturn note_buffer(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *seen = static_cast<Seen *>(data);
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  seen->buffers.push_back(buffer);
  seen->memories.push_back(gst_buffer_peek_memory(buffer, 0));
  return GST_PAD_PROBE_OK;
}

struct Run {
  std::string format;
  std::string backend = CF_TEST_BACKEND;
  Memory memory = Memory::Host;
  bool interlaced = false;
  bool shared = false;  // the test keeps a reference to each buffer it pushes
  bool stray = false;
};

void run_pipeline(const Run &run) {
  const Format &format = format_named(run.format);
  const std::string caps = caps_of(format, run.interlaced);
  const std::string cuda_caps =
      "video/x-raw(memory:CUDAMemory),format=" + std::string(format.name);
  const std::string middle = std::string("cftestfill name=fill regions=meta backend=") +
                             run.backend + (run.stray ? " stray=true" : "");
  const std::string line =
      "appsrc name=src format=time caps=\"" + caps + "\" ! " +
      (run.memory == Memory::Cuda ? "cudaupload ! " + cuda_caps + " ! " + middle + " ! " +
                                        cuda_caps + " ! cudadownload ! video/x-raw"
                                  : middle) +
      " ! appsink name=sink sync=false";
  const std::string what = line + (run.shared ? " (shared input)" : "");
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(line.c_str(), &error);
  fail_unless(pipeline && !error, "%s: %s", line.c_str(), error ? error->message : "");
  GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  GstElement *fill = gst_bin_get_by_name(GST_BIN(pipeline), "fill");
  GstPad *fill_sink = gst_element_get_static_pad(fill, "sink");
  GstPad *fill_src = gst_element_get_static_pad(fill, "src");
  Seen in, out;
  if (run.memory == Memory::Cuda)
    gst_pad_add_probe(fill_sink, GST_PAD_PROBE_TYPE_BUFFER, restore_boxes, nullptr, nullptr);
  gst_pad_add_probe(fill_sink, GST_PAD_PROBE_TYPE_BUFFER, note_buffer, &in, nullptr);
  gst_pad_add_probe(fill_src, GST_PAD_PROBE_TYPE_BUFFER, note_buffer, &out, nullptr);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);

  GstVideoInfo info;
  GstCaps *parsed = gst_caps_from_string(caps.c_str());
  fail_unless(gst_video_info_from_caps(&info, parsed));
  gst_caps_unref(parsed);
  std::vector<Planes> inputs;
  std::vector<GstBuffer *> held;
  for (int i = 0; i < kFrames; i++) {
    GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
    cftest::fill_random_bytes(buffer, 1234 + i);
    add_boxes(buffer);
    GST_BUFFER_PTS(buffer) = i * GST_SECOND / 30;
    GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    inputs.push_back(read_planes(buffer, format, info));
    if (run.shared)
      held.push_back(gst_buffer_ref(buffer));
    fail_unless_equals_int(gst_app_src_push_buffer(GST_APP_SRC(src), buffer), GST_FLOW_OK);
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));

  for (int i = 0; i < kFrames; i++) {
    GstSample *sample = gst_app_sink_pull_sample(GST_APP_SINK(sink));
    fail_unless(sample, "%s: frame %d did not come (an error?)", what.c_str(), i);
    GstBuffer *output = gst_sample_get_buffer(sample);
    expect_planes(read_planes(output, format, info),
                  expected_planes(inputs[i], format, run.interlaced),
                  what + ", frame " + std::to_string(i));
    if (run.shared) {
      expect_planes(read_planes(held[i], format, info), inputs[i],
                    what + ", the test's own buffer " + std::to_string(i));
      fail_unless(output != held[i], "%s: a shared buffer was written", what.c_str());
    }
    gst_sample_unref(sample);
  }
  fail_unless(gst_app_sink_is_eos(GST_APP_SINK(sink)));
  // In place: a writable buffer leaves as it came, its memory with it.
  fail_unless_equals_int(in.buffers.size(), kFrames);
  fail_unless_equals_int(out.buffers.size(), kFrames);
  for (int i = 0; i < kFrames && !run.shared; i++)
    fail_unless(in.buffers[i] == out.buffers[i] && in.memories[i] == out.memories[i],
                "%s: frame %d left in another buffer or memory", what.c_str(), i);

  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  for (GstBuffer *buffer : held)
    gst_buffer_unref(buffer);
  gst_object_unref(fill_sink);
  gst_object_unref(fill_src);
  gst_object_unref(fill);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
}

// The staged path's copy back, done by hand: each area the role reports,
// rows of row_bytes bytes, from the frame the kernels wrote into the frame.
void copy_areas(GstVideoFrame *to, GstVideoFrame *from, const std::vector<PlaneArea> &areas) {
  for (const PlaneArea &area : areas)
    for (guint r = 0; r < area.rows; r++) {
      const gsize row = area.y + r * area.row_step;
      const int p = area.plane;
      memcpy(static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(to, p)) +
                 row * GST_VIDEO_FRAME_PLANE_STRIDE(to, p) + area.x,
             static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(from, p)) +
                 row * GST_VIDEO_FRAME_PLANE_STRIDE(from, p) + area.x,
             area.row_bytes);
    }
}

// The role's work on a copy of a frame, as on the staged path's device copy:
// the stray writes cover the whole copy, and the areas it reports, copied back
// into the frame, must make it what the test expects.
void edit_on_a_copy(const Format &format, bool interlaced) {
  GstVideoInfo info;
  GstCaps *caps = gst_caps_from_string(caps_of(format, interlaced).c_str());
  fail_unless(gst_video_info_from_caps(&info, caps));
  gst_caps_unref(caps);
  GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  cftest::fill_random_bytes(buffer, 77);
  const Planes input = read_planes(buffer, format, info);
  GstBuffer *copy = gst_buffer_copy_deep(buffer);
  GstElement *fill = gst_element_factory_make("cftestfill", nullptr);
  g_object_set(fill, "stray", TRUE, nullptr);

  std::vector<FrameRegion> regions;
  for (const Roi &roi : kBoxes)
    regions.push_back({0, 0, {roi.x, roi.y, MIN(roi.width, kWidth - roi.x),
                              MIN(roi.height, kHeight - roi.y)}});
  FrameSelection selection;
  selection.include_chroma = true;
  selection.regions = regions;
  selection.fields = interlaced;
  GstVideoFrame frame, kernels_frame;
  fail_unless(gst_video_frame_map(&frame, &info, buffer, GST_MAP_READWRITE));
  fail_unless(gst_video_frame_map(&kernels_frame, &info, copy, GST_MAP_READWRITE));
  std::vector<PlaneArea> edited;
  FrameWork work;
  work.input = FramePlanes::of(kernels_frame);
  work.edited = &edited;
  const FrameError err =
      CF_BASE_FILTER_GET_CLASS(fill)->run_frame(CF_BASE_FILTER(fill), work, selection);
  fail_if(static_cast<bool>(err), "%s: %s", format.name, err.describe().c_str());
  copy_areas(&frame, &kernels_frame, edited);
  gst_video_frame_unmap(&kernels_frame);
  gst_video_frame_unmap(&frame);
  expect_planes(read_planes(buffer, format, info), expected_planes(input, format, interlaced),
                std::string(format.name) + (interlaced ? " interlaced" : "") +
                    ", the areas reported copied back");
  gst_object_unref(fill);
  gst_buffer_unref(copy);
  gst_buffer_unref(buffer);
}

const std::vector<std::string> kFormats = {"GRAY8", "GRAY16_LE", "NV12", "I420",
                                           "P010_10LE", "RGBA", "BGRx", "YUY2"};

}  // namespace

// Host memory on the element's backend: each format, progressive and interlaced
// NV12; writable buffers kept, shared ones copied and left alone.
GST_START_TEST(test_host_memory) {
  register_test_element();
  for (const std::string &name : kFormats)
    for (bool shared : {false, true}) {
      Run run;
      run.format = name;
      run.shared = shared;
      run_pipeline(run);
    }
  Run interlaced;
  interlaced.format = "NV12";
  interlaced.interlaced = true;
  run_pipeline(interlaced);
}
GST_END_TEST;

// The areas the role reports, copied back by hand from a copy the work wrote
// (as the staged path downloads them from its device copy), give the frame
// expected, however far the work strayed on the copy.
GST_START_TEST(test_reported_areas) {
  register_test_element();
  for (const Format &format : formats())
    edit_on_a_copy(format, false);
  edit_on_a_copy(format_named("NV12"), true);
  edit_on_a_copy(format_named("I420"), true);
}
GST_END_TEST;

// Host memory on the CUDA backend: what the kernels write outside the areas they
// report stays on the device copy.
GST_START_TEST(test_only_edited_areas_come_back) {
  register_test_element();
  for (const std::string &name : kFormats) {
    Run run;
    run.format = name;
    run.stray = true;
    run_pipeline(run);
  }
}
GST_END_TEST;

// CUDA memory, written where it is: the same buffer and memory leave.
GST_START_TEST(test_cuda_memory) {
  register_test_element();
  for (const Format &format : formats()) {
    if (!format.in_cuda_memory)
      continue;
    Run run;
    run.format = format.name;
    run.memory = Memory::Cuda;
    run_pipeline(run);
  }
  Run interlaced;
  interlaced.format = "NV12";
  interlaced.memory = Memory::Cuda;
  interlaced.interlaced = true;
  run_pipeline(interlaced);
}
GST_END_TEST;

int main(int argc, char **argv) {
  if (g_str_equal(CF_TEST_BACKEND, "cuda"))
    return cftest::run_gpu_suite("in_place_gpu",
                                 {CF_GPU_TEST(test_host_memory),
                                  CF_GPU_TEST(test_only_edited_areas_come_back),
                                  CF_GPU_TEST(test_cuda_memory)},
                                 argc, argv);
  gst_check_init(&argc, &argv);
  Suite *suite = suite_create("in_place");
  TCase *tc = tcase_create("cpu");
  tcase_set_timeout(tc, 120);
  suite_add_tcase(suite, tc);
  tcase_add_test(tc, test_host_memory);
  tcase_add_test(tc, test_reported_areas);
  return gst_check_run_suite(suite, "in_place", __FILE__);
}
