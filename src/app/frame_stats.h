#pragma once
// The frame-time / simulation-rate summary that `samara view` prints on exit.
#include <cstdint>
#include <iosfwd>

#include "runtime/snapshot.h"

namespace samara::app {

/// Frame times and simulation rate, for the summary printed on exit.
struct FrameStats {
  long long frames = 0;
  double firstWall = 0.0, lastWall = 0.0, renderSeconds = 0.0;  // s
  std::int64_t stepsAtFirstFrame = 0;
};

/// Prints the summary line of `f` and the last snapshot `s` (`frameSeconds` > 0: lockstep,
/// that much simulated time per frame, s).
void printStats(const FrameStats& f, const runtime::Snapshot& s, double frameSeconds,
                std::ostream& out);

}  // namespace samara::app
