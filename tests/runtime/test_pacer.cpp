// The pacer alone: steps per wall interval at several speeds, the catch-up cap and
// re-anchoring, unlimited speed.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "runtime/pacer.h"

using samara::runtime::Pacer;
using samara::runtime::PacerSettings;

namespace {

/// Simulates a thread that ticks at `tickHz`, each step costing `stepCost` wall seconds;
/// returns the steps taken in `wallSeconds`. `maxPerTick` receives the most steps of a tick.
long long run(Pacer* p, double dt, double wallSeconds, double tickHz, double stepCost,
              int* maxPerTick = nullptr) {
  double wall = 0.0, sim = 0.0;
  long long steps = 0;
  int most = 0;
  p->anchor(wall, sim);
  while (wall < wallSeconds - 1e-12) {
    wall += 1.0 / tickHz;
    p->beginTick(wall, sim, dt);
    int n = 0;
    double now = wall;
    while (p->shouldStep(now, sim, dt) && n < 100000) {
      sim += dt;
      now += stepCost;
      ++n;
    }
    wall = std::max(wall, now);
    steps += n;
    most = std::max(most, n);
  }
  if (maxPerTick) *maxPerTick = most;
  return steps;
}

}  // namespace

TEST_CASE("Pacer: steps per wall second follow the speed factor", "[runtime][pacer]") {
  const double dt = 0.002;
  for (double speed : {0.25, 1.0, 4.0}) {
    Pacer p;
    p.setSpeed(speed);
    const long long steps = run(&p, dt, 2.0, 60.0, 0.0);
    const double expected = speed * 2.0 / dt;
    INFO("speed " << speed);
    CHECK(std::abs(static_cast<double>(steps) - expected) <= 1.0);
    CHECK(p.reanchors() == 0);
  }
}

TEST_CASE("Pacer: speed is clamped to [0.01, 4]", "[runtime][pacer]") {
  Pacer p;
  p.setSpeed(100.0);
  CHECK(p.speed() == 4.0);
  p.setSpeed(0.0);
  CHECK(p.speed() == Pacer::kMinSpeed);
}

TEST_CASE("Pacer: slow steps degrade to slow motion, capped per frame", "[runtime][pacer]") {
  // Each 2 ms step costs 5 ms: real time is impossible. A tick may step for 70 % of a
  // 1/60 s frame (11.7 ms) → at most 3 steps; the pacer re-anchors rather than building up
  // an ever larger backlog, and simulated time advances at about 2/5 of wall time.
  Pacer p;
  const double dt = 0.002;
  int most = 0;
  const long long steps = run(&p, dt, 4.0, 1000.0, 0.005, &most);
  CHECK(most <= 3);
  CHECK(p.reanchors() > 0);
  const double simSeconds = static_cast<double>(steps) * dt;
  CHECK(simSeconds > 0.3 * 4.0);
  CHECK(simSeconds < 0.45 * 4.0);
}

TEST_CASE("Pacer: unlimited speed steps for the whole budget", "[runtime][pacer]") {
  Pacer p;
  p.setUnlimited(true);
  p.anchor(0.0, 0.0);
  p.beginTick(0.0, 0.0, 0.001);
  int n = 0;
  double now = 0.0;
  while (p.shouldStep(now, 0.0, 0.001)) {
    now += 0.0001;
    ++n;
  }
  // 0.7 / 60 s of 0.1 ms steps.
  CHECK(n == Approx(0.7 / 60.0 / 0.0001).margin(1.0));
  CHECK(p.waitTime(now, 0.0, 0.001) == 0.0);
}

TEST_CASE("Pacer: waitTime is the wall time until the next step is due", "[runtime][pacer]") {
  Pacer p;
  p.setSpeed(0.5);
  p.anchor(10.0, 1.0);
  p.beginTick(10.0, 1.0, 0.01);
  CHECK_FALSE(p.shouldStep(10.0, 1.0, 0.01));
  CHECK(p.waitTime(10.0, 1.0, 0.01) == Approx(0.02));
  p.beginTick(10.02, 1.0, 0.01);  // the next tick, when the thread wakes
  CHECK(p.shouldStep(10.02, 1.0, 0.01));
}

TEST_CASE("Pacer: the steps due are those shouldStep would take one by one", "[runtime][pacer]") {
  for (double speed : {0.25, 1.0, 4.0}) {
    for (double dt : {0.0005, 0.002, 0.01}) {
      INFO("speed " << speed << ", dt " << dt);
      Pacer p;
      p.setSpeed(speed);
      p.anchor(0.0, 0.0);
      for (double wall : {0.0, 1.0 / 60.0, 0.1, 0.1234}) {
        p.beginTick(wall, 0.0, dt);  // within the lag for the first two
        int oneByOne = 0;
        double sim = 0.0;
        while (p.shouldStep(wall, sim, dt) && oneByOne < 1000) {
          sim += dt;
          ++oneByOne;
        }
        CHECK(p.dueSteps(wall, 0.0, dt, 1000) == oneByOne);
        CHECK(p.dueSteps(wall, 0.0, dt, 3) == std::min(3, oneByOne));
        p.anchor(0.0, 0.0);
      }
    }
  }
  // At speed 1 and h = 2 ms a 60 Hz frame holds 8 steps; unlimited, every one asked for.
  Pacer p;
  p.anchor(0.0, 0.0);
  CHECK(p.dueSteps(1.0 / 60.0, 0.0, 0.002, 64) == 8);
  CHECK(p.dueSteps(0.0, 0.0, 0.002, 64) == 0);
  p.setUnlimited(true);
  CHECK(p.dueSteps(0.0, 0.0, 0.002, 64) == 64);
}
