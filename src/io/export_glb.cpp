// The glb writer of io/export.h: a node per body with its mesh and material, keys at every
// frame and, between frames, wherever a body turns fast (KeyReducer); a shape-changing body's
// morph targets with LINEAR weights; a camera, a sun and the frame rate and range in the
// scene's extras. A crowd's rigid copies of one shape (one spawn entry's, at any size) share
// one mesh and material: their nodes reference it, with the size as the node's scale.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>

#include "io/export_instances.h"
#include "io/export_writer.h"
#include "io/gltf_builder.h"
#include "io/palette.h"
#include "io/text_format.h"

namespace samara::io {

namespace {

/// The rotation of a node whose −Z looks along `forward` with +Y as near to `up` as it can.
Quat lookRotation(const Vec3& forward, const Vec3& up) {
  const Vec3 f = forward.normalized();
  Vec3 r = f.cross(up);
  if (r.norm() < 1e-9) r = f.cross(Vec3::UnitZ());
  r.normalize();
  const Vec3 u = r.cross(f);
  Mat3 R;
  R.col(0) = r;
  R.col(1) = u;
  R.col(2) = -f;
  return Quat(R).normalized();
}

/// How far a key may let the far end of a large body or part stray between keys, m.
constexpr double kEdge = 5e-4;

class GlbExport final : public MotionExporter::Writer {
 public:
  GlbExport(const ExportSettings& s, const std::vector<ExportBody>& bodies, OutputFiles* files)
      : Writer(s, bodies, files) {
    for (const ExportBody& b : bodies) {
      // The angle tolerance, and that angle seen at the body's edge as a distance; the edge
      // of a large body (a 0.9 m snake, a 2 m zeppelin) within 0.5 mm at most.
      KeyReducer::Tolerance t = s.keyTolerance;
      if (b.radius > 0.0) t.angle = std::min(t.angle, std::atan(kEdge / b.radius));
      t.distance = std::max(t.distance, b.radius * std::tan(t.angle));
      Track& tr = tracks_.emplace_back(KeyReducer(t));
      tr.morphs = needsMorphTargets(b);
      tr.parts = rigidParts(b);
      tr.skin = skinOf(b);
      if (tr.skin.skin != nullptr) {
        // The joints' errors add up along the chain, and each turns the rest of the body: the
        // tolerance is shared among the nodes so that the far end stays within kEdge.
        const std::size_t nodes = tr.skin.skin->nodes.size() + 1;  // and the root
        const auto share = static_cast<double>(nodes);
        KeyReducer::Tolerance jt = t;
        if (b.radius > 0.0) {
          jt.angle = std::min(jt.angle, std::atan(kEdge / (2.0 * b.radius * share)));
        }
        jt.distance = std::min(t.distance, kEdge / share);
        tr.partKeys.assign(nodes, KeyReducer(jt));
      }
      if (tr.parts == nullptr) continue;
      for (const core::RigidPart& part : tr.parts->parts) {
        double r = 0.0;
        for (const int v : part.vertices) {
          r = std::max(r, (tr.parts->rest.row(v).transpose() - part.pivot).norm());
        }
        // A part's far end (a propeller's tip) within 0.5 mm at most.
        KeyReducer::Tolerance pt = s.keyTolerance;
        if (r > 0.0) pt.angle = std::min(pt.angle, std::atan(kEdge / r));
        pt.distance = std::max(pt.distance, r * std::tan(pt.angle));
        tr.partKeys.emplace_back(pt);
      }
    }
  }

  bool needsVertices(int body, long long frame) const override {
    return frame == 0 || tracks_[static_cast<std::size_t>(body)].morphs;
  }

  void addFrame(const Frame& frame) override {
    frameTimes_.push_back(static_cast<float>(frame.time + timeOffset()));
    std::vector<Vec3>& coms = frameComs_.emplace_back();
    for (const BodyFrame& b : frame.bodies) coms.push_back(b.com);
    for (std::size_t i = 0; i < numBodies(); ++i) {
      const BodyFrame& b = of(frame, i);
      Track& tr = tracks_[i];
      tr.keys.add({frame.time, b.pose, b.com}, /*key=*/true);
      addPartSamples(&tr, frame.time, /*key=*/true);
      if (frame.index == 0) {
        requireVertices(b, i);
        tr.origin = b.pose.b;
        tr.q0 = b.pose.q;
        tr.base = toBodyFrame(b);
      }
      if (tr.morphs) {
        requireVertices(b, i);
        const geometry::VertexMatrix D = toBodyFrame(b) - tr.base;
        std::vector<float> t;
        t.reserve(static_cast<std::size_t>(3 * D.rows()));
        for (Eigen::Index r = 0; r < D.rows(); ++r) {
          for (int d = 0; d < 3; ++d) t.push_back(static_cast<float>(D(r, d)));
        }
        addTarget(&tr, std::move(t), frame.index);
      }
    }
  }

  void addStep(const StepPoses& step) override {
    for (std::size_t i = 0; i < numBodies() && i < step.bodies.size(); ++i) {
      tracks_[i].keys.add(step.bodies[i], /*key=*/false);
      addPartSamples(&tracks_[i], step.time, /*key=*/false);
    }
  }

  void finish() override;

 private:
  struct Track {
    explicit Track(KeyReducer k) : keys(std::move(k)) {}
    KeyReducer keys;
    bool morphs = false;                               // shape change as morph targets
    const core::RigidPartsAnimation* parts = nullptr;  // or as child nodes
    std::vector<KeyReducer> partKeys;  // per part (or skin node, then the skin's root)
    SkinView skin;                     // or as a skin
    Vec3 origin = Vec3::Zero();
    Quat q0 = Quat::Identity();
    geometry::VertexMatrix base;              // body frame at frame 0
    std::vector<std::vector<float>> targets;  // displacement from base, each shape once
    std::vector<std::string> targetNames;     // the first frame showing it
    std::vector<std::size_t> targetOf;        // per frame: its target
    std::unordered_multimap<std::uint64_t, std::size_t> targetIndex;  // by rounded values
  };

  /// The parts' placements in the body frame at time t (x' = R x + p).
  static void addPartSamples(Track* tr, double t, bool key) {
    if (tr->skin.skin != nullptr) addSkinSamples(tr, t, key);
    if (tr->parts == nullptr) return;
    for (std::size_t p = 0; p < tr->partKeys.size(); ++p) {
      Mat3 R;
      Vec3 b;
      tr->parts->partTransform(static_cast<int>(p), t, &R, &b);
      // The node's origin is the part's pivot (its mesh is drawn relative to it): a part that
      // turns about its own pivot keeps a constant translation.
      const Vec3& pivot = tr->parts->parts[p].pivot;
      PoseSample s;
      s.time = t;
      s.pose.q = Quat(R).normalized();
      s.pose.b = s.com = R * pivot + b;
      tr->partKeys[p].add(s, key);
    }
  }
  int addMesh(const std::string& name, const geometry::VertexMatrix& V,
              const geometry::FaceMatrix& F, const std::vector<std::vector<float>>& targets,
              const std::vector<std::string>& targetNames, int material);
  /// Frame k's shape: a target of its own, or one that an earlier frame has within 1 µm (a
  /// periodic motion — the eel's wave, a looping sequence — repeats its shapes).
  void addTarget(Track* tr, std::vector<float> t, long long k) const;
  /// The skin's nodes' local placements at time t, then its root's (the removed root motion).
  static void addSkinSamples(Track* tr, double t, bool key);
  /// A skinned mesh, its joints' nodes with their motion and the root carrying meshToBody.
  void addSkin(std::size_t i, int bodyNode, int material, int animation);
  /// The body's mesh without its parts, and a child node per part moving with its keys.
  void addParts(std::size_t i, int bodyNode, int material, int animation);
  void addMotion(const std::vector<PoseSample>& keys, int node, int animation);
  void addWeights(std::size_t i, int node, int animation);
  std::map<std::string, double> sceneExtras() const;
  /// Which bodies draw another's mesh (a species' rigid copies of one shape at any size).
  std::vector<MeshInstance> instances() const;
  /// A camera node looking from c.eye at c.target; with `eyes` (one per frame), it moves so.
  void addCamera(std::vector<int>* roots, const ExportSettings::Camera& c,
                 const std::vector<Vec3>& eyes, int animation) {
    const double distance = (c.target - c.eye).norm();
    const int camera = builder_.addCamera("camera", c.yfov, c.aspect,
                                          std::max(1e-3, 0.01 * distance), 100.0 * distance);
    const Quat q = lookRotation(c.target - c.eye, Vec3::UnitY());
    const int node =
        builder_.addNode({.name = "camera", .camera = camera, .translation = c.eye, .rotation = q});
    roots->push_back(node);
    if (eyes.empty() || animation < 0) return;
    std::vector<float> translation;
    for (const Vec3& e : eyes) {
      for (int d = 0; d < 3; ++d) translation.push_back(static_cast<float>(e[d]));
    }
    const int input = builder_.addFloats(frameTimes_, gltf::ElementType::kScalar,
                                         gltf::BufferTarget::kNone, /*bounds=*/true);
    channel(animation, node, input, translation, gltf::ElementType::kVec3, "translation");
  }
  void channel(int animation, int node, int input, const std::vector<float>& values,
               gltf::ElementType type, const char* path) {
    const int output = builder_.addFloats(values, type, gltf::BufferTarget::kNone, false);
    builder_.addChannel(animation,
                        builder_.addSampler(animation, input, output, gltf::Interpolation::kLinear),
                        node, path);
  }
  /// Key times are the simulation's time plus firstFrame / fps: importers place glTF time t
  /// at frame t·fps (Blender), so frame k lands on the frame number it has in every other
  /// file of the export (frame_0001.obj, the .pc2 start, the .chan sidecar).
  double timeOffset() const {
    return static_cast<double>(settings_.plan.firstFrame) / settings_.plan.fps;
  }

  std::vector<float> frameTimes_;
  std::vector<std::vector<Vec3>> frameComs_;  // per frame: every body's centre of mass
  std::vector<Track> tracks_;
  gltf::Builder builder_{"samara export"};
};

void GlbExport::addTarget(Track* tr, std::vector<float> t, long long k) const {
  constexpr double kSame = 1e-6;  // m
  std::uint64_t hash = 1469598103934665603ull;
  for (const float x : t) {
    hash = (hash ^ static_cast<std::uint64_t>(std::llround(x / kSame / 4.0))) * 1099511628211ull;
  }
  const auto [first, last] = tr->targetIndex.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    const std::vector<float>& u = tr->targets[it->second];
    bool same = true;
    for (std::size_t j = 0; j < t.size() && same; ++j) same = std::abs(u[j] - t[j]) <= kSame;
    if (same) {
      tr->targetOf.push_back(it->second);
      return;
    }
  }
  tr->targetIndex.emplace(hash, tr->targets.size());
  tr->targetOf.push_back(tr->targets.size());
  tr->targetNames.push_back(strf("frame_%04lld", settings_.plan.frameNumber(k)));
  tr->targets.push_back(std::move(t));
}

int GlbExport::addMesh(const std::string& name, const geometry::VertexMatrix& V,
                       const geometry::FaceMatrix& F,
                       const std::vector<std::vector<float>>& targets,
                       const std::vector<std::string>& targetNames, int material) {
  // Area-weighted vertex normals of the shape (body frame).
  geometry::VertexMatrix N = geometry::VertexMatrix::Zero(V.rows(), 3);
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const Vec3 a = V.row(F(f, 0)).transpose(), b = V.row(F(f, 1)).transpose(),
               c = V.row(F(f, 2)).transpose();
    const Vec3 n = (b - a).cross(c - a);
    for (int k = 0; k < 3; ++k) N.row(F(f, k)) += n.transpose();
  }
  std::vector<float> positions, normals;
  for (Eigen::Index r = 0; r < V.rows(); ++r) {
    Vec3 n = N.row(r).transpose();
    n = n.norm() > 0.0 ? Vec3(n.normalized()) : Vec3::UnitY();
    for (int d = 0; d < 3; ++d) {
      positions.push_back(static_cast<float>(V(r, d)));
      normals.push_back(static_cast<float>(n[d]));
    }
  }
  std::vector<std::uint32_t> indices;
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    for (int k = 0; k < 3; ++k) indices.push_back(static_cast<std::uint32_t>(F(f, k)));
  }

  gltf::Primitive prim;
  prim.attributes["POSITION"] = builder_.addFloats(positions, gltf::ElementType::kVec3,
                                                   gltf::BufferTarget::kArray, /*bounds=*/true);
  prim.attributes["NORMAL"] = builder_.addFloats(normals, gltf::ElementType::kVec3,
                                                 gltf::BufferTarget::kArray, /*bounds=*/false);
  prim.indices = builder_.addIndices(indices);
  prim.material = material;
  gltf::Mesh mesh{.name = name};
  for (std::size_t k = 0; k < targets.size(); ++k) {
    mesh.targetNames.push_back(targetNames[k]);  // Blender's shape key names
    prim.targets.push_back({{"POSITION", builder_.addFloats(targets[k], gltf::ElementType::kVec3,
                                                            gltf::BufferTarget::kArray,
                                                            /*bounds=*/true)}});
  }
  mesh.weights.assign(targets.size(), 0.0);
  mesh.primitives.push_back(std::move(prim));
  return builder_.addMesh(mesh);
}

void GlbExport::addSkinSamples(Track* tr, double t, bool key) {
  const core::SkinnedAnimation& skin = *tr->skin.skin;
  const std::vector<Eigen::Matrix4d> global = skin.globalTransforms(t);
  for (std::size_t n = 0; n < skin.nodes.size(); ++n) {
    const int parent = skin.nodes[n].parent;
    const Eigen::Matrix4d local =
        parent >= 0
            ? Eigen::Matrix4d(global[static_cast<std::size_t>(parent)].inverse() * global[n])
            : global[n];
    Mat3 A = local.topLeftCorner<3, 3>();
    for (int c = 0; c < 3; ++c) A.col(c).normalize();  // the scale is the rest's (not animated)
    PoseSample s;
    s.time = t;
    s.pose.q = Quat(A).normalized();
    s.pose.b = s.com = local.topRightCorner<3, 1>();
    tr->partKeys[n].add(s, key);
  }
  // The root: meshToBody's translation less the removed root motion.
  Mat3 M = skin.meshToBody.topLeftCorner<3, 3>();
  for (int c = 0; c < 3; ++c) M.col(c).normalize();
  PoseSample r;
  r.time = t;
  r.pose.q = Quat(M).normalized();
  r.pose.b = skin.meshToBody.topRightCorner<3, 1>();
  if (tr->skin.rootRemoved != nullptr) {
    geometry::VertexMatrix V;
    skin.evaluate(t, &V);
    r.pose.b -= (V.colwise().mean() - tr->skin.rootRemoved->centroid0).transpose();
  }
  r.com = r.pose.b;
  tr->partKeys.back().add(r, key);
}

void GlbExport::addSkin(std::size_t i, int bodyNode, int material, int animation) {
  const Track& tr = tracks_[i];
  const core::SkinnedAnimation& skin = *tr.skin.skin;
  // The root under the body: meshToBody (its scale fixed) and the removed root motion.
  const std::vector<PoseSample> rootKeys = tr.partKeys.back().keys();
  const Mat3 M = skin.meshToBody.topLeftCorner<3, 3>();
  const int root =
      builder_.addNode({.name = body(i).name + ".root",
                        .translation = rootKeys.front().pose.b,
                        .rotation = rootKeys.front().pose.q,
                        .scale = Vec3(M.col(0).norm(), M.col(1).norm(), M.col(2).norm())});
  builder_.addChild(bodyNode, root);
  if (animation >= 0) addMotion(rootKeys, root, animation);
  // The skin's nodes, parents first, with their rest scale.
  std::vector<int> node(skin.nodes.size(), -1);
  for (std::size_t n = 0; n < skin.nodes.size(); ++n) {
    const std::vector<PoseSample> keys = tr.partKeys[n].keys();
    node[n] = builder_.addNode({.name = body(i).name + strf(".joint%zu", n),
                                .translation = keys.front().pose.b,
                                .rotation = keys.front().pose.q,
                                .scale = skin.nodes[n].s});
    const int parent = skin.nodes[n].parent;
    builder_.addChild(parent >= 0 ? node[static_cast<std::size_t>(parent)] : root, node[n]);
    if (animation >= 0) addMotion(keys, node[n], animation);
  }
  // The mesh in its bind pose with 4 joints and weights per vertex.
  const int mesh = addMesh(body(i).name, skin.rest, body(i).faces, {}, {}, material);
  std::vector<std::uint16_t> joints;
  std::vector<float> weights, inverseBind;
  for (Eigen::Index v = 0; v < skin.rest.rows(); ++v) {
    for (int k = 0; k < 4; ++k) {
      const double w = skin.vertexWeights(v, k);
      joints.push_back(static_cast<std::uint16_t>(w > 0.0 ? skin.vertexJoints(v, k) : 0));
      weights.push_back(static_cast<float>(w));
    }
  }
  for (const Eigen::Matrix4d& m : skin.inverseBind) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) inverseBind.push_back(static_cast<float>(m(r, c)));
    }
  }
  builder_.addSkinAttributes(
      mesh,
      builder_.addUnsignedShorts(joints, gltf::ElementType::kVec4, gltf::BufferTarget::kArray),
      builder_.addFloats(weights, gltf::ElementType::kVec4, gltf::BufferTarget::kArray, false));
  gltf::Skin s{.name = body(i).name};
  for (const int j : skin.joints) s.joints.push_back(node[static_cast<std::size_t>(j)]);
  s.skeleton = root;
  s.inverseBindMatrices =
      builder_.addFloats(inverseBind, gltf::ElementType::kMat4, gltf::BufferTarget::kNone, false);
  const int skinIndex = builder_.addSkin(s);
  builder_.addChild(
      bodyNode,
      builder_.addNode({.name = body(i).name + ".mesh", .mesh = mesh, .skin = skinIndex}));
}

void GlbExport::addParts(std::size_t i, int bodyNode, int material, int animation) {
  const Track& tr = tracks_[i];
  const core::RigidPartsAnimation& anim = *tr.parts;
  const geometry::FaceMatrix& F = body(i).faces;
  std::vector<int> partOf(static_cast<std::size_t>(anim.rest.rows()), -1);
  for (std::size_t p = 0; p < anim.parts.size(); ++p) {
    for (const int v : anim.parts[p].vertices)
      partOf[static_cast<std::size_t>(v)] = static_cast<int>(p);
  }
  // The faces of part p (−1: the body itself) with their vertices renumbered.
  auto submesh = [&](int p, geometry::VertexMatrix* V, geometry::FaceMatrix* sub) {
    std::vector<int> index(static_cast<std::size_t>(anim.rest.rows()), -1);
    std::vector<int> used;
    std::vector<Eigen::Index> faces;
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
      if (partOf[static_cast<std::size_t>(F(f, 0))] != p) continue;
      faces.push_back(f);
      for (int c = 0; c < 3; ++c) {
        int& k = index[static_cast<std::size_t>(F(f, c))];
        if (k < 0) {
          k = static_cast<int>(used.size());
          used.push_back(F(f, c));
        }
      }
    }
    V->resize(static_cast<Eigen::Index>(used.size()), 3);
    const Vec3 pivot = p >= 0 ? anim.parts[static_cast<std::size_t>(p)].pivot : Vec3::Zero();
    for (std::size_t k = 0; k < used.size(); ++k) {
      V->row(static_cast<Eigen::Index>(k)) = anim.rest.row(used[k]) - pivot.transpose();
    }
    sub->resize(static_cast<Eigen::Index>(faces.size()), 3);
    for (std::size_t k = 0; k < faces.size(); ++k) {
      for (int c = 0; c < 3; ++c) {
        (*sub)(static_cast<Eigen::Index>(k), c) = index[static_cast<std::size_t>(F(faces[k], c))];
      }
    }
  };
  geometry::VertexMatrix V;
  geometry::FaceMatrix sub;
  for (std::size_t p = 0; p < anim.parts.size(); ++p) {
    submesh(static_cast<int>(p), &V, &sub);
    const std::string name = body(i).name + "." + anim.parts[p].name;
    const int mesh = sub.rows() > 0 ? addMesh(name, V, sub, {}, {}, material) : -1;
    const std::vector<PoseSample> keys = tr.partKeys[p].keys();
    const int node = builder_.addNode({.name = name,
                                       .mesh = mesh,
                                       .translation = keys.front().pose.b,
                                       .rotation = keys.front().pose.q});
    builder_.addChild(bodyNode, node);
    if (animation >= 0) addMotion(keys, node, animation);
  }
}

void GlbExport::addMotion(const std::vector<PoseSample>& keys, int node, int animation) {
  // Key times strictly increasing as floats: a step key that rounds onto the previous key's
  // time is left out (frames are always kept).
  std::vector<float> times, translation, rotation;
  Quat last = Quat::Identity();
  for (const PoseSample& k : keys) {
    const auto t = static_cast<float>(k.time + timeOffset());
    if (!times.empty() && t <= times.back()) continue;
    times.push_back(t);
    for (int d = 0; d < 3; ++d) translation.push_back(static_cast<float>(k.pose.b[d]));
    Quat q = k.pose.q;
    if (rotation.size() >= 4 && q.coeffs().dot(last.coeffs()) < 0.0) q = Quat(-q.coeffs());
    last = q;
    for (const double c : {q.x(), q.y(), q.z(), q.w()}) rotation.push_back(static_cast<float>(c));
  }
  const int input = builder_.addFloats(times, gltf::ElementType::kScalar, gltf::BufferTarget::kNone,
                                       /*bounds=*/true);
  channel(animation, node, input, translation, gltf::ElementType::kVec3, "translation");
  channel(animation, node, input, rotation, gltf::ElementType::kVec4, "rotation");
}

void GlbExport::addWeights(std::size_t i, int node, int animation) {
  const Track& tr = tracks_[i];
  if (tr.targets.empty()) return;
  // LINEAR weights, frame k's target at 1 at frame k: between frames k and k+1 the shape
  // blends from one frame's shape to the next.
  const std::size_t frames = frameTimes_.size(), m = tr.targets.size();
  std::vector<float> w(frames * m, 0.0f);
  for (std::size_t k = 0; k < frames && k < tr.targetOf.size(); ++k)
    w[k * m + tr.targetOf[k]] = 1.0f;
  const int frameInput = builder_.addFloats(frameTimes_, gltf::ElementType::kScalar,
                                            gltf::BufferTarget::kNone, /*bounds=*/true);
  channel(animation, node, frameInput, w, gltf::ElementType::kScalar, "weights");
}

std::map<std::string, double> GlbExport::sceneExtras() const {
  const FramePlan& p = settings_.plan;
  const auto frames = static_cast<long long>(frameTimes_.size());
  // Numbers a user sets in a renderer: the frame rate and the range of frame numbers (the
  // simulation's t = 0 is at glTF time time_offset = frame_start / fps).
  return {{"fps", p.fps},
          {"frame_start", static_cast<double>(p.frameNumber(0))},
          {"frame_end", static_cast<double>(p.frameNumber(std::max(0LL, frames - 1)))},
          {"time_offset", timeOffset()},
          {"time_end", (frames > 0 ? p.frameTime(frames - 1) : 0.0) + timeOffset()}};
}

std::vector<MeshInstance> GlbExport::instances() const {
  std::vector<const geometry::VertexMatrix*> V(numBodies(), nullptr);
  std::vector<const geometry::FaceMatrix*> F(numBodies(), nullptr);
  std::vector<std::string> names(numBodies());
  for (std::size_t i = 0; i < numBodies(); ++i) {
    const Track& tr = tracks_[i];
    names[i] = body(i).name;
    if (tr.morphs || tr.parts != nullptr || tr.skin.skin != nullptr) continue;
    V[i] = &tr.base;
    F[i] = &body(i).faces;
  }
  return findMeshInstances(names, V, F);
}

void GlbExport::finish() {
  int animation = -1;
  std::vector<int> roots;
  // A crowd's copies of one shape share its mesh (and material): a node per body.
  const std::vector<MeshInstance> inst = instances();
  std::vector<bool> shared(numBodies(), false);
  for (std::size_t i = 0; i < inst.size(); ++i) {
    if (inst[i].source != i) shared[inst[i].source] = true;
  }
  std::vector<int> meshOf(numBodies(), -1);
  for (std::size_t i = 0; i < numBodies(); ++i) {
    const Track& tr = tracks_[i];
    if (!frameTimes_.empty() && animation < 0) {
      animation = builder_.addAnimation(settings_.sceneName);
    }
    if (inst[i].source != i) {
      const double s = inst[i].scale;
      const int n = builder_.addNode({.name = body(i).name,
                                      .mesh = meshOf[inst[i].source],
                                      .translation = tr.origin,
                                      .rotation = tr.q0,
                                      .scale = std::abs(s - 1.0) > 1e-9
                                                   ? std::optional<Vec3>(Vec3::Constant(s))
                                                   : std::nullopt});
      roots.push_back(n);
      if (!frameTimes_.empty()) addMotion(tr.keys.keys(), n, animation);
      continue;
    }
    const std::string meshName = shared[i] ? speciesName(body(i).name) : body(i).name;
    const std::array<float, 3>& c = bodyColor(i);
    const int material = builder_.addMaterial(
        {.name = meshName, .baseColor = {c[0], c[1], c[2], 1.0}, .doubleSided = body(i).sheet});
    int mesh = -1;
    if (tr.parts != nullptr) {
      // The body without its parts (they follow as child nodes).
      geometry::FaceMatrix hull(0, 3);
      std::vector<int> partOf(static_cast<std::size_t>(tr.parts->rest.rows()), -1);
      for (const core::RigidPart& part : tr.parts->parts) {
        for (const int v : part.vertices) partOf[static_cast<std::size_t>(v)] = 0;
      }
      const geometry::FaceMatrix& F = body(i).faces;
      for (Eigen::Index f = 0; f < F.rows(); ++f) {
        if (partOf[static_cast<std::size_t>(F(f, 0))] >= 0) continue;
        hull.conservativeResize(hull.rows() + 1, 3);
        hull.row(hull.rows() - 1) = F.row(f);
      }
      if (hull.rows() > 0) mesh = addMesh(body(i).name, tr.parts->rest, hull, {}, {}, material);
    } else if (tr.skin.skin == nullptr) {
      mesh = addMesh(meshName, tr.base, body(i).faces, tr.targets, tr.targetNames, material);
    }
    meshOf[i] = mesh;
    const int n = builder_.addNode(
        {.name = body(i).name, .mesh = mesh, .translation = tr.origin, .rotation = tr.q0});
    roots.push_back(n);
    if (tr.parts != nullptr) addParts(i, n, material, animation);
    if (tr.skin.skin != nullptr) addSkin(i, n, material, animation);
    if (frameTimes_.empty()) continue;
    addMotion(tr.keys.keys(), n, animation);
    addWeights(i, n, animation);
  }
  if (settings_.camera) {
    addCamera(&roots, *settings_.camera, {}, animation);
  } else if (settings_.autoCamera && !frameComs_.empty()) {
    // Following the bodies as the viewer does: looking at the centre of their centres of mass
    // at every frame, from one distance that frames them (and the largest body) at every frame.
    double margin = 0.0;
    for (std::size_t i = 0; i < numBodies(); ++i) margin = std::max(margin, body(i).radius);
    // A close view of a single small body still shows where it goes: at least 4 radii.
    std::vector<Vec3> eyes;
    double distance = 0.0;
    ExportSettings::Camera c;
    for (const std::vector<Vec3>& coms : frameComs_) {
      c = frameCamera(coms, 2.0 * margin, defaultViewDirection(), 0.7, 16.0 / 9.0);
      distance = std::max(distance, (c.target - c.eye).norm());
    }
    for (const std::vector<Vec3>& coms : frameComs_) {
      const ExportSettings::Camera f =
          frameCamera(coms, 0.0, defaultViewDirection(), 0.7, 16.0 / 9.0);
      eyes.push_back(f.target - distance * defaultViewDirection().normalized());
    }
    c.eye = eyes.front();
    c.target = c.eye + distance * defaultViewDirection().normalized();
    addCamera(&roots, c, eyes, animation);
  }
  // A sun from above, front and left (the viewer's key light), 3 lux.
  const int sun = builder_.addSunLight("sun", {1.0, 0.97, 0.92}, 3.0);
  roots.push_back(
      builder_.addNode({.name = "sun",
                        .light = sun,
                        .rotation = lookRotation(Vec3(0.35, -1.0, -0.45), Vec3::UnitZ())}));
  builder_.addScene(settings_.sceneName, roots, sceneExtras());
  files_->write(paths_[0], [&](std::ostream& s) { builder_.writeGlb(s, paths_[0]); });
}

}  // namespace

std::unique_ptr<MotionExporter::Writer> makeGlbWriter(const ExportSettings& settings,
                                                      const std::vector<ExportBody>& bodies,
                                                      OutputFiles* files) {
  return std::make_unique<GlbExport>(settings, bodies, files);
}

}  // namespace samara::io
