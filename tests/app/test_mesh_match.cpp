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
