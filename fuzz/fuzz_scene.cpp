// libFuzzer target: scene text → WorldDef → World. io::Error is the expected outcome of a
// bad scene; any other exception, a crash, a sanitizer report or a leak is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "io/error.h"
#include "io/scene.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  samara::io::SceneLimits limits;  // small, so one input stays fast and light
  limits.maxFaces = 50'000;
  limits.maxSceneBytes = 1 << 20;
  limits.maxMeshFileBytes = 1 << 20;
  limits.maxBodies = 16;
  limits.maxPointMasses = 256;
  try {
    // Mesh paths resolve against the OBJ seed corpus, so "cube.obj" etc. exist.
    samara::core::WorldDef def =
        samara::io::parseScene(text, "fuzz.json", SAMARA_FUZZ_MESH_DIR, {}, limits);
    const samara::core::World world = samara::io::makeWorld(std::move(def), "fuzz.json");
    (void)world.info(0);
  } catch (const samara::io::Error&) {
  }
  return 0;
}
