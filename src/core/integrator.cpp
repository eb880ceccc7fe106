#include "core/integrator.h"

#include <Eigen/LU>
#include <cmath>

namespace samara::core {
namespace {

bool allFinite(const Vec6& v) { return v.allFinite(); }

/// Residual R(Y) = (dτ⁻¹_{hY})ᵀ(𝒦Y + μ⁰) − rhs − h F(Y), and optionally its Jacobian.
struct Residual {
  const VariationalStepInput& in;
  Vec6 rhs;  // (dτ⁻¹_{−hY_k})ᵀ μ_k + h F_explicit

  double evaluate(const Vec6& Y, Vec6* R, Mat6* J, double* scale) const {
    const double h = in.h;
    const Vec6 KY = in.K * Y;
    const Vec6 m = KY + in.mu0;
    const Vec6 xi = h * Y;
    const Vec6 lhs = dCayleyInvTransposeTimes(xi, m);
    Vec6 F = Vec6::Zero();
    Mat6 dF = Mat6::Zero();
    if (in.force != nullptr) in.force->evaluate(Y, &F, J ? &dF : nullptr);
    *R = lhs - rhs - h * F;
    if (J != nullptr) {
      // ∂/∂Y [(dτ⁻¹_{hY})ᵀ m(Y)] = (dτ⁻¹_{hY})ᵀ 𝒦 + h ∂_ξ[(dτ⁻¹_ξ)ᵀ m] ; minus h ∂F/∂Y.
      *J = dCayleyInv(xi).transpose() * in.K + h * dCayleyInvTransposeTimesJacobian(xi, m) - h * dF;
    }
    // The size of the terms being balanced (zero net momentum still has a scale).
    *scale = std::max({lhs.lpNorm<Eigen::Infinity>(), rhs.lpNorm<Eigen::Infinity>(),
                       (h * F).lpNorm<Eigen::Infinity>(), KY.lpNorm<Eigen::Infinity>(),
                       in.mu0.lpNorm<Eigen::Infinity>()});
    return R->lpNorm<Eigen::Infinity>();
  }
};

}  // namespace

VariationalStepResult solveVariationalStep(const VariationalStepInput& in) {
  VariationalStepResult out;
  Residual res{in, dCayleyInvTransposeTimes(-in.h * in.Yprev, in.muPrev) + in.h * in.Fexplicit};
  if (!allFinite(res.rhs) || !in.K.allFinite()) return out;

  Vec6 Y = in.Yguess;
  Vec6 R;
  Mat6 J;
  double scale = 0.0;
  double rnorm = res.evaluate(Y, &R, &J, &scale);
  bool haveJ = true;
  // Quadratic convergence: once |R| ≤ √tol·scale the next iterate is expected to converge,
  // so its Jacobian is not computed (it is computed on demand if that guess is wrong).
  const double skipJBelow = std::sqrt(in.tolerance);
  for (int it = 0; it <= in.maxIterations; ++it) {
    if (!std::isfinite(rnorm)) return out;
    if (rnorm <= in.tolerance * scale || rnorm == 0.0) {
      out.converged = true;
      out.Y = Y;
      out.mu = in.K * Y + in.mu0;
      out.iterations = it;
      out.residual = scale > 0.0 ? rnorm / scale : 0.0;
      if (!out.Y.allFinite() || !out.mu.allFinite()) out.converged = false;
      return out;
    }
    if (it == in.maxIterations) break;
    if (!haveJ) rnorm = res.evaluate(Y, &R, &J, &scale);
    const Vec6 dY = J.partialPivLu().solve(-R);
    if (!allFinite(dY)) return out;
    const bool wantJ = rnorm > skipJBelow * scale;
    // Backtracking: accept the full Newton step unless it increases the residual.
    double lambda = 1.0;
    Vec6 Ynew;
    Vec6 Rnew;
    Mat6 Jnew;
    double scaleNew = 0.0;
    double rnew = 0.0;
    for (int ls = 0; ls < 8; ++ls) {
      Ynew = Y + lambda * dY;
      rnew = res.evaluate(Ynew, &Rnew, wantJ ? &Jnew : nullptr, &scaleNew);
      if (std::isfinite(rnew) && rnew < rnorm) break;
      lambda *= 0.5;
    }
    Y = Ynew;
    R = Rnew;
    if (wantJ) J = Jnew;
    haveJ = wantJ;
    scale = scaleNew;
    rnorm = rnew;
    out.iterations = it + 1;
  }
  out.residual = scale > 0.0 ? rnorm / scale : rnorm;
  return out;
}

}  // namespace samara::core
