#include <catch2/catch.hpp>

#include "app/render/mesh_match.h"

using samara::Vec3;
using samara::app::scaledCopyOf;
using samara::geometry::FaceMatrix;
using samara::geometry::VertexMatrix;

namespace {

// A bent sheet of 3 × 3 vertices (8 triangles), not symmetric about its centroid.
VertexMatrix sheet() {
  VertexMatrix V(9, 3);
  for (int i = 0; i < 9; ++i) {
    const double x = i % 3, z = i / 3;
    V.row(i) << 0.02 * x, 0.003 * x * x + 0.001 * z, 0.015 * z;
  }
  return V;
}

FaceMatrix sheetFaces() {
  FaceMatrix F(8, 3);
  int f = 0;
  for (int r = 0; r < 2; ++r) {
    for (int c = 0; c < 2; ++c) {
      const int a = 3 * r + c;
      F.row(f++) << a, a + 1, a + 4;
      F.row(f++) << a, a + 4, a + 3;
    }
  }
  return F;
}

}  // namespace

TEST_CASE("scaledCopyOf: a scaled and moved copy shares the mesh, anything else does not",
          "[app][instancing]") {
  const VertexMatrix M = sheet();
  const FaceMatrix F = sheetFaces();
  SECTION("the mesh itself: scale 1, no offset") {
    const auto c = scaledCopyOf(M, F, M, F);
    REQUIRE(c);
    CHECK(c->scale == Approx(1.0).epsilon(1e-15));
    CHECK(c->offset.norm() < 1e-15);
  }
  SECTION("1.7 times larger and moved: that scale and offset, vertex for vertex") {
    const Vec3 off(0.3, -0.05, 0.01);
    VertexMatrix V = 1.7 * M;
    V.rowwise() += off.transpose();
    const auto c = scaledCopyOf(M, F, V, F);
    REQUIRE(c);
    CHECK(c->scale == Approx(1.7).epsilon(1e-12));
    CHECK((c->offset - off).norm() < 1e-12);
    VertexMatrix back = c->scale * M;
    back.rowwise() += c->offset.transpose();
    CHECK((back - V).cwiseAbs().maxCoeff() < 1e-12);
  }
  SECTION("stretched along one axis: not a copy") {
    VertexMatrix V = M;
    V.col(0) *= 1.5;
    CHECK_FALSE(scaledCopyOf(M, F, V, F));
  }
  SECTION("one vertex moved by 1e-4 of the size: not a copy") {
    VertexMatrix V = M;
    V(4, 1) += 1e-4 * 0.04;
    CHECK_FALSE(scaledCopyOf(M, F, V, F));
  }
  SECTION("the same vertices with other triangles: not a copy") {
    FaceMatrix G = F;
    std::swap(G(0, 1), G(0, 2));
    CHECK_FALSE(scaledCopyOf(M, F, M, G));
  }
  SECTION("mirrored: not a copy (the scale is positive)") {
    CHECK_FALSE(scaledCopyOf(M, F, VertexMatrix(-M), F));
  }
}

namespace {

// A flat n × n-vertex sheet of side 0.1 m in the x-z plane, two triangles per square.
void flatSheet(int n, VertexMatrix* V, FaceMatrix* F) {
  V->resize(n * n, 3);
  for (int i = 0; i < n * n; ++i)
    V->row(i) << 0.1 * (i % n) / (n - 1), 0.0, 0.1 * (i / n) / (n - 1);
  F->resize(2 * (n - 1) * (n - 1), 3);
  int f = 0;
  for (int r = 0; r + 1 < n; ++r) {
    for (int c = 0; c + 1 < n; ++c) {
      const int a = n * r + c;
      F->row(f++) << a, a + 1, a + n + 1;
      F->row(f++) << a, a + n + 1, a + n;
    }
  }
}

double areaOf(const VertexMatrix& V, const std::vector<std::uint32_t>& idx) {
  double a = 0.0;
  for (std::size_t k = 0; k + 2 < idx.size(); k += 3) {
    const Vec3 p = V.row(idx[k]), q = V.row(idx[k + 1]), r = V.row(idx[k + 2]);
    a += 0.5 * (q - p).cross(r - p).norm();
  }
  return a;
}

}  // namespace

TEST_CASE("coarseIndices: a crowd's shadow mesh keeps the silhouette with fewer triangles",
          "[app][instancing]") {
  using samara::app::coarseIndices;
  VertexMatrix V;
  FaceMatrix F;
  flatSheet(21, &V, &F);  // 800 triangles, vertices 5 mm apart
  SECTION("8 cubes across: about a tenth of the triangles, the area within one cube's strip") {
    const std::vector<std::uint32_t> c = coarseIndices(V, F, 8);
    INFO("triangles " << c.size() / 3);
    REQUIRE(c.size() % 3 == 0);
    CHECK(c.size() / 3 <= 160);
    CHECK(c.size() / 3 >= 64);
    for (std::uint32_t i : c) CHECK(i < static_cast<std::uint32_t>(V.rows()));
    // Every vertex moved by at most a cube's diagonal (0.1/8 · √3), so the coarse sheet's
    // area is at least that of the sheet shrunk by one cube: (1 − 1/8)² of 0.01 m².
    const double a = areaOf(V, c);
    CHECK(a >= 0.01 * (7.0 / 8.0) * (7.0 / 8.0) - 1e-12);
    CHECK(a <= 0.01 + 1e-12);
    CHECK(coarseIndices(V, F, 8) == c);  // deterministic
  }
  SECTION("cubes smaller than the vertex spacing: the mesh itself") {
    const std::vector<std::uint32_t> c = coarseIndices(V, F, 1000);
    REQUIRE(c.size() == static_cast<std::size_t>(F.size()));
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
      for (int k = 0; k < 3; ++k)
        CHECK(c[static_cast<std::size_t>(3 * f + k)] == static_cast<std::uint32_t>(F(f, k)));
    }
  }
  SECTION("one cube across: the far edges are cubes of their own, so the four corners stay") {
    const std::vector<std::uint32_t> c = coarseIndices(V, F, 1);
    CHECK(c.size() == 6);
    CHECK(areaOf(V, c) == Approx(0.01).epsilon(1e-12));
  }
  SECTION("an empty mesh, or all vertices in one point: nothing") {
    CHECK(coarseIndices(VertexMatrix(0, 3), FaceMatrix(0, 3), 8).empty());
    CHECK(coarseIndices(VertexMatrix::Zero(V.rows(), 3), F, 8).empty());
  }
}
