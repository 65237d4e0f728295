// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Where the frames of one side of an element live, and how the kernels reach
 * them: one path per memory type, chosen when caps are set and never asked
 * again per frame.
 *
 *   host memory, CPU backend   the mapped frame itself (HostFramePath);
 *   host memory, CUDA backend  a device copy of each frame in flight: the input
 *                              uploaded into it, the output downloaded from it,
 *                              on the frame's stream (stagedhostpath.cpp, built
 *                              with CUDA only);
 *   CUDA memory                the buffer itself, mapped with GST_MAP_CUDA
 *                              (cudamemory.h);
 *   none                       an in-place element's output: its input goes on.
 *
 * The engine maps each frame through its paths, and on the CUDA backend asks
 * the input path to bring the frame within the kernels' reach before them and
 * the output path to take the result away after them (and, where an element
 * edits its input in place, the input path to send back what they wrote).
 * Every CUDA call expects the element's context current. */
#pragma once

#include <gst/video/video.h>

#include <atomic>
#include <memory>
#include <vector>

#include "cudadevice.h"
#include "frameerror.h"
#include "frameplanes.h"

class CudaFrameSlots;

/* A frame's slot on the CPU backend, which has none: its work reaches the
 * frame's own planes. */
constexpr int kNoSlot = -1;

class FramePath
{
public:
  virtual ~FramePath () = default;

  /* CUDA backend, at the caps (the context current): what the path needs per
   * frame in flight, allocated on the slots' streams; free_per_slot frees it,
   * making the context current itself. */
  virtual cudaError_t allocate_per_slot (const CudaDevice & device,
      const GstVideoInfo & info, const std::vector<cudaStream_t> & slot_streams);
  virtual cudaError_t free_per_slot ();

  /* Maps `buffer`, an input (GST_MAP_READ; GST_MAP_READWRITE where it is
   * edited in place) or output (GST_MAP_WRITE) frame of `info`, into `frame`,
   * once it is found to be what this path takes. */
  virtual FrameError map (GstBuffer * buffer, const GstVideoInfo & info,
      GstMapFlags access, GstVideoFrame * frame) = 0;
  /* The planes the kernels use for the frame of `slot` (kNoSlot: the CPU
   * backend). */
  virtual FramePlanes planes (int slot, const GstVideoFrame & frame) const = 0;

  /* CUDA backend, queued on the slot's stream. Input path, before the
   * kernels: what brings the frame to them (an upload; an order after the
   * memory's stream). */
  virtual FrameError bring_in (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots);
  /* Input path of an element that edits its input in place, after the
   * kernels: what brings the areas they wrote back where the frame lives (a
   * download of those areas alone from a device copy; nothing where the
   * kernels wrote the frame itself). */
  virtual FrameError send_back (int slot, const GstVideoFrame & frame,
      const std::vector<PlaneArea> & edited, CudaFrameSlots & slots);
  /* Output path, before the kernels write (an order after earlier readers of
   * a recycled buffer), and after them (a download). */
  virtual FrameError prepare_out (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots);
  virtual FrameError send_out (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots);
  /* Whether an output frame can leave before its work is done, its memory's
   * stream ordered after the slot's work: order_after, which says in
   * *ordered whether it could for this frame. */
  virtual bool orders_on_memory_stream () const { return false; }
  virtual FrameError order_after (int slot, const GstVideoFrame & frame,
      CudaFrameSlots & slots, bool *ordered);

  /* Bytes of device and pinned host memory held now; read from any thread. */
  gsize device_bytes () const { return device_bytes_.load (); }
  gsize pinned_bytes () const { return pinned_bytes_.load (); }

protected:
  std::atomic<gsize> device_bytes_ { 0 };
  std::atomic<gsize> pinned_bytes_ { 0 };
};

namespace cf {

/* gst_video_frame_map() of `buffer` as a frame of `info` with `flags`
 * (GST_MAP_READ, READWRITE: an input frame; WRITE: an output frame, possibly
 * with GST_MAP_CUDA), once its GstVideoMeta is found to describe that frame,
 * and then its planes to lie in the memory mapped for them: whoever allocated the
 * buffer (upstream, downstream's pool, ours), the element reads and writes
 * nothing outside it. Fails as the element reports it, nothing left mapped. */
FrameError map_video_frame (GstBuffer * buffer, const GstVideoInfo & info,
    GstMapFlags flags, GstVideoFrame * frame);

/* Frames in host memory, on either backend. */
std::unique_ptr<FramePath> make_host_frame_path (bool cuda_backend);
#ifdef CF_HAVE_CUDA
std::unique_ptr<FramePath> make_staged_host_frame_path ();
#endif
/* No frame: an in-place element's output (an analysis, an edit of the input),
 * which is its input. */
std::unique_ptr<FramePath> make_no_frame_path ();

}  // namespace cf
