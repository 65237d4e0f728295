// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The plugin's own counts of the CUDA resources it holds (plugin/cudafaults.h), for
// the tests that link its objects.
#pragma once

#include <string>

#include "cudafaults.h"

// Last: Check's macros break C++ headers.
#include <gst/check/gstcheck.h>

namespace cftest {

// Fails unless the plugin holds no CUDA resource of any kind.
inline void expect_no_cuda_resources(const std::string &what) {
  const struct {
    CfCudaResource kind;
    const char *name;
  } kinds[] = {{CfCudaResource::DeviceMemory, "device allocations"},
               {CfCudaResource::PinnedMemory, "pinned host allocations"},
               {CfCudaResource::RegisteredHostMemory, "memories pinned in place"},
               {CfCudaResource::Stream, "streams"},
               {CfCudaResource::Event, "events"}};
  for (const auto &kind : kinds) {
    const int live = cf_live_cuda_resources(kind.kind);
    fail_unless(live == 0, "%s: %d %s still held", what.c_str(), live, kind.name);
  }
}

}  // namespace cftest
