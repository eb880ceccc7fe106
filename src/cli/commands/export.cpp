// `samara export SCENE --format F --out PATH`: the run (io::runExport on the one run driver)
// sampled into frames, with the shared export plan (io::planExport) and its limits.
#include "io/export.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <utility>

#include "cli/cli_util.h"
#include "cli/commands/command_list.h"
#include "cli/terminal.h"
#include "core/world.h"
#include "io/error.h"
#include "io/output_folders.h"
#include "io/run_driver.h"
#include "io/text_format.h"

namespace samara::cli {

const char* const kExportHelp =
    "usage: samara export SCENE --format FORMAT --out PATH [--fps F] [--duration S]\n"
    "                    [--dt H] [--set PATH=VALUE]...\n"
    "\n"
    "Simulates SCENE exactly as `samara run` does (same steps, same bits) and writes the\n"
    "motion sampled at F frames per second: frame k (k = 0 ... floor(S*F)) at time k/F takes\n"
    "the state of the step nearest to it, step round(k/(F*H)) (exact when 1/F is a multiple\n"
    "of H). World frame: Y-up, metres, seconds.\n"
    "\n"
    "formats:\n"
    "  glb    glTF 2.0 binary, PATH the file: one node per body with its mesh (body frame:\n"
    "         positions, normals, indices) and an animation with its translation (the body\n"
    "         origin) and rotation (body -> world), LINEAR keys at k/F; a shape-changing body\n"
    "         also has one morph target per frame (frame_0000, ...) and a STEP weights channel\n"
    "         that switches to target k at frame k\n"
    "  obj    one OBJ file per frame of the world-space meshes, every body an `o NAME`\n"
    "         object (%.9g): PREFIX_0000.obj, PREFIX_0001.obj, ... (a trailing .obj of PATH\n"
    "         is dropped), or DIR/SCENE_0000.obj ... when PATH is a directory (existing, or\n"
    "         ending in /); at least 4 digits\n"
    "  csv    PATH the file, header: the `samara run` columns then frame,ox,oy,oz:\n"
    "           t,body,x,y,z,qw,qx,qy,qz,...,kinetic_energy,newton_iters,frame,ox,oy,oz\n"
    "         t is the step's time, x,y,z the centre of mass, ox,oy,oz the body origin\n"
    "         (the glb node translation), frame the frame index k; the run columns equal\n"
    "         `samara run`'s rows at those steps byte for byte\n"
    "  chan   Houdini channel file per body, PREFIX_BODY.chan (or DIR/BODY.chan): one row\n"
    "         per frame `tx ty tz rx ry rz`, the body origin (m) and rotation angles in\n"
    "         degrees for Houdini's default orders (transform SRT, rotation XYZ: rotate\n"
    "         about x, then y, then z, R = Rz*Ry*Rx), unwrapped to be continuous; %.17g\n"
    "  pc2    point cache per body, PREFIX_BODY.pc2 (or DIR/BODY.pc2): world-space vertex\n"
    "         positions of every frame; little endian: \"POINTCACHE2\\0\", int32 version 1,\n"
    "         int32 points, float32 start frame 0, float32 sample rate 1 (frames between\n"
    "         samples), int32 samples, then float32 x y z per point per sample\n"
    "Body names in file names keep [A-Za-z0-9._-] and turn anything else into _.\n"
    "\n"
    "options:\n"
    "  --format FORMAT     glb, obj, csv, chan or pc2 (required)\n"
    "  -o, --out PATH      the file, prefix or directory (required); missing folders are\n"
    "                      made; every file is written to a temporary name and renamed\n"
    "                      when all are complete, so a failed or interrupted export leaves\n"
    "                      none (and no folder it made). --out - writes csv, or chan of a\n"
    "                      single-body scene, to stdout (the line naming the output goes\n"
    "                      to stderr)\n"
    "  --fps F             frames per second (default 30)\n"
    "  --duration S        simulated time in seconds (default: the scene's sim.duration)\n"
    "  --dt H              time step in seconds (default: the scene's sim.dt)\n"
    "  --set PATH=VALUE    as for run. Repeatable.\n"
    "  -h, --help          this help\n"
    "\n"
    "exit codes: 0 success, 1 bad input or an output that cannot be written, 2 usage error,\n"
    "3 a step failed, 130 interrupted\n";

namespace {

struct ExportOptions {
  std::optional<io::ExportFormat> format;
  std::string out;
  double fps = 30.0;
  io::RunSpec spec;  ///< the scene, --set, --duration, --dt
  bool help = false;
};

/// A finite number > 0 (or ≥ 0 with allowZero).
double parsePositive(const std::string& flag, const std::string& v, bool allowZero,
                     const char* unit) {
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !std::isfinite(x) || (allowZero ? x < 0.0 : x <= 0.0)) {
    throw UsageError{"export: " + flag + " needs a finite number " + (allowZero ? ">= 0" : "> 0") +
                     unit + " (got \"" + v + "\")"};
  }
  return x;
}

ExportOptions parseExportOptions(const std::vector<std::string>& args) {
  ExportOptions o;
  ArgScanner scan("export", args);
  while (scan.next()) {
    const std::string& name = scan.name();
    if (name == "--format") {
      const std::string f = scan.value();
      o.format = io::exportFormatFromName(f);
      if (!o.format) {
        throw UsageError{"export: unknown format \"" + f +
                         "\" (formats: " + io::kExportFormatNames + ")"};
      }
    } else if (name == "--out") {
      o.out = scan.value();
      if (o.out.empty()) throw UsageError{"export: --out needs a path"};
    } else if (name == "--fps") {
      o.fps = parsePositive(name, scan.value(), /*allowZero=*/false, " of frames per second");
    } else if (name == "--duration") {
      o.spec.duration = parsePositive(name, scan.value(), /*allowZero=*/true, " of seconds");
    } else if (name == "--dt") {
      o.spec.dt = parsePositive(name, scan.value(), /*allowZero=*/false, " of seconds");
    } else if (name == "--set") {
      o.spec.sets.push_back(scan.setValue());
    } else {
      scan.unknown();
    }
  }
  o.help = scan.help();
  if (o.help) return o;
  o.spec.scene = scan.onePositional("SCENE");
  if (!o.format) {
    throw UsageError{std::string("export: missing --format (one of ") + io::kExportFormatNames +
                     ")"};
  }
  if (o.out.empty()) throw UsageError{"export: missing --out PATH"};
  if (io::isStandardOutput(o.out) && *o.format != io::ExportFormat::kCsv &&
      *o.format != io::ExportFormat::kChan) {
    throw UsageError{std::string("export: --out - (stdout) takes csv, or chan of a single-body "
                                 "scene; not ") +
                     io::exportFormatName(*o.format) + " (binary or several files)"};
  }
  return o;
}

}  // namespace

namespace {

/// The plan of the export: the limits as usage errors (lower --fps or --duration), the
/// output folders made and the paths checked before a long run, not after.
io::ExportPlan planFor(const ExportOptions& o, const io::PreparedRun& run,
                       io::OutputFolders* folders) {
  io::ExportSettings settings;
  settings.format = *o.format;
  settings.out = o.out;
  settings.sceneName = run.sceneName;
  settings.plan.fps = o.fps;
  settings.plan.duration = run.duration;
  settings.plan.dt = run.dt;
  io::ExportPlan plan = io::planExport(run.world, std::move(settings));
  if (plan.limit == io::ExportPlan::Limit::kTooManyFrames) {
    throw UsageError{"export: more than " + std::to_string(io::kMaxExportFrames) +
                     " frames; lower --fps or --duration"};
  }
  if (plan.limit == io::ExportPlan::Limit::kTooManyMorphFrames) {
    throw UsageError{"export: a glb with a shape-changing body holds one morph target per frame; " +
                     std::to_string(plan.frames) + " frames is more than " +
                     std::to_string(io::kMaxGlbMorphFrames) + " (lower --fps or --duration)"};
  }
  if (io::isStandardOutput(o.out)) {
    const std::size_t n = plan.bodies.size();
    if (plan.settings.format == io::ExportFormat::kChan && n != 1) {
      throw UsageError{"export: --out - needs a single-body scene for chan (this scene has " +
                       std::to_string(n) + " bodies)"};
    }
    return plan;
  }
  folders->createFor(io::exportPaths(plan.settings, plan.bodies));
  plan.checkOutputs();
  return plan;
}

}  // namespace

int exportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const ExportOptions o = parseExportOptions(args);
  if (o.help) {
    out << kExportHelp;
    return kExitOk;
  }
  io::PreparedRun run = io::prepareRun(o.spec);
  io::OutputFolders folders;  // before the files: the folders made go after the temporaries
  const io::ExportPlan plan = planFor(o, run, &folders);
  const io::ExportSettings& settings = plan.settings;

  const InterruptScope interrupts;
  // --out -: the one file to stdout, at the end; messages on stderr.
  const bool toStdout = io::isStandardOutput(o.out);
  io::StagedFiles files;  // removes every temporary unless committed
  io::StreamFiles stdoutFile(out);
  io::MotionExporter exporter(settings, plan.bodies,
                              toStdout ? static_cast<io::OutputFiles*>(&stdoutFile) : &files);
  const std::string notWritten =
      "; nothing written to " + (toStdout ? std::string("stdout") : o.out);
  io::ExportOutcome outcome;
  {
    RunProgress progress(showsProgress(err), run.duration);
    io::ExportControl control;
    control.cancel = &interruptFlag();
    control.observers.push_back(&progress);
    outcome = io::runExport(&run.world, settings.plan, &exporter, control);
  }
  if (outcome.status == io::ExportStatus::kCancelled) {
    err << "samara: interrupted at step " << run.world.stepIndex() << " (t = " << run.world.time()
        << " s)" << notWritten << "\n";
    return kExitInterrupted;
  }
  if (outcome.status == io::ExportStatus::kFailed) {
    io::RunOutcome failure;
    failure.failedStep = outcome.failedStep;
    failure.failedTime = outcome.failedTime;
    failure.message = outcome.message;
    err << "samara: " << io::failureText(o.spec.scene, failure, outcome.steps) << notWritten
        << "\n";
    return kExitSimFailed;
  }
  if (interruptFlag().load()) {  // while the files were written: none is renamed
    err << "samara: interrupted while writing" << notWritten << "\n";
    return kExitInterrupted;
  }
  const std::vector<std::string> written =
      toStdout ? std::vector<std::string>{"stdout"} : files.targets();
  if (toStdout) {
    stdoutFile.commit();
  } else {
    files.commit();
  }
  folders.keep();
  std::ostream& report = toStdout ? err : out;
  const long long frames = plan.frames;
  report << io::strf("%s: %lld frames at %g fps (t = 0 ... %g s), %zu %s, ",
                     io::exportFormatName(settings.format), frames, o.fps,
                     settings.plan.frameTime(frames - 1), plan.bodies.size(),
                     plan.bodies.size() == 1 ? "body" : "bodies");
  if (written.size() == 1) {
    report << written.front() << "\n";
  } else {
    report << written.size() << " files " << written.front() << " ... " << written.back() << "\n";
  }
  return kExitOk;
}

}  // namespace samara::cli
