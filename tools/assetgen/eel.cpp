// The eel (GwtF Fig. 12): a tapered, laterally flattened body and its travelling wave.
#include <cmath>

#include "assetgen.h"
#include "builders.h"

namespace samara::assetgen {
namespace {

constexpr double kLength = 1.0;        // m
constexpr double kHalfHeight = 0.045;  // maximum half-height (y), m

/// Half-height profile along ŝ ∈ [0, 1] (head → tail): a rounded head over the first 10 %,
/// then a slow taper to a rounded point at the tail.
double eelHalfHeight(double s) {
  const double head = s < 0.1 ? std::sqrt(1.0 - (1.0 - s / 0.1) * (1.0 - s / 0.1)) : 1.0;
  return kHalfHeight * head * std::sqrt(1.0 - s) * (1.0 + 0.3 * s);
}

/// Width-to-height ratio: 0.55 behind the head, 0.25 at the fin-like tail.
double eelFlattening(double s) { return 0.55 - 0.3 * s; }

}  // namespace

Model makeEel(double resolution) {
  const auto [rings, segments] = loftCounts(resolution, 120, 16, 12, 4);
  ModelBuilder b("eel", "eel, 1 m long along x, head at -x, laterally flattened (thin in z)");
  b.add("eel",
        loftAlongX(-0.5 * kLength, 0.5 * kLength, 0.0, 0.0, rings, segments, [](double s, Ring* r) {
          r->ryUp = r->ryDown = eelHalfHeight(s);
          r->rz = r->ryUp * eelFlattening(s);
        }));
  return b.finish();
}

WaveParams eelWave() {
  return {
      .a0 = 0.015, .a1 = 0.0, .a2 = 0.075, .wavelength = 0.75, .frequency = 1.0, .rampTime = 1.0};
}

std::shared_ptr<core::TravellingWave> makeTravellingWave(const geometry::VertexMatrix& rest,
                                                         const WaveParams& params) {
  auto w = std::make_shared<core::TravellingWave>();
  w->rest = rest;
  w->axis = Vec3::UnitX();
  w->lateral = Vec3::UnitZ();
  w->a0 = params.a0;
  w->a1 = params.a1;
  w->a2 = params.a2;
  w->wavelength = params.wavelength;
  w->frequency = params.frequency;
  w->rampTime = params.rampTime;
  w->prepare();
  return w;
}

}  // namespace samara::assetgen
