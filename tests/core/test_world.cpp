// Whole-world behaviour: analytic free fall, terminal velocity, floating, floor contact,
// determinism and failure handling.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "core/world.h"
#include "geometry/primitives.h"
#include "test_shapes.h"

using namespace samara;
using namespace samara::core;

namespace {

using test::cardBody;
using test::sphereBody;

/// Runs until time T; REQUIREs every step to succeed.
void runUntil(World* w, double T) {
  while (w->time() < T - 1e-12) {
    const StepReport r = w->step();
    REQUIRE(r.ok());
  }
}

}  // namespace

TEST_CASE("Vacuum free fall matches the analytic parabola (first order in h)", "[core][world]") {
  // A spinning, off-centre box in vacuum: the COM follows y0 + v0 t − ½ g t² exactly up to
  // the symplectic-Euler offset, and the spin does not disturb it.
  auto run = [](double h) {
    WorldDef def;
    def.fluid.density = 0.0;
    def.dt = h;
    BodyDef b;
    b.mesh = geometry::makeBox(Vec3(0.2, 0.05, 0.1));
    b.mesh.V.rowwise() += Eigen::RowVector3d(0.1, 0.0, 0.0);  // COM off the body origin
    b.mass.density = 500.0;
    b.position = Vec3(0, 10, 0);
    b.velocity = Vec3(1.0, 2.0, 0.0);
    b.angularVelocity = Vec3(0.0, 3.0, 5.0);
    def.bodies.push_back(b);
    World w(def);
    runUntil(&w, 1.0);
    return w.diagnostics(0);
  };
  const Vec3 com0(0.1, 10.0, 0.0);
  const Vec3 exact = com0 + Vec3(1.0, 2.0, 0.0) * 1.0 + 0.5 * Vec3(0, -9.81, 0);
  const Vec3 vExact = Vec3(1.0, 2.0, 0.0) + Vec3(0, -9.81, 0);
  const BodyDiagnostics d1 = run(0.01), d2 = run(0.005);
  const double e1 = (d1.com - exact).norm(), e2 = (d2.com - exact).norm();
  const double v1 = (d1.velocity - vExact).norm(), v2 = (d2.velocity - vExact).norm();
  INFO("COM error at t = 1 s: " << e1 << " (h = 0.01), " << e2 << " (h = 0.005); velocity error "
                                << v1 << ", " << v2);
  // Symplectic Euler under a constant force lags by ½ g h t; the spin adds only O(h²).
  CHECK(e1 == Approx(0.5 * 9.81 * 0.01).epsilon(0.05));
  CHECK(e2 == Approx(0.5 * 9.81 * 0.005).epsilon(0.05));
  // The reported velocity is the COM's secant over the last step, where the ½ g h lag and
  // the half-step offset cancel: far below g h.
  CHECK(v1 < 0.1 * 9.81 * 0.01);
  CHECK(v2 < 0.5 * v1);
}

TEST_CASE("Vacuum without gravity: a spinning off-centre body's COM moves uniformly",
          "[core][world]") {
  // Second order in h for the position thanks to the consistent initial momentum.
  auto run = [](double h) {
    WorldDef def;
    def.fluid.density = 0.0;
    def.gravity = Vec3::Zero();
    def.dt = h;
    def.solver.tolerance = 1e-14;  // solve to round-off: the map is then conserved to it
    BodyDef b;
    b.mesh = geometry::makeBox(Vec3(0.2, 0.05, 0.1));
    b.mesh.V.rowwise() += Eigen::RowVector3d(0.1, 0.0, 0.0);
    b.mass.density = 500.0;
    b.velocity = Vec3(1.0, 2.0, 0.0);
    b.angularVelocity = Vec3(0.0, 3.0, 5.0);
    def.bodies.push_back(b);
    World w(def);
    const Vec6 J0 = w.discreteMomentumMap(0);
    runUntil(&w, 1.0);
    const double drift = (w.discreteMomentumMap(0) - J0).norm() / J0.norm();
    INFO("relative drift of the discrete momentum map: " << drift);
    CHECK(drift < 1e-12);
    return w.diagnostics(0);
  };
  const Vec3 exact(1.1, 2.0, 0.0);
  const double e1 = (run(0.01).com - exact).norm(), e2 = (run(0.005).com - exact).norm();
  INFO("COM error at t = 1 s: " << e1 << " (h = 0.01), " << e2 << " (h = 0.005)");
  CHECK(e1 < 2e-3);
  CHECK(e1 / e2 == Approx(4.0).epsilon(0.1));
}

TEST_CASE("Sphere reaches the terminal speed (m - rho V) g = (2/3) rho pi r^2 v^2",
          "[core][world]") {
  const double r = 0.05, rhoS = 2000.0, rhoW = 998.0;
  WorldDef def;
  def.fluid.density = rhoW;
  def.dt = 0.002;
  def.bodies.push_back(sphereBody(r, rhoS, 4));
  World w(def);
  const BodyInfo info = w.info(0);
  runUntil(&w, 3.0);
  // Use the mesh's own volume (inscribed polyhedron) for the net weight.
  const double net = (info.mass - rhoW * info.volume) * 9.81;
  const double vt = std::sqrt(net / (2.0 / 3.0 * rhoW * M_PI * r * r));
  const BodyDiagnostics d = w.diagnostics(0);
  INFO("fall speed " << d.fallSpeed << " m/s, predicted " << vt << " m/s");
  CHECK(d.fallSpeed == Approx(vt).epsilon(0.01));
  CHECK(d.omega.norm() < 1e-6);
}

TEST_CASE("A box of half the water's density floats half submerged", "[core][world]") {
  const Vec3 size(0.2, 0.1, 0.2);
  WorldDef def;
  def.fluid.density = 1.225;
  def.fluid.water = WaterDef{0.0, 998.0};
  def.dt = 0.004;
  BodyDef b;
  b.mesh = geometry::makeBox(size, 2);
  b.mass.density = 0.5 * (998.0 + 1.225);  // neutral at half draft including the air above
  b.position = Vec3(0, 0.03, 0);
  def.bodies.push_back(b);
  World w(def);
  // Heave oscillation decays (quadratic drag) about the half-submerged equilibrium.
  double lo = 1e9, hi = -1e9, firstAmp = 0.0;
  while (w.time() < 30.0 - 1e-12) {
    REQUIRE(w.step().ok());
    const double y = w.diagnostics(0).com.y();
    if (w.time() < 5.0) firstAmp = std::max(firstAmp, std::abs(y));
    if (w.time() > 25.0) {
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
  }
  INFO("COM height range over the last 5 s: [" << lo << ", " << hi << "] m; first amplitude "
                                               << firstAmp);
  CHECK(std::abs(0.5 * (lo + hi)) < 2e-4);
  CHECK(hi - lo < 0.2 * firstAmp);
}

TEST_CASE("Floor contact brings a dropped box to rest on the floor", "[core][world]") {
  BodyDef b = test::boxBody(Vec3(0.1, 0.1, 0.1), 2, 600.0, Vec3(0, 0.5, 0));
  b.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 0, 1).normalized()));
  b.velocity = Vec3(0.5, 0, 0);
  World w(test::floorWorld(1.225, b));
  runUntil(&w, 4.0);
  const BodyDiagnostics d = w.diagnostics(0);
  const geometry::VertexMatrix V = w.worldVertices(0);
  const double lowest = V.col(1).minCoeff();
  INFO("speed " << d.velocity.norm() << " m/s, spin " << d.omega.norm() << " rad/s, lowest vertex "
                << lowest << " m");
  CHECK(d.velocity.norm() < 1e-3);
  CHECK(d.omega.norm() < 1e-2);
  // Rests on a face: the static penetration of the Winkler floor is a few mm at 20 Hz.
  CHECK(lowest < 0.0);
  CHECK(lowest > -0.01);
  // Lying flat: the COM is half the box height above the floor, minus the penetration.
  CHECK(d.com.y() == Approx(0.05 + lowest).margin(2e-3));
}

TEST_CASE("Determinism: same definition, same bits, copies continue identically", "[core][world]") {
  WorldDef def;
  def.fluid.density = 1.225;
  def.fluid.wind = Vec3(0.5, 0, 0.2);
  def.dt = 0.002;
  def.bodies.push_back(cardBody(6, 4, Vec3(0, 2, 0), Vec3(1, 0, 0)));
  World a(def), c(def);
  for (int k = 0; k < 300; ++k) {
    REQUIRE(a.step().ok());
    REQUIRE(c.step().ok());
  }
  World copy(a);
  for (int k = 0; k < 300; ++k) {
    REQUIRE(a.step().ok());
    REQUIRE(c.step().ok());
    REQUIRE(copy.step().ok());
  }
  const BodyState& sa = a.state(0);
  for (const World* o : {&c, &copy}) {
    const BodyState& so = o->state(0);
    CHECK(std::memcmp(sa.Y.data(), so.Y.data(), sizeof(double) * 6) == 0);
    CHECK(std::memcmp(sa.mu.data(), so.mu.data(), sizeof(double) * 6) == 0);
    CHECK(std::memcmp(sa.g.b.data(), so.g.b.data(), sizeof(double) * 3) == 0);
    CHECK(std::memcmp(sa.g.q.coeffs().data(), so.g.q.coeffs().data(), sizeof(double) * 4) == 0);
  }
}

TEST_CASE("A falling plate drifts sideways and tumbles: lift acts", "[core][world]") {
  // A tilted card in still air glides: horizontal COM displacement appears only through
  // lift (with δ = 0 and no lift it would fall straight).
  WorldDef def;
  def.fluid.density = 1.225;
  def.dt = 0.002;
  def.bodies.push_back(cardBody(10, 6, Vec3(0, 0, 0), Vec3(0, 0, 1)));
  World w(def);
  runUntil(&w, 0.5);
  const BodyDiagnostics d = w.diagnostics(0);
  INFO("after 0.5 s: com " << d.com.transpose() << ", fall speed " << d.fallSpeed);
  CHECK(std::abs(d.com.x()) > 0.01);
  // Much slower than free fall (½ g t² = 1.23 m).
  CHECK(-d.com.y() < 0.6);
}

TEST_CASE("Failure: an impossible tolerance stops with a reason and keeps the state",
          "[core][world]") {
  WorldDef def;
  def.fluid.density = 998.0;
  def.dt = 0.01;
  def.solver.tolerance = 1e-300;  // unreachable
  def.solver.maxHalvings = 2;
  def.bodies.push_back(sphereBody(0.05, 2000.0, 2));
  World w(def);
  const BodyState before = w.state(0);
  const StepReport r = w.step();
  CHECK(r.status == StepStatus::kFailed);
  CHECK(r.message.find("sphere") != std::string::npos);
  CHECK(r.message.find("sub-steps") != std::string::npos);
  CHECK(w.stepIndex() == 0);
  CHECK(std::memcmp(before.Y.data(), w.state(0).Y.data(), sizeof(double) * 6) == 0);
  CHECK(w.state(0).Y.allFinite());
}

TEST_CASE("Definition errors name the field", "[core][world]") {
  WorldDef def;
  def.bodies.push_back(sphereBody(0.05, 1000.0, 1));
  SECTION("dt") {
    def.dt = 0.0;
    CHECK_THROWS_WITH(World(def), Catch::Contains("dt"));
    try {
      World tmp(def);
    } catch (const DefinitionError& e) {
      CHECK(e.field() == "/sim/dt");
    }
  }
  SECTION("density") {
    def.bodies[0].mass.density = -1.0;
    try {
      World tmp(def);
      FAIL("no error");
    } catch (const DefinitionError& e) {
      CHECK(e.field() == "/bodies/0/mass/density");
    }
  }
  SECTION("sheet without thickness") {
    def.bodies[0].mesh = geometry::makePlate(0.1, 0.1, 2, 2);
    try {
      World tmp(def);
      FAIL("no error");
    } catch (const DefinitionError& e) {
      CHECK(e.field() == "/bodies/0/mass/thickness");
    }
  }
}

TEST_CASE("Bodies are independent: two bodies in one world match each alone, bit for bit",
          "[core][world]") {
  WorldDef base;
  base.fluid.density = 1.225;
  base.dt = 0.002;
  BodyDef plate;
  plate.name = "plate";
  plate.mesh = geometry::makePlate(0.1, 0.06, 6, 4);
  plate.mass.density = 700.0;
  plate.mass.thickness = 2e-4;
  plate.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 0, 0)));
  BodyDef ball = sphereBody(0.03, 1500.0, 2);
  ball.position = Vec3(1, 0, 0);
  WorldDef both = base, onlyPlate = base, onlyBall = base;
  both.bodies = {plate, ball};
  onlyPlate.bodies = {plate};
  onlyBall.bodies = {ball};
  World w2(both), wp(onlyPlate), wb(onlyBall);
  for (int k = 0; k < 200; ++k) {
    REQUIRE(w2.step().ok());
    REQUIRE(wp.step().ok());
    REQUIRE(wb.step().ok());
  }
  CHECK(std::memcmp(w2.state(0).Y.data(), wp.state(0).Y.data(), sizeof(double) * 6) == 0);
  CHECK(std::memcmp(w2.state(1).Y.data(), wb.state(0).Y.data(), sizeof(double) * 6) == 0);
  CHECK(w2.diagnostics(1).com == wb.diagnostics(0).com);
}
