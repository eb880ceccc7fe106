#pragma once
// First-order motion from shape change (Gross et al. 2023, "Motion from Shape Change",
// MfSC below): given the shape at t and at t + h in the body frame, find the placement
// g_{t+1} for which the discrete momentum of the time edge (MfSC Eqn. 5, Alg. 1) equals a
// target (MfSC Alg. 2 step 3), with gravity as in MfSC §3.1.1 (dissipative) and §3.1.2
// (inertial, semi-implicit Euler).
//
// Scale and sign. MfSC's μ (Eqn. 5) is the derivative of the two-point energy in its first
// slot: it carries a minus sign and a factor 2h. Here every momentum is the physical one,
//   M(γ, γ̃) := −μ / (2h)
//     = (1/2h) Σ_j ( p̃_j × B_j Δp_j + p_j × B̃_j Δp_j ,  (B_j + B̃_j) Δp_j ),  Δp = p̃ − p,
// world frame, about the world origin, ordered (angular, linear). With the inertial metric
// B_j = m_j I this is Σ m_j (p̄_j × v_j, v_j) with p̄ the midpoint and v = Δp/h: angular
// momentum (kg·m²/s) and linear momentum (kg·m/s). With the dissipative metric (B_j the
// Rayleigh tensor, drag force −B_j v_j) it is the drag wrench the body exerts on the fluid
// (N·m, N), which balances the applied wrench ϱ: MfSC's "μ_t ← Δt ϱ" reads M = ϱ here.
#include <string>
#include <vector>

#include "core/fluid.h"
#include "core/fluid_model.h"
#include "core/se3.h"
#include "geometry/tri_mesh.h"

namespace samara::core {

enum class FirstOrderKind {
  kDissipative,  ///< Helmholtz: least dissipation, M = ϱ each step (MfSC §2.1, §3.1.1)
  kInertial,     ///< Euler: least action, M_{t+1} = M_t + h ϱ_t (MfSC §2.2, §3.1.2)
};

struct FirstOrderDef {
  FirstOrderKind kind = FirstOrderKind::kDissipative;  ///< default kDissipative
  /// α: Rayleigh coefficient for velocity normal to the surface, N·s/m per m² of vertex
  /// area (N·s/m³). 0 (the default) = auto: α = ½ ρ_f C_D U with C_D = 1 and U = 1 m/s, ρ_f
  /// the fluid density (kg/m³) at the body's initial centre of mass, resolved when the World
  /// sets the body up (resolveFirstOrderDrag): 0.6125 in air, 499 in water. Otherwise > 0.
  /// Dissipative metric only.
  double normalDrag = 0.0;
  /// β: the same for velocity tangential to the surface, N·s/m³. < 0 (the default, −1) =
  /// auto: β = α/10 (the paper's high-Reynolds-number anisotropy ε = β/α = 1/10; Stokes
  /// swimmers have ε ≈ 1/2), of the resolved α. Otherwise ≥ 0; 0 is allowed for closed
  /// bodies (MfSC Table 1 uses ε = 0). Dissipative metric only.
  double tangentialDrag = -1.0;
  /// Inertial metric only: fluid mass per m² of vertex area carried with the normal
  /// velocity (MfSC §2.2.1, K_j = m_j I + a A_j n_j n_jᵀ), kg/m². Default 0 (vacuum).
  double normalAddedMass = 0.0;

  /// True if normalDrag or tangentialDrag still holds its auto sentinel.
  bool autoDrag() const { return normalDrag == 0.0 || tangentialDrag < 0.0; }
};

/// `def` with the auto drag coefficients resolved for a body whose centre of mass starts in
/// fluid of density `fluidDensity` (kg/m³): α = ½ ρ_f · 1 m/s where normalDrag is 0, then
/// β = α/10 where tangentialDrag < 0. Explicit values are kept.
FirstOrderDef resolveFirstOrderDrag(const FirstOrderDef& def, double fluidDensity);

/// Validates a definition once at setup (the auto sentinels are accepted); throws
/// DefinitionError naming `path` + "/field".
void validateFirstOrderDef(const FirstOrderDef& def, const std::string& path);

struct FirstOrderStepInput {
  const FirstOrderDef* def = nullptr;
  /// Shape at t, body frame (V, m) + faces F (normals and vertex areas of both shapes).
  const geometry::TriMesh* mesh = nullptr;
  /// Shape at t + h, body frame, m (same topology as `mesh`).
  const geometry::VertexMatrix* shapeNext = nullptr;
  /// kg per vertex (e.g. geometry::lumpVertexMasses). Gravity acts on these; the inertial
  /// metric is m_j I. A point mass off the surface needs a vertex of its own.
  const std::vector<double>* vertexMass = nullptr;
  Pose g;  ///< placement at t
  /// World momentum carried into the step (inertial: M_t, kg·m²/s and kg·m/s about the
  /// world origin, see firstOrderInitialMomentum; dissipative: unused).
  Vec6 momentum = Vec6::Zero();
  Vec3 gravity = Vec3::Zero();  ///< m/s², world
  /// Uniform background flow w, world, m/s; default 0. Dissipative: the drag acts on the
  /// velocity relative to the flow, −Σ_j B_j (v_j − w); the step is solved in the frame that
  /// moves with the flow (coinciding with the world frame at t), so with a flow w the result
  /// is exactly the flowless step's placement translated by h w (see firstOrderStep).
  /// Inertial: no effect (the inertial metric is the body's own inertia: no fluid force).
  Vec3 flow = Vec3::Zero();
  /// ρ_fluid V / m: gravity is scaled by (1 − this); the buoyant force is taken to act at
  /// the centre of mass (uniform body). Default 0.
  double buoyantMassFraction = 0.0;
  double h = 0.0;  ///< step, s (> 0)
  /// Newton stops when its correction, as a placement change (rotation in rad, translation in
  /// body sizes), is ≤ this; the correction is applied, so the error left is of order
  /// tolerance² or round-off. Default 1e-12.
  double tolerance = 1e-12;
  int maxIterations = 25;  ///< Newton iterations; default 25
};

struct [[nodiscard]] FirstOrderStepResult {
  bool converged = false;
  /// Placement at t + h. On failure: the input placement (finite).
  Pose g;
  /// Inertial: M_{t+1} = M_t + h ϱ_t, the momentum carried into the next step (on failure
  /// the input momentum). Dissipative: zero (MfSC Thm. 1: no momentum is carried).
  Vec6 momentum = Vec6::Zero();
  /// The gravity wrench that acted over the step (torque about the world origin N·m, force
  /// N), world: ϱ_t (inertial) or ½(ϱ_t + ϱ_{t+1}) at the world placements (dissipative).
  /// Zero on failure.
  Vec6 wrench = Vec6::Zero();
  int iterations = 0;  ///< Newton iterations (Jacobian solves)
  /// Final residual M − target as a placement error per step: (|r_ang| h/(b L²),
  /// |r_lin| h/(b L)) in (rad, body sizes), b = tr(Σ_j B_j)/3, L = RMS radius of the shape.
  double residual = 0.0;
};

/// MfSC Alg. 2, one step (Alg. 1 inside): finds g_{t+1} with
/// M(g_t(γ̂_t), g_{t+1}(γ̂_{t+1})) = target, where ϱ = (Σ m_j p_j × g', Σ m_j g') (Eqn. 6,
/// g' = (1 − buoyantMassFraction) g) and
///   inertial (§3.1.2, semi-implicit Euler): target = M_t + h ϱ_t;
///   dissipative (§3.1.1): target = ½(ϱ_t + ϱ_{t+1}), the torque at the mid placement. MfSC
///   writes ϱ_t; Alg. 1 evaluates the drag torque at mid placements, and with ϱ_t a body whose
///   centres of drag and mass coincide turns by O(h) per step while it translates (e.g. a
///   tilted plate gliding under gravity). The force is the same either way.
///   With a flow w (`flow`) both sides are taken in the frame that moves with the flow and
///   coincides with the world frame at t: M(γ, γ̃ − h w) = ½(ϱ_t + ϱ'_{t+1}), ϱ'_{t+1} the
///   gravity torque of the end shape moved by −h w. Equivalently M(γ, γ̃) = ½(ϱ_t + ϱ'_{t+1})
///   + Φ with Φ = M(γ, γ̃) − M(γ, γ̃ − h w) the flow's momentum: linear Σ_j B̄_j w, angular
///   ½ Σ_j (p̃_j × B_j w + p_j × B̃_j w + w × B_j (Δp_j − h w)) = Σ_j p̄_j × B̄_j w + O(h),
///   B̄ = ½(B + B̃), p̄ = ½(p + p̃) (the pairing of Eqn. 5). Hence the placement with a flow w
///   is exactly (to the tolerance) the flowless one translated by h w, for any shape change.
/// Newton on a world-side twist about the placed shape's centroid with the exact Jacobian
/// (discreteMomentaJacobian), backtracking on the residual. Never throws.
FirstOrderStepResult firstOrderStep(const FirstOrderStepInput& in);

/// Per-vertex metric blocks B_j (3×3, symmetric) of one shape, in the shape's own frame
/// (MfSC Eqn. 1). Dissipative: A_j (α n_j n_jᵀ + β (I − n_j n_jᵀ)) with A_j a third of the
/// areas of the faces at j (N·s/m) and n_j the area-weighted vertex normal (its sign does not
/// matter); where the face normals at j cancel (|Σ A_f n_f| < 1e-6 Σ A_f) n_j n_jᵀ is the
/// area-weighted mean of n_f n_fᵀ instead. Inertial: m_j I + a A_j n_j n_jᵀ (kg).
std::vector<Mat3> vertexMetrics(const FirstOrderDef& def, const geometry::VertexMatrix& V,
                                const geometry::FaceMatrix& F,
                                const std::vector<double>& vertexMass);

/// MfSC Alg. 1 / Eqn. 5, rescaled to the physical momentum M = −μ/(2h) (see the top of this
/// file): placed points p (n×3, m) with metrics B at the start of the time edge, p̃ with B̃ at
/// its end (same frame, same origin; world metrics), step h (s). (angular, linear).
Vec6 discreteMomenta(const geometry::VertexMatrix& p, const std::vector<Mat3>& B,
                     const geometry::VertexMatrix& pNext, const std::vector<Mat3>& BNext, double h);

/// ∂M/∂ξ (6×6) for a world-side twist ξ = (ω, v) of the end shape about `centre`:
/// p̃_j ↦ p̃_j + ω × (p̃_j − centre) + v, B̃_j ↦ B̃_j + [ω̂, B̃_j]. Columns (ω, v).
Mat6 discreteMomentaJacobian(const geometry::VertexMatrix& p, const std::vector<Mat3>& B,
                             const geometry::VertexMatrix& pNext, const std::vector<Mat3>& BNext,
                             double h, const Vec3& centre);

/// The inertial model's momentum for a rigid initial velocity: Σ_j (p_j × B_j v_j, B_j v_j)
/// with v_j = ω × (p_j − c) + v_c, c the centre of mass of the placed shape, B_j the world
/// inertial metric (m_j I without added mass: angular and linear momentum about the world
/// origin, kg·m²/s and kg·m/s). omegaWorld in rad/s, comVelocityWorld in m/s.
Vec6 firstOrderInitialMomentum(const FirstOrderDef& def, const geometry::TriMesh& mesh,
                               const std::vector<double>& vertexMass, const Pose& pose,
                               const Vec3& omegaWorld, const Vec3& comVelocityWorld);

/// Gross et al.'s two first-order models as a FluidModel ("gross-dissipative",
/// "gross-inertial"): the World steps a body with firstOrder() instead of the variational
/// step. Parameters: normal_drag and tangential_drag ("auto" or N·s/m³) for the dissipative
/// metric, normal_added_mass (kg/m²) for the inertial one. The mass sits at the vertices
/// (area-lumped at t = 0, point masses spread with it); the body's δ is unused.
class FirstOrderModel final : public FluidModel {
 public:
  explicit FirstOrderModel(FirstOrderDef def = {}) : def_(def) {}
  std::string name() const override;
  std::unique_ptr<FluidModel> clone() const override {
    return std::make_unique<FirstOrderModel>(*this);
  }
  std::vector<ModelParam> parameterList() const override;
  void readParameters(const ParamReader& r) override;
  const FirstOrderDef* firstOrder() const override { return &def_; }
  /// Its own step takes the flow at the COM (FirstOrderStepInput::flow).
  bool relativeFlow() const override { return false; }
  /// The weight is reduced by ρ_f V / m (FirstOrderStepInput::buoyantMassFraction).
  bool buoyancy() const override { return true; }
  /// Unused: the first-order step has its own force law (see World::fluidWrench).
  Vec6 wrench(const FluidModelInput&, const Vec6&) const override { return Vec6::Zero(); }
  const FirstOrderDef& def() const { return def_; }

 private:
  FirstOrderDef def_;
};

/// The floor as a non-penetration constraint on a step's result `r` (MfSC §3.1.1 mentions a
/// contact reaction): the lowest vertex of in.shapeNext placed at r->g is lifted onto the
/// floor (along `up`), with Coulomb friction (floor.friction μ). An inertial body loses the
/// momentum that carried it into the floor (at its COM `comBody`, inelastic) and μ × that
/// from its sideways momentum. A dissipative body (velocity ∝ force) balances its net
/// weight and the flow's drag at rest, Σ B_j w, with the floor's normal force N and
/// friction: it keeps its sideways place while the sideways part of that force is ≤ μ N and
/// slides with the excess otherwise; gravity alone never moves it along a horizontal floor.
void applyFirstOrderFloor(const FirstOrderStepInput& in, const FloorDef& floor, const Vec3& up,
                          const Vec3& comBody, double totalMass, FirstOrderStepResult* r);

}  // namespace samara::core
