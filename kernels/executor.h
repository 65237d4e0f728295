// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Where a kernel runs: on the GPU (device memory, queued on a stream) or on the host.
#pragma once

#include "status.h"

namespace cf {

struct Executor {
  bool on_device = false;
  cudaStream_t stream = nullptr;  // with on_device
  int cpu_threads = 0;            // without: 0 = one per core
};

}  // namespace cf
