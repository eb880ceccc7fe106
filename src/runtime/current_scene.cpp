#include "runtime/current_scene.h"

#include "io/error.h"
#include "io/scene_writer.h"
#include "io/text_format.h"
#include "runtime/scene_source.h"

namespace samara::runtime {

namespace {

bool isScene(const std::string& path) { return fileKind(path) == FileKind::kScene; }

}  // namespace

core::WorldDef loadCurrentScene(const CurrentScene& scene) {
  core::WorldDef def = loadSceneOrMesh(scene.path, scene.sets);
  std::string error;
  if (!applyOverrides(scene.overrides, &def, &error)) throw io::Error(scene.path, error);
  return def;
}

io::SetList currentSets(const CurrentScene& scene) {
  io::SetList sets = isScene(scene.path) ? scene.sets : io::SetList{};
  for (auto& s : overrideSets(scene.overrides)) sets.push_back(std::move(s));
  return sets;
}

void saveCurrentScene(const CurrentScene& scene, const std::string& destPath) {
  if (isScene(scene.path)) {
    io::saveSceneAs(scene.path, currentSets(scene), destPath);
    return;
  }
  // A mesh: the default scene the viewer made around it, written out in full.
  const core::WorldDef def = loadSceneOrMesh(scene.path);
  io::saveDefinitionAs(def, {scene.path}, scene.path, overrideSets(scene.overrides), destPath);
}

std::string runCommandLine(const CurrentScene& scene) {
  if (!isScene(scene.path)) {
    return "(samara run reads .json scenes: save this scene first, then samara run THAT.json)";
  }
  std::string cmd = "samara run " + io::shellQuote(scene.path);
  for (const auto& [path, value] : currentSets(scene)) {
    cmd += " --set " + io::shellQuote(path + "=" + value);
  }
  return cmd;
}

Overrides overridesOf(const Snapshot& s) {
  Overrides o;
  o.fluidDensity = s.params.fluidDensity;
  o.wind = s.params.wind;
  o.dt = s.params.dt;
  for (const auto& b : s.bodies) {
    o.delta.emplace_back(b.deltaOverride);
    o.model.emplace_back(b.modelOverride);
  }
  return o;
}

CurrentScene currentSceneOf(const Snapshot& s) {
  return CurrentScene{s.scenePath, s.sceneSets, overridesOf(s)};
}

}  // namespace samara::runtime
