#include "core/energy_audit.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/body_impl.h"

namespace samara::core {
namespace {

// The flow allowance is the energy of the body moving at this multiple of the fastest flow
// seen (a gust can reverse: 2×, and some), the shape allowance this multiple of the shape
// change's own kinetic energy (a swimmer's body moves slower than its travelling wave).
constexpr double kFlowFactor = 3.0;
constexpr double kShapeFactor = 25.0;
// The bound on gravity's and the flow's energy is doubled: the variational integrator's
// energy error is bounded, and the audit is there for blow-ups, not for accounting.
constexpr double kMargin = 2.0;

double relativeKinetic(const BodyImpl& b, const BodyState& s, const WorldDef& world, double t,
                       double* flowSpeed) {
  const Vec3 com = s.g.toWorld(b.com);
  Vec3 u = world.fluid.wind;
  if (world.fluid.gusts) u += b.gustVelocity(world.fluid, com, t);
  *flowSpeed = u.norm();
  Vec6 Yr = s.groundY();
  Yr.tail<3>() -= s.g.q.conjugate() * u;
  return 0.5 * Yr.dot(b.K * Yr);
}

}  // namespace

EnergyAuditBase energyAuditBase(const BodyImpl& b, const WorldDef& world, double t) {
  EnergyAuditBase base;
  base.time = t;
  if (b.firstOrder) return base;
  base.kinetic = relativeKinetic(b, b.state, world, t, &base.flowSpeedMax);
  base.height = upAxis(world.gravity).dot(b.state.g.toWorld(b.com));
  base.shapeEnergyMax = b.shapeEnergyBody + b.shapeEnergyFluid;
  return base;
}

EnergyAudit auditEnergy(const BodyImpl& b, const BodyState& s, const WorldDef& world, double t,
                        const EnergyAuditBase& base) {
  EnergyAudit a;
  if (b.firstOrder) return a;
  a.applies = true;
  a.kinetic = relativeKinetic(b, s, world, t, &a.flowSpeed);
  // Gravity and buoyancy: a net weight of at most max(m, ρ_max V) g over the height change.
  double rhoMax = world.fluid.density;
  if (world.fluid.water) rhoMax = std::max(rhoMax, world.fluid.water->density);
  const double volume = b.closedVolume + b.sheetThickness * b.sheetArea;
  const double weight = std::max(b.moments.mass, rhoMax * volume) * world.gravity.norm();
  const double drop = std::abs(upAxis(world.gravity).dot(s.g.toWorld(b.com)) - base.height);
  const double flow = std::max(base.flowSpeedMax, a.flowSpeed) * kFlowFactor;
  const double shape = std::max(base.shapeEnergyMax, b.shapeEnergyBody + b.shapeEnergyFluid);
  a.bound = kMargin * (base.kinetic + weight * drop) + 0.5 * b.K.trace() * flow * flow +
            kShapeFactor * shape;
  // Round-off: a body at rest stays at rest to ~1e-30 J, never exactly.
  a.bound += 1e-12 + 1e-9 * base.kinetic;
  return a;
}

std::string energyAuditFailure(const EnergyAudit& a, const EnergyAuditBase& base,
                               const std::string& bodyName, double h) {
  if (!a.applies || a.kinetic <= a.bound) return {};
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "body '%s': energy audit: its kinetic energy relative to the flow, %.3g J, is "
                "more than the %.3g J that gravity, buoyancy, the flow and its own shape "
                "change can supply since t = %.6g s (with a margin of 2x): the motion is "
                "unphysical; the time step h = %.3g s is too large for this body (lower "
                "sim.dt), or its model is outside its range; the state is kept at the last "
                "good step",
                bodyName.c_str(), a.kinetic, a.bound, base.time, h);
  return buf;
}

void checkStepSize(const World& world) {
  const WorldDef& def = world.definition();
  const double h = def.dt;
  char buf[400];
  if (def.floor) {
    // The contact spring's ω h: beyond 2 the step cannot follow a contact at all.
    const double f = def.floor->frequencyHz;
    const double hMax = 1.0 / (kPi * f);
    if (2.0 * kPi * f * h > 2.0) {
      std::snprintf(buf, sizeof buf,
                    "dt = %.4g s is too large for the floor's contact spring (frequency_hz "
                    "%.4g): at most 1/(pi f) = %.3g s, and a quarter of that for an accurate "
                    "contact",
                    h, f, hMax);
      throw DefinitionError("/sim/dt", buf);
    }
  }
  const Vec3 up = upAxis(def.gravity);
  for (int i = 0; i < world.numBodies(); ++i) {
    const BodyDef& b = world.bodyDef(i);
    const std::string field = "/bodies/" + std::to_string(i);
    const double w = b.angularVelocity.norm();
    if (w * h > 2.0) {
      std::snprintf(buf, sizeof buf,
                    "the body turns %.3g rad per step (|angular velocity| %.4g rad/s × dt %.4g "
                    "s): at most 2 rad (115°); lower dt to ≤ %.3g s",
                    w * h, w, h, 2.0 / w);
      throw DefinitionError(field + "/angular_velocity", buf);
    }
    if (!def.floor) continue;
    const geometry::VertexMatrix V = world.worldVertices(i);
    const Eigen::VectorXd heights = V * up;
    const double size = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm();
    const double depth = def.floor->height - heights.minCoeff();
    if (depth > 1e-3 * size) {
      std::snprintf(buf, sizeof buf,
                    "the body starts %.3g m inside the floor (its lowest point at height %.4g "
                    "m, the floor at %.4g m): place it on or above the floor; the contact "
                    "spring would eject it",
                    depth, heights.minCoeff(), def.floor->height);
      throw DefinitionError(field + "/position", buf);
    }
  }
}

}  // namespace samara::core
