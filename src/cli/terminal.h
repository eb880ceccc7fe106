#pragma once
// The terminal side of the command line: one progress line with an ETA on stderr, and the
// SIGINT/SIGTERM handling that turns an interrupt into a flag the runs poll (exit 130).
#include <atomic>
#include <chrono>
#include <csignal>
#include <limits>
#include <ostream>
#include <string>

#include "io/run_driver.h"

namespace samara::cli {

/// Whether progress is shown: `err` is std::cerr and stderr is a terminal.
bool showsProgress(const std::ostream& err);

/// One progress line on stderr, rewritten in place ("\r…"), for work that takes more than
/// a second, at most every 200 ms; cleared when destroyed. Does nothing unless `enabled`.
class ProgressLine {
 public:
  using Clock = std::chrono::steady_clock;
  explicit ProgressLine(bool enabled) : enabled_(enabled), start_(Clock::now()), last_(start_) {}
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// Whether a line is due now (enabled, a second since the start, 200 ms since the last);
  /// when true, the caller shows one.
  bool due();
  /// Wall seconds since the start.
  double elapsed() const;
  /// Writes "\r<text>" to stderr.
  void show(const std::string& text);
  /// Wall seconds still to go when `fraction` (0 … 1) of the work took `elapsed` s (0 when
  /// nothing is done yet).
  static double eta(double elapsed, double fraction) {
    return fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
  }

 private:
  bool enabled_;
  Clock::time_point start_;
  Clock::time_point last_;
  bool shown_ = false;
};

/// The progress of a run of `duration` simulated seconds (an observer of io::runSteps):
/// "samara: t = 0.350 / 2 s   17%  4000 steps/s  ETA 0:03".
class RunProgress final : public io::RunObserver {
 public:
  RunProgress(bool enabled, double duration) : line_(enabled), duration_(duration) {}
  void step(const core::World& world, long long k, const core::StepReport& report) override;
  /// Shown at most every 200 ms: a block's end (io::kRunBlockSteps) is often enough.
  long long nextStep(const core::World&, long long) const override {
    return std::numeric_limits<long long>::max();
  }

 private:
  ProgressLine line_;
  double duration_;
};

/// Set by SIGINT / SIGTERM once a handler of ours is installed; lock-free, so worker
/// threads may poll it.
const std::atomic<bool>& interruptFlag();

/// Routes SIGINT and SIGTERM to interruptFlag() for the whole process (main()). The
/// handler puts the default back, so a second signal ends the process at once.
void installInterruptHandler();

/// Routes SIGINT and SIGTERM to interruptFlag() while in scope and restores the previous
/// handlers afterwards. One scope at a time.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  struct sigaction oldInt_ = {};
  struct sigaction oldTerm_ = {};
};

}  // namespace samara::cli
