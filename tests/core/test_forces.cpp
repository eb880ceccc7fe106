// Forces: flat-plate lift and drag (GwtF Prop. 1, Eqn. 6), buoyancy, contact; Jacobians.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "core/forces.h"
#include "geometry/primitives.h"

using namespace samara;
using namespace samara::core;

namespace {

DragFaces dragFaces(const geometry::TriMesh& mesh, double c, double rho) {
  geometry::FaceGeometry geo;
  geometry::computeFaceGeometry(mesh, &geo);
  DragFaces d;
  for (int f = 0; f < mesh.numFaces(); ++f) {
    Vec6 a;
    a << geo.centroid[f].cross(geo.normal[f]), geo.normal[f];
    d.add(a, geo.centroid[f], c * geo.area[f] * rho);
  }
  return d;
}

Vec6 drag(const DragFaces& d, const Vec6& Y, const Vec3& offset = Vec3::Zero(), Mat6* J = nullptr) {
  Vec6 F = Vec6::Zero();
  if (J) J->setZero();
  addDragWrench(d, Y, offset, nullptr, &F, J);
  return F;
}

}  // namespace

TEST_CASE("Sphere drag has effective drag coefficient 4/3", "[core][forces]") {
  const double r = 0.05, rho = 998.0, speed = 0.8;
  const DragFaces d = dragFaces(geometry::makeSphere(r, 5), 0.5, rho);
  Vec6 Y;
  Y << 0, 0, 0, 0, -speed, 0;
  const Vec6 F = drag(d, Y);
  const double expected = 2.0 / 3.0 * M_PI * r * r * rho * speed * speed;  // ½ρ(4/3)πr²v²
  CHECK(F[4] == Approx(expected).epsilon(5e-3));
  CHECK(std::abs(F[3]) < 1e-9 * expected);
  CHECK(F.head<3>().norm() < 1e-9 * expected * r);
  // A uniform wind equal to the body velocity gives zero relative flow and zero force.
  CHECK(drag(d, Y, Vec3(0, speed, 0)).norm() < 1e-12);
}

TEST_CASE("Plate lift and drag follow c_l = sin 2a, c_d = 2 sin^2 a", "[core][forces]") {
  const double A = 0.1 * 0.05, rho = 1.225, U = 3.0;
  const DragFaces d = dragFaces(geometry::makePlate(0.1, 0.05, 4, 2), 1.0, rho);
  for (double deg : {10.0, 30.0, 60.0, 90.0}) {
    const double alpha = deg * M_PI / 180.0;
    // Plate normal +y; relative flow u at angle of attack α: sin α = −⟨n, u/|u|⟩.
    const Vec3 u(U * std::cos(alpha), -U * std::sin(alpha), 0.0);
    Vec6 Y;
    Y << 0, 0, 0, u;
    const Vec3 F = drag(d, Y).tail<3>();
    const double dragMag = -F.dot(u / U);
    const Vec3 lift = F + dragMag * u / U;
    const double q = 0.5 * rho * A * U * U;
    INFO("angle of attack " << deg << " deg");
    CHECK(dragMag == Approx(q * 2.0 * std::sin(alpha) * std::sin(alpha)).epsilon(1e-12));
    CHECK(lift.norm() == Approx(q * std::sin(2.0 * alpha)).margin(1e-12));
  }
}

TEST_CASE("Drag Jacobian matches finite differences", "[core][forces]") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-2.0, 2.0);
  geometry::TriMesh mesh = geometry::makeBox(Vec3(0.3, 0.1, 0.2), 2);
  mesh.V.rowwise() += Eigen::RowVector3d(0.05, 0.02, -0.01);  // off-centre origin
  const DragFaces d = dragFaces(mesh, 0.5, 1.225);
  for (int trial = 0; trial < 10; ++trial) {
    Vec6 Y;
    for (int i = 0; i < 6; ++i) Y[i] = U(rng);
    const Vec3 off(U(rng), U(rng), U(rng));
    Mat6 J;
    drag(d, Y, off, &J);
    for (int j = 0; j < 6; ++j) {
      Vec6 e = Vec6::Zero();
      e[j] = 1e-6;
      const Vec6 fd = (drag(d, Y + e, off) - drag(d, Y - e, off)) / 2e-6;
      CHECK((J.col(j) - fd).norm() < 1e-6 * (1.0 + J.norm()));
    }
  }
}

TEST_CASE("Buoyancy of a fully and a half submerged box", "[core][forces]") {
  const Vec3 size(0.2, 0.1, 0.3);
  const double V = size.prod();
  const geometry::TriMesh box = geometry::makeBox(size, 2);
  std::vector<int> faces(box.numFaces());
  for (int f = 0; f < box.numFaces(); ++f) faces[f] = f;
  FluidDef fluid;
  fluid.density = 1.2;
  fluid.water = WaterDef{0.0, 998.0};
  const Vec3 g(0, -9.81, 0);
  Pose pose;
  SECTION("fully submerged, tilted: Archimedes at the centroid") {
    pose.b = Vec3(0.3, -2.0, 0.1);
    pose.q = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 1, 0).normalized()));
    const Vec6 W = buoyancyWrenchClosed(pose, box, faces, fluid, g);
    const Vec3 fWorld = pose.q * Vec3(W.tail<3>());
    CHECK(fWorld.y() == Approx(998.0 * V * 9.81).epsilon(1e-12));
    CHECK(std::hypot(fWorld.x(), fWorld.z()) < 1e-10);
    CHECK(W.head<3>().norm() < 1e-10);  // acts at the centroid = body origin
  }
  SECTION("half submerged, upright and tilted 45 deg: (rho_w + rho_a)/2 V g") {
    for (double angle : {0.0, M_PI / 4}) {
      pose.b = Vec3(0.0, 0.0, 0.0);
      pose.q = Quat(Eigen::AngleAxisd(angle, Vec3(0, 0, 1)));
      const Vec6 W = buoyancyWrenchClosed(pose, box, faces, fluid, g);
      const Vec3 fWorld = pose.q * Vec3(W.tail<3>());
      CHECK(fWorld.y() == Approx(0.5 * (998.0 + 1.2) * V * 9.81).epsilon(1e-12));
      CHECK(std::hypot(fWorld.x(), fWorld.z()) < 1e-9);
    }
  }
  SECTION("upright box with the level at 1/4 height: centre of buoyancy of the wet part") {
    pose.b = Vec3(0.0, 0.025, 0.0);  // bottom at −0.025: 0.025 of 0.1 submerged
    const Vec6 W = buoyancyWrenchClosed(pose, box, faces, fluid, g);
    const double wet = 0.25 * V, dry = 0.75 * V;
    CHECK(W[4] == Approx((998.0 * wet + 1.2 * dry) * 9.81).epsilon(1e-12));
    // Torque about the origin from an offset-free vertical force: zero for the upright box.
    CHECK(W.head<3>().norm() < 1e-9);
  }
}

TEST_CASE("Contact: spring-damper normal force and friction, Jacobian by FD", "[core][forces]") {
  std::vector<ContactPoint> cps = {{Vec3(0.1, -0.05, 0.02), 0.001, 1000.0, 5.0},
                                   {Vec3(-0.1, -0.05, 0.03), 0.002, 1000.0, 5.0}};
  const Vec3 up(0, 1, 0);
  Vec6 Y0 = Vec6::Zero();
  Vec6 F = Vec6::Zero();
  addContactWrench(cps, up, 0.5, 1e-3, Y0, &F, nullptr);
  CHECK(F[4] == Approx(1000.0 * 0.003).epsilon(1e-14));  // k Σ depth at rest
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> U(-0.05, 0.05);
  for (int trial = 0; trial < 10; ++trial) {
    Vec6 Y;
    for (int i = 0; i < 6; ++i) Y[i] = U(rng);
    Mat6 J = Mat6::Zero();
    F.setZero();
    addContactWrench(cps, up, 0.5, 1e-3, Y, &F, &J);
    for (int j = 0; j < 6; ++j) {
      Vec6 e = Vec6::Zero();
      e[j] = 1e-8;
      Vec6 Fp = Vec6::Zero(), Fm = Vec6::Zero();
      addContactWrench(cps, up, 0.5, 1e-3, Y + e, &Fp, nullptr);
      addContactWrench(cps, up, 0.5, 1e-3, Y - e, &Fm, nullptr);
      CHECK((J.col(j) - (Fp - Fm) / 2e-8).norm() < 1e-4 * (1.0 + J.norm()));
    }
    // Friction opposes sliding: the tangential force does negative power.
    const Vec3 v = Y.tail<3>();
    const Vec3 ft = F.tail<3>() - F.tail<3>().dot(up) * up;
    if (std::abs(Y.head<3>().norm()) < 1e-12) CHECK(ft.dot(v) <= 0.0);
  }
}
