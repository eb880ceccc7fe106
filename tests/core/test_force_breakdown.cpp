// World::forceBreakdown: gravity, buoyancy, lift/drag and per-face forces at the current
// state (the viewer's force arrows).
#include <catch2/catch.hpp>
#include <cmath>

#include "core/world.h"
#include "geometry/primitives.h"
#include "test_shapes.h"

using namespace samara;
using namespace samara::core;

using test::sphereBody;

TEST_CASE("Force breakdown: gravity is m g and buoyancy of a submerged sphere rho V g",
          "[core][forces][breakdown]") {
  WorldDef def;
  def.fluid.density = 1.2;
  def.fluid.water = WaterDef{1.0, 998.0};  // the sphere at y = 0 is fully under water
  def.gravity = Vec3(0.3, -9.81, 0.1);
  def.bodies.push_back(sphereBody(0.05, 2000.0, 3));
  def.bodies[0].orientation = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  World w(def);
  const BodyInfo info = w.info(0);
  const ForceBreakdown fb = w.forceBreakdown(0);
  CHECK(fb.gravity.force == info.mass * def.gravity);
  CHECK(fb.gravity.torque == Vec3::Zero());
  const Vec3 expected = -998.0 * info.volume * def.gravity;
  CHECK((fb.buoyancy.force - expected).norm() <= 1e-12 * expected.norm());
  // The centroid of the closed volume is the COM of a uniform body: no torque.
  CHECK(fb.buoyancy.torque.norm() <= 1e-12 * expected.norm() * 0.05);
  CHECK(fb.contact.force == Vec3::Zero());
  CHECK(fb.liftDrag.force == Vec3::Zero());  // at rest
}

TEST_CASE("Force breakdown: at terminal speed lift/drag, gravity and buoyancy balance",
          "[core][forces][breakdown]") {
  WorldDef def;
  def.fluid.density = 998.0;
  def.dt = 0.002;
  def.bodies.push_back(sphereBody(0.05, 2000.0, 3));
  World w(def);
  while (w.time() < 4.0) REQUIRE(w.step().ok());
  const ForceBreakdown fb = w.forceBreakdown(0, 1 << 20);
  const Vec3 sum = fb.liftDrag.force + fb.gravity.force + fb.buoyancy.force + fb.contact.force;
  INFO("lift/drag " << fb.liftDrag.force.transpose() << ", sum " << sum.transpose());
  CHECK(fb.liftDrag.force.y() > 0.0);
  CHECK(sum.norm() <= 1e-6 * fb.gravity.force.norm());
  const Vec3 torque = fb.liftDrag.torque + fb.buoyancy.torque + fb.contact.torque;
  CHECK(torque.norm() <= 1e-6 * fb.gravity.force.norm() * 0.05);

  // Every face listed: their forces sum to the resultant; largest first.
  REQUIRE(fb.faces.size() == static_cast<size_t>(w.info(0).faces));
  Vec3 faceSum = Vec3::Zero();
  for (const FaceForce& f : fb.faces) faceSum += f.force;
  CHECK((faceSum - fb.liftDrag.force).norm() <= 1e-12 * fb.liftDrag.force.norm());
  for (size_t k = 1; k < fb.faces.size(); ++k) {
    CHECK(fb.faces[k - 1].force.norm() >= fb.faces[k].force.norm());
  }
  // Subsampled: the N largest.
  const ForceBreakdown few = w.forceBreakdown(0, 10);
  REQUIRE(few.faces.size() == 10);
  for (size_t k = 0; k < 10; ++k) CHECK(few.faces[k].force == fb.faces[k].force);
  const Vec3 com = w.diagnostics(0).com;
  for (const FaceForce& f : few.faces) CHECK((f.position - com).norm() < 0.0501);
}

TEST_CASE("Force breakdown: a box resting on the floor is held by the contact force",
          "[core][forces][breakdown]") {
  World w(test::floorWorld(0.0, test::boxBody(Vec3(0.2, 0.1, 0.2), 1, 500.0, Vec3(0, 0.06, 0))));
  while (w.time() < 3.0) REQUIRE(w.step().ok());
  const ForceBreakdown fb = w.forceBreakdown(0);
  CHECK(fb.contact.force.y() == Approx(-fb.gravity.force.y()).epsilon(1e-3));
}

TEST_CASE("Force breakdown: lift is perpendicular to the relative flow, drag along it",
          "[core][teaching]") {
  // A tilted card moving sideways and down through a wind: the flat-plate force is normal
  // to the card, so it has both a drag and a lift part relative to u = v − wind.
  WorldDef def;
  def.fluid.wind = Vec3(0.4, 0.0, -0.2);
  BodyDef b;
  b.mesh = geometry::makePlate(0.1, 0.06, 4, 3);
  b.mass.density = 700.0;
  b.mass.thickness = 2e-4;
  b.orientation = Quat(Eigen::AngleAxisd(0.5, Vec3(0.2, 0.1, 1.0).normalized()));
  b.velocity = Vec3(1.0, -1.5, 0.3);
  def.bodies.push_back(b);
  const World w(def);
  const ForceBreakdown fb = w.forceBreakdown(0, 0);
  const Vec3 u = w.diagnostics(0).velocity - def.fluid.wind;
  const double F = fb.liftDrag.force.norm();
  REQUIRE(F > 1e-4);
  CHECK((fb.lift + fb.drag - fb.liftDrag.force).norm() <= 1e-15 * F);
  CHECK(std::abs(fb.lift.dot(u)) <= 1e-12 * F * u.norm());
  CHECK(fb.drag.cross(u).norm() <= 1e-12 * F * u.norm());
  CHECK(fb.drag.dot(u) < 0.0);      // drag resists the relative motion
  CHECK(fb.lift.norm() > 0.1 * F);  // a tilted plate makes real lift
}
