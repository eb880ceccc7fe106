// Honest plots (issue 14): round-off far below a body's natural scale is drawn as 0 and never
// blown up into an axis. Runs real scenes through the core and feeds their plotted
// quantities through the plot widget's range logic (no GL).
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "app/widgets/ticks.h"
#include "core/world.h"
#include "io/scene.h"

using namespace samara;
using samara::app::denoised;
using samara::app::naturalScales;
using samara::app::plotRange;

namespace {

struct Axis {
  double lo = 1e300, hi = -1e300;  // of the samples as drawn
  double ylo = 0.0, yhi = 0.0;     // the axis
};

/// The drawn range and the axis of channel `get` over steps [from, to) of `scene`.
template <class Get>
Axis plotted(const std::string& scene, int from, int to, int scaleIndex, Get get) {
  core::World w(io::loadScene(std::string(SAMARA_SOURCE_DIR) + "/assets/scenes/" + scene));
  Axis a;
  double zero = 0.0, floor = 0.0;
  for (int k = 0; k < to; ++k) {
    REQUIRE(w.step().ok());
    if (k < from) continue;
    const core::BodyDiagnostics d = w.diagnostics(0);
    const core::BodyInfo info = w.info(0);
    const double scale =
        naturalScales(info.mass, info.boundRadius, w.definition().gravity.norm(), d.velocity.norm(),
                      d.omega.norm())[static_cast<std::size_t>(scaleIndex)];
    zero = 1e-9 * scale;
    floor = 1e-4 * scale;
    const double v = denoised(get(d), zero);
    a.lo = std::min(a.lo, v);
    a.hi = std::max(a.hi, v);
  }
  plotRange(a.lo, a.hi, floor, &a.ylo, &a.yhi);
  INFO(scene << ": drawn [" << a.lo << ", " << a.hi << "], axis [" << a.ylo << ", " << a.yhi
             << "], floor " << floor);
  CHECK(a.yhi - a.ylo >= 2.0 * floor);
  return a;
}

}  // namespace

TEST_CASE("plots: a resting box shows flat zero lines, not round-off", "[app][plots]") {
  // box_on_floor: the box lands within ~0.6 s; from 2 s on it rests (|v| ~ 1e-14 m/s).
  const Axis fall =
      plotted("box_on_floor.json", 1000, 1500, 2, [](const auto& d) { return d.fallSpeed; });
  CHECK(fall.lo == 0.0);
  CHECK(fall.hi == 0.0);
  const Axis p = plotted("box_on_floor.json", 1000, 1500, 0,
                         [](const auto& d) { return d.linearMomentum.norm(); });
  CHECK(p.hi == 0.0);
}

TEST_CASE("plots: Dzhanibekov's spinning body shows no fall speed and no momentum",
          "[app][plots]") {
  // Zero gravity, no fluid: the fall speed and the linear momentum are round-off (1e-30).
  const Axis fall =
      plotted("lesson_dzhanibekov.json", 0, 2000, 2, [](const auto& d) { return d.fallSpeed; });
  CHECK(fall.lo == 0.0);
  CHECK(fall.hi == 0.0);
  const Axis p = plotted("lesson_dzhanibekov.json", 0, 2000, 0,
                         [](const auto& d) { return d.linearMomentum.norm(); });
  CHECK(p.hi == 0.0);
  // Its rotation is real and is drawn as it is.
  const Axis w =
      plotted("lesson_dzhanibekov.json", 0, 2000, 3, [](const auto& d) { return d.omega.norm(); });
  CHECK(w.hi > 1.0);
}

TEST_CASE("plots: real motion above the floor keeps its own axis", "[app][plots]") {
  // A 1 mm/s drift of a body whose natural speed is ~0.3 m/s stays visible.
  double ylo = 0.0, yhi = 0.0;
  plotRange(0.0, 1e-3, 1e-4 * 0.3, &ylo, &yhi);
  CHECK(ylo <= 0.0);
  CHECK(yhi >= 1e-3);
  CHECK(yhi < 2e-3);
  CHECK(denoised(1e-3, 1e-9 * 0.3) == 1e-3);
  CHECK(denoised(-2e-10, 1e-9 * 0.3) == 0.0);
}
