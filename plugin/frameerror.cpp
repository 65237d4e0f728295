// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "frameerror.h"

void
cf::post_exception (GstElement * element, const char *what)
{
  GST_ELEMENT_ERROR (element, CORE, FAILED, ("Internal failure: %s", what),
      (nullptr));
}

GstFlowReturn
cf::post_frame_error (GstElement * element, const FrameError & err,
    const char *backend)
{
  const gchar *message = err.message.c_str ();
  const gchar *detail = err.detail.c_str ();
  switch (err.kind) {
    case FrameError::Kind::None:
      return GST_FLOW_OK;
    case FrameError::Kind::Refused:
      GST_ELEMENT_ERROR (element, STREAM, FORMAT, ("%s", message), ("%s",
              detail));
      break;
    case FrameError::Kind::Settings:
      GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS, ("%s", message),
          (nullptr));
      break;
    case FrameError::Kind::Failed:
      if (err.cause != cudaSuccess)
        GST_ELEMENT_ERROR (element, RESOURCE, FAILED, ("%s failed: %s: %s",
                err.step, cudaGetErrorName (err.cause),
                cudaGetErrorString (err.cause)), ("on the %s backend",
                backend));
      else
        GST_ELEMENT_ERROR (element, RESOURCE, FAILED, ("%s failed", err.step),
            (nullptr));
      break;
  }
  return GST_FLOW_ERROR;
}
