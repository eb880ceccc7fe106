#pragma once
// The run panel, at the top of the controls: the scene's name and status, the real-time
// factor, messages and notices, Run/Pause, Step, Reset and Restart with these parameters;
// and the "Simulation" section (speed, time step h, simulation threads, Newton statistics).
#include "app/context.h"
#include "app/widgets/widgets.h"

namespace samara::app {

class RunPanel {
 public:
  /// Status and the run buttons.
  void drawStatus(ViewerContext& ctx, const runtime::Snapshot& s);
  /// The "Simulation" section.
  void drawSimulation(ViewerContext& ctx, const runtime::Snapshot& s);

 private:
  void drawThreads(ViewerContext& ctx, const runtime::Snapshot& s);

  EditedValue speed_, dt_, threads_;
};

}  // namespace samara::app
