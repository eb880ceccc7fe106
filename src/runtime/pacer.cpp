#include "runtime/pacer.h"

#include <algorithm>
#include <cmath>

namespace samara::runtime {

void Pacer::anchor(double wall, double sim) {
  wall0_ = wall;
  sim0_ = sim;
}

void Pacer::setSpeed(double speed) { speed_ = std::clamp(speed, kMinSpeed, kMaxSpeed); }

void Pacer::beginTick(double wall, double sim, double dt) {
  tickStart_ = wall;
  if (unlimited_) return;
  // Behind by more than maxLag of wall time (plus the step in progress): start afresh from
  // here rather than racing to catch up.
  if (target(wall) - sim > settings_.maxLag * speed_ + dt) {
    anchor(wall, sim);
    ++reanchors_;
  }
}

bool Pacer::shouldStep(double wall, double sim, double dt) const {
  if (wall - tickStart_ >= settings_.stepFraction * settings_.frameBudget) return false;
  if (unlimited_) return true;
  // Take the step once the wall clock has reached its end time (tiny slack for round-off).
  return sim + dt <= target(wall) + 1e-9 * dt;
}

int Pacer::dueSteps(double wall, double sim, double dt, int most) const {
  if (unlimited_) return most;
  const double due = std::floor((target(wall) - sim) / dt + 1e-9);  // shouldStep's slack
  return static_cast<int>(std::clamp(due, 0.0, static_cast<double>(most)));
}

double Pacer::waitTime(double wall, double sim, double dt) const {
  if (unlimited_) return 0.0;
  return std::max(0.0, (sim + dt - target(wall)) / speed_);
}

}  // namespace samara::runtime
