#pragma once
// The `samara` command line: run, inspect, view, bench, forces, export, sweep, sweep-job,
// help, --help, --version. main() (apps/samara) registers the viewer through a ViewHandler,
// so this library never depends on the app.
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace samara::cli {

/// Exit codes of `samara`.
enum ExitCode : int {
  kExitOk = 0,
  kExitBadInput = 1,       ///< a scene, mesh or output file that cannot be used
  kExitUsage = 2,          ///< unknown command or option, bad option value
  kExitSimFailed = 3,      ///< a step failed (Newton did not converge even with sub-steps)
  kExitInterrupted = 130,  ///< SIGINT / SIGTERM during a run
};

/// `samara view [SCENE] [options]`, parsed and checked (see `samara help view`). Unset
/// optionals keep the viewer's defaults.
struct ViewArgs {
  std::string scenePath;         ///< "" = the default scene
  int frames = 0;                ///< --frames N; 0 = interactive
  std::string screenshotPath;    ///< --screenshot FILE (with --frames)
  std::string videoPath;         ///< --video FILE (with --frames)
  double videoFps = 60.0;        ///< --video-fps F (with --video), frames per second
  bool videoUi = false;          ///< --video-ui (with --video): the whole window
  int shotWidth = 0;             ///< --shot-size WxH, px; 0 = the window as shown
  int shotHeight = 0;            ///< see shotWidth
  std::optional<int> width;      ///< --width, px
  std::optional<int> height;     ///< --height, px
  std::optional<int> msaa;       ///< --msaa samples
  std::optional<float> uiScale;  ///< --ui-scale
  std::vector<std::pair<std::string, std::string>> sets;  ///< --set PATH=VALUE, in order
  bool realTime = false;                                  ///< --realtime
  bool present = false;                                   ///< --present
  std::optional<std::string> ghostModel;                  ///< --ghost MODEL
  std::optional<int> threads;                             ///< --threads N
  std::vector<std::string> overlays;                      ///< --overlay NAME, in order
  std::string layoutReportPath;                           ///< --layout-report FILE
};

/// Opens the viewer for `samara view` (and `samara` with no arguments); returns the exit
/// code. Results go to `out`, messages to `err`.
using ViewHandler = std::function<int(const ViewArgs& args, std::ostream& out, std::ostream& err)>;

/// Runs the command line `argv[0..argc)` and returns the exit code. Results go to `out`,
/// messages ("samara: ...") to `err`. Progress is shown on stderr only when `err` is
/// std::cerr and stderr is a terminal. Never exits the process. Without a `view` handler
/// (the headless build) `samara view` says that there is no viewer.
int runCli(int argc, char** argv, std::ostream& out, std::ostream& err,
           const ViewHandler& view = {});

/// Makes SIGINT and SIGTERM stop a running command cleanly (exit 130, no half-written
/// file) for the whole process. Called by main(), not by tests.
void installInterruptHandler();

}  // namespace samara::cli
