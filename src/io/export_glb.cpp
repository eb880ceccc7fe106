// The glb writer of io/export.h: a node per body with its mesh and material, keys at every
// frame and, between frames, wherever a body turns fast (KeyReducer); a shape-changing body's
// morph targets with LINEAR weights; a camera, a sun and the frame rate and range in the
// scene's extras.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

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

class GlbExport final : public MotionExporter::Writer {
 public:
  GlbExport(const ExportSettings& s, const std::vector<ExportBody>& bodies, OutputFiles* files)
      : Writer(s, bodies, files) {
    for (const ExportBody& b : bodies) {
      KeyReducer::Tolerance t = s.keyTolerance;
      // The angle tolerance seen at the body's edge, as a distance.
      t.distance = std::max(t.distance, b.radius * std::tan(t.angle));
      Track& tr = tracks_.emplace_back(KeyReducer(t));
      tr.morphs = needsMorphTargets(b);
      tr.parts = rigidParts(b);
      tr.skin = skinOf(b);
      if (tr.skin.skin != nullptr) {
        for (std::size_t n = 0; n <= tr.skin.skin->nodes.size(); ++n) tr.partKeys.emplace_back(t);
      }
      if (tr.parts == nullptr) continue;
      for (const core::RigidPart& part : tr.parts->parts) {
        double r = 0.0;
        for (const int v : part.vertices) {
          r = std::max(r, (tr.parts->rest.row(v).transpose() - part.pivot).norm());
        }
        KeyReducer::Tolerance pt = s.keyTolerance;
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
        std::vector<float>& t = tr.targets.emplace_back();
        t.reserve(static_cast<std::size_t>(3 * D.rows()));
        for (Eigen::Index r = 0; r < D.rows(); ++r) {
          for (int d = 0; d < 3; ++d) t.push_back(static_cast<float>(D(r, d)));
        }
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
    std::vector<std::vector<float>> targets;  // per frame: displacement from base
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
              int material);
  /// The skin's nodes' local placements at time t, then its root's (the removed root motion).
  static void addSkinSamples(Track* tr, double t, bool key);
  /// A skinned mesh, its joints' nodes with their motion and the root carrying meshToBody.
  void addSkin(std::size_t i, int bodyNode, int material, int animation);
  /// The body's mesh without its parts, and a child node per part moving with its keys.
  void addParts(std::size_t i, int bodyNode, int material, int animation);
  void addMotion(const std::vector<PoseSample>& keys, int node, int animation);
  void addWeights(std::size_t i, int node, int animation);
  std::map<std::string, double> sceneExtras() const;
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
  std::vector<Track> tracks_;
  gltf::Builder builder_{"samara export"};
};

int GlbExport::addMesh(const std::string& name, const geometry::VertexMatrix& V,
                       const geometry::FaceMatrix& F,
                       const std::vector<std::vector<float>>& targets, int material) {
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
    // Blender's shape key names: the frame numbers a user sees.
    mesh.targetNames.push_back(
        strf("frame_%04lld", settings_.plan.frameNumber(static_cast<long long>(k))));
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
  const int mesh = addMesh(body(i).name, skin.rest, body(i).faces, {}, material);
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
    const int mesh = sub.rows() > 0 ? addMesh(name, V, sub, {}, material) : -1;
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
  // LINEAR weights, target k at 1 at frame k: between frames k and k+1 the shape blends
  // from target k to target k+1.
  const std::size_t frames = frameTimes_.size(), m = tr.targets.size();
  std::vector<float> w(frames * m, 0.0f);
  for (std::size_t k = 0; k < frames && k < m; ++k) w[k * m + k] = 1.0f;
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

void GlbExport::finish() {
  int animation = -1;
  std::vector<int> roots;
  for (std::size_t i = 0; i < numBodies(); ++i) {
    const Track& tr = tracks_[i];
    const std::array<float, 3>& c = bodyColor(i);
    const int material = builder_.addMaterial(
        {.name = body(i).name, .baseColor = {c[0], c[1], c[2], 1.0}, .doubleSided = body(i).sheet});
    if (!frameTimes_.empty() && animation < 0) {
      animation = builder_.addAnimation(settings_.sceneName);
    }
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
      if (hull.rows() > 0) mesh = addMesh(body(i).name, tr.parts->rest, hull, {}, material);
    } else if (tr.skin.skin == nullptr) {
      mesh = addMesh(body(i).name, tr.base, body(i).faces, tr.targets, material);
    }
    const int n = builder_.addNode(
        {.name = body(i).name, .mesh = mesh, .translation = tr.origin, .rotation = tr.q0});
    roots.push_back(n);
    if (tr.parts != nullptr) addParts(i, n, material, animation);
    if (tr.skin.skin != nullptr) addSkin(i, n, material, animation);
    if (frameTimes_.empty()) continue;
    addMotion(tr.keys.keys(), n, animation);
    addWeights(i, n, animation);
  }
  std::optional<ExportSettings::Camera> view = settings_.camera;
  if (!view && settings_.autoCamera) {
    // Every body's centre of mass at every frame and key, and a margin of the largest body.
    std::vector<Vec3> points;
    double margin = 0.0;
    for (std::size_t i = 0; i < numBodies(); ++i) {
      for (const PoseSample& k : tracks_[i].keys.keys()) points.push_back(k.com);
      margin = std::max(margin, body(i).radius);
    }
    view = frameCamera(points, margin, defaultViewDirection(), 0.7, 16.0 / 9.0);
  }
  if (view) {
    const ExportSettings::Camera& c = *view;
    const double distance = (c.target - c.eye).norm();
    const int camera = builder_.addCamera("camera", c.yfov, c.aspect,
                                          std::max(1e-3, 0.01 * distance), 100.0 * distance);
    roots.push_back(builder_.addNode({.name = "camera",
                                      .camera = camera,
                                      .translation = c.eye,
                                      .rotation = lookRotation(c.target - c.eye, Vec3::UnitY())}));
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
