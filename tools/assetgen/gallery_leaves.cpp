// Writes the leaves (meshes and three scenes) and the falling-plate scenes (issue 5).
#include "gallery_leaves.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gallery.h"
#include "writer_util.h"

namespace samara::assetgen {
namespace {

using nlohmann::ordered_json;

/// The scene's world-level keys from a WorldDef (fluid, floor, sim).
ordered_json worldJson(const core::WorldDef& w, const std::optional<core::GustDef>& gusts) {
  ordered_json s;
  s["name"] = w.name;
  s["gravity"] = jsonVec3(w.gravity);
  ordered_json fluid;
  fluid["density"] = r9(w.fluid.density);
  fluid["wind"] = jsonVec3(w.fluid.wind);
  if (gusts) {
    fluid["gusts"] = {{"amplitude", r9(gusts->amplitude)},
                      {"period", r9(gusts->period)},
                      {"length", r9(gusts->length)},
                      {"seed", gusts->seed}};
  }
  s["fluid"] = fluid;
  if (w.floor) {
    s["floor"] = {{"height", r9(w.floor->height)}, {"friction", r9(w.floor->friction)}};
  }
  s["sim"] = simJson(w);
  return s;
}

/// A body released with local added mass from the mesh (delta "auto").
ordered_json releasedBody(const core::BodyDef& b, const ordered_json& mesh) {
  ordered_json j;
  j["name"] = b.name;
  j["mesh"] = mesh;
  j["mass"] = densityThicknessJson(b.mass);
  j["position"] = jsonVec3(b.position);
  j["orientation"] = jsonQuat(b.orientation);
  j["delta"] = "auto";
  return j;
}

std::string leavesScene(const std::string& name, const std::vector<Model>& leaves, const Vec3& wind,
                        const std::optional<core::GustDef>& gusts, const std::string& comment) {
  core::WorldDef w = leavesWorld(leaves, wind, gusts);
  w.name = name;
  ordered_json s = worldJson(w, gusts);
  ordered_json bodies = ordered_json::array();
  for (size_t i = 0; i < leaves.size(); ++i) {
    bodies.push_back(releasedBody(w.bodies[i], "../meshes/" + leaves[i].name + ".obj"));
  }
  s["bodies"] = bodies;
  return sceneHeader("gallery_leaves.cpp") + comment + s.dump(2) + "\n";
}

std::string platesScene(const std::string& name, const PlateSweep& sweep,
                        const std::string& comment) {
  const core::WorldDef w = plateWorld(sweep, name);
  ordered_json s = worldJson(w, std::nullopt);
  ordered_json bodies = ordered_json::array();
  const int spanCells = std::max(1, static_cast<int>(std::lround(sweep.aspect * sweep.cells)));
  for (const core::BodyDef& b : w.bodies) {
    bodies.push_back(releasedBody(b, {{"primitive", "plate"},
                                      {"size", {r9(sweep.chord), r9(sweep.aspect * sweep.chord)}},
                                      {"segments", {sweep.cells, spanCells}}}));
  }
  s["bodies"] = bodies;
  return sceneHeader("gallery_leaves.cpp") + comment + s.dump(2) + "\n";
}

std::string sweepComment(const PlateSweep& sw, const char* fluid, const char* material) {
  std::string iStars;
  char num[32];
  for (double x : sw.iStars) {
    std::snprintf(num, sizeof num, "%g", x);
    iStars += (iStars.empty() ? "" : ", ") + std::string(num);
  }
  char buf[2400];
  std::snprintf(
      buf, sizeof buf,
      "// Falling thin plates in %s: square %g m plates of %s (%g kg/m^3),\n"
      "// one per dimensionless moment of inertia I* = rho_p t / (rho_f L) (strip form, Smith "
      "1971),\n// left to right along z: I* = %s.\n"
      "// Released at rest pitched %g deg. Regimes (samara run --classify): under the default\n"
      "// model samara (circulation, rotational lift and edge drag; README \"The default law\")\n"
      "// the plates flutter (zigzag) at I* = 0.01-0.5 in air and in water; the lightest\n"
      "// (0.005) swings too but falls too little in 12 s to be classified. Under pressure and\n"
      "// friction alone ({\"type\": \"samara\", \"ct\": 0, \"cr\": 0, \"cd0\": 0}) every plate in "
      "air\n"
      "// (Re 470-4 700) settles into a steady broadside descent and in water (Re 5 500-55 000)\n"
      "// they flutter up to I* = 0.04 and fall steadily from 0.05 (tests/gallery/\n"
      "// test_gallery_leaves.cpp). Under \"model\": \"gwtf-2024\" (no viscosity) both fluids\n"
      "// alike: fluttering at I* = 0.01-0.04, steady from 0.05, the lightest plate slipping\n"
      "// into a long edgewise glide. None of them tumbles below I* = 1 (README, \"Falling\n"
      "// plates: the regime map\").\n",
      fluid, sw.chord, material, sw.plateDensity, iStars.c_str(), sw.releaseDeg);
  return buf;
}

}  // namespace

bool writeGalleryLeaves(const std::filesystem::path& out) {
  const auto [meshes, scenes] = makeOutputDirs(out);
  bool ok = true;

  std::vector<Model> leaves;
  for (LeafShape shape : {LeafShape::kBeech, LeafShape::kMaple, LeafShape::kWillow}) {
    leaves.push_back(makeLeaf(shape, kShippedResolution));
    const Model& m = leaves.back();
    ok &= writeText(meshes / (m.name + ".obj"),
                    formatObj(m, leafObjHeader(m, "", "gallery_leaves_models.cpp")));
  }

  const char* const kLeafNote =
      "// Three leaves (beech-like oval, maple-like lobed, willow-like long) released at rest "
      "from 4 m,\n// tilted a little. Open cambered sheets (0.2 kg/m^2) with a thin closed "
      "stem; delta from the mesh.\n";
  ok &= writeText(scenes / "leaves_still.json",
                  leavesScene("leaves_still", leaves, Vec3::Zero(), std::nullopt,
                              std::string(kLeafNote) +
                                  "// Still air: they rock and side-slip as they fall at about "
                                  "1.2 m/s (3 m in 2.6-2.7 s; 0.78 s in a vacuum).\n"));
  ok &= writeText(scenes / "leaves_wind.json",
                  leavesScene("leaves_wind", leaves, Vec3(0.0, 0.0, 2.0), std::nullopt,
                              std::string(kLeafNote) +
                                  "// A 2 m/s wind along +z: they tip, swing and drift with it "
                                  "(more drift the stronger the wind).\n"));
  ok &= writeText(scenes / "leaves_gusts.json",
                  leavesScene("leaves_gusts", leaves, Vec3(0.0, 0.0, 2.0), leafGusts(),
                              std::string(kLeafNote) +
                                  "// A 2 m/s wind along +z with gusts (0.6 m/s RMS, period "
                                  "1.5 s, length 1 m, seed 7: a\n// deterministic sum of "
                                  "travelling shear waves, src/core/gusts.h).\n"));

  const PlateSweep air = airPlates();
  const PlateSweep water = waterPlates();
  ok &= writeText(scenes / "falling_plates_air.json",
                  platesScene("falling_plates_air", air,
                              sweepComment(air, "air (1.225 kg/m^3)", "paper/card")));
  ok &= writeText(scenes / "falling_plates_water.json",
                  platesScene("falling_plates_water", water,
                              sweepComment(water, "water (998 kg/m^3)", "aluminium")));
  return ok;
}

}  // namespace samara::assetgen
