// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "gpu_activity.h"

#ifdef CF_HAVE_CUPTI

#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <vector>

// Record types: the newest versions the toolkit's header has (bench/meson.build
// picks them); the fields read here sit at the start of every version.
#ifndef CF_CUPTI_KERNEL
#define CF_CUPTI_KERNEL CUpti_ActivityKernel10
#endif
#ifndef CF_CUPTI_MEMCPY
#define CF_CUPTI_MEMCPY CUpti_ActivityMemcpy6
#endif
#ifndef CF_CUPTI_MEMSET
#define CF_CUPTI_MEMSET CUpti_ActivityMemset4
#endif

namespace {

constexpr size_t kBufferBytes = 8u << 20;
constexpr CUpti_ActivityKind kKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET,
};

struct Interval {
  uint64_t start, end;
  bool kernel;
};

std::mutex lock;
BenchGpuActivity totals;
std::vector<Interval> intervals;
bool registered = false;

gchar *describe(CUptiResult result, const char *what) {
  const char *text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
    text = "unknown error";
  return g_strdup_printf("%s: %s", what, text);
}

void add(uint64_t start, uint64_t end, double &sum_us, bool kernel = false) {
  if (end < start)
    return;
  sum_us += (end - start) / 1e3;
  intervals.push_back({start, end, kernel});
}

// Nanoseconds covered by the union of the intervals (sorted by start) that
// `keep` accepts.
template <typename Keep>
double union_ns(const std::vector<Interval> &sorted, Keep keep) {
  double covered = 0;
  uint64_t open_start = 0, open_end = 0;
  bool open = false;
  for (const Interval &i : sorted) {
    if (!keep(i))
      continue;
    if (open && i.start <= open_end) {
      open_end = std::max(open_end, i.end);
      continue;
    }
    if (open)
      covered += open_end - open_start;
    open_start = i.start;
    open_end = i.end;
    open = true;
  }
  if (open)
    covered += open_end - open_start;
  return covered;
}

void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t *buffer,
                               size_t, size_t valid) {
  std::lock_guard<std::mutex> hold(lock);
  CUpti_Activity *record = nullptr;
  while (valid > 0 && cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
      const auto *k = reinterpret_cast<const CF_CUPTI_KERNEL *>(record);
      totals.kernels++;
      add(k->start, k->end, totals.kernel_us, true);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
      const auto *m = reinterpret_cast<const CF_CUPTI_MEMSET *>(record);
      totals.memsets++;
      add(m->start, m->end, totals.memset_us);
      break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
      const auto *m = reinterpret_cast<const CF_CUPTI_MEMCPY *>(record);
      const uint64_t bytes = m->bytes;
      switch (m->copyKind) {
      case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
        totals.up++;
        totals.up_bytes += bytes;
        totals.largest_host_copy = std::max<guint64>(totals.largest_host_copy, bytes);
        break;
      case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
        totals.down++;
        totals.down_bytes += bytes;
        totals.largest_host_copy = std::max<guint64>(totals.largest_host_copy, bytes);
        break;
      case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
      case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
      case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
      case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
        totals.on_device++;
        totals.on_device_bytes += bytes;
        break;
      default:
        totals.other++;
        totals.other_bytes += bytes;
        break;
      }
      add(m->start, m->end, totals.copy_us);
      break;
    }
    default:
      break;
    }
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) == CUPTI_SUCCESS)
    totals.dropped += dropped;
  std::free(buffer);
}

}  // namespace

gboolean bench_gpu_activity_built(void) { return TRUE; }

gboolean bench_gpu_activity_start(gchar **why) {
  CUptiResult result;
  if (!registered) {
    result = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    if (result != CUPTI_SUCCESS) {
      *why = describe(result, "cuptiActivityRegisterCallbacks");
      return FALSE;
    }
    registered = true;
  }
  {
    std::lock_guard<std::mutex> hold(lock);
    totals = BenchGpuActivity{};
    intervals.clear();
  }
  for (const CUpti_ActivityKind kind : kKinds) {
    result = cuptiActivityEnable(kind);
    if (result != CUPTI_SUCCESS) {
      *why = describe(result, "cuptiActivityEnable");
      for (const CUpti_ActivityKind k : kKinds)
        cuptiActivityDisable(k);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean bench_gpu_activity_stop(BenchGpuActivity *out, gchar **why) {
  CUptiResult result = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (const CUpti_ActivityKind kind : kKinds)
    cuptiActivityDisable(kind);
  if (result == CUPTI_SUCCESS)
    result = cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> hold(lock);
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval &a, const Interval &b) { return a.start < b.start; });
  totals.busy_us = union_ns(intervals, [](const Interval &) { return true; }) / 1e3;
  totals.kernel_busy_us = union_ns(intervals, [](const Interval &i) { return i.kernel; }) / 1e3;
  *out = totals;
  intervals.clear();
  if (result != CUPTI_SUCCESS) {
    *why = describe(result, "cuptiActivityFlushAll");
    return FALSE;
  }
  return TRUE;
}

#else  // no CUPTI in this build

gboolean bench_gpu_activity_built(void) { return FALSE; }

gboolean bench_gpu_activity_start(gchar **why) {
  *why = g_strdup("built without CUPTI (the CUDA toolkit's libcupti and cupti.h were not "
                  "found): no GPU activity census");
  return FALSE;
}

gboolean bench_gpu_activity_stop(BenchGpuActivity *totals, gchar **why) {
  *totals = BenchGpuActivity{};
  *why = g_strdup("built without CUPTI");
  return FALSE;
}

#endif
