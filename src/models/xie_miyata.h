#pragma once
// The Xie–Miyata pattern-guided fluid model (Xie & Miyata, "Pattern-Guided Simulations of
// Immersed Rigid Bodies", MIG 2015, §4 and App. A; issue 6).
//
// The body is replaced by a proxy ellipsoid (semi-axes a ≥ b ≥ c along the natural axes of
// its vertices). The fluid acts through
//   - the analytic added-mass tensors of that ellipsoid (Lamb's coefficients, App. A),
//     which enter samara's Kirchhoff tensor (the integrator supplies the Kirchhoff
//     velocity terms of the paper's Eqns 7–8);
//   - Eqn 9: drag −C_D sin²α e₁, rotational lift C_L1 sin 2α e₂ and translational lift
//     C_L2 cos 2α e₃, each times ½ρ|u|²πab, with (e₁, e₂, e₃) the directions of
//     (u, ω×u, (ω×u)×u) (Eqn 10), applied at the centre of pressure p,
//     |p| = (1 − sin³α) a/4, ahead of the centre along the tangential velocity (Eqn 11);
//   - an optional Langevin (Ornstein–Uhlenbeck) turbulent velocity u* (§6.1, Eqn 12) added
//     to the background flow, drawn from a per-instance seeded generator.
// Buoyancy: the paper's buoyancy-corrected gravity F_g = (ρ̄ − ρ_f)V g of the body+fluid
// proxy equals the body's weight minus Archimedes' force on the body alone, with the
// torque of the centre of buoyancy (Eqn 7–8), so samara's exact buoyancy applies.
//
// Local frame: origin at the centre of mass, axes (x, y, z) = the proxy's (a, b, c) axes;
// z is the broad normal of a flat body.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core/fluid_model.h"

namespace samara::models {

/// Control parameters of the Xie–Miyata model. Defaults: the paper's zigzag set
/// c = (0.31, 0.91, 0.61) of Fig. 3(c) (the pattern most of its parameter space gives),
/// no turbulence.
struct XieMiyataParams {
  double dragCoef = 0.31;       ///< C_D of Eqn 9, dimensionless; default 0.31
  double rotLiftCoef = 0.91;    ///< C_L1 (rotational lift), dimensionless; default 0.91
  double transLiftCoef = 0.61;  ///< C_L2 (translational lift), dimensionless; default 0.61
  /// RMS of each component of the turbulent velocity fluctuation u* (the stationary
  /// standard deviation of the Langevin process of Eqn 12), m/s; default 0 (off). In the
  /// paper's terms σ² = C_k k / (1 + 1.5 C_k) with C_k = 2.1 and k the turbulent kinetic
  /// energy, m²/s².
  double turbulence = 0.0;
  /// Correlation time T of u*, s; default 0.1. The paper's drift (0.5 + 0.75 C_k) ε/k is
  /// 1/T.
  double turbulenceTime = 0.1;
  std::uint64_t seed = 1;  ///< seed of the per-instance generator; default 1
  /// Proxy semi-axes (a, b, c), m, along the vertices' natural axes ordered by decreasing
  /// spread; default none (from the vertex extents, App. A / §4.1).
  std::optional<Vec3> semiAxes;
  /// Not in the paper: Eqn 10's lift directions are undefined when ω ⊥ u vanishes. They
  /// are taken as ω⊥/√(|ω⊥|² + (s|u|/a)²) instead of ω⊥/|ω⊥|, so both lifts fade in
  /// linearly below a dimensionless rotation rate |ω⊥|a/|u| ≈ s (continuous wrench, finite
  /// Jacobian). Dimensionless; default 0.05; 0 = the paper's unit directions (zero lift
  /// at ω⊥ = 0 exactly).
  double liftRateScale = 0.05;
};

/// The proxy ellipsoid (paper §4.1): semi-axes along unit axes in body coordinates.
struct ProxyEllipsoid {
  Vec3 semiAxes = Vec3::Ones();  ///< (a, b, c), a ≥ b ≥ c > 0, m
  Mat3 axes = Mat3::Identity();  ///< columns: the a, b, c axes (body frame), right-handed
};

/// Smallest proxy semi-axis as a fraction of the largest (a flat sheet without a given
/// thickness gets c = 1e-3 a).
inline constexpr double kMinProxyAxisRatio = 1e-3;

/// The paper's proxy: the natural axes r_j of the vertex set (eigenvectors of the vertex
/// covariance, by decreasing eigenvalue) and semi-axes = ½(max_i v_i·r_j − min_i v_i·r_j)
/// (the paper's max − min is the full extent). The smallest semi-axis is at least
/// `minSemiAxis` (m; e.g. half a sheet's thickness) and kMinProxyAxisRatio·a. Axis signs
/// are deterministic (the largest-magnitude component of the a and b axes is positive,
/// c = a × b). Requires at least one vertex and a non-zero extent.
ProxyEllipsoid proxyFromVertices(const geometry::VertexMatrix& V, double minSemiAxis = 0.0);

/// Fallback without a mesh: the solid ellipsoid with the same mass and central inertia
/// (I_aa = m(b² + c²)/5, …), axes = principal axes.
ProxyEllipsoid proxyFromInertia(double mass, const Mat3& inertiaCom);

/// Carlson's symmetric elliptic integral R_D(x, y, z) = (3/2)∫₀^∞ dt / ((t+z)^{3/2}
/// √((t+x)(t+y)(t+z))), x, y ≥ 0 with x + y > 0, z > 0 (duplication algorithm, relative
/// error ~1e-16).
double carlsonRD(double x, double y, double z);

/// Lamb's shape integrals (α₀, β₀, γ₀) of the ellipsoid with semi-axes (a, b, c), paper
/// Eqn 19: α₀ = abc ∫₀^∞ dλ / ((a² + λ)Δ), Δ = √((a²+λ)(b²+λ)(c²+λ)). Dimensionless,
/// α₀ + β₀ + γ₀ = 2; each 2/3 for a sphere.
Vec3 ellipsoidShapeIntegrals(const Vec3& semiAxes);

/// The analytic added-mass tensors of an ellipsoid (paper App. A, Lamb §115), diagonal in
/// its axes: translation M_a = m_f α₀/(2 − α₀) (kg) and rotation
/// J_a = (m_f/5)(b² − c²)²(γ₀ − β₀) / (2(b² − c²) + (b² + c²)(β₀ − γ₀)) (kg·m²), cyclic,
/// with m_f = (4/3)πρabc. (The paper's Eqn 20 squares (b² + c²) in the denominator, which
/// is dimensionally inconsistent; Lamb has the first power.)
struct EllipsoidAddedMass {
  Vec3 M = Vec3::Zero();  ///< translational added mass along a, b, c, kg
  Vec3 J = Vec3::Zero();  ///< rotational added inertia about a, b, c, kg·m²
};
EllipsoidAddedMass ellipsoidAddedMass(const Vec3& semiAxes, double density);

/// The centre-of-pressure distance |p| = (1 − sin³α) a/4 (paper §4.2), m, for the
/// semi-major axis a (m) and the angle of attack α ∈ [0, π/2] (rad).
double centreOfPressureOffset(double a, double alpha);

/// The viscous forces of Eqn 9 in the proxy's local frame (x, y, z = a, b, c axes).
struct XieMiyataForces {
  double alpha = 0.0;                  ///< angle of attack atan(|u_n|/|u_t|), rad, [0, π/2]
  Vec3 drag = Vec3::Zero();            ///< F_D, N
  Vec3 rotLift = Vec3::Zero();         ///< F_L1, N
  Vec3 transLift = Vec3::Zero();       ///< F_L2, N
  Vec3 pressureCentre = Vec3::Zero();  ///< p, from the centre, m
  Vec3 torque = Vec3::Zero();          ///< Γ_M = p × (F_D + F_L1 + F_L2), about the centre, N·m
  Vec3 force() const { return drag + rotLift + transLift; }
};

/// Eqns 9–11 for the body velocity relative to the fluid `uLocal` (m/s) and the angular
/// velocity `omegaLocal` (rad/s), both in the local frame, fluid density ρ (kg/m³), the
/// proxy's semi-axes (m) and the coefficients of `params`. Zero at u = 0; finite for all
/// finite input.
XieMiyataForces xieMiyataForces(const Vec3& semiAxes, double density, const Vec3& uLocal,
                                const Vec3& omegaLocal, const XieMiyataParams& params);

/// The model (scene name "xie-miyata"). One instance per body: it carries the body's
/// turbulent velocity u* and its generator (xoshiro256** seeded through splitmix64,
/// Box–Muller normals), so runs repeat bit for bit and clone() continues identically.
class XieMiyataModel final : public core::FluidModel {
 public:
  /// Throws std::invalid_argument naming the field for a non-finite or negative
  /// coefficient, turbulence < 0, turbulence_time ≤ 0, liftRateScale < 0, or semi-axes
  /// that are not positive.
  explicit XieMiyataModel(XieMiyataParams params = {});

  std::string name() const override { return "xie-miyata"; }
  std::unique_ptr<core::FluidModel> clone() const override;
  /// coefficients, turbulence, turbulence_time, seed, semi_axes (when given),
  /// lift_rate_scale.
  std::vector<core::ModelParam> parameterList() const override;
  void readParameters(const core::ParamReader& r) override;
  /// diag(J, M) of the proxy at the fluid density, moved to the body origin and axes.
  Mat6 addedMass(const core::FluidModelInput& in) const override;
  /// Eqn 9–11 at the relative velocity v_COM − flow − u* (body frame), about the COM,
  /// returned about the body origin.
  Vec6 wrench(const core::FluidModelInput& in, const Vec6& Y) const override;
  bool buoyancy() const override { return true; }
  /// Carries u* through the step's rotation (it is a world-fixed vector held in body
  /// coordinates) and applies the exact OU update u* ← u* e^{−h/T} + σ√(1 − e^{−2h/T}) ξ.
  /// Draws nothing when turbulence is 0.
  void advance(const core::FluidModelInput& in, const Vec6& Y) override;

  const XieMiyataParams& params() const { return params_; }
  /// The proxy for this input: params.semiAxes if given, else from the mesh (sheet
  /// thickness as the smallest semi-axis floor), else from the inertia. The mesh proxy is
  /// cached and reused while the vertex coordinates are bitwise the same (the wrench is
  /// evaluated ~40 times a step; not for concurrent calls on one instance).
  ProxyEllipsoid proxy(const core::FluidModelInput& in) const;
  /// The proxy's local frame (origin at the COM, axes = proxy axes).
  core::PrincipalFrame localFrame(const core::FluidModelInput& in) const;
  /// The current turbulent velocity u*, body frame, m/s (zero at the start).
  const Vec3& turbulenceBody() const { return turbulenceBody_; }
  /// A standard normal variate from this instance's generator (advances its state).
  double nextGaussian();

 private:
  XieMiyataParams params_;
  std::array<std::uint64_t, 4> rng_{};  ///< xoshiro256** state
  bool haveSpare_ = false;              ///< Box–Muller gives normals in pairs
  double spare_ = 0.0;
  Vec3 turbulenceBody_ = Vec3::Zero();
  // The last mesh proxy and the vertices and floor it was computed from.
  mutable geometry::VertexMatrix cacheV_;
  mutable double cacheMinSemiAxis_ = -1.0;
  mutable ProxyEllipsoid cacheProxy_;
};

}  // namespace samara::models
