#include "fluid/body2d.h"

#include <algorithm>
#include <cmath>

#include "geometry/types.h"

namespace samara::fluid {

namespace {}

double bodyArea(const Body2Def& b) {
  switch (b.shape) {
    case Shape2::kCircle:
      return kPi * b.a * b.a;
    case Shape2::kEllipse:
      return kPi * b.a * b.b;
    case Shape2::kRectangle:
      return 4.0 * b.a * b.b;
  }
  return 0.0;
}

double bodyInertia(const Body2Def& b) {
  const double m = b.density * bodyArea(b);
  switch (b.shape) {
    case Shape2::kCircle:
      return 0.5 * m * b.a * b.a;
    case Shape2::kEllipse:
      return 0.25 * m * (b.a * b.a + b.b * b.b);
    case Shape2::kRectangle:
      return m * (b.a * b.a + b.b * b.b) / 3.0;
  }
  return 0.0;
}

Eigen::Vector3d ellipseAddedMass(const Body2Def& b, double rho) {
  const double bb = b.shape == Shape2::kCircle ? b.a : b.b;
  const double d = b.a * b.a - bb * bb;
  return {rho * kPi * bb * bb, rho * kPi * b.a * b.a, rho * kPi * d * d / 8.0};
}

double signedDistance(const Body2Def& b, const Vec2& p) {
  switch (b.shape) {
    case Shape2::kCircle:
      return p.norm() - b.a;
    case Shape2::kEllipse: {
      const double fx = p.x() / (b.a * b.a), fy = p.y() / (b.b * b.b);
      const double f = p.x() * fx + p.y() * fy;
      const double g = 2.0 * std::sqrt(fx * fx + fy * fy);
      if (g <= 0.0) return -b.b;  // the centre
      return std::max((f - 1.0) / g, -b.b);
    }
    case Shape2::kRectangle: {
      const double qx = std::abs(p.x()) - b.a, qy = std::abs(p.y()) - b.b;
      const double ox = std::max(qx, 0.0), oy = std::max(qy, 0.0);
      return std::sqrt(ox * ox + oy * oy) + std::min(std::max(qx, qy), 0.0);
    }
  }
  return 0.0;
}

namespace {

/// The travelling wave itself (body2d.h, Wave2) at body coordinate x, and its rate.
double rawWave(const Body2Def& b, double x, double t, double* rate) {
  const Wave2& w = b.wave;
  const double length = 2.0 * b.a;
  const double lambda = w.wavelength > 0.0 ? w.wavelength : length;
  const double xi = std::clamp((b.a - x) / length, 0.0, 1.0);
  const double envelope = w.amplitude * (xi + 0.03125) / 1.03125;
  const double ramp = std::min(t / w.period, 1.0), rampRate = t < w.period ? 1.0 / w.period : 0.0;
  const double dir = w.reverse ? -1.0 : 1.0;  // the phase's speed along ξ
  const double phase = 2.0 * kPi * (xi * length / lambda - dir * t / w.period) + w.phase;
  *rate =
      envelope * (rampRate * std::sin(phase) - dir * ramp * 2.0 * kPi / w.period * std::cos(phase));
  return ramp * envelope * std::sin(phase);
}

}  // namespace

WaveFrame waveFrame(const Body2Def& b, double t) {
  WaveFrame f;
  if (!undulates(b)) return f;
  // Thickness-weighted moments of the midline over the ellipse (midpoint rule): the
  // displacement and rotation that carry the deformation's momentum and angular momentum.
  constexpr int kN = 256;
  double w0 = 0.0, w2 = 0.0, y0 = 0.0, y1 = 0.0, r0 = 0.0, r1 = 0.0;
  for (int k = 0; k < kN; ++k) {
    const double x = b.a * (-1.0 + (2.0 * k + 1.0) / kN);
    const double h = std::sqrt(std::max(0.0, 1.0 - (x * x) / (b.a * b.a)));
    double rate = 0.0;
    const double y = rawWave(b, x, t, &rate);
    w0 += h;
    w2 += h * x * x;
    y0 += h * y;
    y1 += h * x * y;
    r0 += h * rate;
    r1 += h * x * rate;
  }
  f.mean = y0 / w0;
  f.meanRate = r0 / w0;
  f.rotation = y1 / w2;  // Σ h x = 0: the mean does not enter
  f.rotationRate = r1 / w2;
  return f;
}

double waveOffset(const Body2Def& b, const WaveFrame& f, double x, double t, double* rate) {
  if (rate) *rate = 0.0;
  if (!undulates(b)) return 0.0;
  double r = 0.0;
  const double y = rawWave(b, x, t, &r);
  if (rate) *rate = r - f.meanRate - f.rotationRate * x;
  return y - f.mean - f.rotation * x;
}

double signedDistanceAt(const Body2Def& b, const WaveFrame& f, const Vec2& p, double t) {
  if (!undulates(b)) return signedDistance(b, p);
  return signedDistance(b, Vec2(p.x(), p.y() - waveOffset(b, f, p.x(), t, nullptr)));
}

double maskValue(double d, double eps) {
  if (d <= -eps) return 1.0;
  if (d >= eps) return 0.0;
  return 0.5 * (1.0 - std::sin(0.5 * kPi * d / eps));
}

double boundingRadius(const Body2Def& b) {
  switch (b.shape) {
    case Shape2::kCircle:
      return b.a;
    case Shape2::kEllipse:
      return std::max(b.a, b.b) + b.wave.amplitude;
    case Shape2::kRectangle:
      return std::sqrt(b.a * b.a + b.b * b.b);
  }
  return 0.0;
}

}  // namespace samara::fluid
