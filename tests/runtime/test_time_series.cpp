// Plot history: ring buffer, time search, runs (generations).
#include <catch2/catch.hpp>

#include "runtime/time_series.h"

using namespace samara;
using namespace samara::runtime;

namespace {

PlotSample sample(std::uint64_t gen, std::int64_t step, int body, double value) {
  PlotSample s;
  s.generation = gen;
  s.stepIndex = step;
  s.time = 0.01 * static_cast<double>(step);
  s.body = body;
  s.d.fallSpeed = value;
  s.d.linearMomentum = Vec3(3.0, 4.0, 0.0);
  return s;
}

}  // namespace

TEST_CASE("TimeSeries: ring buffer keeps the newest samples", "[runtime][plot]") {
  TimeSeries ts(4);
  core::BodyDiagnostics d;
  for (int i = 0; i < 6; ++i) {
    d.fallSpeed = i;
    ts.append(i * 0.5, d);
  }
  REQUIRE(ts.size() == 4);
  CHECK(ts.dropped() == 2);
  CHECK(ts.time(0) == 1.0);
  CHECK(ts.value(0, kFallSpeed) == 2.0);
  CHECK(ts.value(3, kFallSpeed) == 5.0);
  CHECK(ts.lowerBound(1.2) == 1);
  CHECK(ts.lowerBound(-1.0) == 0);
  CHECK(ts.lowerBound(9.0) == 4);
  CHECK(ts.nearest(1.7) == 1);
  CHECK(ts.nearest(1.8) == 2);
  CHECK(ts.nearest(99.0) == 3);
}

TEST_CASE("PlotHistory: per body, cleared by a new run, stale samples ignored", "[runtime][plot]") {
  PlotHistory h;
  h.consume({sample(1, 0, 0, 1.0), sample(1, 0, 1, 2.0), sample(1, 1, 0, 3.0)});
  REQUIRE(h.numBodies() == 2);
  CHECK(h.body(0).size() == 2);
  CHECK(h.body(1).size() == 1);
  CHECK(h.body(0).value(1, kFallSpeed) == 3.0);
  CHECK(h.body(0).value(0, kPNorm) == 5.0);
  h.consume({sample(2, 0, 0, 9.0)});
  CHECK(h.generation() == 2);
  CHECK(h.body(0).size() == 1);
  h.consume({sample(1, 5, 0, 7.0)});  // late sample of the old run
  CHECK(h.body(0).size() == 1);
  CHECK(h.received() == 1);
}
