#include "runtime/ghost.h"

#include <exception>
#include <memory>

#include "io/added_mass_cache.h"
#include "io/scene.h"

namespace samara::runtime {

std::function<bool(double, int)> exactAddedMassProgress(
    const core::WorldDef& def, const std::string& prefix,
    const std::function<void(const std::string&)>& status) {
  auto last = std::make_shared<int>(-1);
  return [&def, prefix, status, last](double fraction, int body) {
    const int percent = static_cast<int>(100.0 * fraction);
    if (status && percent != *last) {
      *last = percent;
      const core::BodyDef& b = def.bodies[static_cast<std::size_t>(body)];
      status(prefix + "computing the exact added mass of " + b.name + " (" +
             std::to_string(b.mesh.numFaces()) + " faces)… " + std::to_string(percent) + " %");
    }
    return true;
  };
}

std::string GhostRun::build(const core::WorldDef& mainDef, const std::string& label,
                            const std::function<void(const std::string&)>& status) {
  world_.reset();
  initial_.reset();
  cache_.clear();
  if (!model_) return "";
  core::WorldDef def = mainDef;
  setAllModels(&def, *model_);
  try {
    io::resolveExactAddedMass(&def, label, exactAddedMassProgress(def, "ghost: ", status));
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
