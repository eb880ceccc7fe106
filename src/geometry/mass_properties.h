#pragma once
// Mass moments (mass, first moment, second moment) of closed parts, sheets, point masses
// and vertex-lumped masses; exact integrals over triangles and tetrahedra.
#include <array>
#include <cstddef>
#include <vector>

#include "geometry/topology.h"

namespace samara::geometry {

/// Mass moments about the body origin; additive over parts.
struct MassMoments {
  double mass = 0.0;           ///< kg
  Vec3 first = Vec3::Zero();   ///< ∫ x dm, kg·m
  Mat3 second = Mat3::Zero();  ///< ∫ x xᵀ dm, kg·m²

  MassMoments& operator+=(const MassMoments& o) {
    mass += o.mass;
    first += o.first;
    second += o.second;
    return *this;
  }
  MassMoments scaled(double s) const { return {mass * s, first * s, second * s}; }
  Vec3 com() const { return mass > 0.0 ? Vec3(first / mass) : Vec3::Zero(); }
  /// Rotational inertia about the body origin: tr(S) I − S, kg·m².
  Mat3 inertiaAboutOrigin() const { return second.trace() * Mat3::Identity() - second; }
  /// Rotational inertia about the centre of mass (parallel-axis shift of the second
  /// moment: S_c = S − m c cᵀ, then tr(S_c) I − S_c), kg·m². The one place this is computed.
  Mat3 inertiaAboutCom(const Vec3& c) const {
    const Mat3 secondCom = second - mass * c * c.transpose();
    return secondCom.trace() * Mat3::Identity() - secondCom;
  }
};

/// Volume (m³) of a closed, outward-oriented part, by the divergence theorem.
double partVolume(const TriMesh& mesh, const Part& part);
/// Area (m²) of a part's faces (one side).
double partArea(const TriMesh& mesh, const Part& part);

/// Uniform solid of the given density (kg/m³) bounded by a closed part: exact volume
/// integrals over the tetrahedra (origin, face). withSecond = false leaves `second` zero
/// (mass and first moment the same bits, at less cost).
MassMoments solidMoments(const TriMesh& mesh, const Part& part, double density,
                         bool withSecond = true);
/// Thin sheet of areal density (kg/m²) over the part's faces, exact per triangle.
MassMoments sheetMoments(const TriMesh& mesh, const Part& part, double arealDensity,
                         bool withSecond = true);
/// A point mass m (kg) at p.
MassMoments pointMoments(const Vec3& p, double mass);
/// The paper's vertex-lumped masses (GwtF Alg. 3): mass per vertex.
MassMoments lumpedMoments(const TriMesh& mesh, const std::vector<double>& vertexMass);
/// The running sums of lumpedMoments before every kBlock-th vertex, kept from one call to
/// the next so that a shape whose first vertices did not move resumes from them.
struct LumpedMomentsCache {
  static constexpr std::size_t kBlock = 256;
  std::vector<std::array<double, 13>> before;  ///< [k]: the sums over vertices < k·kBlock
};
/// lumpedMoments with the same bits, resumed from the cache's last checkpoint at or before
/// `firstMoved`, the first vertex whose position differs from the call that filled it (0, or
/// an empty cache: from the start); refills the checkpoints after it.
MassMoments lumpedMoments(const TriMesh& mesh, const std::vector<double>& vertexMass,
                          LumpedMomentsCache* cache, std::size_t firstMoved);
/// Area-weighted vertex masses that sum to `total` (each face gives a third of its area
/// share to each of its vertices).
std::vector<double> lumpVertexMasses(const TriMesh& mesh, double total);

}  // namespace samara::geometry
