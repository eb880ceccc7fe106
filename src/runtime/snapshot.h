#pragma once
// What the simulation thread publishes: the latest state for the renderer and panels
// (Snapshot, through a triple buffer) and one PlotSample per body per step (through a
// lossless channel).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/world.h"
#include "io/scene.h"

namespace samara::runtime {

enum class RunStatus {
  kEmpty,    ///< no scene loaded yet
  kRunning,  ///< stepping in real time × speed
  kPaused,   ///< paused by the user
  kFailed,   ///< a step failed: paused, `message` says why
};

/// What the teaching overlays show of one body (SetTeaching), world frame at the COM.
struct BodyTeaching {
  core::ForceBreakdown forces;  ///< N and N·m about the COM (World::forceBreakdown)
  /// Added mass: the translational block M_vv of 𝓘_fluid (kg, body frame; the same about
  /// any reference point) and the rotational block about the COM (kg·m², body frame, the
  /// ω block of 𝓘_fluid re-expressed with the COM velocity as the linear part).
  Mat3 addedTranslational = Mat3::Zero();
  Mat3 addedRotational = Mat3::Zero();
  Mat3 bodyRotational = Mat3::Zero();        ///< the body's inertia about its COM, kg·m², body
  Vec3 linearMomentumBody = Vec3::Zero();    ///< 𝓘_body Y, linear part, world, kg·m/s
  Vec3 linearMomentumTotal = Vec3::Zero();   ///< μ = 𝒦Y + μ⁰, linear part, world, kg·m/s
  Vec3 angularMomentumBody = Vec3::Zero();   ///< 𝓘_body Y about the COM, world, kg·m²/s
  Vec3 angularMomentumTotal = Vec3::Zero();  ///< μ about the COM, world, kg·m²/s
  /// While the exact-added-mass ghost runs: the same body's potential-flow added mass
  /// (translational and rotational about the COM, as above), to show beside the local one.
  std::optional<Mat3> exactTranslational;
  std::optional<Mat3> exactRotational;
};

/// One body as the renderer and the panels see it.
struct BodySnapshot {
  std::string name;
  /// World vertex positions at the snapshot's time, n×3, m.
  geometry::VertexMatrix vertices;
  /// Triangles (indices into `vertices`); shared, changes only when a scene is loaded.
  std::shared_ptr<const geometry::FaceMatrix> faces;
  /// A rigid body's body-frame vertices (n×3, m), shared by every snapshot of the run:
  /// `vertices` = `orientation` · restVertices + `position`, row by row. Null for a
  /// shape-changing body. (The renderer draws rigid bodies from these and the pose.)
  std::shared_ptr<const geometry::VertexMatrix> restVertices;
  Quat orientation = Quat::Identity();  ///< body → world rotation at the snapshot's time
  Vec3 position = Vec3::Zero();         ///< world position of the body origin, m
  Vec3 boundsLo = Vec3::Zero();         ///< lower corner of the box around `vertices`, m
  Vec3 boundsHi = Vec3::Zero();         ///< upper corner of the box around `vertices`, m
  core::BodyDiagnostics diagnostics;    ///< world frame, SI (PHYSICS.md §5)
  double mass = 0.0;                    ///< kg
  double delta = 0.0;                   ///< δ in use, m
  double deltaAuto = 0.0;               ///< δ computed from the mesh, m
  std::optional<double> deltaOverride;  ///< m; nullopt = auto
  double radius = 0.0;                  ///< largest distance of a vertex from the centre of mass, m
  /// The body's fluid model (core::fluidModelName: "gwtf", "vacuum", …).
  std::string model;
  /// Whether the model uses δ, the added-mass length (core::FluidModel::localFaces).
  bool usesDelta = true;
  /// Set when a Restart replaced the scene's model of this body (Overrides::model); what
  /// `--set bodies.N.model=NAME` reproduces. Always nullopt for ghost bodies.
  std::optional<std::string> modelOverride;
  /// The broad normal for the falling-pattern classifier: the principal axis of largest
  /// moment of inertia about the COM, body coordinates, unit (computed at load).
  Vec3 broadNormalBody = Vec3::UnitZ();
  /// Teaching overlays: set only while the viewer asks (SetTeaching) and not while
  /// scrubbing (the live world's forces would not match the recorded state).
  std::optional<BodyTeaching> teaching;
};

/// The parameters the world is stepping with now.
struct AppliedParams {
  double fluidDensity = 1.225;          ///< kg/m³
  Vec3 wind = Vec3::Zero();             ///< m/s
  double dt = 0.005;                    ///< s
  double speed = 1.0;                   ///< simulated s per wall s
  bool unlimited = false;               ///< as fast as possible
  int threads = 1;                      ///< simulation threads (SetThreads)
  Vec3 gravity = Vec3(0, -9.81, 0);     ///< m/s²
  std::optional<core::WaterDef> water;  ///< water below a level, if the scene has it
  std::optional<core::FloorDef> floor;  ///< floor, if the scene has one
};

/// Newton statistics over the last wall second of stepping (the "h too large" warning).
struct SolverStats {
  int lastIterations = 0;     ///< Newton iterations of the last step
  double lastResidual = 0.0;  ///< final relative residual of the last step
  int lastSubsteps = 1;       ///< sub-steps of the last step
  int maxIterations = 0;      ///< max over the recent steps
  double meanIterations = 0;  ///< mean over the recent steps
  int substeppedSteps = 0;    ///< recent steps that needed sub-steps
  int recentSteps = 0;        ///< steps the statistics cover
  int iterationLimit = 25;    ///< SolverSettings::maxIterations
};

struct Snapshot {
  /// Increments whenever the world is replaced (load, reload, reset, restart): vertex
  /// counts, trails and plot histories restart.
  std::uint64_t generation = 0;
  std::int64_t stepIndex = 0;  ///< steps since t = 0
  double time = 0.0;           ///< simulated time, s
  RunStatus status = RunStatus::kEmpty;
  /// Why the run failed, or the last load error (empty if none). Stays until the next
  /// successful load, reset or restart.
  std::string message;
  std::string scenePath;  ///< file the scene came from (or a label)
  /// The `--set` edits the scene was loaded with (a .json scene; kept by Reload, Restart).
  io::SetList sceneSets;
  /// False for a scene built in memory (LoadWorld): `scenePath` is then only a label.
  bool sceneFromFile = false;
  std::string sceneName;
  /// The scene file's "lesson" (io::Lesson: title and one paragraph), empty when it has none.
  std::string lessonTitle;
  std::string lessonText;
  io::LessonView lessonView;  ///< what the viewer shows when the lesson opens
  double duration = 0.0;      ///< the scene's sim.duration, s (informative; the viewer runs on)
  AppliedParams params;
  SolverStats solver;
  std::vector<BodySnapshot> bodies;
  /// The ghost run (SetGhost): its model for every body ("" = no ghost) and its bodies
  /// (index i is the ghost of bodies[i]), at `ghostStepIndex` (= stepIndex, or one behind
  /// after a ghost step failed).
  std::string ghostModel;
  std::vector<BodySnapshot> ghostBodies;
  std::int64_t ghostStepIndex = 0;
  /// History (RunnerOptions::historySeconds): the recorded steps historyFirst … historyLast
  /// (none when historyLast < historyFirst), at simulated times historyFirstTime …
  /// historyLastTime, s.
  std::int64_t historyFirst = 0;
  std::int64_t historyLast = -1;
  double historyFirstTime = 0.0;
  double historyLastTime = 0.0;
  /// Every historyStride-th step is recorded (1: every step; more when the history's byte
  /// budget is short of its seconds, as with a crowd).
  std::int64_t historyStride = 1;
  /// Scrubbing (the Scrub command): `stepIndex`, `time`, the bodies' vertices and diagnostics
  /// (and the ghost's) are those recorded at that step, bit for bit; the world itself is at
  /// liveStepIndex / liveTime and continues from there.
  bool scrubbing = false;
  std::int64_t liveStepIndex = 0;  ///< the world's step index (= stepIndex unless scrubbing)
  double liveTime = 0.0;           ///< the world's time, s
  double realTimeFactor = 0.0;     ///< measured simulated s per wall s (0 when paused)
  double stepsPerSecond = 0.0;     ///< measured steps per wall second
  bool rateMeasured = false;       ///< false until the first measuring window has closed
  std::int64_t reanchors = 0;      ///< times the pacer gave up catching up (slow machine)
};

/// One body's diagnostics after one step: the plot (and trail) data. Same numbers as the
/// CSV of `samara run`. Ghost samples (SetGhost) go through the same channel with `ghost`
/// set; `body` is then the index of the ghost body (= the index of the main body it
/// shadows), not offset.
struct PlotSample {
  std::uint64_t generation = 0;  ///< Snapshot::generation it belongs to
  std::int64_t stepIndex = 0;
  double time = 0.0;  ///< s
  int body = 0;
  bool ghost = false;  ///< a sample of the ghost run's body `body`
  core::BodyDiagnostics d;
};

}  // namespace samara::runtime
