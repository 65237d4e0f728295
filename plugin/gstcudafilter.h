// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* GstCudaFilter: the private base class of the cudafilters elements.
 *
 * It owns what the elements share: device choice and the CUDA context shared with
 * the pipeline (cudadevice.h), backend (CUDA or CPU), caps in system and CUDA
 * memory for every supported format mapped to planes (one per component, or one
 * packed plane for components interleaved in one plane: RGBx, NV12's UV), where
 * frames live and how they move (framesides.h), frames in flight with their
 * events, latency, drain/flush, and error mapping. A subclass only says which
 * kernels run on the planes of a frame, in one of two roles (below). */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <vector>

#include "executor.h"
#include "plane.h"

G_BEGIN_DECLS

#define GST_TYPE_CUDA_FILTER (gst_cuda_filter_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstCudaFilter, gst_cuda_filter, GST, CUDA_FILTER,
    GstBaseTransform)

typedef enum
{
  GST_CUDA_FILTER_BACKEND_AUTO,
  GST_CUDA_FILTER_BACKEND_CUDA,
  GST_CUDA_FILTER_BACKEND_CPU,
} GstCudaFilterBackend;

#define GST_TYPE_CUDA_FILTER_BACKEND (gst_cuda_filter_backend_get_type ())
GType gst_cuda_filter_backend_get_type (void);

typedef enum
{
  GST_CUDA_FILTER_BORDER_REPLICATE,
  GST_CUDA_FILTER_BORDER_REFLECT_101,
  GST_CUDA_FILTER_BORDER_CONSTANT,
} GstCudaFilterBorder;

#define GST_TYPE_CUDA_FILTER_BORDER (gst_cuda_filter_border_get_type ())
GType gst_cuda_filter_border_get_type (void);

/* One component of a frame to process, or several that lie interleaved in one
 * plane (RGBx, BGRA, RGB, NV12's UV) as a packed plane (kernels/plane.h) whose
 * channel_mask holds the processed ones (filters copy the others through):
 * planes in device memory on the CUDA backend, host memory on the CPU backend. */
typedef struct
{
  /* Of each channel of src: GST_VIDEO_COMP_Y, _U, ... _R, _G, _B, _A, or -1
   * where it is no component (RGBx's x) */
  int channel_components[cf::kMaxChannels];
  cf::Plane src;
  cf::Plane dst;                /* filters only */
  cf::SampleFormat format;      /* sample size, and P010's low padding bits */
} GstCudaFilterComponent;

/* A subclass plays one of two roles: a filter makes new frames (it sets
 * filter_frame), an analysis element passes its frames on untouched and
 * attaches what it computed (it sets analyze_frame and attach_results). */
struct _GstCudaFilterClass
{
  GstBaseTransformClass parent_class;

  /* Filter: runs the kernels from each component's src to its dst. Returns
   * the first error (a CUDA error, or cudaErrorInvalidValue where a kernel
   * refused its input, on either backend). */
  cudaError_t (*filter_frame) (GstCudaFilter * filter,
      const std::vector<GstCudaFilterComponent> & components,
      const cf::Executor & exec);

  /* Analysis: caps are set. Gives the bytes of one frame's results and, on
   * the CUDA backend (workspace_size not NULL, the context current), of the
   * device workspace of one frame in flight. FALSE (after posting an error)
   * refuses the caps. */
  gboolean (*set_info) (GstCudaFilter * filter, const GstVideoInfo & info,
      gsize * result_size, gsize * workspace_size);
  /* Analysis: whether alpha is among the components analysed (NULL: never). */
  gboolean (*includes_alpha) (GstCudaFilter * filter);
  /* Analysis: runs the kernels that put each component's results into
   * `results` (host memory; on CUDA pinned and mapped, addressed as the
   * device sees it, for the kernels to write; `workspace`:
   * device memory, CUDA only), and writes into `frame_state`
   * (frame_state_size bytes, kept with the frame) what attach_results needs
   * to know of how this frame was analysed: properties may change meanwhile.
   * Returns the first error, as filter_frame. */
  cudaError_t (*analyze_frame) (GstCudaFilter * filter,
      const std::vector<GstCudaFilterComponent> & components,
      const cf::Executor & exec, void *results, void *workspace,
      gpointer frame_state);
  /* Analysis: with each frame, in order, just before it goes downstream
   * (writable, for metas), its results in host memory and its frame_state.
   * Frames dropped at a flush never get here. */
  GstFlowReturn (*attach_results) (GstCudaFilter * filter, GstBuffer * frame,
      gconstpointer results, gconstpointer frame_state);
  gsize frame_state_size;
};

/* Installs `border` (default `default_border`) and `border-value` on a filter
 * subclass. The base class keeps their values: the subclass's set_property and
 * get_property hand property ids they do not know to the two functions below,
 * which answer FALSE for any but these two. */
void gst_cuda_filter_class_install_border_properties (GObjectClass * klass,
    guint border_prop_id, guint border_value_prop_id,
    GstCudaFilterBorder default_border);
gboolean gst_cuda_filter_set_border_property (GObject * object,
    const GValue * value, GParamSpec * pspec);
gboolean gst_cuda_filter_get_border_property (GObject * object,
    GValue * value, GParamSpec * pspec);

/* Whether `size`, a value for the window-size property `pspec`, is odd, as every
 * window of the kernels is. A GParamSpecInt's range cannot say "odd": an even
 * size is refused here the way GObject refuses one outside the range, with a
 * warning naming the element, and the caller leaves the property as it was. */
gboolean gst_cuda_filter_accept_window_size (GObject * object,
    GParamSpec * pspec, gint size);

G_END_DECLS

/* The border those two properties say, for samples of `format` (C++ linkage:
 * it returns a C++ type). */
cf::Border gst_cuda_filter_border (GstCudaFilter * filter,
    cf::SampleFormat format);
