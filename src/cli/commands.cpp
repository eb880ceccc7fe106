#include "cli/commands.h"

#if defined(SAMARA_HAVE_VIEWER)
#include "app/viewer.h"
#endif

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli_util.h"
#include "cli/export.h"
#include "cli/forces.h"
#include "cli/run_util.h"
#include "cli/sweep.h"
#include "core/world.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/scene.h"
#include "analysis/pattern.h"

#ifndef SAMARA_VERSION
#define SAMARA_VERSION "unknown"
#endif

namespace samara::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t gInterrupted = 0;

extern "C" void onInterrupt(int sig) {
  gInterrupted = 1;
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

// --- help texts ----------------------------------------------------------------------------

const char* const kMainHelp =
    "samara " SAMARA_VERSION
    " - light bodies in air and water (Going with the Flow, Soliman et al. 2024)\n"
    "\n"
    "usage: samara <command> [options]\n"
    "\n"
    "commands:\n"
    "  run SCENE        simulate a scene headless; CSV on stdout, --out FILE or --summary\n"
    "  inspect SCENE    mass, volume, area, delta and the 6x6 inertia, added-mass and\n"
    "                   Kirchhoff tensors of every body\n"
    "  view [SCENE]     the interactive viewer (the default with no command)\n"
    "  bench [SCENE...] headless throughput per scene (default: assets/scenes/*.json)\n"
    "  forces SCENE --states FILE\n"
    "                   the fluid force and torque of each body's model at given states\n"
    "  export SCENE --format glb|obj|csv|chan|pc2 --out PATH\n"
    "                   the baked motion for Blender, Houdini, Maya (glTF, OBJ sequence,\n"
    "                   CSV, Houdini .chan and .pc2) sampled at --fps F\n"
    "  sweep SCENE --vary PATH=V1,V2,... --out DIR\n"
    "                   one run per combination of values, on all cores or emitted for\n"
    "                   GNU parallel or Slurm; DIR/summary.csv of fall speed, spin, pattern\n"
    "  sweep-job JOB    one job of a sweep (each line of DIR/jobs.txt runs one)\n"
    "  help COMMAND     the options of a command\n"
    "\n"
    "options:\n"
    "  -h, --help       this help\n"
    "  --version        print the version\n"
    "\n"
    "exit codes: 0 success, 1 bad input (scene, mesh or output file), 2 usage error,\n"
    "            3 simulation failure, 130 interrupted\n";

const char* const kRunHelp =
    "usage: samara run SCENE [options]\n"
    "\n"
    "Simulates SCENE (a JSON scene file) for its duration and writes one CSV row per body\n"
    "per sample, the first at t = 0, with the header\n"
    "  t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,Lx,Ly,Lz,Px,Py,Pz,fall_speed,spin_rate,\n"
    "  kinetic_energy,newton_iters\n"
    "(world frame, SI units; see README.md \"Command line\").\n"
    "\n"
    "options:\n"
    "  --duration S        simulated time in seconds (default: the scene's sim.duration)\n"
    "  --dt H              time step in seconds (default: the scene's sim.dt)\n"
    "  --steps N           take exactly N steps (instead of duration / dt)\n"
    "  --set PATH=VALUE    change a scene field before loading; PATH is a JSON pointer\n"
    "                      (/fluid/density) or a dotted path (fluid.density, bodies.0.delta);\n"
    "                      VALUE is JSON, or a bare string (auto). Repeatable.\n"
    "  --out FILE          write the CSV to FILE (atomically: nothing is left on failure)\n"
    "  --every N           write every N-th step (default 1)\n"
    "  --summary           print a one-screen summary instead of the CSV on stdout (the CSV\n"
    "                      still goes to --out FILE if given)\n"
    "  --classify          print each body's falling pattern (steady descent, zigzag,\n"
    "                      autorotation, chaotic) with its measures; on stderr when the CSV\n"
    "                      is on stdout\n"
    "  -h, --help          this help\n"
    "\n"
    "exit codes: 0 success, 1 bad input, 2 usage error, 3 a step failed (the message names\n"
    "the step, the time, the body and the reason), 130 interrupted\n";

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

const char* const kViewHelp =
    "usage: samara view [SCENE] [--frames N] [--screenshot out.png] [--set PATH=VALUE]...\n"
    "                   [--shot-size WxH] [--video out.mp4] [--width W] [--height H]\n"
    "                   [--realtime] [--msaa N] [--ui-scale S] [--ghost MODEL]\n"
    "                   [--overlay NAME]... [--present]\n"
    "\n"
    "The interactive viewer (also `samara` with no arguments): the scene in 3D with controls\n"
    "for fluid density, wind, delta, time step and speed, and live plots of momentum, fall\n"
    "speed, rotation speed and kinetic energy. SCENE is a scene (.json) or a mesh (.obj,\n"
    ".gltf, .glb: a default scene is made around it); default assets/scenes/maple_seed.json.\n"
    "\n"
    "options:\n"
    "  --frames N          render N frames (1/60 s of simulated time each), then exit\n"
    "  --screenshot FILE   with --frames: save the last frame as a PNG\n"
    "  --shot-size WxH     pictures (screenshot, video, the P key) of the 3D view alone,\n"
    "                      rendered offscreen at W x H pixels whatever the window's size\n"
    "                      (default: the window as shown, panels included)\n"
    "  --video FILE        with --frames: a video of every frame, 60 frames per second\n"
    "                      (1/60 s simulated each), piped to ffmpeg; .mp4/.mkv/.mov are\n"
    "                      H.264. Needs ffmpeg (Debian: apt install ffmpeg)\n"
    "  --set PATH=VALUE    as for run. Repeatable.\n"
    "  --width W, --height H   window size in pixels (1280 x 800)\n"
    "  --realtime          with --frames: pace by the wall clock, as interactively\n"
    "  --ghost MODEL       also run the scene under MODEL (every body), drawn translucent\n"
    "                      and shown in the plots (gwtf, vacuum, mujoco-inertia,\n"
    "                      mujoco-ellipsoid, xie-miyata, gross-dissipative, gross-inertial,\n"
    "                      or no-added-mass: the same models with delta = 0)\n"
    "  --overlay NAME      start with a teaching overlay on: forces (lift+drag, gravity,\n"
    "                      buoyancy, contact at the COM), face-forces (per-face lift and\n"
    "                      drag), added-mass (glyphs and table), velocity (velocity and\n"
    "                      momentum, body vs body+fluid). Repeatable\n"
    "  --present           presentation mode (F11): full screen, larger UI and plots,\n"
    "                      high contrast, only the plots, history and lesson panels\n"
    "  --msaa N            anti-aliasing samples, 0 = off (4)\n"
    "  --ui-scale S        UI scale for large rooms (default: the monitor's)\n"
    "  -h, --help          this help\n"
#if !defined(SAMARA_HAVE_VIEWER)
    "\nThis build has no viewer (headless preset); use `samara run SCENE --summary`.\n"
#endif
    ;

const char* const kBenchHelp =
    "usage: samara bench [--json] [--duration S] [SCENE...]\n"
    "\n"
    "Runs each SCENE headless for S seconds of simulated time at the scene's own step h and\n"
    "prints per scene: bodies, faces (all bodies), h, steps, steps per second (wall clock),\n"
    "the real-time factor (simulated / wall time) and ns per face per step. Without SCENE:\n"
    "every assets/scenes/*.json under the working directory, in name order. A scene that\n"
    "cannot be loaded or whose step fails is reported in its row and the others still run.\n"
    "\n"
    "options:\n"
    "  --duration S        simulated seconds per scene (default 1)\n"
    "  --json              JSON: {\"duration\",\"scenes\":[{\"scene\",\"name\",\"bodies\",\n"
    "                      \"faces\",\"dt\",\"steps\",\"wall_seconds\",\"steps_per_second\",\n"
    "                      \"real_time_factor\",\"ns_per_face_step\",\"status\",\"message\"}]}\n"
    "  -h, --help          this help\n"
    "\n"
    "exit codes: 0 success, 1 a scene could not be loaded, 2 usage error, 3 a step failed,\n"
    "            130 interrupted\n";

const char* helpFor(const std::string& command) {
  if (command == "bench") return kBenchHelp;
  if (command == "run") return kRunHelp;
  if (command == "inspect") return kInspectHelp;
  if (command == "forces") return kForcesHelp;
  if (command == "export") return kExportHelp;
  if (command == "sweep") return kSweepHelp;
  if (command == "sweep-job") return kSweepJobHelp;
  if (command == "view") return kViewHelp;
  if (command == "help") return kMainHelp;
  return nullptr;
}

// --- argument parsing ----------------------------------------------------------------------

struct Options {
  std::string scene;
  std::optional<double> duration;
  std::optional<double> dt;
  io::SetList sets;
  std::string out;
  long long every = 1;
  std::optional<long long> steps;
  bool summary = false;
  bool classify = false;
  bool json = false;
  bool help = false;
};

double parseSeconds(const std::string& command, const std::string& flag, const std::string& v,
                    bool allowZero) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !std::isfinite(x) || (allowZero ? x < 0.0 : x <= 0.0)) {
    throw UsageError{command + ": " + flag + " needs a finite number " +
                     (allowZero ? ">= 0" : "> 0") + " of seconds (got \"" + v + "\")"};
  }
  return x;
}

long long parseCount(const std::string& command, const std::string& flag, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0 || n < 1) {
    throw UsageError{command + ": " + flag + " needs an integer >= 1 (got \"" + v + "\")"};
  }
  return n;
}

/// Parses the arguments after the command name. `allowed` lists the options the command
/// takes; each one either takes a value or not.
Options parseOptions(const std::string& command, const std::vector<std::string>& args) {
  const bool isRun = command == "run";
  Options o;
  ArgScanner scan(command, args);
  while (scan.next()) {
    const std::string& name = scan.name();
    if (name == "--set") {
      o.sets.push_back(scan.setValue());
    } else if (isRun && name == "--duration") {
      o.duration = parseSeconds(command, name, scan.value(), /*allowZero=*/true);
    } else if (isRun && name == "--dt") {
      o.dt = parseSeconds(command, name, scan.value(), /*allowZero=*/false);
    } else if (isRun && name == "--out") {
      o.out = scan.value();
      if (o.out.empty()) throw UsageError{command + ": --out needs a file name"};
    } else if (isRun && name == "--steps") {
      o.steps = parseCount(command, name, scan.value());
    } else if (isRun && name == "--every") {
      o.every = parseCount(command, name, scan.value());
    } else if (isRun && name == "--classify") {
      scan.flag();
      o.classify = true;
    } else if (isRun && name == "--summary") {
      scan.flag();
      o.summary = true;
    } else if (!isRun && name == "--json") {
      scan.flag();
      o.json = true;
    } else {
      scan.unknown();
    }
  }
  o.help = scan.help();
  if (o.help) return o;
  if (o.steps && o.duration) {
    throw UsageError{command + ": --steps and --duration exclude each other"};
  }
  o.scene = scan.onePositional("SCENE");
  return o;
}

// --- output file ---------------------------------------------------------------------------

// --- formatting ----------------------------------------------------------------------------

/// printf into a std::string.
__attribute__((format(printf, 1, 2))) std::string strf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list copy;
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  std::string s(static_cast<std::size_t>(std::max(n, 0)) + 1, '\0');
  std::vsnprintf(s.data(), s.size(), format, args);
  va_end(args);
  s.resize(static_cast<std::size_t>(std::max(n, 0)));
  return s;
}

std::string fmt(const char* format, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string vecText(const Vec3& v, const char* format = "%.6g") {
  return "(" + fmt(format, v.x()) + ", " + fmt(format, v.y()) + ", " + fmt(format, v.z()) + ")";
}

void printMatrix(std::ostream& out, const char* title, const Mat6& m) {
  out << "  " << title << ":\n";
  for (int r = 0; r < 6; ++r) {
    out << "   ";
    for (int c = 0; c < 6; ++c) out << fmt(" %12.5g", m(r, c));
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

bool stateFinite(const core::BodyState& s) {
  return s.g.q.coeffs().allFinite() && s.g.b.allFinite() && s.Y.allFinite() && s.mu.allFinite();
}

// --- commands ------------------------------------------------------------------------------

int runCommand(const Options& o, std::ostream& out, std::ostream& err) {
  core::WorldDef def = io::loadScene(o.scene, o.sets);
  if (o.duration) def.duration = *o.duration;
  if (o.dt) def.dt = *o.dt;
  const std::string sceneName = def.name;
  const double dt = def.dt;
  const double duration = o.steps ? static_cast<double>(*o.steps) * dt : def.duration;
  core::World world = io::makeWorld(std::move(def), o.scene);

  const long long steps = o.steps ? *o.steps : stepCount(duration, dt);
  if (steps > 1'000'000'000'000LL) {
    throw io::Error(o.scene, "duration / dt is more than 10^12 steps");
  }

  std::optional<AtomicFile> file;
  if (!o.out.empty()) file.emplace(o.out);
  std::ostream* csvStream = file ? &file->stream() : (o.summary ? nullptr : &out);
  std::optional<io::CsvWriter> csv;
  if (csvStream != nullptr) {
    csv.emplace(*csvStream);
    csv->writeHeader();
    csv->writeSample(world);
  }

  const int n = world.numBodies();
  // Summary statistics.
  const double window = std::min(1.0, duration);
  const double windowStart = duration - window - 1e-9 * std::max(1.0, duration);
  std::vector<double> fallSum(static_cast<std::size_t>(n), 0.0);
  long long fallSamples = 0;
  auto sampleFall = [&]() {
    if (world.time() < windowStart) return;
    for (int i = 0; i < n; ++i)
      fallSum[static_cast<std::size_t>(i)] += world.diagnostics(i).fallSpeed;
    ++fallSamples;
  };
  if (o.summary) sampleFall();
  std::vector<analysis::PatternTracker> patterns;
  if (o.classify) {
    for (int i = 0; i < n; ++i) patterns.push_back(patternTrackerFor(world, i));
  }
  auto samplePatterns = [&]() {
    for (int i = 0; i < static_cast<int>(patterns.size()); ++i) {
      const core::BodyDiagnostics d = world.diagnostics(i);
      patterns[static_cast<std::size_t>(i)].add({world.time(), d.com, d.q, d.omega});
    }
  };
  samplePatterns();
  long long iterSum = 0;
  int iterMax = 0;
  long long substepped = 0;

  const bool showProgress = &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
  const Clock::time_point wall0 = Clock::now();
  {
    Progress progress(showProgress, duration);
    for (long long k = 1; k <= steps; ++k) {
      if (gInterrupted) {
        if (csv) csv->flush();
        err << "samara: interrupted at step " << k - 1 << " (t = " << world.time() << " s)"
            << (file ? "; " + o.out + " not written" : std::string()) << "\n";
        return kExitInterrupted;
      }
      const double t = world.time();
      const core::StepReport report = world.step();
      if (!report.ok()) {
        if (csv) csv->flush();
        err << "samara: " << o.scene << ": simulation failed at step " << k << " of " << steps
            << " (t = " << io::formatNumber(t) << " s): " << report.message
            << (file ? "; " + o.out + " not written" : std::string()) << "\n";
        return kExitSimFailed;
      }
      for (int i = 0; i < n; ++i) {
        if (!stateFinite(world.state(i))) {
          if (csv) csv->flush();
          err << "samara: " << o.scene << ": simulation failed at step " << k << " of " << steps
              << " (t = " << io::formatNumber(t) << " s): body '" << world.bodyDef(i).name
              << "': the state is not finite"
              << (file ? "; " + o.out + " not written" : std::string()) << "\n";
          return kExitSimFailed;
        }
      }
      iterSum += report.newtonIterations;
      iterMax = std::max(iterMax, report.newtonIterations);
      if (report.status == core::StepStatus::kSubstepped) ++substepped;
      if (csv && k % o.every == 0) csv->writeSample(world);
      if (o.summary) sampleFall();
      samplePatterns();
      progress.update(world.time(), k);
    }
  }
  const double wall = std::chrono::duration<double>(Clock::now() - wall0).count();
  if (csv) csv->flush();
  if (!file && csvStream != nullptr) csvStream->flush();
  csv.reset();
  if (file) file->commit();
  if (!file && csvStream != nullptr && !*csvStream) {
    throw io::Error("standard output", "write error");
  }

  if (o.classify) {
    // With the CSV on stdout the patterns go to stderr, so the CSV stays parseable.
    std::ostream& dest = (csvStream == &out) ? err : out;
    for (int i = 0; i < n; ++i) {
      const analysis::PatternResult r = patterns[static_cast<std::size_t>(i)].result();
      dest << strf("pattern  %s: %s (d = %.3g body lengths, e = %.3g, %.3g turns; %s)\n",
                   world.bodyDef(i).name.c_str(), analysis::patternName(r.pattern), r.d, r.e,
                   r.tumbleTurns, r.reason.c_str());
    }
    dest.flush();
  }
  if (o.summary) {
    // One screen: at most kSummaryBodies bodies are listed.
    constexpr int kSummaryBodies = 8;
    const int shown = std::min(n, kSummaryBodies);
    const double stepsPerSecond = wall > 0.0 ? static_cast<double>(steps) / wall : 0.0;
    out << strf("scene    %s (%s), %d %s\n", sceneName.c_str(), o.scene.c_str(), n,
                n == 1 ? "body" : "bodies");
    for (int i = 0; i < shown; ++i) {
      const core::BodyInfo info = world.info(i);
      const std::string model = core::fluidModelName(world.bodyDef(i));
      const std::string added = model == "gwtf" ? strf("delta %.4g m", info.delta)
                                : info.addedMass.isZero(0.0)
                                    ? std::string("no added-mass inertia")
                                    : std::string("added-mass inertia from the model");
      out << strf("body     %s: model %s, mass %.4g kg, %s, %d faces\n",
                  world.bodyDef(i).name.c_str(), model.c_str(), info.mass, added.c_str(),
                  info.faces);
    }
    out << strf(
        "run      %lld steps of %g s, %g s simulated in %.3g s (%.4g steps/s, %.3gx real "
        "time)\n",
        steps, dt, world.time(), wall, stepsPerSecond, wall > 0.0 ? world.time() / wall : 0.0);
    out << strf(
        "newton   %.2f iterations per step on average, %d at most; %lld sub-stepped steps\n",
        steps > 0 ? static_cast<double>(iterSum) / static_cast<double>(steps) : 0.0, iterMax,
        substepped);
    for (int i = 0; i < shown; ++i) {
      const core::BodyDiagnostics d = world.diagnostics(i);
      const double meanFall =
          fallSamples > 0 ? fallSum[static_cast<std::size_t>(i)] / static_cast<double>(fallSamples)
                          : 0.0;
      out << strf("final    %s: COM %s m, spin rate %.4g rad/s,\n", world.bodyDef(i).name.c_str(),
                  vecText(d.com, "%.4g").c_str(), d.spinRate);
      out << strf("         mean fall speed %.4g m/s over the last %g s\n", meanFall, window);
    }
    if (n > shown) out << strf("         (and %d more bodies)\n", n - shown);
    if (!o.out.empty()) out << "csv      " << o.out << "\n";
    out.flush();
  }
  return kExitOk;
}

int inspectCommand(const Options& o, std::ostream& out) {
  core::WorldDef def = io::loadScene(o.scene, o.sets);
  const std::string sceneName = def.name;
  const core::World world = io::makeWorld(std::move(def), o.scene);
  const int n = world.numBodies();
  if (o.json) {
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
  out << "scene " << sceneName << " (" << o.scene << "): " << n << (n == 1 ? " body" : " bodies")
      << "; tensors in the body frame, about the body origin, order (omega, v)\n";
  for (int i = 0; i < n; ++i) {
    const core::BodyInfo info = world.info(i);
    out << "\nbody " << world.bodyDef(i).name << "\n";
    out << "  model         " << core::fluidModelName(world.bodyDef(i)) << "\n";
    out << "  faces         " << info.faces << "\n";
    out << "  mass          " << fmt("%.6g", info.mass) << " kg\n";
    out << "  com           " << vecText(info.com) << " m (body frame)\n";
    out << "  volume        " << fmt("%.6g", info.volume) << " m^3 (closed parts)\n";
    out << "  area          " << fmt("%.6g", info.area) << " m^2 (one side)\n";
    out << "  delta         " << fmt("%.6g", info.delta) << " m\n";
    printMatrix(out, "body inertia (kg m^2 | kg m | kg)", info.bodyInertia);
    printMatrix(out, "added mass", info.addedMass);
    printMatrix(out, "Kirchhoff tensor (body inertia + added mass)", info.kirchhoff);
  }
  return kExitOk;
}

// --- bench ---------------------------------------------------------------------------------

struct BenchRow {
  std::string scene;
  std::string name;
  int bodies = 0;
  long long faces = 0;
  double dt = 0.0;
  long long steps = 0;
  double wall = 0.0;
  std::string status = "ok";  ///< ok, bad_input, failed
  std::string message;
};

/// `samara bench [--json] [--duration S] [SCENE...]`.
int benchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  bool json = false;
  double duration = 1.0;
  std::vector<std::string> scenes;
  bool optionsDone = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (optionsDone || a.size() < 2 || a[0] != '-') {
      scenes.push_back(a);
    } else if (a == "--") {
      optionsDone = true;
    } else if (a == "-h" || a == "--help") {
      out << kBenchHelp;
      return kExitOk;
    } else if (a == "--json") {
      json = true;
    } else if (a == "--duration" || a.rfind("--duration=", 0) == 0) {
      std::string v;
      if (a == "--duration") {
        if (i + 1 >= args.size()) throw UsageError{"bench: --duration needs a value"};
        v = args[++i];
      } else {
        v = a.substr(std::string("--duration=").size());
      }
      duration = parseSeconds("bench", "--duration", v, /*allowZero=*/false);
    } else {
      throw UsageError{"bench: unknown option " + a + " (see samara help bench)"};
    }
  }
  if (scenes.empty()) {
    const fs::path dir = fs::path("assets") / "scenes";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      throw UsageError{"bench: no SCENE given and no assets/scenes directory here"};
    }
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() == ".json") scenes.push_back(e.path().string());
    }
    std::sort(scenes.begin(), scenes.end());
    if (scenes.empty()) throw UsageError{"bench: no scenes in assets/scenes"};
  }

  std::vector<BenchRow> rows;
  bool badInput = false, failed = false;
  for (const std::string& path : scenes) {
    BenchRow row;
    row.scene = path;
    try {
      core::WorldDef def = io::loadScene(path);
      row.name = def.name;
      row.dt = def.dt;
      core::World world = io::makeWorld(std::move(def), path);
      row.bodies = world.numBodies();
      for (int i = 0; i < world.numBodies(); ++i) row.faces += world.info(i).faces;
      const long long steps = stepCount(duration, row.dt);
      const Clock::time_point wall0 = Clock::now();
      for (long long k = 1; k <= steps; ++k) {
        if (gInterrupted) {
          err << "samara: bench: interrupted in " << path << "\n";
          return kExitInterrupted;
        }
        const core::StepReport report = world.step();
        if (!report.ok()) {
          row.status = "failed";
          row.message = "step " + std::to_string(k) + ": " + report.message;
          failed = true;
          break;
        }
        row.steps = k;
      }
      row.wall = std::chrono::duration<double>(Clock::now() - wall0).count();
    } catch (const io::Error& e) {
      row.status = "bad_input";
      row.message = e.what();
      badInput = true;
    }
    rows.push_back(std::move(row));
  }

  auto stepsPerSecond = [](const BenchRow& r) {
    return r.wall > 0.0 ? static_cast<double>(r.steps) / r.wall : 0.0;
  };
  auto realTime = [](const BenchRow& r) {
    return r.wall > 0.0 ? static_cast<double>(r.steps) * r.dt / r.wall : 0.0;
  };
  auto nsPerFaceStep = [](const BenchRow& r) {
    const double work = static_cast<double>(r.steps) * static_cast<double>(r.faces);
    return work > 0.0 ? r.wall * 1e9 / work : 0.0;
  };
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const BenchRow& r : rows) {
      nlohmann::ordered_json j;
      j["scene"] = r.scene;
      j["name"] = r.name;
      j["bodies"] = r.bodies;
      j["faces"] = r.faces;
      j["dt"] = r.dt;
      j["steps"] = r.steps;
      j["wall_seconds"] = r.wall;
      j["steps_per_second"] = stepsPerSecond(r);
      j["real_time_factor"] = realTime(r);
      j["ns_per_face_step"] = nsPerFaceStep(r);
      j["status"] = r.status;
      j["message"] = r.message;
      list.push_back(std::move(j));
    }
    nlohmann::ordered_json doc;
    doc["duration"] = duration;
    doc["scenes"] = std::move(list);
    out << doc.dump(2) << "\n";
  } else {
    out << strf("samara bench: %g s simulated per scene, wall-clock times on this machine\n",
                duration);
    out << strf("%-24s %6s %7s %8s %7s %10s %9s %12s\n", "scene", "bodies", "faces", "h (s)",
                "steps", "steps/s", "x real", "ns/face/step");
    for (const BenchRow& r : rows) {
      const std::string label = r.name.empty() ? fs::path(r.scene).stem().string() : r.name;
      if (r.status == "bad_input") {
        out << strf("%-24s  cannot load: %s\n", label.c_str(), r.message.c_str());
        continue;
      }
      out << strf("%-24s %6d %7lld %8.4g %7lld %10.0f %9.2f %12.1f%s\n", label.c_str(), r.bodies,
                  r.faces, r.dt, r.steps, stepsPerSecond(r), realTime(r), nsPerFaceStep(r),
                  r.status == "failed" ? ("  FAILED " + r.message).c_str() : "");
    }
  }
  out.flush();
  if (badInput) return kExitBadInput;
  if (failed) return kExitSimFailed;
  return kExitOk;
}

int parseIntIn(const std::string& flag, const std::string& v, long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno != 0 || n < lo || n > hi) {
    throw UsageError{"view: " + flag + " needs an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "] (got \"" + v + "\")"};
  }
  return static_cast<int>(n);
}

/// `samara view [SCENE] [options]`: the viewer, or a clear message in a headless build.
int viewCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
#if defined(SAMARA_HAVE_VIEWER)
  app::ViewerOptions o;
  o.out = &out;
  o.err = &err;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw UsageError{"view: " + a + " needs a value"};
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      out << kViewHelp;
      return kExitOk;
    } else if (a == "--frames") {
      o.frames = parseIntIn(a, value(), 1, 100'000'000);
    } else if (a == "--width" || a == "--height") {
      (a == "--width" ? o.width : o.height) = parseIntIn(a, value(), 64, 16384);
    } else if (a == "--msaa") {
      o.msaa = parseIntIn(a, value(), 0, 16);
    } else if (a == "--screenshot") {
      o.screenshotPath = value();
      if (o.screenshotPath.empty()) throw UsageError{"view: --screenshot needs a file name"};
    } else if (a == "--video") {
      o.videoPath = value();
      if (o.videoPath.empty()) throw UsageError{"view: --video needs a file name"};
    } else if (a == "--shot-size") {
      const std::string v = value();
      const std::size_t x = v.find_first_of("xX");
      if (x == std::string::npos) {
        throw UsageError{"view: --shot-size needs WIDTHxHEIGHT in pixels (got \"" + v + "\")"};
      }
      o.shotWidth = parseIntIn(a, v.substr(0, x), 16, 16384);
      o.shotHeight = parseIntIn(a, v.substr(x + 1), 16, 16384);
    } else if (a == "--set") {
      const std::string s = value();
      const std::size_t at = s.find('=');
      if (at == std::string::npos || at == 0) {
        throw UsageError{"view: --set needs PATH=VALUE (got \"" + s + "\")"};
      }
      o.sets.emplace_back(s.substr(0, at), s.substr(at + 1));
    } else if (a == "--realtime") {
      o.realTime = true;
    } else if (a == "--present") {
      o.present = true;
    } else if (a == "--ghost") {
      o.ghostModel = value();
    } else if (a == "--overlay") {
      o.overlays.push_back(value());
    } else if (a == "--ui-scale") {
      const std::string v = value();
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(x >= 0.25 && x <= 8.0)) {
        throw UsageError{"view: --ui-scale needs a number in [0.25, 8] (got \"" + v + "\")"};
      }
      o.uiScale = static_cast<float>(x);
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError{"view: unknown option " + a + " (see samara help view)"};
    } else if (o.scenePath.empty()) {
      o.scenePath = a;
    } else {
      throw UsageError{"view: unexpected argument \"" + a + "\""};
    }
  }
  if (!o.screenshotPath.empty() && o.frames == 0) {
    throw UsageError{"view: --screenshot needs --frames N"};
  }
  if (!o.videoPath.empty() && o.frames == 0) throw UsageError{"view: --video needs --frames N"};
  return app::runViewer(o);
#else
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help") {
      out << kViewHelp;
      return kExitOk;
    }
  }
  err << "samara: view: this build has no viewer (headless preset); use "
         "`samara run SCENE --summary` or `samara inspect SCENE`\n";
  return kExitUsage;
#endif
}

}  // namespace

void installInterruptHandler() {
  std::signal(SIGINT, onInterrupt);
  std::signal(SIGTERM, onInterrupt);
}

int runCli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  try {
    if (args.empty()) {
#if defined(SAMARA_HAVE_VIEWER)
      return viewCommand({}, out, err);
#else
      err << kMainHelp;
      return kExitUsage;
#endif
    }
    const std::string command = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (command == "-h" || command == "--help") {
      out << kMainHelp;
      return kExitOk;
    }
    if (command == "--version" || command == "-V") {
      out << "samara " << SAMARA_VERSION << "\n";
      return kExitOk;
    }
    if (command == "help") {
      if (rest.empty()) {
        out << kMainHelp;
        return kExitOk;
      }
      const char* text = helpFor(rest[0]);
      if (text == nullptr) throw UsageError{"help: unknown command \"" + rest[0] + "\""};
      out << text;
      return kExitOk;
    }
    if (command == "view") return viewCommand(rest, out, err);
    if (command == "bench") return benchCommand(rest, out, err);
    if (command == "forces") return forcesCommand(rest, out);
    if (command == "export") return exportCommand(rest, out, err);
    if (command == "sweep") return sweepCommand(rest, out, err);
    if (command == "sweep-job") return sweepJobCommand(rest, out, err);
    if (command == "run" || command == "inspect") {
      const Options o = parseOptions(command, rest);
      if (o.help) {
        out << helpFor(command);
        return kExitOk;
      }
      return command == "run" ? runCommand(o, out, err) : inspectCommand(o, out);
    }
    if (!command.empty() && command[0] == '-') {
      throw UsageError{"unknown option " + command + " (see samara --help)"};
    }
    throw UsageError{"unknown command \"" + command + "\" (see samara --help)"};
  } catch (const UsageError& e) {
    err << "samara: " << e.message << "\n";
    return kExitUsage;
  } catch (const io::Error& e) {
    err << "samara: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    err << "samara: out of memory\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << "samara: internal error: " << e.what() << "\n";
    return kExitBadInput;
  }
}

}  // namespace samara::cli
