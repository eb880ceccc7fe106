#pragma once
// Vertex groups of a Wavefront OBJ file by `g` / `o` name, for rigid-part animations
// (flippers, propellers, rudders exported as named groups or objects). The mesh itself is
// read by io/obj.h; vertex indices here are the same (0-based, in file order).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace samara::io {

/// Group or object name → sorted, unique 0-based indices of the vertices used by the faces
/// that follow a `g` or `o` record with that name. `g a b` puts the following faces in both
/// `a` and `b`; `o x` starts object `x` and ends the current groups; faces before any `g`
/// or `o` record belong to no group. A name used both by `g` and `o` gets the union.
using MeshGroups = std::map<std::string, std::vector<int>>;

/// Scans OBJ text for groups. Face vertices may be written `i`, `i/j`, `i//k` or `i/j/k`,
/// with negative indices relative to the vertices read so far. Throws io::Error naming
/// `path` and the line for a malformed or out-of-range face index.
MeshGroups scanObjGroups(const std::string& text, const std::string& path);

/// As scanObjGroups, reading the file (at most `maxBytes`).
MeshGroups loadObjGroups(const std::string& path, std::uintmax_t maxBytes = 1ull << 30);

}  // namespace samara::io
