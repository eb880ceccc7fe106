#include "io/scene.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "core/gusts.h"
#include "geometry/primitives.h"
#include "geometry/topology.h"
#include "io/animation_io.h"
#include "io/error.h"
#include "io/json_util.h"
#include "io/model_io.h"
#include "io/obj.h"
#include "io/scene_spawn.h"

namespace samara::io {
namespace {

namespace fs = std::filesystem;

/// State shared by the readers of one scene.
struct Reader {
  std::string path;     ///< the scene file, for messages
  std::string baseDir;  ///< mesh paths are relative to this
  SceneLimits limits;
  std::int64_t faces = 0;                         ///< running total over bodies
  std::int64_t vertices = 0;                      ///< running total over bodies
  std::map<std::string, geometry::TriMesh> objs;  ///< OBJ files already read

  /// Throws (naming `where`) if n more faces would pass the limit; adds nothing.
  void checkFaces(const Node& where, std::int64_t n) const {
    if (faces + n > limits.maxFaces) {
      throw where.error("too many faces (" + std::to_string(faces + n) +
                        " in the scene so far; the limit is " + std::to_string(limits.maxFaces) +
                        ")");
    }
  }
  void checkVertices(const Node& where, std::int64_t n) const {
    if (vertices + n > limits.maxVertices) {
      throw where.error("too many vertices (" + std::to_string(vertices + n) +
                        " in the scene so far; the limit is " + std::to_string(limits.maxVertices) +
                        ")");
    }
  }
  void addFaces(const Node& where, std::int64_t n) {
    checkFaces(where, n);
    faces += n;
  }
  /// Adds a mesh's faces and vertices to the totals (throws past a limit).
  void addMesh(const Node& where, const geometry::TriMesh& mesh) {
    checkVertices(where, mesh.numVertices());
    addFaces(where, mesh.numFaces());
    vertices += mesh.numVertices();
  }
};

/// Sets *field to (n[key].*read)() (Node::number, positive, nonNegative, vec3) when `n` has
/// the key; leaves the default otherwise.
template <typename T>
void readOptional(const Node& n, const char* key, T (Node::*read)() const, T* field) {
  if (n.has(key)) *field = (n.at(key).*read)();
}

/// An array of three numbers > 0 (box sizes, ellipsoid radii).
Vec3 positiveVec3(const Node& n) {
  n.expectArray(3);
  return Vec3(n.item(0).positive(), n.item(1).positive(), n.item(2).positive());
}

// --- meshes --------------------------------------------------------------------------------

/// Checks a primitive mesh (primitives are valid by construction, but extreme aspect ratios
/// can still produce faces the topology check calls degenerate).
void checkPrimitive(const Node& where, const geometry::TriMesh& mesh) {
  try {
    geometry::checkMesh(mesh);
  } catch (const geometry::MeshError& e) {
    throw where.error(std::string("the primitive mesh is invalid: ") + e.what());
  }
}

geometry::TriMesh readPrimitive(const Node& m, Reader* r) {
  const std::string kind = m.at("primitive").string();
  geometry::TriMesh mesh;
  if (kind == "sphere" || kind == "ellipsoid") {
    const bool sphere = kind == "sphere";
    if (sphere) {
      m.expectObject({"primitive", "radius", "subdivisions"});
    } else {
      m.expectObject({"primitive", "radii", "subdivisions"});
    }
    const int subdivisions = m.has("subdivisions") ? m.at("subdivisions").integer(0, 7) : 3;
    std::int64_t faces = 20;
    for (int k = 0; k < subdivisions; ++k) faces *= 4;
    r->addFaces(m, faces);
    if (sphere) {
      const double radius = m.at("radius").positive();
      mesh = geometry::makeSphere(radius, subdivisions);
    } else {
      mesh = geometry::makeEllipsoid(positiveVec3(m.at("radii")), subdivisions);
    }
  } else if (kind == "box") {
    m.expectObject({"primitive", "size", "cells"});
    const Vec3 abc = positiveVec3(m.at("size"));
    const int cells = m.has("cells") ? m.at("cells").integer(1, 1024) : 1;
    r->addFaces(m, std::int64_t{12} * cells * cells);
    mesh = geometry::makeBox(abc, cells);
  } else if (kind == "cylinder") {
    m.expectObject({"primitive", "radius", "length", "segments", "rings"});
    const double radius = m.at("radius").positive();
    const double length = m.at("length").positive();
    const int segments = m.has("segments") ? m.at("segments").integer(3, 4096) : 32;
    const int rings = m.has("rings") ? m.at("rings").integer(1, 1024) : 1;
    r->addFaces(m, std::int64_t{2} * segments * (rings + 1));
    mesh = geometry::makeCylinder(radius, length, segments, rings);
  } else if (kind == "disk") {
    m.expectObject({"primitive", "radius", "thickness", "segments"});
    const double radius = m.at("radius").positive();
    const double thickness = m.at("thickness").positive();
    const int segments = m.has("segments") ? m.at("segments").integer(3, 4096) : 32;
    r->addFaces(m, std::int64_t{4} * segments);
    mesh = geometry::makeDisk(radius, thickness, segments);
  } else if (kind == "plate") {
    m.expectObject({"primitive", "size", "segments"});
    const Node size = m.at("size");
    size.expectArray(2);
    const double a = size.item(0).positive();
    const double b = size.item(1).positive();
    int cellsX = 10;
    int cellsZ = 10;
    if (m.has("segments")) {
      const Node seg = m.at("segments");
      seg.expectArray(2);
      cellsX = seg.item(0).integer(1, 1024);
      cellsZ = seg.item(1).integer(1, 1024);
    }
    r->addFaces(m, std::int64_t{2} * cellsX * cellsZ);
    mesh = geometry::makePlate(a, b, cellsX, cellsZ);
  } else {
    throw m.at("primitive")
        .error("unknown primitive \"" + kind +
               "\"; known: sphere, ellipsoid, box, cylinder, disk, plate");
  }
  checkPrimitive(m, mesh);
  r->checkVertices(m, mesh.numVertices());
  r->vertices += mesh.numVertices();
  return mesh;
}

geometry::TriMesh readMeshFile(const Node& m, Reader* r) {
  const std::string rel = m.string();
  if (rel.empty()) throw m.error("empty mesh path");
  fs::path p(rel);
  if (p.is_relative() && !r->baseDir.empty()) p = fs::path(r->baseDir) / p;
  const std::string file = p.lexically_normal().string();
  auto cached = r->objs.find(file);
  if (cached == r->objs.end()) {
    std::error_code ec;
    const fs::file_status st = fs::status(file, ec);
    if (ec || !fs::exists(st)) {
      throw m.error("mesh file \"" + rel + "\" not found (looked for " + file + ")");
    }
    if (!fs::is_regular_file(st)) throw m.error("mesh \"" + file + "\" is not a regular file");
    // The scene's limits are checked on the OBJ's counts, before its mesh is allocated.
    bool overLimit = false;
    const ObjCountCheck check = [&](std::int64_t vertices, std::int64_t faces) {
      overLimit = true;
      r->checkVertices(m, vertices);
      r->checkFaces(m, faces);
      overLimit = false;
    };
    try {
      geometry::TriMesh mesh = isGltfPath(file)
                                   ? loadGltfMesh(file, -1, r->limits.maxMeshFileBytes)
                                   : loadObj(file, r->limits.maxMeshFileBytes, kObjMaxFaces, check);
      cached = r->objs.emplace(file, std::move(mesh)).first;
    } catch (const Error& e) {
      if (overLimit) throw;
      throw e.withNote(" (used by " + r->path + ": " + m.pointer() + ")");
    }
  }
  r->addMesh(m, cached->second);
  return cached->second;
}

geometry::TriMesh readMesh(const Node& m, Reader* r) {
  if (m.json().is_string()) return readMeshFile(m, r);
  if (m.json().is_object()) {
    if (!m.has("primitive")) {
      throw m.error(
          "a mesh object needs \"primitive\" (sphere, ellipsoid, box, cylinder, "
          "disk or plate)");
    }
    try {
      return readPrimitive(m, r);
    } catch (const geometry::MeshError& e) {  // the schema's bounds should prevent this
      throw m.error(std::string("cannot build the primitive: ") + e.what());
    }
  }
  throw m.error("expected an OBJ file path or a {\"primitive\": ...} object, got " + m.describe());
}

// --- bodies --------------------------------------------------------------------------------

core::MassDef readMass(const Node& m) {
  m.expectObject({"density", "thickness", "total", "lumped"});
  const bool density = m.has("density");
  const bool total = m.has("total");
  if (density == total) {
    throw m.error("give either \"density\" (kg/m³) or \"total\" (kg), not " +
                  std::string(density ? "both" : "neither"));
  }
  core::MassDef def;
  if (density) {
    if (m.has("lumped")) throw m.at("lumped").error("\"lumped\" needs \"total\", not \"density\"");
    def.mode = core::MassMode::kDensity;
    def.density = m.at("density").positive();
  } else {
    def.mode = core::MassMode::kTotal;
    def.total = m.at("total").positive();
    if (m.has("lumped") && m.at("lumped").boolean()) {
      if (m.has("thickness")) {
        throw m.at("thickness").error("\"thickness\" has no effect on lumped masses");
      }
      def.mode = core::MassMode::kLumped;
    }
  }
  if (m.has("thickness")) def.thickness = m.at("thickness").positive();
  return def;
}

Quat readOrientation(const Node& o) {
  if (o.json().is_array()) {
    o.expectArray(4);
    Eigen::Vector4d q(o.item(0).number(), o.item(1).number(), o.item(2).number(),
                      o.item(3).number());
    double norm = q.norm();
    if (std::isinf(norm)) {  // components near the largest double: scale them down first
      q /= q.cwiseAbs().maxCoeff();
      norm = q.norm();
    }
    if (!(norm > 1e-12) || !std::isfinite(norm)) {
      throw o.error("the quaternion [w, x, y, z] must be non-zero");
    }
    return Quat(q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm);
  }
  if (o.json().is_object()) {
    o.expectObject({"axis", "angle_deg"});
    const Node axisNode = o.at("axis");
    Vec3 axis = axisNode.vec3();
    double norm = axis.norm();
    if (std::isinf(norm)) {  // as for the quaternion
      axis /= axis.cwiseAbs().maxCoeff();
      norm = axis.norm();
    }
    if (!(norm > 1e-12) || !std::isfinite(norm)) throw axisNode.error("the axis must be non-zero");
    const double angle = o.at("angle_deg").number() * kPi / 180.0;
    return Quat(Eigen::AngleAxisd(angle, axis / norm));
  }
  throw o.error("expected [w, x, y, z] or {\"axis\": [x, y, z], \"angle_deg\": a}, got " +
                o.describe());
}

std::optional<double> readDelta(const Node& d) {
  if (d.json().is_string()) {
    if (d.string() == "auto") return std::nullopt;
    throw d.error("expected \"auto\" or a number >= 0 (m), got " + d.describe());
  }
  if (!d.json().is_number()) {
    throw d.error("expected \"auto\" or a number >= 0 (m), got " + d.describe());
  }
  return d.nonNegative();
}

std::string readName(const Node& n) {
  std::string name = n.string();
  if (name.empty()) throw n.error("must not be empty");
  if (name.size() > 200) throw n.error("longer than 200 characters");
  for (const char c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw n.error("must not contain control characters");
    }
  }
  return name;
}

core::BodyDef readBody(const Node& b, std::size_t index, Reader* r) {
  b.expectObject({"name", "mesh", "mass", "point_masses", "position", "orientation", "velocity",
                  "angular_velocity", "delta", "animation", "model", "spawn", "added_mass"});
  core::BodyDef body;
  body.name = b.has("name") ? readName(b.at("name")) : "body" + std::to_string(index);
  AnimationContext ctx;
  ctx.scenePath = r->path;
  ctx.baseDir = r->baseDir;
  ctx.maxFileBytes = r->limits.maxMeshFileBytes;
  if (b.has("mesh") || !b.has("animation")) {
    body.mesh = readMesh(b.at("mesh"), r);
    ctx.mesh = &body.mesh;
    if (b.at("mesh").json().is_string()) ctx.meshFile = b.at("mesh").string();
  }
  if (b.has("animation")) {
    // Frames are read no further than the scene's face budget (or the body's own count).
    ctx.maxFaces = std::max<std::int64_t>(b.has("mesh") ? body.mesh.numFaces() : 0,
                                          r->limits.maxFaces - r->faces);
    LoadedAnimation a = parseAnimation(b.at("animation"), ctx);
    if (!b.has("mesh")) {  // the animation supplied the mesh (sequence frame 0, glTF pose)
      body.mesh = std::move(a.mesh);
      r->addMesh(b.at("animation"), body.mesh);
    }
    body.animation = std::move(a.animation);
  }
  body.mass = readMass(b.at("mass"));
  if (b.has("point_masses")) {
    const Node pm = b.at("point_masses");
    pm.expectArray();
    if (pm.size() > static_cast<std::size_t>(r->limits.maxPointMasses)) {
      throw pm.error("more than " + std::to_string(r->limits.maxPointMasses) + " point masses");
    }
    for (std::size_t k = 0; k < pm.size(); ++k) {
      const Node p = pm.item(k);
      p.expectObject({"position", "mass"});
      core::PointMass point;
      point.position = p.at("position").vec3();
      point.mass = p.at("mass").positive();
      body.pointMasses.push_back(point);
    }
  }
  readOptional(b, "position", &Node::vec3, &body.position);
  if (b.has("orientation")) body.orientation = readOrientation(b.at("orientation"));
  readOptional(b, "velocity", &Node::vec3, &body.velocity);
  readOptional(b, "angular_velocity", &Node::vec3, &body.angularVelocity);
  if (b.has("delta")) body.delta = readDelta(b.at("delta"));
  if (b.has("model")) readFluidModel(b.at("model"), &body);
  if (b.has("added_mass")) body.addedMass = readAddedMassSource(b.at("added_mass"));
  return body;
}

/// The copies of a body entry with "spawn" (its mesh was read, and counted, once).
void addSpawned(const Node& b, const core::BodyDef& base, Reader* r,
                std::vector<core::BodyDef>* out) {
  const SpawnDef spawn = readSpawnOf(b, base, out->size(), r->limits.maxBodies);
  const Node count = b.at("spawn").at("count");
  const std::int64_t more = spawn.count - 1;
  r->checkVertices(count, more * base.mesh.numVertices());
  r->addFaces(count, more * base.mesh.numFaces());
  r->vertices += more * base.mesh.numVertices();
  for (core::BodyDef& c : spawnBodies(base, spawn)) out->push_back(std::move(c));
}

// --- the world -----------------------------------------------------------------------------

/// A list of names, each one of `known`.
std::vector<std::string> readNames(const Node& n, std::initializer_list<const char*> known) {
  n.expectArray();
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const Node item = n.item(i);
    const std::string name = item.string();
    bool ok = false;
    std::string list;
    for (const char* k : known) {
      ok = ok || name == k;
      list += (list.empty() ? "" : ", ") + std::string(k);
    }
    if (!ok) throw item.error("unknown name \"" + name + "\" (known: " + list + ")");
    out.push_back(name);
  }
  return out;
}

/// The lesson's "view": what the viewer shows when it opens.
LessonView readLessonView(const Node& v) {
  v.expectObject({"overlays", "plots", "present_panels", "split", "camera"});
  LessonView view;
  if (v.has("overlays")) {
    view.overlays =
        readNames(v.at("overlays"), {"forces", "face-forces", "added-mass", "velocity"});
  }
  if (v.has("plots")) {
    view.plots = readNames(v.at("plots"), {"linear_momentum", "angular_momentum", "fall_speed",
                                           "rotation_speed", "kinetic_energy"});
  }
  if (v.has("present_panels")) {
    view.presentPanels = readNames(
        v.at("present_panels"), {"controls", "teaching", "plots", "history", "lesson", "pattern"});
  }
  if (v.has("split")) view.split = v.at("split").boolean();
  if (v.has("camera")) {
    const Node c = v.at("camera");
    c.expectObject({"yaw_deg", "pitch_deg", "zoom"});
    if (c.has("yaw_deg")) view.yawDeg = c.at("yaw_deg").number();
    if (c.has("pitch_deg")) view.pitchDeg = c.at("pitch_deg").numberIn(-89.0, 89.0);
    if (c.has("zoom")) view.zoom = c.at("zoom").numberIn(0.0, 20.0, true);
  }
  return view;
}

/// The "lesson" object (title and text, both strings, and the checks of its numbers),
/// checked by loadScene too.
Lesson readLesson(const Node& l) {
  l.expectObject({"title", "text", "checks", "view"});
  Lesson lesson{l.at("title").string(), l.at("text").string(), {}, {}};
  if (l.has("view")) lesson.view = readLessonView(l.at("view"));
  if (!l.has("checks")) return lesson;
  const Node checks = l.at("checks");
  checks.expectArray();
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Node c = checks.item(i);
    c.expectObject({"body", "quantity", "from", "to", "value", "tolerance", "quote"});
    LessonCheck k;
    k.body = c.at("body").string();
    k.quantity = c.at("quantity").string();
    static const char* const kQuantities[] = {
        "fall_speed", "spin_rev_s",        "horizontal_speed",  "speed",
        "distance",   "fall_acceleration", "axis_velocity_deg", "flip_interval"};
    if (std::find(std::begin(kQuantities), std::end(kQuantities), k.quantity) ==
        std::end(kQuantities)) {
      throw c.at("quantity")
          .error("unknown quantity \"" + k.quantity +
                 "\" (known: fall_speed, spin_rev_s, horizontal_speed, speed, distance, "
                 "fall_acceleration, axis_velocity_deg, flip_interval)");
    }
    k.from = c.at("from").nonNegative();
    k.to = c.at("to").nonNegative();
    if (k.to < k.from) throw c.at("to").error("must not be before \"from\"");
    k.value = c.at("value").number();
    if (c.has("tolerance")) k.tolerance = c.at("tolerance").positive();
    k.quote = c.at("quote").string();
    if (lesson.text.find(k.quote) == std::string::npos) {
      throw c.at("quote").error("\"" + k.quote + "\" is not in the lesson's text");
    }
    lesson.checks.push_back(k);
  }
  return lesson;
}

core::WorldDef readWorld(const Node& root, Reader* r) {
  root.expectObject({"name", "gravity", "fluid", "floor", "sim", "bodies", "lesson"});
  if (root.has("lesson")) readLesson(root.at("lesson"));
  core::WorldDef def;
  // The file name may hold any bytes; the name goes into JSON (exports, sweeps): UTF-8 only.
  def.name =
      root.has("name") ? readName(root.at("name")) : validUtf8(fs::path(r->path).stem().string());
  if (def.name.empty()) def.name = "scene";
  readOptional(root, "gravity", &Node::vec3, &def.gravity);

  if (root.has("fluid")) {
    const Node f = root.at("fluid");
    f.expectObject({"density", "viscosity", "wind", "water", "gusts"});
    readOptional(f, "density", &Node::nonNegative, &def.fluid.density);
    readOptional(f, "viscosity", &Node::nonNegative, &def.fluid.viscosity);
    readOptional(f, "wind", &Node::vec3, &def.fluid.wind);
    if (f.has("water")) {
      const Node w = f.at("water");
      w.expectObject({"level", "density", "viscosity"});
      core::WaterDef water;
      readOptional(w, "level", &Node::number, &water.level);
      readOptional(w, "density", &Node::nonNegative, &water.density);
      readOptional(w, "viscosity", &Node::nonNegative, &water.viscosity);
      def.fluid.water = water;
    }
    if (f.has("gusts")) {
      const Node g = f.at("gusts");
      g.expectObject({"amplitude", "period", "length", "seed", "sampling"});
      core::GustDef gusts;
      readOptional(g, "amplitude", &Node::nonNegative, &gusts.amplitude);
      readOptional(g, "period", &Node::positive, &gusts.period);
      readOptional(g, "length", &Node::positive, &gusts.length);
      if (g.has("seed")) {
        gusts.seed = static_cast<std::uint64_t>(g.at("seed").integer(0, 2147483647));
      }
      if (g.has("sampling")) {
        gusts.sampling = g.at("sampling").choice({"faces", "quadratic"}) == "quadratic"
                             ? core::GustSampling::kQuadratic
                             : core::GustSampling::kFaces;
      }
      def.fluid.gusts = std::make_shared<core::GustField>(gusts);
    }
  }

  if (root.has("floor")) {
    const Node f = root.at("floor");
    f.expectObject({"height", "frequency_hz", "damping_ratio", "friction"});
    core::FloorDef floor;
    readOptional(f, "height", &Node::number, &floor.height);
    readOptional(f, "frequency_hz", &Node::positive, &floor.frequencyHz);
    readOptional(f, "damping_ratio", &Node::nonNegative, &floor.dampingRatio);
    readOptional(f, "friction", &Node::nonNegative, &floor.friction);
    def.floor = floor;
  }

  if (root.has("sim")) {
    const Node s = root.at("sim");
    s.expectObject({"dt", "duration", "tolerance", "max_iterations", "max_halvings"});
    readOptional(s, "dt", &Node::positive, &def.dt);
    readOptional(s, "duration", &Node::nonNegative, &def.duration);
    if (s.has("tolerance")) {
      const Node tol = s.at("tolerance");
      def.solver.tolerance = tol.positive();
      if (!(def.solver.tolerance < 1.0)) {
        throw tol.error("must be < 1 (got " + formatNumber(def.solver.tolerance) + ")");
      }
    }
    if (s.has("max_iterations")) def.solver.maxIterations = s.at("max_iterations").integer(1, 1000);
    if (s.has("max_halvings")) def.solver.maxHalvings = s.at("max_halvings").integer(0, 20);
  }

  const Node bodies = root.at("bodies");
  bodies.expectArray();
  if (bodies.size() == 0) throw bodies.error("a scene needs at least one body");
  if (bodies.size() > static_cast<std::size_t>(r->limits.maxBodies)) {
    throw bodies.error("more than " + std::to_string(r->limits.maxBodies) + " bodies");
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const Node b = bodies.item(i);
    const std::size_t first = def.bodies.size();
    if (b.has("spawn")) {
      addSpawned(b, readBody(b, i, r), r, &def.bodies);
    } else {
      def.bodies.push_back(readBody(b, i, r));
    }
    for (std::size_t k = first; k < def.bodies.size(); ++k) {
      if (!names.insert(def.bodies[k].name).second) {
        const Node where = b.has("name") ? b.at("name") : b;
        throw where.error("duplicate body name \"" + def.bodies[k].name + "\"");
      }
    }
  }
  return def;
}

/// True if `field` is `prefix` or lies below it.
bool isWithin(const std::string& field, const std::string& prefix) {
  return field == prefix ||
         (field.size() > prefix.size() && field.compare(0, prefix.size(), prefix) == 0 &&
          field[prefix.size()] == '/');
}

/// True if `e` is about the object holding the value at `pointer` and names its key (an
/// unknown key "dtt" at /sim after --set sim.dtt=1; "total" with "density" at /bodies/0/mass).
bool isAboutKeyOf(const Error& e, const std::string& pointer) {
  const std::size_t slash = pointer.rfind('/');
  if (slash == std::string::npos || e.field() != pointer.substr(0, slash)) return false;
  const std::string key = "\"" + pointer.substr(slash + 1) + "\"";
  return e.message().find(key) != std::string::npos;
}

}  // namespace

core::WorldDef parseScene(const std::string& text, const std::string& path,
                          const std::string& baseDir, const SetList& sets,
                          const SceneLimits& limits) {
  Json json = parseJson(text, path);
  std::vector<std::pair<std::string, std::string>> setPointers;  // pointer, option text
  for (const auto& [setPath, value] : sets) {
    setPointers.emplace_back(applySet(&json, setPath, value, path), setPath + "=" + value);
  }
  Reader reader{path, baseDir, limits, 0, 0, {}};
  try {
    return readWorld(Node(json, path), &reader);
  } catch (const Error& e) {
    if (e.path() == path && !e.field().empty()) {
      for (auto it = setPointers.rbegin(); it != setPointers.rend(); ++it) {
        if (isWithin(e.field(), it->first) || isAboutKeyOf(e, it->first)) {
          throw e.withNote(" (set by --set " + it->second + ")");
        }
      }
    }
    throw;
  }
}

core::WorldDef loadScene(const std::string& path, const SetList& sets) {
  return loadScene(path, sets, SceneLimits{});
}

core::WorldDef loadScene(const std::string& path, const SetList& sets, const SceneLimits& limits) {
  const std::string text = readFile(path, limits.maxSceneBytes);
  const std::string baseDir = fs::path(path).parent_path().string();
  return parseScene(text, path, baseDir, sets, limits);
}

std::optional<Lesson> parseLesson(const std::string& text, const std::string& path) {
  const Json json = parseJson(text, path);
  const Node root(json, path);
  if (!root.has("lesson")) return std::nullopt;
  return readLesson(root.at("lesson"));
}

std::optional<Lesson> loadLesson(const std::string& path) {
  return parseLesson(readFile(path, SceneLimits{}.maxSceneBytes), path);
}

}  // namespace samara::io
