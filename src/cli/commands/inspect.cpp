// `samara inspect SCENE`: mass, volume, area, delta and the 6x6 tensors of every body.
#include <Eigen/Eigenvalues>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
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
    "usage: samara inspect SCENE [--json] [--added-mass exact] [--set PATH=VALUE]...\n"
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
    "  --added-mass exact  also solve the exact (potential-flow) added mass of every rigid\n"
    "                      body of a local-face model (cached on disk) and print both\n"
    "                      tensors, their eigenvalues and the ratio local/exact of each\n"
    "                      diagonal entry (JSON: \"added_mass_local\", \"added_mass_exact\",\n"
    "                      \"eigenvalues_local\", \"eigenvalues_exact\", \"ratio\")\n"
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

/// The local and the exact added mass of one body, side by side.
struct Comparison {
  Mat6 local = Mat6::Zero();
  Mat6 exact = Mat6::Zero();
  Vec6 eigLocal = Vec6::Zero();
  Vec6 eigExact = Vec6::Zero();
  Vec6 ratio = Vec6::Zero();  ///< local/exact per diagonal entry (NaN where exact is 0)
};

Vec6 eigenvalues(const Mat6& m) {
  return Eigen::SelfAdjointEigenSolver<Mat6>(0.5 * (m + m.transpose())).eigenvalues();
}

/// Per body: nullopt where "exact" does not apply (shape-changing or a peer model).
std::vector<std::optional<Comparison>> compareAddedMass(const core::WorldDef& def,
                                                        const std::string& scene) {
  core::WorldDef local = def;
  core::WorldDef exact = def;
  std::vector<bool> eligible(def.bodies.size(), false);
  for (std::size_t i = 0; i < def.bodies.size(); ++i) {
    const core::BodyDef& b = def.bodies[i];
    eligible[i] = !b.animation && b.model && b.model->localFaces() && !b.model->firstOrder();
    if (!eligible[i]) continue;
    if (b.addedMass == core::AddedMassSource::kExact) {
      local.bodies[i].addedMass = core::AddedMassSource::kModel;
    }
    exact.bodies[i].addedMass = core::AddedMassSource::kExact;
  }
  const core::World wl = io::makeWorld(std::move(local), scene);
  const core::World we = io::makeWorld(std::move(exact), scene);
  std::vector<std::optional<Comparison>> out(def.bodies.size());
  for (std::size_t i = 0; i < def.bodies.size(); ++i) {
    if (!eligible[i]) continue;
    Comparison c;
    c.local = wl.info(static_cast<int>(i)).addedMass;
    c.exact = we.info(static_cast<int>(i)).addedMass;
    c.eigLocal = eigenvalues(c.local);
    c.eigExact = eigenvalues(c.exact);
    // An entry the exact tensor has (next to) none of, e.g. a sphere's rotation, has no
    // ratio.
    const double floor = 1e-9 * c.exact.diagonal().cwiseAbs().maxCoeff();
    for (int k = 0; k < 6; ++k) {
      c.ratio(k) = std::abs(c.exact(k, k)) > floor ? c.local(k, k) / c.exact(k, k)
                                                   : std::numeric_limits<double>::quiet_NaN();
    }
    out[i] = c;
  }
  return out;
}

nlohmann::ordered_json vecJson(const Vec6& v) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (int k = 0; k < 6; ++k) {
    if (std::isfinite(v(k))) {
      a.push_back(v(k));
    } else {
      a.push_back(nullptr);
    }
  }
  return a;
}

void printComparison(std::ostream& out, const Comparison& c) {
  printMatrix(out, "added mass, local (the model's estimate)", c.local);
  printMatrix(out, "added mass, exact (potential flow)", c.exact);
  out << "  eigenvalues local  ";
  for (int k = 0; k < 6; ++k) out << io::printfText(" %12.5g", c.eigLocal(k));
  out << "\n  eigenvalues exact  ";
  for (int k = 0; k < 6; ++k) out << io::printfText(" %12.5g", c.eigExact(k));
  out << "\n  ratio local/exact   (wx, wy, wz, vx, vy, vz)";
  for (int k = 0; k < 6; ++k) {
    out << (std::isfinite(c.ratio(k)) ? io::printfText(" %.3g", c.ratio(k)) : std::string(" n/a"));
  }
  out << "\n";
}

}  // namespace

int inspectCommand(const std::vector<std::string>& args, std::ostream& out) {
  io::SetList sets;
  bool json = false;
  bool compare = false;
  ArgScanner scan("inspect", args);
  while (scan.next()) {
    if (scan.name() == "--set") {
      sets.push_back(scan.setValue());
    } else if (scan.name() == "--added-mass") {
      const std::string v = scan.value();
      if (v != "exact")
        throw UsageError{"inspect: --added-mass takes \"exact\" (got \"" + v + "\")"};
      compare = true;
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
  std::vector<std::optional<Comparison>> comparison;
  if (compare) comparison = compareAddedMass(def, scene);
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
      if (compare && comparison[static_cast<size_t>(i)]) {
        const Comparison& c = *comparison[static_cast<size_t>(i)];
        b["added_mass_local"] = matrixJson(c.local);
        b["added_mass_exact"] = matrixJson(c.exact);
        b["eigenvalues_local"] = vecJson(c.eigLocal);
        b["eigenvalues_exact"] = vecJson(c.eigExact);
        b["ratio"] = vecJson(c.ratio);
      }
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
    if (compare) {
      if (comparison[static_cast<size_t>(i)]) {
        printComparison(out, *comparison[static_cast<size_t>(i)]);
      } else {
        out << "  exact added mass: not for this body (shape-changing, or its model brings its "
               "own added mass)\n";
      }
    }
  }
  return kExitOk;
}
}  // namespace samara::cli
