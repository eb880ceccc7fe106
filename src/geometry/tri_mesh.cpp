// Per-face geometry, bounding box and mesh concatenation.
#include "geometry/tri_mesh.h"

#include <cassert>

namespace samara::geometry {

namespace {

void faceGeometry(const TriMesh& mesh, int i, FaceGeometry* out) {
  const Vec3 a = mesh.vertex(mesh.F(i, 0));
  const Vec3 b = mesh.vertex(mesh.F(i, 1));
  const Vec3 c = mesh.vertex(mesh.F(i, 2));
  const Vec3 cross = (b - a).cross(c - a);
  const double len = cross.norm();
  out->centroid[i] = (a + b + c) / 3.0;
  out->area[i] = 0.5 * len;
  out->normal[i] = len > 0.0 ? Vec3(cross / len) : Vec3::Zero();
}

}  // namespace

void computeFaceGeometry(const TriMesh& mesh, FaceGeometry* out) {
  assert(out != nullptr);
  const int m = mesh.numFaces();
  out->centroid.resize(m);
  out->normal.resize(m);
  out->area.resize(m);
  for (int i = 0; i < m; ++i) faceGeometry(mesh, i, out);
}

void computeFaceGeometry(const TriMesh& mesh, const std::vector<std::uint8_t>& dirty,
                         FaceGeometry* out) {
  assert(out != nullptr && dirty.size() == static_cast<std::size_t>(mesh.numFaces()));
  const int m = mesh.numFaces();
  if (out->area.size() != static_cast<std::size_t>(m)) {
    computeFaceGeometry(mesh, out);
    return;
  }
  for (int i = 0; i < m; ++i) {
    if (dirty[static_cast<std::size_t>(i)] != 0) faceGeometry(mesh, i, out);
  }
}

void boundingBox(const TriMesh& mesh, Vec3* lo, Vec3* hi) {
  assert(lo != nullptr && hi != nullptr);
  if (mesh.numVertices() == 0) {
    lo->setZero();
    hi->setZero();
    return;
  }
  *lo = mesh.V.colwise().minCoeff().transpose();
  *hi = mesh.V.colwise().maxCoeff().transpose();
}

void appendMesh(TriMesh* a, const TriMesh& b) {
  assert(a != nullptr);
  const int nv = a->numVertices();
  const int nf = a->numFaces();
  a->V.conservativeResize(nv + b.numVertices(), Eigen::NoChange);
  a->V.bottomRows(b.numVertices()) = b.V;
  a->F.conservativeResize(nf + b.numFaces(), Eigen::NoChange);
  a->F.bottomRows(b.numFaces()) = b.F.array() + nv;
}

}  // namespace samara::geometry
