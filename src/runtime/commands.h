#pragma once
// UI → simulation requests. The runner drains them between steps only, in the order they
// were posted, so the same commands at the same step indices give the same bits as a
// direct World run (see Runner).
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/world.h"
#include "io/scene.h"

namespace samara::runtime {

/// Fluid (air, or the only fluid) density, kg/m³ (≥ 0; 0 is a vacuum). World::setFluidDensity.
struct SetFluidDensity {
  double density = 1.225;  ///< kg/m³
};
/// Uniform background wind, world frame, m/s. World::setWind.
struct SetWind {
  Vec3 wind = Vec3::Zero();  ///< m/s
};
/// δ of one body: a value in m (0 = no added mass), or nullopt for the automatic δ.
struct SetDelta {
  int body = 0;                 ///< body index
  std::optional<double> delta;  ///< m; nullopt = auto
};
/// Time step h, s (> 0). World::setDt.
struct SetDt {
  double dt = 0.005;  ///< s
};
/// Playback speed: simulated seconds per wall second, clamped to [0.01, 4]; or as fast as
/// possible (`unlimited`).
struct SetSpeed {
  double factor = 1.0;     ///< dimensionless
  bool unlimited = false;  ///< ignore `factor`, step as fast as the machine allows
};
struct Pause {};
struct Resume {};
struct TogglePause {};
/// Pauses, then takes `n` steps at once (stops early if one fails).
struct Step {
  int n = 1;
};
/// History scrubbing: pauses and shows the recorded step `stepIndex` (clamped to the recorded
/// range, Snapshot::historyFirst … historyLast) in the snapshot; nullopt leaves scrubbing and
/// shows the live state again. The world is not changed: Resume, Step, Reset, Restart and
/// loads leave scrubbing and continue from the live state (the last step taken).
struct Scrub {
  std::optional<std::int64_t> stepIndex;  ///< recorded step index; nullopt = back to live
  /// A step the history did not keep (it keeps every stride-th one when its budget is
  /// short, StepHistory): 0 shows the nearest kept one, −1 the one before, +1 the one after.
  int direction = 0;
};
/// Teaching overlays: whether snapshots carry BodySnapshot::teaching (force breakdown,
/// added-mass blocks, momenta) and how many per-face lift/drag forces. Off by default so the
/// simulation thread does not pay for it. Not logged (it changes no state).
struct SetTeaching {
  bool on = false;   ///< fill BodySnapshot::teaching
  int maxFaces = 0;  ///< per-face forces listed (largest |f| first); 0 = none
};
/// Threads that step the bodies of the world and of the ghost (World::setThreads; ≥ 1, a
/// smaller value counts as 1); with 2 or more the ghost also steps beside the main world.
/// Not logged: the results are the same bits for any count.
struct SetThreads {
  int threads = 1;
};
/// Back to the state the scene was loaded with (time 0, the scene's parameters).
struct Reset {};
/// Parameters for a restart from t = 0; unset fields keep the loaded scene's values.
struct Overrides {
  std::optional<double> fluidDensity;  ///< kg/m³
  std::optional<Vec3> wind;            ///< m/s
  std::optional<double> dt;            ///< s
  /// Per body: unset = the scene's δ; set = that δ (nullopt inside = auto).
  std::vector<std::optional<std::optional<double>>> delta;
  /// Per body: unset = the scene's fluid model; set = that model by name (one of
  /// models::modelNames(), with its default parameters), as `--set bodies.N.model=NAME`.
  std::vector<std::optional<std::string>> model;
};
/// Rebuilds the world from the loaded scene's definition with `overrides` applied, i.e.
/// what `samara run SCENE --set …` would simulate.
struct Restart {
  Overrides overrides;
};
/// Turns the ghost run on (a model name, one of models::modelNames()) or off (nullopt).
/// Either way the main run restarts from t = 0 with its current definition (the parameters
/// the sliders set: World::definition()); the ghost is built from that same definition with
/// every body's model set to `model`. The ghost then steps in lockstep with the main world
/// (same step index, every parameter command applied to both) and follows resets,
/// restarts and loads until it is turned off. An unknown name leaves everything as it was.
struct SetGhost {
  std::optional<std::string> model;  ///< models::modelNames(); nullopt = no ghost
};
/// Loads a scene file (.json), or makes a default scene around a mesh (.obj, .gltf/.glb).
/// On failure the current world stays and the snapshot carries the message.
struct LoadScene {
  std::string path;
  io::SetList sets;  ///< `--set` edits applied to a .json scene
};
/// Loads the current scene file again (after it changed on disk).
struct Reload {};
/// Replaces the world by one built from an in-memory definition (tests, generated scenes).
struct LoadWorld {
  core::WorldDef def;
  std::string label = "scene";  ///< shown as the scene path
};

using Command = std::variant<SetFluidDensity, SetWind, SetDelta, SetDt, SetSpeed, Pause, Resume,
                             TogglePause, Step, Scrub, SetTeaching, SetThreads, Reset, Restart,
                             SetGhost, LoadScene, Reload, LoadWorld>;

/// A command with the step index of the world when it was applied (the replay log).
struct LoggedCommand {
  std::int64_t stepIndex = 0;  ///< World::stepIndex() before the command took effect
  Command command;
  /// The ghost world's step index then (equal to stepIndex unless the ghost's last step
  /// failed and it is a step behind; without a ghost, stepIndex).
  std::int64_t ghostStepIndex = 0;
};

/// One-line description for logs and the UI ("SetFluidDensity 998").
std::string describe(const Command& c);

/// Whether `c` is a parameter command (SetFluidDensity, SetWind, SetDelta, SetDt): one that
/// changes the world and is replayed by applyParameter.
bool isParameterCommand(const Command& c);

/// Applies a parameter command (SetFluidDensity, SetWind, SetDelta, SetDt) to a world the
/// way the runner does. Returns false (and leaves the world alone) for other commands or
/// invalid values. Used by the runner and by replay.
bool applyParameter(const Command& c, core::World* world);

/// Applies `o` to a definition: what Restart simulates (and `samara run --set …`). Returns
/// false, with the reason in `error`, for an unknown model name (`def` is then partly
/// changed).
bool applyOverrides(const Overrides& o, core::WorldDef* def, std::string* error);

/// `o` as `--set` edits, the one conversion shared by "copy cmd" and "Save scene as":
/// density → /fluid/density, wind → /fluid/wind ([x,y,z]), dt → /sim/dt, δ →
/// /bodies/i/delta (a number or "auto"), model → /bodies/i/model (the name). Numbers in their
/// shortest round-trip form, so the edited scene reads back as applyOverrides gives it, bit
/// for bit.
io::SetList overrideSets(const Overrides& o);

/// Gives every body of `def` the model `name` with its default parameters (a ghost's
/// definition). Returns false (def unchanged) for an unknown name.
bool setAllModels(core::WorldDef* def, const std::string& name);

/// The ghost that differs only by having no added mass: every body keeps its model, GwtF
/// bodies get δ = 0 (the lecture's contrast next to "vacuum").
inline constexpr const char* kNoAddedMassGhost = "no-added-mass";
/// The ghost whose rigid bodies of local-face models take the exact (potential-flow) added
/// mass ("added_mass": "exact"; solved on the simulation thread, cached on disk).
inline constexpr const char* kExactAddedMassGhost = "exact-added-mass";
/// A model name (models::modelNames()), kNoAddedMassGhost or kExactAddedMassGhost.
bool isGhostName(const std::string& name);
/// Every ghost choice, in the order of the viewer's combo: the models, then no-added-mass
/// and exact-added-mass.
std::vector<std::string> ghostNames();

}  // namespace samara::runtime
