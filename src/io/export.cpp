#include "io/export.h"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iterator>
#include <limits>
#include <set>
#include <system_error>
#include <utility>

#include "io/error.h"

namespace samara::io {

namespace fs = std::filesystem;

const char* const kExportFormatNames = "glb, obj, csv, chan, pc2";

const char* const kExportCsvHeader =
    "t,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,Lx,Ly,Lz,Px,Py,Pz,fall_speed,spin_rate,"
    "kinetic_energy,newton_iters,frame,ox,oy,oz";

namespace {

constexpr ExportFormat kFormats[] = {ExportFormat::kGlb, ExportFormat::kObj, ExportFormat::kCsv,
                                     ExportFormat::kChan, ExportFormat::kPc2};

/// x within 1e-9 (relative, at least absolute) of an integer counts as that integer.
double snapToInteger(double x) {
  const double r = std::round(x);
  return std::abs(x - r) <= 1e-9 * std::max(1.0, std::abs(x)) ? r : x;
}

/// A name usable in a file name: [A-Za-z0-9._-] kept, anything else '_'; "body" if empty.
std::string fileSafe(const std::string& name) {
  std::string s;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    s += ok ? c : '_';
  }
  if (s.empty() || s == "." || s == "..") s = "body";
  return s;
}

/// OUT is a directory: an existing one, or a path ending in '/'.
bool isDirectoryTarget(const std::string& out) {
  if (!out.empty() && out.back() == '/') return true;
  std::error_code ec;
  return fs::is_directory(out, ec);
}

std::string withoutExtension(const std::string& out, const std::string& ext) {
  if (out.size() > ext.size() && out.compare(out.size() - ext.size(), ext.size(), ext) == 0) {
    return out.substr(0, out.size() - ext.size());
  }
  return out;
}

std::string joinPath(const std::string& dir, const std::string& name) {
  return (fs::path(dir) / name).string();
}

double wrapNear(double angle, double previous) {
  return angle + 360.0 * std::round((previous - angle) / 360.0);
}

}  // namespace

// --- names, frames ---------------------------------------------------------------------------

std::optional<ExportFormat> exportFormatFromName(const std::string& name) {
  for (const ExportFormat f : kFormats) {
    if (name == exportFormatName(f)) return f;
  }
  return std::nullopt;
}

const char* exportFormatName(ExportFormat format) {
  // In ExportFormat's order.
  static constexpr const char* kNames[] = {"glb", "obj", "csv", "chan", "pc2"};
  const auto i = static_cast<std::size_t>(format);
  return i < std::size(kNames) ? kNames[i] : kNames[0];
}

long long FramePlan::numFrames() const {
  assert(fps > 0.0 && dt > 0.0 && duration >= 0.0);
  return static_cast<long long>(std::floor(snapToInteger(duration * fps))) + 1;
}

long long FramePlan::frameStep(long long k) const {
  const double x = snapToInteger(static_cast<double>(k) / (fps * dt) + 0.5);
  return static_cast<long long>(std::floor(x));
}

std::vector<ExportBody> exportBodies(const core::World& world) {
  std::vector<ExportBody> bodies;
  for (int i = 0; i < world.numBodies(); ++i) {
    const core::BodyDef& def = world.bodyDef(i);
    bodies.push_back({def.name, def.mesh.F, def.animation != nullptr});
  }
  return bodies;
}

Frame captureFrame(const core::World& world, long long k, double fps,
                   const std::function<bool(int)>& withVertices) {
  Frame f;
  f.index = k;
  f.time = static_cast<double>(k) / fps;
  f.stepTime = world.time();
  f.bodies.resize(static_cast<std::size_t>(world.numBodies()));
  for (int i = 0; i < world.numBodies(); ++i) {
    BodyFrame& b = f.bodies[static_cast<std::size_t>(i)];
    b.diagnostics = world.diagnostics(i);
    b.pose = world.state(i).g;
    if (withVertices(i)) b.worldVertices = world.worldVertices(i);
  }
  return f;
}

Frame captureFrame(const core::World& world, long long k, double fps) {
  return captureFrame(world, k, fps, [](int) { return true; });
}

// --- paths -----------------------------------------------------------------------------------

std::vector<std::string> exportPaths(const ExportSettings& settings,
                                     const std::vector<ExportBody>& bodies) {
  const std::string& out = settings.out;
  const bool dir = isDirectoryTarget(out);
  switch (settings.format) {
    case ExportFormat::kGlb:
    case ExportFormat::kCsv:
      return {out};
    case ExportFormat::kObj: {
      const std::string prefix =
          dir ? joinPath(out, fileSafe(settings.sceneName)) : withoutExtension(out, ".obj");
      const long long n = settings.plan.numFrames();
      const std::size_t width = std::max<std::size_t>(4, std::to_string(n - 1).size());
      std::vector<std::string> paths;
      paths.reserve(static_cast<std::size_t>(n));
      for (long long k = 0; k < n; ++k) {
        std::string digits = std::to_string(k);
        digits.insert(0, width - std::min(digits.size(), width), '0');
        paths.push_back(prefix + "_" + digits + ".obj");
      }
      return paths;
    }
    case ExportFormat::kChan:
    case ExportFormat::kPc2: {
      const std::string ext = settings.format == ExportFormat::kChan ? ".chan" : ".pc2";
      const std::string prefix = dir ? std::string() : withoutExtension(out, ext) + "_";
      std::vector<std::string> paths;
      std::set<std::string> used;
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::string name = fileSafe(bodies[i].name);
        if (used.count(name) != 0) name += "_" + std::to_string(i);
        used.insert(name);
        paths.push_back(dir ? joinPath(out, name + ext) : prefix + name + ext);
      }
      return paths;
    }
  }
  return {out};
}

void checkOutputPaths(const std::vector<std::string>& paths) {
  std::set<std::string> dirs;  // checked already
  for (const std::string& path : paths) {
    const fs::path t(path);
    if (t.filename().empty()) throw Error(path, "not a file name");
    std::error_code ec;
    if (fs::is_directory(t, ec)) throw Error(path, "is a directory");
    const std::string dir = t.parent_path().empty() ? "." : t.parent_path().string();
    if (dirs.count(dir) != 0) continue;
    if (!fs::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0) {
      throw Error(path, "cannot write here (does the directory exist?)");
    }
    dirs.insert(dir);
  }
}

// --- Houdini angles --------------------------------------------------------------------------

Vec3 houdiniEulerDegrees(const Mat3& R, const std::optional<Vec3>& previous) {
  constexpr double kDeg = 180.0 / M_PI;
  // R = Rz Ry Rx: R(2,0) = −sin ry, R(2,1) = cos ry sin rx, R(2,2) = cos ry cos rx,
  // R(0,0) = cos ry cos rz, R(1,0) = cos ry sin rz.
  const double cy = std::hypot(R(0, 0), R(1, 0));
  double rx = 0.0, ry = 0.0, rz = 0.0;
  if (cy > 1e-12) {
    rx = std::atan2(R(2, 1), R(2, 2));
    ry = std::atan2(-R(2, 0), cy);
    rz = std::atan2(R(1, 0), R(0, 0));
  } else {
    // Gimbal lock (ry = ±90°): only rx − rz (ry = 90°) or rx + rz (ry = −90°) is fixed;
    // keep rx at its previous value.
    rx = previous ? previous->x() / kDeg : 0.0;
    if (R(2, 0) < 0.0) {
      ry = M_PI / 2;
      rz = rx - std::atan2(R(0, 1), R(1, 1));
    } else {
      ry = -M_PI / 2;
      rz = std::atan2(-R(0, 1), R(1, 1)) - rx;
    }
  }
  const Vec3 a(rx * kDeg, ry * kDeg, rz * kDeg);
  if (!previous) return a;
  // The other solution: (rx + 180, 180 − ry, rz + 180).
  const Vec3 b(a.x() + 180.0, 180.0 - a.y(), a.z() + 180.0);
  Vec3 best;
  double bestDistance = std::numeric_limits<double>::infinity();
  for (const Vec3& c : {a, b}) {
    Vec3 w;
    for (int i = 0; i < 3; ++i) w[i] = wrapNear(c[i], (*previous)[i]);
    const double d = (w - *previous).cwiseAbs().sum();
    if (d < bestDistance) {
      bestDistance = d;
      best = w;
    }
  }
  return best;
}

Mat3 houdiniRotation(const Vec3& anglesDegrees) {
  const Vec3 r = anglesDegrees * (M_PI / 180.0);
  return (Eigen::AngleAxisd(r.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(r.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(r.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

// --- the plan --------------------------------------------------------------------------------

ExportPlan planExport(const core::World& world, ExportSettings settings) {
  ExportPlan p;
  p.settings = std::move(settings);
  p.bodies = exportBodies(world);
  const FramePlan& f = p.settings.plan;
  p.steps = exportStepCount(f.duration, f.dt);
  if (f.duration * f.fps >= static_cast<double>(kMaxExportFrames)) {
    p.limit = ExportPlan::Limit::kTooManyFrames;
    return p;
  }
  p.frames = f.numFrames();
  const bool morphs = std::any_of(p.bodies.begin(), p.bodies.end(),
                                  [](const ExportBody& b) { return b.deforming; });
  if (p.settings.format == ExportFormat::kGlb && morphs && p.frames > kMaxGlbMorphFrames) {
    p.limit = ExportPlan::Limit::kTooManyMorphFrames;
  }
  return p;
}

void ExportPlan::checkOutputs() const { checkOutputPaths(exportPaths(settings, bodies)); }

// --- the run ---------------------------------------------------------------------------------

namespace {

/// Adds every frame whose step (plan.frameStep, the last frames at the last step) has come.
class FrameSampler final : public RunObserver {
 public:
  FrameSampler(const FramePlan& plan, long long steps, MotionExporter* exporter)
      : plan_(plan), steps_(steps), frames_(plan.numFrames()), exporter_(exporter) {}
  void start(const core::World& world) override { addUpTo(world, 0); }
  void step(const core::World& world, long long k, const core::StepReport&) override {
    addUpTo(world, k);
  }
  [[nodiscard]] long long added() const { return added_; }

 private:
  void addUpTo(const core::World& world, long long step) {
    while (added_ < frames_ && std::min(plan_.frameStep(added_), steps_) <= step) {
      exporter_->addFrame(world, added_, plan_.fps);
      ++added_;
    }
  }

  FramePlan plan_;
  long long steps_;
  long long frames_;
  MotionExporter* exporter_;
  long long added_ = 0;
};

}  // namespace

ExportOutcome runExport(core::World* world, const FramePlan& plan, MotionExporter* exporter,
                        const ExportControl& control) {
  ExportOutcome outcome;
  outcome.steps = exportStepCount(plan.duration, plan.dt);
  FrameSampler frames(plan, outcome.steps, exporter);
  StepCallback progress([&](const core::World& w, long long k) {
    if (control.onStep) control.onStep(k, outcome.steps, w.time());
  });
  std::vector<RunObserver*> observers{&frames, &progress};
  observers.insert(observers.end(), control.observers.begin(), control.observers.end());
  const RunOutcome run = runSteps(*world, outcome.steps, observers, control.cancel);
  outcome.frames = frames.added();
  if (run.status == RunStatus::kFailed) {
    outcome.status = ExportStatus::kFailed;
    outcome.failedStep = run.failedStep;
    outcome.failedTime = run.failedTime;
    outcome.message = run.message;
    return outcome;
  }
  if (run.status == RunStatus::kCancelled || (control.cancel && control.cancel->load())) {
    outcome.status = ExportStatus::kCancelled;
    return outcome;
  }
  exporter->finish();
  return outcome;
}
}  // namespace samara::io
