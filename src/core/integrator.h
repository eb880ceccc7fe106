#pragma once
// The variational Euler step on SE(3) (GwtF §6, Theorem C.2, with PHYSICS.md §4's sign):
//   (dτ⁻¹_{+hY})ᵀ (𝒦 Y + μ⁰) = (dτ⁻¹_{−hY_k})ᵀ μ_k + h F(g_k, Y, t_k)
// solved for Y by Newton's method on all six unknowns.
#include "core/se3.h"

namespace samara::core {

/// The part of the force that depends on Y (drag, contact damping), with its Jacobian.
class ImplicitForce {
 public:
  virtual ~ImplicitForce() = default;
  /// Sets *F to the body wrench at Y and, if dFdY is not null, *dFdY to ∂F/∂Y.
  virtual void evaluate(const Vec6& Y, Vec6* F, Mat6* dFdY) const = 0;
};

struct VariationalStepInput {
  Mat6 K = Mat6::Identity();             ///< Kirchhoff tensor 𝒦 at t_k
  Vec6 mu0 = Vec6::Zero();               ///< shape-change momentum μ⁰
  Vec6 muPrev = Vec6::Zero();            ///< μ_k
  Vec6 Yprev = Vec6::Zero();             ///< Y_k (in dτ⁻¹_{−hY_k})
  Vec6 Yguess = Vec6::Zero();            ///< Newton's starting point (usually Y_k)
  double h = 0.0;                        ///< step, s
  Vec6 Fexplicit = Vec6::Zero();         ///< Y-independent wrench (gravity, buoyancy)
  const ImplicitForce* force = nullptr;  ///< may be null
  double tolerance = 1e-10;              ///< relative residual tolerance
  int maxIterations = 25;
};

struct VariationalStepResult {
  bool converged = false;
  Vec6 Y = Vec6::Zero();   ///< Y_{k+1}
  Vec6 mu = Vec6::Zero();  ///< μ_{k+1} = 𝒦 Y_{k+1} + μ⁰
  int iterations = 0;
  double residual = 0.0;  ///< final |R|∞ / scale
};

/// Solves one step. Never returns non-finite values with converged = true.
VariationalStepResult solveVariationalStep(const VariationalStepInput& in);

}  // namespace samara::core
