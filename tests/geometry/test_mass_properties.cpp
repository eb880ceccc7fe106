// Mass moments against closed-form solids, sheets and point masses.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <vector>

#include "geometry/mass_properties.h"
#include "geometry/primitives.h"
#include "geometry/topology.h"

using namespace samara;
using namespace samara::geometry;
using std::numbers::pi;

namespace {

/// Relative difference of two matrices in the max norm, scaled by the larger.
double relDiff(const Mat3& a, const Mat3& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(a.cwiseAbs().maxCoeff(), b.cwiseAbs().maxCoeff());
}

Part wholePart(const TriMesh& mesh) {
  const Topology topo = buildTopology(mesh);
  REQUIRE(topo.parts.size() == 1);
  return topo.parts[0];
}

Mat3 rotation() { return Eigen::AngleAxisd(0.7, Vec3(1, 2, -0.5).normalized()).toRotationMatrix(); }

/// Inertia about the centre of mass, kg·m².
Mat3 inertiaAboutCom(const MassMoments& mm) {
  const Vec3 c = mm.com();
  const Mat3 s = mm.second - mm.mass * c * c.transpose();
  return s.trace() * Mat3::Identity() - s;
}

}  // namespace

TEST_CASE("solid box: mass, centre and inertia exact", "[geometry]") {
  const double a = 0.3;
  const double b = 1.7;
  const double c = 0.9;
  const double rho = 780.0;
  for (int cells : {1, 3}) {
    const TriMesh mesh = makeBox(Vec3(a, b, c), cells);
    const MassMoments mm = solidMoments(mesh, wholePart(mesh), rho);
    const double m = rho * a * b * c;
    CHECK(mm.mass == Approx(m).epsilon(1e-13));
    CHECK(mm.first.norm() < 1e-14 * m);
    const Mat3 expected =
        Vec3(m * (b * b + c * c) / 12, m * (a * a + c * c) / 12, m * (a * a + b * b) / 12)
            .asDiagonal();
    CHECK(relDiff(mm.inertiaAboutOrigin(), expected) < 1e-12);
  }
}

TEST_CASE("offset and rotated box: centre of mass and parallel-axis theorem", "[geometry]") {
  const double a = 0.5;
  const double b = 0.2;
  const double c = 1.1;
  const double rho = 1000.0;
  const double m = rho * a * b * c;
  const Vec3 p(3.0, -1.5, 0.25);
  const Mat3 q = rotation();
  TriMesh mesh = makeBox(Vec3(a, b, c), 2);
  for (int i = 0; i < mesh.numVertices(); ++i) mesh.V.row(i) = (q * mesh.vertex(i) + p).transpose();
  const MassMoments mm = solidMoments(mesh, wholePart(mesh), rho);
  CHECK(mm.mass == Approx(m).epsilon(1e-12));
  CHECK((mm.com() - p).norm() < 1e-13);
  const Mat3 iCom =
      q * Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal() * q.transpose() * (m / 12);
  const Mat3 iOrigin = iCom + m * (p.squaredNorm() * Mat3::Identity() - p * p.transpose());
  CHECK(relDiff(mm.inertiaAboutOrigin(), iOrigin) < 1e-12);
  CHECK(relDiff(inertiaAboutCom(mm), iCom) < 1e-11);
}

TEST_CASE("tetrahedron far from the origin against direct integration", "[geometry]") {
  // Unit right tetrahedron: V = 1/6, ∫y = (1,1,1)/24, ∫y_i² = 1/60, ∫y_i y_j = 1/120;
  // placed at x = p + Q y with density ρ.
  const Vec3 p(10.0, -4.0, 7.0);
  const Mat3 q = rotation();
  const double rho = 2.5;
  TriMesh mesh;
  mesh.V.resize(4, 3);
  mesh.V.row(0) = p.transpose();
  for (int i = 0; i < 3; ++i) mesh.V.row(i + 1) = (p + q.col(i)).transpose();
  mesh.F.resize(4, 3);
  mesh.F << 0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3;
  const double vol = 1.0 / 6.0;
  const Vec3 fy = q * Vec3::Constant(1.0 / 24.0);
  Mat3 sy = Mat3::Constant(1.0 / 120.0);
  sy.diagonal().setConstant(1.0 / 60.0);
  const Mat3 s =
      vol * p * p.transpose() + p * fy.transpose() + fy * p.transpose() + q * sy * q.transpose();
  const MassMoments mm = solidMoments(mesh, wholePart(mesh), rho);
  CHECK(partVolume(mesh, wholePart(mesh)) == Approx(vol).epsilon(1e-12));
  CHECK(mm.mass == Approx(rho * vol).epsilon(1e-12));
  CHECK((mm.first - rho * (vol * p + fy)).norm() < 1e-12 * mm.first.norm());
  CHECK(relDiff(mm.second, rho * s) < 1e-12);
  CHECK(mm.com().isApprox(p + q * Vec3::Constant(0.25), 1e-13));
}

TEST_CASE("regular icosahedron: exact polyhedral volume and inertia", "[geometry]") {
  // Circumradius R, edge a = 4R / sqrt(10 + 2 sqrt 5): V = 5/12 (3 + sqrt 5) a³ and
  // I = m φ² a² / 10 on every axis.
  const double r = 1.3;
  const double rho = 7.0;
  const double edge = 4 * r / std::sqrt(10 + 2 * std::sqrt(5.0));
  const double phi = (1 + std::sqrt(5.0)) / 2;
  const TriMesh mesh = makeSphere(r, 0);
  const double vol = 5.0 / 12.0 * (3 + std::sqrt(5.0)) * edge * edge * edge;
  const MassMoments mm = solidMoments(mesh, wholePart(mesh), rho);
  CHECK(mm.mass == Approx(rho * vol).epsilon(1e-13));
  CHECK(relDiff(mm.inertiaAboutOrigin(),
                (mm.mass * phi * phi * edge * edge / 10) * Mat3::Identity()) < 1e-13);
}

TEST_CASE("solid icosphere inertia converges to 2/5 m r^2", "[geometry]") {
  // I/(m r²) − 2/5, measured relative: −8.6e-2, −2.3e-2, −5.7e-3, −1.4e-3, −3.6e-4 for
  // s = 1..5. The polyhedron's tensor is isotropic to round-off at every level.
  const double r = 0.4;
  const double rho = 300.0;
  double prevErr = 0.0;
  for (int s = 1; s <= 5; ++s) {
    const TriMesh mesh = makeSphere(r, s);
    const MassMoments mm = solidMoments(mesh, wholePart(mesh), rho);
    const Mat3 inertia = mm.inertiaAboutOrigin();
    const double iAxis = inertia(0, 0);
    CHECK(relDiff(inertia, iAxis * Mat3::Identity()) < 1e-13);
    INFO("com " << mm.com().norm() / r);
    CHECK(mm.com().norm() < 1e-13 * r);  // round-off over 20k faces: 1.1e-14 r at s = 5
    const double err = std::abs(iAxis / (0.4 * mm.mass * r * r) - 1);
    INFO("s = " << s << " err " << err);
    if (s >= 2) CHECK(prevErr / err == Approx(4.0).margin(0.25));
    prevErr = err;
  }
  CHECK(prevErr < 4e-4);
}

TEST_CASE("solid ellipsoid inertia converges to m(b^2+c^2)/5", "[geometry]") {
  const Vec3 ax(0.2, 0.5, 0.9);
  const TriMesh mesh = makeEllipsoid(ax, 5);
  const MassMoments mm = solidMoments(mesh, wholePart(mesh), 1.0);
  const Mat3 expected = Vec3(ax.y() * ax.y() + ax.z() * ax.z(), ax.x() * ax.x() + ax.z() * ax.z(),
                             ax.x() * ax.x() + ax.y() * ax.y())
                            .asDiagonal() *
                        (mm.mass / 5);
  CHECK(relDiff(mm.inertiaAboutOrigin(), expected) < 1e-3);
  CHECK(mm.mass == Approx(4.0 / 3.0 * pi * ax.prod()).epsilon(1e-3));
}

TEST_CASE("translated and rotated mesh: moments transform as rigid body", "[geometry]") {
  const TriMesh base = makeEllipsoid(Vec3(0.3, 0.6, 0.45), 3);
  const Vec3 p(-2.0, 0.5, 8.0);
  const Mat3 q = rotation();
  TriMesh moved = base;
  for (int i = 0; i < moved.numVertices(); ++i)
    moved.V.row(i) = (q * base.vertex(i) + p).transpose();
  const MassMoments m0 = solidMoments(base, wholePart(base), 50.0);
  const MassMoments m1 = solidMoments(moved, wholePart(moved), 50.0);
  CHECK(m1.mass == Approx(m0.mass).epsilon(1e-12));
  CHECK((m1.com() - (q * m0.com() + p)).norm() < 1e-12);
  CHECK(relDiff(inertiaAboutCom(m1), q * inertiaAboutCom(m0) * q.transpose()) < 1e-10);
  // Parallel axis: about the origin = about the COM + m(|c|² I − c cᵀ).
  const Vec3 c = m1.com();
  CHECK(relDiff(m1.inertiaAboutOrigin(),
                inertiaAboutCom(m1) +
                    m1.mass * (c.squaredNorm() * Mat3::Identity() - c * c.transpose())) < 1e-13);
}

TEST_CASE("sheet moments of a plate are exact", "[geometry]") {
  const double a = 0.21;
  const double b = 0.297;  // A4 paper, 80 g/m²
  const double sigma = 0.080;
  const double m = sigma * a * b;
  for (auto [nx, nz] : {std::pair{1, 1}, std::pair{5, 3}, std::pair{16, 23}}) {
    const TriMesh mesh = makePlate(a, b, nx, nz);
    const MassMoments mm = sheetMoments(mesh, wholePart(mesh), sigma);
    CHECK(mm.mass == Approx(m).epsilon(1e-13));
    CHECK(mm.first.norm() < 1e-15 * m);
    // ∫x² dm = m a²/12, ∫z² dm = m b²/12, nothing along y.
    const Mat3 second = Vec3(m * a * a / 12, 0.0, m * b * b / 12).asDiagonal();
    CHECK(relDiff(mm.second, second) < 1e-12);
    CHECK(mm.inertiaAboutOrigin()(1, 1) == Approx(m * (a * a + b * b) / 12).epsilon(1e-12));
  }
  // Offset plate: centre moves, inertia about the centre is unchanged.
  TriMesh mesh = makePlate(a, b, 4, 6);
  mesh.V.rowwise() += Eigen::RowVector3d(1.0, 2.0, -3.0);
  const MassMoments mm = sheetMoments(mesh, wholePart(mesh), sigma);
  CHECK((mm.com() - Vec3(1.0, 2.0, -3.0)).norm() < 1e-14);
  CHECK(inertiaAboutCom(mm)(0, 0) == Approx(m * b * b / 12).epsilon(1e-11));
}

TEST_CASE("spherical shell sheet converges to 2/3 m r^2", "[geometry]") {
  const double r = 0.1;
  const TriMesh mesh = makeSphere(r, 5);
  const MassMoments mm = sheetMoments(mesh, wholePart(mesh), 0.5);
  CHECK(mm.mass == Approx(0.5 * 4 * pi * r * r).epsilon(1e-3));
  CHECK(mm.inertiaAboutOrigin()(2, 2) == Approx(2.0 / 3.0 * mm.mass * r * r).epsilon(1e-3));
}

TEST_CASE("point masses and the sum of parts", "[geometry]") {
  const Vec3 p(0.1, -0.2, 0.3);
  const MassMoments pt = pointMoments(p, 2.0);
  CHECK(pt.mass == 2.0);
  CHECK(pt.com() == p);
  CHECK(pt.inertiaAboutOrigin().isApprox(2.0 *
                                         (p.squaredNorm() * Mat3::Identity() - p * p.transpose())));
  // A maple-seed-like body: a solid unit-density cube at the origin and a 1 kg nut at
  // (0, 2, 0): COM at 2/(1+1) on y; inertia about x = 1/6 + 1·4.
  const TriMesh cube = makeBox(Vec3(1, 1, 1));
  MassMoments body = solidMoments(cube, wholePart(cube), 1.0);
  body += pointMoments(Vec3(0, 2, 0), 1.0);
  CHECK(body.mass == Approx(2.0));
  CHECK(body.com().isApprox(Vec3(0, 1, 0)));
  CHECK(body.inertiaAboutOrigin()(0, 0) == Approx(1.0 / 6.0 + 4.0).epsilon(1e-14));
  CHECK(body.inertiaAboutOrigin()(1, 1) == Approx(1.0 / 6.0).epsilon(1e-14));
  const MassMoments half = body.scaled(0.5);
  CHECK(half.mass == Approx(1.0));
  CHECK(half.com().isApprox(body.com()));
}

TEST_CASE("lumped vertex masses: total, symmetry and second-order convergence", "[geometry]") {
  const double total = 0.37;
  // Sphere: lumped masses sit on the surface, so they make a thin shell: I = 2/3 M r²
  // exactly (all vertices at radius r, isotropic by icosahedral symmetry).
  const double r = 0.2;
  const TriMesh sphere = makeSphere(r, 3);
  const std::vector<double> w = lumpVertexMasses(sphere, total);
  double sum = 0.0;
  for (double x : w) {
    REQUIRE(x > 0.0);
    sum += x;
  }
  CHECK(sum == Approx(total).epsilon(1e-14));
  const MassMoments lumped = lumpedMoments(sphere, w);
  CHECK(lumped.mass == Approx(total).epsilon(1e-14));
  CHECK(lumped.first.norm() < 1e-15);
  CHECK(relDiff(lumped.inertiaAboutOrigin(), (2.0 / 3.0 * total * r * r) * Mat3::Identity()) <
        1e-12);

  // Plate: lumped ∫x² dm → m a²/12 with error O(h²) (ratio 4 per halving).
  const double a = 0.4;
  const double b = 0.25;
  double prevErr = 0.0;
  for (int n : {4, 8, 16, 32}) {
    const TriMesh plate = makePlate(a, b, n, n);
    const MassMoments mm = lumpedMoments(plate, lumpVertexMasses(plate, total));
    CHECK(mm.mass == Approx(total).epsilon(1e-13));
    CHECK(mm.first.norm() < 1e-15);
    const double err = std::abs(mm.second(0, 0) / (total * a * a / 12) - 1);
    INFO("n = " << n << " err " << err);
    if (n > 4) CHECK(prevErr / err == Approx(4.0).margin(0.3));
    prevErr = err;
  }
}

TEST_CASE("Lumped moments resumed from the cache's checkpoints are the same bits",
          "[geometry][mass]") {
  // A sphere of 2 562 vertices (11 checkpoints): move the vertices from some index on, as an
  // animated body's spinning part does, and compare with a pass from the start, bitwise.
  TriMesh mesh = makeSphere(0.2, 4);
  const std::vector<double> w = lumpVertexMasses(mesh, 0.01);
  const auto n = static_cast<std::size_t>(mesh.numVertices());
  REQUIRE(n > 8 * LumpedMomentsCache::kBlock);
  LumpedMomentsCache cache;
  const auto same = [](const MassMoments& a, const MassMoments& b) {
    return a.mass == b.mass && a.first == b.first && a.second == b.second;
  };
  REQUIRE(same(lumpedMoments(mesh, w, &cache, 0), lumpedMoments(mesh, w)));
  REQUIRE(cache.before.size() == (n + LumpedMomentsCache::kBlock - 1) / LumpedMomentsCache::kBlock);
  for (std::size_t first : {n - 1, n / 2, std::size_t{0}, std::size_t{255}, std::size_t{256},
                            std::size_t{257}, 3 * n / 4, n}) {
    for (std::size_t i = first; i < n; ++i) mesh.V.row(static_cast<int>(i)) *= 1.0 + 1e-3;
    INFO("first moved vertex " << first);
    const MassMoments resumed = lumpedMoments(mesh, w, &cache, first);
    const MassMoments whole = lumpedMoments(mesh, w);
    CHECK(same(resumed, whole));
  }
  // A stale cache (a vertex before `first` moved without telling it) gives another answer:
  // the checkpoints are what is reused.
  mesh.V.row(0) *= 2.0;
  CHECK_FALSE(same(lumpedMoments(mesh, w, &cache, n - 1), lumpedMoments(mesh, w)));
}
