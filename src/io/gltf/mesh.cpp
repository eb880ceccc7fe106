#include "io/gltf/mesh.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "geometry/topology.h"
#include "io/gltf_skin.h"

namespace samara::io::gltf {
namespace {

/// Weight sums further than this from 1 are an error; closer ones are renormalised (covers
/// the quantisation of normalized 8-bit weights: 4 × 0.5/255 ≈ 0.008).
constexpr double kWeightSumTolerance = 1e-2;

/// The accessor of attribute `name` of `prim`, or −1.
int attribute(const tinygltf::Primitive& prim, const char* name) {
  const auto it = prim.attributes.find(name);
  return it == prim.attributes.end() ? -1 : it->second;
}

/// Appends the JOINTS_0 / WEIGHTS_0 of a primitive's `nv` vertices to J and W (4 each per
/// vertex, weights normalised to sum 1, unused joint slots set to 0).
void readInfluences(const Document& g, const tinygltf::Primitive& prim, const std::string& where,
                    std::size_t nv, int numJoints, std::vector<int>* J, std::vector<double>* W) {
  if (attribute(prim, "JOINTS_1") >= 0 || attribute(prim, "WEIGHTS_1") >= 0) {
    throw g.error(where,
                  "more than 4 joint influences per vertex (JOINTS_1 / WEIGHTS_1) "
                  "are not supported; export at most 4 bone influences");
  }
  if (attribute(prim, "JOINTS_0") < 0) throw g.error(where, "has no JOINTS_0 attribute");
  if (attribute(prim, "WEIGHTS_0") < 0) throw g.error(where, "has no WEIGHTS_0 attribute");
  std::size_t nj = 0;
  std::size_t nw = 0;
  const std::vector<double> joints = g.read(attribute(prim, "JOINTS_0"), where + " JOINTS_0",
                                            TINYGLTF_TYPE_VEC4, Components::kJoint, &nj);
  const std::vector<double> weights =
      g.read(attribute(prim, "WEIGHTS_0"), where + " WEIGHTS_0", TINYGLTF_TYPE_VEC4,
             Components::kFloatOrNormalized, &nw);
  if (nj != nv || nw != nv) {
    throw g.error(where, "JOINTS_0 has " + std::to_string(nj) + " and WEIGHTS_0 " +
                             std::to_string(nw) + " elements, POSITION " + std::to_string(nv));
  }
  for (std::size_t i = 0; i < nv; ++i) {
    const std::string vertex = where + ": vertex " + std::to_string(i);
    double sum = 0.0;
    for (std::size_t k = 0; k < 4; ++k) {
      const double w = weights[4 * i + k];
      if (!std::isfinite(w)) {
        throw Error(g.path(), vertex + ": weight " + std::to_string(k) + " is not finite");
      }
      if (w < 0.0) {
        throw Error(g.path(), vertex + ": weight " + std::to_string(k) + " is negative (" +
                                  shortNumber(w) + ")");
      }
      sum += w;
    }
    if (!(sum > 0.0)) throw Error(g.path(), vertex + ": all weights are zero");
    if (std::abs(sum - 1.0) > kWeightSumTolerance) {
      throw Error(g.path(), vertex + ": weights sum to " + shortNumber(sum) + " (glTF requires 1)");
    }
    for (std::size_t k = 0; k < 4; ++k) {
      const double w = weights[4 * i + k] / sum;
      int j = static_cast<int>(joints[4 * i + k]);
      if (j >= numJoints) {
        if (w != 0.0) {
          throw Error(g.path(), vertex + ": joint " + std::to_string(j) +
                                    " is out of range (the skin has " + std::to_string(numJoints) +
                                    " joints)");
        }
        j = 0;  // unused slot
      }
      J->push_back(j);
      W->push_back(w);
    }
  }
}

/// The first node that uses mesh `mesh` (any mesh when −1) and, with `withSkin`, a skin;
/// −1 if there is none.
int firstNode(const tinygltf::Model& m, int mesh, bool withSkin) {
  for (std::size_t i = 0; i < m.nodes.size(); ++i) {
    const tinygltf::Node& n = m.nodes[i];
    if ((mesh < 0 ? n.mesh >= 0 : n.mesh == mesh) && (!withSkin || n.skin >= 0)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

/// Appends a primitive's triangles (its indices, or its `nv` vertices in order) to F, with
/// vertex indices shifted by `offset`.
void readTriangles(const Document& g, const tinygltf::Primitive& prim, const std::string& where,
                   std::size_t nv, std::size_t offset, std::vector<int>* F) {
  if (prim.indices >= 0) {
    std::size_t ni = 0;
    const std::vector<double> idx =
        g.read(prim.indices, where + " indices", TINYGLTF_TYPE_SCALAR, Components::kIndex, &ni);
    if (ni % 3 != 0) {
      throw g.error(where, std::to_string(ni) + " indices is not a multiple of 3");
    }
    for (std::size_t i = 0; i < ni; ++i) {
      if (idx[i] >= static_cast<double>(nv)) {
        throw g.error(where, "index " + std::to_string(i) + " (" + shortNumber(idx[i]) +
                                 ") is out of range (" + std::to_string(nv) + " vertices)");
      }
      F->push_back(static_cast<int>(offset + static_cast<std::size_t>(idx[i])));
    }
  } else {
    if (nv % 3 != 0) {
      throw g.error(where, std::to_string(nv) +
                               " vertices without indices is not a "
                               "multiple of 3");
    }
    for (std::size_t i = 0; i < nv; ++i) F->push_back(static_cast<int>(offset + i));
  }
}

}  // namespace

Selection select(const Document& g, int meshIndex, const std::string& meshName, int skinIndex,
                 bool requireSkin) {
  const tinygltf::Model& m = g.model();
  Selection s;
  if (m.meshes.empty()) throw Error(g.path(), "the file has no meshes");
  if (!meshName.empty()) {
    s.mesh = indexNamed(m.meshes, meshName);
    if (s.mesh < 0) {
      throw Error(g.path(),
                  "no mesh named \"" + meshName + "\" (meshes: " + quotedNames(m.meshes) + ")");
    }
  } else if (meshIndex >= 0) {
    if (static_cast<std::size_t>(meshIndex) >= m.meshes.size()) {
      throw Error(g.path(), missing("mesh", meshIndex, m.meshes.size(), "meshes"));
    }
    s.mesh = meshIndex;
  } else {
    int node = firstNode(m, -1, /*withSkin=*/true);
    if (node < 0) {
      if (requireSkin) {
        throw Error(g.path(),
                    "no node has a skinned mesh (a node with both \"mesh\" and "
                    "\"skin\"); give \"mesh\" and \"skin\"");
      }
      node = firstNode(m, -1, /*withSkin=*/false);
    }
    s.mesh = node >= 0 ? m.nodes[static_cast<std::size_t>(node)].mesh : 0;
  }
  if (static_cast<std::size_t>(s.mesh) >= m.meshes.size()) {
    throw Error(g.path(),
                "a node refers to mesh " + std::to_string(s.mesh) + ", which does not exist");
  }
  s.node = firstNode(m, s.mesh, /*withSkin=*/true);
  if (s.node < 0) s.node = firstNode(m, s.mesh, /*withSkin=*/false);
  if (skinIndex >= 0) {
    s.skin = skinIndex;
  } else if (s.node >= 0 && m.nodes[static_cast<std::size_t>(s.node)].skin >= 0) {
    s.skin = m.nodes[static_cast<std::size_t>(s.node)].skin;
  } else if (m.skins.size() == 1) {
    s.skin = 0;
  }
  if (s.skin >= 0 && static_cast<std::size_t>(s.skin) >= m.skins.size()) {
    throw Error(g.path(), missing("skin", s.skin, m.skins.size(), "skins"));
  }
  if (requireSkin && s.skin < 0) {
    throw Error(g.path(), element("meshes", static_cast<std::size_t>(s.mesh)) +
                              " has no skin (no node uses it with \"skin\"); give \"skin\"");
  }
  return s;
}

MeshData readMesh(const Document& g, int meshIndex, int numJoints) {
  const tinygltf::Mesh& mesh = g.model().meshes[static_cast<std::size_t>(meshIndex)];
  const std::string meshWhere = element("meshes", static_cast<std::size_t>(meshIndex));
  const bool skinned = numJoints >= 0;
  std::vector<double> V;
  std::vector<int> J;
  std::vector<double> W;
  std::vector<int> F;
  if (mesh.primitives.empty()) throw g.error(meshWhere, "has no primitives");
  for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
    const tinygltf::Primitive& prim = mesh.primitives[p];
    const std::string where = meshWhere + ".primitives[" + std::to_string(p) + "]";
    if (prim.mode != TINYGLTF_MODE_TRIANGLES && prim.mode != -1) {
      throw g.error(where, "mode " + std::to_string(prim.mode) +
                               " is not supported (only triangles, mode 4)");
    }
    if (!prim.targets.empty()) throw g.error(where, "morph targets are not supported");
    if (attribute(prim, "POSITION") < 0) throw g.error(where, "has no POSITION attribute");
    std::size_t nv = 0;
    const std::vector<double> pos = g.read(attribute(prim, "POSITION"), where + " POSITION",
                                           TINYGLTF_TYPE_VEC3, Components::kFloat, &nv);
    const std::size_t offset = V.size() / 3;
    for (std::size_t i = 0; i < nv; ++i) {
      for (int c = 0; c < 3; ++c) {
        if (!std::isfinite(pos[3 * i + static_cast<std::size_t>(c)])) {
          throw g.error(where, "POSITION of vertex " + std::to_string(i) + " is not finite");
        }
      }
    }
    V.insert(V.end(), pos.begin(), pos.end());
    if (skinned) readInfluences(g, prim, where, nv, numJoints, &J, &W);
    const std::size_t numTriangles0 = F.size();
    readTriangles(g, prim, where, nv, offset, &F);
    if (V.size() / 3 > static_cast<std::size_t>(std::numeric_limits<int>::max() / 2) ||
        F.size() / 3 > static_cast<std::size_t>(std::numeric_limits<int>::max() / 4)) {
      throw g.error(meshWhere, "too many vertices or faces");
    }
    if (F.size() == numTriangles0) throw g.error(where, "has no triangles");
  }
  MeshData out;
  const auto nv = static_cast<Eigen::Index>(V.size() / 3);
  out.mesh.V = Eigen::Map<const geometry::VertexMatrix>(V.data(), nv, 3);
  out.mesh.F =
      Eigen::Map<const geometry::FaceMatrix>(F.data(), static_cast<Eigen::Index>(F.size() / 3), 3);
  if (skinned) {
    out.joints =
        Eigen::Map<const Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor>>(J.data(), nv, 4);
    out.weights = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor>>(
        W.data(), nv, 4);
  }
  return out;
}

/// Merges vertices with the same position and the same joint influences (glTF exporters
/// split vertices along UV and normal seams, which would open a closed surface).
void weld(MeshData* d) {
  const bool skinned = d->joints.rows() > 0;
  const Eigen::Index n = d->mesh.V.rows();
  using Key = std::array<double, 11>;
  std::map<Key, int> index;
  std::vector<int> remap(static_cast<std::size_t>(n));
  std::vector<Eigen::Index> keep;
  for (Eigen::Index i = 0; i < n; ++i) {
    Key key{};
    for (int c = 0; c < 3; ++c) key[static_cast<std::size_t>(c)] = d->mesh.V(i, c) + 0.0;
    if (skinned) {
      std::array<std::pair<int, double>, 4> infl;
      for (int k = 0; k < 4; ++k)
        infl[static_cast<std::size_t>(k)] = {d->joints(i, k), d->weights(i, k)};
      // Canonical: drop zero weights' joints, sort by joint.
      for (auto& [j, w] : infl) {
        if (w == 0.0) j = -1;
      }
      std::sort(infl.begin(), infl.end());
      for (std::size_t k = 0; k < 4; ++k) {
        key[3 + 2 * k] = infl[k].first;
        key[4 + 2 * k] = infl[k].second;
      }
    }
    const auto [it, inserted] = index.emplace(key, static_cast<int>(keep.size()));
    if (inserted) keep.push_back(i);
    remap[static_cast<std::size_t>(i)] = it->second;
  }
  if (static_cast<Eigen::Index>(keep.size()) == n) return;
  const auto m = static_cast<Eigen::Index>(keep.size());
  geometry::VertexMatrix V(m, 3);
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> J(skinned ? m : 0, 4);
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> W(skinned ? m : 0, 4);
  for (Eigen::Index k = 0; k < m; ++k) {
    V.row(k) = d->mesh.V.row(keep[static_cast<std::size_t>(k)]);
    if (skinned) {
      J.row(k) = d->joints.row(keep[static_cast<std::size_t>(k)]);
      W.row(k) = d->weights.row(keep[static_cast<std::size_t>(k)]);
    }
  }
  for (Eigen::Index f = 0; f < d->mesh.F.rows(); ++f) {
    for (int c = 0; c < 3; ++c) d->mesh.F(f, c) = remap[static_cast<std::size_t>(d->mesh.F(f, c))];
  }
  d->mesh.V = std::move(V);
  d->joints = std::move(J);
  d->weights = std::move(W);
}

/// Validates the mesh and orients its closed parts outward.
void finishMesh(const Document& g, int meshIndex, geometry::TriMesh* mesh) {
  try {
    const geometry::Topology topo = geometry::buildTopology(*mesh);
    geometry::orientClosedPartsOutward(mesh, topo);
  } catch (const geometry::MeshError& e) {
    throw g.error(element("meshes", static_cast<std::size_t>(meshIndex)), e.what());
  }
}

/// Reads the selected skinned mesh: vertex data, welded and validated.
MeshData readSkinnedMesh(const Document& g, const Selection& s, bool doWeld) {
  const tinygltf::Skin& skin = g.model().skins[static_cast<std::size_t>(s.skin)];
  if (skin.joints.empty()) {
    throw g.error(element("skins", static_cast<std::size_t>(s.skin)), "has no joints");
  }
  MeshData d = readMesh(g, s.mesh, static_cast<int>(skin.joints.size()));
  if (doWeld) weld(&d);
  finishMesh(g, s.mesh, &d.mesh);
  return d;
}

}  // namespace samara::io::gltf

namespace samara::io {

bool isGltfPath(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".gltf" || ext == ".glb";
}

geometry::TriMesh loadGltfMesh(const std::string& path, int meshIndex, std::uintmax_t maxBytes) {
  return loadGltfMesh(gltf::Document(path, maxBytes), meshIndex);
}

geometry::TriMesh loadGltfMesh(const gltf::Document& g, int meshIndex) {
  const gltf::Selection sel = gltf::select(g, meshIndex, "", -1, false);
  const tinygltf::Mesh& mesh = g.model().meshes[static_cast<std::size_t>(sel.mesh)];
  const bool hasJoints =
      !mesh.primitives.empty() && mesh.primitives[0].attributes.count("JOINTS_0") > 0;
  if (sel.skin >= 0 && hasJoints) return gltf::readSkinnedMesh(g, sel, true).mesh;
  gltf::MeshData d = gltf::readMesh(g, sel.mesh, -1);
  if (sel.node >= 0) {
    const Eigen::Matrix4d m = gltf::restGlobal(g, gltf::parents(g), sel.node);
    for (Eigen::Index i = 0; i < d.mesh.V.rows(); ++i) {
      const Eigen::Vector4d x(d.mesh.V(i, 0), d.mesh.V(i, 1), d.mesh.V(i, 2), 1.0);
      d.mesh.V.row(i) = (m * x).head<3>().transpose();
    }
  }
  gltf::weld(&d);
  gltf::finishMesh(g, sel.mesh, &d.mesh);
  return d.mesh;
}

}  // namespace samara::io
