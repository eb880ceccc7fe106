#pragma once
// Internal: the per-body data the World steps. Not part of the public core API.
#include <vector>

#include "core/forces.h"
#include "core/integrator.h"
#include "core/world.h"

namespace samara::core {

class BodyImpl {
 public:
  /// Sets up a body from its definition; throws DefinitionError naming "/bodies/<index>/…".
  BodyImpl(const BodyDef& def, int index, const WorldDef& world);

  // --- constant for a rigid body --------------------------------------------------------
  geometry::TriMesh mesh;          ///< outward-oriented copy of the definition's mesh
  geometry::Topology topo;
  geometry::MassMoments moments;   ///< about the body origin, incl. point masses
  Mat6 inertiaBody = Mat6::Zero();
  Vec3 com = Vec3::Zero();         ///< body coordinates
  double deltaAuto = 0.0;          ///< δ from the geometry, m
  double delta = 0.0;              ///< δ in use, m
  double closedVolume = 0.0;       ///< m³
  Vec3 closedCentroid = Vec3::Zero();
  double sheetArea = 0.0;          ///< one side, m²
  Vec3 sheetCentroid = Vec3::Zero();
  double sheetThickness = 0.0;     ///< m (0 if unknown: no sheet buoyancy)
  double area = 0.0;               ///< one-sided mesh area, m²
  double boundRadius = 0.0;        ///< max |x − com| over vertices, m
  std::vector<int> closedFaces;    ///< faces of closed parts
  std::vector<Vec3> faceX;         ///< centroids
  std::vector<double> faceWeight;  ///< sides·A (added mass weight), m²
  std::vector<double> faceDragCA;  ///< c·A, m²
  std::vector<double> vertexShare; ///< area-lumped vertex share of the mass, Σ = 1
  Mat6 addedUnit = Mat6::Zero();   ///< Σ sides A a aᵀ (per unit δ and ρ_f)
  DragFaces drag;                  ///< k filled per step with the current ρ_f

  // --- per step --------------------------------------------------------------------------
  Mat6 K = Mat6::Zero();           ///< Kirchhoff tensor used by the last step (or setup)
  Mat6 added = Mat6::Zero();       ///< 𝓘_fluid used by the last step
  Vec6 mu0 = Vec6::Zero();         ///< shape-change momentum (0 for a rigid body)
  BodyState state;
  int lastIterations = 0;
  double lastResidual = 0.0;

  /// Recomputes the per-face fluid density (air / water) at pose g, the added mass and 𝒦,
  /// and the drag coefficients k = c A ρ_f.
  void updateFluid(const Pose& g, const WorldDef& world);
  /// Attempts one step of size h from `from` (no change to this body on failure).
  VariationalStepResult tryStep(const BodyState& from, double h, double t,
                                const WorldDef& world, BodyState* to);
};

}  // namespace samara::core
