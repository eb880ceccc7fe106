// Gallery models (issue 5): maple seed and paper copter (GwtF §7.2, Fig. 10, 11).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "builders.h"
#include "gallery_flyers.h"
#include "geometry/mass_properties.h"
#include "geometry/primitives.h"

namespace samara::assetgen {
namespace {

/// An open sheet over the grid (u, v) ∈ [0, 1]² with nu × nv cells; faces counter-clockwise
/// about ∂P/∂u × ∂P/∂v. Each cell is split along the diagonal alternating in a checkerboard
/// pattern so the sheet has no preferred diagonal direction.
geometry::TriMesh gridSheet(const std::function<Vec3(double, double)>& P, int nu, int nv) {
  geometry::TriMesh m;
  m.V.resize((nu + 1) * (nv + 1), 3);
  for (int j = 0; j <= nv; ++j) {
    for (int i = 0; i <= nu; ++i) {
      m.V.row(j * (nu + 1) + i) = P(double(i) / nu, double(j) / nv).transpose();
    }
  }
  m.F.resize(2 * nu * nv, 3);
  int f = 0;
  for (int j = 0; j < nv; ++j) {
    for (int i = 0; i < nu; ++i) {
      const int a = j * (nu + 1) + i, b = a + 1, c = a + nu + 1, d = c + 1;
      if ((i + j) % 2 == 0) {
        m.F.row(f++) << a, b, d;
        m.F.row(f++) << a, d, c;
      } else {
        m.F.row(f++) << a, b, c;
        m.F.row(f++) << b, d, c;
      }
    }
  }
  return m;
}

double closedVolume(const geometry::TriMesh& closed) {
  // Divergence theorem over the (outward) triangles.
  double v = 0.0;
  for (int f = 0; f < closed.numFaces(); ++f) {
    const Vec3 a = closed.vertex(closed.F(f, 0));
    const Vec3 b = closed.vertex(closed.F(f, 1));
    const Vec3 c = closed.vertex(closed.F(f, 2));
    v += a.dot(b.cross(c)) / 6.0;
  }
  return v;
}

geometry::TriMesh reversedFaces(geometry::TriMesh m) {
  for (int f = 0; f < m.numFaces(); ++f) std::swap(m.F(f, 1), m.F(f, 2));
  return m;
}

}  // namespace

// --- maple seed ---------------------------------------------------------------------------

MapleSeed makeMapleSeed(const MapleSeedParams& p, double resolution) {
  const int ns = scaledCount(p.spanCells, resolution, 6);
  const int nc = scaledCount(p.chordCells, resolution, 3);
  const int sub = std::max(1, p.nutSubdivisions - (resolution < 0.75 ? 1 : 0));

  // Planform: narrow at the root, widest at 65 % of the span, a rounded tip.
  auto chordAt = [&](double s) {
    const double sMax = 0.65;
    double c;
    if (s <= sMax) {
      c = 0.35 + 0.65 * std::sin(0.5 * M_PI * s / sMax);
    } else {
      const double r = (s - sMax) / (1.0 - sMax);
      c = std::sqrt(std::max(0.0, 1.0 - r * r));
    }
    return p.chord * std::max(c, 0.2);
  };
  // The tip sweeps back a little, like a real wing whose leading edge curves.
  auto sweep = [&](double s) { return -0.15 * p.chord * s * s; };
  auto wingPoint = [&](double s, double t) {
    const double c = chordAt(s);
    const double theta = p.rootPitch + (p.tipPitch - p.rootPitch) * s;
    // Section in its own frame: chord along −z from the leading edge, camber along +y.
    const double z0 = -t * c;
    const double y0 = 4.0 * p.camber * c * t * (1.0 - t);
    // Pitch about the leading edge (the x axis): θ > 0 raises the trailing edge.
    const double y = y0 * std::cos(theta) - z0 * std::sin(theta);
    const double z = y0 * std::sin(theta) + z0 * std::cos(theta);
    return Vec3(s * p.span, y, z + sweep(s));
  };
  // u along the chord, v along the span: ∂P/∂u × ∂P/∂v = (−z) × (+x) ~ +y normal.
  geometry::TriMesh wing = gridSheet([&](double u, double v) { return wingPoint(v, u); }, nc, ns);

  geometry::TriMesh nut = geometry::makeEllipsoid(p.nutRadii, sub);
  MapleSeed seed;
  seed.nutCentre = Vec3(-p.nutRadii.x() * 0.9, 0.0, -p.nutOffsetZ);
  for (int i = 0; i < nut.numVertices(); ++i) nut.V.row(i) += seed.nutCentre.transpose();

  ModelBuilder b("maple_seed",
                 "maple seed (GwtF Fig. 10): closed nut + cambered, twisted wing sheet");
  b.add("nut", nut);
  b.add("wing", wing);
  seed.model = b.finish();

  seed.mass.mode = core::MassMode::kDensity;
  seed.mass.density = p.density;
  if (p.veinFraction < 0.0 || p.veinFraction >= 1.0 || p.veinPoints < 1) {
    throw std::invalid_argument("maple seed: veinFraction must be in [0, 1), veinPoints >= 1");
  }
  seed.mass.thickness = (1.0 - p.veinFraction) * p.thickness;  // the membrane
  seed.nutSolidMass = p.density * closedVolume(nut);
  geometry::FaceGeometry fg;
  geometry::computeFaceGeometry(wing, &fg);
  double area = 0.0;
  for (double a : fg.area) area += a;
  seed.wingMass = area * p.density * p.thickness;
  // The leading-edge vein: equal point masses at the midpoints of veinPoints spans.
  if (p.veinFraction > 0.0) {
    double total = 0.0;
    for (int i = 0; i < p.veinPoints; ++i) {
      total += std::pow(1.0 - (i + 0.5) / p.veinPoints, p.veinTaper);
    }
    for (int i = 0; i < p.veinPoints; ++i) {
      const double s = (i + 0.5) / p.veinPoints;
      core::PointMass pm;
      pm.position = Vec3(s * p.span, 0.0, sweep(s) - p.veinOffset);
      pm.mass = p.veinFraction * seed.wingMass * std::pow(1.0 - s, p.veinTaper) / total;
      seed.vein.push_back(pm);
    }
  }
  if (p.nutMass < seed.nutSolidMass) {
    throw std::invalid_argument("maple seed: nutMass is below the solid nut's own mass");
  }
  seed.nutPoint.position = seed.nutCentre;
  seed.nutPoint.mass = p.nutMass - seed.nutSolidMass;
  return seed;
}

core::BodyDef mapleSeedBody(const MapleSeed& seed, const Vec3& position, const Quat& orientation) {
  core::BodyDef d;
  d.name = "maple_seed";
  d.mesh = seed.model.mesh;
  d.mass = seed.mass;
  if (seed.nutPoint.mass > 0.0) d.pointMasses.push_back(seed.nutPoint);
  for (const core::PointMass& pm : seed.vein) d.pointMasses.push_back(pm);
  d.position = position;
  d.orientation = orientation;
  return d;
}

core::WorldDef mapleSeedWorld(const MapleSeedParams& params, double resolution,
                              std::optional<double> delta) {
  core::WorldDef w;
  w.name = "maple_seed";
  w.fluid.density = 1.225;
  w.dt = kMapleSeedDt;
  w.duration = kMapleSeedDuration;
  w.bodies.push_back(mapleSeedBody(makeMapleSeed(params, resolution),
                                   Vec3(0.0, kMapleSeedHeight, 0.0),
                                   Quat(Eigen::AngleAxisd(kMapleSeedTilt, Vec3::UnitZ()))));
  w.bodies.back().delta = delta;
  return w;
}

// --- paper copter -------------------------------------------------------------------------

PaperCopter makePaperCopter(const PaperCopterParams& p, double resolution) {
  const double cm = 0.01;
  const int perCm = std::max(1, static_cast<int>(std::lround(p.cellsPerCm * resolution)));
  const double half = 0.5 * p.width;

  // Body: the strip below the fold, x ∈ [−w/2, w/2], y ∈ [−bodyLength, 0]; its outer
  // quarters (the side strips) folded in about x = ±w/4 by `sideFold`, towards +z.
  const double q = 0.25 * p.width;
  auto bodyPoint = [&](double u, double v) {
    const double xs = -half + u * p.width;  // position across the flat strip
    const double y = -v * p.bodyLength;
    const double ax = std::abs(xs);
    if (ax <= q) return Vec3(xs, y, 0.0);
    const double r = ax - q;
    const double sgn = xs < 0 ? -1.0 : 1.0;
    return Vec3(sgn * (q + r * std::cos(p.sideFold)), y, r * std::sin(p.sideFold));
  };
  const int nbu = std::max(4, static_cast<int>(std::lround(p.width / cm * perCm)));
  const int nbv = std::max(3, static_cast<int>(std::lround(p.bodyLength / cm * perCm)));
  geometry::TriMesh body = gridSheet(bodyPoint, nbu, nbv);

  // Blades: the blade at x ∈ [−w/2, 0] goes to +z, the one at [0, w/2] to −z (a copy rotated
  // by π about y), each raised by `droop` and pitched by `bladePitch` about its span axis.
  const double bw = half;
  auto bladePoint = [&](double u, double v, double pitch) {
    const double x = -bw + u * bw;  // chord across the blade
    const double l = v * p.bladeLength;
    if (p.flat) return Vec3(x, l, 0.0);
    const Vec3 span(0.0, std::sin(p.droop), std::cos(p.droop));
    // Pitch: rotate the chord offset about the span through the blade's mid-chord.
    const double xc = -0.5 * bw;
    const double dx = x - xc;
    const Vec3 chordDir = Eigen::AngleAxisd(pitch, span) * Vec3::UnitX();
    // Blend the pitch in over the first 1 cm so the blade root stays on the fold line.
    const double ramp = smoothstep(l / (1.0 * cm));
    const Vec3 dir = ((1.0 - ramp) * Vec3::UnitX() + ramp * chordDir).normalized();
    return Vec3(Vec3(xc, 0.0, 0.0) + dx * dir + l * span);
  };
  const int ncu = std::max(2, static_cast<int>(std::lround(bw / cm * perCm)));
  const int ncv = std::max(3, static_cast<int>(std::lround(p.bladeLength / cm * perCm)));
  geometry::TriMesh bladeA =
      gridSheet([&](double u, double v) { return bladePoint(u, v, p.bladePitch); }, ncu, ncv);
  const double pitchB = p.counterPitch ? -p.bladePitch : p.bladePitch;
  geometry::TriMesh bladeB =
      rotated(gridSheet([&](double u, double v) { return bladePoint(u, v, pitchB); }, ncu, ncv),
              Vec3::Zero(), Vec3::UnitY(), M_PI);

  if (p.mirrored) {
    auto mirrorX = [](geometry::TriMesh m) {
      for (int i = 0; i < m.numVertices(); ++i) m.V(i, 0) = -m.V(i, 0);
      return reversedFaces(std::move(m));
    };
    bladeA = mirrorX(bladeA);
    bladeB = mirrorX(bladeB);
    body = mirrorX(body);
  }

  ModelBuilder b(p.mirrored ? "paper_copter_mirrored" : "paper_copter",
                 "paper copter (GwtF Fig. 11): 4 cm x 16 cm paper strip, two blades folded "
                 "opposite ways, folded body, paper clip");
  b.add("blades", bladeA);
  b.add("blades", bladeB);
  b.add("body", body);
  PaperCopter c;
  c.model = b.finish();
  // Areal density from the strip's mass (the model's folded area equals the strip's).
  c.mass.mode = core::MassMode::kDensity;
  c.mass.thickness = p.paperThickness;
  c.mass.density = p.paperMass / (p.width * p.length * p.paperThickness);
  c.clip.position = Vec3(0.0, -p.bodyLength + 0.8 * cm, 0.0);
  c.clip.mass = p.clipMass;
  return c;
}

core::BodyDef paperCopterBody(const PaperCopter& copter, const Vec3& position,
                              const Quat& orientation) {
  core::BodyDef d;
  d.name = "paper_copter";
  d.mesh = copter.model.mesh;
  d.mass = copter.mass;
  if (copter.clip.mass > 0.0) d.pointMasses.push_back(copter.clip);
  d.position = position;
  d.orientation = orientation;
  return d;
}

core::WorldDef paperCopterWorld(const PaperCopterParams& params, double resolution) {
  core::WorldDef w;
  w.name = "paper_copter";
  w.fluid.density = 1.225;
  w.dt = kPaperCopterDt;
  w.duration = kPaperCopterDuration;
  w.bodies.push_back(
      paperCopterBody(makePaperCopter(params, resolution), Vec3(0.0, kPaperCopterHeight, 0.0)));
  return w;
}

}  // namespace samara::assetgen
