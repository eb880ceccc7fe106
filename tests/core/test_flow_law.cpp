// samara's per-face flow law (core/flow_law.h, PHYSICS.md §8): its analytic Jacobian, the
// circulation and rotational lift doing no work, a plate's lift and drag at an angle of
// attack, the Magnus lift of a spinning sphere (Rubinow & Keller), the Reynolds number
// (a plate scaled at fixed I*), and the paper's model left unchanged.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/flow_law.h"
#include "core/forces.h"
#include "core/gwtf_model.h"
#include "core/world.h"
#include "geometry/primitives.h"
#include "test_shapes.h"

using namespace samara;
using namespace samara::core;

namespace {

/// A ParamReader over a map of numbers (what a scene file's model object gives io).
class MapReader final : public ParamReader {
 public:
  explicit MapReader(std::map<std::string, double> values) : values_(std::move(values)) {}
  void allowOnly(const std::vector<std::string>&) const override {}
  bool has(const std::string& key) const override { return values_.count(key) > 0; }
  bool isString(const std::string&) const override { return false; }
  bool isNumber(const std::string& key) const override { return has(key); }
  std::string text(const std::string& key) const override { fail(key, "not a word"); }
  double number(const std::string& key, bool) const override { return values_.at(key); }
  std::vector<double> numbers(const std::string& key, int) const override {
    fail(key, "not a list");
  }
  Vec3 vec3(const std::string& key) const override { fail(key, "not a vector"); }
  std::int64_t integer(const std::string& key, std::int64_t, std::int64_t) const override {
    fail(key, "not an integer");
  }
  std::string describe(const std::string& key) const override { return key; }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const override {
    throw std::invalid_argument(key + ": " + message);
  }

 private:
  std::map<std::string, double> values_;
};

/// The samara model with the given coefficients, set as a scene file would set them.
std::shared_ptr<GwtfModel> samaraModel(const FlowLawCoefficients& c) {
  auto m = std::make_shared<GwtfModel>(GwtfModel::Variant::kSamara);
  m->readParameters(MapReader(
      {{"friction", c.friction}, {"ct", c.ct}, {"cr", c.cr}, {"cd0", c.cd0}, {"rec", c.rec}}));
  REQUIRE(m->coefficients().friction == c.friction);
  REQUIRE(m->coefficients().ct == c.ct);
  REQUIRE(m->coefficients().cr == c.cr);
  REQUIRE(m->coefficients().cd0 == c.cd0);
  REQUIRE(m->coefficients().rec == c.rec);
  return m;
}

/// Random faces of one part with the coefficients body.cpp gives them: k = c ρ A (c = 1
/// sheet, ½ closed), c₁ = 1.328 √(ν/L), c₂ = 2.326 ν/L, κ = (π/2)ℓ (sheet) or
/// (3/4)ℓ/√1.5 (closed) with L = 2ℓ; random unit normals, centroids, offsets. kind 0: all
/// sheet faces, 1: all closed, 2: mixed.
struct FaceSet {
  DragFaces drag;
  FlowLawFaces law;
  std::vector<Vec3> offsets;  ///< per face, m/s
  Vec3 com = Vec3::Zero();    ///< centre of mass (the relative rotation turns about it), m
};

FaceSet randomFaces(std::mt19937& rng, int n, int kind) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::normal_distribution<double> N(0.0, 1.0);
  const double ell = 0.01 + 0.1 * (1.0 + U(rng));         // 1–21 cm
  const double nu = std::pow(10.0, -3.5 + 1.5 * U(rng));  // 1e-5 … 1e-2 m²/s (friction visible)
  const double rho = kind == 0 ? 1.225 : 998.0;
  FaceSet s;
  for (int f = 0; f < n; ++f) {
    const bool sheet = kind == 0 || (kind == 2 && f % 2 == 0);
    const Vec3 nrm = Vec3(N(rng), N(rng), N(rng)).normalized();
    const Vec3 x = 0.2 * Vec3(U(rng), U(rng), U(rng));
    const double A = 1e-4 * (5.5 + 4.5 * U(rng));
    Vec6 a;
    a << x.cross(nrm), nrm;
    s.drag.add(a, x, (sheet ? 1.0 : 0.5) * rho * A);
    s.law.fric.push_back(kBlasius * std::sqrt(nu / (2.0 * ell)));
    s.law.visc.push_back(kImai * nu / (2.0 * ell));
    s.offsets.push_back(Vec3(U(rng), U(rng), U(rng)));
    s.law.part.push_back(f % 3);  // three parts, each off the centre of mass
  }
  s.law.parts = 3;
  // S per part: a sheet's (π/2) Λ with half-chords ℓ, ℓ/3 and ℓ/10 along random axes
  // (anisotropic K), a closed part's κ I (kind 2: parts 0 and 2 sheets, 1 closed).
  for (int p = 0; p < 3; ++p) {
    const bool sheet = kind == 0 || (kind == 2 && p % 2 == 0);
    const Vec3 e1 = Vec3(N(rng), N(rng), N(rng)).normalized();
    const Vec3 e2 = e1.cross(Vec3(N(rng), N(rng), N(rng))).normalized();
    const Vec3 e3 = e1.cross(e2);
    const Mat3 halfChords = ell * (e1 * e1.transpose()) + (ell / 3.0) * (e2 * e2.transpose()) +
                            (ell / 10.0) * (e3 * e3.transpose());
    const Mat3 S = sheet ? Mat3(0.5 * kRotationCR * halfChords)
                         : Mat3(0.75 * ell / std::sqrt(1.5) * Mat3::Identity());
    for (const double e : {S(0, 0), S(0, 1), S(0, 2), S(1, 1), S(1, 2), S(2, 2)}) {
      s.law.lift.push_back(e);
    }
  }
  s.com = 0.1 * Vec3(U(rng), U(rng), U(rng));
  return s;
}

Vec6 randomY(std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-2.0, 2.0);
  Vec6 Y;
  for (int i = 0; i < 6; ++i) Y[i] = U(rng);
  return Y;
}

/// addFlowLawWrench with per-face offsets (perFace) or the single offset of face 0.
Vec6 lawWrench(const FaceSet& s, const FlowLawCoefficients& c, const Vec6& Y, bool perFace,
               Mat6* J = nullptr) {
  Vec6 F = Vec6::Zero();
  if (J != nullptr) J->setZero();
  addFlowLawWrench(s.drag, s.law, c, Y, s.com, s.offsets[0], perFace ? s.offsets.data() : nullptr,
                   &F, J);
  return F;
}

/// Central differences of lawWrench with step h in each component of Y.
Mat6 finiteDifferenceJ(const FaceSet& s, const FlowLawCoefficients& c, const Vec6& Y, bool perFace,
                       double h) {
  Mat6 Jfd;
  for (int j = 0; j < 6; ++j) {
    Vec6 e = Vec6::Zero();
    e[j] = h;
    Jfd.col(j) = (lawWrench(s, c, Y + e, perFace) - lawWrench(s, c, Y - e, perFace)) / (2.0 * h);
  }
  return Jfd;
}

double maxAbs(const Mat6& M) { return M.cwiseAbs().maxCoeff(); }

/// Relative velocity of each face, u_f = v + ω × x_f + o_f (body frame).
std::vector<Vec3> faceVelocities(const FaceSet& s, const Vec6& Y) {
  std::vector<Vec3> u(s.drag.size());
  for (size_t f = 0; f < u.size(); ++f) {
    u[f] = Y.tail<3>() + Y.head<3>().cross(s.drag.centroid(f)) + s.offsets[f];
  }
  return u;
}

/// Σ_f f_f · u_f of the law's face forces at Y with coefficients c (W).
double facePower(const FaceSet& s, const FlowLawCoefficients& c, const Vec6& Y) {
  std::vector<Vec3> forces;
  flowLawFaceForces(s.drag, s.law, c, Y, s.com, Vec3::Zero(), s.offsets.data(), &forces);
  const std::vector<Vec3> u = faceVelocities(s, Y);
  double p = 0.0;
  for (size_t f = 0; f < u.size(); ++f) p += forces[f].dot(u[f]);
  return p;
}

/// The icosphere's factor on Rubinow & Keller's lift: the rotational term sums
/// ½ρ A_f κ (I − n nᵀ) ω × V with κ = (3/4) 3V/A, and Σ A_f n nᵀ = (A/3) I by the
/// icosahedral symmetry, so F = π ρ r³ ω V · (A / 4πr²)(3V/A)/r = π ρ r³ ω V · V/(4πr³/3):
/// the mesh's volume V over the sphere's.
double magnusMeshFactor(const geometry::TriMesh& mesh, double r) {
  geometry::FaceGeometry geo;
  geometry::computeFaceGeometry(mesh, &geo);
  double volume = 0.0;  // (1/3) ∮ x·n dA, exact per flat triangle
  for (int f = 0; f < mesh.numFaces(); ++f)
    volume += geo.area[f] * geo.centroid[f].dot(geo.normal[f]);
  volume /= 3.0;
  return volume / (4.0 / 3.0 * M_PI * r * r * r);
}

}  // namespace

TEST_CASE("Flow law: the analytic Jacobian equals central differences", "[core][flowlaw]") {
  std::mt19937 rng(13);
  const FlowLawCoefficients full{1.0, 1.2, kRotationCR, kIsotropicCD0};
  const FlowLawCoefficients frictionOnly{1.0, 0.0, 0.0};
  const FlowLawCoefficients isotropicOnly{0.0, 0.0, 0.0, kIsotropicCD0};
  const FlowLawCoefficients faded{1.0, 1.2, kRotationCR, kIsotropicCD0, 100.0};  // Re_c 100
  double worst = 0.0;
  for (int trial = 0; trial < 30; ++trial) {
    const FaceSet s = randomFaces(rng, 12, trial % 3);
    const Vec6 Y = randomY(rng);
    const double h = 1e-6 * std::max(1.0, Y.norm());
    for (const FlowLawCoefficients& c : {full, frictionOnly, isotropicOnly, faded}) {
      for (bool perFace : {true, false}) {
        Mat6 J;
        lawWrench(s, c, Y, perFace, &J);
        const double err = maxAbs(J - finiteDifferenceJ(s, c, Y, perFace, h)) / maxAbs(J);
        INFO("trial " << trial << " kind " << trial % 3 << " ct " << c.ct << " per-face " << perFace
                      << " relative error " << err);
        CHECK(err < 1e-6);
        worst = std::max(worst, err);
      }
    }
  }
  std::printf(
      "[flowlaw] Jacobian vs central differences: worst relative error %.2e "
      "(30 face sets x 4 coefficient sets x 2 offset modes)\n",
      worst);
}

TEST_CASE("Flow law: a face at zero relative velocity has a finite force and Jacobian",
          "[core][flowlaw]") {
  std::mt19937 rng(29);
  const FlowLawCoefficients c{1.0, 1.2, kRotationCR};
  for (int kind = 0; kind < 2; ++kind) {
    FaceSet s = randomFaces(rng, 6, kind);
    const Vec6 Y = randomY(rng);
    // Face 0 moves with the fluid: o₀ = −(v + ω × x₀) makes u₀ = 0 exactly.
    const Vec3 w = Y.head<3>();
    const Vec3 x = s.drag.centroid(0);
    s.offsets[0] = -(Y.tail<3>() + w.cross(x));
    // ν = 1e-3 m²/s, ℓ = 5 cm: friction's √h error dominates the central differences below.
    s.law.fric[0] = kBlasius * std::sqrt(1e-3 / 0.1);
    s.law.visc[0] = kImai * 1e-3 / 0.1;
    Mat6 J;
    const Vec6 F = lawWrench(s, c, Y, true, &J);
    REQUIRE(F.allFinite());
    REQUIRE(J.allFinite());
    // The face's own force is zero; its Jacobian is the limit u → 0 of ∂f/∂u and ∂f/∂ω:
    // Du = −k c₂ P + k (K ω)^ (the √s, s and 1/s terms all vanish), Dw = −k û K = 0.
    FaceSet one;
    one.drag.add(s.drag.a(0), x, s.drag.k[0]);
    one.law.fric = {s.law.fric[0]};
    one.law.visc = {s.law.visc[0]};
    one.law.lift = {s.law.lift.begin(), s.law.lift.begin() + 6};  // part 0's
    one.law.part = {0};
    one.law.parts = 1;
    one.offsets = {s.offsets[0]};
    Mat6 J1;
    const Vec6 F1 = lawWrench(one, c, Y, true, &J1);
    CHECK(F1.norm() == 0.0);
    const Vec3 n = s.drag.normal(0);
    const Mat3 P = Mat3::Identity() - n * n.transpose();
    const double k = s.drag.k[0];
    const Mat3 K = liftTensor(s.law.lift.data(), n) * (c.cr / kRotationCR);
    const Mat3 Du = -k * s.law.visc[0] * P + k * hat(K * w);
    const Mat3 X = hat(x);
    Mat6 expected;
    expected << -X * Du * X, X * Du, -Du * X, Du;
    INFO("|J1 - expected| " << maxAbs(J1 - expected) << ", |expected| " << maxAbs(expected));
    // The face is a part of its own off the centre of mass: its ω_r is ω up to the
    // round-off of its mean flow u_c (~1e-17 m/s, not exactly 0) over η² |q|².
    CHECK(maxAbs(J1 - expected) <= 1e-13 * maxAbs(expected));
    // Central differences converge to it like √h (friction's √s u_t is C¹ but not C²):
    // the error falls 10× for each 100× smaller step.
    double e[3];
    for (int i = 0; i < 3; ++i) {
      const double h = std::pow(10.0, -6 - 2 * i);
      e[i] = maxAbs(finiteDifferenceJ(one, c, Y, true, h) - J1) / maxAbs(J1);
    }
    std::printf(
        "[flowlaw] zero-velocity face (%s): |J_fd - J| / |J| = %.2e, %.2e, %.2e at "
        "h = 1e-6, 1e-8, 1e-10\n",
        kind == 0 ? "sheet" : "closed", e[0], e[1], e[2]);
    CHECK(e[0] / e[1] == Approx(10.0).epsilon(0.1));
    CHECK(e[1] / e[2] == Approx(10.0).epsilon(0.1));
    // The whole set: the other faces are smooth, so central differences agree to ~√h.
    const double err = maxAbs(J - finiteDifferenceJ(s, c, Y, true, 1e-8)) / maxAbs(J);
    CHECK(err < 1e-4);
  }
}

TEST_CASE("Flow law: circulation and rotational lift do no work, pressure and friction dissipate",
          "[core][flowlaw]") {
  std::mt19937 rng(41);
  const FlowLawCoefficients none{0.0, 0.0, 0.0};
  const FlowLawCoefficients lift{0.0, 1.2, kRotationCR};
  const FlowLawCoefficients all{1.0, 1.2, kRotationCR};
  const FlowLawCoefficients isotropic{1.0, 1.2, kRotationCR, kIsotropicCD0};
  const FlowLawCoefficients fadedLift{0.0, 1.2, kRotationCR, 0.0, 300.0};
  double worstLift = 0.0;
  for (int trial = 0; trial < 30; ++trial) {
    const FaceSet s = randomFaces(rng, 12, trial % 3);
    const Vec6 Y = randomY(rng);
    const std::vector<Vec3> u = faceVelocities(s, Y);
    // Expected: pressure −Σ k s u_n², friction −Σ k (c₁ √s + c₂) |u_t|², isotropic drag
    // −Σ k (C_D0/2) s³.
    double pressure = 0.0, friction = 0.0, drag0 = 0.0, scale = 0.0;
    for (size_t f = 0; f < u.size(); ++f) {
      const double k = s.drag.k[f], sp = u[f].norm(), un = u[f].dot(s.drag.normal(f));
      pressure -= k * sp * un * un;
      friction -= k * (s.law.fric[f] * std::sqrt(sp) + s.law.visc[f]) * (sp * sp - un * un);
      drag0 -= k * 0.5 * kIsotropicCD0 * sp * sp * sp;
      scale += k * sp * sp * sp;  // Σ |f| |u| for forces of size k s²
    }
    const double pNone = facePower(s, none, Y);
    const double pLift = facePower(s, lift, Y);
    const double pAll = facePower(s, all, Y);
    INFO("trial " << trial << ": pressure " << pNone << " W, with ct, cr " << pLift
                  << " W, with friction " << pAll << " W");
    CHECK(pNone <= 0.0);
    CHECK(pNone == Approx(pressure).epsilon(1e-12));
    // The circulation and rotational forces are ⊥ u_f face by face.
    CHECK(std::abs(pLift - pNone) <= 1e-14 * scale);
    CHECK(std::abs(facePower(s, fadedLift, Y) - pNone) <= 1e-14 * scale);  // faded: still ⊥ u
    worstLift = std::max(worstLift, std::abs(pLift - pNone) / scale);
    CHECK(pAll <= 0.0);
    CHECK(pAll - pLift == Approx(friction).epsilon(1e-10));
    CHECK(facePower(s, isotropic, Y) - pAll == Approx(drag0).epsilon(1e-10));
    // The wrench's power F·Y is Σ f·u when the offsets are zero (rigid body, still fluid),
    // so the body's mechanical power is that of the pressure alone.
    FaceSet still = s;
    for (Vec3& o : still.offsets) o.setZero();
    const Vec6 F = lawWrench(still, lift, Y, true);
    const double pStill = facePower(still, none, Y);
    CHECK(F.dot(Y) == Approx(pStill).epsilon(1e-11));
  }
  std::printf("[flowlaw] power of circulation + rotational lift: worst |P| / sum|f||u| = %.1e\n",
              worstLift);
}

TEST_CASE("Flow law: a plate at an angle of attack, circulation lift (2 + C_T) sin a cos a",
          "[core][flowlaw]") {
  // A 10 × 6 cm sheet (normal +y) translating at U = 3 m/s in air at angle of attack α,
  // u = U (cos α, −sin α, 0). From flow_law.h with k = ρA summed over the sheet and
  // q = ½ρU²A (û the flow direction, e_L = (sin α, cos α, 0) ⊥ û on the normal's side):
  //   pressure     −k s u_n n:  C_D = 2 sin²α,  C_L = 2 sin α cos α
  //   circulation  −k (C_T/2) u_n (s n − (u_n/s) u) = (C_T/2) k U² sin α cos α e_L:
  //                C_D = 0,  C_L = C_T sin α cos α
  //   friction     −k (c₁√U + c₂) U cos α x̂ with 2(c₁√U + c₂)/U = 2 C_f(Re), Re = U L/ν:
  //                C_D = 2 C_f cos²α,  C_L = −2 C_f sin α cos α
  // ℓ² = 1.5 ∫|x − c|² dA / A = (a² + b²)/8 for an a × b rectangle, L = 2ℓ.
  const double a = 0.1, b = 0.06, U = 3.0, ct = 1.2;
  WorldDef def;
  BodyDef plate;
  plate.mesh = geometry::makePlate(a, b, 5, 3);
  plate.mass.density = 700.0;
  plate.mass.thickness = 2e-4;
  def.bodies.push_back(plate);
  auto worldWith = [&](const FlowLawCoefficients& c) {
    WorldDef d = def;
    d.bodies[0].model = samaraModel(c);
    return World(d);
  };
  const World samara = worldWith({1.0, ct, 0.0});
  const World noCirculation = worldWith({1.0, 0.0, 0.0});
  const World withRotation = worldWith({1.0, ct, kRotationCR});      // no rotation: no change
  const World withDrag0 = worldWith({1.0, ct, 0.0, kIsotropicCD0});  // + C_D0 along −û
  const double rec = 400.0;                                          // Re_c: C_T fades
  const World faded = worldWith({1.0, ct, 0.0, 0.0, rec});
  const double rho = def.fluid.density, A = a * b, q = 0.5 * rho * U * U * A;
  const double L = 2.0 * std::sqrt((a * a + b * b) / 8.0), nu = def.fluid.viscosity / rho;
  const double c1 = kBlasius * std::sqrt(nu / L), c2 = kImai * nu / L;
  const double Cf = (c1 * std::sqrt(U) + c2) / U;
  std::printf("[flowlaw] plate %.2f x %.2f m at U = %.1f m/s: L = %.4f m, Re = %.0f, C_f = %.5f\n",
              a, b, U, L, U * L / nu, Cf);
  std::printf("[flowlaw]   alpha   C_L (measured, expected)     C_D (measured, expected)\n");
  for (double deg : {10.0, 30.0, 60.0}) {
    const double al = deg * M_PI / 180.0, sa = std::sin(al), ca = std::cos(al);
    FluidWrenchQuery query;
    query.velocity = Vec3(U * ca, -U * sa, 0.0);
    const Vec3 uhat = query.velocity / U;
    const Vec3 eL(sa, ca, 0.0);
    auto coefficients = [&](const World& w, Vec3* side) {
      const Vec3 F = w.fluidWrench(0, query).force;
      *side = F - F.dot(uhat) * uhat - F.dot(eL) * eL;
      return std::make_pair(F.dot(eL) / q, -F.dot(uhat) / q);  // (C_L, C_D)
    };
    Vec3 side;
    const auto [CL, CD] = coefficients(samara, &side);
    const double CLx = (2.0 + ct - 2.0 * Cf) * sa * ca;
    const double CDx = 2.0 * sa * sa + 2.0 * Cf * ca * ca;
    std::printf("[flowlaw]   %4.0f    %.9f %.9f    %.9f %.9f\n", deg, CL, CLx, CD, CDx);
    INFO("angle of attack " << deg << " deg");
    CHECK(CL == Approx(CLx).epsilon(1e-9));
    CHECK(CD == Approx(CDx).epsilon(1e-9));
    CHECK(side.norm() <= 1e-12 * q);
    // The circulation alone: C_T sin α cos α of lift, no drag.
    const auto [CL0, CD0] = coefficients(noCirculation, &side);
    CHECK(CL - CL0 == Approx(ct * sa * ca).epsilon(1e-9));
    CHECK(std::abs(CD - CD0) <= 1e-12);
    // C_R acts only through the rotation.
    const auto [CLr, CDr] = coefficients(withRotation, &side);
    CHECK(CLr == CL);
    CHECK(CDr == CD);
    // The isotropic drag: C_D0 more drag at every angle, no lift (APW's A − B cos 2α is
    // GwtF's 2 sin²α plus A − B).
    const auto [CLd, CDd] = coefficients(withDrag0, &side);
    CHECK(CDd - CD == Approx(kIsotropicCD0).epsilon(1e-9));
    CHECK(std::abs(CLd - CL) <= 1e-12);
    CHECK(side.norm() <= 1e-12 * q);
    // Below Re_c the circulation fades as Re/(Re + Re_c), Re = U L/ν (here Re ≈ 1.7 Re_c):
    // C_T sin α cos α Re/(Re + Re_c) of lift, still no drag.
    const auto [CLf, CDf] = coefficients(faded, &side);
    const double Re = U * L / nu;
    CHECK(CLf - CL0 == Approx(ct * sa * ca * Re / (Re + rec)).epsilon(1e-9));
    CHECK(std::abs(CDf - CD0) <= 1e-12);
  }
}

TEST_CASE("Flow law: a strip's rotational lift uses the half-chord across its rotation axis",
          "[core][flowlaw]") {
  // A flat 10 × 40 cm sheet (normal +y, long side along z) moving at V along x and pitching
  // at θ̇ about an in-plane axis through its centre. Summed over the sheet (Σ A x = 0), the
  // rotational lift is F = ρ A (C_R/2) ℓ_m θ̇ V, ℓ_m the half-chord across the axis: per
  // unit span ρ Γ V with Γ = (C_R/π) π ℓ_m² θ̇ (thin-aerofoil theory's at C_R = π). About
  // the long axis ℓ_m = 5 cm, about the short axis 20 cm: 4 times as much, not the part's
  // size ℓ = √(1.5 tr M) = 14.6 cm either way.
  const double a = 0.1, span = 0.4, V = 2.0, rate = 3.0;
  WorldDef def;
  BodyDef strip;
  strip.mesh = geometry::makePlate(a, span, 4, 16);
  strip.mass.density = 700.0;
  strip.mass.thickness = 2e-4;
  def.bodies.push_back(strip);
  const FlowLawCoefficients rotationOnly{0.0, 0.0, kRotationCR};
  const FlowLawCoefficients none{0.0, 0.0, 0.0};
  WorldDef d = def;
  d.bodies[0].model = samaraModel(rotationOnly);
  const World w(d);
  d.bodies[0].model = samaraModel(none);
  const World w0(d);
  const double rho = def.fluid.density, A = a * span;
  const struct {
    Vec3 axis, velocity;
    double halfChord;
  } cases[] = {{Vec3::UnitZ(), V * Vec3::UnitX(), 0.5 * a},
               {Vec3::UnitX(), V * Vec3::UnitZ(), 0.5 * span}};
  for (const auto& c : cases) {
    FluidWrenchQuery query;
    query.velocity = c.velocity;
    query.omega = rate * c.axis;
    const Vec3 F = w.fluidWrench(0, query).force - w0.fluidWrench(0, query).force;
    const Vec3 expected =
        rho * A * 0.5 * kRotationCR * c.halfChord * rate * c.axis.cross(c.velocity);
    std::printf("[flowlaw] strip pitching about %s: rotational lift %.6e N (expected %.6e)\n",
                c.axis.z() != 0.0 ? "its long axis" : "its short axis", F.norm(), expected.norm());
    CHECK((F - expected).norm() <= 1e-9 * expected.norm());
  }
}

TEST_CASE("Flow law: the rotational lift takes the rotation relative to the part's flow",
          "[core][flowlaw]") {
  // A part about the centre of mass keeps ω to the bit (APW's θ̇: plates, cards, spheres).
  std::mt19937 rng(29);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec6 Y = randomY(rng);
    const Vec3 com(0.01 * trial, -0.02, 0.03);
    const Vec3 o = 0.1 * randomY(rng).head<3>();
    REQUIRE(partRelativeRotation(Y, com, com, o, nullptr) == Y.head<3>());
  }
  // A wing at r from the axis of a seed in steady autorotation (ω ⊥ r, descent V along ω):
  // the flow at its centroid, u = V + ω × r, turns with it at exactly ω_⊥ (the part of ω
  // across u), so what is left is ω's roll about u, ω_∥ = (ω·û) û, plus ω_⊥ η²|q|²/D from
  // the regulariser, D = |u|² + η²|q|², q = ω × r.
  for (const double omega : {60.0, 110.0, 150.0}) {
    for (const double V : {0.5, 1.2, 2.0}) {
      const Vec3 w(0.0, omega, 0.0);  // body y up
      const Vec3 com(0.002, 0.001, -0.003);
      const Vec3 c = com + Vec3(0.025, 0.0, 0.004);  // ⊥ ω
      Vec6 Y;
      Y.head<3>() = w;
      Y.tail<3>() = Vec3(0.0, -V, 0.0) - w.cross(com);  // the centre of mass descends at V
      const Vec3 u = Y.tail<3>() + w.cross(c);
      const Vec3 q = w.cross(c - com);
      const double eta2 = kTurnRegularisation * kTurnRegularisation;
      const double D = u.squaredNorm() + eta2 * q.squaredNorm();
      const Vec3 wPar = w.dot(u) / u.squaredNorm() * u;
      const Vec3 expect = wPar + (w - wPar) * (eta2 * q.squaredNorm() / D);
      const Vec3 got = partRelativeRotation(Y, c, com, Vec3::Zero(), nullptr);
      INFO("omega " << omega << " V " << V << ": got " << got.transpose() << ", expected "
                    << expect.transpose());
      CHECK((got - expect).norm() <= 1e-12 * omega);
      // The roll left: Ω V/|u| (of Ω at 25 mm, V 1.2 m/s: 0.42 Ω).
      CHECK(std::abs(got.dot(u.normalized()) + omega * V / u.norm()) <= 1e-12 * omega);
    }
  }
  // Near |u_c| = 0 the flow's turn rate stays below |ω|/(2η).
  Vec6 Y;
  Y << 0.0, 80.0, 0.0, 0.0, 0.0, 0.0;
  const Vec3 c(0.03, 0.0, 0.0);
  Y.tail<3>() = -Y.head<3>().cross(c) + Vec3(1e-9, 0.0, 0.0);  // the centroid at rest
  const Vec3 turn = Y.head<3>() - partRelativeRotation(Y, c, Vec3::Zero(), Vec3::Zero(), nullptr);
  CHECK(turn.norm() <= 80.0 / (2.0 * kTurnRegularisation) * (1.0 + 1e-12));
}

TEST_CASE("Flow law: Magnus lift of a spinning sphere, C_L = 2 S (Rubinow & Keller)",
          "[core][flowlaw]") {
  // A sphere spinning at ω about +z and moving at V along +x: with C_R = π the rotational
  // term gives F = π ρ r³ ω × V (+y), i.e. C_L = F / (½ρV²πr²) = 2 S with S = ωr/V. The
  // pressure and the friction give no side force on a symmetric sphere (they only add drag).
  const double r = 0.05, V = 5.0;
  for (int subdivisions : {3, 4}) {
    WorldDef def;
    def.bodies.push_back(test::sphereBody(r, 100.0, subdivisions));
    def.bodies[0].model = samaraModel({1.0, 0.0, kRotationCR});
    const World magnus(def);
    def.bodies[0].model = samaraModel({1.0, 0.0, 0.0});
    const World noRotation(def);
    const double q = 0.5 * def.fluid.density * V * V * M_PI * r * r;
    const double factor = magnusMeshFactor(def.bodies[0].mesh, r);
    std::printf("[flowlaw] sphere r = %.2f m, %d faces, V = %.0f m/s (mesh factor %.6f):\n", r,
                def.bodies[0].mesh.numFaces(), V, factor);
    std::printf("[flowlaw]      S     C_L      C_L/S   C_L(cr=0)  C_L(-w)/C_L  C_D\n");
    for (double S : {0.1, 0.25, 0.5, 1.0}) {
      FluidWrenchQuery query;
      query.velocity = Vec3(V, 0.0, 0.0);
      query.omega = Vec3(0.0, 0.0, S * V / r);
      const Vec3 F = magnus.fluidWrench(0, query).force;
      const Vec3 F0 = noRotation.fluidWrench(0, query).force;
      query.omega = -query.omega;
      const Vec3 Fm = magnus.fluidWrench(0, query).force;
      const double CL = F.y() / q;
      std::printf("[flowlaw]   %5.2f  %.5f  %.5f  %9.2e  %10.7f  %.4f\n", S, CL, CL / S, F0.y() / q,
                  Fm.y() / F.y(), -F.x() / q);
      INFO("subdivisions " << subdivisions << ", S = " << S);
      CHECK(CL / S == Approx(2.0 * factor).epsilon(1e-9));  // the discrete sum, exactly
      CHECK(CL / S == Approx(2.0).epsilon(subdivisions == 3 ? 0.01 : 0.0025));  // continuum
      CHECK(std::abs(F.z()) <= 1e-9 * F.y());                                   // along ω × V
      CHECK(std::abs(F0.y()) <= 1e-6 * F.y());        // the lift is the rotational term's
      CHECK(Fm.y() == Approx(-F.y()).epsilon(1e-6));  // mirrored spin, mirrored lift
    }
  }
}

namespace {

/// A 4 cm ball of 100 kg/m³ (icosphere, 1 subdivision: 80 faces, centrally symmetric) thrown from
/// 10 m high along +x at 10 m/s with spin ω about +z, in air under samara with C_R = cr; its state
/// after 0.5 s with step h.
BodyDiagnostics throwBall(double omega, double cr, double h) {
  WorldDef def;
  def.dt = h;
  BodyDef ball = test::sphereBody(0.04, 100.0, 1);
  ball.position = Vec3(0.0, 10.0, 0.0);
  ball.velocity = Vec3(10.0, 0.0, 0.0);
  ball.angularVelocity = Vec3(0.0, 0.0, omega);
  ball.model = samaraModel({1.0, 0.0, cr});
  def.bodies.push_back(ball);
  World w(def);
  const int steps = static_cast<int>(std::lround(0.5 / h));
  for (int k = 0; k < steps; ++k) REQUIRE(w.step().ok());
  return w.diagnostics(0);
}

}  // namespace

TEST_CASE("Flow law: a ball thrown with backspin curves up, with topspin down", "[core][flowlaw]") {
  // Measured in y(+ω) − y(−ω) (odd in ω; the spin's extra skin friction is even in ω). Two
  // artefacts of the step, not of the law: forces are taken at g_k with Y_{k+1} (PHYSICS.md
  // §4), so the drag lags the velocity by ½hω and tilts sideways by D·½hω (odd in ω, O(h):
  // 12 % of the rotational lift at h = 2 ms); and the spin Y_ω carries ¼h²mv²/I of the
  // momentum (16 % at h = 2 ms, 1 % at 0.5 ms). So the step is refined, and the C_R = 0
  // offset must vanish like h.
  const double omega = 50.0;  // rad/s: S = ωr/V = 0.2 at the throw
  const double hs[3] = {0.002, 0.001, 0.0005};
  double odd[3], odd0[3];
  BodyDiagnostics back, top;
  for (int i = 0; i < 3; ++i) {
    back = throwBall(omega, kRotationCR, hs[i]);
    top = throwBall(-omega, kRotationCR, hs[i]);
    odd[i] = 0.5 * (back.com.y() - top.com.y());
    odd0[i] = 0.5 * (throwBall(omega, 0.0, hs[i]).com.y() - throwBall(-omega, 0.0, hs[i]).com.y());
  }
  const BodyDiagnostics plain = throwBall(0.0, kRotationCR, hs[2]);
  const Vec3 dBack = back.com - plain.com, dTop = top.com - plain.com;
  const double lift = 2.0 * odd[2] - odd[1];  // Richardson: the h → 0 limit
  const double lift0 = 2.0 * odd0[2] - odd0[1];
  // Estimate: F = π ρ r³ ω V at the throw's ω and V over m + m_a (m_a = ½ ρ V_ball),
  // Δy ≈ ½ (F / (m + m_a)) t²; V and ω decay, so the measured offset is smaller.
  const double r = 0.04, rho = 1.225, vol = 4.0 / 3.0 * M_PI * r * r * r;
  const double a = M_PI * rho * r * r * r * omega * 10.0 / (100.0 * vol + 0.5 * rho * vol);
  const double estimate = 0.5 * a * 0.5 * 0.5;
  std::printf(
      "[flowlaw] ball r = 4 cm, 100 kg/m^3, 10 m/s, w = 50 rad/s, after 0.5 s:\n"
      "[flowlaw]   h = 0.5 ms: backspin dy = %+.5f m, topspin dy = %+.5f m, dz = %+.1e m;"
      " spin left %.2f rad/s\n"
      "[flowlaw]   (y(+w) - y(-w))/2 at h = 2, 1, 0.5 ms: C_R = pi %+.5f %+.5f %+.5f m "
      "(h -> 0: %+.5f; constant-force estimate %+.5f)\n"
      "[flowlaw]                                          C_R = 0  %+.5f %+.5f %+.5f m "
      "(h -> 0: %+.1e)\n",
      dBack.y(), dTop.y(), dBack.z(), back.omega.z(), odd[0], odd[1], odd[2], lift, estimate,
      odd0[0], odd0[1], odd0[2], lift0);
  CHECK(dBack.y() > 0.0);
  CHECK(dTop.y() < 0.0);
  CHECK(dTop.y() == Approx(-dBack.y()).epsilon(0.05));  // mirrored, up to the even drag
  CHECK(std::abs(dBack.z()) < 1e-9);                    // no force along z
  CHECK(std::abs(dTop.z()) < 1e-9);
  CHECK(lift > 0.5 * estimate);
  CHECK(lift < estimate);
  // Without rotational lift the sense of the spin deflects the ball only through the
  // step's O(h) lag: halved with h, gone in the limit.
  CHECK(odd0[1] / odd0[0] == Approx(0.5).epsilon(0.1));
  CHECK(odd0[2] / odd0[1] == Approx(0.5).epsilon(0.1));
  CHECK(std::abs(lift0) < 0.01 * lift);
  CHECK(std::abs(odd0[2]) < 0.05 * odd[2]);
}

namespace {

/// The path of a 10 × 6 cm card (700 kg/m³, 0.2 mm) scaled by λ at fixed I* = ρ_p t/(ρ_f L)
/// (thickness × λ), tilted by 0.35 rad about (1, 0, 1) and thrown along x at 2 √λ m/s (the
/// same Froude number) in air of viscosity μ (Pa·s), step 2 ms × √λ, kCardSteps steps: the
/// COM / λ and the orientation after each step.
struct ScaledPath {
  std::vector<Vec3> com;  ///< world COM / λ, m (the base card's units)
  std::vector<Quat> q;
};

constexpr int kCardSteps = 1000;

ScaledPath scaledFall(double lambda, double friction, double viscosity) {
  WorldDef def;
  def.dt = 0.002 * std::sqrt(lambda);
  def.fluid.viscosity = viscosity;
  BodyDef card = test::cardBody(4, 3, Vec3::Zero(), Vec3(1, 0, 1).normalized());
  card.mesh.V *= lambda;
  card.mass.thickness *= lambda;
  card.velocity = Vec3(2.0 * std::sqrt(lambda), 0.0, 0.0);  // thrown along its chord
  card.model = samaraModel({friction, 0.0, 0.0});
  def.bodies.push_back(card);
  World w(def);
  ScaledPath p;
  for (int k = 0; k < kCardSteps; ++k) {
    REQUIRE(w.step().ok());
    const BodyDiagnostics d = w.diagnostics(0);
    p.com.push_back(d.com / lambda);
    p.q.push_back(d.q);
  }
  return p;
}

/// Largest distance between two scaled paths (base-card metres) and largest angle between
/// their orientations (rad).
std::pair<double, double> pathDifference(const ScaledPath& a, const ScaledPath& b) {
  double dx = 0.0, dq = 0.0;
  for (size_t k = 0; k < a.com.size(); ++k) {
    dx = std::max(dx, (a.com[k] - b.com[k]).norm());
    dq = std::max(dq, test::rotationAngle(a.q[k].conjugate() * b.q[k]));
  }
  return {dx, dq};
}

}  // namespace

TEST_CASE("Flow law: skin friction brings in the Reynolds number, without it a plate scales",
          "[core][flowlaw]") {
  // GwtF's pressure law, the added mass and gravity are all homogeneous: a card scaled by λ
  // at fixed I*, in the same fluid, with h ∝ √λ, follows the same path in units of L and
  // √(L/g). Skin friction's c₁ = 1.328 √(ν/L), c₂ = 2.326 ν/L break that (Re = U L/ν grows
  // like λ^{3/2}) unless ν is scaled by λ^{3/2} too. Agreement is to round-off amplified
  // along the path (measured ~5e-14; the Newton stop, a relative residual of 1e-12 of a norm
  // that mixes angular and linear momentum, is the one part of the step not scale-free), so
  // 1e-9 leaves room.
  const double mu = 1.81e-5, lambda = 10.0, nuScale = std::pow(lambda, 1.5);
  const ScaledPath base1 = scaledFall(1.0, 1.0, mu);
  const ScaledPath big1 = scaledFall(lambda, 1.0, mu);
  const ScaledPath bigRe = scaledFall(lambda, 1.0, mu * nuScale);
  const ScaledPath base0 = scaledFall(1.0, 0.0, mu);
  const ScaledPath big0 = scaledFall(lambda, 0.0, mu);
  const double L = 0.1, fallen = (base1.com.back() - base1.com.front()).norm();
  const auto [dx1, dq1] = pathDifference(base1, big1);
  const auto [dxRe, dqRe] = pathDifference(base1, bigRe);
  const auto [dx0, dq0] = pathDifference(base0, big0);
  const double dxFriction = pathDifference(base1, base0).first;
  std::printf(
      "[flowlaw] card 10 x 6 cm vs 1 x 0.6 m at the same I*, %d steps (%.2f s base; "
      "the base card moves %.3f m = %.1f L):\n"
      "[flowlaw]   friction 1, same air:     max |dx|/L = %.2e, max angle %.2e rad\n"
      "[flowlaw]   friction 1, nu x 10^1.5:  max |dx|/L = %.2e, max angle %.2e rad\n"
      "[flowlaw]   friction 0, same air:     max |dx|/L = %.2e, max angle %.2e rad\n"
      "[flowlaw]   base card, friction 1 vs 0: max |dx|/L = %.2e\n",
      kCardSteps, kCardSteps * 0.002, fallen, fallen / L, dx1 / L, dq1, dxRe / L, dqRe, dx0 / L,
      dq0, dxFriction / L);
  // Re grows 31.6×, C_f falls ~5.6×: most of friction's effect on the path goes.
  CHECK(dx1 > 0.03 * L);
  CHECK(dx1 > 0.5 * dxFriction);
  CHECK(dx0 < 1e-9 * L);
  CHECK(dq0 < 1e-9);
  CHECK(dxRe < 1e-9 * L);
  CHECK(dqRe < 1e-9);
}

TEST_CASE("Flow law: the paper's model is unchanged, samara without its terms equals it",
          "[core][flowlaw]") {
  std::mt19937 rng(97);
  const GwtfModel paper(GwtfModel::Variant::kPaper2024);
  const std::shared_ptr<GwtfModel> bare = samaraModel({0.0, 0.0, 0.0});
  double worstF = 0.0, worstJ = 0.0, worstFace = 0.0;
  for (int trial = 0; trial < 30; ++trial) {
    const FaceSet s = randomFaces(rng, 12, trial % 3);
    const Vec6 Y = randomY(rng);
    for (bool perFace : {true, false}) {
      FluidModelInput in;
      in.faces = &s.drag;
      in.law = &s.law;  // the paper's model ignores it
      in.faceOffset = s.offsets[0];
      in.faceOffsets = perFace ? s.offsets.data() : nullptr;
      Vec6 Fd = Vec6::Zero(), Fp = Vec6::Zero(), Fs = Vec6::Zero();
      Mat6 Jd = Mat6::Zero(), Jp = Mat6::Zero(), Js = Mat6::Zero();
      addDragWrench(s.drag, Y, in.faceOffset, in.faceOffsets, &Fd, &Jd);
      paper.addWrench(in, Y, &Fp, &Jp);
      bare->addWrench(in, Y, &Fs, &Js);
      // gwtf-2024: bit for bit.
      CHECK(std::memcmp(Fp.data(), Fd.data(), sizeof(double) * 6) == 0);
      CHECK(std::memcmp(Jp.data(), Jd.data(), sizeof(double) * 36) == 0);
      const Vec6 Fw = paper.wrench(in, Y);
      CHECK(std::memcmp(Fw.data(), Fd.data(), sizeof(double) * 6) == 0);
      std::vector<Vec3> fd, fp, fs;
      dragFaceForces(s.drag, Y, in.faceOffset, in.faceOffsets, &fd);
      paper.localFaceForces(in, Y, &fp);
      bare->localFaceForces(in, Y, &fs);
      REQUIRE(fp.size() == fd.size());
      REQUIRE(fs.size() == fd.size());
      double faceScale = 0.0, faceErr = 0.0;
      for (size_t f = 0; f < fd.size(); ++f) {
        CHECK(std::memcmp(fp[f].data(), fd[f].data(), sizeof(double) * 3) == 0);
        faceScale = std::max(faceScale, fd[f].norm());
        faceErr = std::max(faceErr, (fs[f] - fd[f]).norm());
      }
      // samara with friction 0, ct 0, cr 0: the same law, summed in another order.
      const double eF = (Fs - Fd).cwiseAbs().maxCoeff() / Fd.cwiseAbs().maxCoeff();
      const double eJ = maxAbs(Js - Jd) / maxAbs(Jd);
      CHECK(eF <= 1e-12);
      CHECK(eJ <= 1e-12);
      CHECK(faceErr <= 1e-12 * faceScale);
      worstF = std::max(worstF, eF);
      worstJ = std::max(worstJ, eJ);
      worstFace = std::max(worstFace, faceErr / faceScale);
    }
  }
  std::printf(
      "[flowlaw] gwtf-2024 = addDragWrench bit for bit; samara(0, 0, 0) vs it: worst "
      "relative difference F %.1e, J %.1e, face forces %.1e\n",
      worstF, worstJ, worstFace);
}

TEST_CASE("Flow law (known gap): a plate spun about its span in a stream keeps autorotating",
          "[core][flowlaw][!shouldfail]") {
  // Smith (1970, DTIC AD0710288): a flat plate free to turn about its span axis in a wind
  // tunnel turns at an almost constant rate, its tip-speed ratio Ω c / (2 U) approaching 0.35;
  // Iversen (1979): the ratio depends only on the aspect and thickness ratios. Here a
  // 10 × 40 cm plate (span along z) held in place by a 100 kg point mass at its centre (its
  // translation barely changes; the mass adds nothing to its rotational inertia), in a 5 m/s
  // wind along x without gravity, is released spinning at that ratio. The quasi-steady law
  // has no autorotation torque (README "Why a quasi-steady law cannot keep a heavy card
  // turning"): the spin dies within half a second, so this check fails and the test, tagged
  // as a known gap, passes. When a law autorotates, drop [!shouldfail].
  const double c = 0.1, U = 5.0, ratio = 0.35;
  WorldDef def;
  def.dt = 0.0005;
  def.gravity = Vec3::Zero();
  def.fluid.wind = Vec3(U, 0.0, 0.0);
  BodyDef plate;
  plate.mesh = geometry::makePlate(c, 0.4, 8, 16);
  plate.mass.density = 700.0;
  plate.mass.thickness = 5e-4;
  plate.pointMasses = {PointMass{Vec3::Zero(), 100.0}};
  plate.angularVelocity = Vec3(0.0, 0.0, ratio * 2.0 * U / c);
  plate.model = std::make_shared<GwtfModel>(kCirculationCandidate);
  def.bodies.push_back(plate);
  World w(def);
  double meanRate = 0.0;
  int samples = 0;
  const int steps = static_cast<int>(std::lround(2.0 / def.dt));
  for (int k = 0; k < steps; ++k) {
    REQUIRE(w.step().ok());
    if (k >= steps / 2) {
      meanRate += std::abs(w.diagnostics(0).omega.z());
      ++samples;
    }
  }
  const double measured = meanRate / samples * c / (2.0 * U);
  std::printf(
      "[flowlaw] plate spun at tip-speed ratio %.2f in a %.0f m/s stream: %.3f over 1-2 s\n", ratio,
      U, measured);
  CHECK(measured == Approx(ratio).margin(0.1));
}
