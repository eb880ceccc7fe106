#include "runtime/ghost.h"

#include <exception>

#include "io/added_mass_cache.h"
#include "io/scene.h"

namespace samara::runtime {

std::string GhostRun::build(const core::WorldDef& mainDef, const std::string& label,
                            const std::function<void(const std::string&)>& status) {
  world_.reset();
  initial_.reset();
  cache_.clear();
  if (!model_) return "";
  core::WorldDef def = mainDef;
  setAllModels(&def, *model_);
  try {
    int lastPercent = -1;
    io::resolveExactAddedMass(&def, label, [&](double fraction, int body) {
      const int percent = static_cast<int>(100.0 * fraction);
      if (status && percent != lastPercent) {
        lastPercent = percent;
        status("ghost: computing the exact added mass of " +
               def.bodies[static_cast<size_t>(body)].name + " (" +
               std::to_string(def.bodies[static_cast<size_t>(body)].mesh.numFaces()) + " faces)… " +
               std::to_string(percent) + " %");
      }
      return true;
    });
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
