// The shipped CFD scenes (assets/cfd) measured as the README reports them (issue 19). Long
// runs, tagged [slow].
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "fluid/ns2d.h"
#include "fluid/plate_motion.h"
#include "io/cfd_reduced.h"
#include "io/cfd_scene.h"

namespace {

using samara::fluid::Ns2Solver;
using samara::fluid::Ns2Status;
const std::string kCfd = std::string(SAMARA_SOURCE_DIR) + "/assets/cfd/";

}  // namespace

TEST_CASE("fluid: the cylinder at Re = 100 sheds at St 0.16-0.175 with C_D within 5 % of 1.34",
          "[fluid][slow]") {
  samara::io::CfdScene s = samara::io::loadCfdScene(kCfd + "cylinder_re100.json");
  // 70 s instead of the scene's 100 (U t / D = 70): the wake has settled by t = 40 s; over
  // [40, 70] s the scene gives St 0.1720, C_D 1.334, lift 0.200 (0.1735, 1.338, 0.200 over
  // its own [50, 100] s).
  s.duration = 70.0;
  const double settled = 40.0;
  const auto& d = s.def;
  const double D = 2.0 * d.body.a, U = d.stream.norm();
  const double q = 0.5 * d.fluidDensity * U * U * D;
  REQUIRE(U * D / d.viscosity == Approx(100.0));
  Ns2Solver solver(d);
  const long steps = std::lround(s.duration / d.dt);
  std::vector<double> ups;  // upward zero crossings of the lift
  double sumCd = 0.0, lastCl = 0.0, maxCl = 0.0;
  long n = 0;
  for (long k = 0; k < steps; ++k) {
    REQUIRE(solver.step().status == Ns2Status::kOk);
    const double cd = solver.body().force.x() / q, cl = solver.body().force.y() / q;
    if (solver.time() >= settled) {  // after the wake has set in
      sumCd += cd;
      ++n;
      maxCl = std::max(maxCl, std::abs(cl));
      if (lastCl < 0.0 && cl >= 0.0) ups.push_back(solver.time());
    }
    lastCl = cl;
  }
  REQUIRE(ups.size() >= 4);
  const double st = (ups.size() - 1) / (ups.back() - ups.front()) * D / U;
  const double cd = sumCd / n;
  INFO("St " << st << ", mean C_D " << cd << ", lift amplitude " << maxCl);
  // Williamson 1996: St = 0.164-0.166 at Re 100; mean C_D 1.33-1.35 (Henderson 1995 1.35,
  // Park et al. 1998 1.33); lift amplitude 0.32-0.34. At 16 cells per diameter the shedding
  // is 4-7 % fast (the mask's ramp), and in this 24-diameter window the lift is 40 % small:
  // the wake of the cylinder's periodic image, damped only 6 diameters upstream, halves it
  // (cylinder_re100_wide.json, 64 x 32 diameters: lift 0.34; README "Fluid reference").
  // The bounds hold what is measured here, not the literature's band.
  CHECK(st > 0.16);
  CHECK(st < 0.175);
  CHECK(cd == Approx(1.34).epsilon(0.05));
  CHECK(maxCl > 0.15);
  CHECK(maxCl < 0.5);
}

TEST_CASE("fluid: the wide Re = 100 cylinder is the same flow in a window 64 x 32 diameters",
          "[fluid]") {
  // cylinder_re100_wide.json is the README's converged-window run (9 minutes, not run here):
  // the same cylinder, fluid, stream, step, cells per diameter and sponge, the window
  // larger and the cylinder further from the inflow edge.
  const samara::io::CfdScene a = samara::io::loadCfdScene(kCfd + "cylinder_re100.json");
  const samara::io::CfdScene b = samara::io::loadCfdScene(kCfd + "cylinder_re100_wide.json");
  const auto &p = a.def, &q = b.def;
  CHECK(q.body.a == p.body.a);
  CHECK(q.body.fixed);
  CHECK(q.dx == p.dx);
  CHECK(q.dt == p.dt);
  CHECK(q.viscosity == p.viscosity);
  CHECK(q.fluidDensity == p.fluidDensity);
  CHECK(q.stream == p.stream);
  CHECK(q.spongeWidth == p.spongeWidth);
  CHECK(q.spongeTime == p.spongeTime);
  // The one other difference: the mask's ramp half a cell further out than a free body's
  // default (a held cylinder has no added mass to keep; the ramp's place moves St by 4 %).
  CHECK(p.maskShift == 1.0);
  CHECK(q.maskShift == 0.5);
  const double D = 2.0 * q.body.a;
  CHECK(q.nx * q.dx >= 64.0 * D - 1e-12);
  CHECK(q.ny * q.dx >= 32.0 * D - 1e-12);
  // Upstream of the cylinder (the stream runs along +x): the window's inflow edge.
  const double upstream = q.body.position.x() - (q.centre.x() - 0.5 * q.nx * q.dx);
  CHECK(upstream >= 16.0 * D - 1e-12);
  CHECK(upstream > p.body.position.x() - (p.centre.x() - 0.5 * p.nx * p.dx));
}

TEST_CASE("fluid: the held plate is APW's plate at 45 degrees, Re 1000, its wake not back in time",
          "[fluid]") {
  // plate_stream.json's forces are the README's (a 10-minute run, not run here). What the
  // comparison relies on: APW's ellipse (thickness ratio 1/8), held, at 45 degrees with its
  // leading edge up, Re = U c / nu = 1000, and a window long enough that the wake, moving at
  // about 0.8 U, reaches the sponge at the downstream edge (and comes round the periodic
  // window) only after the run has ended: the Re-100 cylinder above lost 40 % of its lift
  // once its wake had come round.
  const samara::io::CfdScene s = samara::io::loadCfdScene(kCfd + "plate_stream.json");
  const auto& d = s.def;
  const double c = 2.0 * d.body.a, U = d.stream.norm();
  CHECK(d.body.fixed);
  CHECK(d.body.b / d.body.a == Approx(1.0 / 8.0));
  CHECK(d.body.angle == Approx(-M_PI / 4.0));
  CHECK(d.stream.y() == 0.0);
  CHECK(U * c / d.viscosity == Approx(1000.0));
  CHECK(c / d.dx >= 32.0 - 1e-9);
  const double x0 = d.centre.x() - 0.5 * d.nx * d.dx;  // inflow edge
  const double downstream = d.centre.x() + 0.5 * d.nx * d.dx - d.body.position.x();
  const double upstream = d.body.position.x() - x0;
  CHECK(upstream >= 6.0 * c - 1e-12);
  CHECK(d.ny * d.dx >= 12.0 * c - 1e-12);
  CHECK((downstream - d.spongeWidth) / (0.8 * U) > s.duration);  // reaches the sponge after
}

TEST_CASE(
    "fluid: Andersen-Pesavento-Wang's plate flutters at I* = 0.2, and so does the reduced "
    "model's default law (not its pressure and friction alone), and with all of APW's "
    "coefficients",
    "[fluid][slow]") {
  // The 1 cm ellipse of thickness ratio 1/8 in water (Re ~ 10³). The pressure and friction
  // law's failure to flutter here is the measured error the README reported before the
  // default gained APW's circulation, not a defect of the reference.
  samara::io::CfdScene s = samara::io::loadCfdScene(kCfd + "plate_flutter.json");
  s.duration = 2.5;
  REQUIRE(s.def.body.density / s.def.fluidDensity * s.def.body.b / s.def.body.a == Approx(0.2));
  Ns2Solver solver(s.def);
  std::vector<samara::fluid::PlateSample> samples;
  const long steps = std::lround(s.duration / s.def.dt);
  for (long k = 0; k < steps; ++k) {
    REQUIRE(solver.step().status == Ns2Status::kOk);
    const auto& b = solver.body();
    samples.push_back({solver.time(), b.position.x(), b.position.y(), b.angle, b.omega});
  }
  const samara::fluid::PlateMotion m = samara::fluid::classifyPlate(samples, 1.0);
  INFO("swing " << m.swing * 180 / 3.14159265 << " deg, period " << m.period << " s, turns "
                << m.turns << ", descent " << m.descentSpeed << " m/s");
  CHECK(m.regime == samara::fluid::PlateRegime::kFluttering);
  CHECK(m.swing > 20.0 * 3.14159265 / 180.0);
  CHECK(m.descentSpeed > 0.03);
  CHECK(m.descentSpeed < 0.2);
  std::vector<samara::fluid::PlateSample> reduced, plain;
  (void)samara::io::reducedTrajectory(s, "plate_flutter.json", 1e-3, "samara", &reduced);
  (void)samara::io::reducedTrajectory(s, "plate_flutter.json", 1e-3,
                                      R"({"type": "samara", "ct": 0, "cr": 0, "cd0": 0})", &plain);
  const samara::fluid::PlateMotion r = samara::fluid::classifyPlate(reduced, 1.0);
  const samara::fluid::PlateMotion p = samara::fluid::classifyPlate(plain, 1.0);
  INFO("reduced, default law: swing " << r.swing * 180 / 3.14159265 << " deg, descent "
                                      << r.descentSpeed << " m/s; pressure and friction alone: "
                                      << p.swing * 180 / 3.14159265 << " deg, " << p.descentSpeed);
  std::printf(
      "[cfd] APW plate: reference swing %.1f deg, descent %.4f m/s; default law %.1f deg, "
      "%.4f m/s\n",
      m.swing * 180 / 3.14159265, m.descentSpeed, r.swing * 180 / 3.14159265, r.descentSpeed);
  CHECK(r.regime == samara::fluid::PlateRegime::kFluttering);
  CHECK(r.swing > 20.0 * 3.14159265 / 180.0);
  CHECK(p.regime == samara::fluid::PlateRegime::kSteady);
  // With all of APW's coefficients (C_T, C_R and the drag's A − B) the reduced plate
  // flutters too, at the reference's speed within a factor of two (README: with C_T and C_R
  // alone it glided edge first at ten times that while the rotational lift used the sheet's
  // whole size; on the half-chord across the axis it flutters at half the speed).
  std::vector<samara::fluid::PlateSample> apw;
  (void)samara::io::reducedTrajectory(s, "plate_flutter.json", 1e-3,
                                      R"({"type": "samara", "ct": 1.2, "cr": 3.14159, "cd0": 0.4})",
                                      &apw);
  const samara::fluid::PlateMotion a = samara::fluid::classifyPlate(apw, 1.0);
  const double speed = std::hypot(m.descentSpeed, m.drift);
  const double apwSpeed = std::hypot(a.descentSpeed, a.drift);
  INFO("APW's law: swing " << a.swing * 180 / 3.14159265 << " deg, descent " << a.descentSpeed
                           << " m/s, speed " << apwSpeed << " m/s (reference " << speed << ")");
  CHECK(a.regime == samara::fluid::PlateRegime::kFluttering);
  CHECK(a.swing > 20.0 * 3.14159265 / 180.0);
  CHECK(a.descentSpeed > 0.5 * m.descentSpeed);
  CHECK(a.descentSpeed < 2.0 * m.descentSpeed);
  CHECK(apwSpeed < 2.0 * speed);
}

namespace {

/// The swimmer's mean velocity over [3, 4] s (the fourth period) and its heading.
struct Swim {
  Eigen::Vector2d velocity = Eigen::Vector2d::Zero();
  double heading = 0.0;  // rad
};
Swim swim(samara::io::CfdScene s) {
  s.duration = 4.0;
  Ns2Solver solver(s.def);
  Swim r;
  long n = 0;
  const long steps = std::lround(s.duration / s.def.dt);
  for (long k = 0; k < steps; ++k) {
    REQUIRE(solver.step().status == Ns2Status::kOk);
    if (solver.time() > 3.0 + 1e-9) {
      r.velocity += solver.body().velocity;
      ++n;
    }
  }
  r.velocity /= static_cast<double>(n);
  r.heading = solver.body().angle;
  return r;
}

}  // namespace

TEST_CASE(
    "fluid: the 2D swimmer swims head first, slower than its wave, and backs up when "
    "the wave is reversed",
    "[fluid][slow]") {
  // assets/cfd/swimmer.json: an anguilliform wave (tail amplitude 0.1 L, wavelength L,
  // period 1 s) on a 10 cm ellipse, Re = U L / nu ~ 100. Thrust needs the wave to run
  // backwards faster than the body moves forward (slip ratio U / c < 1, c = lambda / T).
  const samara::io::CfdScene scene = samara::io::loadCfdScene(kCfd + "swimmer.json");
  const double c = 2.0 * scene.def.body.a / scene.def.body.wave.period;  // lambda = L
  const Swim ahead = swim(scene);
  const Eigen::Vector2d axis(std::cos(ahead.heading), std::sin(ahead.heading));
  const double u = ahead.velocity.dot(axis);
  INFO("speed along the body axis " << u << " m/s, sideways " << ahead.velocity.y()
                                    << " m/s, heading " << ahead.heading << " rad");
  CHECK(u > 0.0);                         // head first
  CHECK(u < c);                           // slower than its wave
  CHECK(std::abs(ahead.heading) < 0.05);  // on course
  CHECK(std::abs(ahead.velocity.y()) < 0.1 * std::abs(u));

  // Turned round (the head along −x): the same swim turned round.
  samara::io::CfdScene turned = scene;
  turned.def.body.angle = M_PI;
  const Swim back = swim(turned);
  INFO("turned round: " << back.velocity.transpose());
  CHECK((back.velocity + ahead.velocity).norm() < 2e-3 * ahead.velocity.norm());  // 6e-4

  // Mirrored (y → −y: the wave half a period on, φ = π): the mirror image of the swim, its
  // sideways drift and heading reversed.
  samara::io::CfdScene mirrored = scene;
  mirrored.def.body.wave.phase = M_PI;
  const Swim image = swim(mirrored);
  INFO("mirrored: " << image.velocity.transpose() << ", heading " << image.heading << " rad");
  CHECK(std::abs(image.velocity.x() - ahead.velocity.x()) < 2e-3 * ahead.velocity.norm());
  CHECK(std::abs(image.velocity.y() + ahead.velocity.y()) < 2e-3 * ahead.velocity.norm());
  CHECK(std::abs(image.heading + ahead.heading) < 0.05 * std::abs(ahead.heading));

  // The wave reversed (tail to head): the swimmer backs up, tail first.
  samara::io::CfdScene reversed = scene;
  reversed.def.body.wave.reverse = true;
  const Swim backing = swim(reversed);
  INFO("reversed wave: " << backing.velocity.transpose());
  CHECK(backing.velocity.dot(axis) < 0.0);
}

namespace {

/// The reduced counterpart's mean velocity over [3, 4] s (the fourth period), from its
/// positions.
Eigen::Vector2d reducedSwim(samara::io::CfdScene s, const std::string& path,
                            const std::string& model = "samara") {
  s.duration = 4.0;
  std::vector<samara::fluid::PlateSample> samples;
  (void)samara::io::reducedTrajectory(s, path, 1e-3, model, &samples);
  const samara::fluid::PlateSample* at3 = nullptr;
  for (const auto& p : samples) {
    if (at3 == nullptr && p.t >= 3.0 - 1e-9) at3 = &p;
  }
  REQUIRE(at3 != nullptr);
  const samara::fluid::PlateSample& at4 = samples.back();
  REQUIRE(at4.t == Approx(4.0));
  return Eigen::Vector2d(at4.x - at3->x, at4.y - at3->y) / (at4.t - at3->t);
}

}  // namespace

TEST_CASE(
    "fluid: the swimmer's reduced counterpart swims head first, and as fast backwards when "
    "its wave is reversed under an odd law",
    "[fluid][slow]") {
  // The same wave on a sheet 10 lengths wide under samara's reduced model (io/cfd_reduced.h).
  // Reversing the wave is the swim run backwards in time. A law odd in the velocities
  // (pressure, friction, C_T and C_D0 all change sign with u) has no wake and no memory:
  // the reversed wave swims backwards exactly as fast. The default law's rotational lift,
  // (K ω_r) × u, is even in the velocities and breaks that symmetry, as the reference's
  // wake does (the reference backs up at a third of its forward speed). The mirror image
  // mirrors the swim under either law.
  const std::string path = kCfd + "swimmer.json";
  const samara::io::CfdScene scene = samara::io::loadCfdScene(path);
  REQUIRE(samara::io::hasReducedModel(scene));
  const double c = 2.0 * scene.def.body.a / scene.def.body.wave.period;
  samara::io::CfdScene reversed = scene;
  reversed.def.body.wave.reverse = true;
  samara::io::CfdScene mirrored = scene;
  mirrored.def.body.wave.phase = M_PI;
  const std::string odd = R"({"type": "samara", "cr": 0})";
  const Eigen::Vector2d oddAhead = reducedSwim(scene, path, odd);
  const Eigen::Vector2d oddBack = reducedSwim(reversed, path, odd);
  const Eigen::Vector2d ahead = reducedSwim(scene, path);
  const Eigen::Vector2d back = reducedSwim(reversed, path);
  const Eigen::Vector2d image = reducedSwim(mirrored, path);
  std::printf(
      "[cfd] reduced swimmer, 4th period: (%.5f, %.6f) m/s; wave reversed (%.5f, %.6f); "
      "mirrored (%.5f, %.6f); without the rotational lift (%.5f, %.6f), reversed (%.5f, %.6f)\n",
      ahead.x(), ahead.y(), back.x(), back.y(), image.x(), image.y(), oddAhead.x(), oddAhead.y(),
      oddBack.x(), oddBack.y());
  CHECK(ahead.x() > 0.0);  // head first
  CHECK(ahead.x() < c);    // slower than its wave
  CHECK(std::abs(ahead.y()) < 0.05 * ahead.x());
  CHECK(back.x() < 0.0);  // the reversed wave swims backwards, not as fast
  CHECK(oddAhead.x() > 0.0);
  CHECK(oddBack.x() == Approx(-oddAhead.x()).epsilon(0.01));
  CHECK(image.x() == Approx(ahead.x()).epsilon(1e-6));
  CHECK(image.y() == Approx(-ahead.y()).epsilon(1e-3));
}
