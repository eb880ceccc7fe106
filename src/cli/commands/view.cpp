// `samara view [SCENE] [options]`: the options of the viewer, checked here and handed to the
// ViewHandler that main() registers (cli never includes the app).
#include <cmath>
#include <cstdlib>
#include <ostream>
#include <string>
#include <vector>

#include "cli/cli_util.h"
#include "cli/commands/command_list.h"
#include "io/output_folders.h"

namespace samara::cli {

const char* const kViewHelp =
    "usage: samara view [SCENE] [--frames N] [--screenshot out.png] [--set PATH=VALUE]...\n"
    "                   [--shot-size WxH] [--video out.mp4] [--video-fps F] [--video-ui]\n"
    "                   [--width W] [--height H]\n"
    "                   [--realtime] [--msaa N] [--ui-scale S] [--ghost MODEL]\n"
    "                   [--overlay NAME]... [--present] [--layout-report FILE]\n"
    "                   [--threads N]\n"
    "\n"
    "The interactive viewer (also `samara` with no arguments): the scene in 3D with controls\n"
    "for fluid density, wind, delta, time step and speed, and live plots of momentum, fall\n"
    "speed, rotation speed and kinetic energy. SCENE is a scene (.json) or a mesh (.obj,\n"
    ".gltf, .glb: a default scene is made around it); default assets/scenes/maple_seed.json.\n"
    "\n"
    "options:\n"
    "  --frames N          render N frames (1/60 s of simulated time each, 1/F s with\n"
    "                      --video-fps F), then exit (the folders of the files below are\n"
    "                      made if missing)\n"
    "  --screenshot FILE   with --frames: save the last frame as a PNG (the window as\n"
    "                      shown, panels included, unless --shot-size)\n"
    "  --shot-size WxH     pictures (screenshot, video, the P key) of the 3D view alone,\n"
    "                      rendered offscreen at W x H pixels whatever the window's size\n"
    "  --video FILE        with --frames: a video of every frame, piped to ffmpeg; by\n"
    "                      default the 3D view as shown (no panels) at its size rounded\n"
    "                      down to even pixels. .mp4/.mkv/.mov are H.264 yuv420p, BT.709\n"
    "                      (converted and tagged, limited range); .mp4/.mov faststart.\n"
    "                      Needs ffmpeg (Debian: apt install ffmpeg)\n"
    "  --video-fps F       with --video: F frames per second of video (60), each frame\n"
    "                      1/F s of simulated time so that the video plays in real time;\n"
    "                      0 < F <= 1000\n"
    "  --video-ui          with --video: the whole window, panels included (not with\n"
    "                      --shot-size)\n"
    "  --layout-report FILE  with --frames: after the last frame, JSON with the 3D view's\n"
    "                      and every panel's rectangle and each body's projected bounding\n"
    "                      box (window units), for layout checks\n"
    "  --set PATH=VALUE    as for run. Repeatable.\n"
    "  --width W, --height H   window size in pixels (1280 x 800)\n"
    "  --realtime          with --frames: pace by the wall clock, as interactively\n"
    "  --threads N         threads that step the bodies, and the ghost beside the scene\n"
    "                      (default: one per core; the Simulation panel changes it)\n"
    "  --ghost MODEL       also run the scene under MODEL (every body), drawn translucent\n"
    "                      and shown in the plots (samara, gwtf-2024, vacuum,\n"
    "                      mujoco-inertia, mujoco-ellipsoid, xie-miyata, gross-dissipative,\n"
    "                      gross-inertial,\n"
    "                      or no-added-mass: the same models with delta = 0)\n"
    "  --overlay NAME      start with a teaching overlay on: forces (lift+drag, gravity,\n"
    "                      buoyancy, contact at the COM), face-forces (per-face lift and\n"
    "                      drag), added-mass (glyphs and table), velocity (velocity and\n"
    "                      momentum, body vs body+fluid). Repeatable\n"
    "  --present           presentation mode (F11): full screen, larger UI and plots,\n"
    "                      high contrast, only the plots, history and lesson panels\n"
    "  --msaa N            anti-aliasing samples, 0 = off (4)\n"
    "  --ui-scale S        UI scale for large rooms (default: the monitor's)\n"
    "  -h, --help          this help\n";

const char* const kNoViewerNote =
    "\nThis build has no viewer (headless preset); use `samara run SCENE --summary`.\n";

namespace {

int parseIntIn(const std::string& flag, const std::string& v, long lo, long hi) {
  const long long n = parseInteger(v).value_or(static_cast<long long>(lo) - 1);
  if (n < lo || n > hi) {
    throw UsageError{"view: " + flag + " needs an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "] (got \"" + v + "\")"};
  }
  return static_cast<int>(n);
}

}  // namespace

/// `samara view [SCENE] [options]`: the viewer, or a clear message in a headless build.
int viewCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                const ViewHandler& view) {
  if (!view) {
    for (const std::string& a : args) {
      if (a == "-h" || a == "--help") {
        out << kViewHelp << kNoViewerNote;
        return kExitOk;
      }
    }
    err << "samara: view: this build has no viewer (headless preset); use "
           "`samara run SCENE --summary` or `samara inspect SCENE`\n";
    return kExitUsage;
  }
  ViewArgs o;
  bool fpsGiven = false;
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
    } else if (a == "--layout-report") {
      o.layoutReportPath = value();
      if (o.layoutReportPath.empty()) throw UsageError{"view: --layout-report needs a file name"};
    } else if (a == "--video") {
      o.videoPath = value();
      if (o.videoPath.empty()) throw UsageError{"view: --video needs a file name"};
    } else if (a == "--video-fps") {
      const std::string v = value();
      const double f = parseNumber(v).value_or(std::nan(""));
      if (!(f > 0.0 && f <= 1000.0)) {
        throw UsageError{
            "view: --video-fps needs frames per second, a number in (0, 1000] (got \"" + v + "\")"};
      }
      o.videoFps = f;
      fpsGiven = true;
    } else if (a == "--video-ui") {
      o.videoUi = true;
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
    } else if (a == "--threads") {
      o.threads = parseThreads("view", value());
    } else if (a == "--overlay") {
      o.overlays.push_back(value());
    } else if (a == "--ui-scale") {
      const std::string v = value();
      const double x = parseNumber(v).value_or(std::nan(""));
      if (!(x >= 0.25 && x <= 8.0)) {
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
  if (o.videoPath.empty() && (fpsGiven || o.videoUi)) {
    throw UsageError{std::string("view: ") + (fpsGiven ? "--video-fps" : "--video-ui") +
                     " needs --video FILE"};
  }
  if (o.videoUi && o.shotWidth > 0) {
    throw UsageError{
        "view: --video-ui (the whole window) and --shot-size (the 3D view alone) "
        "exclude each other"};
  }
  // The folders of the pictures and the report, made before the viewer opens; removed again
  // if it fails and they are still empty.
  io::OutputFolders folders;
  for (const std::string* path : {&o.screenshotPath, &o.videoPath, &o.layoutReportPath}) {
    if (!path->empty()) folders.createFor({*path});
  }
  const int code = view(o, out, err);
  if (code == kExitOk) folders.keep();
  return code;
}

}  // namespace samara::cli
