// The falling-pattern classifier on synthetic trajectories (y up, the body's broad normal
// along body y as for geometry::makePlate).
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "analysis/pattern.h"

using namespace samara;
using namespace samara::analysis;

namespace {

using samara::kPi;
const Vec3 kUp(0.0, 1.0, 0.0);
const Vec3 kNormal(0.0, 1.0, 0.0);
constexpr double kLength = 0.07;  // body length, m

/// Samples t = 0, dt, …, T of com(t) and a rotation angle φ(t) about the horizontal axis.
std::vector<TrajectorySample> make(double T, double dt, const std::function<Vec3(double)>& com,
                                   const std::function<double(double)>& phi,
                                   const Vec3& axis = Vec3::UnitZ()) {
  std::vector<TrajectorySample> out;
  const int n = static_cast<int>(std::lround(T / dt));
  for (int i = 0; i <= n; ++i) {
    const double t = i * dt;
    TrajectorySample s;
    s.t = t;
    s.com = com(t);
    s.q = Quat(Eigen::AngleAxisd(phi(t), axis));
    out.push_back(s);
  }
  return out;
}

PatternResult classify(const std::vector<TrajectorySample>& s) {
  return classifyFall(s, kUp, kLength, kNormal);
}

}  // namespace

TEST_CASE("Pattern names", "[models][pattern]") {
  CHECK(std::string(patternName(FallPattern::kUndetermined)) == "undetermined");
  CHECK(std::string(patternName(FallPattern::kSteadyDescent)) == "steady descent");
  CHECK(std::string(patternName(FallPattern::kZigzag)) == "zigzag");
  CHECK(std::string(patternName(FallPattern::kAutorotation)) == "autorotation");
  CHECK(std::string(patternName(FallPattern::kChaotic)) == "chaotic");
  CHECK(std::string(patternName(FallPattern::kHorizontalTravel)) == "horizontal travel");
}

TEST_CASE("(d, e) on a hand-computed case", "[models][pattern]") {
  // Horizontal (x, z) positions (0,0), (4,0), (4,2), (0,2) cm, falling meanwhile: the mean is
  // (2, 1) cm, √5 cm from the release point (0, 0); the covariance is diag(4, 1) cm², so
  // e = √(1 − 1/4) = √3/2.
  const double cm = 0.01;
  const std::vector<Vec3> xz = {{0, 0, 0}, {4, 0, 0}, {4, 0, 2}, {0, 0, 2}};
  std::vector<TrajectorySample> s;
  for (size_t i = 0; i < xz.size(); ++i) {
    TrajectorySample x;
    x.t = 0.1 * static_cast<double>(i);
    x.com = cm * xz[i] + Vec3(0.0, 1.0 - 0.1 * static_cast<double>(i), 0.0);
    s.push_back(x);
  }
  const PatternResult r = classifyFall(s, kUp, 1.0 * cm, kNormal);
  CHECK(r.d == Approx(std::sqrt(5.0)).epsilon(1e-12));
  CHECK(r.e == Approx(std::sqrt(3.0) / 2.0).epsilon(1e-12));
  CHECK(r.samples == 4);
  CHECK(r.pattern == FallPattern::kUndetermined);  // four samples are too few to classify
  CHECK_THAT(r.reason, Catch::Contains("samples"));
  // d is in body lengths.
  CHECK(classifyFall(s, kUp, 2.0 * cm, kNormal).d == Approx(std::sqrt(5.0) / 2.0).epsilon(1e-12));
}

TEST_CASE("Straight drop: steady descent, d = e = 0", "[models][pattern]") {
  const auto s = make(
      3.0, 0.005, [](double t) { return Vec3(0.2, 5.0 - 0.8 * t, -0.1); },
      [](double) { return 0.0; });
  const PatternResult r = classify(s);
  INFO(r.reason);
  CHECK(r.pattern == FallPattern::kSteadyDescent);
  CHECK(r.d == Approx(0.0).margin(1e-12));
  CHECK(r.e == 0.0);
  CHECK(r.tiltAmplitude == 0.0);
  CHECK(r.tumbleTurns == 0.0);
  CHECK(r.windowStart == Approx(0.45));
  CHECK(r.fallenHeight == Approx(0.8 * 2.55));
}

TEST_CASE("Sinusoidal sway with tilt: zigzag", "[models][pattern]") {
  // Sways ±2 body lengths along x with period 1 s, the normal tilting ±30° in phase.
  const double P = 1.0;
  const auto s = make(
      10.0, 0.005,
      [&](double t) { return Vec3(2.0 * kLength * std::sin(2 * kPi * t / P), -0.5 * t, 0.0); },
      [&](double t) { return (kPi / 6) * std::sin(2 * kPi * t / P); });
  const PatternResult r = classify(s);
  INFO(r.reason);
  CHECK(r.pattern == FallPattern::kZigzag);
  CHECK(r.tiltAmplitude == Approx(kPi / 6).epsilon(1e-6));
  CHECK(r.tiltSignChanges >= 15);
  CHECK(r.longestRunTurns == Approx(1.0 / 6.0).epsilon(1e-3));  // −30° → +30°
  CHECK(r.e == Approx(1.0).margin(1e-9));                       // planar sway
  CHECK(r.d < 0.05);  // whole periods: the ellipse is centred on the release point
}

TEST_CASE("Steady tumbling with drift: autorotation", "[models][pattern]") {
  // Two turns per second about z while gliding along x: 8.5 turns after the transient.
  const auto s = make(
      5.0, 0.002, [](double t) { return Vec3(0.3 * t, -0.6 * t, 0.0); },
      [](double t) { return 2.0 * 2.0 * kPi * t; });
  const PatternResult r = classify(s);
  INFO(r.reason);
  CHECK(r.pattern == FallPattern::kAutorotation);
  CHECK(r.tumbleTurns == Approx(8.5).epsilon(1e-6));
  CHECK(r.reversals == 0);
  CHECK(r.tiltAmplitude == Approx(kPi / 2).margin(0.02));  // sampled every 1.44°
  CHECK(r.e == Approx(1.0).margin(1e-9));
  // Mean horizontal position: 0.3·2.5 m from the release point.
  CHECK(r.d == Approx(0.75 / kLength).epsilon(1e-9));
}

TEST_CASE("Tumbling that alternates its sense: chaotic", "[models][pattern]") {
  // Two turns one way in 1 s, two turns back in the next, …
  const auto tri = [](double t) {
    const double u = std::fmod(t, 2.0);
    return u < 1.0 ? u : 2.0 - u;
  };
  const auto s = make(
      8.0, 0.002, [](double t) { return Vec3(0.05 * std::sin(t), -0.6 * t, 0.0); },
      [&](double t) { return 2.0 * 2.0 * kPi * tri(t); });
  const PatternResult r = classify(s);
  INFO(r.reason);
  CHECK(r.pattern == FallPattern::kChaotic);
  CHECK(r.reversals >= 5);
  CHECK(r.longestRunTurns == Approx(2.0).epsilon(1e-3));
}

TEST_CASE("Tumbling axis in any horizontal direction", "[models][pattern]") {
  const Vec3 axis = Vec3(1.0, 0.0, 2.0).normalized();
  const auto s = make(
      4.0, 0.002, [](double t) { return Vec3(0.0, -0.7 * t, 0.0); },
      [](double t) { return -3.0 * 2.0 * kPi * t; }, axis);
  const PatternResult r = classify(s);
  INFO(r.reason);
  CHECK(r.pattern == FallPattern::kAutorotation);
  CHECK(r.tumbleTurns == Approx(3.0 * 3.4).epsilon(1e-6));
}

TEST_CASE("Not enough evidence: undetermined with a reason", "[models][pattern]") {
  SECTION("no samples") {
    const PatternResult r = classify({});
    CHECK(r.pattern == FallPattern::kUndetermined);
    CHECK(r.reason == "no samples");
  }
  SECTION("too short a fall") {
    const auto s = make(
        0.1, 0.001, [](double t) { return Vec3(0.0, -0.5 * t, 0.0); }, [](double) { return 0.0; });
    const PatternResult r = classify(s);
    CHECK(r.pattern == FallPattern::kUndetermined);
    CHECK_THAT(r.reason, Catch::Contains("body lengths"));
  }
  SECTION("a steady glide at 20°") {
    const auto s = make(
        3.0, 0.005, [](double t) { return Vec3(0.5 * t, -0.5 * t, 0.0); },
        [](double) { return 20.0 * kPi / 180.0; });
    const PatternResult r = classify(s);
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kUndetermined);
    CHECK_THAT(r.reason, Catch::Contains("glide"));
  }
  SECTION("level but drifting sideways as fast as it falls") {
    const auto s = make(
        3.0, 0.005, [](double t) { return Vec3(0.5 * t, -0.5 * t, 0.0); },
        [](double) { return 0.0; });
    const PatternResult r = classify(s);
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kUndetermined);
    CHECK(r.horizontalSpread == Approx(1.0));
  }
  SECTION("half a turn over, then still") {
    const auto s = make(
        3.0, 0.005, [](double t) { return Vec3(0.0, -0.5 * t, 0.0); },
        [](double t) { return t < 1.0 ? 0.0 : (t < 2.0 ? kPi * (t - 1.0) : kPi); });
    const PatternResult r = classify(s);
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kUndetermined);
    CHECK(r.longestRunTurns == Approx(0.5).epsilon(1e-9));
  }
}

TEST_CASE("The tracker gives classifyFall's result at any time, with bounded memory",
          "[models][pattern]") {
  // 200 000 samples (the tracker keeps at most kMaxRecords of them): 1 turn per second.
  const auto s = make(
      40.0, 0.0002, [](double t) { return Vec3(0.1 * t, -0.5 * t, 0.0); },
      [](double t) { return 2.0 * kPi * t; });
  PatternTracker tracker(kUp, kLength, kNormal);
  PatternResult mid;
  for (size_t i = 0; i < s.size(); ++i) {
    tracker.add(s[i]);
    if (i == s.size() / 2) mid = tracker.result();
  }
  CHECK(mid.pattern == FallPattern::kAutorotation);
  CHECK(mid.tumbleTurns == Approx(0.85 * 20.0).epsilon(1e-3));
  const PatternResult r = tracker.result();
  const PatternResult whole = classify(s);
  CHECK(r.pattern == FallPattern::kAutorotation);
  CHECK(r.tumbleTurns == Approx(34.0).epsilon(1e-3));
  CHECK(r.tumbleTurns == whole.tumbleTurns);
  CHECK(r.d == whole.d);
  CHECK(r.e == whole.e);
  CHECK(tracker.numSamples() == static_cast<std::int64_t>(s.size()));
  tracker.reset();
  CHECK(tracker.numSamples() == 0);
  CHECK(tracker.result().reason == "no samples");
}

TEST_CASE("Helicopter-like spin about the vertical is autorotation, a slow yaw is not",
          "[models][pattern]") {
  // A seed coning at 8° while it spins about the vertical at Ω and falls at 1 m/s: the broad
  // normal never tumbles, its tilt changes sign every half turn (a zigzag by tilt alone), but
  // it spins many turns per fallen body length.
  auto seed = [](double spinHz) {
    std::vector<TrajectorySample> out;
    const double dt = 1e-3, T = 3.0, cone = 8.0 * kPi / 180.0;
    const double W = 2.0 * kPi * spinHz;
    for (int i = 0; i <= static_cast<int>(T / dt); ++i) {
      const double t = i * dt;
      TrajectorySample s;
      s.t = t;
      s.com = Vec3(0.002 * std::cos(W * t), -1.0 * t, 0.002 * std::sin(W * t));
      s.q = Quat(Eigen::AngleAxisd(W * t, kUp)) * Quat(Eigen::AngleAxisd(cone, Vec3::UnitX()));
      s.omega = W * kUp;
      out.push_back(s);
    }
    return out;
  };
  const PatternResult fast = classify(seed(15.0));  // 15 rev/s, 1 m/s: 1.05 turns per length
  CHECK(fast.pattern == FallPattern::kAutorotation);
  CHECK(fast.spinTurns == Approx(15.0 * 0.85 * 3.0).epsilon(1e-3));  // the last 85 % of 3 s
  CHECK_THAT(fast.reason, Catch::Contains("about the vertical"));
  // 0.5 rev/s: 1.3 turns after the transient and 0.035 turns per fallen length — a coning
  // wobble with a slow yaw, not autorotation.
  const PatternResult slow = classify(seed(0.5));
  CHECK(slow.pattern != FallPattern::kAutorotation);
  CHECK(std::abs(slow.spinTurns) == Approx(0.5 * 0.85 * 3.0).epsilon(1e-3));
}

namespace {

/// A plate fluttering (tilting ±tilt with period P about a horizontal axis, its COM swaying
/// ±sway along the tilt) while the whole swing turns about the vertical at precess turns/s
/// and the COM sinks at fall m/s; ω is exact.
std::vector<TrajectorySample> precessingFlutter(double precess, double fall, double sway,
                                                double tilt = kPi / 6, double P = 1.0) {
  std::vector<TrajectorySample> out;
  const double dt = 0.002, T = 10.0, w = 2.0 * kPi / P, Wp = 2.0 * kPi * precess;
  for (int i = 0; i <= static_cast<int>(std::lround(T / dt)); ++i) {
    const double t = i * dt;
    const Quat yaw(Eigen::AngleAxisd(Wp * t, kUp));
    TrajectorySample s;
    s.t = t;
    s.com = yaw * Vec3(sway * std::sin(w * t), 0.0, 0.0) + Vec3(0.0, 2.0 - fall * t, 0.0);
    s.q = yaw * Quat(Eigen::AngleAxisd(tilt * std::sin(w * t), Vec3::UnitZ()));
    s.omega = Wp * kUp + yaw * Vec3(0.0, 0.0, tilt * w * std::cos(w * t));
    out.push_back(s);
  }
  return out;
}

/// A helicopter-like seed (as in the test above) spinning at spinHz(t) rev/s, coning 8°,
/// falling at 0.5 m/s for 3 s (18.2 body lengths after the transient).
std::vector<TrajectorySample> spinningSeed(const std::function<double(double)>& spinHz) {
  std::vector<TrajectorySample> out;
  const double dt = 1e-3, T = 3.0, cone = 8.0 * kPi / 180.0;
  double yaw = 0.0;
  for (int i = 0; i <= static_cast<int>(std::lround(T / dt)); ++i) {
    const double t = i * dt;
    const double W = 2.0 * kPi * spinHz(t);
    if (i > 0) yaw += W * dt;
    TrajectorySample s;
    s.t = t;
    s.com = Vec3(0.0, -0.5 * t, 0.0);
    s.q = Quat(Eigen::AngleAxisd(yaw, kUp)) * Quat(Eigen::AngleAxisd(cone, Vec3::UnitX()));
    s.omega = W * kUp;
    out.push_back(s);
  }
  return out;
}

}  // namespace

TEST_CASE("A fluttering plate that slowly precesses is a zigzag, not autorotation",
          "[models][pattern]") {
  // Swings ±30° once a second, swaying ±1 body length, while the swing plane turns at
  // 0.4 rev/s (3.4 turns after the transient, one-signed) and it sinks at 4 cm/s (0.7 spin
  // turns per fallen body length): a spin about the vertical, but 0.4 turns per swing.
  const PatternResult r = classify(precessingFlutter(0.4, 0.04, kLength));
  INFO(r.reason);
  CHECK(r.pattern == FallPattern::kZigzag);
  CHECK(r.spinTurns == Approx(0.4 * 8.5).epsilon(1e-3));
  CHECK(r.spinSteadiness == Approx(1.0));
  CHECK(r.swingReversals == 16);  // through the vertical at t = 2, 2.5, …, 9.5 s
  // From the least-squares line over 8.5 periods, which takes up a little of the sway.
  CHECK(r.lateralExcursion == Approx(1.0).epsilon(0.15));
  CHECK(r.longestRunTurns < kTumbleRunTurns);
  // The same body spinning 8 turns per swing is autorotating (the swing is a wobble of it).
  const PatternResult fast = classify(precessingFlutter(8.0, 0.04, 0.001 * kLength, kPi / 6, 8.0));
  INFO(fast.reason);
  CHECK(fast.pattern == FallPattern::kAutorotation);
}

TEST_CASE("A spin about the vertical that reverses or dies out is not autorotation",
          "[models][pattern]") {
  // 15 rev/s one way for 0.7 s, the other way for 0.3 s, …: after the transient (0.45 s)
  // 11.25 turns net (0.62 per fallen body length) of 38.25 spun (steadiness 0.29).
  const PatternResult back =
      classify(spinningSeed([](double t) { return std::fmod(t, 1.0) < 0.7 ? 15.0 : -15.0; }));
  INFO(back.reason);
  CHECK(back.spinTurns == Approx(11.25).epsilon(0.01));
  CHECK(back.spinSteadiness < kMinSpinSteadiness);
  CHECK(back.pattern == FallPattern::kSteadyDescent);
  // 15 rev/s until 1.2 s, then none: 11.25 turns, all in the first half of the window.
  const PatternResult dies = classify(spinningSeed([](double t) { return t < 1.2 ? 15.0 : 0.0; }));
  INFO(dies.reason);
  CHECK(std::abs(dies.spinTurns) == Approx(15.0 * (1.2 - 0.45)).epsilon(0.01));
  CHECK(dies.spinHalfShare < kMinSpinHalfShare);
  CHECK(dies.pattern == FallPattern::kSteadyDescent);
}

TEST_CASE("A straight fall with a wobble of 1e-4 body lengths is steady descent, not zigzag",
          "[models][pattern]") {
  const double wobble = 1e-4 * kLength;
  const auto com = [&](double amplitude) {
    return [=](double t) { return Vec3(amplitude * std::sin(2 * kPi * t), 3.0 - 1.0 * t, 0.0); };
  };
  SECTION("rocking ±15° as it falls") {
    const auto rock = [](double t) { return (kPi / 12) * std::sin(2 * kPi * t); };
    const PatternResult r = classify(make(5.0, 0.002, com(wobble), rock));
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kSteadyDescent);
    CHECK(r.tiltSignChanges >= 8);  // the tilt swings through the vertical …
    CHECK(r.lateralExcursion == Approx(1e-4).epsilon(0.15));  // … but the body does not sway
    CHECK_THAT(r.reason, Catch::Contains("falls straight"));
    // Swaying 5 % of its length, the same rocking is a zigzag.
    const PatternResult sway = classify(make(5.0, 0.002, com(0.05 * kLength), rock));
    INFO(sway.reason);
    CHECK(sway.pattern == FallPattern::kZigzag);
  }
  SECTION("a parachute: broad normal horizontal, round-off wobble of the attitude") {
    // The normal's line folds at ±90° of tilt, so a 1e-12 rad wobble flips the tilt's sign.
    const auto s =
        make(5.0, 0.002, com(wobble), [](double t) { return 1e-12 * std::sin(2 * kPi * 3.0 * t); });
    const PatternResult r = classifyFall(s, kUp, kLength, Vec3::UnitX());
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kSteadyDescent);
    CHECK(r.tiltAmplitude == Approx(kPi / 2));
    CHECK(r.tiltSignChanges >= 8);
  }
}

TEST_CASE("A body moving horizontally without falling travels (swims)", "[models][pattern]") {
  SECTION("a swimmer at 0.5 m/s, falling 1e-8 body lengths, its COM undulating") {
    const auto s = make(
        10.0, 0.005,
        [](double t) {
          return Vec3(0.5 * t, 1e-8 * kLength * std::sin(t), 0.01 * kLength * std::sin(8 * t));
        },
        [](double) { return kPi / 2; });
    const PatternResult r = classify(s);
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kHorizontalTravel);
    CHECK(r.horizontalSpeed == Approx(0.5).epsilon(1e-3));
    CHECK(r.horizontalTravel == Approx(0.5 * 8.5 / kLength).epsilon(1e-3));
    CHECK_THAT(r.reason, Catch::Contains("travels horizontally at 0.5 m/s"));
  }
  SECTION("rising or sinking as much as a body length is not a swimmer's level travel") {
    const auto s = make(
        10.0, 0.005, [](double t) { return Vec3(0.5 * t, 0.01 * t, 0.0); },
        [](double) { return 0.0; });
    const PatternResult r = classify(s);
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kUndetermined);
  }
  SECTION("neither falling nor travelling: undetermined") {
    const auto s = make(
        10.0, 0.005, [](double t) { return Vec3(0.2 * kLength * std::sin(t), 0.0, 0.0); },
        [](double) { return 0.0; });
    const PatternResult r = classify(s);
    INFO(r.reason);
    CHECK(r.pattern == FallPattern::kUndetermined);
    CHECK_THAT(r.reason, Catch::Contains("body lengths after the transient"));
  }
}
