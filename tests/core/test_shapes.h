#pragma once
// Shared test shapes: the falling cat (a hull and two hinged arms), its stroke, and a
// stroke followed by its time reversal (test_animation.cpp, GwtF, and test_first_order.cpp,
// Gross et al.), with the rotation angle measuring its turn; a solid sphere body, a card and
// a box over the floor (test_world.cpp, test_force_breakdown.cpp).
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "core/animation.h"
#include "core/world.h"
#include "geometry/primitives.h"

namespace samara::test {

/// A solid sphere body "sphere" of radius `r` (m) and `density` (kg/m³), an icosphere with
/// `subdivisions`.
inline core::BodyDef sphereBody(double r, double density, int subdivisions = 4) {
  core::BodyDef b;
  b.name = "sphere";
  b.mesh = geometry::makeSphere(r, subdivisions);
  b.mass.mode = core::MassMode::kDensity;
  b.mass.density = density;
  return b;
}

/// A 0.1 × 0.06 m card (a plate of cellsX × cellsZ cells) of 700 kg/m³, 0.2 mm thick, at
/// `position`, tilted by 0.35 rad about `axis`.
inline core::BodyDef cardBody(int cellsX, int cellsZ, const Vec3& position, const Vec3& axis) {
  core::BodyDef b;
  b.mesh = geometry::makePlate(0.1, 0.06, cellsX, cellsZ);
  b.mass.density = 700.0;
  b.mass.thickness = 2e-4;
  b.position = position;
  b.orientation = Quat(Eigen::AngleAxisd(0.35, axis));
  return b;
}

/// Rotation angle of a unit quaternion, rad (atan2: accurate for small angles, unlike acos).
inline double rotationAngle(const Quat& q) {
  return 2.0 * std::atan2(q.vec().norm(), std::abs(q.w()));
}

/// A box of `size` (m; makeBox with `subdivisions`) of `density` (kg/m³) at
/// `position`.
inline core::BodyDef boxBody(const Vec3& size, int subdivisions, double density,
                             const Vec3& position) {
  core::BodyDef b;
  b.mesh = geometry::makeBox(size, subdivisions);
  b.mass.density = density;
  b.position = position;
  return b;
}

/// A world of `body` above the floor in a still fluid of `fluidDensity` (kg/m³), step 2 ms.
inline core::WorldDef floorWorld(double fluidDensity, const core::BodyDef& body) {
  core::WorldDef def;
  def.fluid.density = fluidDensity;
  def.floor = core::FloorDef{};
  def.dt = 0.002;
  def.bodies.push_back(body);
  return def;
}

/// A body of three boxes: a hull (0.3 × 0.1 × 0.1 m) and two arms on hinges at its ends.
struct Cat {
  geometry::TriMesh mesh;
  std::vector<int> armA, armB;  ///< vertex indices of each arm
};

inline Cat makeCat() {
  Cat c;
  c.mesh = geometry::makeBox(Vec3(0.3, 0.1, 0.1), 1);
  // Arms 0.2 m long along y, hinged at the hull's ends (pivots at y = 0.05).
  auto addArm = [&](const Vec3& centre, std::vector<int>* verts) {
    geometry::TriMesh arm = geometry::makeBox(Vec3(0.05, 0.2, 0.05), 1);
    arm.V.rowwise() += centre.transpose();
    const int base = c.mesh.numVertices();
    geometry::appendMesh(&c.mesh, arm);
    for (int i = 0; i < arm.numVertices(); ++i) verts->push_back(base + i);
  };
  addArm(Vec3(-0.2, 0.15, 0.0), &c.armA);
  addArm(Vec3(0.2, 0.15, 0.0), &c.armB);
  return c;
}

/// Arm A swings about x, arm B about z (amplitude 0.8 rad), a quarter period apart: a loop
/// in shape space. `period` in s.
inline std::shared_ptr<core::RigidPartsAnimation> catStroke(const Cat& c, double period) {
  auto a = std::make_shared<core::RigidPartsAnimation>();
  a->rest = c.mesh.V;
  auto part = [&](const std::vector<int>& v, const Vec3& pivot, const Vec3& axis, double phase) {
    core::RigidPart p;
    p.vertices = v;
    p.pivot = pivot;
    p.axis = axis;
    for (int k = 0; k <= 8; ++k) {
      p.angle.times.push_back(period * k / 8.0);
      p.angle.values.push_back(0.8 * std::sin(2 * M_PI * k / 8.0 + phase));
    }
    p.angle.values.back() = p.angle.values.front();
    return p;
  };
  a->parts.push_back(part(c.armA, Vec3(-0.2, 0.05, 0), Vec3(1, 0, 0), 0.0));
  a->parts.push_back(part(c.armB, Vec3(0.2, 0.05, 0), Vec3(0, 0, 1), M_PI / 2));
  return a;
}

/// The cat (2 kg, mass by volume) doing `anim` in vacuum without gravity, step h (s).
inline core::WorldDef catWorld(const Cat& c, std::shared_ptr<const core::ShapeAnimation> anim,
                               double h) {
  core::WorldDef def;
  def.fluid.density = 0.0;
  def.gravity = Vec3::Zero();
  def.dt = h;
  core::BodyDef b;
  b.mesh = c.mesh;
  b.mass.mode = core::MassMode::kTotal;
  b.mass.total = 2.0;
  b.animation = std::move(anim);
  def.bodies.push_back(b);
  return def;
}

/// γ(t) for t ≤ T, then γ(2T − t): the stroke followed by its time reversal.
struct ThereAndBack final : core::ShapeAnimation {
  std::shared_ptr<const core::ShapeAnimation> inner;
  double T = 1.0;  ///< s
  int numVertices() const override { return inner->numVertices(); }
  void evaluate(double t, geometry::VertexMatrix* V) const override {
    inner->evaluate(t <= T ? t : 2 * T - t, V);
  }
};

}  // namespace samara::test
