// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "framebackends.h"

void
FrameInFlight::drop_buffers (bool keep_output)
{
  if (in.buffer)
    gst_video_frame_unmap (&in);
  if (out.buffer)
    gst_video_frame_unmap (&out);
  in.buffer = out.buffer = nullptr;
  gst_clear_buffer (&input);
  if (!keep_output)
    gst_clear_buffer (&output);
}

class CpuBackend : public FrameBackend
{
public:
  FrameError allocate_frames (const GstVideoInfo &, guint, gsize, gsize,
      FramePath &, FramePath &) override
  {
    return {};
  }

  cudaError_t free_frames () override { return cudaSuccess; }

  FrameError run (FrameInFlight & frame, FramePath & input, FramePath & output,
      bool, gsize result_size, const FrameWorkFn & work) override
  {
    /* Zeroed: results of channels a format lacks go out defined. */
    frame.results.assign (result_size, 0);
    FrameWork host;
    host.input = input.planes (kNoSlot, frame.in);
    host.output = output.planes (kNoSlot, frame.out);
    host.results = frame.results.data ();
    host.frame_state = frame.frame_state.data ();
    /* Written where the frame is: nothing to send back. */
    host.edited = &frame.edited;
    return work (host, frame.selection);
  }

  FrameError finish (FrameInFlight &) override { return {}; }
  bool done (FrameInFlight &) override { return true; }
  bool overlaps () const override { return false; }
  cudaError_t wait (FrameInFlight &) override { return cudaSuccess; }
  FrameError retire_inputs () override { return {}; }

  const void *results (const FrameInFlight & frame) const override
  {
    return frame.results.data ();
  }

  gsize device_bytes () const override { return 0; }
  gsize pinned_bytes () const override { return 0; }
};

std::unique_ptr<FrameBackend>
cf::make_cpu_backend ()
{
  return std::make_unique<CpuBackend> ();
}
