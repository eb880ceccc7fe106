#pragma once
// SE(3) with the matrix Cayley map and its exact right-trivialised inverse differential
// (PHYSICS.md §1 and §4; GwtF App. B with the translation misprint corrected).
// Every 6-vector is ordered (angular, linear).
#include "geometry/types.h"

namespace samara::core {

/// A pose g = (A, b): body point x is at A x + b in the world. A is kept as a unit
/// quaternion (normalised after every composition).
struct Pose {
  Quat q = Quat::Identity();  ///< body → world rotation A
  Vec3 b = Vec3::Zero();      ///< world position of the body origin, m

  Mat3 R() const { return q.toRotationMatrix(); }
  Vec3 toWorld(const Vec3& xBody) const { return q * xBody + b; }
};

/// τ(ξ) = (I − ξ̂/2)⁻¹(I + ξ̂/2) for ξ = (ω, v): rotation with quaternion ∝ (1, ω/2),
/// translation 4/(4+|ω|²) (v + ½ ω×v + ¼ ω(ω·v)).
Pose cayley(const Vec6& xi);

/// g · τ(ξ) (right composition), quaternion renormalised.
Pose compose(const Pose& g, const Pose& h);

/// dτ⁻¹_ξ (GwtF Eqn. 17), exact for the matrix Cayley map:
/// [[I − ½ω̂ + ¼ωωᵀ, 0], [−½(v̂ − ½ ω̂ v̂), I − ½ω̂]].
Mat6 dCayleyInv(const Vec6& xi);

/// (dτ⁻¹_ξ)ᵀ m without forming the matrix.
Vec6 dCayleyInvTransposeTimes(const Vec6& xi, const Vec6& m);

/// ∂/∂ξ [(dτ⁻¹_ξ)ᵀ m] for fixed m (6×6), used in the Newton Jacobian.
Mat6 dCayleyInvTransposeTimesJacobian(const Vec6& xi, const Vec6& m);

/// Body momentum μ = (l, p) → world momentum Ad*_g μ = (A l + b × A p, A p).
Vec6 momentumToWorld(const Pose& g, const Vec6& muBody);

/// World wrench (torque about the world origin, force) → body wrench
/// (Aᵀ(τ − b × f), Aᵀ f).
Vec6 wrenchToBody(const Pose& g, const Vec6& wrenchWorld);

/// ad*_Y μ = (l × ω + p × v, p × ω).
Vec6 adStar(const Vec6& Y, const Vec6& mu);

/// 6×6 body inertia about the body origin from mass moments (PHYSICS.md §2):
/// [[tr(S)I − S, m ĉ], [(m ĉ)ᵀ, m I]] with m c the first moment.
Mat6 spatialInertia(double mass, const Vec3& firstMoment, const Mat3& secondMoment);

}  // namespace samara::core
