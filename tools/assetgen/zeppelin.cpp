// The zeppelin (GwtF Fig. 13): hull, tail fins, nacelles, two propellers and a rudder.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "assetgen.h"
#include "builders.h"

namespace samara::assetgen {
namespace {

constexpr double kHullA = 1.5;     // half-length (x), m
constexpr double kHullB = 0.4;     // radius (y, z), m
constexpr double kFinTip = 0.75;   // distance of the fin and rudder tips from the axis, m
constexpr double kHingeX = -1.40;  // fins' trailing edge = rudder hinge line, m
constexpr double kPropX = -0.90;   // propeller disc, m
constexpr double kPropZ = 0.72;    // distance of the propeller axes from the hull axis, m
constexpr double kPropR = 0.30;    // propeller radius, m
constexpr double kPitch = 0.75;    // geometric pitch, m per revolution

double hullRadius(double x) {
  const double u = x / kHullA;
  return kHullB * std::sqrt(std::max(0.0, 1.0 - u * u));
}

/// The upper vertical fin: root along the hull from x = −0.95 (leading edge) to the hinge
/// line, tip chord from x = −1.15 to the hinge line at height kFinTip. In the plane z = 0.
geometry::TriMesh upperFin(int nu, int nv) {
  auto mid = [](double u, double v) -> Vec3 {
    const double xle = -0.95 + (-1.15 + 0.95) * v;
    const double x = xle + (kHingeX - xle) * u;
    const double y = (1.0 - v) * 0.97 * hullRadius(x) + v * kFinTip;
    return Vec3(x, y, 0.0);
  };
  auto thickness = [](double, double v) { return 0.02 * (1.0 - 0.5 * v); };
  return slab(mid, thickness, nu, nv);
}

/// The upper rudder slab: from the hinge line (leading edge) back 0.3 m, from the hull to
/// the fin tip height. In the plane z = 0.
geometry::TriMesh upperRudder(int nu, int nv) {
  const double root = 0.97 * hullRadius(kHingeX);
  auto mid = [=](double u, double v) -> Vec3 {
    return Vec3(kHingeX - 0.005 - 0.30 * u, root + (kFinTip - root) * v, 0.0);
  };
  auto thickness = [](double u, double) { return 0.018 * (1.0 - 0.5 * u); };
  return slab(mid, thickness, nu, nv);
}

/// The right propeller (+z side, spinning +Ω about +x): two twisted blades of constant
/// geometric pitch, blade 1 along +y. A blade element at radius r moves along
/// e_t = x̂ × e_r; its chord (trailing → leading edge) is cos θ e_t + sin θ x̂ with
/// tan θ = pitch / (2πr), so spinning pushes air to −x and the propeller to +x.
geometry::TriMesh rightPropeller(const Vec3& hub, int nu, int nv) {
  const double r0 = 0.045;
  auto mid = [=](double u, double v) -> Vec3 {
    const double r = r0 + (kPropR - r0) * u;
    const double theta = std::atan2(kPitch, 2.0 * std::numbers::pi * r);
    const double chord = 0.085 - 0.035 * u;
    const Vec3 er = Vec3::UnitY();
    const Vec3 et = Vec3::UnitX().cross(er);
    const Vec3 d = std::cos(theta) * et + std::sin(theta) * Vec3::UnitX();
    return hub + r * er + (v - 0.5) * chord * d;
  };
  auto thickness = [](double u, double) { return 0.010 - 0.005 * u; };
  geometry::TriMesh blade = slab(mid, thickness, nu, nv);
  geometry::TriMesh prop = blade;
  geometry::appendMesh(&prop, rotated(blade, hub, Vec3::UnitX(), std::numbers::pi));
  return prop;
}

/// A nacelle (closed ellipsoid of revolution along x) ahead of the right propeller, and the
/// pylon slab joining it to the hull.
geometry::TriMesh rightNacelle(double resolution) {
  const double x0 = kPropX + 0.04, x1 = -0.50, c = 0.5 * (x0 + x1), a = 0.5 * (x1 - x0);
  const auto [rings, segments] = loftCounts(resolution, 14, 6, 8, 4);
  geometry::TriMesh m = loftAlongX(x0, x1, 0.0, kPropZ, rings, segments, [&](double, Ring* r) {
    const double u = (r->x - c) / a;
    r->ryUp = r->ryDown = r->rz = 0.065 * std::sqrt(std::max(0.0, 1.0 - u * u));
  });
  auto mid = [](double u, double v) -> Vec3 {
    const double x = -0.58 - 0.18 * u;
    return Vec3(x, 0.0, (1.0 - v) * 0.97 * hullRadius(x) + v * (kPropZ - 0.04));
  };
  auto thickness = [](double, double) { return 0.02; };
  geometry::appendMesh(
      &m, slab(mid, thickness, scaledCount(4, resolution, 2), scaledCount(6, resolution, 2)));
  return m;
}

}  // namespace

ZeppelinModel makeZeppelin(double resolution) {
  ZeppelinModel z;
  ModelBuilder b("zeppelin",
                 "zeppelin flying +x (up +y, right +z): hull, fins, nacelles, propellers, rudder");
  {
    const auto [rings, segments] = loftCounts(resolution, 64, 12, 24, 6);
    std::vector<Ring> section;
    // Rings uniform in the ellipse's angle: x = −a cos θ, r = b sin θ.
    for (int i = 1; i < rings; ++i) {
      const double th = std::numbers::pi * i / rings;
      Ring r;
      r.x = -kHullA * std::cos(th);
      r.ryUp = r.ryDown = r.rz = kHullB * std::sin(th);
      section.push_back(r);
    }
    b.add("hull", loft(section, Vec3(-kHullA, 0, 0), Vec3(kHullA, 0, 0), segments));
  }
  {
    const geometry::TriMesh fin =
        upperFin(scaledCount(8, resolution, 3), scaledCount(8, resolution, 3));
    for (int k = 0; k < 4; ++k) {
      b.add("fins", rotated(fin, Vec3::Zero(), Vec3::UnitX(), 0.5 * std::numbers::pi * k));
    }
  }
  {
    const geometry::TriMesh n = rightNacelle(resolution);
    b.add("nacelles", mirrorZ(n));
    b.add("nacelles", n);
  }
  const Vec3 hubRight(kPropX, 0.0, kPropZ);
  const geometry::TriMesh prop =
      rightPropeller(hubRight, scaledCount(12, resolution, 4), scaledCount(4, resolution, 2));
  b.add("prop_left", mirrorZ(prop));
  b.add("prop_right", prop);
  {
    const geometry::TriMesh rudder =
        upperRudder(scaledCount(5, resolution, 2), scaledCount(8, resolution, 3));
    b.add("rudder", rudder);
    b.add("rudder", rotated(rudder, Vec3::Zero(), Vec3::UnitX(), std::numbers::pi));
  }
  z.model = b.finish();
  z.propRight = {hubRight, Vec3::UnitX()};
  z.propLeft = {Vec3(kPropX, 0.0, -kPropZ), Vec3::UnitX()};
  z.rudder = {Vec3(kHingeX - 0.005, 0.0, 0.0), Vec3::UnitY()};
  z.propPitch = kPitch;
  return z;
}

std::shared_ptr<core::RigidPartsAnimation> makeZeppelinAnimation(const ZeppelinModel& zeppelin,
                                                                 const ZeppelinControls& c) {
  auto anim = std::make_shared<core::RigidPartsAnimation>();
  anim->rest = zeppelin.model.mesh.V;
  constexpr int kKeys = 16;
  constexpr int kSpinKeys = 32;
  // Spin-up: angle Ω t + a(t) with a(t) = −Ω (t − ∫₀ᵗ s(τ/T) dτ), s the smoothstep, so the
  // spin rate is Ω s(t/T); a(t) = −Ω T / 2 for t ≥ T.
  core::ScalarTrack spinUp;
  if (c.propSpinUpTime > 0.0) {
    const double T = c.propSpinUpTime;
    // Linear: the spin rate starts at 0 (Catmull–Rom ends would not).
    spinUp = sampledTrack(
        T, kSpinKeys,
        [&](double x) {
          const double integral = T * (x * x * x - 0.5 * x * x * x * x);  // ∫₀ˣ (3y² − 2y³) dy · T
          return -c.propSpinRate * (T * x - integral);
        },
        /*loop=*/false, /*smooth=*/false);
  }
  auto prop = [&](const std::string& group, const Hinge& h, double rate) {
    core::RigidPart p = hingedPart(group, h, zeppelin.model.group(group).vertices);
    p.spinRate = rate;
    p.angle = spinUp;
    if (rate < 0.0) {
      for (double& v : p.angle.values) v = -v;
    }
    anim->parts.push_back(p);
  };
  prop("prop_right", zeppelin.propRight, c.propSpinRate);
  prop("prop_left", zeppelin.propLeft, -c.propSpinRate);
  core::RigidPart rudder =
      hingedPart("rudder", zeppelin.rudder, zeppelin.model.group("rudder").vertices);
  rudder.angle.loop = false;
  if (c.rudderRampTime > 0.0) {
    rudder.angle = sampledTrack(
        c.rudderRampTime, kKeys, [&](double x) { return c.rudderAngle * smoothstep(x); },
        /*loop=*/false, /*smooth=*/true);
  } else {
    rudder.angle.times = {0.0};
    rudder.angle.values = {c.rudderAngle};
  }
  anim->parts.push_back(rudder);
  return anim;
}

}  // namespace samara::assetgen
