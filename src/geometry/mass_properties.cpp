// Exact mass moments. Each sum is taken about a reference vertex of the part and shifted
// to the body origin at the end, which limits cancellation for meshes far from the origin.
#include "geometry/mass_properties.h"

#include <algorithm>
#include <cassert>

namespace samara::geometry {

namespace {

/// Moments {m, ∫y, ∫y yᵀ} about r, re-expressed about the origin (x = r + y).
MassMoments shiftFrom(const Vec3& r, double mass, const Vec3& first, const Mat3& second) {
  MassMoments out;
  out.mass = mass;
  out.first = mass * r + first;
  out.second = mass * r * r.transpose() + r * first.transpose() + first * r.transpose() + second;
  return out;
}

/// Σ v vᵀ over the three vertices plus s sᵀ with s = a + b + c.
Mat3 vertexOuterSum(const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 s = a + b + c;
  return a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose();
}

Vec3 referencePoint(const TriMesh& mesh, const Part& part) {
  return mesh.vertex(mesh.F(part.faces.front(), 0));
}

}  // namespace

double partVolume(const TriMesh& mesh, const Part& part) {
  if (part.faces.empty()) return 0.0;
  const Vec3 r = referencePoint(mesh, part);
  double sixVolume = 0.0;
  for (int f : part.faces) {
    const Vec3 a = mesh.vertex(mesh.F(f, 0)) - r;
    const Vec3 b = mesh.vertex(mesh.F(f, 1)) - r;
    const Vec3 c = mesh.vertex(mesh.F(f, 2)) - r;
    sixVolume += a.dot(b.cross(c));
  }
  return sixVolume / 6.0;
}

double partArea(const TriMesh& mesh, const Part& part) {
  double twiceArea = 0.0;
  for (int f : part.faces) {
    const Vec3 a = mesh.vertex(mesh.F(f, 0));
    twiceArea += (mesh.vertex(mesh.F(f, 1)) - a).cross(mesh.vertex(mesh.F(f, 2)) - a).norm();
  }
  return 0.5 * twiceArea;
}

MassMoments solidMoments(const TriMesh& mesh, const Part& part, double density, bool withSecond) {
  if (part.faces.empty()) return {};
  // Tetrahedron (r, a, b, c), D = a·(b×c) about r: V = D/6, ∫y = D/24 (a+b+c),
  // ∫y yᵀ = D/120 (Σ v vᵀ + s sᵀ).
  const Vec3 r = referencePoint(mesh, part);
  double d = 0.0;
  Vec3 d1 = Vec3::Zero();
  Mat3 d2 = Mat3::Zero();
  for (int f : part.faces) {
    const Vec3 a = mesh.vertex(mesh.F(f, 0)) - r;
    const Vec3 b = mesh.vertex(mesh.F(f, 1)) - r;
    const Vec3 c = mesh.vertex(mesh.F(f, 2)) - r;
    const double det = a.dot(b.cross(c));
    d += det;
    d1 += det * (a + b + c);
    if (withSecond) d2 += det * vertexOuterSum(a, b, c);
  }
  MassMoments m = shiftFrom(r, density * d / 6.0, (density / 24.0) * d1, (density / 120.0) * d2);
  if (!withSecond) m.second.setZero();
  return m;
}

MassMoments sheetMoments(const TriMesh& mesh, const Part& part, double arealDensity,
                         bool withSecond) {
  if (part.faces.empty()) return {};
  // Triangle of area A: ∫y dA = A/3 (a+b+c), ∫y yᵀ dA = A/12 (Σ v vᵀ + s sᵀ).
  const Vec3 r = referencePoint(mesh, part);
  double area = 0.0;
  Vec3 a1 = Vec3::Zero();
  Mat3 a2 = Mat3::Zero();
  for (int f : part.faces) {
    const Vec3 a = mesh.vertex(mesh.F(f, 0)) - r;
    const Vec3 b = mesh.vertex(mesh.F(f, 1)) - r;
    const Vec3 c = mesh.vertex(mesh.F(f, 2)) - r;
    const double faceArea = 0.5 * (b - a).cross(c - a).norm();
    area += faceArea;
    a1 += faceArea * (a + b + c);
    if (withSecond) a2 += faceArea * vertexOuterSum(a, b, c);
  }
  MassMoments m =
      shiftFrom(r, arealDensity * area, (arealDensity / 3.0) * a1, (arealDensity / 12.0) * a2);
  if (!withSecond) m.second.setZero();
  return m;
}

MassMoments pointMoments(const Vec3& p, double mass) {
  return {mass, mass * p, mass * p * p.transpose()};
}

MassMoments lumpedMoments(const TriMesh& mesh, const std::vector<double>& vertexMass) {
  return lumpedMoments(mesh, vertexMass, nullptr, 0);
}

MassMoments lumpedMoments(const TriMesh& mesh, const std::vector<double>& vertexMass,
                          LumpedMomentsCache* cache, std::size_t firstMoved) {
  assert(static_cast<int>(vertexMass.size()) == mesh.numVertices());
  // Written out (the same operations and order as m x xᵀ = (m x) xᵀ; 13 running sums the
  // compiler keeps in registers): this runs every step of an animated body.
  constexpr std::size_t kBlock = LumpedMomentsCache::kBlock;
  const auto n = static_cast<std::size_t>(mesh.numVertices());
  const double* V = mesh.V.data();  // row-major n × 3
  // acc: mass, first moment (3), second moment column-major like Mat3 (9).
  std::array<double, 13> acc{};
  std::size_t begin = 0;
  if (cache != nullptr) {
    const std::size_t blocks = (n + kBlock - 1) / kBlock;
    if (cache->before.size() != blocks) {
      cache->before.assign(blocks, std::array<double, 13>{});
      firstMoved = 0;
    }
    if (blocks > 0) {  // resume before the first vertex that moved (the last block if none)
      const std::size_t b = std::min(std::min(firstMoved, n) / kBlock, blocks - 1);
      acc = cache->before[b];
      begin = b * kBlock;
    }
  }
  double mass = acc[0];
  double f[3] = {acc[1], acc[2], acc[3]};
  double s[9];
  for (int k = 0; k < 9; ++k) s[k] = acc[4 + static_cast<std::size_t>(k)];
  for (std::size_t i0 = begin; i0 < n; i0 += kBlock) {
    if (cache != nullptr) {  // the sums before this block
      std::array<double, 13>& c = cache->before[i0 / kBlock];
      c[0] = mass;
      for (int r = 0; r < 3; ++r) c[1 + static_cast<std::size_t>(r)] = f[r];
      for (int k = 0; k < 9; ++k) c[4 + static_cast<std::size_t>(k)] = s[k];
    }
    const std::size_t i1 = std::min(n, i0 + kBlock);
    for (std::size_t i = i0; i < i1; ++i) {
      const double m = vertexMass[i];
      const double x[3] = {V[3 * i], V[3 * i + 1], V[3 * i + 2]};
      const double mx[3] = {m * x[0], m * x[1], m * x[2]};
      mass += m;
      for (int r = 0; r < 3; ++r) f[r] += mx[r];
      for (int c = 0; c < 3; ++c) {
        for (int r = 0; r < 3; ++r) s[3 * c + r] += mx[r] * x[c];
      }
    }
  }
  MassMoments out;
  out.mass = mass;
  out.first = Vec3(f[0], f[1], f[2]);
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) out.second(r, c) = s[3 * c + r];
  }
  return out;
}

std::vector<double> lumpVertexMasses(const TriMesh& mesh, double total) {
  const int n = mesh.numVertices();
  std::vector<double> w(n, 0.0);
  double sum = 0.0;
  const int m = mesh.numFaces();
  for (int f = 0; f < m; ++f) {
    const Vec3 a = mesh.vertex(mesh.F(f, 0));
    const double third =
        (mesh.vertex(mesh.F(f, 1)) - a).cross(mesh.vertex(mesh.F(f, 2)) - a).norm() / 6.0;
    for (int k = 0; k < 3; ++k) w[mesh.F(f, k)] += third;
    sum += 3.0 * third;
  }
  if (!(sum > 0.0)) {
    // No area at all: share equally so the total is still right.
    for (double& x : w) x = n > 0 ? total / n : 0.0;
    return w;
  }
  const double scale = total / sum;
  for (double& x : w) x *= scale;
  return w;
}

}  // namespace samara::geometry
