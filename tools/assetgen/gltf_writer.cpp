#include "gltf_writer.h"

#include <cstdint>
#include <utility>

#include "io/error.h"
#include "io/gltf_builder.h"

namespace samara::assetgen {
namespace {

namespace gltf = io::gltf;

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

gltf::Interpolation interpolation(core::SkinnedAnimation::Interp i) {
  switch (i) {
    case core::SkinnedAnimation::Interp::kLinear:
      return gltf::Interpolation::kLinear;
    case core::SkinnedAnimation::Interp::kStep:
      return gltf::Interpolation::kStep;
    case core::SkinnedAnimation::Interp::kCubicSpline:
      return gltf::Interpolation::kCubicSpline;
  }
  return gltf::Interpolation::kLinear;
}

/// The skinned mesh: POSITION (with bounds), JOINTS_0, WEIGHTS_0 and indices; returns the mesh.
int addSkinnedMesh(gltf::Builder* b, const SkinnedModel& model) {
  const core::SkinnedAnimation& anim = *model.animation;
  const geometry::TriMesh& mesh = model.model.mesh;
  const auto nv = static_cast<size_t>(mesh.numVertices());
  std::vector<float> pos(3 * nv);
  for (size_t i = 0; i < nv; ++i) {
    for (int d = 0; d < 3; ++d) {
      pos[3 * i + static_cast<size_t>(d)] =
          static_cast<float>(mesh.V(static_cast<Eigen::Index>(i), d));
    }
  }
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
  std::vector<std::uint32_t> indices;
  indices.reserve(static_cast<size_t>(mesh.numFaces()) * 3);
  for (int f = 0; f < mesh.numFaces(); ++f) {
    for (int k = 0; k < 3; ++k) indices.push_back(static_cast<std::uint32_t>(mesh.F(f, k)));
  }
  gltf::Primitive prim;
  prim.attributes["POSITION"] =
      b->addFloats(pos, gltf::ElementType::kVec3, gltf::BufferTarget::kArray, /*bounds=*/true);
  prim.attributes["JOINTS_0"] =
      b->addUnsignedShorts(joints, gltf::ElementType::kVec4, gltf::BufferTarget::kArray);
  prim.attributes["WEIGHTS_0"] =
      b->addFloats(weights, gltf::ElementType::kVec4, gltf::BufferTarget::kArray, false);
  prim.indices = b->addIndices(indices);
  return b->addMesh({.name = model.model.name, .primitives = {prim}});
}

/// The joint nodes with their rest TRS (identity parts left out); returns the root nodes.
std::vector<int> addJointNodes(gltf::Builder* b, const SkinnedModel& model) {
  const core::SkinnedAnimation& anim = *model.animation;
  std::vector<int> roots;
  for (size_t i = 0; i < anim.nodes.size(); ++i) {
    const core::SkinnedAnimation::Node& n = anim.nodes[i];
    gltf::Node node{.name = model.nodeNames[i]};
    if (!n.t.isZero(0.0)) node.translation = n.t;
    if (!n.r.coeffs().isApprox(Eigen::Quaterniond::Identity().coeffs(), 0.0)) {
      node.rotation = n.r.normalized();
    }
    if (!n.s.isOnes(0.0)) node.scale = n.s;
    const int index = b->addNode(node);
    if (n.parent >= 0) {
      b->addChild(n.parent, index);
    } else {
      roots.push_back(index);
    }
  }
  return roots;
}

/// The skin: joints and inverse bind matrices (column-major floats).
void addSkin(gltf::Builder* b, const SkinnedModel& model, const std::vector<int>& roots) {
  const core::SkinnedAnimation& anim = *model.animation;
  std::vector<float> ibm;
  for (const Eigen::Matrix4d& M : anim.inverseBind) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) ibm.push_back(static_cast<float>(M(r, c)));
    }
  }
  b->addSkin({.name = model.model.name + "_skin",
              .joints = anim.joints,
              .skeleton = roots.empty() ? -1 : roots.front(),
              .inverseBindMatrices =
                  b->addFloats(ibm, gltf::ElementType::kMat4, gltf::BufferTarget::kNone, false)});
}

/// Animation "swim": one sampler per channel (key times shared when they agree).
void addSwimAnimation(gltf::Builder* b, const core::SkinnedAnimation& anim) {
  const int ga = b->addAnimation("swim");
  std::vector<std::pair<std::vector<double>, int>> timeAccessors;
  for (const core::SkinnedAnimation::Channel& c : anim.channels) {
    int input = -1;
    for (const auto& [times, acc] : timeAccessors) {
      if (times == c.times) input = acc;
    }
    if (input < 0) {
      const std::vector<float> t(c.times.begin(), c.times.end());
      input = b->addFloats(t, gltf::ElementType::kScalar, gltf::BufferTarget::kNone, true);
      timeAccessors.emplace_back(c.times, input);
    }
    const bool rotation = c.path == core::SkinnedAnimation::Path::kRotation;
    const std::vector<float> v(c.values.begin(), c.values.end());
    const int output =
        b->addFloats(v, rotation ? gltf::ElementType::kVec4 : gltf::ElementType::kVec3,
                     gltf::BufferTarget::kNone, false);
    b->addChannel(ga, b->addSampler(ga, input, output, interpolation(c.interp)), c.node,
                  pathName(c.path));
  }
}

}  // namespace

bool writeSkinnedGltf(const SkinnedModel& model, const std::string& dir, const std::string& stem,
                      std::string* error) {
  gltf::Builder b("samara_assetgen (tools/assetgen)");
  const int mesh = addSkinnedMesh(&b, model);
  std::vector<int> roots = addJointNodes(&b, model);
  const int meshNode = b.addNode({.name = model.model.name, .mesh = mesh, .skin = 0});
  addSkin(&b, model, roots);
  addSwimAnimation(&b, *model.animation);
  roots.push_back(meshNode);
  b.addScene(model.model.name, roots);
  try {
    b.writeGltf(dir + "/" + stem + ".gltf");
  } catch (const io::Error& e) {
    *error = e.what();
    return false;
  }
  return true;
}

}  // namespace samara::assetgen
