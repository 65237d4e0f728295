// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cpu_parallel.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace cf {

void parallel_ranges(int n, int threads, long work_per_item,
                     const std::function<void(int begin, int end)> &body) {
  // Starting a thread costs tens of microseconds: below this much work, one is enough.
  constexpr long kMinWorkPerThread = 1 << 16;
  if (threads <= 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  const long total = static_cast<long>(n) * std::max(1L, work_per_item);
  threads = static_cast<int>(std::min<long>({threads, n, std::max(1L, total / kMinWorkPerThread)}));
  if (threads <= 1) {
    if (n > 0)
      body(0, n);
    return;
  }
  std::vector<std::thread> workers;
  workers.reserve(threads - 1);
  const int chunk = (n + threads - 1) / threads;
  for (int begin = chunk; begin < n; begin += chunk)
    workers.emplace_back(body, begin, std::min(n, begin + chunk));
  body(0, std::min(n, chunk));
  for (auto &worker : workers)
    worker.join();
}

}  // namespace cf
