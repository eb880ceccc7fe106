// samara_assetgen OUTDIR: writes the generated example assets
//   OUTDIR/meshes/{eel,turtle,zeppelin}.obj and OUTDIR/meshes/README.md,
//   OUTDIR/skins/sea_snake.gltf (+ .bin) and OUTDIR/skins/README.md.
// Rerun by `cmake --build --preset release --target assets` (OUTDIR = assets/). The output
// is deterministic: same generator, same bytes.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "assetgen.h"
#include "gallery.h"
#include "gltf_writer.h"
#include "scenes.h"
#include "writer_util.h"

namespace {

using samara::assetgen::Model;

std::string fmt(const char* f, double a) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, a);
  return buf;
}

std::string vec(const Eigen::Vector3d& v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.6g, %.6g, %.6g)", v.x(), v.y(), v.z());
  return buf;
}

std::vector<std::string> header(const Model& m, const std::vector<std::string>& notes) {
  return samara::assetgen::assetHeader(m, "Groups (closed parts, faces):", notes);
}

}  // namespace

int main(int argc, char** argv) {
  namespace ag = samara::assetgen;
  if (argc != 2) {
    std::fprintf(stderr, "usage: samara_assetgen OUTDIR  (writes OUTDIR/meshes, OUTDIR/skins)\n");
    return 2;
  }
  const std::filesystem::path out = argv[1];
  const std::filesystem::path meshes = out / "meshes";
  const std::filesystem::path skins = out / "skins";
  std::error_code ec;
  std::filesystem::create_directories(meshes, ec);
  std::filesystem::create_directories(skins, ec);
  if (ec) {
    std::fprintf(stderr, "samara_assetgen: cannot create %s: %s\n", out.string().c_str(),
                 ec.message().c_str());
    return 1;
  }
  bool ok = true;

  const Model eel = ag::makeEel();
  const ag::WaveParams w = ag::eelWave();
  const std::string eelAnim =
      "Animation: travelling wave along +x, lateral +z: a0 " + fmt("%g", w.a0) + " m, a1 " +
      fmt("%g", w.a1) + " m, a2 " + fmt("%g", w.a2) + " m, wavelength " + fmt("%g", w.wavelength) +
      " m, frequency " + fmt("%g", w.frequency) + " Hz, ramp " + fmt("%g", w.rampTime) +
      " s (swims head first, -x). Density 998 kg/m^3 (neutral).";
  ok &= ag::writeText(meshes / "eel.obj", ag::formatObj(eel, header(eel, {eelAnim})));

  const ag::TurtleModel turtle = ag::makeTurtle();
  const ag::TurtleStroke ts;
  const std::vector<std::string> turtleNotes = {
      "Animation (rigid parts): front flippers flap about +x through the shoulders " +
          vec(turtle.shoulderRight.pivot) + " (right) and mirrored (left), amplitude " +
          fmt("%g", ts.flapAmplitude) + " rad at " + fmt("%g", ts.frequency) + " Hz,",
      "with a child part feathering about the span axis " + vec(turtle.spanRight.axis) +
          " (right; left mirrored) by -" + fmt("%g", ts.featherAmplitude) +
          " rad * cos(2 pi f t); left angles negated. Rear flippers held at " +
          fmt("%g", ts.rearTrim) + " rad about their span axes " + vec(turtle.rearSpanRight.axis) +
          " through " + vec(turtle.rearSpanRight.pivot) +
          " (right; left mirrored, negated) as elevators.",
      "Swims +x at about 0.32 m/s. Density 998 kg/m^3 (neutral)."};
  ok &= ag::writeText(meshes / "turtle.obj",
                      ag::formatObj(turtle.model, header(turtle.model, turtleNotes)));

  const ag::ZeppelinModel zep = ag::makeZeppelin();
  const ag::ZeppelinControls zc;
  const std::vector<std::string> zepNotes = {
      "Animation (rigid parts): prop_right spins +" + fmt("%.4g", zc.propSpinRate) +
          " rad/s about +x through " + vec(zep.propRight.pivot) + ", prop_left -" +
          fmt("%.4g", zc.propSpinRate) + " rad/s through " + vec(zep.propLeft.pivot) + " (pitch " +
          fmt("%g", zep.propPitch) + " m/rev; both push +x);",
      "rudder hinged about +y through " + vec(zep.rudder.pivot) +
          " (angle > 0: trailing edge to +z, turns right, yaw rate < 0 about +y). Neutral "
          "buoyancy in air: total mass 1.225 kg/m^3 x hull volume, or gravity off."};
  ok &=
      ag::writeText(meshes / "zeppelin.obj", ag::formatObj(zep.model, header(zep.model, zepNotes)));

  std::string readme = "# Generated meshes\n\n";
  readme += std::string(ag::kGeneratedBy) + "\n\n";
  readme +=
      "Wavefront OBJ, metres, body frame, Y up; one `g` group per animated part (each group is "
      "made of closed, outward-oriented parts). Each file's header gives the recommended "
      "animation. The same models (and lower-resolution variants) are built in code by the "
      "`samara_assetgen` library for the tests in tests/assets/.\n\n"
      "| file | faces | vertices | groups |\n|---|---|---|---|\n";
  for (const Model* m : {&eel, &turtle.model, &zep.model}) {
    std::string groups;
    for (const auto& g : m->groups) groups += (groups.empty() ? "" : ", ") + g.name;
    readme += "| " + m->name + ".obj | " + std::to_string(m->mesh.numFaces()) + " | " +
              std::to_string(m->mesh.numVertices()) + " | " + groups + " |\n";
  }
  ok &= ag::writeText(meshes / "README.md", readme);

  const ag::SkinnedModel snake = ag::makeSeaSnake();
  std::string error;
  if (ag::writeSkinnedGltf(snake, skins.string(), "sea_snake", &error)) {
    std::printf("wrote %s\n", (skins / "sea_snake.gltf").string().c_str());
  } else {
    std::fprintf(stderr, "samara_assetgen: %s\n", error.c_str());
    ok = false;
  }
  std::string skinReadme = "# Generated skins\n\n";
  skinReadme += std::string(ag::kGeneratedBy) + "\n\n";
  skinReadme +=
      "`sea_snake.gltf` (+ `sea_snake.bin`): glTF 2.0, a sea snake 1.2 m long along x (head at "
      "-x) with a paddle tail, " +
      std::to_string(snake.model.mesh.numFaces()) + " faces, skinned to a chain of " +
      std::to_string(snake.animation->joints.size()) +
      " joints (head -> tail). Animation `swim`: rotation channels about +y, LINEAR, 1 s loop, "
      "a wave of bending running head -> tail, so the snake swims head first (-x). The bind "
      "pose is the pose at t = 0 (the animation starts at rest). Density 998 kg/m^3.\n";
  ok &= ag::writeText(skins / "README.md", skinReadme);

  // Scenes that play the models (assets/scenes/*.json), from the same parameters.
  const std::filesystem::path scenes = out / "scenes";
  std::filesystem::create_directories(scenes);
  ok &= ag::writeText(scenes / "eel.json", ag::eelScene(eel, ag::eelWave()));
  ok &= ag::writeText(scenes / "turtle.json",
                      ag::turtleScene(turtle, *ag::makeTurtleStroke(turtle, ts)));
  ag::ZeppelinControls turning = zc;
  turning.rudderAngle = 0.3;
  ok &= ag::writeText(scenes / "zeppelin.json",
                      ag::zeppelinScene(zep, *ag::makeZeppelinAnimation(zep, turning)));
  ok &= ag::writeText(scenes / "sea_snake.json", ag::seaSnakeScene());

  // The gallery of the paper's phenomena (issue 5).
  ok &= ag::writeGalleryFlyers(out);
  ok &= ag::writeGallerySinking(out);
  ok &= ag::writeGalleryLeaves(out);
  ok &= ag::writeGalleryCrowds(out);
  return ok ? 0 : 1;
}
