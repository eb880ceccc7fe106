#pragma once
// The free 3D rectangle: the part of the window the side panels (controls on the left, plots
// on the right) leave for the 3D view, in ImGui units. The renderer, the teaching overlays
// and the floating panels all place themselves from it.
#include <imgui.h>

namespace samara::app {

struct Layout {
  float left = 0.0f;   ///< right edge of the controls panel (0 when hidden)
  float right = 0.0f;  ///< left edge of the plots panel (the display width when hidden)

  /// The horizontal shift of the projection centre (NDC) that centres the 3D view between
  /// the panels in a window `windowWidth` wide (0 when there is no free part).
  float viewShift(float windowWidth) const {
    if (windowWidth <= 0.0f || right <= left) return 0.0f;
    const float mid = 0.5f * (left + right);
    return (mid - 0.5f * windowWidth) / (0.5f * windowWidth);
  }
  /// The right edge of the free part for a panel that starts at x = `from`: the plots'
  /// edge, or the work area's when the plots do not leave room right of `from`.
  float rightEdge(const ImGuiViewport& vp, float from) const {
    return right > from ? right : vp.WorkPos.x + vp.WorkSize.x;
  }
};

}  // namespace samara::app
