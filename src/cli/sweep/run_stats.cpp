#include "cli/sweep/run_stats.h"

#include <cstddef>
#include <exception>
#include <new>
#include <utility>

#include "io/error.h"
#include "io/run_driver.h"

namespace samara::cli {

namespace {

using Status = SceneRunStats::Status;

/// The run itself; throws io::Error for bad input.
void run(const std::string& scenePath, const std::atomic<bool>* cancel, SceneRunStats* r) {
  io::RunSpec spec;
  spec.scene = scenePath;
  core::WorldDef def = io::loadRunScene(spec);
  for (const core::BodyDef& b : def.bodies) {
    BodyRunStats stats;
    stats.name = b.name;
    r->bodies.push_back(std::move(stats));
  }
  io::PreparedRun prepared = io::prepareRun(std::move(def), spec);
  core::World& world = prepared.world;
  r->duration = prepared.duration;
  r->steps = prepared.steps;

  // The window and the sums of `samara run --summary`, so that the means are the same bits.
  io::RunSummary summary(world.numBodies(), prepared.duration);
  io::PatternTrackers patterns(world);
  const io::RunOutcome outcome = io::runSteps(world, prepared.steps, {&summary, &patterns}, cancel);
  if (outcome.status == io::RunStatus::kCancelled) {
    r->status = Status::kInterrupted;
    r->message = "interrupted at step " + std::to_string(outcome.stepsTaken);
    return;
  }
  if (outcome.status == io::RunStatus::kFailed) {
    r->status = Status::kFailed;
    r->message = io::failureText(scenePath, outcome, prepared.steps);
    return;
  }
  r->wallSeconds = outcome.wallSeconds;
  for (int i = 0; i < world.numBodies(); ++i) {
    BodyRunStats& b = r->bodies[static_cast<std::size_t>(i)];
    b.fallSpeed = summary.meanFallSpeed(i);
    b.spinRate = summary.meanSpinRate(i);
    b.finalCom = world.diagnostics(i).com;
    const analysis::PatternResult p = patterns.result(i);
    b.pattern = analysis::patternName(p.pattern);
    b.patternReason = p.reason;
  }
}

}  // namespace

SceneRunStats runForStats(const std::string& scenePath, const std::atomic<bool>* cancel) {
  SceneRunStats r;
  try {
    run(scenePath, cancel, &r);
  } catch (const io::Error& e) {
    r.status = Status::kBadInput;
    r.message = e.what();
  } catch (const std::bad_alloc&) {
    r.status = Status::kBadInput;
    r.message = scenePath + ": out of memory";
  } catch (const std::exception& e) {
    r.status = Status::kBadInput;
    r.message = scenePath + ": internal error: " + e.what();
  }
  return r;
}

}  // namespace samara::cli
