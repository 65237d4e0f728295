// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

// The process's worker threads: [0, n) split into contiguous ranges run on the
// calling thread and on the workers, and work that workers join while its caller goes
// on (the plugin's staged copies, plugin/hostcopy.h).
#pragma once

#include <functional>
#include <memory>

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

// Work that the pool's workers may join while its caller goes on: each worker that
// joins calls run(), which returns once nothing is left for it to do. The pool holds a
// reference while it may still hand the work to a worker, so one that joins late
// touches only this object.
class SharedWork {
public:
  virtual ~SharedWork() = default;
  virtual void run() = 0;
};

// Offers `work` to up to `helpers` workers (started as needed) and returns at once.
void offer_work(const std::shared_ptr<SharedWork> &work, int helpers);

// The cores this process may run on: its CPU affinity (a cpuset, taskset, a
// container's --cpuset-cpus) where the system says, else every core.
int usable_cores();

}  // namespace cf
