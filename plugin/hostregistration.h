// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

/* Foreign host memory pinned where it is (cudaHostRegister), for upstream
 * elements that recycle their own buffers and ignore our pinned pool: cameras
 * (v4l2src's mmap'd pool), software decoders, applications' appsrc pools.
 *
 * Pinning costs milliseconds, a copy through pinned staging costs one host
 * copy per frame: memory is registered the second time a frame in it comes
 * (upstream recycles it), never the first (a source that allocates every frame
 * anew would pay the pinning for nothing). The registration is kept on the
 * memory (GstMiniObject qdata of the memory that owns the bytes) and undone
 * when that memory is freed, which cannot happen while a frame in it is in
 * flight: the element holds the buffer until its work is done. Registrations
 * are portable (every context of every device may use them), so elements of
 * several contexts share them. */
#pragma once

#include <gst/video/video.h>

#include "cudadevice.h"

/* Whether the DMA engines can read the mapped frame where it is: our pinned
 * pool's memory, or foreign memory registered now or before. The first time a
 * memory comes, only marks it as seen; the second time registers it in
 * `device`'s context (current: a CudaContextScope). A registration that fails
 * (memory the driver cannot pin, e.g. device mmaps; the fault hook's pinned
 * point) is not an error: that memory is staged from then on. */
bool host_frame_reachable_by_dma (const GstVideoFrame & mapped,
    const CudaDevice & device);
