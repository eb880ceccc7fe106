#pragma once
// The one headless run of a scene, shared by `samara run`, `bench`, `export`, `sweep`
// (its local jobs and `sweep-job`) and the viewer's export job (runtime/export_job):
//
//   RunSpec      → loadRunScene / prepareRun   the scene, its --set edits, --duration/--dt/
//                                             --steps, the World and the step count
//   runSteps(world, steps, observers, cancel) the step loop: a cancel flag polled before each
//                                             step, a failed step or a non-finite state ends
//                                             the run, observers see t = 0 and every step
//   observers    CsvSink (the `samara run` CSV), RunSummary (fall speed and spin over the
//                last second, Newton iterations), PatternTrackers (the falling pattern of
//                each body), StepCallback (progress), and export's frame sampler (io/export)
//
// It lives in io (not cli) so that the runtime can use it too; it never prints: the callers
// word the messages (failureText() gives the common one).
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/pattern.h"
#include "core/world.h"
#include "io/scene.h"

namespace samara::io {

class CsvWriter;

/// The most steps one run may take.
constexpr long long kMaxRunSteps = 1'000'000'000'000LL;

/// Steps of length dt in duration, as `samara run` takes them: a duration that is a multiple
/// of dt up to round-off (1e-9 relative) gives exactly that multiple, otherwise one more.
/// A quotient above kMaxRunSteps (or not finite) gives kMaxRunSteps + 1, never a wrapped cast.
long long exportStepCount(double duration, double dt);

/// A headless run asked for.
struct RunSpec {
  std::string scene;               ///< the scene file (names it in messages)
  SetList sets;                    ///< `--set PATH=VALUE` edits, applied in order
  std::optional<double> duration;  ///< simulated s, ≥ 0; default the scene's sim.duration
  std::optional<double> dt;        ///< step s, > 0; default the scene's sim.dt
  std::optional<long long> steps;  ///< exactly this many steps (duration = steps·dt)
};

/// The scene of `spec` with its edits, and `duration` / `dt` applied. Throws io::Error.
core::WorldDef loadRunScene(const RunSpec& spec);
/// Applies spec.duration and spec.dt to `def` (for a scene loaded some other way).
void applyRunOverrides(core::WorldDef* def, const RunSpec& spec);

/// A World at t = 0 and the length of its run.
struct PreparedRun {
  core::World world;
  std::string sceneName;  ///< WorldDef::name
  double dt = 0.0;        ///< s
  double duration = 0.0;  ///< s: spec.steps·dt, or the (overridden) sim.duration
  long long steps = 0;    ///< spec.steps, or exportStepCount(duration, dt)
};

/// Sets up `def` (already overridden) as a World and counts its steps. Throws io::Error
/// (spec.scene: "duration / dt is more than 10^12 steps", or makeWorld's).
PreparedRun prepareRun(core::WorldDef def, const RunSpec& spec);
/// prepareRun(loadRunScene(spec), spec).
PreparedRun prepareRun(const RunSpec& spec);

// --- the loop ---------------------------------------------------------------------------------

/// Sees a run: the state at t = 0 and after every successful step.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  /// Before the first step (t = 0).
  virtual void start(const core::World& world) { (void)world; }
  /// After step k (1-based) succeeded with `report`.
  virtual void step(const core::World& world, long long k, const core::StepReport& report) = 0;
  /// The first step after step k (the World's current one) whose state step() must see;
  /// default k + 1, every step. runSteps takes the steps before it as one block
  /// (core::World::advance: the same bits, faster for a crowd) and hands their reports to
  /// skipped().
  virtual long long nextStep(const core::World& world, long long k) const {
    (void)world;
    return k + 1;
  }
  /// The report of step k, taken in a block without step() seeing its state.
  virtual void skipped(long long k, const core::StepReport& report) {
    (void)k;
    (void)report;
  }
};

/// The most steps runSteps lets World::advance take at once (a cancel flag is read, and the
/// observers see the World, at least this often).
inline constexpr long long kRunBlockSteps = 64;  // leaf_storm: 16 → 64 another −4 %

enum class RunStatus {
  kDone,       ///< every step taken
  kCancelled,  ///< the cancel flag was set (checked before each step)
  kFailed,     ///< a step failed or left a non-finite state
};

struct RunOutcome {
  RunStatus status = RunStatus::kDone;
  long long stepsTaken = 0;  ///< steps that succeeded
  long long failedStep = 0;  ///< kFailed: the step that failed (1-based)
  double failedTime = 0.0;   ///< kFailed: the time that step started from, s
  std::string message;  ///< kFailed: the step's message, or "body 'X': the state is not finite"
  double wallSeconds = 0.0;  ///< wall-clock time of the loop
};

/// Steps `world` `steps` times. Observers see start() once and step() after each step they
/// ask for (RunObserver::nextStep; skipped() for the others), in the order given. `cancel`
/// (may be null) is read before each step or block of steps. Never throws itself (observers
/// may).
RunOutcome runSteps(core::World& world, long long steps, const std::vector<RunObserver*>& observers,
                    const std::atomic<bool>* cancel = nullptr);

/// "SCENE: simulation failed at step K of N (t = T s): MESSAGE" for a kFailed outcome.
std::string failureText(const std::string& scene, const RunOutcome& outcome, long long steps);

// --- observers --------------------------------------------------------------------------------

/// The `samara run` CSV: a sample at t = 0 and after every `every`-th step.
class CsvSink final : public RunObserver {
 public:
  CsvSink(CsvWriter* csv, long long every) : csv_(csv), every_(every) {}
  void start(const core::World& world) override;
  void step(const core::World& world, long long k, const core::StepReport& report) override;
  long long nextStep(const core::World&, long long k) const override {
    return (k / every_ + 1) * every_;
  }

 private:
  CsvWriter* csv_;
  long long every_;
};

/// Per-body means over the last second of a run of `duration` s (the whole run when
/// shorter): the samples with t ≥ duration − min(1, duration) (minus 1e-9 relative), and
/// the Newton iterations of every step.
class RunSummary final : public RunObserver {
 public:
  RunSummary(int numBodies, double duration);
  void start(const core::World& world) override;
  void step(const core::World& world, long long k, const core::StepReport& report) override;
  /// Every step from a step before the window on; the ones before it in blocks.
  long long nextStep(const core::World& world, long long k) const override;
  void skipped(long long k, const core::StepReport& report) override;

  double window() const { return window_; }             ///< min(1, duration), s
  double meanFallSpeed(int i) const;                    ///< m/s (0 without samples)
  double meanSpinRate(int i) const;                     ///< rad/s (0 without samples)
  long long iterationSum() const { return iterSum_; }   ///< Newton iterations, all steps
  int iterationMax() const { return iterMax_; }         ///< most in one step
  long long substepped() const { return substepped_; }  ///< steps that sub-stepped

 private:
  void sample(const core::World& world);

  double window_;
  double windowStart_;
  std::vector<double> fallSum_;
  std::vector<double> spinSum_;
  long long samples_ = 0;
  long long iterSum_ = 0;
  int iterMax_ = 0;
  long long substepped_ = 0;
};

/// A falling-pattern tracker per body (analysis::makeTracker(trackerSetup(info, gravity))),
/// fed every sample.
class PatternTrackers final : public RunObserver {
 public:
  explicit PatternTrackers(const core::World& world);
  void start(const core::World& world) override { sample(world); }
  void step(const core::World& world, long long, const core::StepReport&) override {
    sample(world);
  }
  analysis::PatternResult result(int i) const;

 private:
  void sample(const core::World& world);
  std::vector<analysis::PatternTracker> trackers_;
};

/// Calls fn(world, k) after every step (progress displays, step counters).
class StepCallback final : public RunObserver {
 public:
  explicit StepCallback(std::function<void(const core::World&, long long)> fn)
      : fn_(std::move(fn)) {}
  void step(const core::World& world, long long k, const core::StepReport&) override {
    fn_(world, k);
  }

 private:
  std::function<void(const core::World&, long long)> fn_;
};

}  // namespace samara::io
