#pragma once
// The simulation thread (STYLE.md "Threads"): it alone owns the World. The UI posts
// Commands, which are applied between steps only; the runner publishes a Snapshot through
// a triple buffer (the renderer never waits for a step) and one PlotSample per body per
// step through a lossless channel. Pacing follows real time × speed with a catch-up cap
// (Pacer). A failed step pauses the run and publishes the reason.
//
// Determinism: a run is World::step() calls (or World::advance blocks, the same bits) with
// parameter changes in between, exactly as `samara run` does; the command log records the step
// index at which each command took effect, so replaying it on a World built from the same
// definition gives the same bits.
//
// Ghost run (SetGhost): a second World, built from the main world's definition with every
// body's model replaced, stepped with the main world in every step (beside it, on a second
// thread, when threads ≥ 2) and given every parameter command. The two worlds share
// nothing, so the main world's bits do not depend on whether a ghost runs; the ghost's bits
// are those of `samara run --set bodies.N.model=…` with the same commands. If a step of
// one world fails the run pauses with that world named (the main world first); the other
// world has taken its step and is then one step ahead, and the next step advances the one
// behind alone.
//
// Threads (SetThreads, RunnerOptions::threads): both worlds step their bodies on that many
// threads (World::setThreads); the results are the same bits for any count.
//
// Blocks: a world of several bodies with no ghost takes the steps that are due, up to one
// display frame's worth at the current speed (at most kMaxBlockSteps), as one World::advance
// block: each body takes them in a row while its data is in the processor's caches. The
// block's trace gives every step's samples and history, as stepOnce would; the snapshot
// follows the block, so a crowd slower than real time shows one frame's worth of motion per
// snapshot.
//
// The pieces: the ghost world is a GhostRun (ghost.h), the recorded steps a StepHistory
// (history.h), and what a snapshot is built from publish.h (body caches, Newton window,
// rate meter); the runner keeps the thread, the queue, tick() and the commands.
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/thread_pool.h"
#include "runtime/clock.h"
#include "runtime/commands.h"
#include "runtime/ghost.h"
#include "runtime/history.h"
#include "runtime/pacer.h"
#include "runtime/publish.h"
#include "runtime/sample_channel.h"
#include "runtime/snapshot.h"
#include "runtime/triple_buffer.h"

namespace samara::runtime {

struct RunnerOptions {
  std::shared_ptr<Clock> clock;          ///< wall clock; default a SteadyClock
  PacerSettings pacing;                  ///< frame budget, catch-up share, maximum lag
  bool startPaused = false;              ///< a newly loaded scene waits for Resume; default false
  double publishInterval = 1.0 / 120.0;  ///< min wall s between snapshots while stepping
  double statsWindow = 0.5;              ///< wall s over which the real-time factor is measured
  int maxStepsPerTick = 100000;          ///< safety cap (a clock that never advances)
  double idleWait = 0.05;  ///< wall s the thread sleeps when paused (commands wake it)
  /// History for scrubbing: the steps of the last `historySeconds` of simulated time (s,
  /// default 10; 0 = none), at most `historyMaxBytes` (default 64 MiB) of recorded states.
  double historySeconds = 10.0;
  std::size_t historyMaxBytes = std::size_t{64} << 20;
  /// Threads that step each world's bodies (World::setThreads), and with 2 or more the
  /// ghost steps beside the main world; ≥ 1, default 1. SetThreads changes it.
  int threads = 1;
  /// Added to the simulation thread's nice value when it starts (Linux keeps one per
  /// thread; the worlds' pool workers it makes inherit it), up to 19; 0 (default) none. The
  /// viewer's kViewerNiceness: a crowd slower than real time then leaves the renderer the
  /// cores it needs for each frame instead of sharing them evenly.
  int niceness = 0;
};

/// The viewer's RunnerOptions::niceness.
inline constexpr int kViewerNiceness = 5;

/// What one tick did.
struct TickResult {
  int commands = 0;        ///< commands applied
  int steps = 0;           ///< steps taken (including Step{n})
  double wait = 0.0;       ///< wall s until the next step is due (what the thread sleeps)
  bool budgetHit = false;  ///< stopped by the frame budget while still behind
};

class Runner {
 public:
  static constexpr int kMaxBlockSteps = 64;  ///< steps in one block at most

  explicit Runner(RunnerOptions options = {});
  ~Runner();  ///< stops the thread
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // --- any thread ------------------------------------------------------------------------
  /// Queues a command; it is applied at the start of the next tick, between steps.
  void post(Command command);

  // --- the owning (UI) thread ------------------------------------------------------------
  /// Starts the simulation thread, which then calls tick() in a loop.
  void start();
  /// Stops and joins the simulation thread (idempotent).
  void stop();
  bool threaded() const { return thread_.joinable(); }
  /// Takes the latest published snapshot; true if it is newer than the previous one.
  bool updateSnapshot() { return snapshots_.update(); }
  /// The snapshot taken by the last updateSnapshot().
  const Snapshot& snapshot() const { return snapshots_.front(); }
  /// Appends every plot sample published since the last call (none is ever dropped).
  std::size_t takeSamples(std::vector<PlotSample>* out) { return samples_.take(out); }

  // --- the simulation side: the thread, or the caller when the thread is not started -----
  /// Applies the queued commands, steps as the pacer allows, publishes.
  TickResult tick();
  /// Commands applied since the current run started (load, reset or restart), with the
  /// step index at which each took effect. Safe from any thread.
  std::vector<LoggedCommand> commandLog() const;
  /// The world, or null before a scene is loaded. Only while the thread is not running.
  const core::World* world() const { return world_ ? &*world_ : nullptr; }
  /// The ghost world, or null when no ghost runs. Only while the thread is not running.
  const core::World* ghost() const { return ghost_.world(); }
  /// The recorded step `stepIndex` of the current run, or nullopt when it is not (or no
  /// longer) in the history. Only while the thread is not running.
  std::optional<HistoryFrame> recorded(std::int64_t stepIndex) const;

 private:
  void threadMain();
  /// Applies the queued commands (between steps).
  void apply(Command& command);
  /// SetFluidDensity, SetWind, SetDelta, SetDt to both worlds; false for other commands.
  bool applyParameterCommand(const Command& command);
  /// Run control (Pause … Scrub, SetSpeed, SetTeaching); false for other commands. Sets
  /// `logIt` false for the commands the log leaves out.
  bool applyControl(Command& command, bool* logIt);
  /// Reset, Restart, SetGhost and the loads: a new run.
  void applyNewRun(Command& command);
  void pause();
  void resume();
  bool stepOnce();
  /// Up to `steps` steps of the main world as one block (World::advance), with the samples,
  /// the history and the failure handling of as many stepOnce() calls.
  bool stepBlock(int steps);
  /// The steps the next stepping may take as a block at wall time `wall`, at most `most`
  /// (1: one step, stepOnce).
  int blockSteps(double wall, int most) const;
  /// The main world's step failed (`report`): the run pauses with its message.
  void failMain(core::StepReport report);
  /// After good steps: a failure's pause and message end.
  void stepped();
  /// Steps `main` and `ghost` (either may be null), side by side when threads_ ≥ 2.
  void stepWorlds(core::World* main, core::World* ghost,
                  std::optional<core::StepReport>* mainReport,
                  std::optional<core::StepReport>* ghostReport);
  /// A failed step of `world` ("" = the main world, else "ghost (model)"): the run pauses.
  void fail(const std::string& who, const core::World& world, const std::string& why,
            const std::string& advice);
  /// Builds a world from `def` and installs it; on failure the message starts with `what`.
  bool rebuild(const core::WorldDef& def, const core::WorldDef& loaded, const std::string& path,
               const io::SetList& sets, bool fromFile,
               std::vector<std::optional<std::string>> modelOverride, const std::string& what);
  void install(core::World world, const core::WorldDef& loaded, const std::string& path,
               const io::SetList& sets, bool fromFile,
               std::vector<std::optional<std::string>> modelOverride = {});
  void pushSamples(const core::World& world, bool ghost);
  void startRun(RunStatus status);
  void emitSamples();
  void record();
  void publish(double wall);
  /// Sets the status message and publishes at once (progress while a command is busy).
  std::function<void(const std::string&)> statusNow();
  /// The worlds' part of the snapshot (there is a world).
  void publishWorld(Snapshot* s) const;
  void setMessage(std::string message);

  RunnerOptions options_;
  std::shared_ptr<Clock> clock_;

  // Command queue and thread control (the only state shared under a lock).
  mutable std::mutex queueMutex_;
  std::condition_variable wake_;
  std::vector<Command> queue_;
  bool stopRequested_ = false;
  std::thread thread_;

  // Simulation side.
  std::optional<core::World> world_;
  std::optional<core::World> initial_;  // the loaded state, for Reset
  core::WorldDef loadedDef_;            // the loaded definition, for Restart
  std::string scenePath_;
  io::SetList sceneSets_;
  bool sceneFromFile_ = false;
  io::Lesson lesson_;             // the scene file's "lesson" (empty title and text: none)
  std::vector<BodyCache> cache_;  // per body, computed at load
  std::vector<std::optional<std::string>> modelOverride_;  // per body, from the last Restart
  GhostRun ghost_;
  int threads_ = 1;                            // SetThreads
  std::unique_ptr<core::ThreadPool> besides_;  // main world and ghost side by side
  Pacer pacer_;
  RunStatus status_ = RunStatus::kEmpty;
  std::string message_;
  bool failure_ = false;  // message_ is a step failure (cleared by the next good step)
  std::uint64_t generation_ = 0;
  bool reanchor_ = true;
  bool dirty_ = true;
  double lastPublish_ = -1e300;
  RateMeter rates_;
  SolverWindow solver_;
  StepHistory history_;   // scrubbing
  SetTeaching teaching_;  // teaching overlays asked for (SetTeaching)

  std::vector<PlotSample> pendingSamples_;
  TripleBuffer<Snapshot> snapshots_;
  SampleChannel<PlotSample> samples_;
  mutable std::mutex logMutex_;
  std::vector<LoggedCommand> log_;
};

}  // namespace samara::runtime
