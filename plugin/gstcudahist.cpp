// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/**
 * SECTION:element-cudahist
 * @title: cudahist
 *
 * Histograms of every frame, counted on NVIDIA GPUs (or on the CPU without a
 * usable device, with identical counts). Frames pass through untouched: on the
 * CUDA backend a frame goes up to the GPU, is counted there, and only the bins
 * come back.
 *
 * Channels counted: Y of YUV formats (U and V too with
 * #CfAnalyzer:include-chroma), R, G and B of RGB formats (A too with
 * #GstCudaHist:include-alpha), the grey level of GRAY8 and GRAY16_LE. Samples of
 * the region of interest (#GstCudaHist:roi-x, #GstCudaHist:roi-y,
 * #GstCudaHist:roi-width, #GstCudaHist:roi-height, in luma pixels; the whole
 * frame by default) with range-min <= v <= range-max fall into bin
 * (v - range-min) * bins / (range-max - range-min + 1); samples outside the range
 * fall into no bin and are counted in `below` and `above`.
 *
 * Results, two ways, with the same fields:
 *
 * - a custom meta named "GstCudaHistMeta" on every buffer: C applications call
 *   gst_buffer_get_custom_meta (buffer, "GstCudaHistMeta") and
 *   gst_custom_meta_get_structure (), Python ones
 *   buffer.get_custom_meta ("GstCudaHistMeta").get_structure (); nothing to link.
 *   It describes the samples as they were counted, so it is tagged "video",
 *   "colorspace", "size" and "orientation": elements that change the samples
 *   (videoconvert converting, videoscale scaling, videoflip flipping,
 *   cudamedian, cudagauss) drop it; those that pass the buffer on (queue, tee,
 *   identity, an element in passthrough) and whole copies of the buffer keep
 *   it; a copy of part of the buffer does not. nvcodec's cudaupload and
 *   cudadownload drop it as well (they keep only metas tagged "video" alone):
 *   read it before them.
 * - an element message named "cudahist" on the bus, like `level`'s, when
 *   #GstCudaHist:post-messages is set (the default), for the latest frame once
 *   #GstCudaHist:interval-frames frames and #GstCudaHist:interval nanoseconds
 *   (100 ms by default, as `level`) have passed since the previous one; it
 *   adds "timestamp", "stream-time", "running-time" and "duration" (guint64,
 *   nanoseconds; GST_CLOCK_TIME_NONE where the frame has none). The interval
 *   is measured in running time for frames that have one, and by the monotonic
 *   clock (g_get_monotonic_time (), as each frame's results come in) for
 *   frames without a timestamp or outside the segment; interval=0 lets every
 *   frame post.
 *
 * Messages wait on the bus until the application reads them: a bus watch
 * (gst_bus_add_watch (), or gst_bus_timed_pop_filtered () with
 * GST_MESSAGE_ELEMENT) takes them, `gst-launch-1.0 -m` prints them. An
 * application that never reads its bus sets #GstCudaHist:post-messages to
 * FALSE, which silences them: the meta stays on every buffer.
 *
 * Fields (arrays hold one entry per channel, in the order of "channels"):
 * "channels" (array of strings: "Y", "U", "V", "R", "G", "B", "A" or "gray"),
 * "range-min", "range-max" (guint), "bins" (array of GstBuffer: each channel's
 * counts, one guint32 a bin in the machine's byte order, read-only; a block per
 * channel rather than a value per bin keeps the results cheap to make every
 * frame),
 * "total" (samples in the region), "below", "above", "min", "max"
 * (arrays of guint: of every sample in the region), "mean" (array of gdouble),
 * "p1", "p50", "p99" (arrays of guint: the smallest value v such that at least
 * 1 %, 50 % and 99 % of the binned samples are <= v, resolved to the last value
 * of v's bin; exact with one value per bin).
 *
 * With #CfAnalyzer:regions=meta (which may also be set while playing: it
 * applies from the next frame), each region of the buffer is counted too: the
 * boxes of its GstVideoRegionOfInterestMeta (and, from GStreamer 1.24,
 * analytics object detections) of the types in #CfAnalyzer:region-types,
 * clipped to the frame, 256 at most. Field
 * "regions": an array of "region" structures in the metas' order: "id" (gint),
 * "type" (string), "x", "y", "width", "height" (guint, luma pixels, clipped)
 * and the per-channel fields above, of the samples covering the box (roi-*
 * is the frame's only). A frame without regions gets an empty array.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -m v4l2src ! videoconvert ! cudahist ! videoconvert ! autovideosink
 * ]| Histograms of a live camera on the bus, ten a second.
 * |[
 * gst-launch-1.0 -m videotestsrc ! video/x-raw,format=GRAY16_LE ! cudahist bins=1024 interval=1000000000 ! fakesink
 * ]| 1024 bins of 16-bit grey frames, one message a second.
 * |[
 * gst-launch-1.0 -m v4l2src ! videoconvert ! video/x-raw,format=NV12 ! cudahist roi-x=480 roi-y=270 roi-width=960 roi-height=540 bins=64 ! fakesink
 * ]| Metering the centre of a 1080p camera for auto exposure.
 * |[
 * gst-launch-1.0 -m v4l2src ! videoconvert ! facedetect display=false ! videoconvert ! cudahist regions=meta region-types=face bins=32 ! fakesink
 * ]| The exposure of each face OpenCV's facedetect finds.
 */
#include "gstcudahist.h"

#include <algorithm>
#include <cstring>

#include "elementdevice.h"
#include "formatlayout.h"
#include "framemessage.h"
#include "histogram.h"
#include "histresults.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_hist_debug);
#define GST_CAT_DEFAULT gst_cuda_hist_debug

#define DEFAULT_BINS 256
#define DEFAULT_RANGE_MIN 0
#define DEFAULT_RANGE_MAX G_MAXUINT16
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_INTERVAL (GST_SECOND / 10)
#define DEFAULT_INTERVAL_FRAMES 1

enum
{
  PROP_BINS = CF_PROP_FIRST_ELEMENT_PROPERTY,
  PROP_RANGE_MIN,
  PROP_RANGE_MAX,
  PROP_ROI_X,
  PROP_ROI_Y,
  PROP_ROI_WIDTH,
  PROP_ROI_HEIGHT,
  PROP_POST_MESSAGES,
  PROP_INTERVAL,
  PROP_INTERVAL_FRAMES,
};

struct _GstCudaHist
{
  CfAnalyzer parent;

  /* properties, under the object lock */
  guint bins;
  guint range_min;
  guint range_max;
  guint roi_x;
  guint roi_y;
  guint roi_width;
  guint roi_height;
  gboolean post_messages;
  guint64 interval;
  guint interval_frames;

  /* streaming thread */
  guint caps_bins;              /* bins the results are sized for */
  gboolean warned_empty_roi;
  guint frames_since_message;
  GstClockTime last_message_time;       /* running time */
  GstClockTime last_message_monotonic;
};

G_DEFINE_TYPE (GstCudaHist, gst_cuda_hist, CF_TYPE_ANALYZER);
GST_ELEMENT_REGISTER_DEFINE (cudahist, "cudahist", GST_RANK_NONE,
    GST_TYPE_CUDA_HIST);

/* The device workspace: the frame's counts', then the regions'. */
static gsize
frame_workspace_size (guint bins)
{
  return GST_ROUND_UP_N (cf::histogram_cuda_workspace_bytes (bins), 256);
}

/* A frame's region results take at most this: at the most bins, 31 regions
 * are counted, at 4096 bins and fewer, every region a frame takes. */
constexpr gsize kRegionResultsBudget = 32 << 20;

static gboolean
gst_cuda_hist_size_results (CfAnalyzer * analyzer, const GstVideoInfo & info,
    bool on_device, FrameSizes * sizes)
{
  auto *self = GST_CUDA_HIST (analyzer);
  GST_OBJECT_LOCK (self);
  const guint bins = self->bins;
  GST_OBJECT_UNLOCK (self);
  const guint max_bins =
      FormatLayout::of (info).component (0).format.depth == cf::SampleDepth::U16 ?
      cf::kHistogramMaxBins16 : cf::kHistogramMaxBins8;
  if (bins > max_bins) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("bins=%u: %s takes at most %u bins", bins, GST_VIDEO_INFO_NAME (&info),
            max_bins), (nullptr));
    return FALSE;
  }
  const gsize block = cf::hist_block_size (bins);
  const guint max_regions = MIN (sizes->max_regions,
      MAX (1, kRegionResultsBudget / block));
  self->caps_bins = bins;
  sizes->max_regions = max_regions;
  sizes->results = block;
  sizes->results_per_region = block;
  if (on_device)
    sizes->workspace = frame_workspace_size (bins) + (max_regions ?
        cf::histogram_boxes_cuda_workspace_bytes (bins, max_regions) : 0);
  return TRUE;
}

/* The region of interest (roi-*) clipped to the frame, in luma pixels: empty
 * where it lies outside. */
static cf::Box
clipped_roi (const GstVideoInfo & info, const guint (&roi)[4])
{
  const guint64 width = GST_VIDEO_INFO_WIDTH (&info);
  const guint64 height = cf::picture_height (&info);
  /* In 64 bits: an offset and a size may each reach G_MAXINT. */
  const guint64 x0 = MIN ((guint64) roi[0], width);
  const guint64 y0 = MIN ((guint64) roi[1], height);
  const guint64 x1 = roi[2] ? MIN ((guint64) roi[0] + roi[2], width) : width;
  const guint64 y1 = roi[3] ? MIN ((guint64) roi[1] + roi[3], height) : height;
  return {(int) x0, (int) y0, (int) (x1 - x0), (int) (y1 - y0)};
}

/* Each counted component in component order (R, G, B whatever the layout of
 * their pixels), which is the order of their results. */
static std::vector<int>
counted_components (const std::vector<ComponentView> & views)
{
  std::vector<int> components;
  for (const auto & view : views)
    for (int c = 0; c < view.src.channels; ++c)
      if (view.src.channel_mask & (1u << c))
        components.push_back (view.channel_components[c]);
  std::sort (components.begin (), components.end ());
  return components;
}

/* A region of interest outside the frame counts nothing: its results zeroed
 * (on the device, queued), and a warning once. */
static cudaError_t
count_nothing (GstCudaHist * self, const std::vector<cf::HistogramOutput> & outputs,
    const cf::Executor & exec, const guint (&roi)[4])
{
  if (!self->warned_empty_roi) {
    const GstVideoInfo & info =
        cf_base_filter_video_info (CF_BASE_FILTER (self));
    self->warned_empty_roi = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FAILED,
        ("The region of interest lies outside the %d x %d frame: counting "
            "nothing", GST_VIDEO_INFO_WIDTH (&info), cf::picture_height (&info)),
        ("roi %u,%u %ux%u", roi[0], roi[1], roi[2], roi[3]));
  }
  return cf::histogram_clear (exec, self->caps_bins, outputs.data (),
      outputs.size ());
}

/* Where counted channel `index` of block `block` (0: the frame's, 1 + r:
 * region r's) lies within a frame's results: its bins, then its summary. */
static cf::HistogramOutput
output_at (void *results, guint bins, gsize block, gsize index)
{
  auto *bytes = static_cast<guint8 *> (results) +
      block * cf::hist_block_size (bins) +
      index * cf::hist_channel_result_size (bins);
  return {reinterpret_cast<uint32_t *> (bytes),
    reinterpret_cast<cf::HistogramSummary *> (bytes +
        GST_ROUND_UP_8 (bins * sizeof (uint32_t)))};
}

/* The index among the frame's counted components of each channel `view`
 * counts, in the view's channel order. */
static std::vector<gsize>
channel_indices (const ComponentView & view, const std::vector<int> & components)
{
  std::vector<gsize> indices;
  for (int c = 0; c < view.src.channels; ++c)
    if (view.src.channel_mask & (1u << c))
      indices.push_back (std::find (components.begin (), components.end (),
              view.channel_components[c]) - components.begin ());
  return indices;
}

/* Counts every region in `view`'s channels, all in one call. */
static cudaError_t
count_regions (GstCudaHist * self, const ComponentView & view,
    const cf::HistogramParams & params, const std::vector<FrameRegion> & regions,
    const std::vector<gsize> & indices, const cf::Executor & exec,
    void *results, void *workspace)
{
  const std::vector<cf::Box> boxes = cf::component_boxes (regions,
      cf_base_filter_video_info (CF_BASE_FILTER (self)),
      view.first_component ());
  std::vector<cf::HistogramOutput> outputs;
  outputs.reserve (boxes.size () * indices.size ());
  for (gsize r = 0; r < boxes.size (); r++)
    for (gsize index : indices)
      outputs.push_back (output_at (results, params.bins, 1 + r, index));
  void *boxes_workspace = workspace ? static_cast<guint8 *> (workspace) +
      frame_workspace_size (params.bins) : nullptr;
  return cf::histogram_boxes (exec, view.src, view.format, params,
      boxes.data (), boxes.size (), outputs.data (), boxes_workspace);
}

/* Counts the frame's region of interest (roi-*) in `view`'s channels. */
static cudaError_t
count_frame (GstCudaHist * self, const ComponentView & view,
    cf::HistogramParams & params, const guint (&roi)[4],
    const std::vector<gsize> & indices, const cf::Executor & exec,
    void *results, void *workspace)
{
  std::vector<cf::HistogramOutput> outputs;
  for (gsize index : indices)
    outputs.push_back (output_at (results, params.bins, 0, index));
  const GstVideoInfo & info = cf_base_filter_video_info (CF_BASE_FILTER (self));
  const cf::Box luma = clipped_roi (info, roi);
  if (luma.width <= 0 || luma.height <= 0)
    return count_nothing (self, outputs, exec, roi);
  /* The channels of a view share their size: any one scales the region. */
  const cf::Box box = cf::component_box (luma, info, view.first_component ());
  params.roi_x = box.x;
  params.roi_y = box.y;
  params.roi_width = box.width;
  params.roi_height = box.height;
  return cf::histogram (exec, view.src, view.format, params, outputs.data (),
      workspace);
}

static cudaError_t
gst_cuda_hist_analyze_frame (CfAnalyzer * analyzer,
    const std::vector<ComponentView> & views,
    const std::vector<FrameRegion> * regions, const cf::Executor & exec,
    void *results, void *workspace, void *frame_state)
{
  auto *self = GST_CUDA_HIST (analyzer);
  GST_OBJECT_LOCK (self);
  const guint range_min = self->range_min;
  const guint range_max = self->range_max;
  const guint roi[4] = { self->roi_x, self->roi_y, self->roi_width,
    self->roi_height
  };
  GST_OBJECT_UNLOCK (self);

  auto *counted = static_cast<HistFrameState *> (frame_state);
  const std::vector<int> components = counted_components (views);
  counted->n_channels = components.size ();
  std::copy (components.begin (), components.end (), counted->channels);

  cf::HistogramParams params;
  params.bins = self->caps_bins;
  for (const auto & view : views) {
    params.upper = MIN (range_max, cf::max_sample_value (view.format));
    params.lower = MIN (range_min, params.upper);
    counted->lower = params.lower;
    counted->upper = params.upper;
    const std::vector<gsize> indices = channel_indices (view, components);
    cudaError_t err = count_frame (self, view, params, roi, indices, exec,
        results, workspace);
    if (err == cudaSuccess && regions && !regions->empty ())
      err = count_regions (self, view, params, *regions, indices, exec,
          results, workspace);
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

/* How a frame's results are laid out: with a block for each of its regions
 * (none: regions=frame). */
static cf::HistResultsLayout
results_layout (GstCudaHist * self, const FrameSelection & selection)
{
  const std::vector<FrameRegion> *regions = selection.regions ?
      &*selection.regions : nullptr;
  return {&cf_base_filter_video_info (CF_BASE_FILTER (self)), self->caps_bins,
    regions};
}

/* Attaches an empty GstCudaHistMeta to `buffer`: its structure, to fill. */
static GstStructure *
add_meta (GstBuffer * buffer)
{
  return gst_custom_meta_get_structure (gst_buffer_add_custom_meta (buffer,
          GST_CUDA_HIST_META_NAME));
}

/* Whether a message is due for this frame, as post-messages, interval and
 * interval-frames say. */
static gboolean
message_due (GstCudaHist * self, GstClockTime running_time)
{
  GST_OBJECT_LOCK (self);
  const gboolean post = self->post_messages;
  const guint64 interval = self->interval;
  const guint interval_frames = self->interval_frames;
  GST_OBJECT_UNLOCK (self);
  if (!post)
    return FALSE;
  self->frames_since_message++;
  if (self->frames_since_message < interval_frames)
    return FALSE;
  /* A frame with a running time is timed by it; one without, by the monotonic
   * clock since the last message: otherwise each would post, and a stream of
   * them would fill a bus nobody reads. The time since the last message is
   * compared with the interval: the last time plus the interval would wrap
   * for intervals near G_MAXUINT64. A time before the last message's counts as
   * none since (a flush or a new segment starts the interval again:
   * gst_cuda_hist_sink_event). */
  const GstClockTime now = g_get_monotonic_time () * GST_USECOND;
  const gboolean timed = GST_CLOCK_TIME_IS_VALID (running_time);
  const GstClockTime time = timed ? running_time : now;
  const GstClockTime last = timed ? self->last_message_time :
      self->last_message_monotonic;
  if (interval > 0 && GST_CLOCK_TIME_IS_VALID (last) &&
      time - MIN (time, last) < interval)
    return FALSE;
  self->frames_since_message = 0;
  if (timed)
    self->last_message_time = running_time;
  self->last_message_monotonic = now;
  return TRUE;
}

static GstFlowReturn
gst_cuda_hist_attach_results (CfBaseFilter * base, GstBuffer * frame,
    const FinishedFrame & finished)
{
  auto *self = GST_CUDA_HIST (base);
  const auto *bytes = static_cast<const guint8 *> (finished.results);
  const auto &counted =
      *static_cast<const HistFrameState *> (finished.frame_state);
  const cf::HistResultsLayout layout =
      results_layout (self, *finished.selection);
  cf::hist_set_results (layout, bytes, counted, add_meta (frame));

  if (!message_due (self, cf::frame_running_time (GST_BASE_TRANSFORM (self),
              frame)))
    return GST_FLOW_OK;
  /* Built again rather than copied from the meta: gst_structure_copy copies
   * each value through its type, which takes longer. */
  GstStructure *results = gst_structure_new_empty ("cudahist");
  cf::hist_set_results (layout, bytes, counted, results);
  cf::set_frame_times (results, GST_BASE_TRANSFORM (self), frame);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), results));
  return GST_FLOW_OK;
}

/* A flush or a new segment starts running time again: so does the interval
 * between messages (once the frames before it have left, in the base's
 * handling). */
static gboolean
gst_cuda_hist_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  const GstEventType type = GST_EVENT_TYPE (event);
  const gboolean ret =
      GST_BASE_TRANSFORM_CLASS (gst_cuda_hist_parent_class)->sink_event (trans,
      event);
  if (type == GST_EVENT_FLUSH_STOP || type == GST_EVENT_SEGMENT)
    GST_CUDA_HIST (trans)->last_message_time = GST_CLOCK_TIME_NONE;
  return ret;
}

static gboolean
gst_cuda_hist_start (GstBaseTransform * trans)
{
  auto *self = GST_CUDA_HIST (trans);
  self->frames_since_message = 0;
  self->last_message_time = GST_CLOCK_TIME_NONE;
  self->last_message_monotonic = GST_CLOCK_TIME_NONE;
  self->warned_empty_roi = FALSE;
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_hist_parent_class)->start (trans);
}

/* range-min or range-max (`is_min`), under the object lock: a range whose
 * minimum passes its maximum is refused, with a warning, the old one kept. */
static void
set_range (GstCudaHist * self, bool is_min, guint value)
{
  const guint min = is_min ? value : self->range_min;
  const guint max = is_min ? self->range_max : value;
  if (min > max) {
    g_warning ("%s: range-min %u above range-max %u refused: the range stays "
        "%u..%u", GST_OBJECT_NAME (self), min, max, self->range_min,
        self->range_max);
    return;
  }
  self->range_min = min;
  self->range_max = max;
}

static void
gst_cuda_hist_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_set_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_HIST (object);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BINS:
      self->bins = g_value_get_uint (value);
      cf_base_filter_mark_frames_outdated (CF_BASE_FILTER (self));
      break;
    case PROP_RANGE_MIN:
    case PROP_RANGE_MAX:
      set_range (self, prop_id == PROP_RANGE_MIN, g_value_get_uint (value));
      break;
    case PROP_ROI_X:
      self->roi_x = g_value_get_uint (value);
      break;
    case PROP_ROI_Y:
      self->roi_y = g_value_get_uint (value);
      break;
    case PROP_ROI_WIDTH:
      self->roi_width = g_value_get_uint (value);
      break;
    case PROP_ROI_HEIGHT:
      self->roi_height = g_value_get_uint (value);
      break;
    case PROP_POST_MESSAGES:
      self->post_messages = g_value_get_boolean (value);
      break;
    case PROP_INTERVAL:
      self->interval = g_value_get_uint64 (value);
      break;
    case PROP_INTERVAL_FRAMES:
      self->interval_frames = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_hist_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_get_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_HIST (object);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BINS:
      g_value_set_uint (value, self->bins);
      break;
    case PROP_RANGE_MIN:
      g_value_set_uint (value, self->range_min);
      break;
    case PROP_RANGE_MAX:
      g_value_set_uint (value, self->range_max);
      break;
    case PROP_ROI_X:
      g_value_set_uint (value, self->roi_x);
      break;
    case PROP_ROI_Y:
      g_value_set_uint (value, self->roi_y);
      break;
    case PROP_ROI_WIDTH:
      g_value_set_uint (value, self->roi_width);
      break;
    case PROP_ROI_HEIGHT:
      g_value_set_uint (value, self->roi_height);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, self->post_messages);
      break;
    case PROP_INTERVAL:
      g_value_set_uint64 (value, self->interval);
      break;
    case PROP_INTERVAL_FRAMES:
      g_value_set_uint (value, self->interval_frames);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* Whole copies of a buffer keep its histogram. A copy of part of it holds
 * part of the frame, which the histogram does not describe: not copied, and
 * no failure either (GstVideoMeta does the same). Any other transform (a
 * scale, a flip) changes the samples that were counted. */
static gboolean
gst_cuda_hist_meta_transform (GstBuffer * dest, GstCustomMeta * meta,
    GstBuffer *, GQuark type, gpointer data, gpointer)
{
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  const auto *copy_data = static_cast<const GstMetaTransformCopy *> (data);
  if (copy_data && copy_data->region)
    return TRUE;
  gst_structure_foreach (gst_custom_meta_get_structure (meta),
      [](GQuark field, const GValue * value, gpointer copy) -> gboolean {
        gst_structure_id_set_value (static_cast<GstStructure *> (copy), field,
            value);
        return TRUE;
      }, add_meta (dest));
  return TRUE;
}

static void
gst_cuda_hist_class_init (GstCudaHistClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  auto *element_class = GST_ELEMENT_CLASS (klass);
  auto *analyzer_class = CF_ANALYZER_CLASS (klass);
  const auto playing = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);

  gobject_class->set_property = gst_cuda_hist_set_property;
  gobject_class->get_property = gst_cuda_hist_get_property;
  cf_analyzer_class_install_properties (gobject_class, CF_REGIONS_FRAME);

  g_object_class_install_property (gobject_class, PROP_BINS,
      g_param_spec_uint ("bins", "Bins",
          "Bins per channel, over range-min..range-max: up to 4096 for 8-bit "
          "formats, 65536 for GRAY16_LE (bins beyond the values in the range "
          "stay empty); a change applies from the next frame", 1,
          cf::kHistogramMaxBins16, DEFAULT_BINS, playing));
  g_object_class_install_property (gobject_class, PROP_RANGE_MIN,
      g_param_spec_uint ("range-min", "Range minimum",
          "Smallest sample value binned; smaller ones are counted in 'below'. "
          "Above range-max: refused, with a warning (set range-max first)",
          0, G_MAXUINT16, DEFAULT_RANGE_MIN, playing));
  g_object_class_install_property (gobject_class, PROP_RANGE_MAX,
      g_param_spec_uint ("range-max", "Range maximum",
          "Largest sample value binned (above the format's maximum: the "
          "maximum); larger ones are counted in 'above'. Below range-min: "
          "refused, with a warning", 0, G_MAXUINT16,
          DEFAULT_RANGE_MAX, playing));
  g_object_class_install_property (gobject_class, PROP_ROI_X,
      g_param_spec_uint ("roi-x", "ROI x",
          "Left edge of the region counted, in luma pixels", 0, G_MAXINT, 0,
          playing));
  g_object_class_install_property (gobject_class, PROP_ROI_Y,
      g_param_spec_uint ("roi-y", "ROI y",
          "Top edge of the region counted, in luma pixels", 0, G_MAXINT, 0,
          playing));
  g_object_class_install_property (gobject_class, PROP_ROI_WIDTH,
      g_param_spec_uint ("roi-width", "ROI width",
          "Width of the region counted (0 = to the right edge); clipped to the "
          "frame", 0, G_MAXINT, 0, playing));
  g_object_class_install_property (gobject_class, PROP_ROI_HEIGHT,
      g_param_spec_uint ("roi-height", "ROI height",
          "Height of the region counted (0 = to the bottom edge); clipped to "
          "the frame", 0, G_MAXINT, 0, playing));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post an element message named 'cudahist' with the histograms, as "
          "interval and interval-frames allow; they wait on the bus until the "
          "application reads them (false: none, the meta on every buffer "
          "only)", DEFAULT_POST_MESSAGES, playing));
  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint64 ("interval", "Interval",
          "Least time between two messages, in nanoseconds (0 = no limit): "
          "running time for frames with a timestamp, the monotonic clock for "
          "frames without one", 0, G_MAXUINT64, DEFAULT_INTERVAL, playing));
  g_object_class_install_property (gobject_class, PROP_INTERVAL_FRAMES,
      g_param_spec_uint ("interval-frames", "Interval in frames",
          "Frames from one message to the next (1 = no limit)", 1,
          G_MAXUINT, DEFAULT_INTERVAL_FRAMES, playing));

  gst_element_class_set_static_metadata (element_class,
      "CUDA histogram", "Filter/Analyzer/Video",
      "Exact per-channel histograms on NVIDIA GPUs, as a meta on every buffer "
      "and as bus messages; frames pass through", "gst-cudafilters developers");

  GST_BASE_TRANSFORM_CLASS (klass)->start =
      GST_DEBUG_FUNCPTR (gst_cuda_hist_start);
  GST_BASE_TRANSFORM_CLASS (klass)->sink_event =
      GST_DEBUG_FUNCPTR (gst_cuda_hist_sink_event);
  analyzer_class->size_results = gst_cuda_hist_size_results;
  analyzer_class->analyze_frame = gst_cuda_hist_analyze_frame;
  CF_BASE_FILTER_CLASS (klass)->attach_results = gst_cuda_hist_attach_results;
  analyzer_class->frame_state_size = sizeof (HistFrameState);

  /* The counts hold for these sample values at this size and orientation.
   * An element that changes the frame keeps only metas whose tags it knows:
   * GstVideoFilter's default (videoflip before 1.28) and nvcodec's cudaupload
   * and cudadownload from 1.24 "video" alone; videoconvert, videoscale,
   * videoflip from 1.28 and our filters "video", "size" and "orientation"
   * (the first three carry the last two through transforms this meta
   * refuses); GstBaseTransform's default (cudaupload and cudadownload in
   * 1.22) none. "colorspace", in none of those sets,
   * makes each of them drop it. Elements that pass the buffer on call no
   * transform. */
  static const gchar *tags[] = { GST_META_TAG_VIDEO_STR,
    GST_META_TAG_VIDEO_COLORSPACE_STR, GST_META_TAG_VIDEO_SIZE_STR,
    GST_META_TAG_VIDEO_ORIENTATION_STR, nullptr
  };
  /* It counts: "Counting on the CPU", where the filters say "Filtering". */
  cf_element_class_set_work_verb (G_TYPE_FROM_CLASS (klass), "Counting");
  cf::hist_results_init ();
  gst_meta_register_custom (GST_CUDA_HIST_META_NAME, tags,
      gst_cuda_hist_meta_transform, nullptr, nullptr);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_hist_debug, "cudahist", 0,
      "CUDA histogram");
}

static void
gst_cuda_hist_init (GstCudaHist * self)
{
  self->bins = DEFAULT_BINS;
  self->range_min = DEFAULT_RANGE_MIN;
  self->range_max = DEFAULT_RANGE_MAX;
  self->post_messages = DEFAULT_POST_MESSAGES;
  self->interval = DEFAULT_INTERVAL;
  self->interval_frames = DEFAULT_INTERVAL_FRAMES;
  self->last_message_time = GST_CLOCK_TIME_NONE;
  self->last_message_monotonic = GST_CLOCK_TIME_NONE;
}
