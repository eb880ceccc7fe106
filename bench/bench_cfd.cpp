// The 2D Navier–Stokes reference (issue 19): cost of a step of a falling plate, per cell,
// at 128², 256² and 512² cells on one and two threads.
#include <benchmark/benchmark.h>

#include "fluid/ns2d.h"

using namespace samara;

namespace {

/// range(0): cells per side; range(1): threads. A 1 cm ellipse (thickness 1/8) in water,
/// falling for 100 steps first so the flow around it is not trivial.
void BM_Ns2Step(benchmark::State& state) {
  fluid::Ns2Def d;
  d.nx = d.ny = static_cast<int>(state.range(0));
  d.dx = 0.08 / d.nx;  // an 8-chord window
  d.fluidDensity = 1000.0;
  d.viscosity = 1e-6;
  d.dt = 0.05 * d.dx / 0.3;
  d.spongeWidth = 0.01;
  d.spongeTime = 0.02;
  d.threads = static_cast<int>(state.range(1));
  d.body.a = 0.005;
  d.body.b = 0.000625;
  d.body.density = 1600.0;
  d.body.angle = 0.3;
  fluid::Ns2Solver s(d);
  for (int i = 0; i < 100; ++i) (void)s.step();
  for (auto _ : state) benchmark::DoNotOptimize(s.step());
  const double cells = static_cast<double>(d.nx) * d.ny;
  state.counters["ns_per_cell"] = benchmark::Counter(
      cells, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["cell_steps_per_s"] =
      benchmark::Counter(cells, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Ns2Step)
    ->Args({128, 1})
    ->Args({256, 1})
    ->Args({256, 2})
    ->Args({512, 1})
    ->Args({512, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
