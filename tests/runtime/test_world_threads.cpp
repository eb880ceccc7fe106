// Bodies on all cores: the thread pool (every index once, exceptions, the caller's
// floating-point environment), the World stepped on 1, 2, 3 and 8 threads (the same bits,
// the same reports, the same failure and rollback), copies of a threaded World, and the
// runner stepping its ghost beside the main world. Also run under ThreadSanitizer
// (`make test-tsan`: the runtime/ tests).
#include <atomic>
#include <catch2/catch.hpp>
#include <cfenv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/thread_pool.h"
#include "core/world.h"
#include "io/scene.h"
#include "models/xie_miyata.h"
#include "runner_fixture.h"
#include "runtime/runner.h"
#include "same_bits.h"

using namespace samara;
using samara::runtime::test::sameBits;
using samara::runtime::test::scenePath;

namespace {

/// Twelve bodies of different shapes and models in one gusty air with a floor: the five
/// cards of compare_models (samara, MuJoCo's two, Xie–Miyata, Gross et al.), the eel (a
/// shape-changing body), the maple seed, the paper copter (spinning at release), two leaves
/// of leaves_gusts, the box on the floor and a copy of the seed spinning at 3·10⁴ rad/s
/// (Newton needs sub-steps at h = 2 ms). Each body keeps its scene's placement, moved apart along x
/// and 1 m up.
core::WorldDef mixedWorld() {
  core::WorldDef def = io::loadScene(scenePath("compare_models.json"));
  const core::WorldDef gusty = io::loadScene(scenePath("leaves_gusts.json"));
  def.fluid.gusts = gusty.fluid.gusts;
  def.fluid.wind = Vec3(0.3, 0.0, 0.2);
  def.dt = 0.002;
  auto add = [&](const core::BodyDef& b) {
    def.bodies.push_back(b);
    def.bodies.back().position += Vec3(0.7 * static_cast<double>(def.bodies.size()), 1.0, 0.0);
  };
  for (const char* scene : {"eel.json", "maple_seed.json", "paper_copter.json"}) {
    add(io::loadScene(scenePath(scene)).bodies.at(0));
  }
  add(gusty.bodies.at(0));
  add(gusty.bodies.at(1));
  add(io::loadScene(scenePath("box_on_floor.json")).bodies.at(0));
  core::BodyDef spinner = io::loadScene(scenePath("maple_seed.json")).bodies.at(0);
  spinner.name = "spinner";
  spinner.angularVelocity = Vec3(0.0, 3.0e4, 1.0e4);
  add(spinner);
  return def;
}

struct Run {
  std::vector<core::StepReport> reports;
  std::vector<core::BodyState> states;  ///< every body after the last step
  std::vector<core::BodyDiagnostics> diagnostics;
  core::StepTrace trace;  ///< every body after every step that succeeded
};

/// Appends every body's state and diagnostics and the World's time, as after a step.
void traceWorld(const core::World& w, core::StepTrace* t) {
  for (int i = 0; i < w.numBodies(); ++i) {
    t->states.push_back(w.state(i));
    t->diagnostics.push_back(w.diagnostics(i));
  }
  t->times.push_back(w.time());
}

Run runWorld(core::World* w, int steps) {
  Run r;
  for (int k = 0; k < steps; ++k) {
    r.reports.push_back(w->step());
    if (!r.reports.back().ok()) break;
    traceWorld(*w, &r.trace);
  }
  for (int i = 0; i < w->numBodies(); ++i) {
    r.states.push_back(w->state(i));
    r.diagnostics.push_back(w->diagnostics(i));
  }
  return r;
}

void checkSame(const Run& a, const Run& b) {
  REQUIRE(a.reports.size() == b.reports.size());
  for (std::size_t k = 0; k < a.reports.size(); ++k) {
    INFO("step " << k + 1);
    CHECK(a.reports[k].status == b.reports[k].status);
    CHECK(a.reports[k].newtonIterations == b.reports[k].newtonIterations);
    CHECK(sameBits(&a.reports[k].residual, &b.reports[k].residual, 1));
    CHECK(a.reports[k].substeps == b.reports[k].substeps);
    CHECK(a.reports[k].message == b.reports[k].message);
  }
  REQUIRE(a.states.size() == b.states.size());
  for (std::size_t i = 0; i < a.states.size(); ++i) {
    INFO("body " << i);
    CHECK(sameBits(a.states[i], b.states[i]));
    CHECK(sameBits(a.diagnostics[i], b.diagnostics[i]));
    CHECK(a.diagnostics[i].newtonIterations == b.diagnostics[i].newtonIterations);
  }
  // Every body after every step: the same bits (counted, one check for them all).
  REQUIRE(a.trace.steps() == b.trace.steps());
  REQUIRE(a.trace.states.size() == b.trace.states.size());
  REQUIRE(a.trace.diagnostics.size() == b.trace.diagnostics.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < a.trace.states.size(); ++k) {
    if (!sameBits(a.trace.states[k], b.trace.states[k]) ||
        !sameBits(a.trace.diagnostics[k], b.trace.diagnostics[k]) ||
        a.trace.diagnostics[k].newtonIterations != b.trace.diagnostics[k].newtonIterations) {
      ++differ;
    }
  }
  CHECK(differ == 0);
  CHECK(sameBits(a.trace.times.data(), b.trace.times.data(),
                 static_cast<Eigen::Index>(a.trace.times.size())));
}

}  // namespace

TEST_CASE("ThreadPool: every index once, the first exception, the caller's FP environment",
          "[runtime][threads]") {
  core::ThreadPool pool(3);
  CHECK(pool.threads() == 3);
  for (int n : {0, 1, 2, 7, 1000}) {
    std::vector<int> calls(static_cast<std::size_t>(n), 0);
    pool.run(n, [&](int i) { ++calls[static_cast<std::size_t>(i)]; });
    for (int i = 0; i < n; ++i) CHECK(calls[static_cast<std::size_t>(i)] == 1);
  }
  // Many short jobs in a row: a worker that wakes late (its job done by the others) takes
  // no index of the next one twice or of a finished one at all.
  std::vector<int> hits(3, 0);
  for (int r = 0; r < 3000; ++r) pool.run(3, [&](int i) { ++hits[static_cast<std::size_t>(i)]; });
  for (int h : hits) CHECK(h == 3000);
  // An exception reaches the caller once every index has run; the pool goes on working.
  std::vector<int> calls(50, 0);
  CHECK_THROWS_WITH(pool.run(50,
                             [&](int i) {
                               ++calls[static_cast<std::size_t>(i)];
                               if (i == 7) throw std::runtime_error("index 7");
                             }),
                    "index 7");
  for (int c : calls) CHECK(c == 1);
  std::atomic<int> sum{0};
  pool.run(10, [&](int i) { sum += i; });
  CHECK(sum == 45);
  // The workers round as the caller does.
  const int saved = std::fegetround();
  REQUIRE(std::fesetround(FE_UPWARD) == 0);
  std::vector<int> rounding(64, -1);
  pool.run(64, [&](int i) { rounding[static_cast<std::size_t>(i)] = std::fegetround(); });
  std::fesetround(saved);
  for (int r : rounding) CHECK(r == FE_UPWARD);
  // One thread: the caller alone.
  core::ThreadPool one(1);
  CHECK(one.threads() == 1);
  int n = 0;
  one.run(5, [&](int) { ++n; });
  CHECK(n == 5);
}

TEST_CASE("World: twelve bodies step to the same bits on 1, 2, 3 and 8 threads",
          "[runtime][threads]") {
  const core::WorldDef def = mixedWorld();
  REQUIRE(def.bodies.size() == 12);
  constexpr int kSteps = 60;
  core::World serial = core::World(def);
  CHECK(serial.threads() == 1);
  const Run expected = runWorld(&serial, kSteps);
  REQUIRE(expected.reports.size() == static_cast<std::size_t>(kSteps));
  REQUIRE(expected.reports.back().ok());
  // The run exercises sub-steps, and the eel changes shape.
  bool substepped = false;
  for (const core::StepReport& r : expected.reports) substepped = substepped || r.substeps > 1;
  CHECK(substepped);
  CHECK(def.bodies[5].animation != nullptr);
  for (int threads : {2, 3, 8}) {
    INFO(threads << " threads");
    core::World w = core::World(def);
    w.setThreads(threads);
    CHECK(w.threads() == threads);
    checkSame(runWorld(&w, kSteps), expected);
  }
  // A copy of a threaded World mid-run has its own threads and goes on with the same bits;
  // so does a World assigned from it, and one moved.
  core::World a = core::World(def);
  a.setThreads(2);
  const Run first = runWorld(&a, kSteps / 2);
  core::World b(a);
  CHECK(b.threads() == 2);
  core::World c = core::World(def);
  c = a;
  core::World d(std::move(a));
  const Run fromB = runWorld(&b, kSteps / 2);
  c.setThreads(3);
  const Run fromC = runWorld(&c, kSteps / 2);
  const Run fromD = runWorld(&d, kSteps / 2);
  // The second half of the serial run: its reports and its trace from step kSteps / 2 on.
  const auto nb = static_cast<std::ptrdiff_t>(def.bodies.size());
  const std::ptrdiff_t half = kSteps / 2;
  core::StepTrace secondHalf;
  secondHalf.states.assign(expected.trace.states.begin() + half * nb, expected.trace.states.end());
  secondHalf.diagnostics.assign(expected.trace.diagnostics.begin() + half * nb,
                                expected.trace.diagnostics.end());
  secondHalf.times.assign(expected.trace.times.begin() + half, expected.trace.times.end());
  checkSame(fromB, Run{{expected.reports.begin() + half, expected.reports.end()},
                       expected.states,
                       expected.diagnostics,
                       secondHalf});
  checkSame(fromC, fromB);
  checkSame(fromD, fromB);
  CHECK(first.reports.size() == static_cast<std::size_t>(kSteps / 2));
}

TEST_CASE("World: a failing body gives the same message and rollback on 1 and 2 threads",
          "[runtime][threads]") {
  core::WorldDef def = mixedWorld();
  def.solver.maxHalvings = 0;
  // The maple seed and a leaf spin far too fast for h without sub-steps: after some steps
  // Newton fails, and the first body in index order that fails is named.
  def.bodies[6].angularVelocity = Vec3(0.0, 1.0e4, 3.0e3);
  def.bodies[9].angularVelocity = Vec3(3.0e3, 0.0, 1.0e4);
  std::vector<core::StepReport> failures;
  std::vector<std::int64_t> failedAt;
  std::vector<std::vector<core::BodyState>> before, after, resumed;
  for (int threads : {1, 2}) {
    core::World w(def);
    w.setThreads(threads);
    std::vector<core::BodyState> s0, s1, s2;
    core::StepReport r;
    for (int k = 0; k < 100; ++k) {
      s0.clear();
      for (int i = 0; i < w.numBodies(); ++i) s0.push_back(w.state(i));
      r = w.step();
      if (!r.ok()) break;
    }
    failures.push_back(r);
    failedAt.push_back(w.stepIndex());
    for (int i = 0; i < w.numBodies(); ++i) s1.push_back(w.state(i));
    // A smaller step then goes on from the state kept, on each thread count alike.
    w.setDt(def.dt / 64.0);
    for (int k = 0; k < 3; ++k) REQUIRE(w.step().ok());
    for (int i = 0; i < w.numBodies(); ++i) s2.push_back(w.state(i));
    before.push_back(s0);
    after.push_back(s1);
    resumed.push_back(s2);
  }
  for (const core::StepReport& r : failures) {
    CHECK(r.status == core::StepStatus::kFailed);
    CHECK_THAT(r.message, Catch::StartsWith("body 'maple_seed': Newton did not converge"));
  }
  CHECK(failedAt[0] > 5);  // not the first step: the other bodies have moved on
  CHECK(failedAt[0] == failedAt[1]);
  CHECK(failures[0].message == failures[1].message);
  CHECK(failures[0].newtonIterations == failures[1].newtonIterations);
  CHECK(sameBits(&failures[0].residual, &failures[1].residual, 1));
  CHECK(failures[0].substeps == failures[1].substeps);
  for (std::size_t i = 0; i < def.bodies.size(); ++i) {
    INFO("body " << i);
    CHECK(sameBits(after[0][i], before[0][i]));  // rolled back
    CHECK(sameBits(after[1][i], before[1][i]));
    CHECK(sameBits(after[0][i], after[1][i]));
    CHECK(sameBits(resumed[0][i], resumed[1][i]));
  }
}

TEST_CASE("Runner: with 2 threads the ghost steps beside the main world, with the same bits",
          "[runtime][threads][compare]") {
  std::vector<core::BodyState> mainStates[2], ghostStates[2];
  int index = 0;
  for (int threads : {1, 2}) {
    runtime::RunnerOptions o;
    o.threads = threads;
    runtime::test::RunnerFixture f(runtime::test::startingPaused(true, o));
    f.runner->post(runtime::LoadScene{scenePath("falling_plates_air.json"), {}});
    f.runner->post(runtime::SetGhost{std::string("vacuum")});
    f.runner->post(runtime::Step{20});
    f.frame();
    CHECK(f.snap().params.threads == threads);
    // Threads change between steps and are not logged (they change no result).
    f.runner->post(runtime::SetThreads{3 - threads});
    f.runner->post(runtime::Step{20});
    f.frame();
    CHECK(f.snap().params.threads == 3 - threads);
    CHECK(f.snap().stepIndex == 40);
    CHECK(f.snap().ghostStepIndex == 40);
    for (const runtime::LoggedCommand& c : f.runner->commandLog()) {
      CHECK_FALSE(std::holds_alternative<runtime::SetThreads>(c.command));
    }
    const core::World& w = *f.runner->world();
    const core::World& g = *f.runner->ghost();
    for (int i = 0; i < w.numBodies(); ++i) {
      mainStates[index].push_back(w.state(i));
      ghostStates[index].push_back(g.state(i));
    }
    ++index;
  }
  REQUIRE(mainStates[0].size() == 9);
  for (std::size_t i = 0; i < mainStates[0].size(); ++i) {
    CHECK(sameBits(mainStates[0][i], mainStates[1][i]));
    CHECK(sameBits(ghostStates[0][i], ghostStates[1][i]));
    CHECK_FALSE(sameBits(mainStates[0][i], ghostStates[0][i]));
  }
}

TEST_CASE("Runner: when the main step fails the ghost has taken its step and then waits",
          "[runtime][threads][compare]") {
  // In water with one Newton iteration per step the plates fail at once; in a vacuum (the
  // ghost) they fall without turning, which one iteration solves.
  core::WorldDef def = io::loadScene(scenePath("falling_plates_water.json"));
  def.solver.maxIterations = 1;
  def.solver.maxHalvings = 0;
  for (core::BodyDef& b : def.bodies) b.angularVelocity = Vec3::Zero();
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    runtime::RunnerOptions o;
    o.threads = threads;
    runtime::test::RunnerFixture f(runtime::test::startingPaused(true, o));
    f.runner->post(runtime::LoadWorld{def, "plates"});
    f.runner->post(runtime::SetGhost{std::string("vacuum")});
    f.runner->post(runtime::Step{3});
    f.frame();
    const runtime::Snapshot s = f.snap();
    REQUIRE(s.status == runtime::RunStatus::kFailed);
    CHECK_THAT(s.message, Catch::StartsWith("step 1 "));
    CHECK(s.stepIndex == 0);
    CHECK(s.ghostStepIndex == 1);
    // The next step is the main world's alone (it fails again here); the ghost waits.
    f.runner->post(runtime::Step{1});
    f.frame();
    CHECK(f.snap().ghostStepIndex == 1);
    CHECK(f.snap().status == runtime::RunStatus::kFailed);
  }
}

namespace {

/// `steps` steps taken by World::advance in blocks of the sizes given in turn.
Run advanceWorld(core::World* w, int steps, const std::vector<int>& blocks) {
  Run r;
  for (std::size_t b = 0; static_cast<int>(r.reports.size()) < steps; ++b) {
    const int left = steps - static_cast<int>(r.reports.size());
    core::StepTrace t;
    const std::vector<core::StepReport> got =
        w->advance(std::min(left, blocks[b % blocks.size()]), &t);
    REQUIRE(!got.empty());
    r.reports.insert(r.reports.end(), got.begin(), got.end());
    // The trace holds the steps that succeeded, every body in each.
    const std::size_t good = got.size() - (got.back().ok() ? 0 : 1);
    REQUIRE(t.steps() == good);
    REQUIRE(t.states.size() == good * static_cast<std::size_t>(w->numBodies()));
    REQUIRE(t.diagnostics.size() == t.states.size());
    r.trace.states.insert(r.trace.states.end(), t.states.begin(), t.states.end());
    r.trace.diagnostics.insert(r.trace.diagnostics.end(), t.diagnostics.begin(),
                               t.diagnostics.end());
    r.trace.times.insert(r.trace.times.end(), t.times.begin(), t.times.end());
    if (!got.back().ok()) break;
  }
  for (int i = 0; i < w->numBodies(); ++i) {
    r.states.push_back(w->state(i));
    r.diagnostics.push_back(w->diagnostics(i));
  }
  return r;
}

}  // namespace

TEST_CASE("World::advance: each body its block of steps in a row gives step()'s bits",
          "[runtime][threads]") {
  const core::WorldDef def = mixedWorld();
  constexpr int kSteps = 60;
  core::World serial(def);
  const Run expected = runWorld(&serial, kSteps);
  REQUIRE(expected.reports.back().ok());
  for (int threads : {1, 2, 3}) {
    INFO(threads << " threads");
    core::World w(def);
    w.setThreads(threads);
    const Run got = advanceWorld(&w, kSteps, {1, 7, 16, 36});
    checkSame(got, expected);
    CHECK(w.stepIndex() == kSteps);
    const double t[2] = {w.time(), serial.time()};
    CHECK(sameBits(&t[0], &t[1], 1));
    // And step() goes on from it as from the serial run.
    core::World s2(serial);
    checkSame(runWorld(&w, 5), runWorld(&s2, 5));
  }
  // A one-body World and a block of one step are step() itself.
  core::WorldDef one = def;
  one.bodies.resize(1);
  core::World a(one), b(one);
  checkSame(advanceWorld(&a, 20, {20}), runWorld(&b, 20));
}

/// mixedWorld() with two bodies spun too fast to solve without sub-steps: a step between the
/// 9th and the 63rd fails. Xie–Miyata's card has its turbulence on: a model state (a seeded
/// random process) that a body beyond the failure has moved on and must take back.
core::WorldDef failingWorld() {
  core::WorldDef def = mixedWorld();
  def.solver.maxHalvings = 0;
  def.bodies[6].angularVelocity = Vec3(0.0, 1.0e4, 3.0e3);  // as the rollback test above
  def.bodies[9].angularVelocity = Vec3(3.0e3, 0.0, 1.0e4);
  REQUIRE(def.bodies[3].name == "card_xie_miyata");
  models::XieMiyataParams turbulent;
  turbulent.turbulence = 0.3;
  def.bodies[3].model = std::make_shared<models::XieMiyataModel>(turbulent);
  return def;
}

TEST_CASE("World::advance: a body failing inside a block stops the block where step() would",
          "[runtime][threads]") {
  const core::WorldDef def = failingWorld();
  core::World serial(def);
  const Run expected = runWorld(&serial, 100);
  REQUIRE(!expected.reports.back().ok());
  const auto failedAt = static_cast<int>(expected.reports.size());
  REQUIRE(failedAt > 8);  // inside the first block below, after bodies beyond it moved on
  REQUIRE(failedAt < 64);
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    core::World w(def);
    w.setThreads(threads);
    const Run got = advanceWorld(&w, 100, {64});
    checkSame(got, expected);  // the failure's report last, every body at its last good step
    CHECK(w.stepIndex() == serial.stepIndex());
    // Xie–Miyata's own state (its wake) went back with the rest: the runs go on alike.
    w.setDt(def.dt / 64.0);
    core::World s2(serial);
    s2.setDt(def.dt / 64.0);
    checkSame(runWorld(&w, 3), runWorld(&s2, 3));
  }
}
