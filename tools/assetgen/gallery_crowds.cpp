// Writes the crowd scenes (issue 17): leaf_storm (three species of leaf, a few hundred each,
// from low-poly leaf meshes) and maple_rain (a few hundred maple seeds), each species one
// body entry with a "spawn" generator (README, "Scene files").
#include "gallery_crowds.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "gallery.h"
#include "gallery_flyers.h"
#include "gallery_leaves.h"
#include "writer_util.h"

namespace samara::assetgen {
namespace {

using nlohmann::ordered_json;

ordered_json region(const Vec3& lo, const Vec3& hi) {
  return {{"min", jsonVec3(lo)}, {"max", jsonVec3(hi)}};
}

std::string leafStormScene(const std::vector<Model>& leaves) {
  const core::GustDef g = stormGusts();
  ordered_json s;
  s["name"] = "leaf_storm";
  s["gravity"] = {0.0, -9.81, 0.0};
  s["fluid"] = {{"density", 1.225},
                {"wind", jsonVec3(kStormWind)},
                {"gusts",
                 {{"amplitude", r9(g.amplitude)},
                  {"period", r9(g.period)},
                  {"length", r9(g.length)},
                  {"seed", g.seed},
                  {"sampling", "quadratic"}}}};
  s["floor"] = {{"height", 0.0}, {"friction", 0.5}};
  s["sim"] = {{"dt", kStormDt}, {"duration", kStormDuration}};
  ordered_json bodies = ordered_json::array();
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    ordered_json j;
    j["name"] = leaves[i].name.substr(0, leaves[i].name.rfind('_'));  // leaf_beech
    j["mesh"] = "../meshes/" + leaves[i].name + ".obj";
    j["mass"] = {{"density", kLeafDensity}, {"thickness", kLeafThickness}};
    j["delta"] = "auto";
    j["spawn"] = {{"count", kStormLeavesPerSpecies},
                  {"seed", static_cast<int>(i) + 1},
                  {"region", region(kStormRegionMin, kStormRegionMax)},
                  {"yaw_deg", 180},
                  {"tilt_deg", 60},
                  {"scale", {0.8, 1.2}},
                  {"mass_scatter", 0.15}};
    bodies.push_back(j);
  }
  s["bodies"] = bodies;
  int minFaces = leaves[0].mesh.numFaces(), maxFaces = minFaces;
  for (const Model& m : leaves) {
    minFaces = std::min(minFaces, m.mesh.numFaces());
    maxFaces = std::max(maxFaces, m.mesh.numFaces());
  }
  char comment[1200];
  std::snprintf(
      comment, sizeof comment,
      "// A tree shedding its leaves in a gusty wind: %d leaves, %d each of beech, maple and\n"
      "// willow (low-poly versions of the gallery's leaves, %d-%d faces), released at rest from\n"
      "// a 6 m x 6 m x 4 m volume 3-9 m up, tilted up to 60 deg and turned at random, sizes\n"
      "// 0.8-1.2 and masses +-15 %% scattered (one \"spawn\" entry per species). A %.0f m/s wind\n"
      "// along +z with gusts (%.1f m/s RMS, period %.1f s, length %.0f m, seed %llu), each leaf\n"
      "// sampling them to second order about its centre (\"sampling\": \"quadratic\": under 1 %%\n"
      "// of the gust speed off the exact waves at a leaf's tips; \"faces\" evaluates every wave "
      "at\n"
      "// every face). Measured (samara run --classify, %.0f s): they tumble and flutter down "
      "(485\n"
      "// chaotic, 25 zigzag) at 1.12 m/s on average, drifting at 97 %% of the wind (10.7 m by\n"
      "// landing, 3.0-20.8 m); 504 are on the floor by 10 s (median 5.4 s). With every face\n"
      "// sampled: 486 and 24, 1.11 m/s, 10.8 m (3.0-22.4 m), 506 (median 5.35 s). Twice the\n"
      "// leaves: --set bodies.0.spawn.count=340 and the same for bodies.1 and bodies.2.\n",
      3 * kStormLeavesPerSpecies, kStormLeavesPerSpecies, minFaces, maxFaces, kStormWind.z(),
      g.amplitude, g.period, g.length, static_cast<unsigned long long>(g.seed), kStormDuration);
  return sceneHeader("gallery_crowds.cpp") + comment + s.dump(2) + "\n";
}

std::string mapleRainScene() {
  const MapleSeed seed = makeMapleSeed();
  const core::BodyDef body =
      mapleSeedBody(seed, Vec3::Zero(), Quat(Eigen::AngleAxisd(kMapleSeedTilt, Vec3::UnitZ())));
  ordered_json s;
  s["name"] = "maple_rain";
  s["gravity"] = {0.0, -9.81, 0.0};
  s["fluid"] = {{"density", 1.225}, {"wind", jsonVec3(kRainWind)}};
  s["floor"] = {{"height", 0.0}, {"friction", 0.5}};
  s["sim"] = {{"dt", kMapleSeedDt}, {"duration", kRainDuration}};
  ordered_json j;
  j["name"] = "maple_seed";
  j["mesh"] = "../meshes/maple_seed.obj";
  j["mass"] = densityThicknessJson(body.mass);
  j["point_masses"] = pointMassesJson(body.pointMasses);
  j["orientation"] = jsonQuat(body.orientation);
  j["delta"] = "auto";
  j["spawn"] = {
      {"count", kRainSeeds}, {"seed", 5},      {"region", region(kRainRegionMin, kRainRegionMax)},
      {"yaw_deg", 180},      {"tilt_deg", 15}, {"scale", {0.95, 1.05}},
      {"mass_scatter", 0.05}};
  s["bodies"] = ordered_json::array({j});
  char comment[1000];
  std::snprintf(
      comment, sizeof comment,
      "// A maple tree letting go of its seeds: %d seeds of maple_seed.json (the same mesh\n"
      "// and mass: nut, membrane and leading-edge vein), released at rest from a 4 m x\n"
      "// 4 m x 6 m volume 6-12 m up with their wing tips raised 17 deg and tilted up to\n"
      "// 15 deg more, turned at random, sizes 0.95-1.05 and masses +-5 %% scattered, in a\n"
      "// %.1f m/s breeze along +x. Measured (samara run --classify, first 4 s): 189\n"
      "// autorotate, descending at 1.11-1.21 m/s (mean 1.15 m/s, as maple_seed.json) and\n"
      "// spinning at 13.9 rev/s on average, up to 15 rev/s; 11 still flutter, and one dives\n"
      "// to the floor within 3 s without turning over.\n",
      kRainSeeds, kRainWind.x());
  return sceneHeader("gallery_crowds.cpp") + comment + s.dump(2) + "\n";
}

}  // namespace

bool writeGalleryCrowds(const std::filesystem::path& out) {
  const auto [meshes, scenes] = makeOutputDirs(out);
  bool ok = true;
  std::vector<Model> leaves;
  const std::pair<LeafShape, double> kinds[] = {{LeafShape::kBeech, kCrowdResolutionBeech},
                                                {LeafShape::kMaple, kCrowdResolutionMaple},
                                                {LeafShape::kWillow, kCrowdResolutionWillow}};
  for (const auto& [shape, resolution] : kinds) {
    leaves.push_back(makeLeaf(shape, resolution));
    Model& m = leaves.back();
    m.name = leafName(shape) + "_lowpoly";
    ok &=
        writeText(meshes / (m.name + ".obj"),
                  formatObj(m, leafObjHeader(m, " (low-poly, for crowds)", "gallery_crowds.cpp")));
  }
  ok &= writeText(scenes / "leaf_storm.json", leafStormScene(leaves));
  ok &= writeText(scenes / "maple_rain.json", mapleRainScene());
  return ok;
}

}  // namespace samara::assetgen
