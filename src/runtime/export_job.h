#pragma once
// An export (glb, obj, csv, chan, pc2) on a worker thread of its own, for the viewer's
// "Export…" panel (issue 7): neither the UI thread nor the simulation thread waits for it.
// It loads the current scene (the one "Save scene as" writes), runs it from t = 0 exactly
// as `samara export` does (io::runExport: same steps, same bytes) and writes every file to a
// temporary name, renamed only when all are complete (io::StagedFiles): a cancel or a
// failure leaves no file. Progress (fraction, ETA) can be read from any thread. No GL.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "io/export.h"
#include "runtime/clock.h"
#include "runtime/current_scene.h"

namespace samara::runtime {

struct ExportJobSettings {
  io::ExportFormat format = io::ExportFormat::kGlb;  ///< default glb
  std::string out;    ///< file, prefix or directory, as `samara export --out` (io::ExportSettings)
  double fps = 24.0;  ///< frames per second, > 0; default 24
  long long firstFrame = 1;  ///< the first frame's number (io::FramePlan::firstFrame)
  /// glb: the camera (the viewer's view); none: one that sees every body (io::ExportSettings)
  std::optional<io::ExportSettings::Camera> camera;
  std::optional<double> duration;  ///< simulated s, ≥ 0; default the scene's sim.duration
};

class ExportJob {
 public:
  enum class State {
    kRunning,    ///< loading, stepping or writing
    kDone,       ///< every file written and renamed into place
    kCancelled,  ///< stopped by cancel(): no file written
    kFailed,     ///< a bad scene or output, or a failed step: no file written; see message
  };
  struct Progress {
    State state = State::kRunning;
    long long step = 0;     ///< steps taken
    long long steps = 0;    ///< steps of the run (0 while loading)
    double fraction = 0.0;  ///< step / steps, 0 … 1 (1 when done)
    double elapsed = 0.0;   ///< wall s since the job started (until it ended)
    double eta = -1.0;      ///< wall s still to go, from the rate so far; < 0 = not known yet
    std::string message;    ///< kFailed: why; kDone: what was written
    std::vector<std::string> files;  ///< kDone: the files, in order
  };

  /// Starts the worker. `clock` measures elapsed time and the ETA (default a SteadyClock).
  ExportJob(CurrentScene scene, ExportJobSettings settings, std::shared_ptr<Clock> clock = nullptr);
  /// Cancels the job if it still runs and joins the worker.
  ~ExportJob();
  ExportJob(const ExportJob&) = delete;
  ExportJob& operator=(const ExportJob&) = delete;

  /// Asks the worker to stop (checked before every step and before renaming the files).
  void cancel() { cancel_.store(true); }
  /// A consistent view of the job, from any thread.
  Progress progress() const;
  bool finished() const { return progress().state != State::kRunning; }
  /// Blocks until the worker has ended.
  void wait();

 private:
  void run();
  void finish(State state, std::string message, std::vector<std::string> files = {});

  CurrentScene scene_;
  ExportJobSettings settings_;
  std::shared_ptr<Clock> clock_;
  double start_ = 0.0;
  std::atomic<bool> cancel_{false};
  std::atomic<long long> step_{0};
  std::atomic<long long> steps_{0};
  mutable std::mutex mutex_;  // guards the fields below
  State state_ = State::kRunning;
  double end_ = 0.0;
  std::string message_;
  std::vector<std::string> files_;
  std::thread thread_;  // last: starts when everything above is ready
};

}  // namespace samara::runtime
