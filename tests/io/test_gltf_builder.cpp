// io::gltf::Builder: what it writes reads back. A skinned tetrahedron written as .gltf + .bin
// loads with loadGltfSkin (positions, joints, the animation's keys); a .glb with morph
// targets parses with tinygltf (accessor bounds, 4-byte aligned views, target names,
// samplers and channels).
#include <tiny_gltf.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/animation.h"
#include "gltf_test_util.h"
#include "io/gltf_builder.h"
#include "io/gltf_skin.h"
#include "io_test_util.h"

namespace gltf = samara::io::gltf;
using samara::Quat;
using samara::Vec3;
using namespace samara::io::test;

namespace {

// A tetrahedron: the base triangle in y = 0 and the apex at y = 1.
const std::vector<float> kPositions = {0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0};
const std::vector<std::uint32_t> kIndices = {0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3};

}  // namespace

TEST_CASE("glTF builder: a skinned mesh reads back with loadGltfSkin", "[io][gltf]") {
  gltf::Builder b("samara test");
  gltf::Primitive prim;
  prim.attributes["POSITION"] =
      b.addFloats(kPositions, gltf::ElementType::kVec3, gltf::BufferTarget::kArray, true);
  const std::vector<std::uint16_t> joints(16, 0);
  prim.attributes["JOINTS_0"] =
      b.addUnsignedShorts(joints, gltf::ElementType::kVec4, gltf::BufferTarget::kArray);
  std::vector<float> weights(16, 0.0f);
  for (std::size_t v = 0; v < 4; ++v) weights[4 * v] = 1.0f;
  prim.attributes["WEIGHTS_0"] =
      b.addFloats(weights, gltf::ElementType::kVec4, gltf::BufferTarget::kArray, false);
  prim.indices = b.addIndices(kIndices);
  const int mesh = b.addMesh({.name = "tet", .primitives = {prim}});
  const int root = b.addNode({.name = "root", .translation = Vec3(0, 0.5, 0)});
  const int meshNode = b.addNode({.name = "tet", .mesh = mesh, .skin = 0});
  const std::vector<float> identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.5f, 0, 1};
  b.addSkin({.name = "tet_skin",
             .joints = {root},
             .skeleton = root,
             .inverseBindMatrices = b.addFloats(identity, gltf::ElementType::kMat4,
                                                gltf::BufferTarget::kNone, false)});
  const int anim = b.addAnimation("turn");
  const std::vector<float> times = {0.0f, 0.5f, 1.0f};
  const Quat q(Eigen::AngleAxisd(0.5, Vec3::UnitY()));
  const std::vector<float> rotations = {
      0, 0, 0, 1, 0, static_cast<float>(q.y()), 0, static_cast<float>(q.w()), 0, 0, 0, 1};
  const int input = b.addFloats(times, gltf::ElementType::kScalar, gltf::BufferTarget::kNone, true);
  const int output =
      b.addFloats(rotations, gltf::ElementType::kVec4, gltf::BufferTarget::kNone, false);
  b.addChannel(anim, b.addSampler(anim, input, output, gltf::Interpolation::kLinear), root,
               "rotation");
  b.addScene("tet", {root, meshNode});
  CHECK(b.numAccessors() == 7);
  CHECK(b.numNodes() == 2);

  TempDir dir("gltf_builder");
  const std::string path = dir.file("tet.gltf");
  b.writeGltf(path);
  CHECK(readText(dir.file("tet.bin")).size() % 4 == 0);
  samara::geometry::TriMesh rest;
  const auto skin = samara::io::loadGltfSkin(path, {}, &rest);
  REQUIRE(rest.numVertices() == 4);
  CHECK(rest.V(3, 1) == 1.0);
  REQUIRE(skin->channels.size() == 1);
  CHECK(skin->channels[0].times == std::vector<double>{0.0, 0.5, 1.0});
  CHECK(skin->duration == 1.0);
  REQUIRE(skin->nodes.size() == 1);
  CHECK(skin->nodes[0].t == Vec3(0, 0.5, 0));
}

TEST_CASE("glTF builder: a glb with morph targets parses with tinygltf", "[io][gltf]") {
  gltf::Builder b("samara test");
  // Three bytes first: the next view must still start on a multiple of 4.
  const unsigned char odd[3] = {1, 2, 3};
  CHECK(b.addView(odd, 3, gltf::BufferTarget::kNone) == 0);
  gltf::Primitive prim;
  prim.attributes["POSITION"] =
      b.addFloats(kPositions, gltf::ElementType::kVec3, gltf::BufferTarget::kArray, true);
  prim.indices = b.addIndices(kIndices);
  std::vector<float> lift(12, 0.0f);
  lift[10] = 0.25f;  // the apex up by 0.25 m
  prim.targets.push_back({{"POSITION", b.addFloats(lift, gltf::ElementType::kVec3,
                                                   gltf::BufferTarget::kArray, true)}});
  const int mesh = b.addMesh(
      {.name = "tet", .primitives = {prim}, .weights = {0.0}, .targetNames = {"frame_0000"}});
  const int node = b.addNode(
      {.name = "tet", .mesh = mesh, .translation = Vec3(1, 2, 3), .rotation = Quat::Identity()});
  const int anim = b.addAnimation("scene");
  const std::vector<float> times = {0.0f, 1.0f};
  const std::vector<float> w = {0.0f, 1.0f};
  const int input = b.addFloats(times, gltf::ElementType::kScalar, gltf::BufferTarget::kNone, true);
  const int output = b.addFloats(w, gltf::ElementType::kScalar, gltf::BufferTarget::kNone, false);
  b.addChannel(anim, b.addSampler(anim, input, output, gltf::Interpolation::kStep), node,
               "weights");
  b.addScene("scene", {node});

  std::ostringstream out;
  b.writeGlb(out, "tet.glb");
  const std::string bytes = out.str();
  REQUIRE(bytes.compare(0, 4, "glTF") == 0);
  const tinygltf::Model m = parseGlb(bytes);
  CHECK(m.asset.generator == "samara test");
  for (const tinygltf::BufferView& v : m.bufferViews) CHECK(v.byteOffset % 4 == 0);
  const tinygltf::Accessor& pos = m.accessors.at(0);
  CHECK(pos.count == 4);
  CHECK(pos.minValues == std::vector<double>{0, 0, 0});
  CHECK(pos.maxValues == std::vector<double>{1, 1, 1});
  CHECK(m.bufferViews.at(static_cast<std::size_t>(pos.bufferView)).target == 34962);
  const tinygltf::Accessor& idx = m.accessors.at(1);
  CHECK(idx.componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
  CHECK(m.bufferViews.at(static_cast<std::size_t>(idx.bufferView)).target == 34963);
  REQUIRE(m.meshes.size() == 1);
  REQUIRE(m.meshes[0].primitives.at(0).targets.size() == 1);
  CHECK(m.meshes[0].weights == std::vector<double>{0.0});
  const tinygltf::Value& names = m.meshes[0].extras.Get("targetNames");
  REQUIRE(names.IsArray());
  CHECK(names.Get(0).Get<std::string>() == "frame_0000");
  CHECK(m.nodes.at(0).translation == std::vector<double>{1, 2, 3});
  CHECK(m.nodes.at(0).rotation == std::vector<double>{0, 0, 0, 1});
  CHECK(m.nodes.at(0).scale.empty());
  REQUIRE(m.animations.size() == 1);
  CHECK(m.animations[0].samplers.at(0).interpolation == "STEP");
  CHECK(m.animations[0].channels.at(0).target_path == "weights");
  CHECK(m.defaultScene == 0);
}
