#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cli/cli_util.h"
#include "cli/commands/command_list.h"
#include "cli/terminal.h"
#include "io/cfd_run.h"
#include "io/text_format.h"

namespace samara::cli {

const char* const kCfdHelp =
    "usage: samara cfd SCENE --out DIR [--threads N] [--duration S] [--reduced MODEL|none]\n"
    "                  [--set PATH=VALUE]...\n"
    "\n"
    "Runs the 2D Navier-Stokes reference: a rigid body (circle, ellipse, rectangle) in an\n"
    "incompressible flow, coupled both ways, on a periodic Fourier grid (scene files with a\n"
    "\"cfd\" object, e.g. assets/cfd/*.json; README \"Fluid reference\"). An ellipse with a\n"
    "\"wave\" swims (assets/cfd/swimmer.json): its speed and Strouhal number are printed.\n"
    "Writes into DIR:\n"
    "  trajectory.csv   the body's motion in samara run's columns, per metre of span\n"
    "                   (the x-y plane, y up; rotation about z)\n"
    "  forces.csv       t,fx,fy,torque,cfl: the flow's force (N/m, no buoyancy) and torque\n"
    "                   about the centre (N m/m)\n"
    "  vorticity_NNNN.png, vorticity_NNNN.npy   snapshots of the vorticity (PNG: red\n"
    "                   anticlockwise, blue clockwise, the body grey; npy: float64 (ny, nx))\n"
    "  snapshots.json   each snapshot's time and window origin\n"
    "  reduced.csv, reduced_scene.json   for a free ellipse or rectangle: the same body as\n"
    "                   a sheet 10 chords long under samara's reduced model (same mass and\n"
    "                   displaced volume per metre of span; a swimmer's wave on its\n"
    "                   midline), in the same columns per metre of span; samara view\n"
    "                   DIR/reduced_scene.json shows this run as its ghost, with the\n"
    "                   vorticity on a plane through the span\n"
    "Nothing is written if the run fails or is interrupted.\n"
    "\n"
    "options:\n"
    "  --out DIR          the output folder (required; made if missing)\n"
    "  --threads N        threads over the grid (default: the scene's; results are the\n"
    "                     same bits for any N)\n"
    "  --duration S       simulated seconds (default: the scene's)\n"
    "  --reduced MODEL    the model of reduced.csv: samara (default), gwtf-2024, ..., a\n"
    "                     model object as in scene files ('{\"type\": \"samara\", \"ct\":\n"
    "                     1.2, \"cr\": 3.14159}'), or none\n"
    "  --set PATH=VALUE   edit the scene (as for run), e.g. --set cfd.body.density=3000\n"
    "  -h, --help         this help\n"
    "\n"
    "exit status: 0 done, 1 bad scene or output, 2 usage, 3 the solver stopped, 130\n"
    "interrupted\n";

int cfdCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::optional<std::string> outDir;
  std::optional<int> threads;
  std::optional<double> duration;
  std::string reduced = "samara";
  io::SetList sets;
  ArgScanner scan("cfd", args);
  while (scan.next()) {
    const std::string& name = scan.name();
    if (name == "--out") {
      outDir = scan.value();
      if (outDir->empty()) throw UsageError{"cfd: --out needs a folder name"};
    } else if (name == "--threads") {
      threads = std::min(parseThreads("cfd", scan.value()), 256);
    } else if (name == "--duration") {
      duration = parseSeconds("cfd", name, scan.value(), /*allowZero=*/false);
    } else if (name == "--reduced") {
      reduced = scan.value();
      if (reduced.empty()) throw UsageError{"cfd: --reduced needs a model name or none"};
    } else if (name == "--set") {
      sets.push_back(scan.setValue());
    } else {
      scan.unknown();
    }
  }
  if (scan.help()) {
    out << kCfdHelp;
    return kExitOk;
  }
  const std::string scene = scan.onePositional("SCENE");
  if (!outDir) throw UsageError{"cfd: --out DIR is required"};
  io::CfdScene s = io::loadCfdScene(scene, sets);
  if (threads) s.def.threads = *threads;
  if (duration) s.duration = *duration;
  const InterruptScope interrupts;
  ProgressLine line(showsProgress(err));
  io::CfdRunOptions opt;
  opt.outDir = *outDir;
  opt.reducedModel = reduced == "none" ? "" : reduced;
  opt.cancel = &interruptFlag();
  opt.progress = [&](double t, double fraction) {
    if (!line.due()) return;
    const double eta = ProgressLine::eta(line.elapsed(), fraction);
    line.show(io::strf("samara: t = %.3f / %g s  %3.0f%%  ETA %d:%02d", t, s.duration,
                       100.0 * fraction, static_cast<int>(eta) / 60, static_cast<int>(eta) % 60));
  };
  const io::CfdRunResult r = io::runCfd(s, scene, opt);
  if (r.cancelled) {
    err << "samara: interrupted; nothing written to " << *outDir << "\n";
    return kExitInterrupted;
  }
  if (r.failed) {
    err << "samara: " << io::printable(r.message) << "; nothing written to " << *outDir << "\n";
    return kExitSimFailed;
  }
  out << io::strf(
      "%s: %lld steps of %g s on %d x %d cells in %.1f s (%.3g cell-steps/s), "
      "%d snapshots, in %s\n",
      s.name.c_str(), r.steps, s.def.dt, s.def.nx, s.def.ny, r.wallSeconds, r.cellStepsPerSecond,
      r.snapshots, outDir->c_str());
  if (s.def.hasBody) {
    out << io::strf(
        "%s at t = %g s: position (%.4g, %.4g) m, velocity (%.4g, %.4g) m/s, "
        "angle %.4g rad, omega %.4g rad/s\n",
        s.def.body.name.c_str(), s.duration, r.body.position.x(), r.body.position.y(),
        r.body.velocity.x(), r.body.velocity.y(), r.body.angle, r.body.omega);
  }
  auto motion = [&](const std::string& who, const fluid::PlateMotion& m) {
    out << io::strf(
        "%s, second half of the run: %s; %.3g turns (%.3g turns/s), swing %.3g deg, "
        "period %.3g s; descends %.3g m/s, drifts %.3g m/s, path %.3g deg below the "
        "horizontal\n",
        who.c_str(), fluid::regimeName(m.regime).c_str(), m.turns, m.rotationRate,
        m.swing * 57.29577951308232, m.period, m.descentSpeed, m.drift, m.descentAngle);
  };
  if (s.def.hasBody && !s.def.body.fixed && fluid::undulates(s.def.body)) {
    // A swimmer: its mean speed over the second half and the Strouhal number of its tail.
    const fluid::Wave2& w = s.def.body.wave;
    auto swim = [&](const std::string& who, const fluid::PlateMotion& m) {
      const double speed = std::hypot(m.drift, m.descentSpeed);
      out << io::strf(
          "%s, swimmer, second half of the run: %.3g m/s (%.3g body lengths per period), "
          "Strouhal number 2 A f / U = %.3g\n",
          who.c_str(), speed, speed * w.period / (2.0 * s.def.body.a),
          speed > 0.0 ? 2.0 * w.amplitude / (w.period * speed) : 0.0);
    };
    swim("fluid reference", r.motion);
    if (r.hasReduced) swim("reduced model (" + reduced + ")", r.reducedMotion);
  } else if (s.def.hasBody && !s.def.body.fixed) {
    motion("fluid reference", r.motion);
    if (r.hasReduced) motion("reduced model (" + reduced + ")", r.reducedMotion);
  }
  return kExitOk;
}

}  // namespace samara::cli
