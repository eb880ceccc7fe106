#pragma once
// Wavefront OBJ → geometry::TriMesh. Only `v` and `f` records are used: polygons are
// fan-triangulated, all objects and groups are merged into one mesh, and vertex indices
// stay as in the file (face corners are read by tinyobjloader's rules: i, i/j, i//k, i/j/k,
// negative = relative). The mesh is validated (geometry::buildTopology) and closed parts are
// oriented outward; every error names the file and the OBJ line. A file is read in blocks
// twice (count, then fill V and F at their exact sizes) and never held whole: the peak
// memory is V, F and the topology check.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "geometry/tri_mesh.h"

namespace samara::io {

/// Triangles an OBJ may give when the caller sets no lower limit (F's rows are int).
inline constexpr std::int64_t kObjMaxFaces = 2'000'000'000;

/// Called with the numbers of vertices and triangles an OBJ file will give, once they are
/// counted and before anything is allocated; throws to refuse the file (a scene's limits).
using ObjCountCheck = std::function<void(std::int64_t vertices, std::int64_t faces)>;

/// Reads and validates an OBJ file (coordinates in metres, body frame). Throws io::Error
/// naming `path` and the line for a missing or unreadable file, a file larger than
/// `maxBytes`, malformed records, non-finite coordinates, out-of-range indices, an empty
/// mesh, more than `maxFaces` triangles (checked before anything is allocated), and any
/// geometry::MeshError (degenerate face, non-manifold edge, inconsistent orientation).
/// `check` (if set) sees the counts first and may throw instead.
geometry::TriMesh loadObj(const std::string& path, std::uintmax_t maxBytes = 1ull << 30,
                          std::int64_t maxFaces = kObjMaxFaces, const ObjCountCheck& check = {});

/// As loadObj, from the file's contents; `path` only names it in messages.
geometry::TriMesh parseObj(const std::string& text, const std::string& path,
                           std::int64_t maxFaces = kObjMaxFaces, const ObjCountCheck& check = {});

/// OBJ whitespace: space and tab (as tinyobjloader).
inline bool isObjBlank(char c) { return c == ' ' || c == '\t'; }
/// The lines of `text` as tinyobjloader splits them ("\n", "\r\n" or "\r" end a line), as
/// views into `text`, without their line ends.
std::vector<std::string_view> objLines(const std::string& text);
/// The whitespace-separated tokens of an OBJ line (views into `s`).
std::vector<std::string_view> objTokens(std::string_view s);

}  // namespace samara::io
