#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <string>

#include "core/body_impl.h"

namespace samara::core {
namespace {

std::string fieldOf(int index, const char* leaf) {
  return "/bodies/" + std::to_string(index) + "/" + leaf;
}

void require(bool ok, int index, const char* leaf, const std::string& msg) {
  if (!ok) throw DefinitionError(fieldOf(index, leaf), msg);
}

Vec3 upAxis(const Vec3& gravity) {
  const double gn = gravity.norm();
  return gn > 0.0 ? Vec3(-gravity / gn) : Vec3(0.0, 1.0, 0.0);
}

/// ξ with cayley(ξ) = g (matrix Cayley map, rotation < π): ω = 2 q_vec / q_w and
/// (I + ½ω̂ + ¼ωωᵀ) v = (1 + |ω|²/4) b.
Vec6 cayleyInverse(const Pose& g) {
  Quat q = g.q.normalized();
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();
  const Vec3 omega = 2.0 * q.vec() / q.w();
  Mat3 M = Mat3::Identity() + 0.25 * omega * omega.transpose();
  M(0, 1) -= 0.5 * omega.z();
  M(0, 2) += 0.5 * omega.y();
  M(1, 0) += 0.5 * omega.z();
  M(1, 2) -= 0.5 * omega.x();
  M(2, 0) -= 0.5 * omega.y();
  M(2, 1) += 0.5 * omega.x();
  Vec6 xi;
  xi.head<3>() = omega;
  xi.tail<3>() = M.partialPivLu().solve((1.0 + 0.25 * omega.squaredNorm()) * g.b);
  return xi;
}

/// An implicit force made of the fluid model's wrench and floor contact, for one body and
/// one step.
class BodyForce final : public ImplicitForce {
 public:
  BodyForce(const FluidModel& model, const FluidModelInput& modelIn,
            const std::vector<ContactPoint>& contacts, const Vec3& upBody, const FloorDef* floor)
      : model_(model), modelIn_(modelIn), contacts_(contacts), upBody_(upBody), floor_(floor) {}

  void evaluate(const Vec6& Y, Vec6* F, Mat6* dFdY) const override {
    F->setZero();
    if (dFdY != nullptr) dFdY->setZero();
    model_.addWrench(modelIn_, Y, F, dFdY);
    if (floor_ != nullptr && !contacts_.empty()) {
      addContactWrench(contacts_, upBody_, floor_->friction, floor_->slipVelocity, Y, F, dFdY);
    }
  }

 private:
  const FluidModel& model_;
  const FluidModelInput& modelIn_;
  const std::vector<ContactPoint>& contacts_;
  Vec3 upBody_;
  const FloorDef* floor_;
};

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
  }
  require(mesh.V.allFinite(), index, "mesh", "the mesh has non-finite vertex coordinates");
  try {
    topo = geometry::buildTopology(mesh);
    geometry::orientClosedPartsOutward(&mesh, topo);
  } catch (const geometry::MeshError& e) {
    throw DefinitionError(fieldOf(index, "mesh"), e.what());
  }
  sheetThickness = def.mass.thickness;
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
    updateShape(mesh.V, mesh.V, world.dt, 0.0);
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
  updateFluid(state.g, world);
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
  require(moments.mass > 0.0, index, "mass", "the body has zero mass");
}

void BodyImpl::updateShape(const geometry::VertexMatrix& V0, const geometry::VertexMatrix& V1,
                           double h, double t) {
  if (&V0 != &mesh.V) mesh.V = V0;
  shapeTime = t;
  geometry::computeFaceGeometry(mesh, &geo);

  geometry::MassMoments closedUnit;
  geometry::MassMoments sheetUnit;
  closedFaces.clear();
  for (const geometry::Part& part : topo.parts) {
    if (part.kind == geometry::PartKind::kClosed) {
      closedUnit += geometry::solidMoments(mesh, part, 1.0);
      closedFaces.insert(closedFaces.end(), part.faces.begin(), part.faces.end());
    } else {
      sheetUnit += geometry::sheetMoments(mesh, part, 1.0);
    }
  }
  closedVolume = closedUnit.mass;
  closedCentroid = closedUnit.com();
  sheetArea = sheetUnit.mass;
  sheetCentroid = sheetUnit.com();
  if (animation) {
    moments = geometry::lumpedMoments(mesh, vertexMass);
    moments += pointMoments;
  }
  inertiaBody = spatialInertia(moments.mass, moments.first, moments.second);
  com = moments.com();

  deltaAuto = geometry::computeDelta(mesh, topo, geo);
  delta = deltaOverride ? *deltaOverride : deltaAuto;

  const int nf = mesh.numFaces();
  faceX = geo.centroid;
  faceWeight.resize(nf);
  faceDragCA.resize(nf);
  drag.a.resize(nf);
  drag.x = geo.centroid;
  drag.k.assign(nf, 0.0);
  area = 0.0;
  addedUnit.setZero();
  for (int f = 0; f < nf; ++f) {
    const bool sheet = topo.isSheet[f] != 0;
    const double A = geo.area[f];
    area += A;
    Vec6 a;
    a.head<3>() = geo.centroid[f].cross(geo.normal[f]);
    a.tail<3>() = geo.normal[f];
    drag.a[f] = a;
    faceWeight[f] = (sheet ? 2.0 : 1.0) * A;
    faceDragCA[f] = (sheet ? 1.0 : 0.5) * A;
    addedUnit.noalias() += faceWeight[f] * (a * a.transpose());
  }

  // Shape velocity (GwtF Alg. 4 and 6): vertex and face-centroid velocities.
  mu0Body.setZero();
  mu0FluidUnit.setZero();
  shapeEnergyBody = 0.0;
  shapeEnergyFluidUnit = 0.0;
  faceShapeVel.clear();
  if (animation) {
    const geometry::VertexMatrix Vdot = (V1 - V0) / h;
    for (int i = 0; i < mesh.numVertices(); ++i) {
      const Vec3 x = V0.row(i).transpose();
      const Vec3 xd = Vdot.row(i).transpose();
      mu0Body.head<3>() += vertexMass[static_cast<size_t>(i)] * x.cross(xd);
      mu0Body.tail<3>() += vertexMass[static_cast<size_t>(i)] * xd;
      shapeEnergyBody += 0.5 * vertexMass[static_cast<size_t>(i)] * xd.squaredNorm();
    }
    faceShapeVel.resize(nf);
    for (int f = 0; f < nf; ++f) {
      const Vec3 xd =
          (Vdot.row(mesh.F(f, 0)) + Vdot.row(mesh.F(f, 1)) + Vdot.row(mesh.F(f, 2))).transpose() /
          3.0;
      faceShapeVel[f] = xd;
      const double xn = xd.dot(geo.normal[f]);
      mu0FluidUnit += (faceWeight[f] * xn) * drag.a[f];
      shapeEnergyFluidUnit += 0.5 * faceWeight[f] * xn * xn;
    }
  }
  boundRadius = 0.0;
  for (int i = 0; i < mesh.numVertices(); ++i) {
    boundRadius = std::max(boundRadius, (mesh.vertex(i) - com).norm());
  }
}

void BodyImpl::updateAnimatedShape(double t, double h) {
  if (!animation) return;
  if (t == shapeTime && h == shapeH) return;
  geometry::VertexMatrix V0;
  double v0Time = t;
  if (h == shapeH && std::abs(t - (shapeTime + shapeH)) <= 1e-12 * std::max(1.0, std::abs(t))) {
    V0 = next;  // the previous step's end shape
    v0Time = shapeTime + shapeH;
  } else {
    animation->evaluate(t, &V0);
  }
  geometry::VertexMatrix V1;
  animation->evaluate(t + h, &V1);
  updateShape(V0, V1, h, t);
  next = std::move(V1);
  shapeH = h;
  shapeV0Time = v0Time;
}

void BodyImpl::rebuildShape() {
  if (!animation) {
    delta = deltaOverride ? *deltaOverride : deltaAuto;
    return;
  }
  geometry::VertexMatrix V0;
  geometry::VertexMatrix V1;
  animation->evaluate(shapeV0Time, &V0);
  animation->evaluate(shapeTime + shapeH, &V1);
  updateShape(V0, V1, shapeH, shapeTime);
  next = std::move(V1);
}

void BodyImpl::updateFluid(const Pose& g, const WorldDef& world) {
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const double hc = up.dot(g.toWorld(com));
  const size_t nf = drag.k.size();
  if (firstOrder) {
    added.setZero();
    mu0 = mu0Body;
    shapeEnergyFluid = 0.0;
  } else if (!model->localFaces()) {
    // A peer model supplies its own added mass; the faces carry no GwtF drag.
    added = model->addedMass(modelInput(g, shapeTime, world.dt, world));
    added = 0.5 * (added + added.transpose());
    mu0 = mu0Body;
    shapeEnergyFluid = 0.0;
    std::fill(drag.k.begin(), drag.k.end(), 0.0);
  } else if (!fluid.water || hc - boundRadius >= fluid.water->level ||
             hc + boundRadius < fluid.water->level) {
    const double rho = densityAtHeight(fluid, hc);
    added = (delta * rho) * addedUnit;
    mu0 = mu0Body + (delta * rho) * mu0FluidUnit;
    shapeEnergyFluid = delta * rho * shapeEnergyFluidUnit;
    for (size_t f = 0; f < nf; ++f) drag.k[f] = rho * faceDragCA[f];
  } else {
    // The body crosses the water level: per-face density from the centroid's height.
    const Vec3 upBody = g.q.conjugate() * up;
    const double h0 = up.dot(g.b);
    Mat6 sum = Mat6::Zero();
    Vec6 mu0f = Vec6::Zero();
    double ef = 0.0;
    for (size_t f = 0; f < nf; ++f) {
      const double rho = densityAtHeight(fluid, h0 + upBody.dot(faceX[f]));
      drag.k[f] = rho * faceDragCA[f];
      const Vec6& a = drag.a[f];
      sum.noalias() += (rho * faceWeight[f]) * (a * a.transpose());
      if (!faceShapeVel.empty()) {
        const double xn = faceShapeVel[f].dot(a.tail<3>());
        mu0f += (rho * faceWeight[f] * xn) * a;
        ef += 0.5 * rho * faceWeight[f] * xn * xn;
      }
    }
    added = delta * sum;
    mu0 = mu0Body + delta * mu0f;
    shapeEnergyFluid = delta * ef;
  }
  K = inertiaBody + added;
}

FluidModelInput BodyImpl::modelInput(const Pose& g, double t, double h,
                                     const WorldDef& world) const {
  const FluidDef& fluid = world.fluid;
  const Vec3 comWorld = g.toWorld(com);
  const double hc = upAxis(world.gravity).dot(comWorld);
  const bool inWater = fluid.water && hc < fluid.water->level;
  FluidModelInput in;
  in.t = t;
  in.h = h;
  in.density = inWater ? fluid.water->density : fluid.density;
  in.viscosity = inWater ? fluid.water->viscosity : fluid.viscosity;
  Vec3 flow = fluid.wind;
  if (fluid.gusts) flow += fluid.gusts->velocity(comWorld, t);
  in.flowBody = g.q.conjugate() * flow;
  in.mass = moments.mass;
  in.com = com;
  in.inertiaCom = moments.inertiaAboutCom(com);
  in.mesh = &mesh;
  in.sheetThickness = sheetThickness;
  return in;
}

VariationalStepResult BodyImpl::tryFirstOrderStep(const BodyState& from, double h, double t,
                                                  const WorldDef& world, BodyState* to) {
  const Vec3 up = upAxis(world.gravity);
  const double rho = densityAtHeight(world.fluid, up.dot(from.g.toWorld(com)));
  FirstOrderStepInput in;
  in.def = &*firstOrder;
  in.mesh = &mesh;
  in.shapeNext = animation ? &next : &mesh.V;
  in.vertexMass = &firstOrderMass;
  in.g = from.g;
  in.momentum = from.carriedMomentum;
  in.gravity = world.gravity;
  // The background flow at the COM at the start of the step (uniform over the body).
  in.flow = world.fluid.wind;
  if (world.fluid.gusts) in.flow += world.fluid.gusts->velocity(from.g.toWorld(com), t);
  in.buoyantMassFraction = rho * (closedVolume + sheetThickness * sheetArea) / moments.mass;
  in.h = h;
  in.tolerance = world.solver.tolerance;
  in.maxIterations = world.solver.maxIterations;
  FirstOrderStepResult r = firstOrderStep(in);
  if (r.converged && world.floor) {
    // The floor as a non-penetration constraint (MfSC §3.1.1 mentions a contact reaction):
    // the lowest vertex of the new placement is lifted onto the floor; an inertial body
    // loses the momentum that carried it into the floor (at its COM, inelastic, no friction).
    const geometry::VertexMatrix& Vn = animation ? next : mesh.V;
    const Vec3 upNext = r.g.q.conjugate() * up;
    double lowest = 1e300;
    for (int i = 0; i < Vn.rows(); ++i)
      lowest = std::min(lowest, upNext.dot(Vn.row(i).transpose()));
    const double depth = world.floor->height - (up.dot(r.g.b) + lowest);
    if (depth > 0.0) {
      r.g.b += depth * up;
      if (firstOrder->kind == FirstOrderKind::kInertial) {
        const double into = r.momentum.tail<3>().dot(up);
        if (into < 0.0) {
          const Vec3 dp = -into * up;
          r.momentum.tail<3>() += dp;
          r.momentum.head<3>() += r.g.toWorld(com).cross(dp);
        }
      }
    }
  }
  VariationalStepResult out;
  out.converged = r.converged;
  out.iterations = r.iterations;
  out.residual = r.residual;
  if (!r.converged) return out;
  // The body velocity of the step: g_{k+1} = g_k τ(hY).
  Pose rel;
  rel.q = from.g.q.conjugate() * r.g.q;
  rel.b = from.g.q.conjugate() * (r.g.b - from.g.b);
  out.Y = cayleyInverse(rel) / h;
  // The discrete momentum equations admit spurious branches when a step moves the body by
  // more than its size: a solution that turns more than 0.5 rad in one step is rejected, so
  // the World retries with sub-steps (a 10 cm box gliding at 57 m/s with h = 2 ms otherwise
  // lands on a branch spinning at 1600 rad/s; with h ≤ 0.5 ms it does not spin at all).
  if (h * out.Y.head<3>().norm() > 0.5) {
    out.converged = false;
    return out;
  }
  out.mu = inertiaBody * out.Y + mu0Body;  // the body's own momentum (diagnostics)
  if (firstOrder->kind == FirstOrderKind::kInertial) out.mu = wrenchToBody(r.g, r.momentum);
  to->g = r.g;
  to->Y = out.Y;
  to->mu = out.mu;
  to->continuous = false;
  to->stepH = h;
  to->stepStartCom = com;
  to->carriedMomentum = r.momentum;
  if (!to->g.b.allFinite() || !to->g.q.coeffs().allFinite() || !out.Y.allFinite()) {
    out.converged = false;
  }
  return out;
}

void BodyImpl::addBuoyancyWrench(const Pose& g, const WorldDef& world, Vec6* F) const {
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const Vec3 upBody = g.q.conjugate() * up;
  if (world.gravity.squaredNorm() > 0.0 && model->buoyancy()) {
    const double hc = up.dot(g.toWorld(com));
    const bool oneFluid = !fluid.water || hc - boundRadius >= fluid.water->level ||
                          hc + boundRadius < fluid.water->level;
    if (oneFluid) {
      const double rho = densityAtHeight(fluid, hc);
      if (closedVolume > 0.0) {
        *F += gravityWrench(g, -rho * closedVolume, closedCentroid, world.gravity);
      }
      if (sheetThickness > 0.0 && sheetArea > 0.0) {
        *F += gravityWrench(g, -rho * sheetThickness * sheetArea, sheetCentroid, world.gravity);
      }
    } else {
      if (!closedFaces.empty()) {
        *F += buoyancyWrenchClosed(g, mesh, closedFaces, fluid, world.gravity);
      }
      if (sheetThickness > 0.0) {
        const double h0 = up.dot(g.b);
        for (size_t f = 0; f < faceX.size(); ++f) {
          if (!topo.isSheet[f]) continue;
          const double rho = densityAtHeight(fluid, h0 + upBody.dot(faceX[f]));
          *F += gravityWrench(g, -rho * sheetThickness * 0.5 * faceWeight[f], faceX[f],
                              world.gravity);
        }
      }
    }
  }
}

std::vector<ContactPoint> BodyImpl::floorContacts(const Pose& g, const WorldDef& world) const {
  const Vec3 up = upAxis(world.gravity);
  const Vec3 upBody = g.q.conjugate() * up;
  std::vector<ContactPoint> contacts;
  const FloorDef* floor = world.floor ? &*world.floor : nullptr;
  if (floor != nullptr) {
    const double h0 = up.dot(g.b);
    const double w0 = 2.0 * M_PI * floor->frequencyHz;
    if (h0 + upBody.dot(com) - boundRadius < floor->height) {  // else no vertex can touch
      for (int i = 0; i < mesh.numVertices(); ++i) {
        const Vec3 x = mesh.vertex(i);
        const double depth = floor->height - (h0 + upBody.dot(x));
        if (depth <= 0.0) continue;
        const double m = moments.mass * vertexShare[i];
        contacts.push_back({x, depth, m * w0 * w0, 2.0 * floor->dampingRatio * w0 * m});
      }
    }
  }
  return contacts;
}

VariationalStepResult BodyImpl::tryStep(const BodyState& from, double h, double t,
                                        const WorldDef& world, BodyState* to) {
  updateAnimatedShape(t, h);
  updateFluid(from.g, world);
  if (firstOrder) return tryFirstOrderStep(from, h, t, world, to);
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const Quat qi = from.g.q.conjugate();
  const Vec3 upBody = qi * up;

  // Y-independent wrench: gravity and buoyancy.
  Vec6 Fexp = gravityWrench(from.g, moments.mass, com, world.gravity);
  addBuoyancyWrench(from.g, world, &Fexp);

  // Flow relative to the faces: u = ω×x + v + x' − Aᵀ wind(x).
  Vec3 offset = -(qi * fluid.wind);
  std::vector<Vec3> offsets;
  const bool uniformGusts = !fluid.gusts || fluid.gusts->isUniformInSpace();
  if (fluid.gusts && uniformGusts) offset -= qi * fluid.gusts->velocity(from.g.b, t);
  if (model->localFaces() && (!faceShapeVel.empty() || !uniformGusts)) {
    offsets.resize(faceX.size());
    for (size_t f = 0; f < faceX.size(); ++f) {
      offsets[f] = offset;
      if (!faceShapeVel.empty()) offsets[f] += faceShapeVel[f];
      if (!uniformGusts) offsets[f] -= qi * fluid.gusts->velocity(from.g.toWorld(faceX[f]), t);
    }
  }

  // Floor contacts at the start of the step.
  const std::vector<ContactPoint> contacts = floorContacts(from.g, world);
  const FloorDef* floor = world.floor ? &*world.floor : nullptr;

  FluidModelInput modelIn = modelInput(from.g, t, h, world);
  if (model->localFaces()) {
    modelIn.faces = &drag;
    modelIn.faceOffset = offset;
    modelIn.faceOffsets = offsets.empty() ? nullptr : offsets.data();
  }
  BodyForce force(*model.get(), modelIn, contacts, upBody, floor);
  VariationalStepInput in;
  in.K = K;
  in.mu0 = mu0;
  in.muPrev = from.mu;
  in.Yprev = from.continuous ? Vec6::Zero() : from.Y;
  in.Yguess = from.Y;
  in.h = h;
  in.Fexplicit = Fexp;
  in.force = &force;
  in.tolerance = world.solver.tolerance;
  in.maxIterations = world.solver.maxIterations;
  VariationalStepResult r = solveVariationalStep(in);
  if (r.converged) {
    to->Y = r.Y;
    to->mu = r.mu;
    to->continuous = false;
    to->stepH = h;
    to->stepStartCom = com;
    to->g = compose(from.g, cayley(h * r.Y));
    if (!to->g.b.allFinite() || !to->g.q.coeffs().allFinite()) r.converged = false;
  }
  return r;
}

}  // namespace samara::core
