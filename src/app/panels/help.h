#pragma once
// The Help window (H, F1): the key table (app/input.h), the mouse and files.
#include "app/context.h"

namespace samara::app {

void drawHelp(ViewerContext& ctx);

}  // namespace samara::app
