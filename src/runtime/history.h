#pragma once
// The runner's history for scrubbing: the recorded steps of the current run (per body its
// state and diagnostics, the ghost's too), for the last `seconds` of simulated time within a
// byte budget, and the recorded step shown while scrubbing. Every step is kept while the
// budget holds `seconds` of them; when it does not (a crowd: 510 leaves take 254 KB a step),
// the history keeps every second step, then every fourth, and so on (the stride), so that
// it still spans `seconds`.
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "core/world.h"

namespace samara::runtime {

/// One recorded step (the history): per body its state and diagnostics, the ghost's too
/// when a ghost ran at that step. Shapes are not stored: an animated body's shape is a
/// function of time (World::worldVerticesAt).
struct HistoryFrame {
  std::int64_t stepIndex = 0;
  double time = 0.0;  ///< s
  std::vector<core::BodyState> states;
  std::vector<core::BodyDiagnostics> diagnostics;
  std::vector<core::BodyState> ghostStates;  ///< empty when no ghost (or it lagged)
  std::vector<core::BodyDiagnostics> ghostDiagnostics;
};

class StepHistory {
 public:
  /// `seconds` of simulated time (0 = record nothing), at most `maxBytes` of frames.
  StepHistory(double seconds, std::size_t maxBytes) : seconds_(seconds), maxBytes_(maxBytes) {}

  /// Forgets every frame, leaves scrubbing and keeps every step again (a new run).
  void clear();
  /// Records the world's current step, with the ghost's when it is at the same step (null:
  /// no ghost). A step recorded already (the ghost caught up) is recorded again.
  void record(const core::World& world, const core::World* ghost);
  /// Records a step already taken (a block's, from its StepTrace), as record() would have.
  /// A step that is not a multiple of the stride is not kept.
  void record(HistoryFrame frame);
  /// Every stride-th step is kept (1, or a power of two once the budget ran short).
  std::int64_t stride() const { return stride_; }
  bool empty() const { return frames_.empty(); }
  const HistoryFrame& front() const { return frames_.front(); }
  const HistoryFrame& back() const { return frames_.back(); }
  /// The recorded step `stepIndex`, or null when it is not (or no longer) recorded.
  const HistoryFrame* find(std::int64_t stepIndex) const;

  /// Shows the recorded step `stepIndex` (clamped to the recorded range) or, when it is not
  /// kept, the nearest kept one (`direction` 0), the one before it (−1) or after it (+1);
  /// nullopt or an empty history leaves scrubbing.
  void scrub(std::optional<std::int64_t> stepIndex, int direction = 0);
  /// Back to the live state.
  void stopScrubbing() { scrub_.reset(); }
  bool scrubbing() const { return scrub_.has_value(); }
  /// The recorded step shown while scrubbing, else null.
  const HistoryFrame* shown() const { return scrub_ ? find(*scrub_) : nullptr; }

 private:
  double seconds_;
  std::size_t maxBytes_;
  std::int64_t stride_ = 1;
  std::deque<HistoryFrame> frames_;
  std::optional<std::int64_t> scrub_;  // the recorded step shown, while scrubbing
};

}  // namespace samara::runtime
