#pragma once
// The ghost run (SetGhost): a second World built from the main world's definition at t = 0
// with every body's model replaced, stepped with the main world (beside it, on a second
// thread, when the runner has 2 or more threads) and given every parameter command. The
// two worlds share nothing, so the main world's bits do not depend on whether a ghost runs.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/world.h"
#include "runtime/commands.h"
#include "runtime/publish.h"

namespace samara::runtime {

/// A progress callback for io::resolveExactAddedMass: "PREFIXcomputing the exact added mass
/// of NAME (N faces)… P %" to `status` at each whole percent (`def` must outlive it).
std::function<bool(double, int)> exactAddedMassProgress(
    const core::WorldDef& def, const std::string& prefix,
    const std::function<void(const std::string&)>& status);

class GhostRun {
 public:
  /// The ghost the UI asked for (it persists across loads); nullopt = none.
  const std::optional<std::string>& model() const { return model_; }
  void setModel(std::optional<std::string> model) { model_ = std::move(model); }

  /// Builds the ghost world from `def` (the main world's definition at t = 0), or none when
  /// no ghost is asked for. Returns "" or why it failed (the ghost is then turned off).
  /// `status` hears the progress of an exact added-mass solve ("computing exact added mass
  /// of body 2 (1 280 faces)… 43 %"); a cached tensor is instant.
  std::string build(const core::WorldDef& def, const std::string& label,
                    const std::function<void(const std::string&)>& status = {});
  /// Back to the state it was built with.
  void reset();

  /// The ghost world, or null when no ghost runs.
  core::World* world() { return world_ ? &*world_ : nullptr; }
  const core::World* world() const { return world_ ? &*world_ : nullptr; }
  const std::vector<BodyCache>& cache() const { return cache_; }

  /// Applies a parameter command the main world took (the no-added-mass ghost keeps its
  /// δ = 0: that is its point).
  void applyParameter(const Command& command);

 private:
  std::optional<std::string> model_;
  std::optional<core::World> world_;
  std::optional<core::World> initial_;  // for reset
  std::vector<BodyCache> cache_;
};

}  // namespace samara::runtime
