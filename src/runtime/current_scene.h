#pragma once
// The scene the viewer runs after "Restart with these parameters", as one value: the file it
// came from, its `--set` edits and the slider values (Overrides). "Save scene as", "copy
// cmd" and the viewer's exports all start from it, so they describe the same run (issue 7).
#include <string>

#include "core/world.h"
#include "io/scene.h"
#include "runtime/commands.h"
#include "runtime/snapshot.h"

namespace samara::runtime {

struct CurrentScene {
  std::string path;     ///< a .json scene, or an .obj / .gltf / .glb mesh (loadSceneOrMesh)
  io::SetList sets;     ///< the `--set` edits of a .json scene
  Overrides overrides;  ///< the sliders: what Restart applies
};

/// The parameters of the run `s` shows as a Restart would apply them: its density, wind and
/// h, and per body its δ override and model override.
Overrides overridesOf(const Snapshot& s);

/// The scene Restart{overridesOf(s)} would run: what "Save scene as" writes, "copy cmd"
/// prints and the viewer's exports run.
CurrentScene currentSceneOf(const Snapshot& s);

/// The definition Restart{scene.overrides} runs: loadSceneOrMesh(path, sets) with
/// applyOverrides. Throws io::Error (also for an unknown model name).
core::WorldDef loadCurrentScene(const CurrentScene& scene);

/// All `--set` edits of the scene: its own, then overrideSets(overrides).
io::SetList currentSets(const CurrentScene& scene);

/// Writes the scene as a self-contained scene file at `destPath` (io::saveSceneAs with
/// currentSets; for a mesh, io::saveDefinitionAs of the default scene around it), so that
/// loading it gives loadCurrentScene(scene) bit for bit. Throws io::Error; nothing is written
/// then.
void saveCurrentScene(const CurrentScene& scene, const std::string& destPath);

/// The `samara run` line that reproduces the scene bit for bit (`--set` for every edit,
/// quoted for a POSIX shell where needed). For a mesh, which `samara run` cannot read, a
/// note to save the scene first.
std::string runCommandLine(const CurrentScene& scene);

}  // namespace samara::runtime
