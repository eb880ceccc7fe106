#pragma once
// The "View" section of the controls: follow and reset the camera, what the renderer draws
// (shadows, grid, water, trails and their length), the UI scale, the picture size and a
// screenshot. It also builds the centre-of-mass trails it switches on: each trail follows its
// body's recorded samples incrementally (only the samples new since the last frame are read),
// thinned to at most 4,000 points each and 200,000 in all.
#include <cstdint>
#include <vector>

#include "app/context.h"

namespace samara::app {

class ViewPanel {
 public:
  /// `shotSize`: the picture size, width and height px (Capture::shotSize()).
  explicit ViewPanel(int* shotSize) : shotSize_(shotSize) {}
  /// A new run: empty trails.
  void onNewRun(const runtime::Snapshot& s);
  /// The trails of the last trail-length seconds, up to the step shown, to the renderer.
  void updateTrails(ViewerContext& ctx, const runtime::Snapshot& s);
  void draw(ViewerContext& ctx, const runtime::Snapshot& s);

 private:
  int* shotSize_;
  /// One trail as it grows: the kept points (from `head` on) and their times.
  struct TrailState {
    Trail points;
    std::vector<double> times;
    std::size_t head = 0;
    std::uint64_t next = 0;  // the next sample to read (counted since the series' start)
  };
  /// What the trails were built for: when it changes they are built again from the history.
  struct TrailKey {
    std::uint64_t generation = ~0ull;
    double seconds = 0.0;
    bool scrubbing = false;
    double time = 0.0;  // the step shown, s (while scrubbing)
    std::size_t bodies = 0, ghosts = 0;
    bool operator==(const TrailKey& o) const {
      return generation == o.generation && seconds == o.seconds && scrubbing == o.scrubbing &&
             time == o.time && bodies == o.bodies && ghosts == o.ghosts;
    }
  };
  static void advance(TrailState* st, const runtime::TimeSeries& ts, const runtime::Snapshot& s,
                      double seconds, double spacing);

  TrailKey trailKey_;
  std::vector<TrailState> states_;
  std::vector<TrailState> ghostStates_;
  std::vector<Trail> trails_;
  std::vector<Trail> ghostTrails_;
};

}  // namespace samara::app
