// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cfbasefilter.h"

#include <utility>

#include "cfbaseproperties.h"
#include "cfbasefilterstate.h"
#include "cfbasenegotiation.h"
#include "cudafaults.h"
#include "cudamemory.h"
#include "guardedcallback.h"
#include "memorycaps.h"

GST_DEBUG_CATEGORY (cf_base_filter_debug);
#define GST_CAT_DEFAULT cf_base_filter_debug

struct CfBaseFilterPrivate
{
  BaseFilterState *state;
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (CfBaseFilter, cf_base_filter,
    GST_TYPE_BASE_TRANSFORM);

BaseFilterState::BaseFilterState (CfBaseFilter * self)
    : scheduler (GST_BASE_TRANSFORM (self), {
      [self] (GstBuffer ** frame, const FinishedFrame & finished) {
        auto *klass = CF_BASE_FILTER_GET_CLASS (self);
        if (!klass->attach_results)
          return GST_FLOW_OK;
        *frame = gst_buffer_make_writable (*frame);
        return klass->attach_results (self, *frame, finished);
      },
      [self] (const FrameError & err) {
        return cf_base_filter_post_error (self, err);
      },
      [self] (GstEvent * event) {
        return GST_BASE_TRANSFORM_CLASS (cf_base_filter_parent_class)->
            sink_event (GST_BASE_TRANSFORM (self), event);
      }})
{
}

BaseFilterState &
state_of (CfBaseFilter * self)
{
  auto *priv = static_cast<CfBaseFilterPrivate *>
      (cf_base_filter_get_instance_private (self));
  return *priv->state;
}

const BaseProperties &
cf_base_filter_properties (CfBaseFilter * self)
{
  return state_of (self).props;
}

const GstVideoInfo &
cf_base_filter_video_info (CfBaseFilter * self)
{
  return state_of (self).scheduler.engine ().info ();
}

static bool
on_device (CfBaseFilter * self)
{
  return state_of (self).device.on_device ();
}

GstFlowReturn
cf_base_filter_post_error (CfBaseFilter * self,
    const FrameError & err)
{
  return cf::post_frame_error (GST_ELEMENT (self), err,
      on_device (self) ? "CUDA" : "CPU");
}

/* ---- state ---- */

/* On the CUDA backend, the memory and pools of the device's context. FALSE
 * after posting an error. */
static bool
open_pools (CfBaseFilter * self)
{
  auto & st = state_of (self);
  if (!on_device (self))
    return true;
  const cudaError_t err = st.pools.open (GST_ELEMENT (self), st.device.cuda ());
  return cf_base_filter_post_error (self, FrameError::check
      ("Making pinned memory and CUDA memory pools", err)) == GST_FLOW_OK;
}

static gboolean
cf_base_filter_start (GstBaseTransform * trans)
{
  auto *self = CF_BASE_FILTER (trans);
  auto & st = state_of (self);
  GST_OBJECT_LOCK (self);
  const CfBackend wanted = st.props.backend;
  const gint device_id = st.props.device_id;
  GST_OBJECT_UNLOCK (self);
  st.selector.reset ();
  st.caps.told_cuda_only_downstream = false;
  return st.device.open (GST_ELEMENT (self), wanted, device_id) &&
      open_pools (self);
}

static gboolean
cf_base_filter_stop (GstBaseTransform * trans)
{
  auto *self = CF_BASE_FILTER (trans);
  auto & st = state_of (self);
  st.scheduler.tear_down ();         /* frames in flight dropped first */
  st.pools.close (GST_ELEMENT (self));
  st.device.close (GST_ELEMENT (self));
  return TRUE;
}

static void
cf_base_filter_set_context (GstElement * element, GstContext * context)
{
  auto & st = state_of (CF_BASE_FILTER (element));
  GST_OBJECT_LOCK (element);
  const gint device_id = st.props.device_id;
  GST_OBJECT_UNLOCK (element);
  /* Taken where it is for the device asked for (any, with -1). */
  st.device.take_pipeline_context (element, context, device_id);
  GST_ELEMENT_CLASS (cf_base_filter_parent_class)->set_context (element,
      context);
}

/* Where frames of one side live, in this memory type. */
static std::unique_ptr<FramePath>
frame_path (CfBaseFilter * self, bool in_cuda_memory)
{
  if (in_cuda_memory)
    return cf::make_cuda_memory_path (state_of (self).device.cuda ());
  return cf::make_host_frame_path (on_device (self));
}

/* Sets the frames in flight up for frames of `info` between these memory
 * types, from the properties as they are now. FALSE after posting an error. */
static gboolean
set_up_frames (CfBaseFilter * self, const GstVideoInfo & info,
    bool input_in_cuda, bool output_in_cuda)
{
  auto & st = state_of (self);
  auto *klass = CF_BASE_FILTER_GET_CLASS (self);
  FrameSizes sizes;
  st.frames_outdated = false;   /* the properties are read now */
  GST_OBJECT_LOCK (self);
  const bool from_meta = st.props.selection.regions_from_meta ();
  GST_OBJECT_UNLOCK (self);
  sizes.max_regions = from_meta || !klass->sized_by_regions ?
      kMaxFrameRegions : 0;
  if (klass->size_frames && !klass->size_frames (self, info, on_device (self),
          &sizes))
    return FALSE;
  FrameEngine::Setup setup;
  setup.info = info;
  GST_OBJECT_LOCK (self);
  setup.depth = st.props.frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  setup.device = on_device (self) ? st.device.cuda () : CudaDevice ();
  setup.log_object = GST_OBJECT (self);
  setup.result_size = sizes.results;
  setup.workspace_size = sizes.workspace;
  setup.frame_state_size = sizes.frame_state;
  setup.edits_input = klass->edits_input;
  setup.input = frame_path (self, input_in_cuda);
  /* In place, the output is the input: nothing to map or move. */
  setup.output = gst_base_transform_is_in_place (GST_BASE_TRANSFORM (self)) ?
      cf::make_no_frame_path () : frame_path (self, output_in_cuda);
  if (FrameError err = st.scheduler.set_up (std::move (setup))) {
    cf_base_filter_post_error (self, err);
    return FALSE;
  }
  st.caps.output_in_cuda = output_in_cuda;
  st.caps.sizes = sizes;
  return TRUE;
}

/* set_up_frames, or, where it fails, no frames set up at all: until a
 * configuration succeeds, frames fail (GST_FLOW_ERROR), so that none is ever
 * processed with parts of two configurations. */
static gboolean
set_up_frames_or_none (CfBaseFilter * self, const GstVideoInfo & info,
    bool input_in_cuda, bool output_in_cuda)
{
  auto & st = state_of (self);
  st.caps.failed = !set_up_frames (self, info, input_in_cuda, output_in_cuda);
  if (st.caps.failed)
    st.scheduler.tear_down ();
  return !st.caps.failed;
}

static gint
device_id (CfBaseFilter * self)
{
  GST_OBJECT_LOCK (self);
  const gint id = state_of (self).props.device_id;
  GST_OBJECT_UNLOCK (self);
  return id;
}

/* Moves the element to `device`, once the frames in flight have left, their
 * work done on the old one. FALSE after posting an error. */
static gboolean
move_to_device (CfBaseFilter * self, const CudaDevice & device)
{
  auto & st = state_of (self);
  if (st.scheduler.drain () < GST_FLOW_EOS)
    return FALSE;
  st.scheduler.tear_down ();
  st.pools.close (GST_ELEMENT (self));
  const FrameError err = st.device.move_to (GST_ELEMENT (self), device);
  return cf_base_filter_post_error (self, err) == GST_FLOW_OK &&
      open_pools (self);
}

static gboolean
cf_base_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  auto *self = CF_BASE_FILTER (trans);
  GstVideoInfo info;
  if (!gst_video_info_from_caps (&info, incaps)) {
    GST_ERROR_OBJECT (self, "invalid caps %" GST_PTR_FORMAT, incaps);
    return FALSE;
  }
  if (!cf_base_filter_memory_caps_usable (self, incaps, outcaps))
    return FALSE;
  /* Frames of the old caps leave before the new caps go downstream (also
   * where GstBaseTransform renegotiates on its own). */
  auto & st = state_of (self);
  if (st.scheduler.drain () < GST_FLOW_EOS)
    return FALSE;
  CudaDevice upstream;
  if (st.device.should_follow_upstream (trans->sinkpad, device_id (self),
          &upstream) && !move_to_device (self, upstream))
    return FALSE;
  if (!set_up_frames_or_none (self, info, cf::caps_in_cuda_memory (incaps),
          cf::caps_in_cuda_memory (outcaps)))
    return FALSE;
  GST_DEBUG_OBJECT (self, "configured for %" GST_PTR_FORMAT " -> %"
      GST_PTR_FORMAT, incaps, outcaps);
  return TRUE;
}

/* Configures the frames again for the current caps (on a new device, or for
 * properties they depend on), with the pools that go with them. */
static void
set_up_frames_again (CfBaseFilter * self)
{
  auto *trans = GST_BASE_TRANSFORM (self);
  GstCaps *incaps = gst_pad_get_current_caps (trans->sinkpad);
  GstCaps *outcaps = gst_pad_get_current_caps (trans->srcpad);
  GstVideoInfo info;
  if (incaps && outcaps && gst_video_info_from_caps (&info, incaps) &&
      set_up_frames_or_none (self, info, cf::caps_in_cuda_memory (incaps),
          cf::caps_in_cuda_memory (outcaps)))
    gst_base_transform_reconfigure_src (trans);   /* pools of the new device */
  gst_clear_caps (&incaps);
  gst_clear_caps (&outcaps);
}

/* Before a frame: CUDA memory of another context moves the element there where
 * cuda-device-id allows it (a chain follows its first element, as nvcodec's do;
 * set_caps asks upstream for its context, which covers system memory); else
 * properties the frames depend on take effect, the frames in flight first. */
static void
cf_base_filter_before_transform (GstBaseTransform * trans,
    GstBuffer * buffer)
{
  auto *self = CF_BASE_FILTER (trans);
  auto & st = state_of (self);
  CudaDevice followed;
  if (st.device.should_follow (buffer, device_id (self), &followed)) {
    if (move_to_device (self, followed))
      set_up_frames_again (self);
  } else if (st.frames_outdated.exchange (false) &&
      st.scheduler.drain () >= GST_FLOW_EOS) {
    /* Its latency may change with the depth. */
    const guint depth = st.scheduler.engine ().depth ();
    set_up_frames_again (self);
    if (st.scheduler.engine ().depth () != depth)
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_latency (GST_OBJECT (self)));
  }
}

void
cf_base_filter_mark_frames_outdated (CfBaseFilter * self)
{
  state_of (self).frames_outdated = true;
}

/* ---- frames ---- */

/* GstBaseTransform's transform and transform_ip, which tell it whether the
 * element works in place (CfAnalyzer and CfInPlace do). Each queues `input`'s
 * work into `output` (the same buffer in place), which leaves in order later,
 * from generate_output. */
static GstFlowReturn
cf_base_filter_queue_frame (GstBaseTransform * trans, GstBuffer * input,
    GstBuffer * output)
{
  auto *self = CF_BASE_FILTER (trans);
  auto & st = state_of (self);
  auto *klass = CF_BASE_FILTER_GET_CLASS (self);
  GST_OBJECT_LOCK (self);
  const SelectionSettings settings = st.props.selection;
  GST_OBJECT_UNLOCK (self);
  FrameSelection selection = st.selector.select (GST_ELEMENT (self), input,
      st.scheduler.engine ().info (), settings, st.caps.sizes.max_regions);
  if (klass->amend_selection)
    klass->amend_selection (self, input, &selection);
  const gsize regions = selection.regions ? selection.regions->size () : 0;
  const FrameError err = st.scheduler.submit (input, output,
      std::move (selection),
      st.caps.sizes.results + regions * st.caps.sizes.results_per_region,
      [self, klass] (const FrameWork & work, const FrameSelection & selected) {
        return klass->run_frame (self, work, selected);
      });
  return cf_base_filter_post_error (self, err);
}

static GstFlowReturn
cf_base_filter_queue_frame_in_place (GstBaseTransform * trans,
    GstBuffer * frame)
{
  return cf_base_filter_queue_frame (trans, frame, frame);
}

/* Queues a frame's work with its output buffer, through transform() or, in
 * place, transform_ip(), as GstBaseTransform would (its generate_output, which
 * would call them, is ours); the frame leaves from generate_output. */
static GstFlowReturn
submit_frame (CfBaseFilter * self, GstBuffer * input)
{
  auto *trans = GST_BASE_TRANSFORM (self);
  auto *klass = GST_BASE_TRANSFORM_GET_CLASS (self);
  auto & st = state_of (self);
  if (!st.scheduler.engine ().configured ()) {
    gst_buffer_unref (input);
    if (st.caps.failed)
      return GST_FLOW_ERROR;
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("A frame came before its "
            "caps: upstream sent no CAPS event first"), (nullptr));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  GstBuffer *output = nullptr;
  FrameError failure;
  GstFlowReturn ret = st.pools.prepare_output (trans, input, &output,
      st.caps.output_in_cuda, &failure);
  if (ret == GST_FLOW_ERROR)
    ret = cf_base_filter_post_error (self, failure);
  else if (ret == GST_FLOW_OK)
    ret = gst_base_transform_is_in_place (trans) ?
        klass->transform_ip (trans, output) :
        klass->transform (trans, input, output);
  if (output && output != input)
    gst_buffer_unref (output);
  gst_buffer_unref (input);
  return ret;
}

static GstFlowReturn
cf_base_filter_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  auto *self = CF_BASE_FILTER (trans);
  if (is_discont) {
    const GstFlowReturn drained = state_of (self).scheduler.before_discont ();
    if (drained != GST_FLOW_OK) {
      gst_buffer_unref (input);
      return drained;
    }
  }
  /* The parent handles QoS and renegotiation, then queues the buffer. */
  const GstFlowReturn ret =
      GST_BASE_TRANSFORM_CLASS (cf_base_filter_parent_class)->
      submit_input_buffer (trans, is_discont, input);
  if (ret != GST_FLOW_OK || !trans->queued_buf)
    return ret;
  return submit_frame (self, std::exchange (trans->queued_buf, nullptr));
}

/* GstBaseTransform pushes what this gives and calls again until it gives
 * nothing: the oldest frame once frames-in-flight frames are in, on both
 * backends alike, so that latency and order do not depend on where the
 * kernels ran. */
static GstFlowReturn
cf_base_filter_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  return state_of (CF_BASE_FILTER (trans)).scheduler.generate (outbuf);
}

static gboolean
cf_base_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstFlowReturn drained = GST_FLOW_OK;
  if (state_of (CF_BASE_FILTER (trans)).scheduler.take_event (event, &drained))
    return TRUE;
  const bool caps = GST_EVENT_TYPE (event) == GST_EVENT_CAPS;
  /* Forwarded whatever the drain did, as GstVideoDecoder forwards EOS; a
   * drain that failed (its error posted) fails the event. */
  const gboolean forwarded =
      GST_BASE_TRANSFORM_CLASS (cf_base_filter_parent_class)->sink_event
      (trans, event);
  if (caps && !forwarded)
    cf_base_filter_explain_cuda_only_downstream (CF_BASE_FILTER (trans));
  return forwarded && drained >= GST_FLOW_EOS;
}

static gboolean
cf_base_filter_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  auto *self = CF_BASE_FILTER (trans);
  auto & st = state_of (self);
  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_DRAIN:
      /* Upstream wants every buffer it gave back: the frames in flight leave
       * first (a failed drain has posted its error). */
      if (direction == GST_PAD_SINK && st.scheduler.drain () < GST_FLOW_EOS)
        return FALSE;
      break;
    case GST_QUERY_CONTEXT:{
      GST_OBJECT_LOCK (self);
      const CudaDevice device = st.device.cuda ();
      GST_OBJECT_UNLOCK (self);
      if (device.answer_context_query (GST_ELEMENT (self), query))
        return TRUE;
      break;
    }
    case GST_QUERY_POSITION:
      if (direction == GST_PAD_SRC && st.scheduler.answer_position (query))
        return TRUE;
      break;
    default:
      break;
  }
  if (!GST_BASE_TRANSFORM_CLASS (cf_base_filter_parent_class)->query
      (trans, direction, query))
    return FALSE;
  cf_base_filter_complete_query (self, direction, query);
  return TRUE;
}

/* ---- GObject ---- */

static void
cf_base_filter_finalize (GObject * object)
{
  auto *priv = static_cast<CfBaseFilterPrivate *>
      (cf_base_filter_get_instance_private (CF_BASE_FILTER
          (object)));
  delete priv->state;
  G_OBJECT_CLASS (cf_base_filter_parent_class)->finalize (object);
}

static void
cf_base_filter_constructed (GObject * object)
{
  cf_base_filter_take_defaults (object);
  G_OBJECT_CLASS (cf_base_filter_parent_class)->constructed (object);
}

static void
cf_base_filter_class_init (CfBaseFilterClass * klass)
{
  auto *gobject_class = G_OBJECT_CLASS (klass);
  auto *element_class = GST_ELEMENT_CLASS (klass);
  auto *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->constructed = cf_base_filter_constructed;
  gobject_class->set_property = cf_base_filter_set_property;
  gobject_class->get_property = cf_base_filter_get_property;
  gobject_class->finalize = cf_base_filter_finalize;
  cf_base_filter_install_properties (gobject_class);

  GstCaps *caps = cf::template_caps ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  element_class->set_context =
      GST_DEBUG_FUNCPTR (cf_base_filter_set_context);
  /* Each callback that runs the element's own C++ is guarded: no exception
   * crosses into GStreamer. */
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_start>::call);
  trans_class->stop = GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_stop>::call);
  trans_class->transform_caps =
      GST_DEBUG_FUNCPTR (cf_base_filter_transform_caps);
  trans_class->fixate_caps = GST_DEBUG_FUNCPTR (cf_base_filter_fixate_caps);
  trans_class->set_caps =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_set_caps>::call);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_propose_allocation>::
      call);
  trans_class->decide_allocation =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_decide_allocation>::
      call);
  trans_class->query =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_query>::call);
  trans_class->sink_event =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_sink_event>::call);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (cf_base_filter_before_transform);
  trans_class->transform = GST_DEBUG_FUNCPTR (cf_base_filter_queue_frame);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (cf_base_filter_queue_frame_in_place);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_submit_input_buffer>::
      call);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (Guarded<cf_base_filter_generate_output>::
      call);

  gst_type_mark_as_plugin_api (CF_TYPE_BASE_FILTER,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (CF_TYPE_BACKEND,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (CF_TYPE_REGIONS, (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (CF_TYPE_BORDER, (GstPluginAPIFlags) 0);
  GST_DEBUG_CATEGORY_INIT (cf_base_filter_debug, "cudabasefilter", 0,
      "cudafilters base class");
}

static void
cf_base_filter_init (CfBaseFilter * self)
{
  auto *priv = static_cast<CfBaseFilterPrivate *>
      (cf_base_filter_get_instance_private (self));
  priv->state = new BaseFilterState (self);
  /* As GstVideoFilter: frames a sink would drop as late are not processed. */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}
