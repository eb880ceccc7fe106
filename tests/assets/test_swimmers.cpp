// Swimmers built from the generated models in water (ρ = 998 kg/m³, neutrally buoyant,
// gravity off): the eel's travelling wave, the turtle's flapping stroke (GwtF Fig. 1, 12)
// and the skinned sea snake.
#include <cmath>

#include "asset_test_util.h"

using namespace samara;
using namespace samara::assettest;
namespace ag = samara::assetgen;

namespace {

constexpr double kWater = 998.0;  // kg/m³

}  // namespace

TEST_CASE("Eel from the generator swims head first to a terminal speed", "[assets][swim][slow]") {
  const ag::Model eel = ag::makeEel(kTestResolution);
  core::World w(
      neutralWorld(eel.mesh, kWater, ag::makeTravellingWave(eel.mesh.V, ag::eelWave()), 0.005));
  const std::vector<Vec3> c = comTrack(&w, 1.0, 6.0);
  const double v1 = c[1].x() - c[0].x();
  const double v5 = c[5].x() - c[4].x();
  const double v6 = c[6].x() - c[5].x();
  INFO("mean x speed over s 1, 5, 6: " << v1 << " " << v5 << " " << v6 << " m/s");
  CHECK(v6 < -0.3);  // head first (−x), > 0.3 body lengths per second
  CHECK(v6 > -1.0);
  CHECK(std::abs(v1) < 0.3 * std::abs(v6));  // momentum builds up (GwtF Fig. 12)
  CHECK(v6 == Approx(v5).epsilon(0.05));     // approaching the terminal speed
  CHECK(std::abs(c[6].z() - c[0].z()) < 0.05 * std::abs(c[6].x() - c[0].x()));  // straight
}

namespace {

/// Mean x speed (m/s) of the turtle over each 1 s stroke for `strokes` strokes.
std::vector<double> swimTurtle(const ag::TurtleStroke& stroke, int strokes) {
  const ag::TurtleModel t = ag::makeTurtle(kTestResolution);
  core::World w(neutralWorld(t.model.mesh, kWater, ag::makeTurtleStroke(t, stroke), 0.005));
  const double period = 1.0 / stroke.frequency;
  const std::vector<Vec3> c = comTrack(&w, period, strokes * period);
  std::vector<double> v;
  for (size_t k = 1; k < c.size(); ++k) v.push_back((c[k].x() - c[k - 1].x()) / period);
  return v;
}

}  // namespace

TEST_CASE("Turtle: a feathered flapping stroke swims forward, a bare flap does not",
          "[assets][swim][slow]") {
  ag::TurtleStroke stroke;  // 1 Hz, flap ±40°, feathering ±40° a quarter period ahead
  const std::vector<double> v = swimTurtle(stroke, 5);
  INFO("mean speed per stroke: " << v[0] << " " << v[1] << " " << v[2] << " " << v[3] << " " << v[4]
                                 << " m/s");
  CHECK(v.back() > 0.2);  // forward (+x): ~0.2–0.5 body lengths per second
  CHECK(v.back() < 0.6);
  CHECK(v.back() > 1.5 * v.front());  // gains speed stroke after stroke
  stroke.featherAmplitude = 0.0;      // flap only: symmetric, no thrust
  const std::vector<double> f = swimTurtle(stroke, 3);
  INFO("flap only: " << f.front() << " … " << f.back() << " m/s");
  CHECK(std::abs(f.back()) < 0.1 * v.back());
}

TEST_CASE("Skinned sea snake swims in water", "[assets][swim][skin][slow]") {
  const ag::SkinnedModel s = ag::makeSeaSnake(kTestResolution);
  core::World w(neutralWorld(s.model.mesh, kWater, s.animation, 0.005));
  const std::vector<Vec3> c = comTrack(&w, 1.0, 4.0);
  const Vec3 net = c.back() - c.front();
  const Vec3 last = c[4] - c[3];
  INFO("net displacement over 4 cycles " << net.transpose() << " m, last cycle " << last.transpose()
                                         << " m");
  CHECK(net.norm() > 0.5);                       // moves: more than 0.4 body lengths in 4 cycles
  CHECK(last.x() < -0.1);                        // head first (−x)
  CHECK(std::abs(net.y()) < 0.01 * net.norm());  // the wave is in the x–z plane
}
