// Shape-changing bodies (GwtF §3–§7.3): keyframe evaluation, rigid equivalence, the falling
// cat in vacuum, and swimming by a travelling wave.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "core/animation.h"
#include "core/world.h"
#include "geometry/primitives.h"
#include "test_shapes.h"

using namespace samara;
using namespace samara::core;

using test::rotationAngle;

TEST_CASE("Keyframe time mapping: loop, hold, ping-pong", "[core][animation]") {
  // 4 frames at 2 fps.
  CHECK(keyframeCoordinate(0.25, 2.0, 4, LoopMode::kHold, 0.0) == Approx(0.5));
  CHECK(keyframeCoordinate(5.0, 2.0, 4, LoopMode::kHold, 0.0) == Approx(3.0));
  CHECK(keyframeCoordinate(2.25, 2.0, 4, LoopMode::kLoop, 0.0) == Approx(0.5));     // period 4
  CHECK(keyframeCoordinate(2.0, 2.0, 4, LoopMode::kPingPong, 0.0) == Approx(2.0));  // 4 → 2
  CHECK(keyframeCoordinate(3.5, 2.0, 4, LoopMode::kPingPong, 0.0) == Approx(1.0));
  ScalarTrack tr{{0.0, 1.0, 2.0}, {0.0, 1.0, 0.0}, true, true};
  CHECK(tr.evaluate(1.0) == Approx(1.0));
  CHECK(tr.evaluate(3.0) == Approx(1.0));  // looped
  CHECK(tr.evaluate(0.5) == Approx(tr.evaluate(1.5)));
  // A non-looped smooth track starts with the one-sided slope (here 2 per second).
  ScalarTrack ramp{{0.0, 1.0, 2.0}, {0.0, 2.0, 4.0}, false, true};
  CHECK((ramp.evaluate(1e-6) - ramp.evaluate(0.0)) / 1e-6 == Approx(2.0).epsilon(1e-5));
  CHECK(ramp.evaluate(0.5) == Approx(1.0).epsilon(1e-12));  // linear data stays linear
}

TEST_CASE("A one-frame sequence behaves exactly as the rigid body", "[core][animation]") {
  WorldDef def;
  def.fluid.density = 1.225;
  def.fluid.wind = Vec3(0.3, 0, 0);
  def.dt = 0.002;
  BodyDef b;
  b.mesh = geometry::makePlate(0.1, 0.06, 6, 4);
  b.mass.mode = MassMode::kLumped;  // animated bodies carry their mass at the vertices
  b.mass.total = 8.4e-4;
  b.orientation = Quat(Eigen::AngleAxisd(0.35, Vec3(1, 0, 0)));
  WorldDef rigid = def, animated = def;
  rigid.bodies = {b};
  // A still shape runs the shape-changing path (x' = 0 every step); a one-frame sequence is
  // recognised as rigid. Both must match the rigid body bit for bit.
  struct Still final : ShapeAnimation {
    geometry::VertexMatrix V;
    int numVertices() const override { return static_cast<int>(V.rows()); }
    void evaluate(double, geometry::VertexMatrix* out) const override { *out = V; }
  };
  auto still = std::make_shared<Still>();
  still->V = b.mesh.V;
  b.animation = still;
  animated.bodies = {b};
  WorldDef oneFrame = animated;
  oneFrame.bodies[0].mass.mode = MassMode::kDensity;  // any mass model: it is rigid
  oneFrame.bodies[0].mass.density = 700.0;
  oneFrame.bodies[0].mass.thickness = 2e-4;
  oneFrame.bodies[0].animation = std::make_shared<MeshSequence>(
      std::vector<geometry::VertexMatrix>{b.mesh.V}, MeshSequence::Settings{});
  WorldDef rigidDensity = oneFrame;
  rigidDensity.bodies[0].animation.reset();
  World wr(rigid), wa(animated), w1(oneFrame), wd(rigidDensity);
  for (int k = 0; k < 500; ++k) {
    REQUIRE(wr.step().ok());
    REQUIRE(wa.step().ok());
    REQUIRE(w1.step().ok());
    REQUIRE(wd.step().ok());
  }
  for (auto [x, y] : {std::pair{&wr, &wa}, std::pair{&wd, &w1}}) {
    CHECK(std::memcmp(x->state(0).Y.data(), y->state(0).Y.data(), sizeof(double) * 6) == 0);
    CHECK(std::memcmp(x->state(0).mu.data(), y->state(0).mu.data(), sizeof(double) * 6) == 0);
    CHECK(std::memcmp(x->state(0).g.b.data(), y->state(0).g.b.data(), sizeof(double) * 3) == 0);
  }
}

TEST_CASE("Falling cat: in vacuum a shape change reorients without moving the COM",
          "[core][animation]") {
  const test::Cat cat = test::makeCat();
  const double T = 1.0;
  double maxSpeed = 0.0;
  auto run = [&](double h, std::shared_ptr<const ShapeAnimation> anim, double until,
                 double* maxComDrift, double* maxMomentum) {
    World w(test::catWorld(cat, std::move(anim), h));
    const Vec3 com0 = w.diagnostics(0).com;
    *maxComDrift = 0.0;
    *maxMomentum = 0.0;
    while (w.time() < until - 1e-12) {
      REQUIRE(w.step().ok());
      *maxComDrift = std::max(*maxComDrift, (w.diagnostics(0).com - com0).norm());
      // The reported COM velocity includes the shape's own motion: ≈ 0 here too.
      maxSpeed = std::max(maxSpeed, w.diagnostics(0).velocity.norm());
      *maxMomentum = std::max(*maxMomentum, w.discreteMomentumMap(0).norm());
    }
    return w.state(0).g.q;
  };
  auto stroke = test::catStroke(cat, T);
  double drift1, drift2, mom;
  const Quat q1 = run(2e-3, stroke, T, &drift1, &mom);
  INFO("one stroke: rotation " << rotationAngle(q1) * 180 / M_PI << " deg, max |J| " << mom
                               << ", max COM drift " << drift1 << " m");
  CHECK(rotationAngle(q1) > 2.0 * M_PI / 180.0);  // reoriented by more than 2°
  CHECK(mom < 1e-12);                             // world momentum stays zero
  INFO("max reported COM speed " << maxSpeed << " m/s");
  CHECK(maxSpeed < 1e-3);
  run(1e-3, stroke, T, &drift2, &mom);
  INFO("COM drift at h = 1 ms: " << drift2);
  CHECK(drift1 < 1e-3);  // the COM stays put (to O(h))
  CHECK(drift1 / drift2 == Approx(2.0).epsilon(0.2));
  // The time-reversed stroke undoes the reorientation (the holonomy of the reversed loop
  // is the inverse rotation).
  auto back = std::make_shared<test::ThereAndBack>();
  back->inner = stroke;
  back->T = T;
  const Quat qb = run(1e-3, back, 2 * T, &drift2, &mom);
  const Quat qs = run(1e-3, stroke, T, &drift2, &mom);
  INFO("after stroke and reversal: " << rotationAngle(qb) * 180 / M_PI << " deg (stroke alone "
                                     << rotationAngle(qs) * 180 / M_PI << " deg)");
  CHECK(rotationAngle(qb) < 0.02 * rotationAngle(qs));
}

namespace {

/// An eel-like body (1 m long, laterally flattened ellipsoid) in water, neutrally buoyant,
/// undulating with a travelling wave along x (lateral displacement along z). Returns the
/// mean forward (x) COM speed over each second.
std::vector<double> swimEel(double frequency, double a0, double a2, double seconds) {
  const geometry::TriMesh mesh = geometry::makeEllipsoid(Vec3(0.5, 0.05, 0.03), 3);
  auto wave = std::make_shared<TravellingWave>();
  wave->rest = mesh.V;
  wave->axis = Vec3(1, 0, 0);
  wave->lateral = Vec3(0, 0, 1);
  wave->a0 = a0;
  wave->a1 = 0.0;
  wave->a2 = a2;
  wave->wavelength = 0.8;
  wave->frequency = frequency;
  wave->rampTime = 1.0;
  wave->prepare();
  WorldDef def;
  def.fluid.density = 998.0;
  def.gravity = Vec3::Zero();  // neutrally buoyant: weight and buoyancy cancel
  def.dt = 0.005;
  BodyDef b;
  b.mesh = mesh;
  b.mass.density = 998.0;
  b.animation = wave;
  def.bodies.push_back(b);
  World w(def);
  std::vector<double> speeds;
  double x0 = w.diagnostics(0).com.x();
  for (int s = 1; s <= static_cast<int>(seconds); ++s) {
    while (w.time() < s - 1e-9) REQUIRE(w.step().ok());
    const double x = w.diagnostics(0).com.x();
    speeds.push_back(x - x0);
    x0 = x;
  }
  return speeds;
}

}  // namespace

TEST_CASE("Eel: a travelling wave swims against the wave to a terminal speed",
          "[core][animation][slow]") {
  // Wave travelling to +x (sin(ks − ωt)): thrust to −x, as anguilliform swimmers do.
  const std::vector<double> v1 = swimEel(1.0, 0.02, 0.08, 10.0);
  INFO("mean speed per second at 1 Hz: " << v1[0] << " " << v1[1] << " " << v1[2] << " " << v1[4]
                                         << " " << v1[8] << " " << v1[9] << " m/s");
  CHECK(v1[9] < -0.3);  // swims forward (−x), > 0.3 body/s
  // Momentum builds up over seconds (GwtF Fig. 12), not at once: each second's mean speed
  // is larger than the one before until the terminal speed.
  CHECK(std::abs(v1[0]) < std::abs(v1[1]));
  CHECK(std::abs(v1[1]) < std::abs(v1[2]));
  CHECK(std::abs(v1[2]) < std::abs(v1[4]));
  CHECK(std::abs(v1[0]) < 0.5 * std::abs(v1[9]));
  CHECK(v1[9] == Approx(v1[8]).epsilon(0.01));  // terminal speed reached
  CHECK(std::abs(v1[9]) < 0.8);                 // slower than the wave (fλ = 0.8 m/s)
  SECTION("doubling the frequency roughly doubles the speed") {
    const std::vector<double> v2 = swimEel(2.0, 0.02, 0.08, 10.0);
    INFO("terminal speed at 1 Hz " << v1[9] << ", at 2 Hz " << v2[9]);
    CHECK(v2[9] / v1[9] == Approx(2.0).epsilon(0.1));
  }
  SECTION("the reversed wave swims the other way at the same speed") {
    // A uniform envelope makes the reversed wave the mirror image of the forward one.
    const std::vector<double> fwd = swimEel(1.0, 0.05, 0.0, 10.0);
    const std::vector<double> rev = swimEel(-1.0, 0.05, 0.0, 10.0);
    INFO("terminal speeds " << fwd[9] << " and " << rev[9]);
    CHECK(fwd[9] < -0.3);
    CHECK(rev[9] == Approx(-fwd[9]).epsilon(1e-6));
  }
}
