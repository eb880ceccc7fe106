// The FluidModel interface inside samara's integrator (issue 6): frame helpers, the vacuum
// model, a linear-drag test model with an analytic terminal velocity, wind equivalence,
// per-body model state and deep copies.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/world.h"
#include "geometry/primitives.h"

using namespace samara;
using namespace samara::core;

namespace {

/// Stokes-like drag F = −c (v_COM − flow), no torque, at the COM; counts advance() calls.
class LinearDrag final : public FluidModel {
 public:
  explicit LinearDrag(double c) : c_(c) {}
  std::string name() const override { return "linear-drag"; }
  std::unique_ptr<FluidModel> clone() const override { return std::make_unique<LinearDrag>(*this); }
  Vec6 wrench(const FluidModelInput& in, const Vec6& Y) const override {
    const PrincipalFrame f = principalFrame(in.com, in.inertiaCom);
    Vec6 local = velocityToLocal(f, Y);
    local.tail<3>() -= f.R.transpose() * in.flowBody;
    Vec6 w = Vec6::Zero();
    w.tail<3>() = -c_ * local.tail<3>();
    return wrenchFromLocal(f, w);
  }
  void advance(const FluidModelInput&, const Vec6&) override { ++advances; }
  int advances = 0;

 private:
  double c_;
};

BodyDef boxBody() {
  BodyDef b;
  b.mesh = geometry::makeBox(Vec3(0.3, 0.1, 0.2));
  b.mesh.V.rowwise() += Eigen::RowVector3d(0.05, -0.02, 0.03);  // COM off the origin
  b.mass.density = 800.0;
  b.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  b.position = Vec3(0, 5, 0);
  return b;
}

}  // namespace

TEST_CASE("Principal frame and the local/body maps are consistent", "[core][fluid_model]") {
  const Vec3 com(0.1, -0.2, 0.3);
  const Mat3 R0 = Eigen::AngleAxisd(0.7, Vec3(0.3, -1, 2).normalized()).toRotationMatrix();
  const Mat3 I = R0 * Vec3(3.0, 1.0, 2.0).asDiagonal() * R0.transpose();
  const PrincipalFrame f = principalFrame(com, I);
  CHECK(f.moments.x() == Approx(1.0).epsilon(1e-12));
  CHECK(f.moments.y() == Approx(2.0).epsilon(1e-12));
  CHECK(f.moments.z() == Approx(3.0).epsilon(1e-12));
  CHECK((f.R.transpose() * f.R - Mat3::Identity()).norm() < 1e-12);
  CHECK(f.R.determinant() == Approx(1.0).epsilon(1e-12));
  CHECK((f.R.transpose() * I * f.R - Mat3(f.moments.asDiagonal())).norm() < 1e-12);

  // Power is frame independent: F_body · Y = F_local · Y_local.
  Vec6 Y;
  Y << 0.3, -1.2, 0.5, 2.0, 0.1, -0.7;
  Vec6 wl;
  wl << 0.2, 0.4, -0.1, 1.5, -2.0, 0.3;
  CHECK(wrenchFromLocal(f, wl).dot(Y) == Approx(wl.dot(velocityToLocal(f, Y))).epsilon(1e-13));
  // Kinetic energy likewise: Yᵀ M_body Y = Y_localᵀ M_local Y_local.
  Vec6 d;
  d << 1.0, 2.0, 3.0, 4.0, 5.0, 6.0;
  const Mat6 Ml = d.asDiagonal();
  const Vec6 Yl = velocityToLocal(f, Y);
  CHECK(Y.dot(inertiaFromLocal(f, Ml) * Y) == Approx(Yl.dot(Ml * Yl)).epsilon(1e-13));
}

TEST_CASE("Vacuum model: no fluid at all, whatever the density", "[core][fluid_model]") {
  // In water at 998 kg/m³ a 800 kg/m³ box would float; under the vacuum model it falls
  // freely: v = g t exactly for a body released at rest (symplectic Euler is exact on v).
  WorldDef def;
  def.fluid.density = 998.0;
  def.dt = 0.01;
  BodyDef b = boxBody();
  b.model = std::make_shared<VacuumModel>();
  def.bodies.push_back(b);
  World w(def);
  CHECK(w.info(0).addedMass.norm() == 0.0);
  for (int k = 0; k < 100; ++k) REQUIRE(w.step().ok());
  const BodyDiagnostics dg = w.diagnostics(0);
  CHECK(dg.velocity.y() == Approx(-9.81).epsilon(1e-12));
  CHECK(std::abs(dg.velocity.x()) < 1e-12);
  // No rotation beyond round-off: each step's guess extrapolates the last six solutions,
  // whose residues below the solver's tolerance it carries (1.0e-12 rad/s after 100 steps).
  CHECK(dg.omega.norm() < 1e-10);
  CHECK(fluidModelName(w.bodyDef(0)) == "vacuum");
}

TEST_CASE("A peer model's wrench runs implicitly: linear drag reaches mg/c",
          "[core][fluid_model]") {
  WorldDef def;
  def.dt = 0.01;
  def.fluid.wind = Vec3(0.5, 0.0, -0.25);
  BodyDef b = boxBody();
  const double c = 40.0;  // N·s/m
  b.model = std::make_shared<LinearDrag>(c);
  def.bodies.push_back(b);
  World w(def);
  const double m = w.info(0).mass;
  for (int k = 0; k < 400; ++k) REQUIRE(w.step().ok());  // τ = m/c ≈ 0.1 s: 40 τ
  const BodyDiagnostics dg = w.diagnostics(0);
  // Implicit Euler on v' = −g − (c/m)(v − wind) has the exact fixed point v = wind − mg/c.
  CHECK(dg.velocity.y() == Approx(-m * 9.81 / c).epsilon(1e-9));
  CHECK(dg.velocity.x() == Approx(0.5).epsilon(1e-9));
  CHECK(dg.velocity.z() == Approx(-0.25).epsilon(1e-9));
  CHECK(dg.residual < 1e-10);
}

TEST_CASE("Model state is per body and deep-copied with the World", "[core][fluid_model]") {
  WorldDef def;
  def.dt = 0.01;
  BodyDef b = boxBody();
  auto proto = std::make_shared<LinearDrag>(10.0);
  b.model = proto;
  def.bodies.push_back(b);
  def.bodies.push_back(b);
  World w(def);
  for (int k = 0; k < 5; ++k) REQUIRE(w.step().ok());
  World copy(w);
  for (int k = 0; k < 7; ++k) REQUIRE(copy.step().ok());
  for (int k = 0; k < 7; ++k) REQUIRE(w.step().ok());
  CHECK(proto->advances == 0);  // the scene's prototype is never stepped
  CHECK(w.state(0).g.b == copy.state(0).g.b);
  CHECK(w.state(1).Y == copy.state(1).Y);
}
