#pragma once
// A headless run that keeps only the per-body statistics (`samara sweep`'s local jobs and
// `samara sweep-job`), on the one run driver (io/run_driver.h).
#include <atomic>
#include <string>
#include <vector>

#include "core/world.h"

namespace samara::cli {

/// What one headless run of a scene says about a body.
struct BodyRunStats {
  std::string name;
  /// Mean of the COM velocity along gravity over the last second (or the whole run when
  /// shorter), m/s: the samples at the steps with t ≥ duration − min(1 s, duration), the
  /// same set and the same sum as `samara run --summary`.
  double fallSpeed = 0.0;
  /// Mean angular velocity about the up axis over the same samples, rad/s.
  double spinRate = 0.0;
  Vec3 finalCom = Vec3::Zero();  ///< world centre of mass at the end, m
  std::string pattern;           ///< analysis::patternName of the run, as `run --classify`
  std::string patternReason;     ///< the classifier's reason
};

/// The outcome of runForStats().
struct SceneRunStats {
  enum class Status { kOk, kFailed, kBadInput, kInterrupted };
  Status status = Status::kOk;
  /// For kFailed / kBadInput: what went wrong (as `samara run` prints it, without
  /// "samara: ").
  std::string message;
  double duration = 0.0;  ///< simulated time asked for, s
  long long steps = 0;    ///< steps asked for
  double wallSeconds = 0.0;
  std::vector<BodyRunStats> bodies;  ///< every body (also after a failure: the names)
};

/// Loads the scene file at `scenePath` and runs it headless exactly as `samara run` does
/// (same steps, same failure checks), collecting BodyRunStats. Never throws for bad input
/// or a failed step: they are reported in the result. `cancel` (may be null) is polled
/// before each step; when set the run stops with kInterrupted. Safe to call from several
/// threads at once (each call owns its World).
SceneRunStats runForStats(const std::string& scenePath, const std::atomic<bool>* cancel);

}  // namespace samara::cli
