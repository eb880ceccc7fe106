// Setting a body up from its definition: validation (DefinitionError naming the field),
// mass properties, the first shape, the initial velocity and momentum.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/body_impl.h"
#include "geometry/potential_flow.h"

namespace samara::core {
namespace {

std::string fieldOf(int index, const char* leaf) {
  return "/bodies/" + std::to_string(index) + "/" + leaf;
}

void require(bool ok, int index, const char* leaf, const std::string& msg) {
  if (!ok) throw DefinitionError(fieldOf(index, leaf), msg);
}

/// Rates far beyond the step (a propeller spun at 1e300 rad/s, a wave of 1e9 Hz) alias:
/// the shape jumps between steps however small it is. At 8 times over the run (up to 10
/// s), the shape half a step on must lie near the straight path between the shapes a step
/// apart: within 1 % of the body's size (a propeller at 50 rad/s with h = 2 ms: 0.02 %).
void checkAnimationResolved(const ShapeAnimation& anim, const geometry::VertexMatrix& V0,
                            const WorldDef& world, int index) {
  const double size = (V0.colwise().maxCoeff() - V0.colwise().minCoeff()).norm();
  const double h = world.dt;
  const double span = std::min(std::max(world.duration, h), 10.0);
  geometry::VertexMatrix A, M, B;
  for (int k = 0; k < 8; ++k) {
    const double t = span * k / 8.0;
    anim.evaluate(t, &A);
    anim.evaluate(t + 0.5 * h, &M);
    anim.evaluate(t + h, &B);
    if (!A.allFinite() || !M.allFinite() || !B.allFinite()) {
      throw DefinitionError(
          fieldOf(index, "animation"),
          "the animation gives non-finite vertex positions at t = " + std::to_string(t) + " s");
    }
    const double off = (M - 0.5 * (A + B)).rowwise().norm().maxCoeff();
    if (off > 0.01 * size) {
      char buf[360];
      std::snprintf(buf, sizeof buf,
                    "the shape's motion is not resolved by dt = %.4g s: at t = %.4g s a vertex "
                    "is %.3g m off its straight path over one step, %.2g %% of the body's size "
                    "(at most 1 %%); lower sim.dt or the animation's rates",
                    h, t, off, 100.0 * off / size);
      throw DefinitionError(fieldOf(index, "animation"), buf);
    }
  }
}

}  // namespace

std::string fluidModelName(const BodyDef& def) {
  return def.model ? def.model->name() : std::string("none");
}

BodyImpl::BodyImpl(const BodyDef& def, int index, const WorldDef& world)
    : deltaOverride(def.delta) {
  animation = def.animation;
  require(def.model != nullptr, index, "model", "the body has no fluid model");
  model = ModelHolder(def.model->clone());
  if (const FirstOrderDef* fo = model->firstOrder()) firstOrder = *fo;
  if (firstOrder) validateFirstOrderDef(*firstOrder, fieldOf(index, "model"));
  require(def.mesh.numFaces() > 0, index, "mesh", "the mesh has no faces");
  mesh = def.mesh;
  // A one-frame sequence is a rigid body: its frame is the mesh and nothing moves.
  if (const auto* seq = dynamic_cast<const MeshSequence*>(animation.get());
      seq != nullptr && seq->numFrames() == 1 && seq->numVertices() == mesh.numVertices()) {
    seq->evaluate(0.0, &mesh.V);
    animation.reset();
  }
  geometry::VertexMatrix V1;
  if (animation) {
    require(animation->numVertices() == mesh.numVertices(), index, "animation",
            "the animation has " + std::to_string(animation->numVertices()) +
                " vertices but the mesh has " + std::to_string(mesh.numVertices()));
    animation->evaluate(0.0, &mesh.V);
    animation->evaluate(world.dt, &V1);
    require(mesh.V.allFinite() && V1.allFinite(), index, "animation",
            "the animation gives non-finite vertex positions at t = 0");
    checkAnimationResolved(*animation, mesh.V, world, index);
  }
  require(mesh.V.allFinite(), index, "mesh", "the mesh has non-finite vertex coordinates");
  try {
    topo = geometry::buildTopology(mesh);
    geometry::orientClosedPartsOutward(&mesh, topo);
  } catch (const geometry::MeshError& e) {
    throw DefinitionError(fieldOf(index, "mesh"), e.what());
  }
  sheetThickness = def.mass.thickness;
  setUpExactAddedMass(def, index);
  computeRigidMass(def, index);
  if (deltaOverride) {
    require(std::isfinite(*deltaOverride) && *deltaOverride >= 0.0, index, "delta",
            "delta must be \"auto\" or a number ≥ 0 m");
  }
  vertexShare = geometry::lumpVertexMasses(mesh, 1.0);
  if (animation) {
    // The mass the definition gives at t = 0, carried by the vertices from now on.
    vertexMass = geometry::lumpVertexMasses(mesh, meshMass);
    updateShape(mesh.V, V1, world.dt, 0.0);
    next = V1;
    shapeH = world.dt;
  } else {
    updateShape(mesh.V, mesh.V, world.dt, 0.0);  // frees what a rigid shape needs no more
  }

  // Initial state: world COM velocity and angular velocity → body velocity Y.
  require(def.position.allFinite(), index, "position", "position must be finite");
  require(def.velocity.allFinite(), index, "velocity", "velocity must be finite");
  require(def.angularVelocity.allFinite(), index, "angular_velocity",
          "angular velocity must be finite");
  require(def.orientation.coeffs().allFinite() && def.orientation.norm() > 0.0, index,
          "orientation", "orientation must be a non-zero finite quaternion");
  state.g.q = def.orientation.normalized();
  state.g.b = def.position;
  const Quat qi = state.g.q.conjugate();
  const Vec3 omegaBody = qi * def.angularVelocity;
  state.Y.head<3>() = omegaBody;
  state.Y.tail<3>() = qi * def.velocity - omegaBody.cross(com);
  if (model->relativeFlow() && !firstOrder) {
    // Y and μ relative to the undisturbed flow at the COM (PHYSICS.md §7).
    state.frame = world.fluid.wind;
    if (world.fluid.gusts) state.frame += world.fluid.gusts->velocity(state.g.toWorld(com), 0.0);
    if (state.frame != Vec3::Zero()) state.Y.tail<3>() -= qi * state.frame;
  }
  updateFluid(state.g, world);
  require(K.allFinite() && mu0.allFinite(), index, "mass",
          "the Kirchhoff tensor (mass, inertia and added mass) is not finite: the body's size, "
          "density or the fluid's density overflow");
  Eigen::LLT<Mat6> llt(K);
  require(llt.info() == Eigen::Success, index, "mass",
          "the Kirchhoff tensor is not positive definite (the body needs rotational inertia: "
          "a mesh with area, or added mass)");
  // The given velocities describe the motion of the body as a whole: the total momentum is
  // that of the rigid motion, μ = 𝒦 Y_rigid, and the shape's own motion at t = 0 (μ⁰) is
  // compensated by the body frame (a cat released at rest has zero momentum).
  if (animation && !mu0.isZero(0.0)) {
    state.mu = K * state.Y;
    state.Y = llt.solve(state.mu - mu0);
  } else {
    state.mu = K * state.Y + mu0;
  }
  // Velocities within the validator can still give an infinite momentum or energy.
  const Vec6 spinOnly = (Vec6() << state.Y.head<3>(), Vec3::Zero()).finished();
  require(spinOnly.allFinite() && std::isfinite(spinOnly.dot(K * spinOnly)), index,
          "angular_velocity",
          "the initial angular velocity gives a non-finite momentum or kinetic energy");
  require(state.Y.allFinite() && state.mu.allFinite() && std::isfinite(state.Y.dot(K * state.Y)),
          index, "velocity", "the initial velocity gives a non-finite momentum or kinetic energy");
  if (firstOrder) {
    // The mass at the vertices: area-lumped at t = 0, scaled to the whole body mass (point
    // masses spread with the surface).
    firstOrderMass.resize(vertexShare.size());
    for (size_t i = 0; i < vertexShare.size(); ++i) {
      firstOrderMass[i] = moments.mass * vertexShare[i];
    }
    if (firstOrder->kind == FirstOrderKind::kInertial) {
      state.carriedMomentum = firstOrderInitialMomentum(*firstOrder, mesh, firstOrderMass, state.g,
                                                        def.angularVelocity, def.velocity);
      // The momentum the diagnostics report is the carried one from the start.
      state.mu = wrenchToBody(state.g, state.carriedMomentum);
    } else if (firstOrder->autoDrag()) {
      // Auto drag: ½ ρ_f C_D U (C_D = 1, U = 1 m/s) of the fluid at the initial COM.
      const double rho =
          densityAtHeight(world.fluid, upAxis(world.gravity).dot(state.g.toWorld(com)));
      require(firstOrder->normalDrag > 0.0 || rho > 0.0, index, "model/normal_drag",
              "normal_drag \"auto\" needs a fluid: the density at the body's centre of mass "
              "is 0 kg/m³; give normal_drag (N·s/m³) or use gross-inertial");
      firstOrder = resolveFirstOrderDrag(*firstOrder, rho);
    }
  }
}

void BodyImpl::setUpExactAddedMass(const BodyDef& def, int index) {
  addedMassSource = def.addedMass;
  if (def.addedMass == AddedMassSource::kModel) return;
  require(model->localFaces() && !firstOrder, index, "added_mass",
          "\"" + fluidModelName(def) +
              "\" brings its own added mass: \"added_mass\" applies to the models with local "
              "faces (samara, gwtf-2024)");
  if (def.addedMass != AddedMassSource::kExact) return;
  require(!animation, index, "added_mass",
          "the exact added mass is solved once for a rigid shape: a shape-changing body keeps "
          "the local model (\"local\" or \"local-per-part\")");
  if (def.exactAddedUnit) {
    require(def.exactAddedUnit->allFinite(), index, "added_mass",
            "the exact added-mass tensor given is not finite");
    exactAddedUnit = *def.exactAddedUnit;
    return;
  }
  try {
    exactAddedUnit = geometry::exactAddedMass(mesh, {}).addedUnit;
  } catch (const std::invalid_argument& e) {
    throw DefinitionError(fieldOf(index, "added_mass"), e.what());
  } catch (const std::runtime_error& e) {
    throw DefinitionError(fieldOf(index, "added_mass"), e.what());
  }
}

void BodyImpl::computeRigidMass(const BodyDef& def, int index) {
  geometry::MassMoments closedUnit;  // unit density: mass = volume
  geometry::MassMoments sheetUnit;   // unit areal density: mass = area
  for (const geometry::Part& part : topo.parts) {
    if (part.kind == geometry::PartKind::kClosed) {
      closedUnit += geometry::solidMoments(mesh, part, 1.0);
    } else {
      sheetUnit += geometry::sheetMoments(mesh, part, 1.0);
    }
  }
  const double volume = closedUnit.mass;
  const double sheet = sheetUnit.mass;
  require(volume >= 0.0, index, "mesh", "a closed part has negative volume");
  const bool hasSheet = sheet > 0.0;
  const bool hasClosed = volume > 0.0;
  const MassDef& md = def.mass;
  require(std::isfinite(md.thickness) && md.thickness >= 0.0, index, "mass/thickness",
          "thickness must be ≥ 0 m");
  moments = geometry::MassMoments{};
  switch (md.mode) {
    case MassMode::kDensity: {
      require(std::isfinite(md.density) && md.density > 0.0, index, "mass/density",
              "density must be > 0 kg/m³");
      require(!hasSheet || md.thickness > 0.0, index, "mass/thickness",
              "the mesh has an open sheet part: give mass.thickness (m) or mass.total (kg)");
      moments += closedUnit.scaled(md.density);
      moments += sheetUnit.scaled(md.density * md.thickness);
      break;
    }
    case MassMode::kTotal: {
      require(std::isfinite(md.total) && md.total > 0.0, index, "mass/total",
              "total mass must be > 0 kg");
      if (md.thickness > 0.0) {
        const double rho = md.total / (volume + sheet * md.thickness);
        moments += closedUnit.scaled(rho);
        moments += sheetUnit.scaled(rho * md.thickness);
      } else if (hasClosed && !hasSheet) {
        moments += closedUnit.scaled(md.total / volume);
      } else if (hasSheet && !hasClosed) {
        moments += sheetUnit.scaled(md.total / sheet);
      } else {
        throw DefinitionError(fieldOf(index, "mass/thickness"),
                              "the mesh mixes closed parts and open sheets: give mass.thickness "
                              "(m) so the total mass can be split between them");
      }
      break;
    }
    case MassMode::kLumped: {
      require(std::isfinite(md.total) && md.total > 0.0, index, "mass/total",
              "total mass must be > 0 kg");
      moments += geometry::lumpedMoments(mesh, geometry::lumpVertexMasses(mesh, md.total));
      break;
    }
  }
  pointMoments = geometry::MassMoments{};
  for (size_t i = 0; i < def.pointMasses.size(); ++i) {
    const PointMass& pm = def.pointMasses[i];
    const std::string f = "point_masses/" + std::to_string(i);
    require(std::isfinite(pm.mass) && pm.mass >= 0.0, index, (f + "/mass").c_str(),
            "point mass must be ≥ 0 kg");
    require(pm.position.allFinite(), index, (f + "/position").c_str(), "position must be finite");
    pointMoments += geometry::pointMoments(pm.position, pm.mass);
  }
  meshMass = md.mode == MassMode::kLumped ? md.total : moments.mass;
  moments += pointMoments;
  // Finite inputs can still overflow in their products (density 1e308 × thickness 1e10).
  require(std::isfinite(moments.mass) && moments.first.allFinite() && moments.second.allFinite(),
          index, "mass",
          "the mass or its moments overflow (mass = " + std::to_string(moments.mass) +
              " kg): density × size is beyond double precision");
  require(moments.mass > 0.0, index, "mass", "the body has zero mass");
}

}  // namespace samara::core
