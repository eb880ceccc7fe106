#pragma once
// The "Plots" window on the right: momenta, fall and rotation speed and kinetic energy of the
// selected body (and its ghost), sharing one time axis (window, freeze).
#include <vector>

#include "app/context.h"
#include "app/widgets/plot.h"

namespace samara::app {

class PlotsPanel {
 public:
  PlotsPanel();
  /// A new run: the time axis follows the data again.
  void onNewRun(const runtime::Snapshot& s);
  /// Draws the window in `room` (the plots share its height).
  void draw(ViewerContext& ctx, const runtime::Snapshot& s, const Rect& room);
  /// The shared time axis (the History panel moves it to the scrubbed time).
  PlotView& view() { return view_; }

 private:
  /// Window length, freeze and the body choice.
  void drawHeader(ViewerContext& ctx, const runtime::Snapshot& s);

  std::vector<PlotWidget> plots_;
  PlotView view_;
};

}  // namespace samara::app
