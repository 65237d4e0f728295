// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfbasenegotiation.h"

#include "cfbasefilterstate.h"
#include "memorycaps.h"

GST_DEBUG_CATEGORY_EXTERN (cf_base_filter_debug);
#define GST_CAT_DEFAULT cf_base_filter_debug

static GstBaseTransformClass *
parent_class ()
{
  return GST_BASE_TRANSFORM_CLASS (g_type_class_peek (GST_TYPE_BASE_TRANSFORM));
}

/* ---- caps ---- */

/* Whether the element offers CUDA memory in caps: built for the gstreamer-cuda
 * this process runs, a driver there, not on the CPU backend (and on the CUDA
 * one once started). */
static bool
cuda_memory_offered (CfBaseFilter * self)
{
  auto & st = state_of (self);
  GST_OBJECT_LOCK (self);
  const bool possible = st.props.backend != CF_BACKEND_CPU &&
      st.device.active () != CF_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  return possible && !cf::cuda_memory_unusable_reason () &&
      CudaDevice::driver_loads ();
}

/* Why the element takes no CUDA memory, where that is the CPU backend; NULL
 * where it offers CUDA memory, or the reason is another (memorycaps.h). */
static const gchar *
why_on_cpu (CfBaseFilter * self)
{
  GST_OBJECT_LOCK (self);
  const CfBackend wanted = state_of (self).props.backend;
  const CfBackend active = state_of (self).device.active ();
  GST_OBJECT_UNLOCK (self);
#ifndef CF_HAVE_CUDA
  (void) active;
  return wanted == CF_BACKEND_CPU ? "backend=cpu" :
      "the plugin is built without CUDA";
#else
  if (wanted == CF_BACKEND_CPU)
    return "backend=cpu";
  return active == CF_BACKEND_CPU ?
      "no usable CUDA device: see the warning given at start" : nullptr;
#endif
}

/* Where the element takes no CUDA memory (on the CPU, or a build that cannot)
 * and downstream takes only that, no caps link them, and upstream would say
 * only "not-negotiated". */
void
cf_base_filter_explain_cuda_only_downstream (CfBaseFilter * self)
{
  auto & st = state_of (self);
  const std::string why = cf::why_no_cuda_memory (why_on_cpu (self));
  if (why.empty () || st.caps.told_cuda_only_downstream ||
      !cf::peer_takes_only_cuda_memory (GST_BASE_TRANSFORM_SRC_PAD (self)))
    return;
  st.caps.told_cuda_only_downstream = true;
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", why.c_str ()),
      ("downstream takes frames in CUDA memory only"));
}

bool
cf_base_filter_memory_caps_usable (CfBaseFilter * self, GstCaps * incaps,
    GstCaps * outcaps)
{
  if ((!cf::caps_in_cuda_memory (incaps) && !cf::caps_in_cuda_memory (outcaps))
      || state_of (self).device.on_device ())
    return true;
  const gchar *why = why_on_cpu (self);
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s",
          cf::cuda_memory_needs_device (why ? why : "not started").c_str ()),
      ("caps %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, incaps, outcaps));
  return false;
}

/* Frames keep format and size. A filter writes new buffers, in either memory
 * type; an analyzer (in place) passes its own on. */
GstCaps *
cf_base_filter_transform_caps (GstBaseTransform * trans,
    GstPadDirection, GstCaps * caps, GstCaps * filter)
{
  auto *self = CF_BASE_FILTER (trans);
  GstCaps *result = cf::caps_in_memory_types (caps, filter,
      cuda_memory_offered (self), !gst_base_transform_is_in_place (trans));
  GST_DEBUG_OBJECT (self, "%" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, caps,
      result);
  return result;
}

/* Where the neighbour takes frames in both memory types, they stay in the one
 * they come in: GstBaseTransform would otherwise take the neighbour's first,
 * and a switch of upstream's memory type mid-stream would not carry through. */
GstCaps *
cf_base_filter_fixate_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps, GstCaps * othercaps)
{
  return parent_class ()->
      fixate_caps (trans, direction, caps,
      cf::keep_memory_type (caps, othercaps));
}

/* ---- allocation ---- */

gboolean
cf_base_filter_propose_allocation (GstBaseTransform * trans, GstQuery *,
    GstQuery * query)
{
  auto & st = state_of (CF_BASE_FILTER (trans));
  const FrameEngine & engine = st.scheduler.engine ();
  /* The inputs the element holds at once: those of the frames in flight
   * where their work overlaps, else the one being processed. */
  st.pools.propose (query, engine.overlaps () ? engine.depth () : 1);
  return TRUE;
}

/* GstBaseTransform asks this of filters only: an analyzer works in place. */
gboolean
cf_base_filter_decide_allocation (GstBaseTransform * trans,
    GstQuery * query)
{
  auto *self = CF_BASE_FILTER (trans);
  auto & st = state_of (self);
  GstCaps *caps = nullptr;
  gst_query_parse_allocation (query, &caps, nullptr);
  if (!caps)
    return FALSE;
  FrameEngine & engine = st.scheduler.engine ();
  if (!st.pools.choose_output_pool (GST_ELEMENT (self), query, caps,
          engine.depth ()))
    return FALSE;
  if (!parent_class ()->
      decide_allocation (trans, query))
    return FALSE;
  /* Activated here (GstBaseTransform would at the first frame, saying only
   * that it failed), as GstVideoDecoder activates its pool; its buffers
   * checked as every output frame is. */
  const FrameError err = st.pools.activate_output_pool (GST_ELEMENT (self),
      query, caps, engine.depth (), [&engine] (GstBuffer * buffer) {
        return engine.check_output (buffer);
      });
  return cf_base_filter_post_error (self, err) == GST_FLOW_OK;
}

/* What the queries GstBaseTransform answered need of ours: an explanation of
 * refused CUDA caps, our latency. */
void
cf_base_filter_complete_query (CfBaseFilter * self, GstPadDirection direction,
    GstQuery * query)
{
  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) ==
      GST_QUERY_ACCEPT_CAPS) {
    GstCaps *caps = nullptr;
    gboolean accepted = TRUE;
    gst_query_parse_accept_caps (query, &caps);
    gst_query_parse_accept_caps_result (query, &accepted);
    if (!accepted)
      cf::explain_refused_cuda_caps (GST_ELEMENT (self), caps,
          why_on_cpu (self));
  } else if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) ==
      GST_QUERY_CAPS) {
    /* Started, and nothing upstream could send would do. */
    GST_OBJECT_LOCK (self);
    const bool started = state_of (self).device.active () !=
        CF_BACKEND_AUTO;
    GST_OBJECT_UNLOCK (self);
    GstCaps *result = nullptr;
    gst_query_parse_caps_result (query, &result);
    if (started && result && gst_caps_is_empty (result))
      cf_base_filter_explain_cuda_only_downstream (self);
  } else if (direction == GST_PAD_SRC && GST_QUERY_TYPE (query) ==
      GST_QUERY_LATENCY) {
    state_of (self).scheduler.add_latency (query);
  }
}

