// MuJoCo's inertia-box and ellipsoid fluid models (issue 6): geometry of the ellipsoid
// (projected area, Tuckerman's κ, added mass) against independent derivations and classical
// limits, MuJoCo's own κ quadrature against the accurate one, MuJoCo's geom_fluid and
// qfrc_fluid reproduced, hand-worked drag numbers, and the FluidModel contract (zero wrench
// at zero relative velocity, wind = moving the body the other way, the Kirchhoff option, no
// NaN for a card).
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

using samara::kPi;

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
  const Vec3 mSphere = addedMassLinear(Vec3::Constant(rs), rho);        // accurate κ (default)
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
  // (Lamb §107/§108); the ellipsoid values differ by O(c/a). With the accurate κ: MuJoCo's
  // quadrature fails at this aspect ratio (see the next test).
  const double ad = 0.05;
  const Vec3 disk(ad, ad, 1e-6 * ad);
  CHECK(relErr(addedMassLinear(disk, rho)(2), 8.0 / 3.0 * rho * ad * ad * ad) < 1e-5);
  const double iDisk = 16.0 / 45.0 * rho * std::pow(ad, 5);
  CHECK(relErr(addedMassAngular(disk, rho)(0), iDisk) < 1e-5);
  CHECK(relErr(addedMassAngular(disk, rho)(1), iDisk) < 1e-5);
  CHECK(addedMassAngular(disk, rho)(2) == 0.0);
}

TEST_CASE("MuJoCo's kappa quadrature against the accurate one", "[models][mujoco]") {
  // mujocoKappa is MuJoCo's 15-point rule with 8-digit weights; tuckermanKappa is accurate to
  // ~1e-15. The differences below are the rule's (measured); the model inherits them, as it
  // must to match MuJoCo.
  const double rho = 1.2;
  constexpr auto kMujoco = KappaQuadrature::mujoco;
  const auto ratioLinear = [&](const Vec3& r, int i) {
    return addedMassLinear(r, rho, kMujoco)(i) / addedMassLinear(r, rho)(i) - 1.0;
  };
  const auto ratioAngular = [&](const Vec3& r, int i) {
    return addedMassAngular(r, rho, kMujoco)(i) / addedMassAngular(r, rho)(i) - 1.0;
  };

  // Sphere: each κ 2.62e-7 low (3.9e-7 relative), Σκ = 2 − 7.9e-7; m_A 5.89e-7 below ½ρV.
  const double rs = 0.1;
  const Vec3 sphere = Vec3::Constant(rs);
  const Vec3 dSphere = mujocoKappa(sphere) - tuckermanKappa(sphere);
  for (int i = 0; i < 3; ++i) CHECK(dSphere(i) == Approx(-2.62e-7).epsilon(0.01));
  CHECK(mujocoKappa(sphere).sum() - 2.0 == Approx(-7.85e-7).epsilon(0.01));
  const double half = 0.5 * rho * 4.0 / 3.0 * kPi * rs * rs * rs;
  for (int i = 0; i < 3; ++i) {
    const double mA = addedMassLinear(sphere, rho, kMujoco)(i);
    CHECK(mA < half);
    CHECK(relErr(mA, half) == Approx(5.89e-7).epsilon(0.01));
  }
  CHECK(addedMassAngular(sphere, rho, kMujoco) == Vec3::Zero());

  // 3:2:1 ellipsoid (0.3, 0.2, 0.1): |Δκ| ≤ 8.1e-8 (≤ 1e-7 relative); m_A within 1.7e-7,
  // I_A within 4.5e-7.
  const Vec3 e321(0.3, 0.2, 0.1);
  const Vec3 d321 = mujocoKappa(e321) - tuckermanKappa(e321);
  INFO("3:2:1 dkappa " << d321.transpose());
  CHECK(d321.cwiseAbs().maxCoeff() < 1e-7);
  CHECK(d321.cwiseAbs().maxCoeff() > 5e-8);
  for (int i = 0; i < 3; ++i) {
    CHECK(std::abs(ratioLinear(e321, i)) < 2e-7);
    CHECK(std::abs(ratioAngular(e321, i)) < 5e-7);
  }

  // The 3.5 × 2 cm card 0.1 mm thick (semi-axes 17.5, 10, 0.05 mm): Δκ in plane −3.2e-8,
  // +3.9e-8 (−8.5e-6, +4.5e-6 relative), normal −5.41e-5 (−2.7e-5 relative, but 2 − κ_normal
  // = 0.0126 grows by 0.43 %): m_A normal 0.43 % low, I_A about the in-plane axes 0.26 % and
  // 0.33 % low.
  const Vec3 card(0.0175, 0.01, 5e-5);
  const Vec3 dCard = mujocoKappa(card) - tuckermanKappa(card);
  INFO("card dkappa " << dCard.transpose());
  CHECK(std::abs(dCard(0)) < 5e-8);
  CHECK(std::abs(dCard(1)) < 5e-8);
  CHECK(dCard(2) == Approx(-5.41e-5).epsilon(0.01));
  CHECK(ratioLinear(card, 2) == Approx(-4.33e-3).epsilon(0.01));
  CHECK(ratioAngular(card, 0) == Approx(-2.58e-3).epsilon(0.01));
  CHECK(ratioAngular(card, 1) == Approx(-3.34e-3).epsilon(0.01));

  // The same card 1000:1 (17.5 µm): κ_normal 2.57e-4 high, m_A normal 6.2 % high, in-plane
  // I_A 3.6 % and 4.7 % high.
  const Vec3 card1000(0.0175, 0.01, 1.75e-5);
  CHECK(ratioLinear(card1000, 2) == Approx(0.0623).epsilon(0.01));
  CHECK(ratioAngular(card1000, 0) == Approx(0.0359).epsilon(0.01));
  CHECK(ratioAngular(card1000, 1) == Approx(0.0473).epsilon(0.01));

  // A disk with c/a = 1e-6 is past the rule: κ_normal = 2.116 > 2, so MuJoCo's clamp
  // max(1e-14, 2 − κ) makes m_A,normal = ρ V κ / 1e-14, 3.3e8 times Lamb's 8/3 ρ a³, and the
  // in-plane I_A is 4e-5 of 16/45 ρ a⁵. MuJoCo does the same (next test).
  const Vec3 disk(0.05, 0.05, 5e-8);
  CHECK(mujocoKappa(disk)(2) == Approx(2.1161858508427405).epsilon(1e-12));
  CHECK(addedMassLinear(disk, 1.0, kMujoco)(2) / (8.0 / 3.0 * std::pow(0.05, 3)) > 3e8);
  CHECK(addedMassAngular(disk, 1.0, kMujoco)(0) / (16.0 / 45.0 * std::pow(0.05, 5)) < 1e-4);
}

TEST_CASE("Added mass equals MuJoCo's geom_fluid", "[models][mujoco]") {
  // geom_fluid[6..11] (virtual mass m³, virtual inertia m⁵; MuJoCo multiplies by ρ at run time)
  // of an ellipsoid geom with fluidshape="ellipsoid", printed with 17 digits from MuJoCo 3.3.8
  // (the official WebAssembly build, npm mujoco-js 0.0.7) and identical in the native Debian
  // libmujoco 2.2.2. Measured: bit-identical here; the tolerance only allows another libm's pow.
  struct Case {
    Vec3 size;
    Vec3 mass;
    Vec3 inertia;
  };
  const std::vector<Case> cases = {
      {Vec3(0.1, 0.1, 0.1),
       Vec3(0.0020943938687410248, 0.0020943938687410248, 0.0020943938687410248), Vec3::Zero()},
      {Vec3(0.3, 0.2, 0.1),
       Vec3(0.0046560012954025530, 0.0091619696860933426, 0.034218923351023042),
       Vec3(0.000096325619185046819, 0.00035599837625950354, 0.000039141901451870422)},
      {Vec3(0.0175, 0.01, 0.00005),
       Vec3(6.9204398084101298e-11, 1.6082348649872304e-10, 0.0000057993498842604701),
       Vec3(6.8419420001315989e-11, 2.7324338744236239e-10, 3.7741521715209455e-15)},
      {Vec3(0.0175, 0.01, 0.0000175),
       Vec3(8.4909828795668778e-12, 1.9717193378026027e-11, 0.0000061914056883922491),
       Vec3(7.1085521822831326e-11, 2.8732921455180531e-10, 4.6286076083858779e-16)},
      {Vec3(0.2, 0.1, 0.05),
       Vec3(0.00053017819125035612, 0.0016678593359490130, 0.0063588400711410246),
       Vec3(0.0000042536977318355039, 0.000034701260527389530, 0.0000060813046834932373)},
      {Vec3(0.3, 0.1, 0.1), Vec3(0.0015327026528896303, 0.010102097498870005, 0.010102097498870005),
       Vec3(0.0, 0.00011703775774383327, 0.00011703775774383327)},
      {Vec3(0.05, 0.05, 0.00000005),
       Vec3(4.1094069248268248e-16, 4.1094069248268248e-16, 110803.23204397033),
       Vec3(4.7684225757395018e-12, 4.7684225757395018e-12, 0.0)},
  };
  for (const Case& c : cases) {
    INFO("size " << c.size.transpose());
    const Vec3 m = addedMassLinear(c.size, 1.0, KappaQuadrature::mujoco);
    const Vec3 I = addedMassAngular(c.size, 1.0, KappaQuadrature::mujoco);
    for (int i = 0; i < 3; ++i) {
      CHECK(relErr(m(i), c.mass(i)) < 1e-14);
      CHECK(relErr(I(i), c.inertia(i)) < 1e-14);
      // ρ enters as ρ · virtual_mass, as in mj_addedMassForces.
      CHECK(addedMassLinear(c.size, 998.0, KappaQuadrature::mujoco)(i) == 998.0 * m(i));
    }
  }
}

TEST_CASE("Ellipsoid wrench equals MuJoCo's qfrc_fluid", "[models][mujoco]") {
  // One free body with one ellipsoid geom (fluidshape="ellipsoid", default fluidcoef), no
  // gravity; qvel set, mj_forward, qfrc_fluid printed with 17 digits from MuJoCo 3.3.8
  // (WebAssembly build). MuJoCo's free joint orders (force, torque): torque about the body
  // origin in body axes, the linear velocity that of the body origin.
  struct Local {
    Vec3 size;
    double rho;
    double beta;
    Vec3 v;
    Vec3 w;
    Vec3 force;
    Vec3 torque;
  };
  // Geom at the body origin, unrotated, body at the world origin: the local frame.
  const std::vector<Local> locals = {
      {Vec3(0.3, 0.2, 0.1), 1.2, 1.8e-5, Vec3(0.5, 0.1, -0.7), Vec3(0.3, -1.2, 2.0),
       Vec3(-0.0027877649985399017, 0.021530248694634456, 0.12615616977234145),
       Vec3(-0.0012687212184277897, -0.0026137648247848873, -0.016564570664624623)},
      {Vec3(0.3, 0.2, 0.1), 998.0, 1e-3, Vec3(1.0, -0.4, 0.25), Vec3(2.0, 0.5, -1.0),
       Vec3(-71.286518685784472, 27.944201363603597, -112.25328359906233),
       Vec3(-6.8322914994593864, 5.1963717299001431, 6.1270612171486363)},
      {Vec3(0.0175, 0.01, 0.00005), 1.2, 1.8e-5, Vec3(0.3, -0.2, -1.1), Vec3(4.0, -7.0, 12.0),
       Vec3(0.000038249281518697770, -0.000091194113950365536, 0.00050501630696770977),
       Vec3(-0.0000016437355577632626, -0.0000021513434782026704, -2.4873259621746356e-7)},
      {Vec3(0.1, 0.1, 0.1), 998.0, 1e-3, Vec3(0.2, 0.0, -0.3), Vec3::Zero(),
       Vec3(-1.1308288963525013, 0.0, 1.6962433445287513), Vec3::Zero()},
  };
  const EllipsoidCoefficients coef;
  for (const Local& c : locals) {
    INFO("size " << c.size.transpose() << ", v " << c.v.transpose() << ", w " << c.w.transpose());
    const Vec6 mine = ellipsoidWrench(c.size, coef, c.rho, c.beta, six(c.w, c.v), true);
    const Vec6 ref = six(c.torque, c.force);
    INFO("samara " << mine.transpose() << "\nMuJoCo " << ref.transpose());
    CHECK(relErr(mine, ref) < 1e-13);
    for (int i = 0; i < 6; ++i)
      CHECK(std::abs(mine(i) - ref(i)) < 1e-13 * std::abs(ref(i)) + 1e-300);
  }

  // Through the model: the geom (0.2, 0.1, 0.05) at pos (0.05, −0.02, 0.1) with
  // quat (0.9, 0.3, −0.2, 0.25) (normalised) in a body at the origin, wind (0.8, −0.3, 1.1),
  // ρ = 1.2, β = 1.8e-5. Body frame = world here, so samara's body wrench is MuJoCo's
  // qfrc_fluid (torque about the body origin).
  const Vec3 size(0.2, 0.1, 0.05);
  const Vec3 pos(0.05, -0.02, 0.1);
  const Mat3 R = Quat(0.9, 0.3, -0.2, 0.25).normalized().toRotationMatrix();
  const double mass = 4.1887902047863914;  // MuJoCo's body_mass: 1000 kg/m³ × V
  const Vec3 moments(mass / 5 * (size(1) * size(1) + size(2) * size(2)),
                     mass / 5 * (size(0) * size(0) + size(2) * size(2)),
                     mass / 5 * (size(0) * size(0) + size(1) * size(1)));
  core::FluidModelInput in;
  in.density = 1.2;
  in.viscosity = 1.8e-5;
  in.flowBody = Vec3(0.8, -0.3, 1.1);
  in.mass = mass;
  in.com = pos;
  in.inertiaCom = R * moments.asDiagonal() * R.transpose();
  MujocoEllipsoidParams params;
  params.semiAxes = size;  // ascending principal moment = descending semi-axis
  const MujocoEllipsoidModel model(params);
  struct BodyCase {
    Vec3 v;
    Vec3 w;
    Vec3 force;
    Vec3 torque;
  };
  const std::vector<BodyCase> bodyCases = {
      {Vec3(0.5, 0.1, -0.7), Vec3(0.3, -1.2, 2.0),
       Vec3(-0.044519976839299695, -0.12274569591546858, 0.10973552940465760),
       Vec3(0.0021981810135143810, -0.0019818194235860960, -0.0046740413044606584)},
      {Vec3(-2.0, 3.0, 0.2), Vec3::Zero(),
       Vec3(0.017211716037481145, -0.75258844012237402, 0.50498479621860504),
       Vec3(0.083861700643612785, 0.0027743104787179493, 0.00097114843393911188)},
      {Vec3::Zero(), Vec3(4.0, 0.0, 0.0),
       Vec3(0.0059150561559156573, -0.034008098627673337, 0.075435967600025813),
       Vec3(-0.0064768343660807923, 0.00062720783260547834, 0.00073454660494018842)},
  };
  for (const BodyCase& c : bodyCases) {
    const Vec6 mine = model.wrench(in, six(c.w, c.v));
    const Vec6 ref = six(c.torque, c.force);
    INFO("v " << c.v.transpose() << ", w " << c.w.transpose() << "\nsamara " << mine.transpose()
              << "\nMuJoCo " << ref.transpose());
    CHECK(relErr(mine, ref) < 1e-12);
  }
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
  const Vec3 mA = addedMassLinear(prolate, 998.0, KappaQuadrature::mujoco);
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
  const Vec3 mA = addedMassLinear(r, 998.0, KappaQuadrature::mujoco);  // the model's κ
  const Vec3 iA = addedMassAngular(r, 998.0, KappaQuadrature::mujoco);
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

TEST_CASE("Equal principal moments: the mesh's own axes, whatever its segmentation",
          "[models][mujoco][degenerate]") {
  // A cube's inertia is isotropic: any axes are principal, and the eigen-solver's choice
  // depends on round-off in the mesh. The frame is snapped to the body axes, so the inertia
  // box is the cube itself for every segmentation and a cube moving along v feels the
  // hand-worked drag f_i = −½ ρ b² |v_i| v_i (b = 0.2 m, ρ = 1.2) on each body axis.
  const Vec3 v(2.0, -1.0, 0.5);
  const Vec3 fHand = -0.5 * 1.2 * 0.04 * v.cwiseAbs().cwiseProduct(v);
  const MujocoInertiaModel box;
  for (int cells = 1; cells <= 4; ++cells) {
    Body cube = makeBody(geometry::makeBox(Vec3(0.2, 0.2, 0.2), cells), 500.0, false);
    cube.in.mesh = &cube.mesh;
    cube.in.viscosity = 0.0;
    const core::PrincipalFrame f = core::principalFrame(cube.in.com, cube.in.inertiaCom);
    INFO("cells " << cells << ", moments " << f.moments.transpose());
    CHECK((f.R - Mat3::Identity()).norm() == 0.0);
    const Vec6 w = box.wrench(cube.in, six(Vec3::Zero(), v));
    CHECK(relErr(w, six(cube.in.com.cross(fHand), fHand)) < 1e-9);
  }
  // A square card: two equal in-plane moments, a distinct normal. The normal is kept, the
  // in-plane axes are the body's, so the ellipsoid model's wrench does not depend on the
  // card's segmentation (it did by up to ~40 % before).
  const MujocoEllipsoidModel ellipsoid;
  const Vec6 Y = six(Vec3(0.3, -1.0, 0.2), Vec3(0.4, -1.1, 0.7));
  Vec6 first = Vec6::Zero();
  for (int cells = 1; cells <= 6; ++cells) {
    Body card = makeBody(geometry::makePlate(0.05, 0.05, cells, cells), 0.08, true);
    card.in.mesh = &card.mesh;
    const core::PrincipalFrame f = core::principalFrame(card.in.com, card.in.inertiaCom);
    INFO("cells " << cells);
    CHECK(std::abs(f.R.col(2).dot(Vec3::UnitY())) == Approx(1.0).epsilon(1e-12));
    CHECK(std::abs(f.R.col(0).dot(Vec3::UnitX())) == Approx(1.0).epsilon(1e-12));
    const Vec6 w = ellipsoid.wrench(card.in, Y);
    if (cells == 1) first = w;
    CHECK(relErr(w, first) < 1e-9);
  }
}
