#include "io/animation_io.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string_view>

#include "io/error.h"
#include "io/gltf_skin.h"
#include "io/obj.h"
#include "io/obj_groups.h"

namespace samara::io {
namespace {

namespace fs = std::filesystem;
constexpr double kPi = 3.14159265358979323846;

/// Runs `fn`; an io::Error about another file (an OBJ frame, a glTF file) gets a note
/// naming the scene field that uses it.
template <typename Fn>
auto usedBy(const Node& where, const std::string& extra, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const Error& e) {
    if (e.path() == where.file()) throw;
    throw e.withNote(" (" + extra + (extra.empty() ? "" : "; ") + "used by " + where.file() + ": " +
                     where.pointer() + ")");
  }
}

/// Checks that `rel` names an existing regular file; returns the resolved path.
std::string existingFile(const Node& where, const std::string& rel, const std::string& baseDir,
                         const std::string& what) {
  if (rel.empty()) throw where.error("empty file path");
  const std::string file = resolvePath(baseDir, rel);
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec || !fs::exists(st)) {
    throw where.error(what + "file \"" + rel + "\" not found (looked for " + file + ")");
  }
  if (!fs::is_regular_file(st)) throw where.error(what + "\"" + file + "\" is not a regular file");
  return file;
}

std::string angleText(double deg) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", deg);
  return buf;
}

std::string choice(const Node& n, std::initializer_list<const char*> allowed) {
  const std::string s = n.string();
  std::string list;
  for (const char* a : allowed) {
    if (s == a) return s;
    list += (list.empty() ? "\"" : ", \"") + std::string(a) + "\"";
  }
  throw n.error("unknown value \"" + s + "\"; expected one of " + list);
}

bool removeRootMotion(const Node& a) {
  return !a.has("root_motion") || choice(a.at("root_motion"), {"remove", "keep"}) == "remove";
}

Vec3 unitVector(const Node& n) {
  const Vec3 v = n.vec3();
  const double norm = v.norm();
  if (!(norm > 1e-12) || !std::isfinite(norm)) throw n.error("must be a non-zero vector");
  return v / norm;
}

const geometry::TriMesh& requireMesh(const Node& a, const AnimationContext& ctx, const char* type) {
  if (ctx.mesh == nullptr) {
    throw a.error(std::string("a \"") + type + "\" animation needs the body's \"mesh\"");
  }
  return *ctx.mesh;
}

std::string triangle(const geometry::FaceMatrix& F, Eigen::Index i) {
  return "f " + std::to_string(F(i, 0) + 1) + " " + std::to_string(F(i, 1) + 1) + " " +
         std::to_string(F(i, 2) + 1);
}

// --- sequence ------------------------------------------------------------------------------

LoadedAnimation readSequence(const Node& a, const AnimationContext& ctx) {
  a.expectObject({"type", "files", "first", "count", "fps", "mode", "interpolation", "time_scale",
                  "time_offset", "root_motion"});
  const Node files = a.at("files");
  std::vector<std::string> rel;
  const bool isList = files.json().is_array();
  if (files.json().is_string()) {
    const std::string pattern = files.string();
    const long long first = a.has("first") ? a.at("first").integer(0, 1'000'000'000) : 1;
    if (!a.has("count")) {
      throw a.error("\"count\" (the number of frames) is required with a pattern in \"files\"");
    }
    const int count = a.at("count").integer(1, ctx.maxFrames);
    for (int k = 0; k < count; ++k) {
      try {
        rel.push_back(expandFramePattern(pattern, first + k));
      } catch (const std::invalid_argument& e) {
        throw files.error(e.what());
      }
    }
  } else if (files.json().is_array()) {
    for (const char* key : {"first", "count"}) {
      if (a.has(key)) {
        throw a.at(key).error("only used with a printf pattern in \"files\", not a list");
      }
    }
    if (files.size() == 0) throw files.error("needs at least one file");
    if (files.size() > static_cast<std::size_t>(ctx.maxFrames)) {
      throw files.error("more than " + std::to_string(ctx.maxFrames) + " frames");
    }
    for (std::size_t k = 0; k < files.size(); ++k) {
      rel.push_back(files.item(k).string());
    }
  } else {
    throw files.error(
        "expected a printf pattern (\"meshes/eel_%04d.obj\") or a list of OBJ "
        "files, got " +
        files.describe());
  }

  core::MeshSequence::Settings s;
  if (a.has("fps")) s.fps = a.at("fps").positive();
  if (a.has("mode")) {
    const std::string mode = choice(a.at("mode"), {"loop", "hold", "pingpong"});
    s.mode = mode == "loop"   ? core::LoopMode::kLoop
             : mode == "hold" ? core::LoopMode::kHold
                              : core::LoopMode::kPingPong;
  }
  if (a.has("interpolation")) {
    s.smooth = choice(a.at("interpolation"), {"linear", "catmull_rom"}) == "catmull_rom";
  }
  if (a.has("time_scale")) s.timeScale = a.at("time_scale").number();
  if (a.has("time_offset")) s.timeOffset = a.at("time_offset").number();
  const bool removeRoot = removeRootMotion(a);

  std::vector<geometry::VertexMatrix> frames;
  frames.reserve(rel.size());
  std::map<std::string, std::size_t> frameOfFile;  // resolved path → first frame using it
  geometry::TriMesh first;
  std::string firstFile;
  const geometry::TriMesh* ref = ctx.mesh;
  for (std::size_t k = 0; k < rel.size(); ++k) {
    const Node where = isList ? files.item(k) : files;
    const std::string frameName = "frame " + std::to_string(k);
    const std::string file = existingFile(where, rel[k], ctx.baseDir, frameName + ": ");
    const auto cached = frameOfFile.find(file);
    if (cached != frameOfFile.end()) {  // a file listed again (a hold or a return)
      frames.push_back(frames[cached->second]);
      continue;
    }
    frameOfFile.emplace(file, frames.size());
    geometry::TriMesh m = usedBy(files, frameName, [&] { return loadObj(file, ctx.maxFileBytes); });
    const std::string refName =
        ctx.mesh != nullptr ? "the body's mesh" : "frame 0 (" + firstFile + ")";
    auto mismatch = [&](const std::string& what) {
      return Error(file, frameName + ": " + what)
          .withNote(" (all frames need one topology; used by " + a.file() + ": " + files.pointer() +
                    ")");
    };
    if (ref != nullptr) {
      if (m.numVertices() != ref->numVertices()) {
        throw mismatch(std::to_string(m.numVertices()) + " vertices, " + refName + " has " +
                       std::to_string(ref->numVertices()));
      }
      if (m.numFaces() != ref->numFaces()) {
        throw mismatch(std::to_string(m.numFaces()) + " triangles, " + refName + " has " +
                       std::to_string(ref->numFaces()));
      }
      for (Eigen::Index f = 0; f < m.F.rows(); ++f) {
        if (m.F.row(f) != ref->F.row(f)) {
          throw mismatch("triangle " + std::to_string(f + 1) + " is " + triangle(m.F, f) + ", " +
                         refName + " has " + triangle(ref->F, f));
        }
      }
    }
    if (static_cast<std::int64_t>(m.numVertices()) * static_cast<std::int64_t>(rel.size()) >
        ctx.maxSequenceVertices) {
      throw files.error(std::to_string(rel.size()) + " frames of " +
                        std::to_string(m.numVertices()) + " vertices exceed the limit of " +
                        std::to_string(ctx.maxSequenceVertices) + " vertices in all");
    }
    frames.push_back(m.V);
    if (k == 0) {
      first = std::move(m);
      firstFile = file;
      if (ref == nullptr) ref = &first;
    }
  }

  LoadedAnimation out;
  out.mesh = ctx.mesh != nullptr ? *ctx.mesh : first;
  const std::size_t numFrames = frames.size();
  std::shared_ptr<const core::ShapeAnimation> anim =
      std::make_shared<core::MeshSequence>(std::move(frames), s);
  if (removeRoot && numFrames > 1) anim = std::make_shared<core::RootMotionRemoved>(anim);
  out.animation = std::move(anim);
  return out;
}

// --- glTF ------------------------------------------------------------------------------------

LoadedAnimation readGltf(const Node& a, const AnimationContext& ctx) {
  a.expectObject(
      {"type", "file", "animation", "mesh", "skin", "loop", "time_scale", "weld", "root_motion"});
  const Node fileNode = a.at("file");
  const std::string rel = fileNode.string();
  GltfSkinOptions o;
  auto indexOrName = [](const Node& n, int* index, std::string* name) {
    if (n.json().is_string()) {
      *name = n.string();
      if (name->empty()) throw n.error("must not be empty");
    } else if (n.json().is_number()) {
      *index = n.integer(0, 1'000'000'000);
    } else {
      throw n.error("expected an index or a name, got " + n.describe());
    }
  };
  if (a.has("animation")) indexOrName(a.at("animation"), &o.animation, &o.animationName);
  if (a.has("mesh")) indexOrName(a.at("mesh"), &o.mesh, &o.meshName);
  if (a.has("skin")) o.skin = a.at("skin").integer(0, 1'000'000'000);
  if (a.has("loop")) o.loop = a.at("loop").boolean();
  if (a.has("time_scale")) o.timeScale = a.at("time_scale").number();
  if (a.has("weld")) o.weld = a.at("weld").boolean();
  const bool removeRoot = removeRootMotion(a);
  if (!isGltfPath(rel)) throw fileNode.error("expected a .gltf or .glb file, got \"" + rel + "\"");
  const std::string file = existingFile(fileNode, rel, ctx.baseDir, "glTF ");

  geometry::TriMesh rest;
  std::shared_ptr<const core::ShapeAnimation> anim =
      usedBy(a, "", [&] { return loadGltfSkin(file, o, &rest, ctx.maxFileBytes); });
  if (ctx.mesh != nullptr && ctx.mesh->numVertices() != rest.numVertices()) {
    throw fileNode.error("the glTF mesh has " + std::to_string(rest.numVertices()) + " vertices" +
                         (o.weld ? " (after welding)" : "") + ", the body's mesh has " +
                         std::to_string(ctx.mesh->numVertices()) +
                         "; omit the body's \"mesh\" to use the glTF's");
  }
  LoadedAnimation out;
  if (ctx.mesh != nullptr) {
    out.mesh = *ctx.mesh;
  } else {
    out.mesh = std::move(rest);
  }
  if (removeRoot) anim = std::make_shared<core::RootMotionRemoved>(anim);
  out.animation = std::move(anim);
  return out;
}

// --- travelling wave ------------------------------------------------------------------------

LoadedAnimation readWave(const Node& a, const AnimationContext& ctx) {
  a.expectObject({"type", "axis", "lateral", "amplitude", "wavelength", "frequency", "phase_deg",
                  "ramp_time"});
  const geometry::TriMesh& mesh = requireMesh(a, ctx, "wave");
  auto w = std::make_shared<core::TravellingWave>();
  w->rest = mesh.V;
  if (a.has("axis")) w->axis = unitVector(a.at("axis"));
  if (a.has("lateral")) {
    const Node n = a.at("lateral");
    const Vec3 lateral = unitVector(n);
    const double c = lateral.dot(w->axis);
    if (std::abs(c) > 1e-6) {
      throw n.error("must be perpendicular to \"axis\" (the angle between them is " +
                    angleText(std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / kPi) + " deg)");
    }
    w->lateral = (lateral - c * w->axis).normalized();
  } else if (std::abs(w->lateral.dot(w->axis)) > 1e-6) {
    throw a.error("give \"lateral\" (the default +z is not perpendicular to \"axis\")");
  }
  const Node amp = a.at("amplitude");
  if (amp.json().is_number()) {
    w->a0 = amp.number();
    w->a1 = 0.0;
    w->a2 = 0.0;
  } else {
    amp.expectArray(3);
    w->a0 = amp.item(0).number();
    w->a1 = amp.item(1).number();
    w->a2 = amp.item(2).number();
  }
  w->wavelength = a.at("wavelength").positive();
  w->frequency = a.has("frequency") ? a.at("frequency").number() : 1.0;
  w->phase = a.has("phase_deg") ? a.at("phase_deg").number() * kPi / 180.0 : 0.0;
  w->rampTime = a.has("ramp_time") ? a.at("ramp_time").nonNegative() : 0.0;
  w->prepare();
  LoadedAnimation out;
  out.mesh = mesh;
  out.animation = std::move(w);
  return out;
}

// --- rigid parts ------------------------------------------------------------------------------

/// Reads a bones file: one integer per vertex (−1 = none), blank lines and # comments skipped.
std::vector<int> readBones(const std::string& path, std::uintmax_t maxBytes, int numVertices) {
  const std::string text = readFile(path, maxBytes);
  std::vector<int> bones;
  int lineNo = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    ++lineNo;
    const std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      const std::size_t s = i;
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i == s) break;
      const std::string_view token = line.substr(s, i - s);
      int v = 0;
      const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
      if (ec != std::errc() || ptr != token.data() + token.size() || v < -1) {
        throw Error::atLine(path, lineNo,
                            "expected a bone index (an integer >= 0, or -1 for none), got \"" +
                                std::string(token.substr(0, 32)) + "\"");
      }
      if (static_cast<int>(bones.size()) >= numVertices) {
        throw Error::atLine(
            path, lineNo,
            "more bone indices than the mesh's " + std::to_string(numVertices) + " vertices");
      }
      bones.push_back(v);
    }
  }
  if (static_cast<int>(bones.size()) != numVertices) {
    throw Error(path, std::to_string(bones.size()) + " bone indices for a mesh of " +
                          std::to_string(numVertices) + " vertices (one per vertex needed)");
  }
  return bones;
}

core::ScalarTrack readKeys(const Node& k, bool smooth, bool loop) {
  k.expectObject({"times", "angles_deg"});
  const Node times = k.at("times");
  const Node angles = k.at("angles_deg");
  times.expectArray();
  angles.expectArray();
  if (times.size() == 0) throw times.error("needs at least one key");
  if (angles.size() != times.size()) {
    throw angles.error("has " + std::to_string(angles.size()) + " angles for " +
                       std::to_string(times.size()) + " times");
  }
  core::ScalarTrack track;
  track.smooth = smooth;
  track.loop = loop;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const double t = times.item(i).number();
    if (i > 0 && !(t > track.times.back())) {
      throw times.item(i).error("key times must increase (" + formatNumber(t) + " after " +
                                formatNumber(track.times.back()) + ")");
    }
    track.times.push_back(t);
    track.values.push_back(angles.item(i).number() * kPi / 180.0);
  }
  if (loop && track.values.size() > 1 && track.values.front() != track.values.back()) {
    throw angles.error("a looped track must end at its first angle (" +
                       formatNumber(angles.item(0).number()) + " deg, got " +
                       formatNumber(angles.item(angles.size() - 1).number()) +
                       "): the loop period is the last time minus the first");
  }
  return track;
}

LoadedAnimation readParts(const Node& a, const AnimationContext& ctx) {
  a.expectObject({"type", "parts", "bones_file"});
  const geometry::TriMesh& mesh = requireMesh(a, ctx, "parts");
  const int nv = mesh.numVertices();
  const Node list = a.at("parts");
  list.expectArray();
  if (list.size() == 0) throw list.error("needs at least one part");
  if (list.size() > static_cast<std::size_t>(nv)) {
    throw list.error("more parts than the mesh's " + std::to_string(nv) + " vertices");
  }

  std::vector<int> bones;
  if (a.has("bones_file")) {
    const Node bf = a.at("bones_file");
    const std::string file = existingFile(bf, bf.string(), ctx.baseDir, "bones ");
    bones = usedBy(bf, "", [&] { return readBones(file, ctx.maxFileBytes, nv); });
  }
  MeshGroups groups;
  bool groupsRead = false;
  std::string groupsFile;

  auto animation = std::make_shared<core::RigidPartsAnimation>();
  animation->rest = mesh.V;
  std::vector<core::RigidPart>& parts = animation->parts;
  std::vector<std::string> parentName(list.size());
  std::vector<int> owner(static_cast<std::size_t>(nv), -1);
  std::map<std::string, int> byName;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Node p = list.item(i);
    p.expectObject({"name", "group", "vertices", "bone", "pivot", "axis", "spin_rate", "spin_hz",
                    "keys", "interpolation", "loop", "parent"});
    core::RigidPart part;
    part.name = p.has("name") ? p.at("name").string() : "part" + std::to_string(i);
    if (p.has("name") && part.name.empty()) throw p.at("name").error("must not be empty");
    if (!byName.emplace(part.name, static_cast<int>(i)).second) {
      throw(p.has("name") ? p.at("name") : p).error("duplicate part name \"" + part.name + "\"");
    }
    const int sources =
        (p.has("group") ? 1 : 0) + (p.has("vertices") ? 1 : 0) + (p.has("bone") ? 1 : 0);
    if (sources > 1) {
      throw p.error(
          "give at most one of \"group\" (OBJ group names), \"vertices\" (indices) or "
          "\"bone\" (with \"bones_file\"); none makes a joint that only carries its "
          "children (e.g. a flipper's flap hinge whose child feathers the flipper)");
    }
    std::vector<int> vertices;
    if (p.has("group")) {
      const Node g = p.at("group");
      std::vector<Node> names;
      if (g.json().is_array()) {
        if (g.size() == 0) throw g.error("needs at least one group name");
        for (std::size_t k = 0; k < g.size(); ++k) names.push_back(g.item(k));
      } else {
        names.push_back(g);
      }
      if (!groupsRead) {
        if (ctx.meshFile.empty() || isGltfPath(ctx.meshFile)) {
          throw g.error(
              "\"group\" needs the body's \"mesh\" to be an OBJ file (with g or o "
              "records); use \"vertices\" or \"bone\"");
        }
        groupsFile = resolvePath(ctx.baseDir, ctx.meshFile);
        groups = usedBy(g, "", [&] { return loadObjGroups(groupsFile, ctx.maxFileBytes); });
        groupsRead = true;
      }
      for (const Node& n : names) {
        const std::string name = n.string();
        const auto it = groups.find(name);
        if (it == groups.end()) {
          std::string known;
          for (const auto& [gn, gv] : groups) known += (known.empty() ? "" : ", ") + gn;
          throw n.error("no group \"" + name + "\" in " + groupsFile +
                        " (groups: " + (known.empty() ? "none" : known) + ")");
        }
        if (it->second.empty()) throw n.error("group \"" + name + "\" has no faces");
        vertices.insert(vertices.end(), it->second.begin(), it->second.end());
      }
    } else if (p.has("vertices")) {
      const Node v = p.at("vertices");
      v.expectArray();
      for (std::size_t k = 0; k < v.size(); ++k) vertices.push_back(v.item(k).integer(0, nv - 1));
    } else if (p.has("bone")) {
      const Node b = p.at("bone");
      if (!a.has("bones_file")) throw b.error("\"bone\" needs \"bones_file\"");
      const int bone = b.integer(0, 1'000'000'000);
      for (int k = 0; k < nv; ++k) {
        if (bones[static_cast<std::size_t>(k)] == bone) vertices.push_back(k);
      }
    }
    std::sort(vertices.begin(), vertices.end());
    vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
    if (vertices.empty() && sources == 1) {
      throw p.error("part \"" + part.name + "\" has no vertices");
    }
    for (const int v : vertices) {
      int& o = owner[static_cast<std::size_t>(v)];
      if (o >= 0) {
        throw p.error("part \"" + part.name + "\" shares vertex " + std::to_string(v) +
                      " with part \"" + parts[static_cast<std::size_t>(o)].name +
                      "\" (parts must not overlap)");
      }
      o = static_cast<int>(i);
    }
    part.vertices = std::move(vertices);
    if (p.has("pivot")) part.pivot = p.at("pivot").vec3();
    part.axis = unitVector(p.at("axis"));
    if (p.has("spin_rate") && p.has("spin_hz")) {
      throw p.at("spin_hz").error("give \"spin_rate\" (rad/s) or \"spin_hz\" (Hz), not both");
    }
    if (p.has("spin_rate")) part.spinRate = p.at("spin_rate").number();
    if (p.has("spin_hz")) part.spinRate = 2.0 * kPi * p.at("spin_hz").number();
    const bool smooth = !p.has("interpolation") ||
                        choice(p.at("interpolation"), {"catmull_rom", "linear"}) == "catmull_rom";
    const bool loop = !p.has("loop") || p.at("loop").boolean();
    if (p.has("keys")) {
      part.angle = readKeys(p.at("keys"), smooth, loop);
    } else {
      for (const char* key : {"interpolation", "loop"}) {
        if (p.has(key)) throw p.at(key).error("only used with \"keys\"");
      }
    }
    if (p.has("parent")) parentName[i] = p.at("parent").string();
    parts.push_back(std::move(part));
  }

  // Parents: resolve names, reject cycles, order parents before children.
  const std::size_t n = parts.size();
  std::vector<int> parent(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (!list.item(i).has("parent")) continue;
    const Node pn = list.item(i).at("parent");
    const auto it = byName.find(parentName[i]);
    if (it == byName.end()) {
      std::string known;
      for (const auto& [name, idx] : byName) known += (known.empty() ? "" : ", ") + name;
      throw pn.error("unknown part \"" + parentName[i] + "\" (parts: " + known + ")");
    }
    parent[i] = it->second;
  }
  for (std::size_t i = 0; i < n; ++i) {
    std::string chain = parts[i].name;
    std::size_t steps = 0;
    for (int k = parent[i]; k >= 0; k = parent[static_cast<std::size_t>(k)]) {
      chain += " -> " + parts[static_cast<std::size_t>(k)].name;
      if (static_cast<std::size_t>(k) == i || ++steps > n) {
        throw list.item(i).at("parent").error("parents form a cycle (" + chain + ")");
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!parts[i].vertices.empty()) continue;
    bool isParent = false;
    for (std::size_t k = 0; k < n; ++k) isParent = isParent || parent[k] == static_cast<int>(i);
    if (!isParent) {
      throw list.item(i).error("part \"" + parts[i].name +
                               "\" has no vertices and is no part's parent: it moves nothing");
    }
  }
  std::vector<int> depth(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = parent[i]; k >= 0; k = parent[static_cast<std::size_t>(k)]) ++depth[i];
  }
  std::vector<int> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
    return depth[static_cast<std::size_t>(x)] < depth[static_cast<std::size_t>(y)];
  });
  std::vector<int> newIndex(n);
  for (std::size_t k = 0; k < n; ++k)
    newIndex[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  std::vector<core::RigidPart> sorted;
  sorted.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto old = static_cast<std::size_t>(order[k]);
    core::RigidPart part = std::move(parts[old]);
    part.parent = parent[old] >= 0 ? newIndex[static_cast<std::size_t>(parent[old])] : -1;
    sorted.push_back(std::move(part));
  }
  parts = std::move(sorted);

  LoadedAnimation out;
  out.mesh = mesh;
  out.animation = std::move(animation);
  return out;
}

}  // namespace

std::string resolvePath(const std::string& baseDir, const std::string& rel) {
  fs::path p(rel);
  if (p.is_relative() && !baseDir.empty()) p = fs::path(baseDir) / p;
  return p.lexically_normal().string();
}

std::string expandFramePattern(const std::string& pattern, long long frame) {
  std::string out;
  int conversions = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    const bool zero = j < pattern.size() && pattern[j] == '0';
    if (zero) ++j;
    int width = 0;
    while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9') {
      width = width * 10 + (pattern[j] - '0');
      if (width > 20) throw std::invalid_argument("field width in \"" + pattern + "\" over 20");
      ++j;
    }
    if (j >= pattern.size() || pattern[j] != 'd') {
      throw std::invalid_argument("unsupported conversion in \"" + pattern +
                                  "\": use %d, %4d or %04d for the frame number (%% for %)");
    }
    if (++conversions > 1) {
      throw std::invalid_argument("\"" + pattern + "\" has more than one %d");
    }
    std::string digits = std::to_string(frame < 0 ? -frame : frame);
    const std::size_t sign = frame < 0 ? 1 : 0;
    const auto w = static_cast<std::size_t>(width);
    if (digits.size() + sign < w) {
      const std::size_t pad = w - digits.size() - sign;
      digits = zero ? std::string(pad, '0') + digits : digits;
      if (!zero) out += std::string(pad, ' ');
    }
    if (sign) out += '-';
    out += digits;
    i = j;
  }
  if (conversions == 0) {
    throw std::invalid_argument("\"" + pattern +
                                "\" has no %d for the frame number (e.g. \"meshes/eel_%04d.obj\")");
  }
  return out;
}

LoadedAnimation parseAnimation(const Node& node, const AnimationContext& ctx) {
  if (!node.json().is_object()) {
    throw node.error("expected an animation object {\"type\": ...}, got " + node.describe());
  }
  const std::string type = choice(node.at("type"), {"sequence", "gltf", "wave", "parts"});
  if (type == "sequence") return readSequence(node, ctx);
  if (type == "gltf") return readGltf(node, ctx);
  if (type == "wave") return readWave(node, ctx);
  return readParts(node, ctx);
}

LoadedAnimation parseAnimation(const Json& json, const std::string& pointer,
                               const AnimationContext& ctx) {
  return parseAnimation(Node(json, ctx.scenePath, pointer), ctx);
}

}  // namespace samara::io
