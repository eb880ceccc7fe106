#include "core/integrator.h"

#include <algorithm>
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

/// Classic Newton from `Y` with a fresh Jacobian while far from the root, backtracking.
VariationalStepResult newtonSolve(const Residual& res, Vec6 Y, int maxIterations,
                                  Eigen::PartialPivLU<Mat6>* lu) {
  const VariationalStepInput& in = res.in;
  VariationalStepResult out;
  Vec6 R;
  Mat6 J;
  double scale = 0.0;
  double rnorm = res.evaluate(Y, &R, &J, &scale);
  out.jacobians = 1;
  bool haveJ = true;
  // Quadratic convergence: once |R| ≤ √tol·scale the next iterate is expected to converge,
  // so its Jacobian is not computed (it is computed on demand if that guess is wrong).
  const double skipJBelow = std::sqrt(in.tolerance);
  for (int it = 0; it <= maxIterations; ++it) {
    if (!std::isfinite(rnorm)) return out;
    if (rnorm <= in.tolerance * scale || rnorm == 0.0) {
      out.converged = true;
      out.Y = Y;
      out.iterations = it;
      out.residual = scale > 0.0 ? rnorm / scale : 0.0;
      if (haveJ) lu->compute(J);  // the newest Jacobian for the next step
      return out;
    }
    if (it == maxIterations) break;
    if (!haveJ) {
      rnorm = res.evaluate(Y, &R, &J, &scale);
      ++out.jacobians;
    }
    lu->compute(J);
    const Vec6 dY = lu->solve(-R);
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
      if (wantJ) ++out.jacobians;
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

/// Chord iterations from `Y` with the factorisation *lu (cached: of an earlier step, else
/// computed here at Y): a residual each and no Jacobian, while each shrinks the residual by
/// `rate` or better, at most NewtonCache::kChordIterations (and the solver's limit). *worst: the
/// slowest shrink seen.
VariationalStepResult chordSolve(const Residual& res, Vec6 Y, bool cached, double rate,
                                 Eigen::PartialPivLU<Mat6>* lu, double* worst) {
  const VariationalStepInput& in = res.in;
  VariationalStepResult out;
  Vec6 R;
  Mat6 J;
  double scale = 0.0;
  double rnorm = res.evaluate(Y, &R, cached ? nullptr : &J, &scale);
  if (!cached) {
    lu->compute(J);
    out.jacobians = 1;
  }
  *worst = 0.0;
  for (int it = 0; std::isfinite(rnorm); ++it) {
    if (rnorm <= in.tolerance * scale || rnorm == 0.0) {
      // One more correction costs no residual: it shrinks this one by the rate again (far
      // below the tolerance, as Newton's quadratic last step does).
      const Vec6 dY = lu->solve(-R);
      out.converged = true;
      out.Y = allFinite(dY) ? Vec6(Y + dY) : Y;
      out.iterations = it;
      out.residual = scale > 0.0 ? rnorm / scale : 0.0;
      return out;
    }
    if (it == std::min(NewtonCache::kChordIterations, in.maxIterations)) break;
    const Vec6 dY = lu->solve(-R);
    if (!allFinite(dY)) break;
    Vec6 Rc;
    double scaleC = 0.0;
    const double rc = res.evaluate(Y + dY, &Rc, nullptr, &scaleC);
    out.iterations = it + 1;
    if (!std::isfinite(rc) || rc > rate * rnorm) break;
    *worst = std::max(*worst, rc / rnorm);
    Y += dY;
    R = Rc;
    scale = scaleC;
    rnorm = rc;
  }
  return out;
}

}  // namespace

VariationalStepResult solveVariationalStep(const VariationalStepInput& in) {
  VariationalStepResult out;
  Residual res{in, dCayleyInvTransposeTimes(-in.h * in.Yprev, in.muPrev) + in.h * in.Fexplicit};
  NewtonCache* cache = in.cache;
  const bool cached = cache != nullptr && cache->valid && cache->h == in.h;
  if (cache != nullptr) cache->valid = false;  // until this step converges
  if (!allFinite(res.rhs) || !in.K.allFinite()) return out;

  // Three ways to the root, each tried when the one before is slow: chord iterations with
  // the cached factorisation from the guess extrapolated through the last solutions
  // (NewtonCache::trends); chord iterations with the Jacobian at that guess (at Y_k when it
  // is not smooth); Newton's method from Y_k (the whole iteration budget, as without a
  // cache).
  Eigen::PartialPivLU<Mat6> lu;
  double worst = 0.0;
  VariationalStepResult r;
  // The iterations reported are those of the way that ended the step (the one that found
  // the root, or Newton's when none did), so they stay within the solver's limit; the
  // Jacobians count every attempt.
  auto tally = [&out](const VariationalStepResult& step) {
    out.iterations = step.iterations;
    out.jacobians += step.jacobians;
  };
  // The guess: Y_k extrapolated through the last solutions at this h (NewtonCache::trends).
  // Trusted only while the solutions are smooth: when the terms beyond the last change are
  // larger than that change (a jump, a contact, a step too large for the motion), the guess
  // is Y_k plus the last change alone, and a fresh Jacobian starts from Y_k, as Newton does.
  Vec6 guess = in.Yguess;
  bool smooth = false;
  if (cache != nullptr && cache->h == in.h && cache->trendCount > 0) {
    const int n = cache->trendCount;
    Vec6 higher = Vec6::Zero();
    double binom = n;  // C(n, j + 1), alternating in sign
    for (int j = 0; j < n; ++j) {
      higher += ((j % 2 == 0) ? binom : -binom) * cache->trends[j];
      binom = binom * (n - j - 1) / (j + 2);
    }
    higher -= cache->trends[0];  // what the polynomial adds to the last change
    smooth =
        n > 1 && higher.lpNorm<Eigen::Infinity>() <= cache->trends[0].lpNorm<Eigen::Infinity>();
    guess += smooth ? Vec6(cache->trends[0] + higher) : cache->trends[0];
  }
  if (cached) {
    lu = cache->lu;
    r = chordSolve(res, guess, true, NewtonCache::kCachedRate, &lu, &worst);
    tally(r);
  }
  if (cache != nullptr && !r.converged) {
    r = chordSolve(res, smooth ? guess : in.Yguess, false, NewtonCache::kChordRate, &lu, &worst);
    tally(r);
  }
  if (!r.converged) {
    r = newtonSolve(res, in.Yguess, in.maxIterations, &lu);
    tally(r);
    worst = 0.0;
  }
  out.residual = r.residual;
  if (!r.converged) return out;
  out.Y = r.Y;
  out.mu = in.K * r.Y + in.mu0;
  out.converged = out.Y.allFinite() && out.mu.allFinite();
  if (out.converged && cache != nullptr) {
    const int kept = cache->h == in.h ? std::min(cache->trendCount, NewtonCache::kOrder - 1) : 0;
    for (int j = kept; j > 0; --j) cache->trends[j] = cache->trends[j - 1];
    cache->trends[0] = out.Y - in.Yguess;
    cache->trendCount = kept + 1;
    cache->lu = lu;
    cache->h = in.h;
    cache->valid = worst <= NewtonCache::kRefreshRate;
  }
  return out;
}

}  // namespace samara::core
