#include "cudaframeslots.h"

#include <algorithm>

#include "cfvideolayout.h"
#include "cudafaults.h"

/* Returns the first failing CUDA call's error from the enclosing function. */
#define CF_RETURN_IF_FAILED(call) \
  do { \
    const cudaError_t cf_err_ = (call); \
    if (cf_err_ != cudaSuccess) \
      return cf_err_; \
  } while (0)

struct CudaFrameSlots::Slot
{
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  guint8 *input = nullptr;
  guint8 *output = nullptr;
  void *result = nullptr;
  void *workspace = nullptr;
  void *host_result = nullptr;  /* pinned */

  /* Frees in reverse order of creation; the first error wins. */
  cudaError_t destroy ()
  {
    cudaError_t first = cudaSuccess;
    auto keep_first = [&first] (cudaError_t err) {
      if (first == cudaSuccess)
        first = err;
    };
    if (stream)
      keep_first (CF_CUDA (Sync, cudaStreamSynchronize (stream)));
    if (host_result)
      keep_first (cf_cuda_free_host (host_result));
    if (workspace)
      keep_first (cf_cuda_free (workspace));
    if (result)
      keep_first (cf_cuda_free (result));
    if (output)
      keep_first (cf_cuda_free (output));
    if (input)
      keep_first (cf_cuda_free (input));
    if (done)
      keep_first (cf_cuda_event_destroy (done));
    if (stream)
      keep_first (cf_cuda_stream_destroy (stream));
    stream = nullptr;
    done = nullptr;
    input = output = nullptr;
    result = workspace = host_result = nullptr;
    return first;
  }

  ~Slot () { destroy (); }
};

CudaFrameSlots::CudaFrameSlots () = default;

CudaFrameSlots::~CudaFrameSlots ()
{
  release ();
}

cudaStream_t
CudaFrameSlots::stream (int slot) const
{
  return slots_[slot]->stream;
}

cudaError_t
CudaFrameSlots::select_device () const
{
  return CF_CUDA (Device, cudaSetDevice (device_));
}

cudaError_t
CudaFrameSlots::configure (int device, const GstVideoInfo & info, int count,
    bool output_frames, size_t result_size, size_t workspace_size)
{
  CF_RETURN_IF_FAILED (release ());
  device_ = device;
  info_ = info;
  CF_RETURN_IF_FAILED (select_device ());
  const size_t frame_bytes = std::max<size_t> (GST_VIDEO_INFO_SIZE (&info), 1);
  for (int i = 0; i < count; i++) {
    slots_.push_back (std::make_unique<Slot> ());
    Slot & slot = *slots_.back ();
    CF_RETURN_IF_FAILED (cf_cuda_stream_create (&slot.stream,
            cudaStreamNonBlocking));
    CF_RETURN_IF_FAILED (cf_cuda_event_create (&slot.done,
            cudaEventDisableTiming));
    /* Every device buffer starts zeroed: bytes no copy or kernel writes (row
     * padding, channels a format lacks) then move on defined, as
     * compute-sanitizer's initcheck demands, rather than whatever the device
     * held. On the slot's stream: the legacy default stream does not order
     * work on non-blocking streams, and a late memset would wipe the first
     * frame. */
    auto alloc_zeroed = [&slot] (void **buffer, size_t bytes) {
      CF_RETURN_IF_FAILED (cf_cuda_malloc (buffer, bytes));
      return CF_CUDA (Alloc, cudaMemsetAsync (*buffer, 0, bytes, slot.stream));
    };
    CF_RETURN_IF_FAILED (alloc_zeroed (reinterpret_cast<void **> (&slot.input),
            frame_bytes));
    if (output_frames)
      CF_RETURN_IF_FAILED (alloc_zeroed (reinterpret_cast<void **>
              (&slot.output), frame_bytes));
    if (result_size) {
      CF_RETURN_IF_FAILED (alloc_zeroed (&slot.result, result_size));
      CF_RETURN_IF_FAILED (cf_cuda_host_alloc (&slot.host_result, result_size,
              cudaHostAllocDefault));
    }
    if (workspace_size)
      CF_RETURN_IF_FAILED (alloc_zeroed (&slot.workspace, workspace_size));
  }
  result_size_ = result_size;
  return cudaSuccess;
}

cudaError_t
CudaFrameSlots::release ()
{
  if (slots_.empty ())
    return cudaSuccess;
  cudaError_t first = select_device ();
  for (auto & slot : slots_) {
    const cudaError_t err = slot->destroy ();
    if (first == cudaSuccess)
      first = err;
  }
  slots_.clear ();
  return first;
}

/* Copies one plane. Equal pitches make one linear copy: the copy engines move
 * pitched 2D copies of short rows several times slower. */
static cudaError_t
copy_plane (guint8 * dst, size_t dst_pitch, const guint8 * src, size_t src_pitch,
    const GstVideoInfo & info, guint plane, cudaMemcpyKind kind,
    cudaStream_t stream)
{
  const int rows = cf_plane_rows (&info, plane);
  const size_t row_bytes = cf_plane_row_bytes (&info, plane);
  const CfFaultPoint point = kind == cudaMemcpyHostToDevice ?
      CfFaultPoint::Upload : CfFaultPoint::Download;
  return cf_faults_call (point, [&] {
        if (dst_pitch == src_pitch)
          return cudaMemcpyAsync (dst, src, dst_pitch * (rows - 1) + row_bytes,
              kind, stream);
        return cudaMemcpy2DAsync (dst, dst_pitch, src, src_pitch, row_bytes,
            rows, kind, stream);
      });
}

cudaError_t
CudaFrameSlots::upload (int slot, const GstVideoFrame & host)
{
  CF_RETURN_IF_FAILED (select_device ());
  Slot & s = *slots_[slot];
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info_); p++)
    CF_RETURN_IF_FAILED (copy_plane (s.input +
            GST_VIDEO_INFO_PLANE_OFFSET (&info_, p),
            GST_VIDEO_INFO_PLANE_STRIDE (&info_, p),
            static_cast<const guint8 *> (GST_VIDEO_FRAME_PLANE_DATA (&host, p)),
            GST_VIDEO_FRAME_PLANE_STRIDE (&host, p), info_, p,
            cudaMemcpyHostToDevice, s.stream));
  return cudaSuccess;
}

cudaError_t
CudaFrameSlots::copy_input_to_output (int slot)
{
  CF_RETURN_IF_FAILED (select_device ());
  Slot & s = *slots_[slot];
  return CF_CUDA (Kernel, cudaMemcpyAsync (s.output, s.input,
          GST_VIDEO_INFO_SIZE (&info_), cudaMemcpyDeviceToDevice, s.stream));
}

cudaError_t
CudaFrameSlots::download (int slot, GstVideoFrame & host)
{
  CF_RETURN_IF_FAILED (select_device ());
  Slot & s = *slots_[slot];
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&info_); p++)
    CF_RETURN_IF_FAILED (copy_plane (static_cast<guint8 *>
            (GST_VIDEO_FRAME_PLANE_DATA (&host, p)),
            GST_VIDEO_FRAME_PLANE_STRIDE (&host, p),
            s.output + GST_VIDEO_INFO_PLANE_OFFSET (&info_, p),
            GST_VIDEO_INFO_PLANE_STRIDE (&info_, p), info_, p,
            cudaMemcpyDeviceToHost, s.stream));
  return cudaSuccess;
}

cudaError_t
CudaFrameSlots::download_result (int slot)
{
  CF_RETURN_IF_FAILED (select_device ());
  Slot & s = *slots_[slot];
  return CF_CUDA (Download, cudaMemcpyAsync (s.host_result, s.result,
          result_size_, cudaMemcpyDeviceToHost, s.stream));
}

cudaError_t
CudaFrameSlots::mark_done (int slot)
{
  CF_RETURN_IF_FAILED (select_device ());
  return CF_CUDA (Sync, cudaEventRecord (slots_[slot]->done,
          slots_[slot]->stream));
}

/* Both waits wait even where the device cannot be selected: the caller
 * releases the frame's buffers next, which must be out of every copy then. */
cudaError_t
CudaFrameSlots::wait (int slot)
{
  const cudaError_t selected = select_device ();
  const cudaError_t waited =
      CF_CUDA (Sync, cudaEventSynchronize (slots_[slot]->done));
  return selected != cudaSuccess ? selected : waited;
}

cudaError_t
CudaFrameSlots::wait_queued (int slot)
{
  const cudaError_t selected = select_device ();
  const cudaError_t waited =
      CF_CUDA (Sync, cudaStreamSynchronize (slots_[slot]->stream));
  return selected != cudaSuccess ? selected : waited;
}

cf::Plane
CudaFrameSlots::component (guint8 * base, int component) const
{
  const guint plane = GST_VIDEO_INFO_COMP_PLANE (&info_, component);
  cf::Plane view;
  view.data = base + GST_VIDEO_INFO_PLANE_OFFSET (&info_, plane) +
      GST_VIDEO_INFO_COMP_POFFSET (&info_, component);
  view.width = GST_VIDEO_INFO_COMP_WIDTH (&info_, component);
  view.height = GST_VIDEO_INFO_COMP_HEIGHT (&info_, component);
  view.row_pitch = GST_VIDEO_INFO_PLANE_STRIDE (&info_, plane);
  view.pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE (&info_, component);
  return view;
}

cf::Plane
CudaFrameSlots::input_component (int slot, int comp) const
{
  return component (slots_[slot]->input, comp);
}

cf::Plane
CudaFrameSlots::output_component (int slot, int comp) const
{
  return component (slots_[slot]->output, comp);
}

void *
CudaFrameSlots::result (int slot) const
{
  return slots_[slot]->result;
}

void *
CudaFrameSlots::workspace (int slot) const
{
  return slots_[slot]->workspace;
}

const void *
CudaFrameSlots::host_result (int slot) const
{
  return slots_[slot]->host_result;
}
