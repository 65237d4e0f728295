// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors
//
// The CPU kernels' thread pool (kernels/cpu_parallel.h): every item run once, whatever
// the thread count; calls from several threads at once; a child of fork() that uses
// the pool after its parent did; "all cores" limited to the CPUs the process may use.
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cpu_parallel.h"

// Last: Check defines macros (fail, ...) that break C++ headers.
#include <gst/check/gstcheck.h>

namespace {

// Work per item large enough that every thread asked for is used.
constexpr long kBigWork = 1L << 20;

// The items of [0, n) not run exactly once by one call, described; empty if none.
std::string run_and_check(int n, int threads, int ranges_per_thread = 1) {
  std::vector<std::atomic<int>> runs(n);
  std::atomic<bool> empty_range{false};
  cf::parallel_ranges(
      n, threads, kBigWork,
      [&](int begin, int end) {
        if (begin >= end)
          empty_range = true;
        for (int i = begin; i < end; ++i)
          ++runs[i];
      },
      ranges_per_thread);
  std::string what;
  if (empty_range)
    what = "an empty range; ";
  for (int i = 0; i < n; ++i)
    if (runs[i] != 1) {
      what += "item " + std::to_string(i) + " run " + std::to_string(runs[i]) + " times";
      break;
    }
  return what;
}

}  // namespace

GST_START_TEST(test_every_item_once) {
  for (const int n : {0, 1, 2, 3, 7, 100, 1081})
    for (const int threads : {0, 1, 2, 3, 4, 8})
      for (const int ranges_per_thread : {1, 4}) {
        const std::string what = run_and_check(n, threads, ranges_per_thread);
        fail_unless(what.empty(), "%d items on %d threads, %d ranges each: %s", n, threads,
                    ranges_per_thread, what.c_str());
      }
}
GST_END_TEST;

GST_START_TEST(test_calls_from_several_threads) {
  constexpr int kCallers = 4;
  constexpr int kCalls = 100;
  std::atomic<int> failures{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&, c] {
      for (int call = 0; call < kCalls; ++call)
        if (!run_and_check(97 + c, 2 + call % 3, 1 + call % 4).empty())
          ++failures;
    });
  for (std::thread &caller : callers)
    caller.join();
  fail_unless(failures == 0, "%d of %d calls ran an item other than once", failures.load(),
              kCallers * kCalls);
}
GST_END_TEST;

// The parent's workers do not exist in the child: it must get workers of its own
// (or do the work alone), not wait for them. A hang fails by the test's timeout.
GST_START_TEST(test_forked_child) {
  fail_unless(run_and_check(1000, 3).empty());
  const pid_t child = fork();
  fail_if(child < 0, "fork failed");
  if (child == 0)
    _exit(run_and_check(1000, 3).empty() && run_and_check(1000, 2).empty() ? 0 : 1);
  int status = 0;
  fail_unless(waitpid(child, &status, 0) == child);
  fail_unless(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child's calls failed");
  fail_unless(run_and_check(1000, 3).empty(), "the parent's pool after the fork");
}
GST_END_TEST;

// A process held to one CPU (taskset, a container's cpuset) runs "all cores" on
// that one, not on one thread per core of the machine.
GST_START_TEST(test_all_cores_within_affinity) {
  cpu_set_t original;
  fail_unless(sched_getaffinity(0, sizeof original, &original) == 0);
  fail_unless_equals_int(cf::usable_cores(), CPU_COUNT(&original));

  int first = 0;
  while (!CPU_ISSET(first, &original))
    ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  fail_unless(sched_setaffinity(0, sizeof one, &one) == 0);
  const int cores = cf::usable_cores();
  std::mutex lock;
  std::set<std::thread::id> threads;
  // Ranges long enough for any worker the call wakes to take some.
  cf::parallel_ranges(
      64, 0, kBigWork,
      [&](int, int) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        const std::lock_guard<std::mutex> guard(lock);
        threads.insert(std::this_thread::get_id());
      },
      8);
  fail_unless(sched_setaffinity(0, sizeof original, &original) == 0);
  fail_unless_equals_int(cores, 1);
  fail_unless_equals_int(static_cast<int>(threads.size()), 1);
}
GST_END_TEST;

static Suite *cpu_parallel_suite(void) {
  Suite *suite = suite_create("cpu_parallel");
  TCase *tc = tcase_create("general");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_every_item_once);
  tcase_add_test(tc, test_calls_from_several_threads);
  tcase_add_test(tc, test_forked_child);
  tcase_add_test(tc, test_all_cores_within_affinity);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(cpu_parallel);
