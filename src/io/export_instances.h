#pragma once
// Instancing for the glb export of crowds (issue 17): bodies whose meshes are one shape at
// different sizes share one glTF mesh, each body a node referencing it with its own scale.
#include <string>
#include <vector>

#include "geometry/tri_mesh.h"

namespace samara::io {

/// Where a body's mesh comes from in the glb.
struct MeshInstance {
  std::size_t source = 0;  ///< the body whose mesh it draws (itself when it has its own)
  double scale = 1.0;      ///< its vertices = scale × the source's (uniform, about the origin)
};

/// For bodies named `names[i]` with body-frame vertices V[i] and triangles F[i] (null V: a
/// body that keeps a mesh of its own, e.g. a shape-changing one): a body draws the mesh of
/// the first earlier body of its species (speciesName: the copies of one spawn entry) with
/// the same triangles whose vertices, times one positive factor, are its vertices within 1e-6
/// of its size (the largest |coordinate|): far below a float's resolution of the glb's
/// positions at that size. Bodies of other names keep their own mesh and colour (the cards of
/// compare_models). O(bodies × distinct shapes).
std::vector<MeshInstance> findMeshInstances(const std::vector<std::string>& names,
                                            const std::vector<const geometry::VertexMatrix*>& V,
                                            const std::vector<const geometry::FaceMatrix*>& F);

/// The name a shared mesh is given: the source body's name without a trailing "_<digits>"
/// (the numbering of spawned copies, leaf_beech_007 → leaf_beech), else the name itself.
std::string speciesName(const std::string& bodyName);

}  // namespace samara::io
