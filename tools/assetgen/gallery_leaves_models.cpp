// Leaves (open cambered sheets with a closed stem) and falling thin plates: models, World
// definitions, and the measurements behind the gallery checks (issue 5).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "builders.h"
#include "gallery_leaves.h"
#include "geometry/primitives.h"

namespace samara::assetgen {
namespace {

constexpr double kPi = 3.14159265358979323846;

/// names[e] for an enumerator `e` of an enum numbered from 0, `fallback` for any other value.
template <typename Enum, std::size_t N>
const char* enumName(Enum e, const char* const (&names)[N], const char* fallback) {
  const auto i = static_cast<std::size_t>(e);
  return i < N ? names[i] : fallback;
}

/// Outline and shape of one leaf. The outline is star-shaped about the origin, given as a
/// closed curve s ∈ [0, 2π) → (x, z); s = 0 is the tip (+x), s = π the base (−x).
struct LeafSpec {
  std::function<Eigen::Vector2d(double)> outline;
  double curl = 0.0;        ///< tip rise along the midrib, m
  double camber = 0.0;      ///< edges lowered across the midrib, m (at |z| = halfWidth)
  double twist = 0.0;       ///< antisymmetric warp x·z, m at the corner (|x|, |z|) = extent
  double length = 0.0;      ///< blade extent along x, m (base to tip)
  double halfWidth = 0.0;   ///< blade half-width, m
  double stemLength = 0.0;  ///< m
  int sectors = 96;         ///< outline samples at resolution 1
  int rings = 10;           ///< rings at resolution 1
};

/// Superellipse outline with half-axes a (x), b (z) and exponent p (2 = ellipse, < 2 is
/// pointed), and an extra tip sharpening `tip` on the +x side.
std::function<Eigen::Vector2d(double)> superellipse(double a, double b, double p, double tip) {
  return [=](double s) {
    const double c = std::cos(s), sn = std::sin(s);
    const double e = 2.0 / p;
    double x = a * std::copysign(std::pow(std::abs(c), e), c);
    const double z = b * std::copysign(std::pow(std::abs(sn), e), sn);
    if (x > 0.0) x *= 1.0 + tip * std::pow(std::abs(c), 12.0);
    return Eigen::Vector2d(x, z);
  };
}

/// Palmate outline of radius R: five pointed lobes (tip at +x, two pairs at ±70° and ±140°)
/// and a notch for the stem at −x.
std::function<Eigen::Vector2d(double)> mapleOutline(double R) {
  return [=](double s) {
    struct Lobe {
      double angle, length, width;
    };
    const Lobe lobes[] = {{0.0, 1.0, 0.30},
                          {1.22, 0.88, 0.30},
                          {-1.22, 0.88, 0.30},
                          {2.44, 0.58, 0.28},
                          {-2.44, 0.58, 0.28}};
    double r = 0.42;
    for (const Lobe& l : lobes) {
      double d = std::remainder(s - l.angle, 2.0 * kPi);
      // Pointed lobes: exp(−|d|/w)-like peak, smooth enough at the sampling used.
      r = std::max(r, 0.42 + (l.length - 0.42) * std::exp(-std::pow(std::abs(d) / l.width, 1.3)));
    }
    const double notch = std::remainder(s - kPi, 2.0 * kPi);
    r *= 1.0 - 0.25 * std::exp(-std::pow(notch / 0.25, 2.0));
    return Eigen::Vector2d(R * r * std::cos(s), R * r * std::sin(s));
  };
}

/// A LeafSpec from its fields, in their order.
LeafSpec spec(std::function<Eigen::Vector2d(double)> outline, double curl, double camber,
              double twist, double length, double halfWidth, double stemLength, int sectors = 96,
              int rings = 10) {
  return {std::move(outline), curl, camber, twist, length, halfWidth, stemLength, sectors, rings};
}

LeafSpec leafSpec(LeafShape shape) {
  switch (shape) {  // outline; curl, camber, twist, length, half-width, stem (m); sectors, rings
    case LeafShape::kBeech:
      return spec(superellipse(0.035, 0.021, 2.0, 0.12), 0.006, 0.004, 0.002, 0.0742, 0.021, 0.012);
    case LeafShape::kMaple:
      return spec(mapleOutline(0.048), 0.004, 0.006, 0.002, 0.096, 0.045, 0.035, 160);
    case LeafShape::kWillow:
      return spec(superellipse(0.05, 0.009, 1.6, 0.0), 0.010, 0.002, 0.0015, 0.10, 0.009, 0.008,
                  128, 8);
  }
  return {};
}

/// Height of the blade's mid-surface above the body x-z plane at (x, z).
double bladeHeight(const LeafSpec& s, double x, double z) {
  const double half = 0.5 * s.length;
  const double along = (x + half) / s.length;  // 0 at the base, 1 at the tip
  const double across = z / s.halfWidth;
  return s.curl * along * along - s.camber * across * across + s.twist * (x / half) * across;
}

}  // namespace

std::string leafName(LeafShape shape) {
  static const char* const kNames[] = {"leaf_beech", "leaf_maple", "leaf_willow"};
  return enumName(shape, kNames, "leaf");
}

Model makeLeaf(LeafShape shape, double resolution) {
  const LeafSpec s = leafSpec(shape);
  const int nt = scaledCount(s.sectors, resolution, 24);
  const int nr = scaledCount(s.rings, resolution, 3);

  // Blade: a centre vertex and nr rings of nt vertices (ring i at i/nr of the outline).
  geometry::TriMesh blade;
  blade.V.resize(1 + nr * nt, 3);
  blade.V.row(0) = Vec3(0.0, bladeHeight(s, 0.0, 0.0), 0.0).transpose();
  double xBase = 0.0;
  for (int j = 0; j < nt; ++j) {
    const Eigen::Vector2d p = s.outline(2.0 * kPi * j / nt);
    if (j == nt / 2) xBase = p.x();
    for (int i = 1; i <= nr; ++i) {
      const double f = static_cast<double>(i) / nr;
      const double x = f * p.x(), z = f * p.y();
      blade.V.row(1 + (i - 1) * nt + j) = Vec3(x, bladeHeight(s, x, z), z).transpose();
    }
  }
  auto vid = [&](int i, int j) { return i == 0 ? 0 : 1 + (i - 1) * nt + ((j % nt) + nt) % nt; };
  std::vector<Eigen::Vector3i> faces;
  // Counter-clockwise seen from +y: (x, z) increasing angle s runs x → z, so list the
  // vertices with decreasing s to get normals along +y.
  for (int j = 0; j < nt; ++j) faces.emplace_back(0, vid(1, j + 1), vid(1, j));
  for (int i = 1; i < nr; ++i) {
    for (int j = 0; j < nt; ++j) {
      faces.emplace_back(vid(i, j), vid(i, j + 1), vid(i + 1, j + 1));
      faces.emplace_back(vid(i, j), vid(i + 1, j + 1), vid(i + 1, j));
    }
  }
  // Fix the orientation to +y (checked on the first face).
  {
    const Vec3 a = blade.V.row(faces[0][0]), b = blade.V.row(faces[0][1]),
               c = blade.V.row(faces[0][2]);
    if ((b - a).cross(c - a).y() < 0.0) {
      for (Eigen::Vector3i& f : faces) std::swap(f[1], f[2]);
    }
  }
  blade.F.resize(static_cast<Eigen::Index>(faces.size()), 3);
  for (size_t f = 0; f < faces.size(); ++f) blade.F.row(static_cast<Eigen::Index>(f)) = faces[f];

  // Stem: a thin closed slab (1.6 mm wide, 1.2 mm thick) from 4 mm inside the base out
  // along −x, drooping slightly.
  const double y0 = bladeHeight(s, xBase, 0.0);
  const double x0 = xBase + 0.004, x1 = xBase - s.stemLength;
  const int nu = scaledCount(8, resolution, 2);
  const geometry::TriMesh stem = slab(
      [&](double u, double v) {
        const double x = x0 + (x1 - x0) * u;
        return Vec3(x, y0 - 0.15 * s.stemLength * u * u, (v - 0.5) * 0.0016);
      },
      [](double, double) { return 0.0012; }, nu, 1);

  const char* descriptions[] = {
      "beech-like oval leaf 7.4 cm x 4.2 cm, cupped and curled, with a stem",
      "maple-like palmate leaf (five lobes) about 9.6 cm across, with a 3.5 cm stem",
      "willow-like lanceolate leaf 10 cm x 1.8 cm, curled along the midrib, with a stem"};
  ModelBuilder b(leafName(shape), descriptions[static_cast<int>(shape)]);
  b.add("blade", blade);
  b.add("stem", stem);
  return b.finish();
}

core::BodyDef leafBody(const Model& leaf, const std::string& name, const Vec3& position,
                       const Quat& orientation) {
  core::BodyDef b;
  b.name = name;
  b.mesh = leaf.mesh;
  b.mass.mode = core::MassMode::kDensity;
  b.mass.density = kLeafDensity;
  b.mass.thickness = kLeafThickness;
  b.position = position;
  b.orientation = orientation;
  return b;
}

core::GustDef leafGusts() {
  core::GustDef g;
  g.amplitude = 0.6;
  g.period = 1.5;
  g.length = 1.0;
  g.seed = 7;
  return g;
}

core::WorldDef leavesWorld(const std::vector<Model>& leaves, const Vec3& wind,
                           const std::optional<core::GustDef>& gusts) {
  core::WorldDef w;
  w.name = "leaves";
  w.fluid.density = 1.225;
  w.fluid.wind = wind;
  if (gusts) w.fluid.gusts = std::make_shared<core::GustField>(*gusts);
  w.floor = core::FloorDef{};
  w.dt = 0.002;
  w.duration = 6.0;
  const double tilts[] = {15.0, -20.0, 25.0};
  for (size_t i = 0; i < leaves.size(); ++i) {
    const double x = 0.4 * (static_cast<double>(i) - 0.5 * static_cast<double>(leaves.size() - 1));
    const Quat q = Quat(Eigen::AngleAxisd(tilts[i % 3] * kPi / 180.0, Vec3::UnitZ())) *
                   Quat(Eigen::AngleAxisd(10.0 * kPi / 180.0, Vec3::UnitX()));
    w.bodies.push_back(leafBody(leaves[i], leaves[i].name, Vec3(x, 4.0, 0.0), q));
  }
  return w;
}

namespace {

/// Accumulates one body's FallRecord sample by sample.
struct FallTracker {
  FallRecord r;
  Vec3 start = Vec3::Zero();
  Vec3 last = Vec3::Zero();
  std::vector<double> ts, xs, zs;
  int signX = 0, signZ = 0;
  bool done = false;

  void sample(double t, const core::BodyDiagnostics& d) {
    const double hyst = std::sin(2.0 * kPi / 180.0);
    ts.push_back(t);
    xs.push_back(d.com.x() - start.x());
    zs.push_back(d.com.z() - start.z());
    const Vec3 n = d.q * Vec3::UnitY();
    r.maxTiltDeg =
        std::max(r.maxTiltDeg, std::acos(std::clamp(std::abs(n.y()), 0.0, 1.0)) * 180.0 / kPi);
    auto track = [&](double c, int* sign) {
      const int s = c > hyst ? 1 : (c < -hyst ? -1 : 0);
      if (s != 0) {
        if (*sign != 0 && s != *sign) ++r.tiltSignChanges;
        *sign = s;
      }
    };
    track(n.x(), &signX);
    track(n.z(), &signZ);
    last = d.com;
  }

  /// Peak-to-peak deviation of y(t) from its least-squares straight line.
  double swing(const std::vector<double>& y) const {
    const double n = static_cast<double>(ts.size());
    double st = 0, sy = 0, stt = 0, sty = 0;
    for (size_t i = 0; i < ts.size(); ++i) {
      st += ts[i];
      sy += y[i];
      stt += ts[i] * ts[i];
      sty += ts[i] * y[i];
    }
    const double den = n * stt - st * st;
    const double slope = den > 0.0 ? (n * sty - st * sy) / den : 0.0;
    const double icpt = (sy - slope * st) / n;
    double lo = 0.0, hi = 0.0;
    for (size_t i = 0; i < ts.size(); ++i) {
      const double e = y[i] - (icpt + slope * ts[i]);
      lo = std::min(lo, e);
      hi = std::max(hi, e);
    }
    return hi - lo;
  }

  FallRecord finish(const Vec3& windDir) {
    r.fallTime = ts.back();
    r.meanDrift = (last - start).dot(windDir);
    r.lateralSwing = std::max(swing(xs), swing(zs));
    return r;
  }
};

}  // namespace

std::vector<FallRecord> recordFalls(core::World* world, double drop, double duration,
                                    const Vec3& windDir) {
  const int nb = world->numBodies();
  std::vector<FallTracker> tr(static_cast<size_t>(nb));
  const double t0 = world->time();
  for (int i = 0; i < nb; ++i) {
    const core::BodyDiagnostics d = world->diagnostics(i);
    tr[static_cast<size_t>(i)].start = d.com;
    tr[static_cast<size_t>(i)].sample(0.0, d);
  }
  const double h = world->definition().dt;
  const long long steps = static_cast<long long>(std::ceil(duration / h - 1e-9));
  for (long long k = 0; k < steps; ++k) {
    const core::StepReport rep = world->step();
    if (!rep.ok()) break;
    bool all = true;
    for (int i = 0; i < nb; ++i) {
      FallTracker& t = tr[static_cast<size_t>(i)];
      if (t.done) continue;
      const core::BodyDiagnostics d = world->diagnostics(i);
      t.sample(world->time() - t0, d);
      if (t.start.y() - d.com.y() >= drop) {
        t.r.reached = true;
        t.done = true;
      }
      all = all && t.done;
    }
    if (all) break;
  }
  std::vector<FallRecord> out;
  for (FallTracker& t : tr) out.push_back(t.finish(windDir));
  return out;
}

// --- falling plates -------------------------------------------------------------------------

double plateIStar(double plateDensity, double thickness, double fluidDensity, double chord) {
  return plateDensity * thickness / (fluidDensity * chord);
}

const char* regimeName(FallRegime r) {
  static const char* const kNames[] = {"steady", "fluttering", "tumbling", "chaotic"};
  return enumName(r, kNames, "?");
}

double platePitch(const Quat& q) {
  const Vec3 ex = q * Vec3::UnitX();
  return std::atan2(ex.y(), ex.x());
}

TiltStats classifyTilt(const std::vector<double>& theta) {
  TiltStats s;
  const size_t n = theta.size();
  if (n < 8) return s;
  const size_t half = n / 2, quarter = (3 * n) / 4;
  auto range = [&](size_t from) {
    const auto [lo, hi] = std::minmax_element(theta.begin() + static_cast<long>(from), theta.end());
    return std::make_pair(*lo, *hi);
  };
  const auto [lo2, hi2] = range(half);
  const auto [lo4, hi4] = range(quarter);
  s.amplitudeDeg = 0.5 * (hi2 - lo2) * 180.0 / kPi;
  s.lateAmplitudeDeg = 0.5 * (hi4 - lo4) * 180.0 / kPi;
  double mean2 = 0.0, mean4 = 0.0;
  for (size_t i = half; i < n; ++i) mean2 += theta[i];
  mean2 /= static_cast<double>(n - half);
  for (size_t i = quarter; i < n; ++i) mean4 += theta[i];
  mean4 /= static_cast<double>(n - quarter);
  double m = std::remainder(mean4, kPi);  // the plate is symmetric under a half turn
  if (m <= -0.5 * kPi) m += kPi;
  s.meanTiltDeg = m * 180.0 / kPi;
  s.netRotationDeg = (theta.back() - theta[half]) * 180.0 / kPi;
  double maxDev = 0.0;
  int sign = 0;
  for (size_t i = half; i < n; ++i) {
    const double dev = theta[i] - mean2;
    maxDev = std::max(maxDev, std::abs(dev));
    const int sg = dev > 0.0 ? 1 : (dev < 0.0 ? -1 : 0);
    if (sg != 0) {
      if (sign != 0 && sg != sign) ++s.meanCrossings;
      sign = sg;
    }
  }
  size_t along = 0, moves = 0;
  const double net = theta.back() - theta[half];
  for (size_t i = half + 1; i < n; ++i) {
    const double d = theta[i] - theta[i - 1];
    if (d == 0.0) continue;
    ++moves;
    if ((d > 0.0) == (net > 0.0)) ++along;
  }
  if (std::abs(net) >= 2.0 * kPi && moves > 0 &&
      static_cast<double>(along) >= 0.9 * static_cast<double>(moves)) {
    s.regime = FallRegime::kTumbling;
  } else if (2.0 * s.lateAmplitudeDeg < 2.0) {
    s.regime = FallRegime::kSteady;
  } else if (maxDev < 0.5 * kPi && s.meanCrossings >= 2) {
    s.regime = FallRegime::kFluttering;
  } else {
    s.regime = FallRegime::kChaotic;
  }
  return s;
}

core::WorldDef plateWorld(const PlateSweep& sweep, const std::string& name) {
  core::WorldDef w;
  w.name = name;
  w.fluid.density = sweep.fluidDensity;
  w.dt = sweep.dt;
  w.duration = sweep.duration;
  w.floor = core::FloorDef{};
  const geometry::TriMesh plate =
      geometry::makePlate(sweep.chord, sweep.aspect * sweep.chord, sweep.cells,
                          std::max(1, static_cast<int>(std::lround(sweep.aspect * sweep.cells))));
  for (size_t i = 0; i < sweep.iStars.size(); ++i) {
    core::BodyDef b;
    char label[64];
    std::snprintf(label, sizeof label, "plate_I%.4g", sweep.iStars[i]);
    b.name = label;
    b.mesh = plate;
    b.mass.mode = core::MassMode::kDensity;
    b.mass.density = sweep.plateDensity;
    b.mass.thickness = sweep.iStars[i] * sweep.fluidDensity * sweep.chord / sweep.plateDensity;
    b.position = Vec3(0.0, sweep.height, sweep.spacing * static_cast<double>(i));
    b.orientation = Quat(Eigen::AngleAxisd(sweep.releaseDeg * kPi / 180.0, Vec3::UnitZ()));
    if (sweep.model) b.model = sweep.model;
    w.bodies.push_back(std::move(b));
  }
  return w;
}

std::vector<PlateResult> runPlateSweep(const PlateSweep& sweep, std::string* error) {
  core::World world(plateWorld(sweep, "plates"));
  const int nb = world.numBodies();
  const long long steps = static_cast<long long>(std::llround(sweep.duration / sweep.dt));
  std::vector<std::vector<double>> theta(static_cast<size_t>(nb));
  std::vector<double> prev(static_cast<size_t>(nb)), fall(static_cast<size_t>(nb), 0.0);
  std::vector<Vec3> start(static_cast<size_t>(nb));
  long long fallSamples = 0;
  for (int i = 0; i < nb; ++i) {
    const core::BodyDiagnostics d = world.diagnostics(i);
    prev[static_cast<size_t>(i)] = platePitch(d.q);
    theta[static_cast<size_t>(i)].push_back(prev[static_cast<size_t>(i)]);
    start[static_cast<size_t>(i)] = d.com;
  }
  for (long long k = 1; k <= steps; ++k) {
    const core::StepReport rep = world.step();
    if (!rep.ok()) {
      if (error) *error = rep.message;
      return {};
    }
    const bool late = 4 * k >= 3 * steps;
    if (late) ++fallSamples;
    for (int i = 0; i < nb; ++i) {
      const size_t u = static_cast<size_t>(i);
      const core::BodyDiagnostics d = world.diagnostics(i);
      const double a = platePitch(d.q);
      prev[u] += std::remainder(a - prev[u], 2.0 * kPi);  // unwrap
      theta[u].push_back(prev[u]);
      if (late) fall[u] += d.fallSpeed;
    }
  }
  std::vector<PlateResult> out;
  for (int i = 0; i < nb; ++i) {
    const size_t u = static_cast<size_t>(i);
    PlateResult r;
    r.iStar = sweep.iStars[u];
    r.thickness = world.bodyDef(i).mass.thickness;
    r.tilt = classifyTilt(theta[u]);
    r.fallSpeed = fallSamples > 0 ? fall[u] / static_cast<double>(fallSamples) : 0.0;
    Vec3 disp = world.diagnostics(i).com - start[u];
    disp.y() = 0.0;
    r.drift = disp.norm();
    out.push_back(r);
  }
  return out;
}

PlateSweep airPlates() {
  PlateSweep s;
  s.fluidDensity = 1.225;
  s.plateDensity = 700.0;  // paper and card
  s.iStars = {0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.1, 0.2, 0.5};
  return s;
}

PlateSweep waterPlates() {
  PlateSweep s;
  s.fluidDensity = 998.0;
  s.plateDensity = 2700.0;  // aluminium
  s.iStars = {0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.1, 0.2, 0.5};
  return s;
}

}  // namespace samara::assetgen
