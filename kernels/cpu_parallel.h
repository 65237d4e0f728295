// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// Splits [0, n) into contiguous ranges run on the calling thread and on worker
// threads that the process keeps.
#pragma once

#include <functional>

namespace cf {

// Calls body(begin, end) over disjoint ranges covering [0, n), `ranges_per_thread`
// per thread, each on whichever of up to `threads` threads (0: one per core) claims it
// first, the calling thread among them: a thread that starts late or is interrupted
// leaves its ranges to the others (more ranges share such a delay better, where a
// range's own start costs little). Small jobs run on the calling thread alone. Returns
// when all are done. Calls may come from several threads at once.
void parallel_ranges(int n, int threads, long work_per_item,
                     const std::function<void(int begin, int end)> &body,
                     int ranges_per_thread = 1);

}  // namespace cf
