#pragma once
// Baked motion for offline renderers (issue 7): the frames of a run, sampled at a chosen
// frame rate, written as glTF 2.0 binary (.glb), an OBJ sequence, CSV, Houdini .chan and
// .pc2 point caches. The writers take sampled frames and write whole files through an
// OutputFiles sink, so a run can stage every file as a temporary and rename them together
// at the end (StagedFiles), or keep them in memory (MemoryFiles, tests).
//
// Frames: frame k (k = 0 … K, K = ⌊duration·fps⌋ up to round-off) is at the time k/fps
// exactly: its pose is interpolated between the two steps around that time (the centre of
// mass on a straight line, the rotation on the shortest arc; interpolatePose) and an
// animated body's shape is evaluated at that time. Its CSV row is the `samara run` row of
// the nearest step, round(k/(fps·h)) (ties go to the later step). Between frames the glb
// and .chan writers add keys from the simulation's own steps wherever a body turns fast
// (KeyReducer), so that no player interpolates a fast spin the short way round. Frames are
// numbered from FramePlan::firstFrame (default 1) in file names and sidecars.
// World frame: Y-up (samara's world), metres, seconds.
#include <atomic>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/animation.h"
#include "core/se3.h"
#include "core/world.h"
#include "geometry/tri_mesh.h"
#include "io/atomic_file.h"  // OutputFiles, StagedFiles, MemoryFiles
#include "io/run_driver.h"   // exportStepCount, runSteps

namespace samara::io {

enum class ExportFormat {
  kGlb,   ///< glTF 2.0 binary: a node per body, rigid motion and morph-target shape change
  kObj,   ///< one OBJ file of world-space meshes per frame
  kCsv,   ///< the `samara run` columns at the frames, plus frame and body origin
  kChan,  ///< Houdini .chan per body: tx ty tz rx ry rz (degrees) per frame
  kPc2,   ///< PC2 point cache per body: world-space vertices per frame
};

/// "glb, obj, csv, chan, pc2" (for messages).
extern const char* const kExportFormatNames;
/// The format named `name` (as in kExportFormatNames), or none.
std::optional<ExportFormat> exportFormatFromName(const std::string& name);
const char* exportFormatName(ExportFormat format);

/// The header of the exported CSV: kCsvHeader (`samara run`) followed by
/// `frame,ox,oy,oz` (the frame index k and the world position of the body origin, m).
extern const char* const kExportCsvHeader;

/// The frames of an export and the steps around them.
struct FramePlan {
  double fps = 24.0;         ///< frames per second, > 0; default 24 (film and animation)
  double duration = 0.0;     ///< s, ≥ 0: frames at 0, 1/fps, … ≤ duration
  double dt = 0.005;         ///< the simulation step h, s, > 0
  long long firstFrame = 1;  ///< the number of frame 0 in file names and sidecars; default 1

  /// K + 1: the frames 0 … K with K = ⌊duration·fps⌋ (a product within 1e-9 of an integer
  /// counts as that integer).
  long long numFrames() const;
  /// k / fps, s.
  double frameTime(long long k) const { return static_cast<double>(k) / fps; }
  /// The step nearest to frameTime(k): round(k / (fps·h)), ties to the later step.
  long long frameStep(long long k) const;
  /// The number a user sees for frame k: firstFrame + k.
  long long frameNumber(long long k) const { return firstFrame + k; }
};

/// A body's placement at one instant: its pose and its centre of mass.
struct PoseSample {
  double time = 0.0;        ///< s
  core::Pose pose;          ///< body origin b (world, m) and q (body → world)
  Vec3 com = Vec3::Zero();  ///< world centre of mass, m
};

/// The placement at time t between two samples (a.time ≤ t ≤ b.time; clamped): the centre of
/// mass on the straight line, the rotation on the shortest arc (slerp), the body-frame centre
/// of mass linearly (a shape-changing body), and the origin where these put it. Returns a or
/// b exactly at their own times.
PoseSample interpolatePose(const PoseSample& a, const PoseSample& b, double t);

/// The poses of every body after one step that is not at a frame's time (sub-frame keys).
struct StepPoses {
  double time = 0.0;               ///< the step's time, s
  std::vector<PoseSample> bodies;  ///< one per body
};

/// Chooses animation keys from a body's dense samples (every step and every frame): a sample
/// becomes a key when leaving it out would let the interpolation between the keys around it
/// (translation linear, rotation slerp, and also component-wise linear + normalise as
/// Blender's f-curves do) miss an intermediate sample by more than the angle or distance
/// tolerance, or would let the body turn more than maxTurn between consecutive keys. Frames
/// are always keys. Streaming: memory is the samples since the last key.
class KeyReducer {
 public:
  struct Tolerance {
    double angle = 0.25 * M_PI / 180.0;  ///< rad; default 0.25°
    double distance = 1e-5;  ///< m (at least; the glb uses the angle at the body's edge)
    double maxTurn = 30.0 * M_PI / 180.0;  ///< rad between consecutive keys; default 30°
  };
  explicit KeyReducer(Tolerance tolerance) : tol_(tolerance) {}
  /// Samples in increasing time; `key` forces a key (a frame).
  void add(const PoseSample& s, bool key);
  /// The keys so far, the last pending sample included (call after the last add).
  std::vector<PoseSample> keys() const;

 private:
  bool spans(const PoseSample& from, const PoseSample& to) const;
  Tolerance tol_;
  std::vector<PoseSample> keys_;
  std::vector<PoseSample> pending_;  ///< samples after the last key, in order
};

/// What the writers know of a body besides its motion.
struct ExportBody {
  std::string name;            ///< the body's name in the scene
  geometry::FaceMatrix faces;  ///< triangles (vertex indices), as in the scene's mesh
  bool deforming = false;      ///< shape-changing (BodyDef::animation set)
  /// The shape change (BodyDef::animation): rigid parts become child nodes of the glb.
  std::shared_ptr<const core::ShapeAnimation> animation;
  double radius = 0.0;  ///< largest distance of a vertex from the body origin, m
  bool sheet = false;   ///< an open surface (a leaf, a card): drawn double-sided
};

/// One body at one frame.
struct BodyFrame {
  core::BodyDiagnostics diagnostics;     ///< the nearest step's `samara run` columns
  core::Pose stepPose;                   ///< the nearest step's pose (the CSV's origin)
  core::Pose pose;                       ///< at the frame's time: origin b (m), q (body → world)
  Vec3 com = Vec3::Zero();               ///< world centre of mass at the frame's time, m
  geometry::VertexMatrix worldVertices;  ///< n×3, world, m, at the frame's time
};

/// One sampled frame.
struct Frame {
  long long index = 0;    ///< k (0-based; FramePlan::frameNumber gives the number shown)
  double time = 0.0;      ///< k / fps, s: the time of the poses and vertices
  double stepTime = 0.0;  ///< time of the nearest step (the CSV's t), s
  std::vector<BodyFrame> bodies;
};

/// Whether the glb carries body's shape change as morph targets: a shape-changing body that is
/// not made of rigid parts (whose parts become child nodes with their own motion).
bool needsMorphTargets(const ExportBody& body);
/// The rigid parts of a body whose every face lies in one part or in none (the glb draws
/// each part as a child node), or null.
const core::RigidPartsAnimation* rigidParts(const ExportBody& body);

/// A body whose shape change is a glTF skin (optionally with its root motion removed), which
/// the glb writes as a skin: the skinned mesh, its joint nodes with their motion, and a root
/// node carrying the mesh-to-body transform and the removed root motion.
struct SkinView {
  const core::SkinnedAnimation* skin = nullptr;
  const core::RootMotionRemoved* rootRemoved = nullptr;  ///< null: root motion kept
};
/// The skin of a body, or {nullptr, nullptr} (also for a skin with animated scale).
SkinView skinOf(const ExportBody& body);

/// The bodies of `world` (names, faces, whether they deform).
std::vector<ExportBody> exportBodies(const core::World& world);
/// The frame k of `world` in its current state (a frame on a step): poses, diagnostics and
/// world vertices.
Frame captureFrame(const core::World& world, long long k, double fps);
/// As above, with the world vertices of body i only when withVertices(i).
Frame captureFrame(const core::World& world, long long k, double fps,
                   const std::function<bool(int)>& withVertices);

struct ExportSettings {
  ExportFormat format = ExportFormat::kGlb;  ///< default glb
  /// The output: the file for glb and csv; for obj, chan and pc2 a prefix (a trailing
  /// ".obj", ".chan" or ".pc2" is dropped) or a directory (an existing one, or a path
  /// ending in '/'). See exportPaths().
  std::string out;
  std::string sceneName = "scene";  ///< names the OBJ frames in a directory and the animation
  FramePlan plan;
  /// glb: a perspective camera (none: no camera node). Y-up world, metres.
  struct Camera {
    Vec3 eye = Vec3(0, 1, 3);
    Vec3 target = Vec3::Zero();
    double yfov = 0.8;    ///< vertical field of view, rad
    double aspect = 1.6;  ///< width / height
  };
  /// The camera's view, e.g. the viewer's; without it and with autoCamera, a camera that sees
  /// every body over the whole run from the viewer's default direction (frameCamera).
  std::optional<Camera> camera;
  bool autoCamera = true;
  KeyReducer::Tolerance keyTolerance;  ///< glb keys between frames
  /// .chan: rows per frame are the smallest power of two (≤ 64) with which no body turns
  /// more than this between rows (Houdini interpolates the angles linearly); default 15°.
  double chanMaxTurn = 15.0 * M_PI / 180.0;
  /// .chan: the meshes and the sidecar beside the channels (off when streaming to stdout).
  bool chanSidecars = true;
};

/// The viewer's default view direction (from the eye towards the scene): front-right, 32°
/// above the horizon.
Vec3 defaultViewDirection();

/// A camera that sees every body over the whole run: looking along `direction` (world, from
/// the eye towards the scene) at the centre of the box around `points`, far enough back that
/// a sphere around the box of radius `margin` more fits the view.
ExportSettings::Camera frameCamera(const std::vector<Vec3>& points, double margin,
                                   const Vec3& direction, double yfov, double aspect);

/// The files an export writes, in order:
///   glb, csv   OUT
///   obj        PREFIX_0001.obj, PREFIX_0002.obj, … (numbered from plan.firstFrame, at least
///              4 digits, more when needed) or DIR/SCENE_0001.obj …
///   chan       PREFIX_BODY.chan per body, then PREFIX_BODY.obj per body (its mesh in the
///              body frame, for the channels to move), then PREFIX_chan.json (rate, frame
///              range, orders); or DIR/BODY.chan, DIR/BODY.obj, DIR/SCENE_chan.json
///   pc2        PREFIX_BODY.pc2 per body, or DIR/BODY.pc2
/// Body and scene names become file names with every character outside [A-Za-z0-9._-]
/// replaced by '_' ("body" when empty); two bodies with the same file name get "_<index>".
std::vector<std::string> exportPaths(const ExportSettings& settings,
                                     const std::vector<ExportBody>& bodies);

/// Checks before a long run that every path can be written: not a directory, in an
/// existing, writable directory. Throws io::Error naming the first path that cannot
/// ("cannot write here (does the directory exist?)", "is a directory").
void checkOutputPaths(const std::vector<std::string>& paths);

/// Writes one export from frames given in order 0, 1, …, numFrames − 1. OBJ frames are
/// written as they come; the other formats are written by finish(). Throws io::Error.
class MotionExporter {
 public:
  MotionExporter(ExportSettings settings, std::vector<ExportBody> bodies, OutputFiles* files);
  ~MotionExporter();
  MotionExporter(const MotionExporter&) = delete;
  MotionExporter& operator=(const MotionExporter&) = delete;

  /// Whether frame k needs BodyFrame::worldVertices of body i (OBJ and PC2 always; glb at
  /// frame 0 for the mesh and at every frame for a deforming body's morph targets).
  bool needsVertices(int body, long long frame) const;
  /// Frames and steps in increasing time.
  void addFrame(const Frame& frame);
  /// The poses after a step between two frames (glb and chan keys; the others ignore them).
  void addStep(const StepPoses& step);
  /// Writes the remaining files (all frames must have been added).
  void finish();
  /// Rows (samples) per frame of what finish() wrote: .chan's rows_per_frame, else 1.
  int rowsPerFrame() const;

  class Writer;

 private:
  std::unique_ptr<Writer> writer_;
};

// --- the plan: limits, frames, steps -------------------------------------------------------

/// Frames of any export (one OBJ file each).
constexpr long long kMaxExportFrames = 1'000'000;
/// The highest frame rate of an export (frames per simulated second): ten times a
/// high-speed camera's, far finer than any step samara takes.
constexpr double kMaxExportFps = 100'000.0;
/// Frames of a glb with a shape-changing body: a morph target per frame, and the weights
/// grow with frames².
constexpr long long kMaxGlbMorphFrames = 20'000;

/// An export before its run, shared by `samara export` and the viewer's export job: what is
/// written where, at which frames, after how many steps, and the first bound it exceeds
/// (each caller words that in its own terms).
struct ExportPlan {
  enum class Limit {
    kOk,
    kTooManyFrames,       ///< duration·fps ≥ kMaxExportFrames (frames not counted)
    kTooManyMorphFrames,  ///< a glb with a shape-changing body over kMaxGlbMorphFrames frames
  };
  ExportSettings settings;
  std::vector<ExportBody> bodies;
  long long steps = 0;   ///< exportStepCount(plan.duration, plan.dt)
  long long frames = 0;  ///< settings.plan.numFrames() (0 with kTooManyFrames)
  Limit limit = Limit::kOk;

  /// checkOutputPaths(exportPaths(settings, bodies)): before a long run, not after.
  void checkOutputs() const;
};

/// The plan of exporting `world` (at t = 0) with `settings` (settings.plan: fps > 0, the
/// run's duration and dt).
ExportPlan planExport(const core::World& world, ExportSettings settings);

// --- the run: progress and cancellation -----------------------------------------------------

/// Progress reports and a stop request for runExport (both optional).
struct ExportControl {
  /// Called after every step on the thread that runs the export: steps taken, the run's
  /// steps, and the simulated time reached (s).
  std::function<void(long long step, long long steps, double time)> onStep;
  /// Read before every step and before the files are written: once true, the run stops
  /// (kCancelled) and writes nothing more.
  const std::atomic<bool>* cancel = nullptr;
  /// More observers of the run (after the frame sampler and onStep), e.g. a progress line.
  std::vector<RunObserver*> observers;
};

enum class ExportStatus {
  kDone,       ///< every frame added and finish() called: commit the files
  kCancelled,  ///< ExportControl::cancel was set
  kFailed,     ///< a step failed or gave a non-finite state
};

struct ExportOutcome {
  ExportStatus status = ExportStatus::kDone;
  long long steps = 0;       ///< the steps of the whole run
  long long frames = 0;      ///< frames added
  long long failedStep = 0;  ///< kFailed: the step that failed (1-based)
  double failedTime = 0.0;   ///< kFailed: the time the failed step started from, s
  std::string message;       ///< kFailed: why ("body 'leaf': the state is not finite", ...)
};

/// The loop of `samara export` (io::runSteps with a frame sampler): steps `world` (at t = 0)
/// exportStepCount(plan.duration, plan.dt) times, adds each frame to `exporter` at its step
/// (plan.frameStep, the last frames at the last step) and calls exporter->finish(). Stops at a
/// failed step or a cancel request, leaving the files unfinished: the caller then discards them (a
/// StagedFiles that is not committed removes its temporaries). Writers' io::Error
/// propagates.
ExportOutcome runExport(core::World* world, const FramePlan& plan, MotionExporter* exporter,
                        const ExportControl& control = {});

// --- the conventions, for tests and other tools ----------------------------------------------

/// Houdini rotation angles (degrees) of R for its default rotation order "xyz" (rotate about
/// x, then y, then z: R = Rz(rz)·Ry(ry)·Rx(rx), column vectors). Of the two solutions, the
/// one nearest to `previous` is returned, each angle moved by a multiple of 360° to lie
/// within 180° of the previous one (continuous curves); without `previous`, ry ∈ [−90, 90]
/// and rx, rz ∈ (−180, 180].
Vec3 houdiniEulerDegrees(const Mat3& R, const std::optional<Vec3>& previous = std::nullopt);
/// R = Rz(rz)·Ry(ry)·Rx(rx) from the angles in degrees (the inverse of the above).
Mat3 houdiniRotation(const Vec3& anglesDegrees);

}  // namespace samara::io
