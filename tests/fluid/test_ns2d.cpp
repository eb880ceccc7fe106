// The 2D Navier–Stokes reference (issue 19): its transforms, an exact decaying flow, and
// the coupling of a rigid body.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "core/thread_pool.h"
#include "fluid/fft2.h"
#include "fluid/ns2d.h"
#include "geometry/types.h"

namespace {

using samara::kPi;
using samara::fluid::Complex;
using samara::fluid::Fft2;
using samara::fluid::Ns2Def;
using samara::fluid::Ns2Solver;
using samara::fluid::Ns2Status;
using samara::fluid::Vec2;

std::vector<double> testField(int nx, int ny) {
  std::vector<double> f(static_cast<std::size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      f[static_cast<std::size_t>(j) * nx + i] =
          std::sin(0.37 * i * i + 1.3 * j) + 0.25 * std::cos(2.0 * kPi * (3 * i) / nx);
    }
  }
  return f;
}

/// Taylor–Green: ψ = (U/k) sin kx sin ky, ω = 2Uk sin kx sin ky, decaying as e^{−2νk²t}
/// and carried by the stream.
double taylorGreenError(int n, double dt, double tEnd, const Vec2& stream) {
  Ns2Def d;
  d.nx = d.ny = n;
  d.dx = 1.0 / n;  // a 1 m periodic box
  d.centre = Vec2(0.5, 0.5);
  d.viscosity = 0.01;
  d.dt = dt;
  d.stream = stream;
  d.hasBody = false;
  d.maxCfl = 2.0;
  const double k = 2.0 * kPi, U = 1.0;
  std::vector<double> w(static_cast<std::size_t>(n) * n);
  auto exact = [&](double x, double y, double t) {
    const double xs = x - stream.x() * t, ys = y - stream.y() * t;
    return 2.0 * U * k * std::sin(k * xs) * std::sin(k * ys) *
           std::exp(-2.0 * d.viscosity * k * k * t);
  };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i)
      w[static_cast<std::size_t>(j) * n + i] = exact((i + 0.5) * d.dx, (j + 0.5) * d.dx, 0.0);
  }
  Ns2Solver s(d);
  s.setVorticity(w);
  const long steps = std::lround(tEnd / dt);
  for (long i = 0; i < steps; ++i) REQUIRE(s.step().status == Ns2Status::kOk);
  const std::vector<double> out = s.vorticity();
  double err = 0.0, ref = 0.0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const double e = exact((i + 0.5) * d.dx, (j + 0.5) * d.dx, s.time());
      err = std::max(err, std::abs(out[static_cast<std::size_t>(j) * n + i] - e));
      ref = std::max(ref, std::abs(e));
    }
  }
  return err / ref;
}

}  // namespace

TEST_CASE("fluid: the 2D FFT inverts and does not depend on the thread count", "[fluid]") {
  const int nx = 48, ny = 20;
  const std::vector<double> f = testField(nx, ny);
  samara::core::ThreadPool pool(2);
  Fft2 serial(nx, ny, nullptr), threaded(nx, ny, &pool);
  std::vector<Complex> a(static_cast<std::size_t>(ny) * serial.nxh()), b(a.size());
  serial.forward(f.data(), a.data());
  threaded.forward(f.data(), b.data());
  REQUIRE(a == b);
  // A cosine with 3 periods along x puts nx·ny/2 into mode (m = 3, n = 0) and nothing else.
  std::vector<double> c(f.size());
  for (std::size_t i = 0; i < c.size(); ++i) c[i] = std::cos(2.0 * kPi * 3.0 * (i % nx) / nx);
  serial.forward(c.data(), b.data());
  for (std::size_t k = 0; k < b.size(); ++k) {
    CHECK(std::abs(b[k] - (k == 3 ? Complex(nx * ny / 2.0) : Complex(0.0))) < 1e-12 * nx * ny);
  }
  threaded.forward(f.data(), b.data());
  std::vector<double> g(f.size()), h(f.size());
  serial.inverse(a.data(), g.data());
  threaded.inverse(a.data(), h.data());
  REQUIRE(g == h);
  double err = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) err = std::max(err, std::abs(g[i] - f[i]));
  CHECK(err < 1e-14);
}

TEST_CASE("fluid: Taylor-Green vortex decays as exp(-2 nu k^2 t), second order in time",
          "[fluid]") {
  // The Fourier discretisation is exact for this flow in space; what is left is the
  // Crank–Nicolson/Adams–Bashforth error in time, O(dt²). Carried by a stream, the
  // advection term is exercised too.
  for (const Vec2& stream : {Vec2(0.0, 0.0), Vec2(0.6, -0.3)}) {
    const double e1 = taylorGreenError(32, 0.004, 0.4, stream);
    const double e2 = taylorGreenError(64, 0.002, 0.4, stream);
    INFO("stream " << stream.transpose() << ": errors " << e1 << ", " << e2);
    CHECK(e1 < 2e-3);
    CHECK(e1 / e2 > 3.5);
    CHECK(e1 / e2 < 4.5);
  }
}

namespace {

/// A body started at V0 in still fluid, no gravity: the flow takes its share of the
/// momentum at once, V = m V0 / (m + m_a) (the impulse of potential flow).
double impulsiveStartRatio(samara::fluid::Shape2 shape, double a, double b, double density,
                           const Vec2& v0, int threads) {
  Ns2Def d;
  d.nx = d.ny = 128;
  d.dx = 1.0 / 16.0;
  d.fluidDensity = 1.0;
  d.viscosity = 1e-4;
  d.gravity = Vec2::Zero();
  d.dt = 0.2 / 16.0;
  d.threads = threads;
  d.body.shape = shape;
  d.body.a = a;
  d.body.b = b;
  d.body.density = density;
  d.body.velocity = v0;
  Ns2Solver s(d);
  // Six steps: the flow has taken its share (the first steps pass it on, see ns2d.h) and the
  // boundary layer's drag (Re 10⁴) has not yet taken more than ~0.3 %.
  for (int i = 0; i < 6; ++i) REQUIRE(s.step().status == Ns2Status::kOk);
  return s.body().velocity.dot(v0) / v0.squaredNorm();
}

}  // namespace

TEST_CASE("fluid: a body started in still fluid keeps m/(m + m_a) of its speed", "[fluid]") {
  using samara::fluid::Shape2;
  // Circle, m_a = ρ_f π R²: at twice the fluid's density 2/3 of V0.
  CHECK(impulsiveStartRatio(Shape2::kCircle, 0.5, 0.5, 2.0, Vec2(1.0, 0.0), 1) ==
        Approx(2.0 / 3.0).epsilon(0.03));
  // Ellipse 2:1 broadside (m_a = ρ_f π a²) and edgewise (ρ_f π b²), Lamb §72.
  const double a = 0.75, b = 0.375, rho = 2.0;
  const double m = rho * kPi * a * b;
  CHECK(impulsiveStartRatio(Shape2::kEllipse, a, b, rho, Vec2(0.0, 1.0), 1) ==
        Approx(m / (m + kPi * a * a)).epsilon(0.04));
  CHECK(impulsiveStartRatio(Shape2::kEllipse, a, b, rho, Vec2(1.0, 0.0), 1) ==
        Approx(m / (m + kPi * b * b)).epsilon(0.04));
}

TEST_CASE("fluid: runs are the same bits on one and two threads, and mirror", "[fluid]") {
  auto run = [](int threads, double angle) {
    Ns2Def d;
    d.nx = d.ny = 96;
    d.dx = 1.0 / 24.0;
    d.fluidDensity = 1.0;
    d.viscosity = 2e-3;
    d.gravity = Vec2(0.0, -1.0);
    d.dt = 0.01;
    d.spongeWidth = 0.5;
    d.spongeTime = 0.05;
    d.threads = threads;
    d.body.shape = samara::fluid::Shape2::kRectangle;
    d.body.a = 0.5;
    d.body.b = 0.1;
    d.body.density = 3.0;
    d.body.angle = angle;
    Ns2Solver s(d);
    for (int i = 0; i < 60; ++i) REQUIRE(s.step().status == Ns2Status::kOk);
    return s.body();
  };
  const auto one = run(1, 0.3), two = run(2, 0.3), mirrored = run(1, -0.3);
  CHECK(one.position == two.position);
  CHECK(one.velocity == two.velocity);
  CHECK(one.angle == two.angle);
  CHECK(one.omega == two.omega);
  CHECK(one.velocity.norm() > 0.1);         // it moved
  CHECK(std::abs(one.angle - 0.3) > 1e-3);  // and turned
  // Mirrored about the vertical through the release point: x, ω and the angle change sign.
  CHECK(mirrored.position.x() == Approx(-one.position.x()).margin(1e-10));
  CHECK(mirrored.position.y() == Approx(one.position.y()).margin(1e-10));
  CHECK(mirrored.velocity.x() == Approx(-one.velocity.x()).margin(1e-10));
  CHECK(mirrored.omega == Approx(-one.omega).margin(1e-10));
  CHECK(mirrored.angle == Approx(-one.angle).margin(1e-10));
}
