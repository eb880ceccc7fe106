#pragma once
// MuJoCo's two fluid models (issue 6), as MuJoCo 3.x computes them (engine_passive.c:
// mj_inertiaBoxFluidModel, mj_ellipsoidFluidModel → mj_addedMassForces + mj_viscousForces;
// user_objects.cc: mjCGeom::SetFluidCoefs / GetAddedMassKappa for the added mass, with
// MuJoCo's own 15-point quadrature for κ). Documentation: "Fluid forces" in MuJoCo's
// Computation chapter. Where the code differs from the documentation, these functions follow
// the code (see the notes at each function). The arithmetic follows MuJoCo's order of
// operations; tests/models/test_mujoco.cpp reproduces geom_fluid and qfrc_fluid of MuJoCo
// 3.3.8 (measured: bit-identical in the local frame, ≤ 1e-15 relative through the model with
// a rotated, offset ellipsoid in wind). What remains different from MuJoCo:
//  - one ellipsoid per body at the COM in the principal frame (MuJoCo: one per geom with
//    fluidshape="ellipsoid", in the geom frame; the same for a single-geom body);
//  - the mesh-fitted semi-axes (see meshSemiAxes), and the axis order (ascending principal
//    moment; MuJoCo's mesh frame may order them otherwise): a permutation changes only
//    rounding (κ's (r_x³ r_y r_z)^{2/5} scale is taken in another order);
//  - the wind is subtracted in the body frame before rotating (MuJoCo rotates body velocity
//    and wind separately), a rounding-level difference;
//  - no added-mass acceleration terms (as in MuJoCo) unless kirchhoffAddedMass.
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
/// Accurate reference quadrature (not what the model uses, see mujocoKappa): λ = e^s and the
/// trapezoidal rule in s (step 1/4), which converges exponentially for this integrand
/// (analytic in the strip |Im s| < π); accurate to ~1e-15 for any aspect ratio.
Vec3 tuckermanKappa(const Vec3& semiAxes);

/// κ_i as MuJoCo computes them (the ones the ellipsoid model uses): a transcription of
/// mjCGeom::GetAddedMassKappa / SetFluidCoefs in MuJoCo's src/user/user_objects.cc (3.x):
/// κ_x = (1/r_x²) ∫₀^∞ dλ / ((1 + λ/r_x²)^{3/2} √((1 + λ/r_y²)(1 + λ/r_z²))) with
/// λ = (r_x³ r_y r_z)^{2/5} x³/(1 − x)², x ∈ [0, 1], by the 15-point Kronrod rule with weights
/// rounded to 8 decimals; κ_y, κ_z by the cyclic permutations (r_y, r_z, r_x), (r_z, r_x, r_y).
/// Same constants and order of operations, so the bits match MuJoCo's. Versus tuckermanKappa
/// (measured, tests/models/test_mujoco.cpp): sphere 2.62e-7 low each (Σκ = 2 − 7.9e-7, m_A
/// 5.9e-7 below ½ρV); 3:2:1 ellipsoid |Δκ| ≤ 8.1e-8; the 3.5 × 2 cm card 0.1 mm thick (17.5,
/// 10, 0.05 mm): in-plane Δκ −3.2e-8, +3.9e-8, κ_normal 5.4e-5 low, but 2 − κ_normal = 0.0126
/// so m_A,normal is 0.43 % low and the in-plane I_A 0.26 %, 0.33 % low; at 1000:1 (17.5 µm)
/// m_A,normal is 6.2 % and the in-plane I_A 3.6 %, 4.7 % high; a disk with c/a = 1e-6 gets
/// κ_normal = 2.116 > 2, so m_A,normal hits the 1e-14 clamp (3.3e8 × Lamb's value) — as in
/// MuJoCo.
Vec3 mujocoKappa(const Vec3& semiAxes);

/// Which κ the added-mass functions use. The mujoco-ellipsoid model always uses `mujoco`.
enum class KappaQuadrature {
  accurate,  ///< tuckermanKappa (~1e-15): the formulas' exact value
  mujoco,    ///< mujocoKappa: MuJoCo's numbers (geom_fluid) bit for bit
};

/// Translational added mass (kg) along each semi-axis, MuJoCo's SetFluidCoefs times ρ:
/// m_A,i = ρ · [V κ_i / max(1e-14, 2 − κ_i)], V = 4/3 π r_x r_y r_z (½ ρ V for a sphere;
/// 5.9e-7 less with MuJoCo's κ). With KappaQuadrature::mujoco the bracket is MuJoCo's
/// geom_fluid[6..8] (m³). The default κ is the accurate one (tests/models/test_xie_miyata.cpp
/// compares these with Xie–Miyata's exact integrals); the model passes `mujoco`.
Vec3 addedMassLinear(const Vec3& semiAxes, double density,
                     KappaQuadrature kappa = KappaQuadrature::accurate);

/// Rotational added mass (kg·m²) about each semi-axis, as MuJoCo's SetFluidCoefs computes it:
///   I_A,i = ρ · [V/5 (r_j² − r_k²)² |κ_k − κ_j| / max(1e-14, |D|)],
///   D = 2(r_j² − r_k²) + (r_j² + r_k²)(κ_j − κ_k).
/// The documentation has no absolute values; the code takes them (numerator and D change
/// sign together). Exactly zero about an axis of symmetry (r_j = r_k). With
/// KappaQuadrature::mujoco the bracket is MuJoCo's geom_fluid[9..11] (m⁵). (The clamps are
/// mjEPS = 1e-14 in MuJoCo 3.x; earlier versions used mjMINVAL = 1e-15, which only matters
/// for κ within 1e-14 of 2, as for a disk thinner than about 1e-5 of its radius.)
Vec3 addedMassAngular(const Vec3& semiAxes, double density,
                      KappaQuadrature kappa = KappaQuadrature::accurate);

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
///     f += (m_A∘v) × ω,  g += (m_A∘v) × v + (I_A∘ω) × ω  (κ = mujocoKappa);
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
/// Differs from MuJoCo: a mesh geom's size there is max(|min|, |max|) of the vertices about
/// the mesh's centre of mass in its inertial frame (mjCGeom::Compile, from mesh->aamm()), so
/// the two agree only for meshes symmetric about their COM (boxes, plates, ellipsoids); MuJoCo
/// has no floor (a flat mesh needs inertia="shell" there, else it fails to compile).
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
  /// semi_axes (when given), fluidcoef, added_mass.
  std::vector<core::ModelParam> parameterList() const override;
  void readParameters(const core::ParamReader& r) override;
  Mat6 addedMass(const core::FluidModelInput& in) const override;
  Vec6 wrench(const core::FluidModelInput& in, const Vec6& Y) const override;
  const MujocoEllipsoidParams& params() const { return params_; }
  /// The semi-axes used for this input (params or mesh), m; zero if there is no shape.
  Vec3 semiAxes(const core::FluidModelInput& in, const core::PrincipalFrame& frame) const;

 private:
  MujocoEllipsoidParams params_;
  // The mesh's semi-axes for the last shape and frame (a step evaluates the wrench ~30
  // times at one shape): reused while the vertices, frame and thickness are bitwise equal.
  mutable geometry::VertexMatrix cacheV_;
  mutable Mat3 cacheR_ = Mat3::Zero();
  mutable Vec3 cacheCom_ = Vec3::Zero();
  mutable double cacheThickness_ = -1.0;
  mutable Vec3 cacheAxes_ = Vec3::Zero();
};

}  // namespace samara::models
