// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* The state of a CfBaseFilter (cfbasefilter.h), for the base's own files:
 * cfbasefilter.cpp and its properties, cfbaseproperties.cpp. */
#pragma once

#include <atomic>

#include "cfbasefilter.h"
#include "cfbaseproperties.h"
#include "elementdevice.h"
#include "elementpools.h"
#include "framescheduler.h"

/* The element's state, in three parts by who writes them. */
struct BaseFilterState
{
  explicit BaseFilterState (CfBaseFilter * self);

  /* Properties, under the object lock. */
  BaseProperties props;
  /* A property the frames are sized by changed (any thread): before the next
   * frame, the frames in flight leave and the frames are configured again. */
  std::atomic<bool> frames_outdated { false };
  /* From start to stop: the backend and the device, and the memory and
   * pools allocated on it. */
  ElementDevice device;
  ElementPools pools;
  /* The streaming thread's: the frames in flight and what they need, and
   * what of each is processed. */
  FrameScheduler scheduler;
  FrameSelector selector;
  /* Fixed at the caps. */
  struct
  {
    bool output_in_cuda = false;
    FrameSizes sizes;
    bool failed = false;        /* the last configuration; its error posted */
    bool told_cuda_only_downstream = false;
  } caps;
};

/* The element's state, made at its init and freed at its finalize. */
BaseFilterState & state_of (CfBaseFilter * self);
