#include "core/world.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "core/body_impl.h"
#include "core/energy_audit.h"
#include "core/thread_pool.h"

namespace samara::core {
namespace {

void validateWorld(const WorldDef& def) {
  auto need = [](bool ok, const char* field, const char* msg) {
    if (!ok) throw DefinitionError(field, msg);
  };
  need(def.gravity.allFinite(), "/gravity", "gravity must be finite");
  need(std::isfinite(def.dt) && def.dt > 0.0, "/sim/dt", "dt must be > 0 s");
  need(std::isfinite(def.duration) && def.duration >= 0.0, "/sim/duration",
       "duration must be ≥ 0 s");
  // Denser than any liquid (mercury 13 534 kg/m³) by far: beyond it products overflow.
  constexpr double kMaxFluidDensity = 1e6;
  need(std::isfinite(def.fluid.density) && def.fluid.density >= 0.0 &&
           def.fluid.density <= kMaxFluidDensity,
       "/fluid/density", "fluid density must be ≥ 0 and at most 1e+06 kg/m³");
  need(def.fluid.wind.allFinite(), "/fluid/wind", "wind must be finite");
  need(std::isfinite(def.fluid.viscosity) && def.fluid.viscosity >= 0.0, "/fluid/viscosity",
       "viscosity must be ≥ 0 Pa·s");
  if (def.fluid.water) {
    need(std::isfinite(def.fluid.water->level), "/fluid/water/level", "level must be finite");
    need(std::isfinite(def.fluid.water->density) && def.fluid.water->density >= 0.0 &&
             def.fluid.water->density <= kMaxFluidDensity,
         "/fluid/water/density", "water density must be ≥ 0 and at most 1e+06 kg/m³");
    need(std::isfinite(def.fluid.water->viscosity) && def.fluid.water->viscosity >= 0.0,
         "/fluid/water/viscosity", "water viscosity must be ≥ 0 Pa·s");
  }
  if (def.floor) {
    need(std::isfinite(def.floor->height), "/floor/height", "floor height must be finite");
    need(std::isfinite(def.floor->frequencyHz) && def.floor->frequencyHz > 0.0,
         "/floor/frequency_hz", "frequency must be > 0 Hz");
    need(std::isfinite(def.floor->dampingRatio) && def.floor->dampingRatio >= 0.0,
         "/floor/damping_ratio", "damping ratio must be ≥ 0");
    need(std::isfinite(def.floor->friction) && def.floor->friction >= 0.0, "/floor/friction",
         "friction must be ≥ 0");
  }
  need(def.solver.tolerance > 0.0 && def.solver.tolerance < 1.0, "/sim/tolerance",
       "tolerance must be in (0, 1)");
  need(def.solver.maxIterations >= 1, "/sim/max_iterations", "max_iterations must be ≥ 1");
  need(def.solver.maxHalvings >= 0 && def.solver.maxHalvings <= 20, "/sim/max_halvings",
       "max_halvings must be in [0, 20]");
  need(!def.bodies.empty(), "/bodies", "the scene has no bodies");
}

}  // namespace

World::World(WorldDef def) : def_(std::move(def)) {
  validateWorld(def_);
  bodies_.reserve(def_.bodies.size());
  for (size_t i = 0; i < def_.bodies.size(); ++i) {
    bodies_.push_back(std::make_unique<BodyImpl>(def_.bodies[i], static_cast<int>(i), def_));
  }
  resetEnergyAudit();
}

World::~World() = default;
World::World(World&&) noexcept = default;
World& World::operator=(World&&) noexcept = default;

World::World(const World& o)
    : def_(o.def_),
      audit_(o.audit_),
      time_(o.time_),
      stepIndex_(o.stepIndex_),
      anchorTime_(o.anchorTime_),
      anchorStep_(o.anchorStep_),
      threads_(o.threads_) {
  bodies_.reserve(o.bodies_.size());
  for (const auto& b : o.bodies_) bodies_.push_back(std::make_unique<BodyImpl>(*b));
}

World& World::operator=(const World& o) {
  if (this != &o) {
    World tmp(o);
    *this = std::move(tmp);
  }
  return *this;
}

void World::resetEnergyAudit() {
  audit_.clear();
  for (const auto& b : bodies_) audit_.push_back(energyAuditBase(*b, def_, time_));
}

double World::energyAuditPeak(int i) const { return audit_[static_cast<size_t>(i)].peakRatio; }

const BodyState& World::state(int i) const { return bodies_[static_cast<size_t>(i)]->state; }

BodyDiagnostics World::diagnostics(int i) const {
  const BodyImpl& b = *bodies_[static_cast<size_t>(i)];
  const BodyState& s = b.state;
  BodyDiagnostics d;
  const Vec3 gravity = def_.gravity;
  const double gn = gravity.norm();
  const Vec3 down = gn > 0.0 ? Vec3(gravity / gn) : Vec3(0.0, -1.0, 0.0);
  const Vec3 omegaBody = s.Y.head<3>();
  const Vec3 vBody = s.Y.tail<3>();
  d.q = s.g.q;
  d.com = s.g.toWorld(b.com);
  if (s.continuous) {
    // ċ: the COM's own motion in the body frame from the shape change (p⁰_body = m ċ).
    const Vec3 comRate = b.mu0Body.tail<3>() / b.moments.mass;
    d.velocity = s.g.q * Vec3(vBody + omegaBody.cross(b.com) + comRate);
  } else {
    // The COM's displacement over the last step divided by its size (consistent with the
    // positions): com_{k+1} − com_k = A_{k+1}(c_{k+1} − R_τᵀ(c_k − t_τ)), τ = τ(hY_{k+1}).
    const Pose tau = cayley(s.stepH * s.Y);
    d.velocity = s.g.q * Vec3((b.com - tau.q.conjugate() * Vec3(s.stepStartCom - tau.b)) / s.stepH);
  }
  if (s.frame != Vec3::Zero()) d.velocity += s.frame;  // Y is relative to the flow's frame
  d.omega = s.g.q * omegaBody;
  // Momentum ∂L/∂Y in the ground frame: the body's own in the ground frame plus the fluid's
  // impulse, which is relative to the flow (PHYSICS.md §7); s.mu is taken in the flow's frame.
  const Vec6 Yg = s.groundY();
  const Vec6 muWorld = momentumToWorld(
      s.g, s.frame == Vec3::Zero() ? s.mu : Vec6(s.mu + b.inertiaBody * (Yg - s.Y)));
  d.angularMomentum = muWorld.head<3>();
  d.linearMomentum = muWorld.tail<3>();
  d.fallSpeed = d.velocity.dot(down);
  d.spinRate = -d.omega.dot(down);
  // ½ Σ m |v + ω×x + x'|² = ½ Yᵀ𝓘Y + Yᵀμ⁰ + ½ Σ m |x'|² (and likewise for the fluid).
  const Vec6 mu0Fluid = b.mu0 - b.mu0Body;
  d.kineticEnergyBody = 0.5 * Yg.dot(b.inertiaBody * Yg) + Yg.dot(b.mu0Body) + b.shapeEnergyBody;
  d.kineticEnergyFluid = 0.5 * s.Y.dot(b.added * s.Y) + s.Y.dot(mu0Fluid) + b.shapeEnergyFluid;
  d.kineticEnergy = d.kineticEnergyBody + d.kineticEnergyFluid;
  d.newtonIterations = b.lastIterations;
  d.residual = b.lastResidual;
  return d;
}

BodyInfo World::info(int i) const {
  const BodyImpl& b = *bodies_[static_cast<size_t>(i)];
  BodyInfo info;
  info.faces = b.mesh.numFaces();
  info.mass = b.moments.mass;
  info.com = b.com;
  info.volume = b.closedVolume;
  info.area = b.area;
  info.delta = b.delta;
  info.deltaAuto = b.deltaAuto;
  info.boundRadius = b.boundRadius;
  info.inertiaCom = b.moments.inertiaAboutCom(b.com);
  info.bodyInertia = b.inertiaBody;
  info.addedMass = b.added;
  info.kirchhoff = b.K;
  return info;
}

geometry::VertexMatrix World::worldVertices(int i) const {
  const BodyImpl& b = *bodies_[static_cast<size_t>(i)];
  const Mat3 R = b.state.g.R();
  geometry::VertexMatrix W = b.mesh.V * R.transpose();
  W.rowwise() += b.state.g.b.transpose();
  return W;
}

geometry::VertexMatrix World::worldVerticesAt(int i, const Pose& g, double t) const {
  const BodyImpl& b = *bodies_[static_cast<size_t>(i)];
  geometry::VertexMatrix V;
  if (b.animation && t != b.shapeTime) {
    b.animation->evaluate(t, &V);
  } else {
    V = b.mesh.V;
  }
  geometry::VertexMatrix W = V * g.R().transpose();
  W.rowwise() += g.b.transpose();
  return W;
}

void World::setFluidDensity(double rho) {
  def_.fluid.density = rho;
  for (auto& b : bodies_) {
    b->updateFluid(b->state.g, def_);
    if (b->firstOrder) continue;  // no fluid inertia; the carried momentum stays
    b->state.mu = b->K * b->state.Y + b->mu0;
    b->state.continuous = true;
  }
  resetEnergyAudit();
}

void World::setWind(const Vec3& wind) {
  def_.fluid.wind = wind;
  for (auto& b : bodies_) b->newton.valid = false;
  resetEnergyAudit();
}

void World::setDelta(int body, std::optional<double> delta) {
  BodyImpl& b = *bodies_[static_cast<size_t>(body)];
  def_.bodies[static_cast<size_t>(body)].delta = delta;
  b.deltaOverride = delta;
  b.delta = delta ? *delta : b.deltaAuto;
  b.updateFluid(b.state.g, def_);
  if (!b.firstOrder) {
    b.state.mu = b.K * b.state.Y + b.mu0;
    b.state.continuous = true;
  }
  resetEnergyAudit();
}

void World::setDt(double dt) {
  anchorTime_ = time_;
  anchorStep_ = stepIndex_;
  def_.dt = dt;
}

FluidWrench World::fluidWrench(int i, const FluidWrenchQuery& query) const {
  BodyImpl b = *bodies_[static_cast<size_t>(i)];  // caches change with the pose
  WorldDef def = def_;
  if (query.wind) {
    def.fluid.wind = *query.wind;
    def.fluid.gusts.reset();
  }
  b.updateAnimatedShape(query.t, def.dt);
  Pose g;
  g.q = query.q.normalized();
  const Vec3 comWorld = query.com ? *query.com : b.state.g.toWorld(b.com);
  g.b = comWorld - g.q * b.com;
  b.updateFluid(g, def);
  const Quat qi = g.q.conjugate();
  Vec6 Y;
  Y.head<3>() = qi * query.omega;
  Y.tail<3>() = qi * query.velocity - Y.head<3>().cross(b.com);
  Vec6 F = Vec6::Zero();
  if (b.firstOrder) {
    // Gross et al.: the inertial metric is the body's own inertia (no fluid force); the
    // dissipative one gives the Rayleigh force −Σ_j B_j (v_j − w) with the world metrics of
    // the placed shape, v_j = ω × (p_j − c) + v_c + R x'_j (x' the shape's own velocity) and
    // w the flow at the COM (uniform over the body, as in the step).
    FluidWrench w;
    if (b.firstOrder->kind == FirstOrderKind::kInertial) return w;
    Vec3 flow = def.fluid.wind;
    if (def.fluid.gusts) flow += def.fluid.gusts->velocity(comWorld, query.t);
    geometry::VertexMatrix shapeVel;
    if (b.animation) {
      b.animation->evaluate(query.t + def.dt, &shapeVel);
      shapeVel = (shapeVel - b.mesh.V) / def.dt;
    }
    const Mat3 R = g.R();
    const std::vector<Mat3> B = vertexMetrics(*b.firstOrder, b.mesh.V, b.mesh.F, b.firstOrderMass);
    for (int j = 0; j < b.mesh.numVertices(); ++j) {
      const Vec3 r = R * Vec3(b.mesh.vertex(j) - b.com);
      Vec3 rel = query.omega.cross(r) + query.velocity - flow;
      if (b.animation) rel += R * Vec3(shapeVel.row(j).transpose());
      const Vec3 f = -(R * (B[static_cast<size_t>(j)] * (R.transpose() * rel)));
      w.force += f;
      w.torque += r.cross(f);
    }
    return w;
  }
  FluidModelInput in = b.modelInput(g, query.t, def.dt, def);
  std::vector<Vec3> offsets;
  if (b.model->localFaces()) {
    offsets.assign(b.drag.size(), Vec3(-(qi * def.fluid.wind)));
    for (size_t f = 0; f < offsets.size(); ++f) {
      if (def.fluid.gusts) {
        offsets[f] -= qi * def.fluid.gusts->velocity(g.toWorld(b.drag.centroid(f)), query.t);
      }
      if (!b.faceShapeVel.empty()) offsets[f] += b.faceShapeVel[f];
    }
    in.faces = &b.drag;
    in.law = &b.law;
    in.faceOffsets = offsets.data();
  }
  F = b.model->wrench(in, Y);
  FluidWrench w;
  w.force = g.q * Vec3(F.tail<3>());
  w.torque = g.q * Vec3(F.head<3>() - b.com.cross(F.tail<3>()));
  return w;
}

ForceBreakdown World::forceBreakdown(int i, int maxFaces) const {
  const BodyImpl& b = *bodies_[static_cast<size_t>(i)];
  const BodyState& s = b.state;
  const Quat& q = s.g.q;
  // Body wrench (torque about the body origin) → world force, world torque about the COM.
  auto toWorld = [&](const Vec6& F) {
    FluidWrench w;
    w.force = q * Vec3(F.tail<3>());
    w.torque = q * Vec3(F.head<3>() - b.com.cross(F.tail<3>()));
    return w;
  };
  ForceBreakdown out;
  out.gravity.force = b.moments.mass * def_.gravity;
  Vec6 B = Vec6::Zero();
  b.addBuoyancyWrench(s.g, def_, &B);
  out.buoyancy = toWorld(B);
  const std::vector<ContactPoint> contacts = b.floorContacts(s.g, def_);
  if (!contacts.empty()) {
    const Vec3 upBody = q.conjugate() * upAxis(def_.gravity);
    Vec6 C = Vec6::Zero();
    addContactWrench(contacts, upBody, def_.floor->friction, def_.floor->slipVelocity, s.groundY(),
                     &C, nullptr);
    out.contact = toWorld(C);
  }
  FluidWrenchQuery query;
  query.q = q;
  const Vec6 Yg = s.groundY();
  query.omega = q * Vec3(Yg.head<3>());
  query.velocity = q * Vec3(Yg.tail<3>() + Yg.head<3>().cross(b.com));
  query.t = time_;
  out.liftDrag = fluidWrench(i, query);
  {
    Vec3 flow = def_.fluid.wind;
    if (def_.fluid.gusts) flow += def_.fluid.gusts->velocity(s.g.toWorld(b.com), time_);
    const Vec3 u = query.velocity - flow;
    const double un = u.norm();
    if (un > 0.0) {
      const Vec3 e = u / un;
      out.drag = out.liftDrag.force.dot(e) * e;
      out.lift = out.liftDrag.force - out.drag;
    }
  }
  if (maxFaces <= 0 || !b.model->localFaces() || b.firstOrder) return out;
  // Per-face forces with the drag coefficients at the current pose (as fluidWrench).
  BodyImpl c = b;
  c.updateFluid(s.g, def_);
  const Quat qi = q.conjugate();
  std::vector<Vec3> offsets(c.drag.size(), Vec3(-(qi * def_.fluid.wind)));
  for (size_t f = 0; f < offsets.size(); ++f) {
    if (def_.fluid.gusts) {
      offsets[f] -= qi * def_.fluid.gusts->velocity(s.g.toWorld(c.drag.centroid(f)), time_);
    }
    if (!c.faceShapeVel.empty()) offsets[f] += c.faceShapeVel[f];
  }
  std::vector<Vec3> forces;
  FluidModelInput in = c.modelInput(s.g, time_, def_.dt, def_);
  in.faces = &c.drag;
  in.law = &c.law;
  in.faceOffsets = offsets.data();
  c.model->localFaceForces(in, Yg, &forces);
  std::vector<int> order(forces.size());
  for (size_t f = 0; f < order.size(); ++f) order[f] = static_cast<int>(f);
  const size_t n = std::min(order.size(), static_cast<size_t>(maxFaces));
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(),
                    [&](int a, int bb) {
                      const double na = forces[static_cast<size_t>(a)].squaredNorm();
                      const double nb = forces[static_cast<size_t>(bb)].squaredNorm();
                      return na != nb ? na > nb : a < bb;
                    });
  out.faces.reserve(n);
  for (size_t k = 0; k < n; ++k) {
    const size_t f = static_cast<size_t>(order[k]);
    out.faces.push_back({s.g.toWorld(c.drag.centroid(f)), q * forces[f]});
  }
  return out;
}

Vec6 World::discreteMomentumMap(int i) const {
  const BodyImpl& b = *bodies_[static_cast<size_t>(i)];
  const BodyState& s = b.state;
  // J_k = Ad*_{g_k} (dτ⁻¹_{hY_{k+1}})ᵀ μ_{k+1} = Ad*_{g_k} (dτ⁻¹_{−hY_k})ᵀ μ_k without forces.
  const Vec6 Y = s.continuous ? Vec6::Zero() : s.Y;
  return momentumToWorld(s.g, dCayleyInvTransposeTimes(-def_.dt * Y, s.mu));
}

}  // namespace samara::core

namespace samara::core {

struct WorldState::Impl {
  struct Body {
    BodyStepState step;
    ModelHolder model;
    std::optional<double> delta;
  };
  double time = 0.0;
  std::int64_t stepIndex = 0;
  double anchorTime = 0.0;
  std::int64_t anchorStep = 0;
  double dt = 0.0;
  double density = 0.0;
  Vec3 wind = Vec3::Zero();
  std::vector<Body> bodies;
};

double WorldState::time() const { return impl_ ? impl_->time : 0.0; }
std::int64_t WorldState::stepIndex() const { return impl_ ? impl_->stepIndex : 0; }

WorldState World::saveState() const {
  auto s = std::make_shared<WorldState::Impl>();
  s->time = time_;
  s->stepIndex = stepIndex_;
  s->anchorTime = anchorTime_;
  s->anchorStep = anchorStep_;
  s->dt = def_.dt;
  s->density = def_.fluid.density;
  s->wind = def_.fluid.wind;
  s->bodies.reserve(bodies_.size());
  for (const auto& b : bodies_) s->bodies.push_back({*b, b->model, b->deltaOverride});
  WorldState out;
  out.impl_ = std::move(s);
  return out;
}

void World::restoreState(const WorldState& state) {
  const WorldState::Impl* s = state.impl_.get();
  if (s == nullptr || s->bodies.size() != bodies_.size()) {
    throw std::invalid_argument("restoreState: the state is empty or from another scene");
  }
  for (size_t i = 0; i < bodies_.size(); ++i) {
    if (s->bodies[i].model->name() != bodies_[i]->model->name()) {
      throw std::invalid_argument("restoreState: body " + std::to_string(i) +
                                  " has another fluid model");
    }
  }
  time_ = s->time;
  stepIndex_ = s->stepIndex;
  anchorTime_ = s->anchorTime;
  anchorStep_ = s->anchorStep;
  def_.dt = s->dt;
  def_.fluid.density = s->density;
  def_.fluid.wind = s->wind;
  for (size_t i = 0; i < bodies_.size(); ++i) {
    BodyImpl& b = *bodies_[i];
    const WorldState::Impl::Body& saved = s->bodies[i];
    static_cast<BodyStepState&>(b) = saved.step;
    b.model = saved.model;
    b.deltaOverride = saved.delta;
    def_.bodies[i].delta = saved.delta;
    b.rebuildShape();
  }
  resetEnergyAudit();
}

}  // namespace samara::core
