#pragma once
// Axis tick logic for the plot widget: "nice" steps of 1, 2 or 5 × 10^k, tick values over a
// range, labels, and range clean-up. No GL, no ImGui (unit tested in tests/app).
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

/// Label of a tick `value` on an axis with step `step`: fixed-point with just enough
/// decimals ("0.25", "-3", "1200"), or scientific ("2.5e-07", "1.2e+09") for very small or
/// very large magnitudes.
std::string formatTick(double value, double step);

}  // namespace samara::app
