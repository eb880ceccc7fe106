// The one translation unit with the tinygltf implementation (no images: stb is not used).
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include "gltf_writer.h"

#include <tiny_gltf.h>

#include <cstdint>
#include <cstring>
#include <limits>

namespace samara::assetgen {
namespace {

constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;

/// Appends raw bytes to the buffer (4-byte aligned) and a buffer view over them.
int addView(tinygltf::Model* m, const void* data, size_t bytes, int target) {
  std::vector<unsigned char>& buf = m->buffers[0].data;
  while (buf.size() % 4 != 0) buf.push_back(0);
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = buf.size();
  view.byteLength = bytes;
  view.target = target;
  const auto* p = static_cast<const unsigned char*>(data);
  buf.insert(buf.end(), p, p + bytes);
  m->bufferViews.push_back(view);
  return static_cast<int>(m->bufferViews.size()) - 1;
}

int addAccessor(tinygltf::Model* m, int view, int componentType, int type, size_t count,
                std::vector<double> minValues = {}, std::vector<double> maxValues = {}) {
  tinygltf::Accessor a;
  a.bufferView = view;
  a.byteOffset = 0;
  a.componentType = componentType;
  a.type = type;
  a.count = count;
  a.minValues = std::move(minValues);
  a.maxValues = std::move(maxValues);
  m->accessors.push_back(a);
  return static_cast<int>(m->accessors.size()) - 1;
}

const char* pathName(core::SkinnedAnimation::Path p) {
  switch (p) {
    case core::SkinnedAnimation::Path::kTranslation:
      return "translation";
    case core::SkinnedAnimation::Path::kRotation:
      return "rotation";
    case core::SkinnedAnimation::Path::kScale:
      return "scale";
  }
  return "rotation";
}

}  // namespace

bool writeSkinnedGltf(const SkinnedModel& model, const std::string& dir, const std::string& stem,
                      std::string* error) {
  const core::SkinnedAnimation& anim = *model.animation;
  const geometry::TriMesh& mesh = model.model.mesh;
  const auto nv = static_cast<size_t>(mesh.numVertices());
  tinygltf::Model m;
  m.asset.version = "2.0";
  m.asset.generator = "samara_assetgen (tools/assetgen)";
  m.buffers.resize(1);
  m.buffers[0].uri = stem + ".bin";

  // Vertex attributes.
  std::vector<float> pos(3 * nv);
  std::vector<double> lo(3, std::numeric_limits<double>::max());
  std::vector<double> hi(3, std::numeric_limits<double>::lowest());
  for (size_t i = 0; i < nv; ++i) {
    for (int d = 0; d < 3; ++d) {
      const float x = static_cast<float>(mesh.V(static_cast<Eigen::Index>(i), d));
      pos[3 * i + static_cast<size_t>(d)] = x;
      lo[static_cast<size_t>(d)] = std::min(lo[static_cast<size_t>(d)], static_cast<double>(x));
      hi[static_cast<size_t>(d)] = std::max(hi[static_cast<size_t>(d)], static_cast<double>(x));
    }
  }
  const int posAcc =
      addAccessor(&m, addView(&m, pos.data(), pos.size() * sizeof(float), kArrayBuffer),
                  TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC3, nv, lo, hi);
  std::vector<std::uint16_t> joints(4 * nv);
  std::vector<float> weights(4 * nv);
  for (size_t i = 0; i < nv; ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    float sum = 0.0f;
    for (int k = 0; k < 4; ++k) {
      joints[4 * i + static_cast<size_t>(k)] = static_cast<std::uint16_t>(anim.vertexJoints(r, k));
      const float w = static_cast<float>(anim.vertexWeights(r, k));
      weights[4 * i + static_cast<size_t>(k)] = w;
      sum += w;
    }
    // Make the float weights sum to 1 (exactly where possible): correct the largest one.
    size_t big = 4 * i;
    for (size_t k = 4 * i + 1; k < 4 * i + 4; ++k) {
      if (weights[k] > weights[big]) big = k;
    }
    weights[big] += 1.0f - sum;
  }
  const int jointAcc = addAccessor(&m, addView(&m, joints.data(), joints.size() * 2, kArrayBuffer),
                                   TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, TINYGLTF_TYPE_VEC4, nv);
  const int weightAcc =
      addAccessor(&m, addView(&m, weights.data(), weights.size() * sizeof(float), kArrayBuffer),
                  TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_VEC4, nv);
  std::vector<std::uint32_t> indices;
  indices.reserve(static_cast<size_t>(mesh.numFaces()) * 3);
  for (int f = 0; f < mesh.numFaces(); ++f) {
    for (int k = 0; k < 3; ++k) indices.push_back(static_cast<std::uint32_t>(mesh.F(f, k)));
  }
  const int indexAcc =
      addAccessor(&m, addView(&m, indices.data(), indices.size() * 4, kElementArrayBuffer),
                  TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, TINYGLTF_TYPE_SCALAR, indices.size());

  tinygltf::Primitive prim;
  prim.attributes["POSITION"] = posAcc;
  prim.attributes["JOINTS_0"] = jointAcc;
  prim.attributes["WEIGHTS_0"] = weightAcc;
  prim.indices = indexAcc;
  prim.mode = TINYGLTF_MODE_TRIANGLES;
  tinygltf::Mesh gm;
  gm.name = model.model.name;
  gm.primitives.push_back(prim);
  m.meshes.push_back(gm);

  // Joint nodes (rest TRS), then the mesh node.
  const int numNodes = static_cast<int>(anim.nodes.size());
  std::vector<int> roots;
  for (int i = 0; i < numNodes; ++i) {
    const core::SkinnedAnimation::Node& n = anim.nodes[static_cast<size_t>(i)];
    tinygltf::Node node;
    node.name = model.nodeNames[static_cast<size_t>(i)];
    if (!n.t.isZero(0.0)) node.translation = {n.t.x(), n.t.y(), n.t.z()};
    if (!n.r.coeffs().isApprox(Eigen::Quaterniond::Identity().coeffs(), 0.0)) {
      const Eigen::Quaterniond q = n.r.normalized();
      node.rotation = {q.x(), q.y(), q.z(), q.w()};
    }
    if (!n.s.isOnes(0.0)) node.scale = {n.s.x(), n.s.y(), n.s.z()};
    m.nodes.push_back(node);
    if (n.parent >= 0) {
      m.nodes[static_cast<size_t>(n.parent)].children.push_back(i);
    } else {
      roots.push_back(i);
    }
  }
  tinygltf::Node meshNode;
  meshNode.name = model.model.name;
  meshNode.mesh = 0;
  meshNode.skin = 0;
  m.nodes.push_back(meshNode);

  // Skin: inverse bind matrices, column-major floats.
  std::vector<float> ibm;
  for (const Eigen::Matrix4d& M : anim.inverseBind) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) ibm.push_back(static_cast<float>(M(r, c)));
    }
  }
  tinygltf::Skin skin;
  skin.name = model.model.name + "_skin";
  skin.joints = anim.joints;
  skin.skeleton = roots.empty() ? -1 : roots.front();
  skin.inverseBindMatrices =
      addAccessor(&m, addView(&m, ibm.data(), ibm.size() * sizeof(float), 0),
                  TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_MAT4, anim.inverseBind.size());
  m.skins.push_back(skin);

  // Animation: one sampler per channel (shared key times when they agree).
  tinygltf::Animation ga;
  ga.name = "swim";
  std::vector<std::pair<std::vector<double>, int>> timeAccessors;
  for (const core::SkinnedAnimation::Channel& c : anim.channels) {
    int input = -1;
    for (const auto& [times, acc] : timeAccessors) {
      if (times == c.times) input = acc;
    }
    if (input < 0) {
      std::vector<float> t(c.times.begin(), c.times.end());
      input = addAccessor(&m, addView(&m, t.data(), t.size() * sizeof(float), 0),
                          TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_TYPE_SCALAR, t.size(),
                          {static_cast<double>(t.front())}, {static_cast<double>(t.back())});
      timeAccessors.emplace_back(c.times, input);
    }
    const bool rotation = c.path == core::SkinnedAnimation::Path::kRotation;
    std::vector<float> v(c.values.begin(), c.values.end());
    tinygltf::AnimationSampler s;
    s.input = input;
    s.output = addAccessor(
        &m, addView(&m, v.data(), v.size() * sizeof(float), 0), TINYGLTF_COMPONENT_TYPE_FLOAT,
        rotation ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3, v.size() / (rotation ? 4 : 3));
    switch (c.interp) {
      case core::SkinnedAnimation::Interp::kLinear:
        s.interpolation = "LINEAR";
        break;
      case core::SkinnedAnimation::Interp::kStep:
        s.interpolation = "STEP";
        break;
      case core::SkinnedAnimation::Interp::kCubicSpline:
        s.interpolation = "CUBICSPLINE";
        break;
    }
    ga.samplers.push_back(s);
    tinygltf::AnimationChannel ch;
    ch.sampler = static_cast<int>(ga.samplers.size()) - 1;
    ch.target_node = c.node;
    ch.target_path = pathName(c.path);
    ga.channels.push_back(ch);
  }
  m.animations.push_back(ga);

  tinygltf::Scene scene;
  scene.name = model.model.name;
  scene.nodes = roots;
  scene.nodes.push_back(numNodes);
  m.scenes.push_back(scene);
  m.defaultScene = 0;

  const std::string path = dir + "/" + stem + ".gltf";
  tinygltf::TinyGLTF gltf;
  if (!gltf.WriteGltfSceneToFile(&m, path, false, false, true, false)) {
    *error = "cannot write " + path;
    return false;
  }
  // Read it back: tinygltf parses and checks accessors, views and the buffer size.
  tinygltf::Model back;
  std::string err, warn;
  if (!gltf.LoadASCIIFromFile(&back, &err, &warn, path) || !err.empty() || !warn.empty()) {
    *error = path + ": read-back failed: " + err + warn;
    return false;
  }
  if (back.accessors.size() != m.accessors.size() || back.nodes.size() != m.nodes.size() ||
      back.buffers.size() != 1 || back.buffers[0].data != m.buffers[0].data) {
    *error = path + ": read-back differs from what was written";
    return false;
  }
  return true;
}

}  // namespace samara::assetgen
