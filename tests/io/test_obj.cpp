// OBJ loading: structure (vertex order, triangulation, merged objects, relative indices),
// orientation, and every error naming the file and line.
#include <catch2/catch.hpp>
#include <string>

#include "geometry/mass_properties.h"
#include "geometry/topology.h"
#include "io/error.h"
#include "io/obj.h"
#include "io_test_util.h"

using samara::geometry::TriMesh;
using namespace samara::io;
using namespace samara::io::test;

namespace {

std::string meshPath(const std::string& name) { return sourcePath("tests/data/meshes/" + name); }

/// Signed volume (m³) of a closed mesh: positive when the faces point outward.
double signedVolume(const TriMesh& m) {
  double v = 0.0;
  for (int f = 0; f < m.numFaces(); ++f) {
    v += m.vertex(m.F(f, 0)).dot(m.vertex(m.F(f, 1)).cross(m.vertex(m.F(f, 2)))) / 6.0;
  }
  return v;
}

/// The io::Error of reading the file tests/data/meshes/`name`.
Error fileError(const std::string& name) {
  return errorOf([&] { loadObj(meshPath(name)); });
}

/// The io::Error of parsing `text` as "x.obj".
Error textError(const std::string& text) {
  return errorOf([&] { parseObj(text, "x.obj"); });
}

}  // namespace

TEST_CASE("OBJ quads are fan-triangulated, vertices kept in file order", "[io][obj]") {
  const TriMesh m = loadObj(meshPath("cube_quads.obj"));
  REQUIRE(m.numVertices() == 8);
  REQUIRE(m.numFaces() == 12);
  CHECK(m.V(0, 0) == -0.5);
  CHECK(m.V(6, 0) == 0.5);
  CHECK(m.V(6, 1) == 0.5);
  CHECK(m.V(6, 2) == 0.5);
  // First quad "f 1 4 3 2" → triangles (0,3,2) and (0,2,1).
  CHECK(m.F(0, 0) == 0);
  CHECK(m.F(0, 1) == 3);
  CHECK(m.F(0, 2) == 2);
  CHECK(m.F(1, 0) == 0);
  CHECK(m.F(1, 1) == 2);
  CHECK(m.F(1, 2) == 1);
  CHECK(signedVolume(m) == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("OBJ with inward faces, CRLF and v/vt/vn indices is oriented outward", "[io][obj]") {
  const TriMesh m = loadObj(meshPath("cube_inward_crlf.obj"));
  REQUIRE(m.numVertices() == 8);
  REQUIRE(m.numFaces() == 12);
  CHECK(signedVolume(m) == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("OBJ objects are merged and relative indices resolved", "[io][obj]") {
  const TriMesh m = loadObj(meshPath("two_tetra_relative.obj"));
  REQUIRE(m.numVertices() == 8);
  REQUIRE(m.numFaces() == 8);
  // "f -4 -2 -3" after 8 vertices → (4, 6, 5).
  CHECK(m.F(4, 0) == 4);
  CHECK(m.F(4, 1) == 6);
  CHECK(m.F(4, 2) == 5);
  const samara::geometry::Topology topo = samara::geometry::buildTopology(m);
  CHECK(topo.parts.size() == 2);
  CHECK(signedVolume(m) == Approx(2.0 / 6.0).epsilon(1e-12));
}

TEST_CASE("OBJ coordinates are read exactly", "[io][obj]") {
  const TriMesh m =
      parseObj("v 0.1 0.2 0.3\nv +1.2345678901234567 0 0\nv 0 1e-3 0\nf 1 2 3\n", "exact.obj");
  CHECK(m.V(0, 0) == 0.1);
  CHECK(m.V(0, 1) == 0.2);
  CHECK(m.V(0, 2) == 0.3);
  CHECK(m.V(1, 0) == 1.2345678901234567);
  CHECK(m.V(2, 1) == 1e-3);
}

TEST_CASE("OBJ errors name the file and the line", "[io][obj][errors]") {
  SECTION("missing file") {
    const Error e = fileError("does_not_exist.obj");
    CHECK(e.path() == meshPath("does_not_exist.obj"));
    CHECK_THAT(e.what(), Catch::Contains("not found"));
  }
  // Each case: the error of reading tests/data/meshes/`file` or, without a file, of parsing
  // `text` as "x.obj"; its line (0: not checked), the start of its message and a part of it
  // (empty: not checked).
  struct Case {
    const char* what;
    const char* file;
    const char* text;
    int line;
    std::string prefix;
    const char* message;
  };
  const Case cases[] = {
      {"non-manifold edge: the line of the third face", "nonmanifold.obj", "", 10,
       meshPath("nonmanifold.obj") + ":10: ", "non-manifold"},
      {"degenerate face after a triangulated quad", "degenerate.obj", "", 11, "", "degenerate"},
      {"nan coordinate", "nan_vertex.obj", "", 3, "", "not a finite number"},
      {"overflowing coordinate", "", "v 0 0 0\nv 1e999 0 0\nv 0 1 0\nf 1 2 3\n", 2,
       "x.obj:2: ", ""},
      {"text where a number belongs", "", "v 0 0 zero\n", 1, "", "\"zero\" is not a number"},
      {"two coordinates", "", "v 0 0 0\n  v 1 2\n", 2, "", ""},
      {"index out of range", "bad_index.obj", "", 5, "", "does not exist"},
      {"relative index before the first vertex", "", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", 4,
       "", ""},
      {"index 0", "", "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 0 1 2\n", 5, "", "malformed face"},
      {"a face with two vertices", "", "v 0 0 0\nv 1 0 0\nf 1 2\n", 3, "", ""},
      {"repeated vertex in a face", "", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 2\n", 4, "", ""},
      // Two triangles sharing edge 1-2 traversed in the same direction.
      {"inconsistent orientation", "", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nf 1 2 3\nf 1 2 4\n", 6,
       "", ""},
      {"no faces", "no_faces.obj", "", 0, "", "no faces"},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.what) {
      const Error e = *c.file ? fileError(c.file) : textError(c.text);
      if (c.line > 0) CHECK(e.line() == c.line);
      if (!c.prefix.empty()) CHECK_THAT(e.what(), Catch::StartsWith(c.prefix));
      if (*c.message) CHECK_THAT(e.what(), Catch::Contains(c.message));
    }
  }
  SECTION("empty file") {
    const Error e = errorOf([] { parseObj("", "empty.obj"); });
    CHECK_THAT(e.what(), Catch::StartsWith("empty.obj: "));
  }
  SECTION("a directory") {
    const Error e = errorOf([] { loadObj(sourcePath("tests/data")); });
    CHECK_THAT(e.what(), Catch::Contains("not a regular file"));
  }
  SECTION("a file over the size limit") {
    const Error e = errorOf([] { loadObj(meshPath("cube_quads.obj"), 100); });
    CHECK_THAT(e.what(), Catch::Contains("too large"));
  }
}
