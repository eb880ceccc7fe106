#pragma once
// Live falling-pattern classification on the UI side (issue 6): one analysis::PatternTracker
// per body and ghost body of the current run, fed with every PlotSample (the same samples,
// initial state included, that `samara run --classify` feeds its trackers, so the result
// at a step is the command line's). GL- and ImGui-free; only the UI thread touches it.
//
// The trackers need each body's length, broad normal and the vertical, which come with the
// run's Snapshot; samples of a run whose snapshot has not been seen yet wait until it has.
#include <cstdint>
#include <vector>

#include "analysis/pattern.h"
#include "runtime/snapshot.h"

namespace samara::runtime {

class FallPatterns {
 public:
  /// Feeds `samples` (what Runner::takeSamples gave) belonging to the run of `snapshot`
  /// (the latest one); a newer generation in `snapshot` starts new trackers. Samples of a
  /// newer run wait for its snapshot; those of an older run are dropped. O(samples).
  void consume(const std::vector<PlotSample>& samples, const Snapshot& snapshot);
  /// Recomputes the result of every tracker that got samples since its last result
  /// (O(PatternTracker::kMaxRecords) each: call it a few times a second, not per sample).
  void refresh();
  /// The same for bodies `bodies` (and their ghosts) only: what a viewer shows. The others
  /// keep their last result (or none).
  void refresh(const std::vector<int>& bodies);
  /// Removes every tracker and waiting sample.
  void clear();

  /// The run the trackers belong to (Snapshot::generation; 0 = none).
  std::uint64_t generation() const { return generation_; }
  /// Body i's pattern as of the last refresh() (of the ghost's body i if `ghost`), or null
  /// when there is no such body or it has no result yet.
  const analysis::PatternResult* result(int body, bool ghost = false) const;
  /// Samples body i's tracker has been fed.
  std::int64_t samples(int body, bool ghost = false) const;
  /// Samples waiting for their run's snapshot.
  std::size_t pending() const { return pending_.size(); }

  /// The tracker `samara run --classify` makes for a body: up = −gravity (y if there is
  /// none), length = 2 × radius (the body's diameter about its COM), broad normal =
  /// BodySnapshot::broadNormalBody.
  static analysis::PatternTracker trackerFor(const BodySnapshot& body, const Vec3& gravity);

 private:
  struct Entry {
    analysis::PatternTracker tracker;
    analysis::PatternResult result;
    bool hasResult = false;
  };
  static void refreshEntry(Entry* e);
  void setup(const Snapshot& snapshot);
  void feed(const PlotSample& s);

  std::uint64_t generation_ = 0;
  std::vector<Entry> bodies_;
  std::vector<Entry> ghosts_;
  std::vector<PlotSample> pending_;
};

}  // namespace samara::runtime
