#include "runtime/export_job.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <utility>

#include "io/error.h"
#include "io/scene.h"

namespace samara::runtime {

namespace {

/// The bounds of `samara export`: frames of any export (one OBJ file each), and frames of a
/// glb with a shape-changing body (a morph target each, weights grow with frames²).
constexpr long long kMaxFrames = 1'000'000;
constexpr long long kMaxGlbMorphFrames = 20'000;

}  // namespace

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
    core::WorldDef def = loadCurrentScene(scene_);
    if (settings_.duration) def.duration = *settings_.duration;
    io::ExportSettings s;
    s.format = settings_.format;
    s.out = settings_.out;
    s.sceneName = def.name;
    s.plan.fps = settings_.fps;
    s.plan.duration = def.duration;
    s.plan.dt = def.dt;
    if (!(s.plan.fps > 0.0) || !(s.plan.duration >= 0.0)) {
      throw io::Error(s.out, "the frame rate must be > 0 and the duration >= 0");
    }
    if (s.plan.duration * s.plan.fps >= static_cast<double>(kMaxFrames)) {
      throw io::Error(s.out, "more than " + std::to_string(kMaxFrames) +
                                 " frames: lower the frame rate or the duration");
    }
    core::World world = io::makeWorld(std::move(def), scene_.path);
    const std::vector<io::ExportBody> bodies = io::exportBodies(world);
    const bool morphs = std::any_of(bodies.begin(), bodies.end(),
                                    [](const io::ExportBody& b) { return b.deforming; });
    if (s.format == io::ExportFormat::kGlb && morphs && s.plan.numFrames() > kMaxGlbMorphFrames) {
      throw io::Error(s.out, "a glb with a shape-changing body holds a morph target per frame: " +
                                 std::to_string(s.plan.numFrames()) + " frames is more than " +
                                 std::to_string(kMaxGlbMorphFrames));
    }
    io::checkOutputPaths(io::exportPaths(s, bodies));
    steps_.store(io::exportStepCount(s.plan.duration, s.plan.dt));

    io::StagedFiles files;  // removes every temporary unless committed
    io::MotionExporter exporter(s, bodies, &files);
    io::ExportControl control;
    control.cancel = &cancel_;
    control.onStep = [this](long long step, long long, double) { step_.store(step); };
    const io::ExportOutcome outcome = io::runExport(&world, s.plan, &exporter, control);
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
    char line[160];
    std::snprintf(line, sizeof line, "%s: %lld frames at %g fps, ", io::exportFormatName(s.format),
                  outcome.frames, s.plan.fps);
    std::string summary = line;
    summary += written.size() == 1 ? written.front()
                                   : std::to_string(written.size()) + " files " + written.front() +
                                         " ... " + written.back();
    finish(State::kDone, summary, std::move(written));
  } catch (const std::exception& e) {
    finish(State::kFailed, std::string(e.what()) + "; nothing written");
  }
}

}  // namespace samara::runtime
