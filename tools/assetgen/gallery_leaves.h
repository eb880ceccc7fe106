#pragma once
// Gallery models (issue 5): falling leaves (GwtF §7.2, Fig. 9) and falling thin plates
// (the four regimes of Smith 1971, Field et al. 1997, Andersen et al. 2005; Xie–Miyata
// 2015 §3). Pure geometry, World definitions and measurements: no file I/O
// (gallery_leaves.cpp writes the files). Body frame: metres, Y up.
#include <optional>
#include <string>
#include <vector>

#include "assetgen.h"
#include "core/gusts.h"
#include "core/world.h"

namespace samara::assetgen {

// --- leaves ---------------------------------------------------------------------------------

enum class LeafShape {
  kBeech,   ///< oval (elliptic, pointed tip), 7 cm × 4.2 cm
  kMaple,   ///< palmate, five pointed lobes, about 9 cm across
  kWillow,  ///< long and narrow (lanceolate), 10 cm × 1.8 cm
};

/// Leaf material: 500 kg/m³ × 0.4 mm = 0.2 kg/m² for the blade (an open sheet); the stem is
/// a thin closed part of the same density.
inline constexpr double kLeafDensity = 500.0;     ///< kg/m³
inline constexpr double kLeafThickness = 0.0004;  ///< m (blade areal density 0.2 kg/m²)

/// A leaf: the blade as one open sheet (group "blade") lying roughly in the body x-z plane,
/// midrib along +x (tip at +x), cupped across the midrib (edges down by `camber`) and curled
/// along it (tip up by `curl`); and a stem (group "stem"), a thin closed slab (1.6 mm ×
/// 1.2 mm) running from the blade's base out along −x. Body origin at the blade's
/// outline centre. `resolution` scales the segment counts (1 = the shipped asset).
Model makeLeaf(LeafShape shape, double resolution = 1.0);

/// Resolution of the shipped leaf meshes (assets/meshes/leaf_*.obj): 923, 1508 and 1042
/// faces; the fall (time, drift, tilt) agrees with resolution 1 to about 1 %.
inline constexpr double kShippedResolution = 0.7;

/// File stem of the shape: "leaf_beech", "leaf_maple", "leaf_willow".
std::string leafName(LeafShape shape);

/// The comment lines of a leaf's OBJ file: the asset (its description plus `note`), the
/// generator source file `source` (under tools/assetgen), units, groups and material.
std::vector<std::string> leafObjHeader(const Model& leaf, const std::string& note,
                                       const std::string& source);

/// A leaf body with the leaf material (density kLeafDensity, sheet thickness
/// kLeafThickness), δ from the mesh, released at rest.
core::BodyDef leafBody(const Model& leaf, const std::string& name, const Vec3& position,
                       const Quat& orientation);

/// The leaves side by side 0.4 m apart along x released at rest from 4 m with small
/// different tilts (15°, −20°, 25° about z, then 10° about x), in air (1.225 kg/m³) with a
/// uniform `wind` (m/s) and optional gusts, above a floor at 0; h = 2 ms, 6 s.
core::WorldDef leavesWorld(const std::vector<Model>& leaves, const Vec3& wind,
                           const std::optional<core::GustDef>& gusts);

/// The gust field of the shipped "leaves_gusts" scene: 0.6 m/s RMS, period 1.5 s, length
/// 1 m, seed 7.
core::GustDef leafGusts();

/// What a falling body did (the leaf checks), from its COM and orientation sampled every
/// step until its COM has dropped by `drop` (or the run ends).
struct FallRecord {
  double fallTime = 0.0;      ///< s to drop by `drop` (the run's length if it did not), s
  bool reached = false;       ///< true if it dropped by `drop` within the run
  double meanDrift = 0.0;     ///< horizontal COM displacement along the wind direction, m
  double lateralSwing = 0.0;  ///< peak-to-peak horizontal COM deviation from a straight
                              ///< line fit over time (both horizontal axes), m
  int tiltSignChanges = 0;    ///< sign changes of the blade's tilt (body y axis tipping
                              ///< towards ±x and ±z, counted with 2° hysteresis)
  double maxTiltDeg = 0.0;    ///< largest tilt of the blade normal from vertical, deg
};

/// Runs `world` for at most `duration` seconds, recording every body until its COM has
/// dropped by `drop` metres (the run stops when all have). `windDir` is the unit horizontal
/// direction for meanDrift. One record per body.
std::vector<FallRecord> recordFalls(core::World* world, double drop, double duration,
                                    const Vec3& windDir);

// --- falling plates -------------------------------------------------------------------------

/// The dimensionless moment of inertia of a thin plate of density ρ_p, thickness t and
/// width (chord) L in a fluid of density ρ_f, in the 2D strip form of Smith (1971) and
/// Belmonte et al. (1998): I* = ρ_p t / (ρ_f L). (Field et al. 1997 use the disk form
/// π ρ_p t / (64 ρ_f d).)
double plateIStar(double plateDensity, double thickness, double fluidDensity, double chord);

enum class FallRegime { kSteady, kFluttering, kTumbling, kChaotic };
const char* regimeName(FallRegime r);

/// Measured from the unwrapped pitch θ(t) of a plate (its chord direction, body x, in the
/// world x-y plane) over the second half of a run:
/// - tumbling: θ turns by at least a full turn (360°) and moves one way (≥ 90 % of the
///   sampled increments have the sign of the net rotation);
/// - steady: the peak-to-peak swing of θ over the last quarter is below 2° (the tilt
///   decayed to a constant; `meanTiltDeg` tells broadside (0) from an edgewise glide);
/// - fluttering: bounded swing (|θ − mean| < 90°) that still oscillates (≥ 2 crossings of
///   the mean over the second half);
/// - chaotic: anything else (excursions past 90° without steady rotation).
struct TiltStats {
  FallRegime regime = FallRegime::kSteady;
  double amplitudeDeg = 0.0;      ///< half the peak-to-peak swing of θ, second half, deg
  double lateAmplitudeDeg = 0.0;  ///< the same over the last quarter, deg
  double meanTiltDeg = 0.0;       ///< mean θ over the last quarter, wrapped to (−90, 90], deg
  double netRotationDeg = 0.0;    ///< θ(end) − θ(middle), deg
  int meanCrossings = 0;          ///< crossings of the mean, second half
};
TiltStats classifyTilt(const std::vector<double>& thetaRad);

/// Pitch of a plate: angle of its body x axis in the world x-y plane, rad, in (−π, π].
double platePitch(const Quat& q);

/// A plate's pitch sampled every dt (rad, unwrapped) in the vertical plane it swings in,
/// independent of its heading: the angle of its normal (body y) from the vertical, signed
/// along the swing's horizontal axis (the principal axis of the normal's horizontal part,
/// averaged over kSwingTime). A plate that zigzags while its swing plane turns slowly about
/// the vertical, or that turns about its own normal as it swings, reads as fluttering, not as
/// the half turns platePitch shows; planar motion about z gives platePitch itself.
class PitchTracker {
 public:
  static constexpr double kSwingTime = 1.0;  ///< s
  double sample(const Quat& q, double dt);

 private:
  Eigen::Matrix2d cov_ = Eigen::Matrix2d::Zero();
  Eigen::Vector2d axis_{1.0, 0.0};  ///< world (x, z): the release tilt's axis is x
  double theta_ = 0.0;
  bool started_ = false;
};

/// A row of square L × L plates (open sheets, `cells` × `cells` cells) of density
/// `plateDensity`, one per I* (thickness t = I* ρ_f L / ρ_p), side by side `spacing` apart
/// along z at height `height` above a floor at 0, released at rest pitched by `releaseDeg`
/// about z (the chord, body x, tilts up), in a fluid of density `fluidDensity`.
struct PlateSweep {
  double fluidDensity = 1.225;   ///< kg/m³; default 1.225
  double plateDensity = 1000.0;  ///< kg/m³; default 1000
  double chord = 0.1;            ///< L, m; default 0.1
  double aspect = 1.0;           ///< span (body z) / chord; default 1 (square)
  double releaseDeg = 20.0;      ///< initial pitch, deg; default 20
  double duration = 12.0;        ///< s; default 12
  double dt = 0.002;             ///< s; default 0.002
  double height = 10.0;          ///< release height, m; default 10
  double spacing = 0.3;          ///< distance between plates along z, m; default 0.3
  int cells = 12;                ///< cells along the chord (span: cells × aspect); default 12
  std::vector<double> iStars;    ///< the I* values swept
  std::shared_ptr<const core::FluidModel> model;  ///< null: the default (samara)
};
core::WorldDef plateWorld(const PlateSweep& sweep, const std::string& name);

/// Result per plate: the regime and the numbers behind it.
struct PlateResult {
  double iStar = 0.0;
  double thickness = 0.0;  ///< m
  TiltStats tilt;
  double fallSpeed = 0.0;   ///< mean COM fall speed over the last quarter, m/s
  double drift = 0.0;       ///< final horizontal COM distance from the release point, m
  double glideSpeed = 0.0;  ///< horizontal COM speed over the last quarter, m/s
};

/// Runs the sweep (all plates in one World) and classifies each plate. Empty on a failed
/// step (the message in *error).
std::vector<PlateResult> runPlateSweep(const PlateSweep& sweep, std::string* error = nullptr);

/// The sweeps of the shipped scenes falling_plates_air / falling_plates_water.
PlateSweep airPlates();
PlateSweep waterPlates();

}  // namespace samara::assetgen
