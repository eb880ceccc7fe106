// libFuzzer target: the states CSV of `samara forces` → rows → each row's fluid wrench on
// a body of a fixed scene (one body per fluid model). io::Error is the expected outcome of
// a bad file; any other exception, a crash, a sanitizer report or a leak is a bug.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/world.h"
#include "io/error.h"
#include "io/scene.h"
#include "io/states_csv.h"

namespace {

// A small plate and sphere under each model the `forces` command evaluates.
const char* const kScene = R"({"fluid": {"density": 1000, "wind": [0.5, 0, 0]}, "bodies": [
  {"name": "plate", "mesh": {"primitive": "plate", "size": [0.1, 0.06], "segments": [3, 2]},
   "mass": {"density": 700, "thickness": 0.001}},
  {"name": "gwtf", "model": "gwtf-2024", "mesh": {"primitive": "sphere", "radius": 0.05},
   "mass": {"density": 500}},
  {"name": "vacuum", "model": "vacuum", "mesh": {"primitive": "box", "size": [0.1, 0.02, 0.05]},
   "mass": {"density": 500}},
  {"name": "mi", "model": "mujoco-inertia", "mesh": {"primitive": "box", "size": [0.1, 0.02, 0.05]},
   "mass": {"density": 500}},
  {"name": "me", "model": "mujoco-ellipsoid", "mesh": {"primitive": "sphere", "radius": 0.05},
   "mass": {"density": 500}},
  {"name": "xm", "model": "xie-miyata", "mesh": {"primitive": "plate", "size": [0.1, 0.06]},
   "mass": {"density": 700, "thickness": 0.001}},
  {"name": "gd", "model": "gross-dissipative", "mesh": {"primitive": "plate", "size": [0.1, 0.06]},
   "mass": {"density": 700, "thickness": 0.001}},
  {"name": "gi", "model": "gross-inertial", "mesh": {"primitive": "plate", "size": [0.1, 0.06]},
   "mass": {"density": 700, "thickness": 0.001}}]})";

const samara::core::World& world() {
  static const auto w = std::make_unique<const samara::core::World>(
      samara::io::makeWorld(samara::io::parseScene(kScene, "fuzz.json", ""), "fuzz.json"));
  return *w;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const samara::core::World& w = world();
  try {
    const std::vector<samara::io::StateRow> rows = samara::io::parseStatesCsv(text, "fuzz.csv");
    for (std::size_t i = 0; i < rows.size() && i < 64; ++i) {
      const samara::io::StateRow& row = rows[i];
      samara::core::FluidWrenchQuery q;
      q.q = row.q;
      q.com = row.com;
      q.velocity = row.velocity;
      q.omega = row.omega;
      q.wind = row.wind;
      q.t = row.t;
      const int body = static_cast<int>(static_cast<unsigned char>(row.body[0])) % w.numBodies();
      (void)w.fluidWrench(body, q);
    }
  } catch (const samara::io::Error&) {
  }
  return 0;
}
