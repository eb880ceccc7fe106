#include "runtime/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include "analysis/tracker.h"
#include "core/fluid_model.h"
#include "io/error.h"
#include "models/registry.h"
#include "runtime/overloaded.h"
#include "runtime/scene_source.h"

namespace samara::runtime {

namespace {

std::string formatSeconds(double t) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", t);
  return buf;
}

}  // namespace

Runner::Runner(RunnerOptions options)
    : options_(std::move(options)),
      clock_(options_.clock ? options_.clock : std::make_shared<SteadyClock>()),
      pacer_(options_.pacing) {
  recent_.reserve(kRecent);
  const double wall = clock_->now();
  statsWall0_ = wall;
  publish(wall);  // an empty snapshot: status kEmpty
}

Runner::~Runner() { stop(); }

void Runner::post(Command command) {
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    queue_.push_back(std::move(command));
  }
  wake_.notify_one();
}

void Runner::start() {
  if (thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    stopRequested_ = false;
  }
  thread_ = std::thread(&Runner::threadMain, this);
}

void Runner::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    stopRequested_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void Runner::threadMain() {
  for (;;) {
    const TickResult r = tick();
    std::unique_lock<std::mutex> lock(queueMutex_);
    if (stopRequested_) return;
    if (!queue_.empty()) continue;
    if (r.wait <= 0.0) {
      // Behind (the frame budget ran out) or unlimited: let the other threads run, go on.
      lock.unlock();
      std::this_thread::yield();
      continue;
    }
    const double w = std::min(r.wait, options_.idleWait);
    wake_.wait_for(lock, std::chrono::duration<double>(w),
                   [this] { return stopRequested_ || !queue_.empty(); });
    if (stopRequested_) return;
  }
}

std::vector<LoggedCommand> Runner::commandLog() const {
  std::lock_guard<std::mutex> lock(logMutex_);
  return log_;
}

TickResult Runner::tick() {
  TickResult r;
  std::vector<Command> commands;
  {
    std::lock_guard<std::mutex> lock(queueMutex_);
    commands.swap(queue_);
  }
  double wall = clock_->now();
  int steps = 0;
  const std::int64_t stepsBefore = statsSteps_;
  for (Command& c : commands) {
    apply(c, wall);
    ++r.commands;
  }
  if (r.commands > 0) dirty_ = true;

  r.wait = options_.idleWait;
  if (world_ && status_ == RunStatus::kRunning) {
    const double dt = world_->definition().dt;
    if (reanchor_) {
      pacer_.anchor(wall, world_->time());
      reanchor_ = false;
    }
    pacer_.beginTick(wall, world_->time(), dt);
    while (status_ == RunStatus::kRunning && steps < options_.maxStepsPerTick) {
      wall = clock_->now();
      if (!pacer_.shouldStep(wall, world_->time(), dt)) break;
      stepOnce();
      ++steps;
    }
    if (status_ == RunStatus::kRunning) {
      r.wait = pacer_.waitTime(wall, world_->time(), dt);
      r.budgetHit = steps > 0 && r.wait <= 0.0;
    }
  }
  r.steps = static_cast<int>(statsSteps_ - stepsBefore);

  // Measured rates over the last statsWindow of wall time.
  if (wall - statsWall0_ >= options_.statsWindow) {
    const double span = wall - statsWall0_;
    rtf_ = statsSim_ / span;
    sps_ = static_cast<double>(statsStepsWindow_) / span;
    statsWall0_ = wall;
    statsSim_ = 0.0;
    statsStepsWindow_ = 0;
  }

  emitSamples();
  // Publish at most every publishInterval while stepping; at once after commands, when
  // paused, and before a long wait.
  if (dirty_ &&
      (r.commands > 0 || status_ != RunStatus::kRunning ||
       wall - lastPublish_ >= options_.publishInterval || r.wait >= options_.publishInterval)) {
    publish(wall);
  }
  return r;
}

void Runner::setMessage(std::string message) {
  message_ = std::move(message);
  failure_ = false;
  dirty_ = true;
}

void Runner::apply(Command& command, double wall) {
  (void)wall;
  const std::int64_t stepIndex = world_ ? world_->stepIndex() : 0;
  bool logIt = true;
  std::visit(
      Overloaded{
          [&](SetFluidDensity&) { applyParameterCommand(command); },
          [&](SetWind&) { applyParameterCommand(command); },
          [&](SetDelta&) { applyParameterCommand(command); },
          [&](SetDt&) {
            applyParameterCommand(command);
            reanchor_ = true;
          },
          [&](SetSpeed& s) {
            pacer_.setUnlimited(s.unlimited);
            if (!s.unlimited && std::isfinite(s.factor)) pacer_.setSpeed(s.factor);
            reanchor_ = true;
          },
          [&](Pause&) {
            if (status_ == RunStatus::kRunning) status_ = RunStatus::kPaused;
          },
          [&](Resume&) {
            scrub_.reset();
            if (world_) {
              status_ = RunStatus::kRunning;
              reanchor_ = true;
            }
          },
          [&](TogglePause&) {
            if (status_ == RunStatus::kRunning) {
              status_ = RunStatus::kPaused;
            } else if (world_) {
              scrub_.reset();
              status_ = RunStatus::kRunning;
              reanchor_ = true;
            }
          },
          [&](Step& s) {
            if (!world_) return;
            if (status_ == RunStatus::kRunning) status_ = RunStatus::kPaused;
            scrub_.reset();
            for (int i = 0; i < s.n; ++i) {
              if (!stepOnce()) break;
            }
          },
          [&](Scrub& s) {
            logIt = false;
            if (!s.stepIndex || history_.empty()) {
              scrub_.reset();
              return;
            }
            if (status_ == RunStatus::kRunning) status_ = RunStatus::kPaused;
            scrub_ =
                std::clamp(*s.stepIndex, history_.front().stepIndex, history_.back().stepIndex);
          },
          [&](SetTeaching& t) {
            logIt = false;
            teaching_ = t;
          },
          [&](Reset&) {
            logIt = false;
            if (!initial_) return;
            world_ = *initial_;
            if (ghostInitial_) ghost_ = *ghostInitial_;
            startRun(status_ == RunStatus::kRunning ? RunStatus::kRunning : RunStatus::kPaused);
          },
          [&](Restart& r) {
            logIt = false;
            if (!world_) return;
            core::WorldDef def = loadedDef_;
            std::string error;
            if (!applyOverrides(r.overrides, &def, &error)) {
              setMessage("restart failed: " + error);
              return;
            }
            std::vector<std::optional<std::string>> modelOverride = r.overrides.model;
            modelOverride.resize(def.bodies.size());
            try {
              core::World w = io::makeWorld(def, scenePath_);
              install(std::move(w), loadedDef_, scenePath_, sceneSets_, sceneFromFile_,
                      std::move(modelOverride));
            } catch (const std::exception& e) {
              setMessage(std::string("restart failed: ") + e.what());
            }
          },
          [&](SetGhost& g) {
            logIt = false;
            if (g.model && !isGhostName(*g.model)) {
              setMessage("ghost: unknown model \"" + *g.model + "\"");
              return;
            }
            ghostModel_ = g.model;
            if (!world_) return;
            // The main run from t = 0 with its current definition (what the sliders set);
            // install() builds the ghost from the same definition.
            try {
              core::World w = io::makeWorld(world_->definition(), scenePath_);
              install(std::move(w), loadedDef_, scenePath_, sceneSets_, sceneFromFile_,
                      modelOverride_);
            } catch (const std::exception& e) {
              setMessage(std::string("ghost: restart failed: ") + e.what());
            }
          },
          [&](LoadScene& l) {
            logIt = false;
            try {
              core::WorldDef def = loadSceneOrMesh(l.path, l.sets);
              core::World w = io::makeWorld(def, l.path);
              std::optional<io::Lesson> lesson;
              if (fileKind(l.path) == FileKind::kScene) lesson = io::loadLesson(l.path);
              install(std::move(w), def, l.path, l.sets, true);
              lesson_ = lesson.value_or(io::Lesson{});
            } catch (const std::exception& e) {
              setMessage(e.what());
            }
          },
          [&](Reload&) {
            logIt = false;
            if (!sceneFromFile_) return;
            Command load = LoadScene{scenePath_, sceneSets_};
            apply(load, wall);
          },
          [&](LoadWorld& l) {
            logIt = false;
            try {
              core::World w = io::makeWorld(l.def, l.label);
              install(std::move(w), l.def, l.label, {}, false);
              lesson_ = io::Lesson{};
            } catch (const std::exception& e) {
              setMessage(e.what());
            }
          },
      },
      command);
  if (logIt && world_) {
    std::lock_guard<std::mutex> lock(logMutex_);
    log_.push_back(LoggedCommand{stepIndex, command});
  }
}

void Runner::applyParameterCommand(const Command& command) {
  if (!world_) return;
  if (!applyParameter(command, &*world_)) {
    setMessage("ignored an invalid value: " + describe(command));
    return;
  }
  // Same bodies: valid for both. The no-added-mass ghost keeps its δ = 0 (that is its point).
  const bool keepGhostDelta =
      std::holds_alternative<SetDelta>(command) && ghostModel_ == kNoAddedMassGhost;
  if (ghost_ && !keepGhostDelta) applyParameter(command, &*ghost_);
}

bool Runner::stepOnce() {
  const double dt = world_->definition().dt;
  // After a failed ghost step the main world is one step ahead: the ghost catches up alone.
  const bool ghostBehind = ghost_ && ghost_->stepIndex() < world_->stepIndex();
  dirty_ = true;
  if (!ghostBehind) {
    core::StepReport report = world_->step();
    if (!report.ok()) {
      status_ = RunStatus::kFailed;
      message_ = "step " + std::to_string(world_->stepIndex() + 1) +
                 " (t = " + formatSeconds(world_->time()) + " s) failed: " + report.message +
                 ". Paused: reduce h, change the parameters, or reset.";
      failure_ = true;
      lastReport_ = std::move(report);
      return false;
    }
    const StepRecord rec{report.newtonIterations, report.substeps};
    if (recent_.size() < static_cast<std::size_t>(kRecent)) {
      recent_.push_back(rec);
    } else {
      recent_[recentNext_] = rec;
    }
    recentNext_ = (recentNext_ + 1) % static_cast<std::size_t>(kRecent);
    lastReport_ = std::move(report);
    ++statsSteps_;
    ++statsStepsWindow_;
    statsSim_ += dt;
    pushSamples(*world_, false);
  }
  if (ghost_) {
    const core::StepReport report = ghost_->step();
    if (!report.ok()) {
      status_ = RunStatus::kFailed;
      message_ = "ghost (" + *ghostModel_ + "): step " + std::to_string(ghost_->stepIndex() + 1) +
                 " (t = " + formatSeconds(ghost_->time()) + " s) failed: " + report.message +
                 ". Paused: reduce h, change the parameters, reset, or turn the ghost off.";
      failure_ = true;
      record();
      return false;
    }
    pushSamples(*ghost_, true);
  }
  record();
  if (status_ == RunStatus::kFailed) status_ = RunStatus::kPaused;
  if (failure_) {
    message_.clear();
    failure_ = false;
  }
  return true;
}

void Runner::pushSamples(const core::World& world, bool ghost) {
  for (int i = 0; i < world.numBodies(); ++i) {
    PlotSample p{generation_, world.stepIndex(), world.time(), i, ghost, world.diagnostics(i)};
    pendingSamples_.push_back(std::move(p));
  }
}

std::vector<Runner::BodyCache> Runner::cacheBodies(const core::World& world) {
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
  }
  return cache;
}

void Runner::install(core::World world, const core::WorldDef& loaded, const std::string& path,
                     const io::SetList& sets, bool fromFile,
                     std::vector<std::optional<std::string>> modelOverride) {
  loadedDef_ = loaded;
  scenePath_ = path;
  sceneSets_ = sets;
  sceneFromFile_ = fromFile;
  modelOverride_ = std::move(modelOverride);
  initial_ = world;
  world_ = std::move(world);
  cache_ = cacheBodies(*world_);
  message_.clear();
  failure_ = false;
  buildGhost();
  startRun(options_.startPaused ? RunStatus::kPaused : RunStatus::kRunning);
}

void Runner::buildGhost() {
  ghost_.reset();
  ghostInitial_.reset();
  ghostCache_.clear();
  if (!ghostModel_ || !world_) return;
  core::WorldDef def = world_->definition();  // the main world at t = 0
  setAllModels(&def, *ghostModel_);
  try {
    core::World g = io::makeWorld(std::move(def), scenePath_);
    ghostCache_ = cacheBodies(g);
    ghostInitial_ = g;
    ghost_ = std::move(g);
  } catch (const std::exception& e) {
    setMessage("ghost (" + *ghostModel_ + ") turned off: " + e.what());
    ghostModel_.reset();
  }
}

void Runner::startRun(RunStatus status) {
  ++generation_;
  status_ = status;
  if (failure_) {
    message_.clear();
    failure_ = false;
  }
  reanchor_ = true;
  dirty_ = true;
  recent_.clear();
  recentNext_ = 0;
  lastReport_ = core::StepReport{};
  {
    std::lock_guard<std::mutex> lock(logMutex_);
    log_.clear();
  }
  history_.clear();
  scrub_.reset();
  record();
  // The first sample is the initial state, as the CSV's first row.
  pushSamples(*world_, false);
  if (ghost_) pushSamples(*ghost_, true);
}

void Runner::record() {
  if (!world_ || options_.historySeconds <= 0.0) return;
  if (!history_.empty() && history_.back().stepIndex == world_->stepIndex()) {
    history_.pop_back();  // the ghost caught up: record the step again, with it
  }
  HistoryFrame f;
  f.stepIndex = world_->stepIndex();
  f.time = world_->time();
  const int n = world_->numBodies();
  f.states.reserve(static_cast<std::size_t>(n));
  f.diagnostics.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    f.states.push_back(world_->state(i));
    f.diagnostics.push_back(world_->diagnostics(i));
  }
  if (ghost_ && ghost_->stepIndex() == world_->stepIndex()) {
    for (int i = 0; i < ghost_->numBodies(); ++i) {
      f.ghostStates.push_back(ghost_->state(i));
      f.ghostDiagnostics.push_back(ghost_->diagnostics(i));
    }
  }
  const std::size_t frameBytes =
      sizeof(HistoryFrame) + (f.states.size() + f.ghostStates.size()) *
                                 (sizeof(core::BodyState) + sizeof(core::BodyDiagnostics));
  const std::size_t maxFrames = std::max<std::size_t>(1, options_.historyMaxBytes / frameBytes);
  history_.push_back(std::move(f));
  const double newest = history_.back().time;
  while (history_.size() > maxFrames ||
         (history_.size() > 1 && newest - history_.front().time > options_.historySeconds)) {
    history_.pop_front();
  }
  if (scrub_ && *scrub_ < history_.front().stepIndex) scrub_ = history_.front().stepIndex;
}

const HistoryFrame* Runner::findFrame(std::int64_t stepIndex) const {
  if (history_.empty()) return nullptr;
  const std::int64_t first = history_.front().stepIndex;
  if (stepIndex < first || stepIndex > history_.back().stepIndex) return nullptr;
  // Step indices are consecutive within a run.
  const HistoryFrame& f = history_[static_cast<std::size_t>(stepIndex - first)];
  return f.stepIndex == stepIndex ? &f : nullptr;
}

std::optional<HistoryFrame> Runner::recorded(std::int64_t stepIndex) const {
  const HistoryFrame* f = findFrame(stepIndex);
  if (!f) return std::nullopt;
  return *f;
}

void Runner::emitSamples() {
  if (pendingSamples_.empty()) return;
  samples_.push(pendingSamples_);
  pendingSamples_.clear();
}

namespace {

/// The teaching overlays' data of body i (BodyTeaching).
BodyTeaching teachingOf(const core::World& world, int i, int maxFaces) {
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
  t.addedTranslational = info.addedMass.block<3, 3>(3, 3);
  t.addedRotational = rotationalAboutCom(info.addedMass);
  t.bodyRotational = rotationalAboutCom(info.bodyInertia);
  // Momentum (l, p) about the body origin → about the COM, world frame.
  const Quat& q = s.g.q;
  auto angularAboutCom = [&](const Vec6& mu) {
    return Vec3(q * Vec3(mu.head<3>() - info.com.cross(mu.tail<3>())));
  };
  const Vec6 muBody = info.bodyInertia * s.Y;
  t.linearMomentumBody = q * Vec3(muBody.tail<3>());
  t.angularMomentumBody = angularAboutCom(muBody);
  t.linearMomentumTotal = q * Vec3(s.mu.tail<3>());
  t.angularMomentumTotal = angularAboutCom(s.mu);
  return t;
}

}  // namespace

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
  s.realTimeFactor = status_ == RunStatus::kRunning ? rtf_ : 0.0;
  s.stepsPerSecond = status_ == RunStatus::kRunning ? sps_ : 0.0;
  s.reanchors = pacer_.reanchors();
  s.params.speed = pacer_.speed();
  s.params.unlimited = pacer_.unlimited();
  if (!world_) {
    s.stepIndex = 0;
    s.time = 0.0;
    s.sceneName.clear();
    s.bodies.clear();
    s.ghostModel.clear();
    s.ghostBodies.clear();
    s.ghostStepIndex = 0;
  } else {
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
    SolverStats& st = s.solver;
    st.lastIterations = lastReport_.newtonIterations;
    st.lastResidual = lastReport_.residual;
    st.lastSubsteps = lastReport_.substeps;
    st.iterationLimit = def.solver.maxIterations;
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
    fillBodies(*world_, cache_, modelOverride_, &s.bodies);
    if (ghost_) {
      s.ghostModel = *ghostModel_;
      fillBodies(*ghost_, ghostCache_, {}, &s.ghostBodies);
      s.ghostStepIndex = ghost_->stepIndex();
    } else {
      s.ghostModel.clear();
      s.ghostBodies.clear();
      s.ghostStepIndex = 0;
    }
    s.liveStepIndex = s.stepIndex;
    s.liveTime = s.time;
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
      s.bodies[i].teaching.reset();
      if (teaching_.on && !scrub_) {
        s.bodies[i].teaching = teachingOf(*world_, static_cast<int>(i), teaching_.maxFaces);
      }
    }
    // Scrubbing: the recorded step in place of the live one (vertices from the recorded
    // poses, shapes at the recorded time).
    const HistoryFrame* f = scrub_ ? findFrame(*scrub_) : nullptr;
    s.scrubbing = f != nullptr;
    if (f) {
      s.stepIndex = f->stepIndex;
      s.time = f->time;
      for (std::size_t i = 0; i < s.bodies.size() && i < f->states.size(); ++i) {
        s.bodies[i].vertices =
            world_->worldVerticesAt(static_cast<int>(i), f->states[i].g, f->time);
        s.bodies[i].diagnostics = f->diagnostics[i];
      }
      if (ghost_ && f->ghostStates.size() == s.ghostBodies.size()) {
        for (std::size_t i = 0; i < s.ghostBodies.size(); ++i) {
          s.ghostBodies[i].vertices =
              ghost_->worldVerticesAt(static_cast<int>(i), f->ghostStates[i].g, f->time);
          s.ghostBodies[i].diagnostics = f->ghostDiagnostics[i];
        }
        s.ghostStepIndex = f->stepIndex;
      }
    }
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
  snapshots_.publish();
  lastPublish_ = wall;
  dirty_ = false;
}

void Runner::fillBodies(const core::World& world, const std::vector<BodyCache>& cache,
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
    b.diagnostics = world.diagnostics(i);
    b.mass = c.mass;
    b.deltaOverride = bd.delta;
    b.deltaAuto = c.deltaAuto;
    b.delta = bd.delta ? *bd.delta : c.deltaAuto;
    b.radius = c.radius;
    b.model = core::fluidModelName(bd);
    b.modelOverride = k < modelOverride.size() ? modelOverride[k] : std::nullopt;
    b.broadNormalBody = c.broadNormalBody;
  }
}

}  // namespace samara::runtime
