#pragma once
// The exact (potential-flow) added mass of a rigid closed triangle mesh: Kirchhoff's six
// unit potentials φ_j from the exterior Neumann problem, solved by a direct boundary-
// integral method with constant elements collocated at the face centroids and the panel
// integrals in closed form (solid angle: van Oosterom & Strackee 1983; single layer: Wilton
// et al. 1984), so near-singular and singular panels need no quadrature. README "Exact
// added mass" has the equations.
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "geometry/tri_mesh.h"

namespace samara::geometry {

using Mat6 = Eigen::Matrix<double, 6, 6>;

/// Settings and hooks of one solve.
struct PotentialFlowOptions {
  /// Called with the fraction done (0 … 1) every few percent of the assembly and each
  /// solver iteration; return false to cancel (the solve then throws PotentialFlowCancelled).
  std::function<bool(double)> progress;
  double tolerance = 1e-10;  ///< GMRES relative residual per potential; default 1e-10
  int maxIterations = 400;   ///< per potential; default 400
};

/// Thrown when `progress` returns false.
struct PotentialFlowCancelled : std::runtime_error {
  PotentialFlowCancelled() : std::runtime_error("potential-flow solve cancelled") {}
};

/// The solve's result, everything per unit fluid density.
struct PotentialFlowResult {
  /// M/ρ_f (m³, m⁴, m⁵ blocks), body frame about the mesh origin, (rotation, translation)
  /// order like every 6×6 tensor of samara: E_fluid = ½ ρ_f Yᵀ (M/ρ_f) Y. Symmetrised.
  Mat6 addedUnit = Mat6::Zero();
  /// ‖M − Mᵀ‖_F / ‖M‖_F of the discrete tensor before symmetrising (→ 0 with refinement).
  double asymmetry = 0.0;
  /// faces × 6: φ_j at each face centroid for unit motion j (m²/s per m/s or rad/s).
  Eigen::MatrixXd potentials;
  int iterations = 0;  ///< the most GMRES iterations any potential took
  /// exactAddedMass: faces left out because they lie inside another (crossing) part.
  int droppedFaces = 0;
};

/// Solves the six exterior Neumann problems ∂φ_j/∂n = a_j (a = (x × n, n), n outward) on
/// a closed, outward-oriented mesh and returns M_ij = −∫ φ_i a_j dA (per unit ρ_f). Dense:
/// 8 N² bytes and O(N²) panel integrals for N faces. Throws std::invalid_argument for a
/// mesh with no faces.
PotentialFlowResult solvePotentialFlow(const TriMesh& mesh, const PotentialFlowOptions& options);

/// A closed copy of an open sheet (or of a mesh with sheet parts): each sheet vertex is
/// moved ±thickness/2 along its area-weighted normal, the lower copy's faces reversed and
/// the boundary edges stitched with two triangles each. Closed parts are copied as they are.
/// The exact added mass of a sheet is that of this thin body (thickness a small fraction of
/// the sheet's size; its error is O(thickness/size)).
TriMesh thickenedSheets(const TriMesh& mesh, double thickness);

/// Faces the dense solve takes at most (8 N² bytes: 1.15 GB at 12 000, 780 MB for the
/// zeppelin's 9 880).
inline constexpr int kMaxExactFaces = 12000;
/// Thickness open sheets are closed with, relative to the mesh's largest extent (a disk of
/// radius a closed at 0.005 a gives 8/3 a³ within 2.6 %).
inline constexpr double kExactSheetThickness = 0.005;
/// kExactSheetThickness × the mesh's largest bounding-box extent, m.
double exactSheetThickness(const TriMesh& mesh);

/// Two connected parts of which one pokes into the other (a fin pushed into a hull).
struct PartOverlap {
  int inner = -1;             ///< the part (index in buildTopology's parts) with a vertex inside
  int outer = -1;             ///< the closed part it lies in
  int vertex = -1;            ///< that vertex (index in the mesh tested)
  Vec3 point = Vec3::Zero();  ///< its position, m
};
/// The first vertex of a part that lies inside another closed part (winding number > ½ by
/// the faces' solid angles; parts whose boxes overlap only), or nullopt. The surfaces of
/// crossing parts inside each other are not wetted: solved as they are, the equations are
/// those of no exterior flow (GMRES stalls, the tensor is meaningless).
std::optional<PartOverlap> findOverlappingParts(const TriMesh& mesh);
/// Per face: 1 if its centroid lies inside another closed part of the mesh.
std::vector<std::uint8_t> facesInsideOtherParts(const TriMesh& mesh);

/// The exact added mass of a rigid body's mesh as it is given: closed parts oriented
/// outward, open sheets closed by thickenedSheets (exactSheetThickness), then
/// solvePotentialFlow on the wetted faces: where parts cross, the faces inside another closed
/// part are left out (the union's surface; droppedFaces counts them). Throws MeshError for
/// a bad mesh and std::invalid_argument (with the reason) above kMaxExactFaces faces once
/// closed.
PotentialFlowResult exactAddedMass(const TriMesh& mesh, const PotentialFlowOptions& options);

/// Lamb's added mass of an ellipsoid with semi-axes (a, b, c) along x, y, z about its
/// centre, per unit ρ_f (Lamb, Hydrodynamics, 6th ed., §114–§115; α₀, β₀, γ₀ from Carlson's
/// R_D): diagonal, (rotation, translation) order.
Mat6 ellipsoidAddedMassUnit(const Vec3& semiAxes);

/// Carlson's symmetric elliptic integral R_D(x, y, z) (x, y ≥ 0, at most one zero, z > 0).
double carlsonRD(double x, double y, double z);

}  // namespace samara::geometry
