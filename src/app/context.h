#pragma once
// What the viewer's panels share (UI thread only): the runner they post commands to, the
// camera and render settings, the plot history and falling patterns fed from the samples,
// the selected body, the free 3D rectangle, the UI scale and a notice line. Each panel
// keeps everything else it needs (its sliders, paths, lists) to itself.
#include <string>

#include "app/layout.h"
#include "app/render/camera.h"
#include "app/render/renderer.h"
#include "runtime/fall_patterns.h"
#include "runtime/runner.h"
#include "runtime/time_series.h"

namespace samara::app {

class Window;

/// A line of text under the run status for a few seconds (saved files, reloads, errors).
class Notice {
 public:
  void show(const std::string& text, double seconds = 4.0);
  /// The text while it is shown, else null.
  const std::string* current() const;

 private:
  std::string text_;
  double until_ = 0.0;  // glfwGetTime() s
};

struct ViewerContext {
  runtime::Runner* runner = nullptr;
  Renderer* renderer = nullptr;
  Window* window = nullptr;
  OrbitCamera camera;
  RenderSettings render;
  runtime::PlotHistory history;
  runtime::FallPatterns patterns;
  Layout layout;
  Notice notice;
  int selected = 0;                  ///< the selected body (Bodies panel, plots, follow, teaching)
  bool follow = true;                ///< the camera follows the selected body (F)
  bool frameGhost = true;            ///< following: keep the selected body and its ghost in view
  bool showHelp = false;             ///< the Help window (H, F1)
  bool screenshotRequested = false;  ///< P: a picture of this frame

  void post(runtime::Command command) const { runner->post(std::move(command)); }
  /// Looks at the bodies' bounding centre from the default direction (V, "reset view").
  void resetView(const runtime::Snapshot& s);
};

/// The camera distance parameter that shows every body of `s`: 4 × the largest bounding
/// radius, at least 3 cm.
float viewRadius(const runtime::Snapshot& s);

}  // namespace samara::app
