// Google Benchmark harness: one step of a rigid body (1k, 10k, 100k faces), the setup
// cost (topology, mass properties, δ, added mass) of a 100k-face mesh, and a crowd of N
// plates on 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "core/animation.h"
#include "core/face_kernel.h"
#include "core/flow_law.h"
#include "core/gusts.h"
#include "core/thread_pool.h"
#include "core/world.h"
#include "geometry/mass_properties.h"
#include "geometry/primitives.h"
#include "models/registry.h"

using namespace samara;
using namespace samara::core;

namespace {

/// A box with `cells`² cells per side: 12·cells² faces (9 → 972, 29 → 10 092, 91 → 99 372).
WorldDef tumblingBox(int cells) {
  WorldDef def;
  def.fluid.density = 1.225;
  def.fluid.wind = Vec3(0.3, 0.0, 0.1);
  def.dt = 0.002;
  BodyDef b;
  b.mesh = geometry::makeBox(Vec3(0.1, 0.02, 0.06), cells);
  b.mass.density = 300.0;
  b.position = Vec3(0, 10, 0);
  b.orientation = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 0, 1).normalized()));
  b.angularVelocity = Vec3(1.0, 4.0, 0.5);
  b.velocity = Vec3(0.2, -0.5, 0.0);
  def.bodies.push_back(b);
  return def;
}

/// Times world.step() (restarting from `start` every 2000 steps to stay in one regime) and
/// reports ns per face per step and the mean Newton iterations.
void timeSteps(benchmark::State& state, World* world) {
  const int faces = world->info(0).faces;
  for (int k = 0; k < 50; ++k) (void)world->step();  // get it moving
  const World start(*world);
  int64_t steps = 0;
  int64_t iters = 0;
  for (auto _ : state) {
    const StepReport r = world->step();
    iters += r.newtonIterations;
    benchmark::DoNotOptimize(r);
    if (++steps % 2000 == 0) *world = start;
  }
  state.counters["faces"] = faces;
  state.counters["ns_per_face_step"] =
      benchmark::Counter(static_cast<double>(steps) * faces * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["newton_iters"] = static_cast<double>(iters) / static_cast<double>(steps);
}

void BM_RigidStep(benchmark::State& state) {
  World world(tumblingBox(static_cast<int>(state.range(0))));
  timeSteps(state, &world);
}
// Argument: cells per box side.
BENCHMARK(BM_RigidStep)->Arg(9)->Arg(29)->Arg(91)->Unit(benchmark::kMicrosecond);

/// The same box as BM_RigidStep, undulating with a travelling wave (shape velocity, δ,
/// Kirchhoff tensor and μ⁰ recomputed every step).
void BM_ShapeChangingStep(benchmark::State& state) {
  WorldDef def = tumblingBox(static_cast<int>(state.range(0)));
  auto wave = std::make_shared<TravellingWave>();
  wave->rest = def.bodies[0].mesh.V;
  wave->axis = Vec3(1, 0, 0);
  wave->lateral = Vec3(0, 0, 1);
  wave->a0 = 0.002;
  wave->a2 = 0.01;
  wave->wavelength = 0.08;
  wave->frequency = 2.0;
  wave->prepare();
  def.bodies[0].animation = wave;
  World world(def);
  timeSteps(state, &world);
}
BENCHMARK(BM_ShapeChangingStep)->Arg(9)->Arg(29)->Arg(91)->Unit(benchmark::kMicrosecond);

/// The 1k-face box under each fluid model (issue 6): what a model costs per step against
/// samara's own (index into models::modelNames(): samara, gwtf-2024, vacuum, mujoco-inertia,
/// mujoco-ellipsoid, xie-miyata, gross-dissipative, gross-inertial).
void BM_ModelStep(benchmark::State& state) {
  const std::string name = models::modelNames()[static_cast<size_t>(state.range(0))];
  WorldDef def = tumblingBox(9);
  models::setModel(&def.bodies[0], name);
  World world(def);
  state.SetLabel(name);
  timeSteps(state, &world);
}
BENCHMARK(BM_ModelStep)->DenseRange(0, 7)->Unit(benchmark::kMicrosecond);

/// The same box under samara with its circulation terms: 0 APW's law in samara's terms
/// (ct 0.4, cr 2π, cd0 0.4), 1 the candidate (core::kCirculationCandidate), both in the
/// vectorised kernel of the whole law, against BM_ModelStep's samara (pressure and friction).
void BM_CirculationStep(benchmark::State& state) {
  FlowLawCoefficients c = kCirculationCandidate;
  if (state.range(0) == 0) c = FlowLawCoefficients{1.0, kApwCT, kApwCR, kIsotropicCD0, 0.0};
  WorldDef def = tumblingBox(9);
  def.bodies[0].model = std::make_shared<GwtfModel>(c);
  World world(def);
  state.SetLabel(state.range(0) == 0 ? "apw" : "candidate");
  timeSteps(state, &world);
}
BENCHMARK(BM_CirculationStep)->DenseRange(0, 1)->Unit(benchmark::kMicrosecond);

/// The face kernel alone (wrench and Jacobian of samara's law with friction; 10 092 faces of
/// the tumbling box, one evaluation) on each instruction set it is compiled for: 0 SSE2,
/// 1 AVX2, 2 AVX-512F (the same bits on each; skipped where the processor lacks it).
void BM_FaceKernel(benchmark::State& state) {
  const auto isa = static_cast<FaceKernelIsa>(state.range(0));
  state.SetLabel(faceKernelIsaName(isa));
  if (!faceKernelSupported(isa)) {
    state.SkipWithError("not supported by this processor");
    return;
  }
  const geometry::TriMesh mesh = geometry::makeBox(Vec3(0.1, 0.02, 0.06), 29);
  geometry::FaceGeometry geo;
  geometry::computeFaceGeometry(mesh, &geo);
  DragFaces faces;
  FlowLawFaces law;
  for (int f = 0; f < mesh.numFaces(); ++f) {
    Vec6 a;
    a << geo.centroid[f].cross(geo.normal[f]), geo.normal[f];
    faces.add(a, geo.centroid[f], 0.5 * 1.225 * geo.area[f]);
  }
  law.fric.assign(static_cast<size_t>(faces.padded), 0.0);
  law.visc = law.fric;
  for (size_t f = 0; f < faces.size(); ++f) {
    law.fric[f] = kBlasius * std::sqrt(1.5e-5 / 0.1);
    law.visc[f] = kImai * 1.5e-5 / 0.1;
  }
  Vec6 Y;
  Y << 1.0, 4.0, 0.5, 0.2, -0.5, 0.0;
  for (auto _ : state) {
    Vec6 F = Vec6::Zero();
    Mat6 J = Mat6::Zero();
    addPackedFaceWrench(faces, &law, 1.0, Y, Vec3(-0.3, 0.0, -0.1), nullptr, &F, &J, isa);
    benchmark::DoNotOptimize(J);
  }
  state.counters["ns_per_face"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(faces.size()) * 1e-9,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_FaceKernel)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

void BM_SetupBody100k(benchmark::State& state) {
  const WorldDef def = tumblingBox(91);
  for (auto _ : state) {
    World world(def);
    benchmark::DoNotOptimize(world.info(0).kirchhoff);
  }
  state.counters["faces"] = static_cast<double>(def.bodies[0].mesh.numFaces());
}
BENCHMARK(BM_SetupBody100k)->Unit(benchmark::kMillisecond);

void BM_MassPropertiesAndDelta100k(benchmark::State& state) {
  const geometry::TriMesh mesh = geometry::makeBox(Vec3(0.1, 0.02, 0.06), 91);
  const geometry::Topology topo = geometry::buildTopology(mesh);
  geometry::FaceGeometry geo;
  for (auto _ : state) {
    geometry::computeFaceGeometry(mesh, &geo);
    const geometry::MassMoments m = geometry::solidMoments(mesh, topo.parts[0], 300.0);
    const double delta = geometry::computeDelta(mesh, topo, geo);
    benchmark::DoNotOptimize(m);
    benchmark::DoNotOptimize(delta);
  }
  state.counters["faces"] = mesh.numFaces();
}
BENCHMARK(BM_MassPropertiesAndDelta100k)->Unit(benchmark::kMillisecond);

// --- a crowd: N identical plates stepped on 1 or 2 threads (World::setThreads) ----------------

/// N plates of 12 × 12 cells (288 faces, 10 cm × 6 cm, 140 g/m²: a leaf) on a grid 0.5 m
/// apart, each tilted and spinning a little differently (deterministic in its index).
WorldDef plateCrowd(int n) {
  WorldDef def;
  def.fluid.density = 1.225;
  def.fluid.wind = Vec3(0.3, 0.0, 0.1);
  def.dt = 0.002;
  const geometry::TriMesh plate = geometry::makePlate(0.1, 0.06, 12, 12);
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
  for (int i = 0; i < n; ++i) {
    BodyDef b;
    b.name = "leaf_" + std::to_string(i);
    b.mesh = plate;
    b.mass.density = 700.0;
    b.mass.thickness = 0.0002;
    b.position = Vec3(0.5 * (i % side), 50.0, 0.5 * (i / side));
    const double a = 0.1 + 0.37 * (i % 7);
    b.orientation = Quat(Eigen::AngleAxisd(a, Vec3(1.0, 0.2 * (i % 3), 1.0).normalized()));
    b.angularVelocity = Vec3(0.5 * (i % 5), 1.0, 0.3 * (i % 4));
    def.bodies.push_back(std::move(b));
  }
  return def;
}

/// Wall time per step of the whole crowd (real time) and µs per body per step: one step()
/// at a time (block 1), or World::advance(block), each body its block of steps in a row
/// (what `samara run` and `samara bench` take between the steps they show).
void BM_CrowdStep(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int block = static_cast<int>(state.range(2));
  World world(plateCrowd(n));
  world.setThreads(static_cast<int>(state.range(1)));
  for (int k = 0; k < 20; ++k) (void)world.step();  // get them moving
  const World start(world);
  int64_t steps = 0;
  double wall = 0.0;  // s in step(), by the wall clock (the counters' rates use CPU time)
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    if (block == 1) {
      benchmark::DoNotOptimize(world.step());
    } else {
      benchmark::DoNotOptimize(world.advance(block));
    }
    wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    steps += block;
    if (steps % 512 == 0) {
      state.PauseTiming();
      world = start;
      state.ResumeTiming();
    }
  }
  state.counters["bodies"] = n;
  state.counters["threads"] = static_cast<double>(state.range(1));
  state.counters["block"] = block;
  state.counters["us_per_body_step"] = wall * 1e6 / (static_cast<double>(steps) * n);
}
// Arguments: bodies, threads, block.
BENCHMARK(BM_CrowdStep)
    ->ArgsProduct({{10, 100, 1000}, {1, 2}, {1, 8, 64}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

/// One hand-off to a pool of 2 threads and back (the caller's wait for the worker), with
/// empty tasks: what a step pays twice for its threads.
void BM_PoolHandOff(benchmark::State& state) {
  ThreadPool pool(2);
  for (auto _ : state) pool.run(2, [](int i) { benchmark::DoNotOptimize(i); });
}
BENCHMARK(BM_PoolHandOff)->UseRealTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();

/// The gust field's eight waves at 10 000 body points moved to the world and subtracted in
/// the body frame (what a step does per face of a body in gusts), on each instruction set.
void BM_GustWaves(benchmark::State& state) {
  const auto isa = static_cast<FaceKernelIsa>(state.range(0));
  state.SetLabel(faceKernelIsaName(isa));
  if (!faceKernelSupported(isa)) {
    state.SkipWithError("not supported by this processor");
    return;
  }
  const std::size_t n = 10000;
  std::vector<double> c(3 * n), o(3 * n, 0.0), mode(7 * 8);
  for (std::size_t i = 0; i < 3 * n; ++i) c[i] = 0.05 * std::sin(0.37 * static_cast<double>(i));
  for (std::size_t i = 0; i < mode.size(); ++i) mode[i] = std::cos(1.3 * static_cast<double>(i));
  const Mat3 R = Eigen::AngleAxisd(0.4, Vec3(1, 0, 1).normalized()).toRotationMatrix();
  for (auto _ : state) {
    subtractWavesInBody(n, c.data(), c.data() + n, c.data() + 2 * n, R, Vec3(1, 5, 2),
                        Vec3(0.1, 0, 0), 8, mode.data(), o.data(), o.data() + n, o.data() + 2 * n,
                        isa);
    benchmark::DoNotOptimize(o.data());
  }
  state.counters["ns_per_point"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GustWaves)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

/// One leaf of leaf_storm in its gusts (245 face centroids within 7 cm of the leaf's centre,
/// the storm's waves: 1 m/s RMS, 2 m long, seed 11): GustField::subtractInBody as a step
/// calls it, every face sampled (0) or the waves expanded to second order about the leaf (1).
void BM_GustLeaf(benchmark::State& state) {
  GustDef def;
  def.amplitude = 1.0;
  def.period = 1.5;
  def.length = 2.0;
  def.seed = 11;
  def.sampling = state.range(0) == 0 ? GustSampling::kFaces : GustSampling::kQuadratic;
  state.SetLabel(state.range(0) == 0 ? "faces" : "quadratic");
  const GustField field(def);
  const std::size_t n = 245;
  std::vector<double> c(3 * n), o(3 * n, 0.0);
  for (std::size_t i = 0; i < 3 * n; ++i) c[i] = 0.04 * std::sin(0.37 * static_cast<double>(i));
  const Mat3 R = Eigen::AngleAxisd(0.4, Vec3(1, 0, 1).normalized()).toRotationMatrix();
  double t = 0.0;
  for (auto _ : state) {
    field.subtractInBody(n, c.data(), c.data() + n, c.data() + 2 * n, R, Vec3(1, 5, 2), t,
                         Vec3(0.1, 0, 0), o.data(), o.data() + n, o.data() + 2 * n);
    t += 0.002;
    benchmark::DoNotOptimize(o.data());
  }
  state.counters["ns_per_point"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n) * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GustLeaf)->DenseRange(0, 1);
