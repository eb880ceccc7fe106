// "Save scene as" (issue 7): a saved scene with edits reads back as the source with the same
// `--set` edits, field by field (io::definitionDifference), and runs to the same bits (the
// CSV of `samara run`, byte for byte); relative file paths resolve from the new directory;
// seeds are written out; a destination that cannot be written is an io::Error naming it and
// leaves no file.

#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "core/world.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/obj.h"
#include "io/scene.h"
#include "io/scene_writer.h"
#include "io_test_util.h"

namespace fs = std::filesystem;
using namespace samara;
using namespace samara::core;
using namespace samara::io;
using namespace samara::io::test;

namespace {

const std::string kScenes = sourcePath("assets/scenes/");
const std::string kAnim = sourcePath("tests/data/anim/");

/// The CSV `samara run` writes for `def`, `steps` steps (every step).
std::string runCsv(WorldDef def, int steps) {
  World world = samara::io::makeWorld(std::move(def), "scene");
  std::ostringstream out;
  {
    samara::io::CsvWriter csv(out);
    csv.writeHeader();
    csv.writeSample(world);
    for (int k = 0; k < steps; ++k) {
      const samara::core::StepReport report = world.step();
      INFO(report.message);
      REQUIRE(report.ok());
      csv.writeSample(world);
    }
  }
  return out.str();
}

/// Saves `source` with `sets` into a directory of its own and checks the round trip.
void checkRoundTrip(const std::string& source, const SetList& sets, int steps) {
  TempDir dir("save");
  const std::string dest = dir.file("nested/saved.json");
  fs::create_directories(dir.path() / "nested");
  samara::io::saveSceneAs(source, sets, dest);
  const WorldDef expected = samara::io::loadScene(source, sets);
  const WorldDef saved = samara::io::loadScene(dest);
  CHECK(samara::io::definitionDifference(saved, expected) == "");
  CHECK(runCsv(saved, steps) == runCsv(expected, steps));
  // Nothing but the file itself is left in the directory (no temporary).
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir.path() / "nested")) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 1);
}

}  // namespace

TEST_CASE("Save scene as: edits, then load and run give the source's bits", "[io][save]") {
  SECTION("a card with every slider edit") {
    checkRoundTrip(kScenes + "falling_plate.json",
                   {{"/fluid/density", "998"},
                    {"/fluid/wind", "[0.5,-0.0,1.25]"},
                    {"/sim/dt", "0.0025"},
                    {"/bodies/0/delta", "0.004"},
                    {"bodies.0.model", "mujoco-ellipsoid"}},
                   120);
  }
  SECTION("leaves from OBJ files in gusts (mesh paths, gust seed)") {
    checkRoundTrip(kScenes + "leaves_gusts.json", {{"/bodies/1/delta", "auto"}}, 60);
  }
  SECTION("five models, one of them xie-miyata (its seed)") {
    checkRoundTrip(kScenes + "compare_models.json", {{"/bodies/0/model", "xie-miyata"}}, 60);
  }
  SECTION("hinged parts from OBJ groups (turtle)") {
    checkRoundTrip(kScenes + "turtle.json", {{"/fluid/density", "1000"}}, 20);
  }
  SECTION("a glTF skin (sea snake)") { checkRoundTrip(kScenes + "sea_snake.json", {}, 20); }
}

TEST_CASE("Save scene as: the written file", "[io][save]") {
  TempDir dir("save");
  const std::string source = kScenes + "compare_models.json";
  const std::string dest = dir.file("tuned.json");
  samara::io::saveSceneAs(source, {{"/sim/dt", "0.001"}}, dest);
  const std::string text = readText(dest);
  SECTION("a header naming the source, and no date: the same input gives the same bytes") {
    CHECK(text.rfind("// saved by samara from " + source + "\n", 0) == 0);
    const std::string again = dir.file("again.json");
    samara::io::saveSceneAs(source, {{"/sim/dt", "0.001"}}, again);
    CHECK(readText(again) == text);
  }
  SECTION("the edit, the name and every seed are written out") {
    CHECK(text.find("\"dt\": 0.001") != std::string::npos);
    CHECK(text.find("\"name\": \"compare_models\"") != std::string::npos);
    CHECK(text.find("\"seed\"") != std::string::npos);  // the xie-miyata body
    CHECK(samara::io::loadScene(dest).name == "compare_models");
  }
  SECTION("gust seeds too, and a model given by name becomes an object with a seed") {
    const std::string gusts = dir.file("gusts.json");
    writeText(dir.file("src.json"), R"({"fluid": {"gusts": {"amplitude": 0.3}},
      "bodies": [{"mesh": {"primitive": "sphere", "radius": 0.05}, "mass": {"density": 50},
                  "model": "xie-miyata"}]})");
    samara::io::saveSceneAs(dir.file("src.json"), {}, gusts);
    const std::string t = readText(gusts);
    CHECK(t.find("\"gusts\": {\"amplitude\": 0.3, \"seed\": 1}") != std::string::npos);
    CHECK(t.find("\"model\": {\"type\": \"xie-miyata\", \"seed\": 1}") != std::string::npos);
    CHECK(samara::io::loadScene(gusts).name == "src");
  }
  SECTION("a missing parent object of an edit is created") {
    writeText(dir.file("bare.json"),
              R"({"bodies": [{"mesh": {"primitive": "sphere", "radius": 0.05},
                              "mass": {"density": 50}}]})");
    samara::io::saveSceneAs(dir.file("bare.json"), {{"/sim/dt", "0.002"}}, dir.file("b2.json"));
    CHECK(samara::io::loadScene(dir.file("b2.json")).dt == 0.002);
  }
}

TEST_CASE("Save scene as: relative paths resolve from the destination", "[io][save]") {
  // The source in a directory whose name holds '%' with an OBJ sequence (a printf pattern),
  // a glTF skin, and a parts animation with a bones file, all by relative paths.
  TempDir root("save");
  const fs::path src = root.path() / "src%dir";
  fs::create_directories(src / "meshes");
  for (const char* f : {"tet_0001.obj", "tet_0002.obj", "tet_0003.obj", "tet_0004.obj", "fins.obj",
                        "fins.bones", "skin.gltf"}) {
    fs::copy_file(kAnim + f, src / "meshes" / f);
  }
  writeText((src / "scene.json").string(), R"({
    // a comment: allowed in the source, dropped in the copy
    "name": "paths",
    "sim": {"dt": 0.01},
    "bodies": [
      {"name": "tet", "mass": {"density": 300}, "position": [0, 2, 0],
       "animation": {"type": "sequence", "files": "meshes/tet_%04d.obj", "count": 4, "fps": 4}},
      {"name": "tet2", "mass": {"density": 300}, "position": [1, 2, 0],
       "animation": {"type": "sequence", "files": ["meshes/tet_0001.obj", "./meshes/tet_0003.obj"]}},
      {"name": "fins", "mesh": "meshes/fins.obj", "mass": {"density": 300}, "position": [2, 2, 0],
       "animation": {"type": "parts", "bones_file": "meshes/fins.bones",
                     "parts": [{"name": "a", "bone": 1, "axis": [0, 0, 1], "spin_hz": 1}]}},
      {"name": "skin", "mass": {"density": 300}, "position": [3, 2, 0],
       "animation": {"type": "gltf", "file": "meshes/skin.gltf"}}
    ]})");
  const std::string source = (src / "scene.json").string();
  SECTION("into a sibling directory, deeper") {
    fs::create_directories(root.path() / "out" / "deep");
    const std::string dest = (root.path() / "out" / "deep" / "saved.json").string();
    samara::io::saveSceneAs(source, {{"/bodies/0/animation/fps", "8"}}, dest);
    const std::string text = readText(dest);
    CHECK(text.find("\"../../src%%dir/meshes/tet_%04d.obj\"") != std::string::npos);
    CHECK(text.find("\"../../src%dir/meshes/tet_0003.obj\"") != std::string::npos);
    CHECK(text.find("\"../../src%dir/meshes/fins.bones\"") != std::string::npos);
    CHECK(text.find("\"../../src%dir/meshes/skin.gltf\"") != std::string::npos);
    const std::string body = text.substr(text.find('\n'));        // after the header line
    CHECK(body.find(root.path().string()) == std::string::npos);  // relative, not absolute
    CHECK(text.find("a comment") == std::string::npos);
    const WorldDef expected = samara::io::loadScene(source, {{"/bodies/0/animation/fps", "8"}});
    CHECK(samara::io::definitionDifference(samara::io::loadScene(dest), expected) == "");
    CHECK(runCsv(samara::io::loadScene(dest), 30) == runCsv(expected, 30));
  }
  SECTION("into the same directory the paths stay as written") {
    const std::string dest = (src / "copy.json").string();
    samara::io::saveSceneAs(source, {}, dest);
    CHECK(readText(dest).find("\"meshes/tet_%04d.obj\"") != std::string::npos);
    CHECK(samara::io::definitionDifference(samara::io::loadScene(dest),
                                           samara::io::loadScene(source)) == "");
  }
  SECTION("into a subdirectory of the source's (a leading .. cancels)") {
    const std::string dest = (src / "meshes" / "inside.json").string();
    samara::io::saveSceneAs(source, {}, dest);
    const std::string text = readText(dest);
    INFO(text);
    CHECK(text.find("\"tet_%04d.obj\"") != std::string::npos);
    CHECK(text.find("\"fins.obj\"") != std::string::npos);
    CHECK(samara::io::definitionDifference(samara::io::loadScene(dest),
                                           samara::io::loadScene(source)) == "");
  }
}

TEST_CASE("Save scene as: a destination that cannot be written", "[io][save]") {
  TempDir dir("save");
  const std::string source = kScenes + "falling_plate.json";
  SECTION("a missing directory: an error naming it, no file") {
    const std::string dest = dir.file("no/such/dir/x.json");
    const Error e = errorOf([&] { samara::io::saveSceneAs(source, {}, dest); });
    CHECK(e.path() == dest);
    CHECK(std::string(e.what()).find("does the directory exist") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.path() / "no"));
  }
  SECTION("a directory") {
    fs::create_directories(dir.path() / "d.json");
    const Error e = errorOf([&] { samara::io::saveSceneAs(source, {}, dir.file("d.json")); });
    CHECK(e.path() == dir.file("d.json"));
  }
  SECTION("an edit that makes the scene invalid: nothing written, an existing file kept") {
    const std::string dest = dir.file("keep.json");
    writeText(dest, "old");
    const Error e = errorOf([&] {
      samara::io::saveSceneAs(source, {{"/fluid/density", "-1"}}, dest);
    });
    CHECK(e.field() == "/fluid/density");
    CHECK(readText(dest) == "old");
    int entries = 0;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      (void)entry;
      ++entries;
    }
    CHECK(entries == 1);  // no temporary left
  }
  SECTION("a bad source names the source") {
    const Error e =
        errorOf([&] { samara::io::saveSceneAs(dir.file("none.json"), {}, dir.file("x.json")); });
    CHECK(e.path() == dir.file("none.json"));
    CHECK_FALSE(fs::exists(dir.file("x.json")));
  }
}

TEST_CASE("Save a definition made around a mesh file", "[io][save]") {
  TempDir dir("save");
  // As runtime::defaultSceneForMesh builds it: a 20° tilt (a quaternion that the reader's
  // normalisation would change: written as an axis and an angle), a floor, paper-like mass.
  const std::string meshPath = kAnim + "fins.obj";
  WorldDef def;
  def.name = "fins";
  def.floor = samara::core::FloorDef{};
  def.dt = 0.002;
  samara::core::BodyDef b;
  b.name = "fins";
  b.mesh = samara::io::loadObj(meshPath);
  b.mass.density = 700.0;
  b.mass.thickness = 0.0002;
  b.orientation = Quat(Eigen::AngleAxisd(20.0 * M_PI / 180.0, Vec3::UnitZ()));
  b.position = Vec3(0.1, 2.0, -0.3);
  def.bodies.push_back(b);
  fs::create_directories(dir.path() / "sub");
  const std::string dest = dir.file("sub/fins_scene.json");
  samara::io::saveDefinitionAs(def, {meshPath}, meshPath, {{"/fluid/density", "2"}}, dest);
  const std::string text = readText(dest);
  CHECK(text.find("\"angle_deg\": 20") != std::string::npos);
  INFO(text);
  CHECK(text.find("\"mesh\": \"../") != std::string::npos);  // relative to the destination
  WorldDef expected = def;
  expected.fluid.density = 2.0;
  const WorldDef saved = samara::io::loadScene(dest);
  CHECK(samara::io::definitionDifference(saved, expected) == "");
  CHECK(runCsv(saved, 50) == runCsv(expected, 50));

  SECTION("what a scene file cannot hold is an error, and nothing is written") {
    WorldDef withGusts = def;
    withGusts.fluid.gusts = std::make_shared<samara::core::UniformWind>(Vec3(1, 0, 0));
    const Error e = errorOf([&] {
      samara::io::saveDefinitionAs(withGusts, {meshPath}, meshPath, {}, dir.file("g.json"));
    });
    CHECK(e.field() == "/fluid/gusts");
    CHECK_FALSE(fs::exists(dir.file("g.json")));
  }
}
