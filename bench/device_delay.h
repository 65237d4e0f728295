// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// A device-side pause for kernel-times: the stream spins on the GPU while the host
// queues the timed work behind it, so CUDA events time the device's work and not the
// host's launch calls.
#pragma once

#include <cuda_runtime_api.h>

// Queues on `stream` a one-thread kernel that returns after `microseconds`.
cudaError_t queue_device_delay(cudaStream_t stream, unsigned microseconds);
