#pragma once
// Meshes of a glTF document: which mesh, node and skin to use, and the merged triangle
// primitives with their joint influences, welded and validated. Internal to io/.
#include <string>

#include "geometry/tri_mesh.h"
#include "io/gltf/document.h"

namespace samara::io::gltf {

/// Which mesh, which node instantiates it, which skin.
struct Selection {
  int mesh = -1;
  int node = -1;  ///< −1 if no node uses the mesh
  int skin = -1;  ///< −1 if none
};

/// The mesh by name (when `meshName` is not empty) or index (≥ 0), else the mesh of the first
/// node with a mesh and a skin (with `requireSkin` false, else of the first node with a mesh,
/// else mesh 0); the node that uses it, and the skin (`skinIndex` ≥ 0, the node's, or the
/// only one). Throws when something named does not exist, or a required skin is missing.
Selection select(const Document& g, int meshIndex, const std::string& meshName, int skinIndex,
                 bool requireSkin);

/// A mesh read from a glTF file: positions and (when skinned) 4 joints and weights per
/// vertex.
struct MeshData {
  geometry::TriMesh mesh;
  Eigen::Matrix<int, Eigen::Dynamic, 4, Eigen::RowMajor> joints;
  Eigen::Matrix<double, Eigen::Dynamic, 4, Eigen::RowMajor> weights;
};

/// Reads and merges the triangle primitives of mesh `meshIndex`. With `numJoints` ≥ 0 the
/// vertices need JOINTS_0 / WEIGHTS_0 referring to fewer than `numJoints` joints.
MeshData readMesh(const Document& g, int meshIndex, int numJoints);

/// Merges vertices with the same position and the same joint influences (glTF exporters
/// split vertices along UV and normal seams, which would open a closed surface).
void weld(MeshData* d);

/// Validates the mesh and orients its closed parts outward.
void finishMesh(const Document& g, int meshIndex, geometry::TriMesh* mesh);

/// Reads the selected skinned mesh: vertex data, welded (if `doWeld`) and validated.
MeshData readSkinnedMesh(const Document& g, const Selection& s, bool doWeld);

}  // namespace samara::io::gltf
