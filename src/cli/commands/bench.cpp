// `samara bench [SCENE...]`: headless throughput per scene on the one run driver.
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands/command_list.h"
#include "cli/terminal.h"
#include "io/error.h"
#include "io/run_driver.h"
#include "io/text_format.h"

namespace samara::cli {

const char* const kBenchHelp =
    "usage: samara bench [--json] [--duration S] [--threads N] [SCENE...]\n"
    "\n"
    "Runs each SCENE headless for S seconds of simulated time at the scene's own step h and\n"
    "prints per scene: bodies, faces (all bodies), h, steps, steps per second (wall clock),\n"
    "the real-time factor (simulated / wall time) and ns per face per step. Without SCENE:\n"
    "every assets/scenes/*.json under the working directory, in name order. A scene that\n"
    "cannot be loaded or whose step fails is reported in its row and the others still run.\n"
    "\n"
    "options:\n"
    "  --duration S        simulated seconds per scene (default 1)\n"
    "  --threads N         threads that step the bodies (default 1; a scene uses at most\n"
    "                      one per body)\n"
    "  --json              JSON: {\"duration\",\"threads\",\"scenes\":[{\"scene\",\"name\",\n"
    "                      \"bodies\",\"faces\",\"dt\",\"steps\",\"wall_seconds\",\n"
    "                      \"steps_per_second\",\"real_time_factor\",\"ns_per_face_step\",\n"
    "                      \"status\",\"message\"}]}\n"
    "  -h, --help          this help\n"
    "\n"
    "exit codes: 0 success, 1 a scene could not be loaded, 2 usage error, 3 a step failed,\n"
    "            130 interrupted\n";

namespace {

namespace fs = std::filesystem;

struct BenchRow {
  std::string scene;
  std::string name;
  int bodies = 0;
  long long faces = 0;
  double dt = 0.0;
  long long steps = 0;
  double wall = 0.0;
  std::string status = "ok";  ///< ok, bad_input, failed, interrupted
  std::string message;
};

/// One scene for `duration` simulated seconds at its own step; status "interrupted" when
/// SIGINT/SIGTERM came.
BenchRow benchScene(const std::string& path, double duration, int threads) {
  BenchRow row;
  row.scene = path;
  try {
    io::RunSpec spec;
    spec.scene = path;
    spec.duration = duration;
    core::WorldDef def = io::loadRunScene(spec);
    row.name = def.name;
    row.dt = def.dt;
    io::PreparedRun run = io::prepareRun(std::move(def), spec);
    run.world.setThreads(threads);
    row.bodies = run.world.numBodies();
    for (int i = 0; i < run.world.numBodies(); ++i) row.faces += run.world.info(i).faces;
    const io::RunOutcome outcome = io::runSteps(run.world, run.steps, {}, &interruptFlag());
    row.steps = outcome.stepsTaken;
    row.wall = outcome.wallSeconds;
    if (outcome.status == io::RunStatus::kCancelled) row.status = "interrupted";
    if (outcome.status == io::RunStatus::kFailed) {
      row.status = "failed";
      row.message = "step " + std::to_string(outcome.failedStep) + ": " + outcome.message;
    }
  } catch (const io::Error& e) {
    row.status = "bad_input";
    row.message = e.what();
  }
  return row;
}

double stepsPerSecond(const BenchRow& r) {
  return r.wall > 0.0 ? static_cast<double>(r.steps) / r.wall : 0.0;
}
double realTime(const BenchRow& r) {
  return r.wall > 0.0 ? static_cast<double>(r.steps) * r.dt / r.wall : 0.0;
}
double nsPerFaceStep(const BenchRow& r) {
  const double work = static_cast<double>(r.steps) * static_cast<double>(r.faces);
  return work > 0.0 ? r.wall * 1e9 / work : 0.0;
}

void printBenchJson(const std::vector<BenchRow>& rows, double duration, int threads,
                    std::ostream& out) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const BenchRow& r : rows) {
    nlohmann::ordered_json j;
    j["scene"] = io::printable(r.scene);  // JSON text is UTF-8; a file name need not be
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
  doc["threads"] = threads;
  doc["scenes"] = std::move(list);
  out << doc.dump(2) << "\n";
}

void printBenchTable(const std::vector<BenchRow>& rows, double duration, int threads,
                     std::ostream& out) {
  out << io::strf(
      "samara bench: %g s simulated per scene, %d %s, wall-clock times on this machine\n", duration,
      threads, threads == 1 ? "thread" : "threads");
  out << io::strf("%-24s %6s %7s %8s %7s %10s %9s %12s\n", "scene", "bodies", "faces", "h (s)",
                  "steps", "steps/s", "x real", "ns/face/step");
  for (const BenchRow& r : rows) {
    const std::string label =
        io::printable(r.name.empty() ? fs::path(r.scene).stem().string() : r.name);
    if (r.status == "bad_input") {
      out << io::strf("%-24s  cannot load: %s\n", label.c_str(), r.message.c_str());
      continue;
    }
    out << io::strf("%-24s %6d %7lld %8.4g %7lld %10.0f %9.2f %12.1f%s\n", label.c_str(), r.bodies,
                    r.faces, r.dt, r.steps, stepsPerSecond(r), realTime(r), nsPerFaceStep(r),
                    r.status == "failed" ? ("  FAILED " + io::printable(r.message)).c_str() : "");
  }
}

}  // namespace

/// `samara bench [--json] [--duration S] [SCENE...]`.
int benchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  bool json = false;
  double duration = 1.0;
  int threads = 1;
  ArgScanner scan("bench", args);
  while (scan.next()) {
    const std::string& a = scan.name();
    if (a == "--json") {
      scan.flag();
      json = true;
    } else if (a == "--duration") {
      duration = parseSeconds("bench", "--duration", scan.value(), /*allowZero=*/false);
    } else if (a == "--threads") {
      threads = parseThreads("bench", scan.value());
    } else {
      scan.unknown();
    }
  }
  if (scan.help()) {
    out << kBenchHelp;
    return kExitOk;
  }
  std::vector<std::string> scenes = scan.positional();
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
  const InterruptScope interrupts;
  for (const std::string& path : scenes) {
    rows.push_back(benchScene(path, duration, threads));
    if (rows.back().status == "interrupted") {
      err << "samara: bench: interrupted in " << path << "\n";
      return kExitInterrupted;
    }
    badInput = badInput || rows.back().status == "bad_input";
    failed = failed || rows.back().status == "failed";
  }

  if (json) {
    printBenchJson(rows, duration, threads, out);
  } else {
    printBenchTable(rows, duration, threads, out);
  }
  out.flush();
  if (badInput) return kExitBadInput;
  if (failed) return kExitSimFailed;
  return kExitOk;
}
}  // namespace samara::cli
