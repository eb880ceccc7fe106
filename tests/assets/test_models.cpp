// The generated models: closed, outward-oriented parts grouped as documented, plausible mass
// and δ, deterministic OBJ text, valid skin data, and rigid-body sanity in a vacuum.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "asset_test_util.h"

using namespace samara;
using namespace samara::assettest;
namespace ag = samara::assetgen;

namespace {

/// Checks that every part is closed and outward, and that each group is made of whole parts.
void checkClosedGroups(const ag::Model& m, int expectedParts) {
  INFO("model " << m.name);
  const geometry::Topology topo = geometry::buildTopology(m.mesh);  // throws if not manifold
  CHECK(topo.numBoundaryEdges == 0);
  CHECK(static_cast<int>(topo.parts.size()) == expectedParts);
  for (const geometry::Part& p : topo.parts) CHECK(p.kind == geometry::PartKind::kClosed);
  geometry::TriMesh copy = m.mesh;
  CHECK(geometry::orientClosedPartsOutward(&copy, topo) == 0);  // already outward
  for (const geometry::Part& p : topo.parts) CHECK(geometry::partVolume(m.mesh, p) > 0.0);
  // Groups: contiguous, cover every face, each part inside one group, list their vertices.
  int next = 0;
  for (const ag::Group& g : m.groups) {
    INFO("group " << g.name);
    CHECK(g.firstFace == next);
    next += g.numFaces;
    const int end = g.firstFace + g.numFaces;
    std::set<int> parts;
    int missingVertices = 0;
    for (int f = g.firstFace; f < end; ++f) {
      parts.insert(topo.facePart[static_cast<size_t>(f)]);
      for (int k = 0; k < 3; ++k) {
        missingVertices +=
            !std::binary_search(g.vertices.begin(), g.vertices.end(), m.mesh.F(f, k));
      }
    }
    CHECK(missingVertices == 0);
    int outside = 0;
    for (int p : parts) {
      for (int f : topo.parts[static_cast<size_t>(p)].faces) outside += f < g.firstFace || f >= end;
    }
    CHECK(outside == 0);
  }
  CHECK(next == m.mesh.numFaces());
}

/// Mass and δ of the model as a World body of the given density (kg/m³) in `rho`.
core::BodyInfo bodyInfo(const geometry::TriMesh& mesh, double rho) {
  core::World w(neutralWorld(mesh, rho, nullptr, 0.01));
  return w.info(0);
}

}  // namespace

TEST_CASE("Generated models are closed manifolds with the documented groups", "[assets][models]") {
  const ag::Model eel = ag::makeEel();
  checkClosedGroups(eel, 1);
  CHECK(eel.groups.size() == 1);
  const ag::TurtleModel turtle = ag::makeTurtle();
  checkClosedGroups(turtle.model, 6);
  for (const char* g : {"shell", "head", "flipper_fl", "flipper_fr", "flipper_rl", "flipper_rr"}) {
    CHECK_NOTHROW(turtle.model.group(g));
  }
  // Front flippers are larger than rear ones.
  CHECK(turtle.model.group("flipper_fr").vertices.size() >
        turtle.model.group("flipper_rr").vertices.size());
  const ag::ZeppelinModel zep = ag::makeZeppelin();
  // hull, 4 fins, 2 nacelles + 2 pylons, 2 × 2 blades, 2 rudder slabs
  checkClosedGroups(zep.model, 15);
  for (const char* g : {"hull", "fins", "nacelles", "prop_left", "prop_right", "rudder"}) {
    CHECK_NOTHROW(zep.model.group(g));
  }
  const ag::SkinnedModel snake = ag::makeSeaSnake();
  checkClosedGroups(snake.model, 1);
  CHECK_THROWS_AS(eel.group("fin"), std::out_of_range);
  // Lower-resolution variants for the tests are closed too.
  checkClosedGroups(ag::makeEel(kTestResolution), 1);
  checkClosedGroups(ag::makeTurtle(kTestResolution).model, 6);
  checkClosedGroups(ag::makeZeppelin(kTestResolution).model, 15);
  checkClosedGroups(ag::makeSeaSnake(kTestResolution).model, 1);
}

TEST_CASE("Generated models have plausible size, mass and delta", "[assets][models]") {
  auto extent = [](const geometry::TriMesh& m) {
    Vec3 lo, hi;
    geometry::boundingBox(m, &lo, &hi);
    return Vec3(hi - lo);
  };
  SECTION("eel: 1 m, flattened, about 1.5 kg") {
    const ag::Model eel = ag::makeEel();
    const Vec3 e = extent(eel.mesh);
    const core::BodyInfo i = bodyInfo(eel.mesh, 998.0);
    INFO("eel: extent " << e.transpose() << " m, mass " << i.mass << " kg, delta " << i.delta
                        << " m, faces " << i.faces);
    CHECK(e.x() == Approx(1.0).epsilon(1e-9));
    CHECK(e.y() > 1.5 * e.z());  // laterally flattened
    CHECK(i.mass > 1.0);
    CHECK(i.mass < 2.5);
    CHECK(i.delta > 0.01);
    CHECK(i.delta < 0.05);
    // Head (−x) thicker than the tail (+x).
    double headY = 0.0, tailY = 0.0;
    for (int v = 0; v < eel.mesh.numVertices(); ++v) {
      const double x = eel.mesh.V(v, 0), y = std::abs(eel.mesh.V(v, 1));
      if (x < -0.2) headY = std::max(headY, y);
      if (x > 0.3) tailY = std::max(tailY, y);
    }
    CHECK(headY > 1.5 * tailY);
  }
  SECTION("turtle: 0.8 m shell, about 50 kg") {
    const ag::TurtleModel t = ag::makeTurtle();
    const core::BodyInfo i = bodyInfo(t.model.mesh, 998.0);
    const Vec3 e = extent(t.model.mesh);
    INFO("turtle: extent " << e.transpose() << " m, mass " << i.mass << " kg, delta " << i.delta
                           << " m, faces " << i.faces);
    CHECK(i.mass > 30.0);
    CHECK(i.mass < 80.0);
    CHECK(i.delta > 0.03);
    CHECK(i.delta < 0.15);
    CHECK(e.z() > 1.2);  // flippers spread wider than the shell
  }
  SECTION("zeppelin: 3 m hull, neutrally buoyant at about 1.2 kg") {
    const ag::ZeppelinModel z = ag::makeZeppelin();
    const core::BodyInfo i = bodyInfo(z.model.mesh, 1.225);
    const Vec3 e = extent(z.model.mesh);
    INFO("zeppelin: extent " << e.transpose() << " m, mass " << i.mass << " kg, volume " << i.volume
                             << " m^3, delta " << i.delta << " m, faces " << i.faces);
    CHECK(e.x() > 3.0);
    CHECK(i.volume > 1.0);  // hull (4/3)π·1.5·0.4² ≈ 1.005 m³ plus fins etc.
    CHECK(i.volume < 1.1);
    CHECK(i.mass == Approx(1.225 * i.volume));
    CHECK(i.delta > 0.05);
    CHECK(i.delta < 0.3);
  }
  SECTION("sea snake: 1.2 m, about 2.5 kg") {
    const ag::SkinnedModel s = ag::makeSeaSnake();
    const core::BodyInfo i = bodyInfo(s.model.mesh, 998.0);
    INFO("snake: mass " << i.mass << " kg, delta " << i.delta << " m, faces " << i.faces);
    CHECK(i.mass > 1.5);
    CHECK(i.mass < 4.0);
  }
}

TEST_CASE("OBJ text: groups, 1-based faces, deterministic", "[assets][models]") {
  const ag::TurtleModel t = ag::makeTurtle(0.3);
  const std::string a = ag::formatObj(t.model, {"generated", "second line"});
  const std::string b = ag::formatObj(ag::makeTurtle(0.3).model, {"generated", "second line"});
  CHECK(a == b);
  CHECK(a.rfind("# generated\n# second line\nv ", 0) == 0);
  CHECK(a.find("\ng flipper_fl\nf ") != std::string::npos);
  size_t faces = 0, verts = 0, groups = 0;
  for (size_t p = 0; p < a.size(); p = a.find('\n', p) + 1) {
    faces += a.compare(p, 2, "f ") == 0;
    verts += a.compare(p, 2, "v ") == 0;
    groups += a.compare(p, 2, "g ") == 0;
  }
  CHECK(faces == static_cast<size_t>(t.model.mesh.numFaces()));
  CHECK(verts == static_cast<size_t>(t.model.mesh.numVertices()));
  CHECK(groups == t.model.groups.size());
  CHECK(a.find("f 0 ") == std::string::npos);
}

TEST_CASE("Skinned sea snake: joint chain, weights, channels, starts at rest",
          "[assets][models][skin]") {
  const ag::SkinnedModel s = ag::makeSeaSnake(kTestResolution);
  const core::SkinnedAnimation& a = *s.animation;
  REQUIRE(a.joints.size() >= 4);
  CHECK(a.nodes.size() == s.nodeNames.size());
  CHECK(a.inverseBind.size() == a.joints.size());
  for (size_t i = 1; i < a.nodes.size(); ++i) CHECK(a.nodes[i].parent == static_cast<int>(i) - 1);
  REQUIRE(a.vertexWeights.rows() == s.model.mesh.numVertices());
  const Eigen::VectorXd sums = a.vertexWeights.rowwise().sum();
  CHECK((sums.array() - 1.0).abs().maxCoeff() < 1e-12);
  CHECK(a.vertexWeights.minCoeff() >= 0.0);
  CHECK(a.vertexJoints.minCoeff() >= 0);
  CHECK(a.vertexJoints.maxCoeff() < static_cast<int>(a.joints.size()));
  REQUIRE(a.channels.size() >= 4);
  for (const auto& c : a.channels) {
    CHECK(c.path == core::SkinnedAnimation::Path::kRotation);
    CHECK(c.interp == core::SkinnedAnimation::Interp::kLinear);
    CHECK(c.times.back() == Approx(a.duration));
    CHECK(c.values.size() == 4 * c.times.size());
    // Looping: the last key equals the first.
    for (int k = 0; k < 4; ++k) CHECK(c.values[c.values.size() - 4 + k] == c.values[k]);
  }
  CHECK(a.loop);
  // The animation starts at rest: the shape at t = 0 is the bind pose.
  geometry::VertexMatrix V0;
  a.evaluate(0.0, &V0);
  CHECK((V0 - a.rest).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((a.rest - s.model.mesh.V).cwiseAbs().maxCoeff() == 0.0);
  // …and it moves: at a quarter period the tail has moved sideways by centimetres.
  geometry::VertexMatrix Vq;
  a.evaluate(0.25 * a.duration, &Vq);
  const double moved = (Vq - V0).rowwise().norm().maxCoeff();
  INFO("max vertex displacement at T/4: " << moved << " m");
  CHECK(moved > 0.05);
  CHECK(moved < 0.5);
  // Periodic: one period later the shape repeats.
  geometry::VertexMatrix V1;
  a.evaluate(a.duration, &V1);
  CHECK((V1 - V0).cwiseAbs().maxCoeff() < 1e-12);
}

TEST_CASE("Generated meshes as rigid bodies in a vacuum keep their momentum", "[assets][models]") {
  struct Case {
    const char* name;
    geometry::TriMesh mesh;
  };
  const std::vector<Case> cases = {{"eel", ag::makeEel(0.3).mesh},
                                   {"turtle", ag::makeTurtle(0.3).model.mesh},
                                   {"zeppelin", ag::makeZeppelin(0.3).model.mesh},
                                   {"sea snake", ag::makeSeaSnake(0.3).model.mesh}};
  for (const Case& c : cases) {
    INFO(c.name);
    core::WorldDef def = neutralWorld(c.mesh, 1000.0, nullptr, 0.005);
    def.fluid.density = 0.0;  // vacuum
    def.bodies[0].velocity = Vec3(0.3, -0.1, 0.2);
    def.bodies[0].angularVelocity = Vec3(0.5, 1.5, -0.7);
    core::World w(def);
    const Vec6 J0 = w.discreteMomentumMap(0);
    const Vec3 p0 = w.diagnostics(0).linearMomentum;
    const Vec3 com0 = w.diagnostics(0).com;
    runUntil(&w, 2.0);
    const Vec6 J = w.discreteMomentumMap(0);
    INFO("J0 " << J0.transpose() << "  J " << J.transpose());
    CHECK((J - J0).norm() < 1e-10 * J0.norm());
    // The plain Ad*_g μ oscillates by O(h) around the conserved value (PHYSICS.md §4).
    CHECK((w.diagnostics(0).linearMomentum - p0).norm() < 0.02 * p0.norm());
    // The COM moves uniformly: after 2 s it is 2 s × v away.
    const Vec3 com = w.diagnostics(0).com;
    CHECK((com - com0 - 2.0 * Vec3(0.3, -0.1, 0.2)).norm() < 1e-3);
    CHECK(w.diagnostics(0).angularMomentum.norm() > 0.0);
  }
}
