#pragma once
// Shape-independent connectivity: edges, boundary, connected parts (closed or sheet), and
// the discrete mean-curvature sum that gives δ (PHYSICS.md §2).
#include <cstdint>
#include <vector>

#include "geometry/tri_mesh.h"

namespace samara::geometry {

enum class PartKind { kClosed, kSheet };

/// An undirected edge. `v0→v1` is its direction in face `f0`; in `f1` (if any) it runs
/// v1→v0 when the part is consistently oriented. Edges are sorted by (min, max) vertex
/// index; an interior edge has f0 < f1. After orientClosedPartsOutward flips a part, its
/// edges run v1→v0 in f0; bendingAngle reads the direction from F, so it stays right.
struct Edge {
  int v0 = -1;
  int v1 = -1;
  int f0 = -1;
  int f1 = -1;  ///< -1 for a boundary edge
};

/// A connected component of faces (connected through shared edges). Parts are ordered by
/// their smallest face index.
struct Part {
  PartKind kind = PartKind::kClosed;  ///< closed: no boundary edges; sheet: open surface
  std::vector<int> faces;             ///< face indices into F
};

struct Topology {
  std::vector<Edge> edges;
  std::vector<Part> parts;
  std::vector<int> facePart;          ///< part index per face
  std::vector<std::uint8_t> isSheet;  ///< 1 if the face belongs to a sheet part
  int numBoundaryEdges = 0;
};

/// Builds edges and parts. Throws MeshError (naming the face) for: an empty mesh, an index
/// out of range, a face with a repeated vertex, a zero-area face (relative to the mesh
/// size), an edge shared by more than two faces (non-manifold), or two faces of one part
/// with inconsistent orientation.
Topology buildTopology(const TriMesh& mesh);

/// Checks `mesh` as buildTopology does (the same errors, in the same order) without
/// keeping the edge list or the parts' face lists: about 25 bytes per face at the peak
/// besides the mesh (buildTopology: about 50). For loaders.
void checkMesh(const TriMesh& mesh);

/// checkMesh, then orients the closed parts outward exactly as orientClosedPartsOutward
/// with buildTopology's parts does. Returns the number of parts flipped.
int checkAndOrient(TriMesh* mesh);

/// Orients every closed part outward (flips the faces of a part whose signed volume is
/// negative). Returns the number of parts flipped. Topology stays valid.
int orientClosedPartsOutward(TriMesh* mesh, const Topology& topo);

/// Signed exterior dihedral angle α of an interior edge, in (-π, π]: positive where the
/// surface is convex (outward normals diverge). Computed as atan2(t̂·(n0×n1), n0·n1) with t̂
/// the edge direction in f0 read from F. For a boundary edge (f1 = -1) returns π, the fold
/// of the doubled sheet. Radians.
double bendingAngle(const TriMesh& mesh, const FaceGeometry& geo, const Edge& e);

/// Area of the doubled surface: closed faces once, sheet faces twice (both sides), m².
double doubledArea(const Topology& topo, const FaceGeometry& geo);

/// Σ α ℓ over the edges of the doubled surface (PHYSICS.md §2): interior edges of closed
/// parts contribute α ℓ, boundary edges of sheets π ℓ, interior edges of sheets 0. Metres.
double bendingLengthSum(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo);

/// δ = doubledArea / bendingLengthSum (metres). Returns 0 if the bending sum is ≤ 0.
double computeDelta(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo);

/// computeDelta and, if partDeltas is not null, computePartDeltas into *partDeltas, in one
/// pass over the edges (one dihedral angle per edge; the same bits as the two).
double computeDeltas(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo,
                     std::vector<double>* partDeltas);

/// Per-edge α ℓ terms kept from one shape to the next (an animated body's): computeDeltas
/// with a cache recomputes only the edges next to a dirty face and gives the same bits.
struct BendCache {
  std::vector<double> term;  ///< α ℓ per edge of topo.edges (0 where it cancels)
  /// ±1 per edge of topo.edges: its direction in its first face (the topology's, fixed).
  std::vector<signed char> sign;
  // Per part, in ascending order: its edges that do not cancel and its faces (CSR rows),
  // and the part sums the last call gave, so that a shape update revisits only the parts
  // that moved (a part's sums over its own list are the whole pass's, to the bit).
  std::vector<int> edgeStart, edgeList, faceStart, faceList;
  std::vector<double> partBend;  ///< Σ α ℓ per part
  std::vector<double> partArea;  ///< doubled area per part, m²
};
/// computeDeltas reusing cache->term where neither face of the edge is dirty (dirty per
/// face, nonzero = a vertex moved); fills the cache. With partDeltas, a part without a dirty
/// face keeps its cached sums and the others are summed over their own lists (unless every
/// part is dirty: then the whole pass). An empty or mis-sized cache, or a null dirty,
/// recomputes every edge.
double computeDeltas(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo,
                     std::vector<double>* partDeltas, BendCache* cache,
                     const std::vector<std::uint8_t>* dirty);

/// δ of each connected part on its own (GwtF §8): its doubled area over its own Σ α ℓ;
/// 0 for a part whose Σ α ℓ is not positive. Indexed like topo.parts.
std::vector<double> computePartDeltas(const TriMesh& mesh, const Topology& topo,
                                      const FaceGeometry& geo);

}  // namespace samara::geometry
