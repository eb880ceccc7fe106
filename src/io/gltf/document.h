#pragma once
// A glTF file loaded with tinygltf, with typed, bounds-checked access to its accessors and
// the rest transforms of its node hierarchy. Internal to io/ (gltf/mesh.cpp, gltf_skin.cpp):
// every error names the file and the glTF element ("animations[0].channels[2] (sampler 2)").
#include <tiny_gltf.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/animation.h"
#include "io/error.h"

namespace samara::io::gltf {

/// A value read from single-precision data, to 6 significant digits ("0.7", not
/// "0.7000000029802322").
std::string shortNumber(double x);

/// "kind[index]", e.g. "meshes[2]".
std::string element(const char* kind, std::size_t index);

/// "`kind` N does not exist (M `plural`)", e.g. "skin 3 does not exist (1 skins)".
std::string missing(const char* kind, long long index, std::size_t count, const char* plural);

/// The index of the first item whose `name` is `name`, or −1.
template <class T>
int indexNamed(const std::vector<T>& items, const std::string& name) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

/// The items' names, quoted and separated by ", " ("" when there are none).
template <class T>
std::string quotedNames(const std::vector<T>& items) {
  std::string names;
  for (const T& item : items) names += (names.empty() ? "" : ", ") + ("\"" + item.name + "\"");
  return names;
}

/// Which component types an accessor may have.
enum class Components {
  kFloat,              ///< FLOAT
  kFloatOrNormalized,  ///< FLOAT, or normalized (U)BYTE / (U)SHORT
  kIndex,              ///< UNSIGNED_BYTE / UNSIGNED_SHORT / UNSIGNED_INT
  kJoint,              ///< UNSIGNED_BYTE / UNSIGNED_SHORT
};

/// Reads the external buffer `uri` of a glTF (a relative path without "..", URL-decoded,
/// checked by the caller) into `out`, refusing more than `maxBytes` bytes. Throws Error
/// (its path unused) whose message says what is wrong ("not found", "not a regular file").
using BufferReader = std::function<void(const std::string& uri, std::uintmax_t maxBytes,
                                        std::vector<unsigned char>* out)>;

/// External buffers read from the glTF file's folder: regular files only, inside the folder
/// (no symbolic link leading out of it).
BufferReader folderBuffers(const std::string& gltfPath);

/// A loaded glTF file (.gltf or .glb) and typed, bounds-checked access to its accessors.
/// The file and its external buffers together have at most `maxBytes` bytes; a buffer URI
/// must be a data: URI or a relative path inside the glTF's folder (no absolute path, no
/// "..", no URL scheme). Images are never read or decoded.
class Document {
 public:
  /// Reads `path` and its buffers (folderBuffers).
  Document(const std::string& path, std::uintmax_t maxBytes);
  /// From the file's contents `bytes` (`path` names it in messages) and a buffer reader.
  Document(const std::string& path, const std::string& bytes, std::uintmax_t maxBytes,
           const BufferReader& buffers);

  [[nodiscard]] const tinygltf::Model& model() const { return model_; }
  [[nodiscard]] const std::string& path() const { return path_; }

  /// An error about a glTF element ("animations[0].channels[2] (sampler 2)").
  [[nodiscard]] Error error(const std::string& where, const std::string& message) const {
    return Error(path_, where + ": " + message);
  }

  /// Reads accessor `index` (used by `user`, for messages) as doubles, `count` × the
  /// type's components, normalized integers mapped to [0, 1] / [−1, 1].
  std::vector<double> read(int index, const std::string& user, int type, Components allowed,
                           std::size_t* count) const;

 private:
  std::string path_;
  tinygltf::Model model_;
  std::size_t dataBytes_ = 0;  ///< the file and its buffers, bytes
};

/// The rest (T, R, S) of node `index`, from its TRS properties or its matrix.
core::SkinnedAnimation::Node restTrs(const Document& g, std::size_t index);

/// Parent of every node (−1 for roots). Throws for a child index out of range, a node with
/// two parents, or a cycle.
std::vector<int> parents(const Document& g);

/// The rest transform of `node` in the world (the product of its ancestors' TRS).
Eigen::Matrix4d restGlobal(const Document& g, const std::vector<int>& parent, int node);

}  // namespace samara::io::gltf
