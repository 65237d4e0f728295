// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/**
 * SECTION:element-cudaredact
 * @title: cudaredact
 *
 * Privacy redaction of live video on NVIDIA GPUs, in place: faces, licence
 * plates, screens or windows that a detector upstream marks, and fixed privacy
 * zones, are pixelated, blurred or filled before the video is stored or
 * leaves the site. Only the redacted pixels are written; the rest of each
 * frame passes as it came, in host memory or in CUDA memory alike. The CUDA
 * and the CPU backend give the same result, bit for bit.
 *
 * What is redacted: the boxes of each buffer's GstVideoRegionOfInterestMeta
 * and (GStreamer 1.24 and later) of its analytics object detections, of the
 * types in #CfInPlace:region-types, detections at least
 * #GstCudaRedact:min-confidence confident, grown by
 * #CfInPlace:region-padding and clipped to the frame; and the
 * #GstCudaRedact:zones, on every frame. With #GstCudaRedact:invert,
 * everything except those. From GStreamer 1.26, regions of their own shape:
 * an oriented detection as its rotated rectangle (grown by the padding on its
 * own sides), and each region of a segmentation mask (every region id it lists
 * but 0, the background, and its values not 0 that it does not list, as
 * `yolosegv8tensordec` marks its object) as its pixels, the mask mapped onto
 * the frame through its location (nearest sample) and grown by the padding;
 * their type and confidence from a classification related N_TO_N to the mask,
 * else from a related detection. A mask not given as packed GRAY8 or
 * GRAY16_LE rows is redacted as its whole location box. In subsampled planes
 * a sample is redacted where any pixel it covers is. A frame of more regions than the 256 it takes is
 * redacted whole: the ones left out are hidden too.
 *
 * It fails closed:
 * - a region the detector found but misses in a later frame is still
 *   redacted at its last box (whole, whatever its shape) while that frame is
 *   at most #GstCudaRedact:hold after the last frame that had it (the same
 *   object: the same tracking id, from a tracker such as `ioutracker`, else a
 *   box overlapping the last one by at least 30% of their union); where it
 *   moved between the last two frames that had it, the box held also covers
 *   where it went on at that speed (at most its own size further each way);
 * - with #GstCudaRedact:whole-frame=unanalyzed (the default), once the stream
 *   has carried analytics results (an analytics relation meta or tensor meta,
 *   as `onnxinference` and its tensor decoders attach to every frame they
 *   process), a frame that carries none (one the detector did not look at)
 *   is redacted whole. Detectors that only attach regions of interest, such
 *   as OpenCV's `facedetect`, mark nothing on a frame without faces: there,
 *   #GstCudaRedact:hold is what covers their misses.
 *
 * How (#GstCudaRedact:method):
 * - pixelate (the default): square blocks anchored at each box's top-left
 *   corner, #GstCudaRedact:blocks of them across the box's longer side, each
 *   the mean of the frame's samples in it (rounded half up). Mosaicking
 *   resists the deblurring that recovers blurred text and faces, and its
 *   strength follows the box: a large face is as unrecognisable as a small
 *   one. On formats with subsampled chroma, boxes grow to whole chroma
 *   samples and blocks to a multiple of the subsampling, so that the chroma
 *   blocks cover exactly the luma blocks;
 * - fill: one colour, #GstCudaRedact:fill-color (ARGB, as textoverlay's
 *   `color`), converted by the caps' colorimetry: irreversible;
 * - blur: a Gaussian blur whose sigma is #GstCudaRedact:strength times each
 *   box's shorter side (rounded up to the next of 8 steps per octave), so
 *   that a large face is blurred as much as a small one, computed as the
 *   whole frame's blur there (the pixels around a box feed it). Its cap is
 *   the kernels' sigma of 20 pixels: a box whose shorter side passes
 *   20 / strength is blurred at 20 only, less for its size, and the element
 *   warns once per stream; pixelate does not weaken so.
 * #GstCudaRedact:shape=ellipse redacts the ellipse inscribed in each box;
 * #GstCudaRedact:feather fades the redaction into the picture over that many
 * pixels outside the shape, never inside it.
 *
 * With #GstCudaRedact:post-messages (the default) each frame posts an element
 * message named "cudaredact" as it leaves: "redacted" (guint, regions
 * redacted, held ones included), "held" (guint, of those, held over from
 * earlier frames), "zones" (guint), "whole-frame" (gboolean), and the frame's
 * "timestamp", "stream-time", "running-time" and "duration" (guint64), as
 * `level`'s messages carry them. The debug category "cudaredact" logs each
 * decision.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! videoconvert ! cudaredact region-padding=16 ! videoconvert ! autovideosink
 * ]| A live camera with every face OpenCV's facedetect finds pixelated, and
 * held for a second where it misses one.
 * |[
 * gst-launch-1.0 filesrc location=street.mp4 ! parsebin ! nvh264dec ! "video/x-raw(memory:CUDAMemory)" ! cudaredact zones="<<0,900,1920,180>>" method=fill ! cudadownload ! videoconvert ! autovideosink
 * ]| Decoded by NVDEC and redacted in CUDA memory: a fixed band blacked out.
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! videoconvert ! cudaredact invert=true ! videoconvert ! autovideosink
 * ]| Everything but the faces pixelated.
 */
#include "gstcudaredact.h"

#include <cstdint>
#include <string>

#include "framemessage.h"
#include "gauss.h"
#include "redactplan.h"
#include "regionhold.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_redact_debug);
#define GST_CAT_DEFAULT gst_cuda_redact_debug

#define DEFAULT_METHOD GST_CUDA_REDACT_METHOD_PIXELATE
#define DEFAULT_BLOCKS 6
#define MAX_BLOCKS 64
#define DEFAULT_FILL_COLOR 0xff000000
#define DEFAULT_SHAPE GST_CUDA_REDACT_SHAPE_BOX
#define DEFAULT_FEATHER 0
#define DEFAULT_STRENGTH 0.15
#define MIN_STRENGTH 0.01
#define MAX_STRENGTH 1.0
#define DEFAULT_HOLD GST_SECOND
#define DEFAULT_WHOLE_FRAME GST_CUDA_REDACT_WHOLE_FRAME_UNANALYZED
#define DEFAULT_POST_MESSAGES TRUE
#define MAX_ZONES 64

enum
{
  PROP_METHOD = CF_PROP_FIRST_ELEMENT_PROPERTY,
  PROP_BLOCKS,
  PROP_FILL_COLOR,
  PROP_SHAPE,
  PROP_FEATHER,
  PROP_INVERT,
  PROP_STRENGTH,
  PROP_ZONES,
  PROP_HOLD,
  PROP_WHOLE_FRAME,
  PROP_POST_MESSAGES,
};

/* The properties' values, under the object lock. */
struct RedactSettings
{
  RedactLook look;
  std::vector<cf::Box> zones;
  GstClockTime hold = DEFAULT_HOLD;
  GstCudaRedactWholeFrame whole_frame = DEFAULT_WHOLE_FRAME;
  bool post_messages = DEFAULT_POST_MESSAGES;
};

/* The streaming thread's, from caps to stop. */
struct RedactStream
{
  RegionHold hold;
  /* A frame of the stream carried analytics results. */
  bool analyzed = false;
  bool warned_whole_frame = false;
  bool warned_blur_cap = false;
  GstClockTime last_time = GST_CLOCK_TIME_NONE;
  gsize workspace_bytes = 0;

  void reset ()
  {
    hold.reset ();
    analyzed = false;
    warned_whole_frame = false;
    warned_blur_cap = false;
    last_time = GST_CLOCK_TIME_NONE;
  }
};

struct _GstCudaRedact
{
  CfInPlace parent;
  RedactSettings *settings;
  RedactStream *stream;
};

G_DEFINE_TYPE (GstCudaRedact, gst_cuda_redact, CF_TYPE_IN_PLACE);
GST_ELEMENT_REGISTER_DEFINE (cudaredact, "cudaredact", GST_RANK_NONE,
    GST_TYPE_CUDA_REDACT);

static GType
register_enum (GType * type, const gchar * name, const GEnumValue * values)
{
  if (g_once_init_enter (type))
    g_once_init_leave (type, g_enum_register_static (name, values));
  return *type;
}

#define GST_TYPE_CUDA_REDACT_METHOD (gst_cuda_redact_method_get_type ())
static GType
gst_cuda_redact_method_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_REDACT_METHOD_PIXELATE, "Square blocks, each the mean of its "
          "pixels", "pixelate"},
    {GST_CUDA_REDACT_METHOD_FILL, "One colour, fill-color", "fill"},
    {GST_CUDA_REDACT_METHOD_BLUR, "A Gaussian blur of sigma strength x the "
          "box's shorter side", "blur"},
    {0, nullptr, nullptr},
  };
  return register_enum (&type, "GstCudaRedactMethod", values);
}

#define GST_TYPE_CUDA_REDACT_SHAPE (gst_cuda_redact_shape_get_type ())
static GType
gst_cuda_redact_shape_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_REDACT_SHAPE_BOX, "The box", "box"},
    {GST_CUDA_REDACT_SHAPE_ELLIPSE, "The ellipse inscribed in the box",
        "ellipse"},
    {0, nullptr, nullptr},
  };
  return register_enum (&type, "GstCudaRedactShape", values);
}

#define GST_TYPE_CUDA_REDACT_WHOLE_FRAME (gst_cuda_redact_whole_frame_get_type ())
static GType
gst_cuda_redact_whole_frame_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_REDACT_WHOLE_FRAME_NEVER, "Never: only the regions", "never"},
    {GST_CUDA_REDACT_WHOLE_FRAME_UNANALYZED, "A frame without analytics "
          "results, once the stream has carried them", "unanalyzed"},
    {0, nullptr, nullptr},
  };
  return register_enum (&type, "GstCudaRedactWholeFrame", values);
}

/* ---- frames ---- */

/* The bytes of samples the views of a frame of `info` span, summed as the CUDA
 * kernels count them: views of components interleaved in one plane (YUY2's Y,
 * U and V) overlap, so that the sum may pass the frame's size. Only the views'
 * geometry is used: the planes' addresses stand at their offsets from an
 * address no frame has. */
static gsize
view_bytes (const GstVideoInfo & info)
{
  FramePlanes frame;
  frame.info = &info;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    frame.data[p] = reinterpret_cast<guint8 *> (uintptr_t {4096} +
        GST_VIDEO_INFO_PLANE_OFFSET (&info, p));
    frame.stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p);
  }
  gsize bytes = 0;
  for (const ComponentView & view : ProcessedComponents (info, true,
          false).views (frame, nullptr))
    bytes += (gsize) view.src.height * cf::row_span_bytes (view.src,
        view.format);
  return bytes;
}

static gboolean
gst_cuda_redact_size_frames (CfBaseFilter * base, const GstVideoInfo & info,
    bool on_device, FrameSizes * sizes)
{
  RedactStream & stream = *GST_CUDA_REDACT (base)->stream;
  stream.workspace_bytes = on_device ?
      cf::redact_cuda_workspace_bytes (view_bytes (info)) : 0;
  sizes->workspace = stream.workspace_bytes;
  /* Boxes remembered from frames of another size. */
  stream.hold.clip_to (GST_VIDEO_INFO_WIDTH (&info),
      cf::picture_height (&info));
  return TRUE;
}

/* The time a frame counts at for hold: its timestamp, or where it has none
 * one frame after the last. */
static GstClockTime
frame_time (RedactStream & stream, GstBuffer * frame, const GstVideoInfo & info)
{
  GstClockTime time = GST_BUFFER_PTS (frame);
  if (!GST_CLOCK_TIME_IS_VALID (time)) {
    GstClockTime step = GST_BUFFER_DURATION (frame);
    if (!GST_CLOCK_TIME_IS_VALID (step))
      step = GST_VIDEO_INFO_FPS_N (&info) > 0 ?
          gst_util_uint64_scale_int (GST_SECOND, GST_VIDEO_INFO_FPS_D (&info),
          GST_VIDEO_INFO_FPS_N (&info)) : GST_SECOND / 30;
    time = GST_CLOCK_TIME_IS_VALID (stream.last_time) ?
        stream.last_time + step : 0;
  }
  stream.last_time = time;
  return time;
}

/* The zones that hold part of the frame, clipped to it. */
static void
add_zones (const std::vector<cf::Box> & zones, const GstVideoInfo & info,
    std::vector<FrameRegion> * regions)
{
  static const GQuark zone_type = g_quark_from_static_string ("zone");
  const gint64 width = GST_VIDEO_INFO_WIDTH (&info);
  const gint64 height = cf::picture_height (&info);
  for (const cf::Box & zone : zones) {
    const gint64 x0 = MAX (zone.x, 0);
    const gint64 y0 = MAX (zone.y, 0);
    const gint64 x1 = MIN ((gint64) zone.x + zone.width, width);
    const gint64 y1 = MIN ((gint64) zone.y + zone.height, height);
    if (x1 <= x0 || y1 <= y0)
      continue;
    FrameRegion region {-1, zone_type, cf::Box {(int) x0, (int) y0,
          (int) (x1 - x0), (int) (y1 - y0)}};
    region.origin = RegionOrigin::kZone;
    regions->push_back (region);
  }
}

/* Whether a frame that carries no analytics results is redacted whole. */
static bool
redacts_unanalyzed (GstCudaRedact * self, GstCudaRedactWholeFrame mode,
    bool analyzed)
{
  RedactStream & stream = *self->stream;
  if (analyzed) {
    stream.analyzed = true;
    return false;
  }
  if (mode != GST_CUDA_REDACT_WHOLE_FRAME_UNANALYZED || !stream.analyzed)
    return false;
  if (!stream.warned_whole_frame) {
    stream.warned_whole_frame = true;
    GST_ELEMENT_WARNING (self, STREAM, FAILED, ("A frame carries no analytics "
            "results after others did: it is redacted whole "
            "(whole-frame=unanalyzed). Where the detector marks only frames "
            "in which it found something, set whole-frame=never and rely on "
            "hold"), (nullptr));
  }
  return true;
}

/* Regions held over, zones and the whole frame: the frame's selection as
 * cudaredact redacts it. */
static void
gst_cuda_redact_amend_selection (CfBaseFilter * base, GstBuffer * frame,
    FrameSelection * selection)
{
  auto *self = GST_CUDA_REDACT (base);
  GST_OBJECT_LOCK (self);
  const GstClockTime hold = self->settings->hold;
  const GstCudaRedactWholeFrame mode = self->settings->whole_frame;
  const std::vector<cf::Box> zones = self->settings->zones;
  GST_OBJECT_UNLOCK (self);
  /* regions=frame: the whole frame, always. */
  if (!selection->regions)
    return;
  const GstVideoInfo & info = cf_base_filter_video_info (base);
  std::vector<FrameRegion> & regions = *selection->regions;
  const gsize found = regions.size ();
  const GstClockTime time = frame_time (*self->stream, frame, info);
  const std::vector<FrameRegion> held =
      self->stream->hold.update (regions, time, hold);
  regions.insert (regions.end (), held.begin (), held.end ());
  add_zones (zones, info, &regions);
  /* More regions than a frame takes: those left out are hidden too. */
  selection->whole_frame = redacts_unanalyzed (self, mode,
      selection->analyzed) || selection->regions_left_out > 0;
  GST_DEBUG_OBJECT (self, "frame at %" GST_TIME_FORMAT ": %" G_GSIZE_FORMAT
      " regions found, %" G_GSIZE_FORMAT " held, %" G_GSIZE_FORMAT " zones%s",
      GST_TIME_ARGS (time), found, held.size (),
      regions.size () - found - held.size (),
      selection->whole_frame ? ", the whole frame (no analytics results, or "
      "regions left out)" : "");
  for (const FrameRegion & region : held)
    GST_LOG_OBJECT (self, "held: %d,%d %dx%d%s", region.box.x, region.box.y,
        region.box.width, region.box.height, region.tracked ? " (tracked)" :
        "");
}

/* A region too large for the blur's cap is blurred less for its size: said
 * once per stream. */
static void
warn_blur_cap (GstCudaRedact * self, const RedactPlan & plan)
{
  const int side = plan.blur_capped_side ();
  if (side == 0 || self->stream->warned_blur_cap)
    return;
  self->stream->warned_blur_cap = true;
  GST_ELEMENT_WARNING (self, STREAM, FAILED, ("A region of %d pixels' shorter "
          "side needs a blur past the cap (sigma %.0f): it is blurred at the "
          "cap, less for its size than smaller regions. Lower strength or use "
          "method=pixelate, which hides large regions as well as small ones",
          side, cf::kGaussMaxSigma), (nullptr));
}

static cudaError_t
gst_cuda_redact_edit_frame (CfInPlace * in_place,
    const std::vector<ComponentView> & views,
    const FrameSelection & selection, const cf::Executor & exec,
    void *workspace, EditedAreas * edited)
{
  auto *self = GST_CUDA_REDACT (in_place);
  GST_OBJECT_LOCK (self);
  const RedactLook look = self->settings->look;
  GST_OBJECT_UNLOCK (self);
  const RedactPlan plan (cf_base_filter_video_info (CF_BASE_FILTER (self)),
      views, selection, look);
  const std::vector<cf::RedactView> & targets = plan.views ();
  bool any = plan.params ().invert;
  for (const cf::RedactView & target : targets)
    any = any || target.count > 0;
  if (!any)
    return cudaSuccess;
  warn_blur_cap (self, plan);
  const cudaError_t err = cf::redact (exec, targets.data (),
      (int) targets.size (), plan.format (), plan.params (), workspace,
      self->stream->workspace_bytes);
  GST_LOG_OBJECT (self, "%zu views, %d shapes in the first%s: %s",
      targets.size (), targets.empty ()? 0 : targets.front ().count,
      plan.params ().invert ? ", inverted" : "", cudaGetErrorName (err));
  if (err != cudaSuccess)
    return err;
  for (size_t i = 0; i < targets.size (); i++)
    (*edited)[i] = cf::redact_areas (plan.params (), targets[i]);
  return cudaSuccess;
}

/* The frame's message, as it leaves. */
static GstFlowReturn
gst_cuda_redact_attach_results (CfBaseFilter * base, GstBuffer * frame,
    const FinishedFrame & finished)
{
  auto *self = GST_CUDA_REDACT (base);
  GST_OBJECT_LOCK (self);
  const bool post = self->settings->post_messages;
  GST_OBJECT_UNLOCK (self);
  if (!post)
    return GST_FLOW_OK;
  const FrameSelection & selection = *finished.selection;
  guint redacted = 0, held = 0, zones = 0;
  if (selection.regions)
    for (const FrameRegion & region : *selection.regions) {
      zones += region.origin == RegionOrigin::kZone;
      held += region.origin == RegionOrigin::kHeld;
      redacted += region.origin != RegionOrigin::kZone;
    }
  GstStructure *message = gst_structure_new ("cudaredact",
      "redacted", G_TYPE_UINT, redacted,
      "held", G_TYPE_UINT, held,
      "zones", G_TYPE_UINT, zones,
      "whole-frame", G_TYPE_BOOLEAN,
      (gboolean) (selection.whole_frame || !selection.regions), nullptr);
  cf::set_frame_times (message, GST_BASE_TRANSFORM (self), frame);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), message));
  return GST_FLOW_OK;
}

/* A flush or a new segment starts the stream again: nothing is held over. */
static gboolean
gst_cuda_redact_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    GST_CUDA_REDACT (trans)->stream->reset ();
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_redact_parent_class)->sink_event
      (trans, event);
}

static gboolean
gst_cuda_redact_start (GstBaseTransform * trans)
{
  GST_CUDA_REDACT (trans)->stream->reset ();
  return GST_BASE_TRANSFORM_CLASS (gst_cuda_redact_parent_class)->start
      (trans);
}

/* ---- properties ---- */

static cf::RedactMethod
redact_method_of (GstCudaRedactMethod method)
{
  switch (method) {
    case GST_CUDA_REDACT_METHOD_FILL:
      return cf::RedactMethod::Fill;
    case GST_CUDA_REDACT_METHOD_BLUR:
      return cf::RedactMethod::Blur;
    default:
      return cf::RedactMethod::Pixelate;
  }
}

static GstCudaRedactMethod
method_property_of (cf::RedactMethod method)
{
  switch (method) {
    case cf::RedactMethod::Fill:
      return GST_CUDA_REDACT_METHOD_FILL;
    case cf::RedactMethod::Blur:
      return GST_CUDA_REDACT_METHOD_BLUR;
    default:
      return GST_CUDA_REDACT_METHOD_PIXELATE;
  }
}

/* `value`, a GstValueArray of <x, y, width, height> arrays of ints, as
 * zones; false, with the reason, where it is not one. */
static bool
parse_zones (const GValue * value, std::vector<cf::Box> * zones,
    std::string * why)
{
  const guint count = gst_value_array_get_size (value);
  if (count > MAX_ZONES) {
    *why = "more than " + std::to_string (MAX_ZONES) + " zones";
    return false;
  }
  for (guint i = 0; i < count; i++) {
    const GValue *zone = gst_value_array_get_value (value, i);
    if (!GST_VALUE_HOLDS_ARRAY (zone) || gst_value_array_get_size (zone) != 4) {
      *why = "zone " + std::to_string (i) + " is not <x, y, width, height>";
      return false;
    }
    gint numbers[4];
    for (guint n = 0; n < 4; n++) {
      const GValue *number = gst_value_array_get_value (zone, n);
      if (!G_VALUE_HOLDS_INT (number)) {
        *why = "zone " + std::to_string (i) + " holds a value not an integer";
        return false;
      }
      numbers[n] = g_value_get_int (number);
    }
    if (numbers[2] <= 0 || numbers[3] <= 0) {
      *why = "zone " + std::to_string (i) + " is empty";
      return false;
    }
    zones->push_back (cf::Box {numbers[0], numbers[1], numbers[2], numbers[3]});
  }
  return true;
}

static void
set_zones_value (const std::vector<cf::Box> & zones, GValue * value)
{
  for (const cf::Box & zone : zones) {
    GValue array = G_VALUE_INIT;
    gst_value_array_init (&array, 4);
    for (gint number : {zone.x, zone.y, zone.width, zone.height}) {
      GValue item = G_VALUE_INIT;
      g_value_init (&item, G_TYPE_INT);
      g_value_set_int (&item, number);
      gst_value_array_append_and_take_value (&array, &item);
    }
    gst_value_array_append_and_take_value (value, &array);
  }
}

/* Refused zones keep the ones before, with a warning that names the reason. */
static void
set_zones (GstCudaRedact * self, const GValue * value)
{
  std::vector<cf::Box> zones;
  std::string why;
  if (!parse_zones (value, &zones, &why)) {
    gchar *text = gst_value_serialize (value);
    g_warning ("%s: zones %s refused: %s", GST_OBJECT_NAME (self),
        text ? text : "", why.c_str ());
    g_free (text);
    return;
  }
  GST_OBJECT_LOCK (self);
  self->settings->zones = std::move (zones);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_redact_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_set_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_REDACT (object);
  if (prop_id == PROP_ZONES) {
    set_zones (self, value);
    return;
  }
  GST_OBJECT_LOCK (self);
  RedactSettings & settings = *self->settings;
  switch (prop_id) {
    case PROP_METHOD:
      settings.look.method = redact_method_of ((GstCudaRedactMethod)
          g_value_get_enum (value));
      break;
    case PROP_BLOCKS:
      settings.look.blocks = g_value_get_uint (value);
      break;
    case PROP_FILL_COLOR:
      settings.look.fill_argb = g_value_get_uint (value);
      break;
    case PROP_SHAPE:
      settings.look.outline = g_value_get_enum (value) ==
          GST_CUDA_REDACT_SHAPE_ELLIPSE ? cf::RedactOutline::Ellipse :
          cf::RedactOutline::Box;
      break;
    case PROP_FEATHER:
      settings.look.feather = g_value_get_uint (value);
      break;
    case PROP_INVERT:
      settings.look.invert = g_value_get_boolean (value);
      break;
    case PROP_STRENGTH:
      settings.look.strength = g_value_get_double (value);
      break;
    case PROP_HOLD:
      settings.hold = g_value_get_uint64 (value);
      break;
    case PROP_WHOLE_FRAME:
      settings.whole_frame = (GstCudaRedactWholeFrame) g_value_get_enum (value);
      break;
    case PROP_POST_MESSAGES:
      settings.post_messages = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_redact_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_get_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_REDACT (object);
  GST_OBJECT_LOCK (self);
  const RedactSettings & settings = *self->settings;
  switch (prop_id) {
    case PROP_METHOD:
      g_value_set_enum (value, method_property_of (settings.look.method));
      break;
    case PROP_BLOCKS:
      g_value_set_uint (value, settings.look.blocks);
      break;
    case PROP_FILL_COLOR:
      g_value_set_uint (value, settings.look.fill_argb);
      break;
    case PROP_SHAPE:
      g_value_set_enum (value, settings.look.outline ==
          cf::RedactOutline::Ellipse ? GST_CUDA_REDACT_SHAPE_ELLIPSE :
          GST_CUDA_REDACT_SHAPE_BOX);
      break;
    case PROP_FEATHER:
      g_value_set_uint (value, settings.look.feather);
      break;
    case PROP_INVERT:
      g_value_set_boolean (value, settings.look.invert);
      break;
    case PROP_STRENGTH:
      g_value_set_double (value, settings.look.strength);
      break;
    case PROP_ZONES:
      set_zones_value (settings.zones, value);
      break;
    case PROP_HOLD:
      g_value_set_uint64 (value, settings.hold);
      break;
    case PROP_WHOLE_FRAME:
      g_value_set_enum (value, settings.whole_frame);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, settings.post_messages);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* How regions are redacted: method, blocks, fill-color, strength, shape,
 * feather, invert. */
static void
install_look_properties (GObjectClass * klass, GParamFlags flags)
{
  g_object_class_install_property (klass, PROP_METHOD,
      g_param_spec_enum ("method", "Method", "How regions are redacted",
          GST_TYPE_CUDA_REDACT_METHOD, DEFAULT_METHOD, flags));
  g_object_class_install_property (klass, PROP_BLOCKS,
      g_param_spec_uint ("blocks", "Blocks", "method=pixelate: blocks across "
          "a region's longer side (fewer hide more)", 1, MAX_BLOCKS,
          DEFAULT_BLOCKS, flags));
  g_object_class_install_property (klass, PROP_FILL_COLOR,
      g_param_spec_uint ("fill-color", "Fill color", "method=fill: the colour, "
          "big-endian ARGB (0xAARRGGBB; alpha is the alpha channel's, where "
          "the format has one), converted by the caps' colorimetry", 0,
          G_MAXUINT32, DEFAULT_FILL_COLOR, flags));
  g_object_class_install_property (klass, PROP_STRENGTH,
      g_param_spec_double ("strength", "Strength", "method=blur: the blur's "
          "sigma as a fraction of a region's shorter side (rounded up to the "
          "next of 8 steps per octave; at most 20 pixels: larger regions are "
          "blurred less for their size)", MIN_STRENGTH, MAX_STRENGTH,
          DEFAULT_STRENGTH, flags));
  g_object_class_install_property (klass, PROP_SHAPE,
      g_param_spec_enum ("shape", "Shape", "The shape redacted in each box",
          GST_TYPE_CUDA_REDACT_SHAPE, DEFAULT_SHAPE, flags));
  g_object_class_install_property (klass, PROP_FEATHER,
      g_param_spec_uint ("feather", "Feather", "Pixels outside each shape "
          "over which the redaction fades into the picture (the shape itself "
          "stays wholly redacted)", 0, cf::kRedactMaxFeather, DEFAULT_FEATHER,
          flags));
  g_object_class_install_property (klass, PROP_INVERT,
      g_param_spec_boolean ("invert", "Invert", "Redact everything except the "
          "regions and zones (a person who asked to be shown)", FALSE, flags));
}

/* What is redacted besides each frame's regions: zones, hold, whole-frame. */
static void
install_coverage_properties (GObjectClass * klass, GParamFlags flags)
{
  const auto item_flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS);
  g_object_class_install_property (klass, PROP_ZONES,
      gst_param_spec_array ("zones", "Zones", "Boxes redacted on every frame, "
          "in pixels: <<x, y, width, height>, ...> (at most 64)",
          gst_param_spec_array ("zone", "Zone", "<x, y, width, height>",
              g_param_spec_int ("value", "Value", "A coordinate or size",
                  G_MININT, G_MAXINT, 0, item_flags), item_flags), flags));
  g_object_class_install_property (klass, PROP_HOLD,
      g_param_spec_uint64 ("hold", "Hold", "Nanoseconds a region the detector "
          "stops finding stays redacted at its last box (0: none)", 0,
          G_MAXUINT64, DEFAULT_HOLD, flags));
  g_object_class_install_property (klass, PROP_WHOLE_FRAME,
      g_param_spec_enum ("whole-frame", "Whole frame", "When the whole frame "
          "is redacted", GST_TYPE_CUDA_REDACT_WHOLE_FRAME,
          DEFAULT_WHOLE_FRAME, flags));
  g_object_class_install_property (klass, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages", "Post a "
          "\"cudaredact\" element message for each frame, saying what was "
          "redacted", DEFAULT_POST_MESSAGES, flags));
}

static void
gst_cuda_redact_finalize (GObject * object)
{
  auto *self = GST_CUDA_REDACT (object);
  delete self->settings;
  delete self->stream;
  G_OBJECT_CLASS (gst_cuda_redact_parent_class)->finalize (object);
}

static void
gst_cuda_redact_class_init (GstCudaRedactClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  auto *element_class = GST_ELEMENT_CLASS (klass);
  auto *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  auto *base_class = CF_BASE_FILTER_CLASS (klass);
  const auto flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);

  gobject_class->set_property = gst_cuda_redact_set_property;
  gobject_class->get_property = gst_cuda_redact_get_property;
  gobject_class->finalize = gst_cuda_redact_finalize;

  cf_in_place_class_install_properties (gobject_class, CF_REGIONS_META);
  cf_base_filter_class_install_property (gobject_class,
      CF_PROP_MIN_CONFIDENCE);
  install_look_properties (gobject_class, flags);
  install_coverage_properties (gobject_class, flags);

  gst_element_class_set_static_metadata (element_class,
      "CUDA privacy redaction", "Filter/Effect/Video",
      "Pixelates, blurs or fills detected regions and privacy zones in place on "
      "NVIDIA GPUs, failing closed where the detector misses, with a CPU "
      "fallback", "gst-cudafilters developers");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_redact_start);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_redact_sink_event);
  base_class->size_frames = gst_cuda_redact_size_frames;
  base_class->amend_selection = gst_cuda_redact_amend_selection;
  base_class->attach_results = gst_cuda_redact_attach_results;
  CF_IN_PLACE_CLASS (klass)->edit_frame = gst_cuda_redact_edit_frame;

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_REDACT_METHOD,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_REDACT_SHAPE,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_REDACT_WHOLE_FRAME,
      (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_redact_debug, "cudaredact", 0,
      "CUDA privacy redaction");
}

static void
gst_cuda_redact_init (GstCudaRedact * self)
{
  self->settings = new RedactSettings ();
  self->stream = new RedactStream ();
}
