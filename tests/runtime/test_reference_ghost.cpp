// The Navier–Stokes reference in the viewer (issue 19): a `samara cfd` run read back beside
// its reduced_scene.json (io/cfd_reference.h) and shown as the ghost of body 0
// (runtime/reference_ghost.h).
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/world.h"
#include "io/cfd_reference.h"
#include "io/cfd_run.h"
#include "io/cfd_scene.h"
#include "io/error.h"
#include "io/scene.h"
#include "runtime/publish.h"
#include "runtime/reference_ghost.h"
#include "runtime_test_util.h"

namespace {

namespace fs = std::filesystem;
using samara::Quat;
using samara::Vec3;
using samara::runtime::test::TempDir;
const std::string kTiny = std::string(SAMARA_SOURCE_DIR) + "/tests/data/cfd/tiny.json";

/// The tiny CFD scene run into `dir` with a picture every 0.1 s (0.4 s: 4 pictures).
void runTiny(const std::string& dir) {
  samara::io::CfdScene scene = samara::io::loadCfdScene(kTiny);
  scene.snapshotEvery = 0.1;
  samara::io::CfdRunOptions opt;
  opt.outDir = dir;
  const samara::io::CfdRunResult r = samara::io::runCfd(scene, kTiny, opt);
  REQUIRE_FALSE(r.failed);
  REQUIRE(r.snapshots == 4);
}

/// The snapshot of body 0 of the reduced scene in `dir` at t = 0, as the runner publishes it.
samara::runtime::Snapshot reducedSnapshot(const std::string& dir) {
  samara::runtime::Snapshot s;
  s.scenePath = (fs::path(dir) / "reduced_scene.json").string();
  s.sceneFromFile = true;
  const samara::core::World world(samara::io::loadScene(s.scenePath));
  samara::runtime::fillBodies(world, samara::runtime::cacheBodies(world), {}, &s.bodies);
  s.params.gravity = Vec3(0.0, -1.0, 0.0);
  return s;
}

void replaceInFile(const fs::path& p, const std::string& from, const std::string& to) {
  std::string text = samara::runtime::test::readBytes(p);
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  text.replace(at, from.size(), to);
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("CFD reference: the run read back beside its reduced scene", "[runtime][cfd]") {
  TempDir dir;
  runTiny(dir.path().string());
  const auto found = samara::io::findCfdReference(dir.file("reduced_scene.json"));
  REQUIRE(found);
  const samara::io::CfdReference& r = *found;
  CHECK(r.sceneName == "tiny");
  CHECK(r.states.size() == 9);  // t = 0, 0.05, …, 0.4
  CHECK(r.width == Approx(1.0));
  CHECK(r.height == Approx(1.0));
  REQUIRE(r.pictures.size() == 4);
  for (std::size_t k = 0; k < 4; ++k) {
    CHECK(r.pictures[k].t == Approx(0.1 * (k + 1)));
    CHECK(r.pictures[k].pixelsX == 64);
    CHECK(r.pictures[k].rgb.size() == 64u * 64u * 3u);
  }
  // The window follows the falling body: its lower-left corner goes down with it.
  CHECK(r.pictures.back().y0 < r.pictures.front().y0);

  // Poses: the samples themselves at their times, halfway between them in between.
  const auto& a = r.states[4];
  const auto& b = r.states[5];
  const samara::io::CfdPose pa = samara::io::cfdPoseAt(r, a.t);
  CHECK((pa.position - *a.com).norm() == 0.0);
  CHECK(pa.orientation.angularDistance(a.q) < 1e-12);
  const samara::io::CfdPose mid = samara::io::cfdPoseAt(r, 0.5 * (a.t + b.t));
  CHECK((mid.position - 0.5 * (*a.com + *b.com)).norm() < 1e-15);
  CHECK(mid.orientation.angularDistance(a.q) ==
        Approx(0.5 * a.q.angularDistance(b.q)).margin(1e-12));
  CHECK((samara::io::cfdPoseAt(r, -1.0).position - *r.states.front().com).norm() == 0.0);
  CHECK((samara::io::cfdPoseAt(r, 9.0).position - *r.states.back().com).norm() == 0.0);
  // The picture nearest in time.
  CHECK(samara::io::cfdPictureAt(r, 0.0) == 0);
  CHECK(samara::io::cfdPictureAt(r, 0.26) == 2);
  CHECK(samara::io::cfdPictureAt(r, 5.0) == 3);

  // Any other scene has no reference, nor a reduced scene without the run's files.
  CHECK_FALSE(samara::io::findCfdReference(std::string(SAMARA_SOURCE_DIR) +
                                           "/assets/scenes/maple_seed.json"));
  TempDir lone;
  fs::copy_file(dir.path() / "reduced_scene.json", lone.path() / "reduced_scene.json");
  CHECK_FALSE(samara::io::findCfdReference(lone.file("reduced_scene.json")));
}

TEST_CASE("CFD reference: a damaged run names the file and the field or line", "[runtime][cfd]") {
  TempDir dir;
  runTiny(dir.path().string());
  const fs::path index = dir.path() / "snapshots.json";
  const std::string scene = dir.file("reduced_scene.json");
  auto message = [&]() -> std::string {
    try {
      (void)samara::io::findCfdReference(scene);
    } catch (const samara::io::Error& e) {
      return e.what();
    }
    return "no error";
  };
  SECTION("a picture of the wrong size") {
    replaceInFile(index, "\"nx\": 64", "\"nx\": 32");
    const std::string m = message();
    CHECK(m.find("vorticity_0001.png") != std::string::npos);
    CHECK(m.find("64 × 64 pixels; snapshots.json says 32 × 64") != std::string::npos);
  }
  SECTION("times out of order") {
    replaceInFile(index, "{\"t\": 0.2", "{\"t\": 0.05");
    const std::string m = message();
    CHECK(m.find("snapshots.json: /snapshots/1/t: times must increase") != std::string::npos);
  }
  SECTION("a picture outside the folder") {
    replaceInFile(index, "\"png\": \"vorticity_0002.png\"", "\"png\": \"../x.png\"");
    CHECK(message().find("/snapshots/1/png: must be a file name in the run's folder") !=
          std::string::npos);
  }
  SECTION("a missing picture") {
    fs::remove(dir.path() / "vorticity_0003.png");
    CHECK(message().find("vorticity_0003.png") != std::string::npos);
  }
  SECTION("not a PNG") {
    std::ofstream(dir.path() / "vorticity_0004.png", std::ios::binary) << "P6 1 1 255 abc";
    CHECK(message().find("vorticity_0004.png: not a PNG") != std::string::npos);
  }
  SECTION("a trajectory line that is not a number") {
    const fs::path csv = dir.path() / "trajectory.csv";
    std::string text = samara::runtime::test::readBytes(csv);
    const auto line3 = text.find('\n', text.find('\n') + 1) + 1;  // the second sample
    text.insert(line3, "x");
    std::ofstream(csv, std::ios::binary) << text;
    const std::string m = message();
    CHECK(m.find("trajectory.csv:3") != std::string::npos);
  }
  SECTION("the runtime turns it into a notice, and no reference") {
    replaceInFile(index, "\"nx\": 64", "\"nx\": 32");
    samara::runtime::ReferenceGhost ghost;
    const std::string why = ghost.onNewRun(reducedSnapshot(dir.path().string()));
    CHECK(why.find("cannot be shown") != std::string::npos);
    CHECK(why.find("vorticity_0001.png") != std::string::npos);
    CHECK_FALSE(ghost.active());
  }
}

TEST_CASE("CFD reference: the ghost of body 0 follows the run, its samples beside body 0's",
          "[runtime][cfd]") {
  TempDir dir;
  runTiny(dir.path().string());
  samara::runtime::Snapshot s = reducedSnapshot(dir.path().string());
  samara::runtime::ReferenceGhost ghost;
  REQUIRE(ghost.onNewRun(s).empty());
  REQUIRE(ghost.active());
  const samara::io::CfdReference& r = ghost.reference();
  // The plane through the middle of the span.
  CHECK(ghost.planeZ() == Approx(0.0).margin(1e-12));

  s.time = r.states[6].t;
  s.stepIndex = 30;
  const samara::runtime::Snapshot& shown = ghost.apply(s);
  REQUIRE(shown.ghostBodies.size() == 1);
  CHECK(shown.ghostModel == samara::runtime::kReferenceGhostModel);
  const samara::runtime::BodySnapshot& b = s.bodies[0];
  const samara::runtime::BodySnapshot& g = shown.ghostBodies[0];
  const auto& row = r.states[6];
  CHECK((g.diagnostics.com - *row.com).norm() == 0.0);
  CHECK((g.diagnostics.velocity - row.velocity).norm() == 0.0);
  CHECK(g.diagnostics.fallSpeed == Approx(-row.velocity.y()));
  CHECK(g.orientation.angularDistance(row.q) < 1e-12);
  // Rigidly moved: every vertex is R · rest + origin, and the COM sits where it sits in
  // the body.
  const Eigen::Matrix3d R = g.orientation.toRotationMatrix();
  for (Eigen::Index i = 0; i < g.vertices.rows(); i += 97) {
    const Vec3 v = R * b.restVertices->row(i).transpose() + g.position;
    CHECK((v - g.vertices.row(i).transpose()).norm() < 1e-14);
  }
  const Vec3 offsetBody = b.orientation.conjugate() * (b.position - b.diagnostics.com);
  const Vec3 offsetGhost = g.orientation.conjugate() * (g.position - g.diagnostics.com);
  CHECK((offsetBody - offsetGhost).norm() < 1e-14);
  CHECK(g.boundsLo.y() <= g.diagnostics.com.y());
  CHECK(g.boundsHi.y() >= g.diagnostics.com.y());

  // Samples: one of the reference per sample of body 0, up to the run's end, none for a
  // ghost's sample or another body.
  std::vector<samara::runtime::PlotSample> samples;
  for (double t : {0.1, 0.2, 0.5}) {
    samara::runtime::PlotSample p;
    p.time = t;
    p.body = 0;
    samples.push_back(p);
  }
  samara::runtime::PlotSample other;
  other.time = 0.1;
  other.body = 1;
  samples.push_back(other);
  ghost.addSamples(&samples, s);
  REQUIRE(samples.size() == 6);
  CHECK(samples[4].ghost);
  CHECK(samples[4].time == 0.1);
  CHECK((samples[5].d.com - samara::io::cfdPoseAt(r, 0.2).position).norm() == 0.0);

  // A model ghost of the run's own takes precedence: nothing is added or replaced.
  s.ghostModel = "vacuum";
  s.ghostBodies = {s.bodies[0]};
  CHECK(&ghost.apply(s) == &s);
  std::vector<samara::runtime::PlotSample> none(1);
  ghost.addSamples(&none, s);
  CHECK(none.size() == 1);

  // The picture nearest the snapshot's time; another scene drops the reference.
  CHECK(ghost.pictureAt(0.31) == 2);
  samara::runtime::Snapshot maple;
  maple.scenePath = std::string(SAMARA_SOURCE_DIR) + "/assets/scenes/maple_seed.json";
  maple.sceneFromFile = true;
  CHECK(ghost.onNewRun(maple).empty());
  CHECK_FALSE(ghost.active());
  CHECK(ghost.pictureAt(0.31) == -1);
}
