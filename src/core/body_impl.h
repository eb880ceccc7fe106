#pragma once
// Internal: the per-body data the World steps. Not part of the public core API.
#include <limits>
#include <vector>

#include "core/animation.h"
#include "core/face_kernel.h"
#include "core/first_order.h"
#include "core/flow_law.h"
#include "core/forces.h"
#include "core/integrator.h"
#include "core/world.h"
#include "geometry/mass_properties.h"
#include "geometry/topology.h"

namespace samara::core {

/// A per-body FluidModel instance that deep-copies with the body (World copies are
/// independent, including a model's random state).
class ModelHolder {
 public:
  ModelHolder() = default;
  explicit ModelHolder(std::unique_ptr<FluidModel> m) : m_(std::move(m)) {}
  ModelHolder(const ModelHolder& o) : m_(o.m_ ? o.m_->clone() : nullptr) {}
  ModelHolder& operator=(const ModelHolder& o) {
    if (this != &o) m_ = o.m_ ? o.m_->clone() : nullptr;
    return *this;
  }
  ModelHolder(ModelHolder&&) noexcept = default;
  ModelHolder& operator=(ModelHolder&&) noexcept = default;
  FluidModel* get() const { return m_.get(); }
  FluidModel* operator->() const { return m_.get(); }
  explicit operator bool() const { return m_ != nullptr; }

 private:
  std::unique_ptr<FluidModel> m_;
};

/// The unit vertical: −gravity normalised, y without gravity.
inline Vec3 upAxis(const Vec3& gravity) {
  const double gn = gravity.norm();
  return gn > 0.0 ? Vec3(-gravity / gn) : Vec3(0.0, 1.0, 0.0);
}

/// Definition data of a body, fixed at setup (a step never changes it).
struct BodySetup {
  std::shared_ptr<const ShapeAnimation> animation;  ///< null for a rigid body
  geometry::Topology topo;
  std::optional<FirstOrderDef> firstOrder;  ///< Gross et al. (auto drag resolved at setup)
  std::vector<double> firstOrderMass;       ///< kg per vertex (Σ = body mass)
  std::vector<double> vertexMass;           ///< animated bodies: kg per vertex (fixed)
  double meshMass = 0.0;                    ///< mass carried by the mesh (without point masses), kg
  geometry::MassMoments pointMoments;       ///< point masses (fixed in the body frame)
  double sheetThickness = 0.0;              ///< m (0 if unknown: no sheet buoyancy)
  std::vector<double> vertexShare;  ///< area-lumped vertex share of the mass at t = 0, Σ = 1
  AddedMassSource addedMassSource = AddedMassSource::kModel;
  std::optional<Mat6> exactAddedUnit;  ///< kExact: M/ρ_f (body frame, about the origin)
};

/// Caches of the current shape (constant for a rigid body) and of the fluid at the step's
/// start pose: rebuilt from the definition, the step state and the World's parameters
/// (updateShape, updateFluid, rebuildShape); never saved and never restored by hand.
struct ShapeCache {
  geometry::TriMesh mesh;         ///< current shape, outward-oriented
  geometry::MassMoments moments;  ///< about the body origin, incl. point masses
  Mat6 inertiaBody = Mat6::Zero();
  Vec3 com = Vec3::Zero();    ///< body coordinates
  double deltaAuto = 0.0;     ///< δ from the geometry, m
  double closedVolume = 0.0;  ///< m³
  Vec3 closedCentroid = Vec3::Zero();
  double sheetArea = 0.0;  ///< one side, m²
  Vec3 sheetCentroid = Vec3::Zero();
  double area = 0.0;                  ///< one-sided mesh area, m²
  double boundRadius = 0.0;           ///< max |x − com| over vertices, m
  std::vector<int> closedFaces;       ///< faces of closed parts
  std::vector<double> faceWeight;     ///< sides·A (added mass weight), m²
  std::vector<double> faceDragCA;     ///< c·A, m²
  Mat6 addedUnit = Mat6::Zero();      ///< Σ sides A a aᵀ (per unit δ and ρ_f)
  std::vector<double> partDeltaAuto;  ///< per-part δ models: δ of each part (topo.parts), m
  std::vector<Mat6> addedPart;        ///< per-part δ models: addedUnit of each part
  std::vector<Vec6> mu0FluidPart;     ///< per-part δ models: mu0FluidUnit of each part
  std::vector<double> shapeEnergyFluidPart;  ///< per-part δ models: per part
  DragFaces drag;                            ///< k filled per step with the current ρ_f
  FlowLawFaces law;            ///< κ per shape; friction per step with the current ν
  FaceOffsetPack packOffsets;  ///< per-face offsets of the step in drag's layout
  PartSums partSums;           ///< the parts' sums of the step (rotational lift)
  /// ρ_f of the drag.k the partSums were formed with: a rigid body's sums stay valid while
  /// it holds (NaN: to re-form).
  double partSumsRho = std::numeric_limits<double>::quiet_NaN();
  double dragRho = 0.0;                ///< ρ_f the drag.k hold (NaN: to refill), kg/m³
  std::vector<double> faceInvLen;      ///< 1/L of the face's part (L = 2ℓ), 1/m
  std::vector<double> faceSqrtInvLen;  ///< √(1/L)
  double lawNu = 0.0;              ///< ν the friction coefficients hold (NaN: to recompute), m²/s
  std::vector<Vec3> faceShapeVel;  ///< animated: face-centroid shape velocity x', m/s
  std::vector<double> vertexShapeVel;  ///< animated: vertex shape velocities (n × 3), m/s
  Vec6 mu0Body = Vec6::Zero();         ///< (Σ m x × x', Σ m x') (GwtF Alg. 4)
  Vec6 mu0FluidUnit = Vec6::Zero();    ///< Σ sides A ⟨x', n⟩ a (per unit δ and ρ_f)
  double shapeEnergyBody = 0.0;        ///< ½ Σ m |x'|², J
  double shapeEnergyFluidUnit = 0.0;   ///< ½ Σ sides A ⟨x', n⟩² (per unit δ and ρ_f)
  geometry::VertexMatrix next;         ///< animated: shape at shapeTime + shapeH
  /// Face normals and areas of the current shape (updateShape moves the centroids to
  /// drag.x); a rigid body frees them, and topo.edges, in its one updateShape.
  geometry::FaceGeometry geo;
  // Animated bodies: what the last shape's faces, edges and parts gave, reused by the next
  // updateShape where their vertices are bitwise the same (a zeppelin's hull beside its
  // spinning propellers), with the same bits as recomputing them.
  bool reuseValid = false;        ///< geo, drag, the per-part data and the caches are mesh.V's
  bool reusePerPart = false;      ///< addedPart holds the per-part sums
  geometry::BendCache bendCache;  ///< α ℓ per edge
  std::vector<geometry::MassMoments> partMoments;  ///< unit solid / sheet moments per part
  geometry::LumpedMomentsCache lumpedCache;        ///< the lumped moments' running sums
  std::size_t firstMovedVertex = 0;                ///< this update: the first vertex that moved
  std::vector<std::uint8_t> faceDirty;             ///< this update: a vertex of the face moved
  std::vector<std::uint8_t> partDirty;             ///< this update: a face of the part moved
  /// The box of drag's centroids for the gusts' quadratic sampling (packFaceOffsets), formed
  /// once per shape: valid until updateShape (a rigid body's for good).
  PointBox faceBox;
  bool faceBoxValid = false;
};

/// The flow field's velocity at the last two points and times a body asked for (the bits as
/// the key: +0 and −0 differ), with the field they came from (held, so no other field can
/// take its address). A step asks at its centre of mass at the start pose up to three times
/// (the model's input, the relative flow's frame, the commit) and at the end pose once (the
/// energy audit, where the next step starts): one new point per step.
struct FlowMemo {
  std::shared_ptr<const WindField> field;
  double key[2][4] = {};  ///< x, y, z, t
  Vec3 u[2] = {Vec3::Zero(), Vec3::Zero()};
  int count = 0;   ///< entries held (0–2)
  int newest = 0;  ///< the entry set last
};

/// What a step commits and a failed trial step rolls back: the dynamic state, the tensors
/// the last step used (the diagnostics report them), the times that fix an animated
/// body's shape, and the last Newton statistics. With BodySetup and the World's parameters
/// it determines every ShapeCache exactly (World::saveState / restoreState).
struct BodyStepState {
  BodyState state;
  Mat6 K = Mat6::Zero();          ///< Kirchhoff tensor used by the last step (or setup)
  Mat6 added = Mat6::Zero();      ///< 𝓘_fluid used by the last step
  Vec6 mu0 = Vec6::Zero();        ///< shape-change momentum μ⁰_body + μ⁰_fluid
  double shapeEnergyFluid = 0.0;  ///< δ ρ_f × the shape's fluid energy per unit, J
  double shapeTime = 0.0;         ///< time of the current shape, s
  double shapeV0Time = 0.0;       ///< the time its vertices were evaluated at, s
  double shapeH = 0.0;            ///< step of the shape velocity (shape at shapeTime + h), s
  int lastIterations = 0;
  double lastResidual = 0.0;
  NewtonCache newton;  ///< the last step's factorised Jacobian (core/integrator.h)
};

class BodyImpl : public BodySetup, public ShapeCache, public BodyStepState {
 public:
  /// Sets up a body from its definition; throws DefinitionError naming "/bodies/<index>/…".
  BodyImpl(const BodyDef& def, int index, const WorldDef& world);

  ModelHolder model;                    ///< the body's fluid model (its own state included)
  std::optional<double> deltaOverride;  ///< parameter (World::setDelta)
  double delta = 0.0;                   ///< δ in use, m: the override or deltaAuto
  mutable FlowMemo gustMemo;            ///< gustVelocity's last two answers (its own thread's)

  /// Sets the shape to V0 at time t with shape velocity (V1 − V0)/h and recomputes every
  /// shape-dependent quantity (mass moments, δ, per-face data, μ⁰_body, μ⁰_fluid per unit).
  void updateShape(const geometry::VertexMatrix& V0, const geometry::VertexMatrix& V1, double h,
                   double t);
  /// Part of updateShape: μ⁰_body, the face shape velocities and μ⁰_fluid and the shape's
  /// fluid energy per unit (per part for per-part δ) from V0, V1 and h; zero if rigid.
  void updateShapeVelocity(const geometry::VertexMatrix& V0, const geometry::VertexMatrix& V1,
                           double h);
  /// True if each part carries its own δ (the model asks for it and δ is not overridden).
  bool perPartDelta() const { return perPartSums() && !deltaOverride; }
  /// True if the shape update keeps per-part added-mass sums: "local-per-part", or the
  /// model's own choice.
  bool perPartSums() const {
    return addedMassSource == AddedMassSource::kLocalPerPart ||
           (addedMassSource == AddedMassSource::kModel && model->perPartDelta());
  }
  /// Per connected part: the length ℓ and the per-face rotation coefficient κ and 1/L of
  /// the flow law (core/flow_law.h), from the current face geometry.
  /// `reuse`: only the parts with partDirty set (the others keep theirs).
  void updatePartLengths(bool reuse);
  /// After a shape update: the faces' k = c A ρ_f and friction coefficients are refilled by
  /// updateFluid (marked stale) or, with `reuse`, here for the faces of the parts that
  /// moved, with the ρ_f and ν the others hold.
  void refillFaceCoefficients(bool reuse);
  /// Part of updateShape: faceDirty and partDirty for the new shape V0 against mesh.V
  /// (bitwise); every face and part when the last shape's results cannot be reused.
  /// Returns true if they can.
  bool markDirty(const geometry::VertexMatrix& V0);
  /// For an animated body, evaluates the animation at t and t + h and calls updateShape
  /// (skipped when the shape at t is already current and h is unchanged).
  void updateAnimatedShape(double t, double h);
  /// Rebuilds the shape cache of an animated body from the step state's shape times
  /// (exactly the shape the step that set them computed).
  void rebuildShape();
  /// Recomputes the per-face fluid density (air / water) at pose g, the added mass, μ⁰ and
  /// 𝒦, and the drag coefficients k = c A ρ_f.
  void updateFluid(const Pose& g, const WorldDef& world);
  /// Adds the buoyancy body wrench at pose g (none without gravity or when the model has
  /// no buoyancy) to *F: exact on a closed surface crossing the water level.
  void addBuoyancyWrench(const Pose& g, const WorldDef& world, Vec6* F) const;
  /// Adds the wrench of a frame that accelerates with the flow by `a` (world, m/s²) at pose
  /// g: −m a on the body, +ρ_f V a on its displaced volume (PHYSICS.md §7).
  void addFrameAcceleration(const Pose& g, const Vec3& a, const WorldDef& world, Vec6* F) const;
  /// Floor contact points of the mesh at pose g (empty without a floor or contact).
  std::vector<ContactPoint> floorContacts(const Pose& g, const WorldDef& world) const;
  /// The gusts' velocity (world) at x and t, as fluid.gusts->velocity gives it (zero without
  /// gusts); the last two asked are kept (gustMemo).
  Vec3 gustVelocity(const FluidDef& fluid, const Vec3& x, double t) const;
  /// What the fluid model sees at pose g, time t, step h (fluid at the COM; no faces).
  FluidModelInput modelInput(const Pose& g, double t, double h, const WorldDef& world) const;
  /// The first-order step (Gross et al. 2023 Alg. 2) in place of the variational one.
  VariationalStepResult tryFirstOrderStep(const BodyState& from, double h, double t,
                                          const WorldDef& world, BodyState* to);
  /// Fills packOffsets: per face `offset` plus its shape velocity and, with `gusts`, minus
  /// the gust field at the face (pose g, time t) plus `shift` (the relative-flow models'
  /// wind minus the frame), in the body frame.
  void packFaceOffsets(const Pose& g, double t, const Vec3& offset, const Vec3& shift, bool gusts,
                       const WorldDef& world);
  /// Attempts one step of size h from `from` (no change to this body's state on failure).
  /// `addedCarried` is the fluid inertia from.mu was formed with (the last (sub)step's): a
  /// rigid body of a relative-flow model leaves the impulse of fluid inertia it loses (a body
  /// rising out of water) in the fluid instead of taking it into its own motion.
  VariationalStepResult tryStep(const BodyState& from, double h, double t, const WorldDef& world,
                                const Mat6& addedCarried, BodyState* to);

 private:
  void computeRigidMass(const BodyDef& def, int index);
  /// The added-mass source of the definition; for "exact", the tensor given or solved.
  void setUpExactAddedMass(const BodyDef& def, int index);
};

}  // namespace samara::core
