#include "core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <condition_variable>
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
  std::condition_variable wake;                   ///< a new job (or stop) for the workers
  std::condition_variable done;                   ///< the last worker finished the job
  std::atomic<unsigned long long> generation{0};  ///< job number; written under `mutex`
  // The job (written under `mutex` before `generation` moves on, read after it has).
  const std::function<void(int)>* task = nullptr;
  int n = 0;
  int chunk = 1;  ///< indices taken at once
  std::fenv_t env{};
  std::atomic<int> next{0};     ///< the next index to take
  std::atomic<int> pending{0};  ///< workers still in the job
  std::exception_ptr error;     ///< the first exception of the job (under `mutex`)
  bool stop = false;            ///< under `mutex`
  std::vector<std::thread> workers;

  /// Takes runs of `chunk` indices until none is left; keeps the first exception.
  void work(const std::function<void(int)>& f, int count, int run) {
    for (int first = next.fetch_add(run, std::memory_order_relaxed); first < count;
         first = next.fetch_add(run, std::memory_order_relaxed)) {
      const int last = std::min(count, first + run);
      for (int i = first; i < last; ++i) {
        try {
          f(i);
        } catch (...) {
          std::lock_guard<std::mutex> lock(mutex);
          if (!error) error = std::current_exception();
        }
      }
    }
  }

  void workerMain() {
    unsigned long long seen = 0;
    for (;;) {
      for (int s = 0; s < kSpins && generation.load(std::memory_order_acquire) == seen; ++s) {
        cpuRelax();
      }
      const std::function<void(int)>* f = nullptr;
      int count = 0;
      int step = 1;
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return stop || generation.load(std::memory_order_relaxed) != seen; });
        if (stop) return;
        seen = generation.load(std::memory_order_relaxed);
        f = task;
        count = n;
        step = chunk;
        std::fesetenv(&env);
      }
      work(*f, count, step);
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mutex);
        done.notify_one();
      }
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
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    s.task = &task;
    s.n = n;
    // About 8 runs of indices per thread: few atomic operations on many small tasks, and
    // still a share for a thread that finishes early.
    s.chunk = std::max(1, n / (8 * threads()));
    std::fegetenv(&s.env);
    s.error = nullptr;
    s.next.store(0, std::memory_order_relaxed);
    s.pending.store(static_cast<int>(s.workers.size()), std::memory_order_relaxed);
    s.generation.fetch_add(1, std::memory_order_release);
  }
  s.wake.notify_all();
  s.work(task, n, s.chunk);
  for (int spin = 0; spin < kSpins && s.pending.load(std::memory_order_acquire) != 0; ++spin) {
    cpuRelax();
  }
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(s.mutex);
    s.done.wait(lock, [&] { return s.pending.load(std::memory_order_acquire) == 0; });
    s.task = nullptr;
    error = s.error;
    s.error = nullptr;
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace samara::core
