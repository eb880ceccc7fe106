#pragma once
// Procedural models for the shape-changing examples (GwtF §7.3, Fig. 1, 12, 13): an eel, a
// sea turtle, a zeppelin and a skinned sea snake, each as a geometry::TriMesh with named
// groups (OBJ `g`) and the animation that makes it swim or fly. Pure geometry and math: no
// file I/O (tools/assetgen/main.cpp writes the files). Body frame: metres, Y up.
//
// `resolution` scales every segment count (1 = the shipped asset; 0.5 halves the number of
// segments in each direction, about a quarter of the faces, for fast tests).
#include <memory>
#include <string>
#include <vector>

#include "core/animation.h"
#include "geometry/tri_mesh.h"

namespace samara::assetgen {

/// A named set of faces (an OBJ group) and the vertices they use. A group is made of whole
/// connected parts; groups are disjoint, and their faces and vertices are contiguous ranges
/// of the mesh in group order.
struct Group {
  std::string name;
  int firstFace = 0;          ///< index of the group's first face
  int numFaces = 0;           ///< number of faces
  std::vector<int> vertices;  ///< sorted vertex indices of the group
};

/// A generated model: one mesh made of closed, outward-oriented parts, split into groups.
struct Model {
  std::string name;           ///< file stem (eel, turtle, …)
  std::string description;    ///< one line for the OBJ header
  geometry::TriMesh mesh;     ///< body frame, m
  std::vector<Group> groups;  ///< cover every face, in mesh order
  /// The group called `name`; throws std::out_of_range naming it if there is none.
  const Group& group(const std::string& name) const;
};

/// Collects parts group by group and assembles a Model with contiguous groups (in the order
/// the groups were first used).
class ModelBuilder {
 public:
  ModelBuilder(std::string name, std::string description);
  /// Appends a part (its own vertices) to `group`.
  void add(const std::string& group, const geometry::TriMesh& part);
  Model finish() const;

 private:
  std::string name_;
  std::string description_;
  std::vector<std::string> order_;
  std::vector<std::vector<geometry::TriMesh>> parts_;
};

/// The model as Wavefront OBJ text: `header` lines as `#` comments, then `v` lines (%.9g),
/// then for each group `g <name>` and its `f` lines (1-based). Deterministic.
std::string formatObj(const Model& model, const std::vector<std::string>& header);

// --- eel (GwtF Fig. 12) ---------------------------------------------------------------------

/// An eel 1 m long along x, head at −x (x = −0.5), tail at +x (x = +0.5): a closed, tapered,
/// laterally flattened body (taller in y than wide in z) with a round head and a thin,
/// fin-like tail. One group "eel". 5712 faces at resolution 1.
Model makeEel(double resolution = 1.0);

/// Parameters of a core::TravellingWave (see core/animation.h for the formula).
struct WaveParams {
  double a0 = 0.0;          ///< amplitude at the head, m
  double a1 = 0.0;          ///< linear envelope coefficient, m
  double a2 = 0.0;          ///< quadratic envelope coefficient, m
  double wavelength = 1.0;  ///< λ, m
  double frequency = 1.0;   ///< f, Hz; positive: the wave runs head → tail (+x)
  double rampTime = 0.0;    ///< smooth start, s
};

/// The recommended anguilliform wave for makeEel: envelope 0.015 m at the head growing to
/// 0.09 m at the tail, λ = 0.75 m, f = 1 Hz, ramp 1 s. Lateral displacement along z. The
/// wave runs to +x, so the eel swims head first (−x).
WaveParams eelWave();

/// A prepared travelling wave along +x with lateral displacement along +z on `rest`.
std::shared_ptr<core::TravellingWave> makeTravellingWave(const geometry::VertexMatrix& rest,
                                                         const WaveParams& params);

// --- sea turtle (GwtF Fig. 1) ---------------------------------------------------------------

/// A hinge of a rigid part: a point on its axis and the unit axis (body frame).
struct Hinge {
  Eigen::Vector3d pivot = Eigen::Vector3d::Zero();  ///< m
  Eigen::Vector3d axis = Eigen::Vector3d::UnitX();  ///< unit
};

/// A sea turtle heading +x (right = +z, up = +y): a flattened, domed shell (group "shell"),
/// a head (group "head"), and four flippers as thin closed slabs: front flippers (about
/// 0.42 m span) "flipper_fl", "flipper_fr", rear flippers (about 0.17 m) "flipper_rl",
/// "flipper_rr". Shell 0.8 m long; 6432 faces at resolution 1.
struct TurtleModel {
  Model model;
  Hinge shoulderLeft, shoulderRight;  ///< flap hinges: through the shoulder, axis +x
  Hinge spanLeft, spanRight;          ///< feathering axes along each front flipper's span
  Hinge hipLeft, hipRight;            ///< rear flipper hinges (paddle), axis +x
  Hinge rearSpanLeft, rearSpanRight;  ///< rear flippers' span axes (trim)
};
TurtleModel makeTurtle(double resolution = 1.0);

/// The flapping stroke of the front flippers. Right flipper: flap φ(t) = Φ sin(2πft) about
/// the shoulder's +x axis (φ > 0 moves the tip down) and, as a child part, feathering
/// ψ(t) = ψ₀ − Ψ cos(2πft + ε) about the span axis (ψ < 0: leading edge down). The flipper
/// is then pitched leading edge down on the downstroke and up on the upstroke, a quarter
/// period ahead of the flap, so the normal force points forward (+x) on both; without
/// feathering (Ψ = 0) the flap is symmetric and gives no thrust. The left side is the mirror
/// image. The rear flippers are held at a pitch `rearTrim` (leading edge down, as elevators:
/// they balance the nose-down moment the domed shell gets in the drag model, so the turtle
/// swims level) and can paddle about +x with amplitude `rearAmplitude`.
struct TurtleStroke {
  double frequency = 1.0;          ///< stroke frequency f, Hz; default 1
  double flapAmplitude = 0.70;     ///< Φ, rad; default 0.70 (40°)
  double featherAmplitude = 0.70;  ///< Ψ, rad; 0 = flap only (no thrust); default 0.70 (40°)
  double featherLead = 0.0;        ///< ε, extra phase of the feathering, rad; default 0
  double featherBias = 0.0;        ///< ψ₀ added to ψ (> 0: leading edge up), rad; default 0
  double rearAmplitude = 0.0;      ///< rear flipper paddle amplitude, rad; default 0
  double rearTrim = -0.5;          ///< rear pitch (< 0: leading edge down), rad; default −0.5
  int keysPerStroke = 16;          ///< keyframes per stroke (Catmull–Rom, looped); default 16
};
std::shared_ptr<core::RigidPartsAnimation> makeTurtleStroke(const TurtleModel& turtle,
                                                            const TurtleStroke& stroke);

// --- zeppelin (GwtF Fig. 13) ----------------------------------------------------------------

/// A zeppelin 3 m long flying +x (nose at +x, right = +z, up = +y): an ellipsoidal hull
/// (group "hull", radii 1.5 × 0.4 × 0.4 m), cruciform tail fins ("fins"), two engine nacelles
/// on pylons ("nacelles"), two 2-blade propellers (0.3 m radius, twisted blades with a
/// constant geometric pitch) behind the nacelles at z = ±0.72 m ("prop_left" at −z,
/// "prop_right" at +z, mirror images) and a rudder in two slabs above and below the stern,
/// hinged at its leading edge about a vertical axis ("rudder"). 9880 faces at
/// resolution 1.
struct ZeppelinModel {
  Model model;
  Hinge propLeft, propRight;  ///< spin axes (+x) through the propeller hubs
  Hinge rudder;               ///< vertical (+y) hinge at the rudder's leading edge
  double propPitch = 0.0;     ///< geometric pitch of the blades, m per revolution
};
ZeppelinModel makeZeppelin(double resolution = 1.0);

/// The zeppelin's controls: the right propeller spins at +`propSpinRate` about +x and the
/// left one at −`propSpinRate` (mirrored pitch), so both push +x and their torques cancel;
/// both spin up smoothly over `propSpinUpTime`. The rudder turns by `rudderAngle` about +y,
/// eased in over `rudderRampTime`: a positive angle moves its trailing edge to +z, the air
/// pushes the stern to −z and the nose turns to +z (right), a negative yaw rate about +y.
struct ZeppelinControls {
  double propSpinRate = 2.0 * 3.141592653589793 * 8.0;  ///< rad/s; default 8 rev/s
  double propSpinUpTime = 0.5;  ///< smooth spin-up from rest, s (0 = instant); default 0.5
  double rudderAngle = 0.0;     ///< rad; default 0
  double rudderRampTime = 1.0;  ///< s (0 = from the start); default 1
};
std::shared_ptr<core::RigidPartsAnimation> makeZeppelinAnimation(const ZeppelinModel& zeppelin,
                                                                 const ZeppelinControls& c);

// --- skinned sea snake (glTF example) -------------------------------------------------------

/// A sea snake 1.2 m long along x (head at −x) with a laterally flattened paddle tail, bound
/// to a chain of `joints.size()` joints (head → tail). Its looping 1 s animation is a
/// travelling wave of joint rotations about y (linear interpolation, 24 keys per cycle)
/// that runs head → tail, so the snake swims head first (−x). The bind pose is the pose at
/// t = 0 (nodes' rest rotations are the t = 0 keys), so the animation starts at rest:
/// evaluate(0) gives the bind-pose mesh. 3040 faces at resolution 1.
struct SkinnedModel {
  Model model;                                        ///< bind-pose mesh, group "snake"
  std::shared_ptr<core::SkinnedAnimation> animation;  ///< rest = model.mesh.V
  std::vector<std::string> nodeNames;                 ///< one per animation node
};
SkinnedModel makeSeaSnake(double resolution = 1.0);

}  // namespace samara::assetgen
