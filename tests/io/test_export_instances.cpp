// The glb export of crowds (issue 17): rigid bodies of one shape at any size share one mesh,
// each body a node referencing it with its size as the node's scale.
#include <tiny_gltf.h>

#include <catch2/catch.hpp>
#include <string>

#include "core/world.h"
#include "gltf_test_util.h"
#include "io/export.h"
#include "io/export_instances.h"
#include "io/scene.h"

using namespace samara;
using namespace samara::io::test;

TEST_CASE("glb of a crowd: one mesh per shape, a node per body with its scale",
          "[io][export][glb][spawn]") {
  // 12 scaled plates, 5 balls at one size, and a box of its own.
  const std::string text =
      R"({"sim": {"dt": 0.005}, "bodies": [
    {"name": "p", "mesh": {"primitive": "plate", "size": [0.1, 0.05], "segments": [2, 2]},
     "mass": {"density": 500, "thickness": 0.0004},
     "spawn": {"count": 12, "region": {"min": [0, 1, 0], "max": [2, 2, 2]}, "scale": [0.5, 2]}},
    {"name": "ball", "mesh": {"primitive": "sphere", "radius": 0.03, "subdivisions": 1},
     "mass": {"density": 300},
     "spawn": {"count": 5, "seed": 2, "region": {"min": [0, 1, 0], "max": [2, 2, 2]}}},
    {"name": "box", "mesh": {"primitive": "box", "size": [0.1, 0.1, 0.1]}, "mass": {"density": 300},
     "position": [0, 3, 0]}]})";
  core::World world = samara::io::makeWorld(samara::io::parseScene(text, "s.json", ""), "s.json");
  samara::io::ExportSettings s;
  s.out = "c.glb";
  s.plan = {20.0, 0.1, 0.005};
  samara::io::MemoryFiles files;
  samara::io::MotionExporter exporter(s, samara::io::exportBodies(world), &files);
  for (long long k = 0; k < s.plan.numFrames(); ++k) {
    for (long long n = 0; n < (k == 0 ? 0 : 10); ++n) REQUIRE(world.step().ok());
    exporter.addFrame(samara::io::captureFrame(world, k, s.plan.fps));
  }
  exporter.finish();
  const tinygltf::Model m = parseGlb(files.files.at("c.glb"));
  REQUIRE(m.meshes.size() == 3);
  CHECK(m.meshes[0].name == "p");
  CHECK(m.meshes[1].name == "ball");
  CHECK(m.meshes[2].name == "box");
  CHECK(m.materials.size() == 3);
  const core::WorldDef def = world.definition();
  REQUIRE(m.nodes.size() >= 18);
  for (std::size_t i = 0; i < 18; ++i) {
    const tinygltf::Node& n = m.nodes[i];
    CHECK(n.name == def.bodies[i].name);
    CHECK(n.mesh == (i < 12 ? 0 : i < 17 ? 1 : 2));
    if (i < 12) {
      // The node's scale is the copy's size against the first plate's.
      const double want = def.bodies[i].mesh.V(1, 0) / def.bodies[0].mesh.V(1, 0);
      if (i == 0) {
        CHECK(n.scale.empty());
      } else {
        REQUIRE(n.scale.size() == 3);
        CHECK(n.scale[0] == Approx(want).epsilon(1e-9));
        CHECK(n.scale[1] == n.scale[0]);
      }
    } else {
      CHECK(n.scale.empty());  // the balls share a mesh at one size
    }
  }
  // Every body still has its own motion: a translation and a rotation channel each.
  std::vector<int> channels(18, 0);
  for (const tinygltf::AnimationChannel& c : m.animations.at(0).channels) {
    if (c.target_node >= 0 && c.target_node < 18)
      ++channels[static_cast<std::size_t>(c.target_node)];
  }
  for (const int c : channels) CHECK(c == 2);
}

TEST_CASE("mesh instances: a scaled copy shares, a changed vertex does not",
          "[io][export][spawn]") {
  geometry::VertexMatrix A(3, 3), B, C;
  A << 0, 0, 0, 1, 0, 0, 0, 1, 0.5;
  B = 1.7 * A;
  C = B;
  C(2, 2) += 1e-4;
  geometry::FaceMatrix F(1, 3), G(1, 3);
  F << 0, 1, 2;
  G << 0, 2, 1;
  const std::vector<std::string> names = {"a_0", "a_1", "a_2", "a_3", "a_4", "b_5", "a_6"};
  const auto inst = samara::io::findMeshInstances(names, {&A, &B, &C, &A, nullptr, &A, &B},
                                                  {&F, &F, &F, &G, &F, &F, &F});
  CHECK(inst[0].source == 0);
  CHECK(inst[1].source == 0);
  CHECK(inst[1].scale == Approx(1.7).epsilon(1e-15));
  CHECK(inst[2].source == 2);  // 1e-4 m off: a shape of its own
  CHECK(inst[3].source == 3);  // other triangles
  CHECK(inst[4].source == 4);  // keeps its own mesh
  CHECK(inst[5].source == 5);  // another species (name), the same shape: its own mesh
  CHECK(inst[6].source == 0);
  CHECK(samara::io::speciesName("leaf_beech_007") == "leaf_beech");
  CHECK(samara::io::speciesName("leaf_beech") == "leaf_beech");
  CHECK(samara::io::speciesName("body_") == "body_");
  CHECK(samara::io::speciesName("plate_I0.5") == "plate_I0.5");
}
