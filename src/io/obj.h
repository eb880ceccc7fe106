#pragma once
// Wavefront OBJ → geometry::TriMesh. Only `v` and `f` records are used: polygons are
// fan-triangulated, all objects and groups are merged into one mesh, and vertex indices
// stay as in the file. The mesh is validated (geometry::buildTopology) and closed parts are
// oriented outward; every error names the file and the OBJ line.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "geometry/tri_mesh.h"

namespace samara::io {

/// Reads and validates an OBJ file (coordinates in metres, body frame). Throws io::Error
/// naming `path` and the line for a missing or unreadable file, a file larger than
/// `maxBytes`, malformed records, non-finite coordinates, out-of-range indices, an empty
/// mesh, and any geometry::MeshError (degenerate face, non-manifold edge, inconsistent
/// orientation).
geometry::TriMesh loadObj(const std::string& path, std::uintmax_t maxBytes = 1ull << 30);

/// As loadObj, from the file's contents; `path` only names it in messages.
geometry::TriMesh parseObj(const std::string& text, const std::string& path);

/// OBJ whitespace: space and tab (as tinyobjloader).
inline bool isObjBlank(char c) { return c == ' ' || c == '\t'; }
/// The lines of `text` as tinyobjloader splits them ("\n", "\r\n" or "\r" end a line), as
/// views into `text`, without their line ends.
std::vector<std::string_view> objLines(const std::string& text);
/// The whitespace-separated tokens of an OBJ line (views into `s`).
std::vector<std::string_view> objTokens(std::string_view s);

}  // namespace samara::io
