#pragma once
// Internal builders of the asset generator: lofted bodies (eel, hull, shell) and thin closed
// slabs (flippers, fins, blades), every mesh closed and outward oriented; and the pieces of
// rigid-part animations (hinged parts, sampled angle tracks).
#include <functional>
#include <string>
#include <vector>

#include "assetgen.h"
#include "core/animation.h"
#include "geometry/tri_mesh.h"

namespace samara::assetgen {

/// A cross-section of a lofted body in the plane x = const: centre (x, y, z) and half-axes.
/// The section is an ellipse with half-axis `ryUp` above the centre, `ryDown` below it (a
/// domed shell) and `rz` sideways.
struct Ring {
  double x = 0.0;       ///< m
  double y = 0.0;       ///< centre height, m
  double z = 0.0;       ///< centre, m
  double ryUp = 0.0;    ///< half-height above the centre, m (> 0)
  double ryDown = 0.0;  ///< half-height below the centre, m (> 0)
  double rz = 0.0;      ///< half-width, m (> 0)
};

/// A closed body through `rings` (ordered by increasing x) capped by a pole at `poleStart`
/// (before the first ring) and `poleEnd` (after the last), `segments` vertices per ring.
/// Faces: 2·segments·rings.
geometry::TriMesh loft(const std::vector<Ring>& rings, const Vec3& poleStart, const Vec3& poleEnd,
                       int segments);

/// Ring parameters ŝ ∈ (0, 1) of `n` − 1 interior rings, clustered towards both ends
/// (ŝ = (1 − cos(πi/n))/2) so that rounded ends are resolved.
std::vector<double> ringParameters(int n);

/// A body lofted along x from `x0` to `x1` around the line through (y, z): the rings of
/// ringParameters(`rings`), ring ŝ at x = x0 + (x1 − x0) ŝ, centred on the line, with the
/// half-axes `shape(ŝ, &ring)` sets (ryUp, ryDown, rz; ring.x is set); poles at both ends.
geometry::TriMesh loftAlongX(double x0, double x1, double y, double z, int rings, int segments,
                             const std::function<void(double, Ring*)>& shape);

/// A thin closed slab around the mid-surface P(u, v), (u, v) ∈ [0, 1]², with thickness
/// t(u, v) > 0 along the mid-surface normal (∂P/∂u × ∂P/∂v, by central differences): a
/// (nu × nv)-cell grid on each side joined by a band of quads along the rim.
/// Faces: 4·nu·nv + 4·(nu + nv).
geometry::TriMesh slab(const std::function<Vec3(double, double)>& mid,
                       const std::function<double(double, double)>& thickness, int nu, int nv);

/// The mirror image across the plane z = 0 (faces reversed so it stays outward oriented).
geometry::TriMesh mirrorZ(const geometry::TriMesh& mesh);

/// The mesh rotated by `angle` (rad) about the line through `pivot` along unit `axis`.
geometry::TriMesh rotated(const geometry::TriMesh& mesh, const Vec3& pivot, const Vec3& axis,
                          double angle);

/// max(lo, round(base · resolution)), for segment counts.
int scaledCount(int base, double resolution, int lo);

/// Ring and segment counts of a lofted body.
struct LoftCounts {
  int rings = 0;
  int segments = 0;
};

/// rings = scaledCount(`rings`, resolution, `ringsLo`), segments = 2 · scaledCount(
/// `halfSegments`, resolution, `halfSegmentsLo`) (even, for a mirror-symmetric section).
LoftCounts loftCounts(double resolution, int rings, int ringsLo, int halfSegments,
                      int halfSegmentsLo);

/// 3x² − 2x³ clamped to [0, 1].
double smoothstep(double x);

/// A rigid part `name` turning about `hinge` and moving `vertices` (none: a joint that only
/// carries its children).
core::RigidPart hingedPart(const std::string& name, const Hinge& hinge,
                           std::vector<int> vertices = {});

/// An angle track of keys + 1 keys at t = duration · x, x = k / keys, with the values f(x);
/// `loop` and `smooth` as in core::ScalarTrack.
core::ScalarTrack sampledTrack(double duration, int keys, const std::function<double(double)>& f,
                               bool loop, bool smooth);

}  // namespace samara::assetgen
