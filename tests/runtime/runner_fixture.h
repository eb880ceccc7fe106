#pragma once
// The runner under test with a fake clock (the runtime tests' shared fixture): one 60 Hz
// frame at a time on the test's thread, the snapshot, and optionally every plot sample.
#include <memory>
#include <string>
#include <vector>

#include "runtime/runner.h"

namespace samara::runtime::test {

/// A shipped scene by file name (assets/scenes/`name`).
inline std::string scenePath(const std::string& name) {
  return std::string(SAMARA_SOURCE_DIR) + "/assets/scenes/" + name;
}

/// RunnerOptions with `startPaused` set.
inline RunnerOptions startingPaused(bool startPaused, RunnerOptions o = {}) {
  o.startPaused = startPaused;
  return o;
}

struct RunnerFixture {
  std::shared_ptr<ManualClock> clock = std::make_shared<ManualClock>();
  std::unique_ptr<Runner> runner;
  bool collectSamples = false;      ///< frame() appends the plot samples to `samples`
  std::vector<PlotSample> samples;  ///< see collectSamples

  /// A runner on the fake clock (`o.clock` is replaced).
  explicit RunnerFixture(RunnerOptions o) {
    o.clock = clock;
    runner = std::make_unique<Runner>(o);
  }
  /// Advances the fake clock by one 60 Hz frame and ticks; returns the steps taken.
  int frame() {
    clock->advance(1.0 / 60.0);
    const int steps = runner->tick().steps;
    if (collectSamples) runner->takeSamples(&samples);
    return steps;
  }
  const Snapshot& snap() {
    runner->updateSnapshot();
    return runner->snapshot();
  }
};

/// The i-th of a fixed script of parameter changes posted while a run goes on: a density
/// every time, a wind every 7th, a δ for body 0 every 9th.
inline void postScriptedChange(Runner& runner, int i) {
  static constexpr double kDensities[] = {1.225, 3.0, 0.5, 20.0, 1.225};
  runner.post(SetFluidDensity{kDensities[i % 5]});
  if (i % 7 == 3) runner.post(SetWind{Vec3(0.1 * i, 0.0, 0.0)});
  if (i % 9 == 4) runner.post(SetDelta{0, 0.005 * (i % 3)});
}

}  // namespace samara::runtime::test
