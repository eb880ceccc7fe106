// "Save scene as" from the viewer's state (issue 7): the runner's "Restart with these
// parameters" (Overrides) and a World built from the saved file step to the same bits; the
// overrides as `--set` edits (one conversion, also for "copy cmd"); a scene that came from
// a mesh file is written out in full. Also run under ThreadSanitizer.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "io/scene.h"
#include "io/scene_writer.h"
#include "runtime/current_scene.h"
#include "runtime/runner.h"
#include "runtime_test_util.h"

using namespace samara;
using namespace samara::runtime;
namespace fs = std::filesystem;
using samara::runtime::test::TempDir;

namespace {

const std::string kScenes = std::string(SAMARA_SOURCE_DIR) + "/assets/scenes/";

bool sameBits(const core::BodyState& a, const core::BodyState& b) {
  auto eq = [](const double* x, const double* y, int n) {
    return std::memcmp(x, y, static_cast<std::size_t>(n) * sizeof(double)) == 0;
  };
  return eq(a.g.q.coeffs().data(), b.g.q.coeffs().data(), 4) && eq(a.g.b.data(), b.g.b.data(), 3) &&
         eq(a.Y.data(), b.Y.data(), 6) && eq(a.mu.data(), b.mu.data(), 6) &&
         eq(a.frame.data(), b.frame.data(), 3);
}

/// Loads `path` (with `sets`) into a paused runner, restarts it with `o`, takes `steps`
/// steps; saves the scene as the viewer does and checks that a World from the saved file
/// takes the same steps to the same bits, and that the file gives Restart's definition.
void checkRestartEqualsSaved(const std::string& path, const io::SetList& sets, const Overrides& o,
                             int steps) {
  RunnerOptions options;
  options.clock = std::make_shared<ManualClock>();
  options.startPaused = true;
  Runner runner(options);
  runner.post(LoadScene{path, sets});
  runner.post(Restart{o});
  runner.post(Step{steps});
  runner.tick();
  runner.updateSnapshot();
  const Snapshot& s = runner.snapshot();
  REQUIRE(s.message.empty());
  REQUIRE(s.stepIndex == steps);
  CHECK(s.sceneSets == sets);
  CHECK(s.sceneFromFile);

  TempDir dir;
  const std::string dest = dir.file("saved.json");
  const CurrentScene scene{s.scenePath, s.sceneSets, o};
  saveCurrentScene(scene, dest);
  const core::WorldDef saved = io::loadScene(dest);
  CHECK(io::definitionDifference(saved, loadCurrentScene(scene)) == "");
  core::World world = io::makeWorld(saved, dest);
  for (int k = 0; k < steps; ++k) REQUIRE(world.step().ok());
  const core::World* restarted = runner.world();
  REQUIRE(restarted != nullptr);
  REQUIRE(world.numBodies() == restarted->numBodies());
  for (int i = 0; i < world.numBodies(); ++i) {
    INFO("body " << i);
    CHECK(sameBits(world.state(i), restarted->state(i)));
  }
}

}  // namespace

TEST_CASE("Save scene as: the runner's restart with overrides equals the saved file's run",
          "[runtime][save]") {
  SECTION("every slider on a card, loaded with a --set of its own") {
    Overrides o;
    o.fluidDensity = 3.5;
    o.wind = Vec3(0.7, -0.0, -1.1);
    o.dt = 0.0015;
    o.delta = {std::optional<double>(0.006)};
    checkRestartEqualsSaved(kScenes + "falling_plate.json", {{"bodies.0.position", "[0, 3, 0]"}}, o,
                            150);
  }
  SECTION("models and δ per body, auto δ back, a xie-miyata body (its seed written)") {
    Overrides o;
    o.fluidDensity = 1.2;
    o.wind = Vec3(0.3, 0.0, 0.0);
    o.dt = 0.002;
    o.delta = {std::optional<double>(std::nullopt), std::nullopt, std::nullopt, std::nullopt,
               std::optional<double>(0.002)};
    o.model = {std::nullopt, std::string("xie-miyata"), std::nullopt, std::string("vacuum"),
               std::string("gwtf-2024")};
    checkRestartEqualsSaved(kScenes + "compare_models.json", {}, o, 80);
  }
  SECTION("leaves in gusts, OBJ meshes in another directory") {
    Overrides o;
    o.wind = Vec3(0.0, 0.0, 3.0);
    checkRestartEqualsSaved(kScenes + "leaves_gusts.json", {}, o, 40);
  }
  SECTION("a scene made around a mesh file (no JSON source)") {
    Overrides o;
    o.fluidDensity = 1.0;
    o.dt = 0.003;
    o.delta = {std::optional<double>(0.01)};
    o.model = {std::string("mujoco-inertia")};
    checkRestartEqualsSaved(std::string(SAMARA_SOURCE_DIR) + "/tests/data/anim/fins.obj", {}, o,
                            60);
  }
}

TEST_CASE("Overrides as --set edits: one conversion for copy cmd and Save scene as",
          "[runtime][save]") {
  Overrides o;
  o.fluidDensity = 0.1;
  o.wind = Vec3(1.0, -0.0, 2.5);
  o.dt = 0.002;
  o.delta = {std::nullopt, std::optional<double>(std::nullopt), std::optional<double>(0.25)};
  o.model = {std::string("vacuum")};
  const io::SetList expected = {{"/fluid/density", "0.1"},   {"/fluid/wind", "[1,-0.0,2.5]"},
                                {"/sim/dt", "0.002"},        {"/bodies/0/model", "vacuum"},
                                {"/bodies/1/delta", "auto"}, {"/bodies/2/delta", "0.25"}};
  CHECK(overrideSets(o) == expected);
  const CurrentScene scene{"scenes/my scene.json", {{"name", "x"}}, o};
  CHECK(runCommandLine(scene) ==
        "samara run 'scenes/my scene.json' --set name=x --set /fluid/density=0.1 "
        "--set '/fluid/wind=[1,-0.0,2.5]' --set /sim/dt=0.002 --set /bodies/0/model=vacuum "
        "--set /bodies/1/delta=auto --set /bodies/2/delta=0.25");
  CHECK(runCommandLine(CurrentScene{"mesh.obj", {}, o}).find("save this scene first") !=
        std::string::npos);
}
