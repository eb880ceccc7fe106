#include "io/gltf/document.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <utility>

#include "io/json_util.h"

namespace samara::io::gltf {
namespace {

namespace fs = std::filesystem;

/// Image loader that keeps images undecoded: only geometry is needed, and a hostile
/// texture should not reach an image decoder.
bool skipImage(tinygltf::Image* /*image*/, const int /*index*/, std::string* /*err*/,
               std::string* /*warn*/, int /*reqWidth*/, int /*reqHeight*/,
               const unsigned char* /*bytes*/, int /*size*/, void* /*user*/) {
  return true;
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

/// One component at `p` as a double (normalized integers mapped to [0, 1] / [−1, 1]).
double component(const unsigned char* p, int ct, bool normalized) {
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

// External buffers go through these callbacks only. tinygltf is given the stand-in folder
// kBufferDir and looks for "<kBufferDir>/<uri>" (then "./<uri>", which never exists), so
// a buffer URI is always read through a BufferReader, after checkUri.
constexpr const char* kBufferDir = "\x01glTF-folder";

constexpr int kMaxDepth = 64;  ///< JSON nesting, as for scene files

struct BufferFs {
  const BufferReader* reader;
  std::uintmax_t budget;  ///< bytes the buffers may still have
  std::string error;      ///< the first refused buffer, for the message
};

/// Whether tinygltf asks for one of the glTF's buffers; sets `uri` to its URI (URL-decoded).
bool bufferUri(const std::string& asked, std::string* uri) {
  const std::string dir = std::string(kBufferDir) + "/";
  if (asked.compare(0, dir.size(), dir) != 0) return false;
  *uri = asked.substr(dir.size());
  return true;
}

bool bufferExists(const std::string& asked, void* /*user*/) {
  std::string uri;
  return bufferUri(asked, &uri);
}

std::string expandNothing(const std::string& path, void* /*user*/) { return path; }

bool writeNothing(std::string* err, const std::string& /*path*/,
                  const std::vector<unsigned char>& /*contents*/, void* /*user*/) {
  if (err != nullptr) *err += "writing is disabled";
  return false;
}

/// Refuses a URI that is not a plain relative path inside the glTF's folder.
void checkUri(const std::string& uri) {
  for (const char c : uri) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw Error("", "contains a control character");
    }
  }
  std::size_t scheme = 0;  // "http:", "file:" (RFC 3986 scheme)
  while (scheme < uri.size() && (std::isalnum(static_cast<unsigned char>(uri[scheme])) != 0 ||
                                 uri[scheme] == '+' || uri[scheme] == '-' || uri[scheme] == '.')) {
    ++scheme;
  }
  if (scheme > 0 && scheme < uri.size() && uri[scheme] == ':' &&
      std::isalpha(static_cast<unsigned char>(uri[0])) != 0) {
    throw Error("", "is a URL; only files in the glTF's folder are read");
  }
  if (!uri.empty() && (uri[0] == '/' || uri[0] == '\\')) {
    throw Error("", "is an absolute path; a buffer must be a file in the glTF's folder");
  }
  std::size_t start = 0;
  while (start <= uri.size()) {
    std::size_t end = uri.find_first_of("/\\", start);
    if (end == std::string::npos) end = uri.size();
    if (uri.compare(start, end - start, "..") == 0) {
      throw Error("", "leaves the glTF's folder (\"..\"); a buffer must be a file in it");
    }
    start = end + 1;
  }
}

/// Deepest nesting of arrays and objects in JSON text [begin, end) (strings skipped): tinygltf
/// converts "extras" recursively, so very deep nesting would overflow the stack.
int jsonDepth(const std::string& text, std::size_t begin, std::size_t end) {
  int depth = 0, deepest = 0;
  bool inString = false;
  for (std::size_t i = begin; i < end; ++i) {
    const char c = text[i];
    if (inString) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

/// The JSON of a glTF: the whole text, or a .glb's first chunk (clamped to the file).
std::pair<std::size_t, std::size_t> jsonRange(const std::string& bytes, bool binary) {
  if (!binary) return {0, bytes.size()};
  if (bytes.size() < 20) return {0, 0};
  std::uint32_t length = 0;
  std::memcpy(&length, bytes.data() + 12, sizeof length);
  return {20, 20 + std::min<std::size_t>(length, bytes.size() - 20)};
}

/// `text` with control characters written as \xNN, for a message.
std::string printable(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

bool readBuffer(std::vector<unsigned char>* out, std::string* err, const std::string& asked,
                void* user) {
  auto* state = static_cast<BufferFs*>(user);
  std::string uri;
  if (!bufferUri(asked, &uri)) return false;
  try {
    checkUri(uri);
    (*state->reader)(uri, state->budget, out);
    state->budget -= std::min<std::uintmax_t>(state->budget, out->size());
    return true;
  } catch (const Error& e) {
    if (state->error.empty()) state->error = "buffer \"" + printable(uri) + "\" " + e.message();
    if (err != nullptr) *err += e.message();
    out->clear();
    return false;
  }
}

}  // namespace

BufferReader folderBuffers(const std::string& gltfPath) {
  fs::path dir = fs::path(gltfPath).parent_path();
  if (dir.empty()) dir = ".";
  return [dir](const std::string& uri, std::uintmax_t maxBytes, std::vector<unsigned char>* out) {
    const fs::path file = dir / uri;
    std::error_code ec;
    const fs::file_status st = fs::status(file, ec);
    if (ec || !fs::exists(st)) throw Error("", "not found (looked for " + file.string() + ")");
    const fs::path realDir = fs::canonical(dir, ec);
    const fs::path real = ec ? fs::path() : fs::canonical(file, ec);
    if (ec) throw Error("", "cannot be resolved: " + ec.message());
    if (std::mismatch(realDir.begin(), realDir.end(), real.begin(), real.end()).first !=
        realDir.end()) {
      throw Error("", "leads outside the glTF's folder (through a symbolic link, to " +
                          real.string() + ")");
    }
    if (!fs::is_regular_file(st)) throw Error("", "is not a regular file");
    const std::uintmax_t size = fs::file_size(file, ec);
    if (!ec && size > maxBytes) {
      throw Error("", "is too large (" + std::to_string(size) +
                          " bytes; the glTF file and its buffers may have " +
                          std::to_string(maxBytes) + " more)");
    }
    try {
      const std::string bytes = readFile(file.string(), maxBytes);
      out->assign(bytes.begin(), bytes.end());
    } catch (const Error& e) {
      throw Error("", e.message());
    }
  };
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

std::string missing(const char* kind, long long index, std::size_t count, const char* plural) {
  return std::string(kind) + " " + std::to_string(index) + " does not exist (" +
         std::to_string(count) + " " + plural + ")";
}

Document::Document(const std::string& path, std::uintmax_t maxBytes)
    : Document(path, readFile(path, maxBytes), maxBytes, folderBuffers(path)) {}

Document::Document(const std::string& path, const std::string& bytes, std::uintmax_t maxBytes,
                   const BufferReader& buffers)
    : path_(path) {
  if (bytes.size() > std::numeric_limits<unsigned int>::max()) {
    throw Error(path, "file too large for the glTF reader");
  }
  const bool binary = bytes.size() >= 4 && bytes.compare(0, 4, "glTF") == 0;
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!binary && ext == ".glb")
    throw Error(path, "not a binary glTF (a .glb starts with \"glTF\")");
  const auto [jsonBegin, jsonEnd] = jsonRange(bytes, binary);
  if (jsonDepth(bytes, jsonBegin, jsonEnd) > kMaxDepth) {
    throw Error(path, "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
  }
  BufferFs state{&buffers, maxBytes > bytes.size() ? maxBytes - bytes.size() : 0, ""};
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&skipImage, nullptr);
  loader.SetFsCallbacks(
      tinygltf::FsCallbacks{&bufferExists, &expandNothing, &readBuffer, &writeNothing, &state});
  std::string err;
  std::string warn;
  bool ok = false;
  try {
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const auto size = static_cast<unsigned int>(bytes.size());
    ok = binary ? loader.LoadBinaryFromMemory(&model_, &err, &warn, data, size, kBufferDir)
                : loader.LoadASCIIFromString(&model_, &err, &warn, bytes.data(), size, kBufferDir);
  } catch (const std::exception& e) {
    err = e.what();
    ok = false;
  }
  if (!state.error.empty()) throw Error(path, state.error);
  dataBytes_ = bytes.size();
  for (const tinygltf::Buffer& b : model_.buffers) dataBytes_ += b.data.size();
  if (!ok) {
    // tinygltf names a buffer by the path it asked for: drop the stand-in folder.
    const std::string dir = std::string(kBufferDir) + "/";
    for (std::size_t at = err.find(dir); at != std::string::npos; at = err.find(dir, at)) {
      err.erase(at, dir.size());
    }
    while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
    for (char& c : err) {
      if (c == '\n') c = ';';
    }
    if (err.size() > 300) err = err.substr(0, 300) + "...";
    throw Error(
        path, "cannot read glTF: " + (err.empty() ? std::string("unknown error") : printable(err)));
  }
}

std::vector<double> Document::read(int index, const std::string& user, int type, Components allowed,
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
      ok = ct == TINYGLTF_COMPONENT_TYPE_FLOAT ||
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
    // No larger than the data the file could have held, so that a few bytes of JSON do not
    // ask for gigabytes.
    if (n > dataBytes_ / (comps * csize)) {
      throw error(where, "has no bufferView and " + std::to_string(n) +
                             " elements, more than the file and its buffers hold (" +
                             std::to_string(dataBytes_) + " bytes)");
    }
    return std::vector<double>(n * comps, 0.0);
  }
  const auto& views = model_.bufferViews;
  if (static_cast<std::size_t>(a.bufferView) >= views.size()) {
    throw error(where,
                "refers to bufferView " + std::to_string(a.bufferView) + ", which does not exist");
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

/// The rest (T, R, S) of a node, from its TRS properties or its matrix.
core::SkinnedAnimation::Node restTrs(const Document& g, std::size_t index) {
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
std::vector<int> parents(const Document& g) {
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

Eigen::Matrix4d restGlobal(const Document& g, const std::vector<int>& parent, int node) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  for (int k = node; k >= 0; k = parent[static_cast<std::size_t>(k)]) {
    m = trsMatrix(restTrs(g, static_cast<std::size_t>(k))) * m;
  }
  return m;
}

}  // namespace samara::io::gltf
