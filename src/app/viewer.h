#pragma once
// The desktop viewer: a GLFW window with the 3D view, ImGui control panels and live plots,
// driving a runtime::Runner (the simulation thread).
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "app/paths.h"  // findAssetsDir, findDefaultScene
#include "io/scene.h"

namespace samara::app {

struct ViewerOptions {
  /// A scene (.json) or a mesh (.obj, .gltf/.glb: a default scene around it); "" = the
  /// default scene (findDefaultScene()).
  std::string scenePath;
  /// Render this many frames, then exit; 0 = interactive until the window is closed. With
  /// frames > 0 each frame advances the simulation by exactly 1/videoFps s × speed (1/60 s
  /// by default: reproducible screenshots, videos that play in real time) unless `realTime`
  /// is set.
  int frames = 0;
  std::string screenshotPath;  ///< PNG of the last frame (frames > 0); "" = none
  /// Pictures (the screenshot, the video, the P key) of the 3D view alone at this size, px,
  /// rendered offscreen whatever the window's size; 0 × 0 (the default) = screenshots of the
  /// window as shown, panels included, and a video of the 3D view as shown (see videoUi).
  int shotWidth = 0;
  int shotHeight = 0;  ///< see shotWidth
  /// With frames > 0: a video of every frame (videoFps per second of video) piped to ffmpeg;
  /// "" = none. Without ffmpeg on PATH, runViewer fails before it opens a window. Without a
  /// picture size it shows the 3D view alone (split panes, overlays and cues included, no
  /// panels) at its size in pixels rounded down to even ones.
  std::string videoPath;
  /// Frames per second of the video, in (0, 1000]; each frame with frames > 0 is 1/videoFps s
  /// of simulated time × speed. Default 60.
  double videoFps = 60.0;
  /// The video shows the whole window, panels included (when no picture size is set).
  /// Default false.
  bool videoUi = false;
  int width = 1280;  ///< window width, px
  int height = 800;  ///< window height, px
  io::SetList sets;  ///< `--set PATH=VALUE` edits of the scene
  /// With frames > 0: pace by the wall clock on the simulation thread, as interactively.
  bool realTime = false;
  /// UI scale (fonts and widgets); 0 = the monitor's content scale. Default 0.
  float uiScale = 0.0f;
  int msaa = 4;  ///< multisample anti-aliasing samples (0 = off); default 4
  /// Start with a ghost run under this fluid model (one of models::modelNames(); the
  /// "Ghost" combo of the Compare panel). Default none.
  std::optional<std::string> ghostModel;
  /// Threads that step the bodies (and the ghost beside the scene); 0 = one per core
  /// (std::thread::hardware_concurrency()). The Simulation panel changes it. Default 0.
  int threads = 0;
  /// Teaching overlays switched on at start (the "Teaching" panel's checkboxes): "forces",
  /// "face-forces", "added-mass", "velocity". Default none.
  std::vector<std::string> overlays;
  /// Start in presentation mode (F11): full screen on the primary monitor, a larger UI and
  /// plot fonts, a high-contrast theme, and only the chosen panels (plots, history, lesson,
  /// falling pattern). Default false.
  bool present = false;
  /// With frames > 0: after the last frame, a JSON file with the window's size, the 3D
  /// view's rectangle, every visible ImGui window's rectangle and each body's projected
  /// bounding box in its pane (window units, y down); "" = none. What the layout tests read.
  std::string layoutReportPath;
  /// Print the frame-time / simulation-rate summary on exit (to `out`). Default true.
  bool printStats = true;
  std::ostream* out = nullptr;  ///< summary; null = std::cout
  std::ostream* err = nullptr;  ///< errors ("samara: ..."); null = std::cerr
};

/// Opens the viewer. Returns 0 on success, 1 if the scene cannot be loaded, the ghost model
/// is unknown, the shaders are missing or broken, no OpenGL 3.3 window can be opened, the
/// screenshot or the video cannot be written, or a video is asked for without ffmpeg (the
/// reason goes to `err`); 3 if, with `frames`, the simulation failed (as `samara run`).
int runViewer(const ViewerOptions& options);

}  // namespace samara::app
