// Axis ticks of the plot widget: nice steps, tick values, labels, degenerate ranges.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "app/widgets/ticks.h"

using namespace samara::app;

namespace {

/// True if x is 1, 2 or 5 times a power of ten (up to round-off).
bool isNice(double x) {
  const double e = std::floor(std::log10(x));
  const double m = x / std::pow(10.0, e);
  for (double n : {1.0, 2.0, 5.0, 10.0}) {
    if (std::abs(m - n) < 1e-9 * n) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("niceStep rounds up to 1, 2 or 5 times a power of ten", "[app][ticks]") {
  CHECK(niceStep(1.0) == Approx(1.0));
  CHECK(niceStep(1.1) == Approx(2.0));
  CHECK(niceStep(2.0) == Approx(2.0));
  CHECK(niceStep(2.01) == Approx(5.0));
  CHECK(niceStep(4.9) == Approx(5.0));
  CHECK(niceStep(5.1) == Approx(10.0));
  CHECK(niceStep(0.03) == Approx(0.05));
  CHECK(niceStep(0.1) == Approx(0.1));
  CHECK(niceStep(7e-9) == Approx(1e-8));
  CHECK(niceStep(3e12) == Approx(5e12));
  CHECK(niceStep(0.0) == 1.0);
  CHECK(niceStep(-3.0) == 1.0);
  CHECK(niceStep(std::numeric_limits<double>::quiet_NaN()) == 1.0);
  for (double raw = 1e-12; raw < 1e12; raw *= 1.37) {
    const double s = niceStep(raw);
    INFO("raw " << raw);
    CHECK(s >= raw * (1 - 1e-12));
    CHECK(s < raw * 2.5 + 1e-300);
    CHECK(isNice(s));
  }
}

TEST_CASE("computeTicks covers the range with nice multiples", "[app][ticks]") {
  SECTION("positive") {
    const Ticks t = computeTicks(0.0, 10.0, 5);
    CHECK(t.step == Approx(2.0));
    REQUIRE(t.values.size() == 6);
    CHECK(t.values.front() == 0.0);
    CHECK(t.values.back() == Approx(10.0));
  }
  SECTION("negative and crossing zero") {
    const Ticks t = computeTicks(-3.7, 1.2, 5);
    CHECK(t.step == Approx(1.0));
    REQUIRE(t.values.size() == 5);
    CHECK(t.values.front() == Approx(-3.0));
    CHECK(t.values.back() == Approx(1.0));
    bool hasExactZero = false;
    for (double v : t.values) hasExactZero |= (v == 0.0 && !std::signbit(v));
    CHECK(hasExactZero);
  }
  SECTION("all negative") {
    const Ticks t = computeTicks(-0.0042, -0.0011, 4);
    CHECK(t.step == Approx(0.001));
    for (double v : t.values) {
      CHECK(v >= -0.0042 - 1e-15);
      CHECK(v <= -0.0011 + 1e-15);
    }
    CHECK(t.values.size() == 3);
  }
  SECTION("tiny") {
    const Ticks t = computeTicks(1e-9, 5e-9, 4);
    CHECK(t.step == Approx(1e-9));
    CHECK(t.values.size() == 5);
  }
  SECTION("huge") {
    const Ticks t = computeTicks(-2e15, 7e15, 5);
    CHECK(t.step == Approx(2e15));
    CHECK(t.values.size() == 5);
  }
  SECTION("reversed bounds are swapped") {
    const Ticks t = computeTicks(10.0, 0.0, 5);
    CHECK(t.values.size() == 6);
  }
  SECTION("between ticks on a fine grid, every value is a multiple of the step") {
    for (double lo = -7.3; lo < 7.0; lo += 0.91) {
      const Ticks t = computeTicks(lo, lo + 0.37, 5);
      REQUIRE(!t.values.empty());
      for (double v : t.values) {
        const double k = v / t.step;
        CHECK(std::abs(k - std::round(k)) < 1e-9);
      }
    }
  }
}

TEST_CASE("Degenerate ranges are widened, non-finite ones replaced", "[app][ticks]") {
  double lo = 5.0, hi = 5.0;
  sanitizeRange(&lo, &hi);
  CHECK(lo == Approx(4.5));
  CHECK(hi == Approx(5.5));
  lo = hi = 0.0;
  sanitizeRange(&lo, &hi);
  CHECK(lo == -1.0);
  CHECK(hi == 1.0);
  lo = hi = -2e-20;
  sanitizeRange(&lo, &hi);
  CHECK(lo < -2e-20);
  CHECK(hi > -2e-20);
  CHECK(computeTicks(-2e-20, -2e-20).values.size() >= 2);
  lo = std::numeric_limits<double>::quiet_NaN();
  hi = 1.0;
  sanitizeRange(&lo, &hi);
  CHECK(lo == 0.0);
  CHECK(hi == 1.0);
  lo = -std::numeric_limits<double>::infinity();
  hi = 3.0;
  CHECK(computeTicks(lo, hi).values.size() >= 2);
  // A range far narrower than its magnitude (1e12 ± 1e-3) still gets ticks.
  CHECK(computeTicks(1e12, 1e12 + 1e-6).values.size() >= 1);
}

TEST_CASE("niceRange widens to multiples of the step", "[app][ticks]") {
  double lo = 0.13, hi = 0.87;
  niceRange(&lo, &hi, 4);
  CHECK(lo == Approx(0.0));
  CHECK(hi == Approx(1.0));
  lo = -1.3;
  hi = -0.2;
  niceRange(&lo, &hi, 5);  // step niceStep(1.1 / 5) = 0.5
  CHECK(lo == Approx(-1.5));
  CHECK(hi == Approx(0.0).margin(1e-15));
}

TEST_CASE("Tick labels", "[app][ticks]") {
  CHECK(formatTick(0.0, 0.5) == "0");
  CHECK(formatTick(-0.0, 1.0) == "0");
  CHECK(formatTick(2.5, 0.5) == "2.5");
  CHECK(formatTick(-3.0, 1.0) == "-3");
  CHECK(formatTick(1200.0, 200.0) == "1200");
  CHECK(formatTick(0.05, 0.05) == "0.05");
  CHECK(formatTick(0.3, 0.1) == "0.3");
  CHECK(formatTick(2.5e-7, 5e-8) == "2.5e-07");
  CHECK(formatTick(1e-7, 5e-8) == "1e-07");
  CHECK(formatTick(1.2e9, 2e8) == "1.2e+09");
  CHECK(formatTick(-4e15, 2e15) == "-4e+15");
  // Ticks of one axis get distinct labels.
  const Ticks t = computeTicks(0.00101, 0.00109, 5);
  for (std::size_t i = 1; i < t.values.size(); ++i) {
    CHECK(formatTick(t.values[i], t.step) != formatTick(t.values[i - 1], t.step));
  }
}
