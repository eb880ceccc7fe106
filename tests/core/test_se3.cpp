// SE(3) math: the matrix Cayley map and its exact inverse differential (PHYSICS.md §4).
#include <Eigen/LU>
#include <catch2/catch.hpp>
#include <random>

#include "core/se3.h"

using namespace samara;
using namespace samara::core;

namespace {

using Mat4 = Eigen::Matrix4d;

Mat4 hat4(const Vec6& xi) {
  Mat4 m = Mat4::Zero();
  m.block<3, 3>(0, 0) = hat(Vec3(xi.head<3>()));
  m.block<3, 1>(0, 3) = xi.tail<3>();
  return m;
}

Vec6 vee4(const Mat4& m) {
  Vec6 xi;
  xi << m(2, 1), m(0, 2), m(1, 0), m(0, 3), m(1, 3), m(2, 3);
  return xi;
}

Mat4 toMatrix(const Pose& p) {
  Mat4 m = Mat4::Identity();
  m.block<3, 3>(0, 0) = p.R();
  m.block<3, 1>(0, 3) = p.b;
  return m;
}

Vec6 randomVec6(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Vec6 v;
  for (int i = 0; i < 6; ++i) v[i] = u(rng);
  return v;
}

/// Calls fn(a, b) for 20 random pairs drawn from a generator seeded with `seed`: a with
/// entries in [−scaleA, scaleA], then b in [−scaleB, scaleB].
template <typename Fn>
void forRandomPairs(unsigned seed, double scaleA, double scaleB, Fn&& fn) {
  std::mt19937 rng(seed);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec6 a = randomVec6(rng, scaleA);
    const Vec6 b = randomVec6(rng, scaleB);
    fn(a, b);
  }
}

}  // namespace

TEST_CASE("Cayley map equals (I - X/2)^-1 (I + X/2) as 4x4 matrices", "[core][se3]") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec6 xi = randomVec6(rng, 2.0);
    const Mat4 X = hat4(xi);
    const Mat4 expected = (Mat4::Identity() - 0.5 * X).inverse() * (Mat4::Identity() + 0.5 * X);
    const Mat4 got = toMatrix(cayley(xi));
    CHECK((got - expected).cwiseAbs().maxCoeff() < 1e-13);
    // The rotation is orthogonal with determinant 1.
    const Mat3 R = got.block<3, 3>(0, 0);
    CHECK((R.transpose() * R - Mat3::Identity()).norm() < 1e-14);
    CHECK(R.determinant() == Approx(1.0).epsilon(1e-14));
  }
}

TEST_CASE("dtau^-1 (Eqn. 17) inverts the right-trivialised differential of the Cayley map",
          "[core][se3]") {
  // Right trivialisation: τ(ξ + εη) τ(ξ)⁻¹ = I + ε (dτ_ξ η)^ + O(ε²), so dτ⁻¹_ξ (dτ_ξ η) = η.
  forRandomPairs(11, 1.5, 1.0, [](const Vec6& xi, const Vec6& eta) {
    const double eps = 1e-6;
    const Mat4 Tinv = toMatrix(cayley(xi)).inverse();
    const Mat4 plus = toMatrix(cayley(xi + eps * eta)) * Tinv;
    const Mat4 minus = toMatrix(cayley(xi - eps * eta)) * Tinv;
    const Vec6 dtauEta = vee4((plus - minus) / (2.0 * eps));
    const Vec6 back = dCayleyInv(xi) * dtauEta;
    CHECK((back - eta).norm() < 1e-8 * (1.0 + eta.norm()));
  });
}

TEST_CASE("(dtau^-1)^T m and its Jacobian agree with the matrix and finite differences",
          "[core][se3]") {
  forRandomPairs(3, 1.0, 3.0, [](const Vec6& xi, const Vec6& m) {
    CHECK((dCayleyInvTransposeTimes(xi, m) - dCayleyInv(xi).transpose() * m).norm() < 1e-14);
    const Mat6 J = dCayleyInvTransposeTimesJacobian(xi, m);
    for (int j = 0; j < 6; ++j) {
      Vec6 e = Vec6::Zero();
      e[j] = 1e-6;
      const Vec6 fd =
          (dCayleyInvTransposeTimes(xi + e, m) - dCayleyInvTransposeTimes(xi - e, m)) / 2e-6;
      CHECK((J.col(j) - fd).norm() < 1e-8);
    }
  });
}

TEST_CASE("Coadjoint maps: world momentum and body wrench of a point force", "[core][se3]") {
  Pose g;
  g.q = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  g.b = Vec3(0.3, -1.2, 2.0);
  // A force f_w at world point p: world wrench (p × f, f) → body (x × f_b, f_b), x = g⁻¹ p.
  const Vec3 xBody(0.1, 0.2, -0.3);
  const Vec3 fWorld(1.0, -2.0, 0.5);
  const Vec3 p = g.toWorld(xBody);
  Vec6 Ww;
  Ww << p.cross(fWorld), fWorld;
  const Vec6 Wb = wrenchToBody(g, Ww);
  const Vec3 fb = g.q.conjugate() * fWorld;
  CHECK((Wb.tail<3>() - fb).norm() < 1e-14);
  CHECK((Wb.head<3>() - xBody.cross(fb)).norm() < 1e-14);
  // Power is frame independent: ⟨F_body, Y⟩ = ⟨F_world, Y_world-twist⟩; equivalently the
  // world momentum of a point mass m at x with body velocity Y is (p × m ṗ, m ṗ).
  const double m = 2.5;
  Vec6 Y;
  Y << 0.4, -0.1, 0.9, 1.0, 2.0, -0.5;
  const Vec3 vBodyPoint = Y.tail<3>() + Vec3(Y.head<3>()).cross(xBody);
  const Mat6 I = spatialInertia(m, m * xBody, m * xBody * xBody.transpose());
  const Vec6 muWorld = momentumToWorld(g, I * Y);
  const Vec3 pdot = g.q * vBodyPoint;
  CHECK((muWorld.tail<3>() - m * pdot).norm() < 1e-13);
  CHECK((muWorld.head<3>() - p.cross(m * pdot)).norm() < 1e-13);
  // Kinetic energy from the spatial inertia is ½ m |ṗ|².
  CHECK(0.5 * Y.dot(I * Y) == Approx(0.5 * m * pdot.squaredNorm()).epsilon(1e-14));
}
