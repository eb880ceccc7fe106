// The World of a loaded scene: core's DefinitionError fields turned into the scene's JSON
// pointers, and the load-time checks (step size, starts inside the floor).
#include <string>
#include <vector>

#include "io/added_mass_cache.h"
#include "io/error.h"
#include "io/scene.h"

namespace samara::io {
namespace {

std::string camelToSnake(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c >= 'A' && c <= 'Z') {
      out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string definitionFieldToPointer(const std::string& field) {
  std::vector<std::string> tokens;
  std::size_t start = 1;
  while (start <= field.size() && !field.empty()) {
    const std::size_t end = std::min(field.find('/', start), field.size());
    tokens.push_back(camelToSnake(field.substr(start, end - start)));
    start = end + 1;
  }
  if (tokens.empty()) return field;
  if (tokens[0] == "dt" || tokens[0] == "duration") {
    tokens.insert(tokens.begin(), "sim");
  } else if (tokens[0] == "solver") {
    tokens[0] = "sim";
  }
  std::string out;
  for (const std::string& t : tokens) out += "/" + t;
  return out;
}

core::World makeWorld(core::WorldDef def, const std::string& scenePath) {
  resolveExactAddedMass(&def, scenePath);  // from the cache, or solved once and kept
  try {
    core::World world(std::move(def));
    core::checkStepSize(world);
    return world;
  } catch (const core::DefinitionError& e) {
    throw Error::atField(scenePath, definitionFieldToPointer(e.field()), e.what());
  } catch (const geometry::MeshError& e) {
    throw Error::atField(scenePath, "/bodies", e.what());
  }
}

}  // namespace samara::io
