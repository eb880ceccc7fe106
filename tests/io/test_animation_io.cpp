// Animation loaders: OBJ sequences, glTF skins and procedural keyframes evaluated at chosen
// times against hand-computed positions, and every error naming the file and the frame,
// field or glTF element. Data: tests/data/anim (skin.gltf / skin.glb from make_skin.py,
// whose docstring gives the rig).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "core/animation.h"
#include "io/animation_io.h"
#include "io/error.h"
#include "io/gltf_skin.h"
#include "io/obj.h"
#include "io/obj_groups.h"
#include "io_test_util.h"

using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
using namespace samara::geometry;
using namespace samara::io;
using namespace samara::io::test;

namespace {

const std::string kDir = sourcePath("tests/data/anim");
const double kHalf = std::sqrt(0.5);

/// Parses `json` as the animation of body 0 of "scene.json" in tests/data/anim.
LoadedAnimation load(const std::string& json, const TriMesh* mesh = nullptr,
                     const std::string& meshFile = "") {
  AnimationContext ctx;
  ctx.scenePath = "scene.json";
  ctx.baseDir = kDir;
  ctx.mesh = mesh;
  ctx.meshFile = meshFile;
  const samara::io::Json j = samara::io::Json::parse(json);
  return samara::io::parseAnimation(j, "/bodies/0/animation", ctx);
}

Error loadError(const std::string& json, const TriMesh* mesh = nullptr,
                const std::string& meshFile = "") {
  return errorOf([&] { load(json, mesh, meshFile); });
}

VertexMatrix at(const LoadedAnimation& a, double t) {
  VertexMatrix V;
  a.animation->evaluate(t, &V);
  return V;
}

/// Apex height (vertex 3, y) of the tetrahedron sequence at time t.
double apex(const LoadedAnimation& a, double t) { return at(a, t)(3, 1); }

void checkRow(const VertexMatrix& V, int i, double x, double y, double z) {
  INFO("vertex " << i << ": " << V.row(i));
  CHECK(V(i, 0) == Approx(x).margin(1e-12));
  CHECK(V(i, 1) == Approx(y).margin(1e-12));
  CHECK(V(i, 2) == Approx(z).margin(1e-12));
}

/// A sequence of the four tetrahedron frames (apex y = 1, 2, 4, 3) at 2 frames per second.
std::string tetSequence(const std::string& extra) {
  return R"({"type": "sequence", "files": "tet_%04d.obj", "count": 4, "fps": 2,
             "root_motion": "keep")" +
         (extra.empty() ? "" : ", " + extra) + "}";
}

}  // namespace

// --- sequences -----------------------------------------------------------------------------

TEST_CASE("a mesh sequence interpolates linearly and loops", "[io][animation]") {
  const LoadedAnimation a = load(tetSequence(""));
  CHECK(a.mesh.numVertices() == 4);  // frame 0 is the body's mesh
  CHECK(a.mesh.numFaces() == 4);
  CHECK(a.animation->numVertices() == 4);
  CHECK(apex(a, 0.0) == 1.0);
  CHECK(apex(a, 0.25) == Approx(1.5));
  CHECK(apex(a, 1.25) == Approx(3.5));
  CHECK(apex(a, 1.75) == Approx(2.0));  // between the last frame (3) and the first (1)
  CHECK(apex(a, 2.0) == Approx(1.0));
  CHECK(apex(a, -0.25) == Approx(2.0));
  checkRow(at(a, 0.6), 1, 1, 0, 0);  // the other vertices stay
}

TEST_CASE("a mesh sequence holds, ping-pongs, retimes and smooths", "[io][animation]") {
  SECTION("hold") {
    const LoadedAnimation a = load(tetSequence(R"("mode": "hold")"));
    CHECK(apex(a, 1.75) == Approx(3.0));
    CHECK(apex(a, 10.0) == Approx(3.0));
    CHECK(apex(a, -1.0) == Approx(1.0));
  }
  SECTION("pingpong") {
    const LoadedAnimation a = load(tetSequence(R"("mode": "pingpong")"));
    CHECK(apex(a, 1.75) == Approx(3.5));  // u = 3.5 → 2.5 on the way back
    CHECK(apex(a, 2.5) == Approx(2.0));   // u = 5 → 1
    CHECK(apex(a, 3.0) == Approx(1.0));
  }
  SECTION("catmull_rom, looped") {
    // x = ½: weights (−1/16, 9/16, 9/16, −1/16) on frames 3, 0, 1, 2 = 3, 1, 2, 4.
    const LoadedAnimation a = load(tetSequence(R"("interpolation": "catmull_rom")"));
    CHECK(apex(a, 0.25) == Approx(1.25));
    CHECK(apex(a, 0.5) == Approx(2.0));  // passes through the keys
  }
  SECTION("catmull_rom, held") {
    const LoadedAnimation a =
        load(tetSequence(R"("interpolation": "catmull_rom", "mode": "hold")"));
    CHECK(apex(a, 0.75) == Approx(3.125));  // frames 1, 2, 4, 3
  }
  SECTION("time_scale -1 plays backwards, time_offset shifts") {
    CHECK(apex(load(tetSequence(R"("time_scale": -1)")), 0.25) == Approx(2.0));
    CHECK(apex(load(tetSequence(R"("time_offset": 0.5)")), 0.0) == Approx(2.0));
    CHECK(apex(load(tetSequence(R"("fps": 4)")), 0.125) == Approx(1.5));
  }
}

TEST_CASE("a sequence from a list equals the pattern, the body's mesh wins", "[io][animation]") {
  const LoadedAnimation list = load(R"({"type": "sequence", "root_motion": "keep", "fps": 2,
      "files": ["tet_0001.obj", "tet_0002.obj", "tet_0003.obj", "tet_0004.obj"]})");
  const LoadedAnimation pattern = load(tetSequence(""));
  for (double t : {0.0, 0.3, 1.1, 1.9}) CHECK(at(list, t) == at(pattern, t));
  const LoadedAnimation first2 = load(R"({"type": "sequence", "files": "tet_%04d.obj",
      "first": 2, "count": 2, "fps": 1, "root_motion": "keep", "mode": "hold"})");
  CHECK(apex(first2, 0.0) == 2.0);
  CHECK(apex(first2, 1.0) == 4.0);
  const LoadedAnimation repeated = load(R"({"type": "sequence", "fps": 1, "mode": "hold",
      "files": ["tet_0001.obj", "tet_0003.obj", "tet_0001.obj"], "root_motion": "keep"})");
  CHECK(apex(repeated, 1.0) == 4.0);
  CHECK(apex(repeated, 2.0) == 1.0);

  TriMesh body = samara::io::loadObj(kDir + "/tet_0004.obj");
  const LoadedAnimation withMesh = load(tetSequence(""), &body);
  CHECK(withMesh.mesh.V == body.V);
}

TEST_CASE("a sequence removes the root drift by default", "[io][animation]") {
  const LoadedAnimation a =
      load(R"({"type": "sequence", "files": "tet_%04d.obj", "count": 4, "fps": 2})");
  // Apex 1.5 at t = 0.25: the centroid rose by 0.5/4 and is moved back.
  const VertexMatrix V = at(a, 0.25);
  checkRow(V, 3, 0, 1.375, 0);
  checkRow(V, 0, 0, -0.125, 0);
  const LoadedAnimation one = load(R"({"type": "sequence", "files": ["tet_0002.obj"]})");
  CHECK(at(one, 3.7) == one.mesh.V);  // one frame: a rigid body
}

TEST_CASE("sequence errors name the file and the frame", "[io][animation]") {
  SECTION("vertex count") {
    const Error e = loadError(R"({"type": "sequence",
        "files": ["tet_0001.obj", "tet_0002.obj", "tet_pyramid.obj"]})");
    CHECK_THAT(e.path(), EndsWith("tet_pyramid.obj"));
    CHECK_THAT(e.what(), Contains("frame 2: 5 vertices, frame 0 (") &&
                             Contains("tet_0001.obj) has 4") &&
                             Contains("used by scene.json: /bodies/0/animation/files"));
  }
  SECTION("faces") {
    const Error e = loadError(R"({"type": "sequence", "files": ["tet_0001.obj",
        "tet_reordered.obj"]})");
    CHECK_THAT(e.path(), EndsWith("tet_reordered.obj"));
    CHECK_THAT(e.what(),
               Contains("frame 1: triangle 2 is f 1 3 4, frame 0 (") && Contains("has f 1 4 2"));
  }
  SECTION("the body's mesh") {
    const TriMesh body = samara::io::loadObj(kDir + "/tet_pyramid.obj");
    const Error e = loadError(tetSequence(""), &body);
    CHECK_THAT(e.what(), Contains("tet_0001.obj: frame 0: 4 vertices, the body's mesh has 5"));
  }
  SECTION("a missing frame names the expanded path") {
    const Error e = loadError(R"({"type": "sequence", "files": "tet_%04d.obj", "count": 5})");
    CHECK(e.path() == "scene.json");
    CHECK(e.field() == "/bodies/0/animation/files");
    CHECK_THAT(e.what(), Contains("frame 4: file \"tet_0005.obj\" not found (looked for ") &&
                             Contains("anim/tet_0005.obj"));
    const Error l = loadError(R"({"type": "sequence", "files": ["tet_0001.obj", "nope.obj"]})");
    CHECK(l.field() == "/bodies/0/animation/files/1");
  }
  SECTION("NaN coordinates name the file, line and frame") {
    const Error e = loadError(R"({"type": "sequence", "files": ["tet_0001.obj", "tet_nan.obj"]})");
    CHECK_THAT(e.path(), EndsWith("tet_nan.obj"));
    CHECK(e.line() == 4);
    CHECK_THAT(e.what(),
               Contains("not a finite number") && Contains("frame 1; used by scene.json"));
  }
  SECTION("schema") {
    CHECK(loadError(R"({"type": "sequence", "files": "tet_%04d.obj"})").field() ==
          "/bodies/0/animation");  // count missing
    CHECK_THAT(loadError(R"({"type": "sequence", "files": "tet.obj", "count": 2})").what(),
               Contains("/bodies/0/animation/files: \"tet.obj\" has no %d"));
    CHECK_THAT(loadError(R"({"type": "sequence", "files": "t%d_%d.obj", "count": 2})").what(),
               Contains("more than one %d"));
    CHECK(loadError(R"({"type": "sequence", "files": ["tet_0001.obj"], "count": 1})").field() ==
          "/bodies/0/animation/count");
    CHECK(loadError(tetSequence(R"("mode": "bounce")")).field() == "/bodies/0/animation/mode");
    CHECK(loadError(tetSequence(R"("fps": 0)")).field() == "/bodies/0/animation/fps");
    CHECK(loadError(tetSequence(R"("frames": 3)")).field() == "/bodies/0/animation");
    CHECK(loadError(R"({"type": "sequence", "files": []})").field() == "/bodies/0/animation/files");
    CHECK(loadError(R"({"type": "keyframes"})").field() == "/bodies/0/animation/type");
    CHECK(loadError(R"([1])").field() == "/bodies/0/animation");
  }
}

TEST_CASE("frame patterns expand like printf", "[io][animation]") {
  using samara::io::expandFramePattern;
  CHECK(expandFramePattern("eel_%04d.obj", 7) == "eel_0007.obj");
  CHECK(expandFramePattern("eel_%d.obj", 12) == "eel_12.obj");
  CHECK(expandFramePattern("eel_%3d.obj", 7) == "eel_  7.obj");
  CHECK(expandFramePattern("100%%_%02d.obj", 123) == "100%_123.obj");
  CHECK_THROWS_AS(expandFramePattern("eel_%s.obj", 1), std::invalid_argument);
  CHECK_THROWS_AS(expandFramePattern("eel_%", 1), std::invalid_argument);
  CHECK_THROWS_AS(expandFramePattern("eel_%021d", 1), std::invalid_argument);
}

// --- glTF ------------------------------------------------------------------------------------

TEST_CASE("a glTF skin: LINEAR rotation moves full and half weighted vertices",
          "[io][animation][gltf]") {
  const LoadedAnimation a = load(R"({"type": "gltf", "file": "skin.gltf", "animation": "bend",
      "root_motion": "keep", "loop": false})");
  REQUIRE(a.mesh.numVertices() == 4);
  REQUIRE(a.mesh.numFaces() == 4);
  checkRow(a.mesh.V, 1, 2, 0, 0);  // bind pose
  const VertexMatrix V0 = at(a, 0.0);
  checkRow(V0, 1, 2, 0, 0);
  checkRow(V0, 2, 2, 0, 1);
  // t = 1: the tip joint (at x = 1) turned 90° about +z.
  const VertexMatrix V1 = at(a, 1.0);
  checkRow(V1, 0, 0, 0, 0);
  checkRow(V1, 1, 1, 1, 0);
  checkRow(V1, 2, 1.5, 0.5, 1);  // ½ (2, 0, 1) + ½ (1, 1, 1)
  checkRow(V1, 3, 0, 1, 0);
  checkRow(at(a, 7.0), 1, 1, 1, 0);  // held
  // t = ½: slerp to 45°.
  checkRow(at(a, 0.5), 1, 1 + kHalf, kHalf, 0);
  // The default is animation 0 ("bend"), looped.
  const LoadedAnimation looped = load(R"({"type": "gltf", "file": "skin.gltf",
      "root_motion": "keep"})");
  checkRow(at(looped, 1.5), 1, 1 + kHalf, kHalf, 0);
}

TEST_CASE("a glTF skin: STEP and CUBICSPLINE channels, normalized weights, .glb",
          "[io][animation][gltf]") {
  SECTION("STEP translation") {
    const LoadedAnimation a = load(R"({"type": "gltf", "file": "skin.gltf", "animation": 1,
        "root_motion": "keep", "loop": false})");
    checkRow(at(a, 0.5), 1, 2, 0, 0);
    checkRow(at(a, 1.0), 1, 2, 0, 5);
    checkRow(at(a, 1.5), 2, 2, 0, 6);
    checkRow(at(a, 2.5), 3, 0, 1, 7);
  }
  SECTION("CUBICSPLINE scale: 1.75 at t = 1") {
    const LoadedAnimation a = load(R"({"type": "gltf", "file": "skin.gltf", "animation": "grow",
        "root_motion": "keep"})");
    const VertexMatrix V = at(a, 1.0);
    checkRow(V, 1, 3.5, 0, 0);
    checkRow(V, 2, 3.5, 0, 1.75);
    checkRow(V, 3, 0, 1.75, 0);
    checkRow(at(a, 0.0), 3, 0, 1, 0);
  }
  SECTION("normalized UNSIGNED_BYTE weights") {
    const LoadedAnimation a = load(R"({"type": "gltf", "file": "skin.gltf", "mesh": "tet_u8",
        "root_motion": "keep", "loop": false})");
    const double w0 = 128.0 / 255.0;
    const double w1 = 127.0 / 255.0;
    checkRow(at(a, 1.0), 2, 2 * w0 + w1, w1, 1);
  }
  SECTION(".glb gives the same") {
    const std::string opts = R"(, "animation": "bend", "root_motion": "keep"})";
    const LoadedAnimation text = load(R"({"type": "gltf", "file": "skin.gltf")" + opts);
    const LoadedAnimation bin = load(R"({"type": "gltf", "file": "skin.glb")" + opts);
    CHECK(text.mesh.F == bin.mesh.F);
    for (double t : {0.0, 0.3, 0.8}) CHECK(at(text, t) == at(bin, t));
  }
  SECTION("root motion is removed by default") {
    const LoadedAnimation a = load(R"({"type": "gltf", "file": "skin.gltf", "animation": 1})");
    CHECK(dynamic_cast<const samara::core::RootMotionRemoved*>(a.animation.get()) != nullptr);
    checkRow(at(a, 1.5), 1, 2, 0, 0);  // the step up is drift
  }
  SECTION("time_scale") {
    const LoadedAnimation a = load(R"({"type": "gltf", "file": "skin.gltf", "time_scale": 2,
        "root_motion": "keep", "loop": false})");
    checkRow(at(a, 0.5), 1, 1, 1, 0);
  }
}

TEST_CASE("a glTF file as the body's mesh", "[io][animation][gltf]") {
  using samara::io::loadGltfMesh;
  CHECK(samara::io::isGltfPath("a/B.GLB"));
  CHECK(samara::io::isGltfPath("x.gltf"));
  CHECK_FALSE(samara::io::isGltfPath("x.obj"));
  const TriMesh skinned = loadGltfMesh(kDir + "/skin.gltf");
  const LoadedAnimation a = load(R"({"type": "gltf", "file": "skin.gltf"})");
  CHECK(skinned.V == a.mesh.V);
  CHECK(skinned.F == a.mesh.F);
  // An unskinned mesh is placed by its node's matrix (scale 2, then x + 10).
  const TriMesh plain = loadGltfMesh(kDir + "/skin.glb", 4);
  checkRow(plain.V, 1, 14, 0, 0);
  checkRow(plain.V, 3, 10, 2, 0);
  // With the body's mesh given, the vertex counts must agree.
  const LoadedAnimation given = load(R"({"type": "gltf", "file": "skin.gltf"})", &skinned);
  CHECK(given.mesh.V == skinned.V);
  const TriMesh five = samara::io::loadObj(kDir + "/tet_pyramid.obj");
  const Error e = loadError(R"({"type": "gltf", "file": "skin.gltf"})", &five);
  CHECK(e.field() == "/bodies/0/animation/file");
  CHECK_THAT(e.what(), Contains("the glTF mesh has 4 vertices"));
}

TEST_CASE("glTF errors name the file and the element", "[io][animation][gltf]") {
  auto gltfError = [](const std::string& extra) {
    return loadError(R"({"type": "gltf", "file": "skin.gltf", )" + extra + "}");
  };
  SECTION("weights not summing to 1") {
    const Error e = gltfError(R"("mesh": "bad_weights")");
    CHECK_THAT(e.path(), EndsWith("skin.gltf"));
    CHECK_THAT(e.what(), Contains("skin.gltf: meshes[2].primitives[0]: vertex 2: weights sum to "
                                  "0.7") &&
                             Contains("(used by scene.json: /bodies/0/animation)"));
  }
  SECTION("joint out of range") {
    CHECK_THAT(gltfError(R"("mesh": 3)").what(),
               Contains("meshes[3].primitives[0]: vertex 1: joint 5 is out of range (the skin "
                        "has 2 joints)"));
  }
  SECTION("NaN key") {
    CHECK_THAT(gltfError(R"("animation": "nan_key")").what(),
               Contains("animations[3].channels[0] (sampler 0): key 1 value is not finite"));
  }
  SECTION("key times not increasing") {
    CHECK_THAT(gltfError(R"("animation": "bad_times")").what(),
               Contains("animations[4].channels[0] (sampler 0): key 2 time is not increasing"));
  }
  SECTION("missing attributes, unknown names, missing files") {
    CHECK_THAT(gltfError(R"("mesh": "plain")").what(),
               Contains("meshes[4].primitives[0]: has no JOINTS_0 attribute"));
    CHECK_THAT(gltfError(R"("animation": "swim")").what(),
               Contains("no animation named \"swim\" (animations: \"bend\", \"step\""));
    CHECK_THAT(gltfError(R"("mesh": 9)").what(), Contains("mesh 9 does not exist (5 meshes)"));
    CHECK_THAT(gltfError(R"("skin": 1)").what(), Contains("skin 1 does not exist"));
    const Error missing = loadError(R"({"type": "gltf", "file": "nope.gltf"})");
    CHECK(missing.field() == "/bodies/0/animation/file");
    CHECK_THAT(missing.what(), Contains("not found"));
    CHECK(loadError(R"({"type": "gltf", "file": "tet_0001.obj"})").field() ==
          "/bodies/0/animation/file");
    CHECK(gltfError(R"("loop": 1)").field() == "/bodies/0/animation/loop");
  }
  SECTION("not a glTF file") {
    const Error e = errorOf([] { samara::io::loadGltfMesh(kDir + "/fins.obj"); });
    CHECK_THAT(e.what(), Contains("cannot read glTF"));
  }
}

// --- procedural ---------------------------------------------------------------------------

TEST_CASE("a travelling wave", "[io][animation]") {
  const TriMesh mesh = samara::io::loadObj(kDir + "/fins.obj");
  const LoadedAnimation a = load(R"({"type": "wave", "axis": [2, 0, 0], "lateral": [0, 0, 1],
      "amplitude": [0.1, 0, 0.2], "wavelength": 2, "frequency": -0.5, "phase_deg": 90})",
                                 &mesh);
  // s = x ∈ [0, 4]; ŝ = x / 4; d = (0.1 + 0.2 ŝ²) sin(π x + π t + π/2).
  const double t = 0.3;
  const VertexMatrix V = at(a, t);
  for (int i = 0; i < mesh.numVertices(); ++i) {
    const double x = mesh.V(i, 0);
    const double sh = x / 4.0;
    const double d = (0.1 + 0.2 * sh * sh) * std::sin(M_PI * x + M_PI * t + M_PI / 2);
    checkRow(V, i, x, mesh.V(i, 1), mesh.V(i, 2) + d);
  }
  const LoadedAnimation flat = load(R"({"type": "wave", "amplitude": 0.1, "wavelength": 1,
      "ramp_time": 1})",
                                    &mesh);
  CHECK(at(flat, 0.0) == mesh.V);  // ramped in from zero

  CHECK(loadError(R"({"type": "wave", "amplitude": 0.1, "wavelength": 1})").field() ==
        "/bodies/0/animation");  // needs a mesh
  CHECK(loadError(R"({"type": "wave", "amplitude": 0.1, "wavelength": 1,
      "lateral": [1, 1, 0]})",
                  &mesh)
            .field() == "/bodies/0/animation/lateral");
  CHECK(loadError(R"({"type": "wave", "amplitude": 0.1, "wavelength": 0})", &mesh).field() ==
        "/bodies/0/animation/wavelength");
  CHECK(loadError(R"({"type": "wave", "wavelength": 1})", &mesh).field() ==
        "/bodies/0/animation/amplitude");  // required
  CHECK(loadError(R"({"type": "wave", "amplitude": [1, 2], "wavelength": 1})", &mesh).field() ==
        "/bodies/0/animation/amplitude");
  CHECK(loadError(R"({"type": "wave", "amplitude": 1, "wavelength": 1, "axis": [0, 0, 0]})", &mesh)
            .field() == "/bodies/0/animation/axis");
}

TEST_CASE("OBJ groups: g and o names, face vertex forms, relative indices", "[io][animation]") {
  const samara::io::MeshGroups g = samara::io::loadObjGroups(kDir + "/fins.obj");
  REQUIRE(g.size() == 4);
  CHECK(g.at("hull") == std::vector<int>{0, 1, 2, 3});
  CHECK(g.at("fin") == std::vector<int>{4, 5, 6, 7});
  CHECK(g.at("tail") == g.at("fin"));
  CHECK(g.at("boat").empty());  // `g hull` follows at once: the object's own faces are none
  const samara::io::MeshGroups h = samara::io::scanObjGroups(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\no  my part \nf 3/1 -2/1/1 -3//2\r\ng\nf 1 2 3\n",
      "x.obj");
  CHECK(h.at("my part") == std::vector<int>{0, 1, 2});
  CHECK(h.at("default") == std::vector<int>{0, 1, 2});
  const Error e = errorOf([] { samara::io::scanObjGroups("v 0 0 0\ng a\nf 1 2 x\n", "x.obj"); });
  CHECK(e.line() == 3);
  CHECK(errorOf([] { samara::io::scanObjGroups("v 0 0 0\ng a\n\nf 1 -2 1\n", "x.obj"); }).line() ==
        4);
}

TEST_CASE("rigid parts: groups, bones, keys, spin and parents", "[io][animation]") {
  const TriMesh mesh = samara::io::loadObj(kDir + "/fins.obj");
  // The child "fin" is listed first: the loader puts parents first.
  const LoadedAnimation a = load(R"({"type": "parts", "parts": [
      {"name": "fin", "group": "fin", "pivot": [3, 0, 0], "axis": [0, 2, 0], "parent": "hull",
       "keys": {"times": [0, 1, 2], "angles_deg": [0, 90, 0]}, "interpolation": "linear"},
      {"name": "hull", "group": ["hull"], "axis": [0, 0, 1], "spin_hz": 0.25}]})",
                                 &mesh, "fins.obj");
  const auto& parts = dynamic_cast<const samara::core::RigidPartsAnimation&>(*a.animation);
  REQUIRE(parts.parts.size() == 2);
  CHECK(parts.parts[0].name == "hull");
  CHECK(parts.parts[1].parent == 0);
  CHECK(parts.parts[1].vertices == std::vector<int>{4, 5, 6, 7});
  // t = 1: the hull turned 90° about +z; the fin turned 90° about +y at (3, 0, 0), then with
  // the hull: (4, 0, 0) → (3, 0, −1) → (0, 3, −1).
  const VertexMatrix V = at(a, 1.0);
  checkRow(V, 1, 0, 1, 0);
  checkRow(V, 5, 0, 3, -1);
  checkRow(V, 4, 0, 3, 0);

  // Bones select the same vertices; linear keys at t = ½ give 45°.
  const LoadedAnimation b = load(R"({"type": "parts", "bones_file": "fins.bones", "parts": [
      {"name": "fin", "bone": 1, "pivot": [3, 0, 0], "axis": [0, 1, 0],
       "keys": {"times": [0, 1, 2], "angles_deg": [0, 90, 0]}, "interpolation": "linear"}]})",
                                 &mesh);
  checkRow(at(b, 0.5), 5, 3 + kHalf, 0, -kHalf);
  checkRow(at(b, 0.5), 1, 1, 0, 0);
  // Catmull–Rom (the default) passes through the keys; "vertices" and "spin_rate".
  const LoadedAnimation c = load(R"({"type": "parts", "parts": [
      {"vertices": [4, 5, 6, 7], "pivot": [3, 0, 0], "axis": [0, 1, 0],
       "keys": {"times": [0, 1, 2], "angles_deg": [0, 90, 0]}},
      {"vertices": [1], "axis": [0, 0, 1], "spin_rate": 3.14159265358979323846}]})",
                                 &mesh);
  checkRow(at(c, 1.0), 5, 3, 0, -1);
  checkRow(at(c, 3.0), 5, 3, 0, -1);  // looped, period 2 s
  checkRow(at(c, 0.5), 1, 0, 1, 0);
  // A joint part without vertices carries its child: the fin turns with the joint.
  const LoadedAnimation d = load(R"({"type": "parts", "parts": [
      {"name": "joint", "pivot": [0, 0, 0], "axis": [0, 0, 1], "spin_hz": 0.25},
      {"name": "fin", "group": "fin", "axis": [0, 1, 0], "parent": "joint"}]})",
                                 &mesh, "fins.obj");
  checkRow(at(d, 1.0), 5, 0, 4, 0);  // (4, 0, 0) turned 90° about +z
  checkRow(at(d, 1.0), 1, 1, 0, 0);  // not part of the fin: stays
}

TEST_CASE("rigid part errors name the field", "[io][animation]") {
  const TriMesh mesh = samara::io::loadObj(kDir + "/fins.obj");
  auto partsError = [&](const std::string& parts, const std::string& extra = "") {
    return loadError(R"({"type": "parts", )" + extra + R"("parts": [)" + parts + "]}", &mesh,
                     "fins.obj");
  };
  const std::string p = "/bodies/0/animation/parts/";
  Error e = partsError(R"({"group": "rudder", "axis": [0, 1, 0]})");
  CHECK(e.field() == p + "0/group");
  CHECK_THAT(e.what(),
             Contains("no group \"rudder\"") && Contains("(groups: boat, fin, hull, tail)"));
  CHECK_THAT(partsError(R"({"group": "boat", "axis": [0, 1, 0]})").what(),
             Contains("group \"boat\" has no faces"));
  e = partsError(R"({"name": "a", "group": "hull", "axis": [0, 1, 0]},
                    {"name": "b", "vertices": [4, 3], "axis": [0, 1, 0]})");
  CHECK(e.field() == p + "1");
  CHECK_THAT(e.what(), Contains("part \"b\" shares vertex 3 with part \"a\""));
  CHECK(partsError(R"({"vertices": [], "axis": [0, 1, 0]})").field() == p + "0");
  CHECK(partsError(R"({"vertices": [8], "axis": [0, 1, 0]})").field() == p + "0/vertices/0");
  CHECK(partsError(R"({"vertices": [1], "axis": [0, 0, 0]})").field() == p + "0/axis");
  CHECK(partsError(R"({"vertices": [1]})").field() == p + "0/axis");  // required
  CHECK(partsError(R"({"vertices": [1], "group": "fin", "axis": [0, 1, 0]})").field() == p + "0");
  CHECK_THAT(partsError(R"({"name": "j", "axis": [0, 1, 0]})").what(),
             Contains("no part's parent: it moves nothing"));
  CHECK(partsError(R"({"vertices": [1], "axis": [0, 1, 0],
      "keys": {"times": [0, 1, 1], "angles_deg": [0, 5, 0]}})")
            .field() == p + "0/keys/times/2");
  CHECK(partsError(R"({"vertices": [1], "axis": [0, 1, 0],
      "keys": {"times": [0, 1], "angles_deg": [0]}})")
            .field() == p + "0/keys/angles_deg");
  CHECK_THAT(partsError(R"({"vertices": [1], "axis": [0, 1, 0],
      "keys": {"times": [0, 1], "angles_deg": [0, 30]}})")
                 .what(),
             Contains("a looped track must end at its first angle"));
  CHECK_NOTHROW(load(R"({"type": "parts", "parts": [{"vertices": [1], "axis": [0, 1, 0],
      "keys": {"times": [0, 1], "angles_deg": [0, 30]}, "loop": false}]})",
                     &mesh));
  CHECK(
      partsError(R"({"vertices": [1], "axis": [0, 1, 0], "spin_rate": 1, "spin_hz": 1})").field() ==
      p + "0/spin_hz");
  e = partsError(R"({"name": "a", "vertices": [1], "axis": [0, 1, 0], "parent": "b"},
                    {"name": "b", "vertices": [2], "axis": [0, 1, 0], "parent": "a"})");
  CHECK(e.field() == p + "0/parent");
  CHECK_THAT(e.what(), Contains("parents form a cycle (a -> b -> a)"));
  CHECK_THAT(
      partsError(R"({"name": "a", "vertices": [1], "axis": [0, 1, 0], "parent": "a"})").what(),
      Contains("cycle"));
  e = partsError(R"({"name": "a", "vertices": [1], "axis": [0, 1, 0], "parent": "hull"})");
  CHECK(e.field() == p + "0/parent");
  CHECK_THAT(e.what(), Contains("unknown part \"hull\" (parts: a)"));
  CHECK(partsError(R"({"name": "a", "vertices": [1], "axis": [0, 1, 0]},
                    {"name": "a", "vertices": [2], "axis": [0, 1, 0]})")
            .field() == p + "1/name");
  CHECK(partsError(R"({"bone": 1, "axis": [0, 1, 0]})").field() == p + "0/bone");
  e = partsError(R"({"bone": 1, "axis": [0, 1, 0]})", R"("bones_file": "fins_short.bones", )");
  CHECK_THAT(e.path(), EndsWith("fins_short.bones"));
  CHECK_THAT(e.what(), Contains("3 bone indices for a mesh of 8 vertices") &&
                           Contains("used by scene.json: /bodies/0/animation/bones_file"));
  CHECK(
      partsError(R"({"bone": 2, "axis": [0, 1, 0]})", R"("bones_file": "fins.bones", )").field() ==
      p + "0");  // no vertex has bone 2
  CHECK(partsError("").field() == "/bodies/0/animation/parts");
  // Groups need the body's mesh to be an OBJ file.
  CHECK(loadError(R"({"type": "parts", "parts": [{"group": "fin", "axis": [0, 1, 0]}]})", &mesh)
            .field() == p + "0/group");
  CHECK(
      loadError(R"({"type": "parts", "parts": [{"vertices": [1], "axis": [0, 1, 0]}]})").field() ==
      "/bodies/0/animation");
}
