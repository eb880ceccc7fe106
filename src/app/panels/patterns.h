#pragma once
// The falling-pattern overlay: a small translucent box at the top left of the 3D view with
// each body's pattern (and its ghost's), in the bodies' colours.
#include "app/context.h"

namespace samara::app {

void drawPatternOverlay(const ViewerContext& ctx, const runtime::Snapshot& s);

}  // namespace samara::app
