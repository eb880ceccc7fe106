#pragma once
// The "View" section of the controls: follow and reset the camera, what the renderer draws
// (shadows, grid, water, trails and their length), the UI scale, the picture size and a
// screenshot. It also builds the centre-of-mass trails it switches on.
#include <vector>

#include "app/context.h"

namespace samara::app {

class ViewPanel {
 public:
  /// `shotSize`: the picture size, width and height px (Capture::shotSize()).
  explicit ViewPanel(int* shotSize) : shotSize_(shotSize) {}
  /// A new run: empty trails.
  void onNewRun(const runtime::Snapshot& s);
  /// The trails of the last trail-length seconds, up to the step shown, to the renderer.
  void updateTrails(ViewerContext& ctx, const runtime::Snapshot& s);
  void draw(ViewerContext& ctx, const runtime::Snapshot& s);

 private:
  int* shotSize_;
  std::vector<Trail> trails_;
  std::vector<Trail> ghostTrails_;
};

}  // namespace samara::app
