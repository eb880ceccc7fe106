#include "cli/run_util.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <exception>
#include <new>
#include <utility>

#include "analysis/tracker.h"
#include "cli/cli_util.h"
#include "core/fluid_model.h"
#include "io/error.h"
#include "io/scene.h"

namespace samara::cli {

analysis::PatternTracker patternTrackerFor(const core::World& world, int i) {
  return analysis::makeTracker(analysis::trackerSetup(world.info(i), world.definition().gravity));
}

namespace {

using Status = SceneRunStats::Status;

bool finiteState(const core::BodyState& s) {
  return s.g.q.coeffs().allFinite() && s.g.b.allFinite() && s.Y.allFinite() && s.mu.allFinite();
}

std::string failedAt(const std::string& scene, long long k, long long steps, double t) {
  return scene + ": simulation failed at step " + std::to_string(k) + " of " +
         std::to_string(steps) + " (t = " + io::formatNumber(t) + " s): ";
}

/// The run itself; throws io::Error for bad input.
void run(const std::string& scenePath, const std::atomic<bool>* cancel, SceneRunStats* r) {
  core::WorldDef def = io::loadScene(scenePath);
  for (const core::BodyDef& b : def.bodies) {
    BodyRunStats stats;
    stats.name = b.name;
    r->bodies.push_back(std::move(stats));
  }
  const double duration = def.duration;
  const double dt = def.dt;
  core::World world = io::makeWorld(std::move(def), scenePath);
  const long long steps = stepCount(duration, dt);
  if (steps > 1'000'000'000'000LL) {
    throw io::Error(scenePath, "duration / dt is more than 10^12 steps");
  }
  r->duration = duration;
  r->steps = steps;

  const int n = world.numBodies();
  const auto un = static_cast<std::size_t>(n);
  // The window and the sums of `samara run --summary`, so that the means are the same bits.
  const double window = std::min(1.0, duration);
  const double windowStart = duration - window - 1e-9 * std::max(1.0, duration);
  std::vector<double> fallSum(un, 0.0);
  std::vector<double> spinSum(un, 0.0);
  long long samples = 0;
  std::vector<analysis::PatternTracker> patterns;
  for (int i = 0; i < n; ++i) patterns.push_back(patternTrackerFor(world, i));
  auto sample = [&]() {
    const bool inWindow = world.time() >= windowStart;
    for (int i = 0; i < n; ++i) {
      const core::BodyDiagnostics d = world.diagnostics(i);
      const auto ui = static_cast<std::size_t>(i);
      if (inWindow) {
        fallSum[ui] += d.fallSpeed;
        spinSum[ui] += d.spinRate;
      }
      patterns[ui].add({world.time(), d.com, d.q, d.omega});
    }
    if (inWindow) ++samples;
  };
  sample();

  const auto wall0 = std::chrono::steady_clock::now();
  for (long long k = 1; k <= steps; ++k) {
    if (cancel != nullptr && cancel->load(std::memory_order_relaxed)) {
      r->status = Status::kInterrupted;
      r->message = "interrupted at step " + std::to_string(k - 1);
      return;
    }
    const double t = world.time();
    const core::StepReport report = world.step();
    if (!report.ok()) {
      r->status = Status::kFailed;
      r->message = failedAt(scenePath, k, steps, t) + report.message;
      return;
    }
    for (int i = 0; i < n; ++i) {
      if (!finiteState(world.state(i))) {
        r->status = Status::kFailed;
        r->message = failedAt(scenePath, k, steps, t) + "body '" + world.bodyDef(i).name +
                     "': the state is not finite";
        return;
      }
    }
    sample();
  }
  r->wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  for (int i = 0; i < n; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    BodyRunStats& b = r->bodies[ui];
    const double count = static_cast<double>(samples);
    b.fallSpeed = samples > 0 ? fallSum[ui] / count : 0.0;
    b.spinRate = samples > 0 ? spinSum[ui] / count : 0.0;
    b.finalCom = world.diagnostics(i).com;
    const analysis::PatternResult p = patterns[ui].result();
    b.pattern = analysis::patternName(p.pattern);
    b.patternReason = p.reason;
  }
}

std::atomic<bool> gInterruptFlag{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void onFlagInterrupt(int sig) {
  gInterruptFlag.store(true, std::memory_order_relaxed);
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
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

InterruptFlagScope::InterruptFlagScope() {
  gInterruptFlag.store(false);
  struct sigaction sa = {};
  sa.sa_handler = onFlagInterrupt;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, &oldInt_);
  ::sigaction(SIGTERM, &sa, &oldTerm_);
}

InterruptFlagScope::~InterruptFlagScope() {
  ::sigaction(SIGINT, &oldInt_, nullptr);
  ::sigaction(SIGTERM, &oldTerm_, nullptr);
}

const std::atomic<bool>& InterruptFlagScope::flag() { return gInterruptFlag; }

}  // namespace samara::cli
