// Baked-motion export (issue 7): the frame plan, file names, Houdini angles, staged files,
// and every format checked against the World it came from: the glb parsed back with
// tinygltf (node count, accessor counts, time range, node transforms equal to the CSV's
// origin and quaternion, morph targets equal to the world vertices), the OBJ sequence, the
// CSV rows equal to `samara run`'s CsvWriter rows bit for bit, .chan rows and .pc2 caches.
#include <tiny_gltf.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/world.h"
#include "gltf_test_util.h"
#include "io/csv.h"
#include "io/error.h"
#include "io/export.h"
#include "io/run_driver.h"
#include "io/scene.h"
#include "io_test_util.h"

namespace fs = std::filesystem;
using namespace samara;
using namespace samara::io;
using namespace samara::io::test;
using samara::core::World;
using samara::geometry::VertexMatrix;

namespace {

/// A swimming strip (travelling wave: shape-changing), a spinning card and a ball. The card
/// keeps the paper's model: under it, its Euler angles stay clear of gimbal lock at 100 fps,
/// which the chan check below (consecutive angles within 90°) relies on.
const char* const kScene = R"({
  "name": "mixed",
  "gravity": [0, -9.81, 0],
  "fluid": {"density": 1.225},
  "sim": {"dt": 0.01, "duration": 0.5},
  "bodies": [
    {"name": "strip", "mesh": {"primitive": "box", "size": [0.2, 0.02, 0.04], "cells": 3},
     "mass": {"density": 300}, "position": [0, 0.5, 0],
     "animation": {"type": "wave", "axis": [1, 0, 0], "lateral": [0, 0, 1],
                   "amplitude": [0.005, 0, 0.02], "wavelength": 0.2, "frequency": 2}},
    {"name": "card", "mesh": {"primitive": "plate", "size": [0.1, 0.06], "segments": [3, 2]},
     "mass": {"density": 700, "thickness": 0.0002}, "position": [1, 1, 0],
     "orientation": {"axis": [0, 0, 1], "angle_deg": 20}, "angular_velocity": [3, 5, 8],
     "model": "gwtf-2024"},
    {"name": "ball", "mesh": {"primitive": "sphere", "radius": 0.05, "subdivisions": 1},
     "mass": {"density": 200}, "position": [0, 1, 0.5], "angular_velocity": [0, 2, 0]}
  ]
})";

World makeWorld() {
  return samara::io::makeWorld(samara::io::parseScene(kScene, "mixed.json", ""), "mixed.json");
}

/// The frames of a run sampled by `plan` (as `samara export` steps), and per frame the
/// `samara run` CSV text of that step (CsvWriter::writeSample).
struct Baked {
  std::vector<Frame> frames;
  std::vector<std::string> runRows;
  std::vector<long long> steps;
};

Baked bake(World* world, const FramePlan& plan) {
  Baked b;
  const long long n = plan.numFrames();
  long long step = 0;
  for (long long k = 0; k < n; ++k) {
    for (; step < plan.frameStep(k); ++step) REQUIRE(world->step().ok());
    b.frames.push_back(samara::io::captureFrame(*world, k, plan.fps));
    std::ostringstream rows;
    {
      samara::io::CsvWriter csv(rows);
      csv.writeSample(*world);
    }
    b.runRows.push_back(rows.str());
    b.steps.push_back(step);
  }
  return b;
}

samara::io::MemoryFiles exportAll(ExportFormat format, const std::string& out, const World& world,
                                  const Baked& baked, const FramePlan& plan) {
  ExportSettings s;
  s.format = format;
  s.out = out;
  s.sceneName = world.definition().name;
  s.plan = plan;
  s.chanMaxTurn = M_PI;  // a row per frame: the rows are the frames
  samara::io::MemoryFiles files;
  samara::io::MotionExporter exporter(s, samara::io::exportBodies(world), &files);
  for (const Frame& f : baked.frames) exporter.addFrame(f);
  exporter.finish();
  return files;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string f; std::getline(in, f, sep);) out.push_back(f);
  return out;
}

std::vector<std::string> lines(const std::string& s) { return split(s, '\n'); }

/// The floats of a tightly packed float accessor.
std::vector<float> floats(const tinygltf::Model& m, int accessor) {
  const tinygltf::Accessor& a = m.accessors.at(static_cast<std::size_t>(accessor));
  REQUIRE(a.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT);
  const tinygltf::BufferView& v = m.bufferViews.at(static_cast<std::size_t>(a.bufferView));
  REQUIRE(v.byteStride == 0);
  const int width = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type));
  std::vector<float> out(a.count * static_cast<std::size_t>(width));
  const unsigned char* p = m.buffers.at(0).data.data() + v.byteOffset + a.byteOffset;
  REQUIRE(v.byteOffset + a.byteOffset + out.size() * 4 <= m.buffers.at(0).data.size());
  std::memcpy(out.data(), p, out.size() * 4);
  return out;
}

/// |a − b| ≤ rel·max(1, |b|) (float precision of a double).
bool close(double a, double b, double rel = 1e-6) {
  return std::abs(a - b) <= rel * std::max(1.0, std::abs(b));
}

std::string fmt9(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", x == 0.0 ? 0.0 : x);
  return buf;
}

Mat3 rotX(double a) {
  Mat3 m;
  m << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
  return m;
}
Mat3 rotY(double a) {
  Mat3 m;
  m << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
  return m;
}
Mat3 rotZ(double a) {
  Mat3 m;
  m << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return m;
}

}  // namespace

TEST_CASE("frame plan: frames k/fps from the nearest step", "[io][export]") {
  FramePlan p{30.0, 1.0, 0.005};
  CHECK(p.numFrames() == 31);
  CHECK(p.frameStep(0) == 0);
  CHECK(p.frameStep(1) == 7);   // 6.67 steps
  CHECK(p.frameStep(2) == 13);  // 13.33
  CHECK(p.frameStep(30) == 200);
  p = FramePlan{20.0, 0.5, 0.01};  // 1/fps = 5 h: on the steps
  CHECK(p.numFrames() == 11);
  for (long long k = 0; k < 11; ++k) CHECK(p.frameStep(k) == 5 * k);
  p = FramePlan{40.0, 1.0, 0.01};  // 2.5 steps per frame: ties go to the later step
  CHECK(p.frameStep(1) == 3);
  CHECK(p.frameStep(2) == 5);
  CHECK(p.frameStep(3) == 8);
  CHECK(FramePlan{30.0, 0.99, 0.01}.numFrames() == 30);  // 29.7 frames: 0 … 29
  CHECK(FramePlan{10.0, 0.3, 0.01}.numFrames() == 4);    // 0.3·10 = 2.9999999999999996
  CHECK(FramePlan{30.0, 0.0, 0.01}.numFrames() == 1);
}

TEST_CASE("export plan: steps, frames and the limits of samara export and the viewer",
          "[io][export]") {
  const World world = makeWorld();  // a shape-changing body among them
  ExportSettings s;
  s.format = ExportFormat::kGlb;
  s.out = "x.glb";
  s.plan = FramePlan{30.0, 1.0, 0.005};
  samara::io::ExportPlan plan = samara::io::planExport(world, s);
  CHECK(plan.limit == samara::io::ExportPlan::Limit::kOk);
  CHECK(plan.steps == 200);
  CHECK(plan.frames == 31);
  CHECK(plan.bodies.size() == static_cast<std::size_t>(world.numBodies()));
  s.plan.fps = 30'000.0;  // 30001 morph-target frames
  CHECK(samara::io::planExport(world, s).limit ==
        samara::io::ExportPlan::Limit::kTooManyMorphFrames);
  s.format = ExportFormat::kCsv;  // no morph targets: within the bound of every export
  CHECK(samara::io::planExport(world, s).limit == samara::io::ExportPlan::Limit::kOk);
  s.plan.fps = 1e6;
  plan = samara::io::planExport(world, s);
  CHECK(plan.limit == samara::io::ExportPlan::Limit::kTooManyFrames);
  CHECK(plan.frames == 0);
}

namespace {

/// Counts what a run shows its observers.
struct CountingObserver final : samara::io::RunObserver {
  int starts = 0;
  std::vector<long long> steps;
  void start(const World&) override { ++starts; }
  void step(const World&, long long k, const samara::core::StepReport&) override {
    steps.push_back(k);
  }
};

}  // namespace

TEST_CASE("run driver: observers see t = 0 and every step, cancel stops before a step",
          "[io][export]") {
  World world = makeWorld();
  CountingObserver seen;
  samara::io::RunOutcome r = samara::io::runSteps(world, 3, {&seen});
  CHECK(r.status == samara::io::RunStatus::kDone);
  CHECK(r.stepsTaken == 3);
  CHECK(seen.starts == 1);
  CHECK(seen.steps == std::vector<long long>{1, 2, 3});
  const std::atomic<bool> cancel{true};
  r = samara::io::runSteps(world, 3, {&seen}, &cancel);
  CHECK(r.status == samara::io::RunStatus::kCancelled);
  CHECK(r.stepsTaken == 0);
  CHECK(world.stepIndex() == 3);
  CHECK(samara::io::exportStepCount(1.0, 0.005) == 200);
  CHECK(samara::io::exportStepCount(1.001, 0.005) == 201);
}

TEST_CASE("atomic file: the target appears at commit, whole, or not at all", "[io][export]") {
  const TempDir tmp("atomic");
  const fs::path& dir = tmp.path();
  const std::string target = (dir / "out.txt").string();
  {
    samara::io::AtomicFile f(target);
    f.stream() << "half";
  }
  CHECK(fs::is_empty(dir));  // not committed: the temporary is gone
  samara::io::writeFileAtomically(target, "old\n");
  {
    samara::io::AtomicFile f(target);
    f.stream() << "new\n";
    std::ifstream in(target);
    std::string text;
    std::getline(in, text);
    CHECK(text == "old");  // the target is replaced only at commit
    f.commit();
  }
  std::ifstream in(target);
  std::string text;
  std::getline(in, text);
  CHECK(text == "new");
  CHECK_THROWS_AS(samara::io::AtomicFile(dir.string()), samara::io::Error);  // a directory
  CHECK_THROWS_AS(samara::io::AtomicFile((dir / "no" / "x.txt").string()), samara::io::Error);
}

TEST_CASE("export file names: prefix, directory, padding, safe body names", "[io][export]") {
  std::vector<samara::io::ExportBody> bodies(3);
  bodies[0].name = "leaf one";
  bodies[1].name = "leaf_one";
  bodies[2].name = "a/b";
  ExportSettings s;
  s.sceneName = "my scene";
  s.plan = FramePlan{30.0, 1.0, 0.01};
  s.format = ExportFormat::kGlb;
  s.out = "out/x.glb";
  CHECK(samara::io::exportPaths(s, bodies) == std::vector<std::string>{"out/x.glb"});
  s.format = ExportFormat::kObj;
  s.out = "out/seq.obj";
  std::vector<std::string> p = samara::io::exportPaths(s, bodies);
  REQUIRE(p.size() == 31);
  CHECK(p.front() == "out/seq_0001.obj");  // numbered from 1, as Blender and Houdini count
  CHECK(p.back() == "out/seq_0031.obj");
  s.out = "frames/";
  CHECK(samara::io::exportPaths(s, bodies).front() == "frames/my_scene_0001.obj");
  s.plan.firstFrame = 0;
  CHECK(samara::io::exportPaths(s, bodies).front() == "frames/my_scene_0000.obj");
  s.plan.firstFrame = 1001;  // --first-frame 1001: the digits follow the last number
  CHECK(samara::io::exportPaths(s, bodies).back() == "frames/my_scene_1031.obj");
  s.out = "out/seq";
  s.plan = FramePlan{100.0, 100.0, 0.01};  // 10001 frames: 5 digits
  p = samara::io::exportPaths(s, bodies);
  CHECK(p.size() == 10001);
  CHECK(p[7] == "out/seq_00008.obj");
  CHECK(p.back() == "out/seq_10001.obj");
  s.format = ExportFormat::kChan;
  s.out = "out/take.chan";
  // The channels, each body's mesh in its own frame, the sidecar with rate and range.
  CHECK(samara::io::exportPaths(s, bodies) ==
        std::vector<std::string>{"out/take_leaf_one.chan", "out/take_leaf_one_1.chan",
                                 "out/take_a_b.chan", "out/take_leaf_one.obj",
                                 "out/take_leaf_one_1.obj", "out/take_a_b.obj",
                                 "out/take_chan.json"});
  s.format = ExportFormat::kPc2;
  s.out = "cache/";
  CHECK(samara::io::exportPaths(s, bodies) ==
        std::vector<std::string>{"cache/leaf_one.pc2", "cache/leaf_one_1.pc2", "cache/a_b.pc2"});
  CHECK(samara::io::exportFormatFromName("pc2") == ExportFormat::kPc2);
  CHECK(!samara::io::exportFormatFromName("fbx"));
}

TEST_CASE("Houdini angles: R = Rz Ry Rx in degrees, continuous", "[io][export]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 200; ++i) {
    const Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    const Mat3 R = q.toRotationMatrix();
    const Vec3 a = samara::io::houdiniEulerDegrees(R);
    CHECK(std::abs(a.y()) <= 90.0);
    const Vec3 r = a * (M_PI / 180.0);
    const Mat3 back = rotZ(r.z()) * rotY(r.y()) * rotX(r.x());
    CHECK((back - R).cwiseAbs().maxCoeff() < 1e-12);
    CHECK((samara::io::houdiniRotation(a) - R).cwiseAbs().maxCoeff() < 1e-12);
  }
  // Gimbal lock: ry = ±90°.
  for (const double ry : {90.0, -90.0}) {
    const Mat3 R = rotZ(0.3) * rotY(ry * M_PI / 180.0) * rotX(-1.1);
    const Vec3 a = samara::io::houdiniEulerDegrees(R, Vec3(10, 80, 0));
    CHECK((samara::io::houdiniRotation(a) - R).cwiseAbs().maxCoeff() < 1e-12);
  }
  // Five turns about z at 7° per frame: rz climbs by 7° every frame, no 360° jumps.
  std::optional<Vec3> previous;
  for (int k = 0; k <= 260; ++k) {
    const Mat3 R = rotZ(7.0 * k * M_PI / 180.0);
    const Vec3 a = samara::io::houdiniEulerDegrees(R, previous);
    CHECK(a.z() == Approx(7.0 * k).margin(1e-9));
    CHECK(a.x() == Approx(0.0).margin(1e-9));
    CHECK(a.y() == Approx(0.0).margin(1e-9));
    previous = a;
  }
  // Tumbling about an oblique axis through ry = ±90°: every step stays small.
  previous.reset();
  const Vec3 axis = Vec3(1, 2, 0.5).normalized();
  for (int k = 0; k <= 400; ++k) {
    const Mat3 R = Eigen::AngleAxisd(0.05 * k, axis).toRotationMatrix();
    const Vec3 a = samara::io::houdiniEulerDegrees(R, previous);
    CHECK((samara::io::houdiniRotation(a) - R).cwiseAbs().maxCoeff() < 1e-9);
    if (previous) CHECK((a - *previous).cwiseAbs().maxCoeff() < 20.0);  // 2.9° per step
    previous = a;
  }
}

TEST_CASE("staged files: renamed together at commit, removed otherwise", "[io][export]") {
  const TempDir tmp("export");
  const fs::path& dir = tmp.path();
  auto entries = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  };
  const std::string a = (dir / "a.txt").string(), b = (dir / "b.txt").string();
  {
    samara::io::StagedFiles files;
    files.write(a, [](std::ostream& s) { s << "A"; });
    files.write(b, [](std::ostream& s) { s << "B"; });
    CHECK(entries().size() == 2);  // two temporaries
    CHECK(!fs::exists(a));
  }
  CHECK(entries().empty());  // not committed: nothing left
  {
    samara::io::StagedFiles files;
    files.write(a, [](std::ostream& s) { s << "A"; });
    files.write(b, [](std::ostream& s) { s << "B"; });
    CHECK(files.targets() == std::vector<std::string>{a, b});
    files.commit();
  }
  CHECK(entries() == std::vector<std::string>{"a.txt", "b.txt"});
  {
    std::ifstream in(b);
    std::string text;
    in >> text;
    CHECK(text == "B");
  }
  fs::remove(a);
  fs::remove(b);
  {
    // A failure in the middle: the first file's temporary goes too.
    samara::io::StagedFiles files;
    files.write(a, [](std::ostream& s) { s << "A"; });
    fs::create_directory(dir / "c.txt");
    CHECK_THROWS_AS(files.write((dir / "c.txt").string(), [](std::ostream&) {}), samara::io::Error);
    CHECK_THROWS_AS(files.write((dir / "no" / "d.txt").string(), [](std::ostream&) {}),
                    samara::io::Error);
  }
  CHECK(entries() == std::vector<std::string>{"c.txt"});
}

TEST_CASE("glb: nodes, accessors, times, transforms = CSV, morph targets = world vertices",
          "[io][export][glb]") {
  World world = makeWorld();
  const FramePlan plan{20.0, 0.5, 0.01};
  const Baked baked = bake(&world, plan);
  const std::size_t frames = baked.frames.size();
  REQUIRE(frames == 11);
  const std::size_t nb = 3;
  const samara::io::MemoryFiles glbFiles =
      exportAll(ExportFormat::kGlb, "m.glb", world, baked, plan);
  REQUIRE(glbFiles.order == std::vector<std::string>{"m.glb"});
  const std::string& bytes = glbFiles.files.at("m.glb");
  const samara::io::MemoryFiles csvFiles =
      exportAll(ExportFormat::kCsv, "m.csv", world, baked, plan);
  const std::vector<std::string> csv = lines(csvFiles.files.at("m.csv"));

  std::string messages;
  const tinygltf::Model m = parseGlb(bytes, &messages);
  INFO(messages);
  CHECK(m.asset.version == "2.0");
  REQUIRE(m.nodes.size() == nb + 2);  // the bodies, a camera that sees them all, a sun
  CHECK(m.nodes[nb].name == "camera");
  CHECK(m.nodes[nb + 1].name == "sun");
  REQUIRE(m.scenes.size() == 1);
  CHECK(m.scenes[0].nodes == std::vector<int>{0, 1, 2, 3, 4});
  {
    // The camera follows the bodies (a key per frame) and sees every one at every frame: each
    // centre of mass within the view's cone.
    REQUIRE(m.cameras.size() == 1);
    const tinygltf::Node& c = m.nodes[nb];
    const Quat q(c.rotation[3], c.rotation[0], c.rotation[1], c.rotation[2]);
    const Vec3 forward = q * Vec3(0, 0, -1);
    const double half = 0.5 * m.cameras[0].perspective.yfov;
    std::vector<float> eyes;
    for (const tinygltf::AnimationChannel& ch : m.animations.at(0).channels) {
      if (ch.target_node != static_cast<int>(nb)) continue;
      CHECK(ch.target_path == "translation");
      eyes = floats(m, m.animations[0].samplers.at(static_cast<std::size_t>(ch.sampler)).output);
    }
    REQUIRE(eyes.size() == 3 * baked.frames.size());
    for (std::size_t k = 0; k < baked.frames.size(); ++k) {
      const Vec3 eye(eyes[3 * k], eyes[3 * k + 1], eyes[3 * k + 2]);
      for (const BodyFrame& b : baked.frames[k].bodies) {
        const Vec3 d = (b.com - eye).normalized();
        CHECK(std::acos(std::min(1.0, d.dot(forward))) < half);
      }
    }
    CHECK(forward.y() < -0.3);  // from above, as the viewer looks
  }
  // The frame rate and range travel in the scene's extras.
  REQUIRE(m.scenes[0].extras.IsObject());
  CHECK(m.scenes[0].extras.Get("fps").GetNumberAsDouble() == 20.0);
  CHECK(m.scenes[0].extras.Get("frame_start").GetNumberAsInt() == 1);
  CHECK(m.scenes[0].extras.Get("frame_end").GetNumberAsInt() == 11);
  // Materials in the viewer's colours, sheets double-sided.
  REQUIRE(m.materials.size() == nb);
  CHECK(m.materials[1].doubleSided);  // the card
  CHECK(!m.materials[2].doubleSided);
  CHECK(m.materials[0].pbrMetallicRoughness.baseColorFactor[0] == Approx(0.85));
  REQUIRE(m.animations.size() == 1);
  const tinygltf::Animation& anim = m.animations[0];
  // Translation + rotation per body, the strip's weights once, the camera's translation.
  CHECK(anim.channels.size() == 2 * nb + 2);

  // The CSV: header, one row per body per frame, `samara run`'s columns bit for bit.
  REQUIRE(csv.size() == 1 + frames * nb);
  CHECK(csv[0] == samara::io::kExportCsvHeader);
  CHECK(csv[0].rfind(std::string(samara::io::kCsvHeader) + ",", 0) == 0);

  for (std::size_t i = 0; i < nb; ++i) {
    INFO("body " << i);
    const tinygltf::Node& node = m.nodes[i];
    CHECK(node.name == world.bodyDef(static_cast<int>(i)).name);
    REQUIRE(node.mesh == static_cast<int>(i));
    const tinygltf::Primitive& prim = m.meshes[i].primitives.at(0);
    const std::vector<float> base = floats(m, prim.attributes.at("POSITION"));
    const auto nv = static_cast<std::size_t>(world.bodyDef(static_cast<int>(i)).mesh.numVertices());
    CHECK(base.size() == 3 * nv);
    CHECK(floats(m, prim.attributes.at("NORMAL")).size() == 3 * nv);
    CHECK(m.accessors.at(static_cast<std::size_t>(prim.indices)).count ==
          3 * static_cast<std::size_t>(world.bodyDef(static_cast<int>(i)).mesh.numFaces()));

    std::vector<float> times, translation, rotation, weights;
    std::string weightsInterp;
    for (const tinygltf::AnimationChannel& c : anim.channels) {
      if (c.target_node != static_cast<int>(i)) continue;
      const tinygltf::AnimationSampler& s = anim.samplers.at(static_cast<std::size_t>(c.sampler));
      const tinygltf::Accessor& in = m.accessors.at(static_cast<std::size_t>(s.input));
      CHECK(in.count == frames);
      REQUIRE(in.minValues.size() == 1);
      // [0, duration] after the first frame's number: glTF time t is frame t·fps in Blender,
      // so frame 1 (t = 0) is at 1/fps.
      CHECK(in.minValues[0] == Approx(0.05).epsilon(1e-7));
      CHECK(in.maxValues[0] == Approx(0.55).epsilon(1e-7));
      times = floats(m, s.input);
      if (c.target_path == "translation") {
        CHECK(s.interpolation == "LINEAR");
        CHECK(m.accessors.at(static_cast<std::size_t>(s.output)).count == frames);
        translation = floats(m, s.output);
      } else if (c.target_path == "rotation") {
        CHECK(s.interpolation == "LINEAR");
        CHECK(m.accessors.at(static_cast<std::size_t>(s.output)).count == frames);
        rotation = floats(m, s.output);
      } else if (c.target_path == "weights") {
        weightsInterp = s.interpolation;
        weights = floats(m, s.output);
      }
    }
    REQUIRE(times.size() == frames);
    REQUIRE(translation.size() == 3 * frames);
    REQUIRE(rotation.size() == 4 * frames);
    for (std::size_t k = 0; k < frames; ++k) {
      CHECK(times[k] == static_cast<float>(static_cast<double>(k) / 20.0 + 0.05));
      // The CSV row of this body and frame: the run columns, frame, ox, oy, oz.
      const std::vector<std::string> f = split(csv[1 + k * nb + i], ',');
      REQUIRE(f.size() == 29);
      CHECK(f[1] == node.name);
      CHECK(std::stoll(f[25]) == static_cast<long long>(k) + 1);  // frames from 1
      const Vec3 origin(std::stod(f[26]), std::stod(f[27]), std::stod(f[28]));
      const Quat q(std::stod(f[5]), std::stod(f[6]), std::stod(f[7]), std::stod(f[8]));
      for (int d = 0; d < 3; ++d) CHECK(close(translation[3 * k + d], origin[d]));
      // q and −q are one rotation; the glb keeps consecutive keys in one hemisphere.
      const double sign = (rotation[4 * k + 3] * q.w() + rotation[4 * k] * q.x() +
                           rotation[4 * k + 1] * q.y() + rotation[4 * k + 2] * q.z()) < 0.0
                              ? -1.0
                              : 1.0;
      CHECK(close(rotation[4 * k + 0], sign * q.x()));
      CHECK(close(rotation[4 * k + 1], sign * q.y()));
      CHECK(close(rotation[4 * k + 2], sign * q.z()));
      CHECK(close(rotation[4 * k + 3], sign * q.w()));
      if (k > 0) {
        double dot = 0.0;
        for (int c = 0; c < 4; ++c) dot += rotation[4 * k + c] * rotation[4 * (k - 1) + c];
        CHECK(dot > 0.0);
      }
      // And the CSV itself: the origin and quaternion of the frame; the run columns equal
      // `samara run`'s row at that step.
      const samara::io::BodyFrame& bf = baked.frames[k].bodies[i];
      CHECK(origin == bf.pose.b);
      const std::string runRow = lines(baked.runRows[k]).at(i);
      CHECK(csv[1 + k * nb + i].substr(0, runRow.size() + 1) == runRow + ",");
      CHECK(std::stod(f[0]) == world.definition().dt * static_cast<double>(baked.steps[k]));
    }
    // The node's rest transform is frame 0's.
    CHECK(node.translation.size() == 3);
    CHECK(node.rotation.size() == 4);
    CHECK(close(node.translation[1], baked.frames[0].bodies[i].pose.b.y(), 1e-15));

    const bool deforming = world.bodyDef(static_cast<int>(i)).animation != nullptr;
    // The strip's wave (2 Hz at 20 fps) repeats every 10 frames: frame 10 reuses frame 0's
    // target.
    CHECK(prim.targets.size() == (deforming ? frames - 1 : 0));
    if (!deforming) {
      // The rigid mesh is the body-frame mesh of the scene.
      const VertexMatrix& V = world.bodyDef(static_cast<int>(i)).mesh.V;
      for (std::size_t v = 0; v < nv; ++v) {
        for (int d = 0; d < 3; ++d) {
          CHECK(std::abs(base[3 * v + d] - V(static_cast<Eigen::Index>(v), d)) < 1e-7);
        }
      }
      continue;
    }
    const std::size_t nt = prim.targets.size();
    CHECK(m.meshes[i].weights.size() == nt);
    CHECK(weightsInterp == "LINEAR");  // blends frame k's shape into k + 1's between frames
    REQUIRE(weights.size() == frames * nt);
    std::vector<std::size_t> targetOf(frames);
    for (std::size_t k = 0; k < frames; ++k) {
      targetOf[k] = k % 10;
      for (std::size_t j = 0; j < nt; ++j) {
        CHECK(weights[k * nt + j] == (j == targetOf[k] ? 1 : 0));
      }
    }
    // base + target k = the world vertices of frame k in the body frame; placed by the
    // node transform of frame k they are the world vertices.
    double maxBody = 0.0, maxWorld = 0.0, maxMotion = 0.0;
    for (std::size_t k = 0; k < frames; ++k) {
      const std::vector<float> target = floats(m, prim.targets[targetOf[k]].at("POSITION"));
      REQUIRE(target.size() == 3 * nv);
      const samara::io::BodyFrame& bf = baked.frames[k].bodies[i];
      const Mat3 R = bf.pose.R();
      const Quat qf(rotation[4 * k + 3], rotation[4 * k], rotation[4 * k + 1], rotation[4 * k + 2]);
      const Vec3 tf(translation[3 * k], translation[3 * k + 1], translation[3 * k + 2]);
      for (std::size_t v = 0; v < nv; ++v) {
        const Vec3 x(static_cast<double>(base[3 * v]) + target[3 * v],
                     static_cast<double>(base[3 * v + 1]) + target[3 * v + 1],
                     static_cast<double>(base[3 * v + 2]) + target[3 * v + 2]);
        const Vec3 W = bf.worldVertices.row(static_cast<Eigen::Index>(v)).transpose();
        const Vec3 body = R.transpose() * (W - bf.pose.b);
        maxBody = std::max(maxBody, (x - body).cwiseAbs().maxCoeff());
        maxWorld = std::max(maxWorld, (qf.normalized() * x + tf - W).cwiseAbs().maxCoeff());
        maxMotion = std::max(maxMotion, std::abs(static_cast<double>(target[3 * v + 2])));
      }
    }
    CHECK(maxBody < 1e-7);    // float precision of ~0.1 m coordinates
    CHECK(maxWorld < 1e-6);   // float rotation and translation at ~1 m
    CHECK(maxMotion > 5e-3);  // the wave does move the vertices
  }
}

TEST_CASE("OBJ, chan and pc2 reproduce the world's vertices and poses", "[io][export]") {
  World world = makeWorld();
  const FramePlan plan{30.0, 0.4, 0.01};  // 1/30 s is 3.33 steps: the nearest step
  const Baked baked = bake(&world, plan);
  const std::size_t frames = baked.frames.size();
  REQUIRE(frames == 13);
  CHECK(baked.steps[1] == 3);
  CHECK(baked.steps[2] == 7);
  const std::size_t nb = 3;

  SECTION("obj: one file per frame, world vertices as %.9g, faces per body") {
    const samara::io::MemoryFiles files =
        exportAll(ExportFormat::kObj, "seq/m", world, baked, plan);
    REQUIRE(files.order.size() == frames);
    CHECK(files.order[0] == "seq/m_0001.obj");
    CHECK(files.order[12] == "seq/m_0013.obj");
    for (std::size_t k = 0; k < frames; ++k) {
      const std::vector<std::string> text = lines(files.files.at(files.order[k]));
      std::vector<std::string> objects, vertices;
      std::size_t faces = 0;
      for (const std::string& l : text) {
        if (l.rfind("o ", 0) == 0) objects.push_back(l.substr(2));
        if (l.rfind("v ", 0) == 0) vertices.push_back(l);
        if (l.rfind("f ", 0) == 0) ++faces;
      }
      CHECK(objects == std::vector<std::string>{"strip", "card", "ball"});
      std::size_t row = 0, expectFaces = 0;
      for (std::size_t i = 0; i < nb; ++i) {
        const VertexMatrix& W = baked.frames[k].bodies[i].worldVertices;
        expectFaces += static_cast<std::size_t>(world.bodyDef(static_cast<int>(i)).mesh.numFaces());
        for (Eigen::Index v = 0; v < W.rows(); ++v, ++row) {
          REQUIRE(row < vertices.size());
          CHECK(vertices[row] == "v " + fmt9(W(v, 0)) + " " + fmt9(W(v, 1)) + " " + fmt9(W(v, 2)));
        }
      }
      CHECK(row == vertices.size());
      CHECK(faces == expectFaces);
    }
    // Face indices of the second body are offset by the first body's vertex count.
    const std::vector<std::string> first = lines(files.files.at(files.order[0]));
    const auto nv0 = world.bodyDef(0).mesh.numVertices();
    const std::string cardFace = "f " + std::to_string(nv0 + 1 + world.bodyDef(1).mesh.F(0, 0)) +
                                 " " + std::to_string(nv0 + 1 + world.bodyDef(1).mesh.F(0, 1)) +
                                 " " + std::to_string(nv0 + 1 + world.bodyDef(1).mesh.F(0, 2));
    CHECK(std::find(first.begin(), first.end(), cardFace) != first.end());
  }

  SECTION("chan: tx ty tz = the origin, Rz Ry Rx of rx ry rz (degrees) = the quaternion") {
    const samara::io::MemoryFiles files =
        exportAll(ExportFormat::kChan, "m.chan", world, baked, plan);
    REQUIRE(files.order == std::vector<std::string>{"m_strip.chan", "m_card.chan", "m_ball.chan",
                                                    "m_strip.obj", "m_card.obj", "m_ball.obj",
                                                    "m_chan.json"});
    for (std::size_t i = 0; i < nb; ++i) {
      const std::vector<std::string> rows = lines(files.files.at(files.order[i]));
      REQUIRE(rows.size() == frames);
      std::optional<Vec3> previous;
      for (std::size_t k = 0; k < frames; ++k) {
        std::istringstream in(rows[k]);
        double v[6];
        for (double& x : v) REQUIRE(in >> x);
        const samara::io::BodyFrame& bf = baked.frames[k].bodies[i];
        CHECK(v[0] == bf.pose.b.x());
        CHECK(v[1] == bf.pose.b.y());
        CHECK(v[2] == bf.pose.b.z());
        const double r = M_PI / 180.0;
        const Mat3 R = rotZ(v[5] * r) * rotY(v[4] * r) * rotX(v[3] * r);
        CHECK((R - bf.pose.q.toRotationMatrix()).cwiseAbs().maxCoeff() < 1e-9);
        const Vec3 angles(v[3], v[4], v[5]);
        if (previous) CHECK((angles - *previous).cwiseAbs().maxCoeff() < 90.0);  // unwrapped
        previous = angles;
      }
    }
  }

  SECTION("pc2: header fields, and every vertex is the world vertex as a float") {
    const samara::io::MemoryFiles files =
        exportAll(ExportFormat::kPc2, "cache/", world, baked, plan);
    REQUIRE(files.order ==
            std::vector<std::string>{"cache/strip.pc2", "cache/card.pc2", "cache/ball.pc2"});
    for (std::size_t i = 0; i < nb; ++i) {
      const std::string& b = files.files.at(files.order[i]);
      const auto nv =
          static_cast<std::size_t>(world.bodyDef(static_cast<int>(i)).mesh.numVertices());
      REQUIRE(b.size() == 32 + 12 * nv * frames);
      CHECK(std::memcmp(b.data(), "POINTCACHE2\0", 12) == 0);
      auto u32 = [&](std::size_t at) {
        const auto* p = reinterpret_cast<const unsigned char*>(b.data()) + at;
        return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
               static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
      };
      auto f32 = [&](std::size_t at) {
        const std::uint32_t u = u32(at);
        float f;
        std::memcpy(&f, &u, 4);
        return f;
      };
      CHECK(u32(12) == 1);  // version
      CHECK(u32(16) == nv);
      CHECK(f32(20) == 1.0f);  // start frame: frames count from 1
      CHECK(f32(24) == 1.0f);  // sample rate
      CHECK(u32(28) == frames);
      for (std::size_t k = 0; k < frames; ++k) {
        const VertexMatrix& W = baked.frames[k].bodies[i].worldVertices;
        for (std::size_t v = 0; v < nv; v += 7) {
          for (int d = 0; d < 3; ++d) {
            CHECK(f32(32 + 12 * (k * nv + v) + 4 * static_cast<std::size_t>(d)) ==
                  static_cast<float>(W(static_cast<Eigen::Index>(v), d)));
          }
        }
      }
    }
  }

  SECTION("csv: the run rows at the nearest steps") {
    const samara::io::MemoryFiles files =
        exportAll(ExportFormat::kCsv, "m.csv", world, baked, plan);
    const std::vector<std::string> csv = lines(files.files.at("m.csv"));
    REQUIRE(csv.size() == 1 + frames * nb);
    for (std::size_t k = 0; k < frames; ++k) {
      const std::vector<std::string> run = lines(baked.runRows[k]);
      for (std::size_t i = 0; i < nb; ++i) {
        const std::string& row = csv[1 + k * nb + i];
        CHECK(row.substr(0, run[i].size() + 1) == run[i] + ",");
        CHECK(split(row, ',')[0] == split(run[i], ',')[0]);  // the step's time
      }
    }
    char step3[40];
    std::snprintf(step3, sizeof step3, "%.17g", 3 * world.definition().dt);
    CHECK(split(csv[1 + nb], ',')[0] == step3);  // frame 1 (t = 1/30 s) is from step 3
  }
}
