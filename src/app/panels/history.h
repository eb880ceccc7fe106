#pragma once
// History: scrub back through the recorded steps (the runner keeps the last
// RunnerOptions::historySeconds), slow motion and freeze frame. While scrubbing the 3D view,
// trails and overlays show the recorded step and every plot a cursor at its time; "resume"
// continues from the live state (the last step taken), not from the scrubbed one.
#include "app/context.h"
#include "app/widgets/plot.h"

namespace samara::app {

class HistoryPanel {
 public:
  /// Moves the plots' cursor (and window) to the scrubbed time, then draws the panel
  /// (unless there is no scene).
  void draw(ViewerContext& ctx, const runtime::Snapshot& s, PlotView* plots);

 private:
  /// The scrub slider and its arrows, and the scrubbing state.
  static void drawScrub(ViewerContext& ctx, const runtime::Snapshot& s);
  /// Slow-motion presets and play / freeze.
  static void drawSpeed(ViewerContext& ctx, const runtime::Snapshot& s);
};

}  // namespace samara::app
