#pragma once
// Body definitions (what a scene gives), the state of a body and what `samara inspect`
// reports. Light: the World's internals (core/body_impl.h) include the rest of core.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/fluid_model.h"
#include "core/gwtf_model.h"
#include "core/se3.h"
#include "geometry/tri_mesh.h"

namespace samara::core {

class ShapeAnimation;  // core/animation.h

/// Thrown once at setup for an invalid definition. `field` is a JSON-pointer-like path
/// relative to the world definition (e.g. "/bodies/0/mass/density") so io/ can name the
/// scene file and the field.
class DefinitionError : public std::runtime_error {
 public:
  DefinitionError(std::string field, const std::string& what)
      : std::runtime_error(what), field_(std::move(field)) {}
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

enum class MassMode {
  kDensity,  ///< closed parts: `density` (kg/m³); sheets: density × thickness (kg/m²)
  kTotal,    ///< a total mass (kg) spread uniformly (by volume, or by area for sheets)
  kLumped,   ///< GwtF Alg. 3: total mass at the vertices, area-weighted
};

struct MassDef {
  MassMode mode = MassMode::kDensity;  ///< default kDensity
  double density = 1000.0;             ///< kg/m³; default 1000
  double thickness = 0.0;              ///< sheet thickness, m; 0 = not given; default 0
  double total = 0.0;                  ///< kg, for kTotal and kLumped; default 0
};

struct PointMass {
  Vec3 position = Vec3::Zero();  ///< body coordinates, m
  double mass = 0.0;             ///< kg
};

/// Where a body's added mass comes from ("added_mass" in a scene file). The local choices
/// and kExact apply to models with local faces (samara, gwtf-2024).
enum class AddedMassSource {
  kModel,         ///< the fluid model's own: samara per part, gwtf-2024 one δ; default
  kLocal,         ///< GwtF's local estimate with one δ for the whole body
  kLocalPerPart,  ///< the local estimate with each connected part's own δ (GwtF §8)
  kExact,         ///< potential flow (geometry/potential_flow.h); rigid bodies only
};

struct BodyDef {
  std::string name = "body";            ///< label in output; default "body"
  geometry::TriMesh mesh;               ///< body-coordinate mesh, m
  MassDef mass;                         ///< mass distribution
  std::vector<PointMass> pointMasses;   ///< extra point masses (nut, paper clip)
  Vec3 position = Vec3::Zero();         ///< world position of the body origin, m
  Quat orientation = Quat::Identity();  ///< body → world rotation
  Vec3 velocity = Vec3::Zero();         ///< world velocity of the centre of mass, m/s
  Vec3 angularVelocity = Vec3::Zero();  ///< world angular velocity, rad/s
  std::optional<double> delta;          ///< δ override, m (0 = no added mass); default auto
  /// Shape change over time (body frame, same vertex count as `mesh`); null = rigid.
  /// An animated body carries its mass at the vertices (GwtF Alg. 3 and 4): `mass` fixes
  /// the total (from the shape at t = 0), distributed by vertex area at t = 0; point masses
  /// stay fixed in the body frame. `velocity` and `angular_velocity` then give the total
  /// momentum (that of the rigid motion): released at rest, the body has zero momentum.
  std::shared_ptr<const ShapeAnimation> animation;
  /// The fluid model: one instance of the FluidModel interface (core/fluid_model.h), the
  /// World clones it per body. Default GwtF (core/gwtf_model.h); by name through
  /// models::makeModel (src/models/registry.h). `delta` applies to models with localFaces().
  std::shared_ptr<const FluidModel> model = std::make_shared<GwtfModel>();
  AddedMassSource addedMass = AddedMassSource::kModel;  ///< default the model's own
  /// With kExact: M/ρ_f of `mesh` (body frame, about the body origin, (ω, v) order) as
  /// geometry::exactAddedMass gives it, e.g. from a cache; null = solved at setup.
  std::shared_ptr<const Mat6> exactAddedUnit;
};

/// The scene-file name of a body's fluid model ("gwtf", "vacuum", …).
std::string fluidModelName(const BodyDef& def);

/// Shape-dependent per-face data of a body, structure of arrays for the force loop.
/// Closed-part faces carry c = ½, sheet faces c = 1 (PHYSICS.md §3); `sides` is 1 for
/// closed faces and 2 for sheet faces (added-mass sums count both sides).
struct FaceData {
  std::vector<Vec3> x;               ///< centroid, body, m
  std::vector<Vec3> n;               ///< unit normal, body
  std::vector<double> area;          ///< m²
  std::vector<double> dragC;         ///< c (½ closed, 1 sheet)
  std::vector<double> sides;         ///< 1 closed, 2 sheet
  std::vector<std::uint8_t> closed;  ///< 1 if the face bounds a closed part
};

/// Mass and geometry summary (what `samara inspect` prints). Body frame, about the body
/// origin, order (ω, v).
struct BodyInfo {
  int faces = 0;
  double mass = 0.0;         ///< kg
  Vec3 com = Vec3::Zero();   ///< body coordinates, m
  double volume = 0.0;       ///< of closed parts, m³
  double area = 0.0;         ///< one-sided mesh area, m²
  double delta = 0.0;        ///< δ in use, m
  double deltaAuto = 0.0;    ///< δ from the geometry (GwtF Eqn. 11), whatever the override, m
  double boundRadius = 0.0;  ///< largest distance of a vertex from the COM, m
  Mat3 inertiaCom = Mat3::Zero();  ///< rotational inertia about the COM, body axes, kg·m²
  Mat6 bodyInertia = Mat6::Zero();
  Mat6 addedMass = Mat6::Zero();  ///< at the current per-face fluid densities
  Mat6 kirchhoff = Mat6::Zero();
};

/// The dynamic state: pose, body velocity Y = (ω, v), momentum μ = 𝒦Y + μ⁰.
/// Y and μ are relative to a frame that translates with the world velocity `frame`: the
/// undisturbed flow the body's last step moved with (PHYSICS.md §7), zero in still air and
/// for models that take the flow relative to the ground (gwtf-2024, vacuum, first-order).
/// A step moves the body by g_{k+1} = translate(h·frame) g_k τ(hY_{k+1}).
struct BodyState {
  Pose g;
  Vec6 Y = Vec6::Zero();
  Vec6 mu = Vec6::Zero();
  Vec3 frame = Vec3::Zero();  ///< world velocity of the frame Y and μ are taken in, m/s
  /// The body velocity relative to the ground (Y plus the frame's velocity, body frame).
  Vec6 groundY() const {
    if (frame == Vec3::Zero()) return Y;
    Vec6 out = Y;
    out.tail<3>() += g.q.conjugate() * frame;
    return out;
  }
  /// True when μ is a continuous momentum (at setup, or after a parameter change) rather
  /// than the result of a discrete step: the next step then uses μ itself as the discrete
  /// momentum (dτ⁻¹ at 0), which removes the O(h) bias a spinning start would otherwise
  /// put into the conserved momentum map.
  bool continuous = true;
  double stepH = 0.0;                ///< size of the (sub)step that produced this state, s
  Vec3 stepStartCom = Vec3::Zero();  ///< body-frame COM at that step's start (shape change)
  /// First-order inertial bodies: the world momentum carried into the next step (angular
  /// about the world origin, linear), kg·m²/s and kg·m/s.
  Vec6 carriedMomentum = Vec6::Zero();
};

}  // namespace samara::core
