#include "io/run_driver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "analysis/tracker.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/text_format.h"

namespace samara::io {

long long exportStepCount(double duration, double dt) {
  const double n = duration / dt;
  // Compared as a double before any cast: a quotient beyond the limit (or inf, or NaN) would
  // not fit a long long.
  if (!(n <= static_cast<double>(kMaxRunSteps))) return kMaxRunSteps + 1;
  const double rounded = std::round(n);
  if (std::abs(n - rounded) <= 1e-9 * std::max(1.0, n)) return static_cast<long long>(rounded);
  return static_cast<long long>(std::ceil(n));
}

void applyRunOverrides(core::WorldDef* def, const RunSpec& spec) {
  if (spec.duration) def->duration = *spec.duration;
  if (spec.dt) def->dt = *spec.dt;
}

core::WorldDef loadRunScene(const RunSpec& spec) {
  core::WorldDef def = loadScene(spec.scene, spec.sets);
  applyRunOverrides(&def, spec);
  return def;
}

PreparedRun prepareRun(core::WorldDef def, const RunSpec& spec) {
  const std::string name = def.name;
  const double dt = def.dt;
  const double duration = spec.steps ? static_cast<double>(*spec.steps) * dt : def.duration;
  PreparedRun run{makeWorld(std::move(def), spec.scene), name, dt, duration, 0};
  run.steps = spec.steps ? *spec.steps : exportStepCount(duration, dt);
  if (run.steps > kMaxRunSteps) {
    const std::string durationFrom = spec.duration ? "--duration" : "/sim/duration";
    const std::string dtFrom = spec.dt ? "--dt" : "/sim/dt";
    throw Error(spec.scene, durationFrom + " / " + dtFrom + " = " +
                                strf("%g s / %g s is more than 10^12 steps (the most one run "
                                     "takes); lower the duration or raise the step",
                                     duration, dt));
  }
  return run;
}

PreparedRun prepareRun(const RunSpec& spec) { return prepareRun(loadRunScene(spec), spec); }

namespace {

bool finiteState(const core::BodyState& s) {
  return s.g.q.coeffs().allFinite() && s.g.b.allFinite() && s.Y.allFinite() && s.mu.allFinite();
}

}  // namespace

RunOutcome runSteps(core::World& world, long long steps, const std::vector<RunObserver*>& observers,
                    const std::atomic<bool>* cancel) {
  using Clock = std::chrono::steady_clock;
  RunOutcome outcome;
  for (RunObserver* o : observers) o->start(world);
  const Clock::time_point wall0 = Clock::now();
  auto finish = [&](RunStatus status) {
    outcome.status = status;
    outcome.wallSeconds = std::chrono::duration<double>(Clock::now() - wall0).count();
    return outcome;
  };
  long long k = 0;  // steps taken
  while (k < steps) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
      return finish(RunStatus::kCancelled);
    }
    long long next = std::min(steps, k + kRunBlockSteps);
    for (RunObserver* o : observers) next = std::min(next, o->nextStep(world, k));
    next = std::max(next, k + 1);
    const std::vector<core::StepReport> reports = world.advance(static_cast<int>(next - k));
    for (size_t j = 0; j + 1 < reports.size() && reports[j].ok(); ++j) {
      for (RunObserver* o : observers) o->skipped(k + 1 + static_cast<long long>(j), reports[j]);
    }
    const core::StepReport& report = reports.back();
    const long long last = k + static_cast<long long>(reports.size());
    std::string failure = report.ok() ? std::string() : report.message;
    for (int i = 0; failure.empty() && i < world.numBodies(); ++i) {
      if (!finiteState(world.state(i))) {
        failure = "body '" + world.bodyDef(i).name + "': the state is not finite";
      }
    }
    if (!failure.empty()) {
      // A failed step leaves the World at its start; a non-finite state is the last step's.
      outcome.stepsTaken = last - 1;
      outcome.failedStep = last;
      outcome.failedTime = report.ok() ? world.time() - world.definition().dt : world.time();
      outcome.message = std::move(failure);
      return finish(RunStatus::kFailed);
    }
    k = last;
    outcome.stepsTaken = k;
    for (RunObserver* o : observers) o->step(world, k, report);
  }
  return finish(RunStatus::kDone);
}

std::string failureText(const std::string& scene, const RunOutcome& outcome, long long steps) {
  return scene + ": simulation failed at step " + std::to_string(outcome.failedStep) + " of " +
         std::to_string(steps) + " (t = " + formatNumber(outcome.failedTime) +
         " s): " + outcome.message;
}

// --- observers --------------------------------------------------------------------------------

void CsvSink::start(const core::World& world) { csv_->writeSample(world); }

void CsvSink::step(const core::World& world, long long k, const core::StepReport&) {
  if (k % every_ == 0) csv_->writeSample(world);
}

RunSummary::RunSummary(int numBodies, double duration)
    : window_(std::min(1.0, duration)),
      windowStart_(duration - window_ - 1e-9 * std::max(1.0, duration)),
      fallSum_(static_cast<std::size_t>(numBodies), 0.0),
      spinSum_(static_cast<std::size_t>(numBodies), 0.0) {}

void RunSummary::start(const core::World& world) { sample(world); }

void RunSummary::step(const core::World& world, long long k, const core::StepReport& report) {
  skipped(k, report);  // the step's counts
  sample(world);
}

long long RunSummary::nextStep(const core::World& world, long long k) const {
  const double dt = world.definition().dt;
  // Steps before the one that may reach the window's start (one to spare for round-off).
  const double before = std::floor((windowStart_ - world.time()) / dt) - 1.0;
  if (!(before > 1.0)) return k + 1;
  return before >= 1e15 ? k + kRunBlockSteps : k + static_cast<long long>(before);
}

void RunSummary::skipped(long long, const core::StepReport& report) {
  iterSum_ += report.newtonIterations;
  iterMax_ = std::max(iterMax_, report.newtonIterations);
  if (report.status == core::StepStatus::kSubstepped) ++substepped_;
}

void RunSummary::sample(const core::World& world) {
  if (world.time() < windowStart_) return;
  for (std::size_t i = 0; i < fallSum_.size(); ++i) {
    const core::BodyDiagnostics d = world.diagnostics(static_cast<int>(i));
    fallSum_[i] += d.fallSpeed;
    spinSum_[i] += d.spinRate;
  }
  ++samples_;
}

double RunSummary::meanFallSpeed(int i) const {
  return samples_ > 0 ? fallSum_[static_cast<std::size_t>(i)] / static_cast<double>(samples_) : 0.0;
}

double RunSummary::meanSpinRate(int i) const {
  return samples_ > 0 ? spinSum_[static_cast<std::size_t>(i)] / static_cast<double>(samples_) : 0.0;
}

PatternTrackers::PatternTrackers(const core::World& world) {
  for (int i = 0; i < world.numBodies(); ++i) {
    trackers_.push_back(
        analysis::makeTracker(analysis::trackerSetup(world.info(i), world.definition().gravity)));
  }
}

void PatternTrackers::sample(const core::World& world) {
  for (std::size_t i = 0; i < trackers_.size(); ++i) {
    const core::BodyDiagnostics d = world.diagnostics(static_cast<int>(i));
    trackers_[i].add({world.time(), d.com, d.q, d.omega});
  }
}

analysis::PatternResult PatternTrackers::result(int i) const {
  return trackers_[static_cast<std::size_t>(i)].result();
}

}  // namespace samara::io
