// Edges, parts and the bending sum that gives δ. The construction sorts half-edge keys, so
// its output depends only on V and F (no hash-map iteration order), in O(m log m).
#include "geometry/topology.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>

namespace samara::geometry {

namespace {

/// Area below which a face counts as degenerate, relative to the squared bbox diagonal.
constexpr double kDegenerateAreaRel = 1e-14;

/// A half-edge in the bucket of its smaller vertex: the larger vertex, then the face.
std::uint64_t halfEdgeKey(int larger, int face) {
  return (static_cast<std::uint64_t>(larger) << 32) | static_cast<std::uint32_t>(face);
}
int faceOf(std::uint64_t key) { return static_cast<int>(key & 0xffffffffu); }

/// The direction of edge {a, b} in face f (which has it once: no repeated vertices).
void directionInFace(const TriMesh& mesh, int f, int a, int b, int* from, int* to) {
  for (int k = 0; k < 3; ++k) {
    if (mesh.F(f, k) == a) {
      const bool forward = mesh.F(f, (k + 1) % 3) == b;
      *from = forward ? a : b;
      *to = forward ? b : a;
      return;
    }
  }
}

/// Union-find over faces that also tracks the relative orientation ("parity") of each face
/// with respect to its root: parity 1 means the face would have to be flipped to agree.
class ParityUnionFind {
 public:
  explicit ParityUnionFind(int n) : parent_(n), parity_(n, 0), size_(n, 1) {
    for (int i = 0; i < n; ++i) parent_[i] = i;
  }

  /// Root of x, and x's parity relative to it; compresses the path (iteratively).
  int find(int x, int* parity) {
    int root = x;
    int p = 0;
    while (parent_[root] != root) {
      p ^= parity_[root];
      root = parent_[root];
    }
    int cur = x;
    int curParity = p;
    while (cur != root && parent_[cur] != root) {
      const int next = parent_[cur];
      const int nextParity = curParity ^ parity_[cur];
      parent_[cur] = root;
      parity_[cur] = static_cast<std::uint8_t>(curParity);
      cur = next;
      curParity = nextParity;
    }
    *parity = p;
    return root;
  }

  /// Joins a and b with relative parity `rel`; returns false on a contradiction (the faces
  /// are already joined with the other parity: a non-orientable part).
  bool unite(int a, int b, int rel) {
    int pa = 0;
    int pb = 0;
    int ra = find(a, &pa);
    int rb = find(b, &pb);
    if (ra == rb) return (pa ^ pb) == rel;
    if (size_[ra] < size_[rb]) {
      std::swap(ra, rb);
      std::swap(pa, pb);
    }
    parent_[rb] = ra;
    parity_[rb] = static_cast<std::uint8_t>(pa ^ pb ^ rel);
    size_[ra] += size_[rb];
    return true;
  }

 private:
  std::vector<int> parent_;
  std::vector<std::uint8_t> parity_;
  std::vector<int> size_;
};

std::string faceStr(int f) { return "face " + std::to_string(f); }

/// Validates vertices and faces one by one (finite coordinates, indices, repeated vertices,
/// area relative to the mesh size).
void validateFaces(const TriMesh& mesh) {
  const int n = mesh.numVertices();
  const int m = mesh.numFaces();
  if (m == 0 || n == 0) throw MeshError("mesh is empty (no faces or no vertices)");
  for (int i = 0; i < n; ++i) {
    if (!mesh.V.row(i).allFinite()) {
      throw MeshError("vertex " + std::to_string(i) + " has a non-finite coordinate", -1, i);
    }
  }
  Vec3 lo;
  Vec3 hi;
  boundingBox(mesh, &lo, &hi);
  const double minArea = kDegenerateAreaRel * (hi - lo).squaredNorm();
  for (int f = 0; f < m; ++f) {
    const int a = mesh.F(f, 0);
    const int b = mesh.F(f, 1);
    const int c = mesh.F(f, 2);
    for (int k = 0; k < 3; ++k) {
      const int v = mesh.F(f, k);
      if (v < 0 || v >= n) {
        throw MeshError(faceStr(f) + " has vertex index " + std::to_string(v) +
                            " out of range [0, " + std::to_string(n) + ")",
                        f, v);
      }
    }
    if (a == b || b == c || c == a) {
      throw MeshError(faceStr(f) + " repeats a vertex (" + std::to_string(a) + ", " +
                          std::to_string(b) + ", " + std::to_string(c) + ")",
                      f);
    }
    const Vec3 pa = mesh.vertex(a);
    const double area = 0.5 * (mesh.vertex(b) - pa).cross(mesh.vertex(c) - pa).norm();
    if (!std::isfinite(area) || !std::isfinite(minArea)) {
      throw MeshError(faceStr(f) + " has a non-finite area: the coordinates are too large", f);
    }
    if (!(area > minArea)) {
      throw MeshError(faceStr(f) + " is degenerate (area " + std::to_string(area) + " m^2)", f);
    }
  }
}

/// Direction of edge e in face f0 according to F: +1 if F runs v0→v1, −1 if v1→v0.
double edgeSignInFace(const TriMesh& mesh, const Edge& e) {
  for (int k = 0; k < 3; ++k) {
    if (mesh.F(e.f0, k) == e.v0) return mesh.F(e.f0, (k + 1) % 3) == e.v1 ? 1.0 : -1.0;
  }
  return 1.0;
}

/// Exterior dihedral angle between faces with unit normals n0 and n1 that share an edge
/// t (of length len) traversed as in the first face: atan2(t̂·(n0×n1), n0·n1), positive on
/// convex edges. Both arguments are scaled by len, which atan2 ignores; 0 for a zero edge.
double signedAngle(const Vec3& n0, const Vec3& n1, const Vec3& t, double len) {
  return std::atan2(n0.cross(n1).dot(t), len * n0.dot(n1));
}

/// The edges of `mesh` (Topology::edges) and the boundary count (none kept when `topo` is
/// null); joins the faces of each interior edge in *uf and marks the faces of boundary
/// edges. Throws MeshError for a non-manifold edge or a non-orientable loop.
void collectEdges(const TriMesh& mesh, Topology* topo, ParityUnionFind* uf,
                  std::vector<std::uint8_t>* onBoundary) {
  const int m = mesh.numFaces();
  // Half-edges grouped by undirected edge, ordered by (smaller vertex, larger vertex, face):
  // deterministic. A counting sort on the smaller vertex, then a sort of each (short) bucket
  // by (larger vertex, face); a half-edge is 3 f + k (edge k of face f): 12 bytes per face.
  const int n = mesh.numVertices();
  if (3 * static_cast<std::uint64_t>(m) >= std::numeric_limits<std::uint32_t>::max()) {
    throw MeshError("the mesh has more than " +
                    std::to_string(std::numeric_limits<std::uint32_t>::max() / 3) + " faces");
  }
  const auto smaller = [&](std::uint32_t h) {
    return std::min(mesh.F(h / 3, h % 3), mesh.F(h / 3, (h % 3 + 1) % 3));
  };
  const auto key = [&](std::uint32_t h) {  // (larger vertex, face)
    return halfEdgeKey(std::max(mesh.F(h / 3, h % 3), mesh.F(h / 3, (h % 3 + 1) % 3)),
                       static_cast<int>(h / 3));
  };
  // bucketEnd[v]: one past the last half-edge of bucket v (bucket v starts at bucketEnd[v-1]).
  std::vector<std::uint32_t> bucketEnd(static_cast<std::size_t>(n) + 1, 0);
  const auto h3 = static_cast<std::uint32_t>(3 * static_cast<std::uint64_t>(m));
  for (std::uint32_t h = 0; h < h3; ++h) ++bucketEnd[smaller(h) + 1];
  for (int v = 0; v < n; ++v) bucketEnd[v + 1] += bucketEnd[v];
  std::vector<std::uint32_t> half(h3);
  for (std::uint32_t h = 0; h < h3; ++h) half[bucketEnd[smaller(h)]++] = h;
  bucketEnd.pop_back();  // now bucketEnd[v] is the end of bucket v
  for (int v = 0; v < n; ++v) {
    std::sort(half.begin() + (v > 0 ? bucketEnd[v - 1] : 0), half.begin() + bucketEnd[v],
              [&](std::uint32_t x, std::uint32_t y) { return key(x) < key(y); });
  }

  if (topo != nullptr) {
    std::size_t numEdges = 0;  // distinct (smaller, larger) pairs: reserved exactly
    for (std::size_t i = 0; i < half.size(); ++i) {
      numEdges += i == 0 || smaller(half[i]) != smaller(half[i - 1]) ||
                  (key(half[i]) >> 32) != (key(half[i - 1]) >> 32);
    }
    topo->edges.reserve(numEdges);
  }
  for (int v = 0; v < n; ++v) {
    const std::size_t end = bucketEnd[v];
    for (std::size_t i = v > 0 ? bucketEnd[v - 1] : 0; i < end;) {
      std::size_t j = i + 1;
      while (j < end && (key(half[j]) >> 32) == (key(half[i]) >> 32)) ++j;
      const int other = static_cast<int>(key(half[i]) >> 32);
      const int f0 = faceOf(key(half[i]));
      int from = 0;
      int to = 0;
      directionInFace(mesh, f0, v, other, &from, &to);
      if (j - i > 2) {
        std::string faces;
        for (std::size_t k = i; k < j; ++k)
          faces += (k > i ? ", " : "") + std::to_string(faceOf(key(half[k])));
        throw MeshError("non-manifold edge (" + std::to_string(from) + ", " + std::to_string(to) +
                            ") is shared by faces " + faces,
                        faceOf(key(half[i + 2])));
      }
      Edge e;
      e.v0 = from;
      e.v1 = to;
      e.f0 = f0;
      if (j - i == 2) {
        e.f1 = faceOf(key(half[i + 1]));
        int from1 = 0;
        int to1 = 0;
        directionInFace(mesh, e.f1, v, other, &from1, &to1);
        // Consistent neighbours traverse the shared edge in opposite directions.
        const int rel = from1 == from ? 1 : 0;
        if (!uf->unite(f0, e.f1, rel)) {
          throw MeshError(faceStr(e.f1) +
                              " closes a loop of faces that cannot be oriented consistently "
                              "(non-orientable surface, e.g. a Moebius strip)",
                          e.f1);
        }
      } else {
        (*onBoundary)[f0] = 1;
        if (topo != nullptr) ++topo->numBoundaryEdges;
      }
      if (topo != nullptr) topo->edges.push_back(e);
      i = j;
    }
  }
}

/// Collects the edges (into *topo unless null), then numbers the parts in the order of
/// their smallest face (*facePart) and gives each face its orientation parity relative to
/// its part's root. Returns the number of parts.
int labelParts(const TriMesh& mesh, Topology* topo, std::vector<std::uint8_t>* onBoundary,
               std::vector<int>* facePart, std::vector<std::uint8_t>* parity) {
  const int m = mesh.numFaces();
  ParityUnionFind uf(m);  // freed before the caller allocates per-part data
  collectEdges(mesh, topo, &uf, onBoundary);
  facePart->assign(m, -1);
  parity->assign(m, 0);
  std::vector<int> rootPart(m, -1);
  int numParts = 0;
  for (int f = 0; f < m; ++f) {
    int p = 0;
    const int root = uf.find(f, &p);
    (*parity)[f] = static_cast<std::uint8_t>(p);
    if (rootPart[root] < 0) rootPart[root] = numParts++;
    (*facePart)[f] = rootPart[root];
  }
  return numParts;
}

/// The MeshError for face f of a part whose faces disagree in orientation.
MeshError inconsistentFace(int f, int wrong, int count) {
  return MeshError(faceStr(f) + " is oriented inconsistently with its neighbours (" +
                       std::to_string(wrong) + " of the " + std::to_string(count) +
                       " faces of its part disagree with the others)",
                   f);
}

/// checkMesh and checkAndOrient: buildTopology's checks with per-part counters instead of
/// the edge list and the parts' face lists; orients `orient` (the same mesh) when not null.
int checkParts(const TriMesh& mesh, TriMesh* orient) {
  validateFaces(mesh);
  const int m = mesh.numFaces();
  std::vector<std::uint8_t> onBoundary(m, 0);
  std::vector<int> facePart;
  std::vector<std::uint8_t> parity;
  const int numParts = labelParts(mesh, nullptr, &onBoundary, &facePart, &parity);
  std::vector<int> first(numParts, -1);
  std::vector<std::uint8_t> sheet(numParts, 0);
  {
    std::vector<int> count(numParts, 0);
    std::vector<int> ones(numParts, 0);
    for (int f = 0; f < m; ++f) {
      const int p = facePart[f];
      if (first[p] < 0) first[p] = f;
      ++count[p];
      ones[p] += parity[f];
      sheet[p] |= onBoundary[f];
    }
    // As buildTopology: the first part (in order) whose faces disagree, its first face of
    // the minority (on a tie: the side without the part's first face).
    for (int p = 0; p < numParts; ++p) {
      if (ones[p] == 0 || ones[p] == count[p]) continue;
      int minorityParity = 2 * ones[p] < count[p] ? 1 : 0;
      if (2 * ones[p] == count[p]) minorityParity = parity[first[p]] ^ 1;
      const int wrong = minorityParity == 1 ? ones[p] : count[p] - ones[p];
      for (int f = first[p]; f < m; ++f) {
        if (facePart[f] == p && parity[f] == minorityParity) {
          throw inconsistentFace(f, wrong, count[p]);
        }
      }
    }
  }
  if (orient == nullptr) return 0;
  // As orientClosedPartsOutward: six times the signed volume of each closed part about a
  // vertex of its first face, summed over its faces in ascending order.
  std::vector<double> sixVolume(numParts, 0.0);
  for (int f = 0; f < m; ++f) {
    const int p = facePart[f];
    if (sheet[p]) continue;
    const Vec3 r = mesh.vertex(mesh.F(first[p], 0));
    const Vec3 a = mesh.vertex(mesh.F(f, 0)) - r;
    const Vec3 b = mesh.vertex(mesh.F(f, 1)) - r;
    const Vec3 c = mesh.vertex(mesh.F(f, 2)) - r;
    sixVolume[p] += a.dot(b.cross(c));
  }
  int flipped = 0;
  for (int p = 0; p < numParts; ++p) flipped += !sheet[p] && sixVolume[p] < 0.0;
  for (int f = 0; f < m; ++f) {
    const int p = facePart[f];
    if (!sheet[p] && sixVolume[p] < 0.0) std::swap(orient->F(f, 1), orient->F(f, 2));
  }
  return flipped;
}

}  // namespace

Topology buildTopology(const TriMesh& mesh) {
  validateFaces(mesh);
  const int m = mesh.numFaces();

  Topology topo;
  std::vector<std::uint8_t> onBoundary(m, 0);  // 1 for a face with a boundary edge
  // Parts in the order of their smallest face; faces ascending inside each part (each list
  // allocated at its size).
  std::vector<std::uint8_t> parity;
  const int numParts = labelParts(mesh, &topo, &onBoundary, &topo.facePart, &parity);
  {
    std::vector<int> partSize(numParts, 0);
    for (int f = 0; f < m; ++f) ++partSize[topo.facePart[f]];
    topo.parts.resize(numParts);
    for (int k = 0; k < numParts; ++k) topo.parts[k].faces.reserve(partSize[k]);
  }
  for (int f = 0; f < m; ++f) topo.parts[topo.facePart[f]].faces.push_back(f);

  // Orientation: every face of a part must have the parity of the part's majority. The
  // minority (on a tie: the side without the part's first face) is reported.
  for (const Part& part : topo.parts) {
    int ones = 0;
    for (int f : part.faces) ones += parity[f];
    const int count = static_cast<int>(part.faces.size());
    if (ones == 0 || ones == count) continue;
    const int first = part.faces.front();
    int minorityParity = 2 * ones < count ? 1 : 0;
    if (2 * ones == count) minorityParity = parity[first] ^ 1;
    const int wrong = minorityParity == 1 ? ones : count - ones;
    for (int f : part.faces) {
      if (parity[f] == minorityParity) {
        throw inconsistentFace(f, wrong, count);
      }
    }
  }

  for (Part& part : topo.parts) part.kind = PartKind::kClosed;
  for (int f = 0; f < m; ++f) {
    if (onBoundary[f]) topo.parts[topo.facePart[f]].kind = PartKind::kSheet;
  }
  topo.isSheet.resize(m);
  for (int f = 0; f < m; ++f) {
    topo.isSheet[f] = topo.parts[topo.facePart[f]].kind == PartKind::kSheet ? 1 : 0;
  }
  return topo;
}

void checkMesh(const TriMesh& mesh) { (void)checkParts(mesh, nullptr); }

int checkAndOrient(TriMesh* mesh) {
  assert(mesh != nullptr);
  return checkParts(*mesh, mesh);
}

int orientClosedPartsOutward(TriMesh* mesh, const Topology& topo) {
  assert(mesh != nullptr);
  int flipped = 0;
  for (const Part& part : topo.parts) {
    if (part.kind != PartKind::kClosed || part.faces.empty()) continue;
    // Signed volume about a vertex of the part (any reference point gives the same value
    // on a closed surface; a near one limits cancellation).
    const Vec3 r = mesh->vertex(mesh->F(part.faces.front(), 0));
    double sixVolume = 0.0;
    for (int f : part.faces) {
      const Vec3 a = mesh->vertex(mesh->F(f, 0)) - r;
      const Vec3 b = mesh->vertex(mesh->F(f, 1)) - r;
      const Vec3 c = mesh->vertex(mesh->F(f, 2)) - r;
      sixVolume += a.dot(b.cross(c));
    }
    if (sixVolume < 0.0) {
      for (int f : part.faces) std::swap(mesh->F(f, 1), mesh->F(f, 2));
      ++flipped;
    }
  }
  return flipped;
}

double bendingAngle(const TriMesh& mesh, const FaceGeometry& geo, const Edge& e) {
  if (e.f1 < 0) return std::numbers::pi;
  const Vec3 t = mesh.vertex(e.v1) - mesh.vertex(e.v0);
  return signedAngle(geo.normal[e.f0], geo.normal[e.f1], edgeSignInFace(mesh, e) * t, t.norm());
}

double doubledArea(const Topology& topo, const FaceGeometry& geo) {
  assert(geo.area.size() == topo.isSheet.size());
  double sum = 0.0;
  const std::size_t m = geo.area.size();
  for (std::size_t f = 0; f < m; ++f) sum += topo.isSheet[f] ? 2.0 * geo.area[f] : geo.area[f];
  return sum;
}

namespace {

/// α ℓ of edge e: its bending angle (π for a boundary edge) times its length; `sign` its
/// direction in its first face (edgeSignInFace).
double edgeTerm(const TriMesh& mesh, const FaceGeometry& geo, const Edge& e, double sign) {
  const Vec3 t = mesh.vertex(e.v1) - mesh.vertex(e.v0);
  const double len = t.norm();
  const double alpha =
      e.f1 < 0 ? std::numbers::pi : signedAngle(geo.normal[e.f0], geo.normal[e.f1], sign * t, len);
  return alpha * len;
}

double edgeTerm(const TriMesh& mesh, const FaceGeometry& geo, const Edge& e) {
  return edgeTerm(mesh, geo, e, e.f1 < 0 ? 1.0 : edgeSignInFace(mesh, e));
}

/// The cache's edge directions (edgeSignInFace), filled once for the topology.
void fillSigns(const TriMesh& mesh, const Topology& topo, BendCache* cache) {
  if (cache->sign.size() == topo.edges.size()) return;
  cache->sign.resize(topo.edges.size());
  for (std::size_t i = 0; i < topo.edges.size(); ++i) {
    cache->sign[i] = static_cast<signed char>(edgeSignInFace(mesh, topo.edges[i]));
  }
}

/// Σ α ℓ over the edges (bendingLengthSum) and, if partBend is not null, per part (the part
/// of the edge's first face) added to *partBend (sized to the parts). With a cache, an
/// edge whose faces are both clean (dirty[f] = 0) adds its cached term; the others are
/// computed and stored.
double bendSums(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo,
                std::vector<double>* partBend, BendCache* cache,
                const std::vector<std::uint8_t>* dirty) {
  const bool reuse =
      cache != nullptr && dirty != nullptr && cache->term.size() == topo.edges.size();
  if (cache != nullptr && !reuse) cache->term.assign(topo.edges.size(), 0.0);
  if (cache != nullptr) fillSigns(mesh, topo, cache);
  double sum = 0.0;
  for (std::size_t i = 0; i < topo.edges.size(); ++i) {
    const Edge& e = topo.edges[i];
    if (e.f1 >= 0 && topo.isSheet[e.f0]) continue;  // cancels on the doubled sheet
    double term;
    if (reuse && (*dirty)[e.f0] == 0 && (e.f1 < 0 || (*dirty)[e.f1] == 0)) {
      term = cache->term[i];
    } else if (cache != nullptr) {
      term = edgeTerm(mesh, geo, e, cache->sign[i]);
      cache->term[i] = term;
    } else {
      term = edgeTerm(mesh, geo, e);
    }
    sum += term;
    if (partBend != nullptr) (*partBend)[static_cast<std::size_t>(topo.facePart[e.f0])] += term;
  }
  return sum;
}

/// The per-part lists of `cache` (BendCache) for topo.
void fillPartLists(const Topology& topo, BendCache* cache) {
  const std::size_t np = topo.parts.size();
  const auto rows = [np](const std::vector<int>& partOf, std::vector<int>* start,
                         std::vector<int>* list) {
    start->assign(np + 1, 0);
    for (int p : partOf) ++(*start)[static_cast<std::size_t>(p) + 1];
    for (std::size_t p = 0; p < np; ++p) (*start)[p + 1] += (*start)[p];
    list->assign(partOf.size(), 0);
    std::vector<int> next(start->begin(), start->end() - 1);
    for (std::size_t i = 0; i < partOf.size(); ++i) {
      (*list)[static_cast<std::size_t>(next[static_cast<std::size_t>(partOf[i])]++)] =
          static_cast<int>(i);
    }
  };
  // The edges that do not cancel, each under the part of its first face.
  std::vector<int> edgePart;
  std::vector<int> edgeIndex;
  for (std::size_t i = 0; i < topo.edges.size(); ++i) {
    const Edge& e = topo.edges[i];
    if (e.f1 >= 0 && topo.isSheet[e.f0]) continue;
    edgePart.push_back(topo.facePart[e.f0]);
    edgeIndex.push_back(static_cast<int>(i));
  }
  rows(edgePart, &cache->edgeStart, &cache->edgeList);
  for (int& i : cache->edgeList) i = edgeIndex[static_cast<std::size_t>(i)];
  rows(topo.facePart, &cache->faceStart, &cache->faceList);
}

}  // namespace

double bendingLengthSum(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo) {
  return bendSums(mesh, topo, geo, nullptr, nullptr, nullptr);
}

double computeDeltas(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo,
                     std::vector<double>* partDeltas) {
  return computeDeltas(mesh, topo, geo, partDeltas, nullptr, nullptr);
}

double computeDeltas(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo,
                     std::vector<double>* partDeltas, BendCache* cache,
                     const std::vector<std::uint8_t>* dirty) {
  const std::size_t np = topo.parts.size();
  const auto deltas = [&](const std::vector<double>& area, const std::vector<double>& bend) {
    partDeltas->assign(np, 0.0);
    for (std::size_t p = 0; p < np; ++p) (*partDeltas)[p] = bend[p] > 0.0 ? area[p] / bend[p] : 0.0;
  };
  const bool reuse = cache != nullptr && dirty != nullptr && partDeltas != nullptr &&
                     cache->term.size() == topo.edges.size() && cache->partBend.size() == np &&
                     cache->faceStart.size() == np + 1;
  std::vector<std::uint8_t> partDirty;
  if (reuse) {
    partDirty.assign(np, 0);
    for (std::size_t f = 0; f < dirty->size(); ++f) {
      if ((*dirty)[f] != 0) partDirty[static_cast<std::size_t>(topo.facePart[f])] = 1;
    }
  }
  // With every part moving (an eel) the whole pass below is cheaper, and the same bits.
  if (reuse && std::find(partDirty.begin(), partDirty.end(), 0) != partDirty.end()) {
    fillSigns(mesh, topo, cache);
    // The parts with a dirty face: their edges' terms, bends and areas over their own
    // lists (ascending: the same additions as the whole pass); the others keep theirs.
    for (std::size_t p = 0; p < np; ++p) {
      if (partDirty[p] == 0) continue;
      double bend = 0.0;
      for (int k = cache->edgeStart[p]; k < cache->edgeStart[p + 1]; ++k) {
        const auto i = static_cast<std::size_t>(cache->edgeList[static_cast<std::size_t>(k)]);
        const Edge& e = topo.edges[i];
        if ((*dirty)[e.f0] != 0 || (e.f1 >= 0 && (*dirty)[e.f1] != 0)) {
          cache->term[i] = edgeTerm(mesh, geo, e, cache->sign[i]);
        }
        bend += cache->term[i];
      }
      cache->partBend[p] = bend;
      double area = 0.0;
      for (int k = cache->faceStart[p]; k < cache->faceStart[p + 1]; ++k) {
        const auto f = static_cast<std::size_t>(cache->faceList[static_cast<std::size_t>(k)]);
        area += topo.isSheet[f] ? 2.0 * geo.area[f] : geo.area[f];
      }
      cache->partArea[p] = area;
    }
    // The whole sum in edge order; a cancelling edge's term is +0, which adds nothing (the
    // running sum starts at +0 and is never −0).
    double sum = 0.0;
    for (double t : cache->term) sum += t;
    deltas(cache->partArea, cache->partBend);
    return sum > 0.0 ? doubledArea(topo, geo) / sum : 0.0;
  }
  std::vector<double> area;
  std::vector<double> bend;
  if (partDeltas != nullptr) {
    area.assign(np, 0.0);
    bend.assign(np, 0.0);
    for (std::size_t f = 0; f < geo.area.size(); ++f) {
      area[static_cast<std::size_t>(topo.facePart[f])] +=
          topo.isSheet[f] ? 2.0 * geo.area[f] : geo.area[f];
    }
  }
  const double sum =
      bendSums(mesh, topo, geo, partDeltas != nullptr ? &bend : nullptr, cache, dirty);
  if (partDeltas != nullptr) deltas(area, bend);
  if (cache != nullptr && partDeltas != nullptr) {  // what the next call reuses
    if (cache->faceStart.size() != np + 1) fillPartLists(topo, cache);
    cache->partBend = bend;
    cache->partArea = area;
  } else if (cache != nullptr) {
    cache->partBend.clear();  // not kept up to date: the next call with parts starts afresh
  }
  return sum > 0.0 ? doubledArea(topo, geo) / sum : 0.0;
}

double computeDelta(const TriMesh& mesh, const Topology& topo, const FaceGeometry& geo) {
  return computeDeltas(mesh, topo, geo, nullptr);
}

std::vector<double> computePartDeltas(const TriMesh& mesh, const Topology& topo,
                                      const FaceGeometry& geo) {
  std::vector<double> delta;
  computeDeltas(mesh, topo, geo, &delta);
  return delta;
}

}  // namespace samara::geometry
