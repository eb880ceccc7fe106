#pragma once
// A small fixed pool of worker threads for the World's step (bodies on all cores). run(n,
// task) calls task(0) … task(n − 1), each index exactly once, on the workers and the calling
// thread, and returns when all are done. Which thread takes which index varies from run to
// run: a task must touch only the data of its own index (results are then the same for any
// number of threads). The workers take the floating-point environment (rounding, traps) of
// the thread that calls run().
#include <functional>
#include <memory>

namespace samara::core {

class ThreadPool {
 public:
  /// `threads` in all, the caller included (threads − 1 workers; at least none). Makes as
  /// many workers as the system gives (a failed thread creation leaves fewer).
  explicit ThreadPool(int threads);
  ~ThreadPool();  ///< stops and joins the workers
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Threads that run tasks: the workers made plus the caller.
  int threads() const;

  /// Calls task(i) for every i in [0, n) and returns when every call has returned. The
  /// first exception a task throws is rethrown here (after all calls are done). One run at
  /// a time: call from one thread (the one that owns the pool).
  void run(int n, const std::function<void(int)>& task);

 private:
  struct Shared;
  std::unique_ptr<Shared> shared_;
};

}  // namespace samara::core
