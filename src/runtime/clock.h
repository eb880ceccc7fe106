#pragma once
// Wall clocks for the pacer: the real one, and a manual one for tests and for the viewer's
// fixed-frame (screenshot) mode.
#include <atomic>
#include <chrono>

namespace samara::runtime {

/// A monotonic wall clock in seconds. Implementations must be safe to read from any
/// thread.
class Clock {
 public:
  virtual ~Clock() = default;
  /// Seconds since an arbitrary origin; never decreases.
  virtual double now() = 0;
};

/// std::chrono::steady_clock, in seconds since construction.
class SteadyClock final : public Clock {
 public:
  SteadyClock() : origin_(std::chrono::steady_clock::now()) {}
  double now() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - origin_).count();
  }

 private:
  std::chrono::steady_clock::time_point origin_;
};

/// A clock that moves only when told: `advance(dt)` from any thread, and optionally by a
/// fixed amount after every read (`costPerRead`, s), which models a machine on which each
/// simulation step costs wall time (the runner reads the clock once before every step).
class ManualClock final : public Clock {
 public:
  explicit ManualClock(double start = 0.0, double costPerRead = 0.0)
      : t_(start), costPerRead_(costPerRead) {}
  double now() override { return t_.fetch_add(costPerRead_.load()); }
  /// Moves the clock forward by dt seconds (dt ≥ 0).
  void advance(double dt) { t_.fetch_add(dt); }
  /// Sets the time a read costs, s.
  void setCostPerRead(double c) { costPerRead_.store(c); }
  /// Current time without the read cost, s.
  double peek() const { return t_.load(); }

 private:
  std::atomic<double> t_;
  std::atomic<double> costPerRead_;
};

}  // namespace samara::runtime
