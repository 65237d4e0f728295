// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* One element's backend and CUDA device, from start to stop: the backend chosen
 * (CUDA where a device is usable, else the CPU, as the backend property asks)
 * and the context shared with the pipeline (cudadevice.h). What is allocated on
 * it is elementpools.h's. Written by start and stop, and by the streaming
 * thread where the element follows upstream's context; the element's object
 * lock guards what properties and queries read (active(), cuda()). */
#pragma once

#include <gst/gst.h>

#include "cudadevice.h"
#include "frameerror.h"

/* The backends an element may be asked for (its backend property) and the
 * one in use (active-backend). */
G_BEGIN_DECLS

typedef enum
{
  CF_BACKEND_AUTO,
  CF_BACKEND_CUDA,
  CF_BACKEND_CPU,
} CfBackend;

#define CF_TYPE_BACKEND (cf_backend_get_type ())
GType cf_backend_get_type (void);

G_END_DECLS

/* What an element does to frames, as its messages say it ("Filtering on the
 * CPU"): "Filtering" unless its class set another verb, in its class_init
 * (cudahist: "Counting"); subclasses inherit it. */
void cf_element_class_set_work_verb (GType type, const char *verb);
const char *cf_element_work_verb (GstElement * element);

class ElementDevice
{
public:
  ElementDevice () = default;
  ElementDevice (const ElementDevice &) = delete;
  ElementDevice & operator= (const ElementDevice &) = delete;

  /* At start: the backend `wanted` on `device_id`. FALSE after posting an
   * error: a device that does not exist, or backend=cuda without a usable one
   * (auto falls back to the CPU, warning once per process, then an info
   * message per element, their texts readable in gst-launch-1.0). */
  gboolean open (GstElement * element, CfBackend wanted,
      gint device_id);
  /* At stop: nothing held, no backend. */
  void close (GstElement * element);
  /* Before a frame, on the CUDA backend: whether an element on `device_id`
   * follows the context of `buffer`'s CUDA memory, which it then gives in *to
   * (CudaDevice::device_of_other_memory). */
  bool should_follow (GstBuffer * buffer, gint device_id, CudaDevice * to)
      const;
  /* At the caps, on the CUDA backend: likewise for the context the first CUDA
   * element upstream of `sinkpad` answers with, if any. */
  bool should_follow_upstream (GstPad * sinkpad, gint device_id,
      CudaDevice * to) const;
  /* Moves to `device`, closing what was made on the old one. */
  FrameError move_to (GstElement * element, const CudaDevice & device);

  CfBackend active () const { return active_; }
  bool on_device () const { return active_ == CF_BACKEND_CUDA; }
  const CudaDevice & cuda () const { return cuda_; }
  /* set_context: the pipeline's context, where none is taken yet. */
  void take_pipeline_context (GstElement * element, GstContext * context,
      gint device_id);

private:
#ifndef CF_HAVE_CUDA
  gboolean open_without_cuda (GstElement * element,
      CfBackend wanted, gint device_id);
#endif
  cudaError_t open_on_device ();
  void drop_device (GstElement * element);
  void set_active (GstElement * element, CfBackend backend);

  CfBackend active_ = CF_BACKEND_AUTO;
  CudaDevice cuda_;
  bool told_cpu_fallback_ = false;
};
