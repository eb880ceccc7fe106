// Gallery checks (issue 5): bodies sinking in water (GwtF Fig. 2), a parachute (Fig. 8),
// ellipsoids plunging from air into water (Fig. 7) and three lessons on Kirchhoff's
// equations (Munk moment, Dzhanibekov flip, first acceleration with added mass). Every
// reference value is computed from the model itself (its mesh, mass, 𝒦 and drag law), never
// hard-coded; the scenes are the ones gallery_sinking.cpp writes to assets/scenes.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <vector>

#include "core/gwtf_model.h"
#include "core/world.h"
#include "gallery_sinking.h"
#include "geometry/mass_properties.h"
#include "geometry/primitives.h"
#include "geometry/topology.h"
#include "io/scene.h"

using namespace samara;
namespace ag = samara::assetgen;

namespace {

using samara::kPi;

/// Lowest test resolution that keeps the numbers within ~1 % of the shipped scene.
constexpr double kRes = 0.5;

/// A WorldDef with only body `i` of `def` (bodies never interact).
core::WorldDef only(const core::WorldDef& def, int i) {
  core::WorldDef d = def;
  d.bodies = {def.bodies[static_cast<size_t>(i)]};
  return d;
}

void stepTo(core::World* w, double t) {
  while (w->time() < t - 1e-9) {
    const core::StepReport r = w->step();
    REQUIRE(r.ok());
  }
}

/// Closed volume and one-sided sheet area of a mesh.
void volumeAndSheet(const geometry::TriMesh& mesh, double* volume, double* sheetArea) {
  const geometry::Topology topo = geometry::buildTopology(mesh);
  *volume = 0.0;
  *sheetArea = 0.0;
  for (const geometry::Part& p : topo.parts) {
    if (p.kind == geometry::PartKind::kClosed) {
      *volume += std::abs(geometry::partVolume(mesh, p));
    } else {
      *sheetArea += geometry::partArea(mesh, p);
    }
  }
}

/// World fluid force of body 0's own model (its whole law: pressure, friction, circulation,
/// edge drag) on the body translating with world velocity `v` (no rotation) at orientation
/// `q` and angular velocity `omega` (world), at its current position (in water or air as it
/// is now).
Vec3 dragForce(const core::World& w, const Quat& q, const Vec3& v,
               const Vec3& omega = Vec3::Zero()) {
  core::FluidWrenchQuery query;
  query.q = q;
  query.velocity = v;
  query.omega = omega;
  query.t = w.time();
  return w.fluidWrench(0, query).force;
}

/// Terminal speed implied by the model's law for a body of net weight `weightAlongDir` (N,
/// its component along `dir`) moving along the unit direction `dir` at orientation `q`: the
/// speed v at which the force along −dir, D(v) = −F(v dir)·dir, equals it. D rises
/// monotonically with v (pressure ∝ v², friction ∝ v^1.5 and v, edge drag ∝ v²; the
/// circulation is perpendicular to the flow and does no work), so bisection finds it.
double terminalSpeed(const core::World& w, const Quat& q, const Vec3& dir, double weightAlongDir,
                     const Vec3& omega = Vec3::Zero()) {
  auto along = [&](double v) { return -dragForce(w, q, v * dir, omega).dot(dir); };
  double lo = 0.0, hi = 1.0;
  while (along(hi) < weightAlongDir) hi *= 2.0;
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (along(mid) < weightAlongDir ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

/// Newton's second law with the added mass for body 0 of *w at its current state: the
/// residual |dP/dt − F − W| / |W|, P the world momentum of the body and its added mass
/// (central difference over one step either side: pPrev is P one step back, and w steps
/// once), F the fluid force of the model's law at the state, W the net weight (down).
/// Where a body also turns (the circulation's lift, a tumble), the force and the speed
/// vary, and only this balance, not D(v) = W, holds at every instant.
double momentumBalance(core::World* w, const Vec3& pPrev, double netWeight, Vec3* force) {
  const core::BodyDiagnostics d = w->diagnostics(0);
  *force = dragForce(*w, d.q, d.velocity, d.omega);
  const double h = w->definition().dt;
  REQUIRE(w->step().ok());
  const Vec3 dPdt = (w->diagnostics(0).linearMomentum - pPrev) / (2.0 * h);
  return (dPdt - *force - Vec3(0.0, -netWeight, 0.0)).norm() / netWeight;
}

/// Angle (rad) of the body's axis `axisBody` to the world up, signed by its x component.
double tiltX(const Quat& q, const Vec3& axisBody) {
  const Vec3 a = q * axisBody;
  return std::atan2(a.x(), a.y());
}

/// K(k) by the arithmetic–geometric mean: K = π / (2 AGM(1, √(1 − k²))).
double ellipticK(double k) {
  double a = 1.0, b = std::sqrt(1.0 - k * k);
  for (int i = 0; i < 60 && std::abs(a - b) > 1e-16 * a; ++i) {
    const double an = 0.5 * (a + b);
    b = std::sqrt(a * b);
    a = an;
  }
  return kPi / (2.0 * a);
}

}  // namespace

// --- models -------------------------------------------------------------------------------------

TEST_CASE("Sinking gallery models are valid closed or sheet meshes", "[gallery][sinking]") {
  const ag::Model coin = ag::makeCoin();
  const ag::Model prop = ag::makePropeller();
  const ag::Model blob = ag::makeBlob();
  const ag::ParachuteModel para = ag::makeParachute();
  const ag::Model ell = ag::makeEllipsoidModel("e", Vec3(0.2, 0.05, 0.05), 4);
  for (const ag::Model* m : {&coin, &prop, &blob, &para.model, &ell}) {
    INFO(m->name << ": " << m->mesh.numFaces() << " faces");
    geometry::TriMesh mesh = m->mesh;
    const geometry::Topology topo = geometry::buildTopology(mesh);  // throws if invalid
    CHECK(geometry::orientClosedPartsOutward(&mesh, topo) == 0);    // already outward
    for (const geometry::Part& p : topo.parts) {
      if (p.kind == geometry::PartKind::kClosed) CHECK(geometry::partVolume(mesh, p) > 0.0);
    }
  }
  // Only the canopy is an open sheet; lines, payload, hub and blades are closed.
  const geometry::Topology pt = geometry::buildTopology(para.model.mesh);
  int sheets = 0;
  for (const geometry::Part& p : pt.parts) sheets += p.kind == geometry::PartKind::kSheet;
  CHECK(sheets == 1);
  CHECK(pt.parts.size() == 1 + 1);
  const ag::ParachuteModel lined = ag::makeParachute(1.0, true);
  CHECK(geometry::buildTopology(lined.model.mesh).parts.size() == 1 + 8 + 1);
  // δ is one number per body: thin lines (large curvature) would shrink the canopy's added mass.
  auto delta = [](const geometry::TriMesh& m) {
    geometry::FaceGeometry geo;
    geometry::computeFaceGeometry(m, &geo);
    return geometry::computeDelta(m, geometry::buildTopology(m), geo);
  };
  const double d0 = delta(para.model.mesh), d1 = delta(lined.model.mesh);
  WARN("parachute delta without lines " << d0 << " m, with 8 lines " << d1 << " m ("
                                        << lined.model.mesh.numFaces() << " faces)");
  CHECK(d1 < 0.6 * d0);
  CHECK(geometry::buildTopology(prop.mesh).parts.size() == 3);
  WARN("faces: coin " << coin.mesh.numFaces() << ", propeller " << prop.mesh.numFaces() << ", blob "
                      << blob.mesh.numFaces() << ", parachute " << para.model.mesh.numFaces()
                      << ", ellipsoid " << ell.mesh.numFaces());
}

TEST_CASE("Shipped sinking-gallery scenes match the code that generates them",
          "[gallery][sinking]") {
  const std::filesystem::path dir = std::filesystem::path(SAMARA_SOURCE_DIR) / "assets/scenes";
  const std::vector<ag::GalleryScene> scenes = {ag::sinkingScene(),       ag::parachuteScene(false),
                                                ag::parachuteScene(true), ag::airToWaterScene(),
                                                ag::munkScene(),          ag::dzhanibekovScene(),
                                                ag::addedMassScene()};
  for (const ag::GalleryScene& s : scenes) {
    const std::string path = (dir / (s.file + ".json")).string();
    INFO(path);
    REQUIRE(std::filesystem::exists(path));
    const core::WorldDef def = io::loadScene(path);
    REQUIRE(def.bodies.size() == s.def.bodies.size());
    CHECK(def.dt == Approx(s.def.dt).epsilon(1e-8));
    CHECK(def.fluid.density == s.def.fluid.density);
    CHECK(def.fluid.water.has_value() == s.def.fluid.water.has_value());
    CHECK(def.floor.has_value() == s.def.floor.has_value());
    const core::World a(def);
    const core::World b(s.def);
    for (int i = 0; i < a.numBodies(); ++i) {
      CHECK(a.bodyDef(i).name == b.bodyDef(i).name);
      CHECK(a.info(i).faces == b.info(i).faces);
      CHECK(a.info(i).mass == Approx(b.info(i).mass).epsilon(1e-6));
      CHECK(a.info(i).delta == Approx(b.info(i).delta).epsilon(1e-6));
      CHECK((a.diagnostics(i).com - b.diagnostics(i).com).norm() < 1e-6);
    }
  }
}

// --- sinking (GwtF Fig. 2) -------------------------------------------------------------------

TEST_CASE("Sinking: a coin wobbles and zigzags as it sinks, then rests on the floor",
          "[gallery][sinking]") {
  const ag::GalleryScene s = ag::sinkingScene(kRes);
  core::World w(only(s.def, ag::kCoin));
  const double x0 = w.diagnostics(0).com.x();
  // Tilt of the coin's axis (body y) and lateral COM position while it sinks (first 1.5 s).
  int tiltSignChanges = 0, lateralReversals = 0;
  double lastTilt = tiltX(w.diagnostics(0).q, Vec3::UnitY());
  double lastVx = 0.0, xMin = x0, xMax = x0, maxTiltAfterFirstSwing = 0.0;
  while (w.time() < 1.5) {
    REQUIRE(w.step().ok());
    const core::BodyDiagnostics d = w.diagnostics(0);
    const double tilt = tiltX(d.q, Vec3::UnitY());
    if (std::abs(tilt) > 1.0 * kPi / 180.0) {  // ignore the settled, sub-degree tail
      if (tilt * lastTilt < 0.0) {
        ++tiltSignChanges;
      }
      lastTilt = tilt;
    }
    if (tiltSignChanges >= 1)
      maxTiltAfterFirstSwing = std::max(maxTiltAfterFirstSwing, std::abs(tilt));
    if (std::abs(d.velocity.x()) > 1e-3) {
      if (d.velocity.x() * lastVx < 0.0) ++lateralReversals;
      lastVx = d.velocity.x();
    }
    xMin = std::min(xMin, d.com.x());
    xMax = std::max(xMax, d.com.x());
  }
  const double sinkSpeed = w.diagnostics(0).fallSpeed;
  INFO("tilt sign changes " << tiltSignChanges << ", lateral reversals " << lateralReversals
                            << ", lateral range " << (xMax - xMin) * 1000 << " mm, largest tilt "
                            << "after the first swing " << maxTiltAfterFirstSwing * 180 / kPi
                            << " deg, sink speed at 1.5 s " << sinkSpeed << " m/s");
  CHECK(tiltSignChanges >= 3);        // it rocks from side to side
  CHECK(lateralReversals >= 2);       // and zigzags sideways
  CHECK(xMax - xMin > 0.5 * 0.0125);  // by more than half its radius
  CHECK(maxTiltAfterFirstSwing > 20.0 * kPi / 180.0);
  CHECK(sinkSpeed > 0.05);
  stepTo(&w, s.def.duration);
  const core::BodyDiagnostics d = w.diagnostics(0);
  INFO("final: height " << d.com.y() << " m, speed " << d.velocity.norm() << " m/s, |omega| "
                        << d.omega.norm() << " rad/s");
  CHECK(d.com.y() < 0.01);  // on the floor (at 0)
  CHECK(d.velocity.norm() < 1e-3);
  CHECK(d.omega.norm() < 1e-2);
}

TEST_CASE("Sinking: a propeller starts to spin about its axis through added-mass coupling",
          "[gallery][sinking]") {
  const ag::GalleryScene s = ag::sinkingScene(kRes);
  core::WorldDef def = only(s.def, ag::kPropeller);
  core::World w(def);
  core::WorldDef early = def;  // tiny steps for the first instants
  early.dt = 1e-4;
  // Released at rest with zero momentum; in the first steps drag (∝ v²) is negligible and
  // gravity and buoyancy act through the axis, so the momentum is μ = (0, F t) and the
  // velocity Y = 𝒦⁻¹μ: the spin per sinking speed is (𝒦⁻¹)_{ω_y v_y} / (𝒦⁻¹)_{v_y v_y}.
  const Mat6 Kinv = w.info(0).kirchhoff.inverse();
  const double predictedRatio = Kinv(1, 4) / Kinv(4, 4);
  core::World e(early);
  stepTo(&e, 5 * early.dt);
  const core::BodyDiagnostics d0 = e.diagnostics(0);
  const double ratio = d0.spinRate / d0.velocity.y();
  std::vector<double> spin;
  for (double t : {0.05, 0.1, 0.2, 0.4, 0.8}) {
    stepTo(&w, t);
    spin.push_back(w.diagnostics(0).spinRate);
  }
  INFO("spin/vy after 5 steps " << ratio << " rad/m, from K " << predictedRatio
                                << "; spin at 0.05, 0.1, 0.2, 0.4, 0.8 s: " << spin[0] << " "
                                << spin[1] << " " << spin[2] << " " << spin[3] << " " << spin[4]
                                << " rad/s, sink speed " << w.diagnostics(0).fallSpeed);
  CHECK(std::abs(predictedRatio) > 1.0);  // 𝒦 couples the axial translation and spin
  CHECK(ratio == Approx(predictedRatio).epsilon(0.01));
  for (size_t k = 1; k < spin.size(); ++k) {
    CHECK(std::abs(spin[k]) >= std::abs(spin[k - 1]) * 0.999);  // spins up monotonically
  }
  CHECK(std::abs(spin.back()) > 2.0);  // about 0.7 rev/s when steady
  // Without added mass (δ = 0) the body inertia alone does not couple them (COM on the axis).
  early.bodies[0].delta = 0.0;
  core::World v(early);
  stepTo(&v, 5 * early.dt);
  const core::BodyDiagnostics dv = v.diagnostics(0);
  INFO("delta = 0: spin/vy after 5 steps " << dv.spinRate / dv.velocity.y());
  CHECK(std::abs(dv.spinRate / dv.velocity.y()) < 0.01 * std::abs(ratio));
  stepTo(&w, s.def.duration);
  const core::BodyDiagnostics d = w.diagnostics(0);
  INFO("final: height " << d.com.y() << " m, speed " << d.velocity.norm() << " m/s, |omega| "
                        << d.omega.norm() << " rad/s");
  CHECK(d.com.y() < 0.03);
  CHECK(d.velocity.norm() < 1e-3);
  CHECK(d.omega.norm() < 1e-2);
}

TEST_CASE("Sinking: a blob sinks at the terminal speed of its own drag, then rests",
          "[gallery][sinking]") {
  const ag::GalleryScene s = ag::sinkingScene(kRes);
  const core::WorldDef def = only(s.def, ag::kBlob);
  core::World w(def);
  const double rhoW = def.fluid.water->density;
  double volume = 0.0, sheet = 0.0;
  volumeAndSheet(def.bodies[0].mesh, &volume, &sheet);
  const double netWeight = (w.info(0).mass - rhoW * volume) * 9.81;
  stepTo(&w, 0.8 - def.dt);  // about 4 time constants v_t/g_eff, 0.45 m below the start
  const Vec3 pPrev = w.diagnostics(0).linearMomentum;
  REQUIRE(w.step().ok());
  const core::BodyDiagnostics d = w.diagnostics(0);
  const Vec3 dir = d.velocity.normalized();
  const double vPred = terminalSpeed(w, d.q, dir, netWeight * -dir.y(), d.omega);
  Vec3 force;
  const double residual = momentumBalance(&w, pPrev, netWeight, &force);
  INFO("at 0.8 s: speed " << d.velocity.norm() << " m/s (direction " << dir.transpose()
                          << "), drag balance " << vPred << " m/s; fluid force "
                          << force.transpose() << " N against a net weight " << netWeight
                          << " N; |dP/dt - F - W| / W = " << residual << "; |omega| "
                          << d.omega.norm() << ", height " << d.com.y());
  CHECK(d.com.y() > 0.1);  // still sinking
  CHECK(d.velocity.norm() == Approx(vPred).epsilon(0.01));
  CHECK(residual < 0.03);
  stepTo(&w, s.def.duration);
  const core::BodyDiagnostics e = w.diagnostics(0);
  INFO("final: height " << e.com.y() << " m, speed " << e.velocity.norm() << " m/s");
  CHECK(e.com.y() < 0.04);
  CHECK(e.velocity.norm() < 1e-3);
}

// --- parachute (GwtF Fig. 8) -------------------------------------------------------------------

TEST_CASE("Parachute: terminal velocity from its own drag, tanh approach, vacuum keeps falling",
          "[gallery][sinking][parachute]") {
  const ag::GalleryScene s = ag::parachuteScene(false, kRes);
  const core::WorldDef& def = s.def;
  core::World w(def);
  const core::BodyInfo info = w.info(0);
  const double g = 9.81, rho = def.fluid.density;
  double volume = 0.0, sheet = 0.0;
  volumeAndSheet(def.bodies[0].mesh, &volume, &sheet);
  // Net weight: gravity minus buoyancy of the closed parts and of the canopy sheet (ρ t A).
  const double W = (info.mass - rho * (volume + def.bodies[0].mass.thickness * sheet)) * g;
  // Broadside drag of the upright configuration falling straight down: D = C v².
  const double vt = terminalSpeed(w, Quat::Identity(), Vec3(0, -1, 0), W);
  // Effective inertia for a vertical translation: 𝒦_{v_y v_y} = m + added mass (the 8-fold
  // symmetric body does not couple v_y to the other components: checked), so
  // (m + m_a) dv/dt = W − C v², v = v_t tanh(t/τ), τ = v_t / g_eff, g_eff = W / (m + m_a).
  const Mat6& K = info.kirchhoff;
  for (int i = 0; i < 6; ++i) {
    if (i != 4) CHECK(std::abs(K(i, 4)) < 1e-9 * K(4, 4));
  }
  const double mEff = K(4, 4);
  const double tau = vt / (W / mEff);
  double maxDev = 0.0;
  while (w.time() < def.duration - 1e-9) {
    REQUIRE(w.step().ok());
    const double v = w.diagnostics(0).fallSpeed;
    maxDev = std::max(maxDev, std::abs(v - vt * std::tanh(w.time() / tau)) / vt);
  }
  const core::BodyDiagnostics d = w.diagnostics(0);
  INFO("mass " << info.mass << " kg, added mass (vertical) " << mEff - info.mass
               << " kg, net weight " << W << " N; v_t from drag " << vt << " m/s, tau " << tau
               << " s; measured at " << w.time() << " s: " << d.fallSpeed
               << " m/s; max |v - v_t tanh(t/tau)| / v_t = " << maxDev << "; tilt "
               << std::abs(tiltX(d.q, Vec3::UnitY())));
  CHECK(mEff - info.mass > 0.2 * info.mass);  // the canopy's added mass matters
  CHECK(d.fallSpeed == Approx(vt).epsilon(0.01));
  CHECK(maxDev < 0.05);
  // The same in a vacuum: v = g t (no drag, no added mass, no buoyancy).
  core::World vac(ag::parachuteScene(true, kRes).def);
  stepTo(&vac, def.duration);
  const double vv = vac.diagnostics(0).fallSpeed;
  INFO("vacuum: " << vv << " m/s at " << vac.time() << " s, g t = " << g * vac.time());
  CHECK(vv == Approx(g * vac.time()).epsilon(1e-9));
  CHECK(vv > 10.0 * d.fallSpeed);
}

// --- air to water (GwtF Fig. 7) ----------------------------------------------------------------

TEST_CASE(
    "Air to water: ellipsoids plunge in, decelerate on entry and sink at their own "
    "terminal speed",
    "[gallery][sinking][air_to_water][slow]") {
  const ag::GalleryScene s = ag::airToWaterScene(kRes);
  const double level = s.def.fluid.water->level, rhoW = s.def.fluid.water->density;
  for (int i = 0; i < static_cast<int>(s.def.bodies.size()); ++i) {
    const core::WorldDef def = only(s.def, i);
    core::World w(def);
    const geometry::TriMesh& mesh = def.bodies[0].mesh;
    double volume = 0.0, sheet = 0.0;
    volumeAndSheet(mesh, &volume, &sheet);
    const double netWeight = (w.info(0).mass - rhoW * volume) * 9.81;
    const double addedAir = w.info(0).addedMass(4, 4);
    double maxAirDecel = 0.0, maxEntryDecel = 0.0, entrySpeed = 0.0, tEntry = -1.0;
    double addedCrossing = -1.0;
    Vec3 vPrev = w.diagnostics(0).velocity;
    Vec3 pPrev = w.diagnostics(0).linearMomentum;
    const double r = def.bodies[0].mesh.V.cwiseAbs().maxCoeff();
    while (w.time() < 3.0) {
      pPrev = w.diagnostics(0).linearMomentum;
      REQUIRE(w.step().ok());
      const core::BodyDiagnostics d = w.diagnostics(0);
      // Acceleration beyond gravity (drag, buoyancy): |Δv/h − g|.
      const double a = ((d.velocity - vPrev) / def.dt - def.gravity).norm();
      vPrev = d.velocity;
      if (d.com.y() > level + r) {
        maxAirDecel = std::max(maxAirDecel, a);
        entrySpeed = d.velocity.norm();
      } else {
        if (tEntry < 0.0) tEntry = w.time();
        if (w.time() < tEntry + 0.3) maxEntryDecel = std::max(maxEntryDecel, a);
      }
      if (addedCrossing < 0.0 && std::abs(d.com.y() - level) < 0.2 * r) {
        addedCrossing = w.info(0).addedMass.trace();
      }
    }
    const core::BodyDiagnostics d = w.diagnostics(0);
    const double addedWater = w.info(0).addedMass.trace();
    const Vec3 dir = d.velocity.normalized();
    const double vPred = terminalSpeed(w, d.q, dir, netWeight * -dir.y(), d.omega);
    Vec3 force;
    const double residual = momentumBalance(&w, pPrev, netWeight, &force);
    INFO(def.bodies[0].name << ": entry speed " << entrySpeed << " m/s; max extra acceleration "
                            << "in air " << maxAirDecel << ", in the 0.3 s after entry "
                            << maxEntryDecel << " m/s^2; speed at 3 s " << d.velocity.norm()
                            << " m/s (drag balance " << vPred << "), depth " << level - d.com.y()
                            << " m, |omega| " << d.omega.norm() << "; trace of the added mass "
                            << "in air " << addedAir << "..., crossing " << addedCrossing
                            << ", in water " << addedWater << "; fluid force " << force.transpose()
                            << " N, net weight " << netWeight
                            << " N, |dP/dt - F - W| / W = " << residual);
    CHECK(residual < 0.03);
    CHECK(maxAirDecel < 0.2 * 9.81);    // nearly ballistic in air
    CHECK(maxEntryDecel > 3.0 * 9.81);  // slammed on entry
    CHECK(d.velocity.norm() < 0.2 * entrySpeed);
    // Turning under the circulation's lift (|ω| 2–8 rad/s), they glide and the speed
    // varies: Newton's law with the added mass holds at every instant, not D(v) = W.
    CHECK(d.com.y() < level - 0.3);  // sinking
    CHECK(addedCrossing > 10.0 * w.info(0).addedMass.trace() * 1.225 / rhoW);
    CHECK(addedCrossing < 0.9 * addedWater);  // per-face densities: partly air, partly water
  }
}

// --- lessons on Kirchhoff's equations ----------------------------------------------------------

namespace {

/// Angle (rad) between the COM velocity and the body's long axis (body x), in [0, π/2].
double axisAngle(const core::BodyDiagnostics& d) {
  const Vec3 a = d.q * Vec3::UnitX();
  return std::acos(std::min(1.0, std::abs(a.dot(d.velocity.normalized()))));
}

}  // namespace

TEST_CASE("Lesson: the Munk moment turns an elongated body broadside",
          "[gallery][sinking][lesson]") {
  const ag::GalleryScene s = ag::munkScene();
  core::WorldDef def = s.def;
  def.bodies[0].mesh = geometry::makeEllipsoid(Vec3(0.2, 0.05, 0.05), 3);  // faster
  core::World w(def);
  // Linearised Kirchhoff equations (no drag) for a small angle θ with the momentum P = m₁U:
  // J θ'' = P² (1/m₁ − 1/m₃) θ, so θ grows like e^{σt}, σ = P √((1/m₁ − 1/m₃)/J) with the
  // added-mass-laden m₁ = 𝒦_{vx vx} (along the axis), m₃ = 𝒦_{vz vz} (across), J = 𝒦_{ωy ωy}.
  const Mat6& K = w.info(0).kirchhoff;
  const double U = def.bodies[0].velocity.norm();
  const double m1 = K(3, 3), m3 = K(5, 5), J = K(1, 1);
  const double sigma = m1 * U * std::sqrt((1.0 / m1 - 1.0 / m3) / J);
  std::vector<double> angle{axisAngle(w.diagnostics(0))};
  double t5 = -1.0, t20 = -1.0, maxAngle = 0.0;
  while (w.time() < def.duration - 1e-9) {
    REQUIRE(w.step().ok());
    const double a = axisAngle(w.diagnostics(0));
    if (t5 < 0.0 && a > 5.0 * kPi / 180.0) t5 = w.time();
    if (t20 < 0.0 && a > 20.0 * kPi / 180.0) t20 = w.time();
    maxAngle = std::max(maxAngle, a);
    if (std::abs(w.time() / 0.5 - std::round(w.time() / 0.5)) < 1e-9) angle.push_back(a);
  }
  const double sigmaMeasured = std::log(20.0 / 5.0) / (t20 - t5);
  std::string series;
  for (double a : angle) series += std::to_string(a * 180.0 / kPi).substr(0, 5) + " ";
  // Without added mass (δ = 0) there is no Munk moment: the body keeps pointing along the flow.
  core::WorldDef plain = def;
  plain.bodies[0].delta = 0.0;
  core::World p(plain);
  stepTo(&p, def.duration);
  const double plainAngle = axisAngle(p.diagnostics(0));
  INFO("angle between velocity and long axis every 0.5 s (deg): "
       << series << "; max " << maxAngle * 180 / kPi << "; growth rate between 5 and 20 deg "
       << sigmaMeasured << " 1/s, linear Kirchhoff theory (no drag) " << sigma << " 1/s; m1 " << m1
       << " kg, m3 " << m3 << " kg; delta = 0: " << plainAngle * 180 / kPi << " deg at the end");
  CHECK(m3 > m1 + 0.1 * (m1 - w.info(0).mass));  // more added mass across than along
  CHECK(maxAngle > 85.0 * kPi / 180.0);          // broadside (it then swings about broadside)
  for (size_t k = 1; k < angle.size() && angle[k] < 60.0 * kPi / 180.0; ++k) {
    CHECK(angle[k] > angle[k - 1]);  // grows steadily until near broadside
  }
  // Drag (growing with the yaw too) slows the drag-free exponential growth, never speeds it.
  CHECK(sigmaMeasured > 0.25 * sigma);
  CHECK(sigmaMeasured < sigma);
  CHECK(plainAngle < angle.front());
  // Neutrally buoyant (998 kg/m³): the drag that grows with the yaw damps the turn, but the
  // Munk moment still turns it away from the path, unlike δ = 0.
  core::WorldDef neutral = def, neutralPlain = plain;
  neutral.bodies[0].mass.density = neutralPlain.bodies[0].mass.density = 998.0;
  neutral.duration = 3.0;
  core::World n(neutral), np(neutralPlain);
  stepTo(&n, neutral.duration);
  stepTo(&np, neutral.duration);
  const double an = axisAngle(n.diagnostics(0)), anp = axisAngle(np.diagnostics(0));
  INFO("neutral density, after 3 s: " << an * 180 / kPi << " deg (delta = 0: " << anp * 180 / kPi
                                      << " deg)");
  CHECK(anp < 0.01 * angle.front());
  // Under the pressure and friction law alone the Munk moment still turns it away from the
  // path; the default law's rotational lift, relatively stronger on the lighter body,
  // turns it back along the path (3° → 0.002° in 3 s).
  core::WorldDef neutralPf = neutral;
  neutralPf.bodies[0].model = std::make_shared<core::GwtfModel>(core::kPressureFriction);
  core::World npf(neutralPf);
  stepTo(&npf, neutral.duration);
  const double anpf = axisAngle(npf.diagnostics(0));
  INFO("neutral density, pressure and friction alone: " << anpf * 180 / kPi << " deg");
  CHECK(anpf > 0.5 * angle.front());
  CHECK(an < angle.front());
  CHECK(an > anp);
  // The default law's rotational lift (C_R ω_r × u per face) damps the turn: without it
  // (pressure and friction alone) the angle grows faster between 5° and 20°.
  core::WorldDef plainLaw = def;
  plainLaw.bodies[0].model = std::make_shared<core::GwtfModel>(core::kPressureFriction);
  core::World wl(plainLaw);
  double t5Plain = -1.0, t20Plain = -1.0;
  while (t20Plain < 0.0 && wl.time() < def.duration - 1e-9) {
    REQUIRE(wl.step().ok());
    const double a = axisAngle(wl.diagnostics(0));
    if (t5Plain < 0.0 && a > 5.0 * kPi / 180.0) t5Plain = wl.time();
    if (t20Plain < 0.0 && a > 20.0 * kPi / 180.0) t20Plain = wl.time();
  }
  const double sigmaPlain = std::log(20.0 / 5.0) / (t20Plain - t5Plain);
  INFO("pressure and friction alone: growth rate between 5 and 20 deg " << sigmaPlain << " 1/s");
  CHECK(t20Plain > 0.0);
  CHECK(sigmaMeasured < sigmaPlain);
  CHECK(sigmaPlain < sigma);
}

TEST_CASE("Lesson: a body spun about its intermediate axis flips with the analytic period",
          "[gallery][sinking][lesson]") {
  const ag::GalleryScene s = ag::dzhanibekovScene();
  core::World w(s.def);
  // Principal moments about the COM (the box is centred): body inertia's ωω block.
  const Mat3 I = w.info(0).bodyInertia.topLeftCorner<3, 3>();
  const double I1 = I(0, 0), I2 = I(1, 1), I3 = I(2, 2);
  REQUIRE(I1 < I2);
  REQUIRE(I2 < I3);
  CHECK(std::abs(I(0, 1)) + std::abs(I(0, 2)) + std::abs(I(1, 2)) < 1e-12 * I2);
  const Vec3 om = w.state(0).Y.head<3>();
  const double E2 = om.dot(I * om);          // 2E
  const double M2 = (I * om).squaredNorm();  // |L|²
  // Torque-free rigid body (Landau & Lifshitz §37): ω₂ ∝ sn(λt, k), which changes sign every
  // 2K(k)/λ. For M² > 2E I₂: λ² = (I₃ − I₂)(M² − 2E I₁)/(I₁I₂I₃),
  // k² = (I₂ − I₁)(2E I₃ − M²)/((I₃ − I₂)(M² − 2E I₁)); otherwise swap I₁ and I₃.
  double a1 = I1, a3 = I3;
  if (M2 < E2 * I2) std::swap(a1, a3);
  const double lambda = std::sqrt((a3 - I2) * (M2 - E2 * a1) / (I1 * I2 * I3));
  const double k = std::sqrt((I2 - a1) * (E2 * a3 - M2) / ((a3 - I2) * (M2 - E2 * a1)));
  const double halfPeriod = 2.0 * ellipticK(k) / lambda;
  // Sign changes of the body-frame ω about the intermediate axis.
  std::vector<double> flips;
  double prev = om.y(), tPrev = 0.0;
  while (w.time() < s.def.duration - 1e-9) {
    REQUIRE(w.step().ok());
    const double wy = w.state(0).Y(1);
    if (wy * prev < 0.0) flips.push_back(tPrev + (w.time() - tPrev) * prev / (prev - wy));
    prev = wy;
    tPrev = w.time();
  }
  REQUIRE(flips.size() >= 3);
  std::string intervals;
  double maxDev = 0.0;
  for (size_t i = 1; i < flips.size(); ++i) {
    const double dt = flips[i] - flips[i - 1];
    intervals += std::to_string(dt).substr(0, 6) + " ";
    maxDev = std::max(maxDev, std::abs(dt / halfPeriod - 1.0));
  }
  const double mean = (flips.back() - flips.front()) / static_cast<double>(flips.size() - 1);
  INFO("k = " << k << ", K(k) = " << ellipticK(k) << ", analytic time between flips 2K/lambda = "
              << halfPeriod << " s; measured " << flips.size() << " flips, first at "
              << flips.front() << " s, intervals " << intervals << "s, mean " << mean);
  CHECK(mean == Approx(halfPeriod).epsilon(0.02));
  CHECK(maxDev < 0.03);
}

TEST_CASE("Lesson: a sphere released in water starts at (rho_s - rho_f)/(rho_s + rho_f/2) g",
          "[gallery][sinking][lesson]") {
  const ag::GalleryScene s = ag::addedMassScene();
  core::WorldDef def = s.def;
  def.dt = 1e-4;  // measure the first instants (drag ∝ v² still negligible)
  core::World w(def);
  const double g = 9.81, rhoF = def.fluid.water->density;
  std::vector<double> a0(2);
  for (int i = 0; i < 2; ++i) a0[static_cast<size_t>(i)] = 0.0;
  stepTo(&w, 10 * def.dt);
  for (int i = 0; i < 2; ++i) {
    const core::BodyInfo info = w.info(i);
    const double V = info.volume;
    // Exact for this mesh: (m − ρ_f V) g / (m + m_a), m_a = 𝒦_{vy vy} − m (δ-based).
    const double ma = info.kirchhoff(4, 4) - info.mass;
    const double exact = (info.mass - rhoF * V) * g / (info.mass + ma);
    const double rhoS = info.mass / V;
    const double formula = (rhoS - rhoF) / (rhoS + 0.5 * rhoF) * g;
    const double measured = w.diagnostics(i).fallSpeed / w.time();
    INFO(w.bodyDef(i).name << ": rho_s " << rhoS << ", added mass / (rho_f V) " << ma / (rhoF * V)
                           << "; first acceleration " << measured
                           << " m/s^2 (down), exact for the mesh " << exact << ", formula "
                           << formula << ", without added mass " << (rhoS - rhoF) / rhoS * g);
    CHECK(measured == Approx(exact).epsilon(1e-3));
    CHECK(measured == Approx(formula).epsilon(0.01));
    CHECK(std::abs(measured - (rhoS - rhoF) / rhoS * g) > 0.1 * std::abs(formula));
  }
  // Then the marble lands on the floor and the cork floats at the surface.
  core::WorldDef coarse = s.def;
  for (core::BodyDef& b : coarse.bodies) b.mesh = geometry::makeSphere(0.05, 3);
  core::World full(coarse);
  stepTo(&full, s.def.duration);
  INFO("after " << s.def.duration << " s: glass at " << full.diagnostics(0).com.y()
                << " m, cork at " << full.diagnostics(1).com.y() << " m");
  CHECK(full.diagnostics(0).com.y() < 0.06);
  CHECK(std::abs(full.diagnostics(1).com.y() - s.def.fluid.water->level) < 0.05);
}
