// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cpu_parallel.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <system_error>
#include <thread>

namespace cf {
namespace {

// One call: `ranges` ranges of [0, n), each run by whichever thread claims it first,
// the calling thread or a worker of the pool: a worker that starts late leaves its
// range to the caller rather than making it wait.
struct Job {
  const std::function<void(int begin, int end)> &body;
  const int n;
  const int ranges;
  std::atomic<int> next{0};
  int helpers_wanted = 0;          // workers that may still take the job (pool's mutex)
  std::atomic<int> helpers_in{0};  // workers running it (changed under the pool's mutex)

  void run_ranges() {
    for (int r; (r = next.fetch_add(1, std::memory_order_relaxed)) < ranges;)
      body(static_cast<int>(long{r} * n / ranges), static_cast<int>(long{r + 1} * n / ranges));
  }
};

// How long a worker that has no job, and a caller whose workers are still busy, spin
// before they sleep. On the 2-core build VM (a scratch program, half of a 1080p 3x3
// median on each of two threads) a worker woken from sleep began 35-70 us late and
// took 0.8-1.0 ms for its half, against 0.5 ms for one that had spun: calls that
// follow one another closely (a frame's planes, a stream of small frames) find it
// awake. The same choice as the plugin's copy workers (hostcopy.cpp).
constexpr auto kSpin = std::chrono::microseconds(100);

// Returns when ready() holds or kSpin has passed (yielding the core meanwhile).
template <typename Ready>
void spin_until(Ready &&ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (!ready() && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
}

// Worker threads kept for the life of the process: a thread started and joined for
// every call cost 20-40 us on the 2-core build VM. Started when a call first wants
// them.
class Pool {
public:
  // Never destroyed: at exit, workers still wait on its condition variable (whose
  // destruction would wait for them). A child of fork() has none of the parent's
  // threads: it starts from a pool of its own.
  static Pool &instance() {
    static const bool registered = [] {
      pthread_atfork([] { current()->mutex_.lock(); }, [] { current()->mutex_.unlock(); },
                     [] {
                       Pool *parent = current();
                       parent->mutex_.unlock();
                       current() = new Pool(parent);
                     });
      return true;
    }();
    (void)registered;
    return *current();
  }

  // Runs `job` on the calling thread and on up to `helpers` workers; returns when
  // every range is done.
  void run(Job &job, int helpers) {
    int wanted;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (; workers_ < helpers; ++workers_) {
        try {
          std::thread([this] { work(); }).detach();
        } catch (const std::system_error &) {
          break;  // no more threads to be had: the workers there are, or the caller alone
        }
      }
      wanted = job.helpers_wanted = std::min(helpers, workers_);
      if (wanted > 0) {
        jobs_.push_back(&job);
        queued_ = static_cast<int>(jobs_.size());
      }
    }
    for (int i = 0; i < wanted; ++i)
      wake_.notify_one();
    job.run_ranges();
    std::unique_lock<std::mutex> lock(mutex_);
    // From here no worker takes the job; those running it finish their range.
    if (job.helpers_wanted > 0) {
      jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
      queued_ = static_cast<int>(jobs_.size());
    }
    if (job.helpers_in == 0)
      return;
    lock.unlock();
    spin_until([&] { return job.helpers_in == 0; });
    lock.lock();
    done_.wait(lock, [&] { return job.helpers_in == 0; });
  }

private:
  explicit Pool(Pool *parent = nullptr) : parent_(parent) {}

  static Pool *&current() {
    static Pool *pool = new Pool;
    return pool;
  }

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (jobs_.empty()) {
        lock.unlock();
        spin_until([this] { return queued_ > 0; });
        lock.lock();
        wake_.wait(lock, [this] { return !jobs_.empty(); });
      }
      Job &job = *jobs_.front();
      if (--job.helpers_wanted == 0) {
        jobs_.pop_front();
        queued_ = static_cast<int>(jobs_.size());
      }
      ++job.helpers_in;
      lock.unlock();
      job.run_ranges();
      lock.lock();
      if (--job.helpers_in == 0)
        done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;  // a job wants workers
  std::condition_variable done_;  // a job's last worker left it
  std::deque<Job *> jobs_;        // jobs that want more workers, oldest first
  std::atomic<int> queued_{0};    // jobs_'s size, read while spinning
  int workers_ = 0;
  // The parent process's pool, in a child of fork(): kept reachable, not leaked.
  [[maybe_unused]] Pool *parent_;
};

}  // namespace

void parallel_ranges(int n, int threads, long work_per_item,
                     const std::function<void(int begin, int end)> &body,
                     int ranges_per_thread) {
  // Below this much work, one thread is enough.
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
  Job job{body, n, std::min<int>(n, threads * std::max(1, ranges_per_thread))};
  Pool::instance().run(job, threads - 1);
}

}  // namespace cf
