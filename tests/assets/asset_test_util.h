#pragma once
// Shared helpers of the asset tests: Worlds built in code from the generator library.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "assetgen.h"
#include "core/world.h"
#include "geometry/mass_properties.h"
#include "geometry/topology.h"

namespace samara::assettest {

/// Resolution of the models in the behaviour tests (about a seventh of the shipped faces):
/// speeds and turn rates agree with the shipped models to about 1 %, and the tests stay
/// fast in the sanitizer build.
constexpr double kTestResolution = 0.35;

/// Total volume of the closed parts, m³.
inline double closedVolume(const geometry::TriMesh& mesh) {
  const geometry::Topology topo = geometry::buildTopology(mesh);
  double v = 0.0;
  for (const geometry::Part& p : topo.parts) {
    if (p.kind == geometry::PartKind::kClosed) v += geometry::partVolume(mesh, p);
  }
  return v;
}

/// A world with one neutrally buoyant body (gravity off) in a fluid of density `rho`,
/// body density = fluid density, carried at the vertices when animated.
inline core::WorldDef neutralWorld(const geometry::TriMesh& mesh, double rho,
                                   std::shared_ptr<const core::ShapeAnimation> anim, double dt) {
  core::WorldDef def;
  def.fluid.density = rho;
  def.gravity = Vec3::Zero();  // weight and buoyancy cancel
  def.dt = dt;
  core::BodyDef b;
  b.name = "asset";
  b.mesh = mesh;
  b.mass.mode = core::MassMode::kTotal;
  b.mass.total = rho * closedVolume(mesh);
  b.animation = std::move(anim);
  def.bodies.push_back(b);
  return def;
}

/// Steps `w` until time t (s); every step must succeed.
inline void runUntil(core::World* w, double t) {
  while (w->time() < t - 1e-9) {
    const core::StepReport r = w->step();
    REQUIRE(r.ok());
  }
}

/// World COM positions at t = 0, period, 2·period, …, up to `duration` (s).
inline std::vector<Vec3> comTrack(core::World* w, double period, double duration) {
  std::vector<Vec3> out{w->diagnostics(0).com};
  for (double t = period; t <= duration + 1e-9; t += period) {
    runUntil(w, t);
    out.push_back(w->diagnostics(0).com);
  }
  return out;
}

}  // namespace samara::assettest
