#pragma once
// Instancing of rigid bodies (BodyBatches): whether a body's mesh is a copy of another's, up
// to a uniform scale and an offset in the body frame, so that both are drawn from one mesh
// buffer; and a coarse copy of a mesh for a crowd's shadows. GL-free (Eigen only,
// unit-tested).
#include <cstdint>
#include <optional>
#include <vector>

#include "geometry/tri_mesh.h"

namespace samara::app {

/// A mesh `V` as `scale` · M + `offset` (row by row) for a reference mesh M.
struct ScaledCopy {
  double scale = 1.0;          ///< > 0
  Vec3 offset = Vec3::Zero();  ///< body frame, m
};

/// Whether (V, F) is (M, MF) scaled and moved: the same triangles (identical indices) and
/// every vertex within 1e-6 of the mesh's size of scale · M + offset. Scale and offset from
/// the centroids and the spreads about them. O(vertices + faces).
std::optional<ScaledCopy> scaledCopyOf(const geometry::VertexMatrix& M,
                                       const geometry::FaceMatrix& MF,
                                       const geometry::VertexMatrix& V,
                                       const geometry::FaceMatrix& F);

/// A coarse copy of (V, F) by vertex clustering, for shadow casters too small on the shadow
/// map to need every triangle: the mesh's bounding box is cut into cubes of side
/// (longest extent) / `cells`, every vertex moves to the first vertex (lowest index) of its
/// cube, and the triangles that keep three distinct corners are returned (indices into V,
/// three per triangle, in F's order). Its silhouette is within one cube's diagonal of the
/// mesh's. Deterministic; O(vertices + faces). cells ≥ 1.
std::vector<std::uint32_t> coarseIndices(const geometry::VertexMatrix& V,
                                         const geometry::FaceMatrix& F, int cells);

}  // namespace samara::app
