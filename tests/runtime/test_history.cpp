// History and scrubbing (issue 8): the runner records every step's body states and
// diagnostics for the last seconds; Scrub shows a recorded step in the snapshot, bit for bit
// what a direct World run has at that step index, and leaves the world alone (Resume
// continues from the live state). Also run under ThreadSanitizer (`cmake --preset tsan`).
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "io/scene.h"
#include "runner_fixture.h"
#include "runtime/runner.h"
#include "same_bits.h"

using namespace samara;
using namespace samara::runtime;
using samara::runtime::test::sameBits;

namespace {

const std::string kPlates = test::scenePath("falling_plates_air.json");
const std::string kEel = test::scenePath("eel.json");

bool sameVertices(const geometry::VertexMatrix& a, const geometry::VertexMatrix& b) {
  return a.rows() == b.rows() && samara::runtime::test::sameBits(a.data(), b.data(), a.size());
}

/// Always starts paused.
struct Fixture : test::RunnerFixture {
  explicit Fixture(RunnerOptions o = {}) : RunnerFixture(test::startingPaused(true, o)) {}
};

/// A direct World run of `path` with the density changed to 998 after `change` steps: the
/// world at every step index 0 … n.
std::vector<core::World> directRun(const std::string& path, int n, int change) {
  std::vector<core::World> out;
  core::World w = io::makeWorld(io::loadScene(path), path);
  out.push_back(w);
  for (int k = 0; k < n; ++k) {
    if (k == change) w.setFluidDensity(998.0);
    REQUIRE(w.step().ok());
    out.push_back(w);
  }
  return out;
}

}  // namespace

TEST_CASE("scrubbing shows the recorded states of a direct run, bit for bit",
          "[runtime][history]") {
  const int n = 120;
  const int change = 50;
  const std::vector<core::World> direct = directRun(kPlates, n, change);
  Fixture f;
  f.runner->post(LoadScene{kPlates, {}});
  f.runner->post(Step{change});
  f.runner->post(SetFluidDensity{998.0});
  f.runner->post(Step{n - change});
  f.frame();
  const Snapshot& live = f.snap();
  REQUIRE(live.stepIndex == n);
  CHECK(live.historyFirst == 0);
  CHECK(live.historyLast == n);
  CHECK_FALSE(live.scrubbing);

  for (const int k : {0, 1, change - 1, change, change + 1, 97, n}) {
    CAPTURE(k);
    const core::World& w = direct[static_cast<std::size_t>(k)];
    const std::optional<HistoryFrame> rec = f.runner->recorded(k);
    REQUIRE(rec);
    CHECK(rec->stepIndex == k);
    const double wt = w.time();
    CHECK(sameBits(&rec->time, &wt, 1));
    REQUIRE(rec->states.size() == static_cast<std::size_t>(w.numBodies()));
    for (int i = 0; i < w.numBodies(); ++i) {
      CHECK(sameBits(rec->states[static_cast<std::size_t>(i)], w.state(i)));
    }
    f.runner->post(Scrub{k});
    f.frame();
    const Snapshot& s = f.snap();
    CHECK(s.scrubbing);
    CHECK(s.stepIndex == k);
    CHECK(s.time == w.time());
    CHECK(s.liveStepIndex == n);
    CHECK(s.status == RunStatus::kPaused);
    for (int i = 0; i < w.numBodies(); ++i) {
      const BodySnapshot& b = s.bodies[static_cast<std::size_t>(i)];
      CHECK(sameBits(b.diagnostics, w.diagnostics(i)));
      CHECK(sameVertices(b.vertices, w.worldVertices(i)));
    }
  }
  // Out of range: clamped to the recorded steps.
  f.runner->post(Scrub{-5});
  f.frame();
  CHECK(f.snap().stepIndex == 0);
  f.runner->post(Scrub{n + 100});
  f.frame();
  CHECK(f.snap().stepIndex == n);
  // Back to live: the world was never touched.
  f.runner->post(Scrub{3});
  f.runner->post(Scrub{std::nullopt});
  f.frame();
  CHECK_FALSE(f.snap().scrubbing);
  CHECK(f.snap().stepIndex == n);
  REQUIRE(f.runner->world());
  for (int i = 0; i < f.runner->world()->numBodies(); ++i) {
    CHECK(sameBits(f.runner->world()->state(i), direct.back().state(i)));
  }
  // Resume while scrubbing continues from the live state.
  f.runner->post(Scrub{10});
  f.runner->post(Step{1});
  f.frame();
  CHECK_FALSE(f.snap().scrubbing);
  CHECK(f.snap().stepIndex == n + 1);
}

TEST_CASE("history keeps the last seconds and restarts with the run", "[runtime][history]") {
  RunnerOptions o;
  o.historySeconds = 0.1;
  Fixture f(o);
  f.runner->post(LoadScene{kPlates, {}});
  f.runner->post(Step{200});
  f.frame();
  const Snapshot& s = f.snap();
  const double dt = s.params.dt;
  CHECK(s.historyLast == 200);
  CHECK(s.historyLastTime - s.historyFirstTime <= 0.1 + 1e-12);
  CHECK(s.historyLastTime - s.historyFirstTime > 0.1 - dt - 1e-12);
  CHECK_FALSE(f.runner->recorded(s.historyFirst - 1));
  CHECK(f.runner->recorded(s.historyFirst));
  f.runner->post(Scrub{150});
  f.runner->post(Reset{});
  f.frame();
  CHECK_FALSE(f.snap().scrubbing);
  CHECK(f.snap().historyFirst == 0);
  CHECK(f.snap().historyLast == 0);

  RunnerOptions tiny;
  tiny.historyMaxBytes = 1;  // one frame at most
  Fixture g(tiny);
  g.runner->post(LoadScene{kPlates, {}});
  g.runner->post(Step{20});
  g.frame();
  CHECK(g.snap().historyFirst == 20);
  CHECK(g.snap().historyLast == 20);
}

TEST_CASE("a history whose budget is short of its seconds keeps every stride-th step",
          "[runtime][history]") {
  // falling_plates_air's 9 plates, a budget of 40 frames: the history keeps every step up to
  // 40, then every second, fourth and eighth step (each time it would hold 41), so that it
  // still reaches back to the start, as a crowd's does.
  const int n = 300;
  const std::vector<core::World> direct = directRun(kPlates, n, n);
  const std::size_t frameBytes =
      sizeof(HistoryFrame) + 9 * (sizeof(core::BodyState) + sizeof(core::BodyDiagnostics));
  RunnerOptions o;
  o.historySeconds = 10.0;
  o.historyMaxBytes = 40 * frameBytes + frameBytes / 2;
  Fixture f(o);
  f.runner->post(LoadScene{kPlates, {}});
  f.runner->post(Step{n});
  f.frame();
  const Snapshot& s = f.snap();
  REQUIRE(s.bodies.size() == 9);
  CHECK(s.historyStride == 8);
  CHECK(s.historyFirst == 0);
  CHECK(s.historyLast == 296);
  for (int k = 0; k <= n; ++k) {
    CAPTURE(k);
    const std::optional<HistoryFrame> rec = f.runner->recorded(k);
    REQUIRE(rec.has_value() == (k % 8 == 0 && k <= 296));
    if (!rec) continue;
    const core::World& w = direct[static_cast<std::size_t>(k)];
    for (int i = 0; i < w.numBodies(); ++i) {
      CHECK(sameBits(rec->states[static_cast<std::size_t>(i)], w.state(i)));
    }
  }
  // A step not kept shows the nearest kept one (the earlier on a tie), or the one before or
  // after it; a kept one shows itself whichever the direction.
  const std::vector<std::pair<Scrub, std::int64_t>> asks = {
      {Scrub{100}, 96},      {Scrub{101}, 104},    {Scrub{101, -1}, 96}, {Scrub{97, 1}, 104},
      {Scrub{104, -1}, 104}, {Scrub{104, 1}, 104}, {Scrub{-3, -1}, 0},   {Scrub{n + 50, 1}, 296}};
  for (const auto& [ask, shown] : asks) {
    CAPTURE(*ask.stepIndex, ask.direction);
    f.runner->post(ask);
    f.frame();
    REQUIRE(f.snap().scrubbing);
    CHECK(f.snap().stepIndex == shown);
    const core::World& w = direct[static_cast<std::size_t>(shown)];
    CHECK(sameBits(f.snap().bodies[0].diagnostics, w.diagnostics(0)));
  }
  // A new run keeps every step again.
  f.runner->post(Reset{});
  f.runner->post(Step{5});
  f.frame();
  CHECK(f.snap().historyStride == 1);
  CHECK(f.snap().historyFirst == 0);
  CHECK(f.snap().historyLast == 5);

  // Seconds and budget together: 0.2 s of 2 ms steps is 101 frames, so every fourth step
  // (26 frames) within the budget of 40, and the window moves on as before.
  RunnerOptions w;
  w.historySeconds = 0.2;
  w.historyMaxBytes = o.historyMaxBytes;
  Fixture g(w);
  g.runner->post(LoadScene{kPlates, {}});
  g.runner->post(Step{1000});
  g.frame();
  const Snapshot& t = g.snap();
  const double dt = t.params.dt;
  CHECK(t.historyStride == 4);
  CHECK(t.historyLast == 1000);
  CHECK(t.historyLastTime - t.historyFirstTime <= 0.2 + 1e-12);
  CHECK(t.historyLastTime - t.historyFirstTime > 0.2 - 4 * dt - 1e-12);
  CHECK(t.historyFirst % 4 == 0);
}

TEST_CASE("scrubbing a shape-changing body re-evaluates its shape at the recorded time",
          "[runtime][history]") {
  const int n = 40;
  const std::vector<core::World> direct = directRun(kEel, n, n + 1);
  Fixture f;
  f.runner->post(LoadScene{kEel, {}});
  f.runner->post(Step{n});
  f.frame();
  for (const int k : {0, 7, 25}) {
    CAPTURE(k);
    f.runner->post(Scrub{k});
    f.frame();
    const Snapshot& s = f.snap();
    REQUIRE(s.scrubbing);
    const core::World& w = direct[static_cast<std::size_t>(k)];
    for (int i = 0; i < w.numBodies(); ++i) {
      const BodySnapshot& b = s.bodies[static_cast<std::size_t>(i)];
      CHECK(sameBits(b.diagnostics, w.diagnostics(i)));
      const geometry::VertexMatrix V = w.worldVertices(i);
      REQUIRE(b.vertices.rows() == V.rows());
      CHECK((b.vertices - V).cwiseAbs().maxCoeff() <= 1e-12);
    }
  }
}

TEST_CASE("scrubbing on the simulation thread", "[runtime][history][thread]") {
  RunnerOptions o;
  o.startPaused = false;
  Runner runner(o);
  runner.start();
  runner.post(LoadScene{kPlates, {}});
  runner.post(SetSpeed{1.0, true});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    runner.updateSnapshot();
    if (runner.snapshot().historyLast >= 50) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  runner.post(Pause{});
  std::int64_t last = -1;
  for (int k = 0; k < 50; ++k) {
    runner.post(Scrub{k});
  }
  bool seen = false;
  while (std::chrono::steady_clock::now() < deadline) {
    runner.updateSnapshot();
    const Snapshot& s = runner.snapshot();
    if (s.scrubbing && s.stepIndex == 49) {
      seen = true;
      last = s.liveStepIndex;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  CHECK(seen);
  CHECK(last >= 50);
  runner.post(Resume{});
  runner.stop();
  REQUIRE(runner.world());
  CHECK(runner.world()->stepIndex() >= last);
}
