// Edges, parts, validation errors, orientation and bending angles.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>

#include "geometry/mass_properties.h"
#include "geometry/primitives.h"
#include "geometry/topology.h"

using namespace samara;
using namespace samara::geometry;
using std::numbers::pi;

namespace {

/// The face named by the MeshError that buildTopology throws (-2 if it does not throw).
int thrownFace(const TriMesh& mesh) {
  try {
    (void)buildTopology(mesh);
  } catch (const MeshError& e) {
    return e.face();
  }
  return -2;
}

TriMesh meshOf(std::initializer_list<Vec3> verts, std::initializer_list<Eigen::Vector3i> faces) {
  TriMesh mesh;
  mesh.V.resize(static_cast<int>(verts.size()), 3);
  mesh.F.resize(static_cast<int>(faces.size()), 3);
  int i = 0;
  for (const Vec3& v : verts) mesh.V.row(i++) = v.transpose();
  i = 0;
  for (const Eigen::Vector3i& f : faces) mesh.F.row(i++) = f.transpose();
  return mesh;
}

/// Two triangles hinged on the z axis, wings going down with slope k (a roof for k > 0, a
/// valley for k < 0), both normals pointing up: the exterior angle is 2 atan(k).
TriMesh roof(double k) {
  return meshOf({Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(-1, -k, 0.5), Vec3(1, -k, 0.5)},
                {Eigen::Vector3i(1, 0, 2), Eigen::Vector3i(0, 1, 3)});
}

const Edge& interiorEdge(const Topology& topo) {
  for (const Edge& e : topo.edges) {
    if (e.f1 >= 0) return e;
  }
  FAIL("no interior edge");
  return topo.edges.front();
}

void flipFace(TriMesh* mesh, int f) { std::swap(mesh->F(f, 1), mesh->F(f, 2)); }

}  // namespace

TEST_CASE("box topology: 12 faces, 18 edges, one closed part", "[geometry]") {
  const TriMesh mesh = makeBox(Vec3(1, 2, 3));
  const Topology topo = buildTopology(mesh);
  CHECK(topo.edges.size() == 18);
  CHECK(topo.numBoundaryEdges == 0);
  REQUIRE(topo.parts.size() == 1);
  CHECK(topo.parts[0].kind == PartKind::kClosed);
  CHECK(topo.parts[0].faces.size() == 12);
  for (const Edge& e : topo.edges) {
    REQUIRE(e.f0 < e.f1);
    // v0→v1 in f0, v1→v0 in f1.
    auto runs = [&](int f, int a, int b) {
      for (int k = 0; k < 3; ++k) {
        if (mesh.F(f, k) == a && mesh.F(f, (k + 1) % 3) == b) return true;
      }
      return false;
    };
    CHECK(runs(e.f0, e.v0, e.v1));
    CHECK(runs(e.f1, e.v1, e.v0));
  }
  for (int f = 0; f < 12; ++f) CHECK(topo.isSheet[f] == 0);
}

TEST_CASE("plate topology: 2(m+n) boundary edges, one sheet", "[geometry]") {
  for (auto [m, n] : {std::pair{1, 1}, std::pair{3, 5}, std::pair{8, 2}}) {
    const Topology topo = buildTopology(makePlate(1.0, 2.0, m, n));
    CHECK(topo.numBoundaryEdges == 2 * (m + n));
    CHECK(static_cast<int>(topo.edges.size()) == m * (n + 1) + n * (m + 1) + m * n);
    REQUIRE(topo.parts.size() == 1);
    CHECK(topo.parts[0].kind == PartKind::kSheet);
    for (std::uint8_t s : topo.isSheet) CHECK(s == 1);
  }
}

TEST_CASE("disjoint parts are found and classified", "[geometry]") {
  TriMesh mesh = makeSphere(1.0, 2);
  TriMesh other = makeSphere(0.5, 1);
  other.V.col(0).array() += 3.0;
  appendMesh(&mesh, other);
  TriMesh plate = makePlate(1.0, 1.0, 2, 3);
  plate.V.col(1).array() -= 4.0;
  appendMesh(&mesh, plate);
  const Topology topo = buildTopology(mesh);
  REQUIRE(topo.parts.size() == 3);
  CHECK(topo.parts[0].kind == PartKind::kClosed);
  CHECK(topo.parts[0].faces.size() == 320);
  CHECK(topo.parts[1].kind == PartKind::kClosed);
  CHECK(topo.parts[1].faces.size() == 80);
  CHECK(topo.parts[2].kind == PartKind::kSheet);
  CHECK(topo.parts[2].faces.size() == 12);
  CHECK(topo.numBoundaryEdges == 10);
  for (int p = 0; p < 3; ++p) {
    for (int f : topo.parts[p].faces) {
      REQUIRE(topo.facePart[f] == p);
      REQUIRE(topo.isSheet[f] == (p == 2 ? 1 : 0));
    }
  }
  // The split is by connectivity: the second part has exactly the small sphere's volume.
  CHECK(partVolume(mesh, topo.parts[1]) ==
        Approx(partVolume(other, buildTopology(other).parts[0])));
}

TEST_CASE("topology is deterministic and scales to 100k+ faces", "[geometry]") {
  const TriMesh mesh = makeSphere(1.0, 6);  // 81 920 faces
  const Topology a = buildTopology(mesh);
  const Topology b = buildTopology(mesh);
  REQUIRE(a.edges.size() == 30ul * 4096ul);
  REQUIRE(a.edges.size() == b.edges.size());
  for (std::size_t i = 0; i < a.edges.size(); ++i) {
    REQUIRE(a.edges[i].v0 == b.edges[i].v0);
    REQUIRE(a.edges[i].v1 == b.edges[i].v1);
    REQUIRE(a.edges[i].f0 == b.edges[i].f0);
    REQUIRE(a.edges[i].f1 == b.edges[i].f1);
  }
  TriMesh big = makeBox(Vec3(1, 1, 1), 100);  // 120 000 faces
  const Topology t = buildTopology(big);
  CHECK(t.edges.size() == 180000u);
  CHECK(t.parts.size() == 1);
}

TEST_CASE("invalid meshes throw MeshError naming the face", "[geometry]") {
  SECTION("empty") { CHECK_THROWS_AS(buildTopology(TriMesh{}), MeshError); }
  SECTION("index out of range") {
    TriMesh mesh = makeBox(Vec3(1, 1, 1));
    mesh.F(3, 1) = 999;
    CHECK(thrownFace(mesh) == 3);
    CHECK_THROWS_WITH(buildTopology(mesh), Catch::Contains("face 3") && Catch::Contains("999"));
  }
  SECTION("repeated vertex") {
    TriMesh mesh = makeBox(Vec3(1, 1, 1));
    mesh.F(4, 2) = mesh.F(4, 0);
    CHECK(thrownFace(mesh) == 4);
  }
  SECTION("degenerate face") {
    TriMesh mesh = makePlate(1.0, 1.0, 2, 2);
    mesh.F.row(5) << 0, 3, 6;  // three collinear grid vertices along x at z = -1/2
    CHECK(thrownFace(mesh) == 5);
    CHECK_THROWS_WITH(buildTopology(mesh),
                      Catch::Contains("face 5") && Catch::Contains("degenerate"));
  }
  SECTION("non-finite vertex") {
    TriMesh mesh = makeBox(Vec3(1, 1, 1));
    mesh.V(2, 1) = std::nan("");
    try {
      (void)buildTopology(mesh);
      FAIL("no throw");
    } catch (const MeshError& e) {
      CHECK(e.vertex() == 2);
    }
  }
  SECTION("non-manifold edge: three triangles share an edge") {
    const TriMesh mesh =
        meshOf({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, 1, 0), Vec3(0.5, -1, 0), Vec3(0.5, 0, 1)},
               {Eigen::Vector3i(0, 1, 2), Eigen::Vector3i(1, 0, 3), Eigen::Vector3i(0, 1, 4)});
    CHECK(thrownFace(mesh) == 2);
    CHECK_THROWS_WITH(buildTopology(mesh), Catch::Contains("non-manifold"));
  }
  SECTION("one flipped face in a sphere") {
    for (int bad : {0, 37, 319}) {
      TriMesh mesh = makeSphere(1.0, 2);
      flipFace(&mesh, bad);
      CHECK(thrownFace(mesh) == bad);
      CHECK_THROWS_WITH(buildTopology(mesh), Catch::Contains("face " + std::to_string(bad)));
    }
  }
  SECTION("flipped face in a plate") {
    TriMesh mesh = makePlate(1.0, 1.0, 3, 3);
    flipFace(&mesh, 7);
    CHECK(thrownFace(mesh) == 7);
  }
  SECTION("Moebius strip is non-orientable") {
    const int n = 12;
    TriMesh mesh;
    mesh.V.resize(2L * n, 3);
    for (int i = 0; i < n; ++i) {
      const double u = 2 * pi * i / n;
      for (int side = 0; side < 2; ++side) {
        const double s = side == 0 ? 0.5 : -0.5;
        const double rho = 2.0 + s * std::cos(u / 2);
        mesh.V.row(2 * i + side) << rho * std::cos(u), rho * std::sin(u), s * std::sin(u / 2);
      }
    }
    mesh.F.resize(2L * n, 3);
    for (int i = 0; i < n; ++i) {
      const int t0 = 2 * i;
      const int b0 = 2 * i + 1;
      // After a full turn the strip comes back upside down: top meets bottom.
      const int t1 = i + 1 < n ? 2 * (i + 1) : 1;
      const int b1 = i + 1 < n ? 2 * (i + 1) + 1 : 0;
      mesh.F.row(2L * i) << t0, b0, b1;
      mesh.F.row(2L * i + 1) << t0, b1, t1;
    }
    CHECK_THROWS_WITH(buildTopology(mesh), Catch::Contains("non-orientable"));
  }
}

TEST_CASE("orientClosedPartsOutward fixes an inverted sphere", "[geometry]") {
  const double r = 1.5;
  TriMesh mesh = makeSphere(r, 4);
  for (int f = 0; f < mesh.numFaces(); ++f) flipFace(&mesh, f);
  TriMesh plate = makePlate(1.0, 1.0, 2, 2);
  plate.V.col(1).array() += 5.0;
  appendMesh(&mesh, plate);
  TriMesh good = makeBox(Vec3(1, 1, 1));
  good.V.col(0).array() += 5.0;
  appendMesh(&mesh, good);
  const Topology topo = buildTopology(mesh);  // consistently oriented, but inward
  REQUIRE(topo.parts.size() == 3);
  FaceGeometry geo;
  computeFaceGeometry(mesh, &geo);
  CHECK(partVolume(mesh, topo.parts[0]) < 0.0);
  CHECK(bendingAngle(mesh, geo, interiorEdge(topo)) < 0.0);

  const FaceMatrix plateFacesBefore = mesh.F.middleRows(5120, 8);
  CHECK(orientClosedPartsOutward(&mesh, topo) == 1);
  CHECK(mesh.F.middleRows(5120, 8) == plateFacesBefore);  // sheets untouched
  CHECK(partVolume(mesh, topo.parts[0]) == Approx(4.0 / 3.0 * pi * r * r * r).epsilon(3e-3));
  CHECK(partVolume(mesh, topo.parts[2]) == Approx(1.0).epsilon(1e-14));
  CHECK(orientClosedPartsOutward(&mesh, topo) == 0);
  // The old topology still gives the right δ (bending angles read directions from F).
  computeFaceGeometry(mesh, &geo);
  TriMesh sphereOnly = makeSphere(r, 4);
  const Topology sphereTopo = buildTopology(sphereOnly);
  FaceGeometry sphereGeo;
  computeFaceGeometry(sphereOnly, &sphereGeo);
  double sum = 0.0;
  for (const Edge& e : topo.edges) {
    if (topo.facePart[e.f0] == 0)
      sum += bendingAngle(mesh, geo, e) * (mesh.vertex(e.v1) - mesh.vertex(e.v0)).norm();
  }
  CHECK(sum == Approx(bendingLengthSum(sphereOnly, sphereTopo, sphereGeo)).epsilon(1e-12));
  CHECK(sum > 0.0);
}

TEST_CASE("bending angle: cube edges +pi/2, flat diagonals 0", "[geometry]") {
  const TriMesh mesh = makeBox(Vec3(2, 1, 3));
  const Topology topo = buildTopology(mesh);
  FaceGeometry geo;
  computeFaceGeometry(mesh, &geo);
  int convex = 0;
  int flat = 0;
  for (const Edge& e : topo.edges) {
    const double alpha = bendingAngle(mesh, geo, e);
    if (std::abs(alpha) < 1e-14) {
      ++flat;
    } else {
      CHECK(alpha == Approx(pi / 2).epsilon(1e-15));
      ++convex;
    }
  }
  CHECK(convex == 12);
  CHECK(flat == 6);
}

TEST_CASE("bending angle of a hinge is 2 atan(k), negative on a valley", "[geometry]") {
  for (double k : {1.0, 0.3, 1e-9, -0.3, -1.0, -20.0}) {
    const TriMesh mesh = roof(k);
    const Topology topo = buildTopology(mesh);
    FaceGeometry geo;
    computeFaceGeometry(mesh, &geo);
    REQUIRE(topo.edges.size() == 5);
    REQUIRE(topo.numBoundaryEdges == 4);
    INFO("k = " << k);
    CHECK(bendingAngle(mesh, geo, interiorEdge(topo)) == Approx(2 * std::atan(k)).margin(1e-15));
  }
  CHECK(2 * std::atan(-1.0) == Approx(-pi / 2));
}

TEST_CASE("a dimple in a box has concave (negative) edges", "[geometry]") {
  TriMesh mesh = makeBox(Vec3(1, 1, 1), 2);
  int centre = -1;
  for (int i = 0; i < mesh.numVertices(); ++i) {
    if ((mesh.vertex(i) - Vec3(0, 0.5, 0)).norm() < 1e-15) centre = i;
  }
  REQUIRE(centre >= 0);
  mesh.V(centre, 1) -= 0.2;  // push the top centre in
  const Topology topo = buildTopology(mesh);
  FaceGeometry geo;
  computeFaceGeometry(mesh, &geo);
  int concave = 0;
  for (const Edge& e : topo.edges) {
    const double alpha = bendingAngle(mesh, geo, e);
    if (e.v0 == centre || e.v1 == centre) {
      CHECK(alpha < 0.0);
      ++concave;
    } else if (mesh.vertex(e.v0).y() > 0.49 && mesh.vertex(e.v1).y() > 0.49) {
      CHECK(alpha >= -1e-15);  // the top rim and the untouched top faces
    }
  }
  CHECK(concave == 6);
  // The body as a whole stays convex on average: Σ α ℓ > 0, so δ > 0.
  CHECK(computeDelta(mesh, topo, geo) > 0.0);
}

namespace {

/// buildTopology's error for `mesh` ("" if none) with its face, and the mesh that
/// orientClosedPartsOutward makes of it.
std::string fullCheck(TriMesh* mesh) {
  try {
    const Topology topo = buildTopology(*mesh);
    orientClosedPartsOutward(mesh, topo);
  } catch (const MeshError& e) {
    return std::string(e.what()) + " @" + std::to_string(e.face());
  }
  return "";
}

std::string leanCheck(TriMesh* mesh, bool orient) {
  try {
    if (orient) {
      checkAndOrient(mesh);
    } else {
      checkMesh(*mesh);
    }
  } catch (const MeshError& e) {
    return std::string(e.what()) + " @" + std::to_string(e.face());
  }
  return "";
}

}  // namespace

TEST_CASE("checkMesh and checkAndOrient agree with buildTopology and orientClosedPartsOutward",
          "[geometry]") {
  // Valid meshes with inward parts, sheets and several parts; then one fault each.
  TriMesh inward = makeSphere(1.0, 3);
  for (int f = 0; f < inward.numFaces(); ++f) flipFace(&inward, f);
  TriMesh many = makeBox(Vec3(1, 2, 3), 3);
  TriMesh plate = makePlate(1.0, 1.0, 4, 3);
  plate.V.col(1).array() += 5.0;
  appendMesh(&many, plate);
  inward.V.col(0).array() += 9.0;
  appendMesh(&many, inward);
  TriMesh flippedInSheet = many;
  flipFace(&flippedInSheet, 12 * 9 + 5);
  TriMesh flippedInSphere = many;
  flipFace(&flippedInSphere, many.numFaces() - 3);
  TriMesh tie = makePlate(1.0, 1.0, 1, 1);  // two faces, one flipped: a tie
  flipFace(&tie, 1);
  TriMesh nonManifold = many;
  nonManifold.F.row(7) = many.F.row(30);
  TriMesh degenerate = many;
  degenerate.F(11, 2) = degenerate.F(11, 0);
  int errors = 0;
  for (const TriMesh& start :
       {many, flippedInSheet, flippedInSphere, tie, nonManifold, degenerate, inward}) {
    TriMesh expected = start;
    const std::string expectedError = fullCheck(&expected);
    errors += expectedError.empty() ? 0 : 1;
    TriMesh oriented = start;
    CHECK(leanCheck(&oriented, true) == expectedError);
    if (expectedError.empty()) CHECK(oriented.F == expected.F);
    TriMesh unchanged = start;
    CHECK(leanCheck(&unchanged, false) == expectedError);
    CHECK(unchanged.F == start.F);
  }
  CHECK(errors == 5);  // every faulty mesh was refused
  TriMesh sphere = inward;
  CHECK(checkAndOrient(&sphere) == 1);
  CHECK(checkAndOrient(&sphere) == 0);
}
