#pragma once
// Shared by the animation readers (io/animation_io.cpp: sequence, glTF, wave;
// io/animation_parts.cpp: rigid parts). Internal to io/.
#include <initializer_list>
#include <string>

#include "io/animation_io.h"
#include "io/error.h"

namespace samara::io::detail {

constexpr double kPi = 3.14159265358979323846;

/// Runs `fn`; an io::Error about another file (an OBJ frame, a glTF file) gets a note
/// naming the scene field that uses it.
template <typename Fn>
auto usedBy(const Node& where, const std::string& extra, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Error& e) {
    if (e.path() == where.file()) throw;
    throw e.withNote(" (" + extra + (extra.empty() ? "" : "; ") + "used by " + where.file() + ": " +
                     where.pointer() + ")");
  }
}

/// Checks that `rel` names an existing regular file; returns the resolved path.
std::string existingFile(const Node& where, const std::string& rel, const std::string& baseDir,
                         const std::string& what);

/// The vector at `n`, normalised (it must not be zero).
Vec3 unitVector(const Node& n);

/// The body's mesh, which an animation of type `type` needs.
const geometry::TriMesh& requireMesh(const Node& a, const AnimationContext& ctx, const char* type);

/// The keys of `names` separated by ", " ("none" when there are none).
template <typename Map>
std::string keyList(const Map& names) {
  std::string known;
  for (const auto& [name, value] : names) known += (known.empty() ? "" : ", ") + name;
  return known.empty() ? "none" : known;
}

/// A "parts" animation (io/animation_parts.cpp).
LoadedAnimation readParts(const Node& a, const AnimationContext& ctx);

}  // namespace samara::io::detail
