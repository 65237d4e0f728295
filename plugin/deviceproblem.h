// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Why no CUDA device is usable, in words that say what to do. The CUDA
 * runtime says "CUDA driver version is insufficient" alike where no driver is
 * installed and where it is too old; the driver's own version (0 where none is
 * installed) against the runtime's tells the two apart. */
#pragma once

#include <cuda_runtime_api.h>

#include <string>

namespace cf {

/* What `err` (from counting or opening devices) means here, and what fixes it:
 * no NVIDIA driver; a driver older than this build's CUDA (the two versions,
 * and the driver branch that would do); no device; a device busy or
 * prohibited; else the CUDA error's own words. */
std::string describe_device_problem (cudaError_t err);

}  // namespace cf
