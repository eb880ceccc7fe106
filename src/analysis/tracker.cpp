#include "analysis/tracker.h"

#include <algorithm>

#include "core/fluid_model.h"

namespace samara::analysis {

Vec3 upFromGravity(const Vec3& gravity) {
  return gravity.norm() > 0.0 ? Vec3(-gravity) : Vec3(0.0, 1.0, 0.0);
}

Vec3 broadNormal(const core::BodyInfo& info) {
  return core::principalFrame(info.com, info.inertiaCom).R.col(2);
}

TrackerSetup trackerSetup(const core::BodyInfo& info, const Vec3& gravity) {
  return {upFromGravity(gravity), std::max(2.0 * info.boundRadius, 1e-9), broadNormal(info)};
}

PatternTracker makeTracker(const TrackerSetup& setup) {
  return PatternTracker(setup.up, std::max(setup.length, 1e-9), setup.broadNormalBody);
}

}  // namespace samara::analysis
