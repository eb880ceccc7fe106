#include "runtime/history.h"

#include <algorithm>
#include <utility>

namespace samara::runtime {

void StepHistory::clear() {
  frames_.clear();
  scrub_.reset();
}

void StepHistory::record(const core::World& world, const core::World* ghost) {
  if (seconds_ <= 0.0) return;
  HistoryFrame f;
  f.stepIndex = world.stepIndex();
  f.time = world.time();
  const int n = world.numBodies();
  f.states.reserve(static_cast<std::size_t>(n));
  f.diagnostics.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    f.states.push_back(world.state(i));
    f.diagnostics.push_back(world.diagnostics(i));
  }
  if (ghost && ghost->stepIndex() == world.stepIndex()) {
    for (int i = 0; i < ghost->numBodies(); ++i) {
      f.ghostStates.push_back(ghost->state(i));
      f.ghostDiagnostics.push_back(ghost->diagnostics(i));
    }
  }
  record(std::move(f));
}

void StepHistory::record(HistoryFrame f) {
  if (seconds_ <= 0.0) return;
  if (!frames_.empty() && frames_.back().stepIndex == f.stepIndex) {
    frames_.pop_back();  // the ghost caught up: record the step again, with it
  }
  const std::size_t frameBytes =
      sizeof(HistoryFrame) + (f.states.size() + f.ghostStates.size()) *
                                 (sizeof(core::BodyState) + sizeof(core::BodyDiagnostics));
  const std::size_t maxFrames = std::max<std::size_t>(1, maxBytes_ / frameBytes);
  frames_.push_back(std::move(f));
  const double newest = frames_.back().time;
  while (frames_.size() > maxFrames ||
         (frames_.size() > 1 && newest - frames_.front().time > seconds_)) {
    frames_.pop_front();
  }
  if (scrub_ && *scrub_ < frames_.front().stepIndex) scrub_ = frames_.front().stepIndex;
}

const HistoryFrame* StepHistory::find(std::int64_t stepIndex) const {
  if (frames_.empty()) return nullptr;
  const std::int64_t first = frames_.front().stepIndex;
  if (stepIndex < first || stepIndex > frames_.back().stepIndex) return nullptr;
  // Step indices are consecutive within a run.
  const HistoryFrame& f = frames_[static_cast<std::size_t>(stepIndex - first)];
  return f.stepIndex == stepIndex ? &f : nullptr;
}

void StepHistory::scrub(std::optional<std::int64_t> stepIndex) {
  if (!stepIndex || frames_.empty()) {
    scrub_.reset();
    return;
  }
  scrub_ = std::clamp(*stepIndex, frames_.front().stepIndex, frames_.back().stepIndex);
}

}  // namespace samara::runtime
