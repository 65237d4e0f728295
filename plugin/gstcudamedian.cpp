// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/**
 * SECTION:element-cudamedian
 * @title: cudamedian
 *
 * Median filter on NVIDIA GPUs: every sample becomes the median of the
 * #GstCudaMedian:size x #GstCudaMedian:size window around it, border pixels
 * included (#GstCudaMedian:border). Removes salt-and-pepper noise while keeping
 * edges. The result is exact and identical on the CUDA and the CPU backend.
 *
 * YUV formats: luma and chroma (#CfFilter:include-chroma=false: luma
 * only); RGB formats: each colour channel; alpha is passed through unchanged.
 *
 * With #CfFilter:regions=meta only the regions of each buffer are
 * filtered: the boxes of its GstVideoRegionOfInterestMeta (and, on GStreamer
 * 1.24 and later, of its analytics object detections), of the types in
 * #CfFilter:region-types, grown by #CfFilter:region-padding and
 * clipped to the frame; at most 256 a frame. Inside them each sample is what
 * the whole frame's filter gives there; everything else passes unchanged, and
 * a frame without regions passes as it came.
 *
 * Frames in host memory go up to the GPU from pinned buffers, several at once
 * (#CfBaseFilter:frames-in-flight) so that transfers overlap the kernels;
 * buffers of an upstream pool that come back again are pinned where they are.
 * Without a usable CUDA device the element warns once and filters on the CPU.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! cudamedian ! videoconvert ! autovideosink
 * ]| A live camera, denoised: each frame leaves as soon as it is filtered.
 * |[
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=GRAY8,width=3840,height=2160 ! cudamedian size=7 border=reflect-101 ! fakesink
 * ]| A 7x7 median on 4K grey frames.
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! videoconvert ! video/x-raw,format=NV12 ! cudamedian size=5 ! videoconvert ! autovideosink
 * ]| 5x5 on luma and chroma of decoded video.
 * |[
 * gst-launch-1.0 v4l2src ! videoconvert ! facedetect display=false ! videoconvert ! cudamedian regions=meta region-types=face size=9 ! videoconvert ! autovideosink
 * ]| Smearing the faces OpenCV's facedetect finds, and nothing else.
 */
#include "gstcudamedian.h"

#include "median.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_median_debug);
#define GST_CAT_DEFAULT gst_cuda_median_debug

#define DEFAULT_SIZE 3
#define DEFAULT_BORDER CF_BORDER_REPLICATE

enum
{
  PROP_SIZE = CF_PROP_FIRST_ELEMENT_PROPERTY,
};

struct _GstCudaMedian
{
  CfFilter parent;

  /* under the object lock */
  gint size;
};

G_DEFINE_TYPE (GstCudaMedian, gst_cuda_median, CF_TYPE_FILTER);
GST_ELEMENT_REGISTER_DEFINE (cudamedian, "cudamedian", GST_RANK_NONE,
    GST_TYPE_CUDA_MEDIAN);

static cudaError_t
gst_cuda_median_filter_frame (CfFilter * filter,
    const std::vector<ComponentView> & views,
    const cf::Executor & exec)
{
  auto *self = GST_CUDA_MEDIAN (filter);
  GST_OBJECT_LOCK (self);
  const gint size = self->size;
  GST_OBJECT_UNLOCK (self);

  std::vector<cf::MedianPlane> planes;
  for (const auto & component : views) {
    cf::MedianParams params;
    params.window = size;
    params.border = cf_filter_border (filter, component.format);
    params.region = component.region;
    planes.push_back ({component.src, component.dst, component.format, params});
  }
  /* On the CPU all planes in one call: it runs them band by band (the planes
   * of I420 or NV12 read while their rows are in cache). */
  if (!exec.on_device) {
    const cudaError_t err = cf::median_cpu (planes, exec.cpu_threads);
    GST_LOG_OBJECT (self, "%zu planes, %dx%d window, on the CPU: %s",
        planes.size (), size, size, cudaGetErrorName (err));
    return err;
  }
  for (size_t i = 0; i < planes.size (); ++i) {
    const cf::MedianPlane & plane = planes[i];
    const cudaError_t err = cf::median (exec, plane.src, plane.dst, plane.format,
        plane.params);
    GST_LOG_OBJECT (self, "%d x %d, channels %#x of %d, %dx%d window: %s",
        plane.src.width, plane.src.height, plane.src.channel_mask,
        plane.src.channels, size, size, cudaGetErrorName (err));
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

static void
gst_cuda_median_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_set_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_MEDIAN (object);
  switch (prop_id) {
    case PROP_SIZE:{
      const gint size = g_value_get_int (value);
      if (!cf_filter_accept_window_size (object, pspec, size))
        break;
      GST_OBJECT_LOCK (self);
      self->size = size;
      GST_OBJECT_UNLOCK (self);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_cuda_median_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  if (prop_id < CF_PROP_FIRST_ELEMENT_PROPERTY) {
    cf_base_filter_get_property (object, prop_id, value, pspec);
    return;
  }
  auto *self = GST_CUDA_MEDIAN (object);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_SIZE:
      g_value_set_int (value, self->size);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_median_class_init (GstCudaMedianClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  auto *element_class = GST_ELEMENT_CLASS (klass);

  gobject_class->set_property = gst_cuda_median_set_property;
  gobject_class->get_property = gst_cuda_median_get_property;

  g_object_class_install_property (gobject_class, PROP_SIZE,
      g_param_spec_int ("size", "Size",
          "Width and height of the square window, odd (3x3 to 9x9 use "
          "sorting networks, larger windows a sliding histogram; on the GPU "
          "16-bit samples use sorting networks up to 15x15 and a bisection on "
          "the value from 17x17, whose cost does not depend on the data)",
          cf::kMedianMinWindow, cf::kMedianMaxWindow, DEFAULT_SIZE,
          static_cast<GParamFlags> (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));
  cf_filter_class_install_properties (gobject_class, CF_REGIONS_FRAME,
      DEFAULT_BORDER);

  gst_element_class_set_static_metadata (element_class, "CUDA median filter",
      "Filter/Effect/Video",
      "Exact median filter (3x3 to 31x31) on NVIDIA GPUs, with a CPU fallback",
      "gst-cudafilters developers");

  CF_FILTER_CLASS (klass)->filter_frame = gst_cuda_median_filter_frame;
  GST_DEBUG_CATEGORY_INIT (gst_cuda_median_debug, "cudamedian", 0,
      "CUDA median filter");
}

static void
gst_cuda_median_init (GstCudaMedian * self)
{
  self->size = DEFAULT_SIZE;
}
