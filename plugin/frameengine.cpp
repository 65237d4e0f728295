// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "frameengine.h"

#include <utility>

FrameEngine::FrameEngine () = default;

FrameEngine::~FrameEngine ()
{
  /* Nothing to report to: the element has logged what release() returned. */
  (void) tear_down ();
}

FrameError
FrameEngine::set_up (Setup setup)
{
  if (FrameError err = tear_down ())
    return err;
  info_ = setup.info;
  depth_ = MAX (setup.depth, 1u);
  frame_state_size_ = setup.frame_state_size;
  edits_input_ = setup.edits_input;
  input_ = std::move (setup.input);
  output_ = std::move (setup.output);
  /* Frames ordered on their memory's stream cannot overlap: ordering pays at
   * one frame in flight; at more, each frame waits on a stream of its own, so
   * that several frames' work overlaps. */
  ordered_ = output_->orders_on_memory_stream () && depth_ == 1;
#ifdef CF_HAVE_CUDA
  backend_ = setup.device.empty () ? cf::make_cpu_backend () :
      cf::make_cuda_backend (setup.device,
      setup.log_object);
#else
  backend_ = cf::make_cpu_backend ();       /* built without CUDA: no device */
#endif
  FrameError err = backend_->allocate_frames (info_, depth_, setup.result_size,
      setup.workspace_size, *input_, *output_);
  if (err)
    (void) tear_down ();        /* what failed is the error to report */
  count_bytes ();
  return err;
}

FrameError
FrameEngine::tear_down ()
{
  FrameError first = discard ();
  finished_ = FrameInFlight ();
  const auto keep_first = [&first] (cudaError_t err) {
    if (!first)
      first = FrameError::check ("Freeing device memory", err);
  };
  if (backend_)
    keep_first (backend_->free_frames ());
  for (FramePath *path : { input_.get (), output_.get () })
    if (path)
      keep_first (path->free_per_slot ());
  backend_.reset ();
  input_.reset ();
  output_.reset ();
  count_bytes ();
  return first;
}

FrameError
FrameEngine::submit (GstBuffer * input, GstBuffer * output,
    FrameSelection selection, gsize result_size, const FrameWorkFn & work)
{
  FrameInFlight frame;
  frame.number = last_number_ + 1;
  frame.selection = std::move (selection);
  frame.frame_state.assign (frame_state_size_, 0);
  FrameError err = input_->map (input, info_, edits_input_ ?
      GST_MAP_READWRITE : GST_MAP_READ, &frame.in);
  if (!err)
    err = output_->map (output, info_, GST_MAP_WRITE, &frame.out);
  if (!err) {
    /* After mapping: a frame mapped for writing must be writable. */
    frame.input = gst_buffer_ref (input);
    frame.output = gst_buffer_ref (output);
    err = backend_->run (frame, *input_, *output_, ordered_, result_size,
        work);
  }
  if (err) {
    frame.drop_buffers (false);
    return err;
  }
  last_number_ = frame.number;
  frames_.push_back (std::move (frame));
  count_bytes ();               /* results may have grown */
  return {};
}

FrameError
FrameEngine::check_output (GstBuffer * buffer)
{
  if (!output_)
    return {};
  GstVideoFrame frame {};
  const FrameError err = output_->map (buffer, info_, GST_MAP_WRITE, &frame);
  if (frame.buffer)
    gst_video_frame_unmap (&frame);
  return err;
}

bool
FrameEngine::oldest_may_leave () const
{
  return frames_.size () >= depth_;
}

bool
FrameEngine::all_done ()
{
  for (FrameInFlight & frame : frames_)
    if (!backend_->done (frame))
      return false;
  return true;
}

bool
FrameEngine::oldest_done ()
{
  return !frames_.empty () && backend_->done (frames_.front ());
}

FrameError
FrameEngine::take_oldest (FinishedFrame * frame)
{
  finished_ = std::move (frames_.front ());
  frames_.pop_front ();
  frame->number = finished_.number;
  const FrameError err = backend_->finish (finished_);
  finished_.drop_buffers (!err);
  if (err)
    return err;
  frame->buffer = std::exchange (finished_.output, nullptr);
  frame->results = backend_->results (finished_);
  frame->frame_state = finished_.frame_state.data ();
  frame->selection = &finished_.selection;
  return {};
}

FrameError
FrameEngine::discard ()
{
  if (!backend_)
    return {};
  FrameError first = backend_->retire_inputs ();
  for (FrameInFlight & frame : frames_) {
    const cudaError_t err = backend_->wait (frame);
    if (!first)
      first = FrameError::check ("Finishing a discarded frame", err);
    frame.drop_buffers (false);
  }
  frames_.clear ();
  return first;
}

FrameError
FrameEngine::retire_inputs ()
{
  return backend_ ? backend_->retire_inputs () : FrameError ();
}

gsize
FrameEngine::device_bytes () const
{
  return device_bytes_.load ();
}

gsize
FrameEngine::pinned_bytes () const
{
  return pinned_bytes_.load ();
}

void
FrameEngine::count_bytes ()
{
  gsize device = 0, pinned = 0;
  if (backend_) {
    device += backend_->device_bytes ();
    pinned += backend_->pinned_bytes ();
  }
  for (const FramePath *path : { input_.get (), output_.get () })
    if (path) {
      device += path->device_bytes ();
      pinned += path->pinned_bytes ();
    }
  device_bytes_ = device;
  pinned_bytes_ = pinned;
}
