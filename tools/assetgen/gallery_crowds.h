#pragma once
// Crowd scenes (issue 17): the numbers of the shipped leaf_storm and maple_rain scenes
// (gallery_crowds.cpp writes them; tests read them back from the files).
#include "core/gusts.h"
#include "geometry/types.h"

namespace samara::assetgen {

/// Resolutions of the low-poly leaves of leaf_storm (assets/meshes/leaf_*_lowpoly.obj): the
/// fewest faces at or above 200 per leaf (the gallery's leaves, kShippedResolution, have
/// 923-1508).
inline constexpr double kCrowdResolutionBeech = 0.35;
inline constexpr double kCrowdResolutionMaple = 0.3;
inline constexpr double kCrowdResolutionWillow = 0.3;

// --- leaf_storm -----------------------------------------------------------------------------
inline constexpr int kStormLeavesPerSpecies = 170;   ///< beech, maple and willow: 510 leaves
inline const Vec3 kStormRegionMin(-3.0, 3.0, -2.0);  ///< release volume, m
inline const Vec3 kStormRegionMax(3.0, 9.0, 2.0);    ///< release volume, m
inline const Vec3 kStormWind(0.0, 0.0, 2.0);         ///< m/s
inline constexpr double kStormDt = 0.002;            ///< s
inline constexpr double kStormDuration = 10.0;       ///< s
/// The storm's gusts: 1 m/s RMS, period 1.5 s, length 2 m, seed 11, each leaf sampling them
/// to second order about its centre (GustSampling::kQuadratic: a leaf's k r ≤ 0.4 here).
inline core::GustDef stormGusts() {
  core::GustDef g;
  g.amplitude = 1.0;
  g.period = 1.5;
  g.length = 2.0;
  g.seed = 11;
  g.sampling = core::GustSampling::kQuadratic;
  return g;
}

// --- maple_rain -----------------------------------------------------------------------------
inline constexpr int kRainSeeds = 200;
inline const Vec3 kRainRegionMin(-2.0, 6.0, -2.0);  ///< release volume (body origins), m
inline const Vec3 kRainRegionMax(2.0, 12.0, 2.0);   ///< release volume (body origins), m
inline const Vec3 kRainWind(0.5, 0.0, 0.0);         ///< m/s
inline constexpr double kRainDuration = 12.0;       ///< s

}  // namespace samara::assetgen
