/* GstCudaFilter: the private base class of the cudafilters elements.
 *
 * It owns what the elements share: device choice, backend (CUDA or CPU), caps for
 * every supported format mapped to single-component planes, the pinned-memory data
 * path with frames in flight, latency, drain/flush, and error mapping. A subclass
 * only says which kernel runs on the planes of a frame. */
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

/* One component of a frame to process: planes in device memory on the CUDA
 * backend, host memory on the CPU backend. */
typedef struct
{
  int index;                    /* GST_VIDEO_COMP_Y, _U, ... _R, _G, _B, _A */
  cf::Plane src;
  cf::Plane dst;                /* filters only */
  cf::SampleFormat format;      /* sample size, and P010's low padding bits */
} GstCudaFilterComponent;

/* Where an analysis element's kernels put one frame's results. */
typedef struct
{
  void *data;                   /* device memory on CUDA, host memory on the CPU */
  void *workspace;              /* device memory, zeroed once (CUDA only) */
  /* What finish_frame needs to know of how the frame was processed (it may have
   * changed since): set it, or leave it NULL; the base class frees it. */
  GstStructure **notes;
} GstCudaFilterResult;

struct _GstCudaFilterClass
{
  GstBaseTransformClass parent_class;

  /* Runs the element's kernels on every component of one frame: a filter writes
   * each component's dst, an analysis element `result`. Returns the first CUDA
   * error (cudaSuccess on the CPU backend). */
  cudaError_t (*process_frame) (GstCudaFilter * filter,
      const std::vector<GstCudaFilterComponent> & components,
      const cf::Executor & exec, const GstCudaFilterResult & result);

  /* Analysis elements set these two; their frames pass through unchanged and
   * only the results come back from the device. */

  /* Bytes of one frame's results and, on the CUDA backend (workspace_size not
   * NULL, the device current), of the device workspace of one frame in flight,
   * for frames as `info` says; asked when caps are set. FALSE (after posting
   * an error) refuses the caps. */
  gboolean (*result_sizes) (GstCudaFilter * filter, const GstVideoInfo & info,
      gsize * result_size, gsize * workspace_size);
  /* Called with each frame, in order, with its results in host memory and the
   * notes process_frame left, just before the frame goes downstream; `frame`
   * is writable (for metas). Frames dropped at a flush never get here. */
  GstFlowReturn (*finish_frame) (GstCudaFilter * filter, GstBuffer * frame,
      gconstpointer result, const GstStructure * notes);

  /* Whether alpha is among the components processed (NULL: never). */
  gboolean (*includes_alpha) (GstCudaFilter * filter);
};

/* Installs `border` (default `default_border`) and `border-value` on a subclass. */
void gst_cuda_filter_class_install_border_properties (GObjectClass * klass,
    guint border_prop_id, guint border_value_prop_id,
    GstCudaFilterBorder default_border);

G_END_DECLS

/* The border from the values of those two properties, for samples of `format`
 * (C++ linkage: it returns a C++ type). */
cf::Border gst_cuda_filter_make_border (GstCudaFilterBorder mode, guint value,
    cf::SampleFormat format);
