// The Xie–Miyata model (MIG 2015): proxy ellipsoid, Lamb's analytic added mass, the
// Eqn-9 forces with the centre-of-pressure torque, the seeded Langevin turbulence.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "analysis/pattern.h"
#include "core/world.h"
#include "geometry/primitives.h"
#include "models/mujoco.h"
#include "models/xie_miyata.h"

using namespace samara;
using namespace samara::models;
using namespace samara::analysis;

namespace {

using samara::kPi;

/// A body-frame input for a mesh with the given density of the surrounding fluid.
core::FluidModelInput inputFor(const geometry::TriMesh& mesh, double rho, const Vec3& com) {
  core::FluidModelInput in;
  in.density = rho;
  in.h = 1e-3;
  in.mesh = &mesh;
  in.com = com;
  in.mass = 1.0;
  in.inertiaCom = Mat3::Identity();
  return in;
}

/// A flat elliptical sheet in the body x–y plane (normal z), semi-axes (a, b), `rings`
/// rings of `segments` vertices around a centre vertex.
geometry::TriMesh ellipseSheet(double a, double b, int rings, int segments) {
  geometry::TriMesh m;
  m.V.resize(1 + rings * segments, 3);
  m.V.row(0) << 0.0, 0.0, 0.0;
  for (int r = 1; r <= rings; ++r) {
    for (int s = 0; s < segments; ++s) {
      const double f = static_cast<double>(r) / rings;
      const double th = 2.0 * kPi * s / segments;
      m.V.row(1 + (r - 1) * segments + s) << f * a * std::cos(th), f * b * std::sin(th), 0.0;
    }
  }
  std::vector<Eigen::RowVector3i> F;
  for (int s = 0; s < segments; ++s) F.emplace_back(0, 1 + s, 1 + (s + 1) % segments);
  for (int r = 1; r < rings; ++r) {
    const int i0 = 1 + (r - 1) * segments, i1 = 1 + r * segments;
    for (int s = 0; s < segments; ++s) {
      const int s1 = (s + 1) % segments;
      F.emplace_back(i0 + s, i1 + s, i1 + s1);
      F.emplace_back(i0 + s, i1 + s1, i0 + s1);
    }
  }
  m.F.resize(static_cast<Eigen::Index>(F.size()), 3);
  for (size_t i = 0; i < F.size(); ++i) m.F.row(static_cast<Eigen::Index>(i)) = F[i];
  return m;
}

XieMiyataParams coefs(double cd, double cl1, double cl2) {
  XieMiyataParams p;
  p.dragCoef = cd;
  p.rotLiftCoef = cl1;
  p.transLiftCoef = cl2;
  return p;
}

bool sameBits(const Vec3& a, const Vec3& b) { return std::memcmp(a.data(), b.data(), 24) == 0; }

}  // namespace

TEST_CASE("Carlson's R_D matches Carlson's published values", "[models][xie-miyata]") {
  // Carlson (1995), Numer. Algorithms 10, test values.
  CHECK(carlsonRD(0.0, 2.0, 1.0) == Approx(1.7972103521033884).epsilon(1e-14));
  CHECK(carlsonRD(2.0, 3.0, 4.0) == Approx(0.16510527294261053).epsilon(1e-14));
  // Sphere of radius r: R_D(r², r², r²) = r⁻³.
  CHECK(carlsonRD(4.0, 4.0, 4.0) == Approx(0.125).epsilon(1e-15));
}

TEST_CASE("Shape integrals sum to 2 and are 2/3 for a sphere", "[models][xie-miyata]") {
  const Vec3 s = ellipsoidShapeIntegrals(Vec3(0.3, 0.3, 0.3));
  CHECK(s[0] == Approx(2.0 / 3.0).epsilon(1e-14));
  CHECK(s[1] == Approx(2.0 / 3.0).epsilon(1e-14));
  CHECK(s[2] == Approx(2.0 / 3.0).epsilon(1e-14));
  for (const Vec3& axes : {Vec3(0.035, 0.02, 0.0002), Vec3(3.0, 2.0, 1.0), Vec3(1.0, 0.1, 0.1)}) {
    const Vec3 g = ellipsoidShapeIntegrals(axes);
    CHECK(g.sum() == Approx(2.0).epsilon(1e-13));
    CHECK(g[0] < g[1]);  // the longer the axis, the smaller its integral
    CHECK(g[1] <= g[2]);
  }
}

TEST_CASE("Shape integrals and added mass agree with the MuJoCo model's quadrature",
          "[models][xie-miyata]") {
  // Carlson's R_D here, a trapezoidal rule in ln λ in models/mujoco.cpp: the same integrals.
  for (const Vec3& r : {Vec3(0.035, 0.02, 0.0002), Vec3(0.3, 0.2, 0.1), Vec3(0.1, 0.1, 0.4)}) {
    const Vec3 g = ellipsoidShapeIntegrals(r);
    const Vec3 kappa = tuckermanKappa(r);
    for (int i = 0; i < 3; ++i) CHECK(g[i] == Approx(kappa[i]).epsilon(1e-12));
    const EllipsoidAddedMass am = ellipsoidAddedMass(r, 1.225);
    const Vec3 M = addedMassLinear(r, 1.225), J = addedMassAngular(r, 1.225);
    for (int i = 0; i < 3; ++i) {
      CHECK(am.M[i] == Approx(M[i]).epsilon(1e-10));
      CHECK(am.J[i] == Approx(J[i]).epsilon(1e-9).margin(1e-30));
    }
  }
}

TEST_CASE("Sphere: added mass ½ρV, no added rotational inertia", "[models][xie-miyata]") {
  const double r = 0.1, rho = 998.0;
  const double V = 4.0 / 3.0 * kPi * r * r * r;
  const EllipsoidAddedMass am = ellipsoidAddedMass(Vec3(r, r, r), rho);
  for (int i = 0; i < 3; ++i) {
    CHECK(am.M[i] == Approx(0.5 * rho * V).epsilon(1e-13));
    CHECK(am.J[i] == 0.0);
  }
}

TEST_CASE("Prolate spheroid: Lamb's coefficients k₁, k₂, k'", "[models][xie-miyata]") {
  // a = 2b = 2c (Lamb, Hydrodynamics §115 table: k₁ = 0.210, k₂ = 0.704, k' = 0.240 at
  // a/b = 2) and the closed forms in the eccentricity e.
  const double b = 0.05, a = 2.0 * b, rho = 1000.0;
  const double mf = 4.0 / 3.0 * kPi * rho * a * b * b;
  const double e = std::sqrt(1.0 - (b * b) / (a * a));
  const double alpha0 = 2.0 * (1.0 - e * e) / (e * e * e) * (std::atanh(e) - e);
  const double beta0 = 1.0 / (e * e) - (1.0 - e * e) / (e * e * e) * std::atanh(e);
  const double k1 = alpha0 / (2.0 - alpha0), k2 = beta0 / (2.0 - beta0);
  const double kr = std::pow(e, 4) * (beta0 - alpha0) /
                    ((2.0 - e * e) * (2.0 * e * e - (2.0 - e * e) * (beta0 - alpha0)));
  const EllipsoidAddedMass am = ellipsoidAddedMass(Vec3(a, b, b), rho);
  CHECK(am.M[0] == Approx(k1 * mf).epsilon(1e-12));
  CHECK(am.M[1] == Approx(k2 * mf).epsilon(1e-12));
  CHECK(am.M[2] == Approx(k2 * mf).epsilon(1e-12));
  const double Ifluid = mf * (a * a + b * b) / 5.0;  // displaced fluid, transverse axis
  CHECK(am.J[0] == 0.0);
  CHECK(am.J[1] == Approx(kr * Ifluid).epsilon(1e-12));
  CHECK(am.J[2] == Approx(kr * Ifluid).epsilon(1e-12));
  CHECK(am.M[0] / mf == Approx(0.210).margin(0.0015));
  CHECK(am.M[1] / mf == Approx(0.704).margin(0.0015));
  CHECK(am.J[1] / Ifluid == Approx(0.240).margin(0.0015));
}

TEST_CASE("Oblate spheroid and the thin-disc limit", "[models][xie-miyata]") {
  const double R = 0.05, rho = 1.225;
  SECTION("c = R/2: the closed form along the axis of symmetry") {
    const double c = 0.5 * R;
    const double e = std::sqrt(1.0 - (c * c) / (R * R));
    const double gamma0 = 2.0 / (e * e) * (1.0 - std::sqrt(1.0 - e * e) * std::asin(e) / e);
    const double mf = 4.0 / 3.0 * kPi * rho * R * R * c;
    const EllipsoidAddedMass am = ellipsoidAddedMass(Vec3(R, R, c), rho);
    CHECK(am.M[2] == Approx(mf * gamma0 / (2.0 - gamma0)).epsilon(1e-12));
    CHECK(am.M[0] == Approx(am.M[1]).epsilon(1e-13));
    CHECK(am.J[2] == 0.0);  // spin about the axis of symmetry moves no fluid
    CHECK(am.J[0] == Approx(am.J[1]).epsilon(1e-13));
  }
  SECTION("c = 1e-4 R: a disc (normal 8/3 ρR³, about a diameter 16/45 ρR⁵)") {
    const EllipsoidAddedMass am = ellipsoidAddedMass(Vec3(R, R, 1e-4 * R), rho);
    CHECK(am.M[2] == Approx(8.0 / 3.0 * rho * std::pow(R, 3)).epsilon(1e-3));
    CHECK(am.J[0] == Approx(16.0 / 45.0 * rho * std::pow(R, 5)).epsilon(1e-3));
    CHECK(am.J[1] == Approx(16.0 / 45.0 * rho * std::pow(R, 5)).epsilon(1e-3));
    CHECK(am.M[0] < 1e-3 * am.M[2]);  // edge-on: almost nothing
    CHECK(am.J[2] == 0.0);
  }
}

TEST_CASE("Proxy ellipsoid from the vertices of a sheet and of an ellipsoid",
          "[models][xie-miyata]") {
  SECTION("elliptical sheet, rotated: axes and semi-axes, thickness as c") {
    geometry::TriMesh m = ellipseSheet(0.035, 0.02, 6, 48);
    const Mat3 R = Eigen::AngleAxisd(0.7, Vec3(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
    m.V = (m.V * R.transpose()).eval();
    const ProxyEllipsoid p = proxyFromVertices(m.V, 0.0002);
    CHECK(p.semiAxes[0] == Approx(0.035).epsilon(1e-12));
    CHECK(p.semiAxes[1] == Approx(0.02).epsilon(1e-12));
    CHECK(p.semiAxes[2] == Approx(0.0002));
    CHECK(std::abs(p.axes.col(0).dot(R.col(0))) == Approx(1.0).epsilon(1e-12));
    CHECK(std::abs(p.axes.col(1).dot(R.col(1))) == Approx(1.0).epsilon(1e-12));
    CHECK(std::abs(p.axes.col(2).dot(R.col(2))) == Approx(1.0).epsilon(1e-12));
    CHECK(p.axes.determinant() == Approx(1.0).epsilon(1e-12));  // right-handed
    CHECK((p.axes.transpose() * p.axes - Mat3::Identity()).norm() < 1e-12);
  }
  SECTION("no thickness: c = 1e-3 a") {
    const ProxyEllipsoid p = proxyFromVertices(ellipseSheet(0.035, 0.02, 2, 32).V);
    CHECK(p.semiAxes[2] == Approx(kMinProxyAxisRatio * 0.035));
  }
  SECTION("an ellipsoid mesh (a vertex on each pole)") {
    const ProxyEllipsoid p = proxyFromVertices(geometry::makeEllipsoid(Vec3(0.1, 0.3, 0.2), 3).V);
    CHECK(p.semiAxes[0] == Approx(0.3).epsilon(1e-12));
    CHECK(p.semiAxes[1] == Approx(0.2).epsilon(1e-12));
    CHECK(p.semiAxes[2] == Approx(0.1).epsilon(1e-12));
    CHECK(std::abs(p.axes(1, 0)) == Approx(1.0).epsilon(1e-12));
  }
  SECTION("from the inertia of a solid ellipsoid") {
    const double m = 2.0, a = 0.3, b = 0.2, c = 0.1;
    const Mat3 I = Vec3(m * (b * b + c * c) / 5, m * (a * a + c * c) / 5, m * (a * a + b * b) / 5)
                       .asDiagonal();
    const ProxyEllipsoid p = proxyFromInertia(m, I);
    CHECK(p.semiAxes[0] == Approx(a).epsilon(1e-12));
    CHECK(p.semiAxes[1] == Approx(b).epsilon(1e-12));
    CHECK(p.semiAxes[2] == Approx(c).epsilon(1e-12));
  }
}

TEST_CASE("Eqn 9 on hand-worked cases", "[models][xie-miyata]") {
  const Vec3 axes(0.035, 0.02, 0.0002);
  const double rho = 1.225, a = axes[0], A = kPi * 0.035 * 0.02;
  const XieMiyataParams p = coefs(1.81, 0.91, 0.61);
  SECTION("α = 90° (broadside), no rotation: pure drag −½ρ|u|²A C_D û") {
    const Vec3 u(0.0, 0.0, -0.8);
    const XieMiyataForces F = xieMiyataForces(axes, rho, u, Vec3::Zero(), p);
    CHECK(F.alpha == Approx(kPi / 2));
    const double q = 0.5 * rho * 0.64 * A;
    CHECK(F.drag.z() == Approx(q * 1.81).epsilon(1e-14));
    CHECK(F.drag.head<2>().norm() == 0.0);
    CHECK(F.rotLift.norm() == 0.0);
    CHECK(F.transLift.norm() == 0.0);
    CHECK(F.pressureCentre.norm() == 0.0);
    CHECK(F.torque.norm() == 0.0);
  }
  SECTION(
      "α = 90° with a fast spin: drag; rotational lift ∝ sin 180° = 0; translational "
      "lift −C_L2 along e₃ = (ω×u)×u") {
    const Vec3 u(0.0, 0.0, -0.8), omega(30.0, 0.0, 0.0);
    const XieMiyataForces F = xieMiyataForces(axes, rho, u, omega, p);
    const double q = 0.5 * rho * 0.64 * A;
    const double w = 30.0 / std::hypot(30.0, p.liftRateScale * 0.8 / a);  // ≈ 1
    CHECK(F.rotLift.norm() < 1e-15 * q);
    // e₃ = (ω × u) × u / |…| = −x̂; cos 180° = −1 ⇒ F_L2 = +q C_L2 x̂ (times w ≈ 1).
    CHECK(F.transLift.x() == Approx(q * 0.61 * w).epsilon(1e-14));
    CHECK(F.transLift.tail<2>().norm() < 1e-15 * q);
  }
  SECTION(
      "α = 45°: the translational lift (cos 90°) vanishes, the rotational lift is "
      "C_L1 along ω × u") {
    const double s = 1.0 / std::sqrt(2.0);
    const Vec3 u(s, 0.0, -s);          // |u| = 1, tangential along +a
    const Vec3 omega(0.0, 50.0, 0.0);  // about the b axis, normal to u
    const XieMiyataForces F = xieMiyataForces(axes, rho, u, omega, p);
    CHECK(F.alpha == Approx(kPi / 4));
    const double q = 0.5 * rho * 1.0 * A;
    const double w = 50.0 / std::hypot(50.0, p.liftRateScale * 1.0 / a);
    CHECK(F.transLift.norm() < 1e-14 * q);
    CHECK((F.drag - (-q * 1.81 * 0.5) * u).norm() < 1e-15);
    const Vec3 e2 = omega.cross(u).normalized();
    CHECK((F.rotLift - q * 0.91 * w * e2).norm() < 1e-14 * q);
    // Centre of pressure ahead along +a: (1 − sin³45°) a/4.
    const double pc = (1.0 - std::pow(s, 3)) * a / 4.0;
    CHECK((F.pressureCentre - Vec3(pc, 0.0, 0.0)).norm() < 1e-16);
    CHECK((F.torque - F.pressureCentre.cross(F.force())).norm() == 0.0);
  }
  SECTION("α = 0 (edge-on, gliding): no drag, full translational lift, p = a/4") {
    const Vec3 u(0.0, 1.5, 0.0), omega(0.0, 0.0, 20.0);
    const XieMiyataForces F = xieMiyataForces(axes, rho, u, omega, p);
    CHECK(F.alpha == 0.0);
    CHECK(F.drag.norm() == 0.0);
    CHECK(F.rotLift.norm() == 0.0);  // sin 0
    const double q = 0.5 * rho * 2.25 * A;
    const double w = 20.0 / std::hypot(20.0, p.liftRateScale * 1.5 / a);
    CHECK((F.transLift - Vec3(0.0, 0.0, -q * 0.61 * w)).norm() < 1e-15);  // e₃ = −ω̂
    CHECK((F.pressureCentre - Vec3(0.0, a / 4.0, 0.0)).norm() < 1e-17);
  }
  SECTION("without rotation the lifts vanish (liftRateScale regularisation)") {
    const XieMiyataForces F = xieMiyataForces(axes, rho, Vec3(0.3, 0.1, -0.5), Vec3::Zero(), p);
    CHECK(F.rotLift.norm() == 0.0);
    CHECK(F.transLift.norm() == 0.0);
    CHECK(F.drag.norm() > 0.0);
  }
}

TEST_CASE("Centre-of-pressure offset (1 − sin³α) a/4", "[models][xie-miyata]") {
  CHECK(centreOfPressureOffset(0.035, 0.0) == Approx(0.035 / 4.0).epsilon(1e-15));
  CHECK(centreOfPressureOffset(0.035, kPi / 2) == Approx(0.0).margin(1e-18));
  CHECK(centreOfPressureOffset(0.035, kPi / 6) == Approx(0.875 * 0.035 / 4.0).epsilon(1e-14));
}

TEST_CASE("Model wrench: zero at rest, finite everywhere, wind = moving the other way",
          "[models][xie-miyata]") {
  geometry::TriMesh m = ellipseSheet(0.035, 0.02, 4, 32);
  m.V.rowwise() += Eigen::RowVector3d(0.01, -0.02, 0.005);  // body origin off the COM
  const Vec3 com(0.01, -0.02, 0.005);
  core::FluidModelInput in = inputFor(m, 1.225, com);
  in.sheetThickness = 0.0004;
  const XieMiyataModel model(coefs(0.61, 2.71, 0.91));
  CHECK(model.name() == "xie-miyata");
  CHECK(model.buoyancy());

  SECTION("zero relative velocity, also while spinning about the COM") {
    CHECK(model.wrench(in, Vec6::Zero()).norm() == 0.0);
    Vec6 Y = Vec6::Zero();
    Y.head<3>() = Vec3(3.0, -2.0, 1.0);
    Y.tail<3>() = -Y.head<3>().cross(com);  // the COM at rest
    CHECK(model.wrench(in, Y).norm() == 0.0);
  }
  SECTION("finite for edge-on, broadside, zero and large velocities") {
    const std::vector<Vec3> us = {Vec3(1, 0, 0),      Vec3(0, 0, 1),      Vec3(0, 1, 0),
                                  Vec3(1e-300, 0, 0), Vec3(0, 0, 1e-300), Vec3(1e3, -2e3, 5e2),
                                  Vec3(0, 0, 0)};
    const std::vector<Vec3> ws = {Vec3::Zero(), Vec3(1, 0, 0), Vec3(0, 0, 1e-300), Vec3(1e4, 0, 0)};
    for (const Vec3& u : us) {
      for (const Vec3& w : ws) {
        Vec6 Y;
        Y << w, u - w.cross(com);
        const Vec6 W = model.wrench(in, Y);
        CHECK(W.allFinite());
      }
    }
  }
  SECTION("a wind W on a body at rest = the body moving at −W in still air") {
    Vec6 Y;
    Y << 1.0, -4.0, 2.0, 0.3, -0.7, 0.2;
    const Vec3 wind(0.4, 0.1, -0.3);
    core::FluidModelInput windy = in;
    windy.flowBody = wind;
    Vec6 Ymoved = Y;
    Ymoved.tail<3>() -= wind;
    const Vec6 a = model.wrench(windy, Y), b = model.wrench(in, Ymoved);
    CHECK((a - b).norm() <= 1e-15 * a.norm());
    CHECK(a.norm() > 0.0);
  }
  SECTION("the wrench about the body origin = the COM wrench moved") {
    Vec6 Y;
    Y << 2.0, 1.0, -3.0, 0.2, 0.5, -0.9;
    const core::PrincipalFrame f = model.localFrame(in);
    const Vec6 loc = core::velocityToLocal(f, Y);
    const XieMiyataForces F = xieMiyataForces(model.proxy(in).semiAxes, 1.225, loc.tail<3>(),
                                              loc.head<3>(), model.params());
    const Vec6 W = model.wrench(in, Y);
    CHECK((W.tail<3>() - f.R * F.force()).norm() < 1e-15);
    CHECK((W.head<3>() - (f.R * F.torque + com.cross(f.R * F.force()))).norm() < 1e-16);
  }
}

TEST_CASE("Added mass through the model: diagonal in the proxy frame at the COM",
          "[models][xie-miyata]") {
  const geometry::TriMesh m = geometry::makeEllipsoid(Vec3(0.3, 0.2, 0.1), 3);
  const core::FluidModelInput in = inputFor(m, 1000.0, Vec3::Zero());
  const XieMiyataModel model;
  const Mat6 K = model.addedMass(in);
  const EllipsoidAddedMass am = ellipsoidAddedMass(Vec3(0.3, 0.2, 0.1), 1000.0);
  // Proxy axes (a, b, c) = body (x, y, z) up to sign: the tensor is diag(J, M) in body axes.
  CHECK(K(0, 0) == Approx(am.J[0]).epsilon(1e-10));
  CHECK(K(1, 1) == Approx(am.J[1]).epsilon(1e-10));
  CHECK(K(2, 2) == Approx(am.J[2]).epsilon(1e-10));
  CHECK(K(3, 3) == Approx(am.M[0]).epsilon(1e-10));
  CHECK(K(4, 4) == Approx(am.M[1]).epsilon(1e-10));
  CHECK(K(5, 5) == Approx(am.M[2]).epsilon(1e-10));
  CHECK((K - Mat6(K.diagonal().asDiagonal())).norm() < 1e-10 * K.norm());
  CHECK(model.addedMass(inputFor(m, 0.0, Vec3::Zero())).norm() == 0.0);
}

TEST_CASE("The proxy follows a mesh that changes in place (the cache compares vertices)",
          "[models][xie-miyata]") {
  geometry::TriMesh m = ellipseSheet(0.035, 0.02, 2, 16);
  core::FluidModelInput in = inputFor(m, 1.225, Vec3::Zero());
  const XieMiyataModel model;
  CHECK(model.proxy(in).semiAxes[0] == Approx(0.035));
  Vec6 Y;
  Y << 0.0, 0.0, 0.0, 0.0, 0.0, -1.0;
  const Vec6 w1 = model.wrench(in, Y);
  m.V *= 2.0;  // same object, new shape
  CHECK(model.proxy(in).semiAxes[0] == Approx(0.07));
  CHECK(model.wrench(in, Y).z() == Approx(4.0 * w1.z()));  // ∝ πab
  in.sheetThickness = 0.001;
  CHECK(model.proxy(in).semiAxes[2] == Approx(0.0005));
}

TEST_CASE("Parameters are validated", "[models][xie-miyata]") {
  XieMiyataParams p;
  p.turbulenceTime = 0.0;
  CHECK_THROWS_WITH(XieMiyataModel(p), Catch::Contains("turbulence_time"));
  p = XieMiyataParams{};
  p.dragCoef = -1.0;
  CHECK_THROWS_WITH(XieMiyataModel(p), Catch::Contains("drag_coef"));
  p = XieMiyataParams{};
  p.semiAxes = Vec3(0.1, 0.0, 0.1);
  CHECK_THROWS_WITH(XieMiyataModel(p), Catch::Contains("semi_axes"));
}

TEST_CASE("Turbulence is deterministic per seed and clone continues identically",
          "[models][xie-miyata]") {
  const geometry::TriMesh m = ellipseSheet(0.035, 0.02, 2, 16);
  core::FluidModelInput in = inputFor(m, 1.225, Vec3::Zero());
  XieMiyataParams p;
  p.turbulence = 0.2;
  p.turbulenceTime = 0.05;
  p.seed = 42;
  XieMiyataModel a(p), b(p);
  p.seed = 43;
  XieMiyataModel c(p);
  Vec6 Y;
  Y << 3.0, -1.0, 0.5, 0.1, -0.8, 0.0;  // spinning: u* is carried through the rotation
  for (int i = 0; i < 1000; ++i) {
    a.advance(in, Y);
    b.advance(in, Y);
    c.advance(in, Y);
  }
  CHECK(sameBits(a.turbulenceBody(), b.turbulenceBody()));
  CHECK_FALSE(sameBits(a.turbulenceBody(), c.turbulenceBody()));
  CHECK(a.turbulenceBody().norm() > 0.0);
  const auto copy = a.clone();
  for (int i = 0; i < 500; ++i) {
    a.advance(in, Y);
    copy->advance(in, Y);
  }
  const auto* xm = dynamic_cast<const XieMiyataModel*>(copy.get());
  REQUIRE(xm != nullptr);
  CHECK(sameBits(a.turbulenceBody(), xm->turbulenceBody()));
  // The turbulent velocity enters the wrench (same bits for the copies).
  const Vec6 Yz = Vec6::Zero();
  CHECK(a.wrench(in, Yz).norm() > 0.0);
  CHECK(a.wrench(in, Yz) == xm->wrench(in, Yz));
  // Off: no state change, no force at rest.
  XieMiyataModel off;
  for (int i = 0; i < 10; ++i) off.advance(in, Y);
  CHECK(off.turbulenceBody().norm() == 0.0);
  CHECK(off.wrench(in, Yz).norm() == 0.0);
}

TEST_CASE("Box–Muller normals and the OU process have the right statistics",
          "[models][xie-miyata]") {
  const geometry::TriMesh m = ellipseSheet(0.035, 0.02, 2, 16);
  core::FluidModelInput in = inputFor(m, 1.225, Vec3::Zero());
  XieMiyataParams p;
  p.turbulence = 0.3;  // m/s
  p.turbulenceTime = 0.02;
  p.seed = 7;
  SECTION("standard normals: mean 0, variance 1, kurtosis 3") {
    XieMiyataModel g(p);
    const int n = 400000;
    double s1 = 0, s2 = 0, s4 = 0;
    for (int i = 0; i < n; ++i) {
      const double z = g.nextGaussian();
      s1 += z;
      s2 += z * z;
      s4 += z * z * z * z;
    }
    CHECK(s1 / n == Approx(0.0).margin(0.006));
    CHECK(s2 / n == Approx(1.0).epsilon(0.01));
    CHECK(s4 / n == Approx(3.0).epsilon(0.03));
  }
  SECTION("stationary variance σ² and lag-one correlation e^{−h/T}") {
    XieMiyataModel model(p);
    in.h = 0.01;                                                    // h/T = 0.5
    for (int i = 0; i < 200; ++i) model.advance(in, Vec6::Zero());  // forget the zero start
    const int n = 200000;
    double s2 = 0, lag = 0;
    Vec3 prev = model.turbulenceBody();
    for (int i = 0; i < n; ++i) {
      model.advance(in, Vec6::Zero());
      const Vec3& u = model.turbulenceBody();
      s2 += u.squaredNorm() / 3.0;
      lag += u.dot(prev) / 3.0;
      prev = u;
    }
    const double var = s2 / n;
    CHECK(var == Approx(0.09).epsilon(0.03));
    CHECK(lag / n / var == Approx(std::exp(-0.5)).epsilon(0.02));
  }
}

TEST_CASE("Figure 3: the four published parameter sets on a falling card",
          "[models][xie-miyata][slow]") {
  // The card of Fig. 3: an ellipse with semi-axes a = 3.5 cm, b = 2 cm (the paper's a, b
  // are the proxy semi-axes of App. A), released from rest in air at 10° (the a axis
  // inclined: tilted about the b axis), with constant coefficients and no turbulence.
  // The paper gives neither the card's thickness nor its density: 80 g/m² office paper
  // (0.1 mm, 800 kg/m³). One second of fall (0.8–1.6 m) sampled every step.
  //
  // What comes out (the paper's label → ours): SD → steady descent, AZ → chaotic,
  // ZZ → zigzag, AR → chaotic, not autorotation. With the AR set the card spins up without
  // bound (|ω| ≈ 570 rad/s after 1 s, > 1e4 rad/s after 2 s, the COM rising): Eqn 9 has
  // no rotational damping, the rotational lift is C_L1 ½ρ|u|²A whatever |ω|, applied at the
  // centre of pressure ahead of the centre its torque always drives the rotation on, and the
  // translational lift along the rotation axis puts a torque about the normal, which
  // nothing resists. Heavier cards (0.28 kg/m², the paper's 0.4 mm at 700 kg/m³) give
  // SD, zigzag, steady/zigzag, zigzag instead. The energy audit (issue 16) stops the AR
  // card once its kinetic energy is more than twice what its fall can supply.
  struct Case {
    const char* label;
    double cd, cl1, cl2;
    FallPattern expected;
  };
  const Case cases[] = {{"SD", 1.81, 0.31, 0.31, FallPattern::kSteadyDescent},
                        {"AZ", 0.61, 1.81, 1.21, FallPattern::kChaotic},
                        {"ZZ", 0.31, 0.91, 0.61, FallPattern::kZigzag},
                        {"AR", 0.61, 2.71, 0.91, FallPattern::kChaotic}};
  const double a = 0.035, b = 0.02;
  geometry::TriMesh card = ellipseSheet(a, b, 6, 48);  // x–y plane, normal z
  card.V.col(2) = card.V.col(1);                       // → x–z plane, normal y (up)
  card.V.col(1).setZero();
  for (const Case& c : cases) {
    core::WorldDef def;
    def.dt = 1e-3;
    core::BodyDef body;
    body.mesh = card;
    body.mass.mode = core::MassMode::kDensity;
    body.mass.density = 800.0;
    body.mass.thickness = 1e-4;
    body.position = Vec3(0.0, 10.0, 0.0);
    body.orientation = Quat(Eigen::AngleAxisd(10.0 * kPi / 180.0, Vec3::UnitZ()));
    body.model = std::make_shared<XieMiyataModel>(coefs(c.cd, c.cl1, c.cl2));
    def.bodies.push_back(body);
    core::World world(def);
    PatternTracker tracker(Vec3::UnitY(), 2.0 * a, Vec3::UnitY());
    double omegaMax = 0.0;
    const auto sample = [&] {
      const core::BodyDiagnostics d = world.diagnostics(0);
      tracker.add({world.time(), d.com, d.q, d.omega});
      omegaMax = std::max(omegaMax, d.omega.norm());
    };
    sample();
    core::StepReport report;
    while (report.ok() && world.time() < 1.0 - 1e-12) {
      report = world.step();
      if (report.ok()) sample();
    }
    INFO(c.label << ": " << report.message << " at t = " << world.time() << " s");
    if (std::string(c.label) == "AR") {
      // The unbounded spin-up feeds on energy no force supplies: the energy audit stops
      // it (its kinetic energy passes twice what gravity could give), before t = 1 s.
      CHECK_FALSE(report.ok());
      CHECK_THAT(report.message, Catch::Contains("energy audit"));
      CHECK(omegaMax > 100.0);
    } else {
      REQUIRE(report.ok());
    }
    const PatternResult r = tracker.result();
    INFO(c.label << ": " << patternName(r.pattern) << " (" << r.reason << "); d = " << r.d
                 << ", e = " << r.e << ", max |ω| = " << omegaMax << " rad/s");
    CHECK(r.pattern == c.expected);
  }
}
