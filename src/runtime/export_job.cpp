#include "runtime/export_job.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>

#include "io/error.h"
#include "io/output_folders.h"
#include "io/run_driver.h"
#include "io/scene.h"
#include "io/text_format.h"

namespace samara::runtime {

ExportJob::ExportJob(CurrentScene scene, ExportJobSettings settings, std::shared_ptr<Clock> clock)
    : scene_(std::move(scene)),
      settings_(std::move(settings)),
      clock_(clock ? std::move(clock) : std::make_shared<SteadyClock>()) {
  start_ = clock_->now();
  thread_ = std::thread([this] { run(); });
}

ExportJob::~ExportJob() {
  cancel();
  wait();
}

void ExportJob::wait() {
  if (thread_.joinable()) thread_.join();
}

ExportJob::Progress ExportJob::progress() const {
  Progress p;
  p.step = step_.load();
  p.steps = steps_.load();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    p.state = state_;
    p.message = message_;
    p.files = files_;
    p.elapsed = (state_ == State::kRunning ? clock_->now() : end_) - start_;
  }
  if (p.state == State::kDone) {
    p.fraction = 1.0;
    p.eta = 0.0;
  } else if (p.steps > 0) {
    p.fraction = std::clamp(static_cast<double>(p.step) / static_cast<double>(p.steps), 0.0, 1.0);
    if (p.fraction > 0.0) p.eta = p.elapsed * (1.0 - p.fraction) / p.fraction;
  }
  return p;
}

void ExportJob::finish(State state, std::string message, std::vector<std::string> files) {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = state;
  end_ = clock_->now();
  message_ = std::move(message);
  files_ = std::move(files);
}

void ExportJob::run() {
  try {
    // The run and the plan of `samara export` (io::prepareRun, io::planExport): the same
    // steps, frames and limits.
    io::RunSpec spec;
    spec.scene = scene_.path;
    spec.duration = settings_.duration;
    core::WorldDef def = loadCurrentScene(scene_);
    io::applyRunOverrides(&def, spec);
    if (!(settings_.fps > 0.0) || !(def.duration >= 0.0)) {
      throw io::Error(settings_.out, "the frame rate must be > 0 and the duration >= 0");
    }
    io::PreparedRun run = io::prepareRun(std::move(def), spec);
    io::ExportSettings s;
    s.format = settings_.format;
    s.out = settings_.out;
    s.sceneName = run.sceneName;
    s.plan.fps = settings_.fps;
    s.plan.duration = run.duration;
    s.plan.dt = run.dt;
    s.plan.firstFrame = settings_.firstFrame;
    s.camera = settings_.camera;
    const io::ExportPlan plan = io::planExport(run.world, std::move(s));
    if (plan.limit == io::ExportPlan::Limit::kTooManyFrames) {
      throw io::Error(plan.settings.out, "more than " + std::to_string(io::kMaxExportFrames) +
                                             " frames: lower the frame rate or the duration");
    }
    if (plan.limit == io::ExportPlan::Limit::kTooManyMorphFrames) {
      throw io::Error(plan.settings.out,
                      "a glb with a shape-changing body holds a morph target per frame: " +
                          std::to_string(plan.frames) + " frames is more than " +
                          std::to_string(io::kMaxGlbMorphFrames));
    }
    // Missing folders are made, as `samara export` makes them (removed again, while empty,
    // after a failure or a cancel).
    io::OutputFolders folders;
    folders.createFor(io::exportPaths(plan.settings, plan.bodies));
    plan.checkOutputs();
    steps_.store(plan.steps);

    io::StagedFiles files;  // removes every temporary unless committed
    io::MotionExporter exporter(plan.settings, plan.bodies, &files);
    io::ExportControl control;
    control.cancel = &cancel_;
    control.onStep = [this](long long step, long long, double) { step_.store(step); };
    const io::ExportOutcome outcome =
        io::runExport(&run.world, plan.settings.plan, &exporter, control);
    if (outcome.status == io::ExportStatus::kFailed) {
      finish(State::kFailed, "step " + std::to_string(outcome.failedStep) + " of " +
                                 std::to_string(outcome.steps) +
                                 " (t = " + io::formatNumber(outcome.failedTime) +
                                 " s) failed: " + outcome.message + "; nothing written");
      return;
    }
    if (outcome.status == io::ExportStatus::kCancelled || cancel_.load()) {
      finish(State::kCancelled, "cancelled; nothing written");
      return;
    }
    std::vector<std::string> written = files.targets();
    files.commit();
    folders.keep();
    std::string summary =
        io::strf("%s: %lld frames at %g fps, ", io::exportFormatName(plan.settings.format),
                 outcome.frames, plan.settings.plan.fps);
    summary += written.size() == 1 ? written.front()
                                   : std::to_string(written.size()) + " files " + written.front() +
                                         " ... " + written.back();
    finish(State::kDone, summary, std::move(written));
  } catch (const std::exception& e) {
    finish(State::kFailed, std::string(e.what()) + "; nothing written");
  }
}

}  // namespace samara::runtime
