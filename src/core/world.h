#pragma once
// The World: several independent bodies in one environment, stepped with a fixed h.
// Deterministic: same definition, same bits.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/body.h"
#include "core/fluid.h"

namespace samara::core {

struct SolverSettings {
  double tolerance = 1e-12;  ///< Newton stops when |R|∞ ≤ tol · (momentum scale); default 1e-12
  int maxIterations = 25;    ///< Newton iteration cap per (sub)step; default 25
  int maxHalvings = 6;       ///< a failed step is retried with 2, 4, … 2^6 sub-steps; default 6
};

struct WorldDef {
  std::string name = "scene";            ///< default "scene"
  Vec3 gravity = Vec3(0.0, -9.81, 0.0);  ///< m/s²; default (0, −9.81, 0)
  FluidDef fluid;                        ///< air (and water)
  std::optional<FloorDef> floor;         ///< default none
  double dt = 0.005;                     ///< step h, s; default 0.005
  double duration = 10.0;                ///< run length, s (used by runners); default 10
  SolverSettings solver;
  std::vector<BodyDef> bodies;
};

enum class StepStatus {
  kOk,          ///< converged in one step
  kSubstepped,  ///< Newton failed at h, converged with sub-steps
  kFailed,      ///< could not converge: the World keeps its last good state
};

struct [[nodiscard]] StepReport {
  StepStatus status = StepStatus::kOk;
  int newtonIterations = 0;  ///< max over bodies (summed over sub-steps)
  double residual = 0.0;     ///< max final relative residual over bodies
  int substeps = 1;          ///< sub-steps used by the body that needed most
  std::string message;       ///< why, when kFailed
  bool ok() const { return status != StepStatus::kFailed; }
};

/// World-frame diagnostics of one body (PHYSICS.md §5, the CSV columns).
struct BodyDiagnostics {
  Vec3 com = Vec3::Zero();              ///< world centre of mass, m
  Quat q = Quat::Identity();            ///< body → world
  Vec3 velocity = Vec3::Zero();         ///< world COM velocity, m/s
  Vec3 omega = Vec3::Zero();            ///< world angular velocity, rad/s
  Vec3 angularMomentum = Vec3::Zero();  ///< world, about the world origin, kg·m²/s
  Vec3 linearMomentum = Vec3::Zero();   ///< world, kg·m/s
  double fallSpeed = 0.0;               ///< COM velocity along gravity, m/s
  double spinRate = 0.0;                ///< ω about the up axis, rad/s
  double kineticEnergy = 0.0;           ///< ½ Yᵀ𝒦Y, J
  double kineticEnergyBody = 0.0;       ///< ½ Yᵀ𝓘_body Y, J
  double kineticEnergyFluid = 0.0;      ///< ½ Yᵀ𝓘_fluid Y, J
  int newtonIterations = 0;             ///< of the last step
  double residual = 0.0;                ///< of the last step
};

/// What World::advance saw after each step it took: for step s (0 = the block's first) and
/// body i, states[s * bodies + i] and diagnostics[s * bodies + i]; times[s] is the World's
/// time after step s. Only the steps that succeeded are in it.
struct StepTrace {
  std::vector<BodyState> states;
  std::vector<BodyDiagnostics> diagnostics;
  std::vector<double> times;  ///< s
  std::size_t steps() const { return times.size(); }
};

/// A world-frame state of one body at which to evaluate its fluid wrench
/// (`samara forces`).
struct FluidWrenchQuery {
  Quat q = Quat::Identity();     ///< body → world
  std::optional<Vec3> com;       ///< world COM, m; default the body's current COM
  Vec3 velocity = Vec3::Zero();  ///< world COM velocity, m/s
  Vec3 omega = Vec3::Zero();     ///< world angular velocity, rad/s
  std::optional<Vec3> wind;      ///< world background flow, m/s; default the scene's
  double t = 0.0;                ///< time (gusts, shape), s
};

/// The fluid wrench a body's model gives at a state: world force and world torque about
/// the centre of mass. It is the velocity-dependent part: lift and drag (GwtF), or the
/// peer model's whole wrench (MuJoCo's includes its added-mass velocity terms); gravity,
/// buoyancy and the added-mass inertia (𝒦 acting on the acceleration) are not in it.
struct FluidWrench {
  Vec3 force = Vec3::Zero();   ///< N, world
  Vec3 torque = Vec3::Zero();  ///< N·m, world, about the COM
};

/// One face's lift and drag (GwtF Eqn. 6) for the viewer's per-face arrows.
struct FaceForce {
  Vec3 position = Vec3::Zero();  ///< world face centroid, m
  Vec3 force = Vec3::Zero();     ///< world force on the face, N
};

/// The resultant forces on one body at its current state, each a world force (N) and a
/// world torque about the centre of mass (N·m). Their sum is what drives the body besides
/// the added-mass inertia (𝒦 acting on the acceleration, which has no force of its own).
struct ForceBreakdown {
  FluidWrench liftDrag;  ///< velocity-dependent fluid wrench (see FluidWrench)
  /// liftDrag.force split along the COM's velocity relative to the flow u: drag = (F·û)û
  /// (opposing u when it resists), lift = F − drag (⊥ u); N, world. Both 0 when u = 0.
  Vec3 drag = Vec3::Zero();
  Vec3 lift = Vec3::Zero();
  FluidWrench gravity;   ///< m·g at the COM (torque 0)
  FluidWrench buoyancy;  ///< hydrostatic (0 when the body's model has no buoyancy)
  FluidWrench contact;   ///< floor spring–damper and friction at the current Y
  /// Per-face lift and drag (GwtF bodies only; empty for peer and first-order models),
  /// at most `maxFaces` of them: the faces with the largest |f| first. When every face is
  /// listed their forces sum to liftDrag.force.
  std::vector<FaceForce> faces;
};

class BodyImpl;
struct EnergyAuditBase;
class ThreadPool;

/// A World's whole dynamic state: time, the parameters a viewer or --set may change (dt,
/// fluid density, wind, each body's δ), every body's step state and its fluid model's own
/// state (e.g. a turbulence generator). Caches are not in it: restoreState rebuilds them.
/// Cheap to copy (shared, immutable).
class WorldState {
 public:
  double time() const;             ///< s
  std::int64_t stepIndex() const;  ///< steps taken

 private:
  friend class World;
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

class World {
 public:
  /// Validates the definition (throws DefinitionError naming the field) and sets up every
  /// body: topology, mass properties, δ, initial velocity and momentum.
  explicit World(WorldDef def);
  ~World();
  World(World&&) noexcept;
  World& operator=(World&&) noexcept;
  World(const World&);  ///< deep copy (save/restore state)
  World& operator=(const World&);

  /// Advances every body by h. On failure the state is unchanged.
  StepReport step();

  /// Takes up to `steps` steps, each body all of its steps in a row (a crowd larger than the
  /// processor's caches keeps each body's data in them from one step to the next instead of
  /// bringing every body's back every step), with the same bits and reports as as many calls
  /// of step(): one report per step taken, the last one the failure if a step fails (the
  /// World then at its last good step, as step() leaves it).
  /// With `trace`: also every body's state and diagnostics after each step taken (what
  /// state(i) and diagnostics(i) give after that step()), taken on the body's own thread.
  std::vector<StepReport> advance(int steps, StepTrace* trace = nullptr);

  /// Threads that step the bodies (≥ 1; default 1: the calling thread alone). Bodies are
  /// independent, so each is stepped whole on one thread and the results are the same bits
  /// for any count; the report and a failure are taken in body order, as one thread would.
  /// At most one thread per body is used, and a one-body World always steps inline. A copy
  /// keeps the count and makes its own threads (on its first step that uses them).
  void setThreads(int threads);
  int threads() const { return threads_; }

  /// The current state; restoreState(saveState()) later, or on a World made from the same
  /// definition, continues bit for bit as this World would have.
  WorldState saveState() const;
  /// Restores a state saved from this World or one of the same definition; throws
  /// std::invalid_argument for a state of another scene (body count or models differ).
  void restoreState(const WorldState& state);

  double time() const { return time_; }
  std::int64_t stepIndex() const { return stepIndex_; }
  const WorldDef& definition() const { return def_; }

  int numBodies() const { return static_cast<int>(bodies_.size()); }
  const BodyDef& bodyDef(int i) const { return def_.bodies[static_cast<size_t>(i)]; }
  const BodyState& state(int i) const;
  BodyDiagnostics diagnostics(int i) const;
  BodyInfo info(int i) const;
  /// Current world vertex positions of body i (n×3).
  geometry::VertexMatrix worldVertices(int i) const;
  /// World vertex positions (n×3, m) of body i placed at pose `g` with its shape at time `t`
  /// (s): an animated body's shape is evaluated at t, a rigid body's is its mesh. Read-only;
  /// the viewer's history scrubbing draws recorded states with it.
  geometry::VertexMatrix worldVerticesAt(int i, const Pose& g, double t) const;

  // Parameter changes between steps (viewer sliders, --set). Each keeps the body's
  // velocity Y and recomputes μ = 𝒦Y with the new 𝒦.
  void setFluidDensity(double rho);
  void setWind(const Vec3& wind);
  void setDelta(int body, std::optional<double> delta);
  void setDt(double dt);

  /// The fluid wrench on body i under its model at the given state (see FluidWrench).
  FluidWrench fluidWrench(int i, const FluidWrenchQuery& query) const;

  /// Lift/drag, gravity, buoyancy and contact on body i at the current state, plus up to
  /// `maxFaces` per-face lift/drag forces (0: none). Not on the step path; costs about
  /// one force evaluation and a copy of the body's per-face data.
  ForceBreakdown forceBreakdown(int i, int maxFaces = 0) const;

  /// The largest ratio of body i's kinetic energy (relative to the flow) to the energy
  /// audit's bound seen since the audit's baseline (set up, restoreState, a parameter
  /// change); a step that would exceed 1 fails instead (StepReport::message says why).
  double energyAuditPeak(int i) const;

  /// Discrete momentum map J = Ad*_g (dτ⁻¹_{hY})ᵀ μ of body i (PHYSICS.md §4),
  /// conserved to round-off when no force acts and the shape is constant.
  Vec6 discreteMomentumMap(int i) const;

 private:
  WorldDef def_;
  std::vector<std::unique_ptr<BodyImpl>> bodies_;
  std::vector<EnergyAuditBase> audit_;  ///< per body (energy_audit.h)
  double time_ = 0.0;
  std::int64_t stepIndex_ = 0;
  // t = anchorTime_ + (stepIndex_ − anchorStep_)·dt: no accumulated round-off in t.
  double anchorTime_ = 0.0;
  std::int64_t anchorStep_ = 0;
  int threads_ = 1;
  std::unique_ptr<ThreadPool> pool_;  ///< made by the first step that needs it; never copied

  void resetEnergyAudit();
  /// Calls task(i) for every body i, on the pool when threads_ > 1 and there are bodies to
  /// share (each call touches body i alone).
  void forEachBody(const std::function<void(int)>& task);
};

/// Checks made when a scene is loaded (not when a viewer's slider changes dt): the step
/// size against the floor's contact spring (ω h ≤ 2) and each body's initial spin (≤ 2 rad
/// per step), and bodies starting inside the floor (deeper than 0.1 % of their size).
/// Throws DefinitionError naming /sim/dt or the body's field.
void checkStepSize(const World& world);

}  // namespace samara::core
