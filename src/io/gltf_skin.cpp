#include "io/gltf_skin.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>

#include "geometry/topology.h"
#include "io/error.h"
#include "io/json_util.h"

namespace samara::io {
namespace {

namespace fs = std::filesystem;

/// Weight sums further than this from 1 are an error; closer ones are renormalised (covers
/// the quantisation of normalized 8-bit weights: 4 × 0.5/255 ≈ 0.008).
constexpr double kWeightSumTolerance = 1e-2;

/// Image loader that keeps images undecoded: only geometry is needed, and a hostile
/// texture should not reach an image decoder.
bool skipImage(tinygltf::Image* /*image*/, const int /*index*/, std::string* /*err*/,
               std::string* /*warn*/, int /*reqWidth*/, int /*reqHeight*/,
               const unsigned char* /*bytes*/, int /*size*/, void* /*user*/) {
  return true;
}

/// A value read from single-precision data, to 6 significant digits ("0.7", not
/// "0.7000000029802322").
std::string shortNumber(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

std::string element(const char* kind, std::size_t index) {
  return std::string(kind) + "[" + std::to_string(index) + "]";
}

std::string typeName(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT2:
      return "MAT2";
    case TINYGLTF_TYPE_MAT3:
      return "MAT3";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return "type " + std::to_string(type);
  }
}

std::string componentName(int c) {
  switch (c) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return "BYTE";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return "UNSIGNED_BYTE";
    case TINYGLTF_COMPONENT_TYPE_SHORT:
      return "SHORT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return "UNSIGNED_SHORT";
    case TINYGLTF_COMPONENT_TYPE_INT:
      return "INT";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return "UNSIGNED_INT";
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return "FLOAT";
    default:
      return "component type " + std::to_string(c);
  }
}

/// Which component types an accessor may have.
enum class Components {
  kFloat,              ///< FLOAT
  kFloatOrNormalized,  ///< FLOAT, or normalized (U)BYTE / (U)SHORT
  kIndex,              ///< UNSIGNED_BYTE / UNSIGNED_SHORT / UNSIGNED_INT
  kJoint,              ///< UNSIGNED_BYTE / UNSIGNED_SHORT
};

/// A loaded glTF file and typed, bounds-checked access to its accessors.
class Gltf {
 public:
  Gltf(const std::string& path, std::uintmax_t maxBytes) : path_(path) {
    const std::string bytes = readFile(path, maxBytes);
    if (bytes.size() > std::numeric_limits<unsigned int>::max()) {
      throw Error(path, "file too large for the glTF reader");
    }
    std::error_code ec;
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
    const fs::path absDir = fs::absolute(dir, ec);
    const std::string baseDir = ec ? dir.string() : absDir.string();
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(&skipImage, nullptr);
    std::string err;
    std::string warn;
    bool ok = false;
    try {
      const bool binary = bytes.size() >= 4 && bytes.compare(0, 4, "glTF") == 0;
      const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
      const auto size = static_cast<unsigned int>(bytes.size());
      ok = binary ? loader.LoadBinaryFromMemory(&model_, &err, &warn, data, size, baseDir)
                  : loader.LoadASCIIFromString(&model_, &err, &warn, bytes.data(), size, baseDir);
    } catch (const std::exception& e) {
      err = e.what();
      ok = false;
    }
    if (!ok) {
      while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
      for (char& c : err) {
        if (c == '\n') c = ';';
      }
      if (err.size() > 300) err = err.substr(0, 300) + "...";
      throw Error(path, "cannot read glTF: " + (err.empty() ? std::string("unknown error") : err));
    }
  }

  [[nodiscard]] const tinygltf::Model& model() const { return model_; }
  [[nodiscard]] const std::string& path() const { return path_; }

  /// An error about a glTF element ("animations[0].channels[2] (sampler 2)").
  [[nodiscard]] Error error(const std::string& where, const std::string& message) const {
    return Error(path_, where + ": " + message);
  }

  /// Reads accessor `index` (used by `user`, for messages) as doubles, `count` × the
  /// type's components, normalized integers mapped to [0, 1] / [−1, 1].
  std::vector<double> read(int index, const std::string& user, int type, Components allowed,
                           std::size_t* count) const {
    const auto& acc = model_.accessors;
    if (index < 0 || static_cast<std::size_t>(index) >= acc.size()) {
      throw error(user, "refers to accessor " + std::to_string(index) + ", which does not exist (" +
                            std::to_string(acc.size()) + " accessors)");
    }
    const tinygltf::Accessor& a = acc[static_cast<std::size_t>(index)];
    const std::string name = element("accessors", static_cast<std::size_t>(index));
    const std::string where = user + " (" + name + ")";
    if (a.sparse.isSparse) throw error(where, "sparse accessors are not supported");
    if (a.type != type) {
      throw error(where, "has type " + typeName(a.type) + ", expected " + typeName(type));
    }
    const int ct = a.componentType;
    bool ok = false;
    switch (allowed) {
      case Components::kFloat:
        ok = ct == TINYGLTF_COMPONENT_TYPE_FLOAT;
        break;
      case Components::kFloatOrNormalized:
        ok =
            ct == TINYGLTF_COMPONENT_TYPE_FLOAT ||
            (a.normalized &&
             (ct == TINYGLTF_COMPONENT_TYPE_BYTE || ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
              ct == TINYGLTF_COMPONENT_TYPE_SHORT || ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT));
        break;
      case Components::kIndex:
        ok = !a.normalized && (ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
                               ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
                               ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT);
        break;
      case Components::kJoint:
        ok = !a.normalized && (ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
                               ct == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
        break;
    }
    if (!ok) {
      throw error(where, "component type " + componentName(ct) +
                             (a.normalized ? " (normalized)" : "") + " is not allowed here");
    }
    const std::size_t comps = static_cast<std::size_t>(
        tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type)));
    const std::size_t csize =
        static_cast<std::size_t>(tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(ct)));
    const std::size_t n = a.count;
    *count = n;
    if (a.bufferView < 0) {  // no data: all zeros (glTF 2.0 §3.6.2.1)
      if (n > (std::size_t{1} << 28)) throw error(where, "count is too large without data");
      return std::vector<double>(n * comps, 0.0);
    }
    const auto& views = model_.bufferViews;
    if (static_cast<std::size_t>(a.bufferView) >= views.size()) {
      throw error(
          where, "refers to bufferView " + std::to_string(a.bufferView) + ", which does not exist");
    }
    const tinygltf::BufferView& view = views[static_cast<std::size_t>(a.bufferView)];
    const std::string viewName = element("bufferViews", static_cast<std::size_t>(a.bufferView));
    if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= model_.buffers.size()) {
      throw error(viewName,
                  "refers to buffer " + std::to_string(view.buffer) + ", which does not exist");
    }
    const std::vector<unsigned char>& data =
        model_.buffers[static_cast<std::size_t>(view.buffer)].data;
    if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset) {
      throw error(viewName, "byte range [" + std::to_string(view.byteOffset) + ", " +
                                std::to_string(view.byteOffset + view.byteLength) +
                                ") is outside its buffer (" + std::to_string(data.size()) +
                                " bytes)");
    }
    const std::size_t elemSize = comps * csize;
    const std::size_t stride = view.byteStride == 0 ? elemSize : view.byteStride;
    if (stride < elemSize) {
      throw error(viewName, "byteStride " + std::to_string(stride) +
                                " is smaller than an element of " + name + " (" +
                                std::to_string(elemSize) + " bytes)");
    }
    if (n == 0) return {};
    if (n > view.byteLength || a.byteOffset > view.byteLength ||
        stride * (n - 1) + elemSize > view.byteLength - a.byteOffset) {
      throw error(where, std::to_string(n) + " elements at byte offset " +
                             std::to_string(a.byteOffset) + " do not fit in " + viewName + " (" +
                             std::to_string(view.byteLength) + " bytes)");
    }
    const unsigned char* base = data.data() + view.byteOffset + a.byteOffset;
    std::vector<double> out(n * comps);
    for (std::size_t i = 0; i < n; ++i) {
      const unsigned char* e = base + i * stride;
      for (std::size_t c = 0; c < comps; ++c) {
        out[i * comps + c] = component(e + c * csize, ct, a.normalized);
      }
    }
    return out;
  }

 private:
  static double component(const unsigned char* p, int ct, bool normalized) {
    switch (ct) {
      case TINYGLTF_COMPONENT_TYPE_FLOAT: {
        float f;
        std::memcpy(&f, p, sizeof f);
        return static_cast<double>(f);
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return normalized ? p[0] / 255.0 : static_cast<double>(p[0]);
      case TINYGLTF_COMPONENT_TYPE_BYTE: {
        const auto v = static_cast<double>(static_cast<signed char>(p[0]));
        return normalized ? std::max(v / 127.0, -1.0) : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        std::uint16_t v;
        std::memcpy(&v, p, sizeof v);
        return normalized ? v / 65535.0 : static_cast<double>(v);
      }
      case TINYGLTF_COMPONENT_TYPE_SHORT: {
        std::int16_t v;
        std::memcpy(&v, p, sizeof v);
        return normalized ? std::max(v / 32767.0, -1.0) : static_cast<double>(v);
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
        std::uint32_t v;
        std::memcpy(&v, p, sizeof v);
        return static_cast<double>(v);
      }
      default:
        return 0.0;
    }
  }

  std::string path_;
  tinygltf::Model model_;
};

/// The rest (T, R, S) of a node, from its TRS properties or its matrix.
core::SkinnedAnimation::Node restTrs(const Gltf& g, std::size_t index) {
  const tinygltf::Node& n = g.model().nodes[index];
  const std::string where = element("nodes", index);
  core::SkinnedAnimation::Node out;
  auto finite = [&](const std::vector<double>& v, std::size_t size, const char* what) {
    if (v.empty()) return false;
    if (v.size() != size) {
      throw g.error(where, std::string(what) + " needs " + std::to_string(size) + " numbers");
    }
    for (double x : v) {
      if (!std::isfinite(x)) throw g.error(where, std::string(what) + " is not finite");
    }
    return true;
  };
  if (finite(n.matrix, 16, "matrix")) {
    if (!n.translation.empty() || !n.rotation.empty() || !n.scale.empty()) {
      throw g.error(where, "has both a matrix and translation/rotation/scale");
    }
    const Eigen::Map<const Eigen::Matrix4d> m(n.matrix.data());  // column-major, as glTF
    if ((m.row(3) - Eigen::RowVector4d(0, 0, 0, 1)).cwiseAbs().maxCoeff() > 1e-9) {
      throw g.error(where, "matrix is not affine (its last row must be 0, 0, 0, 1)");
    }
    const Eigen::Matrix3d A = m.topLeftCorner<3, 3>();
    Eigen::Vector3d s = A.colwise().norm().transpose();
    if (s.minCoeff() < 1e-12) throw g.error(where, "matrix is singular (zero scale)");
    if (A.determinant() < 0.0) s.x() = -s.x();
    const Eigen::Matrix3d R = A * s.cwiseInverse().asDiagonal();
    if ((R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() > 1e-6) {
      throw g.error(where,
                    "matrix has shear (it cannot be split into translation, rotation and scale)");
    }
    out.t = m.topRightCorner<3, 1>();
    out.r = Eigen::Quaterniond(R).normalized();
    out.s = s;
    return out;
  }
  if (finite(n.translation, 3, "translation")) {
    out.t = Eigen::Vector3d(n.translation[0], n.translation[1], n.translation[2]);
  }
  if (finite(n.rotation, 4, "rotation")) {
    const Eigen::Quaterniond q(n.rotation[3], n.rotation[0], n.rotation[1], n.rotation[2]);
    if (!(q.norm() > 1e-12)) throw g.error(where, "rotation is a zero quaternion");
    out.r = q.normalized();
  }
  if (finite(n.scale, 3, "scale")) out.s = Eigen::Vector3d(n.scale[0], n.scale[1], n.scale[2]);
  return out;
}

Eigen::Matrix4d trsMatrix(const core::SkinnedAnimation::Node& n) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = n.r.toRotationMatrix() * n.s.asDiagonal();
  m.topRightCorner<3, 1>() = n.t;
  return m;
}

/// Parent of every node (−1 for roots). Throws for a child index out of range, a node with
/// two parents, or a cycle.
std::vector<int> parents(const Gltf& g) {
  const auto& nodes = g.model().nodes;
  std::vector<int> parent(nodes.size(), -1);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const int c : nodes[i].children) {
      if (c < 0 || static_cast<std::size_t>(c) >= nodes.size()) {
        throw g.error(element("nodes", i), "child " + std::to_string(c) + " does not exist");
      }
      const auto ci = static_cast<std::size_t>(c);
      if (parent[ci] >= 0) {
        throw g.error(element("nodes", ci), "is a child of both nodes[" +
                                                std::to_string(parent[ci]) + "] and nodes[" +
                                                std::to_string(i) + "]");
      }
      parent[ci] = static_cast<int>(i);
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {  // every chain must reach a root
    std::size_t steps = 0;
    for (int k = parent[i]; k >= 0; k = parent[static_cast<std::size_t>(k)]) {
      if (++steps > nodes.size()) {
        throw g.error(element("nodes", i), "is part of a cycle in the node hierarchy");
      }
    }
  }
  return parent;
}

Eigen::Matrix4d restGlobal(const Gltf& g, const std::vector<int>& parent, int node) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  for (int k = node; k >= 0; k = parent[static_cast<std::size_t>(k)]) {
    m = trsMatrix(restTrs(g, static_cast<std::size_t>(k))) * m;
  }
  return m;
}

/// Which mesh, which node instantiates it, which skin.
struct Selection {
  int mesh = -1;
  int node = -1;  ///< −1 if no node uses the mesh
  int skin = -1;  ///< −1 if none
};

Selection select(const Gltf& g, int meshIndex, const std::string& meshName, int skinIndex,
                 bool requireSkin) {
  const tinygltf::Model& m = g.model();
  Selection s;
  if (m.meshes.empty()) throw Error(g.path(), "the file has no meshes");
  if (!meshName.empty()) {
    std::string names;
    for (std::size_t i = 0; i < m.meshes.size(); ++i) {
      if (m.meshes[i].name == meshName) {
        s.mesh = static_cast<int>(i);
        break;
      }
      names += (names.empty() ? "" : ", ") + ("\"" + m.meshes[i].name + "\"");
    }
    if (s.mesh < 0) {
      throw Error(g.path(), "no mesh named \"" + meshName + "\" (meshes: " + names + ")");
    }
  } else if (meshIndex >= 0) {
    if (static_cast<std::size_t>(meshIndex) >= m.meshes.size()) {
      throw Error(g.path(), "mesh " + std::to_string(meshIndex) + " does not exist (" +
                                std::to_string(m.meshes.size()) + " meshes)");
    }
    s.mesh = meshIndex;
  } else {
    for (const tinygltf::Node& n : m.nodes) {
      if (n.mesh >= 0 && n.skin >= 0) {
        s.mesh = n.mesh;
        break;
      }
    }
    if (s.mesh < 0) {
      if (requireSkin) {
        throw Error(g.path(),
                    "no node has a skinned mesh (a node with both \"mesh\" and "
                    "\"skin\"); give \"mesh\" and \"skin\"");
      }
      for (const tinygltf::Node& n : m.nodes) {
        if (n.mesh >= 0) {
          s.mesh = n.mesh;
          break;
        }
      }
      if (s.mesh < 0) s.mesh = 0;
    }
  }
  if (static_cast<std::size_t>(s.mesh) >= m.meshes.size()) {
    throw Error(g.path(),
                "a node refers to mesh " + std::to_string(s.mesh) + ", which does not exist");
  }
  for (std::size_t i = 0; i < m.nodes.size() && s.node < 0; ++i) {
    if (m.nodes[i].mesh == s.mesh && m.nodes[i].skin >= 0) s.node = static_cast<int>(i);
  }
  for (std::size_t i = 0; i < m.nodes.size() && s.node < 0; ++i) {
    if (m.nodes[i].mesh == s.mesh) s.node = static_cast<int>(i);
  }
  if (skinIndex >= 0) {
    s.skin = skinIndex;
  } else if (s.node >= 0 && m.nodes[static_cast<std::size_t>(s.node)].skin >= 0) {
    s.skin = m.nodes[static_cast<std::size_t>(s.node)].skin;
  } else if (m.skins.size() == 1) {
    s.skin = 0;
  }
  if (s.skin >= 0 && static_cast<std::size_t>(s.skin) >= m.skins.size()) {
    throw Error(g.path(), "skin " + std::to_string(s.skin) + " does not exist (" +
                              std::to_string(m.skins.size()) + " skins)");
  }
  if (requireSkin && s.skin < 0) {
    throw Error(g.path(), element("meshes", static_cast<std::size_t>(s.mesh)) +
                              " has no skin (no node uses it with \"skin\"); give \"skin\"");
  }
  return s;
}

/// A mesh read from a glTF file: positions and (when skinned) 4 joints and weights per
/// vertex.
struct MeshData {
  geometry::TriMesh mesh;
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> joints;
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> weights;
};

/// Reads and merges the triangle primitives of mesh `meshIndex`. With `numJoints` ≥ 0 the
/// vertices need JOINTS_0 / WEIGHTS_0 referring to fewer than `numJoints` joints.
MeshData readMesh(const Gltf& g, int meshIndex, int numJoints) {
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
    auto attribute = [&](const char* name) {
      const auto it = prim.attributes.find(name);
      return it == prim.attributes.end() ? -1 : it->second;
    };
    if (attribute("POSITION") < 0) throw g.error(where, "has no POSITION attribute");
    std::size_t nv = 0;
    const std::vector<double> pos = g.read(attribute("POSITION"), where + " POSITION",
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
    if (skinned) {
      if (attribute("JOINTS_1") >= 0 || attribute("WEIGHTS_1") >= 0) {
        throw g.error(where,
                      "more than 4 joint influences per vertex (JOINTS_1 / WEIGHTS_1) "
                      "are not supported; export at most 4 bone influences");
      }
      if (attribute("JOINTS_0") < 0) throw g.error(where, "has no JOINTS_0 attribute");
      if (attribute("WEIGHTS_0") < 0) throw g.error(where, "has no WEIGHTS_0 attribute");
      std::size_t nj = 0;
      std::size_t nw = 0;
      const std::vector<double> joints = g.read(attribute("JOINTS_0"), where + " JOINTS_0",
                                                TINYGLTF_TYPE_VEC4, Components::kJoint, &nj);
      const std::vector<double> weights =
          g.read(attribute("WEIGHTS_0"), where + " WEIGHTS_0", TINYGLTF_TYPE_VEC4,
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
          throw Error(g.path(),
                      vertex + ": weights sum to " + shortNumber(sum) + " (glTF requires 1)");
        }
        for (std::size_t k = 0; k < 4; ++k) {
          const double w = weights[4 * i + k] / sum;
          int j = static_cast<int>(joints[4 * i + k]);
          if (j >= numJoints) {
            if (w != 0.0) {
              throw Error(g.path(), vertex + ": joint " + std::to_string(j) +
                                        " is out of range (the skin has " +
                                        std::to_string(numJoints) + " joints)");
            }
            j = 0;  // unused slot
          }
          J.push_back(j);
          W.push_back(w);
        }
      }
    }
    const std::size_t numTriangles0 = F.size();
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
        F.push_back(static_cast<int>(offset + static_cast<std::size_t>(idx[i])));
      }
    } else {
      if (nv % 3 != 0) {
        throw g.error(where, std::to_string(nv) +
                                 " vertices without indices is not a "
                                 "multiple of 3");
      }
      for (std::size_t i = 0; i < nv; ++i) F.push_back(static_cast<int>(offset + i));
    }
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
void finishMesh(const Gltf& g, int meshIndex, geometry::TriMesh* mesh) {
  try {
    const geometry::Topology topo = geometry::buildTopology(*mesh);
    geometry::orientClosedPartsOutward(mesh, topo);
  } catch (const geometry::MeshError& e) {
    throw g.error(element("meshes", static_cast<std::size_t>(meshIndex)), e.what());
  }
}

/// Reads the selected skinned mesh: vertex data, welded and validated.
MeshData readSkinnedMesh(const Gltf& g, const Selection& s, bool doWeld) {
  const tinygltf::Skin& skin = g.model().skins[static_cast<std::size_t>(s.skin)];
  if (skin.joints.empty()) {
    throw g.error(element("skins", static_cast<std::size_t>(s.skin)), "has no joints");
  }
  MeshData d = readMesh(g, s.mesh, static_cast<int>(skin.joints.size()));
  if (doWeld) weld(&d);
  finishMesh(g, s.mesh, &d.mesh);
  return d;
}

int findAnimation(const Gltf& g, const GltfSkinOptions& o) {
  const auto& anims = g.model().animations;
  if (!o.animationName.empty()) {
    std::string names;
    for (std::size_t i = 0; i < anims.size(); ++i) {
      if (anims[i].name == o.animationName) return static_cast<int>(i);
      names += (names.empty() ? "" : ", ") + ("\"" + anims[i].name + "\"");
    }
    throw Error(g.path(), "no animation named \"" + o.animationName +
                              "\" (animations: " + (names.empty() ? "none" : names) + ")");
  }
  if (o.animation >= 0) {
    if (static_cast<std::size_t>(o.animation) >= anims.size()) {
      throw Error(g.path(), "animation " + std::to_string(o.animation) + " does not exist (" +
                                std::to_string(anims.size()) + " animations)");
    }
    return o.animation;
  }
  return anims.empty() ? -1 : 0;
}

}  // namespace

bool isGltfPath(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".gltf" || ext == ".glb";
}

std::shared_ptr<core::SkinnedAnimation> loadGltfSkin(const std::string& path,
                                                     const GltfSkinOptions& options,
                                                     geometry::TriMesh* restMesh,
                                                     std::uintmax_t maxBytes) {
  const Gltf g(path, maxBytes);
  const tinygltf::Model& model = g.model();
  const Selection sel = select(g, options.mesh, options.meshName, options.skin, true);
  const int animIndex = findAnimation(g, options);
  MeshData d = readSkinnedMesh(g, sel, options.weld);

  auto anim = std::make_shared<core::SkinnedAnimation>();
  anim->rest = d.mesh.V;
  anim->vertexJoints = d.joints;
  anim->vertexWeights = d.weights;
  anim->loop = options.loop;
  anim->timeScale = options.timeScale;

  // Skin: joints and inverse bind matrices.
  const tinygltf::Skin& skin = model.skins[static_cast<std::size_t>(sel.skin)];
  const std::string skinWhere = element("skins", static_cast<std::size_t>(sel.skin));
  const std::size_t numJoints = skin.joints.size();
  for (std::size_t j = 0; j < numJoints; ++j) {
    const int node = skin.joints[j];
    if (node < 0 || static_cast<std::size_t>(node) >= model.nodes.size()) {
      throw g.error(skinWhere, "joint " + std::to_string(j) + " refers to node " +
                                   std::to_string(node) + ", which does not exist");
    }
  }
  anim->inverseBind.assign(numJoints, Eigen::Matrix4d::Identity());
  if (skin.inverseBindMatrices >= 0) {
    std::size_t count = 0;
    const std::vector<double> m =
        g.read(skin.inverseBindMatrices, skinWhere + " inverseBindMatrices", TINYGLTF_TYPE_MAT4,
               Components::kFloat, &count);
    if (count < numJoints) {
      throw g.error(skinWhere, "inverseBindMatrices has " + std::to_string(count) +
                                   " matrices for " + std::to_string(numJoints) + " joints");
    }
    for (std::size_t j = 0; j < numJoints; ++j) {
      anim->inverseBind[j] = Eigen::Map<const Eigen::Matrix4d>(&m[16 * j]);  // column-major
      if (!anim->inverseBind[j].allFinite()) {
        throw g.error(skinWhere, "inverse bind matrix " + std::to_string(j) + " is not finite");
      }
    }
  }

  // Nodes: the joints and their ancestors, parents before children.
  const std::vector<int> parent = parents(g);
  std::vector<int> depth(model.nodes.size(), -1);
  std::vector<int> used;
  for (const int j : skin.joints) {
    for (int k = j; k >= 0 && depth[static_cast<std::size_t>(k)] < 0;
         k = parent[static_cast<std::size_t>(k)]) {
      int dk = 0;
      for (int a = parent[static_cast<std::size_t>(k)]; a >= 0;
           a = parent[static_cast<std::size_t>(a)]) {
        ++dk;
      }
      depth[static_cast<std::size_t>(k)] = dk;
      used.push_back(k);
    }
  }
  std::sort(used.begin(), used.end(), [&](int a, int b) {
    const int da = depth[static_cast<std::size_t>(a)];
    const int db = depth[static_cast<std::size_t>(b)];
    return da != db ? da < db : a < b;
  });
  std::vector<int> newIndex(model.nodes.size(), -1);
  for (std::size_t i = 0; i < used.size(); ++i)
    newIndex[static_cast<std::size_t>(used[i])] = static_cast<int>(i);
  for (const int k : used) {
    core::SkinnedAnimation::Node n = restTrs(g, static_cast<std::size_t>(k));
    const int p = parent[static_cast<std::size_t>(k)];
    n.parent = p >= 0 ? newIndex[static_cast<std::size_t>(p)] : -1;
    anim->nodes.push_back(n);
  }
  for (const int j : skin.joints) anim->joints.push_back(newIndex[static_cast<std::size_t>(j)]);

  // Animation channels.
  if (animIndex >= 0) {
    const tinygltf::Animation& a = model.animations[static_cast<std::size_t>(animIndex)];
    const std::string animWhere = element("animations", static_cast<std::size_t>(animIndex));
    for (std::size_t ci = 0; ci < a.channels.size(); ++ci) {
      const tinygltf::AnimationChannel& ch = a.channels[ci];
      std::string where = animWhere + ".channels[" + std::to_string(ci) + "]";
      if (ch.sampler < 0 || static_cast<std::size_t>(ch.sampler) >= a.samplers.size()) {
        throw g.error(where, "sampler " + std::to_string(ch.sampler) + " does not exist (" +
                                 std::to_string(a.samplers.size()) + " samplers)");
      }
      where += " (sampler " + std::to_string(ch.sampler) + ")";
      if (ch.target_node < 0) continue;  // targets something other than a node
      if (static_cast<std::size_t>(ch.target_node) >= model.nodes.size()) {
        throw g.error(where, "target node " + std::to_string(ch.target_node) + " does not exist");
      }
      core::SkinnedAnimation::Channel c;
      int comps = 3;
      if (ch.target_path == "translation") {
        c.path = core::SkinnedAnimation::Path::kTranslation;
      } else if (ch.target_path == "rotation") {
        c.path = core::SkinnedAnimation::Path::kRotation;
        comps = 4;
      } else if (ch.target_path == "scale") {
        c.path = core::SkinnedAnimation::Path::kScale;
      } else if (ch.target_path == "weights") {
        continue;  // morph target weights: the mesh has no morph targets (checked above)
      } else {
        throw g.error(where, "unknown target path \"" + ch.target_path + "\"");
      }
      const tinygltf::AnimationSampler& smp = a.samplers[static_cast<std::size_t>(ch.sampler)];
      int stride = 1;
      if (smp.interpolation == "LINEAR") {
        c.interp = core::SkinnedAnimation::Interp::kLinear;
      } else if (smp.interpolation == "STEP") {
        c.interp = core::SkinnedAnimation::Interp::kStep;
      } else if (smp.interpolation == "CUBICSPLINE") {
        c.interp = core::SkinnedAnimation::Interp::kCubicSpline;
        stride = 3;
      } else {
        throw g.error(where, "unknown interpolation \"" + smp.interpolation +
                                 "\" (LINEAR, STEP or CUBICSPLINE)");
      }
      std::size_t nt = 0;
      c.times = g.read(smp.input, where + " input", TINYGLTF_TYPE_SCALAR, Components::kFloat, &nt);
      if (nt == 0) throw g.error(where, "has no keys");
      for (std::size_t k = 0; k < nt; ++k) {
        if (!std::isfinite(c.times[k])) {
          throw g.error(where, "key " + std::to_string(k) + " time is not finite");
        }
        if (k > 0 && !(c.times[k] > c.times[k - 1])) {
          throw g.error(where, "key " + std::to_string(k) + " time is not increasing (" +
                                   shortNumber(c.times[k]) + " after " +
                                   shortNumber(c.times[k - 1]) + ")");
        }
      }
      std::size_t nv = 0;
      c.values = g.read(smp.output, where + " output",
                        comps == 4 ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3,
                        comps == 4 ? Components::kFloatOrNormalized : Components::kFloat, &nv);
      if (nv != nt * static_cast<std::size_t>(stride)) {
        throw g.error(where, "output has " + std::to_string(nv) + " values for " +
                                 std::to_string(nt) + " keys" +
                                 (stride == 3 ? " (CUBICSPLINE needs 3 per key)" : ""));
      }
      const auto ucomps = static_cast<std::size_t>(comps);
      for (std::size_t v = 0; v < nv; ++v) {
        const std::size_t key = v / static_cast<std::size_t>(stride);
        const std::size_t part = v % static_cast<std::size_t>(stride);
        const char* partName = stride == 1 ? "value"
                                           : (part == 0   ? "in-tangent"
                                              : part == 1 ? "value"
                                                          : "out-tangent");
        Eigen::Map<const Eigen::VectorXd> x(&c.values[v * ucomps],
                                            static_cast<Eigen::Index>(comps));
        if (!x.allFinite()) {
          throw g.error(where, "key " + std::to_string(key) + " " + partName + " is not finite");
        }
        const bool isValue = stride == 1 || part == 1;
        if (comps == 4 && isValue && !(x.norm() > 1e-12)) {
          throw g.error(where, "key " + std::to_string(key) + " rotation is a zero quaternion");
        }
      }
      anim->duration = std::max(anim->duration, c.times.back());
      const int target = newIndex[static_cast<std::size_t>(ch.target_node)];
      if (target < 0) continue;  // does not move the skin
      c.node = target;
      anim->channels.push_back(std::move(c));
    }
  }
  if (restMesh != nullptr) *restMesh = std::move(d.mesh);
  return anim;
}

geometry::TriMesh loadGltfMesh(const std::string& path, int meshIndex, std::uintmax_t maxBytes) {
  const Gltf g(path, maxBytes);
  const Selection sel = select(g, meshIndex, "", -1, false);
  const tinygltf::Mesh& mesh = g.model().meshes[static_cast<std::size_t>(sel.mesh)];
  const bool hasJoints =
      !mesh.primitives.empty() && mesh.primitives[0].attributes.count("JOINTS_0") > 0;
  if (sel.skin >= 0 && hasJoints) return readSkinnedMesh(g, sel, true).mesh;
  MeshData d = readMesh(g, sel.mesh, -1);
  if (sel.node >= 0) {
    const Eigen::Matrix4d m = restGlobal(g, parents(g), sel.node);
    for (Eigen::Index i = 0; i < d.mesh.V.rows(); ++i) {
      const Eigen::Vector4d x(d.mesh.V(i, 0), d.mesh.V(i, 1), d.mesh.V(i, 2), 1.0);
      d.mesh.V.row(i) = (m * x).head<3>().transpose();
    }
  }
  weld(&d);
  finishMesh(g, sel.mesh, &d.mesh);
  return d.mesh;
}

}  // namespace samara::io
