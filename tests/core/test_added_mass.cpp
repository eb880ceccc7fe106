// δ and the added-mass tensor against PHYSICS.md §6 and GwtF Table 1, via the World (so the
// per-face assembly that the step uses is what is tested).
#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/world.h"
#include "geometry/primitives.h"

using namespace samara;
using namespace samara::core;

namespace {

constexpr double kRhoWater = 998.0;

BodyInfo inspect(geometry::TriMesh mesh, MassDef mass, double rhoFluid,
                 std::optional<double> delta = std::nullopt) {
  WorldDef def;
  def.gravity = Vec3::Zero();
  def.fluid.density = rhoFluid;
  BodyDef b;
  b.mesh = std::move(mesh);
  b.mass = mass;
  b.delta = delta;
  def.bodies.push_back(b);
  World world(def);
  return world.info(0);
}

MassDef density(double rho, double thickness = 0.0) {
  MassDef m;
  m.mode = MassMode::kDensity;
  m.density = rho;
  m.thickness = thickness;
  return m;
}

}  // namespace

TEST_CASE("Sphere: delta -> r/2 and added mass -> (2/3) pi r^3 rho_f on each axis",
          "[core][added_mass]") {
  const double r = 0.1;
  const double exact = 2.0 / 3.0 * M_PI * r * r * r * kRhoWater;
  double prevErr = 1e9;
  for (int s = 1; s <= 5; ++s) {
    const BodyInfo info = inspect(geometry::makeSphere(r, s), density(500.0), kRhoWater);
    const double err = std::abs(info.addedMass(3, 3) - exact) / exact;
    INFO("subdivisions " << s << ": delta/r = " << info.delta / r << ", added mass error " << err);
    CHECK(err < prevErr);  // converges monotonically under refinement
    prevErr = err;
    if (s >= 4) {
      CHECK(info.delta == Approx(r / 2).epsilon(0.01));
      for (int i = 3; i < 6; ++i) CHECK(info.addedMass(i, i) == Approx(exact).epsilon(0.01));
      // A sphere centred on the origin has no rotational added mass and no coupling (face
      // centroids lie off the normal lines through the centre by O(mesh size²)).
      CHECK(info.addedMass.topLeftCorner<3, 3>().norm() < 1e-4 * exact * r * r);
      CHECK(info.addedMass.topRightCorner<3, 3>().norm() < 1e-3 * exact * r);
    }
  }
}

TEST_CASE("Long cylinder: radial added mass -> pi R^2 L rho_f", "[core][added_mass]") {
  // With end caps δ = R (L + R)/(L + πR) (caps' rims bend by π/2): → R as L/R → ∞.
  const double R = 0.01;
  for (double aspect : {20.0, 100.0, 400.0}) {
    const double L = aspect * R;
    const BodyInfo info = inspect(geometry::makeCylinder(R, L, 256, 8), density(1000.0), kRhoWater);
    const double exact = M_PI * R * R * L * kRhoWater;
    const double capsPredicted = (L + R) / (L + M_PI * R);
    INFO("L/R = " << aspect << ": delta/R = " << info.delta / R << ", ratio to pi R^2 L rho "
                  << info.addedMass(3, 3) / exact);
    CHECK(info.delta / R == Approx(capsPredicted).epsilon(2e-3));
    CHECK(info.addedMass(3, 3) / exact == Approx(capsPredicted).epsilon(2e-3));
    CHECK(info.addedMass(5, 5) / exact == Approx(capsPredicted).epsilon(2e-3));
    if (aspect >= 400.0) CHECK(info.addedMass(3, 3) / exact == Approx(1.0).epsilon(0.01));
  }
}

TEST_CASE("Flat plate: delta = ab/(pi(a+b)) and normal added mass 2a^2b^2 rho/(pi(a+b))",
          "[core][added_mass]") {
  for (auto [a, b, m, n] :
       {std::tuple{0.1, 0.1, 1, 1}, std::tuple{0.2, 0.05, 7, 3}, std::tuple{0.04, 0.16, 10, 40}}) {
    const BodyInfo info = inspect(geometry::makePlate(a, b, m, n), density(700.0, 2e-4), 1.225);
    const double delta = a * b / (M_PI * (a + b));
    CHECK(info.delta == Approx(delta).epsilon(1e-12));
    const double normal = 2.0 * a * a * b * b * 1.225 / (M_PI * (a + b));
    CHECK(info.addedMass(4, 4) == Approx(normal).epsilon(1e-12));  // normal along body y
    CHECK(std::abs(info.addedMass(3, 3)) < 1e-15);
    CHECK(std::abs(info.addedMass(5, 5)) < 1e-15);
  }
}

TEST_CASE("Added mass: delta override, zero switches it off, tensor symmetric PSD",
          "[core][added_mass]") {
  const geometry::TriMesh box = geometry::makeBox(Vec3(0.3, 0.1, 0.2), 3);
  const BodyInfo autoInfo = inspect(box, density(300.0), kRhoWater);
  const BodyInfo off = inspect(box, density(300.0), kRhoWater, 0.0);
  CHECK(off.addedMass.norm() == 0.0);
  CHECK((off.kirchhoff - off.bodyInertia).norm() == 0.0);
  const BodyInfo twice = inspect(box, density(300.0), kRhoWater, 2.0 * autoInfo.delta);
  CHECK((twice.addedMass - 2.0 * autoInfo.addedMass).norm() < 1e-12 * autoInfo.addedMass.norm());
  CHECK((autoInfo.addedMass - autoInfo.addedMass.transpose()).norm() <
        1e-14 * autoInfo.addedMass.norm());
  Eigen::SelfAdjointEigenSolver<Mat6> eig(autoInfo.addedMass);
  CHECK(eig.eigenvalues().minCoeff() > -1e-12 * autoInfo.addedMass.norm());
  // Box mass and inertia about the centre: exact.
  const double m = 300.0 * 0.3 * 0.1 * 0.2;
  CHECK(autoInfo.mass == Approx(m).epsilon(1e-12));
  CHECK(autoInfo.bodyInertia(0, 0) == Approx(m * (0.01 + 0.04) / 12).epsilon(1e-12));
  CHECK(autoInfo.bodyInertia(1, 1) == Approx(m * (0.09 + 0.04) / 12).epsilon(1e-12));
  CHECK(autoInfo.bodyInertia(2, 2) == Approx(m * (0.09 + 0.01) / 12).epsilon(1e-12));
}
