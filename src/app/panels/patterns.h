#pragma once
// The falling-pattern panel: each body's pattern (and its ghost's), in the bodies' colours,
// in its room of the right column (above the plots).
#include <vector>

#include "app/context.h"

namespace samara::app {

/// The height the panel needs (0 when there is nothing to show yet).
/// The bodies whose patterns are on screen: the panel's first bodies (each with its ghost)
/// and the selected body (the Body panel's line). Only these are classified every frame.
std::vector<int> patternBodiesShown(const ViewerContext& ctx, const runtime::Snapshot& s);
float patternsHeight(const ViewerContext& ctx, const runtime::Snapshot& s);
void drawPatternPanel(const ViewerContext& ctx, const runtime::Snapshot& s, const Rect& room);

}  // namespace samara::app
