#include "fluid/body2d.h"

#include <algorithm>
#include <cmath>

namespace samara::fluid {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

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
      return std::max(b.a, b.b);
    case Shape2::kRectangle:
      return std::sqrt(b.a * b.a + b.b * b.b);
  }
  return 0.0;
}

}  // namespace samara::fluid
