#include "io/scene_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <ostream>
#include <utility>

#include "core/animation.h"
#include "core/gusts.h"
#include "io/error.h"
#include "io/export.h"
#include "io/json_util.h"
#include "io/model_io.h"
#include "io/scene_relocate.h"
#include "io/scene_spawn.h"
#include "io/scene_text.h"
#include "models/registry.h"

namespace samara::io {
namespace {

using detail::createParents;
using detail::relocatePaths;
using detail::Relocator;
using detail::sceneText;

namespace fs = std::filesystem;

// --- seeds -----------------------------------------------------------------------------------

void writeSeeds(Json* scene) {
  if (auto f = scene->find("fluid"); f != scene->end() && f->is_object()) {
    if (auto g = f->find("gusts"); g != f->end() && g->is_object() && !g->contains("seed")) {
      (*g)["seed"] = core::GustDef{}.seed;
    }
  }
  auto bodies = scene->find("bodies");
  if (bodies == scene->end() || !bodies->is_array()) return;
  for (Json& b : *bodies) {
    if (!b.is_object()) continue;
    if (auto sp = b.find("spawn"); sp != b.end() && sp->is_object() && !sp->contains("seed")) {
      (*sp)["seed"] = SpawnDef{}.seed;
    }
    auto m = b.find("model");
    if (m == b.end()) continue;
    const Json type = m->is_object() ? m->value("type", Json()) : *m;
    if (!type.is_string()) continue;
    const auto model = models::makeModel(type.get<std::string>());
    if (!model) continue;
    // A model with a seed (e.g. xie-miyata's turbulence) gets its default seed written out.
    for (const core::ModelParam& p : model->parameterList()) {
      if (p.key != "seed") continue;
      if (m->is_string()) *m = Json{{"type", type}};
      if (!m->contains("seed")) (*m)["seed"] = std::get<std::int64_t>(p.value);
    }
  }
}

// --- the common path -------------------------------------------------------------------------

/// Applies `sets` to `scene` (read from `sourcePath`, whose relative paths resolve from
/// `sourceDir`), makes it self-contained for `destPath`, reads it back and writes it
/// atomically. `meshFiles[i]`, if given, is body i's mesh file, written relative to the
/// destination even when absolute (unless an edit changed it). With `files` the file goes
/// there (the caller commits); without, it is written and renamed here.
void writeScene(Json scene, const std::string& sourcePath, const std::string& sourceDir,
                const SetList& sets, const std::string& destPath,
                const std::vector<std::string>& meshFiles = {}, OutputFiles* files = nullptr) {
  checkOutputPaths({destPath});
  for (const auto& [path, value] : sets) {
    createParents(&scene, path);
    applySet(&scene, path, value, sourcePath);
  }
  if (scene.is_object() && !scene.contains("name")) {
    std::string name = validUtf8(fs::path(sourcePath).stem().string());  // loadScene's default
    scene["name"] = name.empty() ? "scene" : name;
  }
  const std::string destDir = fs::path(destPath).parent_path().string();
  const Relocator relocator(sourceDir, destDir);
  relocatePaths(&scene, relocator);
  // Meshes of a definition: relative to the destination even when given absolute.
  for (std::size_t i = 0; i < meshFiles.size() && i < scene["bodies"].size(); ++i) {
    Json& mesh = scene["bodies"][i]["mesh"];
    if (mesh == meshFiles[i]) mesh = relocator.relative(meshFiles[i]);
  }
  writeSeeds(&scene);
  const std::string text = sceneText(scene, sourcePath);
  try {
    (void)parseScene(text, destPath, destDir);
  } catch (const Error& e) {
    throw e.withNote(" (the scene saved from " + sourcePath + "; nothing written)");
  }
  if (files != nullptr) {
    files->write(destPath, [&text](std::ostream& out) { out << text; });
    return;
  }
  StagedFiles staged;
  staged.write(destPath, [&text](std::ostream& out) { out << text; });
  staged.commit();
}

// --- a definition as JSON --------------------------------------------------------------------

Json vec3(const Vec3& v) { return Json::array({v.x(), v.y(), v.z()}); }

/// The quaternion the scene reader makes of [w, x, y, z].
Quat readQuaternion(double w, double x, double y, double z) {
  const Eigen::Vector4d q(w, x, y, z);
  const double norm = q.norm();
  return Quat(q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm);
}

/// The quaternion the scene reader makes of {"axis": a, "angle_deg": d}.
Quat readAxisAngle(const Vec3& axis, double degrees) {
  return Quat(Eigen::AngleAxisd(degrees * kPi / 180.0, axis / axis.norm()));
}

bool sameBits(const Quat& a, const Quat& b) {
  return std::memcmp(a.coeffs().data(), b.coeffs().data(), 4 * sizeof(double)) == 0;
}

/// `x` rounded to `digits` significant decimal digits.
double roundDigits(double x, int digits) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return std::strtod(buf, nullptr);
}

/// An orientation that reads back as `q` bit for bit: [w, x, y, z] when the reader's
/// normalisation keeps it, else an axis and an angle in degrees (the shortest decimal angle
/// that gives q: a quaternion made from "20°" is not a fixed point of normalising). Null
/// if neither form reproduces q.
Json orientationJson(const Quat& q) {
  if (sameBits(readQuaternion(q.w(), q.x(), q.y(), q.z()), q)) {
    return Json::array({q.w(), q.x(), q.y(), q.z()});
  }
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s > 0.0) {
    const double degrees = 2.0 * std::atan2(s, q.w()) * 180.0 / kPi;
    for (const Vec3& axis : {Vec3(v / s), v}) {
      for (int digits = 1; digits <= 17; ++digits) {
        const double d = roundDigits(degrees, digits);
        if (sameBits(readAxisAngle(axis, d), q)) {
          return Json{{"axis", vec3(axis)}, {"angle_deg", d}};
        }
      }
    }
  }
  return Json();
}

Json massJson(const core::MassDef& m) {
  Json j = Json::object();
  switch (m.mode) {
    case core::MassMode::kDensity:
      j["density"] = m.density;
      break;
    case core::MassMode::kTotal:
      j["total"] = m.total;
      break;
    case core::MassMode::kLumped:
      j["total"] = m.total;
      j["lumped"] = true;
      return j;
  }
  if (m.thickness > 0.0) j["thickness"] = m.thickness;
  return j;
}

Json definitionJson(const core::WorldDef& def, const std::vector<std::string>& meshPaths,
                    const std::string& source) {
  auto unsupported = [&](const std::string& field, const std::string& why) {
    return Error::atField(source, field, "cannot be saved as a scene file: " + why);
  };
  Json j = Json::object();
  j["name"] = def.name;
  j["gravity"] = vec3(def.gravity);
  Json fluid = {{"density", def.fluid.density},
                {"viscosity", def.fluid.viscosity},
                {"wind", vec3(def.fluid.wind)}};
  if (def.fluid.water) {
    fluid["water"] = {{"level", def.fluid.water->level},
                      {"density", def.fluid.water->density},
                      {"viscosity", def.fluid.water->viscosity}};
  }
  if (def.fluid.gusts) throw unsupported("/fluid/gusts", "a flow field without a scene entry");
  j["fluid"] = fluid;
  if (def.floor) {
    if (def.floor->slipVelocity != core::FloorDef{}.slipVelocity) {
      throw unsupported("/floor", "a friction slip velocity other than the default");
    }
    j["floor"] = {{"height", def.floor->height},
                  {"frequency_hz", def.floor->frequencyHz},
                  {"damping_ratio", def.floor->dampingRatio},
                  {"friction", def.floor->friction}};
  }
  j["sim"] = {{"dt", def.dt},
              {"duration", def.duration},
              {"tolerance", def.solver.tolerance},
              {"max_iterations", def.solver.maxIterations},
              {"max_halvings", def.solver.maxHalvings}};
  Json bodies = Json::array();
  for (std::size_t i = 0; i < def.bodies.size(); ++i) {
    const core::BodyDef& b = def.bodies[i];
    const std::string at = pointerAppend("/bodies", i);
    if (i >= meshPaths.size() || meshPaths[i].empty()) {
      throw unsupported(at + "/mesh", "the mesh has no file");
    }
    if (b.animation) throw unsupported(at + "/animation", "a shape change without a file");
    Json body = Json::object();
    body["name"] = b.name;
    body["mesh"] = meshPaths[i];
    body["mass"] = massJson(b.mass);
    if (!b.pointMasses.empty()) {
      Json pm = Json::array();
      for (const core::PointMass& p : b.pointMasses) {
        pm.push_back({{"position", vec3(p.position)}, {"mass", p.mass}});
      }
      body["point_masses"] = pm;
    }
    body["position"] = vec3(b.position);
    Json orientation = orientationJson(b.orientation);
    if (orientation.is_null()) {
      throw unsupported(at + "/orientation", "no quaternion or axis and angle reads back exactly");
    }
    body["orientation"] = orientation;
    body["velocity"] = vec3(b.velocity);
    body["angular_velocity"] = vec3(b.angularVelocity);
    body["delta"] = b.delta ? Json(*b.delta) : Json("auto");
    if (const Json model = modelJson(*b.model); !model.is_null()) body["model"] = model;
    static const char* const kAddedMass[] = {"model", "local", "local-per-part", "exact"};
    if (b.addedMass != core::AddedMassSource::kModel) {
      body["added_mass"] = kAddedMass[static_cast<int>(b.addedMass)];
    }
    bodies.push_back(body);
  }
  j["bodies"] = bodies;
  return j;
}

// --- comparing definitions -------------------------------------------------------------------

bool same(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
template <typename M>
bool same(const M& a, const M& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(typename M::Scalar) * a.size()) == 0;
}
bool same(const Quat& a, const Quat& b) { return sameBits(a, b); }

bool sameModel(const core::BodyDef& a, const core::BodyDef& b) {
  return a.model && b.model ? a.model->sameAs(*b.model) : a.model == b.model;
}

bool sameAnimation(const core::BodyDef& a, const core::BodyDef& b) {
  if (!a.animation || !b.animation) return !a.animation && !b.animation;
  if (a.animation->numVertices() != b.animation->numVertices()) return false;
  for (const double t : {0.0, 0.137, 0.5, 1.3, 7.25}) {
    geometry::VertexMatrix va, vb;
    a.animation->evaluate(t, &va);
    b.animation->evaluate(t, &vb);
    if (!same(va, vb)) return false;
  }
  return true;
}

std::string bodyDifference(const core::BodyDef& a, const core::BodyDef& b) {
  if (a.name != b.name) return "/name";
  if (!same(a.mesh.V, b.mesh.V) || !same(a.mesh.F, b.mesh.F)) return "/mesh";
  if (a.mass.mode != b.mass.mode || !same(a.mass.density, b.mass.density) ||
      !same(a.mass.thickness, b.mass.thickness) || !same(a.mass.total, b.mass.total)) {
    return "/mass";
  }
  if (a.pointMasses.size() != b.pointMasses.size()) return "/point_masses";
  for (std::size_t k = 0; k < a.pointMasses.size(); ++k) {
    if (!same(a.pointMasses[k].position, b.pointMasses[k].position) ||
        !same(a.pointMasses[k].mass, b.pointMasses[k].mass)) {
      return pointerAppend("/point_masses", k);
    }
  }
  if (!same(a.position, b.position)) return "/position";
  if (!same(a.orientation, b.orientation)) return "/orientation";
  if (!same(a.velocity, b.velocity)) return "/velocity";
  if (!same(a.angularVelocity, b.angularVelocity)) return "/angular_velocity";
  if (a.delta.has_value() != b.delta.has_value() || (a.delta && !same(*a.delta, *b.delta))) {
    return "/delta";
  }
  if (!sameModel(a, b)) return "/model";
  if (!sameAnimation(a, b)) return "/animation";
  return "";
}

}  // namespace

std::string definitionDifference(const core::WorldDef& a, const core::WorldDef& b) {
  if (a.name != b.name) return "/name";
  if (!same(a.gravity, b.gravity)) return "/gravity";
  const core::FluidDef &fa = a.fluid, &fb = b.fluid;
  if (!same(fa.density, fb.density)) return "/fluid/density";
  if (!same(fa.viscosity, fb.viscosity)) return "/fluid/viscosity";
  if (!same(fa.wind, fb.wind)) return "/fluid/wind";
  if (fa.water.has_value() != fb.water.has_value() ||
      (fa.water &&
       (!same(fa.water->level, fb.water->level) || !same(fa.water->density, fb.water->density) ||
        !same(fa.water->viscosity, fb.water->viscosity)))) {
    return "/fluid/water";
  }
  const auto* ga = dynamic_cast<const core::GustField*>(fa.gusts.get());
  const auto* gb = dynamic_cast<const core::GustField*>(fb.gusts.get());
  if ((fa.gusts == nullptr) != (fb.gusts == nullptr) || (ga == nullptr) != (gb == nullptr) ||
      (ga && (!same(ga->definition().amplitude, gb->definition().amplitude) ||
              !same(ga->definition().period, gb->definition().period) ||
              !same(ga->definition().length, gb->definition().length) ||
              ga->definition().seed != gb->definition().seed ||
              ga->definition().sampling != gb->definition().sampling))) {
    return "/fluid/gusts";
  }
  if (a.floor.has_value() != b.floor.has_value() ||
      (a.floor && (!same(a.floor->height, b.floor->height) ||
                   !same(a.floor->frequencyHz, b.floor->frequencyHz) ||
                   !same(a.floor->dampingRatio, b.floor->dampingRatio) ||
                   !same(a.floor->friction, b.floor->friction) ||
                   !same(a.floor->slipVelocity, b.floor->slipVelocity)))) {
    return "/floor";
  }
  if (!same(a.dt, b.dt)) return "/sim/dt";
  if (!same(a.duration, b.duration)) return "/sim/duration";
  if (!same(a.solver.tolerance, b.solver.tolerance) ||
      a.solver.maxIterations != b.solver.maxIterations ||
      a.solver.maxHalvings != b.solver.maxHalvings) {
    return "/sim";
  }
  if (a.bodies.size() != b.bodies.size()) return "/bodies";
  for (std::size_t i = 0; i < a.bodies.size(); ++i) {
    const std::string d = bodyDifference(a.bodies[i], b.bodies[i]);
    if (!d.empty()) return pointerAppend("/bodies", i) + d;
  }
  return "";
}

void saveSceneAs(const std::string& sourcePath, const SetList& sets, const std::string& destPath,
                 OutputFiles* files) {
  const SceneLimits limits;
  const Json scene = parseJson(readFile(sourcePath, limits.maxSceneBytes), sourcePath);
  writeScene(scene, sourcePath, fs::path(sourcePath).parent_path().string(), sets, destPath, {},
             files);
}

void saveDefinitionAs(const core::WorldDef& def, const std::vector<std::string>& meshPaths,
                      const std::string& source, const SetList& sets, const std::string& destPath) {
  checkOutputPaths({destPath});
  const Json scene = definitionJson(def, meshPaths, source);
  // The JSON as it stands (mesh paths from the working directory) must give `def` back.
  const core::WorldDef back = parseScene(scene.dump(), source, "");
  const std::string field = definitionDifference(back, def);
  if (!field.empty()) {
    throw Error::atField(source, field, "cannot be saved exactly (it would read back changed)");
  }
  writeScene(scene, source, "", sets, destPath, meshPaths);
}

}  // namespace samara::io
