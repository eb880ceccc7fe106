// `samara export SCENE --format F --out PATH`: the run (io::runExport on the one run driver)
// sampled into frames, with the shared export plan (io::planExport) and its limits.
#include "io/export.h"

#include <algorithm>
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
    "usage: samara export SCENE --format FORMAT --out PATH [--fps F] [--first-frame N]\n"
    "                    [--camera auto|none] [--duration S] [--dt H] [--set PATH=VALUE]...\n"
    "                    [--threads N]\n"
    "\n"
    "Simulates SCENE exactly as `samara run` does (same steps, same bits) and writes the\n"
    "motion sampled at F frames per second: frame k (k = 0 ... floor(S*F)) is at time k/F\n"
    "exactly, its pose interpolated between the two steps around that time (centre of mass\n"
    "on a line, rotation on the shortest arc) and a shape-changing body's shape evaluated at\n"
    "it. Frames are numbered N, N+1, ... (--first-frame, default 1) in file names, shape keys\n"
    "and sidecars. Between frames, glb and chan add keys from the simulation's own steps\n"
    "wherever a body turns fast, so that no player takes a fast spin the short way round.\n"
    "On success the settings to import with (frame rate, range) are printed.\n"
    "World frame: Y-up, metres, seconds.\n"
    "\n"
    "formats:\n"
    "  glb    glTF 2.0 binary, PATH the file: one node per body (the body's name) with its\n"
    "         mesh (body frame: positions, normals, indices) and a material in the viewer's\n"
    "         colour (sheets double-sided); an animation with its translation (the body\n"
    "         origin) and rotation (body -> world), LINEAR keys at every frame and at the\n"
    "         steps between frames where a body would otherwise be off by more than 0.25 deg\n"
    "         (or 0.5 mm at its far end; no two keys more than 30 deg apart); key times are\n"
    "         t + N/F, so that an importer placing time t at frame t*F puts frame N on N.\n"
    "         Shape change: rigid parts are child nodes with their own keys; a glTF skin is\n"
    "         a skin (joints, weights, inverse bind matrices); anything else one morph target\n"
    "         per distinct frame shape (frame_0001, ...) with LINEAR weights (frame k's shape\n"
    "         blends into k+1's between frames). A camera (--camera) and a sun; the scene's\n"
    "         extras hold fps, frame_start, frame_end, time_offset and time_end\n"
    "  obj    one OBJ file per frame of the world-space meshes, every body an `o NAME`\n"
    "         object (%.9g): PREFIX_0001.obj, PREFIX_0002.obj, ... (numbered from N; a\n"
    "         trailing .obj of PATH is dropped), or DIR/SCENE_0001.obj ... when PATH is a\n"
    "         directory (existing, or ending in /); at least 4 digits\n"
    "  csv    PATH the file, header: the `samara run` columns then frame,ox,oy,oz:\n"
    "           t,body,x,y,z,qw,qx,qy,qz,...,kinetic_energy,newton_iters,frame,ox,oy,oz\n"
    "         rows of the step nearest to each frame, round(k/(F*H)): t is the step's\n"
    "         time, x,y,z the centre of mass, ox,oy,oz the body origin at that step, frame\n"
    "         the frame's number; the run columns equal `samara run`'s rows byte for byte\n"
    "  chan   Houdini channel file per body, PREFIX_BODY.chan (or DIR/BODY.chan): rows\n"
    "         `tx ty tz rx ry rz`, the body origin (m) and rotation angles in degrees for\n"
    "         Houdini's default orders (transform SRT, rotation XYZ: rotate about x, then y,\n"
    "         then z, R = Rz*Ry*Rx), unwrapped to be continuous; %.17g; R rows per frame,\n"
    "         the fewest power of two (up to 64) with no body turning more than 15 deg\n"
    "         between rows; beside them PREFIX_BODY.obj (the body's mesh in its own frame)\n"
    "         and PREFIX_chan.json (fps, rows_per_frame, sample_rate, first/last frame)\n"
    "  pc2    point cache per body, PREFIX_BODY.pc2 (or DIR/BODY.pc2): world-space vertex\n"
    "         positions of every frame; little endian: \"POINTCACHE2\\0\", int32 version 1,\n"
    "         int32 points, float32 start frame N, float32 sample rate 1 (frames between\n"
    "         samples), int32 samples, then float32 x y z per point per sample\n"
    "Body names in file names keep [A-Za-z0-9._-] and turn anything else into _.\n"
    "\n"
    "options:\n"
    "  --format FORMAT     glb, obj, csv, chan or pc2 (required)\n"
    "  -o, --out PATH      the file, prefix or directory (required); missing folders are\n"
    "                      made; every file is written to a temporary name and renamed\n"
    "                      when all are complete, so a failed or interrupted export leaves\n"
    "                      none (and no folder it made). --out - writes csv, or the\n"
    "                      channels of a single-body scene (chan; no mesh or sidecar), to\n"
    "                      stdout (the lines naming the output go to stderr)\n"
    "  --fps F             frames per second (default 24, film and animation; at most 100000)\n"
    "  --first-frame N     the number of the first frame (default 1, as Blender and\n"
    "                      Houdini count; an integer, 0 or more)\n"
    "  --camera MODE       glb: auto (default) adds a camera that follows the bodies from\n"
    "                      the viewer's default direction, at one distance that frames them\n"
    "                      all at every frame; none adds none\n"
    "  --duration S        simulated time in seconds (default: the scene's sim.duration)\n"
    "  --dt H              time step in seconds (default: the scene's sim.dt)\n"
    "  --set PATH=VALUE    as for run. Repeatable.\n"
    "  --threads N         threads that step the bodies (default 1; at most one per\n"
    "                      body); the files are the same bytes for any N\n"
    "  -h, --help          this help\n"
    "\n"
    "exit codes: 0 success, 1 bad input or an output that cannot be written, 2 usage error,\n"
    "3 a step failed, 130 interrupted\n";

namespace {

struct ExportOptions {
  std::optional<io::ExportFormat> format;
  std::string out;
  double fps = 24.0;
  long long firstFrame = 1;
  bool camera = true;
  int threads = 1;   ///< --threads
  io::RunSpec spec;  ///< the scene, --set, --duration, --dt
  bool help = false;
};

/// A finite number > 0 (or ≥ 0 with allowZero).
double parsePositive(const std::string& flag, const std::string& v, bool allowZero,
                     const char* unit) {
  const double x = parseNumber(v).value_or(std::nan(""));
  if (!std::isfinite(x) || (allowZero ? x < 0.0 : x <= 0.0)) {
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
      if (o.fps > io::kMaxExportFps) {
        throw UsageError{io::strf("export: --fps is at most %g frames per second (got %g)",
                                  io::kMaxExportFps, o.fps)};
      }
    } else if (name == "--first-frame") {
      const std::string v = scan.value();
      const long long n = parseInteger(v).value_or(-1);
      if (n < 0 || n > 1'000'000'000) {
        throw UsageError{"export: --first-frame needs a whole number from 0 to 1000000000 (got \"" +
                         v + "\")"};
      }
      o.firstFrame = n;
    } else if (name == "--camera") {
      const std::string v = scan.value();
      if (v != "auto" && v != "none") {
        throw UsageError{"export: --camera is auto or none (got \"" + v + "\")"};
      }
      o.camera = v == "auto";
    } else if (name == "--duration") {
      o.spec.duration = parsePositive(name, scan.value(), /*allowZero=*/true, " of seconds");
    } else if (name == "--dt") {
      o.spec.dt = parsePositive(name, scan.value(), /*allowZero=*/false, " of seconds");
    } else if (name == "--set") {
      o.spec.sets.push_back(scan.setValue());
    } else if (name == "--threads") {
      o.threads = parseThreads("export", scan.value());
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
  settings.plan.firstFrame = o.firstFrame;
  settings.autoCamera = o.camera;
  settings.chanSidecars = !io::isStandardOutput(o.out);  // stdout takes the channels alone
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

/// What to set in the renderer that reads the files: the frame rate and the frame range.
std::string importSettings(const io::ExportSettings& s, long long frames, int rowsPerFrame) {
  const io::FramePlan& p = s.plan;
  const std::string range =
      io::strf("frames %lld-%lld at %g fps (t = 0 ... %g s)", p.frameNumber(0),
               p.frameNumber(frames - 1), p.fps, p.frameTime(frames - 1));
  switch (s.format) {
    case io::ExportFormat::kGlb:
      return "import: set the scene's frame rate to " + io::strf("%g", p.fps) +
             " fps before importing (importers turn seconds into frames at the scene's rate); " +
             range + "; Blender 3.4: Shading 'Smooth'\n";
    case io::ExportFormat::kObj:
      return "import: an OBJ sequence, " + range + "\n";
    case io::ExportFormat::kPc2:
      return "import: Mesh Cache (PC2) on the first OBJ/glb frame's mesh, frame start " +
             std::to_string(p.frameNumber(0)) + ", " + range + "\n";
    case io::ExportFormat::kChan:
      return io::strf("import: File CHOP, sample rate %g (%d rows per frame), start frame %lld; ",
                      p.fps * rowsPerFrame, rowsPerFrame, p.frameNumber(0)) +
             range + "\n";
    case io::ExportFormat::kCsv:
      return "";
  }
  return "";
}

}  // namespace

int exportCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  const ExportOptions o = parseExportOptions(args);
  if (o.help) {
    out << kExportHelp;
    return kExitOk;
  }
  io::PreparedRun run = io::prepareRun(o.spec);
  run.world.setThreads(o.threads);
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
    err << "samara: "
        << io::printable(io::failureText(o.spec.scene, failure, outcome.steps) + notWritten)
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
  report << importSettings(settings, frames, exporter.rowsPerFrame());
  return kExitOk;
}

}  // namespace samara::cli
