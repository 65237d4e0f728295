// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Splits [0, n) into contiguous ranges run on worker threads.
#pragma once

#include <functional>

namespace cf {

// Calls body(begin, end) on up to `threads` threads (0: one per core) over disjoint
// ranges covering [0, n); small jobs run on the calling thread. Returns when all are done.
void parallel_ranges(int n, int threads, long work_per_item,
                     const std::function<void(int begin, int end)> &body);

}  // namespace cf
