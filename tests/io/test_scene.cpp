// Scene files: the schema (defaults, primitives, mass modes, orientation, δ), --set edits,
// and every error naming the file and the field.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/world.h"
#include "io/error.h"
#include "io/scene.h"
#include "io_test_util.h"

using namespace samara::core;
using namespace samara::io;
using namespace samara::io::test;

namespace {

const std::string kDataDir = sourcePath("tests/data/scenes");

WorldDef scene(const std::string& text, const SetList& sets = {},
               const samara::io::SceneLimits& limits = {}) {
  return samara::io::parseScene(text, "test.json", kDataDir, sets, limits);
}

/// A one-body scene: a body of total mass 1 whose mesh object has the members `mesh`.
std::string meshScene(const std::string& mesh) {
  return R"({"bodies": [{"mesh": {)" + mesh + R"(}, "mass": {"total": 1}}]})";
}

/// A one-body scene with `body` spliced into the body object and `top` into the root.
std::string oneBody(const std::string& body = "", const std::string& top = "") {
  return "{" + top + (top.empty() ? "" : ",") +
         R"("bodies": [{"mesh": {"primitive": "sphere", "radius": 0.1}, "mass": {"density": 500})" +
         (body.empty() ? "" : ",") + body + "}]}";
}

Error sceneError(const std::string& text, const SetList& sets = {}) {
  return errorOf([&] { scene(text, sets); });
}

}  // namespace

TEST_CASE("the shipped scenes load and build a World", "[io][scene]") {
  for (const char* name : {"falling_plate", "sinking_sphere", "box_on_floor"}) {
    const std::string path = sourcePath("assets/scenes/" + std::string(name) + ".json");
    INFO(path);
    WorldDef def = samara::io::loadScene(path);
    CHECK(def.name == name);
    CHECK(def.bodies.size() == 1);
    const samara::core::World world = samara::io::makeWorld(std::move(def), path);
    CHECK(world.info(0).mass > 0.0);
  }
}

TEST_CASE("a scene's lesson is read and checked", "[io][scene][lesson]") {
  const std::string top = R"("lesson": {"title": "Sinking", "text": "One paragraph."})";
  // loadScene accepts the key (the world is not affected); loadLesson reads it.
  CHECK(scene(oneBody("", top)).bodies.size() == 1);
  const std::optional<samara::io::Lesson> l = samara::io::parseLesson(oneBody("", top), "t.json");
  REQUIRE(l);
  CHECK(l->title == "Sinking");
  CHECK(l->text == "One paragraph.");
  CHECK_FALSE(samara::io::parseLesson(oneBody(), "t.json"));
  CHECK(sceneError(oneBody("", R"("lesson": {"title": "x"})")).field() == "/lesson/text");
  CHECK(sceneError(oneBody("", R"("lesson": {"title": 3, "text": ""})")).field() ==
        "/lesson/title");
  CHECK(sceneError(oneBody("", R"("lesson": {"title": "", "text": "", "x": 1})")).field() ==
        "/lesson");  // unknown key named in the message
}

TEST_CASE("every lesson in assets/lessons has a title and a text and builds a World",
          "[io][scene][lesson]") {
  for (const char* name : {"plate_normal_tangential", "sphere_added_mass", "leaf_flutter",
                           "maple_seed_autorotation", "coin_in_water", "swimming_eel"}) {
    const std::string path = sourcePath("assets/lessons/" + std::string(name) + ".json");
    INFO(path);
    const std::optional<samara::io::Lesson> l = samara::io::loadLesson(path);
    REQUIRE(l);
    CHECK(l->title.size() > 5);
    CHECK(l->text.size() > 200);
    const samara::core::World world = samara::io::makeWorld(samara::io::loadScene(path), path);
    CHECK(world.numBodies() >= 1);
  }
}

TEST_CASE("a minimal scene gets the documented defaults", "[io][scene]") {
  const WorldDef def = scene(oneBody());
  CHECK(def.name == "test");  // the file's stem
  CHECK(def.gravity == samara::Vec3(0, -9.81, 0));
  CHECK(def.fluid.density == 1.225);
  CHECK(!def.fluid.water);
  CHECK(!def.floor);
  CHECK(def.dt == 0.005);
  CHECK(def.duration == 10.0);
  REQUIRE(def.bodies.size() == 1);
  const auto& b = def.bodies[0];
  CHECK(b.name == "body0");
  CHECK(b.mesh.numFaces() == 1280);  // 3 subdivisions
  CHECK(b.mass.mode == MassMode::kDensity);
  CHECK(b.mass.density == 500);
  CHECK(b.position.isZero());
  CHECK(b.orientation.w() == 1.0);
  CHECK(!b.delta);
}

TEST_CASE("every field of the schema is read", "[io][scene]") {
  const WorldDef def = scene(R"({
    // comments are allowed
    "name": "all", "gravity": [0, -1.62, 0],
    "fluid": {"density": 1.2, "wind": [1, 0, 0], "water": {"level": -0.5, "density": 1025}},
    "floor": {"height": -1, "frequency_hz": 30, "damping_ratio": 0.7, "friction": 0.3},
    "sim": {"dt": 0.001, "duration": 2, "tolerance": 1e-9, "max_iterations": 40,
            "max_halvings": 3},
    /* block comment */
    "bodies": [
      {"name": "a", "mesh": {"primitive": "ellipsoid", "radii": [1, 2, 3], "subdivisions": 1},
       "mass": {"density": 2, "thickness": 0.1},
       "point_masses": [{"position": [0, 1, 0], "mass": 0.5}],
       "position": [1, 2, 3], "orientation": [2, 0, 0, 0],
       "velocity": [0, 0, 1], "angular_velocity": [0, 3, 0], "delta": 0.25},
      {"name": "b", "mesh": {"primitive": "box", "size": [1, 2, 3], "cells": 2},
       "mass": {"total": 3}, "orientation": {"axis": [0, 0, 2], "angle_deg": 90}, "delta": 0},
      {"name": "c", "mesh": {"primitive": "cylinder", "radius": 0.1, "length": 1, "segments": 8,
                             "rings": 2},
       "mass": {"total": 3, "lumped": true}},
      {"name": "d", "mesh": {"primitive": "disk", "radius": 0.1, "thickness": 0.01, "segments": 6},
       "mass": {"total": 3, "thickness": 0.01}},
      {"name": "e", "mesh": {"primitive": "plate", "size": [0.2, 0.1], "segments": [4, 2]},
       "mass": {"density": 700, "thickness": 0.0002}},
      {"name": "f", "mesh": "../meshes/cube_quads.obj", "mass": {"total": 1, "lumped": false}}
    ]})");
  CHECK(def.name == "all");
  CHECK(def.gravity.y() == -1.62);
  CHECK(def.fluid.density == 1.2);
  CHECK(def.fluid.wind.x() == 1);
  REQUIRE(def.fluid.water);
  CHECK(def.fluid.water->level == -0.5);
  CHECK(def.fluid.water->density == 1025);
  REQUIRE(def.floor);
  CHECK(def.floor->height == -1);
  CHECK(def.floor->frequencyHz == 30);
  CHECK(def.floor->dampingRatio == 0.7);
  CHECK(def.floor->friction == 0.3);
  CHECK(def.dt == 0.001);
  CHECK(def.duration == 2);
  CHECK(def.solver.tolerance == 1e-9);
  CHECK(def.solver.maxIterations == 40);
  CHECK(def.solver.maxHalvings == 3);
  REQUIRE(def.bodies.size() == 6);
  const auto& a = def.bodies[0];
  CHECK(a.mesh.numFaces() == 80);
  CHECK(a.mass.mode == MassMode::kDensity);
  CHECK(a.mass.thickness == 0.1);
  REQUIRE(a.pointMasses.size() == 1);
  CHECK(a.pointMasses[0].mass == 0.5);
  CHECK(a.position == samara::Vec3(1, 2, 3));
  CHECK(a.orientation.w() == 1.0);  // normalised
  CHECK(a.velocity.z() == 1);
  CHECK(a.angularVelocity.y() == 3);
  REQUIRE(a.delta);
  CHECK(*a.delta == 0.25);
  const auto& b = def.bodies[1];
  CHECK(b.mesh.numFaces() == 48);
  CHECK(b.mass.mode == MassMode::kTotal);
  CHECK(b.mass.total == 3);
  CHECK(b.orientation.w() == Approx(std::sqrt(0.5)));
  CHECK(b.orientation.z() == Approx(std::sqrt(0.5)));
  REQUIRE(b.delta);
  CHECK(*b.delta == 0.0);
  CHECK(def.bodies[2].mass.mode == MassMode::kLumped);
  CHECK(def.bodies[3].mass.thickness == 0.01);
  CHECK(def.bodies[4].mesh.numFaces() == 16);
  CHECK(def.bodies[5].mesh.numFaces() == 12);
  CHECK(def.bodies[5].mass.mode == MassMode::kTotal);
}

TEST_CASE("mesh paths are relative to the scene file", "[io][scene]") {
  WorldDef def = samara::io::loadScene(kDataDir + "/obj_body.json");
  REQUIRE(def.bodies.size() == 1);
  CHECK(def.bodies[0].mesh.numFaces() == 12);
  const samara::core::World world = samara::io::makeWorld(std::move(def), "obj_body.json");
  CHECK(world.info(0).mass == Approx(0.5));
  CHECK(world.info(0).volume == Approx(1.0));
}

TEST_CASE("set options edit the scene before it is read", "[io][scene][set]") {
  SECTION("dotted path and JSON pointer") {
    const WorldDef def = scene(oneBody("", R"("fluid": {"density": 1.2})"),
                               {{"fluid.density", "998"}, {"/bodies/0/position", "[0, 5, 0]"}});
    CHECK(def.fluid.density == 998);
    CHECK(def.bodies[0].position.y() == 5);
  }
  SECTION("a new key in an existing object; bare strings") {
    const WorldDef def =
        scene(oneBody(R"("delta": 0.1)"), {{"bodies.0.delta", "auto"}, {"bodies.0.name", "ball"}});
    CHECK(!def.bodies[0].delta);
    CHECK(def.bodies[0].name == "ball");
  }
  SECTION("later sets win") {
    const WorldDef def = scene(oneBody(), {{"bodies.0.delta", "0.5"}, {"bodies.0.delta", "0"}});
    REQUIRE(def.bodies[0].delta);
    CHECK(*def.bodies[0].delta == 0.0);
  }
  SECTION("the parent must exist") {
    const Error e = sceneError(oneBody(), {{"sim.dt", "0.001"}});
    CHECK_THAT(e.what(), Catch::Contains("--set sim.dt=0.001"));
    CHECK_THAT(e.what(), Catch::Contains("/sim does not exist"));
  }
  SECTION("array index out of range") {
    const Error e = sceneError(oneBody(), {{"bodies.3.delta", "0"}});
    CHECK_THAT(e.what(), Catch::Contains("/bodies/3 does not exist"));
  }
  SECTION("a misspelt key is an unknown key, noted as set on the command line") {
    const Error e = sceneError(oneBody(), {{"bodies.0.dleta", "0"}});
    CHECK(e.field() == "/bodies/0");
    CHECK_THAT(e.what(), Catch::Contains("unknown key \"dleta\""));
    CHECK_THAT(e.what(), Catch::Contains("did you mean \"delta\""));
  }
  SECTION("a bad value names the field and the --set") {
    const Error e = sceneError(oneBody(), {{"bodies.0.mass.density", "-3"}});
    CHECK(e.field() == "/bodies/0/mass/density");
    CHECK_THAT(e.what(), Catch::Contains("(set by --set bodies.0.mass.density=-3)"));
  }
  SECTION("a malformed pointer") {
    const Error e = sceneError(oneBody(), {{"/bodies/~2", "0"}});
    CHECK_THAT(e.what(), Catch::Contains("bad JSON pointer"));
  }
}

TEST_CASE("scene errors name the file and the field", "[io][scene][errors]") {
  struct Case {
    const char* what;
    std::string text;
    const char* field;
    const char* message;
  };
  const Case cases[] = {
      {"unknown key", oneBody(R"("velocty": [0, 0, 0])"), "/bodies/0",
       "unknown key \"velocty\" (did you mean \"velocity\"?)"},
      {"unknown top-level key", oneBody("", R"("gravty": [0, 0, 0])"), "/",
       "allowed keys: name, gravity"},
      {"wrong type", oneBody("", R"("fluid": {"density": [1]})"), "/fluid/density",
       "expected a number, got an array"},
      {"NaN as a string", oneBody("", R"("fluid": {"density": "NaN"})"), "/fluid/density",
       "expected a number, got the string \"NaN\""},
      {"negative density", oneBody().replace(oneBody().find("500"), 3, "-3"),
       "/bodies/0/mass/density", "must be > 0 (got -3)"},
      {"dt = 0", oneBody("", R"("sim": {"dt": 0})"), "/sim/dt", "must be > 0 (got 0)"},
      {"dt < 0", oneBody("", R"("sim": {"dt": -0.1})"), "/sim/dt", "must be > 0"},
      {"duration < 0", oneBody("", R"("sim": {"duration": -1})"), "/sim/duration", "must be >= 0"},
      {"tolerance >= 1", oneBody("", R"("sim": {"tolerance": 2})"), "/sim/tolerance", "< 1"},
      {"max_iterations", oneBody("", R"("sim": {"max_iterations": 0.5})"), "/sim/max_iterations",
       "integer"},
      {"no bodies", R"({"bodies": []})", "/bodies", "at least one body"},
      {"no bodies key", R"({"name": "x"})", "/bodies", "missing required field"},
      {"root not an object", "[1, 2]", "/", "expected an object"},
      {"duplicate names",
       R"({"bodies": [{"name": "a", "mesh": {"primitive": "sphere", "radius": 1}, "mass": {"total": 1}},
                      {"name": "a", "mesh": {"primitive": "sphere", "radius": 1}, "mass": {"total": 1}}]})",
       "/bodies/1/name", "duplicate body name"},
      {"duplicate key", R"({"bodies": [{"mass": {"total": 1}, "mass": {"total": 2}}]})",
       "/bodies/0", "duplicate key \"mass\""},
      {"radius 0", meshScene(R"("primitive": "sphere", "radius": 0)"), "/bodies/0/mesh/radius",
       "must be > 0"},
      {"unknown primitive", meshScene(R"("primitive": "torus")"), "/bodies/0/mesh/primitive",
       "unknown primitive \"torus\""},
      {"subdivisions > 7", meshScene(R"("primitive": "sphere", "radius": 1, "subdivisions": 8)"),
       "/bodies/0/mesh/subdivisions", "[0, 7]"},
      {"segments > 4096",
       meshScene(R"("primitive": "disk", "radius": 1, "thickness": 0.1, "segments": 5000)"),
       "/bodies/0/mesh/segments", "[3, 4096]"},
      {"cells > 1024", meshScene(R"("primitive": "plate", "size": [1, 1], "segments": [2, 2000])"),
       "/bodies/0/mesh/segments/1", "[1, 1024]"},
      {"cells = 0", meshScene(R"("primitive": "box", "size": [1, 1, 1], "cells": 0)"),
       "/bodies/0/mesh/cells", "must be an integer in [1, 1024] (got 0)"},
      {"segments = 2",
       meshScene(R"("primitive": "cylinder", "radius": 1, "length": 1, "segments": 2)"),
       "/bodies/0/mesh/segments", "[3, 4096]"},
      {"missing mesh file", R"({"bodies": [{"mesh": "nope.obj", "mass": {"total": 1}}]})",
       "/bodies/0/mesh", "mesh file \"nope.obj\" not found"},
      {"density and total", oneBody().replace(oneBody().find("500"), 3, R"(1, "total": 2)"),
       "/bodies/0/mass", "not both"},
      {"lumped with density", oneBody().replace(oneBody().find("500"), 3, R"(1, "lumped": true)"),
       "/bodies/0/mass/lumped", "needs \"total\""},
      {"zero quaternion", oneBody(R"("orientation": [0, 0, 0, 0])"), "/bodies/0/orientation",
       "non-zero"},
      {"zero axis", oneBody(R"("orientation": {"axis": [0, 0, 0], "angle_deg": 5})"),
       "/bodies/0/orientation/axis", "non-zero"},
      {"vector of 2", oneBody(R"("position": [0, 0])"), "/bodies/0/position",
       "expected an array of 3 elements, got 2"},
      {"delta word", oneBody(R"("delta": "big")"), "/bodies/0/delta", "\"auto\" or a number"},
      {"negative delta", oneBody(R"("delta": -1)"), "/bodies/0/delta", "must be >= 0"},
      {"negative point mass", oneBody(R"("point_masses": [{"position": [0, 0, 0], "mass": -1}])"),
       "/bodies/0/point_masses/0/mass", "must be > 0"},
      {"negative water density", oneBody("", R"("fluid": {"water": {"density": -1}})"),
       "/fluid/water/density", "must be >= 0"},
      {"control character in a name", oneBody(R"("name": "a\nb")"), "/bodies/0/name",
       "control characters"},
  };
  for (const Case& c : cases) {
    INFO(c.what << ": " << c.text);
    const Error e = sceneError(c.text);
    CHECK(e.path() == "test.json");
    CHECK(e.field() == c.field);
    CHECK_THAT(e.what(), Catch::StartsWith(std::string("test.json: ") + c.field + ": "));
    CHECK_THAT(e.what(), Catch::Contains(c.message));
  }
}

TEST_CASE("syntax errors name the line and column", "[io][scene][errors]") {
  const Error e = sceneError("{\n  \"name\": \"x\",\n  \"bodies\": [,]\n}");
  CHECK(e.line() == 3);
  CHECK(e.column() > 0);
  CHECK_THAT(e.what(), Catch::StartsWith("test.json:3:"));
  const Error trailing = sceneError(oneBody() + " x");
  CHECK(trailing.line() == 1);
  const Error overflow = sceneError("{\n\"fluid\": {\"density\": 1e999}}");
  CHECK(overflow.line() == 2);
  CHECK_THAT(overflow.what(), Catch::Contains("overflow"));
  const Error empty = sceneError("");
  CHECK_THAT(empty.what(), Catch::StartsWith("test.json:1:"));
}

TEST_CASE("nesting and size limits", "[io][scene][errors]") {
  const Error deep = sceneError(std::string(100, '[') + std::string(100, ']'));
  CHECK_THAT(deep.what(), Catch::Contains("nested deeper than 64"));
  samara::io::SceneLimits limits;
  limits.maxFaces = 1000;
  const Error faces = errorOf([&] { scene(oneBody(), {}, limits); });
  CHECK(faces.field() == "/bodies/0/mesh");
  CHECK_THAT(faces.what(), Catch::Contains("too many faces"));
}

TEST_CASE("mesh errors inside a scene name the OBJ line and the scene field",
          "[io][scene][errors]") {
  const Error e = errorOf([] { samara::io::loadScene(kDataDir + "/nonmanifold_body.json"); });
  CHECK(e.line() == 10);
  CHECK_THAT(e.what(), Catch::Contains("nonmanifold.obj:10: "));
  CHECK_THAT(e.what(),
             Catch::Contains("(used by " + kDataDir + "/nonmanifold_body.json: /bodies/0/mesh)"));
}

TEST_CASE("core definition errors become io errors naming the scene field", "[io][scene][errors]") {
  // A sheet with a volume density and no thickness passes the schema; the core rejects it.
  WorldDef def = scene(R"({"bodies": [{"mesh": {"primitive": "plate", "size": [1, 1]},
                                        "mass": {"density": 700}}]})");
  const Error e = errorOf([&] { (void)samara::io::makeWorld(std::move(def), "test.json"); });
  CHECK(e.field() == "/bodies/0/mass/thickness");
  CHECK_THAT(e.what(), Catch::StartsWith("test.json: /bodies/0/mass/thickness: "));
}

TEST_CASE("core field names map to scene pointers", "[io][scene]") {
  using samara::io::definitionFieldToPointer;
  CHECK(definitionFieldToPointer("/bodies/0/pointMasses/1/mass") ==
        "/bodies/0/point_masses/1/mass");
  CHECK(definitionFieldToPointer("/dt") == "/sim/dt");
  CHECK(definitionFieldToPointer("/solver/maxIterations") == "/sim/max_iterations");
  CHECK(definitionFieldToPointer("/floor/frequencyHz") == "/floor/frequency_hz");
  CHECK(definitionFieldToPointer("/sim/dt") == "/sim/dt");
}
