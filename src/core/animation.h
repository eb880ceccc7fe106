#pragma once
// Shape-changing bodies: a shape γ(t) in the body frame at any time t (GwtF §3–§7.3).
// Sources: keyframed mesh sequences, glTF-style skins (linear blend skinning), and
// procedural animations (travelling wave, rigid parts on hinges or spinning axes). All are
// pure math here; io/ reads files into these structures.
#include <memory>
#include <string>
#include <vector>

#include "geometry/tri_mesh.h"

namespace samara::core {

/// A time-varying shape with a fixed topology (that of the body's mesh).
class ShapeAnimation {
 public:
  virtual ~ShapeAnimation() = default;
  /// Number of vertices of every shape.
  virtual int numVertices() const = 0;
  /// Body-frame vertex positions at time t (s), n×3, metres. Deterministic in t.
  virtual void evaluate(double t, geometry::VertexMatrix* V) const = 0;
};

/// How time maps past the last keyframe.
enum class LoopMode {
  kLoop,      ///< wrap around (the last frame is followed by the first)
  kHold,      ///< hold the last frame
  kPingPong,  ///< play backwards, then forwards again
};

/// Maps time t to a keyframe coordinate u ∈ [0, frames−1] (fractional).
double keyframeCoordinate(double t, double fps, int frames, LoopMode mode, double timeOffset);

/// Keyframed vertex positions (an OBJ sequence), interpolated linearly or with Catmull–Rom
/// between frames.
class MeshSequence final : public ShapeAnimation {
 public:
  struct Settings {
    double fps = 24.0;                ///< keyframes per second; default 24
    LoopMode mode = LoopMode::kLoop;  ///< default loop
    bool smooth = false;              ///< Catmull–Rom instead of linear; default false
    double timeOffset = 0.0;          ///< s added to t before lookup; default 0
    double timeScale = 1.0;           ///< playback speed (negative plays backwards); default 1
  };
  MeshSequence(std::vector<geometry::VertexMatrix> frames, Settings settings);
  int numVertices() const override;
  void evaluate(double t, geometry::VertexMatrix* V) const override;
  int numFrames() const { return static_cast<int>(frames_.size()); }

 private:
  std::vector<geometry::VertexMatrix> frames_;
  Settings s_;
};

/// A scalar keyframe track (times in s, values), Catmull–Rom or linear, optionally looped.
struct ScalarTrack {
  std::vector<double> times;   ///< strictly increasing, s
  std::vector<double> values;  ///< one per time
  bool loop = true;            ///< period = last time − first time (last value = first)
  bool smooth = true;          ///< Catmull–Rom (else linear)
  double evaluate(double t) const;
};

/// Travelling wave along `axis` with lateral displacement along `lateral` (eels, snakes):
///   d(s, t) = A(s) sin(2π (s/λ − f t) + φ)·ramp(t),  s = ⟨x − origin, axis⟩,
///   A(s) = a0 + a1 ŝ + a2 ŝ², ŝ = (s − s_min)/(s_max − s_min) ∈ [0, 1] along the rest mesh.
struct TravellingWave final : public ShapeAnimation {
  geometry::VertexMatrix rest;          ///< rest shape, n×3, m
  Eigen::Vector3d axis{1, 0, 0};        ///< unit, body frame; default +x
  Eigen::Vector3d lateral{0, 0, 1};     ///< unit, ⟂ axis; default +z
  double a0 = 0.0, a1 = 0.0, a2 = 0.1;  ///< amplitude envelope coefficients, m
  double wavelength = 1.0;              ///< λ, m; default 1
  double frequency = 1.0;               ///< f, Hz (negative reverses the wave); default 1
  double phase = 0.0;                   ///< φ, rad; default 0
  double rampTime = 0.0;                ///< smooth start over this time, s; default 0
  int numVertices() const override { return static_cast<int>(rest.rows()); }
  void evaluate(double t, geometry::VertexMatrix* V) const override;
  /// Call after setting `rest` and `axis` (computes the extent along the axis).
  void prepare();

 private:
  double sMin_ = 0.0, sMax_ = 1.0;
};

/// Rigid parts of a mesh (flippers, propellers, rudders) rotating about their own axes.
struct RigidPart {
  std::string name;                ///< for messages
  std::vector<int> vertices;       ///< vertex indices of the part
  Eigen::Vector3d pivot{0, 0, 0};  ///< a point on the axis, body frame, m
  Eigen::Vector3d axis{0, 1, 0};   ///< unit rotation axis, body frame
  double spinRate = 0.0;           ///< constant spin, rad/s (propellers); default 0
  ScalarTrack angle;               ///< keyframed angle, rad (hinges); empty = 0
  int parent = -1;                 ///< index of a parent part whose motion it follows
};

struct RigidPartsAnimation final : public ShapeAnimation {
  geometry::VertexMatrix rest;   ///< rest shape, n×3, m
  std::vector<RigidPart> parts;  ///< parents before children
  int numVertices() const override { return static_cast<int>(rest.rows()); }
  void evaluate(double t, geometry::VertexMatrix* V) const override;
  /// The rotation of part i at time t (composed with its parents), as (R, translation).
  void partTransform(int i, double t, Eigen::Matrix3d* R, Eigen::Vector3d* p) const;
};

/// A skinned mesh (glTF 2.0 semantics): a node hierarchy with rest TRS, animation channels,
/// joints with inverse bind matrices, and up to 4 weighted joints per vertex.
struct SkinnedAnimation final : public ShapeAnimation {
  enum class Path { kTranslation, kRotation, kScale };
  enum class Interp { kLinear, kStep, kCubicSpline };
  struct Node {
    int parent = -1;
    Eigen::Vector3d t{0, 0, 0};
    Eigen::Quaterniond r = Eigen::Quaterniond::Identity();
    Eigen::Vector3d s{1, 1, 1};
  };
  struct Channel {
    int node = 0;
    Path path = Path::kTranslation;
    Interp interp = Interp::kLinear;
    std::vector<double> times;  ///< s, increasing
    /// Values: 3 (T, S) or 4 (R as x, y, z, w) per key; cubic spline stores
    /// (in-tangent, value, out-tangent) per key.
    std::vector<double> values;
  };
  geometry::VertexMatrix rest;                               ///< bind-pose positions, n×3, m
  std::vector<Node> nodes;                                   ///< parents before children
  std::vector<int> joints;                                   ///< skin joint → node index
  std::vector<Eigen::Matrix4d> inverseBind;                  ///< per skin joint
  Eigen::Matrix4d meshToBody = Eigen::Matrix4d::Identity();  ///< applied after skinning
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> vertexJoints;      ///< n×4
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> vertexWeights;  ///< n×4, Σ = 1
  std::vector<Channel> channels;
  double duration = 0.0;   ///< s (max channel time)
  bool loop = true;        ///< default true
  double timeScale = 1.0;  ///< default 1
  int numVertices() const override { return static_cast<int>(rest.rows()); }
  void evaluate(double t, geometry::VertexMatrix* V) const override;
  /// Global node matrices at time t.
  std::vector<Eigen::Matrix4d> globalTransforms(double t) const;
};

/// Removes the animator's root drift: subtracts the translation of the vertex centroid
/// relative to its position at t = 0 (so the shape stays around the body origin).
struct RootMotionRemoved final : public ShapeAnimation {
  explicit RootMotionRemoved(std::shared_ptr<const ShapeAnimation> a);
  std::shared_ptr<const ShapeAnimation> inner;
  Eigen::RowVector3d centroid0 = Eigen::RowVector3d::Zero();
  int numVertices() const override { return inner->numVertices(); }
  void evaluate(double t, geometry::VertexMatrix* V) const override;
};

/// Time-reverses or retimes another animation: γ'(t) = γ(offset + scale·t).
struct RetimedAnimation final : public ShapeAnimation {
  std::shared_ptr<const ShapeAnimation> inner;
  double scale = 1.0;
  double offset = 0.0;
  int numVertices() const override { return inner->numVertices(); }
  void evaluate(double t, geometry::VertexMatrix* V) const override {
    inner->evaluate(offset + scale * t, V);
  }
};

}  // namespace samara::core
