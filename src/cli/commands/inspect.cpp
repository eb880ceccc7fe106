// `samara inspect SCENE`: mass, volume, area, delta and the 6x6 tensors of every body.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands/command_list.h"
#include "core/fluid_model.h"
#include "core/world.h"
#include "io/scene.h"
#include "io/text_format.h"

namespace samara::cli {

const char* const kInspectHelp =
    "usage: samara inspect SCENE [--json] [--set PATH=VALUE]...\n"
    "\n"
    "Prints per body: faces, mass (kg), centre of mass (body frame, m), volume of the closed\n"
    "parts (m^3), one-sided area (m^2), delta (m), and the 6x6 body inertia, added mass and\n"
    "Kirchhoff tensors (body frame, about the body origin, order (omega, v)), at the initial\n"
    "pose.\n"
    "\n"
    "options:\n"
    "  --json              JSON: {\"bodies\":[{\"name\",\"model\",\"faces\",\"mass\",\"com\",\n"
    "                      \"volume\",\n"
    "                      \"area\",\"delta\",\"body_inertia\",\"added_mass\",\"kirchhoff\"}]},\n"
    "                      matrices as arrays of 6 rows\n"
    "  --set PATH=VALUE    as for run. Repeatable.\n"
    "  -h, --help          this help\n";

namespace {

void printMatrix(std::ostream& out, const char* title, const Mat6& m) {
  out << "  " << title << ":\n";
  for (int r = 0; r < 6; ++r) {
    out << "   ";
    for (int c = 0; c < 6; ++c) out << io::printfText(" %12.5g", m(r, c));
    out << "\n";
  }
}

nlohmann::ordered_json matrixJson(const Mat6& m) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (int r = 0; r < 6; ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (int c = 0; c < 6; ++c) row.push_back(m(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

int inspectCommand(const std::vector<std::string>& args, std::ostream& out) {
  io::SetList sets;
  bool json = false;
  ArgScanner scan("inspect", args);
  while (scan.next()) {
    if (scan.name() == "--set") {
      sets.push_back(scan.setValue());
    } else if (scan.name() == "--json") {
      scan.flag();
      json = true;
    } else {
      scan.unknown();
    }
  }
  if (scan.help()) {
    out << kInspectHelp;
    return kExitOk;
  }
  const std::string scene = scan.onePositional("SCENE");
  core::WorldDef def = io::loadScene(scene, sets);
  const std::string sceneName = def.name;
  const core::World world = io::makeWorld(std::move(def), scene);
  const int n = world.numBodies();
  if (json) {
    nlohmann::ordered_json bodies = nlohmann::ordered_json::array();
    for (int i = 0; i < n; ++i) {
      const core::BodyInfo info = world.info(i);
      nlohmann::ordered_json b;
      b["name"] = world.bodyDef(i).name;
      b["model"] = core::fluidModelName(world.bodyDef(i));
      b["faces"] = info.faces;
      b["mass"] = info.mass;
      b["com"] = {info.com.x(), info.com.y(), info.com.z()};
      b["volume"] = info.volume;
      b["area"] = info.area;
      b["delta"] = info.delta;
      b["body_inertia"] = matrixJson(info.bodyInertia);
      b["added_mass"] = matrixJson(info.addedMass);
      b["kirchhoff"] = matrixJson(info.kirchhoff);
      bodies.push_back(std::move(b));
    }
    nlohmann::ordered_json doc;
    doc["bodies"] = std::move(bodies);
    out << doc.dump(2) << "\n";
    return kExitOk;
  }
  out << "scene " << sceneName << " (" << scene << "): " << n << (n == 1 ? " body" : " bodies")
      << "; tensors in the body frame, about the body origin, order (omega, v)\n";
  for (int i = 0; i < n; ++i) {
    const core::BodyInfo info = world.info(i);
    out << "\nbody " << world.bodyDef(i).name << "\n";
    out << "  model         " << core::fluidModelName(world.bodyDef(i)) << "\n";
    out << "  faces         " << info.faces << "\n";
    out << "  mass          " << io::printfText("%.6g", info.mass) << " kg\n";
    out << "  com           " << io::vecText(info.com) << " m (body frame)\n";
    out << "  volume        " << io::printfText("%.6g", info.volume) << " m^3 (closed parts)\n";
    out << "  area          " << io::printfText("%.6g", info.area) << " m^2 (one side)\n";
    out << "  delta         " << io::printfText("%.6g", info.delta) << " m\n";
    printMatrix(out, "body inertia (kg m^2 | kg m | kg)", info.bodyInertia);
    printMatrix(out, "added mass", info.addedMass);
    printMatrix(out, "Kirchhoff tensor (body inertia + added mass)", info.kirchhoff);
  }
  return kExitOk;
}
}  // namespace samara::cli
