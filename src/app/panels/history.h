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
  /// Moves the plots' cursor (and window) to the scrubbed time, then draws the panel in
  /// `room` (unless there is no scene): the scrub slider, play/freeze, and unless `compact`
  /// (presentation mode) a second row with slow motion and the recording state.
  void draw(ViewerContext& ctx, const runtime::Snapshot& s, PlotView* plots, const Rect& room,
            bool compact);

 private:
  /// The scrub slider and its arrows, and the scrubbing state.
  static void drawScrub(ViewerContext& ctx, const runtime::Snapshot& s);
  /// Slow-motion presets.
  static void drawSpeed(ViewerContext& ctx, const runtime::Snapshot& s);
  /// What is recorded, or the scrubbed step with "back to live" and "resume".
  static void drawState(ViewerContext& ctx, const runtime::Snapshot& s);
};

}  // namespace samara::app
