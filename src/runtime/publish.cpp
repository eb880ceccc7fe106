#include "runtime/publish.h"

#include <algorithm>

#include "analysis/tracker.h"
#include "core/fluid_model.h"
#include "runtime/commands.h"
#include "runtime/runner.h"

namespace samara::runtime {

namespace {

/// The pose of `b` and the box around its vertices.
void setPose(const core::Pose& g, BodySnapshot* b) {
  b->orientation = g.q;
  b->position = g.b;
  if (b->vertices.rows() > 0) {
    b->boundsLo = b->vertices.colwise().minCoeff().transpose();
    b->boundsHi = b->vertices.colwise().maxCoeff().transpose();
  } else {
    b->boundsLo = b->boundsHi = g.b;
  }
}

}  // namespace

std::vector<BodyCache> cacheBodies(const core::World& world) {
  const int n = world.numBodies();
  std::vector<BodyCache> cache(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    BodyCache& c = cache[static_cast<std::size_t>(i)];
    const core::BodyInfo info = world.info(i);
    c.mass = info.mass;
    c.broadNormalBody = analysis::broadNormal(info);
    c.deltaAuto = info.deltaAuto;
    c.radius = info.boundRadius;
    c.faces = std::make_shared<const geometry::FaceMatrix>(world.bodyDef(i).mesh.F);
    if (!world.bodyDef(i).animation) {
      c.restVertices = std::make_shared<const geometry::VertexMatrix>(world.bodyDef(i).mesh.V);
    }
  }
  return cache;
}

void fillBodies(const core::World& world, const std::vector<BodyCache>& cache,
                const std::vector<std::optional<std::string>>& modelOverride,
                std::vector<BodySnapshot>* out) {
  const int n = world.numBodies();
  out->resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    BodySnapshot& b = (*out)[k];
    const core::BodyDef& bd = world.bodyDef(i);
    const BodyCache& c = cache[k];
    b.name = bd.name;
    b.vertices = world.worldVertices(i);
    b.faces = c.faces;
    b.restVertices = c.restVertices;
    setPose(world.state(i).g, &b);
    b.diagnostics = world.diagnostics(i);
    b.mass = c.mass;
    b.deltaOverride = bd.delta;
    b.deltaAuto = c.deltaAuto;
    b.delta = bd.delta ? *bd.delta : c.deltaAuto;
    b.radius = c.radius;
    b.model = core::fluidModelName(bd);
    b.usesDelta = bd.model->localFaces();
    b.modelOverride = k < modelOverride.size() ? modelOverride[k] : std::nullopt;
    b.broadNormalBody = c.broadNormalBody;
  }
}

BodyTeaching teachingOf(const core::World& world, int i, int maxFaces,
                        const core::World* exactGhost) {
  BodyTeaching t;
  t.forces = world.forceBreakdown(i, maxFaces);
  const core::BodyInfo info = world.info(i);
  const core::BodyState& s = world.state(i);
  // Reference point origin → COM c: Y = T Y' with T = [I 0; ĉ I], M' = Tᵀ M T.
  const Mat3 C = hat(info.com);
  auto rotationalAboutCom = [&](const Mat6& M) {
    return Mat3(M.block<3, 3>(0, 0) + M.block<3, 3>(0, 3) * C +
                C.transpose() * M.block<3, 3>(3, 0) + C.transpose() * M.block<3, 3>(3, 3) * C);
  };
  if (exactGhost != nullptr && i < exactGhost->numBodies() &&
      exactGhost->definition().bodies[static_cast<std::size_t>(i)].addedMass ==
          core::AddedMassSource::kExact) {
    const Mat6 exact = exactGhost->info(i).addedMass;  // at the ghost's densities
    t.exactTranslational = exact.block<3, 3>(3, 3);
    t.exactRotational = rotationalAboutCom(exact);
  }
  t.addedTranslational = info.addedMass.block<3, 3>(3, 3);
  t.addedRotational = rotationalAboutCom(info.addedMass);
  t.bodyRotational = rotationalAboutCom(info.bodyInertia);
  // Momentum (l, p) about the body origin → about the COM, world frame.
  const Quat& q = s.g.q;
  auto angularAboutCom = [&](const Vec6& mu) {
    return Vec3(q * Vec3(mu.head<3>() - info.com.cross(mu.tail<3>())));
  };
  // In the ground frame (Y and μ are relative to the flow's frame, core::BodyState).
  const Vec6 Yg = s.groundY();
  const Vec6 muBody = info.bodyInertia * Yg;
  const Vec6 muTotal = s.frame == Vec3::Zero() ? s.mu : Vec6(s.mu + info.bodyInertia * (Yg - s.Y));
  t.linearMomentumBody = q * Vec3(muBody.tail<3>());
  t.angularMomentumBody = angularAboutCom(muBody);
  t.linearMomentumTotal = q * Vec3(muTotal.tail<3>());
  t.angularMomentumTotal = angularAboutCom(muTotal);
  return t;
}

void showRecorded(const HistoryFrame& f, const core::World& world, const core::World* ghost,
                  Snapshot* s) {
  s->stepIndex = f.stepIndex;
  s->time = f.time;
  for (std::size_t i = 0; i < s->bodies.size() && i < f.states.size(); ++i) {
    s->bodies[i].vertices = world.worldVerticesAt(static_cast<int>(i), f.states[i].g, f.time);
    setPose(f.states[i].g, &s->bodies[i]);
    s->bodies[i].diagnostics = f.diagnostics[i];
  }
  if (ghost && f.ghostStates.size() == s->ghostBodies.size()) {
    for (std::size_t i = 0; i < s->ghostBodies.size(); ++i) {
      s->ghostBodies[i].vertices =
          ghost->worldVerticesAt(static_cast<int>(i), f.ghostStates[i].g, f.time);
      setPose(f.ghostStates[i].g, &s->ghostBodies[i]);
      s->ghostBodies[i].diagnostics = f.ghostDiagnostics[i];
    }
    s->ghostStepIndex = f.stepIndex;
  }
}

void SolverWindow::clear() {
  recent_.clear();
  next_ = 0;
  last_ = core::StepReport{};
}

void SolverWindow::add(core::StepReport report) {
  const StepRecord rec{report.newtonIterations, report.substeps};
  if (recent_.size() < static_cast<std::size_t>(kRecent)) {
    recent_.push_back(rec);
  } else {
    recent_[next_] = rec;
  }
  next_ = (next_ + 1) % static_cast<std::size_t>(kRecent);
  last_ = std::move(report);
}

SolverStats SolverWindow::stats(int iterationLimit) const {
  SolverStats st;
  st.lastIterations = last_.newtonIterations;
  st.lastResidual = last_.residual;
  st.lastSubsteps = last_.substeps;
  st.iterationLimit = iterationLimit;
  st.maxIterations = 0;
  st.substeppedSteps = 0;
  st.recentSteps = static_cast<int>(recent_.size());
  double sum = 0.0;
  for (const StepRecord& r : recent_) {
    st.maxIterations = std::max(st.maxIterations, r.iterations);
    st.substeppedSteps += r.substeps > 1 ? 1 : 0;
    sum += r.iterations;
  }
  st.meanIterations = recent_.empty() ? 0.0 : sum / static_cast<double>(recent_.size());
  return st;
}

void RateMeter::update(double wall) {
  if (wall - wall0_ < window_) return;
  const double span = wall - wall0_;
  rtf_ = sim_ / span;
  sps_ = static_cast<double>(stepsWindow_) / span;
  measured_ = true;
  wall0_ = wall;
  sim_ = 0.0;
  stepsWindow_ = 0;
}

void Runner::publish(double wall) {
  Snapshot& s = snapshots_.back();
  s.generation = generation_;
  s.status = status_;
  s.message = message_;
  s.scenePath = scenePath_;
  s.sceneSets = sceneSets_;
  s.sceneFromFile = sceneFromFile_ && world_.has_value();
  s.lessonTitle = lesson_.title;
  s.lessonText = lesson_.text;
  s.lessonView = lesson_.view;
  s.realTimeFactor = status_ == RunStatus::kRunning ? rates_.realTimeFactor() : 0.0;
  s.stepsPerSecond = status_ == RunStatus::kRunning ? rates_.stepsPerSecond() : 0.0;
  s.rateMeasured = rates_.measured();
  s.reanchors = pacer_.reanchors();
  s.params.speed = pacer_.speed();
  s.params.unlimited = pacer_.unlimited();
  s.params.threads = threads_;
  if (!world_) {
    s.stepIndex = 0;
    s.time = 0.0;
    s.sceneName.clear();
    s.bodies.clear();
    s.ghostModel.clear();
    s.ghostBodies.clear();
    s.ghostStepIndex = 0;
  } else {
    publishWorld(&s);
  }
  if (history_.empty()) {
    s.historyFirst = 0;
    s.historyLast = -1;
    s.historyFirstTime = s.historyLastTime = 0.0;
  } else {
    s.historyFirst = history_.front().stepIndex;
    s.historyLast = history_.back().stepIndex;
    s.historyFirstTime = history_.front().time;
    s.historyLastTime = history_.back().time;
  }
  s.historyStride = history_.stride();
  snapshots_.publish();
  lastPublish_ = wall;
  dirty_ = false;
}

void Runner::publishWorld(Snapshot* out) const {
  Snapshot& s = *out;
  const core::WorldDef& def = world_->definition();
  s.stepIndex = world_->stepIndex();
  s.time = world_->time();
  s.sceneName = def.name;
  s.duration = def.duration;
  s.params.fluidDensity = def.fluid.density;
  s.params.wind = def.fluid.wind;
  s.params.dt = def.dt;
  s.params.gravity = def.gravity;
  s.params.water = def.fluid.water;
  s.params.floor = def.floor;
  s.solver = solver_.stats(def.solver.maxIterations);
  fillBodies(*world_, cache_, modelOverride_, &s.bodies);
  const core::World* ghost = ghost_.world();
  if (ghost) {
    s.ghostModel = *ghost_.model();
    fillBodies(*ghost, ghost_.cache(), {}, &s.ghostBodies);
    s.ghostStepIndex = ghost->stepIndex();
  } else {
    s.ghostModel.clear();
    s.ghostBodies.clear();
    s.ghostStepIndex = 0;
  }
  s.liveStepIndex = s.stepIndex;
  s.liveTime = s.time;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    s.bodies[i].teaching.reset();
    if (teaching_.on && !history_.scrubbing()) {
      const bool exact = ghost != nullptr && *ghost_.model() == kExactAddedMassGhost;
      s.bodies[i].teaching =
          teachingOf(*world_, static_cast<int>(i), teaching_.maxFaces, exact ? ghost : nullptr);
    }
  }
  // Scrubbing: the recorded step in place of the live one.
  const HistoryFrame* f = history_.shown();
  s.scrubbing = f != nullptr;
  if (f) showRecorded(*f, *world_, ghost, &s);
}

}  // namespace samara::runtime
