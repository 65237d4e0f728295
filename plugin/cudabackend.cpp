// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The CUDA backend (framebackends.h): each frame's work queued on the stream of
 * a slot of its own (cudaframeslots.h). Built with CUDA only. */

#include "framebackends.h"

#include <utility>

#include "cudafaults.h"
#include "cudaframeslots.h"

GST_DEBUG_CATEGORY_STATIC (cf_backend_debug);
#define GST_CAT_DEFAULT cf_backend_debug

class CudaBackend : public FrameBackend
{
public:
  CudaBackend (const CudaDevice & device, GstObject * log_object)
      : device_ (device), log_object_ (log_object) {}
  ~CudaBackend () override { free_frames (); }

  FrameError allocate_frames (const GstVideoInfo & info, guint depth,
      gsize result_size, gsize workspace_size, FramePath & input,
      FramePath & output) override;
  cudaError_t free_frames () override;
  FrameError run (FrameInFlight & frame, FramePath & input, FramePath & output,
      bool order_output, gsize result_size, const FrameWorkFn & work) override;
  FrameError finish (FrameInFlight & frame) override;
  bool done (FrameInFlight & frame) override;
  bool overlaps () const override { return slots_.count () > 1; }
  cudaError_t wait (FrameInFlight & frame) override;
  FrameError retire_inputs () override;

  const void *results (const FrameInFlight & frame) const override
  {
    return slots_.host_result (frame.slot);
  }

  gsize device_bytes () const override { return slots_.device_bytes (); }
  gsize pinned_bytes () const override { return slots_.pinned_bytes (); }

private:
  /* The input of an ordered frame that left before its work finished: mapped
   * and referenced until the slot's work is done, so that upstream cannot
   * write into it while the kernels still read it. */
  struct HeldInput
  {
    GstBuffer *buffer = nullptr;
    GstVideoFrame frame {};
  };

  FrameError queue (FrameInFlight & frame, FramePath & input,
      FramePath & output, bool order_output, const FrameWorkFn & work);
  cudaError_t retire (int slot);
  cudaError_t retire_all ();

  CudaDevice device_;
  GstObject *log_object_;
  CudaFrameSlots slots_;
  int next_slot_ = 0;
  std::vector<HeldInput> retiring_;
};

FrameError
CudaBackend::allocate_frames (const GstVideoInfo & info, guint depth,
    gsize result_size, gsize workspace_size, FramePath & input,
    FramePath & output)
{
  const CudaContextScope scope (device_);
  if (scope.error () != cudaSuccess)
    return FrameError::failed ("Making the CUDA context current",
        scope.error ());
  next_slot_ = 0;
  retiring_.assign (depth, HeldInput ());
  cudaError_t err = slots_.create (device_, depth, result_size,
      workspace_size);
  std::vector<cudaStream_t> streams;
  for (int i = 0; err == cudaSuccess && i < slots_.count (); i++)
    streams.push_back (slots_.stream (i));
  if (err == cudaSuccess)
    err = input.allocate_per_slot (device_, info, streams);
  if (err == cudaSuccess)
    err = output.allocate_per_slot (device_, info, streams);
  return FrameError::check ("Allocating device frames", err);
}

cudaError_t
CudaBackend::free_frames ()
{
  const cudaError_t retired = retire_all ();
  const cudaError_t freed = slots_.destroy ();
  return retired != cudaSuccess ? retired : freed;
}

FrameError
CudaBackend::run (FrameInFlight & frame, FramePath & input,
    FramePath & output, bool order_output, gsize result_size,
    const FrameWorkFn & work)
{
  cf_faults_frame_begins ();
  frame.slot = next_slot_;
  next_slot_ = (next_slot_ + 1) % slots_.count ();
  GST_LOG_OBJECT (log_object_, "frame %" G_GUINT64_FORMAT " on slot %d",
      frame.number, frame.slot);
  /* The slot's previous frame may have left before its work finished. */
  if (const cudaError_t err = retire (frame.slot))
    return FrameError::failed ("Finishing an earlier frame's work", err);
  const CudaContextScope scope (device_);
  if (scope.error () != cudaSuccess)
    return FrameError::failed ("Making the CUDA context current",
        scope.error ());
  /* The slot is idle: its previous frame has left, its work done. */
  if (const cudaError_t err = slots_.reserve_results (frame.slot, result_size))
    return FrameError::failed ("Allocating pinned memory for results", err);
  FrameError err = queue (frame, input, output, order_output, work);
  if (err) {
    /* What was queued before the failure still reads and writes the frame's
     * buffers; its own error is the one reported. */
    const cudaError_t waited = slots_.wait_queued (frame.slot);
    GST_DEBUG_OBJECT (log_object_, "after a failed frame, its stream ended "
        "with %s",
        cudaGetErrorName (waited));
  }
  return err;
}

/* The frame's work on its slot's stream: its input brought in, the output's
 * readers followed, the element's work, what it edited of its input sent
 * back, the output taken away, its end marked
 * and, where asked, its output memory's stream ordered after it. */
FrameError
CudaBackend::queue (FrameInFlight & frame, FramePath & input,
    FramePath & output, bool order_output, const FrameWorkFn & work)
{
  const int slot = frame.slot;
  if (FrameError err = input.bring_in (slot, frame.in, slots_))
    return err;
  if (FrameError err = output.prepare_out (slot, frame.out, slots_))
    return err;
  FrameWork device;
  device.input = input.planes (slot, frame.in);
  device.output = output.planes (slot, frame.out);
  device.exec.on_device = true;
  device.exec.stream = slots_.stream (slot);
  device.results = slots_.result (slot);
  device.workspace = slots_.workspace (slot);
  device.frame_state = frame.frame_state.data ();
  device.edited = &frame.edited;
  if (FrameError err = work (device, frame.selection))
    return err;
  if (FrameError err = input.send_back (slot, frame.in, frame.edited, slots_))
    return err;
  if (FrameError err = output.send_out (slot, frame.out, slots_))
    return err;
  if (FrameError err = FrameError::check ("Marking the end of a frame's work",
          slots_.mark_done (slot)))
    return err;
  if (!order_output)
    return {};
  return output.order_after (slot, frame.out, slots_, &frame.ordered);
}

FrameError
CudaBackend::finish (FrameInFlight & frame)
{
  if (frame.ordered) {
    HeldInput & kept = retiring_[frame.slot];
    kept.buffer = std::exchange (frame.input, nullptr);
    kept.frame = frame.in;
    frame.in.buffer = nullptr;
    return {};
  }
  return FrameError::check ("Waiting for the frame's work", wait (frame));
}

bool
CudaBackend::done (FrameInFlight & frame)
{
  const CudaContextScope scope (device_);
  return scope.error () != cudaSuccess ||
      slots_.query (frame.slot) != cudaErrorNotReady;
}

cudaError_t
CudaBackend::wait (FrameInFlight & frame)
{
  const CudaContextScope scope (device_);
  return scope.error () != cudaSuccess ? scope.error () :
      slots_.wait (frame.slot);
}

cudaError_t
CudaBackend::retire (int slot)
{
  HeldInput & kept = retiring_[slot];
  if (!kept.buffer)
    return cudaSuccess;
  const CudaContextScope scope (device_);
  const cudaError_t err = scope.error () != cudaSuccess ? scope.error () :
      slots_.wait (slot);
  gst_video_frame_unmap (&kept.frame);
  gst_clear_buffer (&kept.buffer);
  return err;
}

cudaError_t
CudaBackend::retire_all ()
{
  cudaError_t first = cudaSuccess;
  for (int slot = 0; slot < (int) retiring_.size (); slot++) {
    const cudaError_t err = retire (slot);
    if (first == cudaSuccess)
      first = err;
  }
  return first;
}

FrameError
CudaBackend::retire_inputs ()
{
  return FrameError::check ("Finishing an earlier frame's work", retire_all ());
}

std::unique_ptr<FrameBackend>
cf::make_cuda_backend (const CudaDevice & device, GstObject * log_object)
{
  static gsize debug_initialised = 0;
  if (g_once_init_enter (&debug_initialised)) {
    GST_DEBUG_CATEGORY_INIT (cf_backend_debug, "cudaframebackend", 0,
        "Frames in flight on the CUDA backend");
    g_once_init_leave (&debug_initialised, 1);
  }
  return std::make_unique<CudaBackend> (device, log_object);
}
