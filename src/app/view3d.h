#pragma once
// The 3D view in the layout's free rectangle: one view, or the panes of a split view (each
// following its body with the shared camera's direction and distance), their name tags, and
// the conversion from window units to framebuffer pixels.
#include <vector>

#include "app/context.h"
#include "app/render/renderer.h"
#include "runtime/reference_ghost.h"

struct GLFWwindow;

namespace samara::app {

/// A rectangle of the window (ImGui units) in `window`'s framebuffer pixels (GL: origin at
/// the bottom left).
Renderer::Viewport toPixels(const Rect& r, GLFWwindow* window);

/// The camera of a pane: `shared`, looking at the pane's body.
OrbitCamera paneCamera(const OrbitCamera& shared, const Pane& p);

/// Each pane's name tag (the body's colour and name, a ghost's model) and the lines between
/// the panes, on ImGui's background draw list (over the 3D view, under the panels).
void drawPaneLabels(const runtime::Snapshot& s, const std::vector<Pane>& panes);

/// Cues over the 3D view (or each pane): a height ruler when the scene has no floor (no grid
/// then), a scale bar, time ticks on the trails (the selected body's only when there are
/// more than 12 bodies), the wind's speed and direction, and a badge once the run is past
/// the scene's duration.
void drawViewCues(const runtime::Snapshot& s, const ViewerContext& ctx,
                  const std::vector<Pane>& panes, bool hasFloor);

/// Mouse over the 3D view: orbit (left drag), pan (right or middle drag, Shift + left; stops
/// following), zoom (wheel). Call only when ImGui does not want the mouse.
void orbitPanZoom(ViewerContext* ctx);

/// A scene of at least this many bodies is a crowd: following frames it whole.
inline constexpr std::size_t kCrowdBodies = 16;

/// Following (F): the camera looks at the selected body, or at every body (and ghost) when
/// they fit without shrinking it below 1/25 of the view, or always in a crowd; a split
/// view's panes follow their own bodies.
void followBodies(ViewerContext* ctx, const runtime::Snapshot& s);

/// The reference run's vorticity picture for time t on its plane (none
/// when the scene has no reference).
void showReference(Renderer& renderer, const runtime::ReferenceGhost& reference, double t);

/// Draws the scene into the layout's view (or each pane) of the bound window framebuffer.
void renderView(Renderer& renderer, const ViewerContext& ctx, const std::vector<Pane>& panes,
                GLFWwindow* window);

}  // namespace samara::app
