#include "core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace samara::core {
namespace {

/// A short busy wait before sleeping: a World steps again within microseconds, and waking a
/// sleeping thread costs tens of microseconds on a virtual machine.
constexpr int kSpins = 2000;

inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

}  // namespace

struct ThreadPool::Shared {
  std::mutex mutex;
  std::condition_variable wake;  ///< a new job (or stop) for the workers
  std::condition_variable done;  ///< the job's last index is done
  // The job, written under `mutex` (generation last), read under it by the workers.
  std::uint32_t generation = 0;             ///< job number (wraps; only equality is used)
  std::atomic<std::uint32_t> published{0};  ///< = generation, for the workers' busy wait
  const std::function<void(int)>* task = nullptr;
  int n = 0;
  int chunk = 1;  ///< indices taken at once
  std::fenv_t env{};
  /// (generation << 32) | the next index: a worker takes indices of its own job only, so one
  /// that wakes late (its job already done by others) never runs another job's task.
  std::atomic<std::uint64_t> ticket{0};
  std::atomic<int> completed{0};  ///< indices of the job done
  std::exception_ptr error;       ///< the first exception of the job (under `mutex`)
  bool stop = false;              ///< under `mutex`
  std::vector<std::thread> workers;

  /// Takes runs of indices of job `gen` until none is left; keeps the first exception. `f`
  /// is called only for an index taken (a finished job's may be gone).
  void work(std::uint32_t gen, const std::function<void(int)>* f, int count, int run) {
    for (;;) {
      std::uint64_t v = ticket.load(std::memory_order_acquire);
      int first = 0;
      do {
        first = static_cast<int>(v & 0xffffffffu);
        if (static_cast<std::uint32_t>(v >> 32) != gen || first >= count) return;
      } while (!ticket.compare_exchange_weak(v, v + static_cast<std::uint64_t>(run),
                                             std::memory_order_acq_rel, std::memory_order_acquire));
      const int last = std::min(count, first + run);
      for (int i = first; i < last; ++i) {
        try {
          (*f)(i);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!error) error = std::current_exception();
        }
      }
      if (completed.fetch_add(last - first, std::memory_order_acq_rel) + (last - first) == count) {
        std::lock_guard<std::mutex> lock(mutex);
        done.notify_one();
      }
    }
  }

  void workerMain() {
    std::uint32_t seen = 0;
    for (;;) {
      for (int s = 0; s < kSpins && published.load(std::memory_order_acquire) == seen; ++s) {
        cpuRelax();
      }
      const std::function<void(int)>* f = nullptr;
      int count = 0;
      int run = 1;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stop || generation != seen; });
        if (stop) return;
        seen = generation;
        f = task;
        count = n;
        run = chunk;
        std::fesetenv(&env);
      }
      work(seen, f, count, run);
    }
  }
};

ThreadPool::ThreadPool(int threads) : shared_(std::make_unique<Shared>()) {
  const int workers = threads > 1 ? threads - 1 : 0;
  shared_->workers.reserve(static_cast<std::size_t>(workers));
  for (int i = 0; i < workers; ++i) {
    try {
      shared_->workers.emplace_back([s = shared_.get()] { s->workerMain(); });
    } catch (const std::system_error&) {
      break;  // the system gives no more threads: run with those made
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->stop = true;
  }
  shared_->wake.notify_all();
  for (std::thread& t : shared_->workers) t.join();
}

int ThreadPool::threads() const { return static_cast<int>(shared_->workers.size()) + 1; }

void ThreadPool::run(int n, const std::function<void(int)>& task) {
  Shared& s = *shared_;
  if (n <= 0) return;
  if (s.workers.empty() || n == 1) {
    for (int i = 0; i < n; ++i) task(i);
    return;
  }
  std::uint32_t gen = 0;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    gen = ++s.generation;
    s.task = &task;
    s.n = n;
    // About 8 runs of indices per thread: few atomic operations on many small tasks, and
    // still a share for a thread that finishes early.
    s.chunk = std::max(1, n / (8 * threads()));
    std::fegetenv(&s.env);
    s.error = nullptr;
    s.completed.store(0, std::memory_order_relaxed);
    s.ticket.store(static_cast<std::uint64_t>(gen) << 32, std::memory_order_release);
    s.published.store(gen, std::memory_order_release);
  }
  s.wake.notify_all();
  // The caller works too; it waits only for indices a worker has taken, never for a worker
  // that has not woken yet (on a busy machine it may do the whole job itself).
  s.work(gen, &task, n, s.chunk);
  for (int spin = 0; spin < kSpins && s.completed.load(std::memory_order_acquire) != n; ++spin) {
    cpuRelax();
  }
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    s.done.wait(lock, [&] { return s.completed.load(std::memory_order_acquire) == n; });
    s.task = nullptr;
    error = s.error;
    s.error = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace samara::core
