#pragma once
// glTF 2.0 (.gltf with embedded or external buffers, and .glb) → core::SkinnedAnimation
// and the body's mesh, via tinygltf. Only geometry is read: images are never decoded.
//
// What is read: the triangle primitives of one mesh (POSITION, JOINTS_0, WEIGHTS_0,
// indices; all primitives are merged into one mesh), one skin (joints,
// inverseBindMatrices), the node hierarchy (TRS or matrix), and one animation's
// translation / rotation / scale channels (LINEAR, STEP, CUBICSPLINE). Vertices that a
// primitive split only for normals or UVs (same position and same joint weights) are
// welded so a closed surface stays closed. Every error names the file and the glTF element,
// e.g. `skins/x.gltf: animations[0].channels[2] (sampler 2): key 5 time is not increasing`.
#include <cstdint>
#include <memory>
#include <string>

#include "core/animation.h"
#include "geometry/tri_mesh.h"

namespace samara::io {

namespace gltf {
class Document;
}

/// Which parts of a glTF file make the animation.
struct GltfSkinOptions {
  /// Animation by index (≥ 0), or by name when `animationName` is set; −1 = the first
  /// animation if there is one, else none (the bind pose, still). Default −1.
  int animation = -1;
  std::string animationName;  ///< overrides `animation` when non-empty; default ""
  /// Skin index; −1 = the skin of the first node that uses the mesh with a skin (or the
  /// only skin). Default −1.
  int skin = -1;
  /// Mesh index; −1 = the mesh of the first node that has both a mesh and a skin.
  /// Default −1.
  int mesh = -1;
  std::string meshName;    ///< overrides `mesh` when non-empty; default ""
  bool loop = true;        ///< loop the animation (else hold the last pose); default true
  double timeScale = 1.0;  ///< playback speed; default 1
  bool weld = true;        ///< weld split vertices (same position and weights); default true
};

/// True if `path` ends in .gltf or .glb (any case).
bool isGltfPath(const std::string& path);

/// Reads a skinned mesh and its animation. `restMesh` (if not null) receives the bind-pose
/// mesh (validated, closed parts oriented outward, same vertex order as the animation).
/// Throws io::Error naming `path` and the glTF element.
std::shared_ptr<core::SkinnedAnimation> loadGltfSkin(const std::string& path,
                                                     const GltfSkinOptions& options,
                                                     geometry::TriMesh* restMesh,
                                                     std::uintmax_t maxBytes = 1ull << 30);

/// The body's mesh from a glTF file: for a skinned mesh, its bind pose (the same mesh
/// loadGltfSkin gives with default options); for a mesh without a skin, its positions
/// transformed by the (rest) global transform of the first node that uses it.
/// `meshIndex` −1 picks as GltfSkinOptions::mesh, falling back to mesh 0.
geometry::TriMesh loadGltfMesh(const std::string& path, int meshIndex = -1,
                               std::uintmax_t maxBytes = 1ull << 30);

/// loadGltfSkin / loadGltfMesh of a glTF already loaded (io/gltf/document.h).
std::shared_ptr<core::SkinnedAnimation> loadGltfSkin(const gltf::Document& g,
                                                     const GltfSkinOptions& options,
                                                     geometry::TriMesh* restMesh);
geometry::TriMesh loadGltfMesh(const gltf::Document& g, int meshIndex = -1);

}  // namespace samara::io
