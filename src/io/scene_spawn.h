#pragma once
// The "spawn" generator of a scene body (README, "Scene files"): N copies of one body
// definition with seeded random positions in a box, orientations, sizes and masses. Internal
// to the scene reader (io/scene.cpp); the random numbers are our own (splitmix64 seeding a
// xoshiro256** stream per copy, doubles from the top 53 bits), so a scene gives the same
// bodies on every platform and standard library.
#include <cstdint>
#include <string>
#include <vector>

#include "core/body.h"
#include "io/json_util.h"

namespace samara::io {

/// Copies a spawned entry may make (each is a body; SceneLimits::maxBodies bounds the total).
constexpr int kMaxSpawnCount = 100'000;

/// A body's "spawn" object, checked.
struct SpawnDef {
  int count = 1;                  ///< copies, 1 … kMaxSpawnCount; required
  std::uint64_t seed = 0;         ///< 0 … 2³¹ − 1; default 0
  Vec3 regionMin = Vec3::Zero();  ///< box of body origins, world, m; required
  Vec3 regionMax = Vec3::Zero();  ///< ≥ regionMin component-wise, m; required
  double yawDeg = 180.0;          ///< yaw about world +y uniform in ±yawDeg; default 180
  double tiltDeg = 180.0;         ///< body up tilted within a cone of tiltDeg; default 180
  double scaleMin = 1.0;          ///< uniform size factor range, > 0; default [1, 1]
  double scaleMax = 1.0;          ///< ≥ scaleMin
  double massScatter = 0.0;       ///< masses × uniform [1 − r, 1 + r], r in [0, 0.9]; 0
};

/// Reads and checks a "spawn" object (errors name /bodies/K/spawn/FIELD).
SpawnDef readSpawn(const Node& s);

/// The "spawn" of body entry `b` whose definition is `base`, checked against the rest of the
/// entry: no "position" (the region places the copies), no scale for a shape-changing body,
/// at most `maxBodies` bodies with the `bodiesSoFar` before it.
SpawnDef readSpawnOf(const Node& b, const core::BodyDef& base, std::size_t bodiesSoFar,
                     int maxBodies);

/// One copy's random draws, a function of (seed, index) only: the first N copies of a
/// larger count are the same bodies.
struct SpawnDraw {
  Vec3 position = Vec3::Zero();      ///< body origin, world, m
  Quat rotation = Quat::Identity();  ///< applied on top of the entry's "orientation"
  double scale = 1.0;
  double massFactor = 1.0;
};
SpawnDraw spawnDraw(const SpawnDef& s, int index);

/// The copies of `base` (whose position is ignored): names NAME_000, NAME_001, … (at least
/// three digits, more when count > 1000), meshes and point-mass positions scaled about the
/// body origin, a numeric δ scaled, masses (density or total, and every point mass)
/// multiplied by the mass factor. Shape-changing bodies cannot be scaled (checked by the
/// reader).
std::vector<core::BodyDef> spawnBodies(const core::BodyDef& base, const SpawnDef& s);

/// The name of copy `index` of `count` copies of `name`.
std::string spawnName(const std::string& name, int index, int count);

}  // namespace samara::io
