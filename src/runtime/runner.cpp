#include "runtime/overloaded.h"
#include "runtime/runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include "io/error.h"
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
            if (world_) {
              status_ = RunStatus::kRunning;
              reanchor_ = true;
            }
          },
          [&](TogglePause&) {
            if (status_ == RunStatus::kRunning) {
              status_ = RunStatus::kPaused;
            } else if (world_) {
              status_ = RunStatus::kRunning;
              reanchor_ = true;
            }
          },
          [&](Step& s) {
            if (!world_) return;
            if (status_ == RunStatus::kRunning) status_ = RunStatus::kPaused;
            for (int i = 0; i < s.n; ++i) {
              if (!stepOnce()) break;
            }
          },
          [&](Reset&) {
            logIt = false;
            if (!initial_) return;
            world_ = *initial_;
            startRun(status_ == RunStatus::kRunning ? RunStatus::kRunning : RunStatus::kPaused);
          },
          [&](Restart& r) {
            logIt = false;
            if (!world_) return;
            core::WorldDef def = loadedDef_;
            const Overrides& o = r.overrides;
            if (o.fluidDensity) def.fluid.density = *o.fluidDensity;
            if (o.wind) def.fluid.wind = *o.wind;
            if (o.dt) def.dt = *o.dt;
            for (std::size_t i = 0; i < o.delta.size() && i < def.bodies.size(); ++i) {
              if (o.delta[i]) def.bodies[i].delta = *o.delta[i];
            }
            try {
              core::World w = io::makeWorld(def, scenePath_);
              install(std::move(w), loadedDef_, scenePath_, sceneSets_, sceneFromFile_);
            } catch (const std::exception& e) {
              setMessage(std::string("restart failed: ") + e.what());
            }
          },
          [&](LoadScene& l) {
            logIt = false;
            try {
              core::WorldDef def = loadSceneOrMesh(l.path, l.sets);
              core::World w = io::makeWorld(def, l.path);
              install(std::move(w), def, l.path, l.sets, true);
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
  }
}

bool Runner::stepOnce() {
  const double dt = world_->definition().dt;
  core::StepReport report = world_->step();
  dirty_ = true;
  if (!report.ok()) {
    status_ = RunStatus::kFailed;
    message_ = "step " + std::to_string(world_->stepIndex() + 1) +
               " (t = " + formatSeconds(world_->time()) + " s) failed: " + report.message +
               ". Paused: reduce h, change the parameters, or reset.";
    failure_ = true;
    lastReport_ = std::move(report);
    return false;
  }
  if (status_ == RunStatus::kFailed) status_ = RunStatus::kPaused;
  if (failure_) {
    message_.clear();
    failure_ = false;
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
  for (int i = 0; i < world_->numBodies(); ++i) {
    pendingSamples_.push_back(
        PlotSample{generation_, world_->stepIndex(), world_->time(), i, world_->diagnostics(i)});
  }
  return true;
}

void Runner::install(core::World world, const core::WorldDef& loaded, const std::string& path,
                     const io::SetList& sets, bool fromFile) {
  loadedDef_ = loaded;
  scenePath_ = path;
  sceneSets_ = sets;
  sceneFromFile_ = fromFile;
  initial_ = world;
  world_ = std::move(world);
  const int n = world_->numBodies();
  deltaAuto_.assign(static_cast<std::size_t>(n), 0.0);
  radius_.assign(static_cast<std::size_t>(n), 0.0);
  mass_.assign(static_cast<std::size_t>(n), 0.0);
  faces_.clear();
  std::optional<core::World> probe;  // δ auto of overridden bodies
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const core::BodyInfo info = world_->info(i);
    mass_[k] = info.mass;
    if (world_->bodyDef(i).delta) {
      if (!probe) probe.emplace(*world_);
      probe->setDelta(i, std::nullopt);
      deltaAuto_[k] = probe->info(i).delta;
    } else {
      deltaAuto_[k] = info.delta;
    }
    const geometry::VertexMatrix V = world_->worldVertices(i);
    const Vec3 com = world_->diagnostics(i).com;
    double r = 0.0;
    for (int v = 0; v < V.rows(); ++v) r = std::max(r, (V.row(v).transpose() - com).norm());
    radius_[k] = r;
    faces_.push_back(std::make_shared<const geometry::FaceMatrix>(world_->bodyDef(i).mesh.F));
  }
  message_.clear();
  failure_ = false;
  startRun(options_.startPaused ? RunStatus::kPaused : RunStatus::kRunning);
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
  // The first sample is the initial state, as the CSV's first row.
  for (int i = 0; i < world_->numBodies(); ++i) {
    pendingSamples_.push_back(
        PlotSample{generation_, world_->stepIndex(), world_->time(), i, world_->diagnostics(i)});
  }
}

void Runner::emitSamples() {
  if (pendingSamples_.empty()) return;
  samples_.push(pendingSamples_);
  pendingSamples_.clear();
}

void Runner::publish(double wall) {
  Snapshot& s = snapshots_.back();
  s.generation = generation_;
  s.status = status_;
  s.message = message_;
  s.scenePath = scenePath_;
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
    const int n = world_->numBodies();
    s.bodies.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      BodySnapshot& b = s.bodies[k];
      const core::BodyDef& bd = world_->bodyDef(i);
      b.name = bd.name;
      b.vertices = world_->worldVertices(i);
      b.faces = faces_[k];
      b.diagnostics = world_->diagnostics(i);
      b.mass = mass_[k];
      b.deltaOverride = bd.delta;
      b.deltaAuto = deltaAuto_[k];
      b.delta = bd.delta ? *bd.delta : deltaAuto_[k];
      b.radius = radius_[k];
    }
  }
  snapshots_.publish();
  lastPublish_ = wall;
  dirty_ = false;
}

}  // namespace samara::runtime
