// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* GstBaseTransform vfuncs written in C++, with no exception crossing into
 * GStreamer's C. */
#pragma once

#include <gst/base/gstbasetransform.h>

#include <exception>

#include "frameerror.h"

/* What a callback returns when it fails: FALSE, GST_FLOW_ERROR. */
template <typename Result> constexpr Result kCallbackFailed = FALSE;
template <> constexpr GstFlowReturn kCallbackFailed<GstFlowReturn> =
    GST_FLOW_ERROR;

/* Guarded<callback>::call: a GstBaseTransform vfunc of ours with no exception
 * crossing into GStreamer's C (memory or threads run out: std::bad_alloc,
 * std::system_error): one that escapes becomes the element's error, and the
 * callback fails. */
template <auto Callback> struct Guarded;
template <typename Result, typename... Args,
    Result (*Callback) (GstBaseTransform *, Args...)>
struct Guarded<Callback>
{
  static Result call (GstBaseTransform * trans, Args... args)
  {
    try {
      return Callback (trans, args...);
    } catch (const std::exception & e) {
      cf::post_exception (GST_ELEMENT (trans), e.what ());
    } catch (...) {
      cf::post_exception (GST_ELEMENT (trans), "an unknown exception");
    }
    return kCallbackFailed<Result>;
  }
};
