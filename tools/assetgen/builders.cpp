#include "builders.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

namespace samara::assetgen {

geometry::TriMesh loft(const std::vector<Ring>& rings, const Vec3& poleStart, const Vec3& poleEnd,
                       int segments) {
  const int nr = static_cast<int>(rings.size());
  const int ns = segments;
  geometry::TriMesh m;
  m.V.resize(nr * ns + 2, 3);
  m.F.resize(2 * ns * nr, 3);
  const int p0 = nr * ns;
  const int p1 = p0 + 1;
  for (int i = 0; i < nr; ++i) {
    const Ring& r = rings[static_cast<size_t>(i)];
    for (int j = 0; j < ns; ++j) {
      // φ = 0 at the top (+y), φ = π/2 at +z.
      const double phi = 2.0 * std::numbers::pi * j / ns;
      const double c = std::cos(phi);
      const double s = std::sin(phi);
      m.V.row(i * ns + j) << r.x, r.y + (c >= 0.0 ? r.ryUp : r.ryDown) * c, r.z + r.rz * s;
    }
  }
  m.V.row(p0) = poleStart.transpose();
  m.V.row(p1) = poleEnd.transpose();
  // Along a ring the tangent t_φ, along the body t_x: t_φ × t_x points outward.
  int f = 0;
  for (int i = 0; i + 1 < nr; ++i) {
    for (int j = 0; j < ns; ++j) {
      const int a = i * ns + j;
      const int b = i * ns + (j + 1) % ns;
      const int c = (i + 1) * ns + (j + 1) % ns;
      const int d = (i + 1) * ns + j;
      m.F.row(f++) << a, b, d;
      m.F.row(f++) << b, c, d;
    }
  }
  for (int j = 0; j < ns; ++j) {
    const int jn = (j + 1) % ns;
    m.F.row(f++) << p0, jn, j;
    m.F.row(f++) << p1, (nr - 1) * ns + j, (nr - 1) * ns + jn;
  }
  return m;
}

std::vector<double> ringParameters(int n) {
  std::vector<double> s;
  for (int i = 1; i < n; ++i) s.push_back(0.5 * (1.0 - std::cos(std::numbers::pi * i / n)));
  return s;
}

geometry::TriMesh slab(const std::function<Vec3(double, double)>& mid,
                       const std::function<double(double, double)>& thickness, int nu, int nv) {
  const int cols = nu + 1;
  const int grid = cols * (nv + 1);
  geometry::TriMesh m;
  m.V.resize(2 * grid, 3);
  m.F.resize(4 * nu * nv + 4 * (nu + nv), 3);
  const double e = 1e-4;
  for (int j = 0; j <= nv; ++j) {
    for (int i = 0; i <= nu; ++i) {
      const double u = static_cast<double>(i) / nu;
      const double v = static_cast<double>(j) / nv;
      const double ua = std::max(0.0, u - e), ub = std::min(1.0, u + e);
      const double va = std::max(0.0, v - e), vb = std::min(1.0, v + e);
      const Vec3 pu = mid(ub, v) - mid(ua, v);
      const Vec3 pv = mid(u, vb) - mid(u, va);
      const Vec3 n = pu.cross(pv).normalized();
      const Vec3 p = mid(u, v);
      const double t = thickness(u, v);
      m.V.row(j * cols + i) = (p + 0.5 * t * n).transpose();
      m.V.row(grid + j * cols + i) = (p - 0.5 * t * n).transpose();
    }
  }
  int f = 0;
  for (int j = 0; j < nv; ++j) {
    for (int i = 0; i < nu; ++i) {
      const int a = j * cols + i;
      const int b = a + 1;
      const int c = a + cols;
      const int d = c + 1;
      // Top side (normal +n): (a, b, c) has normal ∂P/∂u × ∂P/∂v. Bottom side reversed.
      m.F.row(f++) << a, b, c;
      m.F.row(f++) << b, d, c;
      m.F.row(f++) << grid + a, grid + c, grid + b;
      m.F.row(f++) << grid + b, grid + c, grid + d;
    }
  }
  // The rim, counter-clockwise seen from +n: (0,0) → (1,0) → (1,1) → (0,1) → (0,0).
  std::vector<int> loop;
  for (int i = 0; i < nu; ++i) loop.push_back(i);
  for (int j = 0; j < nv; ++j) loop.push_back(j * cols + nu);
  for (int i = nu; i > 0; --i) loop.push_back(nv * cols + i);
  for (int j = nv; j > 0; --j) loop.push_back(j * cols);
  const int nl = static_cast<int>(loop.size());
  for (int k = 0; k < nl; ++k) {
    const int p = loop[static_cast<size_t>(k)];
    const int q = loop[static_cast<size_t>((k + 1) % nl)];
    m.F.row(f++) << p, grid + p, q;
    m.F.row(f++) << q, grid + p, grid + q;
  }
  return m;
}

geometry::TriMesh mirrorZ(const geometry::TriMesh& mesh) {
  geometry::TriMesh m = mesh;
  m.V.col(2) *= -1.0;
  m.F.col(1).swap(m.F.col(2));
  return m;
}

geometry::TriMesh rotated(const geometry::TriMesh& mesh, const Vec3& pivot, const Vec3& axis,
                          double angle) {
  const Mat3 R = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  geometry::TriMesh m = mesh;
  for (int i = 0; i < m.numVertices(); ++i) {
    m.V.row(i) = (R * (mesh.vertex(i) - pivot) + pivot).transpose();
  }
  return m;
}

int scaledCount(int base, double resolution, int lo) {
  return std::max(lo, static_cast<int>(std::lround(base * resolution)));
}

LoftCounts loftCounts(double resolution, int rings, int ringsLo, int halfSegments,
                      int halfSegmentsLo) {
  return {scaledCount(rings, resolution, ringsLo),
          2 * scaledCount(halfSegments, resolution, halfSegmentsLo)};
}

double smoothstep(double x) {
  x = std::clamp(x, 0.0, 1.0);
  return x * x * (3.0 - 2.0 * x);
}

geometry::TriMesh loftAlongX(double x0, double x1, double y, double z, int rings, int segments,
                             const std::function<void(double, Ring*)>& shape) {
  std::vector<Ring> section;
  for (double s : ringParameters(rings)) {
    Ring r;
    r.x = x0 + (x1 - x0) * s;
    r.y = y;
    r.z = z;
    shape(s, &r);
    section.push_back(r);
  }
  return loft(section, Vec3(x0, y, z), Vec3(x1, y, z), segments);
}

core::RigidPart hingedPart(const std::string& name, const Hinge& hinge, std::vector<int> vertices) {
  core::RigidPart p;
  p.name = name;
  p.vertices = std::move(vertices);
  p.pivot = hinge.pivot;
  p.axis = hinge.axis;
  return p;
}

core::ScalarTrack sampledTrack(double duration, int keys, const std::function<double(double)>& f,
                               bool loop, bool smooth) {
  core::ScalarTrack tr;
  tr.loop = loop;
  tr.smooth = smooth;
  for (int k = 0; k <= keys; ++k) {
    const double x = static_cast<double>(k) / keys;
    tr.times.push_back(duration * x);
    tr.values.push_back(f(x));
  }
  return tr;
}

}  // namespace samara::assetgen
