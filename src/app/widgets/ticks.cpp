#include "app/widgets/ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

namespace samara::app {

double niceStep(double raw) {
  if (!(raw > 0.0) || !std::isfinite(raw)) return 1.0;
  const double exponent = std::floor(std::log10(raw));
  const double base = std::pow(10.0, exponent);
  const double f = raw / base;
  // Guard the comparisons against round-off in log10/pow (f may be 0.9999999 or 10.000001).
  const double eps = 1e-9;
  double nice;
  if (f <= 1.0 + eps) {
    nice = 1.0;
  } else if (f <= 2.0 + eps) {
    nice = 2.0;
  } else if (f <= 5.0 + eps) {
    nice = 5.0;
  } else {
    nice = 10.0;
  }
  return nice * base;
}

void sanitizeRange(double* lo, double* hi) {
  if (!std::isfinite(*lo) || !std::isfinite(*hi)) {
    *lo = 0.0;
    *hi = 1.0;
    return;
  }
  if (*lo > *hi) std::swap(*lo, *hi);
  const double mag = std::max(std::abs(*lo), std::abs(*hi));
  // A range narrower than a few ulps of its magnitude cannot hold distinct ticks.
  if (*hi - *lo <= mag * 1e-12 || *hi - *lo < 1e-300) {
    const double mid = 0.5 * (*lo + *hi);
    const double half = mid == 0.0 || std::abs(mid) < 1e-300 ? 1.0 : 0.1 * std::abs(mid);
    *lo = mid - half;
    *hi = mid + half;
  }
}

Ticks computeTicks(double lo, double hi, int target) {
  sanitizeRange(&lo, &hi);
  target = std::max(target, 2);
  Ticks t;
  t.step = niceStep((hi - lo) / target);
  const double kLo = std::ceil(lo / t.step - 1e-9);
  const double kHi = std::floor(hi / t.step + 1e-9);
  if (!(kHi >= kLo) || kHi - kLo > 1000.0) return t;
  for (double k = kLo; k <= kHi; k += 1.0) {
    double v = k * t.step;
    if (std::abs(v) < 1e-9 * t.step) v = 0.0;
    t.values.push_back(v);
  }
  return t;
}

void niceRange(double* lo, double* hi, int target) {
  sanitizeRange(lo, hi);
  const double step = niceStep((*hi - *lo) / std::max(target, 2));
  *lo = std::floor(*lo / step + 1e-9) * step;
  *hi = std::ceil(*hi / step - 1e-9) * step;
}

std::string formatTick(double value, double step) {
  char buf[64];
  if (value == 0.0) return "0";
  step = std::abs(step);
  if (!(step > 0.0) || !std::isfinite(step)) step = std::abs(value);
  const double mag = std::max(std::abs(value), step);
  if (step < 1e-3 || mag >= 1e6) {
    // Scientific: enough significant digits to tell neighbouring ticks apart.
    const int digits = std::clamp(
        static_cast<int>(std::floor(std::log10(std::abs(value))) - std::floor(std::log10(step))), 0,
        15);
    std::snprintf(buf, sizeof buf, "%.*e", digits, value);
    // Trim zeros of the mantissa: 2.50e-07 → 2.5e-07.
    std::string s(buf);
    const std::size_t e = s.find('e');
    std::string mant = s.substr(0, e);
    if (mant.find('.') != std::string::npos) {
      while (!mant.empty() && mant.back() == '0') mant.pop_back();
      if (!mant.empty() && mant.back() == '.') mant.pop_back();
    }
    return mant + s.substr(e);
  }
  const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 15);
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

void plotRange(double lo, double hi, double floor, double* ylo, double* yhi, int target) {
  if (!(lo <= hi)) {
    lo = 0.0;
    hi = 0.0;
  }
  if (floor > 0.0 && std::isfinite(floor) && hi - lo < 2.0 * floor) {
    // Too narrow to mean anything: at least ±floor, around 0 when the data lie inside it,
    // else around the data's middle.
    const double mid = (lo >= -floor && hi <= floor) ? 0.0 : 0.5 * (lo + hi);
    lo = std::min(lo, mid - floor);
    hi = std::max(hi, mid + floor);
  }
  if (lo >= hi) {
    lo = 0.0;
    hi = 1.0;
  }
  const double pad = 0.05 * (hi - lo);
  *ylo = lo - pad;
  *yhi = hi + pad;
  niceRange(ylo, yhi, target);
}

std::array<double, 5> naturalScales(double mass, double radius, double gravity, double speed,
                                    double omega) {
  const double r = std::max(radius, 1e-3);
  const double m = std::max(mass, 1e-12);
  const double u = std::max({std::sqrt(std::max(gravity, 0.0) * r), speed, omega * r, 1e-9});
  return {m * u, m * u * r, u, u / r, m * u * u};
}

}  // namespace samara::app
