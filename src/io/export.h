#pragma once
// Baked motion for offline renderers (issue 7): the frames of a run, sampled at a chosen
// frame rate, written as glTF 2.0 binary (.glb), an OBJ sequence, CSV, Houdini .chan and
// .pc2 point caches. The writers take sampled frames and write whole files through an
// OutputFiles sink, so a run can stage every file as a temporary and rename them together
// at the end (StagedFiles), or keep them in memory (MemoryFiles, tests).
//
// Frames: frame k (k = 0 … K, K = ⌊duration·fps⌋ up to round-off) is at the nominal time
// k/fps and holds the state of the step nearest to it, step round(k/(fps·h)) (ties go to
// the later step); with 1/fps a multiple of h every frame falls exactly on a step.
// World frame: Y-up (samara's world), metres, seconds.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

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

/// Which step each frame is taken from.
struct FramePlan {
  double fps = 30.0;      ///< frames per second, > 0; default 30
  double duration = 0.0;  ///< s, ≥ 0: frames at 0, 1/fps, … ≤ duration
  double dt = 0.005;      ///< the simulation step h, s, > 0

  /// K + 1: the frames 0 … K with K = ⌊duration·fps⌋ (a product within 1e-9 of an integer
  /// counts as that integer).
  long long numFrames() const;
  /// k / fps, s.
  double frameTime(long long k) const { return static_cast<double>(k) / fps; }
  /// The step nearest to frameTime(k): round(k / (fps·h)), ties to the later step.
  long long frameStep(long long k) const;
};

/// What the writers know of a body besides its motion.
struct ExportBody {
  std::string name;            ///< the body's name in the scene
  geometry::FaceMatrix faces;  ///< triangles (vertex indices), as in the scene's mesh
  bool deforming = false;      ///< shape-changing (BodyDef::animation set)
};

/// One body at one frame.
struct BodyFrame {
  core::BodyDiagnostics diagnostics;     ///< the `samara run` CSV columns (COM, q, …)
  core::Pose pose;                       ///< body origin b (world, m) and q (body → world)
  geometry::VertexMatrix worldVertices;  ///< n×3, world, m (World::worldVertices)
};

/// One sampled frame.
struct Frame {
  long long index = 0;    ///< k
  double time = 0.0;      ///< nominal time k / fps, s
  double stepTime = 0.0;  ///< time of the step the state is from (the CSV's t), s
  std::vector<BodyFrame> bodies;
};

/// The bodies of `world` (names, faces, whether they deform).
std::vector<ExportBody> exportBodies(const core::World& world);
/// The frame k of `world` in its current state: poses, diagnostics and world vertices.
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
};

/// The files an export writes, in order:
///   glb, csv   OUT
///   obj        PREFIX_0000.obj, PREFIX_0001.obj, … (at least 4 digits, more when there are
///              more frames) or DIR/SCENE_0000.obj …
///   chan, pc2  PREFIX_BODY.chan (.pc2) per body, or DIR/BODY.chan
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
  void addFrame(const Frame& frame);
  /// Captures frame k from `world` in its current state (with the vertices it needs) and
  /// adds it.
  void addFrame(const core::World& world, long long k, double fps);
  /// Writes the remaining files (all frames must have been added).
  void finish();

  class Writer;

 private:
  std::unique_ptr<Writer> writer_;
};

// --- the plan: limits, frames, steps -------------------------------------------------------

/// Frames of any export (one OBJ file each).
constexpr long long kMaxExportFrames = 1'000'000;
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
