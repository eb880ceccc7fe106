// A "parts" animation: rigid parts of the body's mesh (OBJ groups, vertex lists or bones)
// turning about hinges, in a hierarchy (core::RigidPartsAnimation).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string_view>

#include "io/animation_detail.h"
#include "io/gltf_skin.h"
#include "io/obj_groups.h"

namespace samara::io::detail {
namespace {

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

/// Where the parts' vertices come from: the OBJ groups of the body's mesh (read when first
/// needed) or a bones file.
struct VertexSources {
  explicit VertexSources(const AnimationContext& c) : ctx(c) {}
  const AnimationContext& ctx;
  int numVertices = 0;
  bool hasBones = false;
  std::vector<int> bones;  ///< per vertex (bones_file), −1 = none
  MeshGroups groups;
  bool groupsRead = false;
  std::string groupsFile;
};

/// The vertices of the OBJ groups named at `g` (a name or a list of names).
std::vector<int> groupVertices(const Node& g, VertexSources* src) {
  std::vector<Node> names;
  if (g.json().is_array()) {
    if (g.size() == 0) throw g.error("needs at least one group name");
    for (std::size_t k = 0; k < g.size(); ++k) names.push_back(g.item(k));
  } else {
    names.push_back(g);
  }
  if (!src->groupsRead) {
    if (src->ctx.meshFile.empty() || isGltfPath(src->ctx.meshFile)) {
      throw g.error(
          "\"group\" needs the body's \"mesh\" to be an OBJ file (with g or o "
          "records); use \"vertices\" or \"bone\"");
    }
    src->groupsFile = resolvePath(src->ctx.baseDir, src->ctx.meshFile);
    src->groups =
        usedBy(g, "", [&] { return loadObjGroups(src->groupsFile, src->ctx.maxFileBytes); });
    src->groupsRead = true;
  }
  std::vector<int> vertices;
  for (const Node& n : names) {
    const std::string name = n.string();
    const auto it = src->groups.find(name);
    if (it == src->groups.end()) {
      throw n.error("no group \"" + name + "\" in " + src->groupsFile +
                    " (groups: " + keyList(src->groups) + ")");
    }
    if (it->second.empty()) throw n.error("group \"" + name + "\" has no faces");
    vertices.insert(vertices.end(), it->second.begin(), it->second.end());
  }
  return vertices;
}

/// The sorted, distinct vertices of part `p` ("group", "vertices" or "bone"; none for a joint
/// that only carries its children).
std::vector<int> partVertices(const Node& p, VertexSources* src) {
  std::vector<int> vertices;
  const int nv = src->numVertices;
  if (p.has("group")) {
    vertices = groupVertices(p.at("group"), src);
  } else if (p.has("vertices")) {
    const Node v = p.at("vertices");
    v.expectArray();
    for (std::size_t k = 0; k < v.size(); ++k) vertices.push_back(v.item(k).integer(0, nv - 1));
  } else if (p.has("bone")) {
    const Node b = p.at("bone");
    if (!src->hasBones) throw b.error("\"bone\" needs \"bones_file\"");
    const int bone = b.integer(0, 1'000'000'000);
    for (int k = 0; k < nv; ++k) {
      if (src->bones[static_cast<std::size_t>(k)] == bone) vertices.push_back(k);
    }
  }
  std::sort(vertices.begin(), vertices.end());
  vertices.erase(std::unique(vertices.begin(), vertices.end()), vertices.end());
  return vertices;
}

/// Part `i` (`p`) without its parent: name (unique: added to `byName`), vertices (checked against
/// `owner`, the part that already has each vertex), hinge and motion.
core::RigidPart readPart(const Node& p, std::size_t i, const std::vector<core::RigidPart>& parts,
                         std::map<std::string, int>* byName, std::vector<int>* owner,
                         VertexSources* src) {
  p.expectObject({"name", "group", "vertices", "bone", "pivot", "axis", "spin_rate", "spin_hz",
                  "keys", "interpolation", "loop", "parent"});
  core::RigidPart part;
  part.name = p.has("name") ? p.at("name").string() : "part" + std::to_string(i);
  if (p.has("name") && part.name.empty()) throw p.at("name").error("must not be empty");
  if (!byName->emplace(part.name, static_cast<int>(i)).second) {
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
  std::vector<int> vertices = partVertices(p, src);
  if (vertices.empty() && sources == 1) {
    throw p.error("part \"" + part.name + "\" has no vertices");
  }
  for (const int v : vertices) {
    if (v < 0 || static_cast<std::size_t>(v) >= owner->size()) {  // groups read apart from the mesh
      throw p.error("part \"" + part.name + "\" refers to vertex " + std::to_string(v) +
                    ", which the mesh (" + std::to_string(owner->size()) +
                    " vertices) does not have");
    }
    int& o = (*owner)[static_cast<std::size_t>(v)];
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
                      p.at("interpolation").choice({"catmull_rom", "linear"}) == "catmull_rom";
  const bool loop = !p.has("loop") || p.at("loop").boolean();
  if (p.has("keys")) {
    part.angle = readKeys(p.at("keys"), smooth, loop);
  } else {
    for (const char* key : {"interpolation", "loop"}) {
      if (p.has(key)) throw p.at(key).error("only used with \"keys\"");
    }
  }
  return part;
}

/// The parent of every part (−1 for roots) from the "parent" names; rejects unknown names,
/// cycles, and parts that move nothing (no vertices, no children).
std::vector<int> linkParents(const Node& list, const std::vector<std::string>& parentName,
                             const std::vector<core::RigidPart>& parts,
                             const std::map<std::string, int>& byName) {
  const std::size_t n = parts.size();
  std::vector<int> parent(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (!list.item(i).has("parent")) continue;
    const Node pn = list.item(i).at("parent");
    const auto it = byName.find(parentName[i]);
    if (it == byName.end()) {
      throw pn.error("unknown part \"" + parentName[i] + "\" (parts: " + keyList(byName) + ")");
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
  return parent;
}

/// The parts ordered parents before children (stable by depth), with RigidPart::parent set.
std::vector<core::RigidPart> orderParts(std::vector<core::RigidPart> parts,
                                        const std::vector<int>& parent) {
  const std::size_t n = parts.size();
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
  return sorted;
}

}  // namespace

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

  VertexSources src{ctx};
  src.numVertices = nv;
  src.hasBones = a.has("bones_file");
  if (src.hasBones) {
    const Node bf = a.at("bones_file");
    const std::string file = existingFile(bf, bf.string(), ctx.baseDir, "bones ");
    src.bones = usedBy(bf, "", [&] { return readBones(file, ctx.maxFileBytes, nv); });
  }

  auto animation = std::make_shared<core::RigidPartsAnimation>();
  animation->rest = mesh.V;
  std::vector<core::RigidPart> parts;
  std::vector<int> owner(static_cast<std::size_t>(nv), -1);
  std::map<std::string, int> byName;
  std::vector<std::string> parentName(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Node p = list.item(i);
    core::RigidPart part = readPart(p, i, parts, &byName, &owner, &src);
    if (p.has("parent")) parentName[i] = p.at("parent").string();
    parts.push_back(std::move(part));
  }
  const std::vector<int> parent = linkParents(list, parentName, parts, byName);
  animation->parts = orderParts(std::move(parts), parent);

  LoadedAnimation out;
  out.mesh = mesh;
  out.animation = std::move(animation);
  return out;
}

}  // namespace samara::io::detail
