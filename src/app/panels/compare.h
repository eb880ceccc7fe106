#pragma once
// The "Compare models" section of the controls: the ghost run (a second copy of the scene
// under another model, in lockstep), the two one-click contrasts, and how it is shown.
#include "app/context.h"

namespace samara::app {

class ComparePanel {
 public:
  void draw(ViewerContext& ctx, const runtime::Snapshot& s);
};

}  // namespace samara::app
