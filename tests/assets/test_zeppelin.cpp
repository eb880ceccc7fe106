// The zeppelin in air (ρ = 1.225 kg/m³, neutrally buoyant, gravity off): spinning propellers
// drive it forward to a steady speed, the rudder turns it (GwtF Fig. 13).
#include <cmath>

#include "asset_test_util.h"

using namespace samara;
using namespace samara::assettest;
namespace ag = samara::assetgen;

namespace {

constexpr double kAir = 1.225;  // kg/m³

struct Flight {
  double speedEarly = 0.0;  ///< mean forward speed over the first second, m/s
  double speed = 0.0;       ///< mean forward speed over the last second, m/s
  double speedPrev = 0.0;   ///< mean forward speed over the second before, m/s
  double yawRate = 0.0;     ///< mean heading rate about +y over the last second, rad/s
  double heading = 0.0;     ///< final heading about +y, rad
  double roll = 0.0;        ///< final |rotation about the body x axis|, rad
};

/// Heading of the body x axis about world +y (rad): x̂ ↦ (cos ψ, 0, −sin ψ).
double heading(const Quat& q) {
  const Vec3 x = q * Vec3::UnitX();
  return std::atan2(-x.z(), x.x());
}

Flight fly(double rudder, double duration) {
  const ag::ZeppelinModel z = ag::makeZeppelin(kTestResolution);
  ag::ZeppelinControls c;  // 8 rev/s, spin-up over 0.5 s
  c.rudderAngle = rudder;
  c.rudderRampTime = 1.0;
  core::World w(neutralWorld(z.model.mesh, kAir, ag::makeZeppelinAnimation(z, c), 0.005));
  Flight f;
  auto forward = [&](const Vec3& d) { return d.dot(w.diagnostics(0).q * Vec3::UnitX()); };
  Vec3 c0 = w.diagnostics(0).com;
  runUntil(&w, 1.0);
  f.speedEarly = forward(w.diagnostics(0).com - c0);
  runUntil(&w, duration - 2.0);
  c0 = w.diagnostics(0).com;
  runUntil(&w, duration - 1.0);
  const Vec3 c1 = w.diagnostics(0).com;
  const double h1 = heading(w.diagnostics(0).q);
  f.speedPrev = forward(c1 - c0);
  runUntil(&w, duration);
  f.speed = forward(w.diagnostics(0).com - c1);
  f.heading = heading(w.diagnostics(0).q);
  f.yawRate = f.heading - h1;
  const Vec3 side = w.diagnostics(0).q * Vec3::UnitZ();
  f.roll = std::asin(std::min(1.0, std::abs(side.y())));
  return f;
}

}  // namespace

TEST_CASE("Zeppelin: spinning propellers drive it forward to a steady speed",
          "[assets][zeppelin][slow]") {
  const Flight straight = fly(0.0, 6.0);
  INFO("rudder 0: speed " << straight.speedEarly << " m/s over the first second, "
                          << straight.speedPrev << " and " << straight.speed
                          << " m/s over the last two seconds; yaw " << straight.yawRate
                          << " rad/s");
  CHECK(straight.speed > 1.5);  // a few m/s forward (+x)
  CHECK(straight.speed < 5.0);
  CHECK(straight.speedEarly < 0.5 * straight.speed);                  // accelerates …
  CHECK(straight.speed == Approx(straight.speedPrev).epsilon(0.02));  // … to a steady speed
  CHECK(std::abs(straight.yawRate) < 1e-9);                           // straight ahead
  CHECK(std::abs(straight.heading) < 1e-9);
  CHECK(straight.roll < 1e-9);  // counter-rotating propellers: no net torque
}

TEST_CASE("Zeppelin: a deflected rudder turns it one way or the other",
          "[assets][zeppelin][slow]") {
  const Flight right = fly(0.3, 4.0);
  const Flight left = fly(-0.3, 4.0);
  INFO("rudder +0.3 rad: yaw rate " << right.yawRate << " rad/s, heading " << right.heading
                                    << " rad, speed " << right.speed << " m/s, roll "
                                    << right.roll);
  INFO("rudder -0.3 rad: yaw rate " << left.yawRate << " rad/s, heading " << left.heading
                                    << " rad");
  // Trailing edge to +z: the nose turns to +z (right), a negative yaw rate about +y.
  CHECK(right.yawRate < -0.05);
  CHECK(left.yawRate > 0.05);
  CHECK(right.yawRate == Approx(-left.yawRate).epsilon(1e-6));  // mirror images
  CHECK(right.heading < -0.2);
  CHECK(right.speed > 1.0);  // still flying forward while turning
  CHECK(right.roll < 0.1);
}
