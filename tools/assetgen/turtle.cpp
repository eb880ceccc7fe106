// The sea turtle (GwtF Fig. 1): shell, head, four flippers, and the flapping stroke.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "assetgen.h"
#include "builders.h"

namespace samara::assetgen {
namespace {

constexpr double kShellHalfLength = 0.40;  // m
constexpr double kShellHalfWidth = 0.30;   // m
constexpr double kShellDome = 0.11;        // carapace height above the rim, m
constexpr double kShellBelly = 0.07;       // plastron depth below the rim, m

/// Elliptic planform factor of the shell at x.
double shellFactor(double x) {
  const double u = x / kShellHalfLength;
  return std::sqrt(std::max(0.0, 1.0 - u * u));
}

/// A flipper on the right side (+z) as a closed slab: root at `root`, span `span` along the
/// unit direction `dir` (in the x–z plane), chord from `rootChord` to `tipChord` with the
/// span axis at 30 % chord from the leading edge (+x), maximum thickness `thick`.
geometry::TriMesh flipper(const Vec3& root, const Vec3& dir, double span, double rootChord,
                          double tipChord, double thick, int nu, int nv) {
  auto chord = [=](double u) { return tipChord + (rootChord - tipChord) * (1.0 - u * u); };
  auto mid = [=](double u, double v) -> Vec3 {
    // v = 0 trailing edge, v = 1 leading edge.
    return root + u * span * dir + Vec3::UnitX() * (chord(u) * (v - 0.7));
  };
  auto thickness = [=](double u, double v) {
    return thick * (1.0 - 0.6 * u) * (0.45 + 0.55 * std::sin(std::numbers::pi * v));
  };
  return slab(mid, thickness, nu, nv);
}

}  // namespace

TurtleModel makeTurtle(double resolution) {
  TurtleModel t;
  ModelBuilder b("turtle",
                 "sea turtle heading +x (up +y, right +z): shell, head, four flipper slabs");
  // Shell: a domed loft with an elliptic planform.
  {
    const auto [rings, segments] = loftCounts(resolution, 48, 12, 24, 6);
    b.add("shell", loftAlongX(-kShellHalfLength, kShellHalfLength, 0.0, 0.0, rings, segments,
                              [](double, Ring* r) {
                                const double f = shellFactor(r->x);
                                r->ryUp = kShellDome * f;
                                r->ryDown = kShellBelly * f;
                                r->rz = kShellHalfWidth * f;
                              }));
  }
  // Head: an ellipsoid in front, touching the shell's front tip.
  {
    const auto [rings, segments] = loftCounts(resolution, 16, 6, 8, 4);
    const double x0 = 0.37, x1 = 0.62, c = 0.5 * (x0 + x1), a = 0.5 * (x1 - x0);
    b.add("head", loftAlongX(x0, x1, 0.01, 0.0, rings, segments, [&](double, Ring* r) {
            const double u = (r->x - c) / a;
            const double f = std::sqrt(std::max(0.0, 1.0 - u * u));
            r->ryUp = r->ryDown = 0.06 * f;
            r->rz = 0.065 * f;
          }));
  }
  // Flippers: roots 1 cm outside the shell's rim, swept back.
  const int nu = scaledCount(16, resolution, 4);
  const int nv = scaledCount(6, resolution, 2);
  const double frontX = 0.17, rearX = -0.28;
  const Vec3 frontRoot(frontX, 0.0, kShellHalfWidth * shellFactor(frontX) + 0.01);
  const Vec3 rearRoot(rearX, 0.0, kShellHalfWidth * shellFactor(rearX) + 0.01);
  const double frontSweep = 20.0 * std::numbers::pi / 180.0;
  const double rearSweep = 45.0 * std::numbers::pi / 180.0;
  const Vec3 frontDir(-std::sin(frontSweep), 0.0, std::cos(frontSweep));
  const Vec3 rearDir(-std::sin(rearSweep), 0.0, std::cos(rearSweep));
  const geometry::TriMesh fr = flipper(frontRoot, frontDir, 0.42, 0.16, 0.06, 0.03, nu, nv);
  const geometry::TriMesh rr =
      flipper(rearRoot, rearDir, 0.17, 0.11, 0.05, 0.025, scaledCount(8, resolution, 3), nv);
  b.add("flipper_fl", mirrorZ(fr));
  b.add("flipper_fr", fr);
  b.add("flipper_rl", mirrorZ(rr));
  b.add("flipper_rr", rr);
  t.model = b.finish();

  const Vec3 mirror(1.0, 1.0, -1.0);
  t.shoulderRight = {frontRoot, Vec3::UnitX()};
  t.shoulderLeft = {frontRoot.cwiseProduct(mirror), Vec3::UnitX()};
  t.spanRight = {frontRoot, frontDir};
  t.spanLeft = {frontRoot.cwiseProduct(mirror), frontDir.cwiseProduct(mirror)};
  t.hipRight = {rearRoot, Vec3::UnitX()};
  t.hipLeft = {rearRoot.cwiseProduct(mirror), Vec3::UnitX()};
  t.rearSpanRight = {rearRoot, rearDir};
  t.rearSpanLeft = {rearRoot.cwiseProduct(mirror), rearDir.cwiseProduct(mirror)};
  return t;
}

std::shared_ptr<core::RigidPartsAnimation> makeTurtleStroke(const TurtleModel& turtle,
                                                            const TurtleStroke& stroke) {
  auto anim = std::make_shared<core::RigidPartsAnimation>();
  anim->rest = turtle.model.mesh.V;
  const double period = 1.0 / stroke.frequency;
  const double w = 2.0 * std::numbers::pi;
  auto track = [&](const std::function<double(double)>& f) {
    core::ScalarTrack tr = sampledTrack(period, stroke.keysPerStroke, f, /*loop=*/true,
                                        /*smooth=*/true);
    tr.values.back() = tr.values.front();
    return tr;
  };
  // Right side; the left side is its mirror image: mirrored axes, negated angles (a rotation
  // is an axial vector).
  const core::ScalarTrack flap =
      track([&](double x) { return stroke.flapAmplitude * std::sin(w * x); });
  const core::ScalarTrack feather = track([&](double x) {
    return stroke.featherBias - stroke.featherAmplitude * std::cos(w * x + stroke.featherLead);
  });
  const core::ScalarTrack rearFlap =
      track([&](double x) { return stroke.rearAmplitude * std::sin(w * x); });
  const core::ScalarTrack rearPitch = track([&](double) { return stroke.rearTrim; });
  auto negated = [](core::ScalarTrack tr) {
    for (double& v : tr.values) v = -v;
    return tr;
  };
  // A flipper: a vertex-less flap part about the hinge and a child that pitches the
  // flipper's vertices about its span axis.
  auto addFlipper = [&](const std::string& group, const Hinge& hinge, const Hinge& span,
                        const core::ScalarTrack& flapTrack, const core::ScalarTrack& pitchTrack,
                        bool left) {
    core::RigidPart flapPart = hingedPart(group + "/flap", hinge);
    flapPart.angle = left ? negated(flapTrack) : flapTrack;
    anim->parts.push_back(flapPart);
    core::RigidPart pitchPart =
        hingedPart(group + "/pitch", span, turtle.model.group(group).vertices);
    pitchPart.angle = left ? negated(pitchTrack) : pitchTrack;
    pitchPart.parent = static_cast<int>(anim->parts.size()) - 1;
    anim->parts.push_back(pitchPart);
  };
  addFlipper("flipper_fr", turtle.shoulderRight, turtle.spanRight, flap, feather, false);
  addFlipper("flipper_fl", turtle.shoulderLeft, turtle.spanLeft, flap, feather, true);
  if (stroke.rearAmplitude != 0.0 || stroke.rearTrim != 0.0) {
    addFlipper("flipper_rr", turtle.hipRight, turtle.rearSpanRight, rearFlap, rearPitch, false);
    addFlipper("flipper_rl", turtle.hipLeft, turtle.rearSpanLeft, rearFlap, rearPitch, true);
  }
  return anim;
}

}  // namespace samara::assetgen
