// The "spawn" generator of scene bodies (issue 17): copies placed, turned, sized and weighted
// by seeded draws that are the same on every platform, the limits, the shipped crowds and
// save as.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>

#include "core/world.h"
#include "io/scene.h"
#include "io/scene_spawn.h"
#include "io/scene_writer.h"
#include "io_test_util.h"

using namespace samara;
using namespace samara::io::test;
using samara::io::Error;

namespace {

const std::string kSceneDir = sourcePath("assets/scenes/");

/// A scene of `count` copies of a 2 × 2-cell plate (8 faces) and a point mass, with `spawn`
/// fields added to count and region.
std::string plates(int count, const std::string& more = "", const std::string& body = "") {
  return R"({"sim": {"dt": 0.002}, "bodies": [)" + body +
         R"({"name": "p", "mesh": {"primitive": "plate", "size": [0.1, 0.05], "segments": [2, 2]},
      "mass": {"total": 0.001}, "point_masses": [{"position": [0.02, 0, 0], "mass": 0.0005}],
      "delta": 0.004,
      "spawn": {"count": )" +
         std::to_string(count) + R"(, "region": {"min": [-3, 3, -2], "max": [3, 9, 2]})" + more +
         "}}]}";
}

core::WorldDef parse(const std::string& text) { return samara::io::parseScene(text, "s.json", ""); }

double angleDeg(const Vec3& a, const Vec3& b) {
  return std::atan2(a.cross(b).norm(), a.dot(b)) * 180.0 / M_PI;
}

}  // namespace

TEST_CASE("spawn: names, region, tilt, scale and mass of every copy", "[io][scene][spawn]") {
  const std::string more =
      R"(, "seed": 3, "tilt_deg": 30, "scale": [0.8, 1.2], "mass_scatter": 0.2)";
  const core::WorldDef def = parse(plates(60, more));
  REQUIRE(def.bodies.size() == 60);
  const core::WorldDef one = parse(plates(1, R"(, "seed": 3)"));
  const geometry::TriMesh& base = one.bodies[0].mesh;
  double minScale = 10, maxScale = 0, maxTilt = 0, minMass = 10, maxMass = 0;
  for (std::size_t i = 0; i < def.bodies.size(); ++i) {
    const core::BodyDef& b = def.bodies[i];
    char name[32];
    std::snprintf(name, sizeof name, "p_%03zu", i);
    CHECK(b.name == name);
    for (int k = 0; k < 3; ++k) {
      CHECK(b.position[k] >= Vec3(-3, 3, -2)[k]);
      CHECK(b.position[k] <= Vec3(3, 9, 2)[k]);
    }
    const double tilt = angleDeg(b.orientation * Vec3::UnitY(), Vec3::UnitY());
    CHECK(tilt <= 30.0 + 1e-9);
    maxTilt = std::max(maxTilt, tilt);
    // The mesh, the point mass's position and δ scaled by one factor in [0.8, 1.2].
    const double s = b.mesh.V(1, 0) / base.V(1, 0);
    CHECK(s >= 0.8);
    CHECK(s <= 1.2);
    CHECK((b.mesh.V - s * base.V).cwiseAbs().maxCoeff() < 1e-15);
    CHECK(b.mesh.F == base.F);
    CHECK(b.pointMasses[0].position.x() == Approx(0.02 * s).epsilon(1e-14));
    CHECK(*b.delta == Approx(0.004 * s).epsilon(1e-14));
    minScale = std::min(minScale, s);
    maxScale = std::max(maxScale, s);
    // The total and the point mass times one factor in [0.8, 1.2].
    const double f = b.mass.total / 0.001;
    CHECK(f >= 0.8);
    CHECK(f <= 1.2);
    CHECK(b.pointMasses[0].mass == Approx(0.0005 * f).epsilon(1e-14));
    minMass = std::min(minMass, f);
    maxMass = std::max(maxMass, f);
  }
  // The draws spread over their ranges (60 copies).
  CHECK(maxTilt > 20.0);
  CHECK(minScale < 0.85);
  CHECK(maxScale > 1.15);
  CHECK(minMass < 0.85);
  CHECK(maxMass > 1.15);
  // Every copy builds a World.
  const core::World world = samara::io::makeWorld(def, "s.json");
  CHECK(world.numBodies() == 60);
}

TEST_CASE("spawn: the draws are our own, the same bits on every platform", "[io][scene][spawn]") {
  // Reference values from an independent implementation of splitmix64 + xoshiro256** with
  // doubles from the top 53 bits (Python integers): seed 3, region [-3, 3]×[3, 9]×[-2, 2].
  const core::WorldDef def = parse(plates(8, R"(, "seed": 3)"));
  CHECK(def.bodies[0].position.x() == -0.18394281744377583);
  CHECK(def.bodies[0].position.y() == 4.3485595114957505);
  CHECK(def.bodies[0].position.z() == -1.2307629384813992);
  CHECK(def.bodies[1].position.x() == -2.6729011277918104);
  CHECK(def.bodies[1].position.y() == 5.868701726745469);
  CHECK(def.bodies[7].position.z() == 0.5882775743143811);
  SECTION("the same scene twice: the same bodies bit for bit") {
    CHECK(samara::io::definitionDifference(def, parse(plates(8, R"(, "seed": 3)"))).empty());
  }
  SECTION("a larger count keeps the first copies") {
    const core::WorldDef more = parse(plates(50, R"(, "seed": 3)"));
    for (std::size_t i = 0; i < 8; ++i) {
      CHECK(more.bodies[i].position == def.bodies[i].position);
      CHECK(more.bodies[i].orientation.coeffs() == def.bodies[i].orientation.coeffs());
    }
  }
  SECTION("another seed, other places") {
    const core::WorldDef other = parse(plates(8, R"(, "seed": 4)"));
    for (std::size_t i = 0; i < 8; ++i) CHECK(other.bodies[i].position != def.bodies[i].position);
  }
}

TEST_CASE("spawn: tilt and yaw 180 give uniform orientations, positions fill the box",
          "[io][scene][spawn]") {
  const int n = 4000;
  const core::WorldDef def = parse(plates(n, R"(, "seed": 9)"));
  Vec3 meanUp = Vec3::Zero(), meanX = Vec3::Zero(), meanPos = Vec3::Zero();
  int upper = 0;
  for (const core::BodyDef& b : def.bodies) {
    const Vec3 up = b.orientation * Vec3::UnitY();
    meanUp += up / n;
    meanX += (b.orientation * Vec3::UnitX()) / n;
    meanPos += b.position / n;
    upper += up.y() > 0.0 ? 1 : 0;
  }
  // Uniform on the sphere: |mean| ~ 1/√(3n) = 0.009; the hemisphere count 2000 ± 32.
  CHECK(meanUp.norm() < 0.04);
  CHECK(meanX.norm() < 0.04);
  CHECK(std::abs(upper - n / 2) < 130);
  // Uniform in the box: the centre (0, 6, 0) within 4 standard errors (σ = size/√(12 n)).
  CHECK(std::abs(meanPos.x()) < 4 * 6.0 / std::sqrt(12.0 * n));
  CHECK(std::abs(meanPos.y() - 6.0) < 4 * 6.0 / std::sqrt(12.0 * n));
  CHECK(std::abs(meanPos.z()) < 4 * 4.0 / std::sqrt(12.0 * n));
  SECTION("tilt 0 and yaw 0 keep the entry's orientation") {
    const core::WorldDef still = parse(plates(5, R"(, "tilt_deg": 0, "yaw_deg": 0)"));
    for (const core::BodyDef& b : still.bodies) CHECK(b.orientation.w() == 1.0);
  }
}

TEST_CASE("spawn: limits name the field", "[io][scene][spawn]") {
  SECTION("faces over the scene's limit: the count") {
    samara::io::SceneLimits limits;
    limits.maxFaces = 1000;  // 8 faces a copy: 125 fit
    CHECK_NOTHROW(samara::io::parseScene(plates(125), "s.json", "", {}, limits));
    const Error e = errorOf([&] { samara::io::parseScene(plates(126), "s.json", "", {}, limits); });
    CHECK(e.field() == "/bodies/0/spawn/count");
    CHECK(e.message().find("1008") != std::string::npos);
  }
  SECTION("bodies over the scene's limit, with the bodies before it") {
    samara::io::SceneLimits limits;
    limits.maxBodies = 100;
    const std::string ball =
        R"({"name": "b", "mesh": {"primitive": "sphere", "radius": 0.1, "subdivisions": 0},
            "mass": {"density": 100}}, )";
    CHECK_NOTHROW(samara::io::parseScene(plates(99, "", ball), "s.json", "", {}, limits));
    const Error e =
        errorOf([&] { samara::io::parseScene(plates(100, "", ball), "s.json", "", {}, limits); });
    CHECK(e.field() == "/bodies/1/spawn/count");
    CHECK(e.message().find("101 bodies") != std::string::npos);
  }
  SECTION("names past 1000 copies get more digits") {
    CHECK(samara::io::spawnName("leaf", 7, 1000) == "leaf_007");
    CHECK(samara::io::spawnName("leaf", 7, 1001) == "leaf_0007");
    CHECK(samara::io::spawnName("leaf", 12345, 100000) == "leaf_12345");
  }
}

TEST_CASE("spawn: the shipped crowds", "[io][scene][spawn]") {
  const core::WorldDef storm = samara::io::loadScene(kSceneDir + "leaf_storm.json");
  REQUIRE(storm.bodies.size() >= 500);
  std::set<int> species;
  for (const core::BodyDef& b : storm.bodies) {
    species.insert(b.mesh.numFaces());
    CHECK(b.mesh.numFaces() >= 200);
    CHECK(b.position.y() >= 3.0);
    CHECK(b.position.y() <= 9.0);
  }
  CHECK(species.size() == 3);
  CHECK(storm.fluid.gusts != nullptr);
  CHECK(storm.floor.has_value());
  const core::WorldDef rain = samara::io::loadScene(kSceneDir + "maple_rain.json");
  REQUIRE(rain.bodies.size() >= 200);
  const core::WorldDef seed = samara::io::loadScene(kSceneDir + "maple_seed.json");
  // The maple seed's mesh and mass: its point masses (the vein and the nut) on every copy.
  CHECK(rain.bodies[0].mesh.numFaces() == seed.bodies[0].mesh.numFaces());
  CHECK(rain.bodies[0].pointMasses.size() == seed.bodies[0].pointMasses.size());
}

TEST_CASE("spawn: save as writes the seed out", "[io][scene][spawn][save]") {
  TempDir dir("spawn_seed");
  const std::string source = dir.file("s.json");
  writeText(source, plates(3));
  const std::string dest = dir.file("saved.json");
  samara::io::saveSceneAs(source, {}, dest);
  CHECK(readText(dest).find("\"seed\": 0") != std::string::npos);
  CHECK(samara::io::definitionDifference(samara::io::loadScene(source), samara::io::loadScene(dest))
            .empty());
}

TEST_CASE("spawn: save as keeps the generator", "[io][scene][spawn][save]") {
  TempDir dir("spawn_save");
  const std::string source = kSceneDir + "maple_rain.json";
  const samara::io::SetList sets = {{"/bodies/0/spawn/count", "4"}, {"/bodies/0/spawn/seed", "17"}};
  const std::string dest = dir.file("rain.json");
  samara::io::saveSceneAs(source, sets, dest);
  CHECK(readText(dest).find("\"spawn\"") != std::string::npos);
  const core::WorldDef a = samara::io::loadScene(source, sets);
  const core::WorldDef b = samara::io::loadScene(dest);
  REQUIRE(b.bodies.size() == 4);
  CHECK(samara::io::definitionDifference(a, b).empty());
}
