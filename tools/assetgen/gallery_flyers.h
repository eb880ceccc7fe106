#pragma once
// Gallery models (issue 5): the autorotating flyers of GwtF §7.2 (Fig. 10, 11), a maple
// seed and the Exploratorium paper copter. Pure geometry and mass: no file I/O
// (gallery_flyers.cpp writes the OBJ and scene files). Body frame: metres, Y up.
#include <optional>
#include <vector>

#include "assetgen.h"
#include "core/body.h"
#include "core/world.h"

namespace samara::assetgen {

// --- maple seed (GwtF Fig. 1, 10) -----------------------------------------------------------

/// A samara: a closed ellipsoidal nut (group "nut") at the root of a cambered, twisted wing
/// (group "wing", an open sheet). The wing spans +x from x = 0 (root) to x = `span`; its
/// straight, thick leading edge lies along the x axis (z = 0) and the chord extends to −z.
/// Each section is cambered (an arc of height `camber`·chord, bulging +y) and pitched by
/// θ(s) = rootPitch + (tipPitch − rootPitch)·s about the leading edge (θ > 0 raises the
/// trailing edge, +y). The nut's centre is at (−0.9·nutRadii.x, 0, −nutOffsetZ), so it just
/// overlaps the wing root.
///
/// Mass: the wing has the areal density `density`·`thickness`, of which the fraction
/// `veinFraction` sits in the thick leading-edge vein (point masses along the leading edge,
/// `veinOffset` behind it) and the rest in the membrane (the sheet, thickness
/// (1 − veinFraction)·`thickness`); the nut's solid has the same `density` and a point mass
/// at its centre brings the nut to `nutMass`.
struct MapleSeedParams {
  double span = 0.019;                           ///< wing length root → tip, m; default 19 mm
  double chord = 0.0065;                         ///< largest chord, m; default 6.5 mm
  double camber = 0.08;                          ///< camber height / chord; default 0.08
  double rootPitch = 0.3;                        ///< θ at the root, rad; default 0.3
  double tipPitch = -0.3;                        ///< θ at the tip, rad; default −0.3 (washout)
  Vec3 nutRadii = Vec3(0.0035, 0.0018, 0.0026);  ///< nut half-axes, m
  double nutOffsetZ = 0.0015;  ///< nut centre behind the leading edge (−z), m; default 1.5 mm
  double nutMass = 16e-6;      ///< nut mass (solid + point mass), kg; default 16 mg
  double density = 100.0;      ///< wing and nut material, kg/m³; default 100
  double thickness = 0.0005;   ///< wing thickness (mass), m; default 0.5 mm (0.05 kg/m²)
  double veinFraction = 0.9;   ///< share of the wing mass in the leading-edge vein; default 0.9
  double veinOffset = 0.0004;  ///< vein behind the leading edge (−z), m; default 0.4 mm
  int veinPoints = 20;         ///< point masses along the vein; default 20
  double veinTaper = 0.5;      ///< vein mass per length ∝ (1 − s)^veinTaper; default 0.5
  int spanCells = 40;          ///< wing cells along the span at resolution 1; default 40
  int chordCells = 10;         ///< wing cells along the chord at resolution 1; default 10
  int nutSubdivisions = 3;     ///< icosphere level of the nut at resolution 1; default 3
};

/// A ready-to-simulate seed: the model and its mass definition.
struct MapleSeed {
  Model model;                        ///< groups "nut", "wing"
  core::MassDef mass;                 ///< density + thickness
  core::PointMass nutPoint;           ///< the rest of the nut's mass at its centre
  std::vector<core::PointMass> vein;  ///< the leading-edge vein's mass
  double nutSolidMass = 0.0;          ///< density × nut volume, kg
  double wingMass = 0.0;              ///< membrane + vein, kg
  Vec3 nutCentre = Vec3::Zero();      ///< body frame, m
};

/// Builds the seed; `resolution` scales the wing's cell counts (and lowers the nut's
/// subdivision level below 0.75). Throws std::invalid_argument when `nutMass` is below the
/// solid nut's own mass.
MapleSeed makeMapleSeed(const MapleSeedParams& params = {}, double resolution = 1.0);

/// A body definition of the seed released at rest at `position` (body origin), rotated by
/// `orientation`.
core::BodyDef mapleSeedBody(const MapleSeed& seed, const Vec3& position,
                            const Quat& orientation = Quat::Identity());

/// The maple_seed scene: the default seed released at rest, wing tip raised by 17° (0.3 rad
/// about z), 10 m up in still air (ρ = 1.225 kg/m³), no floor, h = 1 ms, 6 s. With
/// `params`/`resolution` other seeds fly in the same world.
///
/// `delta` is the seed's δ (PHYSICS.md §2): the scene uses the automatic δ (std::nullopt;
/// 1.34 mm for this seed, 1.38 mm for the wing alone), i.e. the local added mass is on.
/// The seed is built for it: most of the wing's mass in the leading-edge vein keeps the
/// centre of mass ahead of the wing's effective centre of pressure, which the added mass's
/// Munk moment moves forward of the mid-chord. δ = 0 switches the added mass off (then this
/// seed descends at 1.5 m/s and, with a doubled nut, tumbles; see
/// tests/gallery/test_gallery_flyers.cpp).
constexpr double kMapleSeedDt = 0.001;      ///< s
constexpr double kMapleSeedDuration = 6.0;  ///< s
constexpr double kMapleSeedHeight = 10.0;   ///< release height of the body origin, m
constexpr double kMapleSeedTilt = 0.3;      ///< release tilt about z, rad
core::WorldDef mapleSeedWorld(const MapleSeedParams& params = {}, double resolution = 1.0,
                              std::optional<double> delta = std::nullopt);

// --- paper copter (GwtF Fig. 11) -------------------------------------------------------------

/// The Exploratorium roto-copter folded from a 4 cm × 16 cm strip of paper (120 µm,
/// 0.5 g): the upper `bladeLength` is cut down the middle into two blades 2 cm wide, folded
/// at y = 0 to opposite sides (the blade at x < 0 towards +z, the one at x > 0 towards −z
/// when `mirrored` is false), each raised by `droop` above the horizontal. Below the fold
/// the body (`bodyLength` of the strip) has its 1 cm side strips folded in by `sideFold`
/// (π = flat onto the centre panel) and a paper clip (a point mass) near the bottom.
/// Each blade carries a pitch `bladePitch` about its span (twist of the paper at the fold),
/// of opposite sense on the two blades so both have the same handedness.
struct PaperCopterParams {
  double width = 0.04;             ///< strip width, m; default 4 cm
  double length = 0.16;            ///< strip length, m; default 16 cm
  double bladeLength = 0.07;       ///< length of each blade, m; default 7 cm
  double bodyLength = 0.09;        ///< strip below the fold (the folded body), m; default 9 cm
  double droop = 0.1;              ///< blade raised above horizontal (coning), rad; default 0.1
  double bladePitch = 0.08;        ///< blade pitch about its span, rad; default 0.08
  double sideFold = 2.4;           ///< fold angle of the body's side strips, rad; default 2.4
  double paperMass = 0.0005;       ///< kg; default 0.5 g (GwtF §7.2)
  double paperThickness = 120e-6;  ///< m; default 120 µm
  double clipMass = 0.001;         ///< paper clip, kg; default 1 g
  bool mirrored = false;           ///< mirror the blade folds (reverses the spin)
  bool flat = false;               ///< blades left unfolded (the plain strip's top, no spin)
  /// Pitch the second blade the other way: the two blades' torques cancel and the copter
  /// does not spin (a control with the same paper, shape and mass).
  bool counterPitch = false;
  int cellsPerCm = 4;  ///< grid cells per cm at resolution 1; default 4
};

struct PaperCopter {
  Model model;           ///< groups "blades", "body"
  core::MassDef mass;    ///< density + thickness of the paper
  core::PointMass clip;  ///< the paper clip
};

PaperCopter makePaperCopter(const PaperCopterParams& params = {}, double resolution = 1.0);

core::BodyDef paperCopterBody(const PaperCopter& copter, const Vec3& position,
                              const Quat& orientation = Quat::Identity());

/// The paper_copter scene: the copter released at rest, upright, 12 m up in still air, no
/// floor, h = 1 ms, 6 s.
constexpr double kPaperCopterDt = 0.001;      ///< s
constexpr double kPaperCopterDuration = 6.0;  ///< s
constexpr double kPaperCopterHeight = 12.0;   ///< m
core::WorldDef paperCopterWorld(const PaperCopterParams& params = {}, double resolution = 1.0);

}  // namespace samara::assetgen
