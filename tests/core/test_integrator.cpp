// The variational integrator on SE(3): structure preservation, Dzhanibekov, order.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/integrator.h"

using namespace samara;
using namespace samara::core;

namespace {

struct Rigid {
  Pose g;
  Vec6 Y = Vec6::Zero();
  Vec6 mu = Vec6::Zero();
};

/// One force-free step with constant 𝒦; returns the Newton iteration count.
int stepFree(const Mat6& K, double h, Rigid* s) {
  VariationalStepInput in;
  in.K = K;
  in.muPrev = s->mu;
  in.Yprev = s->Y;
  in.Yguess = s->Y;
  in.h = h;
  in.tolerance = 1e-14;
  const VariationalStepResult r = solveVariationalStep(in);
  REQUIRE(r.converged);
  s->Y = r.Y;
  s->mu = r.mu;
  s->g = compose(s->g, cayley(h * r.Y));
  return r.iterations;
}

/// J_k = Ad*_{g_k} (dτ⁻¹_{−hY_k})ᵀ μ_k (PHYSICS.md §4).
Vec6 momentumMap(const Rigid& s, double h) {
  return momentumToWorld(s.g, dCayleyInvTransposeTimes(-h * s.Y, s.mu));
}

/// A Kirchhoff-like tensor with body/fluid coupling: body inertia about an off-COM origin
/// plus a symmetric positive added-mass block that couples ω and v.
Mat6 coupledK() {
  const double m = 0.8;
  const Vec3 c(0.05, -0.02, 0.03);
  Mat3 S;
  S << 0.004, 0.0005, 0.0, 0.0005, 0.002, 0.0003, 0.0, 0.0003, 0.001;
  Mat6 K = spatialInertia(m, m * c, S + m * c * c.transpose());
  Mat6 B = Mat6::Zero();
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) B(i, j) = 0.01 * std::sin(1.0 + i * 6 + j);
  K += 0.2 * (B * B.transpose()) + 0.001 * Mat6::Identity();
  return K;
}

}  // namespace

TEST_CASE("Force-free: discrete momentum map conserved to round-off", "[core][integrator]") {
  const Mat6 K = coupledK();
  Rigid s;
  s.g.b = Vec3(1.0, 2.0, -0.5);
  s.Y << 3.0, -1.5, 4.0, 0.4, 0.2, -0.3;
  s.mu = K * s.Y;
  const double h = 0.01;
  const Vec6 J0 = momentumMap(s, h);
  double maxDrift = 0.0;
  double maxPlainDev = 0.0;
  const Vec3 p0 = momentumToWorld(s.g, s.mu).tail<3>();
  for (int k = 0; k < 5000; ++k) {
    stepFree(K, h, &s);
    maxDrift = std::max(maxDrift, (momentumMap(s, h) - J0).norm() / J0.norm());
    maxPlainDev =
        std::max(maxPlainDev, (momentumToWorld(s.g, s.mu).tail<3>() - p0).norm() / p0.norm());
  }
  INFO("relative drift of J over 5000 steps: " << maxDrift);
  CHECK(maxDrift < 1e-11);
  // The plain world linear momentum A p is not exactly conserved: it oscillates at O(h)
  // (here h|ω| ≈ 0.05) but stays bounded; J is the exactly conserved quantity.
  INFO("max relative deviation of A p: " << maxPlainDev);
  CHECK(maxPlainDev > 1e-6);
  CHECK(maxPlainDev < 0.1);
}

TEST_CASE("Force-free: energy bounded without secular drift", "[core][integrator]") {
  const Mat6 K = coupledK();
  Rigid s;
  s.Y << 3.0, -1.5, 4.0, 0.4, 0.2, -0.3;
  s.mu = K * s.Y;
  const double h = 0.01;
  const double E0 = 0.5 * s.Y.dot(K * s.Y);
  const int n = 20000;
  double maxEarly = 0.0;
  double maxLate = 0.0;
  for (int k = 0; k < n; ++k) {
    stepFree(K, h, &s);
    const double dE = std::abs(0.5 * s.Y.dot(K * s.Y) - E0) / E0;
    if (k < n / 4) maxEarly = std::max(maxEarly, dE);
    if (k >= 3 * n / 4) maxLate = std::max(maxLate, dE);
  }
  INFO("max relative energy error, first quarter " << maxEarly << ", last quarter " << maxLate);
  CHECK(maxEarly < 0.02);
  // Bounded: the last quarter's error is of the same size as the first's (no drift).
  CHECK(maxLate < 2.0 * maxEarly + 1e-6);
}

TEST_CASE("Dzhanibekov: spin about the intermediate axis flips periodically",
          "[core][integrator]") {
  // Principal moments 1 < 2 < 3 (kg·m²), unit mass at the origin, no fluid.
  Mat6 K = Mat6::Zero();
  K.diagonal() << 1.0, 2.0, 3.0, 1.0, 1.0, 1.0;
  Rigid s;
  s.Y << 1e-2, 5.0, 1e-2, 0.0, 0.0, 0.0;  // about the intermediate axis, tiny perturbation
  s.mu = K * s.Y;
  const double h = 0.002;
  const double L0 = momentumMap(s, h).head<3>().norm();
  int signChanges = 0;
  double firstFlip = -1.0;
  std::vector<double> flips;
  double prev = s.Y[1];
  double maxLdev = 0.0;
  for (int k = 1; k <= 10000; ++k) {
    stepFree(K, h, &s);
    if ((s.Y[1] > 0) != (prev > 0)) {
      ++signChanges;
      flips.push_back(k * h);
      if (firstFlip < 0) firstFlip = k * h;
    }
    prev = s.Y[1];
    maxLdev = std::max(maxLdev, std::abs(momentumMap(s, h).head<3>().norm() - L0) / L0);
  }
  INFO("sign changes of the intermediate-axis rate in 20 s: " << signChanges << ", first at "
                                                              << firstFlip);
  REQUIRE(signChanges >= 4);
  // Periodic: the intervals between flips are equal (the motion is a closed orbit).
  for (size_t i = 2; i < flips.size(); ++i) {
    CHECK(flips[i] - flips[i - 1] == Approx(flips[1] - flips[0]).epsilon(0.02));
  }
  // Linearised growth rate λ = ω sqrt((I2−I1)(I3−I2)/(I1 I3)) = 5 sqrt(1/3): the first flip
  // comes after roughly ln(ω/ε)/λ ≈ 2.2 s (order of magnitude; the log makes it rough).
  const double lambda = 5.0 * std::sqrt(1.0 / 3.0);
  const double tPredict = std::log(5.0 / 1e-2) / lambda;
  CHECK(firstFlip > 0.5 * tPredict);
  CHECK(firstFlip < 2.0 * tPredict);
  // The angular part of the discrete momentum map is conserved to round-off.
  CHECK(maxLdev < 1e-10);
}

TEST_CASE("The misprinted sign (Alg. 1 line 7) would freeze the spin: ours does not",
          "[core][integrator]") {
  // With −hY on the left the equation is solved by Y = Y_k in vacuum. Ours changes Y.
  Mat6 K = Mat6::Zero();
  K.diagonal() << 1.0, 2.0, 3.0, 1.0, 1.0, 1.0;
  Rigid s;
  s.Y << 1.0, 2.0, 3.0, 0.0, 0.0, 0.0;
  s.mu = K * s.Y;
  const Vec6 Y0 = s.Y;
  stepFree(K, 0.01, &s);
  // Euler's equations: I ω̇ = (Iω) × ω gives ω̇ = (1·(−1)·... ) ≠ 0; one step changes ω by
  // h ω̇ with ω̇₁ = (I2−I3)/I1 ω2 ω3 = −6.
  CHECK((s.Y[0] - Y0[0]) / 0.01 == Approx(-6.0).epsilon(0.05));
}

TEST_CASE("First-order convergence of the variational Euler step", "[core][integrator]") {
  Mat6 K = Mat6::Zero();
  K.diagonal() << 1.0, 2.0, 3.0, 1.0, 1.0, 1.0;
  auto run = [&](double h) {
    Rigid s;
    s.Y << 0.5, 1.0, 0.3, 0.2, 0.0, 0.1;
    s.mu = K * s.Y;
    const int n = static_cast<int>(std::lround(1.0 / h));
    for (int k = 0; k < n; ++k) stepFree(K, h, &s);
    return s;
  };
  const Rigid ref = run(1e-5);
  const double e1 = (run(1e-2).g.b - ref.g.b).norm();
  const double e2 = (run(5e-3).g.b - ref.g.b).norm();
  const double e3 = (run(2.5e-3).g.b - ref.g.b).norm();
  INFO("position errors at h = 1e-2, 5e-3, 2.5e-3: " << e1 << " " << e2 << " " << e3);
  CHECK(e1 / e2 == Approx(2.0).epsilon(0.15));
  CHECK(e2 / e3 == Approx(2.0).epsilon(0.15));
}

TEST_CASE("Newton reports non-convergence instead of returning garbage", "[core][integrator]") {
  Mat6 K = Mat6::Identity();
  VariationalStepInput in;
  in.K = K;
  in.Yprev << 1, 2, 3, 4, 5, 6;
  in.Yguess = in.Yprev;
  in.muPrev = K * in.Yprev;
  in.h = 0.01;
  in.maxIterations = 0;  // no iteration allowed: cannot converge from Y_k in general
  const VariationalStepResult r = solveVariationalStep(in);
  CHECK_FALSE(r.converged);
  Mat6 bad = Mat6::Identity();
  bad(0, 0) = std::nan("");
  in.K = bad;
  in.maxIterations = 25;
  CHECK_FALSE(solveVariationalStep(in).converged);
}

namespace {

/// Quadratic drag on the body's rotation and translation, −c|ω|ω and −c|v − w|(v − w) with
/// the flow w fixed in the body frame; `stiff` switches on a spring-like push for v_y < 0
/// (a contact that comes and goes between steps).
class QuadraticDrag final : public ImplicitForce {
 public:
  double c = 0.8;
  Vec3 flow = Vec3(0.3, 0.0, -0.1);
  double stiff = 0.0;
  void evaluate(const Vec6& Y, Vec6* F, Mat6* dF) const override {
    F->setZero();
    if (dF != nullptr) dF->setZero();
    for (int part = 0; part < 2; ++part) {
      const Vec3 u = Y.segment<3>(3 * part) - (part == 1 ? flow : Vec3::Zero());
      const double s = u.norm();
      F->segment<3>(3 * part) = -c * s * u;
      if (dF != nullptr && s > 0.0) {
        dF->block<3, 3>(3 * part, 3 * part) = -c * (s * Mat3::Identity() + u * u.transpose() / s);
      }
    }
    if (stiff > 0.0 && Y(4) < 0.0) {
      (*F)(4) -= stiff * Y(4);
      if (dF != nullptr) (*dF)(4, 4) -= stiff;
    }
  }
};

struct DragRun {
  Rigid s;
  NewtonCache cache;
  long residuals = 0;  // iterations + 1 per step (each iteration costs one residual)
  long jacobians = 0;
  int steps = 0;
};

void stepDrag(const Mat6& K, const QuadraticDrag& f, double h, bool useCache, double tolerance,
              DragRun* run) {
  VariationalStepInput in;
  in.K = K;
  in.muPrev = run->s.mu;
  in.Yprev = run->s.Y;
  in.Yguess = run->s.Y;
  in.h = h;
  in.Fexplicit << 0.0, 0.0, 0.0, 0.0, -9.81 * K(3, 3), 0.0;
  in.force = &f;
  in.cache = useCache ? &run->cache : nullptr;
  in.tolerance = tolerance;
  const VariationalStepResult r = solveVariationalStep(in);
  REQUIRE(r.converged);
  CHECK(r.residual <= in.tolerance);
  run->s.Y = r.Y;
  run->s.mu = r.mu;
  run->s.g = compose(run->s.g, cayley(h * r.Y));
  run->jacobians += r.jacobians;
  run->residuals += r.iterations + 1;
  ++run->steps;
}

}  // namespace

TEST_CASE("Jacobian reuse: the cached chord iterations find Newton's root, with fewer Jacobians",
          "[core][integrator]") {
  const Mat6 K = coupledK();
  QuadraticDrag drag;
  const double h = 2e-3;
  // A spinning body falling in quadratic drag: a tightly converged reference, Newton and
  // the cached chord iterations at the default tolerance.
  DragRun exact, newton, chord;
  exact.s.Y << 3.0, -1.0, 2.0, 0.5, 0.0, 0.2;
  exact.s.mu = K * exact.s.Y;
  newton.s = chord.s = exact.s;
  for (int k = 0; k < 2000; ++k) {
    stepDrag(K, drag, h, false, 1e-15, &exact);
    stepDrag(K, drag, h, false, 1e-10, &newton);
    stepDrag(K, drag, h, true, 1e-10, &chord);
  }
  const double errNewton = (newton.s.g.b - exact.s.g.b).norm();
  const double errChord = (chord.s.g.b - exact.s.g.b).norm();
  const double meanJ = static_cast<double>(chord.jacobians) / chord.steps;
  const double meanR = static_cast<double>(chord.residuals) / chord.steps;
  INFO("position after 4 s (" << exact.s.g.b.norm() << " m from the start) off the reference by "
                              << errNewton << " m (Newton), " << errChord
                              << " m (chord); per step: Jacobians " << meanJ << " (Newton "
                              << static_cast<double>(newton.jacobians) / newton.steps
                              << "), residuals " << meanR);
  // The chord's last step is a free correction: it ends nearer the root than Newton does.
  CHECK(errChord <= errNewton);
  CHECK(errChord < 1e-8 * exact.s.g.b.norm());
  CHECK(meanJ < 0.3);
  // The guess extrapolated through the last seven solutions meets the tolerance after about
  // one chord iteration on this smooth motion (1.04 residuals per step; 2.9 with the last
  // change alone).
  CHECK(meanR < 1.5);
  CHECK(static_cast<double>(newton.jacobians) / newton.steps >= 1.0);
}

TEST_CASE("Jacobian reuse: a force that jumps between steps gets a fresh Jacobian",
          "[core][integrator]") {
  const Mat6 K = coupledK();
  QuadraticDrag drag;
  drag.stiff = 400.0;  // comparable to K/h: the cached Jacobian without it is far off
  const double h = 2e-3;
  DragRun newton, chord;
  newton.s.Y << 0.0, 0.0, 0.0, 0.0, 0.5, 0.0;  // rising: the push is off, then on
  newton.s.mu = K * newton.s.Y;
  chord.s = newton.s;
  for (int k = 0; k < 200; ++k) {
    stepDrag(K, drag, h, false, 1e-10, &newton);
    stepDrag(K, drag, h, true, 1e-10, &chord);
  }
  INFO("chord run: " << chord.jacobians << " Jacobians in " << chord.steps << " steps");
  CHECK((chord.s.Y - newton.s.Y).lpNorm<Eigen::Infinity>() < 1e-10);
  CHECK(chord.jacobians >= 2);  // the first step and the step the push came on
}

TEST_CASE("Jacobian reuse: force-free momentum map conserved as by Newton", "[core][integrator]") {
  const Mat6 K = coupledK();
  const double h = 1e-3;
  // The momentum map's largest relative change over 5000 force-free steps at the default
  // tolerance, with and without the cache.
  auto drift = [&](bool useCache, long* jacobians) {
    Rigid s;
    s.Y << 2.0, -3.0, 1.0, 0.1, 0.2, -0.3;
    s.mu = K * s.Y;
    NewtonCache cache;
    const Vec6 J0 = momentumToWorld(s.g, s.mu);
    double worst = 0.0;
    *jacobians = 0;
    for (int k = 0; k < 5000; ++k) {
      VariationalStepInput in;
      in.K = K;
      in.muPrev = s.mu;
      in.Yprev = k == 0 ? Vec6::Zero() : s.Y;
      in.Yguess = s.Y;
      in.h = h;
      in.cache = useCache ? &cache : nullptr;
      const VariationalStepResult r = solveVariationalStep(in);
      REQUIRE(r.converged);
      s.Y = r.Y;
      s.mu = r.mu;
      s.g = compose(s.g, cayley(h * r.Y));
      *jacobians += r.jacobians;
      worst = std::max(worst, (momentumMap(s, h) - J0).norm() / J0.norm());
    }
    return worst;
  };
  long jNewton = 0, jChord = 0;
  const double dNewton = drift(false, &jNewton);
  const double dChord = drift(true, &jChord);
  INFO("momentum map drift: Newton " << dNewton << " (" << jNewton << " Jacobians), chord "
                                     << dChord << " (" << jChord << " Jacobians)");
  CHECK(dChord < 1e-9);
  CHECK(dChord <= dNewton);
  CHECK(jChord < 50);
}
