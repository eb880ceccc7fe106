// Exterior potential flow by a direct boundary-integral method (potential_flow.h).
//
// For x on the surface S (outward normal n, G = 1/(4π|x − y|)), Green's identity gives
//   ½ φ(x) − PV∫_S φ(y) ∂G/∂n_y dS = −∫_S G(x, y) q(y) dS,   q = ∂φ/∂n.
// Constant φ_j and q_j per face, collocated at the centroids c_i:
//   ½ φ_i + Σ_j Ω_ij/(4π) φ_j = −Σ_j S_ij q_j,
// with Ω_ij the signed solid angle face j subtends at c_i (0 for i = j: the face is flat)
// and S_ij = ∫_{face j} G(c_i, y) dS, both in closed form. Kinetic energy of the fluid
// T = −½ ρ ∮ φ q dS gives M_ij = −ρ Σ_f A_f φ_i(f) a_j(f).
#include "geometry/potential_flow.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "geometry/topology.h"

namespace samara::geometry {
namespace {

constexpr double kInv4Pi = 0.25 / std::numbers::pi;

struct Panel {
  Vec3 p[3];
  Vec3 n;
  Vec3 c;
  double area;
};

/// Signed solid angle of triangle (p0, p1, p2) at x: ∫ n·(y − x)/|y − x|³ dS
/// (van Oosterom & Strackee 1983), positive when x is behind the face.
double solidAngle(const Panel& t, const Vec3& x) {
  const Vec3 r0 = t.p[0] - x;
  const Vec3 r1 = t.p[1] - x;
  const Vec3 r2 = t.p[2] - x;
  const double l0 = r0.norm();
  const double l1 = r1.norm();
  const double l2 = r2.norm();
  const double num = r0.dot(r1.cross(r2));
  const double den = l0 * l1 * l2 + r0.dot(r1) * l2 + r0.dot(r2) * l1 + r1.dot(r2) * l0;
  return 2.0 * std::atan2(num, den);
}

/// ∫_T 1/|x − y| dS over a flat triangle, exactly (Wilton et al. 1984, IEEE Trans.
/// Antennas Propag. 32(3), eq. 4): per edge, the in-plane distance P⁰ to the edge line,
/// the endpoints' distances R± and coordinates l± along the edge.
double inverseDistanceIntegral(const Panel& t, const Vec3& x) {
  const double d = t.n.dot(x - t.p[0]);
  const double ad = std::abs(d);
  const Vec3 rho = x - d * t.n;
  double sum = 0.0;
  for (int e = 0; e < 3; ++e) {
    const Vec3& a = t.p[e];
    const Vec3& b = t.p[(e + 1) % 3];
    const Vec3 edge = b - a;
    const double len = edge.norm();
    const Vec3 lhat = edge / len;
    const Vec3 u = lhat.cross(t.n);  // outward in-plane normal of the edge
    const double p0 = (a - rho).dot(u);
    const double lm = (a - rho).dot(lhat);
    const double lp = (b - rho).dot(lhat);
    const double rm = (a - x).norm();
    const double rp = (b - x).norm();
    const double r02 = p0 * p0 + d * d;
    const double scale = std::max(len, std::max(rm, rp));
    if (std::abs(p0) > 1e-14 * scale) {
      // ln((R⁺ + l⁺)/(R⁻ + l⁻)), written as ln((R⁻ − l⁻)/(R⁺ − l⁺)) where the first form
      // would cancel (both l < 0): (R + l)(R − l) = R₀² at both ends.
      const double logTerm =
          lp + lm >= 0.0 ? std::log((rp + lp) / (rm + lm)) : std::log((rm - lm) / (rp - lp));
      sum += p0 * logTerm;
      if (ad > 0.0) {
        sum -= ad * (std::atan(p0 * lp / (r02 + ad * rp)) - std::atan(p0 * lm / (r02 + ad * rm)));
      }
    }
  }
  // The formula's signs assume u outward for a counter-clockwise triangle seen from n: P⁰ > 0
  // for a point over the interior. It gives −(integral) for the other orientation.
  return sum;
}

std::vector<Panel> panels(const TriMesh& mesh) {
  std::vector<Panel> out(static_cast<size_t>(mesh.numFaces()));
  for (int f = 0; f < mesh.numFaces(); ++f) {
    Panel& t = out[static_cast<size_t>(f)];
    for (int k = 0; k < 3; ++k) t.p[k] = mesh.vertex(mesh.F(f, k));
    const Vec3 cross = (t.p[1] - t.p[0]).cross(t.p[2] - t.p[0]);
    t.area = 0.5 * cross.norm();
    t.n = cross.normalized();
    t.c = (t.p[0] + t.p[1] + t.p[2]) / 3.0;
  }
  return out;
}

/// Restarted GMRES(m) on a dense system with Jacobi scaling (the diagonal is ½ + 0): solves
/// A x = b to a relative residual `tol`. Returns iterations; throws if it does not converge.
int gmres(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, double tol, int maxIt,
          Eigen::VectorXd* x, const std::function<bool()>& tick) {
  const Eigen::Index n = b.size();
  const int m = 40;
  const double bnorm = b.norm();
  if (bnorm == 0.0) {
    x->setZero(n);
    return 0;
  }
  int total = 0;
  while (total < maxIt) {
    Eigen::VectorXd r = b - A * *x;
    double beta = r.norm();
    if (beta <= tol * bnorm) return total;
    Eigen::MatrixXd Q(n, m + 1);
    Eigen::MatrixXd H = Eigen::MatrixXd::Zero(m + 1, m);
    Q.col(0) = r / beta;
    Eigen::VectorXd g = Eigen::VectorXd::Zero(m + 1);
    g(0) = beta;
    std::vector<double> cs(m), sn(m);
    int k = 0;
    for (; k < m && total < maxIt; ++k, ++total) {
      if (tick && !tick()) throw PotentialFlowCancelled();
      Eigen::VectorXd w = A * Q.col(k);
      for (int j = 0; j <= k; ++j) {  // modified Gram–Schmidt
        H(j, k) = Q.col(j).dot(w);
        w -= H(j, k) * Q.col(j);
      }
      H(k + 1, k) = w.norm();
      if (H(k + 1, k) > 0.0) Q.col(k + 1) = w / H(k + 1, k);
      for (int j = 0; j < k; ++j) {  // previous Givens rotations
        const double t = cs[j] * H(j, k) + sn[j] * H(j + 1, k);
        H(j + 1, k) = -sn[j] * H(j, k) + cs[j] * H(j + 1, k);
        H(j, k) = t;
      }
      const double den = std::hypot(H(k, k), H(k + 1, k));
      cs[k] = H(k, k) / den;
      sn[k] = H(k + 1, k) / den;
      H(k, k) = den;
      H(k + 1, k) = 0.0;
      g(k + 1) = -sn[k] * g(k);
      g(k) = cs[k] * g(k);
      if (std::abs(g(k + 1)) <= tol * bnorm) {
        ++k;
        ++total;
        break;
      }
    }
    const Eigen::VectorXd y = H.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(g.head(k));
    *x += Q.leftCols(k) * y;
    if (std::abs(g(k)) <= tol * bnorm) {
      if ((b - A * *x).norm() <= 10.0 * tol * bnorm) return total;
    }
  }
  throw std::runtime_error(
      "potential-flow solve: GMRES did not converge in " + std::to_string(maxIt) +
      " iterations (closed, outward parts that do not touch or nearly coincide are needed)");
}

}  // namespace

PotentialFlowResult solvePotentialFlow(const TriMesh& mesh, const PotentialFlowOptions& options) {
  const int n = mesh.numFaces();
  if (n == 0) throw std::invalid_argument("potential-flow solve: the mesh has no faces");
  const std::vector<Panel> P = panels(mesh);
  const auto report = [&](double fraction) {
    if (options.progress && !options.progress(fraction)) throw PotentialFlowCancelled();
  };
  // Assembly (80 % of the progress): A = ½ I + Ω/(4π), B = S (so A φ = −B q).
  // Right-hand sides: q_j = a_j = (c × n, n) per face.
  Eigen::MatrixXd Q(n, 6);
  for (int f = 0; f < n; ++f) {
    const Panel& t = P[static_cast<size_t>(f)];
    Q.block<1, 3>(f, 0) = t.c.cross(t.n).transpose();
    Q.block<1, 3>(f, 3) = t.n.transpose();
  }
  // A column by column (Eigen's storage order); −S q summed as the columns of S are formed,
  // so S is never stored (8 N² bytes in all).
  Eigen::MatrixXd A(n, n);
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(n, 6);
  Eigen::VectorXd column(n);
  const int every = std::max(1, n / 50);
  for (int j = 0; j < n; ++j) {
    if (j % every == 0) report(0.8 * j / n);
    const Panel& pj = P[static_cast<size_t>(j)];
    for (int i = 0; i < n; ++i) {
      const Vec3& x = P[static_cast<size_t>(i)].c;
      A(i, j) = i == j ? 0.5 : kInv4Pi * solidAngle(pj, x);
      column(i) = kInv4Pi * inverseDistanceIntegral(pj, x);
    }
    rhs.noalias() -= column * Q.row(j);
  }
  PotentialFlowResult out;
  out.potentials.setZero(n, 6);
  int its = 0;
  const int budget = 6 * options.maxIterations;
  for (int j = 0; j < 6; ++j) {
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    const int used = gmres(A, rhs.col(j), options.tolerance, options.maxIterations, &x, [&] {
      ++its;
      report(0.8 + 0.2 * std::min(1.0, static_cast<double>(its) / (budget / 8.0)));
      return true;
    });
    out.iterations = std::max(out.iterations, used);
    out.potentials.col(j) = x;
  }
  // M_ij = −Σ_f A_f φ_i(f) a_j(f).
  Mat6 M = Mat6::Zero();
  for (int f = 0; f < n; ++f) {
    const double area = P[static_cast<size_t>(f)].area;
    M.noalias() -= area * out.potentials.row(f).transpose() * Q.row(f);
  }
  const double norm = M.norm();
  out.asymmetry = norm > 0.0 ? (M - M.transpose()).norm() / norm : 0.0;
  out.addedUnit = 0.5 * (M + M.transpose());
  report(1.0);
  return out;
}

double exactSheetThickness(const TriMesh& mesh) {
  if (mesh.numVertices() == 0) return 0.0;
  const Vec3 extent = mesh.V.colwise().maxCoeff() - mesh.V.colwise().minCoeff();
  return kExactSheetThickness * extent.maxCoeff();
}

namespace {

/// (id, position) of points of one part: its vertices, or its faces' centroids.
using PartPoints = std::vector<std::pair<int, Vec3>>;

/// Calls found(a, b, id, x) for every point (id, x) of part a (points(a)) that lies inside
/// closed part b ≠ a: winding number > ½ by the solid angles of b's outward faces (4π
/// inside, 0 outside); only where the parts' boxes overlap. found returns false to stop.
template <typename Points, typename Found>
void scanPointsInsideParts(const TriMesh& mesh, const Topology& topo, const Points& points,
                           const Found& found) {
  const std::size_t np = topo.parts.size();
  std::vector<Vec3> lo(np, Vec3::Constant(std::numeric_limits<double>::infinity()));
  std::vector<Vec3> hi(np, Vec3::Constant(-std::numeric_limits<double>::infinity()));
  for (std::size_t p = 0; p < np; ++p) {
    for (int f : topo.parts[p].faces) {
      for (int k = 0; k < 3; ++k) {
        lo[p] = lo[p].cwiseMin(mesh.vertex(mesh.F(f, k)));
        hi[p] = hi[p].cwiseMax(mesh.vertex(mesh.F(f, k)));
      }
    }
  }
  const auto outside = [&](const Vec3& l, const Vec3& h, std::size_t b) {
    return (l.array() > hi[b].array()).any() || (h.array() < lo[b].array()).any();
  };
  for (std::size_t b = 0; b < np; ++b) {
    if (topo.parts[b].kind != PartKind::kClosed) continue;
    std::vector<Panel> pb;
    for (int f : topo.parts[b].faces) {
      Panel t;
      for (int k = 0; k < 3; ++k) t.p[k] = mesh.vertex(mesh.F(f, k));
      pb.push_back(t);
    }
    for (std::size_t a = 0; a < np; ++a) {
      if (a == b || outside(lo[a], hi[a], b)) continue;
      for (const auto& [id, x] : points(a)) {
        if (outside(x, x, b)) continue;
        double omega = 0.0;
        for (const Panel& t : pb) omega += solidAngle(t, x);
        if (omega > 2.0 * std::numbers::pi && !found(a, b, id, x)) return;
      }
    }
  }
}

}  // namespace

std::optional<PartOverlap> findOverlappingParts(const TriMesh& mesh) {
  const Topology topo = buildTopology(mesh);
  std::optional<PartOverlap> out;
  const auto vertices = [&](std::size_t a) {
    PartPoints pts;
    std::vector<std::uint8_t> seen(static_cast<std::size_t>(mesh.numVertices()), 0);
    for (int f : topo.parts[a].faces) {
      for (int k = 0; k < 3; ++k) {
        const int v = mesh.F(f, k);
        if (seen[static_cast<std::size_t>(v)]++ == 0) pts.emplace_back(v, mesh.vertex(v));
      }
    }
    return pts;
  };
  scanPointsInsideParts(mesh, topo, vertices,
                        [&](std::size_t a, std::size_t b, int v, const Vec3& x) {
                          out = PartOverlap{static_cast<int>(a), static_cast<int>(b), v, x};
                          return false;
                        });
  return out;
}

std::vector<std::uint8_t> facesInsideOtherParts(const TriMesh& mesh) {
  const Topology topo = buildTopology(mesh);
  std::vector<std::uint8_t> inside(static_cast<std::size_t>(mesh.numFaces()), 0);
  const auto centroids = [&](std::size_t a) {
    PartPoints pts;
    for (int f : topo.parts[a].faces) {
      pts.emplace_back(
          f, (mesh.vertex(mesh.F(f, 0)) + mesh.vertex(mesh.F(f, 1)) + mesh.vertex(mesh.F(f, 2))) /
                 3.0);
    }
    return pts;
  };
  scanPointsInsideParts(mesh, topo, centroids, [&](std::size_t, std::size_t, int f, const Vec3&) {
    inside[static_cast<std::size_t>(f)] = 1;
    return true;
  });
  return inside;
}

PotentialFlowResult exactAddedMass(const TriMesh& mesh, const PotentialFlowOptions& options) {
  TriMesh closed = mesh;
  const Topology topo = buildTopology(closed);
  orientClosedPartsOutward(&closed, topo);
  if (topo.numBoundaryEdges > 0) closed = thickenedSheets(closed, exactSheetThickness(mesh));
  if (closed.numFaces() > kMaxExactFaces) {
    throw std::invalid_argument(
        "the exact added mass is solved densely up to " + std::to_string(kMaxExactFaces) +
        " faces, and this mesh has " + std::to_string(closed.numFaces()) +
        (topo.numBoundaryEdges > 0 ? " once its sheets are closed" : "") +
        ": use a coarser copy of the mesh for the body, or the local added mass");
  }
  // Parts that cross (a stem through a blade, a fin pushed into a hull): the flow is that
  // around their union, whose surface is the faces outside every other part. Faces whose
  // centroid lies inside another closed part are not wetted and are left out (the seams
  // where parts meet are then resolved to a face's size).
  int dropped = 0;
  if (findOverlappingParts(closed)) {
    const std::vector<std::uint8_t> inside = facesInsideOtherParts(closed);
    TriMesh wetted;
    wetted.V = closed.V;
    wetted.F.resize(closed.numFaces(), 3);
    int n = 0;
    for (int f = 0; f < closed.numFaces(); ++f) {
      if (inside[static_cast<std::size_t>(f)] != 0) {
        ++dropped;
      } else {
        wetted.F.row(n++) = closed.F.row(f);
      }
    }
    wetted.F.conservativeResize(n, 3);
    closed = std::move(wetted);
  }
  PotentialFlowResult r = solvePotentialFlow(closed, options);
  r.droppedFaces = dropped;
  return r;
}

TriMesh thickenedSheets(const TriMesh& mesh, double thickness) {
  const Topology topo = buildTopology(mesh);
  const auto nv = static_cast<size_t>(mesh.numVertices());
  // Area-weighted vertex normals of the sheet faces.
  std::vector<Vec3> normal(nv, Vec3::Zero());
  for (int f = 0; f < mesh.numFaces(); ++f) {
    if (topo.isSheet[static_cast<size_t>(f)] == 0) continue;
    const Vec3 a = mesh.vertex(mesh.F(f, 0));
    const Vec3 cross = (mesh.vertex(mesh.F(f, 1)) - a).cross(mesh.vertex(mesh.F(f, 2)) - a);
    for (int k = 0; k < 3; ++k) normal[static_cast<size_t>(mesh.F(f, k))] += cross;
  }
  std::vector<Vec3> V;
  std::vector<Eigen::Vector3i> F;
  std::vector<int> closedMap(nv, -1), topMap(nv, -1), bottomMap(nv, -1);
  const auto vertex = [&](std::vector<int>& map, int v, double offset) {
    int& m = map[static_cast<size_t>(v)];
    if (m < 0) {
      m = static_cast<int>(V.size());
      const Vec3 nrm = normal[static_cast<size_t>(v)];
      V.push_back(mesh.vertex(v) +
                  (offset == 0.0 ? Vec3::Zero() : Vec3(offset * nrm.normalized())));
    }
    return m;
  };
  const double half = 0.5 * thickness;
  for (int f = 0; f < mesh.numFaces(); ++f) {
    const int a = mesh.F(f, 0);
    const int b = mesh.F(f, 1);
    const int c = mesh.F(f, 2);
    if (topo.isSheet[static_cast<size_t>(f)] == 0) {
      F.emplace_back(vertex(closedMap, a, 0.0), vertex(closedMap, b, 0.0),
                     vertex(closedMap, c, 0.0));
    } else {
      F.emplace_back(vertex(topMap, a, half), vertex(topMap, b, half), vertex(topMap, c, half));
      F.emplace_back(vertex(bottomMap, a, -half), vertex(bottomMap, c, -half),
                     vertex(bottomMap, b, -half));
    }
  }
  for (const Edge& e : topo.edges) {  // stitch the sheets' boundaries
    if (e.f1 >= 0 || topo.isSheet[static_cast<size_t>(e.f0)] == 0) continue;
    int a = e.v0;
    int b = e.v1;
    for (int k = 0; k < 3; ++k) {  // the edge's direction in its face: a → b
      if (mesh.F(e.f0, k) == e.v1 && mesh.F(e.f0, (k + 1) % 3) == e.v0) std::swap(a, b);
    }
    const int at = topMap[static_cast<size_t>(a)];
    const int bt = topMap[static_cast<size_t>(b)];
    const int ab = bottomMap[static_cast<size_t>(a)];
    const int bb = bottomMap[static_cast<size_t>(b)];
    F.emplace_back(bt, at, ab);
    F.emplace_back(bt, ab, bb);
  }
  TriMesh out;
  out.V.resize(static_cast<Eigen::Index>(V.size()), 3);
  for (size_t i = 0; i < V.size(); ++i) out.V.row(static_cast<Eigen::Index>(i)) = V[i].transpose();
  out.F.resize(static_cast<Eigen::Index>(F.size()), 3);
  for (size_t i = 0; i < F.size(); ++i) out.F.row(static_cast<Eigen::Index>(i)) = F[i].transpose();
  return out;
}

double carlsonRD(double x, double y, double z) {
  // Carlson (1995), Numer. Algorithms 10: duplication to |Δ| < 1e-3, then the fifth-order
  // series (error below 1e-16 relative).
  double sum = 0.0;
  double fac = 1.0;
  double ave = 0.0;
  double dx = 0.0;
  double dy = 0.0;
  double dz = 0.0;
  for (int it = 0; it < 200; ++it) {
    const double sx = std::sqrt(x);
    const double sy = std::sqrt(y);
    const double sz = std::sqrt(z);
    const double lam = sx * (sy + sz) + sy * sz;
    sum += fac / (sz * (z + lam));
    fac *= 0.25;
    x = 0.25 * (x + lam);
    y = 0.25 * (y + lam);
    z = 0.25 * (z + lam);
    ave = 0.2 * (x + y + 3.0 * z);
    dx = (ave - x) / ave;
    dy = (ave - y) / ave;
    dz = (ave - z) / ave;
    if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) < 1e-3) break;
  }
  const double ea = dx * dy;
  const double eb = dz * dz;
  const double ec = ea - eb;
  const double ed = ea - 6.0 * eb;
  const double ee = ed + ec + ec;
  const double c1 = 3.0 / 14.0;
  const double c2 = 1.0 / 6.0;
  const double c3 = 9.0 / 22.0;
  const double c4 = 3.0 / 26.0;
  const double c5 = 0.25 * c3;
  const double c6 = 1.5 * c4;
  return 3.0 * sum + fac *
                         (1.0 + ed * (-c1 + c5 * ed - c6 * dz * ee) +
                          dz * (c2 * ee + dz * (-c3 * ec + dz * c4 * ea))) /
                         (ave * std::sqrt(ave));
}

Mat6 ellipsoidAddedMassUnit(const Vec3& s) {
  const double a2 = s.x() * s.x();
  const double b2 = s.y() * s.y();
  const double c2 = s.z() * s.z();
  const double abc = s.x() * s.y() * s.z();
  // α₀ = abc ∫₀^∞ dλ / ((a² + λ) Δ) = (2/3) abc R_D(b², c², a²), and cyclically.
  const double alpha = 2.0 / 3.0 * abc * carlsonRD(b2, c2, a2);
  const double beta = 2.0 / 3.0 * abc * carlsonRD(a2, c2, b2);
  const double gamma = 2.0 / 3.0 * abc * carlsonRD(a2, b2, c2);
  const double volume = 4.0 / 3.0 * std::numbers::pi * abc;
  // Rotation about x (Lamb §115): (V/5)(b² − c²)²(γ₀ − β₀) / (2(b² − c²) + (b² + c²)(β₀ − γ₀)).
  const auto rot = [volume](double q2, double r2, double g1, double g2) {
    if (q2 == r2) return 0.0;  // a body of revolution about this axis
    const double d = q2 - r2;
    return volume / 5.0 * d * d * (g2 - g1) / (2.0 * d + (q2 + r2) * (g1 - g2));
  };
  Mat6 M = Mat6::Zero();
  M(0, 0) = rot(b2, c2, beta, gamma);
  M(1, 1) = rot(c2, a2, gamma, alpha);
  M(2, 2) = rot(a2, b2, alpha, beta);
  M(3, 3) = volume * alpha / (2.0 - alpha);
  M(4, 4) = volume * beta / (2.0 - beta);
  M(5, 5) = volume * gamma / (2.0 - gamma);
  return M;
}

}  // namespace samara::geometry
