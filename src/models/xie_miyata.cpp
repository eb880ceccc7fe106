#include "models/xie_miyata.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "geometry/types.h"

namespace samara::models {
namespace {

// --- the generator: splitmix64 seeds xoshiro256** (Blackman & Vigna) -----------------------

std::uint64_t splitmix64(std::uint64_t* x) {
  std::uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

std::uint64_t xoshiro256ss(std::array<std::uint64_t, 4>* s) {
  auto& st = *s;
  const std::uint64_t result = rotl(st[1] * 5, 7) * 9;
  const std::uint64_t t = st[1] << 17;
  st[2] ^= st[0];
  st[3] ^= st[1];
  st[1] ^= st[2];
  st[0] ^= st[3];
  st[2] ^= t;
  st[3] = rotl(st[3], 45);
  return result;
}

/// Uniform on [0, 1) with 53 random bits.
double uniform01(std::array<std::uint64_t, 4>* s) {
  return static_cast<double>(xoshiro256ss(s) >> 11) * 0x1.0p-53;
}

/// Deterministic axis signs: the largest-magnitude component of columns 0 and 1 is
/// positive, column 2 = column 0 × column 1 (as core::principalFrame).
Mat3 canonicalAxes(Mat3 R) {
  for (int c = 0; c < 2; ++c) {
    Eigen::Index k = 0;
    R.col(c).cwiseAbs().maxCoeff(&k);
    if (R(k, c) < 0.0) R.col(c) = -R.col(c);
  }
  R.col(2) = R.col(0).cross(R.col(1));
  return R;
}

/// One rotational added inertia of Lamb §115 about the axis whose two orthogonal
/// semi-axes are (p, q) with shape integrals (P, Q) and R the third integral:
/// (m_f/5)(p² − q²)²(Q − P) / (2(p² − q²) + (p² + q²)(P − Q)); the denominator is written
/// p²(R + 2P) − q²(R + 2Q) (using P + Q + R = 2), which has no cancellation for thin shapes.
double rotationalAddedInertia(double mf, double p, double q, double P, double Q, double R) {
  const double p2 = p * p;
  const double q2 = q * q;
  const double diff = p2 - q2;
  if (std::abs(diff) <= 1e-10 * (p2 + q2)) return 0.0;  // axisymmetric about this axis
  const double den = p2 * (R + 2.0 * P) - q2 * (R + 2.0 * Q);
  const double num = diff * diff * (Q - P);
  if (den == 0.0) return 0.0;
  const double ratio = num / den;
  return ratio > 0.0 ? 0.2 * mf * ratio : 0.0;  // round-off near the axisymmetric limit
}

void requireParam(bool ok, const char* field, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("xie-miyata: ") + field + " " + what);
}

}  // namespace

// --- proxy geometry -------------------------------------------------------------------------

ProxyEllipsoid proxyFromVertices(const geometry::VertexMatrix& V, double minSemiAxis) {
  ProxyEllipsoid p;
  const Eigen::Index n = V.rows();
  if (n == 0) return p;
  const Eigen::RowVector3d mean = V.colwise().mean();
  const Eigen::MatrixX3d D = V.rowwise() - mean;
  const Mat3 cov = (D.transpose() * D) / static_cast<double>(n);
  Eigen::SelfAdjointEigenSolver<Mat3> es(cov);
  // Natural axes by decreasing eigenvalue (λ1 ≥ λ2 ≥ λ3).
  Mat3 axes;
  for (int j = 0; j < 3; ++j) axes.col(j) = es.eigenvectors().col(2 - j);
  Vec3 semi;
  for (int j = 0; j < 3; ++j) {
    const Eigen::VectorXd proj = V * axes.col(j);
    semi[j] = 0.5 * (proj.maxCoeff() - proj.minCoeff());
  }
  // Order by extent (a ≥ b ≥ c); ties keep the eigenvalue order.
  std::array<int, 3> order = {0, 1, 2};
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return semi[i] > semi[j]; });
  Mat3 sorted;
  Vec3 s;
  for (int j = 0; j < 3; ++j) {
    sorted.col(j) = axes.col(order[static_cast<size_t>(j)]);
    s[j] = semi[order[static_cast<size_t>(j)]];
  }
  if (!(s[0] > 0.0)) s[0] = std::max(minSemiAxis, 1e-6);  // a single point: a tiny sphere
  const double floor = std::max(minSemiAxis, kMinProxyAxisRatio * s[0]);
  s[1] = std::max(s[1], floor);
  s[2] = std::max(s[2], floor);
  s[0] = std::max(s[0], s[1]);
  p.semiAxes = s;
  p.axes = canonicalAxes(sorted);
  return p;
}

ProxyEllipsoid proxyFromInertia(double mass, const Mat3& inertiaCom) {
  ProxyEllipsoid p;
  const core::PrincipalFrame f = core::principalFrame(Vec3::Zero(), inertiaCom);
  p.axes = f.R;  // ascending moments: the smallest moment is about the longest axis
  if (!(mass > 0.0)) return p;
  const Vec3& I = f.moments;
  const double k = 2.5 / mass;  // I_a = m(b² + c²)/5 ⇒ a² = 5(I_b + I_c − I_a)/(2m)
  Vec3 s(std::sqrt(std::max(0.0, k * (I[1] + I[2] - I[0]))),
         std::sqrt(std::max(0.0, k * (I[0] + I[2] - I[1]))),
         std::sqrt(std::max(0.0, k * (I[0] + I[1] - I[2]))));
  if (!(s[0] > 0.0)) return p;
  const double floor = kMinProxyAxisRatio * s[0];
  s[1] = std::max(s[1], floor);
  s[2] = std::max(s[2], floor);
  p.semiAxes = s;
  return p;
}

// --- analytic added mass (App. A) ------------------------------------------------------------

double carlsonRD(double x, double y, double z) {
  // Carlson (1995) duplication, as in Numerical Recipes (3rd ed.) §6.12: the truncation
  // error of the final series is ~ERRTOL⁶.
  constexpr double kErrTol = 0.0015;
  constexpr double C1 = 3.0 / 14.0, C2 = 1.0 / 6.0, C3 = 9.0 / 22.0, C4 = 3.0 / 26.0;
  constexpr double C5 = 0.25 * C3, C6 = 1.5 * C4;
  double xt = x, yt = y, zt = z, sum = 0.0, fac = 1.0;
  double ave = 0.0, delx = 0.0, dely = 0.0, delz = 0.0;
  for (int it = 0; it < 100; ++it) {
    const double sx = std::sqrt(xt), sy = std::sqrt(yt), sz = std::sqrt(zt);
    const double lambda = sx * (sy + sz) + sy * sz;
    sum += fac / (sz * (zt + lambda));
    fac *= 0.25;
    xt = 0.25 * (xt + lambda);
    yt = 0.25 * (yt + lambda);
    zt = 0.25 * (zt + lambda);
    ave = 0.2 * (xt + yt + 3.0 * zt);
    delx = (ave - xt) / ave;
    dely = (ave - yt) / ave;
    delz = (ave - zt) / ave;
    if (std::max({std::abs(delx), std::abs(dely), std::abs(delz)}) <= kErrTol) break;
  }
  const double ea = delx * dely, eb = delz * delz, ec = ea - eb, ed = ea - 6.0 * eb;
  const double ee = ed + ec + ec;
  return 3.0 * sum + fac *
                         (1.0 + ed * (-C1 + C5 * ed - C6 * delz * ee) +
                          delz * (C2 * ee + delz * (-C3 * ec + delz * C4 * ea))) /
                         (ave * std::sqrt(ave));
}

Vec3 ellipsoidShapeIntegrals(const Vec3& semiAxes) {
  // Dimensionless: scale by the largest semi-axis first.
  const double L = semiAxes.maxCoeff();
  const Vec3 s = semiAxes / L;
  const double a2 = s[0] * s[0], b2 = s[1] * s[1], c2 = s[2] * s[2];
  const double k = (2.0 / 3.0) * s[0] * s[1] * s[2];
  return Vec3(k * carlsonRD(b2, c2, a2), k * carlsonRD(a2, c2, b2), k * carlsonRD(a2, b2, c2));
}

EllipsoidAddedMass ellipsoidAddedMass(const Vec3& semiAxes, double density) {
  EllipsoidAddedMass out;
  if (!(density > 0.0)) return out;
  const Vec3 g = ellipsoidShapeIntegrals(semiAxes);
  const double a = semiAxes[0], b = semiAxes[1], c = semiAxes[2];
  const double mf = (4.0 / 3.0) * kPi * density * a * b * c;
  // 2 − α₀ = β₀ + γ₀ (no cancellation when α₀ → 2).
  out.M = Vec3(mf * g[0] / (g[1] + g[2]), mf * g[1] / (g[0] + g[2]), mf * g[2] / (g[0] + g[1]));
  out.J = Vec3(rotationalAddedInertia(mf, b, c, g[1], g[2], g[0]),
               rotationalAddedInertia(mf, c, a, g[2], g[0], g[1]),
               rotationalAddedInertia(mf, a, b, g[0], g[1], g[2]));
  return out;
}

// --- viscous forces (Eqns 9–11) --------------------------------------------------------------

double centreOfPressureOffset(double a, double alpha) {
  const double s = std::sin(alpha);
  return (1.0 - s * s * s) * 0.25 * a;
}

XieMiyataForces xieMiyataForces(const Vec3& semiAxes, double density, const Vec3& uLocal,
                                const Vec3& omegaLocal, const XieMiyataParams& params) {
  XieMiyataForces out;
  const double U2 = uLocal.squaredNorm();
  if (!(U2 > 0.0) || !(density > 0.0)) return out;
  const double U = std::sqrt(U2);
  const Vec3 uHat = uLocal / U;
  const double a = semiAxes[0];
  const double b = semiAxes[1];
  // Normal (the c axis) and tangential components.
  const double un = std::abs(uLocal.z());
  const Vec3 ut(uLocal.x(), uLocal.y(), 0.0);
  const double utn = ut.norm();
  out.alpha = std::atan2(un, utn);
  const double sinA = std::min(1.0, un / U);
  const double cosA = std::min(1.0, utn / U);
  const double sin2 = sinA * sinA;
  const double sin2A = 2.0 * sinA * cosA;             // sin 2α
  const double cos2A = cosA * cosA - sin2;            // cos 2α
  const double q = 0.5 * density * U2 * kPi * a * b;  // ½ρ|u|²A, A = πab

  // Eqn 10: e₂ ∥ ω × u, e₃ ∥ (ω × u) × u = −|u|² ω⊥, with ω⊥ the part of ω normal to u.
  // w is ω⊥/|ω⊥| regularised below |ω⊥| ≈ s|u|/a (XieMiyataParams::liftRateScale).
  const Vec3 omegaPerp = omegaLocal - omegaLocal.dot(uHat) * uHat;
  const double wRef = params.liftRateScale * U / a;
  const double wDen = std::sqrt(omegaPerp.squaredNorm() + wRef * wRef);
  const Vec3 w = wDen > 0.0 ? Vec3(omegaPerp / wDen) : Vec3::Zero();

  out.drag = (-q * params.dragCoef * sin2) * uHat;
  out.rotLift = (q * params.rotLiftCoef * sin2A) * w.cross(uHat);
  out.transLift = (-q * params.transLiftCoef * cos2A) * w;

  // Eqn 11: the centre of pressure lies ahead of the centre (towards the leading edge,
  // along the tangential velocity), (1 − sin³α) a/4 from it.
  if (utn > 0.0) {
    out.pressureCentre = ((1.0 - sin2 * sinA) * 0.25 * a) * Vec3(ut / utn);
  }
  out.torque = out.pressureCentre.cross(out.force());
  return out;
}

// --- the model -------------------------------------------------------------------------------

XieMiyataModel::XieMiyataModel(XieMiyataParams params) : params_(std::move(params)) {
  const auto nonNeg = [](double v) { return std::isfinite(v) && v >= 0.0; };
  requireParam(nonNeg(params_.dragCoef), "drag_coef", "must be a finite number ≥ 0");
  requireParam(nonNeg(params_.rotLiftCoef), "rot_lift_coef", "must be a finite number ≥ 0");
  requireParam(nonNeg(params_.transLiftCoef), "trans_lift_coef", "must be a finite number ≥ 0");
  requireParam(nonNeg(params_.turbulence), "turbulence", "must be a finite number ≥ 0 m/s");
  requireParam(std::isfinite(params_.turbulenceTime) && params_.turbulenceTime > 0.0,
               "turbulence_time", "must be a finite number > 0 s");
  requireParam(nonNeg(params_.liftRateScale), "lift_rate_scale", "must be a finite number ≥ 0");
  if (params_.semiAxes) {
    requireParam(params_.semiAxes->allFinite() && params_.semiAxes->minCoeff() > 0.0, "semi_axes",
                 "must be three finite numbers > 0 m");
  }
  std::uint64_t x = params_.seed;
  for (auto& s : rng_) s = splitmix64(&x);
}

std::unique_ptr<core::FluidModel> XieMiyataModel::clone() const {
  return std::make_unique<XieMiyataModel>(*this);
}

ProxyEllipsoid XieMiyataModel::proxy(const core::FluidModelInput& in) const {
  ProxyEllipsoid p;
  if (in.mesh != nullptr && in.mesh->numVertices() > 0) {
    const geometry::VertexMatrix& V = in.mesh->V;
    const double minSemiAxis = 0.5 * in.sheetThickness;
    const bool hit =
        cacheMinSemiAxis_ == minSemiAxis && cacheV_.rows() == V.rows() &&
        std::memcmp(cacheV_.data(), V.data(), sizeof(double) * static_cast<size_t>(V.size())) == 0;
    if (!hit) {
      cacheProxy_ = proxyFromVertices(V, minSemiAxis);
      cacheV_ = V;
      cacheMinSemiAxis_ = minSemiAxis;
    }
    p = cacheProxy_;
  } else {
    p = proxyFromInertia(in.mass, in.inertiaCom);
  }
  if (params_.semiAxes) p.semiAxes = *params_.semiAxes;
  return p;
}

core::PrincipalFrame XieMiyataModel::localFrame(const core::FluidModelInput& in) const {
  core::PrincipalFrame f;
  f.com = in.com;
  f.R = proxy(in).axes;
  return f;
}

Mat6 XieMiyataModel::addedMass(const core::FluidModelInput& in) const {
  const ProxyEllipsoid p = proxy(in);
  const EllipsoidAddedMass am = ellipsoidAddedMass(p.semiAxes, in.density);
  Mat6 local = Mat6::Zero();
  local.diagonal() << am.J, am.M;
  core::PrincipalFrame f;
  f.com = in.com;
  f.R = p.axes;
  return core::inertiaFromLocal(f, local);
}

Vec6 XieMiyataModel::wrench(const core::FluidModelInput& in, const Vec6& Y) const {
  const ProxyEllipsoid p = proxy(in);
  core::PrincipalFrame f;
  f.com = in.com;
  f.R = p.axes;
  const Vec6 local = core::velocityToLocal(f, Y);  // (ω, v_COM), local axes
  const Vec3 u = local.tail<3>() - p.axes.transpose() * (in.flowBody + turbulenceBody_);
  const XieMiyataForces F = xieMiyataForces(p.semiAxes, in.density, u, local.head<3>(), params_);
  Vec6 w;
  w << F.torque, F.force();
  return core::wrenchFromLocal(f, w);
}

double XieMiyataModel::nextGaussian() {
  if (haveSpare_) {
    haveSpare_ = false;
    return spare_;
  }
  const double u1 = 1.0 - uniform01(&rng_);  // (0, 1]: the logarithm stays finite
  const double u2 = uniform01(&rng_);
  const double r = std::sqrt(-2.0 * std::log(u1));
  const double theta = 2.0 * kPi * u2;
  spare_ = r * std::sin(theta);
  haveSpare_ = true;
  return r * std::cos(theta);
}

void XieMiyataModel::advance(const core::FluidModelInput& in, const Vec6& Y) {
  if (params_.turbulence == 0.0 || !(in.h > 0.0)) return;
  // u* is a world-fixed vector kept in body coordinates: undo the step's rotation (the
  // integrator's Cayley rotation of hY, so the world-frame process is exactly OU).
  const Quat step = core::cayley(in.h * Y).q;
  turbulenceBody_ = step.conjugate() * turbulenceBody_;
  const double r = in.h / params_.turbulenceTime;
  const double decay = std::exp(-r);
  const double amp = params_.turbulence * std::sqrt(-std::expm1(-2.0 * r));
  Vec3 xi;
  for (int i = 0; i < 3; ++i) xi[i] = nextGaussian();
  turbulenceBody_ = decay * turbulenceBody_ + amp * xi;
}

std::vector<core::ModelParam> XieMiyataModel::parameterList() const {
  const XieMiyataParams& p = params_;
  std::vector<core::ModelParam> out = {
      {"coefficients", std::vector<double>{p.dragCoef, p.rotLiftCoef, p.transLiftCoef}},
      {"turbulence", p.turbulence},
      {"turbulence_time", p.turbulenceTime},
      {"seed", static_cast<std::int64_t>(p.seed)}};
  if (p.semiAxes) {
    out.push_back(
        {"semi_axes", std::vector<double>{p.semiAxes->x(), p.semiAxes->y(), p.semiAxes->z()}});
  }
  out.push_back({"lift_rate_scale", p.liftRateScale});
  return out;
}

void XieMiyataModel::readParameters(const core::ParamReader& r) {
  r.allowOnly(
      {"coefficients", "turbulence", "turbulence_time", "seed", "semi_axes", "lift_rate_scale"});
  XieMiyataParams p;
  if (r.has("coefficients")) {
    const std::vector<double> c = r.numbers("coefficients", 3);
    p.dragCoef = c[0];
    p.rotLiftCoef = c[1];
    p.transLiftCoef = c[2];
  }
  if (r.has("turbulence")) p.turbulence = r.number("turbulence", false);
  if (r.has("turbulence_time")) p.turbulenceTime = r.number("turbulence_time", true);
  if (r.has("seed")) p.seed = static_cast<std::uint64_t>(r.integer("seed", 0, 2147483647));
  if (r.has("semi_axes")) {
    p.semiAxes = r.vec3("semi_axes");
    if (!(p.semiAxes->minCoeff() > 0.0)) r.fail("semi_axes", "every semi-axis must be > 0 m");
  }
  if (r.has("lift_rate_scale")) p.liftRateScale = r.number("lift_rate_scale", false);
  try {
    *this = XieMiyataModel(p);
  } catch (const std::invalid_argument& e) {
    r.fail("", e.what());
  }
}

}  // namespace samara::models
