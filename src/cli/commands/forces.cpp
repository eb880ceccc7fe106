#include <cstdio>
#include <optional>
#include <utility>

#include "cli/cli_util.h"
#include "cli/commands/command_list.h"
#include "core/world.h"
#include "io/atomic_file.h"
#include "io/csv.h"
#include "io/output_folders.h"
#include "io/scene.h"
#include "io/states_csv.h"
#include "io/text_format.h"

namespace samara::cli {

const char* const kForcesHelp =
    "usage: samara forces SCENE --states STATES.csv [--out FILE] [--set PATH=VALUE]...\n"
    "\n"
    "For each row of STATES.csv, the fluid force and torque on that body under its model\n"
    "(\"model\" in the scene: samara, gwtf-2024, vacuum, mujoco-inertia, mujoco-ellipsoid,\n"
    "xie-miyata, gross-dissipative, gross-inertial).\n"
    "STATES.csv has a header; required columns\n"
    "  body,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n"
    "(body name or index; orientation body -> world; world COM velocity, m/s; world\n"
    "angular velocity, rad/s) and optional x,y,z (world COM, m; default the scene's\n"
    "initial COM), windx,windy,windz (m/s; default the scene's wind, no gusts), t (s).\n"
    "Output: CSV with the header\n"
    "  line,body,model,fx,fy,fz,tx,ty,tz\n"
    "world frame, N and N*m, torque about the centre of mass, %.17g. The wrench is the\n"
    "velocity-dependent part: GwtF lift and drag, or the peer model's whole fluid wrench\n"
    "(MuJoCo's includes its added-mass velocity terms); gravity, buoyancy and the\n"
    "added-mass inertia are not in it. gross-dissipative gives its Rayleigh force\n"
    "-sum B_j (v_j - wind), gross-inertial none.\n"
    "\n"
    "options:\n"
    "  --states FILE       the states (required)\n"
    "  -o, --out FILE      write the CSV to FILE (atomically; missing folders are made)\n"
    "                      instead of stdout; --out - is stdout\n"
    "  --set PATH=VALUE    as for run. Repeatable.\n"
    "  -h, --help          this help\n";

namespace {

int findBody(const core::World& world, const io::StateRow& row, const std::string& path) {
  for (int i = 0; i < world.numBodies(); ++i) {
    if (world.bodyDef(i).name == row.body) return i;
  }
  char* end = nullptr;
  const long k = std::strtol(row.body.c_str(), &end, 10);
  if (*end == '\0' && k >= 0 && k < world.numBodies()) return static_cast<int>(k);
  std::string names;
  for (int i = 0; i < world.numBodies(); ++i) {
    names += (i ? ", " : "") + world.bodyDef(i).name;
  }
  throw io::Error::atLine(path, row.line,
                          "no body \"" + row.body + "\" in the scene (bodies: " + names +
                              "; or an index 0.." + std::to_string(world.numBodies() - 1) + ")");
}

void number(std::string* s, double x) {
  *s += ',';
  *s += io::roundTripText(x);
}

}  // namespace

int forcesCommand(const std::vector<std::string>& args, std::ostream& out) {
  std::optional<std::string> states, outPath;
  io::SetList sets;
  ArgScanner scan("forces", args);
  while (scan.next()) {
    const std::string& name = scan.name();
    if (name == "--states") {
      states = scan.value();
    } else if (name == "--out") {
      outPath = scan.value();
      if (outPath->empty()) throw UsageError{"forces: --out needs a file name"};
    } else if (name == "--set") {
      sets.push_back(scan.setValue());
    } else {
      scan.unknown();
    }
  }
  if (scan.help()) {
    out << kForcesHelp;
    return kExitOk;
  }
  const std::string scene = scan.onePositional("SCENE");
  if (!states) throw UsageError{"forces: missing --states FILE (see samara help forces)"};

  core::WorldDef def = io::loadScene(scene, sets);
  const core::World world = io::makeWorld(std::move(def), scene);
  const bool toFile = outPath && !io::isStandardOutput(*outPath);
  io::OutputFolders folders;  // removed again if the states cannot be used
  if (toFile) folders.createFor({*outPath});
  const std::vector<io::StateRow> rows = io::readStatesCsv(*states);
  std::string text = "line,body,model,fx,fy,fz,tx,ty,tz\n";
  for (const io::StateRow& row : rows) {
    const int b = findBody(world, row, *states);
    core::FluidWrenchQuery q;
    q.q = row.q;
    q.com = row.com;
    q.velocity = row.velocity;
    q.omega = row.omega;
    q.wind = row.wind;
    q.t = row.t;
    const core::FluidWrench w = world.fluidWrench(b, q);
    if (!w.force.allFinite() || !w.torque.allFinite()) {
      throw io::Error::atLine(*states, row.line, "the model gives a non-finite wrench here");
    }
    text += std::to_string(row.line) + "," + io::csvField(world.bodyDef(b).name) + "," +
            core::fluidModelName(world.bodyDef(b));
    for (int k = 0; k < 3; ++k) number(&text, w.force[k]);
    for (int k = 0; k < 3; ++k) number(&text, w.torque[k]);
    text += "\n";
  }
  if (toFile) {
    io::writeFileAtomically(*outPath, text);
    folders.keep();
  } else {
    out << text;
  }
  return kExitOk;
}

}  // namespace samara::cli
