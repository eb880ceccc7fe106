#pragma once
// Presentation mode (F11): which panels stay visible (the rest are hidden), and the way out.
#include "app/context.h"

namespace samara::app {

class PresentationPanel {
 public:
  /// Whether a panel is shown: always outside presentation mode, as chosen in it.
  bool controls(const ViewerContext& ctx) const;
  bool plots(const ViewerContext& ctx) const;
  bool history(const ViewerContext& ctx) const;
  bool lesson(const ViewerContext& ctx) const;
  bool patterns(const ViewerContext& ctx) const;
  /// The panel itself (only in presentation mode).
  void draw(ViewerContext& ctx);

 private:
  bool controls_ = false, plots_ = true, history_ = true, lesson_ = true, patterns_ = true;
};

}  // namespace samara::app
