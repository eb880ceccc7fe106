#include "io/obj.h"

#include <tiny_obj_loader.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string_view>
#include <vector>

#include "geometry/topology.h"
#include "io/error.h"
#include "io/json_util.h"

namespace samara::io {
namespace {

bool isBlank(char c) { return isObjBlank(c); }

/// Parses a whole token as a double (correctly rounded, locale independent). Returns false
/// if the token is not a number; sets *finite = false for nan, inf or overflow.
bool parseDouble(std::string_view token, double* value, bool* finite) {
  const char* first = token.data();
  const char* last = token.data() + token.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, *value);
  if (ec == std::errc::result_out_of_range) {
    *finite = false;
    return ptr == last;
  }
  if (ec != std::errc() || ptr != last) return false;
  *finite = std::isfinite(*value);
  return true;
}

std::string shown(std::string_view token) {
  std::string s(token.substr(0, 32));
  if (token.size() > 32) s += "...";
  return s;
}

/// Line number ("line N") mentioned in a tinyobjloader error, or 0.
int lineInMessage(const std::string& err) {
  const std::size_t at = err.find("line ");
  if (at == std::string::npos) return 0;
  long long v = 0;
  std::size_t i = at + 5;
  while (i < err.size() && err[i] >= '0' && err[i] <= '9' && v < 1000000000) {
    v = v * 10 + (err[i] - '0');
    ++i;
  }
  return static_cast<int>(v);
}

/// What pass 1 learns of the `v` and `f` records.
struct ObjRecords {
  std::vector<double> coords;    // 3 per vertex, read exactly
  std::vector<int> vertexLine;   // per vertex
  std::vector<int> faceLine;     // per polygon
  std::vector<int> faceCorners;  // per polygon
  std::string filtered;          // the text with every other record blanked out
};

/// Pass 1 (ours): record the lines of `v` and `f` records, read the coordinates exactly
/// (tinyobjloader's own number parser is not correctly rounded and silently reads "nan"
/// as 0) and count each face's vertices so a triangle maps back to its line. Every other
/// record is blanked out, keeping the line numbers, so tinyobjloader sees only v and f.
ObjRecords scanRecords(const std::string& text, const std::string& path) {
  const std::vector<std::string_view> lines = objLines(text);
  ObjRecords r;
  r.filtered.reserve(text.size());
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const int lineNo = static_cast<int>(k) + 1;
    std::string_view line = lines[k];
    // A line ends early at a NUL byte, as tinyobjloader reads it as a C string.
    const std::size_t nul = line.find('\0');
    if (nul != std::string_view::npos) line = line.substr(0, nul);
    std::size_t i = 0;
    while (i < line.size() && isBlank(line[i])) ++i;
    line.remove_prefix(i);
    const bool isVertex = line.size() >= 2 && line[0] == 'v' && isBlank(line[1]);
    const bool isFace = line.size() >= 2 && line[0] == 'f' && isBlank(line[1]);
    if (isVertex) {
      const std::vector<std::string_view> t = objTokens(line.substr(2));
      if (t.size() < 3) {
        throw Error::atLine(path, lineNo, "a vertex needs three coordinates (v x y z)");
      }
      for (int c = 0; c < 3; ++c) {
        double x = 0.0;
        bool finite = true;
        if (!parseDouble(t[static_cast<std::size_t>(c)], &x, &finite)) {
          throw Error::atLine(path, lineNo,
                              "vertex coordinate \"" + shown(t[static_cast<std::size_t>(c)]) +
                                  "\" is not a number");
        }
        if (!finite) {
          throw Error::atLine(path, lineNo,
                              "vertex coordinate \"" + shown(t[static_cast<std::size_t>(c)]) +
                                  "\" is not a finite number");
        }
        r.coords.push_back(x);
      }
      r.vertexLine.push_back(lineNo);
      r.filtered.append(line);
    } else if (isFace) {
      const std::size_t n = objTokens(line.substr(2)).size();
      if (n < 3) {
        throw Error::atLine(path, lineNo,
                            "a face needs at least three vertices (got " + std::to_string(n) + ")");
      }
      if (n > 255) {  // tinyobjloader stores the corner count in a byte
        throw Error::atLine(path, lineNo,
                            "a face has more than 255 vertices (" + std::to_string(n) + ")");
      }
      r.faceLine.push_back(lineNo);
      r.faceCorners.push_back(static_cast<int>(n));
      r.filtered.append(line);
    }
    r.filtered += '\n';
  }
  if (r.vertexLine.empty()) throw Error(path, "no vertices (v records)");
  if (r.faceLine.empty()) throw Error(path, "no faces (f records)");
  return r;
}

/// Pass 2: tinyobjloader parses the face records (index forms i, i/j, i//k, i/j/k and
/// negative relative indices).
std::vector<tinyobj::shape_t> parseFaces(const ObjRecords& r, const std::string& path) {
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn;
  std::string err;
  std::istringstream stream(r.filtered);
  const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &stream,
                                   /*readMatFn=*/nullptr, /*triangulate=*/false);
  if (!ok) {
    const int line = lineInMessage(err);
    if (err.find("`f'") != std::string::npos) {
      throw Error::atLine(path, line,
                          "malformed face: vertex indices must be non-zero integers "
                          "(f 1 2 3, f 1/1 2/2 3/3, f 1//1 2//2 3//3 or f 1/1/1 2/2/2 3/3/3)");
    }
    std::string first = err.substr(0, err.find('\n'));
    throw Error::atLine(path, line, "cannot parse: " + first);
  }
  if (attrib.vertices.size() != r.coords.size()) {
    throw Error(path, "cannot parse the vertices (tinyobjloader read " +
                          std::to_string(attrib.vertices.size() / 3) + ", samara read " +
                          std::to_string(r.vertexLine.size()) + ")");
  }
  return shapes;
}

/// The fan triangulation of every polygon, in file order.
struct Triangles {
  std::vector<int> corners;  // 3 per triangle
  std::vector<int> polygon;  // per triangle: its polygon
  bool linesKnown = true;    // polygons match pass 1's faces (faceLine gives their lines)
};

Triangles triangulate(const std::vector<tinyobj::shape_t>& shapes, const ObjRecords& r,
                      const std::string& path) {
  const int numVertices = static_cast<int>(r.vertexLine.size());
  Triangles out;
  std::size_t polygon = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    std::size_t offset = 0;
    for (const unsigned char corners : shape.mesh.num_face_vertices) {
      const int line = polygon < r.faceLine.size() ? r.faceLine[polygon] : 0;
      if (polygon >= r.faceCorners.size() || r.faceCorners[polygon] != corners) {
        out.linesKnown = false;
      }
      std::vector<int> idx(corners);
      for (std::size_t c = 0; c < corners; ++c) {
        const int vi = shape.mesh.indices[offset + c].vertex_index;
        if (vi < 0 || vi >= numVertices) {
          // Face numbers count from 0 after triangulation, as in every other message.
          throw Error::atLine(path, out.linesKnown ? line : 0,
                              "face " + std::to_string(out.corners.size() / 3) +
                                  " refers to a vertex that does not exist (the file has " +
                                  std::to_string(numVertices) + " vertices)");
        }
        idx[c] = vi;
      }
      for (std::size_t c = 1; c + 1 < corners; ++c) {
        out.corners.insert(out.corners.end(), {idx[0], idx[c], idx[c + 1]});
        out.polygon.push_back(static_cast<int>(polygon));
      }
      offset += corners;
      ++polygon;
    }
  }
  if (polygon != r.faceLine.size()) out.linesKnown = false;
  if (out.corners.empty()) throw Error(path, "no faces (f records)");
  return out;
}

}  // namespace

geometry::TriMesh parseObj(const std::string& text, const std::string& path) {
  const ObjRecords r = scanRecords(text, path);
  const Triangles tris = triangulate(parseFaces(r, path), r, path);

  const int numVertices = static_cast<int>(r.vertexLine.size());
  geometry::TriMesh mesh;
  mesh.V.resize(numVertices, 3);
  for (int v = 0; v < numVertices; ++v) {
    for (int c = 0; c < 3; ++c)
      mesh.V(v, c) = r.coords[3 * static_cast<std::size_t>(v) + static_cast<std::size_t>(c)];
  }
  const int numTriangles = static_cast<int>(tris.corners.size() / 3);
  mesh.F.resize(numTriangles, 3);
  for (int t = 0; t < numTriangles; ++t) {
    for (int c = 0; c < 3; ++c)
      mesh.F(t, c) = tris.corners[3 * static_cast<std::size_t>(t) + static_cast<std::size_t>(c)];
  }

  try {
    const geometry::Topology topo = geometry::buildTopology(mesh);
    geometry::orientClosedPartsOutward(&mesh, topo);
  } catch (const geometry::MeshError& e) {
    int line = 0;
    if (e.face() >= 0 && e.face() < numTriangles && tris.linesKnown) {
      line = r.faceLine[static_cast<std::size_t>(tris.polygon[static_cast<std::size_t>(e.face())])];
    } else if (e.vertex() >= 0 && e.vertex() < numVertices) {
      line = r.vertexLine[static_cast<std::size_t>(e.vertex())];
    }
    throw Error::atLine(path, line, e.what());
  }
  return mesh;
}

geometry::TriMesh loadObj(const std::string& path, std::uintmax_t maxBytes) {
  return parseObj(readFile(path, maxBytes), path);
}

std::vector<std::string_view> objLines(const std::string& text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  const std::size_t n = text.size();
  while (start < n) {
    std::size_t end = start;
    while (end < n && text[end] != '\n' && text[end] != '\r') ++end;
    lines.emplace_back(text.data() + start, end - start);
    if (end < n && text[end] == '\r' && end + 1 < n && text[end + 1] == '\n') ++end;
    start = end + 1;
  }
  return lines;
}

std::vector<std::string_view> objTokens(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && isObjBlank(s[i])) ++i;
    const std::size_t start = i;
    while (i < s.size() && !isObjBlank(s[i])) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

}  // namespace samara::io
