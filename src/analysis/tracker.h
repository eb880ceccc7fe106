#pragma once
// The one way to set up a falling-pattern tracker for a body, shared by `samara run
// --classify`, `samara sweep` and the viewer's live pattern, so all of them classify alike.
#include "analysis/pattern.h"
#include "core/body.h"

namespace samara::analysis {

/// What a tracker needs to know of a body.
struct TrackerSetup {
  Vec3 up = Vec3(0.0, 1.0, 0.0);         ///< world vertical (−gravity, y without gravity)
  double length = 1e-9;                  ///< body length: 2 × its radius about the COM, m
  Vec3 broadNormalBody = Vec3::UnitZ();  ///< axis of largest inertia (broad normal), body
};

/// The world vertical: −gravity normalised by PatternTracker, y when there is no gravity.
Vec3 upFromGravity(const Vec3& gravity);

/// The axis of largest principal inertia about the COM (the broad normal of a flat body),
/// body frame.
Vec3 broadNormal(const core::BodyInfo& info);

/// The setup for a body described by `info` (current shape) under `gravity`.
TrackerSetup trackerSetup(const core::BodyInfo& info, const Vec3& gravity);

/// A tracker for `setup`.
PatternTracker makeTracker(const TrackerSetup& setup);

}  // namespace samara::analysis
