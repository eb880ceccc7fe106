#pragma once
// What the viewer's panels share (UI thread only): the runner they post commands to, the
// camera and render settings, the plot history and falling patterns fed from the samples,
// the selected body, the free 3D rectangle, the UI scale and a notice line. Each panel
// keeps everything else it needs (its sliders, paths, lists) to itself.
#include <imgui.h>

#include <glm/glm.hpp>
#include <string>
#include <vector>

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

/// One pane of a split 3D view: its rectangle (ImGui units) and what its camera follows.
struct Pane {
  Rect rect;
  glm::vec3 target{0.0f};
  int body = 0;        ///< the body (or, if `ghost`, the ghost body) it follows
  bool ghost = false;  ///< follows body `body`'s ghost
  /// The pane's camera distance over the shared one: its body's bounding radius over the
  /// largest body's (at least 0.2), so that a small body next to a large one is magnified
  /// (its tag says by how much: "x2.5"); 1 for bodies of the same size.
  float zoom = 1.0f;
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
  int selected = 0;        ///< the selected body (Bodies panel, plots, follow, teaching)
  bool follow = true;      ///< the camera follows the selected body (F)
  bool frameGhost = true;  ///< following: keep the selected body and its ghost in view
  /// Following a group: the camera this many times nearer than its framing (a lesson's
  /// camera zoom); 1 otherwise.
  float framingZoom = 1.0f;
  /// Following, a scene of 2 to 4 bodies (or one body and its ghost) is shown split: each
  /// body in its own pane, side by side, at the same scale and from the same direction.
  bool split = true;
  bool showHelp = false;             ///< the Help window (H, F1)
  bool screenshotRequested = false;  ///< P: a picture of this frame
  double frameMs = 0.0;              ///< wall time per frame (smoothed), ms
  bool antiAliasing = true;          ///< multisampling on (when the window has samples)

  void post(runtime::Command command) const { runner->post(std::move(command)); }
  /// Frames every body from the default direction, in the 3D view's aspect (V, "reset
  /// view", and a new scene).
  void resetView(const runtime::Snapshot& s);
  /// Width / height of the 3D view (1 before the first layout), or of a pane when split.
  float viewAspect() const;
  /// The panes of a split view (empty: one view), each following its body.
  std::vector<Pane> panes(const runtime::Snapshot& s) const;
};

/// A sphere around bodies: the centre of the box that holds each body's bounding sphere,
/// and half its diagonal (m).
struct Bounds {
  glm::vec3 center{0.0f};
  float radius = 0.0f;
};
/// The bounds of the bodies of `s` (and of its ghost bodies if `ghosts`).
Bounds bodyBounds(const runtime::Snapshot& s, bool ghosts);

/// The framing radius for one body of `s`: 1.4 × the largest bounding radius (a followed
/// body stays centred; room to turn), at least 3 cm.
float viewRadius(const runtime::Snapshot& s);

}  // namespace samara::app
