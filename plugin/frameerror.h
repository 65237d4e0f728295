// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Why a frame, or the frames of a caps, could not be processed: one value for
 * every module below the GStreamer half (engine, memory paths, backends), which
 * becomes one element error (post_frame_error): the same GStreamer domain and
 * code for the same kind of fault, whichever backend met it. */
#pragma once

#include <gst/gst.h>

#include "status.h"

#include <string>
#include <utility>

struct FrameError
{
  enum class Kind
  {
    None,
    /* A frame cannot be taken as it is: an input frame, or an output buffer
     * downstream's pool gave (STREAM / FORMAT). */
    Refused,
    /* The element's settings rule the frame out: memory of a device the
     * element is held away from (RESOURCE / SETTINGS). */
    Settings,
    /* A step failed: a CUDA call, a kernel, an allocation (RESOURCE / FAILED). */
    Failed,
  };

  Kind kind = Kind::None;
  /* Failed: what was being done, as "<step> failed: ..." says it. */
  const char *step = nullptr;
  /* Failed: the CUDA or kernel error, if one (the kernels' API reports its
   * faults as cudaError_t on both backends). */
  cudaError_t cause = cudaSuccess;
  /* Refused, Settings: what the user reads; detail: the debug log's. */
  std::string message;
  std::string detail;

  static FrameError failed (const char *step, cudaError_t cause = cudaSuccess)
  {
    FrameError err;
    err.kind = Kind::Failed;
    err.step = step;
    err.cause = cause;
    return err;
  }
  static FrameError refused (std::string message, std::string detail = {})
  {
    FrameError err;
    err.kind = Kind::Refused;
    err.message = std::move (message);
    err.detail = std::move (detail);
    return err;
  }
  static FrameError settings (std::string message)
  {
    FrameError err;
    err.kind = Kind::Settings;
    err.message = std::move (message);
    return err;
  }
  /* `step` failed where `cause` is an error, else nothing. */
  static FrameError check (const char *step, cudaError_t cause)
  {
    return cause == cudaSuccess ? FrameError () : failed (step, cause);
  }

  explicit operator bool () const { return kind != Kind::None; }

  /* For the debug log: "<step>: <cause>", or the message. */
  std::string describe () const
  {
    if (kind != Kind::Failed)
      return message;
    std::string text = step;
    if (cause != cudaSuccess)
      text = text + ": " + cudaGetErrorName (cause);
    return text;
  }
};

namespace cf {

/* Posts `err` as `element`'s error, on the named backend ("CUDA", "CPU");
 * GST_FLOW_ERROR (GST_FLOW_OK for no error). */
GstFlowReturn post_frame_error (GstElement * element, const FrameError & err,
    const char *backend);
/* Posts an exception that reached one of GStreamer's callbacks, or a thread
 * of the element's own (memory or threads run out), as `element`'s error. */
void post_exception (GstElement * element, const char *what);

}  // namespace cf
