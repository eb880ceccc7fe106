// Leaves and falling plates (issue 5): leaves flutter and drift, drift grows with the wind,
// no leaf falls like in a vacuum; gusts are deterministic; thin plates show fluttering and
// steady descent, with the regime measured from the tilt history.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/face_kernel.h"
#include "core/gusts.h"
#include "core/gwtf_model.h"
#include "gallery_leaves.h"
#include "geometry/topology.h"
#include "io/scene.h"
#include "models/registry.h"

using namespace samara;
using namespace samara::assetgen;

namespace {

constexpr double kTestResolution = 0.5;  ///< the fall agrees with resolution 1 to ~1 %
constexpr double kDrop = 3.0;            ///< m
const double kVacuumTime = std::sqrt(2.0 * kDrop / 9.81);

std::vector<Model> testLeaves() {
  return {makeLeaf(LeafShape::kBeech, kTestResolution),
          makeLeaf(LeafShape::kMaple, kTestResolution),
          makeLeaf(LeafShape::kWillow, kTestResolution)};
}

std::vector<FallRecord> fall(const std::vector<Model>& leaves, const Vec3& wind,
                             const std::optional<core::GustDef>& gusts, double density = 1.225) {
  core::WorldDef def = leavesWorld(leaves, wind, gusts);
  def.fluid.density = density;
  core::World world(def);
  const Vec3 dir = wind.norm() > 0.0 ? Vec3(wind.normalized()) : Vec3(Vec3::UnitZ());
  return recordFalls(&world, kDrop, 8.0, dir);
}

}  // namespace

TEST_CASE("leaf meshes: an open blade and a closed stem, leaf areal density", "[gallery][leaves]") {
  for (LeafShape shape : {LeafShape::kBeech, LeafShape::kMaple, LeafShape::kWillow}) {
    const Model m = makeLeaf(shape, kShippedResolution);
    INFO(m.name << ": " << m.mesh.numFaces() << " faces");
    const geometry::Topology topo = geometry::buildTopology(m.mesh);
    int sheets = 0, closed = 0;
    for (const auto& p : topo.parts) (p.kind == geometry::PartKind::kClosed ? closed : sheets)++;
    CHECK(sheets == 1);
    CHECK(closed == 1);
    CHECK(m.group("blade").numFaces > 800);
    core::WorldDef def = leavesWorld({m}, Vec3::Zero(), std::nullopt);
    const core::World world(def);
    const core::BodyInfo info = world.info(0);
    // Blade 0.2 kg/m² plus a stem of a few percent.
    const Group& g = m.group("blade");
    double bladeArea = 0.0;
    for (int f = g.firstFace; f < g.firstFace + g.numFaces; ++f) {
      const Vec3 a = m.mesh.vertex(m.mesh.F(f, 0)), b = m.mesh.vertex(m.mesh.F(f, 1)),
                 c = m.mesh.vertex(m.mesh.F(f, 2));
      bladeArea += 0.5 * (b - a).cross(c - a).norm();
    }
    const double blade = kLeafDensity * kLeafThickness * bladeArea;
    std::printf("%s: %d faces (blade %d, stem %d), blade %.2f cm^2, mass %.3f g, delta %.2f mm\n",
                m.name.c_str(), m.mesh.numFaces(), g.numFaces, m.group("stem").numFaces,
                bladeArea * 1e4, info.mass * 1e3, info.delta * 1e3);
    CHECK(info.mass > blade);
    CHECK(info.mass < 1.15 * blade);
    CHECK(info.delta > 0.002);
    CHECK(info.delta < 0.02);
  }
}

TEST_CASE("leaves flutter and drift and do not fall like in a vacuum", "[gallery][leaves]") {
  const std::vector<Model> leaves = testLeaves();
  const std::vector<FallRecord> air = fall(leaves, Vec3::Zero(), std::nullopt);
  const std::vector<FallRecord> vacuum = fall(leaves, Vec3::Zero(), std::nullopt, 0.0);
  for (size_t i = 0; i < leaves.size(); ++i) {
    const FallRecord& a = air[i];
    const FallRecord& v = vacuum[i];
    std::printf(
        "leaves still %-12s fall 3 m in %.2f s (vacuum %.2f s), swing %.3f m, "
        "tilt sign changes %d, max tilt %.0f deg\n",
        leaves[i].name.c_str(), a.fallTime, v.fallTime, a.lateralSwing, a.tiltSignChanges,
        a.maxTiltDeg);
    INFO(leaves[i].name);
    REQUIRE(a.reached);
    REQUIRE(v.reached);
    // The vacuum twin is free fall: straight down, no rocking.
    CHECK(v.fallTime == Approx(kVacuumTime).margin(0.005));
    CHECK(v.lateralSwing < 1e-6);
    CHECK(v.tiltSignChanges == 0);
    // In air: much slower, swinging sideways and rocking (the tilt changes sign).
    CHECK(a.fallTime > 2.5 * kVacuumTime);
    CHECK(a.lateralSwing > 0.02);
    CHECK(a.tiltSignChanges >= 4);
  }
}

TEST_CASE("leaves drift further the stronger the wind", "[gallery][leaves]") {
  const std::vector<Model> leaves = testLeaves();
  const double winds[] = {0.0, 2.0, 3.0};
  std::vector<double> mean;
  std::vector<std::vector<FallRecord>> runs;
  for (double w : winds) {
    runs.push_back(fall(leaves, Vec3(0.0, 0.0, w), std::nullopt));
    double m = 0.0;
    for (const FallRecord& r : runs.back()) {
      REQUIRE(r.reached);
      m += r.meanDrift / static_cast<double>(leaves.size());
    }
    std::printf("leaves wind %.1f m/s: drift along the wind over a 3 m fall:", w);
    for (size_t i = 0; i < leaves.size(); ++i) {
      std::printf(" %s %.2f m (%.2f s)", leaves[i].name.c_str(), runs.back()[i].meanDrift,
                  runs.back()[i].fallTime);
    }
    std::printf("; mean %.2f m\n", m);
    mean.push_back(m);
  }
  CHECK(mean[1] > mean[0] + 0.2);
  CHECK(mean[2] > mean[1] + 0.5);
  for (size_t i = 0; i < leaves.size(); ++i) {
    INFO(leaves[i].name);
    CHECK(runs[2][i].meanDrift > runs[0][i].meanDrift + 0.5);
    CHECK(runs[2][i].tiltSignChanges >= 4);  // still fluttering, not just carried
  }
}

TEST_CASE("gusts: deterministic, seeded, RMS = amplitude, divergence free",
          "[gallery][leaves][gusts]") {
  const core::GustDef def = leafGusts();
  const core::GustField a(def), b(def);
  core::GustDef other = def;
  other.seed = def.seed + 1;
  const core::GustField c(other);
  double sum2 = 0.0, maxDiv = 0.0, maxDiff = 0.0;
  int n = 0;
  for (int i = 0; i < 40; ++i) {
    for (int k = 0; k < 50; ++k) {
      const Vec3 x(0.37 * i, 0.11 * i - 0.5, -0.23 * i);
      const double t = 0.61 * k;
      const Vec3 u = a.velocity(x, t);
      REQUIRE(u == b.velocity(x, t));  // same seed, same bits
      maxDiff = std::max(maxDiff, (u - c.velocity(x, t)).norm());
      sum2 += u.squaredNorm();
      ++n;
      const double e = 1e-5;
      double div = 0.0;
      for (int d = 0; d < 3; ++d) {
        const Vec3 step = e * Vec3::Unit(d);
        div += (a.velocity(x + step, t)[d] - a.velocity(x - step, t)[d]) / (2.0 * e);
      }
      maxDiv = std::max(maxDiv, std::abs(div));
    }
  }
  CHECK(maxDiff > 0.1);  // another seed, another field
  CHECK(std::sqrt(sum2 / n) == Approx(def.amplitude).epsilon(0.2));
  CHECK(maxDiv < 1e-6);
}

TEST_CASE("gusts: the field's own sine is the library's to 2 ulp; all points at once = one by one",
          "[gallery][leaves][gusts]") {
  // The field's sine (core/face_kernel.h waveSum with one wave k = (1, 0, 0), d = (1, 0, 0),
  // c = 0 gives sin(x)) over the arguments a step meets (|k·x − ωt + φ| up to ~10⁴ rad) and
  // beyond, against the library's.
  std::uint64_t state = 12345;
  auto next = [&state]() {  // splitmix64: the test's own numbers, the same everywhere
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  };
  const double wave[7] = {1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0};
  double worst = 0.0;
  for (double range : {1.0, 10.0, 1e3, 1e5}) {
    std::vector<double> x(20000), zero(20000, 0.0), s(20000), sy(20000), sz(20000);
    for (double& v : x) v = range * (2.0 * next() - 1.0);
    core::waveSum(x.size(), x.data(), zero.data(), zero.data(), 1, wave, s.data(), sy.data(),
                  sz.data());
    for (size_t i = 0; i < x.size(); ++i) {
      const double err = std::abs(s[i] - std::sin(x[i]));
      worst = std::max(worst, err / std::max(std::abs(std::sin(x[i])), 0x1.0p-20));
    }
  }
  INFO("largest error " << worst / 0x1.0p-52 << " ulp of sin(x)");
  CHECK(worst <= 2.0 * 0x1.0p-52);
  for (double x0 : {0.0, 1e-300}) {
    double s0 = 1.0, zy = 0.0, zz = 0.0, o = 0.0;
    core::waveSum(1, &x0, &o, &o, 1, wave, &s0, &zy, &zz);
    CHECK(s0 == x0);
  }
  // velocities() over many points gives velocity()'s bits at each.
  const core::GustField field(leafGusts());
  std::vector<double> x, y, z, ux(37), uy(37), uz(37);
  for (int i = 0; i < 37; ++i) {
    x.push_back(0.3 * i - 4.0);
    y.push_back(2.0 + 0.17 * i);
    z.push_back(-0.05 * i * i);
  }
  field.velocities(37, x.data(), y.data(), z.data(), 12.3, ux.data(), uy.data(), uz.data());
  for (int i = 0; i < 37; ++i) {
    const Vec3 u = field.velocity(Vec3(x[i], y[i], z[i]), 12.3);
    CHECK(u == Vec3(ux[i], uy[i], uz[i]));
  }
}

namespace {

/// A body's face centroids: n points in a cube of side `side` about `centre` (body frame).
void cubePoints(int n, const Vec3& centre, double side, std::vector<double>* x,
                std::vector<double>* y, std::vector<double>* z) {
  x->clear();
  y->clear();
  z->clear();
  for (int i = 0; i < n; ++i) {  // a low-discrepancy fill with the corners included
    const Vec3 f = i < 8 ? Vec3(i & 1, (i >> 1) & 1, (i >> 2) & 1)
                         : Vec3(std::fmod(0.618034 * i, 1.0), std::fmod(0.754878 * i, 1.0),
                                std::fmod(0.569840 * i, 1.0));
    const Vec3 p = centre + side * (f - Vec3::Constant(0.5));
    x->push_back(p.x());
    y->push_back(p.y());
    z->push_back(p.z());
  }
}

/// The largest |o_quadratic − o_faces| over the points (the same R, b, t, shift).
double quadraticError(const core::GustDef& def, int n, const Vec3& centre, double side) {
  core::GustDef quad = def;
  quad.sampling = core::GustSampling::kQuadratic;
  const core::GustField exact(def), expanded(quad);
  std::vector<double> x, y, z;
  cubePoints(n, centre, side, &x, &y, &z);
  const Mat3 R = Eigen::AngleAxisd(0.83, Vec3(1.0, -2.0, 0.5).normalized()).toRotationMatrix();
  const Vec3 b(3.1, 4.2, -1.7), shift(0.2, -0.1, 0.05);
  std::vector<double> o1(3 * n, 0.25), o2(3 * n, 0.25);
  double worst = 0.0;
  for (double t : {0.0, 0.9, 7.3}) {
    exact.subtractInBody(n, x.data(), y.data(), z.data(), R, b, t, shift, o1.data(), o1.data() + n,
                         o1.data() + 2 * n);
    expanded.subtractInBody(n, x.data(), y.data(), z.data(), R, b, t, shift, o2.data(),
                            o2.data() + n, o2.data() + 2 * n);
    for (int i = 0; i < 3 * n; ++i) worst = std::max(worst, std::abs(o1[i] - o2[i]));
    std::fill(o1.begin(), o1.end(), 0.25);
    std::fill(o2.begin(), o2.end(), 0.25);
  }
  return worst;
}

}  // namespace

TEST_CASE("gusts: quadratic sampling is within (k r)^3/6 of every face's waves, third order",
          "[gallery][leaves][gusts]") {
  core::GustDef def;  // leaf_storm's waves: 1 m/s RMS, 2 m long
  def.amplitude = 1.0;
  def.period = 1.5;
  def.length = 2.0;
  def.seed = 11;
  const core::GustField field(def);
  const double kmax = field.largestWavenumber();
  REQUIRE(kmax > 0.5 * 3.14159);  // 2π/L · [0.5, 1.5]
  REQUIRE(kmax <= 1.5 * 3.14159);
  // The modes' amplitudes sum to kModes · a / √(kModes/2) = 4 a: each point's error is at
  // most 4 a (k r)³/6 with r the half-diagonal of the points' box.
  const Vec3 centre(0.03, -0.02, 0.01);
  double last = 0.0;
  for (double side : {0.12, 0.06, 0.03}) {  // k r 0.45, 0.22, 0.11
    const double r = 0.5 * std::sqrt(3.0) * side;
    const double bound = 4.0 * def.amplitude * std::pow(kmax * r, 3) / 6.0;
    const double err = quadraticError(def, 245, centre, side);
    INFO("cube " << side << " m: k r " << kmax * r << ", error " << err << " m/s, bound " << bound);
    CHECK(err <= bound);
    CHECK(err > 0.0);  // an expansion, not the field itself
    if (last > 0.0) {
      INFO("error ratio at half the size " << last / err);
      CHECK(last / err > 6.0);  // third order: 8 (the next term is of order 4)
      CHECK(last / err < 10.0);
    }
    last = err;
  }
  // A leaf-sized body (r = 7 cm) in these waves: under 1 % of the RMS gust speed.
  CHECK(quadraticError(def, 245, centre, 0.14 / std::sqrt(3.0)) < 0.01 * def.amplitude);
  // A body too large for the expansion (k r > 0.5) samples every face as before: the bits.
  CHECK(quadraticError(def, 245, centre, 0.5) == 0.0);
  // The scene key, and a bad value named with its place and the allowed ones.
  const std::string text = R"({"fluid": {"gusts": {"seed": 7, "sampling": "quadratic"}},
    "bodies": [{"mesh": {"primitive": "plate", "size": [0.1, 0.1]}, "mass": {"density": 1}}]})";
  const core::WorldDef parsed = io::parseScene(text, "q.json", "");
  const auto* g = dynamic_cast<const core::GustField*>(parsed.fluid.gusts.get());
  REQUIRE(g != nullptr);
  CHECK(g->definition().sampling == core::GustSampling::kQuadratic);
  const std::string bad = R"({"fluid": {"gusts": {"sampling": "cubic"}},
    "bodies": [{"mesh": {"primitive": "plate", "size": [0.1, 0.1]}, "mass": {"density": 1}}]})";
  CHECK_THROWS_WITH(
      io::parseScene(bad, "bad.json", ""),
      Catch::Contains("/fluid/gusts/sampling") && Catch::Contains("\"faces\", \"quadratic\""));
}

TEST_CASE("gusts change the leaves' paths, reproducibly", "[gallery][leaves][gusts]") {
  const std::vector<Model> leaves = testLeaves();
  const Vec3 wind(0.0, 0.0, 2.0);
  const std::vector<FallRecord> plain = fall(leaves, wind, std::nullopt);
  const std::vector<FallRecord> gust1 = fall(leaves, wind, leafGusts());
  const std::vector<FallRecord> gust2 = fall(leaves, wind, leafGusts());
  for (size_t i = 0; i < leaves.size(); ++i) {
    INFO(leaves[i].name);
    std::printf(
        "leaves wind 2 m/s %-12s drift %.2f m, with gusts %.2f m; fall %.2f / %.2f s; "
        "swing %.3f / %.3f m\n",
        leaves[i].name.c_str(), plain[i].meanDrift, gust1[i].meanDrift, plain[i].fallTime,
        gust1[i].fallTime, plain[i].lateralSwing, gust1[i].lateralSwing);
    CHECK(gust1[i].reached);
    CHECK(gust1[i].meanDrift == gust2[i].meanDrift);  // deterministic
    CHECK(gust1[i].fallTime == gust2[i].fallTime);
    CHECK(std::abs(gust1[i].meanDrift - plain[i].meanDrift) > 0.02);
    CHECK(gust1[i].fallTime > 2.0 * kVacuumTime);
  }
}

// --- falling plates -------------------------------------------------------------------------

namespace {

void printSweep(const char* label, const PlateSweep& sw, const std::vector<PlateResult>& res) {
  std::printf("falling plates in %s (L = %g m, rho_p = %g, release %g deg, %g s):\n", label,
              sw.chord, sw.plateDensity, sw.releaseDeg, sw.duration);
  std::printf("  %-7s %-10s %-11s %9s %9s %9s %9s %10s %8s\n", "I*", "t (mm)", "regime", "amp(deg)",
              "late", "mean", "net rot", "fall(m/s)", "drift(m)");
  for (const PlateResult& r : res) {
    std::printf("  %-7g %-10.4g %-11s %9.1f %9.1f %9.1f %9.0f %10.3f %8.2f\n", r.iStar,
                r.thickness * 1e3, regimeName(r.tilt.regime), r.tilt.amplitudeDeg,
                r.tilt.lateAmplitudeDeg, r.tilt.meanTiltDeg, r.tilt.netRotationDeg, r.fallSpeed,
                r.drift);
  }
}

}  // namespace

TEST_CASE("tilt classifier on synthetic histories", "[gallery][plates]") {
  std::vector<double> steady, flutter, tumble, chaos;
  for (int i = 0; i < 4000; ++i) {
    const double t = 0.002 * i;
    steady.push_back(0.3 * std::exp(-t) * std::cos(6.0 * t));
    flutter.push_back(0.5 * std::cos(3.0 * t));
    tumble.push_back(-4.0 * t + 0.3 * std::sin(8.0 * t));
    chaos.push_back(2.5 * std::sin(1.3 * t) + 1.5 * std::sin(3.7 * t * t / 8.0));
  }
  CHECK(classifyTilt(steady).regime == FallRegime::kSteady);
  CHECK(classifyTilt(flutter).regime == FallRegime::kFluttering);
  CHECK(classifyTilt(tumble).regime == FallRegime::kTumbling);
  CHECK(classifyTilt(chaos).regime == FallRegime::kChaotic);
}

TEST_CASE("plate pitch in its swing plane: heading and precession do not read as turns",
          "[gallery][plates]") {
  // Synthetic plates (normal body y) over 20 s at h = 2 ms: pitch θ(t) about an axis, that
  // axis or the body turned about the vertical.
  const double kPi = M_PI;
  const double h = 0.002, A = 0.3;  // ±17° swing, period 1 s
  auto rz = [](double a) { return Quat(Eigen::AngleAxisd(a, Vec3::UnitZ())); };
  auto ry = [](double a) { return Quat(Eigen::AngleAxisd(a, Vec3::UnitY())); };
  std::vector<double> planarNew, planarOld, spinNew, spinOld, precessNew, precessOld, tumble;
  PitchTracker planar, spin, precess, tumbling;
  for (int i = 0; i <= 10000; ++i) {
    const double t = h * i;
    const double th = 0.35 + A * std::sin(2.0 * kPi * t);  // released at 20°
    // In the x–y plane, as the plate sweep releases it: the tracker is platePitch.
    planarNew.push_back(planar.sample(rz(th), h));
    planarOld.push_back(platePitch(rz(th)));
    // Swinging in a fixed plane while turning about its own normal (0.45 rad/s).
    spinNew.push_back(spin.sample(rz(th) * ry(0.45 * t), h));
    spinOld.push_back(platePitch(rz(th) * ry(0.45 * t)));
    // Its swing plane turning about the vertical with it (0.45 rad/s).
    precessNew.push_back(precess.sample(ry(0.45 * t) * rz(th), h));
    precessOld.push_back(platePitch(ry(0.45 * t) * rz(th)));
    tumble.push_back(tumbling.sample(ry(0.3 * t) * rz(0.35 + 4.0 * t), h));
  }
  double worst = 0.0;
  for (size_t i = 0; i < planarNew.size(); ++i) {
    worst = std::max(
        worst, std::abs(planarNew[i] -
                        (planarOld[i] +
                         2.0 * kPi * std::round((planarNew[i] - planarOld[i]) / (2.0 * kPi)))));
  }
  CHECK(worst < 1e-12);
  for (const auto* series : {&spinNew, &precessNew}) {
    const TiltStats s = classifyTilt(*series);
    INFO("amplitude " << s.amplitudeDeg << " deg, mean " << s.meanTiltDeg);
    CHECK(s.regime == FallRegime::kFluttering);
    // Within 5 %: the averaged axis lags a precessing plane by ~0.45 rad/s × 1 s.
    CHECK(s.amplitudeDeg == Approx(A * 180.0 / kPi).epsilon(0.05));
  }
  // The body-x angle reads the heading as turns: not fluttering.
  CHECK(classifyTilt(spinOld).regime != FallRegime::kFluttering);
  CHECK(classifyTilt(precessOld).regime != FallRegime::kFluttering);
  const TiltStats t = classifyTilt(tumble);
  CHECK(t.regime == FallRegime::kTumbling);
  CHECK(t.netRotationDeg == Approx(4.0 * 10.0 * 180.0 / kPi).epsilon(0.01));
}

TEST_CASE("thin plates flutter at small I* and descend steadily at larger I*",
          "[gallery][plates]") {
  // In water (Re 11 000 and 35 000) under samara's pressure and friction law (the default
  // without its circulation, rotational lift and edge drag: under the default the heavier
  // plate tumbles, tests/gallery/test_gallery_wind.cpp), and in air and water under the
  // paper's model (which has no Reynolds number).
  struct Case {
    PlateSweep sw;
    const char* label;
  };
  PlateSweep paperAir = airPlates();
  paperAir.model = models::makeModel("gwtf-2024");
  PlateSweep paperWater = waterPlates();
  paperWater.model = paperAir.model;
  PlateSweep plainWater = waterPlates();
  plainWater.model = std::make_shared<core::GwtfModel>(core::kPressureFriction);
  for (Case c : {Case{plainWater, "water (samara, pressure and friction)"},
                 Case{paperAir, "air (gwtf-2024)"}, Case{paperWater, "water (gwtf-2024)"}}) {
    PlateSweep& sw = c.sw;
    sw.iStars = {0.02, 0.2};
    std::string error;
    const std::vector<PlateResult> res = runPlateSweep(sw, &error);
    INFO(c.label << ": " << error);
    REQUIRE(res.size() == 2);
    printSweep(c.label, sw, res);
    // Fluttering: a sustained swing of tens of degrees, bounded below 90°.
    CHECK(res[0].tilt.regime == FallRegime::kFluttering);
    CHECK(res[0].tilt.lateAmplitudeDeg > 10.0);
    CHECK(res[0].tilt.amplitudeDeg < 90.0);
    // Steady: broadside, the tilt decayed to zero, falling at the flat-plate speed.
    CHECK(res[1].tilt.regime == FallRegime::kSteady);
    CHECK(std::abs(res[1].tilt.meanTiltDeg) < 1.0);
    // ... at the flat-plate terminal speed of the model, sqrt(Δσ g / ρ_f) (c_d = 2).
    const double sigma = (sw.plateDensity - sw.fluidDensity) * res[1].thickness;
    CHECK(res[1].fallSpeed == Approx(std::sqrt(sigma * 9.81 / sw.fluidDensity)).epsilon(0.02));
  }
}

TEST_CASE("falling plates: the regimes over I* and Re in air and water",
          "[gallery][plates][slow]") {
  // samara's skin friction makes the Reynolds number matter: under its pressure and
  // friction law, in air (10 cm plates, Re 470 to 4 700 over the sweep) every plate settles
  // broadside, in water (Re 5 500 to 55 000) the light ones flutter. The paper's model has
  // no viscosity: its air plates flutter at the same I* as in water. (The default law's
  // four regimes: tests/gallery/test_gallery_wind.cpp.)
  PlateSweep paperAir = airPlates();
  paperAir.model = models::makeModel("gwtf-2024");
  PlateSweep paperWater = waterPlates();
  paperWater.model = paperAir.model;
  PlateSweep plainAir = airPlates();
  plainAir.model = std::make_shared<core::GwtfModel>(core::kPressureFriction);
  PlateSweep plainWater = waterPlates();
  plainWater.model = plainAir.model;
  struct Case {
    PlateSweep sw;
    const char* label;
    double flutterUpTo;  ///< fluttering somewhere at I* ≤ this (0: nowhere)
  };
  for (const Case& c :
       {Case{plainAir, "air (samara, pressure and friction)", 0.0},
        Case{plainWater, "water (samara, pressure and friction)", 0.02},
        Case{paperAir, "air (gwtf-2024)", 0.03}, Case{paperWater, "water (gwtf-2024)", 0.03}}) {
    std::string error;
    const std::vector<PlateResult> res = runPlateSweep(c.sw, &error);
    INFO(c.label << ": " << error);
    REQUIRE(res.size() == c.sw.iStars.size());
    printSweep(c.label, c.sw, res);
    bool flutter = false;
    for (const PlateResult& r : res) {
      if (r.iStar <= c.flutterUpTo) flutter = flutter || r.tilt.regime == FallRegime::kFluttering;
      if (r.iStar >= 0.05 || c.flutterUpTo == 0.0) {
        INFO("I* = " << r.iStar);
        CHECK(r.tilt.regime == FallRegime::kSteady);
      }
    }
    CHECK(flutter == (c.flutterUpTo > 0.0));
  }
}

TEST_CASE("scene key fluid.gusts builds the seeded gust field", "[gallery][leaves][gusts]") {
  const std::string text = R"({"fluid": {"density": 1.225, "wind": [0, 0, 2],
      "gusts": {"amplitude": 0.6, "period": 1.5, "length": 1.0, "seed": 7}},
    "bodies": [{"mesh": {"primitive": "plate", "size": [0.1, 0.1], "segments": [2, 2]},
                "mass": {"density": 500, "thickness": 0.0004}}]})";
  const core::WorldDef def = io::parseScene(text, "gusts.json", "");
  REQUIRE(def.fluid.gusts);
  const core::GustField expected(leafGusts());
  for (double t : {0.0, 0.7, 3.1}) {
    const Vec3 x(0.3, 2.0, -1.0);
    CHECK(def.fluid.gusts->velocity(x, t) == expected.velocity(x, t));
  }
  // Shipped scene files parse to the same field.
  const core::WorldDef shipped =
      io::loadScene(std::string(SAMARA_SOURCE_DIR) + "/assets/scenes/leaves_gusts.json");
  REQUIRE(shipped.fluid.gusts);
  CHECK(shipped.fluid.gusts->velocity(Vec3(1, 2, 3), 1.5) == expected.velocity(Vec3(1, 2, 3), 1.5));
  // Unknown keys and bad values name the field.
  const std::string bad = R"({"fluid": {"gusts": {"amplitude": 0.6, "periode": 1}},
    "bodies": [{"mesh": {"primitive": "plate", "size": [0.1, 0.1]}, "mass": {"density": 1}}]})";
  CHECK_THROWS_WITH(io::parseScene(bad, "bad.json", ""), Catch::Contains("/fluid/gusts"));
  const std::string neg = R"({"fluid": {"gusts": {"length": -1}},
    "bodies": [{"mesh": {"primitive": "plate", "size": [0.1, 0.1]}, "mass": {"density": 1}}]})";
  CHECK_THROWS_WITH(io::parseScene(neg, "neg.json", ""), Catch::Contains("/fluid/gusts/length"));
}
