#pragma once
// Triangle mesh V (n×3 double) + F (m×3 int), per-face geometry aligned with F's rows.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "geometry/types.h"

namespace samara::geometry {

using VertexMatrix = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
using FaceMatrix = Eigen::Matrix<int, Eigen::Dynamic, 3, Eigen::RowMajor>;

/// A triangle mesh in body coordinates (metres). Faces are counter-clockwise seen from
/// outside for closed parts.
struct TriMesh {
  VertexMatrix V;  ///< vertex positions, n×3, metres
  FaceMatrix F;    ///< vertex indices per triangle, m×3

  int numVertices() const { return static_cast<int>(V.rows()); }
  int numFaces() const { return static_cast<int>(F.rows()); }
  Vec3 vertex(int i) const { return V.row(i).transpose(); }
};

/// Thrown by the setup-time validation of meshes (never on the step path).
/// `face` / `vertex` name the offending element (-1 when not applicable) so io/ can map
/// it back to a file line.
class MeshError : public std::runtime_error {
 public:
  MeshError(const std::string& what, int face = -1, int vertex = -1)
      : std::runtime_error(what), face_(face), vertex_(vertex) {}
  int face() const { return face_; }
  int vertex() const { return vertex_; }

 private:
  int face_;
  int vertex_;
};

/// Per-face geometry of one shape, aligned with F's rows.
struct FaceGeometry {
  std::vector<Vec3> centroid;  ///< face centroid, metres (body coordinates)
  std::vector<Vec3> normal;    ///< unit normal (right-hand rule on F's row order)
  std::vector<double> area;    ///< face area, m²
};

/// Computes centroids, unit normals and areas of every face. Degenerate faces get
/// area 0 and normal (0,0,0).
void computeFaceGeometry(const TriMesh& mesh, FaceGeometry* out);
/// The same for the faces f with dirty[f] ≠ 0 only: the others keep their entries (which
/// must be those of a shape where their vertices were bitwise the same). Sizes *out to
/// the mesh if needed (then every face is computed).
void computeFaceGeometry(const TriMesh& mesh, const std::vector<std::uint8_t>& dirty,
                         FaceGeometry* out);

/// Axis-aligned bounding box of the vertices.
void boundingBox(const TriMesh& mesh, Vec3* lo, Vec3* hi);

/// Appends `b` to `a` (vertex indices of b are shifted).
void appendMesh(TriMesh* a, const TriMesh& b);

}  // namespace samara::geometry
