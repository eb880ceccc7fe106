// Primitive meshes: watertight, outward, and converging to the continuum shapes
// (PHYSICS.md §6: sphere δ → r/2, long cylinder δ → R, plate δ = ab/(π(a+b)) exactly).
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

struct Built {
  Topology topo;
  FaceGeometry geo;
};

Built build(const TriMesh& mesh) {
  Built b{buildTopology(mesh), {}};
  computeFaceGeometry(mesh, &b.geo);
  return b;
}

/// A closed primitive: one closed part, no boundary, V − E + F = 2, positive volume.
void requireWatertightOutward(const TriMesh& mesh) {
  const Built b = build(mesh);
  REQUIRE(b.topo.parts.size() == 1);
  REQUIRE(b.topo.parts[0].kind == PartKind::kClosed);
  REQUIRE(b.topo.numBoundaryEdges == 0);
  REQUIRE(mesh.numVertices() - static_cast<int>(b.topo.edges.size()) + mesh.numFaces() == 2);
  REQUIRE(partVolume(mesh, b.topo.parts[0]) > 0.0);
  // Convex and centred on the origin: every outward normal points away from the origin.
  for (int f = 0; f < mesh.numFaces(); ++f) REQUIRE(b.geo.normal[f].dot(b.geo.centroid[f]) > 0.0);
}

}  // namespace

TEST_CASE("icosphere is a closed outward manifold on the sphere", "[geometry]") {
  const double r = 0.7;
  for (int s = 0; s <= 4; ++s) {
    const TriMesh mesh = makeSphere(r, s);
    const int p = 1 << (2 * s);  // 4^s
    REQUIRE(mesh.numFaces() == 20 * p);
    REQUIRE(mesh.numVertices() == 10 * p + 2);  // shared vertices deduplicated
    requireWatertightOutward(mesh);
    for (int i = 0; i < mesh.numVertices(); ++i)
      REQUIRE(mesh.vertex(i).norm() == Approx(r).epsilon(1e-15));
  }
}

TEST_CASE("icosphere area, volume and delta converge at second order", "[geometry]") {
  // Measured relative errors (s = 1..5): area 7.2e-2 → 3.0e-4, volume 1.3e-1 → 5.4e-4,
  // δ/(r/2) − 1: 4.9e-2, 1.3e-2, 3.2e-3, 8.0e-4, 2.0e-4; each falls by ≈ 4 per subdivision.
  const double r = 0.7;
  double prevArea = 0.0;
  double prevVolume = 0.0;
  double prevDelta = 0.0;
  for (int s = 1; s <= 5; ++s) {
    const TriMesh mesh = makeSphere(r, s);
    const Built b = build(mesh);
    const double errArea = std::abs(partArea(mesh, b.topo.parts[0]) / (4.0 * pi * r * r) - 1.0);
    const double errVolume =
        std::abs(partVolume(mesh, b.topo.parts[0]) / (4.0 / 3.0 * pi * r * r * r) - 1.0);
    const double errDelta = std::abs(computeDelta(mesh, b.topo, b.geo) / (0.5 * r) - 1.0);
    INFO("s = " << s << " area err " << errArea << " volume err " << errVolume << " delta err "
                << errDelta);
    if (s >= 2) {
      CHECK(prevArea / errArea == Approx(4.0).margin(0.3));
      CHECK(prevVolume / errVolume == Approx(4.0).margin(0.3));  // 3.74, 3.93, 3.98, 4.00
      CHECK(prevDelta / errDelta == Approx(4.0).margin(0.3));
    }
    if (s >= 4) CHECK(errDelta < 1e-3);  // δ → r/2 within 0.1 % at 4 subdivisions
    prevArea = errArea;
    prevVolume = errVolume;
    prevDelta = errDelta;
  }
}

TEST_CASE("ellipsoid volume converges to 4/3 pi abc", "[geometry]") {
  const Vec3 radii(0.3, 0.5, 1.1);
  const double exact = 4.0 / 3.0 * pi * radii.prod();
  const TriMesh coarse = makeEllipsoid(radii, 3);
  const TriMesh fine = makeEllipsoid(radii, 5);
  requireWatertightOutward(coarse);
  const double errCoarse = std::abs(partVolume(coarse, build(coarse).topo.parts[0]) / exact - 1);
  const double errFine = std::abs(partVolume(fine, build(fine).topo.parts[0]) / exact - 1);
  CHECK(errFine < 1e-3);
  CHECK(errCoarse / errFine == Approx(16.0).margin(1.0));  // two subdivisions: 4²
}

TEST_CASE("box: exact area, volume and delta for any cell count", "[geometry]") {
  const double a = 0.4;
  const double b = 1.3;
  const double c = 2.2;
  for (int cells = 1; cells <= 4; ++cells) {
    const TriMesh mesh = makeBox(Vec3(a, b, c), cells);
    REQUIRE(mesh.numFaces() == 12 * cells * cells);
    REQUIRE(mesh.numVertices() == 6 * cells * cells + 2);
    requireWatertightOutward(mesh);
    const Built bt = build(mesh);
    CHECK(partVolume(mesh, bt.topo.parts[0]) == Approx(a * b * c).epsilon(1e-13));
    CHECK(partArea(mesh, bt.topo.parts[0]) == Approx(2 * (a * b + b * c + c * a)).epsilon(1e-13));
    // Σ α ℓ = 4 (a + b + c) π/2 (flat interior edges bend by 0).
    CHECK(bendingLengthSum(mesh, bt.topo, bt.geo) == Approx(2 * pi * (a + b + c)).epsilon(1e-13));
    CHECK(computeDelta(mesh, bt.topo, bt.geo) ==
          Approx((a * b + b * c + c * a) / (pi * (a + b + c))).epsilon(1e-13));
  }
}

TEST_CASE("cylinder: exact discrete delta, and delta -> R for a long cylinder", "[geometry]") {
  const double R = 0.25;
  for (int n : {8, 33, 128}) {
    for (int rings : {1, 5}) {
      for (double L : {0.1, 2.0}) {
        const TriMesh mesh = makeCylinder(R, L, n, rings);
        requireWatertightOutward(mesh);
        const Built b = build(mesh);
        // n rectangles of chord c; vertical edges bend 2π/n, rim edges π/2, the rest 0.
        const double chord = 2 * R * std::sin(pi / n);
        const double capArea = 0.5 * n * R * R * std::sin(2 * pi / n);
        CHECK(partVolume(mesh, b.topo.parts[0]) == Approx(capArea * L).epsilon(1e-12));
        const double area = n * chord * L + 2 * capArea;
        const double bend = 2 * pi * L + pi * n * chord;
        CHECK(bendingLengthSum(mesh, b.topo, b.geo) == Approx(bend).epsilon(1e-12));
        CHECK(computeDelta(mesh, b.topo, b.geo) == Approx(area / bend).epsilon(1e-12));
      }
    }
  }
  // Continuum: δ = R (L + R) / (L + π R) → R. Measured at n = 256: L = 100R → 0.9792 R,
  // L = 1000R → 0.9978 R (continuum 0.97924, 0.99786).
  double prevErr = 0.0;
  for (double ratio : {10.0, 100.0, 1000.0}) {
    const double L = ratio * R;
    const TriMesh mesh = makeCylinder(R, L, 256, 1);
    const Built b = build(mesh);
    const double delta = computeDelta(mesh, b.topo, b.geo);
    CHECK(delta == Approx(R * (L + R) / (L + pi * R)).epsilon(2e-4));
    const double err = std::abs(delta / R - 1.0);
    if (ratio > 10.0)
      CHECK(err < prevErr / 7.0);  // error (π − 1)R/(L + πR): 0.163, 0.0208, 0.00216
    prevErr = err;
  }
  CHECK(prevErr < 2.5e-3);
}

TEST_CASE("thin disk (closed coin) tends to the doubled open disk", "[geometry]") {
  // The coin's δ tends, as the thickness t → 0, to the doubled-sheet value of its polygon:
  // area 2·capArea over the rim π·n·chord (→ R/π for a circle). Error is O(t).
  const double R = 0.05;
  const int n = 200;
  const double chord = 2 * R * std::sin(pi / n);
  const double capArea = 0.5 * n * R * R * std::sin(2 * pi / n);
  const double sheetDelta = 2 * capArea / (pi * n * chord);
  double prevErr = 1.0;
  for (double t : {1e-2, 1e-3, 1e-4}) {
    const TriMesh mesh = makeDisk(R, t * R, n);
    requireWatertightOutward(mesh);
    const Built b = build(mesh);
    const double err = std::abs(computeDelta(mesh, b.topo, b.geo) / sheetDelta - 1.0);
    CHECK(err < prevErr / 9.0);
    prevErr = err;
  }
  CHECK(prevErr < 1e-4);
  CHECK(sheetDelta == Approx(R / pi).epsilon(2e-4));
}

TEST_CASE("plate: +y normals, one sheet, delta = ab/(pi(a+b)) exactly", "[geometry]") {
  struct Case {
    double a, b;
    int m, n;
  };
  for (const Case& c : {Case{1.0, 1.0, 1, 1}, Case{1.0, 1.0, 4, 4}, Case{0.3, 2.0, 3, 7},
                        Case{2.5, 0.1, 17, 2}, Case{0.08, 0.05, 40, 25}}) {
    const TriMesh mesh = makePlate(c.a, c.b, c.m, c.n);
    const Built bt = build(mesh);
    REQUIRE(bt.topo.parts.size() == 1);
    REQUIRE(bt.topo.parts[0].kind == PartKind::kSheet);
    for (int f = 0; f < mesh.numFaces(); ++f) REQUIRE(bt.geo.normal[f].y() == 1.0);
    CHECK(partArea(mesh, bt.topo.parts[0]) == Approx(c.a * c.b).epsilon(1e-13));
    CHECK(doubledArea(bt.topo, bt.geo) == Approx(2 * c.a * c.b).epsilon(1e-13));
    CHECK(bendingLengthSum(mesh, bt.topo, bt.geo) == Approx(2 * pi * (c.a + c.b)).epsilon(1e-13));
    CHECK(computeDelta(mesh, bt.topo, bt.geo) ==
          Approx(c.a * c.b / (pi * (c.a + c.b))).epsilon(1e-12));
  }
}

TEST_CASE("plate delta is exact for an irregular triangulation", "[geometry]") {
  // Jitter the interior vertices inside the plane: still ab / (π (a + b)).
  const double a = 0.6;
  const double b = 0.35;
  const int m = 9;
  const int n = 6;
  TriMesh mesh = makePlate(a, b, m, n);
  unsigned state = 12345u;
  auto rnd = [&state]() {
    state = state * 1664525u + 1013904223u;
    return (state >> 8) / 16777216.0 - 0.5;
  };
  for (int i = 1; i < m; ++i) {
    for (int j = 1; j < n; ++j) {
      const int v = i * (n + 1) + j;
      mesh.V(v, 0) += 0.6 * (a / m) * rnd();
      mesh.V(v, 2) += 0.6 * (b / n) * rnd();
    }
  }
  const Built bt = build(mesh);
  CHECK(computeDelta(mesh, bt.topo, bt.geo) == Approx(a * b / (pi * (a + b))).epsilon(1e-12));
}

TEST_CASE("primitives reject invalid parameters", "[geometry]") {
  CHECK_THROWS_AS(makeSphere(-1.0, 2), MeshError);
  CHECK_THROWS_AS(makeSphere(1.0, -1), MeshError);
  CHECK_THROWS_AS(makeBox(Vec3(1, 0, 1)), MeshError);
  CHECK_THROWS_AS(makeCylinder(1.0, 1.0, 2), MeshError);
  CHECK_THROWS_AS(makePlate(1.0, 1.0, 0, 3), MeshError);
}

TEST_CASE("Geodesic sphere: 20 ν² faces, closed, outward, on the sphere", "[geometry]") {
  for (int nu : {1, 3, 10}) {
    const TriMesh m = makeGeodesicSphere(2.0, nu);
    CHECK(m.numFaces() == 20 * nu * nu);
    CHECK(m.numVertices() == 10 * nu * nu + 2);  // Euler: V = F/2 + 2
    const Topology topo = buildTopology(m);
    REQUIRE(topo.parts.size() == 1);
    CHECK(topo.parts[0].kind == PartKind::kClosed);
    CHECK(topo.numBoundaryEdges == 0);
    CHECK(partVolume(m, topo.parts[0]) > 0.0);
    for (int i = 0; i < m.numVertices(); ++i) CHECK(m.vertex(i).norm() == Approx(2.0));
  }
}
