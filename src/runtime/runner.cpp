#include "runtime/runner.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include "io/added_mass_cache.h"
#include "io/error.h"
#include "io/text_format.h"
#include "runtime/overloaded.h"
#include "runtime/scene_source.h"

namespace samara::runtime {

Runner::Runner(RunnerOptions options)
    : options_(std::move(options)),
      clock_(options_.clock ? options_.clock : std::make_shared<SteadyClock>()),
      threads_(std::max(1, options_.threads)),
      pacer_(options_.pacing),
      rates_(options_.statsWindow),
      history_(options_.historySeconds, options_.historyMaxBytes) {
  const double wall = clock_->now();
  rates_.start(wall);
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
  if (options_.niceness > 0) {
    // Per thread on Linux (who = this thread's id); a failure leaves the priority as it was.
    const auto self = static_cast<id_t>(gettid());
    errno = 0;
    const int now = getpriority(PRIO_PROCESS, self);
    if (errno == 0) setpriority(PRIO_PROCESS, self, std::min(19, now + options_.niceness));
  }
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
  const std::int64_t stepsBefore = rates_.steps();
  for (Command& c : commands) {
    apply(c);
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
      const int block = blockSteps(wall, options_.maxStepsPerTick - steps);
      if (block > 1) {
        stepBlock(block);
      } else {
        stepOnce();
      }
      steps += block;
    }
    if (status_ == RunStatus::kRunning) {
      r.wait = pacer_.waitTime(wall, world_->time(), dt);
      r.budgetHit = steps > 0 && r.wait <= 0.0;
    }
  }
  r.steps = static_cast<int>(rates_.steps() - stepsBefore);
  rates_.update(wall);  // measured rates over the last statsWindow of wall time

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

std::function<void(const std::string&)> Runner::statusNow() {
  return [this](const std::string& m) {  // shown while the thread is busy
    setMessage(m);
    publish(clock_->now());
  };
}

void Runner::setMessage(std::string message) {
  message_ = std::move(message);
  failure_ = false;
  dirty_ = true;
}

void Runner::apply(Command& command) {
  const std::int64_t stepIndex = world_ ? world_->stepIndex() : 0;
  const std::int64_t ghostStepIndex = ghost_.world() ? ghost_.world()->stepIndex() : stepIndex;
  bool logIt = true;
  if (!applyParameterCommand(command) && !applyControl(command, &logIt)) {
    logIt = false;
    applyNewRun(command);
  }
  if (logIt && world_) {
    std::lock_guard<std::mutex> lock(logMutex_);
    log_.push_back(LoggedCommand{stepIndex, command, ghostStepIndex});
  }
}

bool Runner::applyParameterCommand(const Command& command) {
  if (!isParameterCommand(command)) return false;
  if (std::holds_alternative<SetDt>(command)) reanchor_ = true;
  if (!world_) return true;
  if (!applyParameter(command, &*world_)) {
    setMessage("ignored an invalid value: " + describe(command));
    return true;
  }
  ghost_.applyParameter(command);
  return true;
}

void Runner::pause() {
  if (status_ == RunStatus::kRunning) status_ = RunStatus::kPaused;
}

void Runner::resume() {
  if (!world_) return;
  status_ = RunStatus::kRunning;
  reanchor_ = true;
}

bool Runner::applyControl(Command& command, bool* logIt) {
  return std::visit(Overloaded{
                        [&](SetSpeed& s) {
                          pacer_.setUnlimited(s.unlimited);
                          if (!s.unlimited && std::isfinite(s.factor)) pacer_.setSpeed(s.factor);
                          reanchor_ = true;
                          return true;
                        },
                        [&](Pause&) {
                          pause();
                          return true;
                        },
                        [&](Resume&) {
                          history_.stopScrubbing();
                          resume();
                          return true;
                        },
                        [&](TogglePause&) {
                          if (status_ == RunStatus::kRunning) {
                            status_ = RunStatus::kPaused;
                          } else if (world_) {
                            history_.stopScrubbing();
                            resume();
                          }
                          return true;
                        },
                        [&](Step& s) {
                          if (!world_) return true;
                          pause();
                          history_.stopScrubbing();
                          for (int i = 0; i < s.n; ++i) {
                            if (!stepOnce()) break;
                          }
                          return true;
                        },
                        [&](Scrub& s) {
                          *logIt = false;
                          if (s.stepIndex && !history_.empty()) pause();
                          history_.scrub(s.stepIndex, s.direction);
                          return true;
                        },
                        [&](SetTeaching& t) {
                          *logIt = false;
                          teaching_ = t;
                          return true;
                        },
                        [&](SetThreads& t) {
                          *logIt = false;
                          threads_ = std::max(1, t.threads);
                          return true;
                        },
                        [](auto&) { return false; },
                    },
                    command);
}

void Runner::applyNewRun(Command& command) {
  std::visit(
      Overloaded{
          [&](Reset&) {
            if (!initial_) return;
            world_ = *initial_;
            ghost_.reset();
            startRun(status_ == RunStatus::kRunning ? RunStatus::kRunning : RunStatus::kPaused);
          },
          [&](Restart& r) {
            if (!world_) return;
            core::WorldDef def = loadedDef_;
            std::string error;
            if (!applyOverrides(r.overrides, &def, &error)) {
              setMessage("restart failed: " + error);
              return;
            }
            std::vector<std::optional<std::string>> modelOverride = r.overrides.model;
            modelOverride.resize(def.bodies.size());
            rebuild(def, loadedDef_, scenePath_, sceneSets_, sceneFromFile_,
                    std::move(modelOverride), "restart failed: ");
          },
          [&](SetGhost& g) {
            if (g.model && !isGhostName(*g.model)) {
              setMessage("ghost: unknown model \"" + *g.model + "\"");
              return;
            }
            ghost_.setModel(g.model);
            if (!world_) return;
            // The main run from t = 0 with its current definition (what the sliders set);
            // install() builds the ghost from the same definition.
            rebuild(world_->definition(), loadedDef_, scenePath_, sceneSets_, sceneFromFile_,
                    modelOverride_, "ghost: restart failed: ");
          },
          [&](LoadScene& l) {
            try {
              core::WorldDef def = loadSceneOrMesh(l.path, l.sets);
              // Bodies with "added_mass": "exact" (solved here once, kept in def and on disk).
              io::resolveExactAddedMass(&def, l.path, exactAddedMassProgress(def, "", statusNow()));
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
            if (!sceneFromFile_) return;
            Command load = LoadScene{scenePath_, sceneSets_};
            applyNewRun(load);
          },
          [&](LoadWorld& l) {
            if (rebuild(l.def, l.def, l.label, {}, false, {}, "")) lesson_ = io::Lesson{};
          },
          [](auto&) {},
      },
      command);
}

bool Runner::rebuild(const core::WorldDef& def, const core::WorldDef& loaded,
                     const std::string& path, const io::SetList& sets, bool fromFile,
                     std::vector<std::optional<std::string>> modelOverride,
                     const std::string& what) {
  try {
    core::World w = io::makeWorld(def, path);
    install(std::move(w), loaded, path, sets, fromFile, std::move(modelOverride));
    return true;
  } catch (const std::exception& e) {
    setMessage(what + e.what());
    return false;
  }
}

void Runner::fail(const std::string& who, const core::World& world, const std::string& why,
                  const std::string& advice) {
  status_ = RunStatus::kFailed;
  message_ = who + "step " + std::to_string(world.stepIndex() + 1) +
             " (t = " + io::printfText("%.6g", world.time()) + " s) failed: " + why +
             ". Paused: " + advice;
  failure_ = true;
}

void Runner::stepWorlds(core::World* main, core::World* ghost,
                        std::optional<core::StepReport>* mainReport,
                        std::optional<core::StepReport>* ghostReport) {
  for (core::World* w : {main, ghost}) {
    if (w) w->setThreads(threads_);
  }
  auto stepOne = [&](int k) {
    if (k == 0 && main) mainReport->emplace(main->step());
    if (k == 1 && ghost) ghostReport->emplace(ghost->step());
  };
  if (main && ghost && threads_ >= 2) {
    // Each world is stepped whole on one thread (its bodies on its own pool): the same bits.
    if (!besides_) besides_ = std::make_unique<core::ThreadPool>(2);
    besides_->run(2, stepOne);
  } else {
    stepOne(0);
    stepOne(1);
  }
}

bool Runner::stepOnce() {
  const double dt = world_->definition().dt;
  core::World* ghost = ghost_.world();
  // After a failed step one world is a step ahead: the other catches up alone.
  const bool stepMain = !ghost || ghost->stepIndex() >= world_->stepIndex();
  core::World* stepGhost = ghost && ghost->stepIndex() <= world_->stepIndex() ? ghost : nullptr;
  std::optional<core::StepReport> report, ghostReport;
  stepWorlds(stepMain ? &*world_ : nullptr, stepGhost, &report, &ghostReport);
  dirty_ = true;
  if (report && !report->ok()) {
    failMain(std::move(*report));
    if (ghostReport && ghostReport->ok()) pushSamples(*ghost, true);  // a step ahead
    return false;
  }
  if (report) {
    solver_.add(std::move(*report));
    rates_.step(dt);
    pushSamples(*world_, false);
  }
  if (ghostReport) {
    if (!ghostReport->ok()) {
      fail("ghost (" + *ghost_.model() + "): ", *ghost, ghostReport->message,
           "reduce h, change the parameters, reset, or turn the ghost off.");
      record();
      return false;
    }
    pushSamples(*ghost, true);
  }
  record();
  stepped();
  return true;
}

void Runner::failMain(core::StepReport report) {
  fail("", *world_, report.message, "reduce h, change the parameters, or reset.");
  solver_.fail(std::move(report));
}

void Runner::stepped() {
  if (status_ == RunStatus::kFailed) status_ = RunStatus::kPaused;
  if (failure_) {
    message_.clear();
    failure_ = false;
  }
}

int Runner::blockSteps(double wall, int most) const {
  if (world_->numBodies() < 2 || ghost_.world() != nullptr) return 1;
  const double dt = world_->definition().dt;
  // One display frame's worth of simulated time at the current speed.
  const double frame = pacer_.settings().frameBudget * pacer_.speed() / dt;
  const int perFrame = static_cast<int>(
      std::clamp(std::floor(frame + 1e-9), 1.0, static_cast<double>(kMaxBlockSteps)));
  const int due = pacer_.dueSteps(wall, world_->time(), dt, std::min(most, perFrame));
  return std::max(1, due);  // shouldStep() has said the first one is due
}

bool Runner::stepBlock(int steps) {
  const double dt = world_->definition().dt;
  world_->setThreads(threads_);
  core::StepTrace trace;
  std::vector<core::StepReport> reports = world_->advance(steps, &trace);
  dirty_ = true;
  const auto nb = static_cast<std::size_t>(world_->numBodies());
  const std::int64_t first = world_->stepIndex() - static_cast<std::int64_t>(trace.steps());
  for (std::size_t s = 0; s < trace.steps(); ++s) {
    solver_.add(std::move(reports[s]));
    rates_.step(dt);
    HistoryFrame f;
    f.stepIndex = first + static_cast<std::int64_t>(s + 1);
    f.time = trace.times[s];
    const auto begin = static_cast<std::ptrdiff_t>(s * nb);
    const auto end = static_cast<std::ptrdiff_t>((s + 1) * nb);
    f.states.assign(trace.states.begin() + begin, trace.states.begin() + end);
    f.diagnostics.assign(trace.diagnostics.begin() + begin, trace.diagnostics.begin() + end);
    for (std::size_t i = 0; i < nb; ++i) {
      pendingSamples_.push_back(PlotSample{generation_, f.stepIndex, f.time, static_cast<int>(i),
                                           false, f.diagnostics[i]});
    }
    history_.record(std::move(f));
  }
  if (!reports.back().ok()) {
    failMain(std::move(reports.back()));
    return false;
  }
  stepped();
  return true;
}

void Runner::pushSamples(const core::World& world, bool ghost) {
  for (int i = 0; i < world.numBodies(); ++i) {
    PlotSample p{generation_, world.stepIndex(), world.time(), i, ghost, world.diagnostics(i)};
    pendingSamples_.push_back(std::move(p));
  }
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
  const std::string why = ghost_.build(world_->definition(), scenePath_, statusNow());
  if (!why.empty()) {
    setMessage(why);
  } else {
    message_.clear();  // the solve's progress, if any
  }
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
  solver_.clear();
  {
    std::lock_guard<std::mutex> lock(logMutex_);
    log_.clear();
  }
  history_.clear();
  record();
  // The first sample is the initial state, as the CSV's first row.
  pushSamples(*world_, false);
  if (const core::World* ghost = ghost_.world()) pushSamples(*ghost, true);
}

void Runner::record() {
  if (world_) history_.record(*world_, ghost_.world());
}

std::optional<HistoryFrame> Runner::recorded(std::int64_t stepIndex) const {
  const HistoryFrame* f = history_.find(stepIndex);
  if (!f) return std::nullopt;
  return *f;
}

void Runner::emitSamples() {
  if (pendingSamples_.empty()) return;
  samples_.push(pendingSamples_);
  pendingSamples_.clear();
}

}  // namespace samara::runtime
