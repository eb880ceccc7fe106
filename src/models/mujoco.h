#pragma once
// MuJoCo's two fluid models (issue 6), as MuJoCo 3.x computes them (engine_passive.c:
// mj_inertiaBoxFluidModel, mj_ellipsoidFluidModel → mj_addedMassForces + mj_viscousForces;
// user_objects.cc: mjCGeom::SetFluidCoefs for the added mass). Documentation: "Fluid forces"
// in MuJoCo's Computation chapter. Where the code differs from the documentation, these
// functions follow the code (see the notes at each function).
//
// The pure functions work in a *local frame*: origin at the centre of mass (ellipsoid
// centre), axes the principal axes; 6-vectors ordered (angular, linear); the caller has
// already subtracted the background flow (wind) from the linear velocity, so the wind enters
// every term. Torques are about the local origin. SI units throughout (MuJoCo's clamps
// 1e-15 are absolute, so the units matter for centimetre-size bodies).
#include <memory>
#include <optional>
#include <string>

#include "core/fluid_model.h"

namespace samara::models {

// --- inertia-box model ---------------------------------------------------------------------

/// Full edge lengths (m) of MuJoCo's equivalent inertia box of a body of mass `mass` (kg,
/// > 0) with principal moments `principalMoments` (kg·m²):
/// box_i = sqrt(max(1e-15, I_j + I_k − I_i) / m · 6). A solid box recovers its edges.
Vec3 inertiaBoxSize(double mass, const Vec3& principalMoments);

/// mj_inertiaBoxFluidModel in the box frame: box = full edge lengths (m), density ρ (kg/m³),
/// dynamic viscosity β (Pa·s), velLocal = (ω, v − wind) (rad/s, m/s). Returns (torque
/// about the COM N·m, force N):
///   viscous (β > 0), d = mean edge:  g = −π d³ β ω,  f = −3π d β v;
///   quadratic (ρ > 0):  f_i −= ½ ρ b_j b_k |v_i| v_i,  g_i −= ρ b_i (b_j⁴ + b_k⁴) |ω_i| ω_i / 64.
Vec6 inertiaBoxWrench(const Vec3& box, double density, double viscosity, const Vec6& velLocal);

// --- ellipsoid model ---------------------------------------------------------------------

/// Tuckerman's coefficients κ_i = r_x r_y r_z ∫₀^∞ dλ / ((r_i² + λ) √((r_x²+λ)(r_y²+λ)(r_z²+λ)))
/// (dimensionless; κ_x + κ_y + κ_z = 2; a sphere has κ_i = 2/3). semiAxes > 0, m.
/// Numerical quadrature: λ = e^s and the trapezoidal rule in s (step 1/4), which converges
/// exponentially for this integrand (analytic in the strip |Im s| < π); accurate to ~1e-15
/// for any aspect ratio. MuJoCo uses a 15-point Gauss–Kronrod rule on λ = x³/(1−x)² with
/// 8-digit weights: m_A is 6e-7 low for a sphere, and for the 1000:1 card (17.5, 10,
/// 0.0175 mm) the normal m_A is 6 % and the in-plane I_A 4–5 % high; we keep κ exact.
Vec3 tuckermanKappa(const Vec3& semiAxes);

/// Translational added mass (kg) along each semi-axis: m_A,i = ρ V κ_i / max(1e-14, 2 − κ_i),
/// V = 4/3 π r_x r_y r_z (MuJoCo's SetFluidCoefs; ½ ρ V for a sphere).
Vec3 addedMassLinear(const Vec3& semiAxes, double density);

/// Rotational added mass (kg·m²) about each semi-axis, as MuJoCo's SetFluidCoefs computes it:
///   I_A,i = ρ V/5 (r_j² − r_k²)² |κ_k − κ_j| / max(1e-14, |D|),
///   D = 2(r_j² − r_k²) + (r_j² + r_k²)(κ_j − κ_k).
/// The documentation has no absolute values; the code takes them (numerator and D change
/// sign together). Exactly zero about an axis of symmetry (r_j = r_k).
Vec3 addedMassAngular(const Vec3& semiAxes, double density);

/// MuJoCo's "projected area" (m²) for a velocity v (m/s, local frame) with its clamp:
/// A = π √(den / max(1e-15, num)), w_i = (r_j r_k)², num = Σ w_i v_i², den = Σ w_i² v_i².
/// Zero for v = 0. Note: this is the area of the central section of the ellipsoid by the
/// plane conjugate to v (normal n ∝ (r_j r_k / r_i) v_i), i.e. the area of the silhouette
/// *outline*, not of its shadow on the plane normal to v: shadow = A |n̂·v̂| = π √num / |v|.
/// The two agree along a principal axis and for spheres; MuJoCo's documentation lemma calls
/// A the projected area. We follow the code (the drag uses A).
double projectedArea(const Vec3& semiAxes, const Vec3& v);

/// MuJoCo's `fluidcoef` (same order and defaults). Dimensionless.
struct EllipsoidCoefficients {
  double bluntDrag = 0.5;     ///< C_D,blunt, default 0.5
  double slenderDrag = 0.25;  ///< C_D,slender, default 0.25
  double angularDrag = 1.5;   ///< C_D,angular, default 1.5
  double kuttaLift = 1.0;     ///< C_K, default 1
  double magnusLift = 1.0;    ///< C_M, default 1
};

/// mj_ellipsoidFluidModel for one ellipsoid in its own frame (semi-axes r, m), fluid density ρ
/// (kg/m³), dynamic viscosity β (Pa·s), velLocal = (ω, v − wind). Returns (torque about the
/// centre N·m, force N), the sum of, with V = 4/3 π r_x r_y r_z, r_D = (r_x + r_y + r_z)/3:
///   added mass (if addedMassVelocityTerms; no acceleration terms, as in MuJoCo):
///     f += (m_A∘v) × ω,  g += (m_A∘v) × v + (I_A∘ω) × ω;
///   Magnus:  f += C_M ρ V ω × v;
///   Kutta:   f += C_K ρ A cos α (n × v) × v,  n = w∘v,  cos α = num / max(1e-15, |v| den);
///   drag:    f −= [6π β r_D + ρ |v| (C_blunt A + C_slender (A_max − A))] v,
///            A_max = π r_max r_mid;
///   angular: g −= [8π β r_D³ + ρ ‖K∘ω‖] ω,  K_i = C_ang I_D,i + C_slender (I_max − I_D,i),
///            I_D,i = 8π/15 r_i max(r_j, r_k)⁴,  I_max = 8π/15 r_mid r_max⁴.
/// Code vs documentation: A_max = π r_max r_mid (docs: 4π r_max r_min); the angular drag
/// uses the Euclidean norm ‖K∘ω‖ (docs: the dot product K·ω); β multiplies the force
/// directly, i.e. it is a dynamic viscosity (docs: kinematic).
Vec6 ellipsoidWrench(const Vec3& semiAxes, const EllipsoidCoefficients& c, double density,
                     double viscosity, const Vec6& velLocal, bool addedMassVelocityTerms);

/// Semi-axes (m) of the ellipsoid fitted to a mesh, in the principal frame's axis order:
/// half the extent (max − min)/2 of the vertices along each principal axis. A semi-axis below
/// the floor max(sheetThickness/2, 1e-3 × largest semi-axis) — in particular the zero extent
/// of a flat sheet — is raised to the floor, so the ellipsoid never degenerates.
/// (MuJoCo sizes a mesh geom by max(|min|, |max|) about the mesh's centre of mass.)
Vec3 meshSemiAxes(const geometry::TriMesh& mesh, const core::PrincipalFrame& frame,
                  double sheetThickness);

// --- the models behind core::FluidModel ----------------------------------------------------

/// Parameters of "mujoco-inertia" (none yet).
struct MujocoInertiaParams {};

/// MuJoCo's inertia-box model: the body is its equivalent inertia box (from in.mass and the
/// principal moments of in.inertiaCom), forces at the COM in the principal frame. No added
/// mass, no buoyancy. Zero wrench for mass < 1e-15 kg (MuJoCo skips such bodies).
class MujocoInertiaModel final : public core::FluidModel {
 public:
  explicit MujocoInertiaModel(const MujocoInertiaParams& params = {}) : params_(params) {}
  std::string name() const override { return "mujoco-inertia"; }
  std::unique_ptr<core::FluidModel> clone() const override {
    return std::make_unique<MujocoInertiaModel>(*this);
  }
  Vec6 wrench(const core::FluidModelInput& in, const Vec6& Y) const override;
  const MujocoInertiaParams& params() const { return params_; }

 private:
  MujocoInertiaParams params_;
};

/// Parameters of "mujoco-ellipsoid".
struct MujocoEllipsoidParams {
  /// Semi-axes along the principal axes (ascending principal moment order), m. Default:
  /// from the current mesh (meshSemiAxes).
  std::optional<Vec3> semiAxes;
  /// MuJoCo's fluidcoef; defaults (0.5, 0.25, 1.5, 1, 1).
  EllipsoidCoefficients coef;
  /// false (default, as MuJoCo): the added mass acts only through MuJoCo's velocity terms
  /// inside wrench(), and addedMass() is zero. true: addedMass() returns diag(I_A, m_A) (in
  /// the principal frame, mapped to the body origin) for samara's Kirchhoff tensor, and
  /// wrench() leaves the velocity terms to the integrator.
  bool kirchhoffAddedMass = false;
};

/// MuJoCo's ellipsoid model for the whole body: one ellipsoid centred at the COM with the
/// principal axes. No buoyancy. Zero wrench for mass < 1e-15 kg or without a shape.
class MujocoEllipsoidModel final : public core::FluidModel {
 public:
  /// Throws std::invalid_argument if `params.semiAxes` is given and not finite and > 0.
  explicit MujocoEllipsoidModel(const MujocoEllipsoidParams& params = {});
  std::string name() const override { return "mujoco-ellipsoid"; }
  std::unique_ptr<core::FluidModel> clone() const override {
    return std::make_unique<MujocoEllipsoidModel>(*this);
  }
  Mat6 addedMass(const core::FluidModelInput& in) const override;
  Vec6 wrench(const core::FluidModelInput& in, const Vec6& Y) const override;
  const MujocoEllipsoidParams& params() const { return params_; }
  /// The semi-axes used for this input (params or mesh), m; zero if there is no shape.
  Vec3 semiAxes(const core::FluidModelInput& in, const core::PrincipalFrame& frame) const;

 private:
  MujocoEllipsoidParams params_;
};

}  // namespace samara::models
