#include "runtime/ghost.h"

#include <exception>

#include "io/scene.h"

namespace samara::runtime {

std::string GhostRun::build(const core::WorldDef& mainDef, const std::string& label) {
  world_.reset();
  initial_.reset();
  cache_.clear();
  if (!model_) return "";
  core::WorldDef def = mainDef;
  setAllModels(&def, *model_);
  try {
    core::World g = io::makeWorld(std::move(def), label);
    cache_ = cacheBodies(g);
    initial_ = g;
    world_ = std::move(g);
  } catch (const std::exception& e) {
    std::string why = "ghost (" + *model_ + ") turned off: " + e.what();
    model_.reset();
    return why;
  }
  return "";
}

void GhostRun::reset() {
  if (initial_) world_ = *initial_;
}

void GhostRun::applyParameter(const Command& command) {
  // Same bodies: valid for both.
  const bool keepDelta = std::holds_alternative<SetDelta>(command) && model_ == kNoAddedMassGhost;
  if (world_ && !keepDelta) runtime::applyParameter(command, &*world_);
}

}  // namespace samara::runtime
