// The exact added mass (issue 18): the potential-flow solve at 1k, 2k and 5k faces, and
// what a cached tensor costs a scene's start.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "geometry/potential_flow.h"
#include "geometry/primitives.h"
#include "io/added_mass_cache.h"

using namespace samara;

namespace {

/// Geodesic spheres of 980, 2 000 and 5 120 faces (frequency 7, 10, 16).
void BM_ExactAddedMassSolve(benchmark::State& state) {
  const geometry::TriMesh mesh =
      geometry::makeGeodesicSphere(0.05, static_cast<int>(state.range(0)));
  int iterations = 0;
  for (auto _ : state) {
    const geometry::PotentialFlowResult r = geometry::solvePotentialFlow(mesh, {});
    iterations = r.iterations;
    benchmark::DoNotOptimize(r.addedUnit);
  }
  const double n = mesh.numFaces();
  state.counters["faces"] = n;
  state.counters["gmres_iterations"] = iterations;
  state.counters["dense_MB"] = 8.0 * n * n / 1e6;  // the one N × N matrix
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  state.counters["peak_rss_MB"] = static_cast<double>(ru.ru_maxrss) / 1024.0;
}
BENCHMARK(BM_ExactAddedMassSolve)->Arg(7)->Arg(10)->Arg(16)->Unit(benchmark::kMillisecond);

/// A scene's start when the tensor is in the cache: hash the mesh, read the file.
void BM_ExactAddedMassCacheHit(benchmark::State& state) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "samara_bench_added_mass_cache";
  ::setenv("SAMARA_CACHE_DIR", dir.c_str(), 1);
  core::WorldDef def;
  core::BodyDef body;
  body.mesh = geometry::makeGeodesicSphere(0.05, 10);
  body.addedMass = core::AddedMassSource::kExact;
  def.bodies = {body};
  core::WorldDef first = def;
  io::resolveExactAddedMass(&first, "bench");  // fills the cache
  for (auto _ : state) {
    core::WorldDef d = def;
    const io::AddedMassCacheReport r = io::resolveExactAddedMass(&d, "bench");
    if (r.cached != 1) state.SkipWithError("not a cache hit");
    benchmark::DoNotOptimize(d.bodies[0].exactAddedUnit);
  }
  state.counters["faces"] = body.mesh.numFaces();
  std::filesystem::remove_all(dir);
  ::unsetenv("SAMARA_CACHE_DIR");
}
BENCHMARK(BM_ExactAddedMassCacheHit)->Unit(benchmark::kMicrosecond);

}  // namespace
