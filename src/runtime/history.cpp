#include "runtime/history.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace samara::runtime {

void StepHistory::clear() {
  frames_.clear();
  scrub_.reset();
  stride_ = 1;
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

namespace {

bool earlier(const HistoryFrame& f, std::int64_t stepIndex) { return f.stepIndex < stepIndex; }

}  // namespace

void StepHistory::record(HistoryFrame f) {
  if (seconds_ <= 0.0) return;
  if (!frames_.empty() && frames_.back().stepIndex == f.stepIndex) {
    frames_.pop_back();  // the ghost caught up: record the step again, with it
  }
  if (f.stepIndex % stride_ != 0) return;
  const std::size_t frameBytes =
      sizeof(HistoryFrame) + (f.states.size() + f.ghostStates.size()) *
                                 (sizeof(core::BodyState) + sizeof(core::BodyDiagnostics));
  const std::size_t maxFrames = std::max<std::size_t>(1, maxBytes_ / frameBytes);
  frames_.push_back(std::move(f));
  while (frames_.size() > maxFrames) {
    const double span = frames_.back().time - frames_.front().time;
    if (span >= seconds_ || frames_.size() < 3) {
      frames_.pop_front();
      continue;
    }
    // The budget is short of `seconds`: keep every other kept step from now on.
    stride_ *= 2;
    std::erase_if(frames_, [this](const HistoryFrame& k) { return k.stepIndex % stride_ != 0; });
    if (scrub_) scrub(*scrub_);
  }
  const double newest = frames_.back().time;
  while (frames_.size() > 1 && newest - frames_.front().time > seconds_) frames_.pop_front();
  if (scrub_ && *scrub_ < frames_.front().stepIndex) scrub_ = frames_.front().stepIndex;
}

const HistoryFrame* StepHistory::find(std::int64_t stepIndex) const {
  const auto it = std::lower_bound(frames_.begin(), frames_.end(), stepIndex, earlier);
  return it != frames_.end() && it->stepIndex == stepIndex ? &*it : nullptr;
}

void StepHistory::scrub(std::optional<std::int64_t> stepIndex, int direction) {
  if (!stepIndex || frames_.empty()) {
    scrub_.reset();
    return;
  }
  const std::int64_t k =
      std::clamp(*stepIndex, frames_.front().stepIndex, frames_.back().stepIndex);
  const auto after = std::lower_bound(frames_.begin(), frames_.end(), k, earlier);
  if (after->stepIndex == k || direction > 0) {
    scrub_ = after->stepIndex;
    return;
  }
  const std::int64_t before = std::prev(after)->stepIndex;  // k is inside the range
  scrub_ = direction < 0 || k - before <= after->stepIndex - k ? before : after->stepIndex;
}

}  // namespace samara::runtime
