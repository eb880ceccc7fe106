#pragma once
// Gallery (issue 5): bodies sinking in water, a parachute, ellipsoids plunging from air into
// water and three lessons on Kirchhoff's equations. Models as geometry (Model, no file I/O)
// and every scene as a core::WorldDef built in code, so the tests run exactly what
// gallery_sinking.cpp writes to assets/scenes. Body frame: metres, Y up.
//
// `resolution` scales segment counts (1 = the shipped asset; smaller for fast tests).
#include <string>
#include <vector>

#include "assetgen.h"
#include "core/world.h"

namespace samara::assetgen {

// --- models -----------------------------------------------------------------------------------

/// A coin: closed disk of `radius` (m) and `thickness` (m) along y, `segments` around.
/// One group "coin". 4·segments faces.
Model makeCoin(double radius = 0.0125, double thickness = 0.002, int segments = 64);

/// A two-blade propeller spinning about +y: a closed cylindrical hub and two twisted closed
/// blades (constant geometric pitch `pitch` m/rev, radius 0.05 m). Right-handed: spinning
/// +y pushes the water to −y. Groups "hub", "blades". 2612 faces at resolution 1.
Model makePropeller(double resolution = 1.0, double pitch = 0.08);

/// A rock-like closed blob: an icosphere of mean radius `radius` (m) with a smooth,
/// deterministic radial noise (±~20 %) from a fixed sum of low-order waves.
/// 20·4^subdivisions faces. Group "blob".
Model makeBlob(double radius = 0.03, int subdivisions = 4);

/// A parachute: an open spherical-cap canopy sheet (rim radius 0.5 m, half-angle 55°, apex at
/// y = 0) and a closed box payload (6 cm) centred on the axis 1 m below the apex, one rigid
/// body. `withLines` adds 8 suspension lines as thin closed rods (r = 2 mm) from the rim to the
/// payload. The shipped model has none: δ is one number per body (ΣA / Σαℓ), and the thin
/// rods' large curvature would pull it from 0.18 m to 0.039 m and the vertical added mass from
/// 0.28 kg to 0.06 kg. Axisymmetric about y (8-fold). Groups "canopy", ["lines"], "payload".
struct ParachuteModel {
  Model model;
  Vec3 payloadCentre = Vec3::Zero();  ///< body frame, m
};
ParachuteModel makeParachute(double resolution = 1.0, bool withLines = false);

/// An ellipsoid (icosphere scaled to `radii` along x, y, z), group `name`. 20·4^s faces.
Model makeEllipsoidModel(const std::string& name, const Vec3& radii, int subdivisions);

// --- scenes -------------------------------------------------------------------------------------

/// One body's mesh in a scene file: an OBJ written by the generator (`objStem`, the mesh
/// in the WorldDef is the Model's) or a primitive (`primitiveJson`, a JSON object whose
/// primitive mesh equals the WorldDef's).
struct SceneMesh {
  std::string objStem;        ///< meshes/<objStem>.obj, or empty
  std::string primitiveJson;  ///< e.g. {"primitive":"sphere","radius":0.05,"subdivisions":4}
};

/// A scene of the gallery: the WorldDef the tests run and what the file needs besides.
struct GalleryScene {
  std::string file;                ///< scenes/<file>.json
  std::vector<std::string> notes;  ///< comment lines of the header (without "// ")
  core::WorldDef def;
  std::vector<SceneMesh> meshes;  ///< one per body
  std::string lessonJson;         ///< the "lesson" object (JSON text); "" = none
};

/// Water 1 m deep over a floor at 0 (level 1 m): an aluminium coin released tilted, a silicone
/// propeller with its axis vertical, a granite blob; they sink and come to rest on the floor.
/// h = 1/300 s (GwtF §8).
GalleryScene sinkingScene(double resolution = 1.0);
/// Body indices in sinkingScene.
enum SinkingBody { kCoin = 0, kPropeller = 1, kBlob = 2 };

/// The parachute (nylon 1150 kg/m³: canopy 0.1 mm thick, solid payload box, plus 0.15 kg as a
/// point mass at the payload's centre; 0.51 kg in all) released at rest 30 m up in air; `vacuum`:
/// the same in a vacuum (GwtF Fig. 8).
GalleryScene parachuteScene(bool vacuum, double resolution = 1.0);

/// Three ellipsoids (PVC, 1380 kg/m³) thrown through air at 4–6 m/s into water (level 1 m,
/// floor at −1.5 m): per-face density changes at the surface (GwtF Fig. 7).
GalleryScene airToWaterScene(double resolution = 1.0);

/// Lesson 1 (Munk moment): a 4:1:1 ellipsoid (0.4 m long) launched at 1 m/s nearly along its
/// long axis (3° off) in water, gravity off. `density` kg/m³ (default 5000: at 998 the model's
/// flat-plate drag, which grows with the yaw like the Munk moment, wins and the turn stalls at a
/// few degrees). `delta` < 0: auto; ≥ 0 overrides.
GalleryScene munkScene(double delta = -1.0, double density = 5000.0);
/// Lesson 2 (Dzhanibekov): a box 0.3 × 0.2 × 0.1 m spun about its intermediate axis (y) at
/// 6 rad/s with a small perturbation, in a vacuum without gravity.
GalleryScene dzhanibekovScene();
/// Lesson 3 (added mass): a glass marble (2500 kg/m³) and a cork ball (240 kg/m³), released
/// at rest in water: first accelerations (ρ_s − ρ_f)/(ρ_s + ρ_f/2)·g.
GalleryScene addedMassScene();

/// Every model the scenes reference by OBJ (resolution 1), for the writer.
std::vector<Model> sinkingGalleryModels();

}  // namespace samara::assetgen
