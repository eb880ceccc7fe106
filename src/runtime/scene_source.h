#pragma once
// Where a world definition comes from: a scene file, or a default scene made around a
// mesh file dropped on the viewer.
#include <string>

#include "core/world.h"
#include "io/scene.h"

namespace samara::runtime {

enum class FileKind {
  kScene,    ///< .json
  kObj,      ///< .obj
  kGltf,     ///< .gltf or .glb
  kUnknown,  ///< anything else
};

/// The kind of file by its extension (any case).
FileKind fileKind(const std::string& path);

/// True if this build can read glTF meshes (the io glTF loader is linked in).
bool gltfSupported();

/// A default scene around one body-frame mesh (metres): still air (1.225 kg/m³), a floor at
/// 0, the mesh's bounding-box centre at max(2 m, 3 sizes) above it, tilted 20° about z,
/// paper-like mass (700 kg/m³, and 0.2 mm thickness for open sheets), δ auto, h = 2 ms.
core::WorldDef defaultSceneForMesh(geometry::TriMesh mesh, const std::string& name);

/// Reads `path`: a .json scene through io::loadScene (with `sets`), or an .obj / .gltf / .glb
/// mesh as defaultSceneForMesh (`sets` are ignored). Throws io::Error naming the file, also
/// for an unknown extension or a glTF file when gltfSupported() is false.
core::WorldDef loadSceneOrMesh(const std::string& path, const io::SetList& sets = {});

}  // namespace samara::runtime
