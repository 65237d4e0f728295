// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "gstcudafilter.h"

#include <cuda_runtime_api.h>

#include <cstring>
#include <deque>
#include <memory>
#include <utility>

#ifdef CF_HAVE_GST_CUDA
#include <gmodule.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif
#ifdef CF_HAVE_GST_CUDA_STREAM
#include <gst/cuda/gstcudastream.h>
#endif

#include "cfpinnedallocator.h"
#include "cfvideolayout.h"
#include "cudadevice.h"
#include "cudafaults.h"
#include "cudaframeslots.h"
#include "framesides.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_filter_debug);
#define GST_CAT_DEFAULT gst_cuda_filter_debug

#define DEFAULT_DEVICE_ID -1
#define DEFAULT_FRAMES_IN_FLIGHT 2
#define MAX_FRAMES_IN_FLIGHT 8
#define DEFAULT_BACKEND GST_CUDA_FILTER_BACKEND_AUTO
#define DEFAULT_INCLUDE_CHROMA FALSE

enum
{
  PROP_0,
  PROP_DEVICE_ID,
  PROP_FRAMES_IN_FLIGHT,
  PROP_BACKEND,
  PROP_ACTIVE_BACKEND,
  PROP_INCLUDE_CHROMA,
  PROP_DEVICE_MEMORY,
  PROP_PINNED_MEMORY,
};

/* A frame between submit_input_buffer and generate_output. On the CUDA backend
 * both buffers stay mapped until the slot's work on them has finished. An
 * analysis element's frame is its own output. */
struct PendingFrame
{
  GstBuffer *input = nullptr;
  GstBuffer *output = nullptr;
  GstVideoFrame in_frame {};
  GstVideoFrame out_frame {};
  int slot = -1;                /* -1: already done (CPU backend) */
  /* Its output's memory stream is ordered after the slot's work (GStreamer
   * 1.24+): it leaves without a wait on the host. */
  bool ordered = false;
  std::vector<guint8> result;   /* CPU backend; on CUDA the slot holds it */
  std::vector<guint8> frame_state;      /* analysis: analyze_frame's */
  /* Serialized events that came after this frame and before the next: they
   * leave right after it. */
  std::vector<GstEvent *> events_after;
};

struct CudaFilterState
{
  /* Properties, under the object lock. */
  gint device_id = DEFAULT_DEVICE_ID;
  guint frames_in_flight = DEFAULT_FRAMES_IN_FLIGHT;
  GstCudaFilterBackend backend = DEFAULT_BACKEND;
  gboolean include_chroma = DEFAULT_INCLUDE_CHROMA;
  /* Filters' border and border-value (their defaults: the subclass's). */
  GstCudaFilterBorder border = GST_CUDA_FILTER_BORDER_REPLICATE;
  guint border_value = 0;

  /* Chosen at start; AUTO while stopped. Written under the object lock. */
  GstCudaFilterBackend active_backend = GST_CUDA_FILTER_BACKEND_AUTO;
  CudaDevice device;
  /* Pinned host memory allocated in the device's context (CUDA backend).
   * Set and cleared under the object lock (the memory properties read it). */
  GstAllocator *pinned_allocator = nullptr;
  bool warned_cpu_fallback = false;
#ifdef CF_HAVE_GST_CUDA
  /* The context shared with the pipeline (set_context, or made at start). */
  GstCudaContext *context = nullptr;
#endif
#ifdef CF_HAVE_GST_CUDA_STREAM
  /* The streams our pools' CUDA memory carries (1.24+), which its users queue
   * their work on or wait for (gst_cuda_memory_sync): upstream's writes into
   * the pool we propose, and our output, ordered after our work. Two, so that
   * upstream's writes never wait for our kernels. */
  GstCudaStream *input_stream = nullptr;
  GstCudaStream *output_stream = nullptr;
#endif

  /* Streaming state. info under the object lock (the latency query reads it). */
  bool configured = false;
  GstVideoInfo info {};
  guint in_flight = 1;   /* frames-in-flight, fixed when caps are set */
  gsize result_size = 0;
  CudaFrameSlots slots;
  FrameSide input_side;
  FrameSide output_side;
  int next_slot = 0;
  std::deque<PendingFrame> pending;
  /* Frames leave as soon as their work is queued, ordered on their memory's
   * stream: a filter's CUDA memory output with GStreamer 1.24+, one frame in
   * flight (see set_caps). */
  bool hand_out_at_once = false;
  /* Per slot, the input of an ordered frame that left before its work
   * finished: mapped and referenced until the slot's work is done, so that
   * upstream cannot write into it while the kernels still read it. */
  std::vector<PendingFrame> retiring;
  /* The events of the frame last handed to GstBaseTransform, which pushes it
   * after generate_output returns: they follow at the next call. */
  std::vector<GstEvent *> events_to_forward;
  /* A DISCONT frame leaves as soon as it is submitted (see submit_input_buffer). */
  bool hand_out_next = false;
  /* The end of the last frame handed out, for POSITION queries: drained frames
   * do not pass GstBaseTransform's own count. Under the object lock. */
  GstClockTime position_out = GST_CLOCK_TIME_NONE;
};

struct GstCudaFilterPrivate
{
  CudaFilterState *state;
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (GstCudaFilter, gst_cuda_filter,
    GST_TYPE_BASE_TRANSFORM);

static CudaFilterState &
state_of (GstCudaFilter * self)
{
  auto *priv = static_cast<GstCudaFilterPrivate *>
      (gst_cuda_filter_get_instance_private (self));
  return *priv->state;
}

GType
gst_cuda_filter_backend_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_FILTER_BACKEND_AUTO,
        "CUDA when a usable device exists, else the CPU (warns once)", "auto"},
    {GST_CUDA_FILTER_BACKEND_CUDA, "CUDA device; error if none is usable",
        "cuda"},
    {GST_CUDA_FILTER_BACKEND_CPU, "CPU, all cores, same results bit for bit",
        "cpu"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaFilterBackend",
            values));
  return type;
}

GType
gst_cuda_filter_border_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_FILTER_BORDER_REPLICATE, "Repeat the edge sample (aaa|abcd|ddd)",
        "replicate"},
    {GST_CUDA_FILTER_BORDER_REFLECT_101,
        "Mirror about the edge sample (cb|abcd|cb)", "reflect-101"},
    {GST_CUDA_FILTER_BORDER_CONSTANT, "The value of border-value (kk|abcd|kk)",
        "constant"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaFilterBorder",
            values));
  return type;
}

void
gst_cuda_filter_class_install_border_properties (GObjectClass * klass,
    guint border_prop_id, guint border_value_prop_id,
    GstCudaFilterBorder default_border)
{
  const auto flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property (klass, border_prop_id,
      g_param_spec_enum ("border", "Border",
          "How samples outside the frame are taken", GST_TYPE_CUDA_FILTER_BORDER,
          default_border, flags));
  g_object_class_install_property (klass, border_value_prop_id,
      g_param_spec_uint ("border-value", "Border value",
          "Sample value outside the frame with border=constant, in the format's "
          "own range (values above 255 count as 255 for 8-bit formats)",
          0, G_MAXUINT16, 0, flags));
}

/* Whether `pspec` is `border` or `border-value`, and which. */
static bool
is_border_property (const GParamSpec * pspec, bool *border)
{
  *border = g_str_equal (pspec->name, "border");
  return *border || g_str_equal (pspec->name, "border-value");
}

gboolean
gst_cuda_filter_set_border_property (GObject * object, const GValue * value,
    GParamSpec * pspec)
{
  CudaFilterState & st = state_of (GST_CUDA_FILTER (object));
  bool border;
  if (!is_border_property (pspec, &border))
    return FALSE;
  GST_OBJECT_LOCK (object);
  if (border)
    st.border = static_cast<GstCudaFilterBorder> (g_value_get_enum (value));
  else
    st.border_value = g_value_get_uint (value);
  GST_OBJECT_UNLOCK (object);
  return TRUE;
}

gboolean
gst_cuda_filter_get_border_property (GObject * object, GValue * value,
    GParamSpec * pspec)
{
  CudaFilterState & st = state_of (GST_CUDA_FILTER (object));
  bool border;
  if (!is_border_property (pspec, &border))
    return FALSE;
  GST_OBJECT_LOCK (object);
  if (border)
    g_value_set_enum (value, st.border);
  else
    g_value_set_uint (value, st.border_value);
  GST_OBJECT_UNLOCK (object);
  return TRUE;
}

gboolean
gst_cuda_filter_accept_window_size (GObject * object, GParamSpec * pspec,
    gint size)
{
  if (size % 2 != 0)
    return TRUE;
  g_warning ("%s: %s must be odd, %d refused", GST_OBJECT_NAME (object),
      g_param_spec_get_name (pspec), size);
  return FALSE;
}

cf::Border
gst_cuda_filter_border (GstCudaFilter * filter, cf::SampleFormat format)
{
  CudaFilterState & st = state_of (filter);
  GST_OBJECT_LOCK (filter);
  const GstCudaFilterBorder mode = st.border;
  const guint value = st.border_value;
  GST_OBJECT_UNLOCK (filter);
  cf::Border border;
  switch (mode) {
    case GST_CUDA_FILTER_BORDER_REPLICATE:
      border.mode = cf::BorderMode::Replicate;
      break;
    case GST_CUDA_FILTER_BORDER_REFLECT_101:
      border.mode = cf::BorderMode::Reflect101;
      break;
    case GST_CUDA_FILTER_BORDER_CONSTANT:
      border.mode = cf::BorderMode::Constant;
      break;
  }
  border.constant = static_cast<uint16_t> (MIN (value,
          cf::max_sample_value (format)));
  return border;
}

/* ---- errors ---- */

/* Posts "<what> failed: CUDA error <name>: <description>". */
static GstFlowReturn
post_cuda_error (GstCudaFilter * self, cudaError_t err, const char *what)
{
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("%s failed: CUDA error %s: %s", what, cudaGetErrorName (err),
          cudaGetErrorString (err)),
      ("CUDA error %d on device %d", (int) err, state_of (self).device.id ()));
  return GST_FLOW_ERROR;
}

/* ---- formats mapped to components ---- */

/* P010's 10-bit samples sit in the top bits of 16 (COMP_SHIFT 6): the kernels
 * filter the values and keep the padding bits zero. */
static cf::SampleFormat
component_format (const GstVideoInfo & info, int component)
{
  return cf::SampleFormat (GST_VIDEO_INFO_COMP_DEPTH (&info, component) > 8 ?
      cf::SampleDepth::U16 : cf::SampleDepth::U8,
      GST_VIDEO_FORMAT_INFO_SHIFT (info.finfo, component));
}

/* What the kernels get of a frame's processed components: one view per plane
 * whose pixels interleave its components (RGBx, BGRA, RGB, NV12's UV), a
 * packed plane with the processed ones in its channel_mask, so that one pass
 * of whole vectors covers them; one view per component otherwise. */
struct ProcessedView
{
  int component;                /* the first processed one, whose plane view it widens */
  int channel;                  /* that component's channel */
  int channels;
  unsigned channel_mask;
  int channel_components[cf::kMaxChannels];     /* GST_VIDEO_COMP_*, -1: none */
};

/* The channel of each component of the plane where its pixels are nothing but
 * its components' samples (and bytes of none, RGBx's x), all of one size, in one
 * layout: the number of channels, or 0 where the plane is not so packed (YUY2's
 * luma and chroma have pixels of different strides). */
static int
packed_channels (const GstVideoInfo & info, guint plane,
    int (&channel_components)[cf::kMaxChannels])
{
  int pixel_stride = 0;
  cf::SampleFormat format;
  std::fill (channel_components, channel_components + cf::kMaxChannels, -1);
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&info); c++) {
    if (GST_VIDEO_INFO_COMP_PLANE (&info, c) != plane)
      continue;
    if (pixel_stride == 0) {
      pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (&info, c);
      format = component_format (info, c);
    }
    const int sample_bytes = cf::bytes_per_sample (format);
    const int offset = GST_VIDEO_INFO_COMP_POFFSET (&info, c);
    const int channel = offset / sample_bytes;
    if (GST_VIDEO_INFO_COMP_PSTRIDE (&info, c) != pixel_stride ||
        component_format (info, c) != format || offset % sample_bytes != 0 ||
        pixel_stride % sample_bytes != 0 ||
        pixel_stride > cf::kMaxChannels * sample_bytes ||
        offset >= pixel_stride || channel_components[channel] >= 0)
      return 0;
    channel_components[channel] = c;
  }
  return pixel_stride == 0 ? 0 : pixel_stride / cf::bytes_per_sample (format);
}

/* Components the element processes: luma (plus chroma when asked) of YUV formats,
 * every colour channel of RGB formats, the grey level; alpha only when asked;
 * grouped into views. */
static std::vector<ProcessedView>
views_to_process (const GstVideoInfo & info, gboolean include_chroma,
    gboolean include_alpha)
{
  std::vector<ProcessedView> views;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    ProcessedView packed = { -1, 0, 0, 0, {} };
    packed.channels = packed_channels (info, p, packed.channel_components);
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (&info); c++) {
      if (GST_VIDEO_INFO_COMP_PLANE (&info, c) != p)
        continue;
      if (c == GST_VIDEO_COMP_A && !include_alpha)
        continue;
      if (GST_VIDEO_INFO_IS_YUV (&info) && c != GST_VIDEO_COMP_Y && !include_chroma)
        continue;
      if (packed.channels < 2) {
        views.push_back ({(int) c, 0, 1, 1u, {(int) c, -1, -1, -1}});
        continue;
      }
      const int channel = GST_VIDEO_INFO_COMP_POFFSET (&info, c) /
          cf::bytes_per_sample (component_format (info, c));
      if (packed.component < 0 || channel < packed.channel) {
        packed.component = c;
        packed.channel = channel;
      }
      packed.channel_mask |= 1u << channel;
    }
    if (packed.channel_mask != 0)
      views.push_back (packed);
  }
  return views;
}

/* The frame's views (FramePlanes in and out; no out for analysis). */
static std::vector<GstCudaFilterComponent>
frame_components (const GstVideoInfo & info,
    const std::vector<ProcessedView> &views, const FramePlanes & in,
    const FramePlanes * out)
{
  std::vector<GstCudaFilterComponent> components;
  for (const ProcessedView & view : views) {
    GstCudaFilterComponent component;
    std::copy (view.channel_components, view.channel_components +
        cf::kMaxChannels, component.channel_components);
    component.format = component_format (info, view.component);
    const auto widen = [&](cf::Plane plane) {
      plane.data -= view.channel * cf::bytes_per_sample (component.format);
      plane.channels = view.channels;
      plane.channel_mask = view.channel_mask;
      return plane;
    };
    component.src = widen (in.component (view.component));
    component.dst = out ? widen (out->component (view.component)) : cf::Plane ();
    components.push_back (component);
  }
  return components;
}

/* The planes whose row bytes the processed views do not all write (alpha of
 * planar formats, padding bytes of YUY2, unprocessed chroma), as a mask: they
 * are copied through first. A packed view writes its pixels whole. */
static guint
planes_to_copy (const GstVideoInfo & info,
    const std::vector<ProcessedView> &views)
{
  guint planes = 0;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    gsize written = 0;
    for (const ProcessedView & view : views) {
      const int c = view.component;
      if (GST_VIDEO_INFO_COMP_PLANE (&info, c) == p)
        written += (gsize) GST_VIDEO_INFO_COMP_WIDTH (&info, c) *
            GST_VIDEO_INFO_COMP_HEIGHT (&info, c) * view.channels *
            cf::bytes_per_sample (component_format (info, c));
    }
    if (written != cf_plane_row_bytes (&info, p) * cf_plane_rows (&info, p))
      planes |= 1u << p;
  }
  return planes;
}

static void
copy_host_planes (GstVideoFrame & dst, const GstVideoFrame & src, guint planes)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&src); p++) {
    if (!(planes & (1u << p)))
      continue;
    const gsize row_bytes = cf_plane_row_bytes (&src.info, p);
    const auto *from = static_cast<const guint8 *> (GST_VIDEO_FRAME_PLANE_DATA (&src, p));
    auto *to = static_cast<guint8 *> (GST_VIDEO_FRAME_PLANE_DATA (&dst, p));
    for (int y = 0; y < cf_plane_rows (&src.info, p); y++)
      memcpy (to + y * GST_VIDEO_FRAME_PLANE_STRIDE (&dst, p),
          from + y * GST_VIDEO_FRAME_PLANE_STRIDE (&src, p), row_bytes);
  }
}

/* Whether the GstVideoMeta on `buffer`, if any, describes a frame of `info`:
 * gst_video_frame_map() answers another format or a smaller frame with a
 * critical, and a larger one would not match the output. */
static bool
video_meta_matches (GstBuffer * buffer, const GstVideoInfo & info)
{
  const GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  return !meta || (meta->format == GST_VIDEO_INFO_FORMAT (&info) &&
      meta->width == (guint) GST_VIDEO_INFO_WIDTH (&info) &&
      meta->height == (guint) GST_VIDEO_INFO_HEIGHT (&info) &&
      meta->n_planes == GST_VIDEO_INFO_N_PLANES (&info));
}

/* Whether every plane of a mapped frame lies in the memory mapped for it, rows
 * top-down and apart: gst_video_frame_map() takes a GstVideoMeta's offsets and
 * strides on trust. */
static bool
planes_lie_in_memory (const GstVideoFrame & frame)
{
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    const GstMapInfo & map = frame.meta ? frame.map[p] : frame.map[0];
    const gsize offset = static_cast<const guint8 *>
        (GST_VIDEO_FRAME_PLANE_DATA (&frame, p)) - map.data;
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    const gsize row_bytes = cf_plane_row_bytes (&frame.info, p);
    const gsize rows = cf_plane_rows (&frame.info, p);
    if (stride < 0 || (rows > 1 && (gsize) stride < row_bytes) ||
        offset > map.size ||
        cf_plane_span (&frame.info, p, stride) > map.size - offset)
      return false;
  }
  return true;
}

/* ---- frames in flight ---- */

static void
release_frame (PendingFrame & frame, bool keep_output)
{
  if (frame.in_frame.buffer)
    gst_video_frame_unmap (&frame.in_frame);
  if (frame.out_frame.buffer)
    gst_video_frame_unmap (&frame.out_frame);
  frame.in_frame.buffer = frame.out_frame.buffer = nullptr;
  gst_clear_buffer (&frame.input);
  if (!keep_output)
    gst_clear_buffer (&frame.output);
}


/* Events held behind frames that a flush drops go with them, as in a queue;
 * sticky ones stay on the source pad, to go out before the next data. */
static void
drop_events (GstCudaFilter * self, std::vector<GstEvent *> &events)
{
  for (GstEvent *event : events) {
    if (GST_EVENT_IS_STICKY (event) && GST_EVENT_TYPE (event) != GST_EVENT_SEGMENT
        && GST_EVENT_TYPE (event) != GST_EVENT_EOS)
      gst_pad_store_sticky_event (GST_BASE_TRANSFORM_SRC_PAD (self), event);
    gst_event_unref (event);
  }
  events.clear ();
}

/* Sends on the events that followed the frame last handed out. */
static void
forward_events (GstCudaFilter * self)
{
  CudaFilterState & st = state_of (self);
  std::vector<GstEvent *> events;
  events.swap (st.events_to_forward);
  for (GstEvent *event : events)
    GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->sink_event
        (GST_BASE_TRANSFORM (self), event);
}

/* Releases the inputs that ordered frames left behind on `slot` (-1: every
 * slot) once the slot's work on them has finished. Returns that work's error:
 * the frame itself has left already. */
static cudaError_t
retire_inputs (GstCudaFilter * self, int slot)
{
  CudaFilterState & st = state_of (self);
  cudaError_t first = cudaSuccess;
  for (int i = slot < 0 ? 0 : slot;
      i < (slot < 0 ? (int) st.retiring.size () : slot + 1); i++) {
    PendingFrame & frame = st.retiring[i];
    if (!frame.input)
      continue;
    const CudaContextScope scope (st.device);
    const cudaError_t err = scope.error () != cudaSuccess ? scope.error () :
        st.slots.wait (i);
    if (first == cudaSuccess)
      first = err;
    release_frame (frame, false);
  }
  return first;
}

/* Drops every frame in flight, after the work on its buffers has finished. */
static void
discard_pending (GstCudaFilter * self)
{
  CudaFilterState & st = state_of (self);
  drop_events (self, st.events_to_forward);
  const cudaError_t retired = retire_inputs (self, -1);
  if (retired != cudaSuccess)
    GST_WARNING_OBJECT (self, "a frame that left ended with %s",
        cudaGetErrorName (retired));
  if (st.pending.empty ())
    return;
  const CudaContextScope scope (st.device);
  for (auto & frame : st.pending) {
    if (frame.slot >= 0) {
      const cudaError_t err = scope.error () != cudaSuccess ? scope.error () :
          st.slots.wait (frame.slot);
      if (err != cudaSuccess)
        GST_WARNING_OBJECT (self, "discarded frame ended with %s",
            cudaGetErrorName (err));
    }
    release_frame (frame, false);
    drop_events (self, frame.events_after);
  }
  GST_DEBUG_OBJECT (self, "discarded %zu frames in flight", st.pending.size ());
  st.pending.clear ();
}

static bool
is_analysis (GstCudaFilter * self)
{
  return GST_CUDA_FILTER_GET_CLASS (self)->analyze_frame != nullptr;
}

/* Hands out the oldest frame in flight's output buffer, once it is safe
 * downstream. GStreamer 1.22's CUDA memory carries no stream, so no element
 * after us could order its work after ours: the frame waits until its work is
 * complete, while frames behind it stay queued on their own streams, so the
 * device never idles for it. 1.24's memory carries a stream, which
 * queue_frame_work has ordered after our work: an ordered frame leaves at
 * once, its input kept until the slot's work is done (retire_inputs). */
static GstFlowReturn
finish_oldest (GstCudaFilter * self, GstBuffer ** outbuf)
{
  CudaFilterState & st = state_of (self);
  PendingFrame frame = std::move (st.pending.front ());
  st.pending.pop_front ();
  /* Its events follow it, whatever becomes of the frame. */
  st.events_to_forward = std::move (frame.events_after);
  cudaError_t err = cudaSuccess;
  if (frame.ordered) {
    PendingFrame & kept = st.retiring[frame.slot];
    kept.input = std::exchange (frame.input, nullptr);
    kept.in_frame = frame.in_frame;
    frame.in_frame.buffer = nullptr;
  } else if (frame.slot >= 0) {
    const CudaContextScope scope (st.device);
    err = scope.error () != cudaSuccess ? scope.error () :
        st.slots.wait (frame.slot);
  }
  release_frame (frame, err == cudaSuccess);
  if (err != cudaSuccess) {
    return post_cuda_error (self, err, "Processing a frame");
  }
  if (is_analysis (self)) {
    frame.output = gst_buffer_make_writable (frame.output);
    const void *result = frame.slot >= 0 ? st.slots.host_result (frame.slot) :
        frame.result.data ();
    const GstFlowReturn ret =
        GST_CUDA_FILTER_GET_CLASS (self)->attach_results (self, frame.output,
        result, frame.frame_state.data ());
    if (ret != GST_FLOW_OK) {
      gst_buffer_unref (frame.output);
      return ret;
    }
  }
  GST_OBJECT_LOCK (self);
  if (GST_BUFFER_PTS_IS_VALID (frame.output))
    st.position_out = GST_BUFFER_PTS (frame.output) +
        (GST_BUFFER_DURATION_IS_VALID (frame.output) ?
        GST_BUFFER_DURATION (frame.output) : 0);
  GST_OBJECT_UNLOCK (self);
  *outbuf = frame.output;
  return GST_FLOW_OK;
}

/* Pushes every frame in flight downstream, oldest first. GstBaseTransform has
 * no call that pushes outside its chain function (drains come in event and
 * query handlers), so these frames pass by its bookkeeping: the DISCONT mark
 * is kept off them (submit_input_buffer) and the position downstream sees is
 * ours (gst_cuda_filter_query). */
static GstFlowReturn
drain (GstCudaFilter * self)
{
  CudaFilterState & st = state_of (self);
  forward_events (self);
  if (!st.pending.empty ())
    GST_DEBUG_OBJECT (self, "draining %zu frames", st.pending.size ());
  while (!st.pending.empty ()) {
    GstBuffer *outbuf = nullptr;
    GstFlowReturn ret = finish_oldest (self, &outbuf);
    if (ret == GST_FLOW_OK) {
      ret = gst_pad_push (GST_BASE_TRANSFORM_SRC_PAD (self), outbuf);
      if (ret == GST_FLOW_OK)
        forward_events (self);
      /* No streaming loop upstream sees this return (a drain runs in an event,
       * query or caps handler) to post the error that it would: post it here,
       * or a refused renegotiation loses the frames without a word. */
      if (ret == GST_FLOW_NOT_LINKED || ret < GST_FLOW_EOS)
        GST_ELEMENT_FLOW_ERROR (self, ret);
    }
    if (ret != GST_FLOW_OK) {
      GST_DEBUG_OBJECT (self, "drain stopped: %s", gst_flow_get_name (ret));
      discard_pending (self);
      return ret;
    }
  }
  /* A drain gives upstream back every buffer, the inputs of ordered frames
   * too. */
  const cudaError_t err = retire_inputs (self, -1);
  if (err != cudaSuccess)
    return post_cuda_error (self, err, "Processing a frame");
  return GST_FLOW_OK;
}

static GstFlowReturn
acquire_output (GstCudaFilter * self, GstBuffer ** outbuf)
{
  CudaFilterState & st = state_of (self);
  GstBufferPool *pool =
      gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (self));
  GstFlowReturn ret = GST_FLOW_ERROR;
  cudaError_t err = cudaSuccess;
  if (pool) {
    auto acquire = [&] {
      if (gst_buffer_pool_is_active (pool) || gst_buffer_pool_set_active (pool,
              TRUE))
        ret = gst_buffer_pool_acquire_buffer (pool, outbuf, nullptr);
    };
    if (st.output_side.on_device ()) {
      /* A CUDA memory pool says only that it failed: its allocations stand at
       * the fault hook's alloc point as one. */
      err = CF_CUDA (Alloc, (acquire (), ret == GST_FLOW_ERROR ?
              cudaErrorMemoryAllocation : cudaSuccess));
    } else {
      acquire ();
      if (ret == GST_FLOW_ERROR)
        err = cf_pinned_allocator_take_error (st.pinned_allocator);
    }
    gst_object_unref (pool);
  } else {
    *outbuf = gst_buffer_new_allocate (nullptr, GST_VIDEO_INFO_SIZE (&st.info),
        nullptr);
    if (*outbuf)
      ret = GST_FLOW_OK;
  }
  if (ret != GST_FLOW_ERROR)
    return ret;
  if (err != cudaSuccess)
    return post_cuda_error (self, err, "Allocating an output buffer");
  GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
      ("Could not allocate an output buffer"),
      ("%" G_GSIZE_FORMAT " bytes, in %s memory", GST_VIDEO_INFO_SIZE (&st.info),
          st.output_side.on_device () ? "CUDA" : "host"));
  return GST_FLOW_ERROR;
}

#if defined (CF_HAVE_GST_CUDA) && !defined (CF_HAVE_GST_CUDA_STREAM)
/* gst_cuda_memory_sync() exists from GStreamer 1.24 on, where CUDA memory can
 * carry its producer's stream: there it waits for upstream's work on the
 * memory. A build against 1.22 headers looks it up at run time, so that it
 * still waits where the library has it; a build against 1.24+ orders its work
 * after that stream instead (queue_frame_work). 1.22's producers finish their
 * work before they push (nvcodec's elements synchronise their stream), so
 * there is nothing to wait for. */
using CudaMemorySyncFunc = void (*) (GstMemory *);

static CudaMemorySyncFunc
cuda_memory_sync_func (void)
{
  static CudaMemorySyncFunc func = [] {
    gpointer symbol = nullptr;
    GModule *self_module = g_module_open (nullptr, G_MODULE_BIND_LAZY);
    if (self_module && !g_module_symbol (self_module, "gst_cuda_memory_sync",
            &symbol))
      symbol = nullptr;
    /* The process's own module stays loaded: nothing to close. */
    return reinterpret_cast<CudaMemorySyncFunc> (symbol);
  } ();
  return func;
}
#endif

/* Checks that a device input buffer is CUDA memory of the element's context,
 * and, built against 1.22, waits for upstream's work on it where the library
 * can say (1.24+). FALSE after posting an error naming the cause. */
static bool
check_device_input (GstCudaFilter * self, GstBuffer * input)
{
#ifdef CF_HAVE_GST_CUDA
  CudaFilterState & st = state_of (self);
  const guint n = gst_buffer_n_memory (input);
  for (guint i = 0; i < n; i++) {
    GstMemory *mem = gst_buffer_peek_memory (input, i);
    if (!gst_is_cuda_memory (mem)) {
      GST_ELEMENT_ERROR (self, STREAM, FORMAT,
          ("Input buffer in %s memory where the caps say CUDA memory",
              mem->allocator ? mem->allocator->mem_type : "unknown"),
          (nullptr));
      return false;
    }
    GstCudaContext *owner = GST_CUDA_MEMORY_CAST (mem)->context;
    if (owner != st.device.context ()) {
      guint owner_device = 0;
      g_object_get (owner, "cuda-device-id", &owner_device, nullptr);
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("Input frame in memory of another CUDA context (device %u) than "
              "the element's (device %d): share one context (GstContext "
              "\"" GST_CUDA_CONTEXT_TYPE "\") or put cudadownload before the "
              "element", owner_device, st.device.id ()), (nullptr));
      return false;
    }
#ifndef CF_HAVE_GST_CUDA_STREAM
    if (CudaMemorySyncFunc sync = cuda_memory_sync_func ())
      sync (mem);
#endif
  }
  return true;
#else
  GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("CUDA memory is not supported"),
      ("built without gstreamer-cuda-1.0"));
  (void) input;
  return false;
#endif
}

/* Maps the frame's buffers as their sides say; FALSE after posting an error. */
static bool
map_frame (GstCudaFilter * self, PendingFrame & frame, GstBuffer * input,
    bool analysis)
{
  CudaFilterState & st = state_of (self);
  if (!video_meta_matches (input, st.info)) {
    const GstVideoMeta *meta = gst_buffer_get_video_meta (input);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input frame of another format or size than its caps"),
        ("GstVideoMeta of a %u x %u %s frame (%u planes), caps of %d x %d %s",
            meta->width, meta->height, gst_video_format_to_string (meta->format),
            meta->n_planes, GST_VIDEO_INFO_WIDTH (&st.info),
            GST_VIDEO_INFO_HEIGHT (&st.info), GST_VIDEO_INFO_NAME (&st.info)));
    return false;
  }
  if (st.input_side.on_device () && !check_device_input (self, input))
    return false;
  if (!gst_video_frame_map (&frame.in_frame, &st.info, input,
          st.input_side.map_flags (GST_MAP_READ))) {
    frame.in_frame.buffer = nullptr;
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Could not map the input frame"),
        ("buffer of %" G_GSIZE_FORMAT " bytes for a %d x %d %s frame",
            gst_buffer_get_size (input), GST_VIDEO_INFO_WIDTH (&st.info),
            GST_VIDEO_INFO_HEIGHT (&st.info),
            GST_VIDEO_INFO_NAME (&st.info)));
    return false;
  }
  if (!st.input_side.on_device () && !planes_lie_in_memory (frame.in_frame)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("Input frame whose planes do not lie in its memory"),
        ("GstVideoMeta offsets and strides reach outside the buffer's memory, "
            "or rows overlap or run bottom-up"));
    return false;
  }
  if (!analysis && !gst_video_frame_map (&frame.out_frame, &st.info,
          frame.output, st.output_side.map_flags (GST_MAP_WRITE))) {
    frame.out_frame.buffer = nullptr;
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Could not map the output frame"),
        (nullptr));
    return false;
  }
  return true;
}

/* The subclass's kernels on one frame's components, in its role. */
static cudaError_t
run_kernels (GstCudaFilter * self, PendingFrame & frame,
    const std::vector<GstCudaFilterComponent> &components,
    const cf::Executor & exec, void *results, void *workspace)
{
  auto *klass = GST_CUDA_FILTER_GET_CLASS (self);
  if (!is_analysis (self))
    return klass->filter_frame (self, components, exec);
  frame.frame_state.assign (klass->frame_state_size, 0);
  return klass->analyze_frame (self, components, exec, results, workspace,
      frame.frame_state.data ());
}

#ifdef CF_HAVE_GST_CUDA_STREAM
/* The stream a buffer's CUDA memory carries (1.24+: the stream its users queue
 * their work on), or NULL. */
static cudaStream_t
memory_stream (GstBuffer * buffer)
{
  GstCudaStream *stream = gst_cuda_memory_get_stream (GST_CUDA_MEMORY_CAST
      (gst_buffer_peek_memory (buffer, 0)));
  return stream ? (cudaStream_t) gst_cuda_stream_get_handle (stream) : nullptr;
}
#endif

/* With 1.24's streams, the slot's work follows what is queued on the streams
 * of the CUDA memory it reads and writes: upstream's writes into the input,
 * earlier readers' work on a recycled output buffer. No wait on the host. */
static cudaError_t
follow_memory_streams ([[maybe_unused]] GstCudaFilter * self,
    [[maybe_unused]] const PendingFrame & frame)
{
  cudaError_t err = cudaSuccess;
#ifdef CF_HAVE_GST_CUDA_STREAM
  CudaFilterState & st = state_of (self);
  if (st.input_side.on_device ())
    if (cudaStream_t stream = memory_stream (frame.in_frame.buffer))
      err = st.slots.follow_stream (frame.slot, stream);
  if (err == cudaSuccess && frame.out_frame.buffer &&
      st.output_side.on_device ())
    if (cudaStream_t stream = memory_stream (frame.out_frame.buffer))
      err = st.slots.follow_stream (frame.slot, stream);
#endif
  return err;
}

/* Orders the stream of a filter's CUDA memory output after the frame's work,
 * so that it can leave at once (1.24+). Whether it did, in frame.ordered. */
static cudaError_t
order_output ([[maybe_unused]] GstCudaFilter * self,
    [[maybe_unused]] PendingFrame & frame)
{
  cudaError_t err = cudaSuccess;
#ifdef CF_HAVE_GST_CUDA_STREAM
  CudaFilterState & st = state_of (self);
  if (cudaStream_t stream = st.hand_out_at_once ?
      memory_stream (frame.out_frame.buffer) : nullptr) {
    err = st.slots.lead_stream (frame.slot, stream);
    frame.ordered = err == cudaSuccess;
  }
#endif
  return err;
}

/* Queues one frame's work on its slot: input to the device, the samples no
 * kernel writes copied through, the kernels (an analysis element's write its
 * results to the host themselves), the output back. Returns
 * the first error with the step it failed at. */
static cudaError_t
queue_frame_work (GstCudaFilter * self, PendingFrame & frame, guint copy_planes,
    const std::vector<ProcessedView> &selected, const char **step)
{
  CudaFilterState & st = state_of (self);
  const bool analysis = is_analysis (self);
  const int slot = frame.slot;
  cudaStream_t stream = st.slots.stream (slot);

  *step = "Ordering after the streams of the frame's memory";
  cudaError_t err = follow_memory_streams (self, frame);
  if (err == cudaSuccess) {
    *step = "Uploading a frame";
    err = st.input_side.upload (slot, frame.in_frame, stream);
  }
  const FramePlanes input = st.input_side.device_planes (slot, frame.in_frame);
  FramePlanes output;
  if (!analysis)
    output = st.output_side.device_planes (slot, frame.out_frame);
  if (err == cudaSuccess && copy_planes) {
    *step = "Copying unprocessed samples";
    err = copy_frame_samples (output, input, cudaMemcpyDeviceToDevice, stream,
        copy_planes);
  }
  if (err == cudaSuccess) {
    const std::vector<GstCudaFilterComponent> components =
        frame_components (st.info, selected, input,
        analysis ? nullptr : &output);
    cf::Executor on_device;
    on_device.on_device = true;
    on_device.stream = stream;
    *step = "Launching the kernels";
    err = CF_CUDA (Kernel, run_kernels (self, frame, components, on_device,
            st.slots.result (slot), st.slots.workspace (slot)));
  }
  if (err == cudaSuccess && !analysis) {
    *step = "Downloading the frame";
    err = st.output_side.download (slot, frame.out_frame, stream);
  }
  if (err == cudaSuccess)
    err = st.slots.mark_done (slot);
  if (err == cudaSuccess) {
    *step = "Ordering the output memory's stream";
    err = order_output (self, frame);
  }
  return err;
}

static GstFlowReturn
submit_frame (GstCudaFilter * self, GstBuffer * input)
{
  CudaFilterState & st = state_of (self);
  auto *trans = GST_BASE_TRANSFORM (self);
  auto *klass = GST_CUDA_FILTER_GET_CLASS (self);
  const bool analysis = is_analysis (self);

  cf_faults_frame_begins ();
  if (!st.configured) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (nullptr),
        ("buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }

  PendingFrame frame;
  if (analysis) {
    frame.output = input;
  } else {
    frame.input = input;
    const GstFlowReturn ret = acquire_output (self, &frame.output);
    if (ret != GST_FLOW_OK) {
      release_frame (frame, false);
      return ret;
    }
    GST_BASE_TRANSFORM_GET_CLASS (self)->copy_metadata (trans, input,
        frame.output);
  }
  if (!map_frame (self, frame, input, analysis)) {
    release_frame (frame, false);
    return GST_FLOW_ERROR;
  }

  const gboolean include_alpha = klass->includes_alpha &&
      klass->includes_alpha (self);
  GST_OBJECT_LOCK (self);
  const std::vector<ProcessedView> selected = views_to_process (st.info,
      st.include_chroma, include_alpha);
  GST_OBJECT_UNLOCK (self);
  const guint copy_planes = analysis ? 0 : planes_to_copy (st.info, selected);

  if (st.active_backend == GST_CUDA_FILTER_BACKEND_CPU) {
    copy_host_planes (frame.out_frame, frame.in_frame, copy_planes);
    const FramePlanes in = FramePlanes::of (frame.in_frame);
    FramePlanes out;
    if (!analysis)
      out = FramePlanes::of (frame.out_frame);
    const std::vector<GstCudaFilterComponent> components =
        frame_components (st.info, selected, in, analysis ? nullptr : &out);
    frame.result.resize (st.result_size);
    const cudaError_t err = run_kernels (self, frame, components,
        cf::Executor (), frame.result.data (), nullptr);
    if (err != cudaSuccess) {
      release_frame (frame, false);
        GST_ELEMENT_ERROR (self, STREAM, FAILED,
          ("Filtering a frame on the CPU failed: %s",
              cudaGetErrorString (err)), ("%s", cudaGetErrorName (err)));
      return GST_FLOW_ERROR;
    }
    release_frame (frame, true);
    st.pending.push_back (std::move (frame));
    return GST_FLOW_OK;
  }

  frame.slot = st.next_slot;
  st.next_slot = (st.next_slot + 1) % st.slots.count ();
  GST_LOG_OBJECT (self, "frame %" GST_TIME_FORMAT " on slot %d, input in %s",
      GST_TIME_ARGS (GST_BUFFER_PTS (input)), frame.slot,
      st.input_side.on_device () ? "CUDA memory" :
      cf_buffer_is_pinned (input) ? "pinned memory" : "pageable memory");
  const char *step = "Processing a frame";
  /* The slot's previous frame may have left before its work finished. */
  cudaError_t err = retire_inputs (self, frame.slot);
  const CudaContextScope scope (st.device);
  if (err == cudaSuccess) {
    step = "Making the CUDA context current";
    err = scope.error ();
  }
  if (err == cudaSuccess)
    err = queue_frame_work (self, frame, copy_planes, selected, &step);
  if (err != cudaSuccess) {
    /* What was queued before the failure still reads and writes the frames. */
    if (scope.error () == cudaSuccess)
      st.slots.wait_queued (frame.slot);
    release_frame (frame, false);
    return post_cuda_error (self, err, step);
  }
  st.pending.push_back (std::move (frame));
  return GST_FLOW_OK;
}

/* ---- memory types in caps ---- */

/* Formats gstreamer-cuda's allocator holds (measured with 1.22: GRAY8,
 * GRAY16_LE, xRGB and xBGR make it abort the process, so they are never asked
 * of it and never appear with the CUDA memory feature). */
#define CUDA_MEMORY_FORMATS "{ I420, YV12, NV12, NV21, Y42B, Y444, YUY2, " \
    "UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR, P010_10LE, P016_LE, " \
    "Y444_16LE }"
#define SYSTEM_MEMORY_FORMATS "{ GRAY8, GRAY16_LE, I420, YV12, NV12, NV21, " \
    "Y42B, Y444, YUY2, UYVY, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, xRGB, xBGR, " \
    "RGB, BGR, P010_10LE, P016_LE, Y444_16LE }"
#define CUDA_MEMORY_FEATURE "memory:CUDAMemory"

static GstCaps *
memory_caps (bool cuda)
{
#ifdef CF_HAVE_GST_CUDA
  if (cuda) {
    static GstStaticCaps caps = GST_STATIC_CAPS
        (GST_VIDEO_CAPS_MAKE_WITH_FEATURES (CUDA_MEMORY_FEATURE,
            CUDA_MEMORY_FORMATS));
    return gst_static_caps_get (&caps);
  }
#endif
  (void) cuda;
  static GstStaticCaps caps = GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE
      (SYSTEM_MEMORY_FORMATS));
  return gst_static_caps_get (&caps);
}

static bool
caps_in_cuda_memory (const GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);
  return features &&
      gst_caps_features_contains (features, CUDA_MEMORY_FEATURE);
}

/* Whether the element offers CUDA memory in caps: built with gstreamer-cuda,
 * a driver there, not on the CPU backend (and on the CUDA one once started). */
static bool
cuda_memory_offered (GstCudaFilter * self)
{
#ifdef CF_HAVE_GST_CUDA
  CudaFilterState & st = state_of (self);
  GST_OBJECT_LOCK (self);
  const bool possible = st.backend != GST_CUDA_FILTER_BACKEND_CPU &&
      st.active_backend != GST_CUDA_FILTER_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  return possible && CudaDevice::driver_loads ();
#else
  (void) self;
  return false;
#endif
}

/* The same frames in one memory type: `caps`' structures with the feature
 * `cuda` names, kept to the formats that memory type holds. */
static GstCaps *
caps_in_memory (const GstCaps * caps, bool cuda)
{
  GstCaps *moved = gst_caps_copy (caps);
  for (guint i = 0; i < gst_caps_get_size (moved); i++)
    gst_caps_set_features (moved, i, gst_caps_features_new (cuda ?
            CUDA_MEMORY_FEATURE : GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY,
            nullptr));
  GstCaps *templ = memory_caps (cuda);
  GstCaps *result = gst_caps_intersect_full (moved, templ,
      GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (templ);
  gst_caps_unref (moved);
  return result;
}

/* Frames keep format and size. A filter also converts the memory type, so each
 * structure comes in its own memory type first (the least surprise: host
 * frames stay host frames unless a neighbour takes only CUDA memory) and then
 * in the other; an analysis element passes its frames through untouched. */
static GstCaps *
gst_cuda_filter_transform_caps (GstBaseTransform * trans, GstPadDirection,
    GstCaps * caps, GstCaps * filter)
{
  auto *self = GST_CUDA_FILTER (trans);
  const bool cuda_offered = cuda_memory_offered (self);
  GstCaps *result;
  if (gst_caps_is_any (caps)) {
    result = gst_caps_new_empty ();
    if (cuda_offered)
      gst_caps_append (result, memory_caps (true));
    gst_caps_append (result, memory_caps (false));
  } else {
    result = gst_caps_new_empty ();
    for (guint i = 0; i < gst_caps_get_size (caps); i++) {
      GstCaps *one = gst_caps_copy_nth (caps, i);
      const bool in_cuda = caps_in_cuda_memory (one);
      /* Frames in a memory type not offered here cannot come or go at all. */
      for (bool cuda : {in_cuda, !in_cuda}) {
        if (((cuda || in_cuda) && !cuda_offered) ||
            (cuda != in_cuda && is_analysis (self)))
          break;
        result = gst_caps_merge (result, caps_in_memory (one, cuda));
      }
      gst_caps_unref (one);
    }
  }
  if (filter) {
    GstCaps *filtered = gst_caps_intersect_full (filter, result,
        GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = filtered;
  }
  GST_DEBUG_OBJECT (self, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      result);
  return result;
}

/* Where the neighbour takes frames in both memory types, they stay in the one
 * they come in: GstBaseTransform would otherwise take the neighbour's first,
 * and a switch of upstream's memory type mid-stream would not carry through. */
static GstCaps *
gst_cuda_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  const bool cuda = caps_in_cuda_memory (caps);
  for (guint i = 0; i < gst_caps_get_size (othercaps); i++) {
    GstCapsFeatures *features = gst_caps_get_features (othercaps, i);
    const bool other_cuda = features &&
        gst_caps_features_contains (features, CUDA_MEMORY_FEATURE);
    if (other_cuda == cuda) {
      GstCaps *same_memory = gst_caps_copy_nth (othercaps, i);
      gst_caps_unref (othercaps);
      othercaps = same_memory;
      break;
    }
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->fixate_caps
      (trans, direction, caps, othercaps);
}

/* Says why caps in CUDA memory of a format gstreamer-cuda cannot hold are
 * refused (once per element: accept-caps queries come often). */
static void
explain_refused_cuda_caps (GstCudaFilter * self, GstCaps * caps)
{
  GstVideoInfo info;
  if (!caps_in_cuda_memory (caps) || !gst_video_info_from_caps (&info, caps))
    return;
  GstCaps *templ = memory_caps (true);
  const bool held = gst_caps_can_intersect (caps, templ);
  gst_caps_unref (templ);
  static const GQuark warned = g_quark_from_static_string ("cf-refused-cuda");
  if (g_object_get_qdata (G_OBJECT (self), warned))
    return;
#ifdef CF_HAVE_GST_CUDA
  if (held)
    return;
  g_object_set_qdata (G_OBJECT (self), warned, GINT_TO_POINTER (1));
  GST_ELEMENT_WARNING (self, CORE, NEGOTIATION,
      ("%s frames cannot be in CUDA memory: gstreamer-cuda holds only "
          CUDA_MEMORY_FORMATS "; take them in system memory (video/x-raw)",
          GST_VIDEO_INFO_NAME (&info)), ("refused %" GST_PTR_FORMAT, caps));
#else
  (void) held;
  g_object_set_qdata (G_OBJECT (self), warned, GINT_TO_POINTER (1));
  GST_ELEMENT_WARNING (self, CORE, NEGOTIATION,
      ("Frames in CUDA memory are not supported: the plugin was built without "
          "gstreamer-cuda-1.0; take them in system memory (video/x-raw)"),
      ("refused %" GST_PTR_FORMAT, caps));
#endif
}

/* ---- GstBaseTransform ---- */

#ifdef CF_HAVE_GST_CUDA_STREAM
static void
clear_pool_streams (CudaFilterState & st)
{
  gst_clear_cuda_stream (&st.input_stream);
  gst_clear_cuda_stream (&st.output_stream);
}

/* The streams of our pools' CUDA memory, in the element's context: both, or
 * neither and an error. */
static cudaError_t
make_pool_streams (CudaFilterState & st)
{
  st.input_stream = gst_cuda_stream_new (st.context);
  st.output_stream = gst_cuda_stream_new (st.context);
  if (st.input_stream && st.output_stream)
    return cudaSuccess;
  clear_pool_streams (st);
  return cudaErrorInvalidResourceHandle;
}
#endif

static gboolean
gst_cuda_filter_start (GstBaseTransform * trans)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);

  GST_OBJECT_LOCK (self);
  const GstCudaFilterBackend wanted = st.backend;
  const gint device_id = st.device_id;
  GST_OBJECT_UNLOCK (self);

  GstCudaFilterBackend chosen = GST_CUDA_FILTER_BACKEND_CPU;
  CudaDevice device;
  if (wanted != GST_CUDA_FILTER_BACKEND_CPU) {
    cf_faults_arm_from_env ();
    int count = 0;
    cudaError_t err = CF_CUDA (Device, cudaGetDeviceCount (&count));
    if (err != cudaSuccess)
      count = 0;
    else if (count == 0)
      err = cudaErrorNoDevice;
    else if (!CudaDevice::driver_loads ())
      err = cudaErrorInsufficientDriver;        /* gstreamer-cuda's loader */
    if (device_id >= count) {
      if (count > 0)
        GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
            ("CUDA device %d does not exist: cuda-device-id goes up to %d here "
                "(-1: any device)", device_id, count - 1), (nullptr));
      else
        GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
            ("CUDA device %d does not exist: no CUDA device is usable (%s: %s)",
                device_id, cudaGetErrorName (err), cudaGetErrorString (err)),
            (nullptr));
      return FALSE;
    }
    if (err == cudaSuccess) {
#ifdef CF_HAVE_GST_CUDA
      /* A context from the pipeline (set_context, or a neighbour's answer to
       * our query) is used as it is; else one is made and announced. */
      err = CF_CUDA (Device, gst_cuda_ensure_element_context (GST_ELEMENT (self),
              device_id, &st.context) ? cudaSuccess : cudaErrorNoDevice);
      if (err == cudaSuccess)
        device = CudaDevice (st.context);
#else
      device = CudaDevice (MAX (device_id, 0));
#endif
    }
    if (err == cudaSuccess) {
      /* The runtime's state in this context: a broken device fails here. */
      const CudaContextScope scope (device);
      err = scope.error ();
      if (err == cudaSuccess)
        err = CF_CUDA (Device, cudaFree (nullptr));
    }
#ifdef CF_HAVE_GST_CUDA_STREAM
    if (err == cudaSuccess)
      err = make_pool_streams (st);
#endif
    if (err == cudaSuccess) {
      chosen = GST_CUDA_FILTER_BACKEND_CUDA;
    } else if (wanted == GST_CUDA_FILTER_BACKEND_CUDA) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("backend=cuda, but CUDA device %d is not usable: CUDA error %s: %s",
              MAX (device_id, 0), cudaGetErrorName (err),
              cudaGetErrorString (err)), (nullptr));
      return FALSE;
    } else if (!st.warned_cpu_fallback) {
      st.warned_cpu_fallback = true;
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND,
          ("No usable CUDA device (%s: %s); filtering on the CPU",
              cudaGetErrorName (err), cudaGetErrorString (err)),
          ("set backend=cpu to silence this warning"));
    }
  }

  GST_OBJECT_LOCK (self);
  st.active_backend = chosen;
  st.device = chosen == GST_CUDA_FILTER_BACKEND_CUDA ? device : CudaDevice ();
  if (chosen == GST_CUDA_FILTER_BACKEND_CUDA)
    st.pinned_allocator = cf_pinned_allocator_new (st.device);
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "backend: %s",
      chosen == GST_CUDA_FILTER_BACKEND_CUDA ? "cuda" : "cpu");
  g_object_notify (G_OBJECT (self), "active-backend");
  return TRUE;
}

/* Frees the CUDA resources of the caps in use. */
static void
release_cuda_resources (GstCudaFilter * self)
{
  CudaFilterState & st = state_of (self);
  cudaError_t err = st.slots.release ();
  const cudaError_t in_err = st.input_side.release ();
  const cudaError_t out_err = st.output_side.release ();
  if (err == cudaSuccess)
    err = in_err != cudaSuccess ? in_err : out_err;
  if (err != cudaSuccess)
    GST_WARNING_OBJECT (self, "freeing device memory: %s",
        cudaGetErrorName (err));
}

static gboolean
gst_cuda_filter_stop (GstBaseTransform * trans)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);
  discard_pending (self);
  release_cuda_resources (self);
  GST_OBJECT_LOCK (self);
  st.configured = false;
  st.active_backend = GST_CUDA_FILTER_BACKEND_AUTO;
  st.device = CudaDevice ();
  st.position_out = GST_CLOCK_TIME_NONE;
  GstAllocator *pinned_allocator = st.pinned_allocator;
  st.pinned_allocator = nullptr;
  GST_OBJECT_UNLOCK (self);
  gst_clear_object (&pinned_allocator);
#ifdef CF_HAVE_GST_CUDA_STREAM
  clear_pool_streams (st);
#endif
#ifdef CF_HAVE_GST_CUDA
  gst_clear_object (&st.context);
#endif
  g_object_notify (G_OBJECT (self), "active-backend");
  return TRUE;
}

static gboolean
gst_cuda_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, incaps)) {
    GST_ERROR_OBJECT (self, "invalid caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  const bool on_device = st.active_backend == GST_CUDA_FILTER_BACKEND_CUDA;
  const bool input_on_device = caps_in_cuda_memory (incaps);
  const bool output_on_device = caps_in_cuda_memory (outcaps);
  if ((input_on_device || output_on_device) && !on_device) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("CUDA memory needs the CUDA backend, which is not in use"),
        ("caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }

  /* Frames of the old caps leave before the new caps go downstream. */
  drain (self);

  GST_OBJECT_LOCK (self);
  st.info = info;
  st.in_flight = st.frames_in_flight;
  st.configured = false;
#ifdef CF_HAVE_GST_CUDA_STREAM
  /* A pool's memory carries one stream, so frames ordered on it run one after
   * another on the device. With more frames in flight they overlap on streams
   * of their own instead and leave once finished: faster for large frames
   * (measured on an H100: 4K RGBA median 3x3 at 3 in flight, 47.6 us a frame
   * against 58.8 ordered), where ordering wins at one in flight (the 1080p
   * NV12 chain: 111 us against 174). */
  st.hand_out_at_once = output_on_device && !is_analysis (self) &&
      st.in_flight == 1;
#endif
  GST_OBJECT_UNLOCK (self);

  auto *klass = GST_CUDA_FILTER_GET_CLASS (self);
  st.result_size = 0;
  if (!on_device) {
    if (klass->set_info && !klass->set_info (self, info,
            &st.result_size, nullptr))
      return FALSE;
    st.configured = true;
    return TRUE;
  }

  const CudaContextScope scope (st.device);
  const char *step = "Making the CUDA context current";
  cudaError_t err = scope.error ();
  gsize workspace_size = 0;
  if (err == cudaSuccess && klass->set_info &&
      !klass->set_info (self, info, &st.result_size, &workspace_size))
    return FALSE;
  if (err == cudaSuccess) {
    step = "Allocating device frames";
    st.next_slot = 0;
    st.retiring.resize (st.in_flight);
    err = st.slots.configure (st.device, st.in_flight, st.result_size,
        workspace_size);
  }
  std::vector<cudaStream_t> streams;
  for (int i = 0; err == cudaSuccess && i < st.slots.count (); i++)
    streams.push_back (st.slots.stream (i));
  if (err == cudaSuccess)
    err = st.input_side.configure (st.device, input_on_device, info, streams);
  /* An analysis element's frames pass through: no output frames to stage. */
  if (err == cudaSuccess)
    err = st.output_side.configure (st.device,
        output_on_device || is_analysis (self), info, streams);
  if (err != cudaSuccess) {
    post_cuda_error (self, err, step);
    st.slots.release ();
    st.input_side.release ();
    st.output_side.release ();
    return FALSE;
  }
  st.configured = true;
  GST_DEBUG_OBJECT (self, "configured for %" GST_PTR_FORMAT " -> %"
      GST_PTR_FORMAT ", %u in flight", incaps, outcaps, st.in_flight);
  return TRUE;
}

/* A pool of our own for frames of `caps` in the memory type they name, with
 * room for `count` buffers: CUDA memory of the element's context, or pinned
 * host memory; for upstream's frames (`input`) or ours. Its buffer size (the
 * CUDA pool's pitched layout decides it) in *size. */
static GstBufferPool *
frame_pool_new (GstCudaFilter * self, GstCaps * caps, guint count,
    [[maybe_unused]] bool input, guint * size)
{
  CudaFilterState & st = state_of (self);
  GstBufferPool *pool = nullptr;
#ifdef CF_HAVE_GST_CUDA
  if (caps_in_cuda_memory (caps)) {
    GstVideoInfo info;
    if (!gst_video_info_from_caps (&info, caps))
      return nullptr;
    pool = gst_cuda_buffer_pool_new (st.device.context ());
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
#ifdef CF_HAVE_GST_CUDA_STREAM
    gst_buffer_pool_config_set_cuda_stream (config,
        input ? st.input_stream : st.output_stream);
#endif
    gst_buffer_pool_config_set_params (config, caps,
        GST_VIDEO_INFO_SIZE (&info), count, 0);
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
#endif
  if (!caps_in_cuda_memory (caps))
    pool = cf_pinned_video_pool_new (caps, count, st.pinned_allocator);
  if (!pool)
    return nullptr;
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_get_params (config, nullptr, size, nullptr, nullptr);
  gst_structure_free (config);
  return pool;
}

static gboolean
gst_cuda_filter_propose_allocation (GstBaseTransform * trans, GstQuery *,
    GstQuery * query)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);
  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, nullptr);
  if (st.active_backend != GST_CUDA_FILTER_BACKEND_CUDA)
    return TRUE;

  GstCaps *caps = nullptr;
  gboolean need_pool = FALSE;
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps)
    return TRUE;
  if (!caps_in_cuda_memory (caps))
    gst_query_add_allocation_param (query, st.pinned_allocator, nullptr);
  if (!need_pool)
    return TRUE;
  /* Pinned host memory lets uploads run at bus speed, asynchronously; CUDA
   * memory of our context needs no upload at all. We hold up to
   * frames-in-flight input buffers. */
  GST_OBJECT_LOCK (self);
  const guint held = st.frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  guint size = 0;
  GstBufferPool *pool = frame_pool_new (self, caps, held, true, &size);
  if (pool) {
    gst_query_add_allocation_pool (query, pool, size, held, 0);
    gst_object_unref (pool);
  }
  return TRUE;
}

/* The output pool: a fitting pool from downstream where it has one (CUDA memory
 * of our context), else one of our own (CUDA memory, or pinned host memory that
 * downloads write into at bus speed); then GstBaseTransform configures it. */
static gboolean
gst_cuda_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);
  if (st.active_backend != GST_CUDA_FILTER_BACKEND_CUDA || is_analysis (self))
    return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->
        decide_allocation (trans, query);

  GstCaps *caps = nullptr;
  gst_query_parse_allocation (query, &caps, nullptr);
  if (!caps)
    return FALSE;
  const bool cuda = caps_in_cuda_memory (caps);
  GstBufferPool *pool = nullptr;
  guint size = 0, min = 0, max = 0;
  const bool downstream_pool = gst_query_get_n_allocation_pools (query) > 0;
  if (downstream_pool)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, &size, &min, &max);
#ifdef CF_HAVE_GST_CUDA
  if (pool && !(cuda && GST_IS_CUDA_BUFFER_POOL (pool) &&
          GST_CUDA_BUFFER_POOL (pool)->context == st.device.context ()))
    gst_clear_object (&pool);
#else
  gst_clear_object (&pool);
#endif
  /* We hold frames-in-flight output buffers, downstream may hold some. */
  min = MAX (min, st.in_flight);
  if (pool) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_add_option (config,
        GST_BUFFER_POOL_OPTION_VIDEO_META);
    gst_buffer_pool_config_set_params (config, caps, size, min, max);
#ifdef CF_HAVE_GST_CUDA_STREAM
    /* Downstream's stream where it set one, else ours: its memory must carry
     * one for our frames to leave ordered rather than waited for. */
    GstCudaStream *downstream_stream =
        gst_buffer_pool_config_get_cuda_stream (config);
    if (downstream_stream)
      gst_cuda_stream_unref (downstream_stream);
    else
      gst_buffer_pool_config_set_cuda_stream (config, st.output_stream);
#endif
    if (!gst_buffer_pool_set_config (pool, config))
      gst_clear_object (&pool);
  }
  if (!pool) {
    pool = frame_pool_new (self, caps, min, false, &size);
    max = 0;
  }
  if (!pool) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Could not configure a buffer pool of %s memory",
            cuda ? "CUDA" : "pinned host"), ("caps %" GST_PTR_FORMAT, caps));
    return FALSE;
  }
  if (downstream_pool)
    gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
  else
    gst_query_add_allocation_pool (query, pool, size, min, max);
  if (!cuda) {
    /* GstBaseTransform gives the pool the query's first allocator. */
    if (gst_query_get_n_allocation_params (query) > 0)
      gst_query_set_nth_allocation_param (query, 0, st.pinned_allocator,
          nullptr);
    else
      gst_query_add_allocation_param (query, st.pinned_allocator, nullptr);
  }
  gst_object_unref (pool);
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->
      decide_allocation (trans, query);
}

/* Downstream asks where the stream is: the end of the last frame that left,
 * as GstBaseTransform answers, but counting the frames drains pushed. FALSE
 * where GstBaseTransform's answer is the right one. */
static bool
answer_position (GstCudaFilter * self, GstQuery * query)
{
  const GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  GstFormat format;
  gst_query_parse_position (query, &format, nullptr);
  GST_OBJECT_LOCK (self);
  const GstClockTime position = state_of (self).position_out;
  GST_OBJECT_UNLOCK (self);
  if (format != GST_FORMAT_TIME || segment->format != GST_FORMAT_TIME ||
      !GST_CLOCK_TIME_IS_VALID (position))
    return false;
  gst_query_set_position (query, format, gst_segment_to_stream_time (segment,
          GST_FORMAT_TIME, position));
  return true;
}

static gboolean
gst_cuda_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);
  /* Upstream wants every buffer it gave back: the frames in flight leave first
   * (a failed drain has posted its error). */
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == GST_QUERY_DRAIN &&
      drain (self) < GST_FLOW_EOS)
    return FALSE;
#ifdef CF_HAVE_GST_CUDA
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      gst_cuda_handle_context_query (GST_ELEMENT (self), query, st.context))
    return TRUE;
#endif
  if (direction == GST_PAD_SRC && GST_QUERY_TYPE (query) == GST_QUERY_POSITION
      && answer_position (self, query))
    return TRUE;
  if (!GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->query (trans,
          direction, query))
    return FALSE;
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) ==
      GST_QUERY_ACCEPT_CAPS) {
    GstCaps *caps = nullptr;
    gboolean accepted = TRUE;
    gst_query_parse_accept_caps (query, &caps);
    gst_query_parse_accept_caps_result (query, &accepted);
    if (!accepted)
      explain_refused_cuda_caps (self, caps);
    return TRUE;
  }
  if (direction != GST_PAD_SRC || GST_QUERY_TYPE (query) != GST_QUERY_LATENCY)
    return TRUE;

  /* A frame leaves when frames-in-flight - 1 later ones have arrived, or at
   * once where its memory's stream orders it. */
  GST_OBJECT_LOCK (self);
  GstClockTime held = 0;
  const gint fps_n = GST_VIDEO_INFO_FPS_N (&st.info);
  const gint fps_d = GST_VIDEO_INFO_FPS_D (&st.info);
  if (st.configured && !st.hand_out_at_once && fps_n > 0 && fps_d > 0)
    held = gst_util_uint64_scale_int (GST_SECOND * (st.in_flight - 1), fps_d, fps_n);
  GST_OBJECT_UNLOCK (self);

  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency (query, &live, &min, &max);
  min += held;
  if (GST_CLOCK_TIME_IS_VALID (max))
    max += held;
  gst_query_set_latency (query, live, min, max);
  GST_DEBUG_OBJECT (self, "latency %" GST_TIME_FORMAT " (ours %"
      GST_TIME_FORMAT ")", GST_TIME_ARGS (min), GST_TIME_ARGS (held));
  return TRUE;
}

/* Serialized events keep their place among the frames: most wait behind the
 * frames in flight and follow the last of them out, so that a stream with
 * frequent events (tags, custom events, gaps) keeps its frames overlapping.
 * Those that change what the frames before them mean (stream start, segment,
 * caps, EOS) let every frame in flight out first. */
static gboolean
gst_cuda_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      discard_pending (self);
      GST_OBJECT_LOCK (self);
      st.position_out = GST_CLOCK_TIME_NONE;
      GST_OBJECT_UNLOCK (self);
      break;
    case GST_EVENT_STREAM_START:
    case GST_EVENT_SEGMENT:
    case GST_EVENT_CAPS:
    case GST_EVENT_EOS:
    case GST_EVENT_SEGMENT_DONE:
      drain (self);
      break;
    default:
      if (!GST_EVENT_IS_SERIALIZED (event))
        break;
      forward_events (self);
      if (!st.pending.empty ()) {
        st.pending.back ().events_after.push_back (event);
        return TRUE;
      }
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->sink_event
      (trans, event);
}

static GstFlowReturn
gst_cuda_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  auto *self = GST_CUDA_FILTER (trans);
  /* GstBaseTransform marks the next frame it pushes DISCONT: with frames in
   * flight that would be an older one. Those leave first, and this frame is
   * handed out right away, so that the mark lands on it (its output keeps its
   * own flags anyway). DISCONT is rare: the overlap is lost for one frame. */
  if (is_discont) {
    const GstFlowReturn drained = drain (self);
    if (drained != GST_FLOW_OK) {
      gst_buffer_unref (input);
      return drained;
    }
    state_of (self).hand_out_next = true;
  }
  /* The parent handles QoS and renegotiation, then queues the buffer. */
  GstFlowReturn ret =
      GST_BASE_TRANSFORM_CLASS (gst_cuda_filter_parent_class)->
      submit_input_buffer (trans, is_discont, input);
  if (ret != GST_FLOW_OK || !trans->queued_buf)
    return ret;
  GstBuffer *queued = trans->queued_buf;
  trans->queued_buf = nullptr;
  return submit_frame (self, queued);
}

static GstFlowReturn
gst_cuda_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  auto *self = GST_CUDA_FILTER (trans);
  CudaFilterState & st = state_of (self);
  *outbuf = nullptr;
  /* The frame handed out last has been pushed by now: its events follow. */
  forward_events (self);
  /* Both backends hold frames alike, so latency and ordering do not depend on
   * where the kernel ran. */
  if (st.pending.empty () || (st.pending.size () < st.in_flight &&
          !st.hand_out_next && !st.hand_out_at_once))
    return GST_FLOW_OK;
  st.hand_out_next = false;
  return finish_oldest (self, outbuf);
}

/* GstBaseTransform takes a class without transform() for a passthrough element
 * and then negotiates no output pool. Frames never get here: generate_output()
 * above produces every output. */
static GstFlowReturn
gst_cuda_filter_transform (GstBaseTransform * trans, GstBuffer *, GstBuffer *)
{
  GST_ERROR_OBJECT (trans, "transform() called: frames go through "
      "submit_input_buffer/generate_output");
  return GST_FLOW_NOT_SUPPORTED;
}

/* ---- GstElement ---- */

#ifdef CF_HAVE_GST_CUDA
static void
gst_cuda_filter_set_context (GstElement * element, GstContext * context)
{
  auto *self = GST_CUDA_FILTER (element);
  CudaFilterState & st = state_of (self);
  GST_OBJECT_LOCK (self);
  const gint device_id = st.device_id;
  GST_OBJECT_UNLOCK (self);
  /* Taken where it is for the device asked for (any, with -1). */
  gst_cuda_handle_set_context (element, context, device_id, &st.context);
  GST_ELEMENT_CLASS (gst_cuda_filter_parent_class)->set_context (element,
      context);
}
#endif

/* ---- GObject ---- */

static void
gst_cuda_filter_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  auto *self = GST_CUDA_FILTER (object);
  CudaFilterState & st = state_of (self);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      st.device_id = g_value_get_int (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      st.frames_in_flight = g_value_get_uint (value);
      break;
    case PROP_BACKEND:
      st.backend = static_cast<GstCudaFilterBackend> (g_value_get_enum (value));
      break;
    case PROP_INCLUDE_CHROMA:
      st.include_chroma = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  auto *self = GST_CUDA_FILTER (object);
  CudaFilterState & st = state_of (self);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_ID:
      g_value_set_int (value, st.device_id);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_uint (value, st.frames_in_flight);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, st.backend);
      break;
    case PROP_ACTIVE_BACKEND:
      g_value_set_enum (value, st.active_backend);
      break;
    case PROP_INCLUDE_CHROMA:
      g_value_set_boolean (value, st.include_chroma);
      break;
    case PROP_DEVICE_MEMORY:
      g_value_set_uint64 (value, st.input_side.device_bytes () +
          st.output_side.device_bytes () + st.slots.device_bytes ());
      break;
    case PROP_PINNED_MEMORY:
      g_value_set_uint64 (value, st.input_side.pinned_bytes () +
          st.slots.pinned_bytes () +
          cf_pinned_allocator_live_bytes (st.pinned_allocator));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* A filter's border starts as its subclass's default (only known now: during
 * the base's instance init the object still has the base's class). */
static void
gst_cuda_filter_constructed (GObject * object)
{
  if (GParamSpec * border = g_object_class_find_property (G_OBJECT_GET_CLASS
          (object), "border"))
    state_of (GST_CUDA_FILTER (object)).border =
        static_cast<GstCudaFilterBorder> (G_PARAM_SPEC_ENUM (border)->
        default_value);
  G_OBJECT_CLASS (gst_cuda_filter_parent_class)->constructed (object);
}

static void
gst_cuda_filter_finalize (GObject * object)
{
  auto *priv = static_cast<GstCudaFilterPrivate *>
      (gst_cuda_filter_get_instance_private (GST_CUDA_FILTER (object)));
  gst_clear_object (&priv->state->pinned_allocator);
#ifdef CF_HAVE_GST_CUDA_STREAM
  clear_pool_streams (*priv->state);
#endif
#ifdef CF_HAVE_GST_CUDA
  gst_clear_object (&priv->state->context);
#endif
  delete priv->state;
  G_OBJECT_CLASS (gst_cuda_filter_parent_class)->finalize (object);
}

static void
gst_cuda_filter_class_init (GstCudaFilterClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  auto *element_class = GST_ELEMENT_CLASS (klass);
  auto *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_filter_set_property;
  gobject_class->get_property = gst_cuda_filter_get_property;
  gobject_class->constructed = gst_cuda_filter_constructed;
  gobject_class->finalize = gst_cuda_filter_finalize;

  const auto ready_flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);
  const auto read_only = static_cast<GParamFlags> (G_PARAM_READABLE |
      G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device to run on (-1 = the device of a CUDA context the "
          "pipeline shares, else the first); a device that does not exist is "
          "an error at start", -1, G_MAXINT, DEFAULT_DEVICE_ID, ready_flags));
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_uint ("frames-in-flight", "Frames in flight",
          "Frames processed at once, each on its own CUDA stream, so uploads, "
          "kernels and downloads overlap; each frame beyond the first adds one "
          "frame duration of latency (1 = lowest latency; the CPU backend holds "
          "frames alike). With 1 and CUDA memory out, GStreamer 1.24+, a "
          "filter's frames leave as soon as their work is queued, ordered on "
          "the memory's stream",
          1, MAX_FRAMES_IN_FLIGHT, DEFAULT_FRAMES_IN_FLIGHT, ready_flags));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend", "Where frames are filtered",
          GST_TYPE_CUDA_FILTER_BACKEND, DEFAULT_BACKEND, ready_flags));
  g_object_class_install_property (gobject_class, PROP_ACTIVE_BACKEND,
      g_param_spec_enum ("active-backend", "Active backend",
          "The backend in use while running (auto while stopped)",
          GST_TYPE_CUDA_FILTER_BACKEND, GST_CUDA_FILTER_BACKEND_AUTO,
          read_only));
  g_object_class_install_property (gobject_class, PROP_INCLUDE_CHROMA,
      g_param_spec_boolean ("include-chroma", "Include chroma",
          "Also process the chroma (U, V) components of YUV formats, not only "
          "luma", DEFAULT_INCLUDE_CHROMA, static_cast<GParamFlags>
          (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));

  g_object_class_install_property (gobject_class, PROP_DEVICE_MEMORY,
      g_param_spec_uint64 ("device-memory", "Device memory",
          "Bytes of device memory the element holds now (CUDA backend): a "
          "device copy of each frame in flight for each side in host memory, "
          "and its kernels' workspace; the CUDA memory pool of its output is "
          "not counted", 0, G_MAXUINT64, 0, read_only));
  g_object_class_install_property (gobject_class, PROP_PINNED_MEMORY,
      g_param_spec_uint64 ("pinned-memory", "Pinned memory",
          "Bytes of pinned host memory the element holds now (CUDA backend): "
          "the buffers of the pools it made (offered upstream, and its "
          "output's), wherever they are, a pinned copy of each frame in "
          "flight once foreign host memory comes in, and results; foreign "
          "memory pinned in place is not counted", 0, G_MAXUINT64, 0,
          read_only));

  /* CUDA memory first: preferred where a neighbour offers both. */
  GstCaps *template_caps = gst_caps_new_empty ();
#ifdef CF_HAVE_GST_CUDA
  gst_caps_append (template_caps, memory_caps (true));
#endif
  gst_caps_append (template_caps, memory_caps (false));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, template_caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, template_caps));
  gst_caps_unref (template_caps);

#ifdef CF_HAVE_GST_CUDA
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_context);
#endif
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (gst_cuda_filter_fixate_caps);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_filter_set_caps);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_propose_allocation);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_decide_allocation);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_filter_query);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_filter_sink_event);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_cuda_filter_generate_output);
  trans_class->transform = GST_DEBUG_FUNCPTR (gst_cuda_filter_transform);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER, (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_BACKEND,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FILTER_BORDER,
      (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_filter_debug, "cudafilter", 0,
      "cudafilters base class");
}

static void
gst_cuda_filter_init (GstCudaFilter * self)
{
  auto *priv = static_cast<GstCudaFilterPrivate *>
      (gst_cuda_filter_get_instance_private (self));
  priv->state = new CudaFilterState ();
}
