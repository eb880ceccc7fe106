#pragma once
// The variational Euler step on SE(3) (GwtF §6, Theorem C.2, with PHYSICS.md §4's sign):
//   (dτ⁻¹_{+hY})ᵀ (𝒦 Y + μ⁰) = (dτ⁻¹_{−hY_k})ᵀ μ_k + h F(g_k, Y, t_k)
// solved for Y on all six unknowns: chord iterations with the factorised Jacobian of an
// earlier step while they contract the residual fast (NewtonCache), else Newton's method.
#include <Eigen/LU>

#include "core/se3.h"

namespace samara::core {

/// The part of the force that depends on Y (drag, contact damping), with its Jacobian.
class ImplicitForce {
 public:
  virtual ~ImplicitForce() = default;
  /// Sets *F to the body wrench at Y and, if dFdY is not null, *dFdY to ∂F/∂Y.
  virtual void evaluate(const Vec6& Y, Vec6* F, Mat6* dFdY) const = 0;
};

/// The factorised Jacobian a body's last step ended with. The next step at the same h starts
/// with it from a guess extrapolated through the last solutions (trends, below; chord
/// iterations: a residual each, no Jacobian sums) while each iteration shrinks the residual
/// by kCachedRate or better; else the Jacobian at that guess (at Y_k when the solutions are
/// not smooth) is formed and used the same way (kChordRate); else Newton runs from Y_k. At most
/// kChordIterations chord iterations per attempt. A step whose chord iterations were slower than
/// kRefreshRate leaves no cache, so the next one starts with a fresh Jacobian. Part of the body's
/// step state, so a rolled-back or copied world repeats the same iterations.
struct NewtonCache {
  static constexpr double kCachedRate = 0.05;   ///< slower: the cached one is dropped
  static constexpr double kChordRate = 0.2;     ///< slower: Newton takes over
  static constexpr double kRefreshRate = 3e-3;  ///< slower: the next step starts afresh
  static constexpr int kChordIterations = 8;
  Eigen::PartialPivLU<Mat6> lu;
  /// Changes of Y kept for the guess: a polynomial through the last kOrder + 1 solutions
  /// (6: rigid steps 2.9 → 1.0 chord iterations; orders 8–10 gained nothing more).
  static constexpr int kOrder = 6;
  /// Y_{j+1} − Y_j of the last kOrder steps at this h, newest first: the next guess is
  /// Y_k + Σ_j (−1)^j C(n, j+1) trends[j] over the n ≤ kOrder of them (Newton's backward
  /// differences: the polynomial through the last n + 1 solutions, one step on).
  Vec6 trends[kOrder] = {};
  int trendCount = 0;
  double h = 0.0;      ///< the step it was formed at (another h starts afresh)
  bool valid = false;  ///< false: the next step evaluates the Jacobian first
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
  NewtonCache* cache = nullptr;  ///< read and updated when given; null: Newton throughout
};

struct VariationalStepResult {
  bool converged = false;
  Vec6 Y = Vec6::Zero();   ///< Y_{k+1}
  Vec6 mu = Vec6::Zero();  ///< μ_{k+1} = 𝒦 Y_{k+1} + μ⁰
  int iterations = 0;      ///< of the way that ended the step (NewtonCache), ≤ maxIterations
  int jacobians = 0;       ///< Jacobians evaluated (0 when the cached one did it all)
  double residual = 0.0;   ///< final |R|∞ / scale
};

/// Solves one step. Never returns non-finite values with converged = true.
VariationalStepResult solveVariationalStep(const VariationalStepInput& in);

}  // namespace samara::core
