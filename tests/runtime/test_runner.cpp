// The simulation runner with a fake clock and on its own thread: pacing, pause / step /
// reset, commands between steps, bitwise determinism against a direct World run (what
// `samara run` does), failure handling, and the lossless plot channel. Also run under
// ThreadSanitizer (`cmake --preset tsan`).
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "geometry/primitives.h"
#include "io/scene.h"
#include "runner_fixture.h"
#include "runtime/runner.h"
#include "runtime/scene_source.h"
#include "same_bits.h"

using namespace samara;
using namespace samara::runtime;
using samara::runtime::test::sameBits;

namespace {

const std::string kPlate = test::scenePath("falling_plate.json");

/// What `samara run` does: load, build, step.
core::World directWorld() { return io::makeWorld(io::loadScene(kPlate), kPlate); }

/// Replays a command log on a fresh World up to step `finalStep`.
core::World replay(const std::vector<LoggedCommand>& log, std::int64_t finalStep) {
  core::World w = directWorld();
  for (const LoggedCommand& c : log) {
    while (w.stepIndex() < c.stepIndex) REQUIRE(w.step().ok());
    applyParameter(c.command, &w);
  }
  while (w.stepIndex() < finalStep) REQUIRE(w.step().ok());
  return w;
}

/// Starts running unless told otherwise.
struct Fixture : test::RunnerFixture {
  explicit Fixture(bool startPaused = false) : RunnerFixture(test::startingPaused(startPaused)) {}
};

}  // namespace

TEST_CASE("Runner: empty until a scene is loaded", "[runtime][runner]") {
  Fixture f;
  CHECK(f.snap().status == RunStatus::kEmpty);
  f.runner->post(Step{3});
  f.runner->post(Resume{});
  f.frame();
  CHECK(f.snap().status == RunStatus::kEmpty);
  CHECK(f.runner->world() == nullptr);
}

TEST_CASE("Runner: steps per wall second at speeds 0.25, 1 and 4", "[runtime][runner]") {
  for (double speed : {0.25, 1.0, 4.0}) {
    Fixture f;
    f.runner->post(SetSpeed{speed, false});
    f.runner->post(LoadScene{kPlate, {}});
    f.frame();  // loads and anchors
    long long steps = 0;
    for (int i = 0; i < 60; ++i) steps += f.frame();
    const double dt = 0.002;
    INFO("speed " << speed);
    CHECK(std::abs(static_cast<double>(steps) - speed / dt) <= 1.0);
    const Snapshot& s = f.snap();
    CHECK(s.params.speed == speed);
    CHECK(s.time == Approx(speed).margin(dt));
    CHECK(s.realTimeFactor == Approx(speed).epsilon(0.05));
  }
}

TEST_CASE("Runner: a slow machine degrades to slow motion", "[runtime][runner]") {
  Fixture f;
  f.runner->post(LoadScene{kPlate, {}});
  f.frame();
  // Every clock read (one per step) costs 5 ms: 2 ms of simulated time per 5 ms of wall.
  f.clock->setCostPerRead(0.005);
  int most = 0;
  const double wall0 = f.clock->peek();
  for (int i = 0; i < 200; ++i) {
    const TickResult r = f.runner->tick();
    most = std::max(most, r.steps);
  }
  const double wall = f.clock->peek() - wall0;
  const Snapshot& s = f.snap();
  // 70 % of a 1/60 s frame at 5 ms per step: at most 3 steps per tick.
  CHECK(most <= 3);
  CHECK(s.reanchors > 0);
  CHECK(s.time / wall > 0.2);
  CHECK(s.time / wall < 0.45);
}

TEST_CASE("Runner: pause, single step, reset", "[runtime][runner]") {
  Fixture f(/*startPaused=*/true);
  f.runner->post(LoadScene{kPlate, {}});
  f.frame();
  CHECK(f.snap().status == RunStatus::kPaused);
  for (int i = 0; i < 10; ++i) CHECK(f.frame() == 0);
  CHECK(f.snap().stepIndex == 0);

  f.runner->post(Step{5});
  CHECK(f.frame() == 5);
  CHECK(f.snap().stepIndex == 5);
  CHECK(f.snap().status == RunStatus::kPaused);

  f.runner->post(Resume{});
  f.frame();
  int steps = 0;
  for (int i = 0; i < 30; ++i) steps += f.frame();
  CHECK(steps > 200);
  CHECK(f.snap().status == RunStatus::kRunning);

  f.runner->post(Pause{});
  f.frame();
  const std::int64_t at = f.snap().stepIndex;
  f.frame();
  CHECK(f.snap().stepIndex == at);

  // Step while running pauses first.
  f.runner->post(Resume{});
  f.runner->post(Step{2});
  f.frame();
  CHECK(f.snap().status == RunStatus::kPaused);
  CHECK(f.snap().stepIndex == at + 2);

  const std::uint64_t gen = f.snap().generation;
  f.runner->post(Reset{});
  f.frame();
  CHECK(f.snap().stepIndex == 0);
  CHECK(f.snap().time == 0.0);
  CHECK(f.snap().generation == gen + 1);
  const core::World fresh = directWorld();
  CHECK(sameBits(f.runner->world()->state(0), fresh.state(0)));

  f.runner->post(TogglePause{});
  f.frame();
  CHECK(f.snap().status == RunStatus::kRunning);
  f.runner->post(TogglePause{});
  f.frame();
  CHECK(f.snap().status == RunStatus::kPaused);
}

TEST_CASE("Runner: commands apply between steps and are logged with the step index",
          "[runtime][runner]") {
  Fixture f;
  f.runner->post(LoadScene{kPlate, {}});
  f.frame();
  for (int i = 0; i < 10; ++i) f.frame();
  const std::int64_t k = f.snap().stepIndex;
  CHECK(k > 0);
  f.runner->post(SetFluidDensity{998.0});
  f.runner->post(SetWind{Vec3(1.0, 0.0, 0.5)});
  f.runner->post(SetDelta{0, 0.02});
  f.frame();
  const Snapshot& s = f.snap();
  CHECK(s.params.fluidDensity == 998.0);
  CHECK(s.params.wind.x() == 1.0);
  CHECK(s.bodies[0].delta == 0.02);
  CHECK(s.bodies[0].deltaOverride.has_value());
  CHECK(s.bodies[0].deltaAuto == Approx(0.01194).epsilon(1e-3));
  const std::vector<LoggedCommand> log = f.runner->commandLog();
  REQUIRE(log.size() == 3);
  for (const LoggedCommand& c : log) CHECK(c.stepIndex == k);
  CHECK(describe(log[0].command) == "SetFluidDensity 998");

  // Invalid values are refused with a message, the world keeps its parameters.
  f.runner->post(SetFluidDensity{-1.0});
  f.runner->post(SetDelta{7, 0.1});
  f.frame();
  CHECK(f.snap().params.fluidDensity == 998.0);
  CHECK(f.snap().message.find("ignored") != std::string::npos);
}

TEST_CASE("Runner: the same commands at the same steps give the bits of a direct run",
          "[runtime][runner][determinism]") {
  Fixture f(/*startPaused=*/true);
  f.runner->post(LoadScene{kPlate, {}});
  f.runner->post(Step{100});
  f.runner->post(SetFluidDensity{5.0});
  f.runner->post(Step{50});
  f.runner->post(SetWind{Vec3(0.3, 0.0, -0.2)});
  f.runner->post(SetDelta{0, 0.0});
  f.runner->post(Step{40});
  f.runner->post(SetDt{0.001});
  f.runner->post(SetDelta{0, std::nullopt});
  f.runner->post(Step{60});
  f.frame();

  core::World w = directWorld();
  for (int i = 0; i < 100; ++i) REQUIRE(w.step().ok());
  w.setFluidDensity(5.0);
  for (int i = 0; i < 50; ++i) REQUIRE(w.step().ok());
  w.setWind(Vec3(0.3, 0.0, -0.2));
  w.setDelta(0, 0.0);
  for (int i = 0; i < 40; ++i) REQUIRE(w.step().ok());
  w.setDt(0.001);
  w.setDelta(0, std::nullopt);
  for (int i = 0; i < 60; ++i) REQUIRE(w.step().ok());

  const Snapshot& s = f.snap();
  REQUIRE(s.stepIndex == 250);
  CHECK(s.time == w.time());
  CHECK(sameBits(f.runner->world()->state(0), w.state(0)));
  CHECK(sameBits(s.bodies[0].diagnostics, w.diagnostics(0)));
  const geometry::VertexMatrix V = w.worldVertices(0);
  CHECK(std::memcmp(V.data(), s.bodies[0].vertices.data(), sizeof(double) * V.size()) == 0);
}

TEST_CASE("Runner: a threaded run with live commands replays bit for bit",
          "[runtime][runner][determinism][thread]") {
  RunnerOptions o;  // the real clock
  Runner runner(o);
  runner.post(SetSpeed{4.0, false});
  runner.post(LoadScene{kPlate, {}});
  runner.start();
  std::vector<PlotSample> samples;
  for (int i = 0; i < 25; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(4));
    test::postScriptedChange(runner, i);
    runner.updateSnapshot();
    runner.takeSamples(&samples);
  }
  runner.post(Pause{});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  runner.stop();
  const core::World* world = runner.world();
  REQUIRE(world != nullptr);
  CHECK(world->stepIndex() > 0);
  const std::vector<LoggedCommand> log = runner.commandLog();
  CHECK(log.size() >= 25);
  const core::World w = replay(log, world->stepIndex());
  CHECK(sameBits(world->state(0), w.state(0)));
}

TEST_CASE("Runner: the plot channel loses no sample when frames are skipped",
          "[runtime][runner][thread]") {
  RunnerOptions o;
  Runner runner(o);
  runner.post(SetSpeed{1.0, true});  // as fast as possible
  runner.post(LoadScene{kPlate, {}});
  runner.start();
  std::vector<PlotSample> samples;
  // At least 12 frames and until the run is past step 100 (a loaded machine or a sanitizer
  // build steps slower; give up after ~20 s).
  std::int64_t seen = 0;
  for (int i = 0; i < 12 || (seen <= 100 && i < 2000); ++i) {
    // An irregular, slow consumer: most snapshots are never looked at.
    std::this_thread::sleep_for(std::chrono::milliseconds(i % 3 == 0 ? 30 : 3));
    if (i % 2 == 0) runner.takeSamples(&samples);
    runner.updateSnapshot();
    const Snapshot& s = runner.snapshot();
    seen = s.stepIndex;
    if (!s.bodies.empty()) {
      CHECK(s.bodies[0].vertices.rows() == 77);  // 11 × 7 plate vertices
      CHECK(s.bodies[0].faces->rows() == 120);
    }
  }
  runner.post(Pause{});
  runner.stop();
  runner.takeSamples(&samples);
  const std::int64_t last = runner.world()->stepIndex();
  CHECK(last > 100);
  REQUIRE(samples.size() == static_cast<std::size_t>(last + 1));
  for (std::size_t i = 0; i < samples.size(); ++i) {
    CHECK(samples[i].stepIndex == static_cast<std::int64_t>(i));
    if (samples[i].stepIndex != static_cast<std::int64_t>(i)) break;
  }
  // The samples are the CSV's numbers: a direct run gives the same diagnostics.
  core::World w = directWorld();
  for (std::int64_t i = 0; i < last; ++i) REQUIRE(w.step().ok());
  CHECK(sameBits(samples.back().d, w.diagnostics(0)));
  CHECK(samples.back().time == w.time());
}

TEST_CASE("Runner: a failed step pauses the run and publishes the reason", "[runtime][runner]") {
  Fixture f;
  core::WorldDef def;
  def.fluid.density = 998.0;
  def.dt = 0.01;
  def.solver.tolerance = 1e-300;  // unreachable
  def.solver.maxHalvings = 1;
  core::BodyDef b;
  b.name = "marble";
  b.mesh = geometry::makeSphere(0.05, 1);
  b.mass.density = 2000.0;
  def.bodies.push_back(b);
  f.runner->post(LoadWorld{def, "impossible"});
  f.frame();
  f.frame();
  const Snapshot& s = f.snap();
  CHECK(s.status == RunStatus::kFailed);
  CHECK(s.stepIndex == 0);
  CHECK(s.message.find("failed") != std::string::npos);
  CHECK(s.message.find("marble") != std::string::npos);
  CHECK(s.message.find("t = 0") != std::string::npos);
  // Stays paused.
  for (int i = 0; i < 5; ++i) CHECK(f.frame() == 0);
  CHECK(f.snap().status == RunStatus::kFailed);
  // Reset clears the failure and leaves the run paused.
  f.runner->post(Reset{});
  f.frame();
  CHECK(f.snap().status == RunStatus::kPaused);
  CHECK(f.snap().message.empty());
}

TEST_CASE("Runner: load errors keep the current scene and name the file", "[runtime][runner]") {
  Fixture f;
  f.runner->post(LoadScene{kPlate, {}});
  f.frame();
  const std::uint64_t gen = f.snap().generation;
  f.runner->post(LoadScene{"/nonexistent/scene.json", {}});
  f.frame();
  CHECK(f.snap().generation == gen);
  CHECK(f.snap().sceneName == "falling_plate");
  CHECK(f.snap().message.find("/nonexistent/scene.json") != std::string::npos);
  f.runner->post(LoadScene{"notes.txt", {}});
  f.frame();
  CHECK(f.snap().message.find("unknown file type") != std::string::npos);
  // --set edits reach the scene loader.
  f.runner->post(LoadScene{kPlate, {{"fluid.density", "2.5"}}});
  f.frame();
  CHECK(f.snap().params.fluidDensity == 2.5);
  CHECK(f.snap().message.empty());
  // Reload keeps the edits.
  f.runner->post(SetFluidDensity{7.0});
  f.runner->post(Reload{});
  f.frame();
  CHECK(f.snap().params.fluidDensity == 2.5);
}

TEST_CASE("Runner: restart with new parameters equals samara run --set",
          "[runtime][runner][determinism]") {
  Fixture f(/*startPaused=*/true);
  f.runner->post(LoadScene{kPlate, {}});
  f.runner->post(Step{30});
  Overrides o;
  o.fluidDensity = 998.0;
  o.dt = 0.001;
  o.delta = {std::optional<double>(0.01)};
  f.runner->post(Restart{o});
  f.runner->post(Step{80});
  f.frame();
  core::World w = io::makeWorld(
      io::loadScene(kPlate,
                    {{"fluid.density", "998"}, {"sim.dt", "0.001"}, {"bodies.0.delta", "0.01"}}),
      kPlate);
  for (int i = 0; i < 80; ++i) REQUIRE(w.step().ok());
  CHECK(f.snap().stepIndex == 80);
  CHECK(sameBits(f.runner->world()->state(0), w.state(0)));
}

TEST_CASE("Scene source: a dropped mesh becomes a default scene", "[runtime][scene]") {
  const std::string turtle = std::string(SAMARA_SOURCE_DIR) + "/assets/meshes/turtle.obj";
  const core::WorldDef def = loadSceneOrMesh(turtle);
  REQUIRE(def.bodies.size() == 1);
  CHECK(def.bodies[0].name == "turtle");
  CHECK(def.floor.has_value());
  const core::World w(def);
  CHECK(w.diagnostics(0).com.y() > 1.0);
  CHECK(fileKind("a/B.GLB") == FileKind::kGltf);
  CHECK(fileKind("x.Json") == FileKind::kScene);
  const std::string gltf = std::string(SAMARA_SOURCE_DIR) + "/assets/skins/sea_snake.gltf";
  if (gltfSupported()) {
    CHECK(loadSceneOrMesh(gltf).bodies.size() == 1);
  } else {
    CHECK_THROWS_WITH(loadSceneOrMesh(gltf), Catch::Contains("not supported yet"));
  }
}

namespace {

/// A runner on `threads` threads, given `load` and collecting every plot sample.
std::unique_ptr<test::RunnerFixture> sampledRunner(int threads, Command load) {
  RunnerOptions o;
  o.threads = threads;
  auto f = std::make_unique<test::RunnerFixture>(o);
  f->collectSamples = true;
  f->runner->post(std::move(load));
  return f;
}

}  // namespace

TEST_CASE("Runner: a crowd steps in blocks with every step's samples and history",
          "[runtime][runner][determinism]") {
  // Three leaves at h = 2 ms: a 60 Hz frame is 8 steps, taken as one World::advance block
  // (a ninth when the frames' remainders add up to one).
  const std::string path = test::scenePath("leaves_gusts.json");
  const core::WorldDef def = io::loadScene(path);
  REQUIRE(def.bodies.size() == 3);
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    auto fixture = sampledRunner(threads, LoadScene{path, {}});
    test::RunnerFixture& f = *fixture;
    int steps = 0;
    for (int i = 0; i < 7; ++i) steps += f.frame();  // the load, then 8 or 9 a frame
    REQUIRE(steps >= 48);
    core::World w = io::makeWorld(def, path);
    // The initial state's samples, then every step's, body by body, as `samara run` gives.
    REQUIRE(f.samples.size() == static_cast<std::size_t>(3 * (steps + 1)));
    std::size_t differ = 0;
    for (int k = 0; k <= steps; ++k) {
      if (k > 0) REQUIRE(w.step().ok());
      const std::optional<HistoryFrame> h = f.runner->recorded(k);
      REQUIRE(h.has_value());
      CHECK(h->time == w.time());
      for (int i = 0; i < 3; ++i) {
        const PlotSample& p = f.samples[static_cast<std::size_t>(3 * k + i)];
        if (p.stepIndex != k || p.body != i || p.time != w.time() ||
            !sameBits(p.d, w.diagnostics(i)) ||
            !sameBits(h->states[static_cast<std::size_t>(i)], w.state(i)) ||
            !sameBits(h->diagnostics[static_cast<std::size_t>(i)], w.diagnostics(i))) {
          ++differ;
        }
      }
    }
    CHECK(differ == 0);
    CHECK(sameBits(f.runner->world()->state(2), w.state(2)));
  }
}

TEST_CASE("Runner: a step failing inside a block pauses the run where stepOnce would",
          "[runtime][runner]") {
  // Three leaves, one spun at 707 rad/s, at most 4 Newton iterations and no sub-steps: the
  // 5th step fails, inside the first block of 8.
  const std::string path = test::scenePath("leaves_gusts.json");
  core::WorldDef def = io::loadScene(path);
  def.solver.maxHalvings = 0;
  def.solver.maxIterations = 4;
  def.bodies[1].angularVelocity = Vec3(500.0, 0.0, 500.0);
  core::World w(def);
  int failedAt = 0;
  std::string why;
  while (why.empty() && failedAt < 100) {
    core::StepReport r = w.step();
    ++failedAt;
    if (!r.ok()) why = r.message;
  }
  REQUIRE(!why.empty());
  INFO("fails at step " << failedAt);
  REQUIRE(failedAt > 1);
  REQUIRE(failedAt % 8 != 1);  // not at a block's start
  for (int threads : {1, 2}) {
    INFO(threads << " threads");
    auto fixture = sampledRunner(threads, LoadWorld{def, "spun"});
    test::RunnerFixture& f = *fixture;
    for (int i = 0; i < failedAt / 8 + 3; ++i) f.frame();
    const Snapshot& s = f.snap();
    INFO(s.message);
    REQUIRE(s.status == RunStatus::kFailed);
    CHECK(s.stepIndex == failedAt - 1);
    CHECK_THAT(s.message, Catch::StartsWith("step " + std::to_string(failedAt) + " "));
    CHECK(s.message.find(why) != std::string::npos);
    for (int i = 0; i < w.numBodies(); ++i) {
      CHECK(sameBits(f.runner->world()->state(i), w.state(i)));
    }
    // The initial state's samples and those of every good step, each step recorded.
    CHECK(f.samples.size() == static_cast<std::size_t>(w.numBodies() * failedAt));
    CHECK(f.runner->recorded(failedAt - 1).has_value());
    CHECK_FALSE(f.runner->recorded(failedAt).has_value());
  }
}

namespace {

/// The nice value of every thread of this process (/proc/self/task/TID/stat, field 19).
std::vector<int> threadNiceValues() {
  std::vector<int> out;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    std::ifstream in(task.path() / "stat");
    std::string line;
    std::getline(in, line);
    const std::size_t close = line.rfind(')');  // the name may hold spaces
    if (close == std::string::npos) continue;
    std::istringstream fields(line.substr(close + 1));
    std::string field;
    for (int i = 3; i <= 19 && fields >> field; ++i) {
      if (i == 19) out.push_back(std::stoi(field));
    }
  }
  return out;
}

/// Runs three leaves on two threads through a started runner with `niceness` until past
/// step 20, and returns the threads' nice values seen while it runs.
std::vector<int> niceWhileRunning(int niceness) {
  RunnerOptions o;
  o.threads = 2;
  o.niceness = niceness;
  Runner runner(o);
  runner.post(SetSpeed{1.0, true});  // as fast as possible
  runner.post(LoadScene{test::scenePath("leaves_gusts.json"), {}});
  runner.start();
  for (int i = 0; i < 4000; ++i) {  // ~20 s at most (a sanitizer build on a loaded machine)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    runner.updateSnapshot();
    if (runner.snapshot().stepIndex > 20) break;
  }
  std::vector<int> nice = threadNiceValues();
  runner.stop();
  CHECK(runner.snapshot().stepIndex > 20);
  return nice;
}

}  // namespace

TEST_CASE("Runner: the simulation thread and its pool's workers run at the niceness asked",
          "[runtime][runner][thread]") {
  const int base = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
  const int lowered = std::min(19, base + 3);
  REQUIRE(lowered > base);  // (a test process already at nice 19 could not show it)
  const auto count = [](const std::vector<int>& v, int x) {
    return std::count(v.begin(), v.end(), x);
  };
  // The runner's thread and the pool's worker (3 bodies on 2 threads); this thread keeps
  // its own.
  const std::vector<int> nice = niceWhileRunning(3);
  CHECK(count(nice, lowered) >= 2);
  CHECK(getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())) == base);
  // Default: no thread lowered.
  CHECK(count(niceWhileRunning(0), lowered) == 0);
}
