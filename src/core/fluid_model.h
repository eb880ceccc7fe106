#pragma once
// The interface for alternative fluid models (issue 6). samara's own model (GwtF: local
// added mass + flat-plate lift/drag per face) is built into the body; a body may instead
// carry a FluidModel (src/models/: MuJoCo's inertia-box and ellipsoid models, Xie–Miyata)
// that supplies its own added mass and fluid wrench. Either way the body is stepped by
// the same variational integrator, so only the fluid model differs.
#include <cstdint>
#include <memory>
#include <string>

#include "core/se3.h"
#include "geometry/tri_mesh.h"

namespace samara::core {

/// What a fluid model sees of a body at the start of a step. Body frame (the frame the
/// mesh is given in), torques about the body origin, 6-vectors ordered (angular, linear).
struct FluidModelInput {
  double t = 0.0;                  ///< time at the step start, s
  double h = 0.0;                  ///< step size, s
  double density = 0.0;            ///< fluid density at the centre of mass, kg/m³
  double viscosity = 0.0;          ///< dynamic viscosity at the centre of mass, Pa·s
  Vec3 flowBody = Vec3::Zero();    ///< background flow (wind + gusts) at the COM, body frame, m/s
  double mass = 0.0;               ///< body mass, kg
  Vec3 com = Vec3::Zero();         ///< centre of mass, body frame, m
  Mat3 inertiaCom = Mat3::Zero();  ///< inertia about the COM, body axes, kg·m²
  const geometry::TriMesh* mesh = nullptr;  ///< current shape, body frame, m
  double sheetThickness = 0.0;              ///< mass.thickness of sheet parts, m (0 = not given)
  std::int64_t stepIndex = 0;               ///< index of the step that starts at t
};

/// A fluid model. One instance per body (the World clones the scene's prototype), so a
/// model may keep per-body state (e.g. a seeded stochastic process) that advance() updates
/// once per accepted step. Same input, same bits: no global random state.
class FluidModel {
 public:
  virtual ~FluidModel() = default;
  /// The scene-file name ("mujoco-ellipsoid", …).
  virtual std::string name() const = 0;
  virtual std::unique_ptr<FluidModel> clone() const = 0;
  /// Added mass that enters samara's Kirchhoff tensor 𝒦 (body frame, about the body
  /// origin, (ω, v) order, symmetric positive semi-definite). Default: none.
  virtual Mat6 addedMass(const FluidModelInput& in) const;
  /// The fluid wrench (torque about the body origin, force), body frame, at body velocity
  /// Y = (ω, v) (velocity of the body-origin point, body frame). Must be finite for finite
  /// input. The integrator treats it implicitly (Jacobian by central differences).
  virtual Vec6 wrench(const FluidModelInput& in, const Vec6& Y) const = 0;
  /// True if samara's exact Archimedes buoyancy applies to the body. Default false.
  virtual bool buoyancy() const { return false; }
  /// Advances internal state after an accepted step from Y at the step start to the new
  /// state (t = in.t + in.h). Default: stateless.
  virtual void advance(const FluidModelInput& in, const Vec6& Y);
};

/// The principal frame of a body: COM, principal axes (columns of R, body frame,
/// right-handed, sorted by ascending principal moment) and the principal moments.
struct PrincipalFrame {
  Vec3 com = Vec3::Zero();      ///< body frame, m
  Mat3 R = Mat3::Identity();    ///< principal → body rotation (columns = axes)
  Vec3 moments = Vec3::Zero();  ///< principal moments of inertia, ascending, kg·m²
};

/// Eigen-decomposition of the inertia about the COM (deterministic axis signs: the
/// largest-magnitude component of each axis is positive, then the third axis is e1 × e2).
PrincipalFrame principalFrame(const Vec3& com, const Mat3& inertiaCom);

/// Body velocity Y (about the body origin, body frame) → (ω, v_COM) in a local frame with
/// origin `frame.com` and axes `frame.R` (columns in body coordinates).
Vec6 velocityToLocal(const PrincipalFrame& frame, const Vec6& Y);

/// A local wrench (torque about the local origin, force; local axes) → body wrench
/// (torque about the body origin, force; body axes).
Vec6 wrenchFromLocal(const PrincipalFrame& frame, const Vec6& wrenchLocal);

/// A local diagonal 6×6 inertia-like tensor diag(I_rot, m_lin) (local axes, about the
/// local origin) → body frame about the body origin: Xᵀ M X with X the velocity map.
Mat6 inertiaFromLocal(const PrincipalFrame& frame, const Mat6& local);

/// No fluid at all: no added mass, no forces, no buoyancy (the lecture's contrast).
class VacuumModel final : public FluidModel {
 public:
  std::string name() const override { return "vacuum"; }
  std::unique_ptr<FluidModel> clone() const override {
    return std::make_unique<VacuumModel>(*this);
  }
  Vec6 wrench(const FluidModelInput&, const Vec6&) const override { return Vec6::Zero(); }
};

}  // namespace samara::core
