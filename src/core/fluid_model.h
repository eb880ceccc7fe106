#pragma once
// The one interface every fluid model implements. A body's BodyDef::model is one instance
// (chosen once, from the registry in src/models/registry.h or a scene file's "model" key);
// the World asks it, never the model's name, what to do:
//   - core/gwtf_model.h: samara's default, "Going with the Flow" (local added mass with δ,
//     flat-plate lift and drag per face, exact buoyancy);
//   - core/first_order.h: Gross et al.'s first-order models (their own step);
//   - core's VacuumModel, and src/models/: MuJoCo's inertia-box and ellipsoid models,
//     Xie–Miyata.
// Every model names itself, lists its parameters (scene files, comparison, display) and
// reads them through a ParamReader that io implements over the scene file.
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/se3.h"
#include "geometry/tri_mesh.h"

namespace samara::core {

struct DragFaces;
struct FlowLawFaces;
struct FaceOffsetPack;
struct PartSums;
struct FirstOrderDef;

/// What a fluid model sees of a body at the start of a step. Body frame (the frame the
/// mesh is given in), torques about the body origin, 6-vectors ordered (angular, linear).
struct FluidModelInput {
  double t = 0.0;                  ///< time at the step start, s
  double h = 0.0;                  ///< step size, s
  double density = 0.0;            ///< fluid density at the centre of mass, kg/m³
  double viscosity = 0.0;          ///< dynamic viscosity at the centre of mass, Pa·s
  Vec3 flowBody = Vec3::Zero();    ///< background flow (wind + gusts) at the COM, body frame, m/s
  double mass = 0.0;               ///< body mass, kg
  Vec3 com = Vec3::Zero();         ///< centre of mass, body frame, m
  Mat3 inertiaCom = Mat3::Zero();  ///< inertia about the COM, body axes, kg·m²
  const geometry::TriMesh* mesh = nullptr;  ///< current shape, body frame, m
  double sheetThickness = 0.0;              ///< mass.thickness of sheet parts, m (0 = not given)
  std::int64_t stepIndex = 0;               ///< index of the step that starts at t
  /// Models with localFaces(): the body's per-face lift/drag data at the current fluid
  /// densities and the face velocity offsets (shape velocity minus flow, body frame): one
  /// `faceOffset` for all faces, or per face in `faceOffsets` when not null.
  const DragFaces* faces = nullptr;
  const FlowLawFaces* law = nullptr;  ///< with `faces`: friction and circulation coefficients
  Vec3 faceOffset = Vec3::Zero();
  const Vec3* faceOffsets = nullptr;
  /// True if `law` is padded like `faces` and, when `faceOffsets` is not null, the same
  /// offsets are in `packOffsets`: the vectorised kernel applies (core/face_kernel.h).
  bool packed = false;
  const FaceOffsetPack* packOffsets = nullptr;
  /// With `packed` and a rotational lift: the parts' sums of these faces and offsets
  /// (core/flow_law.h's sumParts), or null (the kernel forms them).
  const PartSums* partSums = nullptr;
};

/// One parameter value of a model: a number, a list of numbers (a vector), a word or an
/// integer (a seed).
using ParamValue = std::variant<double, std::vector<double>, std::string, std::int64_t>;

/// A named parameter, as the scene file spells it ("fluidcoef", "seed", …).
struct ModelParam {
  std::string key;
  ParamValue value;
};

/// The parameters of a model's scene-file object {"type": NAME, …}, as a model reads
/// them. io implements it over the scene file; every error names the file and the field.
class ParamReader {
 public:
  virtual ~ParamReader() = default;
  /// Fails for any key other than "type" and `keys`.
  virtual void allowOnly(const std::vector<std::string>& keys) const = 0;
  virtual bool has(const std::string& key) const = 0;
  virtual bool isString(const std::string& key) const = 0;
  virtual bool isNumber(const std::string& key) const = 0;
  virtual std::string text(const std::string& key) const = 0;
  /// A number > 0 (`positive`) or ≥ 0.
  virtual double number(const std::string& key, bool positive) const = 0;
  /// An array of exactly n numbers, each ≥ 0.
  virtual std::vector<double> numbers(const std::string& key, int n) const = 0;
  /// Three finite numbers.
  virtual Vec3 vec3(const std::string& key) const = 0;
  virtual std::int64_t integer(const std::string& key, std::int64_t lo, std::int64_t hi) const = 0;
  /// The value at `key` as an error message shows it.
  virtual std::string describe(const std::string& key) const = 0;
  /// Throws naming `key` ("" = the model object itself).
  [[noreturn]] virtual void fail(const std::string& key, const std::string& message) const = 0;
};

/// A fluid model. One instance per body (the World clones the scene's prototype), so a
/// model may keep per-body state (e.g. a seeded stochastic process) that advance() updates
/// once per accepted step. Same input, same bits: no global random state.
class FluidModel {
 public:
  virtual ~FluidModel() = default;
  /// The scene-file name ("mujoco-ellipsoid", …).
  virtual std::string name() const = 0;
  virtual std::unique_ptr<FluidModel> clone() const = 0;
  /// The parameters (every one, defaults included), in scene-file order. Default: none.
  virtual std::vector<ModelParam> parameterList() const { return {}; }
  /// Reads the parameters of a scene file's model object (absent keys keep their
  /// defaults); throws through `r`. Default: no parameters allowed.
  virtual void readParameters(const ParamReader& r);
  /// The same model with the same parameters, bit for bit.
  bool sameAs(const FluidModel& other) const;
  /// True if samara's local added mass (δ per body, GwtF Alg. 5) and the per-face lift/drag
  /// data (FluidModelInput::faces) apply: the World then builds them, and the body's δ
  /// override means something. Default false.
  virtual bool localFaces() const { return false; }
  /// With localFaces(): true if each connected part of the body gets its own δ (GwtF §8:
  /// thin appendages then no longer shrink the added mass of the whole body); a δ
  /// override still applies one δ to every part. Default false (one δ per body).
  virtual bool perPartDelta() const { return false; }
  /// Whether the law needs each part's half-chord tensor (FlowLawFaces::rot): a rotational
  /// lift. Only then does the body compute it (once per shape).
  virtual bool rotationalLift() const { return false; }
  /// Gross et al.'s first-order motion: the definition the World's first-order step uses
  /// in place of the variational one (addedMass and wrench are then unused). Default null.
  virtual const FirstOrderDef* firstOrder() const { return nullptr; }
  /// Added mass that enters samara's Kirchhoff tensor 𝒦 (body frame, about the body
  /// origin, (ω, v) order, symmetric positive semi-definite). Default: none. (With
  /// localFaces() the World's local added mass is used instead.)
  virtual Mat6 addedMass(const FluidModelInput& in) const;
  /// The fluid wrench (torque about the body origin, force), body frame, at body velocity
  /// Y = (ω, v) (velocity of the body-origin point, body frame). Must be finite for finite
  /// input. The integrator treats it implicitly, through addWrench.
  virtual Vec6 wrench(const FluidModelInput& in, const Vec6& Y) const = 0;
  /// Adds the wrench at Y to *F and, if J is not null, its Jacobian ∂F/∂Y to *J. Default:
  /// central differences of wrench() (steps scaled to Y so round-off stays ~1e-9
  /// relative); a model with an analytic Jacobian overrides it.
  virtual void addWrench(const FluidModelInput& in, const Vec6& Y, Vec6* F, Mat6* J) const;
  /// True if the World steps the body in the frame of the undisturbed flow at its centre of
  /// mass (PHYSICS.md §7): added mass relative to the fluid, a uniform steady wind exactly a
  /// change of inertial frame, a gust acting through the fluid's acceleration. The model then
  /// sees Y relative to that frame and FluidModelInput::flowBody is only the flow's
  /// non-uniform remainder (zero for a uniform flow). Default true; false keeps the flow
  /// relative to the ground (GwtF 2024 as published).
  virtual bool relativeFlow() const { return true; }
  /// Models with localFaces(): the force on each face at Y (body frame, N), for the
  /// viewer's per-face overlay. Default: none (empty).
  virtual void localFaceForces(const FluidModelInput& in, const Vec6& Y,
                               std::vector<Vec3>* forces) const;
  /// True if samara's exact Archimedes buoyancy applies to the body. Default false.
  virtual bool buoyancy() const { return false; }
  /// Advances internal state after an accepted step from Y at the step start to the new
  /// state (t = in.t + in.h). Default: stateless.
  virtual void advance(const FluidModelInput& in, const Vec6& Y);
};

/// A parameter list as text, for messages and the viewer: "fluidcoef [0.5, 0.25], seed 1".
std::string paramsText(const std::vector<ModelParam>& params);

/// The principal frame of a body: COM, principal axes (columns of R, body frame,
/// right-handed, sorted by ascending principal moment) and the principal moments.
struct PrincipalFrame {
  Vec3 com = Vec3::Zero();      ///< body frame, m
  Mat3 R = Mat3::Identity();    ///< principal → body rotation (columns = axes)
  Vec3 moments = Vec3::Zero();  ///< principal moments of inertia, ascending, kg·m²
};

/// Eigen-decomposition of the inertia about the COM (deterministic axis signs: the
/// largest-magnitude component of each axis is positive, then the third axis is e1 × e2).
PrincipalFrame principalFrame(const Vec3& com, const Mat3& inertiaCom);

/// Body velocity Y (about the body origin, body frame) → (ω, v_COM) in a local frame with
/// origin `frame.com` and axes `frame.R` (columns in body coordinates).
Vec6 velocityToLocal(const PrincipalFrame& frame, const Vec6& Y);

/// A local wrench (torque about the local origin, force; local axes) → body wrench
/// (torque about the body origin, force; body axes).
Vec6 wrenchFromLocal(const PrincipalFrame& frame, const Vec6& wrenchLocal);

/// A local diagonal 6×6 inertia-like tensor diag(I_rot, m_lin) (local axes, about the
/// local origin) → body frame about the body origin: Xᵀ M X with X the velocity map.
Mat6 inertiaFromLocal(const PrincipalFrame& frame, const Mat6& local);

/// No fluid at all: no added mass, no forces, no buoyancy (the lecture's contrast).
class VacuumModel final : public FluidModel {
 public:
  std::string name() const override { return "vacuum"; }
  bool relativeFlow() const override { return false; }
  std::unique_ptr<FluidModel> clone() const override {
    return std::make_unique<VacuumModel>(*this);
  }
  Vec6 wrench(const FluidModelInput&, const Vec6&) const override { return Vec6::Zero(); }
};

}  // namespace samara::core
