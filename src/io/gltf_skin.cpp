// loadGltfSkin: a skinned mesh, its skin (joints, inverse bind matrices, the joints' node
// hierarchy) and one animation's node channels. The document and the meshes are read by
// io/gltf/document.cpp and io/gltf/mesh.cpp. (src/runtime's CMake looks for this file in
// samara_io's sources to enable glTF scenes in the viewer.)
#include "io/gltf_skin.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "io/gltf/document.h"
#include "io/gltf/mesh.h"

namespace samara::io {
namespace {

using gltf::Components;
using gltf::Document;
using gltf::element;
using gltf::shortNumber;

int findAnimation(const Document& g, const GltfSkinOptions& o) {
  const auto& anims = g.model().animations;
  if (!o.animationName.empty()) {
    const int index = gltf::indexNamed(anims, o.animationName);
    if (index >= 0) return index;
    const std::string names = gltf::quotedNames(anims);
    throw Error(g.path(), "no animation named \"" + o.animationName +
                              "\" (animations: " + (names.empty() ? "none" : names) + ")");
  }
  if (o.animation >= 0) {
    if (static_cast<std::size_t>(o.animation) >= anims.size()) {
      throw Error(g.path(), gltf::missing("animation", o.animation, anims.size(), "animations"));
    }
    return o.animation;
  }
  return anims.empty() ? -1 : 0;
}

/// The skin's inverse bind matrices (identity when it has none), one per joint.
std::vector<Eigen::Matrix4d> readInverseBind(const Document& g, int skinIndex) {
  const tinygltf::Model& model = g.model();
  const tinygltf::Skin& skin = model.skins[static_cast<std::size_t>(skinIndex)];
  const std::string skinWhere = element("skins", static_cast<std::size_t>(skinIndex));
  const std::size_t numJoints = skin.joints.size();
  for (std::size_t j = 0; j < numJoints; ++j) {
    const int node = skin.joints[j];
    if (node < 0 || static_cast<std::size_t>(node) >= model.nodes.size()) {
      throw g.error(skinWhere, "joint " + std::to_string(j) + " refers to node " +
                                   std::to_string(node) + ", which does not exist");
    }
  }
  std::vector<Eigen::Matrix4d> inverseBind(numJoints, Eigen::Matrix4d::Identity());
  if (skin.inverseBindMatrices >= 0) {
    std::size_t count = 0;
    const std::vector<double> m =
        g.read(skin.inverseBindMatrices, skinWhere + " inverseBindMatrices", TINYGLTF_TYPE_MAT4,
               Components::kFloat, &count);
    if (count < numJoints) {
      throw g.error(skinWhere, "inverseBindMatrices has " + std::to_string(count) +
                                   " matrices for " + std::to_string(numJoints) + " joints");
    }
    for (std::size_t j = 0; j < numJoints; ++j) {
      inverseBind[j] = Eigen::Map<const Eigen::Matrix4d>(&m[16 * j]);  // column-major
      if (!inverseBind[j].allFinite()) {
        throw g.error(skinWhere, "inverse bind matrix " + std::to_string(j) + " is not finite");
      }
    }
  }
  return inverseBind;
}

/// The nodes of the skin: the joints and their ancestors, parents before children, added to
/// `anim` (nodes, joints). Returns the new index of every glTF node (−1: not used).
std::vector<int> addSkinNodes(const Document& g, const tinygltf::Skin& skin,
                              core::SkinnedAnimation* anim) {
  const tinygltf::Model& model = g.model();
  const std::vector<int> parent = gltf::parents(g);
  std::vector<int> depth(model.nodes.size(), -1);
  std::vector<int> used;
  for (const int j : skin.joints) {
    for (int k = j; k >= 0 && depth[static_cast<std::size_t>(k)] < 0;
         k = parent[static_cast<std::size_t>(k)]) {
      int dk = 0;
      for (int a = parent[static_cast<std::size_t>(k)]; a >= 0;
           a = parent[static_cast<std::size_t>(a)]) {
        ++dk;
      }
      depth[static_cast<std::size_t>(k)] = dk;
      used.push_back(k);
    }
  }
  std::sort(used.begin(), used.end(), [&](int a, int b) {
    const int da = depth[static_cast<std::size_t>(a)];
    const int db = depth[static_cast<std::size_t>(b)];
    return da != db ? da < db : a < b;
  });
  std::vector<int> newIndex(model.nodes.size(), -1);
  for (std::size_t i = 0; i < used.size(); ++i)
    newIndex[static_cast<std::size_t>(used[i])] = static_cast<int>(i);
  for (const int k : used) {
    core::SkinnedAnimation::Node n = gltf::restTrs(g, static_cast<std::size_t>(k));
    const int p = parent[static_cast<std::size_t>(k)];
    n.parent = p >= 0 ? newIndex[static_cast<std::size_t>(p)] : -1;
    anim->nodes.push_back(n);
  }
  for (const int j : skin.joints) anim->joints.push_back(newIndex[static_cast<std::size_t>(j)]);
  return newIndex;
}

/// The key times of a sampler: finite and increasing.
void checkTimes(const Document& g, const std::string& where, const std::vector<double>& times) {
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k])) {
      throw g.error(where, "key " + std::to_string(k) + " time is not finite");
    }
    if (k > 0 && !(times[k] > times[k - 1])) {
      throw g.error(where, "key " + std::to_string(k) + " time is not increasing (" +
                               shortNumber(times[k]) + " after " + shortNumber(times[k - 1]) + ")");
    }
  }
}

/// The values of a sampler (`comps` 3 or 4 per value, `stride` 1 or 3 per key): finite, and
/// rotations not zero.
void checkValues(const Document& g, const std::string& where, const std::vector<double>& values,
                 std::size_t nv, int comps, int stride) {
  const auto ucomps = static_cast<std::size_t>(comps);
  for (std::size_t v = 0; v < nv; ++v) {
    const std::size_t key = v / static_cast<std::size_t>(stride);
    const std::size_t part = v % static_cast<std::size_t>(stride);
    const char* partName = stride == 1 ? "value"
                                       : (part == 0   ? "in-tangent"
                                          : part == 1 ? "value"
                                                      : "out-tangent");
    Eigen::Map<const Eigen::VectorXd> x(&values[v * ucomps], static_cast<Eigen::Index>(comps));
    if (!x.allFinite()) {
      throw g.error(where, "key " + std::to_string(key) + " " + partName + " is not finite");
    }
    const bool isValue = stride == 1 || part == 1;
    if (comps == 4 && isValue && !(x.norm() > 1e-12)) {
      throw g.error(where, "key " + std::to_string(key) + " rotation is a zero quaternion");
    }
  }
}

/// Channel `ci` of animation `a` (`animWhere` names it) as a core channel (its node still the
/// glTF node), or none when it does not target a node's translation, rotation or scale.
std::optional<core::SkinnedAnimation::Channel> readChannel(const Document& g,
                                                           const tinygltf::Animation& a,
                                                           const std::string& animWhere,
                                                           std::size_t ci) {
  const tinygltf::AnimationChannel& ch = a.channels[ci];
  std::string where = animWhere + ".channels[" + std::to_string(ci) + "]";
  if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= a.samplers.size()) {
    throw g.error(where, gltf::missing("sampler", ch.sampler, a.samplers.size(), "samplers"));
  }
  where += " (sampler " + std::to_string(ch.sampler) + ")";
  if (ch.target_node < 0) return std::nullopt;  // targets something other than a node
  if (static_cast<std::size_t>(ch.target_node) >= g.model().nodes.size()) {
    throw g.error(where, "target node " + std::to_string(ch.target_node) + " does not exist");
  }
  core::SkinnedAnimation::Channel c;
  int comps = 3;
  if (ch.target_path == "translation") {
    c.path = core::SkinnedAnimation::Path::kTranslation;
  } else if (ch.target_path == "rotation") {
    c.path = core::SkinnedAnimation::Path::kRotation;
    comps = 4;
  } else if (ch.target_path == "scale") {
    c.path = core::SkinnedAnimation::Path::kScale;
  } else if (ch.target_path == "weights") {
    return std::nullopt;  // morph target weights: the mesh has no morph targets (checked)
  } else {
    throw g.error(where, "unknown target path \"" + ch.target_path + "\"");
  }
  const tinygltf::AnimationSampler& smp = a.samplers[static_cast<std::size_t>(ch.sampler)];
  int stride = 1;
  if (smp.interpolation == "LINEAR") {
    c.interp = core::SkinnedAnimation::Interp::kLinear;
  } else if (smp.interpolation == "STEP") {
    c.interp = core::SkinnedAnimation::Interp::kStep;
  } else if (smp.interpolation == "CUBICSPLINE") {
    c.interp = core::SkinnedAnimation::Interp::kCubicSpline;
    stride = 3;
  } else {
    throw g.error(
        where, "unknown interpolation \"" + smp.interpolation + "\" (LINEAR, STEP or CUBICSPLINE)");
  }
  std::size_t nt = 0;
  c.times = g.read(smp.input, where + " input", TINYGLTF_TYPE_SCALAR, Components::kFloat, &nt);
  if (nt == 0) throw g.error(where, "has no keys");
  checkTimes(g, where, c.times);
  std::size_t nv = 0;
  c.values =
      g.read(smp.output, where + " output", comps == 4 ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3,
             comps == 4 ? Components::kFloatOrNormalized : Components::kFloat, &nv);
  if (nv != nt * static_cast<std::size_t>(stride)) {
    throw g.error(where, "output has " + std::to_string(nv) + " values for " + std::to_string(nt) +
                             " keys" + (stride == 3 ? " (CUBICSPLINE needs 3 per key)" : ""));
  }
  checkValues(g, where, c.values, nv, comps, stride);
  c.node = ch.target_node;
  return c;
}

}  // namespace

std::shared_ptr<core::SkinnedAnimation> loadGltfSkin(const std::string& path,
                                                     const GltfSkinOptions& options,
                                                     geometry::TriMesh* restMesh,
                                                     std::uintmax_t maxBytes) {
  return loadGltfSkin(Document(path, maxBytes), options, restMesh);
}

std::shared_ptr<core::SkinnedAnimation> loadGltfSkin(const gltf::Document& g,
                                                     const GltfSkinOptions& options,
                                                     geometry::TriMesh* restMesh) {
  const tinygltf::Model& model = g.model();
  const gltf::Selection sel = gltf::select(g, options.mesh, options.meshName, options.skin, true);
  const int animIndex = findAnimation(g, options);
  gltf::MeshData d = gltf::readSkinnedMesh(g, sel, options.weld);

  auto anim = std::make_shared<core::SkinnedAnimation>();
  anim->rest = d.mesh.V;
  anim->vertexJoints = d.joints;
  anim->vertexWeights = d.weights;
  anim->loop = options.loop;
  anim->timeScale = options.timeScale;
  anim->inverseBind = readInverseBind(g, sel.skin);
  const std::vector<int> newIndex =
      addSkinNodes(g, model.skins[static_cast<std::size_t>(sel.skin)], anim.get());

  if (animIndex >= 0) {
    const tinygltf::Animation& a = model.animations[static_cast<std::size_t>(animIndex)];
    const std::string animWhere = element("animations", static_cast<std::size_t>(animIndex));
    for (std::size_t ci = 0; ci < a.channels.size(); ++ci) {
      std::optional<core::SkinnedAnimation::Channel> c = readChannel(g, a, animWhere, ci);
      if (!c) continue;
      anim->duration = std::max(anim->duration, c->times.back());
      const int target = newIndex[static_cast<std::size_t>(c->node)];
      if (target < 0) continue;  // does not move the skin
      c->node = target;
      anim->channels.push_back(std::move(*c));
    }
  }
  if (restMesh != nullptr) *restMesh = std::move(d.mesh);
  return anim;
}

}  // namespace samara::io
