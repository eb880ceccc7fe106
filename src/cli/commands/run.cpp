// `samara run SCENE`: the headless run with its CSV (stdout, --out FILE or --out -), --summary
// and --classify, on the one run driver (io/run_driver.h).
#include <algorithm>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands/command_list.h"
#include "cli/terminal.h"
#include "core/fluid_model.h"
#include "io/atomic_file.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/output_folders.h"
#include "io/run_driver.h"
#include "io/text_format.h"

namespace samara::cli {

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
    "  -o, --out FILE      write the CSV to FILE (atomically: nothing is left on failure;\n"
    "                      missing folders are made); --out - writes it to stdout, with\n"
    "                      --summary and --classify on stderr\n"
    "  --every N           write every N-th step (default 1)\n"
    "  --threads N         threads that step the bodies (default 1; at most one per\n"
    "                      body); the results are the same bits for any N\n"
    "  --summary           print a one-screen summary instead of the CSV on stdout (the CSV\n"
    "                      still goes to --out FILE if given)\n"
    "  --classify          print each body's falling pattern (steady descent, zigzag,\n"
    "                      autorotation, chaotic, horizontal travel) with its measures; on\n"
    "                      stderr when the CSV is on stdout\n"
    "  -h, --help          this help\n"
    "\n"
    "exit codes: 0 success, 1 bad input, 2 usage error, 3 a step failed (the message names\n"
    "the step, the time, the body and the reason), 130 interrupted\n";

namespace {

struct RunOptions {
  io::RunSpec spec;
  std::string out;
  long long every = 1;
  int threads = 1;  ///< --threads
  bool summary = false;
  bool classify = false;
  bool help = false;
};

RunOptions parseRunOptions(const std::vector<std::string>& args) {
  const std::string command = "run";
  RunOptions o;
  ArgScanner scan(command, args);
  while (scan.next()) {
    const std::string& name = scan.name();
    if (name == "--set") {
      o.spec.sets.push_back(scan.setValue());
    } else if (name == "--duration") {
      o.spec.duration = parseSeconds(command, name, scan.value(), /*allowZero=*/true);
    } else if (name == "--dt") {
      o.spec.dt = parseSeconds(command, name, scan.value(), /*allowZero=*/false);
    } else if (name == "--out") {
      o.out = scan.value();
      if (o.out.empty()) throw UsageError{command + ": --out needs a file name"};
    } else if (name == "--steps") {
      o.spec.steps = parseCount(command, name, scan.value());
    } else if (name == "--every") {
      o.every = parseCount(command, name, scan.value());
    } else if (name == "--threads") {
      o.threads = parseThreads(command, scan.value());
    } else if (name == "--classify") {
      scan.flag();
      o.classify = true;
    } else if (name == "--summary") {
      scan.flag();
      o.summary = true;
    } else {
      scan.unknown();
    }
  }
  o.help = scan.help();
  if (o.help) return o;
  if (o.spec.steps && o.spec.duration) {
    throw UsageError{command + ": --steps and --duration exclude each other"};
  }
  o.spec.scene = scan.onePositional("SCENE");
  return o;
}

/// The one-screen summary of `samara run --summary` (at most 8 bodies listed).
void printSummary(const RunOptions& o, const io::PreparedRun& run, const io::RunSummary& stats,
                  double wall, std::ostream& out) {
  const core::World& world = run.world;
  const long long steps = run.steps;
  const double dt = run.dt;
  const std::string& sceneName = run.sceneName;
  // One screen: at most kSummaryBodies bodies are listed.
  constexpr int kSummaryBodies = 8;
  const int n = world.numBodies();
  const int shown = std::min(n, kSummaryBodies);
  const double stepsPerSecond = wall > 0.0 ? static_cast<double>(steps) / wall : 0.0;
  out << io::strf("scene    %s (%s), %d %s\n", sceneName.c_str(), o.spec.scene.c_str(), n,
                  n == 1 ? "body" : "bodies");
  for (int i = 0; i < shown; ++i) {
    const core::BodyInfo info = world.info(i);
    const core::FluidModel& fm = *world.bodyDef(i).model;
    const std::string model = fm.name();
    const std::string added = fm.localFaces() ? io::strf("delta %.4g m", info.delta)
                              : info.addedMass.isZero(0.0)
                                  ? std::string("no added-mass inertia")
                                  : std::string("added-mass inertia from the model");
    out << io::strf("body     %s: model %s, mass %.4g kg, %s, %d faces\n",
                    world.bodyDef(i).name.c_str(), model.c_str(), info.mass, added.c_str(),
                    info.faces);
  }
  out << io::strf(
      "run      %lld steps of %g s, %g s simulated in %.3g s (%.4g steps/s, %.3gx real "
      "time)\n",
      steps, dt, world.time(), wall, stepsPerSecond, wall > 0.0 ? world.time() / wall : 0.0);
  out << io::strf(
      "newton   %.2f iterations per step on average, %d at most; %lld sub-stepped steps\n",
      steps > 0 ? static_cast<double>(stats.iterationSum()) / static_cast<double>(steps) : 0.0,
      stats.iterationMax(), stats.substepped());
  for (int i = 0; i < shown; ++i) {
    const core::BodyDiagnostics d = world.diagnostics(i);
    const double meanFall = stats.meanFallSpeed(i);
    out << io::strf("final    %s: COM %s m, spin rate %.4g rad/s,\n", world.bodyDef(i).name.c_str(),
                    io::vecText(d.com, "%.4g").c_str(), d.spinRate);
    out << io::strf("         mean fall speed %.4g m/s over the last %g s\n", meanFall,
                    stats.window());
  }
  if (n > shown) out << io::strf("         (and %d more bodies)\n", n - shown);
  if (io::isStandardOutput(o.out)) {
    out << "csv      standard output\n";
  } else if (!o.out.empty()) {
    out << "csv      " << o.out << "\n";
  }
  out.flush();
}

/// `samara run --classify`: each body's falling pattern.
void printPatterns(const core::World& world, const io::PatternTrackers& patterns,
                   std::ostream& dest) {
  const int n = world.numBodies();
  for (int i = 0; i < n; ++i) {
    const analysis::PatternResult r = patterns.result(i);
    dest << io::strf("pattern  %s: %s (d = %.3g body lengths, e = %.3g, %.3g turns; %s)\n",
                     world.bodyDef(i).name.c_str(), analysis::patternName(r.pattern), r.d, r.e,
                     r.tumbleTurns, r.reason.c_str());
  }
  dest.flush();
}

}  // namespace

int runCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const RunOptions o = parseRunOptions(args);
  if (o.help) {
    out << kRunHelp;
    return kExitOk;
  }
  io::PreparedRun run = io::prepareRun(o.spec);
  core::World& world = run.world;
  world.setThreads(o.threads);

  // --out -: the CSV on stdout, everything else on stderr.
  const bool toStdout = io::isStandardOutput(o.out);
  io::OutputFolders folders;  // before the file: removed again if the run fails
  std::optional<io::AtomicFile> file;
  if (!o.out.empty() && !toStdout) {
    folders.createFor({o.out});
    file.emplace(o.out);
  }
  std::ostream* csvStream = file ? &file->stream() : (o.summary && !toStdout ? nullptr : &out);
  std::vector<io::RunObserver*> observers;
  std::optional<io::CsvWriter> csv;
  std::optional<io::CsvSink> csvSink;
  if (csvStream != nullptr) {
    csv.emplace(*csvStream);
    csv->writeHeader();
    observers.push_back(&csvSink.emplace(&*csv, o.every));
  }
  std::optional<io::RunSummary> stats;
  if (o.summary) observers.push_back(&stats.emplace(world.numBodies(), run.duration));
  std::optional<io::PatternTrackers> patterns;
  if (o.classify) observers.push_back(&patterns.emplace(world));

  const InterruptScope interrupts;
  io::RunOutcome outcome;
  {
    RunProgress progress(showsProgress(err), run.duration);
    observers.push_back(&progress);
    outcome = io::runSteps(world, run.steps, observers, &interruptFlag());
  }
  const std::string notWritten = file ? "; " + o.out + " not written" : std::string();
  if (outcome.status == io::RunStatus::kCancelled) {
    if (csv) csv->flush();
    err << "samara: interrupted at step " << outcome.stepsTaken << " (t = " << world.time() << " s)"
        << notWritten << "\n";
    return kExitInterrupted;
  }
  if (outcome.status == io::RunStatus::kFailed) {
    if (csv) csv->flush();
    err << "samara: "
        << io::printable(io::failureText(o.spec.scene, outcome, run.steps) + notWritten) << "\n";
    return kExitSimFailed;
  }
  if (csv) csv->flush();
  if (!file && csvStream != nullptr) csvStream->flush();
  csv.reset();
  if (file) file->commit();
  folders.keep();
  if (!file && csvStream != nullptr && !*csvStream) {
    throw io::Error("standard output", "write error");
  }
  // With the CSV on stdout the patterns and the summary go to stderr, so the CSV stays
  // parseable.
  if (patterns) printPatterns(world, *patterns, csvStream == &out ? err : out);
  if (stats) printSummary(o, run, *stats, outcome.wallSeconds, csvStream == &out ? err : out);
  return kExitOk;
}

}  // namespace samara::cli
