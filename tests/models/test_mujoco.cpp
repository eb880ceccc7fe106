// MuJoCo's inertia-box and ellipsoid fluid models (issue 6): geometry of the ellipsoid
// (projected area, Tuckerman's κ, added mass) against independent derivations and classical
// limits, hand-worked drag numbers, and the FluidModel contract (zero wrench at zero relative
// velocity, wind = moving the body the other way, the Kirchhoff option, no NaN for a card).
#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "geometry/mass_properties.h"
#include "geometry/primitives.h"
#include "geometry/topology.h"
#include "models/mujoco.h"

using namespace samara;
using namespace samara::models;

namespace {

constexpr double kPi = 3.14159265358979323846;

double relErr(double a, double b) { return std::abs(a - b) / std::max(std::abs(b), 1e-300); }

double relErr(const Vec6& a, const Vec6& b) { return (a - b).norm() / std::max(b.norm(), 1e-300); }

Vec6 six(const Vec3& angular, const Vec3& linear) {
  Vec6 out;
  out << angular, linear;
  return out;
}

// A body: its mesh (owned, so FluidModelInput::mesh stays valid) and the model input.
struct Body {
  geometry::TriMesh mesh;
  core::FluidModelInput in;
};

// Uniform solid (closed mesh) or sheet of the given (areal) density; ρ_f = 1.2, β = 1.8e-5.
Body makeBody(geometry::TriMesh mesh, double density, bool sheet, const Quat& q = Quat::Identity(),
              const Vec3& offset = Vec3::Zero()) {
  for (int i = 0; i < mesh.numVertices(); ++i) {
    mesh.V.row(i) = (q * mesh.vertex(i) + offset).transpose();
  }
  const geometry::Topology topo = geometry::buildTopology(mesh);
  geometry::MassMoments mm;
  for (const geometry::Part& part : topo.parts) {
    mm += sheet ? geometry::sheetMoments(mesh, part, density)
                : geometry::solidMoments(mesh, part, density);
  }
  Body b;
  b.mesh = std::move(mesh);
  b.in.density = 1.2;
  b.in.viscosity = 1.8e-5;
  b.in.mass = mm.mass;
  b.in.com = mm.com();
  const Vec3 c = b.in.com;
  b.in.inertiaCom =
      mm.inertiaAboutOrigin() - mm.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  return b;
}

// The three variants: inertia box, ellipsoid, ellipsoid with Kirchhoff added mass.
std::vector<std::unique_ptr<core::FluidModel>> allModels() {
  MujocoEllipsoidParams kirchhoff;
  kirchhoff.kirchhoffAddedMass = true;
  std::vector<std::unique_ptr<core::FluidModel>> models;
  models.push_back(std::make_unique<MujocoInertiaModel>());
  models.push_back(std::make_unique<MujocoEllipsoidModel>());
  models.push_back(std::make_unique<MujocoEllipsoidModel>(kirchhoff));
  return models;
}

// The shadow of the ellipsoid on the plane normal to u, computed by projecting its shape
// matrix: {x : xᵀ M⁻¹ x ≤ 1}, M = diag(r²), projects to {y : yᵀ S⁻¹ y ≤ 1}, S = Eᵀ M E with E
// an orthonormal basis of u⊥; area π √det S.
double shadowArea(const Vec3& r, const Vec3& u) {
  const Vec3 n = u.normalized();
  const Vec3 e1 = n.unitOrthogonal();
  const Vec3 e2 = n.cross(e1);
  Eigen::Matrix<double, 3, 2> E;
  E << e1, e2;
  const Mat3 M = r.cwiseProduct(r).asDiagonal();
  const Eigen::Matrix2d S = E.transpose() * M * E;
  return kPi * std::sqrt(S.determinant());
}

}  // namespace

TEST_CASE("Ellipsoid projected area: MuJoCo's conjugate section, and its shadow",
          "[models][mujoco]") {
  const Vec3 r(0.3, 0.2, 0.1);
  // Along a principal axis the section and the shadow are both π r_j r_k.
  CHECK(relErr(projectedArea(r, Vec3(2.0, 0, 0)), kPi * 0.2 * 0.1) < 1e-14);
  CHECK(relErr(projectedArea(r, Vec3(0, -0.5, 0)), kPi * 0.3 * 0.1) < 1e-14);
  CHECK(relErr(projectedArea(r, Vec3(0, 0, 3.0)), kPi * 0.3 * 0.2) < 1e-14);
  CHECK(projectedArea(r, Vec3::Zero()) == 0.0);
  // A sphere: π r² from any direction.
  CHECK(relErr(projectedArea(Vec3::Constant(0.25), Vec3(1.0, -2.0, 0.7)), kPi * 0.0625) < 1e-14);

  const std::vector<Vec3> directions = {Vec3(1, 1, 0), Vec3(1, 0, 1),        Vec3(0, 1, -1),
                                        Vec3(1, 2, 3), Vec3(-0.3, 0.8, 0.1), Vec3(5, -1, 2)};
  for (const Vec3& d : directions) {
    const Vec3 v = 1.7 * d.normalized();
    // Independent: the central section normal to n ∝ (r_j r_k / r_i) v_i (the plane of the
    // contour where v is tangent), area π abc / √(Σ r_i² n̂_i²).
    const Vec3 n = Vec3(r.y() * r.z() / r.x() * v.x(), r.z() * r.x() / r.y() * v.y(),
                        r.x() * r.y() / r.z() * v.z())
                       .normalized();
    const double section = kPi * r.prod() / std::sqrt(r.cwiseProduct(r).dot(n.cwiseProduct(n)));
    const double A = projectedArea(r, v);
    INFO("direction " << d.transpose() << ": A = " << A << ", section " << section << ", shadow "
                      << shadowArea(r, v));
    CHECK(relErr(A, section) < 1e-12);
    // The true shadow on the plane normal to v is that section foreshortened by |n̂·v̂|
    // (MuJoCo's documentation lemma omits this factor): π abc √(Σ v̂_i²/r_i²).
    CHECK(relErr(A * std::abs(n.dot(v.normalized())), shadowArea(r, v)) < 1e-12);
    const Vec3 vh = v.normalized();
    CHECK(relErr(shadowArea(r, v), kPi * r.prod() * std::sqrt(vh.cwiseQuotient(r).squaredNorm())) <
          1e-12);
  }
  // The thin card at 45° between its long axis and its normal: the section is 1.4× the shadow.
  const Vec3 card(0.0175, 0.01, 1.75e-5);
  const Vec3 v45(1.0, 0.0, 1.0);
  CHECK(projectedArea(card, v45) / shadowArea(card, v45) == Approx(std::sqrt(2.0)).epsilon(1e-3));
}

TEST_CASE("Tuckerman's kappa and the added mass of ellipsoids", "[models][mujoco]") {
  // Sphere: κ_i = 2/3, so m_A = ½ ρ V (half the displaced mass) and no rotational added mass.
  const double rs = 0.1;
  const double rho = 998.0;
  const Vec3 kSphere = tuckermanKappa(Vec3::Constant(rs));
  for (int i = 0; i < 3; ++i) CHECK(std::abs(kSphere(i) - 2.0 / 3.0) < 1e-13);
  const double half = 0.5 * rho * 4.0 / 3.0 * kPi * rs * rs * rs;
  const Vec3 mSphere = addedMassLinear(Vec3::Constant(rs), rho);
  for (int i = 0; i < 3; ++i) CHECK(relErr(mSphere(i), half) < 1e-10);  // brief: 1e-6
  CHECK(addedMassAngular(Vec3::Constant(rs), rho) == Vec3::Zero());

  // Σκ = 2 for any ellipsoid, down to the 1000:1 card.
  for (const Vec3& r : {Vec3(1.0, 0.5, 0.2), Vec3(0.3, 0.2, 0.1), Vec3(0.0175, 0.01, 1.75e-5),
                        Vec3(2.0, 1e-4, 3.0), Vec3(1e-3, 1e-3, 1.0)}) {
    INFO("semi-axes " << r.transpose() << ": kappa " << tuckermanKappa(r).transpose());
    CHECK(std::abs(tuckermanKappa(r).sum() - 2.0) < 1e-13);
  }

  // Prolate spheroid (a, b, b), a = 3b: Lamb's closed forms α₀ (axial), β₀ (equatorial).
  const double a = 0.3;
  const double b = 0.1;
  const double e = std::sqrt(1.0 - b * b / (a * a));
  const double L = std::log((1.0 + e) / (1.0 - e));
  const double alpha0 = 2.0 * (1.0 - e * e) / (e * e * e) * (0.5 * L - e);
  const double beta0 = 1.0 / (e * e) - (1.0 - e * e) / (2.0 * e * e * e) * L;
  const Vec3 kProlate = tuckermanKappa(Vec3(a, b, b));
  CHECK(std::abs(kProlate(0) - alpha0) < 1e-13);  // 0.2174189301051730
  CHECK(std::abs(kProlate(1) - beta0) < 1e-13);   // 0.8912905349474134
  CHECK(std::abs(kProlate(2) - beta0) < 1e-13);
  // No rotational added mass about the axis of symmetry (any order of the axes).
  CHECK(addedMassAngular(Vec3(a, b, b), rho)(0) == 0.0);
  CHECK(addedMassAngular(Vec3(b, b, a), rho)(2) == 0.0);
  CHECK(addedMassAngular(Vec3(b, a, b), rho)(1) == 0.0);
  CHECK(addedMassAngular(Vec3(a, b, b), rho)(1) > 0.0);

  // Thin circular disk (c/a = 1e-6): m_A normal = 8/3 ρ a³, I_A about a diameter = 16/45 ρ a⁵
  // (Lamb §107/§108); the ellipsoid values differ by O(c/a).
  const double ad = 0.05;
  const Vec3 disk(ad, ad, 1e-6 * ad);
  CHECK(relErr(addedMassLinear(disk, rho)(2), 8.0 / 3.0 * rho * ad * ad * ad) < 1e-5);
  const double iDisk = 16.0 / 45.0 * rho * std::pow(ad, 5);
  CHECK(relErr(addedMassAngular(disk, rho)(0), iDisk) < 1e-5);
  CHECK(relErr(addedMassAngular(disk, rho)(1), iDisk) < 1e-5);
  CHECK(addedMassAngular(disk, rho)(2) == 0.0);
}

TEST_CASE("Inertia box: size from inertia and hand-worked drag", "[models][mujoco]") {
  // A solid box's inertia recovers its edges.
  const double m = 2.5;
  const Vec3 size(0.3, 0.2, 0.1);
  const Vec3 moments(m / 12 * (0.04 + 0.01), m / 12 * (0.09 + 0.01), m / 12 * (0.09 + 0.04));
  const Vec3 box = inertiaBoxSize(m, moments);
  for (int i = 0; i < 3; ++i) CHECK(relErr(box(i), size(i)) < 1e-14);

  // Quadratic drag, ρ = 1.2, v = (2, −1, 0.5): f_i = −½ ρ b_j b_k |v_i| v_i.
  const Vec6 f = inertiaBoxWrench(size, 1.2, 0.0, six(Vec3::Zero(), Vec3(2.0, -1.0, 0.5)));
  CHECK(f(3) == Approx(-0.048).epsilon(1e-14));  // −½·1.2·0.2·0.1·2·2
  CHECK(f(4) == Approx(0.018).epsilon(1e-14));   // −½·1.2·0.3·0.1·1·(−1)
  CHECK(f(5) == Approx(-0.009).epsilon(1e-14));  // −½·1.2·0.3·0.2·0.5·0.5
  CHECK(f.head<3>() == Vec3::Zero());
  // Quadratic torque, ω = (3, 0, 0): −ρ b_x (b_y⁴ + b_z⁴) ω|ω| / 64 = −8.60625e-5 N·m.
  const Vec6 g = inertiaBoxWrench(size, 1.2, 0.0, six(Vec3(3.0, 0, 0), Vec3::Zero()));
  CHECK(g(0) == Approx(-8.60625e-5).epsilon(1e-14));
  CHECK(g.tail<5>() == Eigen::Matrix<double, 5, 1>::Zero());
  // Viscous, β = 1.8e-5, d = 0.2: f = −3π d β v, g = −π d³ β ω.
  const Vec6 fv = inertiaBoxWrench(size, 0.0, 1.8e-5, six(Vec3(0, 0, 1.0), Vec3(1.0, 0, 0)));
  CHECK(fv(3) == Approx(-3.392920065876977e-5).epsilon(1e-13));
  CHECK(fv(2) == Approx(-4.523893421169303e-7).epsilon(1e-13));

  // Through the FluidModel: a solid box mesh (principal axes = body axes, x longest). Its
  // inertia box is the box itself, so (viscosity off) the wrench is the hand-worked one.
  Body body = makeBody(geometry::makeBox(size, 2), 500.0, false);
  body.in.mesh = &body.mesh;
  body.in.viscosity = 0.0;
  const MujocoInertiaModel model;
  CHECK(model.name() == "mujoco-inertia");
  CHECK_FALSE(model.buoyancy());
  CHECK(model.addedMass(body.in) == Mat6::Zero());
  const Vec6 w = model.wrench(body.in, six(Vec3::Zero(), Vec3(2.0, -1.0, 0.5)));
  CHECK(relErr(w, six(Vec3::Zero(), Vec3(-0.048, 0.018, -0.009))) < 1e-12);
  CHECK(model.clone()->name() == "mujoco-inertia");
  // The same box with its COM at t: the force acts at the COM, torque t × f about the origin.
  const Vec3 t(0.1, -0.4, 0.25);
  Body moved = makeBody(geometry::makeBox(size, 2), 500.0, false, Quat::Identity(), t);
  moved.in.mesh = &moved.mesh;
  moved.in.viscosity = 0.0;
  const Vec3 fHand(-0.048, 0.018, -0.009);
  const Vec6 wm = model.wrench(moved.in, six(Vec3::Zero(), Vec3(2.0, -1.0, 0.5)));
  CHECK(relErr(wm, six(t.cross(fHand), fHand)) < 1e-12);
}

TEST_CASE("Ellipsoid model: hand-worked drag, Magnus, Kutta and Munk", "[models][mujoco]") {
  const Vec3 r(0.3, 0.2, 0.1);
  const double rho = 1.2;
  const double beta = 1.8e-5;
  const EllipsoidCoefficients c;

  // Pure translation along x at 1.5 m/s: A = π r_y r_z = 0.0628319, A_max = π r_max r_mid =
  // 0.188496, r_D = 0.2. f_x = −[6πβ r_D + ρ|v|(C_blunt A + C_slender (A_max − A))] v
  //     = −(6.78584e-5 + 0.113097) · 1.5 = −0.169748 N; no lift, no torque.
  const Vec6 w = ellipsoidWrench(r, c, rho, beta, six(Vec3::Zero(), Vec3(1.5, 0, 0)), true);
  CHECK(w(3) == Approx(-0.16974779089582515).epsilon(1e-13));
  CHECK(w.head<3>().norm() == 0.0);
  CHECK(w(4) == 0.0);
  CHECK(w(5) == 0.0);

  // Pure spin about z at 2 rad/s: I_D,z = 8π/15 r_z r_x⁴ = 1.35717e-3, I_max = 8π/15 r_mid r_max⁴
  // = 2.71434e-3, K_z = 1.5 I_D,z + 0.25 (I_max − I_D,z) = 2.37504e-3;
  // g_z = −(8πβ r_D³ + ρ K_z |ω|) ω = −0.0114074 N·m.
  const Vec6 s = ellipsoidWrench(r, c, rho, beta, six(Vec3(0, 0, 2.0), Vec3::Zero()), true);
  CHECK(s(2) == Approx(-0.011407449650820512).epsilon(1e-13));
  CHECK(s.tail<3>().norm() == 0.0);

  // The angular drag uses the Euclidean norm ‖K∘ω‖: spin (1, 1, 0) gives −ρ‖K∘ω‖ω.
  EllipsoidCoefficients noLift = c;
  noLift.kuttaLift = 0.0;
  noLift.magnusLift = 0.0;
  const Vec6 s2 = ellipsoidWrench(r, noLift, rho, 0.0, six(Vec3(1, 1, 0), Vec3::Zero()), false);
  const double iMax = 8.0 / 15.0 * kPi * 0.2 * std::pow(0.3, 4);
  const double kx = 1.5 * (8.0 / 15.0 * kPi * 0.3 * std::pow(0.2, 4)) +
                    0.25 * (iMax - 8.0 / 15.0 * kPi * 0.3 * std::pow(0.2, 4));
  const double ky = 1.5 * (8.0 / 15.0 * kPi * 0.2 * std::pow(0.3, 4)) + 0.25 * 0.0;
  const double normK = std::hypot(kx, ky);
  CHECK(s2(0) == Approx(-rho * normK).epsilon(1e-13));
  CHECK(s2(1) == Approx(-rho * normK).epsilon(1e-13));

  // Magnus alone: f = C_M ρ V ω × v; ω = (0,0,2), v = (1.5,0,0) → f_y = 1.2 · 0.0251327 · 3.
  EllipsoidCoefficients onlyMagnus{0.0, 0.0, 0.0, 0.0, 1.0};
  const Vec6 mg =
      ellipsoidWrench(r, onlyMagnus, rho, 0.0, six(Vec3(0, 0, 2.0), Vec3(1.5, 0, 0)), false);
  const double volume = 4.0 / 3.0 * kPi * 0.3 * 0.2 * 0.1;
  CHECK(relErr(mg, six(Vec3::Zero(), Vec3(0, rho * volume * 3.0, 0))) < 1e-14);

  // Kutta alone against the documentation's normalised form
  // f_K = C_K ρ A (v̂·n̂)(n̂ × v) × v, n̂ ∝ (r_j r_k / r_i) v_i: a lift, normal to v.
  const Vec3 rk(0.3, 0.2, 0.02);
  const Vec3 v(1.0, 0.3, -0.5);
  EllipsoidCoefficients onlyKutta{0.0, 0.0, 0.0, 1.0, 0.0};
  const Vec6 kt = ellipsoidWrench(rk, onlyKutta, rho, 0.0, six(Vec3::Zero(), v), false);
  const Vec3 nh = Vec3(rk.y() * rk.z() / rk.x() * v.x(), rk.z() * rk.x() / rk.y() * v.y(),
                       rk.x() * rk.y() / rk.z() * v.z())
                      .normalized();
  const Vec3 fK = rho * projectedArea(rk, v) * v.normalized().dot(nh) * nh.cross(v).cross(v);
  CHECK(relErr(kt, six(Vec3::Zero(), fK)) < 1e-12);
  CHECK(std::abs(kt.tail<3>().dot(v)) < 1e-14 * kt.tail<3>().norm() * v.norm());
  CHECK(kt.tail<3>().norm() > 0.01);
  // A sphere has no Kutta lift.
  const Vec6 ks =
      ellipsoidWrench(Vec3::Constant(0.1), onlyKutta, rho, 0.0, six(Vec3::Zero(), v), false);
  CHECK(ks.norm() < 1e-15);

  // Munk moment: a prolate body (long axis x) moving at 45° in the x-y plane is turned
  // broadside: g_z = (m_A,x − m_A,y) v_x v_y < 0, and there is no added-mass force.
  EllipsoidCoefficients none{0.0, 0.0, 0.0, 0.0, 0.0};
  const Vec3 prolate(0.3, 0.1, 0.1);
  const Vec6 mk =
      ellipsoidWrench(prolate, none, 998.0, 0.0, six(Vec3::Zero(), Vec3(1, 1, 0)), true);
  const Vec3 mA = addedMassLinear(prolate, 998.0);
  CHECK(mk(2) == Approx(mA.x() - mA.y()).epsilon(1e-13));
  CHECK(mk(2) < 0.0);
  CHECK(mk.tail<3>().norm() == 0.0);
}

TEST_CASE("Both models: zero wrench at zero relative velocity, wind = body moving back",
          "[models][mujoco]") {
  // A solid box and a solid ellipsoid, rotated and off the origin (COM ≠ body origin,
  // principal axes ≠ body axes).
  const Quat q = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()));
  std::vector<Body> bodies;
  bodies.push_back(
      makeBody(geometry::makeBox(Vec3(0.3, 0.2, 0.1), 2), 400.0, false, q, Vec3(0.05, -0.02, 0.1)));
  bodies.push_back(makeBody(geometry::makeEllipsoid(Vec3(0.2, 0.1, 0.05), 3), 700.0, false, q,
                            Vec3(-0.1, 0.03, 0.02)));
  for (Body& b : bodies) b.in.mesh = &b.mesh;

  const auto models = allModels();

  const Vec3 flow(0.8, -0.3, 1.1);
  const std::vector<Vec6> Ys = {six(Vec3(0.3, -1.2, 2.0), Vec3(0.5, 0.1, -0.7)),
                                six(Vec3(4.0, 0.0, 0.0), Vec3(0.0, 0.0, 0.0)),
                                six(Vec3(0.0, 0.0, 0.0), Vec3(-2.0, 3.0, 0.2))};
  for (Body& b : bodies) {
    for (const auto& model : models) {
      INFO(model->name());
      CHECK_FALSE(model->buoyancy());
      // Body moving with the flow, no spin: ω = 0 and v_COM = flow.
      core::FluidModelInput in = b.in;
      in.flowBody = flow;
      CHECK(model->wrench(in, six(Vec3::Zero(), flow)) == Vec6::Zero());
      core::FluidModelInput still = b.in;
      CHECK(model->wrench(still, Vec6::Zero()) == Vec6::Zero());
      // Wind w ≡ the body moving with −w: bit for bit (the wind enters every term).
      for (const Vec6& Y : Ys) {
        const Vec6 withWind = model->wrench(in, Y);
        const Vec6 shifted = model->wrench(still, Y - six(Vec3::Zero(), flow));
        CHECK(withWind == shifted);
        CHECK(withWind.norm() > 0.0);
        CHECK(withWind.allFinite());
      }
    }
  }
}

TEST_CASE("Ellipsoid model: semi-axes from the mesh and the Kirchhoff option", "[models][mujoco]") {
  // Box 0.3 × 0.2 × 0.1 rotated and offset: the semi-axes are its half-edges (principal order:
  // ascending moment = longest edge first).
  const Quat q = Quat(Eigen::AngleAxisd(-1.1, Vec3(0.3, -1, 2).normalized()));
  Body b =
      makeBody(geometry::makeBox(Vec3(0.3, 0.2, 0.1), 3), 300.0, false, q, Vec3(0.4, 0.1, -0.2));
  b.in.mesh = &b.mesh;
  b.in.density = 998.0;
  b.in.viscosity = 1e-3;
  const core::PrincipalFrame frame = core::principalFrame(b.in.com, b.in.inertiaCom);
  const Vec3 r = meshSemiAxes(b.mesh, frame, 0.0);
  CHECK(relErr(r.x(), 0.15) < 1e-12);
  CHECK(relErr(r.y(), 0.10) < 1e-12);
  CHECK(relErr(r.z(), 0.05) < 1e-12);

  const MujocoEllipsoidModel plain;
  CHECK(plain.name() == "mujoco-ellipsoid");
  CHECK(plain.addedMass(b.in) == Mat6::Zero());
  CHECK(relErr(plain.semiAxes(b.in, frame).x(), 0.15) < 1e-12);

  MujocoEllipsoidParams p;
  p.kirchhoffAddedMass = true;
  const MujocoEllipsoidModel kirchhoff(p);
  const Mat6 M = kirchhoff.addedMass(b.in);
  CHECK((M - M.transpose()).norm() < 1e-14 * M.norm());
  const Eigen::SelfAdjointEigenSolver<Mat6> es(0.5 * (M + M.transpose()));
  CHECK(es.eigenvalues().minCoeff() > -1e-12 * M.norm());
  // In the principal frame it is diag(I_A, m_A): the kinetic energy ½ Yᵀ M Y equals
  // ½ Σ I_A,i ω_i² + m_A,i v_i² of the local velocity, for any Y.
  const Vec3 mA = addedMassLinear(r, 998.0);
  const Vec3 iA = addedMassAngular(r, 998.0);
  for (const Vec6& Y : {six(Vec3(1, 0, 0), Vec3::Zero()), six(Vec3(0.2, -0.4, 1.0), Vec3(1, 2, 3)),
                        six(Vec3::Zero(), Vec3(0, 0, 1))}) {
    const Vec6 l = core::velocityToLocal(frame, Y);
    const double local = iA.dot(l.head<3>().cwiseAbs2()) + mA.dot(l.tail<3>().cwiseAbs2());
    CHECK(relErr(Y.dot(M * Y), local) < 1e-12);
  }

  // wrench(kirchhoff) = wrench(plain) − the added-mass velocity terms.
  b.in.flowBody = Vec3(0.2, 0.0, -0.3);
  for (const Vec6& Y : {six(Vec3(0.3, -1.2, 2.0), Vec3(0.5, 0.1, -0.7)),
                        six(Vec3(1.0, 2.0, 0.5), Vec3(-1.0, 0.0, 0.4))}) {
    Vec6 rel = Y;
    rel.tail<3>() -= b.in.flowBody;
    const Vec6 l = core::velocityToLocal(frame, rel);
    const Vec3 w = l.head<3>();
    const Vec3 v = l.tail<3>();
    const Vec3 linMom = mA.cwiseProduct(v);
    const Vec3 angMom = iA.cwiseProduct(w);
    const Vec6 terms =
        core::wrenchFromLocal(frame, six(linMom.cross(v) + angMom.cross(w), linMom.cross(w)));
    const Vec6 diff = plain.wrench(b.in, Y) - kirchhoff.wrench(b.in, Y);
    CHECK((diff - terms).norm() < 1e-12 * plain.wrench(b.in, Y).norm());
    CHECK(terms.norm() > 1e-3 * plain.wrench(b.in, Y).norm());  // the terms matter here
  }

  // Given semi-axes override the mesh; invalid ones are rejected at setup.
  MujocoEllipsoidParams given;
  given.semiAxes = Vec3(0.2, 0.1, 0.05);
  CHECK(MujocoEllipsoidModel(given).semiAxes(b.in, frame) == Vec3(0.2, 0.1, 0.05));
  given.semiAxes = Vec3(0.2, 0.0, 0.05);
  CHECK_THROWS_AS(MujocoEllipsoidModel(given), std::invalid_argument);
}

TEST_CASE("A 3.5 cm x 2 cm card of zero thickness: finite wrench at any velocity",
          "[models][mujoco]") {
  // Sheet in the x-z plane (normal y), 0.2 kg/m²; principal order x (long), z, y (normal).
  Body b = makeBody(geometry::makePlate(0.035, 0.02, 4, 3), 0.2, true);
  b.in.mesh = &b.mesh;
  const core::PrincipalFrame frame = core::principalFrame(b.in.com, b.in.inertiaCom);
  const Vec3 r = meshSemiAxes(b.mesh, frame, 0.0);
  CHECK(relErr(r.x(), 0.0175) < 1e-12);
  CHECK(relErr(r.y(), 0.01) < 1e-12);
  CHECK(relErr(r.z(), 1.75e-5) < 1e-12);  // the floor: 1e-3 × largest semi-axis
  CHECK(relErr(meshSemiAxes(b.mesh, frame, 3e-4).z(), 1.5e-4) < 1e-12);  // half the thickness

  const auto models = allModels();

  std::vector<Vec6> Ys = {Vec6::Zero()};
  for (double speed : {1e-12, 1e-6, 1e-3, 0.1, 2.0, 1e3}) {
    for (const Vec3& d : {Vec3(1, 0, 0), Vec3(0, 0, 1), Vec3(1, 0, 1), Vec3(0, 1, 0),
                          Vec3(1, 1e-9, 0), Vec3(0.3, -0.9, 0.2)}) {
      Ys.push_back(six(Vec3::Zero(), speed * d));            // edge-on, in-plane, normal, …
      Ys.push_back(six(speed * d.reverse(), Vec3::Zero()));  // pure spin
      Ys.push_back(six(speed * Vec3(0.4, -1.0, 0.3), speed * d));
    }
  }
  for (const auto& model : models) {
    INFO(model->name());
    CHECK(model->addedMass(b.in).allFinite());
    for (const Vec6& Y : Ys) {
      INFO("Y = " << Y.transpose());
      const Vec6 w = model->wrench(b.in, Y);
      REQUIRE(w.allFinite());
      // The integrator's central-difference Jacobian stays finite too.
      for (int k = 0; k < 6; ++k) {
        const double h = 1e-6 * std::max(1.0, std::abs(Y(k)));
        Vec6 dY = Vec6::Zero();
        dY(k) = h;
        const Vec6 col = (model->wrench(b.in, Y + dY) - model->wrench(b.in, Y - dY)) / (2 * h);
        REQUIRE(col.allFinite());
      }
    }
    // Drag opposes the motion, edge-on included.
    for (const Vec3& d : {Vec3(1, 0, 0), Vec3(0, 0, 1), Vec3(0, 1, 0)}) {
      const Vec6 w = model->wrench(b.in, six(Vec3::Zero(), 0.5 * d));
      CHECK(w.tail<3>().dot(d) < 0.0);
    }
  }
}
