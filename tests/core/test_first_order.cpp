// First-order motion from shape change (Gross et al. 2023, MfSC): the discrete momentum and
// its Jacobian, Purcell's scallop theorem and three-link swimmer (dissipative), the falling
// cat and the Dzhanibekov effect (inertial), terminal velocity in one step, equivariance.
#include <Eigen/Eigenvalues>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <random>
#include <sstream>

#include "core/animation.h"
#include "core/body.h"
#include "core/first_order.h"
#include "core/world.h"
#include "geometry/mass_properties.h"
#include "geometry/primitives.h"
#include "test_shapes.h"

using namespace samara;
using namespace samara::core;

namespace {

using test::Cat;
using test::catStroke;
using test::makeCat;
using test::rotationAngle;
using test::ThereAndBack;

/// One body stepped by firstOrderStep; the mesh's V is the current body-frame shape.
struct Sim {
  /// Water-like drag (α = 500, β = 50 N·s/m³) unless a test sets its own.
  FirstOrderDef def = resolveFirstOrderDrag(FirstOrderDef{}, 1000.0);
  geometry::TriMesh mesh;
  std::vector<double> mass;
  Pose g;
  Vec6 momentum = Vec6::Zero();
  Vec3 gravity = Vec3::Zero();
  Vec3 flow = Vec3::Zero();
  double buoyantMassFraction = 0.0;
  int maxIterations = 0;
  double maxResidual = 0.0;

  void step(const geometry::VertexMatrix& next, double h) {
    FirstOrderStepInput in;
    in.def = &def;
    in.mesh = &mesh;
    in.shapeNext = &next;
    in.vertexMass = &mass;
    in.g = g;
    in.momentum = momentum;
    in.gravity = gravity;
    in.flow = flow;
    in.buoyantMassFraction = buoyantMassFraction;
    in.h = h;
    const FirstOrderStepResult r = firstOrderStep(in);
    if (!r.converged) {
      FAIL("no convergence: " << r.iterations << " iterations, residual " << r.residual);
    }
    maxIterations = std::max(maxIterations, r.iterations);
    maxResidual = std::max(maxResidual, r.residual);
    g = r.g;
    momentum = r.momentum;
    mesh.V = next;
  }
  /// World positions of the current shape.
  geometry::VertexMatrix placed() const {
    geometry::VertexMatrix P(mesh.V.rows(), 3);
    for (Eigen::Index j = 0; j < P.rows(); ++j) P.row(j) = g.toWorld(mesh.vertex(j)).transpose();
    return P;
  }
  Vec3 com() const {
    const geometry::VertexMatrix P = placed();
    Vec3 s = Vec3::Zero();
    double m = 0.0;
    for (Eigen::Index j = 0; j < P.rows(); ++j) {
      s += mass[j] * P.row(j).transpose();
      m += mass[j];
    }
    return s / m;
  }
  /// World metrics of the current shape.
  std::vector<Mat3> metrics() const {
    std::vector<Mat3> B = vertexMetrics(def, mesh.V, mesh.F, mass);
    for (Mat3& b : B) b = g.R() * b * g.R().transpose();
    return B;
  }
};

/// g⁻¹ h: the motion from g to h in g's body frame.
Pose relative(const Pose& g, const Pose& h) {
  Pose inv;
  inv.q = g.q.conjugate();
  inv.b = -(inv.q * g.b);
  return compose(inv, h);
}

/// Two parts of one mesh that rotate about the body z axis through given pivots.
struct Hinged {
  geometry::TriMesh mesh;
  std::vector<std::vector<int>> parts;
};

/// Appends a plate (size lx × lz in the x-z plane, normal +y) spanning x ∈ [x0, x0 + lx].
void addPlate(Hinged* s, double x0, double lx, double lz, int cells) {
  geometry::TriMesh plate = geometry::makePlate(lx, lz, cells, cells);
  plate.V.col(0).array() += x0 + 0.5 * lx;
  std::vector<int> verts;
  const int base = s->mesh.numVertices();
  if (s->mesh.numVertices() == 0) {
    s->mesh = plate;
  } else {
    geometry::appendMesh(&s->mesh, plate);
  }
  for (int i = 0; i < plate.numVertices(); ++i) verts.push_back(base + i);
  s->parts.push_back(verts);
}

/// Rotates the listed vertices of V about the z axis through `pivot` by `angle`.
void rotatePart(geometry::VertexMatrix* V, const std::vector<int>& verts, const Vec3& pivot,
                double angle) {
  const Mat3 R = Eigen::AngleAxisd(angle, Vec3::UnitZ()).toRotationMatrix();
  for (int v : verts) V->row(v) = (R * (V->row(v).transpose() - pivot) + pivot).transpose();
}

/// Purcell's scallop: two plates (0.1 m × 0.08 m) hinged along the z axis at the origin,
/// opening angle θ between them (symmetric about the x axis).
struct Scallop {
  Hinged s;
  Scallop() {
    addPlate(&s, 0.0, 0.1, 0.08, 6);
    addPlate(&s, 0.0, 0.1, 0.08, 6);
  }
  geometry::VertexMatrix shape(double theta) const {
    geometry::VertexMatrix V = s.mesh.V;
    rotatePart(&V, s.parts[0], Vec3::Zero(), 0.5 * theta);
    rotatePart(&V, s.parts[1], Vec3::Zero(), -0.5 * theta);
    return V;
  }
};

/// Purcell's three-link swimmer: three plates (links 0.1 m × 0.02 m) along x, hinged about z
/// at x = ±0.05 m, hinge angles A sin(2πt/T + φ_i) with the second a quarter period behind.
struct ThreeLink {
  Hinged s;
  std::shared_ptr<RigidPartsAnimation> anim = std::make_shared<RigidPartsAnimation>();
  explicit ThreeLink(double period, double amplitude) {
    const double l = 0.1;
    addPlate(&s, -1.5 * l, l, 0.02, 4);  // left link
    addPlate(&s, -0.5 * l, l, 0.02, 4);  // middle link (the body)
    addPlate(&s, 0.5 * l, l, 0.02, 4);   // right link
    anim->rest = s.mesh.V;
    auto hinge = [&](const std::vector<int>& v, double pivotX, double phase) {
      RigidPart p;
      p.vertices = v;
      p.pivot = Vec3(pivotX, 0, 0);
      p.axis = Vec3(0, 0, 1);
      for (int k = 0; k <= 32; ++k) {
        p.angle.times.push_back(period * k / 32.0);
        p.angle.values.push_back(amplitude * std::sin(2 * M_PI * k / 32.0 + phase));
      }
      p.angle.values.back() = p.angle.values.front();
      return p;
    };
    anim->parts.push_back(hinge(s.parts[0], -0.5 * l, 0.0));
    anim->parts.push_back(hinge(s.parts[2], 0.5 * l, -M_PI / 2));
  }
};

/// Runs `steps` steps of size h through the shapes anim(t0 + k h), k = 1…steps.
void runSim(Sim* sim, const ShapeAnimation& anim, double h, int steps, double t0 = 0.0,
            const std::function<void(const Sim&)>& each = {}) {
  geometry::VertexMatrix next;
  for (int k = 1; k <= steps; ++k) {
    anim.evaluate(t0 + k * h, &next);
    sim->step(next, h);
    if (each) each(*sim);
  }
}

}  // namespace

TEST_CASE("First order: discrete momentum is the physical momentum, its Jacobian is exact",
          "[core][first_order]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  geometry::TriMesh mesh = geometry::makeEllipsoid(Vec3(0.2, 0.1, 0.05), 1);
  const std::vector<double> mass = geometry::lumpVertexMasses(mesh, 1.5);
  geometry::VertexMatrix Vnext = mesh.V;
  for (Eigen::Index j = 0; j < Vnext.rows(); ++j)
    Vnext.row(j) += 0.01 * Vec3(u(rng), u(rng), u(rng)).transpose();
  const double h = 0.01;

  SECTION("inertial metric, rigid motion: Σ m (p̄ × v, v)") {
    FirstOrderDef def;
    def.kind = FirstOrderKind::kInertial;
    const std::vector<Mat3> B = vertexMetrics(def, mesh.V, mesh.F, mass);
    const Vec3 v(0.3, -0.2, 0.5);
    geometry::VertexMatrix P1 = mesh.V;
    P1.rowwise() += h * v.transpose();
    const Vec6 M = discreteMomenta(mesh.V, B, P1, B, h);
    Pose g;
    const Vec6 expect = firstOrderInitialMomentum(def, mesh, mass, g, Vec3::Zero(), v);
    CHECK((M - expect).norm() < 1e-14);
    CHECK(M.tail<3>().isApprox(1.5 * v, 1e-14));
  }
  for (FirstOrderKind kind : {FirstOrderKind::kDissipative, FirstOrderKind::kInertial}) {
    FirstOrderDef def;
    def.kind = kind;
    def.normalDrag = 3.0;
    def.tangentialDrag = 0.7;
    def.normalAddedMass = 2.0;  // makes the inertial metric shape dependent too
    Pose g0, g1;
    g0.q = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    g0.b = Vec3(0.5, -0.3, 0.2);
    g1.q = Quat(Eigen::AngleAxisd(0.5, Vec3(1, 2, 2.5).normalized()));
    g1.b = Vec3(0.52, -0.28, 0.21);
    auto place = [&](const Pose& g, const geometry::VertexMatrix& V, geometry::VertexMatrix* P,
                     std::vector<Mat3>* B) {
      *P = V;
      for (Eigen::Index j = 0; j < V.rows(); ++j)
        P->row(j) = g.toWorld(V.row(j).transpose()).transpose();
      *B = vertexMetrics(def, V, mesh.F, mass);
      for (Mat3& b : *B) b = g.R() * b * g.R().transpose();
    };
    geometry::VertexMatrix P0, P1;
    std::vector<Mat3> B0, B1;
    place(g0, mesh.V, &P0, &B0);
    place(g1, Vnext, &P1, &B1);
    const Vec3 centre(0.4, -0.2, 0.3);
    const Mat6 J = discreteMomentaJacobian(P0, B0, P1, B1, h, centre);
    Mat6 Jfd;
    const double eps = 1e-6;
    for (int i = 0; i < 6; ++i) {
      Vec6 M[2];
      for (int s = 0; s < 2; ++s) {
        Vec6 xi = Vec6::Zero();
        xi(i) = s == 0 ? eps : -eps;
        Pose tau = cayley(xi);
        Pose T;
        T.q = tau.q;
        T.b = centre - tau.q * centre + tau.b;
        geometry::VertexMatrix Q;
        std::vector<Mat3> BQ;
        place(compose(T, g1), Vnext, &Q, &BQ);
        M[s] = discreteMomenta(P0, B0, Q, BQ, h);
      }
      Jfd.col(i) = (M[0] - M[1]) / (2 * eps);
    }
    INFO("kind " << static_cast<int>(kind) << "\nJ =\n" << J << "\nfinite differences =\n" << Jfd);
    CHECK((J - Jfd).norm() < 1e-7 * J.norm());
    // Alg. 1 is antisymmetric in its slots: M(γ̃, γ) = −M(γ, γ̃) (App. B), so a stroke run
    // backwards through the same shapes returns exactly.
    CHECK((discreteMomenta(P1, B1, P0, B0, h) + discreteMomenta(P0, B0, P1, B1, h)).norm() <
          1e-13 * discreteMomenta(P0, B0, P1, B1, h).norm());
  }
}

TEST_CASE("First order: Purcell's scallop theorem (one hinge, dissipative)",
          "[core][first_order]") {
  const Scallop scallop;
  const double thetaMin = 20 * M_PI / 180, thetaMax = 100 * M_PI / 180;
  // Smooth opening over 3 s, closing 6 times faster: non-uniform in time, reciprocal in shape.
  const double tOpen = 3.0, tClose = 0.5;
  auto angle = [&](double u) { return thetaMin + (thetaMax - thetaMin) * u * u * (3 - 2 * u); };

  auto cycles = [&](int nOpen, int nClose, int count, double* maxExcursion) {
    Sim sim;
    sim.def.normalDrag = 2.0;  // Stokes-like anisotropy ε = 1/2
    sim.def.tangentialDrag = 1.0;
    sim.mesh = scallop.s.mesh;
    sim.mesh.V = scallop.shape(thetaMin);
    sim.mass = geometry::lumpVertexMasses(sim.mesh, 0.01);
    *maxExcursion = 0.0;
    for (int c = 0; c < count; ++c) {
      for (int k = 1; k <= nOpen; ++k) {
        sim.step(scallop.shape(angle(static_cast<double>(k) / nOpen)), tOpen / nOpen);
        *maxExcursion = std::max(*maxExcursion, sim.g.b.norm());
      }
      for (int k = nClose - 1; k >= 0; --k) {
        sim.step(scallop.shape(angle(static_cast<double>(k) / nClose)), tClose / nClose);
        *maxExcursion = std::max(*maxExcursion, sim.g.b.norm());
      }
    }
    CHECK(sim.maxResidual <= 1e-12);
    return sim.g;
  };
  const double stroke = 0.1;  // plate length, m
  double excursion = 0.0;
  const Pose g = cycles(200, 200, 3, &excursion);
  INFO("hinge excursion during a cycle " << excursion << " m; after 3 cycles: displacement "
                                         << g.b.transpose() << " m, rotation " << rotationAngle(g.q)
                                         << " rad");
  CHECK(excursion > 0.01 * stroke);   // it moves while opening …
  CHECK(g.b.norm() < 1e-9 * stroke);  // … and comes back exactly
  CHECK(rotationAngle(g.q) < 1e-9);
  // Closing through other shapes than the opening visited: the net motion is a time-
  // discretisation error of second order in the step (the scallop theorem holds as h → 0).
  double e1, e2;
  const double d1 = cycles(100, 25, 1, &e1).b.norm();
  const double d2 = cycles(200, 50, 1, &e2).b.norm();
  INFO("net displacement with 25 / 50 closing steps: " << d1 << " / " << d2 << " m");
  CHECK(d1 < 1e-3 * stroke);
  CHECK(d1 / d2 == Approx(4.0).epsilon(0.15));
}

TEST_CASE("First order: Purcell's three-link swimmer moves a fixed distance per cycle",
          "[core][first_order]") {
  const double T = 1.0;
  const ThreeLink swimmer(T, 0.8);
  const int n = 200;
  auto swim = [&](const ShapeAnimation& anim, std::vector<Pose>* cycleEnds) {
    Sim sim;
    sim.def.normalDrag = 2.0;
    sim.def.tangentialDrag = 1.0;
    sim.mesh = swimmer.s.mesh;
    anim.evaluate(0.0, &sim.mesh.V);
    sim.mass = geometry::lumpVertexMasses(sim.mesh, 0.01);
    cycleEnds->push_back(sim.g);
    for (int c = 0; c < 3; ++c) {
      runSim(&sim, anim, T / n, n, c * T);
      cycleEnds->push_back(sim.g);
    }
    CHECK(sim.maxResidual <= 1e-12);
    CHECK(sim.maxIterations <= 4);
  };
  std::vector<Pose> fwd, rev;
  swim(*swimmer.anim, &fwd);
  RetimedAnimation back;
  back.inner = swimmer.anim;
  back.scale = -1.0;
  swim(back, &rev);
  const double length = 0.3;
  const Pose d1 = relative(fwd[0], fwd[1]), d2 = relative(fwd[1], fwd[2]),
             d3 = relative(fwd[2], fwd[3]);
  INFO("net motion per cycle (body frame): " << d1.b.transpose() << " m, rotation "
                                             << rotationAngle(d1.q)
                                             << " rad; cycle 3: " << d3.b.transpose());
  CHECK(d1.b.norm() > 0.02 * length);              // swims > 2 % of its length per cycle
  CHECK(std::abs(d1.b.x()) > 0.95 * d1.b.norm());  // along its axis
  // Periodic: every cycle is the same body-frame motion (no transient in the first-order model).
  CHECK((d3.b - d2.b).norm() < 1e-6 * d2.b.norm());
  CHECK((d2.b - d1.b).norm() < 1e-6 * d1.b.norm());
  CHECK(rotationAngle(d3.q * d2.q.conjugate()) < 1e-9);
  // The reversed stroke swims back: its cycle is exactly the inverse motion.
  const Pose r1 = relative(rev[0], rev[1]);
  const Pose loop = compose(d1, r1);
  INFO("forward cycle then reversed cycle: " << loop.b.transpose() << " m");
  CHECK(loop.b.norm() < 1e-9 * d1.b.norm());
  CHECK(rotationAngle(loop.q) < 1e-9);
}

TEST_CASE("First order: the falling cat turns with zero momentum (inertial, no gravity)",
          "[core][first_order]") {
  const Cat cat = makeCat();
  const double T = 1.0;
  auto stroke = catStroke(cat, T);
  auto fall = [&](const ShapeAnimation& anim, double h, double until, double* comDrift,
                  double* maxMomentum) {
    Sim sim;
    sim.def.kind = FirstOrderKind::kInertial;
    sim.mesh = cat.mesh;
    sim.mass = geometry::lumpVertexMasses(cat.mesh, 2.0);
    anim.evaluate(0.0, &sim.mesh.V);  // start from the stroke's first shape
    const Vec3 com0 = sim.com();
    *comDrift = 0.0;
    *maxMomentum = 0.0;
    geometry::VertexMatrix P = sim.placed();
    std::vector<Mat3> B = sim.metrics();
    const int steps = static_cast<int>(std::lround(until / h));
    runSim(&sim, anim, h, steps, 0.0, [&](const Sim& s) {
      *comDrift = std::max(*comDrift, (s.com() - com0).norm());
      const geometry::VertexMatrix Pn = s.placed();
      const std::vector<Mat3> Bn = s.metrics();
      *maxMomentum = std::max(*maxMomentum, discreteMomenta(P, B, Pn, Bn, h).norm());
      P = Pn;
      B = Bn;
    });
    CHECK(sim.maxResidual <= 1e-12);
    CHECK(sim.maxIterations <= 5);
    CHECK(sim.momentum.norm() == 0.0);
    return sim.g.q;
  };
  double drift, mom;
  const Quat q1 = fall(*stroke, 2e-3, T, &drift, &mom);
  INFO("one stroke: rotation " << rotationAngle(q1) * 180 / M_PI << " deg, max |M| " << mom
                               << " kg·m/s, max COM drift " << drift << " m");
  CHECK(rotationAngle(q1) > 2.0 * M_PI / 180.0);  // reoriented by more than 2°
  CHECK(drift < 1e-12);                           // the COM stays put
  CHECK(mom < 1e-12);                             // momentum stays zero
  // Second order in h: the turn per stroke at h = 2, 1, 0.5 ms.
  double dr2, mo2;
  const Quat qh = fall(*stroke, 1e-3, T, &dr2, &mo2);
  const Quat qq = fall(*stroke, 5e-4, T, &dr2, &mo2);
  const double e1 = rotationAngle(q1 * qh.conjugate()), e2 = rotationAngle(qh * qq.conjugate());
  INFO("turn per stroke " << rotationAngle(q1) << ", " << rotationAngle(qh) << ", "
                          << rotationAngle(qq) << " rad; differences " << e1 << ", " << e2);
  CHECK(e1 / e2 == Approx(4.0).epsilon(0.1));
  // The stroke followed by its time reversal (the same shapes backwards) undoes the turn.
  ThereAndBack back;
  back.inner = stroke;
  back.T = T;
  // h = 1/512 s: the times 2T − t hit the forward samples exactly.
  const Quat qb = fall(back, 1.0 / 512, 2 * T, &drift, &mom);
  INFO("after stroke and reversal: " << rotationAngle(qb) << " rad, COM drift " << drift << " m");
  CHECK(rotationAngle(qb) < 1e-11);
  CHECK(drift < 1e-12);
}

TEST_CASE("First order: Dzhanibekov effect (inertial, constant angular momentum)",
          "[core][first_order]") {
  // Eight equal point masses at the corners of a 0.3 × 0.2 × 0.1 m box: principal moments
  // m(b²+c²)/4 < m(a²+c²)/4 < m(a²+b²)/4 about x, y, z; y is the intermediate axis.
  const double m = 1.0, a = 0.3, bb = 0.2, c = 0.1;
  Sim sim;
  sim.def.kind = FirstOrderKind::kInertial;
  sim.mesh = geometry::makeBox(Vec3(a, bb, c), 1);
  REQUIRE(sim.mesh.numVertices() == 8);
  sim.mass.assign(8, m / 8);
  const Vec3 I(m * (bb * bb + c * c) / 4, m * (a * a + c * c) / 4, m * (a * a + bb * bb) / 4);
  const double w0 = 2 * M_PI;            // 1 rev/s about the intermediate axis …
  const Vec3 omega(1e-3 * w0, w0, 0.0);  // … plus a small spin about the minor axis
  sim.momentum = firstOrderInitialMomentum(sim.def, sim.mesh, sim.mass, sim.g, omega, Vec3::Zero());
  CHECK((sim.momentum.head<3>() - I.cwiseProduct(omega)).norm() < 1e-15);
  const Vec6 M0 = sim.momentum;

  // Analytic period of ω (Landau & Lifshitz §37) for L² < 2 E I2; ω_y changes sign every T/2.
  const double E = 0.5 * omega.dot(I.cwiseProduct(omega));
  const double L2 = I.cwiseProduct(omega).squaredNorm();
  REQUIRE(L2 < 2 * E * I(1));
  const double k2 = (I(2) - I(1)) * (L2 - 2 * E * I(0)) / ((I(1) - I(0)) * (2 * E * I(2) - L2));
  const double period = 4 * std::comp_ellint_1(std::sqrt(k2)) *
                        std::sqrt(I.prod() / ((I(1) - I(0)) * (2 * E * I(2) - L2)));

  const double h = 1e-3;
  std::vector<double> flips;
  double prevWy = w0, maxMomentumError = 0.0, t = 0.0;
  geometry::VertexMatrix V = sim.mesh.V;
  geometry::VertexMatrix P = sim.placed();
  const std::vector<Mat3> B = sim.metrics();  // m_j I: the same in every frame
  while (t < 2.6 * period) {
    const Quat q0 = sim.g.q;
    sim.step(V, h);  // the shape does not change
    t += h;
    const geometry::VertexMatrix Pn = sim.placed();
    maxMomentumError = std::max(maxMomentumError, (discreteMomenta(P, B, Pn, B, h) - M0).norm());
    P = Pn;
    // Body-frame angular velocity over the step.
    const Eigen::AngleAxisd d(q0.conjugate() * sim.g.q);
    const double wy = d.angle() * d.axis().y() / h;
    if ((wy < 0) != (prevWy < 0)) flips.push_back(t - h * (wy / (wy - prevWy)) - 0.5 * h);
    prevWy = wy;
  }
  std::ostringstream times;
  for (double f : flips) times << " " << f;
  INFO("analytic half period " << period / 2 << " s; ω_y changes sign at" << times.str() << " s");
  INFO("max |ΔL| " << maxMomentumError << " of |L| " << M0.norm());
  REQUIRE(flips.size() >= 4);
  CHECK(maxMomentumError < 1e-10 * M0.norm());
  for (size_t i = 2; i < flips.size(); ++i) {
    // Regular flips every half period (the first interval starts near the saddle).
    CHECK(flips[i] - flips[i - 1] == Approx(flips[1] - flips[0]).epsilon(1e-3));
    CHECK(flips[i] - flips[i - 1] == Approx(period / 2).epsilon(1e-3));
  }
}

TEST_CASE("First order: dissipative fall reaches terminal velocity in one step",
          "[core][first_order]") {
  SECTION("sphere, isotropic drag: v = m g / (α Σ A_j), no rotation") {
    Sim sim;
    sim.def.normalDrag = 40.0;
    sim.def.tangentialDrag = 40.0;
    sim.mesh = geometry::makeSphere(0.05, 2);
    const double mass = 0.6;
    sim.mass = geometry::lumpVertexMasses(sim.mesh, mass);
    sim.gravity = Vec3(0, -9.81, 0);
    sim.g.b = Vec3(1.0, 2.0, -0.5);
    double area = 0.0;
    for (const Mat3& b : vertexMetrics(sim.def, sim.mesh.V, sim.mesh.F, sim.mass)) {
      area += b.trace() / (3 * sim.def.normalDrag);
    }
    for (double frac : {0.0, 0.5}) {
      sim.buoyantMassFraction = frac;
      const Vec3 vExpect = (1 - frac) * mass * sim.gravity / (sim.def.normalDrag * area);
      for (int k = 0; k < 5; ++k) {
        const Vec3 b0 = sim.g.b;
        const double h = 0.01 * (k + 1);
        sim.step(sim.mesh.V, h);
        const Vec3 v = (sim.g.b - b0) / h;
        INFO("step " << k << " v = " << v.transpose() << " expected " << vExpect.transpose());
        CHECK((v - vExpect).norm() < 1e-12 * vExpect.norm());
        CHECK(rotationAngle(sim.g.q) < 1e-13);
        CHECK(sim.momentum.norm() == 0.0);
      }
    }
  }
  SECTION("tilted plate, anisotropic drag: glides at v = (Σ B)⁻¹ m g without turning") {
    Sim sim;
    sim.def.normalDrag = 10.0;
    sim.def.tangentialDrag = 1.0;
    sim.mesh = geometry::makePlate(0.2, 0.1, 8, 4);
    sim.mass = geometry::lumpVertexMasses(sim.mesh, 0.05);
    sim.gravity = Vec3(0, -9.81, 0);
    const double tilt = 30 * M_PI / 180;
    sim.g.q = Quat(Eigen::AngleAxisd(tilt, Vec3::UnitZ()));
    double area = 0.2 * 0.1;
    // n = (−sin, cos, 0): v_n = m g cos/(α A), v_t = m g sin/(β A) along the slope.
    const double g = 9.81, mg = 0.05 * g;
    const Vec3 n(-std::sin(tilt), std::cos(tilt), 0), t(std::cos(tilt), std::sin(tilt), 0);
    const Vec3 vExpect =
        -mg * std::cos(tilt) / (10.0 * area) * n - mg * std::sin(tilt) / (1.0 * area) * t;
    const Vec3 b0 = sim.g.b;
    sim.step(sim.mesh.V, 0.02);
    const Vec3 v = (sim.g.b - b0) / 0.02;
    INFO("glide velocity " << v.transpose() << " expected " << vExpect.transpose());
    CHECK((v - vExpect).norm() < 1e-12 * vExpect.norm());
    CHECK(std::abs(v.x() / v.y()) > 1.0);  // glides further than it sinks
    CHECK(rotationAngle(sim.g.q * Quat(Eigen::AngleAxisd(tilt, Vec3::UnitZ())).conjugate()) <
          1e-13);
  }
}

TEST_CASE("First order: inertial free fall is semi-implicit Euler's parabola",
          "[core][first_order]") {
  Sim sim;
  sim.def.kind = FirstOrderKind::kInertial;
  sim.mesh = geometry::makeSphere(0.1, 1);
  sim.mass = geometry::lumpVertexMasses(sim.mesh, 2.0);
  sim.gravity = Vec3(0, -9.81, 0);
  const Vec3 v0(1.0, 3.0, 0.0);
  sim.momentum = firstOrderInitialMomentum(sim.def, sim.mesh, sim.mass, sim.g, Vec3::Zero(), v0);
  const double h = 0.01;
  Vec3 x = sim.com(), v = v0;
  for (int k = 0; k < 100; ++k) {
    sim.step(sim.mesh.V, h);
    v += h * sim.gravity;
    x += h * v;
    REQUIRE((sim.com() - x).norm() < 1e-12);
  }
  CHECK(rotationAngle(sim.g.q) < 1e-12);
  CHECK((sim.momentum.tail<3>() - 2.0 * v).norm() < 1e-12);
}

TEST_CASE("First order: moving the start moves the result (SE(3) equivariance)",
          "[core][first_order]") {
  Pose H;
  H.q = Quat(Eigen::AngleAxisd(2.0, Vec3(0.3, -1, 0.5).normalized()));
  H.b = Vec3(3.0, -2.0, 5.0);
  auto check = [&](Sim base, const ShapeAnimation& anim, double h, int steps) {
    Sim moved = base;
    moved.g = compose(H, base.g);
    moved.gravity = H.q * base.gravity;
    moved.momentum = momentumToWorld(H, base.momentum);
    runSim(&base, anim, h, steps);
    runSim(&moved, anim, h, steps);
    const Pose expect = compose(H, base.g);
    INFO("rotation difference " << rotationAngle(moved.g.q * expect.q.conjugate())
                                << " rad, translation difference " << (moved.g.b - expect.b).norm()
                                << " m");
    CHECK(rotationAngle(moved.g.q * expect.q.conjugate()) < 1e-12);
    CHECK((moved.g.b - expect.b).norm() < 1e-12 * H.b.norm());
    if (base.def.kind == FirstOrderKind::kInertial) {
      CHECK((moved.momentum - momentumToWorld(H, base.momentum)).norm() <
            1e-12 * base.momentum.norm());
    }
  };
  SECTION("dissipative: the three-link swimmer sinking while it swims") {
    const ThreeLink swimmer(1.0, 0.8);
    Sim s;  // default drag (water-like): sinks at ≈ 3 cm/s
    s.mesh = swimmer.s.mesh;
    s.mass = geometry::lumpVertexMasses(s.mesh, 0.01);
    swimmer.anim->evaluate(0.0, &s.mesh.V);
    s.gravity = Vec3(0, -9.81, 0);
    s.g.q = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
    check(s, *swimmer.anim, 0.01, 50);
  }
  SECTION("inertial: the cat tumbling in gravity with angular momentum") {
    const Cat cat = makeCat();
    auto stroke = catStroke(cat, 1.0);
    Sim s;
    s.def.kind = FirstOrderKind::kInertial;
    s.mesh = cat.mesh;
    s.mass = geometry::lumpVertexMasses(cat.mesh, 2.0);
    stroke->evaluate(0.0, &s.mesh.V);
    s.gravity = Vec3(0, -9.81, 0);
    s.g.b = Vec3(0.1, 1.0, 0.0);
    s.momentum = firstOrderInitialMomentum(s.def, s.mesh, s.mass, s.g, Vec3(1.0, 2.0, 0.5),
                                           Vec3(0.5, 2.0, 0.0));
    check(s, *stroke, 0.005, 100);
  }
}

TEST_CASE("First order: bad input fails cleanly, definitions are validated",
          "[core][first_order]") {
  Sim sim;
  sim.mesh = geometry::makeSphere(0.05, 1);
  sim.mass = geometry::lumpVertexMasses(sim.mesh, 0.1);
  FirstOrderStepInput in;
  in.def = &sim.def;
  in.mesh = &sim.mesh;
  in.shapeNext = &sim.mesh.V;
  in.vertexMass = &sim.mass;
  in.h = 0.01;
  in.gravity = Vec3(0, NAN, 0);
  FirstOrderStepResult r = firstOrderStep(in);
  CHECK_FALSE(r.converged);
  CHECK(r.g.b.allFinite());
  in.gravity = Vec3(0, -9.81, 0);
  in.h = 0.0;
  CHECK_FALSE(firstOrderStep(in).converged);
  in.h = 0.01;
  r = firstOrderStep(in);
  CHECK(r.converged);
  CHECK(r.iterations <= 2);  // a rigid translation: linear in the unknowns
  FirstOrderDef bad;
  bad.normalDrag = -1.0;
  CHECK_THROWS_AS(validateFirstOrderDef(bad, "/bodies/0/firstOrder"), DefinitionError);
  try {
    validateFirstOrderDef(bad, "/bodies/0/firstOrder");
  } catch (const DefinitionError& e) {
    CHECK(e.field() == "/bodies/0/firstOrder/normalDrag");
  }
  CHECK_NOTHROW(validateFirstOrderDef(FirstOrderDef{}, ""));
}

TEST_CASE("First order: a flow carries the dissipative body along exactly, inertial ignores it",
          "[core][first_order]") {
  // The three-link swimmer sinks, swims and turns; with a flow w its placement must be the
  // flowless one translated by t w (Galilean invariance of the Rayleigh force −B (v − w)).
  const ThreeLink swimmer(1.0, 0.8);
  const Vec3 w(0.2, 0.05, -0.3);
  for (FirstOrderKind kind : {FirstOrderKind::kDissipative, FirstOrderKind::kInertial}) {
    Sim still;
    still.def.kind = kind;
    still.mesh = swimmer.s.mesh;
    still.mass = geometry::lumpVertexMasses(still.mesh, 0.01);
    swimmer.anim->evaluate(0.0, &still.mesh.V);
    still.gravity = Vec3(0, -9.81, 0);
    still.g.q = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitX()));
    still.g.b = Vec3(0.4, -0.2, 1.0);
    Sim windy = still;
    windy.flow = w;
    const double h = 0.01;
    const int steps = 60;
    runSim(&still, *swimmer.anim, h, steps);
    runSim(&windy, *swimmer.anim, h, steps);
    const Vec3 shift = kind == FirstOrderKind::kInertial ? Vec3::Zero() : Vec3(steps * h * w);
    const double dx = (windy.g.b - still.g.b - shift).norm();
    const double turn = rotationAngle(windy.g.q * still.g.q.conjugate());
    INFO("kind " << static_cast<int>(kind) << ": after " << steps * h << " s, |Δb − t w| " << dx
                 << " m, rotation difference " << turn << " rad; path "
                 << (still.g.b - Vec3(0.4, -0.2, 1.0)).norm() << " m");
    CHECK(dx < 1e-12);
    CHECK(turn < 1e-12);
    CHECK(windy.maxResidual <= 1e-12);
    if (kind == FirstOrderKind::kInertial) CHECK(windy.momentum == still.momentum);
  }
}

namespace {

/// A sphere (r = 5 cm, 2500 kg/m³) under first-order dynamics in a World of water-like
/// density 1000 kg/m³ (the only fluid), h = 10 ms.
WorldDef sphereWorld(const FirstOrderDef& model) {
  WorldDef def;
  def.fluid.density = 1000.0;
  def.dt = 0.01;
  BodyDef b;
  b.mesh = geometry::makeSphere(0.05, 2);
  b.mass.mode = MassMode::kDensity;
  b.mass.density = 2500.0;
  b.position = Vec3(0.3, 2.0, -0.1);
  b.model = std::make_shared<FirstOrderModel>(model);
  def.bodies = {b};
  return def;
}

/// Σ_j B_j of the body's mesh (body frame) under `model` (explicit drags).
Mat3 totalMetric(const FirstOrderDef& model, const geometry::TriMesh& mesh) {
  Mat3 sum = Mat3::Zero();
  const std::vector<double> unused(static_cast<size_t>(mesh.numVertices()), 0.0);
  for (const Mat3& b : vertexMetrics(model, mesh.V, mesh.F, unused)) sum += b;
  return sum;
}

/// The discrete momentum (inertial metric m_j I) between two world vertex sets, h apart.
Vec6 inertialMomentum(const geometry::VertexMatrix& P, const geometry::VertexMatrix& Pn,
                      const std::vector<double>& mass, double h) {
  std::vector<Mat3> B(mass.size());
  for (size_t j = 0; j < mass.size(); ++j) B[j] = mass[j] * Mat3::Identity();
  return discreteMomenta(P, B, Pn, B, h);
}

}  // namespace

TEST_CASE("First order in the World: a dissipative sphere sinks at its terminal velocity",
          "[core][first_order]") {
  FirstOrderDef model;
  model.normalDrag = 40.0;  // isotropic: Σ B = α Σ A I
  model.tangentialDrag = 40.0;
  const WorldDef def = sphereWorld(model);
  World w(def);
  const BodyInfo info = w.info(0);
  const double rho = def.fluid.density;
  // v = m g (1 − ρV/m) / (α ΣA), ΣA the vertex areas = the mesh area.
  const Vec3 vExpect = (info.mass - rho * info.volume) * def.gravity / (40.0 * info.area);
  const Vec3 com0 = w.diagnostics(0).com;
  for (int k = 1; k <= 5; ++k) {
    REQUIRE(w.step().ok());
    const BodyDiagnostics d = w.diagnostics(0);
    INFO("step " << k << ": v = " << d.velocity.transpose() << ", expected " << vExpect.transpose()
                 << " m/s");
    CHECK((d.velocity - vExpect).norm() < 1e-12 * vExpect.norm());
    CHECK((d.com - com0 - k * def.dt * vExpect).norm() < 1e-12);
    CHECK(d.fallSpeed == Approx(vExpect.norm()).epsilon(1e-12));
    CHECK(d.omega.norm() < 1e-10);
  }
  // The fluid wrench of the model at that state balances the effective weight; no torque.
  FluidWrenchQuery query;
  query.velocity = vExpect;
  const FluidWrench f = w.fluidWrench(0, query);
  const Vec3 weight = (info.mass - rho * info.volume) * def.gravity;
  CHECK((f.force + weight).norm() < 1e-12 * weight.norm());
  CHECK(f.torque.norm() < 1e-12 * weight.norm() * 0.05);
}

TEST_CASE("First order in the World: the wind carries a dissipative body, fluid wrench",
          "[core][first_order]") {
  FirstOrderDef model;
  model.normalDrag = 40.0;
  model.tangentialDrag = 40.0;
  WorldDef still = sphereWorld(model);
  WorldDef windy = still;
  const Vec3 wind(0.7, 0.0, -0.4);  // horizontal
  windy.fluid.wind = wind;
  World ws(still), ww(windy);
  for (int k = 1; k <= 20; ++k) {
    REQUIRE(ws.step().ok());
    REQUIRE(ww.step().ok());
  }
  const BodyDiagnostics ds = ws.diagnostics(0), dw = ww.diagnostics(0);
  INFO("still " << ds.velocity.transpose() << ", in wind " << dw.velocity.transpose() << " m/s");
  // Horizontal velocity = the wind, vertical = the terminal velocity of still fluid.
  CHECK((dw.velocity - ds.velocity - wind).norm() < 1e-12);
  CHECK(std::abs(dw.velocity.x() - wind.x()) < 1e-12);
  CHECK(std::abs(dw.velocity.z() - wind.z()) < 1e-12);
  CHECK((dw.com - ds.com - ww.time() * wind).norm() < 1e-12);
  CHECK(rotationAngle(dw.q) < 1e-12);

  // The fluid wrench: zero when the body moves with the wind; −Σ B_j (v_j − w) in general,
  // so wind w at velocity v equals still fluid at v − w.
  FluidWrenchQuery q;
  q.velocity = wind;
  const FluidWrench atWind = ww.fluidWrench(0, q);
  CHECK(atWind.force.norm() == 0.0);
  CHECK(atWind.torque.norm() == 0.0);
  q.q = Quat(Eigen::AngleAxisd(0.8, Vec3(1, -2, 0.5).normalized()));
  q.velocity = Vec3(0.3, -1.2, 0.4);
  q.omega = Vec3(2.0, -1.0, 3.0);
  FluidWrenchQuery rel = q;
  rel.velocity = q.velocity - wind;
  rel.wind = Vec3::Zero();
  const FluidWrench a = ww.fluidWrench(0, q), b = ws.fluidWrench(0, rel);
  const FluidWrench c = ws.fluidWrench(0, [&] {
    FluidWrenchQuery withWind = q;
    withWind.wind = wind;  // the query's wind replaces the scene's
    return withWind;
  }());
  INFO("F = " << a.force.transpose() << " N, τ = " << a.torque.transpose() << " N·m");
  CHECK((a.force - b.force).norm() < 1e-12 * a.force.norm());
  CHECK((a.torque - b.torque).norm() < 1e-12 * a.torque.norm());
  CHECK((a.force - c.force).norm() < 1e-12 * a.force.norm());
  CHECK((a.torque - c.torque).norm() < 1e-12 * a.torque.norm());
  CHECK(a.torque.norm() > 0.0);  // the spin is dragged too
  // Translation alone: F = −α ΣA (v − w) (isotropic drag), no torque.
  q.omega.setZero();
  const FluidWrench t = ww.fluidWrench(0, q);
  const Vec3 fExpect = -40.0 * ww.info(0).area * (q.velocity - wind);
  CHECK((t.force - fExpect).norm() < 1e-12 * fExpect.norm());
  CHECK(t.torque.norm() < 1e-12 * fExpect.norm() * 0.05);
}

TEST_CASE("First order in the World: Dzhanibekov effect with gross-inertial",
          "[core][first_order][slow]") {
  WorldDef def;
  def.gravity = Vec3::Zero();
  def.dt = 1e-3;
  BodyDef b;
  b.mesh = geometry::makeEllipsoid(Vec3(0.15, 0.1, 0.05), 1);
  b.mass.mode = MassMode::kTotal;
  b.mass.total = 1.0;
  FirstOrderDef model;
  model.kind = FirstOrderKind::kInertial;
  b.model = std::make_shared<FirstOrderModel>(model);
  // The World lumps the mass at the vertices by area: the inertia of those point masses.
  const std::vector<double> mass = geometry::lumpVertexMasses(b.mesh, 1.0);
  Vec3 c = Vec3::Zero();
  for (int j = 0; j < b.mesh.numVertices(); ++j) c += mass[j] * b.mesh.vertex(j);
  Mat3 I = Mat3::Zero();
  for (int j = 0; j < b.mesh.numVertices(); ++j) {
    const Vec3 r = b.mesh.vertex(j) - c;
    I += mass[j] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
  }
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(I);
  const Vec3 Ip = eig.eigenvalues();  // ascending: the intermediate axis is the second
  const Vec3 e1 = eig.eigenvectors().col(0), e2 = eig.eigenvectors().col(1);
  const double w0 = 2 * M_PI;
  b.angularVelocity = w0 * e2 + 1e-3 * w0 * e1;
  def.bodies = {b};
  World w(def);

  // Analytic period of ω (Landau & Lifshitz §37); ω along e2 changes sign every half period.
  const Vec3 omegaP(eig.eigenvectors().transpose() * b.angularVelocity);
  const double E = 0.5 * omegaP.dot(Ip.cwiseProduct(omegaP));
  const double L2 = Ip.cwiseProduct(omegaP).squaredNorm();
  REQUIRE(L2 < 2 * E * Ip(1));
  const double k2 =
      (Ip(2) - Ip(1)) * (L2 - 2 * E * Ip(0)) / ((Ip(1) - Ip(0)) * (2 * E * Ip(2) - L2));
  const double period = 4 * std::comp_ellint_1(std::sqrt(k2)) *
                        std::sqrt(Ip.prod() / ((Ip(1) - Ip(0)) * (2 * E * Ip(2) - L2)));

  const Vec3 L0 = w.diagnostics(0).angularMomentum;
  CHECK((L0 - I * b.angularVelocity).norm() < 1e-12 * L0.norm());
  double maxDrift = 0.0, maxDiscrete = 0.0, prev = w0;
  std::vector<double> flips;
  geometry::VertexMatrix P = w.worldVertices(0);
  while (w.time() < 1.4 * period) {
    REQUIRE(w.step().ok());
    const BodyDiagnostics d = w.diagnostics(0);
    maxDrift = std::max(maxDrift, (d.angularMomentum - L0).norm());
    const geometry::VertexMatrix Pn = w.worldVertices(0);
    maxDiscrete =
        std::max(maxDiscrete, (inertialMomentum(P, Pn, mass, def.dt).head<3>() - L0).norm());
    P = Pn;
    const double wy = w.state(0).Y.head<3>().dot(e2);  // body frame, over the step
    if ((wy < 0) != (prev < 0)) {
      flips.push_back(w.time() - def.dt * (wy / (wy - prev)) - 0.5 * def.dt);
    }
    prev = wy;
  }
  std::ostringstream times;
  for (double f : flips) times << " " << f;
  INFO("half period " << period / 2 << " s; ω·e2 changes sign at" << times.str()
                      << " s; max |ΔL| reported " << maxDrift << ", of the motion " << maxDiscrete
                      << ", |L| " << L0.norm());
  CHECK(maxDrift < 1e-10 * L0.norm());
  CHECK(maxDiscrete < 1e-10 * L0.norm());
  REQUIRE(flips.size() >= 3);
  for (size_t i = 1; i < flips.size(); ++i) {
    CHECK(flips[i] - flips[i - 1] == Approx(period / 2).epsilon(1e-3));
  }
}

TEST_CASE("First order in the World: the falling cat with gross-inertial", "[core][first_order]") {
  const Cat cat = makeCat();
  const double T = 1.0, h = 2e-3;
  auto stroke = catStroke(cat, T);
  FirstOrderDef model;
  model.kind = FirstOrderKind::kInertial;
  WorldDef def = test::catWorld(cat, stroke, h);
  def.bodies[0].model = std::make_shared<FirstOrderModel>(model);
  World w(def);
  // The same stroke stepped directly (the World lumps the same vertex masses).
  Sim sim;
  sim.def = model;
  sim.mesh = cat.mesh;
  sim.mass = geometry::lumpVertexMasses(cat.mesh, 2.0);
  stroke->evaluate(0.0, &sim.mesh.V);

  const Vec3 com0 = w.diagnostics(0).com;
  double drift = 0.0, reported = 0.0, discrete = 0.0;
  geometry::VertexMatrix P = w.worldVertices(0), next;
  for (int k = 1; k <= static_cast<int>(std::lround(T / h)); ++k) {
    REQUIRE(w.step().ok());
    stroke->evaluate(k * h, &next);
    sim.step(next, h);
    const BodyDiagnostics d = w.diagnostics(0);
    drift = std::max(drift, (d.com - com0).norm());
    reported = std::max(reported, d.angularMomentum.norm() + d.linearMomentum.norm());
    const geometry::VertexMatrix Pn = w.worldVertices(0);
    discrete = std::max(discrete, inertialMomentum(P, Pn, sim.mass, h).norm());
    P = Pn;
  }
  const Quat q = w.state(0).g.q;
  INFO("one stroke: rotation " << rotationAngle(q) * 180 / M_PI << " deg; COM drift " << drift
                               << " m; |M| reported " << reported << ", of the motion " << discrete
                               << "; World vs step function "
                               << rotationAngle(q * sim.g.q.conjugate()) << " rad");
  CHECK(rotationAngle(q) > 2.0 * M_PI / 180.0);
  CHECK(drift < 1e-12);
  CHECK(reported == 0.0);
  CHECK(discrete < 1e-12);
  CHECK(rotationAngle(q * sim.g.q.conjugate()) < 1e-12);
  CHECK((w.state(0).g.b - sim.g.b).norm() < 1e-12);
}

TEST_CASE("First order in the World: auto drag is ½ ρ_f · 1 m/s of the body's fluid",
          "[core][first_order]") {
  FirstOrderDef autoModel;  // normalDrag 0, tangentialDrag −1: auto
  REQUIRE(autoModel.autoDrag());
  WorldDef air = sphereWorld(autoModel);
  air.fluid.density = 1.225;
  WorldDef water = air;
  water.fluid.water = WaterDef{};  // level 0, 998 kg/m³
  water.bodies[0].position = Vec3(0.0, -1.0, 0.0);
  const geometry::TriMesh& mesh = air.bodies[0].mesh;
  FluidWrenchQuery q;
  q.velocity = Vec3(0.3, -1.0, 0.2);
  for (auto [def, rho] : {std::pair{&air, 1.225}, std::pair{&water, 998.0}}) {
    World w(*def);
    FirstOrderDef expect;
    expect.normalDrag = 0.5 * rho;
    expect.tangentialDrag = 0.05 * rho;
    CHECK_FALSE(expect.autoDrag());
    CHECK(resolveFirstOrderDrag(autoModel, rho).normalDrag == expect.normalDrag);
    CHECK(resolveFirstOrderDrag(autoModel, rho).tangentialDrag == expect.tangentialDrag);
    const Mat3 B = totalMetric(expect, mesh);
    const Vec3 fExpect = -B * q.velocity;
    const FluidWrench f = w.fluidWrench(0, q);
    INFO("ρ_f " << rho << ": F = " << f.force.transpose() << " N, expected "
                << fExpect.transpose());
    CHECK((f.force - fExpect).norm() < 1e-12 * fExpect.norm());
    // The step uses the same drag: terminal velocity (Σ B)⁻¹ (m − ρ_f V) g.
    const BodyInfo info = w.info(0);
    const Vec3 vExpect = B.ldlt().solve((info.mass - rho * info.volume) * def->gravity);
    REQUIRE(w.step().ok());
    INFO("v = " << w.diagnostics(0).velocity.transpose() << " m/s, expected "
                << vExpect.transpose());
    CHECK((w.diagnostics(0).velocity - vExpect).norm() < 1e-10 * vExpect.norm());
  }
  // A leaf (10 × 10 cm, 0.8 g, level) in air: α = 0.6125 N·s/m³, v = m g / (α A) ≈ 1.28 m/s
  // (with the water-like α = 500 it would sink at 1.6 mm/s).
  {
    WorldDef leaf = air;
    leaf.bodies[0].mesh = geometry::makePlate(0.1, 0.1, 4, 4);  // normal +y
    leaf.bodies[0].mass.mode = MassMode::kTotal;
    leaf.bodies[0].mass.total = 8e-4;
    World w(leaf);
    REQUIRE(w.step().ok());
    const Vec3 vExpect = 8e-4 * leaf.gravity / (0.5 * 1.225 * 0.01);
    INFO("leaf in air: v = " << w.diagnostics(0).velocity.transpose() << " m/s");
    CHECK((w.diagnostics(0).velocity - vExpect).norm() < 1e-12 * vExpect.norm());
  }
  // An explicit α with auto β: β = α/10.
  FirstOrderDef alphaOnly;
  alphaOnly.normalDrag = 30.0;
  FirstOrderDef expect = alphaOnly;
  expect.tangentialDrag = 3.0;
  World w(sphereWorld(alphaOnly));
  const FluidWrench f = w.fluidWrench(0, q);
  const Vec3 fExpect = -totalMetric(expect, mesh) * q.velocity;
  CHECK((f.force - fExpect).norm() < 1e-12 * fExpect.norm());
  // Auto drag needs a fluid; an explicit one does not.
  WorldDef vacuum = air;
  vacuum.fluid.density = 0.0;
  try {
    World bad(vacuum);
    FAIL("auto drag in vacuum was accepted");
  } catch (const DefinitionError& e) {
    CHECK(e.field() == "/bodies/0/model/normal_drag");
  }
  vacuum.bodies[0].model = std::make_shared<FirstOrderModel>(expect);
  CHECK_NOTHROW(World(vacuum));
}

TEST_CASE("First order in the World: the floor stops both models without penetration",
          "[core][first_order][slow]") {
  for (const FirstOrderKind kind : {FirstOrderKind::kDissipative, FirstOrderKind::kInertial}) {
    FirstOrderDef model;
    model.kind = kind;
    model.normalDrag = 40.0;
    model.tangentialDrag = 40.0;
    WorldDef def = sphereWorld(model);
    FloorDef floor;
    floor.height = 0.25;
    def.floor = floor;
    World w(def);
    const double lowest0 = w.worldVertices(0).col(1).minCoeff();
    REQUIRE(lowest0 > floor.height);
    for (int k = 0; k < 2000; ++k) REQUIRE(w.step().ok());
    INFO("kind " << static_cast<int>(kind));
    // Resting on the floor: the lowest vertex at the floor to round-off, no motion left.
    CHECK(w.worldVertices(0).col(1).minCoeff() == Approx(floor.height).margin(1e-12));
    const Vec3 com1 = w.diagnostics(0).com;
    REQUIRE(w.step().ok());
    CHECK((w.diagnostics(0).com - com1).norm() < 1e-12);
  }
}

TEST_CASE("First order in the World: Coulomb friction on the floor", "[core][first_order][slow]") {
  SECTION("gross-inertial: a sphere sliding at v0 stops after v0² / (2 μ g)") {
    FirstOrderDef model;
    model.kind = FirstOrderKind::kInertial;
    for (const double mu : {0.25, 0.5}) {
      WorldDef def = sphereWorld(model);
      def.fluid.density = 0.0;
      def.dt = 1e-3;
      FloorDef floor;
      floor.friction = mu;
      def.floor = floor;
      def.bodies[0].position = Vec3(0.0, 0.05, 0.0);  // resting on the floor
      const double v0 = 2.0;
      def.bodies[0].velocity = Vec3(v0, 0.0, 0.0);
      World w(def);
      const double x0 = w.diagnostics(0).com.x();
      for (int k = 0; k < 2000; ++k) REQUIRE(w.step().ok());
      const double slid = w.diagnostics(0).com.x() - x0;
      const double expected = v0 * v0 / (2.0 * mu * 9.81);
      INFO("mu " << mu << ": slid " << slid << " m, expected " << expected << " m");
      CHECK(slid == Approx(expected).epsilon(0.01));
      CHECK(std::abs(w.diagnostics(0).velocity.x()) < 1e-9);
    }
  }
  SECTION("gross-dissipative: a tilted card lands and stays, with or without friction") {
    // Velocity ∝ force: on a horizontal floor gravity has no sideways part, so nothing
    // drives the card sideways (it used to glide edgewise: 236 m in 120 s).
    FirstOrderDef model;  // a card: broadside drag 100× its edgewise drag
    model.normalDrag = 40.0;
    model.tangentialDrag = 0.4;
    for (const double mu : {0.0, 0.5}) {
      WorldDef def;
      def.dt = 1e-3;
      BodyDef b;
      b.mesh = geometry::makePlate(0.1, 0.06, 4, 4);
      b.mass.mode = MassMode::kDensity;
      b.mass.density = 700.0;
      b.mass.thickness = 2e-4;
      b.position = Vec3(0.0, 0.5, 0.0);
      b.orientation = Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()));
      b.model = std::make_shared<FirstOrderModel>(model);
      def.bodies = {b};
      FloorDef floor;
      floor.friction = mu;
      def.floor = floor;
      World w(def);
      for (int k = 0; k < 5000; ++k) REQUIRE(w.step().ok());  // landed long before 5 s
      const Vec3 at5 = w.diagnostics(0).com;
      for (int k = 0; k < 5000; ++k) REQUIRE(w.step().ok());
      const Vec3 d = w.diagnostics(0).com - at5;
      INFO("mu " << mu << ": sideways travel from 5 to 10 s " << Vec3(d.x(), 0, d.z()).norm());
      CHECK(Vec3(d.x(), 0.0, d.z()).norm() < 1e-9);
    }
  }
  SECTION("gross-dissipative: a wind moves a sphere on the floor only past μ N") {
    // Isotropic drag c: the sphere holds while c w ≤ μ N and slides at w − μ N / c beyond.
    FirstOrderDef model;
    model.normalDrag = 40.0;
    model.tangentialDrag = 40.0;
    const double mu = 0.5;
    WorldDef base = sphereWorld(model);
    const double c = totalMetric(model, base.bodies[0].mesh)(0, 0);
    base.dt = 1e-3;
    FloorDef floor;
    floor.friction = mu;
    base.floor = floor;
    base.bodies[0].position = Vec3(0.0, 0.05, 0.0);
    World probe(base);
    const double mass = probe.info(0).mass;
    const double volume = mass / 2500.0;  // the mesh's volume (density 2500 kg/m³)
    const double normal = (mass - 1000.0 * volume) * 9.81;  // net weight (fluid 1000 kg/m³)
    const double wStar = mu * normal / c;
    for (const double factor : {0.5, 2.0}) {
      WorldDef def = base;
      def.fluid.wind = Vec3(factor * wStar, 0.0, 0.0);
      World w(def);
      for (int k = 0; k < 200; ++k) REQUIRE(w.step().ok());
      const double x0 = w.diagnostics(0).com.x();
      for (int k = 0; k < 1000; ++k) REQUIRE(w.step().ok());
      const double speed = w.diagnostics(0).com.x() - x0;  // over 1 s
      const double expected = std::max(0.0, factor * wStar - wStar);
      INFO("wind " << factor << " w* (w* = " << wStar << " m/s): " << speed << " m/s, expected "
                   << expected);
      CHECK(speed == Approx(expected).margin(1e-3 * wStar));
    }
  }
}
