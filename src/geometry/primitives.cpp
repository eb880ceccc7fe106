// Primitive meshes: closed ones are watertight (shared vertices) and outward oriented.
#include "geometry/primitives.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <string>
#include <unordered_map>
#include <vector>

namespace samara::geometry {

namespace {

constexpr int kMaxSubdivisions = 9;  // 20·4^9 ≈ 5.2 M faces

void requirePositive(double value, const char* what) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw MeshError(std::string(what) + " must be positive and finite, got " +
                    std::to_string(value));
  }
}

void requireAtLeast(int value, int least, const char* what) {
  if (value < least) {
    throw MeshError(std::string(what) + " must be at least " + std::to_string(least) + ", got " +
                    std::to_string(value));
  }
}

/// Unit icosphere: the icosahedron subdivided s times, new vertices projected to the sphere.
TriMesh makeUnitIcosphere(int subdivisions) {
  requireAtLeast(subdivisions, 0, "subdivisions");
  if (subdivisions > kMaxSubdivisions) {
    throw MeshError("subdivisions must be at most " + std::to_string(kMaxSubdivisions));
  }
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  const double base[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
                              {0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
                              {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  const int baseFaces[20][3] = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  // Final sizes: F = 20·4^s, E = 30·4^s, V = F/2 + 2.
  const std::int64_t finalFaces = 20LL << (2 * subdivisions);
  std::vector<Vec3> verts;
  verts.reserve(static_cast<std::size_t>(finalFaces / 2 + 2));
  for (const auto& p : base) verts.push_back(Vec3(p[0], p[1], p[2]).normalized());
  std::vector<int> faces(&baseFaces[0][0], &baseFaces[0][0] + 60);

  std::unordered_map<std::uint64_t, int> midpoint;  // lookup only, never iterated
  for (int s = 0; s < subdivisions; ++s) {
    midpoint.clear();
    midpoint.reserve(faces.size() / 2);
    auto mid = [&](int a, int b) {
      const std::uint64_t key = (static_cast<std::uint64_t>(std::min(a, b)) << 32) |
                                static_cast<std::uint64_t>(std::max(a, b));
      const auto [it, inserted] = midpoint.try_emplace(key, static_cast<int>(verts.size()));
      if (inserted) verts.push_back((verts[a] + verts[b]).normalized());
      return it->second;
    };
    std::vector<int> next;
    next.reserve(faces.size() * 4);
    for (std::size_t f = 0; f < faces.size(); f += 3) {
      const int a = faces[f];
      const int b = faces[f + 1];
      const int c = faces[f + 2];
      const int ab = mid(a, b);
      const int bc = mid(b, c);
      const int ca = mid(c, a);
      next.insert(next.end(), {a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca});
    }
    faces.swap(next);
  }

  TriMesh mesh;
  mesh.V.resize(static_cast<Eigen::Index>(verts.size()), 3);
  for (std::size_t i = 0; i < verts.size(); ++i) {
    mesh.V.row(static_cast<Eigen::Index>(i)) = verts[i].transpose();
  }
  mesh.F =
      Eigen::Map<const FaceMatrix>(faces.data(), static_cast<Eigen::Index>(faces.size() / 3), 3);
  return mesh;
}

/// Coordinate of grid node i of n along an edge of length `size` centred on 0; the end
/// nodes are exactly ±size/2.
double gridCoord(double size, int i, int n) {
  return size * (static_cast<double>(i) / static_cast<double>(n) - 0.5);
}

}  // namespace

TriMesh makeSphere(double radius, int subdivisions) {
  requirePositive(radius, "sphere radius");
  TriMesh mesh = makeUnitIcosphere(subdivisions);
  mesh.V *= radius;
  return mesh;
}

TriMesh makeGeodesicSphere(double radius, int frequency) {
  requirePositive(radius, "sphere radius");
  requireAtLeast(frequency, 1, "geodesic frequency");
  if (frequency > 1000) throw MeshError("geodesic frequency must be at most 1000");
  const TriMesh ico = makeUnitIcosphere(0);
  const int nu = frequency;
  std::vector<Vec3> verts;
  std::vector<int> faces;
  // A grid point is (base vertex, weight) pairs with nonzero integer weights summing to ν,
  // sorted by vertex: shared by the faces that share its base edge or corner.
  std::map<std::array<int, 6>, int> index;
  for (int f = 0; f < ico.numFaces(); ++f) {
    const int v[3] = {ico.F(f, 0), ico.F(f, 1), ico.F(f, 2)};
    auto point = [&](int i, int j) {
      const int w[3] = {nu - i - j, i, j};
      std::array<std::pair<int, int>, 3> pw{{{v[0], w[0]}, {v[1], w[1]}, {v[2], w[2]}}};
      std::sort(pw.begin(), pw.end());
      std::array<int, 6> key{};
      int k = 0;
      for (const auto& [vi, wi] : pw) {
        if (wi == 0) continue;
        key[2 * k] = vi + 1;
        key[2 * k + 1] = wi;
        ++k;
      }
      const auto [it, inserted] = index.try_emplace(key, static_cast<int>(verts.size()));
      if (inserted) {
        const Vec3 p =
            (w[0] * ico.vertex(v[0]) + w[1] * ico.vertex(v[1]) + w[2] * ico.vertex(v[2]));
        verts.push_back(radius * p.normalized());
      }
      return it->second;
    };
    for (int i = 0; i < nu; ++i) {
      for (int j = 0; i + j < nu; ++j) {
        faces.insert(faces.end(), {point(i, j), point(i + 1, j), point(i, j + 1)});
        if (i + j < nu - 1) {
          faces.insert(faces.end(), {point(i + 1, j), point(i + 1, j + 1), point(i, j + 1)});
        }
      }
    }
  }
  TriMesh mesh;
  mesh.V.resize(static_cast<Eigen::Index>(verts.size()), 3);
  for (std::size_t i = 0; i < verts.size(); ++i) {
    mesh.V.row(static_cast<Eigen::Index>(i)) = verts[i].transpose();
  }
  mesh.F.resize(static_cast<Eigen::Index>(faces.size() / 3), 3);
  for (std::size_t i = 0; i < faces.size(); ++i) {
    mesh.F(static_cast<Eigen::Index>(i / 3), static_cast<Eigen::Index>(i % 3)) = faces[i];
  }
  return mesh;
}

TriMesh makeEllipsoid(const Vec3& radii, int subdivisions) {
  requirePositive(radii.x(), "ellipsoid radius x");
  requirePositive(radii.y(), "ellipsoid radius y");
  requirePositive(radii.z(), "ellipsoid radius z");
  TriMesh mesh = makeUnitIcosphere(subdivisions);
  mesh.V = mesh.V * radii.asDiagonal();
  return mesh;
}

TriMesh makeBox(const Vec3& size, int cells) {
  requirePositive(size.x(), "box size x");
  requirePositive(size.y(), "box size y");
  requirePositive(size.z(), "box size z");
  requireAtLeast(cells, 1, "box cells");
  const int n = cells;
  const int n1 = n + 1;
  // Surface nodes of the (n+1)³ lattice are created on first use and shared by the faces.
  // Their ids are kept per side of the cube ((n+1)² each, not the whole lattice's (n+1)³):
  // a node on an edge or a corner is on several sides and has one id in all of them.
  std::vector<int> sideIds(static_cast<std::size_t>(6) * n1 * n1, -1);
  TriMesh mesh;
  const Eigen::Index n2 = static_cast<Eigen::Index>(n) * n;
  mesh.V.resize(6 * n2 + 2, 3);  // V − E + F = 2 with F = 12n², E = 18n²
  mesh.F.resize(12 * n2, 3);
  int nv = 0;
  int nf = 0;
  int ijk[3];
  auto vertexAt = [&]() {
    int* slots[3];  // the node's id on each side it lies on
    int numSlots = 0;
    int id = -1;
    for (int d = 0; d < 3; ++d) {
      if (ijk[d] != 0 && ijk[d] != n) continue;
      const int a = d == 0 ? 1 : 0;  // the side's own axes, ascending
      const int b = d == 2 ? 1 : 2;
      const std::size_t side = 2 * static_cast<std::size_t>(d) + (ijk[d] == n ? 1 : 0);
      int& slot = sideIds[(side * n1 + ijk[a]) * n1 + ijk[b]];
      if (slot >= 0) id = slot;
      slots[numSlots++] = &slot;
    }
    if (id < 0) {
      id = nv++;
      for (int d = 0; d < 3; ++d) mesh.V(id, d) = gridCoord(size[d], ijk[d], n);
    }
    for (int k = 0; k < numSlots; ++k) *slots[k] = id;
    return id;
  };
  for (int d = 0; d < 3; ++d) {
    for (int side = 0; side < 2; ++side) {
      // Tangent axes (u, v) with e_u × e_v = outward normal (±e_d).
      const int u = side == 1 ? (d + 1) % 3 : (d + 2) % 3;
      const int v = side == 1 ? (d + 2) % 3 : (d + 1) % 3;
      ijk[d] = side * n;
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          int q[4];
          const int corner[4][2] = {{i, j}, {i + 1, j}, {i + 1, j + 1}, {i, j + 1}};
          for (int k = 0; k < 4; ++k) {
            ijk[u] = corner[k][0];
            ijk[v] = corner[k][1];
            q[k] = vertexAt();
          }
          mesh.F.row(nf++) << q[0], q[1], q[2];
          mesh.F.row(nf++) << q[0], q[2], q[3];
        }
      }
    }
  }
  return mesh;
}

TriMesh makeCylinder(double radius, double length, int segments, int rings) {
  requirePositive(radius, "cylinder radius");
  requirePositive(length, "cylinder length");
  requireAtLeast(segments, 3, "cylinder segments");
  requireAtLeast(rings, 1, "cylinder rings");
  const int n = segments;
  TriMesh mesh;
  mesh.V.resize(static_cast<Eigen::Index>(rings + 1) * n + 2, 3);
  mesh.F.resize(static_cast<Eigen::Index>(rings + 1) * 2 * n, 3);
  auto ring = [n](int i, int j) { return j * n + i % n; };
  for (int j = 0; j <= rings; ++j) {
    const double y = gridCoord(length, j, rings);
    for (int i = 0; i < n; ++i) {
      const double theta = 2.0 * std::numbers::pi * i / n;
      mesh.V.row(ring(i, j)) << radius * std::cos(theta), y, radius * std::sin(theta);
    }
  }
  const int bottom = (rings + 1) * n;
  const int top = bottom + 1;
  mesh.V.row(bottom) << 0.0, -0.5 * length, 0.0;
  mesh.V.row(top) << 0.0, 0.5 * length, 0.0;
  int nf = 0;
  for (int j = 0; j < rings; ++j) {
    for (int i = 0; i < n; ++i) {
      // Side quad: e_y × e_θ points radially outward at θ = 0 (e_θ = +z there).
      mesh.F.row(nf++) << ring(i, j), ring(i, j + 1), ring(i + 1, j + 1);
      mesh.F.row(nf++) << ring(i, j), ring(i + 1, j + 1), ring(i + 1, j);
    }
  }
  for (int i = 0; i < n; ++i) {
    mesh.F.row(nf++) << bottom, ring(i, 0), ring(i + 1, 0);       // normal −y
    mesh.F.row(nf++) << top, ring(i + 1, rings), ring(i, rings);  // normal +y
  }
  return mesh;
}

TriMesh makeDisk(double radius, double thickness, int segments) {
  return makeCylinder(radius, thickness, segments, 1);
}

TriMesh makePlate(double sizeX, double sizeZ, int cellsX, int cellsZ) {
  requirePositive(sizeX, "plate size x");
  requirePositive(sizeZ, "plate size z");
  requireAtLeast(cellsX, 1, "plate cells x");
  requireAtLeast(cellsZ, 1, "plate cells z");
  const int m = cellsX;
  const int n = cellsZ;
  TriMesh mesh;
  mesh.V.resize(static_cast<Eigen::Index>(m + 1) * (n + 1), 3);
  mesh.F.resize(static_cast<Eigen::Index>(m) * n * 2, 3);
  auto id = [n](int i, int j) { return i * (n + 1) + j; };
  for (int i = 0; i <= m; ++i) {
    for (int j = 0; j <= n; ++j) {
      mesh.V.row(id(i, j)) << gridCoord(sizeX, i, m), 0.0, gridCoord(sizeZ, j, n);
    }
  }
  int nf = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      // e_z × e_x = +e_y.
      mesh.F.row(nf++) << id(i, j), id(i, j + 1), id(i + 1, j + 1);
      mesh.F.row(nf++) << id(i, j), id(i + 1, j + 1), id(i + 1, j);
    }
  }
  return mesh;
}

}  // namespace samara::geometry
