#pragma once
// Axis tick logic for the plot widget: "nice" steps of 1, 2 or 5 × 10^k, tick values over a
// range, labels, and range clean-up. No GL, no ImGui (unit tested in tests/app).
#include <array>
#include <string>
#include <vector>

namespace samara::app {

/// The smallest step of the form {1, 2, 5} × 10^k that is ≥ `raw` (> 0). Returns 1 for a
/// non-positive or non-finite `raw`.
double niceStep(double raw);

/// Makes [lo, hi] usable for an axis: swaps reversed bounds, widens an empty or tiny range
/// around its value (±10 % of |value|, or ±1 at 0), and replaces non-finite bounds by [0, 1].
void sanitizeRange(double* lo, double* hi);

struct Ticks {
  double step = 1.0;           ///< distance between ticks
  std::vector<double> values;  ///< tick positions inside [lo, hi], increasing
};

/// About `target` (≥ 2) ticks at multiples of a nice step inside [lo, hi] (sanitized first).
/// Values are exact multiples k·step, with |value| < 10⁻⁹·step snapped to 0.
Ticks computeTicks(double lo, double hi, int target = 5);

/// Widens [lo, hi] outward to multiples of the nice step for `target` ticks.
void niceRange(double* lo, double* hi, int target = 5);

/// The value drawn for a sample `v`: 0 when |v| < `zeroBelow` (round-off of a quantity
/// whose natural scale is far larger: a resting body's 1e-14 m/s), else `v`.
inline double denoised(double v, double zeroBelow) {
  return v < zeroBelow && v > -zeroBelow ? 0.0 : v;
}

/// An axis range for data in [lo, hi] that never spans less than ±`floor` around 0 (a
/// physical floor: nothing below it is read as motion), padded by 5 % and widened to nice
/// ticks (niceRange).
void plotRange(double lo, double hi, double floor, double* ylo, double* yhi, int target = 4);

/// Natural scales of a body's plotted quantities, in the plots' order: linear momentum
/// m U, angular momentum m U r, fall speed U, rotation speed U / r, kinetic energy m U², with
/// U = max(√(g r), |v|, |ω| r) (a resting body: its free-fall speed over its own size; a
/// body spinning in zero g: its rim speed) and r ≥ 1 mm, m ≥ 1e-12 kg.
std::array<double, 5> naturalScales(double mass, double radius, double gravity, double speed,
                                    double omega);

/// Label of a tick `value` on an axis with step `step`: fixed-point with just enough
/// decimals ("0.25", "-3", "1200"), or scientific ("2.5e-07", "1.2e+09") for very small or
/// very large magnitudes.
std::string formatTick(double value, double step);

}  // namespace samara::app
