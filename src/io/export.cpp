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

#include "geometry/topology.h"
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
    const double radius = def.mesh.V.rows() > 0 ? def.mesh.V.rowwise().norm().maxCoeff() : 0.0;
    const bool sheet = geometry::buildTopology(def.mesh).numBoundaryEdges > 0;
    bodies.push_back(
        {def.name, def.mesh.F, def.animation != nullptr, def.animation, radius, sheet});
  }
  return bodies;
}

const core::RigidPartsAnimation* rigidParts(const ExportBody& body) {
  const auto* parts = dynamic_cast<const core::RigidPartsAnimation*>(body.animation.get());
  if (parts == nullptr) return nullptr;
  std::vector<int> partOf(static_cast<std::size_t>(parts->rest.rows()), -1);
  for (std::size_t p = 0; p < parts->parts.size(); ++p) {
    for (const int v : parts->parts[p].vertices)
      partOf[static_cast<std::size_t>(v)] = static_cast<int>(p);
  }
  for (Eigen::Index f = 0; f < body.faces.rows(); ++f) {
    const int p = partOf[static_cast<std::size_t>(body.faces(f, 0))];
    for (int c = 1; c < 3; ++c) {
      if (partOf[static_cast<std::size_t>(body.faces(f, c))] != p) return nullptr;  // a seam
    }
  }
  return parts;
}

SkinView skinOf(const ExportBody& body) {
  SkinView v;
  const core::ShapeAnimation* a = body.animation.get();
  v.rootRemoved = dynamic_cast<const core::RootMotionRemoved*>(a);
  if (v.rootRemoved != nullptr) a = v.rootRemoved->inner.get();
  v.skin = dynamic_cast<const core::SkinnedAnimation*>(a);
  const bool scaled =
      v.skin != nullptr &&
      std::any_of(v.skin->channels.begin(), v.skin->channels.end(),
                  [](const auto& c) { return c.path == core::SkinnedAnimation::Path::kScale; });
  if (v.skin == nullptr || scaled || v.skin->rest.rows() <= body.faces.maxCoeff()) return {};
  return v;
}

bool needsMorphTargets(const ExportBody& body) {
  return body.deforming && rigidParts(body) == nullptr && skinOf(body).skin == nullptr;
}

PoseSample interpolatePose(const PoseSample& a, const PoseSample& b, double t) {
  const double span = b.time - a.time;
  if (!(span > 0.0) || t <= a.time) return a;
  if (t >= b.time) return b;
  const double s = (t - a.time) / span;
  const Vec3 ca = a.pose.q.conjugate() * Vec3(a.com - a.pose.b);  // body-frame COM
  const Vec3 cb = b.pose.q.conjugate() * Vec3(b.com - b.pose.b);
  PoseSample p;
  p.time = t;
  p.com = (1.0 - s) * a.com + s * b.com;
  p.pose.q = a.pose.q.slerp(s, b.pose.q).normalized();
  p.pose.b = p.com - p.pose.q * Vec3((1.0 - s) * ca + s * cb);
  return p;
}

// --- keys between frames -----------------------------------------------------------------------

namespace {

/// Angle of the rotation between two unit quaternions, rad (0 … π).
double turn(const Quat& a, const Quat& b) {
  return 2.0 * std::acos(std::min(1.0, std::abs(a.coeffs().dot(b.coeffs()))));
}

}  // namespace

bool KeyReducer::spans(const PoseSample& from, const PoseSample& to) const {
  if (turn(from.pose.q, to.pose.q) > tol_.maxTurn) return false;
  const Quat qb =
      from.pose.q.coeffs().dot(to.pose.q.coeffs()) < 0.0 ? Quat(-to.pose.q.coeffs()) : to.pose.q;
  const double span = to.time - from.time;
  for (const PoseSample& p : pending_) {
    const double s = span > 0.0 ? (p.time - from.time) / span : 0.0;
    const Vec3 b = (1.0 - s) * from.pose.b + s * to.pose.b;
    if ((b - p.pose.b).norm() > tol_.distance) return false;
    const Quat slerp = from.pose.q.slerp(s, qb);
    const Quat nlerp(
        Eigen::Vector4d((1.0 - s) * from.pose.q.coeffs() + s * qb.coeffs()).normalized());
    if (turn(slerp, p.pose.q) > tol_.angle || turn(nlerp, p.pose.q) > tol_.angle) return false;
  }
  return true;
}

void KeyReducer::add(const PoseSample& s, bool key) {
  if (keys_.empty()) {
    keys_.push_back(s);
    return;
  }
  if (!spans(keys_.back(), s)) {
    // The last pending sample becomes a key (the segment up to it was checked when it came).
    if (!pending_.empty()) {
      keys_.push_back(pending_.back());
      pending_.clear();
    }
  }
  if (key) {
    keys_.push_back(s);
    pending_.clear();
  } else {
    pending_.push_back(s);
  }
}

std::vector<PoseSample> KeyReducer::keys() const {
  std::vector<PoseSample> k = keys_;
  if (!pending_.empty()) k.push_back(pending_.back());
  return k;
}

Vec3 defaultViewDirection() {
  // The viewer's OrbitCamera::frame: yaw 0.6 rad, pitch 0.55 rad; the eye is at
  // (cos p sin y, sin p, cos p cos y) from the target.
  const double yaw = 0.6, pitch = 0.55;
  return -Vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
}

ExportSettings::Camera frameCamera(const std::vector<Vec3>& points, double margin,
                                   const Vec3& direction, double yfov, double aspect) {
  ExportSettings::Camera c;
  c.yfov = yfov;
  c.aspect = aspect;
  Vec3 lo = Vec3::Zero(), hi = Vec3::Zero();
  if (!points.empty()) {
    lo = hi = points.front();
    for (const Vec3& p : points) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  }
  c.target = 0.5 * (lo + hi);
  const double r = 0.5 * (hi - lo).norm() + std::max(margin, 1e-3);
  // The sphere fits the narrower of the two fields of view.
  const double half = std::min(0.5 * yfov, std::atan(aspect * std::tan(0.5 * yfov)));
  const double distance = r / std::sin(half);
  const Vec3 d =
      direction.norm() > 0.0 ? Vec3(direction.normalized()) : Vec3(0, -0.3, -1).normalized();
  c.eye = c.target - distance * d;
  return c;
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
    b.pose = b.stepPose = world.state(i).g;
    b.com = b.diagnostics.com;
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
      const FramePlan& plan = settings.plan;
      const long long n = plan.numFrames();
      const std::size_t width =
          std::max<std::size_t>(4, std::to_string(plan.frameNumber(n - 1)).size());
      std::vector<std::string> paths;
      paths.reserve(static_cast<std::size_t>(n));
      for (long long k = 0; k < n; ++k) {
        std::string digits = std::to_string(plan.frameNumber(k));
        digits.insert(digits[0] == '-' ? 1 : 0, width - std::min(digits.size(), width), '0');
        paths.push_back(prefix + "_" + digits + ".obj");
      }
      return paths;
    }
    case ExportFormat::kChan:
    case ExportFormat::kPc2: {
      const bool chan = settings.format == ExportFormat::kChan;
      const std::string ext = chan ? ".chan" : ".pc2";
      const std::string stem = withoutExtension(out, ext);
      const std::string prefix = dir ? std::string() : stem + "_";
      std::vector<std::string> names;
      std::set<std::string> used;
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::string name = fileSafe(bodies[i].name);
        if (used.count(name) != 0) name += "_" + std::to_string(i);
        used.insert(name);
        names.push_back(dir ? joinPath(out, name) : prefix + name);
      }
      std::vector<std::string> paths;
      for (const std::string& n : names) paths.push_back(n + ext);
      if (chan && settings.chanSidecars) {
        for (const std::string& n : names) paths.push_back(n + ".obj");
        paths.push_back(dir ? joinPath(out, fileSafe(settings.sceneName) + "_chan.json")
                            : stem + "_chan.json");
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
                                  [](const ExportBody& b) { return needsMorphTargets(b); });
  if (p.settings.format == ExportFormat::kGlb && morphs && p.frames > kMaxGlbMorphFrames) {
    p.limit = ExportPlan::Limit::kTooManyMorphFrames;
  }
  return p;
}

void ExportPlan::checkOutputs() const { checkOutputPaths(exportPaths(settings, bodies)); }

// --- the run ---------------------------------------------------------------------------------

namespace {

/// What the sampler keeps of one step for the frames after it.
struct StepSnapshot {
  double time = 0.0;
  std::vector<PoseSample> poses;
  std::vector<core::BodyDiagnostics> diagnostics;
};

StepSnapshot snapshot(const core::World& world) {
  StepSnapshot s;
  s.time = world.time();
  for (int i = 0; i < world.numBodies(); ++i) {
    core::BodyDiagnostics d = world.diagnostics(i);
    s.poses.push_back({s.time, world.state(i).g, d.com});
    s.diagnostics.push_back(std::move(d));
  }
  return s;
}

/// Adds every frame once the step after its time has come (its pose interpolated between
/// the steps around it, its row from the nearest step) and every other step's poses.
class FrameSampler final : public RunObserver {
 public:
  FrameSampler(const FramePlan& plan, long long steps, MotionExporter* exporter)
      : plan_(plan), steps_(steps), frames_(plan.numFrames()), exporter_(exporter) {}
  void start(const core::World& world) override {
    previous_ = snapshot(world);
    addFramesUpTo(world, previous_, previous_, 0);
  }
  void step(const core::World& world, long long k, const core::StepReport&) override {
    StepSnapshot current = snapshot(world);
    addFramesUpTo(world, previous_, current, k);
    if (added_ < frames_ && current.time != lastFrameTime_) {
      // Not at a frame's time: a candidate key between frames.
      exporter_->addStep({current.time, current.poses});
    }
    previous_ = std::move(current);
  }
  /// The frames left after the last step (their times past it by round-off): at that step.
  void finish(const core::World& world) {
    addFramesUpTo(world, previous_, previous_, steps_, /*all=*/true);
  }
  [[nodiscard]] long long added() const { return added_; }

 private:
  double frameTime(long long k) const { return plan_.frameTime(k); }

  /// The frames at times up to b.time (every remaining one when `all`), between the steps
  /// a and b (b is step `step`).
  void addFramesUpTo(const core::World& world, const StepSnapshot& a, const StepSnapshot& b,
                     long long step, bool all = false) {
    while (added_ < frames_) {
      double t = frameTime(added_);
      // A frame within round-off of a step is on it (k/fps and the accumulated step times
      // differ in the last bits).
      if (std::abs(t - b.time) <= 1e-9 * std::max(1.0, std::abs(t))) t = b.time;
      if (t > b.time && !all) break;
      const long long nearest = std::min(plan_.frameStep(added_), steps_);
      lastFrameTime_ = std::min(t, b.time);
      exporter_->addFrame(frameAt(world, a, b, added_, lastFrameTime_, nearest < step));
      ++added_;
    }
  }

  Frame frameAt(const core::World& world, const StepSnapshot& a, const StepSnapshot& b, long long k,
                double t, bool nearestIsA) {
    Frame f;
    f.index = k;
    f.time = plan_.frameTime(k);
    const StepSnapshot& near = nearestIsA ? a : b;
    f.stepTime = near.time;
    f.bodies.resize(b.poses.size());
    for (std::size_t i = 0; i < b.poses.size(); ++i) {
      BodyFrame& bf = f.bodies[i];
      const PoseSample p = interpolatePose(a.poses[i], b.poses[i], t);
      bf.diagnostics = near.diagnostics[i];
      bf.stepPose = near.poses[i].pose;
      bf.pose = p.pose;
      bf.com = p.com;
      if (exporter_->needsVertices(static_cast<int>(i), k)) {
        bf.worldVertices = world.worldVerticesAt(static_cast<int>(i), p.pose, t);
      }
    }
    return f;
  }

  FramePlan plan_;
  long long steps_;
  long long frames_;
  MotionExporter* exporter_;
  long long added_ = 0;
  double lastFrameTime_ = -1.0;
  StepSnapshot previous_;
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
  if (run.status == RunStatus::kDone) frames.finish(*world);
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
