// Gallery (issue 5): coin, propeller, blob, parachute, ellipsoids and the scenes that use them
// (sinking, parachute, air_to_water, Kirchhoff lessons) as core::WorldDefs. No file I/O.
#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "builders.h"
#include "gallery_sinking.h"
#include "geometry/primitives.h"

namespace samara::assetgen {
namespace {

using samara::kPi;
constexpr double kWater = 998.0;      // kg/m³
constexpr double kAir = 1.225;        // kg/m³
constexpr double kSilicone = 1297.4;  // kg/m³, GwtF §7.1 (Fig. 2)

Model single(const std::string& name, const std::string& description, const std::string& group,
             const geometry::TriMesh& mesh) {
  ModelBuilder b(name, description);
  b.add(group, mesh);
  return b.finish();
}

/// A closed cylinder of radius r from p0 to p1 (`segments` around).
geometry::TriMesh rod(const Vec3& p0, const Vec3& p1, double r, int segments) {
  const Vec3 d = p1 - p0;
  geometry::TriMesh m = geometry::makeCylinder(r, d.norm(), segments, 1);
  const Mat3 R =
      Eigen::Quaterniond::FromTwoVectors(Vec3::UnitY(), d.normalized()).toRotationMatrix();
  const Vec3 c = 0.5 * (p0 + p1);
  for (int i = 0; i < m.numVertices(); ++i) m.V.row(i) = (R * m.vertex(i) + c).transpose();
  return m;
}

/// A scene written to scenes/<file>.json (its world named alike) with the header `notes`,
/// stepping `dt` for `duration` s.
GalleryScene newScene(const std::string& file, std::vector<std::string> notes, double dt,
                      double duration) {
  GalleryScene s;
  s.file = file;
  s.notes = std::move(notes);
  s.def.name = file;
  s.def.dt = dt;
  s.def.duration = duration;
  return s;
}

/// Air over water whose level is at 1 m, and a floor at `floorHeight` m.
void waterTank(core::WorldDef* d, double floorHeight) {
  d->fluid.density = kAir;
  d->fluid.water = core::WaterDef{1.0, kWater};
  d->floor = core::FloorDef{floorHeight};
}

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", x);
  return buf;
}

core::BodyDef densityBody(const std::string& name, const geometry::TriMesh& mesh, double rho) {
  core::BodyDef b;
  b.name = name;
  b.mesh = mesh;
  b.mass.mode = core::MassMode::kDensity;
  b.mass.density = rho;
  return b;
}

int ellipsoidSubdivisions(double resolution) { return resolution >= 1.0 ? 4 : 3; }

}  // namespace

Model makeCoin(double radius, double thickness, int segments) {
  return single("coin", "coin: closed disk along y", "coin",
                geometry::makeDisk(radius, thickness, segments));
}

Model makePropeller(double resolution, double pitch) {
  constexpr double kHubR = 0.008, kHubL = 0.014, kR = 0.05;
  const int nu = scaledCount(24, resolution, 6);
  const int nv = scaledCount(8, resolution, 3);
  // Blade along +x: a blade element at radius r moves along e_t = ŷ × x̂ = −ẑ when spinning
  // +y; its chord (trailing → leading edge) is cos θ e_t + sin θ ŷ, tan θ = pitch/(2πr).
  auto mid = [=](double u, double v) -> Vec3 {
    const double r = kHubR + (kR - kHubR) * u;
    const double theta = std::atan2(pitch, 2.0 * kPi * r);
    const double chord = 0.022 - 0.010 * u;
    const Vec3 d = std::cos(theta) * Vec3(0, 0, -1) + std::sin(theta) * Vec3::UnitY();
    return Vec3(r, 0.0, 0.0) + (v - 0.5) * chord * d;
  };
  auto thickness = [](double u, double) { return 0.0025 - 0.001 * u; };
  geometry::TriMesh blades = slab(mid, thickness, nu, nv);
  geometry::appendMesh(&blades, rotated(blades, Vec3::Zero(), Vec3::UnitY(), kPi));
  ModelBuilder b("propeller", "two-blade propeller about +y (radius 0.05 m, pitch " + num(pitch) +
                                  " m/rev): hub and twisted blades");
  b.add("hub", geometry::makeCylinder(kHubR, kHubL, scaledCount(24, resolution, 8), 1));
  b.add("blades", blades);
  return b.finish();
}

Model makeBlob(double radius, int subdivisions) {
  geometry::TriMesh m = geometry::makeSphere(1.0, subdivisions);
  for (int i = 0; i < m.numVertices(); ++i) {
    const Vec3 p = m.vertex(i).normalized();
    const double x = p.x(), y = p.y(), z = p.z();
    const double noise = 0.10 * std::sin(2.0 * x + 1.0) * std::cos(1.7 * y - 0.4) +
                         0.07 * std::sin(3.1 * z + 2.3 * x + 0.5) +
                         0.05 * std::cos(4.3 * y - 3.0 * z + 1.1) +
                         0.03 * std::sin(6.7 * x + 5.1 * y - 4.2 * z) + 0.12 * x * x - 0.06 * y;
    m.V.row(i) = (radius * (1.0 + noise) * p).transpose();
  }
  return single(
      "blob",
      "rock-like blob: icosphere with smooth radial noise, mean radius " + num(radius) + " m",
      "blob", m);
}

ParachuteModel makeParachute(double resolution, bool withLines) {
  constexpr double kRim = 0.5;                       // rim radius, m
  constexpr double kHalfAngle = 55.0 * kPi / 180.0;  // cap half-angle
  const double Rd = kRim / std::sin(kHalfAngle);
  const int ns = 8 * scaledCount(6, resolution, 2);  // segments around (multiple of 8)
  const int nr = scaledCount(12, resolution, 4);     // rings from the apex
  geometry::TriMesh canopy;
  canopy.V.resize(1 + nr * ns, 3);
  canopy.F.resize(ns + 2 * ns * (nr - 1), 3);
  canopy.V.row(0) << 0.0, 0.0, 0.0;
  auto id = [ns](int ring, int k) { return 1 + (ring - 1) * ns + (k % ns); };
  for (int j = 1; j <= nr; ++j) {
    const double th = kHalfAngle * j / nr;
    for (int k = 0; k < ns; ++k) {
      const double ph = 2.0 * kPi * k / ns;
      canopy.V.row(id(j, k)) << Rd * std::sin(th) * std::cos(ph), -Rd * (1.0 - std::cos(th)),
          Rd * std::sin(th) * std::sin(ph);
    }
  }
  int f = 0;
  for (int k = 0; k < ns; ++k) canopy.F.row(f++) << 0, id(1, k + 1), id(1, k);  // normal +y
  for (int j = 1; j < nr; ++j) {
    for (int k = 0; k < ns; ++k) {
      canopy.F.row(f++) << id(j, k), id(j, k + 1), id(j + 1, k + 1);
      canopy.F.row(f++) << id(j, k), id(j + 1, k + 1), id(j + 1, k);
    }
  }
  const double rimY = -Rd * (1.0 - std::cos(kHalfAngle));
  const Vec3 payload(0.0, -1.0, 0.0);
  constexpr double kBox = 0.06;
  geometry::TriMesh lines;
  for (int k = 0; k < 8; ++k) {
    const double ph = 2.0 * kPi * (k + 0.5) / 8.0;  // between canopy vertices
    const Vec3 e(std::cos(ph), 0.0, std::sin(ph));
    const Vec3 top = (kRim - 0.01) * e + Vec3(0, rimY - 0.01, 0);
    const Vec3 bottom = payload + Vec3(0, 0.5 * kBox + 0.01, 0) + 0.02 * e;
    geometry::appendMesh(&lines, rod(top, bottom, 0.002, 6));
  }
  geometry::TriMesh box = geometry::makeBox(Vec3(kBox, kBox, kBox), 2);
  for (int i = 0; i < box.numVertices(); ++i) box.V.row(i) += payload.transpose();
  ModelBuilder b("parachute",
                 std::string("parachute: spherical-cap canopy sheet (rim radius 0.5 m), ") +
                     (withLines ? "8 lines, " : "") + "box payload 1 m below the apex");
  b.add("canopy", canopy);
  if (withLines) b.add("lines", lines);
  b.add("payload", box);
  return {b.finish(), payload};
}

Model makeEllipsoidModel(const std::string& name, const Vec3& radii, int subdivisions) {
  return single(name, "ellipsoid", name, geometry::makeEllipsoid(radii, subdivisions));
}

std::vector<Model> sinkingGalleryModels() {
  return {makePropeller(1.0), makeBlob(), makeParachute(1.0).model};
}

GalleryScene sinkingScene(double resolution) {
  GalleryScene s = newScene(
      "sinking",
      {"Bodies sinking in water (GwtF Fig. 2): an aluminium coin released tilted by 60 degrees",
       "wobbles and zigzags down (a damped oscillation that settles broadside), a silicone",
       "propeller (1297.4 kg/m^3 as in GwtF 7.1) starts to spin about its axis as it sinks (added",
       "mass couples translation and rotation), a granite blob sinks at its terminal speed; all",
       "come to rest on the floor. h = 1/300 s as in GwtF."},
      1.0 / 300.0, 10.0);
  core::WorldDef& d = s.def;
  waterTank(&d, 0.0);
  const int coinSeg = resolution >= 1.0 ? 64 : 32;
  core::BodyDef coin = densityBody("coin", makeCoin(0.0125, 0.002, coinSeg).mesh, 2700.0);
  coin.position = Vec3(-0.15, 0.9, 0.0);
  coin.orientation = Quat(Eigen::AngleAxisd(60.0 * kPi / 180.0, Vec3::UnitZ()));
  s.meshes.push_back({"",
                      "{\"primitive\": \"disk\", \"radius\": 0.0125, \"thickness\": 0.002, "
                      "\"segments\": " +
                          std::to_string(coinSeg) + "}"});
  core::BodyDef prop = densityBody("propeller", makePropeller(resolution).mesh, kSilicone);
  prop.position = Vec3(0.0, 0.9, 0.0);
  s.meshes.push_back({"propeller", ""});
  core::BodyDef blob = densityBody("blob", makeBlob(0.03, resolution >= 1.0 ? 4 : 3).mesh, 2700.0);
  blob.position = Vec3(0.15, 0.9, 0.0);
  s.meshes.push_back({"blob", ""});
  d.bodies = {coin, prop, blob};
  return s;
}

GalleryScene parachuteScene(bool vacuum, double resolution) {
  GalleryScene s = newScene(vacuum ? "parachute_vacuum" : "parachute", {}, 0.002, 5.0);
  if (vacuum) {
    s.notes = {"The parachute of parachute.json in a vacuum (GwtF Fig. 8, left): no drag and no",
               "added mass, it keeps accelerating, v = g t."};
  } else {
    s.notes = {"A payload under a parachute in air (GwtF Fig. 8): after a brief acceleration it",
               "descends at the terminal speed where the canopy's drag balances its weight; the",
               "approach follows v_t tanh(t/tau), tau = v_t/g_eff with the canopy's large added",
               "mass in the inertia. Compare parachute_vacuum.json."};
  }
  core::WorldDef& d = s.def;
  d.fluid.density = vacuum ? 0.0 : kAir;
  const ParachuteModel p = makeParachute(resolution, false);
  core::BodyDef b = densityBody("parachute", p.model.mesh, 1150.0);  // nylon
  b.mass.thickness = 1e-4;
  b.pointMasses.push_back({p.payloadCentre, 0.15});
  b.position = Vec3(0.0, 30.0, 0.0);
  d.bodies = {b};
  s.meshes.push_back({"parachute", ""});
  return s;
}

GalleryScene airToWaterScene(double resolution) {
  GalleryScene s =
      newScene("air_to_water",
               {"Ellipsoids thrown through air plunge into water (GwtF Fig. 7): the fluid density",
                "of each face switches from air to water as it crosses the level, the added mass",
                "and drag jump, the bodies slow down sharply and sink to the floor."},
               0.002, 6.0);
  core::WorldDef& d = s.def;
  waterTank(&d, -1.5);
  const int sub = ellipsoidSubdivisions(resolution);
  const Vec3 radii[3] = {Vec3(0.06, 0.025, 0.025), Vec3(0.05, 0.03, 0.02), Vec3(0.07, 0.02, 0.02)};
  const double tilt[3] = {-30.0, 10.0, -60.0};
  const Vec3 vel[3] = {Vec3(3.0, 2.0, 0.0), Vec3(3.5, 1.0, 0.3), Vec3(2.5, 3.0, -0.3)};
  const Vec3 spin[3] = {Vec3(0, 0, -2.0), Vec3(0, 0.5, 3.0), Vec3(0, 0, 2.5)};
  for (int i = 0; i < 3; ++i) {
    core::BodyDef b = densityBody("ellipsoid" + std::to_string(i + 1),
                                  geometry::makeEllipsoid(radii[i], sub), 1380.0);  // PVC
    b.position = Vec3(-1.5, 2.0, -0.3 + 0.3 * i);
    b.orientation = Quat(Eigen::AngleAxisd(tilt[i] * kPi / 180.0, Vec3::UnitZ()));
    b.velocity = vel[i];
    b.angularVelocity = spin[i];
    d.bodies.push_back(b);
    s.meshes.push_back({"", "{\"primitive\": \"ellipsoid\", \"radii\": [" + num(radii[i].x()) +
                                ", " + num(radii[i].y()) + ", " + num(radii[i].z()) +
                                "], \"subdivisions\": " + std::to_string(sub) + "}"});
  }
  return s;
}

GalleryScene munkScene(double delta, double density) {
  GalleryScene s = newScene(
      "lesson_munk",
      {"Lesson on Kirchhoff's equations 1, the Munk moment: a 4:1:1 ellipsoid launched in",
       "water nearly along its long axis (3 degrees off), gravity off, turns broadside: its",
       "added mass is larger across than along the axis, so the fluid's momentum exerts a",
       "torque that turns it across the flow. Try bodies.0.delta=0 (no added mass: it keeps",
       "pointing along its path). Dense (5000 kg/m^3): at the water's density the drag and",
       "the rotational lift turn it back along its path (try bodies.0.mass.density=998)."},
      0.002, 6.0);
  core::WorldDef& d = s.def;
  d.gravity = Vec3::Zero();  // weightless: only the fluid acts
  d.fluid.density = kWater;
  core::BodyDef b =
      densityBody("ellipsoid", geometry::makeEllipsoid(Vec3(0.2, 0.05, 0.05), 4), density);
  b.orientation = Quat(Eigen::AngleAxisd(3.0 * kPi / 180.0, Vec3::UnitY()));
  b.velocity = Vec3(1.0, 0.0, 0.0);
  if (delta >= 0.0) b.delta = delta;
  d.bodies = {b};
  s.meshes.push_back(
      {"", "{\"primitive\": \"ellipsoid\", \"radii\": [0.2, 0.05, 0.05], \"subdivisions\": 4}"});
  s.lessonJson =
      R"json({"title": "Kirchhoff 1: the Munk moment", "text": "A 4:1:1 ellipsoid (5000 kg/m3) launched in water at 1 m/s nearly along its long axis (3 degrees off), gravity off. Along its axis it drags little water with it, across it a lot: the water's momentum is not parallel to the velocity, and its turning exerts a torque, the Munk moment, that turns the body across its path. Within 4.5 s the long axis stands at 87 deg to the motion, nearly across it, then it swings back part of the way as the drag slows it. Switch on Forces in the Teaching panel to see the Munk torque arrow; set delta to off (no added mass) and restart: the ellipsoid keeps pointing along its path.", "view": {"overlays": ["forces"], "plots": ["angular_momentum", "rotation_speed"], "present_panels": ["plots", "history", "lesson"]}, "checks": [{"body": "ellipsoid", "quantity": "speed", "from": 0.0, "to": 0.0, "value": 1.0, "tolerance": 0.001, "quote": "at 1 m/s"}, {"body": "ellipsoid", "quantity": "axis_velocity_deg", "from": 0.0, "to": 4.5, "value": 87.0, "tolerance": 0.03, "quote": "87 deg"}]})json";
  return s;
}

GalleryScene dzhanibekovScene() {
  GalleryScene s = newScene(
      "lesson_dzhanibekov",
      {"Lesson on Kirchhoff's equations 2, the Dzhanibekov effect: a box 0.3 x 0.2 x 0.1 m",
       "spun about its intermediate axis (y) in a vacuum flips over periodically; the",
       "period follows from the torque-free rigid body's elliptic integral K(k)."},
      0.001, 20.0);
  core::WorldDef& d = s.def;
  d.gravity = Vec3::Zero();
  d.fluid.density = 0.0;
  core::BodyDef b = densityBody("box", geometry::makeBox(Vec3(0.3, 0.2, 0.1), 1), 2700.0);
  b.angularVelocity = Vec3(0.05, 6.0, 0.05);
  d.bodies = {b};
  s.meshes.push_back({"", "{\"primitive\": \"box\", \"size\": [0.3, 0.2, 0.1], \"cells\": 1}"});
  s.lessonJson =
      R"json({"title": "Kirchhoff 2: the Dzhanibekov effect", "text": "A box 0.3 x 0.2 x 0.1 m spun about its intermediate axis in a vacuum (no fluid, no gravity). Rotation about the longest and the shortest axis is stable, about the middle one it is not: the small wobble grows, the box flips over, spins the other way round for a while and flips back, every 4.39 s, as the torque-free rigid body's elliptic integral predicts. Watch the angular momentum plot: it stays constant through every flip, while the rotation speed plot swings.", "view": {"plots": ["angular_momentum", "rotation_speed"], "present_panels": ["plots", "history", "lesson"]}, "checks": [{"body": "box", "quantity": "flip_interval", "from": 0.0, "to": 20.0, "value": 4.385, "tolerance": 0.01, "quote": "every 4.39 s"}]})json";
  return s;
}

GalleryScene addedMassScene() {
  GalleryScene s = newScene(
      "lesson_added_mass",
      {"Lesson on Kirchhoff's equations 3, added mass: a glass marble (2500 kg/m^3) and a",
       "cork ball (240 kg/m^3) released at rest in water start with the accelerations",
       "(rho_s - rho_f)/(rho_s + rho_f/2) g: the water around them must be accelerated too",
       "(half the displaced mass for a sphere). The marble sinks, the cork rises and floats."},
      0.002, 5.0);
  core::WorldDef& d = s.def;
  waterTank(&d, 0.0);
  const geometry::TriMesh sphere = geometry::makeSphere(0.05, 4);
  core::BodyDef glass = densityBody("glass", sphere, 2500.0);
  glass.position = Vec3(-0.15, 0.5, 0.0);
  core::BodyDef cork = densityBody("cork", sphere, 240.0);
  cork.position = Vec3(0.15, 0.5, 0.0);
  d.bodies = {glass, cork};
  const std::string prim = "{\"primitive\": \"sphere\", \"radius\": 0.05, \"subdivisions\": 4}";
  s.meshes = {{"", prim}, {"", prim}};
  s.lessonJson =
      R"json({"title": "Kirchhoff 3: added mass", "text": "A glass marble (2500 kg/m3) and a cork ball (240 kg/m3) released at rest in water. Each must accelerate the water around it as well, half its displaced volume for a sphere, so each starts with (rho_s - rho_f)/(rho_s + rho_f/2) g: the marble sinks at 4.91 m/s2, the cork rises at 10.0 m/s2 (without added mass it would shoot up at three times g). Watch the fall speed plot of the two: the marble settles on the floor, the cork floats up to the surface.", "view": {"plots": ["fall_speed", "kinetic_energy"], "present_panels": ["plots", "history", "lesson"]}, "checks": [{"body": "glass", "quantity": "fall_acceleration", "from": 0.0, "to": 0.01, "value": 4.91, "tolerance": 0.005, "quote": "4.91 m/s2"}, {"body": "cork", "quantity": "fall_acceleration", "from": 0.0, "to": 0.01, "value": -10.0, "tolerance": 0.01, "quote": "10.0 m/s2"}]})json";
  return s;
}

}  // namespace samara::assetgen
