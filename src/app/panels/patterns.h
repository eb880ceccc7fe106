#pragma once
// The falling-pattern panel: each body's pattern (and its ghost's), in the bodies' colours,
// in its room of the right column (above the plots).
#include "app/context.h"

namespace samara::app {

/// The height the panel needs (0 when there is nothing to show yet).
float patternsHeight(const ViewerContext& ctx, const runtime::Snapshot& s);
void drawPatternPanel(const ViewerContext& ctx, const runtime::Snapshot& s, const Rect& room);

}  // namespace samara::app
