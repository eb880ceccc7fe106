// The World's step: each body's trial step (Newton, sub-steps, the energy audit) and its
// commit, on the World's threads, reduced in body order (World::step), and a block of steps
// taken body by body (World::advance), with the same bits.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/body_impl.h"
#include "core/energy_audit.h"
#include "core/thread_pool.h"
#include "core/world.h"

namespace samara::core {
namespace {

std::string residualText(double residual) {
  if (!std::isfinite(residual)) return "its values overflowed: the residual is not finite";
  char buf[64];
  std::snprintf(buf, sizeof buf, "relative residual %.3g", residual);
  return buf;
}

/// One body's trial step at h (halved up to maxHalvings times) and the energy audit of its
/// new state: what World::step reduces in body order. Touches `body` alone.
struct BodyTrial {
  BodyStepState before;  ///< what a failed step rolls back to (the caches are rebuilt from it)
  bool done = false;     ///< converged (at h or with sub-steps)
  BodyState next;
  int iterations = 0;     ///< Newton iterations, summed over the sub-steps
  double residual = 0.0;  ///< largest final relative residual of the sub-steps
  int substeps = 1;
  EnergyAudit audit;  ///< of `next` (when done)
};

void tryBody(BodyImpl& body, const WorldDef& def, double time, double tNew,
             const EnergyAuditBase& base, BodyTrial* out) {
  BodyTrial& r = *out;
  r.before = body;
  const double h = def.dt;
  for (int halvings = 0; halvings <= def.solver.maxHalvings && !r.done; ++halvings) {
    const int n = 1 << halvings;
    const double hs = h / n;
    BodyState s = body.state;
    r.iterations = 0;
    bool ok = true;
    // The fluid inertia the carried momentum was formed with: the last step's, then each
    // sub-step's own.
    Mat6 carried = r.before.added;
    for (int j = 0; j < n && ok; ++j) {
      BodyState t;
      const VariationalStepResult v = body.tryStep(s, hs, time + j * hs, def, carried, &t);
      carried = body.added;
      r.iterations += v.iterations;
      // A NaN residual (overflow) must not read as 0 in the message.
      const double rr = std::isfinite(v.residual) ? v.residual : HUGE_VAL;
      r.residual = std::max(j == 0 ? 0.0 : r.residual, rr);
      ok = v.converged;
      if (ok) s = t;
    }
    if (ok) {
      r.done = true;
      r.next = s;
      r.substeps = n;
    }
  }
  if (!r.done) return;
  body.lastIterations = r.iterations;
  body.lastResidual = r.residual;
  r.audit = auditEnergy(body, r.next, def, tNew, base);
}

/// Commits a body's trial of the step from tOld (index stepOld) to tNew: its model's state,
/// its step state, its shape at tNew and its audit's running extremes. Touches `b` and *base.
void commitBody(BodyImpl& b, const BodyTrial& trial, const WorldDef& def, double tOld,
                std::int64_t stepOld, double tNew, EnergyAuditBase* base) {
  const double h = def.dt;
  // Per-body model state (e.g. a seeded turbulence process).
  FluidModelInput in = b.modelInput(b.state.g, tOld, h, def);
  in.stepIndex = stepOld;
  b.model->advance(in, trial.next.Y);
  b.state = trial.next;
  // Animated bodies: the current shape (and the next step's start) at the new time.
  b.updateAnimatedShape(tNew, h);
  const EnergyAudit& a = trial.audit;
  base->flowSpeedMax = std::max(base->flowSpeedMax, a.flowSpeed);
  base->shapeEnergyMax = std::max(base->shapeEnergyMax, b.shapeEnergyBody + b.shapeEnergyFluid);
  if (a.applies) base->peakRatio = std::max(base->peakRatio, a.kinetic / a.bound);
}

}  // namespace

void World::setThreads(int threads) {
  assert(threads >= 1);
  threads = std::max(1, threads);
  if (threads != threads_) pool_.reset();
  threads_ = threads;
}

void World::forEachBody(const std::function<void(int)>& task) {
  const int n = numBodies();
  const int threads = std::min(threads_, n);
  if (threads <= 1) {
    for (int i = 0; i < n; ++i) task(i);
    return;
  }
  if (!pool_) pool_ = std::make_unique<ThreadPool>(threads);
  pool_->run(n, task);
}

StepReport World::step() {
  StepReport report;
  const double h = def_.dt;
  const size_t nb = bodies_.size();
  const double tNew = anchorTime_ + static_cast<double>(stepIndex_ + 1 - anchorStep_) * h;
  // Every body's trial step and audit, each on one thread; then everything in body order
  // exactly as one thread would take it: the first body that fails decides the message.
  std::vector<BodyTrial> trials(nb);
  forEachBody([&](int k) {
    const size_t i = static_cast<size_t>(k);
    tryBody(*bodies_[i], def_, time_, tNew, audit_[i], &trials[i]);
  });
  // Rolls every body back to its last good step state; its caches follow.
  auto rollBack = [&] {
    forEachBody([&](int k) {
      const size_t j = static_cast<size_t>(k);
      static_cast<BodyStepState&>(*bodies_[j]) = trials[j].before;
      bodies_[j]->rebuildShape();
    });
  };
  for (size_t i = 0; i < nb; ++i) {
    const BodyTrial& r = trials[i];
    if (!r.done) {
      char buf[256];
      std::snprintf(buf, sizeof buf,
                    "body '%s': Newton did not converge at t = %.6g s even with %d sub-steps "
                    "(%s); the state is kept at the last good step",
                    def_.bodies[i].name.c_str(), time_, 1 << def_.solver.maxHalvings,
                    residualText(r.residual).c_str());
      report.status = StepStatus::kFailed;
      report.message = buf;
      rollBack();
      return report;
    }
    if (r.substeps > 1) report.status = StepStatus::kSubstepped;
    report.substeps = std::max(report.substeps, r.substeps);
    report.newtonIterations = std::max(report.newtonIterations, r.iterations);
    report.residual = std::max(report.residual, r.residual);
  }
  // The energy audit of every body at its new state, before anything is committed.
  for (size_t i = 0; i < nb; ++i) {
    std::string why = energyAuditFailure(trials[i].audit, audit_[i], def_.bodies[i].name, h);
    if (why.empty()) continue;
    report.status = StepStatus::kFailed;
    report.message = std::move(why);
    rollBack();
    return report;
  }
  const double tOld = time_;
  const std::int64_t stepOld = stepIndex_;
  forEachBody([&](int k) {
    const size_t i = static_cast<size_t>(k);
    commitBody(*bodies_[i], trials[i], def_, tOld, stepOld, tNew, &audit_[i]);
  });
  ++stepIndex_;
  time_ = tNew;
  return report;
}

std::vector<StepReport> World::advance(int steps, StepTrace* trace) {
  std::vector<StepReport> reports;
  const size_t nb = bodies_.size();
  if (trace != nullptr) *trace = StepTrace{};
  if (steps <= 1 || nb <= 1) {  // nothing to keep in the caches between the bodies
    for (int s = 0; s < steps; ++s) {
      reports.push_back(step());
      if (!reports.back().ok()) break;
      if (trace == nullptr) continue;
      for (size_t i = 0; i < nb; ++i) {
        trace->states.push_back(bodies_[i]->state);
        trace->diagnostics.push_back(diagnostics(static_cast<int>(i)));
      }
      trace->times.push_back(time_);
    }
    return reports;
  }
  const double h = def_.dt;
  const auto n = static_cast<size_t>(steps);
  // Per body: what it was at the block's start (to go back to if a body fails), and per step
  // what step() reduces over the bodies.
  struct Block {
    BodyStepState start;
    ModelHolder model;
    EnergyAuditBase audit;
    std::vector<int> iterations, substeps;
    std::vector<double> residual;
    size_t good = 0;  ///< steps that passed (trial and audit) and were committed
  };
  std::vector<Block> blocks(nb);
  if (trace != nullptr) {  // each body fills its own entries
    trace->states.resize(n * nb);
    trace->diagnostics.resize(n * nb);
  }
  forEachBody([&](int k) {
    const size_t i = static_cast<size_t>(k);
    BodyImpl& b = *bodies_[i];
    Block& blk = blocks[i];
    blk.start = b;
    blk.model = b.model;
    blk.audit = audit_[i];
    blk.iterations.assign(n, 0);
    blk.substeps.assign(n, 1);
    blk.residual.assign(n, 0.0);
    double tOld = time_;
    for (size_t s = 0; s < n; ++s) {
      const std::int64_t stepOld = stepIndex_ + static_cast<std::int64_t>(s);
      const double tNew = anchorTime_ + static_cast<double>(stepOld + 1 - anchorStep_) * h;
      BodyTrial trial;
      tryBody(b, def_, tOld, tNew, audit_[i], &trial);
      if (!trial.done ||
          !energyAuditFailure(trial.audit, audit_[i], def_.bodies[i].name, h).empty()) {
        static_cast<BodyStepState&>(b) = trial.before;  // as step() rolls a failure back
        b.rebuildShape();
        return;
      }
      blk.iterations[s] = trial.iterations;
      blk.substeps[s] = trial.substeps;
      blk.residual[s] = trial.residual;
      commitBody(b, trial, def_, tOld, stepOld, tNew, &audit_[i]);
      if (trace != nullptr) {
        trace->states[s * nb + i] = b.state;
        trace->diagnostics[s * nb + i] = diagnostics(k);
      }
      blk.good = s + 1;
      tOld = tNew;
    }
  });
  size_t good = n;
  for (const Block& blk : blocks) good = std::min(good, blk.good);
  if (good < n) {
    // A body failed at step `good` of the block: every body goes back to the block's start
    // and takes the good steps again (the same bits), and step() takes the failing one, so
    // the report and the state are what one step() after another would leave.
    forEachBody([&](int k) {
      const size_t i = static_cast<size_t>(k);
      BodyImpl& b = *bodies_[i];
      static_cast<BodyStepState&>(b) = blocks[i].start;
      b.model = blocks[i].model;
      audit_[i] = blocks[i].audit;
      b.rebuildShape();
    });
    if (trace != nullptr) *trace = StepTrace{};
    if (good > 0) reports = advance(static_cast<int>(good), trace);
    reports.push_back(step());
    return reports;
  }
  reports.resize(n);
  for (size_t s = 0; s < n; ++s) {  // in body order, as step() reduces them
    StepReport& r = reports[s];
    for (const Block& blk : blocks) {
      if (blk.substeps[s] > 1) r.status = StepStatus::kSubstepped;
      r.substeps = std::max(r.substeps, blk.substeps[s]);
      r.newtonIterations = std::max(r.newtonIterations, blk.iterations[s]);
      r.residual = std::max(r.residual, blk.residual[s]);
    }
  }
  if (trace != nullptr) {
    for (size_t s = 0; s < n; ++s) {  // the times step() would give
      const auto index = stepIndex_ + static_cast<std::int64_t>(s + 1);
      trace->times.push_back(anchorTime_ + static_cast<double>(index - anchorStep_) * h);
    }
  }
  stepIndex_ += static_cast<std::int64_t>(n);
  time_ = anchorTime_ + static_cast<double>(stepIndex_ - anchorStep_) * h;
  return reports;
}

}  // namespace samara::core
