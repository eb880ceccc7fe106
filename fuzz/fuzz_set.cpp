// libFuzzer target: `--set PATH=VALUE` edits applied to a scene, as `run` (parseScene) and
// `save`/`sweep` (createParents + applySet, then the result dumped) do. The input is the
// scene text followed by edits, each introduced by the marker "\n!SET " and split at its
// first '='. io::Error is the expected outcome of a bad edit; any other exception, a
// crash, a sanitizer report or a leak is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/world.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/scene.h"
#include "io/scene_relocate.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string marker = "\n!SET ";
  std::size_t end = input.find(marker);
  const std::string scene = input.substr(0, end);
  samara::io::SetList sets;
  while (end != std::string::npos && sets.size() < 16) {
    const std::size_t start = end + marker.size();
    end = input.find(marker, start);
    const std::string edit = input.substr(start, end == std::string::npos ? end : end - start);
    const std::size_t eq = edit.find('=');
    if (eq == std::string::npos) continue;
    sets.emplace_back(edit.substr(0, eq), edit.substr(eq + 1));
  }
  samara::io::SceneLimits limits;  // small, so one input stays fast and light
  limits.maxFaces = 50'000;
  limits.maxSceneBytes = 1 << 20;
  limits.maxMeshFileBytes = 1 << 20;
  limits.maxBodies = 16;
  limits.maxPointMasses = 256;
  try {  // as `save` and `sweep` edit a scene before writing it
    samara::io::Json json = samara::io::parseJson(scene, "fuzz.json");
    for (const auto& [path, value] : sets) {
      samara::io::detail::createParents(&json, path);
      samara::io::applySet(&json, path, value, "fuzz.json");
    }
    (void)json.dump(2);
  } catch (const samara::io::Error&) {
  }
  try {  // as `run`, `export`, `forces` read a scene
    samara::core::WorldDef def =
        samara::io::parseScene(scene, "fuzz.json", SAMARA_FUZZ_MESH_DIR, sets, limits);
    const samara::core::World world = samara::io::makeWorld(std::move(def), "fuzz.json");
    (void)world.info(0);
  } catch (const samara::io::Error&) {
  }
  return 0;
}
