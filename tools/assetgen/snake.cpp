// The skinned sea snake: a chain of joints along the body driven by a travelling wave of
// joint rotations (glTF semantics: rotation channels, linear interpolation, looped).
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "assetgen.h"
#include "builders.h"

namespace samara::assetgen {
namespace {

constexpr double kSnakeLength = 1.2;  // m
constexpr double kRadius = 0.028;     // body radius, m
constexpr int kJoints = 8;            // head → tail
constexpr double kPeriod = 1.0;       // s
constexpr int kKeys = 24;             // keys per cycle
constexpr double kWavelength = 0.9;   // m

/// Half-height and half-width along ŝ ∈ [0, 1] (head → tail): a round body whose last
/// third flattens laterally into a paddle (taller, thinner), rounded at both ends.
void snakeSection(double s, double* hy, double* hz) {
  const double head = s < 0.05 ? std::sqrt(1.0 - (1.0 - s / 0.05) * (1.0 - s / 0.05)) : 1.0;
  const double tail =
      s > 0.9 ? std::sqrt(std::max(0.0, 1.0 - ((s - 0.9) / 0.1) * ((s - 0.9) / 0.1))) : 1.0;
  const double paddle = smoothstep((s - 0.6) / 0.3);
  *hy = kRadius * head * tail * (1.0 + 0.7 * paddle);
  *hz = kRadius * head * tail * (1.0 - 0.55 * paddle);
}

/// Joint k's bend angle about +y at time t (s): a wave running head → tail.
double jointAngle(int k, double t) {
  const double amp = 0.15 + 0.25 * k / (kJoints - 1.0);
  const double s = k * kSnakeLength / kJoints;
  return amp * std::sin(2.0 * std::numbers::pi * (s / kWavelength - t / kPeriod));
}

}  // namespace

SkinnedModel makeSeaSnake(double resolution) {
  SkinnedModel out;
  auto anim = std::make_shared<core::SkinnedAnimation>();
  const double bone = kSnakeLength / kJoints;
  const double x0 = -0.5 * kSnakeLength;

  // Straight tube (the skeleton's straight pose).
  const auto [rings, segments] = loftCounts(resolution, 96, 16, 8, 4);
  geometry::TriMesh straight =
      loftAlongX(x0, x0 + kSnakeLength, 0.0, 0.0, rings, segments, [](double s, Ring* r) {
        snakeSection(s, &r->ryUp, &r->rz);
        r->ryDown = r->ryUp;
      });

  // Skeleton: node 0 at the head, node k at x0 + k·bone, each the child of the previous.
  anim->nodes.resize(kJoints);
  for (int k = 0; k < kJoints; ++k) {
    core::SkinnedAnimation::Node& n = anim->nodes[static_cast<size_t>(k)];
    n.parent = k - 1;
    n.t = k == 0 ? Vec3(x0, 0, 0) : Vec3(bone, 0, 0);
    out.nodeNames.push_back(k == 0 ? "head" : "spine" + std::to_string(k));
    anim->joints.push_back(k);
  }
  // Weights: hat functions centred on the bones' midpoints (two joints per vertex).
  const int nv = straight.numVertices();
  anim->vertexJoints.setZero(nv, 4);
  anim->vertexWeights.setZero(nv, 4);
  for (int i = 0; i < nv; ++i) {
    const double c = (straight.V(i, 0) - x0) / bone - 0.5;  // in bone-centre units
    const int k = std::clamp(static_cast<int>(std::floor(c)), 0, kJoints - 2);
    const double f = std::clamp(c - k, 0.0, 1.0);
    if (f == 0.0 || f == 1.0) {  // past the first or last bone centre: one joint
      anim->vertexJoints.row(i) << (f == 0.0 ? k : k + 1), 0, 0, 0;
      anim->vertexWeights.row(i) << 1.0, 0.0, 0.0, 0.0;
    } else {
      anim->vertexJoints.row(i) << k, k + 1, 0, 0;
      anim->vertexWeights.row(i) << 1.0 - f, f, 0.0, 0.0;
    }
  }

  // Rotation channels (linear), one cycle with the last key equal to the first.
  for (int k = 1; k < kJoints; ++k) {
    core::SkinnedAnimation::Channel ch;
    ch.node = k;
    ch.path = core::SkinnedAnimation::Path::kRotation;
    ch.interp = core::SkinnedAnimation::Interp::kLinear;
    for (int j = 0; j <= kKeys; ++j) {
      const double t = kPeriod * j / kKeys;
      const Eigen::Quaterniond q(
          Eigen::AngleAxisd(jointAngle(k, j == kKeys ? 0.0 : t), Vec3::UnitY()));
      ch.times.push_back(t);
      ch.values.insert(ch.values.end(), {q.x(), q.y(), q.z(), q.w()});
    }
    anim->channels.push_back(std::move(ch));
  }
  anim->duration = kPeriod;
  anim->loop = true;

  // Bind pose = the pose at t = 0: skin the straight tube with the t = 0 pose, then take the
  // inverse bind matrices of that pose and make it the nodes' rest pose.
  std::vector<Eigen::Matrix4d> straightInverse(kJoints);
  for (int k = 0; k < kJoints; ++k) {
    straightInverse[static_cast<size_t>(k)] = Eigen::Matrix4d::Identity();
    straightInverse[static_cast<size_t>(k)](0, 3) = -(x0 + k * bone);
  }
  anim->inverseBind = straightInverse;
  anim->rest = straight.V;
  geometry::VertexMatrix bent;
  anim->evaluate(0.0, &bent);
  const std::vector<Eigen::Matrix4d> global0 = anim->globalTransforms(0.0);
  for (int k = 0; k < kJoints; ++k) {
    anim->nodes[static_cast<size_t>(k)].r =
        Eigen::Quaterniond(Eigen::AngleAxisd(k == 0 ? 0.0 : jointAngle(k, 0.0), Vec3::UnitY()));
    anim->inverseBind[static_cast<size_t>(k)] = global0[static_cast<size_t>(k)].inverse();
  }
  anim->rest = bent;

  ModelBuilder b("sea_snake",
                 "sea snake, 1.2 m along x, head at -x, paddle tail; bind pose = pose at t = 0");
  geometry::TriMesh mesh = straight;
  mesh.V = bent;
  b.add("snake", mesh);
  out.model = b.finish();
  out.animation = anim;
  return out;
}

}  // namespace samara::assetgen
