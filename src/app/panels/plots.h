#pragma once
// The "Plots" window on the right: momenta, fall and rotation speed and kinetic energy of the
// selected body (and its ghost), sharing one time axis (window, freeze).
#include <string>
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
  /// Shows only the plots named (keys as in a lesson's "view"/"plots": linear_momentum,
  /// angular_momentum, fall_speed, rotation_speed, kinetic_energy); empty: all.
  void setShownPlots(const std::vector<std::string>& keys);
  /// The shared time axis (the History panel moves it to the scrubbed time).
  PlotView& view() { return view_; }

 private:
  /// Window length, freeze, "fit ghost" and the plotted bodies.
  void drawHeader(const runtime::Snapshot& s);
  void drawBodyPicks(const runtime::Snapshot& s);

  /// The bodies plotted (at least one: the selected body if none is ticked).
  std::vector<int> plottedBodies(const ViewerContext& ctx) const;

  std::vector<PlotWidget> plots_;
  PlotView view_;
  std::vector<char> plotted_;     // per body: plotted (the header's checkboxes)
  std::vector<char> shownPlots_;  // per plot: shown (the header's "plots" menu)
  std::string scenePath_;         // the scene plotted_ was set up for
};

}  // namespace samara::app
