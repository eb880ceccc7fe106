// The scene's size limits (faces and vertices over all bodies), with small limits: counted
// over bodies, and for an OBJ checked on its counts before its records are read.
#include <catch2/catch.hpp>
#include <string>

#include "io/error.h"
#include "io/scene.h"
#include "io_test_util.h"

using namespace samara::io;
using namespace samara::io::test;

namespace {

/// A closed tetrahedron (4 vertices, 4 faces); `tail` is appended (e.g. a bad record that
/// reading the records would report).
std::string tetra(const std::string& tail = "") {
  return "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n" + tail;
}

std::string body(const std::string& mesh) {
  return R"({"mesh": )" + mesh + R"(, "mass": {"total": 1}})";
}

/// The io::Error of reading the scene with these bodies and limits in `dir`.
Error limitError(const TempDir& dir, const std::string& bodies, const SceneLimits& limits) {
  writeText(dir.file("s.json"), R"({"bodies": [)" + bodies + "]}");
  return errorOf([&] {
    (void)parseScene(readText(dir.file("s.json")), "s.json", dir.path().string(), {}, limits);
  });
}

const std::string kPlate10 = R"({"primitive": "plate", "size": [1, 1], "segments": [10, 10]})";

}  // namespace

TEST_CASE("Face and vertex limits count over all bodies", "[io][scene][limits]") {
  TempDir dir("limits");
  writeText(dir.file("t.obj"), tetra());
  SceneLimits limits;
  SECTION("faces: the same OBJ twice") {
    limits.maxFaces = 7;
    const Error e = limitError(dir, body(R"("t.obj")") + "," + body(R"("t.obj")"), limits);
    CHECK(e.field() == "/bodies/1/mesh");
    CHECK_THAT(e.what(), Catch::StartsWith("s.json: /bodies/1/mesh: too many faces (8 in the "
                                           "scene so far; the limit is 7)"));
  }
  SECTION("faces: two plates of 200") {
    limits.maxFaces = 399;
    const Error e = limitError(dir, body(kPlate10) + "," + body(kPlate10), limits);
    CHECK(e.field() == "/bodies/1/mesh");
    CHECK_THAT(e.what(), Catch::Contains("too many faces (400"));
  }
  SECTION("vertices: two plates of 121") {
    limits.maxVertices = 241;
    const Error e = limitError(dir, body(kPlate10) + "," + body(kPlate10), limits);
    CHECK(e.field() == "/bodies/1/mesh");
    CHECK_THAT(e.what(), Catch::Contains("too many vertices (242 in the scene so far; the limit "
                                         "is 241)"));
  }
  SECTION("at the limits exactly: accepted") {
    limits.maxFaces = 8;
    limits.maxVertices = 8;
    CHECK_NOTHROW(
        parseScene(R"({"bodies": [)" + body(R"("t.obj")") + "," + body(R"("t.obj")") + "]}",
                   "s.json", dir.path().string(), {}, limits));
  }
}

TEST_CASE("An OBJ over a limit is refused on its counts, before its records are read",
          "[io][scene][limits]") {
  TempDir dir("limits");
  // Reading the records would report line 9; the counts alone are over the limits.
  writeText(dir.file("t.obj"), tetra("v 0 0 zero\n"));
  SceneLimits limits;
  SECTION("faces") {
    limits.maxFaces = 3;
    const Error e = limitError(dir, body(R"("t.obj")"), limits);
    CHECK(e.field() == "/bodies/0/mesh");
    CHECK_THAT(e.what(), Catch::Contains("too many faces (4 in the scene so far; the limit is 3)"));
  }
  SECTION("vertices") {
    limits.maxVertices = 4;
    const Error e = limitError(dir, body(R"("t.obj")"), limits);
    CHECK(e.field() == "/bodies/0/mesh");
    CHECK_THAT(e.what(), Catch::Contains("too many vertices (5 in the scene so far"));
  }
  SECTION("within the limits the records are read") {
    const Error e = limitError(dir, body(R"("t.obj")"), limits);
    CHECK(e.line() == 9);
    CHECK_THAT(e.what(), Catch::Contains("\"zero\" is not a number"));
  }
}
