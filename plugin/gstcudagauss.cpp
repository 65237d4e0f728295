// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/**
 * SECTION:element-cudagauss
 * @title: cudagauss
 *
 * Gaussian blur, or unsharp masking, on NVIDIA GPUs, with an exact result that
 * is identical on the CUDA and the CPU backend.
 *
 * The arithmetic, exactly: the taps of each direction are the Gaussian weights
 * exp(-i^2 / (2 sigma^2)) over #GstCudaGauss:kernel-size samples, normalised,
 * scaled by 2^B and rounded to integers, the centre tap absorbing the rounding so
 * that they sum exactly to 2^B (B = 12 for 8-bit formats, 20 for 16-bit). Every
 * sum is an integer; the one rounding is at the end:
 * blur = (sum over the window of tap_y * tap_x * sample + 2^(2B-1)) >> 2B
 * (half up). Against OpenCV's GaussianBlur in double precision with the same
 * sigma, kernel size and border, every sample is within 1 and the mean difference
 * under 0.05.
 *
 * #GstCudaGauss:mode=unsharp sharpens instead: with d = sample - blur, a sample
 * becomes sample + amount * d (amount in steps of 1/256, rounded half up, then
 * clamped) where |d| is at least #GstCudaGauss:threshold, and stays as it is
 * elsewhere, as the `gaussianblur` element's negative sigma does.
 *
 * YUV formats: luma and chroma (#CfFilter:include-chroma=false: luma
 * only); RGB formats: each colour channel; alpha is passed through unchanged.
 *
 * With #CfFilter:regions=meta only the regions of each buffer are
 * blurred (privacy masking): the boxes of its GstVideoRegionOfInterestMeta
 * (and, on GStreamer 1.24 and later, of its analytics object detections), of
 * the types in #CfFilter:region-types, grown by
 * #CfFilter:region-padding and clipped to the frame; at most 256 a frame.
 * Inside them each sample is what the whole frame's blur gives there, samples
 * outside the boxes feeding it as usual; everything else passes unchanged, and
 * a frame without regions passes as it came. The work follows the boxes'
 * area.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudagauss sigma=2 ! videoconvert ! autovideosink
 * ]| A live camera, blurred: each frame leaves as soon as it is filtered.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8,width=3840,height=2160 ! cudagauss sigma=4.6 kernel-size=15 ! fakesink
 * ]| A 15-tap blur on 4K grey frames.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! videoconvert ! video/x-raw,format=NV12 ! cudagauss mode=unsharp sigma=1.5 amount=0.8 threshold=4 ! videoconvert ! autovideosink
 * ]| Sharpening decoded video, leaving flat areas (detail under 4) alone.
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! videoconvert ! video/x-raw,format=NV12 ! cudagauss regions=meta region-types=face region-padding=16 sigma=12 ! videoconvert ! autovideosink
 * ]| Blurring every face OpenCV's facedetect finds, with a margin around it.
 */
#include "gstcudagauss.h"

#include "gauss.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_gauss_debug);
#define GST_CAT_DEFAULT gst_cuda_gauss_debug

#define DEFAULT_SIGMA 1.0
#define DEFAULT_SIGMA_Y 0.0
#define DEFAULT_KERNEL_SIZE 0
#define DEFAULT_BORDER CF_BORDER_REFLECT_101
#define DEFAULT_MODE GST_CUDA_GAUSS_MODE_BLUR
#define DEFAULT_AMOUNT 1.0
#define MAX_AMOUNT 10.0
#define DEFAULT_THRESHOLD 0

enum
{
  PROP_SIGMA = CF_PROP_FIRST_ELEMENT_PROPERTY,
  PROP_SIGMA_Y,
  PROP_KERNEL_SIZE,
  PROP_MODE,
  PROP_AMOUNT,
  PROP_THRESHOLD,
};

struct _GstCudaGauss
{
  CfFilter parent;

  /* under the object lock */
  gdouble sigma;
  gdouble sigma_y;
  gint kernel_size;
  GstCudaGaussMode mode;
  gdouble amount;
  guint threshold;
};

G_DEFINE_TYPE (GstCudaGauss, gst_cuda_gauss, CF_TYPE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudagauss, "cudagauss", GST_RANK_NONE,
    GST_TYPE_CUDA_GAUSS);

#define GST_TYPE_CUDA_GAUSS_MODE (gst_cuda_gauss_mode_get_type ())
static GType
gst_cuda_gauss_mode_get_type (void)
{
  static GType type;
  static const GEnumValue values[] = {
    {GST_CUDA_GAUSS_MODE_BLUR, "Gaussian blur", "blur"},
    {GST_CUDA_GAUSS_MODE_UNSHARP,
        "Unsharp masking: add amount x (sample - blur)", "unsharp"},
    {0, nullptr, nullptr},
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCudaGaussMode",
            values));
  return type;
}

static cudaError_t
gst_cuda_gauss_filter_frame (CfFilter * filter,
    const std::vector<ComponentView> & views,
    const cf::Executor & exec)
{
  auto *self = GST_CUDA_GAUSS (filter);
  GST_OBJECT_LOCK (self);
  const gdouble sigma = self->sigma;
  const gdouble sigma_y = self->sigma_y;
  const gint kernel_size = self->kernel_size;
  const GstCudaGaussMode mode = self->mode;
  const gdouble amount = self->amount;
  const guint threshold = self->threshold;
  GST_OBJECT_UNLOCK (self);

  for (const auto & component : views) {
    cf::GaussParams params = cf::make_gauss_params (sigma, sigma_y, kernel_size,
        kernel_size, component.format,
        cf_filter_border (filter, component.format));
    params.region = component.region;
    if (mode == GST_CUDA_GAUSS_MODE_UNSHARP) {
      params.mode = cf::GaussMode::Unsharp;
      params.amount_q8 = static_cast<int32_t> (amount * 256 + 0.5);
      params.threshold = MIN (threshold, cf::max_sample_value (component.format));
    }
    const cudaError_t err = cf::gauss (exec, component.src, component.dst,
        component.format, params);
    GST_LOG_OBJECT (self, "%d x %d, channels %#x of %d, %zu x %zu taps: %s",
        component.src.width, component.src.height, component.src.channel_mask,
        component.src.channels, params.taps_x.size (), params.taps_y.size (),
        cudaGetErrorName (err));
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

static void
gst_cuda_gauss_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_set_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_GAUSS (object);
  if (prop_id == PROP_KERNEL_SIZE) {
    const gint size = g_value_get_int (value);
    /* 0: the size follows sigma. */
    if (size != 0 && !cf_filter_accept_window_size (object, pspec, size))
      return;
  }
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      self->sigma = g_value_get_double (value);
      break;
    case PROP_SIGMA_Y:
      self->sigma_y = g_value_get_double (value);
      break;
    case PROP_KERNEL_SIZE:
      self->kernel_size = g_value_get_int (value);
      break;
    case PROP_MODE:
      self->mode = static_cast<GstCudaGaussMode> (g_value_get_enum (value));
      break;
    case PROP_AMOUNT:
      self->amount = g_value_get_double (value);
      break;
    case PROP_THRESHOLD:
      self->threshold = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_gauss_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_get_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_GAUSS (object);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIGMA:
      g_value_set_double (value, self->sigma);
      break;
    case PROP_SIGMA_Y:
      g_value_set_double (value, self->sigma_y);
      break;
    case PROP_KERNEL_SIZE:
      g_value_set_int (value, self->kernel_size);
      break;
    case PROP_MODE:
      g_value_set_enum (value, self->mode);
      break;
    case PROP_AMOUNT:
      g_value_set_double (value, self->amount);
      break;
    case PROP_THRESHOLD:
      g_value_set_uint (value, self->threshold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_gauss_class_init (GstCudaGaussClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  auto *element_class = GST_ELEMENT_CLASS (klass);
  const auto flags = static_cast<GParamFlags> (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);

  gobject_class->set_property = gst_cuda_gauss_set_property;
  gobject_class->get_property = gst_cuda_gauss_get_property;

  g_object_class_install_property (gobject_class, PROP_SIGMA,
      g_param_spec_double ("sigma", "Sigma",
          "Standard deviation of the Gaussian, in pixels (horizontal, and "
          "vertical unless sigma-y is set)", cf::kGaussMinSigma,
          cf::kGaussMaxSigma, DEFAULT_SIGMA, flags));
  g_object_class_install_property (gobject_class, PROP_SIGMA_Y,
      g_param_spec_double ("sigma-y", "Sigma Y",
          "Vertical standard deviation, in pixels (0 = same as sigma)", 0,
          cf::kGaussMaxSigma, DEFAULT_SIGMA_Y, flags));
  g_object_class_install_property (gobject_class, PROP_KERNEL_SIZE,
      g_param_spec_int ("kernel-size", "Kernel size",
          "Taps in each direction, odd (0 = automatic: 2 * ceil(3 * sigma) + 1 "
          "for each direction's sigma)", 0, cf::kGaussMaxKernelSize,
          DEFAULT_KERNEL_SIZE, flags));
  cf_filter_class_install_properties (gobject_class, CF_REGIONS_FRAME,
      DEFAULT_BORDER);
  g_object_class_install_property (gobject_class, PROP_MODE,
      g_param_spec_enum ("mode", "Mode", "Blur, or sharpen by unsharp masking",
          GST_TYPE_CUDA_GAUSS_MODE, DEFAULT_MODE, flags));
  g_object_class_install_property (gobject_class, PROP_AMOUNT,
      g_param_spec_double ("amount", "Amount",
          "mode=unsharp: how much of the detail (sample - blur) is added, in "
          "steps of 1/256", 0, MAX_AMOUNT, DEFAULT_AMOUNT, flags));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_uint ("threshold", "Threshold",
          "mode=unsharp: detail smaller than this (in sample values) is left "
          "alone, so flat areas and noise are not sharpened", 0, G_MAXUINT16,
          DEFAULT_THRESHOLD, flags));

  gst_element_class_set_static_metadata (element_class,
      "CUDA Gaussian blur", "Filter/Effect/Video",
      "Exact Gaussian blur and unsharp masking on NVIDIA GPUs, with a CPU "
      "fallback", "gst-cudafilters developers");

  CF_FILTER_CLASS (klass)->filter_frame = gst_cuda_gauss_filter_frame;
  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_GAUSS_MODE, (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (gst_cuda_gauss_debug, "cudagauss", 0,
      "CUDA Gaussian blur");
}

static void
gst_cuda_gauss_init (GstCudaGauss * self)
{
  self->sigma = DEFAULT_SIGMA;
  self->sigma_y = DEFAULT_SIGMA_Y;
  self->kernel_size = DEFAULT_KERNEL_SIZE;
  self->mode = DEFAULT_MODE;
  self->amount = DEFAULT_AMOUNT;
  self->threshold = DEFAULT_THRESHOLD;
}
