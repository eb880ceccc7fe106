#include "runtime/fall_patterns.h"

#include <algorithm>

#include "analysis/tracker.h"

namespace samara::runtime {

analysis::PatternTracker FallPatterns::trackerFor(const BodySnapshot& body, const Vec3& gravity) {
  return analysis::makeTracker(
      {analysis::upFromGravity(gravity), 2.0 * body.radius, body.broadNormalBody});
}

void FallPatterns::clear() {
  generation_ = 0;
  bodies_.clear();
  ghosts_.clear();
  pending_.clear();
}

void FallPatterns::setup(const Snapshot& snapshot) {
  generation_ = snapshot.generation;
  bodies_.clear();
  ghosts_.clear();
  for (const BodySnapshot& b : snapshot.bodies) {
    bodies_.push_back(Entry{trackerFor(b, snapshot.params.gravity), {}, false});
  }
  for (const BodySnapshot& b : snapshot.ghostBodies) {
    ghosts_.push_back(Entry{trackerFor(b, snapshot.params.gravity), {}, false});
  }
}

void FallPatterns::feed(const PlotSample& s) {
  std::vector<Entry>& entries = s.ghost ? ghosts_ : bodies_;
  if (s.body < 0 || s.body >= static_cast<int>(entries.size())) return;
  entries[static_cast<std::size_t>(s.body)].tracker.add(
      analysis::TrajectorySample{s.time, s.d.com, s.d.q, s.d.omega});
}

void FallPatterns::consume(const std::vector<PlotSample>& samples, const Snapshot& snapshot) {
  if (snapshot.generation > generation_ && snapshot.status != RunStatus::kEmpty) {
    setup(snapshot);
  }
  // Waiting samples first (they are older than the new ones), then the new ones.
  std::size_t keep = 0;
  auto route = [&](const PlotSample& s, bool waiting) {
    if (s.generation == generation_) {
      feed(s);
    } else if (s.generation > generation_) {
      if (waiting) {
        pending_[keep++] = s;
      } else {
        pending_.push_back(s);
      }
    }
  };
  const std::size_t waiting = pending_.size();
  for (std::size_t i = 0; i < waiting; ++i) route(pending_[i], true);
  // Compact the waiting samples that still wait, then append the new ones that wait.
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(keep),
                 pending_.begin() + static_cast<std::ptrdiff_t>(waiting));
  for (const PlotSample& s : samples) route(s, false);
}

void FallPatterns::refreshEntry(Entry* e) {
  if (e->hasResult && e->result.samples == e->tracker.numSamples()) return;
  if (e->tracker.numSamples() == 0) return;
  e->result = e->tracker.result();
  e->hasResult = true;
}

void FallPatterns::refresh() {
  for (std::vector<Entry>* entries : {&bodies_, &ghosts_}) {
    for (Entry& e : *entries) refreshEntry(&e);
  }
}

void FallPatterns::refresh(const std::vector<int>& bodies) {
  for (std::vector<Entry>* entries : {&bodies_, &ghosts_}) {
    for (int i : bodies) {
      if (i >= 0 && i < static_cast<int>(entries->size())) {
        refreshEntry(&(*entries)[static_cast<std::size_t>(i)]);
      }
    }
  }
}

const analysis::PatternResult* FallPatterns::result(int body, bool ghost) const {
  const std::vector<Entry>& entries = ghost ? ghosts_ : bodies_;
  if (body < 0 || body >= static_cast<int>(entries.size())) return nullptr;
  const Entry& e = entries[static_cast<std::size_t>(body)];
  return e.hasResult ? &e.result : nullptr;
}

std::int64_t FallPatterns::samples(int body, bool ghost) const {
  const std::vector<Entry>& entries = ghost ? ghosts_ : bodies_;
  if (body < 0 || body >= static_cast<int>(entries.size())) return 0;
  return entries[static_cast<std::size_t>(body)].tracker.numSamples();
}

}  // namespace samara::runtime
