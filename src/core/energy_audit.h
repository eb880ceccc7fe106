#pragma once
// Internal: the per-body energy audit of a step (issue 16). A body's kinetic energy
// relative to the flow around it cannot exceed what gravity and buoyancy, the flow and the
// body's own shape change could have supplied since the audit's baseline; a step that
// breaks this bound (with a margin of 2×) is unphysical: a time step far too large for the
// body, the floor's contact spring or its spin, or a model outside its range.
#include <string>

#include "core/body.h"
#include "core/world.h"

namespace samara::core {

class BodyImpl;

/// What the bound is measured from, and the largest flow and shape energy seen since.
struct EnergyAuditBase {
  double time = 0.0;            ///< s: when the baseline was taken
  double kinetic = 0.0;         ///< J: kinetic energy relative to the flow at the baseline
  double height = 0.0;          ///< m: COM along up at the baseline
  double flowSpeedMax = 0.0;    ///< m/s: the fastest flow at the COM seen since
  double shapeEnergyMax = 0.0;  ///< J: the largest kinetic energy of the shape change seen
  double peakRatio = 0.0;       ///< the largest kinetic energy / bound seen (≤ 1 when passing)
};

/// The terms of the bound at one state.
struct EnergyAudit {
  double kinetic = 0.0;  ///< J: ½ Y_rᵀ 𝒦 Y_r, Y_r relative to the flow at the COM
  double bound = 0.0;    ///< J: 2 (E₀ + W_g) + flow and shape allowances
  double flowSpeed = 0.0;
  bool applies = false;  ///< false for first-order bodies (no inertia to audit)
};

/// The audit of body `b` at state `s` (its caches from the last step) and time t.
EnergyAudit auditEnergy(const BodyImpl& b, const BodyState& s, const WorldDef& world, double t,
                        const EnergyAuditBase& base);
/// A baseline at the body's current state.
EnergyAuditBase energyAuditBase(const BodyImpl& b, const WorldDef& world, double t);
/// "" when `a` passes, otherwise why the step is refused (names the body).
std::string energyAuditFailure(const EnergyAudit& a, const EnergyAuditBase& base,
                               const std::string& bodyName, double h);

}  // namespace samara::core
