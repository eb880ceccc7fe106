// An animated body recomputes only the faces, edges and parts whose vertices moved (a
// zeppelin's hull beside its spinning propellers): every shape-dependent quantity must be
// the same bits as a full recompute, step after step, including when a part stops moving,
// starts again, or the body passes through water.
#include <catch2/catch.hpp>
#include <cstring>

#include "core/body_impl.h"
#include "core/gusts.h"
#include "geometry/primitives.h"

using namespace samara;
using namespace samara::core;

namespace {

template <typename T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
template <typename M>
bool sameBits(const M& a, const M& b) {
  return std::memcmp(a.data(), b.data(), sizeof(typename M::Scalar) * a.size()) == 0;
}
bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool sameDrag(const DragFaces& a, const DragFaces& b) {
  return sameBits(a.x, b.x) && sameBits(a.y, b.y) && sameBits(a.z, b.z) && sameBits(a.nx, b.nx) &&
         sameBits(a.ny, b.ny) && sameBits(a.nz, b.nz) && sameBits(a.mx, b.mx) &&
         sameBits(a.my, b.my) && sameBits(a.mz, b.mz) && sameBits(a.k, b.k);
}

/// A hull (closed box of `cells` per side) with a propeller plate spinning about x and a fin
/// plate hinged about y that moves until t = 0.1 s and holds still after.
BodyDef zeppelinLike(int cells) {
  BodyDef b;
  b.mesh = geometry::makeBox(Vec3(0.4, 0.1, 0.1), cells);
  const int hullVertices = b.mesh.numVertices();
  geometry::TriMesh prop = geometry::makePlate(0.02, 0.12, 2, 6);
  prop.V.col(0).array() -= 0.25;  // behind the hull, in the plane x = −0.25
  geometry::appendMesh(&b.mesh, prop);
  const int propEnd = b.mesh.numVertices();
  geometry::TriMesh fin = geometry::makePlate(0.06, 0.04, 3, 2);
  fin.V.col(1).array() += 0.1;  // above the hull
  fin.V.col(0).array() -= 0.15;
  geometry::appendMesh(&b.mesh, fin);
  auto anim = std::make_shared<RigidPartsAnimation>();
  anim->rest = b.mesh.V;
  RigidPart spin;
  spin.name = "prop";
  for (int v = hullVertices; v < propEnd; ++v) spin.vertices.push_back(v);
  spin.pivot = Vec3(-0.25, 0, 0);
  spin.axis = Vec3(1, 0, 0);
  spin.spinRate = 40.0;
  RigidPart hinge;
  hinge.name = "fin";
  for (int v = propEnd; v < b.mesh.numVertices(); ++v) hinge.vertices.push_back(v);
  hinge.pivot = Vec3(-0.15, 0.1, 0);
  hinge.axis = Vec3(0, 1, 0);
  hinge.angle = ScalarTrack{{0.0, 0.05, 0.1}, {0.0, 0.2, 0.3}, false, true};
  anim->parts = {spin, hinge};
  b.animation = anim;
  b.mass.mode = MassMode::kLumped;
  b.mass.total = 0.05;
  return b;
}

/// Every shape-dependent quantity of the two bodies, bitwise.
void requireSameShape(const BodyImpl& a, const BodyImpl& b) {
  REQUIRE(sameBits(a.geo.area, b.geo.area));
  REQUIRE(sameBits(a.geo.normal, b.geo.normal));
  REQUIRE(sameBits(a.geo.centroid, b.geo.centroid));
  REQUIRE(sameDrag(a.drag, b.drag));
  REQUIRE(sameBits(a.faceWeight, b.faceWeight));
  REQUIRE(sameBits(a.faceDragCA, b.faceDragCA));
  REQUIRE(sameBits(a.law.lift, b.law.lift));
  REQUIRE(a.law.part == b.law.part);
  REQUIRE(sameBits(a.law.fric, b.law.fric));
  REQUIRE(sameBits(a.law.visc, b.law.visc));
  REQUIRE(sameBits(a.law.plate, b.law.plate));
  REQUIRE(a.law.partPad == b.law.partPad);
  REQUIRE(a.law.groupPart == b.law.groupPart);
  REQUIRE(sameBits(a.faceInvLen, b.faceInvLen));
  REQUIRE(sameBits(a.addedPart, b.addedPart));
  REQUIRE(sameBits(a.addedUnit, b.addedUnit));
  REQUIRE(sameBits(a.mu0FluidPart, b.mu0FluidPart));
  REQUIRE(sameBits(a.mu0FluidUnit, b.mu0FluidUnit));
  REQUIRE(sameBits(a.mu0Body, b.mu0Body));
  REQUIRE(sameBits(a.shapeEnergyFluidUnit, b.shapeEnergyFluidUnit));
  REQUIRE(sameBits(a.inertiaBody, b.inertiaBody));
  REQUIRE(sameBits(a.deltaAuto, b.deltaAuto));
  REQUIRE(sameBits(a.partDeltaAuto, b.partDeltaAuto));
  REQUIRE(sameBits(a.closedVolume, b.closedVolume));
  REQUIRE(sameBits(a.closedCentroid, b.closedCentroid));
  REQUIRE(sameBits(a.sheetArea, b.sheetArea));
  REQUIRE(sameBits(a.area, b.area));
  REQUIRE(sameBits(a.boundRadius, b.boundRadius));
  REQUIRE(a.closedFaces == b.closedFaces);
  REQUIRE(sameBits(a.faceShapeVel, b.faceShapeVel));
  REQUIRE(sameBits(a.added, b.added));
  REQUIRE(sameBits(a.mu0, b.mu0));
}

}  // namespace

TEST_CASE("An animated body's shape update reuses unmoved parts with the same bits",
          "[core][animation]") {
  WorldDef world;
  world.fluid.density = 1.225;
  world.fluid.viscosity = 1.8e-5;
  world.fluid.water = WaterDef{};  // level 0: the body dips into water between the checks
  world.dt = 0.002;
  // A coarse hull, and one of some 1 500 vertices before the moving ones (the lumped
  // moments then resume from a checkpoint past the hull).
  const int cells = GENERATE(3, 16);
  world.bodies = {zeppelinLike(cells)};
  // With a rotational lift the per-face half-chord tensors are part of the shape too.
  const bool rotation = GENERATE(false, true);
  FlowLawCoefficients c = kPressureFriction;  // the default has a rotational lift
  if (rotation) c.cr = kRotationCR;
  world.bodies[0].model = std::make_shared<GwtfModel>(c);
  BodyImpl reused(world.bodies[0], 0, world);
  BodyImpl fresh(world.bodies[0], 0, world);
  INFO("rotational lift " << rotation << ", hull cells " << cells);
  REQUIRE(reused.law.lift.size() == (rotation ? 6 * reused.topo.parts.size() : 0));
  const double h = world.dt;
  int reusedSteps = 0;
  for (int k = 0; k < 120; ++k) {
    const double t = k * h;
    // Above water, then across the level (per-face density), then under it.
    const Pose g{Quat(Eigen::AngleAxisd(0.01 * k, Vec3(0, 0, 1))), Vec3(0, 0.3 - 0.005 * k, 0)};
    reused.updateAnimatedShape(t, h);
    fresh.reuseValid = false;  // recompute everything
    fresh.updateAnimatedShape(t, h);
    reused.updateFluid(g, world);
    fresh.updateFluid(g, world);
    requireSameShape(reused, fresh);
    // The hull never moves: after the first update only the moving parts are recomputed.
    if (k > 0) {
      REQUIRE(reused.partDirty.size() == 3);
      CHECK(reused.partDirty[0] == 0);
      CHECK(reused.partDirty[1] == 1);
      CHECK(reused.partDirty[2] == (k <= 50 ? 1 : 0));  // the hinge holds from t = 0.1 s
      ++reusedSteps;
    }
  }
  CHECK(reusedSteps == 119);
  // A rewind (the shape of an earlier time) is the same bits too.
  reused.updateAnimatedShape(0.05, h);
  fresh.reuseValid = false;
  fresh.updateAnimatedShape(0.05, h);
  const Pose g0{Quat::Identity(), Vec3(0, 1, 0)};
  reused.updateFluid(g0, world);
  fresh.updateFluid(g0, world);
  requireSameShape(reused, fresh);
}

TEST_CASE("A body's kept face box and gust memo give the bits computing afresh gives",
          "[core][gusts]") {
  WorldDef world;
  world.fluid.density = 1.225;
  world.fluid.viscosity = 1.8e-5;
  world.dt = 0.002;
  GustDef gd;
  gd.amplitude = 1.0;
  gd.period = 1.5;
  gd.length = 2.0;
  gd.seed = 11;
  gd.sampling = GustSampling::kQuadratic;
  world.fluid.gusts = std::make_shared<GustField>(gd);
  // A card swinging about a pivot off its centre: the faces' box moves every step, and a
  // box kept past its shape would move the expansion's centre and change the offsets.
  BodyDef card;
  card.mesh = geometry::makePlate(0.1, 0.05, 4, 2);
  auto anim = std::make_shared<RigidPartsAnimation>();
  anim->rest = card.mesh.V;
  RigidPart swing;
  swing.name = "card";
  for (int v = 0; v < card.mesh.numVertices(); ++v) swing.vertices.push_back(v);
  swing.pivot = Vec3(0.2, 0.0, 0.0);
  swing.axis = Vec3(0.3, 1.0, 0.2).normalized();
  swing.spinRate = 20.0;
  anim->parts = {swing};
  card.animation = anim;
  card.mass.mode = MassMode::kLumped;
  card.mass.total = 0.01;
  world.bodies = {card};
  BodyImpl body(world.bodies[0], 0, world);
  const double h = world.dt;
  const Vec3 offset(0.3, -0.2, 0.1), shift(0.05, 0.0, -0.02);
  for (int k = 0; k < 40; ++k) {
    const double t = k * h;
    const Pose g{Quat(Eigen::AngleAxisd(0.03 * k, Vec3(0.2, 1, 0).normalized())),
                 Vec3(0.1 * k, 2.0, -0.05 * k)};
    body.updateAnimatedShape(t, h);
    body.packFaceOffsets(g, t, offset, shift, true, world);
    const size_t nf = body.drag.size();
    const auto p = static_cast<size_t>(body.drag.padded);
    std::vector<double> o(3 * p, 0.0);
    for (size_t f = 0; f < nf; ++f) {
      const Vec3 v = offset + body.faceShapeVel[f];
      o[f] = v.x();
      o[p + f] = v.y();
      o[2 * p + f] = v.z();
    }
    world.fluid.gusts->subtractInBody(nf, body.drag.x.data(), body.drag.y.data(),
                                      body.drag.z.data(), g.q.toRotationMatrix(), g.b, t, shift,
                                      o.data(), o.data() + p, o.data() + 2 * p);
    INFO("step " << k);
    REQUIRE(sameBits(body.packOffsets.o, o));
  }
  // The memo: the field's own answer at every point, repeated, alternating or new, at +0
  // and −0, and after the field is replaced by another at the same point and time.
  const std::vector<std::pair<Vec3, double>> asks = {
      {Vec3(1, 2, 3), 0.5},     {Vec3(1, 2, 3), 0.5},   {Vec3(-1, 4, 0.5), 0.5},
      {Vec3(-1, 4, 0.5), 0.5},  {Vec3(1, 2, 3), 0.5},   {Vec3(1, 2, 3), 0.502},
      {Vec3(-1, 4, 0.5), 0.5},  {Vec3(1, 2, 3), 0.502}, {Vec3(0, 1, 0), 0.25},
      {Vec3(-0.0, 1, 0), 0.25}, {Vec3(1, 2, 3), 0.5}};
  for (const auto& [x, t] : asks) {
    REQUIRE(sameBits(body.gustVelocity(world.fluid, x, t), world.fluid.gusts->velocity(x, t)));
  }
  const Vec3 x0(1, 2, 3);
  const Vec3 before = body.gustVelocity(world.fluid, x0, 0.5);
  gd.seed = 12;
  world.fluid.gusts = std::make_shared<GustField>(gd);
  const Vec3 after = body.gustVelocity(world.fluid, x0, 0.5);
  REQUIRE(sameBits(after, world.fluid.gusts->velocity(x0, 0.5)));
  REQUIRE((after - before).norm() > 1e-3);  // another field, another flow
}

TEST_CASE("C_T and C_D0 act in full on sheets, in part on thin closed plates, not on bluff bodies",
          "[core][flowlaw]") {
  WorldDef world;
  world.fluid.density = 1.225;
  world.fluid.viscosity = 1.8e-5;
  struct Case {
    geometry::TriMesh mesh;
    double expected, tol;
    const char* what;
  };
  // A thin box of thickness t and chord L: M's two large eigenvalues ≈ (L²/12)(1 + …), the
  // small one ≈ t²/4 (most of the area at ±t/2): weight ≈ 1 − √3 t/L.
  const double t = 0.004, L = 0.1;
  const Case cases[] = {
      {geometry::makePlate(L, L, 4, 4), 1.0, 0.0, "sheet"},
      {geometry::makeBox(Vec3(L, t, L), 6), 1.0 - std::sqrt(3.0) * t / L, 0.01, "thin box"},
      {geometry::makeSphere(0.05, 3), 0.0, 1e-6, "sphere"},
      {geometry::makeBox(Vec3(L, L, L), 3), 0.0, 1e-6, "cube"},
      {geometry::makeCylinder(0.01, 0.3, 24, 12), 0.0, 0.02, "slender cylinder"},
  };
  for (const Case& c : cases) {
    BodyDef b;
    b.mesh = c.mesh;
    b.mass.mode = MassMode::kLumped;
    b.mass.total = 0.01;
    world.bodies = {b};
    const BodyImpl body(world.bodies[0], 0, world);
    INFO(c.what);
    REQUIRE(body.law.plate.size() == static_cast<size_t>(body.drag.padded));
    for (size_t f = 0; f < body.drag.size(); ++f) {
      REQUIRE(std::abs(body.law.plate[f] - c.expected) <= c.tol);
    }
  }
}
