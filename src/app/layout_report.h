#pragma once
// The layout report of `samara view --layout-report FILE`: what the layout tests check
// without reading pixels. JSON, window units (y down):
//   {"window": [w, h], "view": [x, y, w, h],
//    "panels": [{"name": "Plots", "rect": [x, y, w, h]}, ...],   every visible ImGui window
//    "bodies": [{"name": "...", "ghost": false, "pane": [x, y, w, h],
//                "bbox": [x0, y0, x1, y1], "behind": false}, ...]}
// A body's bbox is the bounding box of its projected vertices in the pane that shows it
// (the whole view when not split); "behind" is true if a vertex is behind the camera.
#include <string>
#include <vector>

#include "app/context.h"

namespace samara::app {

/// The report of the current frame (call between ImGui::NewFrame and ImGui::Render, after
/// the panels are drawn).
std::string layoutReport(const runtime::Snapshot& s, const ViewerContext& ctx,
                         const std::vector<Pane>& panes);

}  // namespace samara::app
