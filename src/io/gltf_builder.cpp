#include "io/gltf_builder.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <filesystem>
#include <iterator>
#include <limits>
#include <utility>

#include "io/error.h"

namespace samara::io::gltf {
namespace {

/// The tinygltf type and the number of components of an element type.
struct ElementInfo {
  int tinygltfType;
  int components;
};

ElementInfo info(ElementType type) {
  switch (type) {
    case ElementType::kScalar:
      return {TINYGLTF_TYPE_SCALAR, 1};
    case ElementType::kVec2:
      return {TINYGLTF_TYPE_VEC2, 2};
    case ElementType::kVec3:
      return {TINYGLTF_TYPE_VEC3, 3};
    case ElementType::kVec4:
      return {TINYGLTF_TYPE_VEC4, 4};
    case ElementType::kMat4:
      return {TINYGLTF_TYPE_MAT4, 16};
  }
  return {TINYGLTF_TYPE_SCALAR, 1};
}

const char* interpolationName(Interpolation interpolation) {
  // In Interpolation's order.
  static constexpr const char* kNames[] = {"LINEAR", "STEP", "CUBICSPLINE"};
  const auto i = static_cast<std::size_t>(interpolation);
  return i < std::size(kNames) ? kNames[i] : kNames[0];
}

int last(std::size_t size) { return static_cast<int>(size) - 1; }

}  // namespace

int componentCount(ElementType type) { return info(type).components; }

struct Builder::Impl {
  tinygltf::Model model;
};

Builder::Builder(const std::string& generator) : impl_(std::make_unique<Impl>()) {
  impl_->model.asset.version = "2.0";
  impl_->model.asset.generator = generator;
  impl_->model.buffers.resize(1);
}

Builder::~Builder() = default;
Builder::Builder(Builder&&) noexcept = default;
Builder& Builder::operator=(Builder&&) noexcept = default;

int Builder::addView(const void* data, std::size_t bytes, BufferTarget target) {
  tinygltf::Model& m = impl_->model;
  std::vector<unsigned char>& buf = m.buffers[0].data;
  buf.resize((buf.size() + 3) / 4 * 4, 0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = buf.size();
  view.byteLength = bytes;
  view.target = static_cast<int>(target);
  const auto* p = static_cast<const unsigned char*>(data);
  buf.insert(buf.end(), p, p + bytes);
  m.bufferViews.push_back(view);
  return last(m.bufferViews.size());
}

int Builder::addAccessor(int view, ComponentType component, ElementType type, std::size_t count,
                         std::vector<double> min, std::vector<double> max) {
  tinygltf::Accessor a;
  a.bufferView = view;
  a.byteOffset = 0;
  a.componentType = static_cast<int>(component);
  a.type = info(type).tinygltfType;
  a.count = count;
  a.minValues = std::move(min);
  a.maxValues = std::move(max);
  impl_->model.accessors.push_back(std::move(a));
  return last(impl_->model.accessors.size());
}

int Builder::addFloats(std::span<const float> values, ElementType type, BufferTarget target,
                       bool bounds) {
  const auto width = static_cast<std::size_t>(componentCount(type));
  std::vector<double> lo, hi;
  if (bounds) {
    lo.assign(width, std::numeric_limits<double>::max());
    hi.assign(width, std::numeric_limits<double>::lowest());
    for (std::size_t k = 0; k < values.size(); ++k) {
      const std::size_t c = k % width;
      lo[c] = std::min(lo[c], static_cast<double>(values[k]));
      hi[c] = std::max(hi[c], static_cast<double>(values[k]));
    }
  }
  const int view = addView(values.data(), values.size_bytes(), target);
  return addAccessor(view, ComponentType::kFloat, type, values.size() / width, std::move(lo),
                     std::move(hi));
}

int Builder::addUnsignedShorts(std::span<const std::uint16_t> values, ElementType type,
                               BufferTarget target) {
  const int view = addView(values.data(), values.size_bytes(), target);
  return addAccessor(view, ComponentType::kUnsignedShort, type,
                     values.size() / static_cast<std::size_t>(componentCount(type)));
}

int Builder::addIndices(std::span<const std::uint32_t> indices) {
  const int view = addView(indices.data(), indices.size_bytes(), BufferTarget::kElementArray);
  return addAccessor(view, ComponentType::kUnsignedInt, ElementType::kScalar, indices.size());
}

int Builder::addMesh(const Mesh& mesh) {
  tinygltf::Mesh gm;
  gm.name = mesh.name;
  for (const Primitive& p : mesh.primitives) {
    tinygltf::Primitive prim;
    prim.mode = TINYGLTF_MODE_TRIANGLES;
    for (const auto& [name, accessor] : p.attributes) prim.attributes[name] = accessor;
    prim.indices = p.indices;
    for (const Attributes& t : p.targets) prim.targets.emplace_back(t.begin(), t.end());
    prim.material = p.material;
    gm.primitives.push_back(std::move(prim));
  }
  gm.weights = mesh.weights;
  if (!mesh.targetNames.empty()) {
    tinygltf::Value::Array names;
    for (const std::string& n : mesh.targetNames) names.emplace_back(n);
    tinygltf::Value::Object extras;
    extras["targetNames"] = tinygltf::Value(std::move(names));
    gm.extras = tinygltf::Value(std::move(extras));
  }
  impl_->model.meshes.push_back(std::move(gm));
  return last(impl_->model.meshes.size());
}

void Builder::addSkinAttributes(int mesh, int joints, int weights) {
  for (tinygltf::Primitive& p : impl_->model.meshes.at(static_cast<std::size_t>(mesh)).primitives) {
    p.attributes["JOINTS_0"] = joints;
    p.attributes["WEIGHTS_0"] = weights;
  }
}

int Builder::addMaterial(const Material& material) {
  tinygltf::Material m;
  m.name = material.name;
  m.pbrMetallicRoughness.baseColorFactor.assign(material.baseColor.begin(),
                                                material.baseColor.end());
  m.pbrMetallicRoughness.metallicFactor = material.metallic;
  m.pbrMetallicRoughness.roughnessFactor = material.roughness;
  m.doubleSided = material.doubleSided;
  impl_->model.materials.push_back(std::move(m));
  return last(impl_->model.materials.size());
}

int Builder::addCamera(const std::string& name, double yfov, double aspect, double znear,
                       double zfar) {
  tinygltf::Camera c;
  c.name = name;
  c.type = "perspective";
  c.perspective.yfov = yfov;
  c.perspective.aspectRatio = aspect;
  c.perspective.znear = znear;
  c.perspective.zfar = zfar;
  impl_->model.cameras.push_back(std::move(c));
  return last(impl_->model.cameras.size());
}

int Builder::addSunLight(const std::string& name, const std::array<double, 3>& color,
                         double intensity) {
  tinygltf::Light l;
  l.name = name;
  l.type = "directional";
  l.color.assign(color.begin(), color.end());
  l.intensity = intensity;
  impl_->model.lights.push_back(std::move(l));
  return last(impl_->model.lights.size());
}

int Builder::addNode(const Node& node) {
  tinygltf::Node n;
  n.name = node.name;
  n.mesh = node.mesh;
  n.skin = node.skin;
  n.camera = node.camera;
  if (node.light >= 0) {
    tinygltf::Value::Object light;
    light["light"] = tinygltf::Value(node.light);
    n.extensions["KHR_lights_punctual"] = tinygltf::Value(std::move(light));
  }
  if (node.translation) {
    const Vec3& t = *node.translation;
    n.translation = {t.x(), t.y(), t.z()};
  }
  if (node.rotation) {
    const Quat& q = *node.rotation;
    n.rotation = {q.x(), q.y(), q.z(), q.w()};
  }
  if (node.scale) {
    const Vec3& s = *node.scale;
    n.scale = {s.x(), s.y(), s.z()};
  }
  impl_->model.nodes.push_back(std::move(n));
  return last(impl_->model.nodes.size());
}

void Builder::addChild(int parent, int child) {
  assert(parent >= 0 && static_cast<std::size_t>(parent) < impl_->model.nodes.size());
  impl_->model.nodes[static_cast<std::size_t>(parent)].children.push_back(child);
}

int Builder::addSkin(const Skin& skin) {
  tinygltf::Skin s;
  s.name = skin.name;
  s.joints = skin.joints;
  s.skeleton = skin.skeleton;
  s.inverseBindMatrices = skin.inverseBindMatrices;
  impl_->model.skins.push_back(std::move(s));
  return last(impl_->model.skins.size());
}

int Builder::addAnimation(const std::string& name) {
  tinygltf::Animation a;
  a.name = name;
  impl_->model.animations.push_back(std::move(a));
  return last(impl_->model.animations.size());
}

int Builder::addSampler(int animation, int input, int output, Interpolation interpolation) {
  tinygltf::Animation& a = impl_->model.animations.at(static_cast<std::size_t>(animation));
  tinygltf::AnimationSampler s;
  s.input = input;
  s.output = output;
  s.interpolation = interpolationName(interpolation);
  a.samplers.push_back(std::move(s));
  return last(a.samplers.size());
}

void Builder::addChannel(int animation, int sampler, int node, const std::string& path) {
  tinygltf::AnimationChannel c;
  c.sampler = sampler;
  c.target_node = node;
  c.target_path = path;
  impl_->model.animations.at(static_cast<std::size_t>(animation)).channels.push_back(c);
}

int Builder::addScene(const std::string& name, const std::vector<int>& nodes,
                      const std::map<std::string, double>& extras) {
  tinygltf::Model& m = impl_->model;
  tinygltf::Scene scene;
  scene.name = name;
  scene.nodes = nodes;
  if (!extras.empty()) {
    tinygltf::Value::Object o;
    for (const auto& [key, value] : extras) {
      // Whole numbers (frame numbers, the fps) as JSON integers.
      const bool whole = std::abs(value) < 2e9 && value == std::trunc(value);
      o[key] = whole ? tinygltf::Value(static_cast<int>(value)) : tinygltf::Value(value);
    }
    scene.extras = tinygltf::Value(std::move(o));
  }
  m.scenes.push_back(std::move(scene));
  if (m.defaultScene < 0) m.defaultScene = 0;
  return last(m.scenes.size());
}

std::size_t Builder::numAccessors() const { return impl_->model.accessors.size(); }
std::size_t Builder::numNodes() const { return impl_->model.nodes.size(); }

void Builder::writeGlb(std::ostream& out, const std::string& path) const {
  tinygltf::TinyGLTF gltf;
  if (!gltf.WriteGltfSceneToStream(&impl_->model, out, /*prettyPrint=*/false,
                                   /*writeBinary=*/true)) {
    throw Error(path, "cannot serialise the glTF model");
  }
}

void Builder::writeGltf(const std::string& path) {
  tinygltf::Model& m = impl_->model;
  m.buffers[0].uri = std::filesystem::path(path).stem().string() + ".bin";
  tinygltf::TinyGLTF gltf;
  if (!gltf.WriteGltfSceneToFile(&m, path, /*embedImages=*/false, /*embedBuffers=*/false,
                                 /*prettyPrint=*/true, /*writeBinary=*/false)) {
    throw Error(path, "cannot write the glTF file");
  }
  // Read it back: tinygltf parses and checks accessors, views and the buffer size.
  tinygltf::Model back;
  std::string err, warn;
  if (!gltf.LoadASCIIFromFile(&back, &err, &warn, path) || !err.empty() || !warn.empty()) {
    throw Error(path, "read-back failed: " + err + warn);
  }
  if (back.accessors.size() != m.accessors.size() || back.nodes.size() != m.nodes.size() ||
      back.buffers.size() != 1 || back.buffers[0].data != m.buffers[0].data) {
    throw Error(path, "read-back differs from what was written");
  }
}

}  // namespace samara::io::gltf
