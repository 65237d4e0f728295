// SPDX-License-Identifier: LGPL-2.1-or-later
// Copyright (C) 2026 The gst-cudafilters authors

#include "cpu_parallel.h"

#include <pthread.h>
#include <sched.h>

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

// One call of parallel_ranges: `ranges` ranges of [0, n), each run by whichever thread
// claims it first, the calling thread or a worker of the pool: a worker that starts
// late leaves its range to the caller rather than making it wait. It lives on the
// caller's stack, which waits until no worker runs it.
struct Job : SharedWork {
  Job(const std::function<void(int begin, int end)> &body, int n, int ranges)
      : body(body), n(n), ranges(ranges) {}

  const std::function<void(int begin, int end)> &body;
  const int n;
  const int ranges;
  std::atomic<int> next{0};
  std::atomic<int> helpers_in{0};  // workers running it (changed under the pool's mutex)

  void run() override {
    for (int r; (r = next.fetch_add(1, std::memory_order_relaxed)) < ranges;)
      body(static_cast<int>(long{r} * n / ranges), static_cast<int>(long{r + 1} * n / ranges));
  }
};

// Work offered to the workers, for `wanted` more of them to take.
struct Offer {
  SharedWork *work;
  std::shared_ptr<SharedWork> keep;  // offer_work's: alive while a worker may take it
  int wanted;
  std::atomic<int> *running;         // parallel_ranges': its workers, for the caller to wait
};

// How long a worker that has no job, and a caller whose workers are still busy, spin
// before they sleep: a worker woken from sleep starts late and runs its part slower
// than one that spun, so calls that follow one another closely (a frame's planes, a
// stream of small frames) find it awake. For the plugin's staged copies too: waking a
// thread costs about as long as copying a piece on a VM, and a stream brings work every
// few hundred microseconds.
constexpr auto kSpin = std::chrono::microseconds(100);

// Returns when ready() holds or kSpin has passed (yielding the core meanwhile).
template <typename Ready>
void spin_until(Ready &&ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  while (!ready() && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
}

// Worker threads kept for the life of the process: a thread started and joined for
// every call would cost more than a small call's work. Started when a call first wants
// them.
class Pool {
public:
  // Never destroyed: at exit, workers still wait on its condition variable (whose
  // destruction would wait for them). Made by the first call that wants it; a child of
  // fork() has none of the parent's threads: it starts from a pool of its own.
  static Pool &instance() {
    Pool *pool = current_.load(std::memory_order_acquire);
    if (!pool) {
      Pool *made = new Pool(parents_);
      if (current_.compare_exchange_strong(pool, made, std::memory_order_acq_rel))
        pool = made;
      else
        delete made;  // another thread's came first
    }
    return *pool;
  }

  // Runs `job` on the calling thread and on up to `helpers` workers; returns when
  // every range is done.
  void run(Job &job, int helpers) {
    offer({&job, nullptr, helpers, &job.helpers_in});
    job.run();
    std::unique_lock<std::mutex> lock(mutex_);
    // From here no worker takes the job; those running it finish their range.
    const auto queued = std::find_if(offers_.begin(), offers_.end(),
                                     [&](const Offer &offer) { return offer.work == &job; });
    if (queued != offers_.end()) {
      offers_.erase(queued);
      queued_ = static_cast<int>(offers_.size());
    }
    if (job.helpers_in == 0)
      return;
    lock.unlock();
    spin_until([&] { return job.helpers_in == 0; });
    lock.lock();
    done_.wait(lock, [&] { return job.helpers_in == 0; });
  }

  // Hands `offer` to up to offer.wanted workers, started as needed; returns at once.
  void offer(Offer offer) {
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      for (; workers_ < offer.wanted; ++workers_) {
        try {
          std::thread([this] { work(); }).detach();
        } catch (const std::system_error &) {
          break;  // no more threads to be had: the workers there are, or the caller alone
        }
      }
      offer.wanted = std::min(offer.wanted, workers_);
      if (offer.wanted <= 0)
        return;
      offers_.push_back(std::move(offer));
      queued_ = static_cast<int>(offers_.size());
    }
    wake_.notify_all();
  }

private:
  explicit Pool(Pool *parent) : parent_(parent) {}

  // In a child of fork(): the parent's pool (its workers are not there; one of them may
  // have held its lock) is left as it was, never used again; the child's first call
  // makes one of its own. Nothing runs before the fork: a fork waits for no worker.
  static void forget_parent_pool() {
    if (Pool *parent = current_.exchange(nullptr, std::memory_order_relaxed))
      parents_ = parent;
  }

  void work() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (offers_.empty()) {
        lock.unlock();
        spin_until([this] { return queued_ > 0; });
        lock.lock();
        wake_.wait(lock, [this] { return !offers_.empty(); });
      }
      Offer &front = offers_.front();
      SharedWork *work = front.work;
      const std::shared_ptr<SharedWork> keep = front.keep;
      std::atomic<int> *running = front.running;
      if (--front.wanted == 0) {
        offers_.pop_front();
        queued_ = static_cast<int>(offers_.size());
      }
      if (running)
        ++*running;
      lock.unlock();
      work->run();
      lock.lock();
      if (running && --*running == 0)
        done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;  // work wants workers
  std::condition_variable done_;  // a parallel_ranges job's last worker left it
  std::deque<Offer> offers_;      // work that wants more workers, oldest first
  std::atomic<int> queued_{0};    // offers_'s size, read while spinning
  int workers_ = 0;
  // The parent process's pool, in a child of fork(): kept reachable, not leaked.
  [[maybe_unused]] Pool *parent_;

  // This process's pool, null until a call wants it. Not a function's static: a child
  // forked while another thread initialized one waits forever for that thread.
  static std::atomic<Pool *> current_;
  // In a child of fork(): the parent's pool (whose parent_ is the grandparent's, ...).
  static Pool *parents_;
  // The fork handler, registered when the library loads. Registered by the first call
  // (in a function's static), it raced fork() in other threads: pthread_atfork waits
  // while another thread forks, so a child forked at that moment got the static's
  // guard half-set and its own first call waited on it forever.
  static const int fork_handler_;
};

// Constant-initialized: null before any code runs.
std::atomic<Pool *> Pool::current_{nullptr};
Pool *Pool::parents_ = nullptr;
const int Pool::fork_handler_ = pthread_atfork(nullptr, nullptr, &Pool::forget_parent_pool);

}  // namespace

void parallel_ranges(int n, int threads, long work_per_item,
                     const std::function<void(int begin, int end)> &body,
                     int ranges_per_thread) {
  // Below this much work, one thread is enough.
  constexpr long kMinWorkPerThread = 1 << 16;
  if (threads <= 0)
    threads = usable_cores();
  const long total = static_cast<long>(n) * std::max(1L, work_per_item);
  threads = static_cast<int>(std::min<long>({threads, n, std::max(1L, total / kMinWorkPerThread)}));
  if (threads <= 1) {
    if (n > 0)
      body(0, n);
    return;
  }
  Job job(body, n, std::min<int>(n, threads * std::max(1, ranges_per_thread)));
  Pool::instance().run(job, threads - 1);
}

void offer_work(const std::shared_ptr<SharedWork> &work, int helpers) {
  Pool::instance().offer({work.get(), work, helpers, nullptr});
}

int usable_cores() {
#ifdef CPU_COUNT
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0)
    return CPU_COUNT(&allowed);
#endif
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace cf
