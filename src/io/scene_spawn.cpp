#include "io/scene_spawn.h"

#include <algorithm>
#include <cmath>

#include "geometry/types.h"

namespace samara::io {
namespace {

std::uint64_t splitmix64(std::uint64_t* state) {
  std::uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/// xoshiro256** (Blackman and Vigna 2018), seeded by splitmix64.
class Xoshiro256 {
 public:
  explicit Xoshiro256(std::uint64_t seed) {
    for (std::uint64_t& w : s_) w = splitmix64(&seed);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform in [0, 1): the top 53 bits times 2⁻⁵³ (exact).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [lo, hi] (lo when lo == hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }

 private:
  std::uint64_t s_[4] = {};
};

/// A pair [lo, hi] of numbers > 0 with lo ≤ hi.
void readRange(const Node& n, double* lo, double* hi) {
  n.expectArray(2);
  *lo = n.item(0).positive();
  *hi = n.item(1).positive();
  if (*hi < *lo) throw n.item(1).error("must not be less than the first value");
}

/// An angle in [0, 180] degrees.
double readAngle(const Node& n) {
  const double a = n.nonNegative();
  if (a > 180.0) throw n.error("must be in [0, 180] degrees");
  return a;
}

}  // namespace

SpawnDef readSpawn(const Node& s) {
  s.expectObject({"count", "seed", "region", "yaw_deg", "tilt_deg", "scale", "mass_scatter"});
  SpawnDef def;
  def.count = s.at("count").integer(1, kMaxSpawnCount);
  if (s.has("seed")) def.seed = static_cast<std::uint64_t>(s.at("seed").integer(0, 2147483647));
  const Node region = s.at("region");
  region.expectObject({"min", "max"});
  def.regionMin = region.at("min").vec3();
  def.regionMax = region.at("max").vec3();
  const Node max = region.at("max");
  for (int d = 0; d < 3; ++d) {
    if (def.regionMax[d] < def.regionMin[d]) {
      throw max.item(static_cast<std::size_t>(d))
          .error("must not be less than /min's (" + formatNumber(def.regionMin[d]) + " m)");
    }
  }
  if (s.has("yaw_deg")) def.yawDeg = readAngle(s.at("yaw_deg"));
  if (s.has("tilt_deg")) def.tiltDeg = readAngle(s.at("tilt_deg"));
  if (s.has("scale")) readRange(s.at("scale"), &def.scaleMin, &def.scaleMax);
  if (s.has("mass_scatter")) {
    const Node m = s.at("mass_scatter");
    def.massScatter = m.nonNegative();
    if (def.massScatter > 0.9) throw m.error("must be in [0, 0.9] (a relative spread)");
  }
  return def;
}

SpawnDef readSpawnOf(const Node& b, const core::BodyDef& base, std::size_t bodiesSoFar,
                     int maxBodies) {
  const Node s = b.at("spawn");
  if (b.has("position")) {
    throw b.at("position").error("a spawned body is placed by \"spawn\"/\"region\"; remove it");
  }
  const SpawnDef spawn = readSpawn(s);
  if (base.animation && (spawn.scaleMin != 1.0 || spawn.scaleMax != 1.0)) {
    throw s.at("scale").error("a shape-changing body (\"animation\") cannot be scaled");
  }
  const std::size_t total = bodiesSoFar + static_cast<std::size_t>(spawn.count);
  if (total > static_cast<std::size_t>(maxBodies)) {
    throw s.at("count").error("the scene would have " + std::to_string(total) +
                              " bodies; the limit is " + std::to_string(maxBodies));
  }
  return spawn;
}

SpawnDraw spawnDraw(const SpawnDef& s, int index) {
  std::uint64_t mix = s.seed * 0x100000001b3ull + static_cast<std::uint64_t>(index);
  Xoshiro256 rng(splitmix64(&mix));
  SpawnDraw d;
  for (int k = 0; k < 3; ++k) d.position[k] = rng.uniform(s.regionMin[k], s.regionMax[k]);
  // Yaw about +y, then the body's up (+y) tilted to a direction uniform on the cap of half
  // angle tilt_deg: with both at 180 the rotation is uniform over all rotations.
  const double yaw = rng.uniform(-s.yawDeg, s.yawDeg) * kPi / 180.0;
  const double cosTilt = rng.uniform(std::cos(s.tiltDeg * kPi / 180.0), 1.0);
  const double azimuth = rng.uniform(0.0, 2.0 * kPi);
  const double tilt = std::acos(std::min(1.0, std::max(-1.0, cosTilt)));
  const Quat qYaw(std::cos(0.5 * yaw), 0.0, std::sin(0.5 * yaw), 0.0);
  const double st = std::sin(0.5 * tilt);
  const Quat qTilt(std::cos(0.5 * tilt), std::sin(azimuth) * st, 0.0, -std::cos(azimuth) * st);
  d.rotation = (qTilt * qYaw).normalized();
  d.scale = rng.uniform(s.scaleMin, s.scaleMax);
  d.massFactor = rng.uniform(1.0 - s.massScatter, 1.0 + s.massScatter);
  return d;
}

std::string spawnName(const std::string& name, int index, int count) {
  int digits = 3;
  for (int n = count - 1; n >= 1000; n /= 10) ++digits;
  std::string number = std::to_string(index);
  if (static_cast<int>(number.size()) < digits) {
    number.insert(0, static_cast<std::size_t>(digits) - number.size(), '0');
  }
  return name + "_" + number;
}

std::vector<core::BodyDef> spawnBodies(const core::BodyDef& base, const SpawnDef& s) {
  std::vector<core::BodyDef> out;
  out.reserve(static_cast<std::size_t>(s.count));
  for (int i = 0; i < s.count; ++i) {
    const SpawnDraw d = spawnDraw(s, i);
    core::BodyDef b = base;
    b.name = spawnName(base.name, i, s.count);
    b.position = d.position;
    b.orientation = (d.rotation * base.orientation).normalized();
    if (d.scale != 1.0) {
      b.mesh.V *= d.scale;
      for (core::PointMass& p : b.pointMasses) p.position *= d.scale;
      if (b.delta && *b.delta > 0.0) *b.delta *= d.scale;
    }
    if (d.massFactor != 1.0) {
      b.mass.density *= d.massFactor;
      b.mass.total *= d.massFactor;
      for (core::PointMass& p : b.pointMasses) p.mass *= d.massFactor;
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace samara::io
