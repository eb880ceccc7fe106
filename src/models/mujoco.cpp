#include "models/mujoco.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "geometry/types.h"

namespace samara::models {

namespace {

constexpr double kMinVal = 1e-15;  // mjMINVAL
constexpr double kEps = 1e-14;     // mjEPS

bool positiveFinite(const Vec3& r) { return r.allFinite() && r.minCoeff() > 0.0; }

// κ_x of the ellipsoid with semi-axes (dx, dy, dz) by MuJoCo's own quadrature: a transcription
// of mjCGeom::GetAddedMassKappa in MuJoCo's src/user/user_objects.cc (3.x; Apache-2.0), same
// constants and same order of operations, so that the added mass matches MuJoCo's geom_fluid
// to the last bits. κ_x = (1/dx²) ∫₀^∞ dλ / ((1 + λ/dx²)^{3/2} √((1 + λ/dy²)(1 + λ/dz²))),
// λ = s·l with s = (dx³ dy dz)^{2/5} and l = x³/(1 − x)², x ∈ [0, 1], by the 15 Kronrod nodes
// on [0, 1] (x_i = 0.00427231, …, 0.5, …, 0.99572769). kNodeL holds l(x_i), kNodeD dl/dx(x_i),
// kWeight the Kronrod weights rounded to 8 decimals (they sum to 1.00000001).
double mujocoAddedMassKappa(double dx, double dy, double dz) {
  static constexpr double kWeight[15] = {0.01146766, 0.03154605, 0.05239501, 0.07032663,
                                         0.08450236, 0.09517529, 0.10221647, 0.10474107,
                                         0.10221647, 0.09517529, 0.08450236, 0.07032663,
                                         0.05239501, 0.03154605, 0.01146766};
  static constexpr double kNodeL[15] = {
      7.865151709349917e-08, 1.7347976913907274e-05, 0.0003548008144506193, 0.002846636252924549,
      0.014094260903596077,  0.053063261727396636,   0.17041978741317773,   0.5,
      1.4036301548686991,    3.9353484827022642,     11.644841677041734,    39.53187807410903,
      177.5711362220801,     1429.4772912937397,     54087.416549217705};
  static constexpr double kNodeD[15] = {
      5.538677720489877e-05, 0.002080868285293228, 0.016514126520723166, 0.07261900344370877,
      0.23985243401862602,   0.6868318249020725,   1.8551129519182894,   5.0,
      14.060031152313941,    43.28941239611009,    156.58546376397112,   747.9826085305024,
      5827.4042950027115,    116754.0197944512,    25482945.327264845};
  const double invX2 = 1.0 / (dx * dx);
  const double invY2 = 1.0 / (dy * dy);
  const double invZ2 = 1.0 / (dz * dz);
  const double scale = std::pow(dx * dx * dx * dy * dz, 0.4);
  double sum = 0.0;
  for (int i = 0; i < 15; ++i) {
    const double lambda = scale * kNodeL[i];
    const double fx = 1 + lambda * invX2;
    const double denom = fx * std::sqrt(fx * (1 + lambda * invY2) * (1 + lambda * invZ2));
    sum += scale * kNodeD[i] / denom * kWeight[i];
  }
  return sum * invX2;
}

// MuJoCo's geom_fluid[6..11] of an ellipsoid (mjCGeom::SetFluidCoefs, user_objects.cc): the
// added mass and inertia per unit fluid density, m³ and m⁵. MuJoCo multiplies by the density
// only in mj_addedMassForces, as ρ · virtual_mass · v; ellipsoidAddedMass keeps that order.
struct VirtualMass {
  Vec3 mass = Vec3::Zero();     // m³
  Vec3 inertia = Vec3::Zero();  // m⁵
};

VirtualMass virtualMass(const Vec3& r, KappaQuadrature quadrature) {
  VirtualMass vm;
  if (!positiveFinite(r)) return vm;
  const Vec3 kappa = quadrature == KappaQuadrature::mujoco ? mujocoKappa(r) : tuckermanKappa(r);
  const double volume = 4.0 / 3.0 * kPi * r.x() * r.y() * r.z();
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const int k = (i + 2) % 3;
    vm.mass(i) = volume * kappa(i) / std::max(kEps, 2 - kappa(i));
    const double rj2 = r(j) * r(j);
    const double rk2 = r(k) * r(k);
    const double diff = rj2 - rk2;
    const double fac = diff * diff * std::abs(kappa(k) - kappa(j)) /
                       std::max(kEps, std::abs(2 * diff + (rj2 + rk2) * (kappa(j) - kappa(k))));
    vm.inertia(i) = volume * fac / 5;
  }
  return vm;
}

// Added mass of an ellipsoid (kg, kg·m²): ρ times MuJoCo's virtual mass and inertia.
struct MujocoAddedMass {
  Vec3 linear = Vec3::Zero();   // m_A, kg
  Vec3 angular = Vec3::Zero();  // I_A, kg·m²
};

MujocoAddedMass mujocoAddedMass(const Vec3& r, double density, KappaQuadrature quadrature) {
  const VirtualMass vm = virtualMass(r, quadrature);
  MujocoAddedMass am;
  am.linear = density * vm.mass;
  am.angular = density * vm.inertia;
  return am;
}

double pow2(double x) { return x * x; }
double pow4(double x) { return (x * x) * (x * x); }
// mju_norm3: √(x² + y² + z²) summed left to right.
double norm3(const Vec3& x) { return std::sqrt(x(0) * x(0) + x(1) * x(1) + x(2) * x(2)); }

// MuJoCo's proj_num = Σ (r_j r_k v_i)², proj_denom = Σ (r_j r_k)⁴ v_i² and the non-unit
// normal n_i = (r_j r_k)² v_i (mj_viscousForces, engine_passive.c), in its order of operations.
struct ProjectionSums {
  Vec3 normal = Vec3::Zero();
  double num = 0.0;
  double den = 0.0;
};

ProjectionSums projectionSums(const Vec3& r, const Vec3& v) {
  ProjectionSums s;
  const Vec3 p(r(1) * r(2), r(2) * r(0), r(0) * r(1));  // r_j r_k
  s.den = pow4(p(0)) * pow2(v(0)) + pow4(p(1)) * pow2(v(1)) + pow4(p(2)) * pow2(v(2));
  s.num = pow2(p(0) * v(0)) + pow2(p(1) * v(1)) + pow2(p(2) * v(2));
  s.normal = Vec3(pow2(p(0)) * v(0), pow2(p(1)) * v(1), pow2(p(2)) * v(2));
  return s;
}

double projectedAreaFrom(const ProjectionSums& s) {
  return kPi * std::sqrt(s.den / std::max(kMinVal, s.num));
}

// 8π/15 r_i max(r_j, r_k)⁴ (mji_ellipsoid_max_moment).
double ellipsoidMaxMoment(const Vec3& r, int i) {
  return 8.0 / 15.0 * kPi * r(i) * pow4(std::max(r((i + 1) % 3), r((i + 2) % 3)));
}

// (ω, v_COM − flow) in the local frame: the flow is subtracted in the body frame first, so
// wrench(in with flow w, Y) and wrench(in with flow 0, Y − (0, w)) see the same bits.
Vec6 localRelativeVelocity(const core::PrincipalFrame& frame, const core::FluidModelInput& in,
                           const Vec6& Y) {
  Vec6 rel = Y;
  rel.tail<3>() -= in.flowBody;
  return core::velocityToLocal(frame, rel);
}

}  // namespace

// --- inertia-box model ---------------------------------------------------------------------

Vec3 inertiaBoxSize(double mass, const Vec3& I) {
  assert(mass > 0.0);
  return Vec3(std::sqrt(std::max(kMinVal, I(1) + I(2) - I(0)) / mass * 6.0),
              std::sqrt(std::max(kMinVal, I(0) + I(2) - I(1)) / mass * 6.0),
              std::sqrt(std::max(kMinVal, I(0) + I(1) - I(2)) / mass * 6.0));
}

Vec6 inertiaBoxWrench(const Vec3& box, double density, double viscosity, const Vec6& velLocal) {
  const Vec3 w = velLocal.head<3>();
  const Vec3 v = velLocal.tail<3>();
  Vec3 torque = Vec3::Zero();
  Vec3 force = Vec3::Zero();
  if (viscosity > 0.0) {
    const double diam = (box(0) + box(1) + box(2)) / 3.0;  // diameter of the equivalent sphere
    torque = w * (-kPi * diam * diam * diam * viscosity);
    force = v * (-3.0 * kPi * diam * viscosity);
  }
  if (density > 0.0) {
    for (int i = 0; i < 3; ++i) {
      const int j = (i + 1) % 3;
      const int k = (i + 2) % 3;
      force(i) -= 0.5 * density * box(j) * box(k) * std::abs(v(i)) * v(i);
      const double bj2 = box(j) * box(j);
      const double bk2 = box(k) * box(k);
      torque(i) -= density * box(i) * (bj2 * bj2 + bk2 * bk2) * std::abs(w(i)) * w(i) / 64.0;
    }
  }
  Vec6 out;
  out << torque, force;
  return out;
}

// --- ellipsoid model ---------------------------------------------------------------------

Vec3 tuckermanKappa(const Vec3& r) {
  assert(positiveFinite(r));
  if (!positiveFinite(r)) return Vec3::Zero();
  // κ_i = ∫ g_i(s) ds with λ = e^s, g_i = abc λ / ((r_i²+λ) √∏(r_k²+λ)). g_i < λ/r_min² below
  // and < abc λ^{-3/2} above, so truncating to [ln r_min² − 36, ln r_max² + 28] leaves
  // < 1e-15; the trapezoidal rule's error is ~exp(−2π²/h) (singularities at Im s = ±π).
  const double abc = r.x() * r.y() * r.z();
  const Vec3 r2 = r.cwiseProduct(r);
  const double lo = std::log(r2.minCoeff()) - 36.0;
  const double hi = std::log(r2.maxCoeff()) + 28.0;
  const int n = static_cast<int>(std::ceil((hi - lo) / 0.25));
  const double h = (hi - lo) / n;
  Vec3 kappa = Vec3::Zero();
  for (int m = 0; m <= n; ++m) {
    const double lambda = std::exp(lo + m * h);
    const double p = std::sqrt((r2.x() + lambda) * (r2.y() + lambda) * (r2.z() + lambda));
    const double weight = (m == 0 || m == n) ? 0.5 * h : h;
    for (int i = 0; i < 3; ++i) kappa(i) += weight * abc * lambda / ((r2(i) + lambda) * p);
  }
  return kappa;
}

Vec3 mujocoKappa(const Vec3& r) {
  assert(positiveFinite(r));
  if (!positiveFinite(r)) return Vec3::Zero();
  // SetFluidCoefs: kx = κ(dx, dy, dz), ky = κ(dy, dz, dx), kz = κ(dz, dx, dy).
  return Vec3(mujocoAddedMassKappa(r.x(), r.y(), r.z()), mujocoAddedMassKappa(r.y(), r.z(), r.x()),
              mujocoAddedMassKappa(r.z(), r.x(), r.y()));
}

Vec3 addedMassLinear(const Vec3& semiAxes, double density, KappaQuadrature kappa) {
  return mujocoAddedMass(semiAxes, density, kappa).linear;
}

Vec3 addedMassAngular(const Vec3& semiAxes, double density, KappaQuadrature kappa) {
  return mujocoAddedMass(semiAxes, density, kappa).angular;
}

double projectedArea(const Vec3& semiAxes, const Vec3& v) {
  return projectedAreaFrom(projectionSums(semiAxes, v));
}

Vec6 ellipsoidWrench(const Vec3& r, const EllipsoidCoefficients& c, double density,
                     double viscosity, const Vec6& velLocal, bool addedMassVelocityTerms) {
  const Vec3 w = velLocal.head<3>();
  const Vec3 v = velLocal.tail<3>();
  Vec3 torque = Vec3::Zero();
  Vec3 force = Vec3::Zero();

  // Added mass, velocity terms only (mj_addedMassForces without accelerations).
  if (addedMassVelocityTerms) {
    const MujocoAddedMass am = mujocoAddedMass(r, density, KappaQuadrature::mujoco);
    const Vec3 linMom = am.linear.cwiseProduct(v);
    const Vec3 angMom = am.angular.cwiseProduct(w);
    torque += linMom.cross(v);
    torque += angMom.cross(w);
    force += linMom.cross(w);
  }

  // mj_viscousForces.
  const double volume = 4.0 / 3.0 * kPi * r(0) * r(1) * r(2);
  const double dMax = r.maxCoeff();
  const double dMin = r.minCoeff();
  const double dMid = r(0) + r(1) + r(2) - dMax - dMin;
  const double aMax = kPi * dMax * dMid;

  const Vec3 magnus = w.cross(v) * (c.magnusLift * density * volume);

  const ProjectionSums s = projectionSums(r, v);
  const double aProj = projectedAreaFrom(s);
  const double speed = norm3(v);
  // cos α divided by |normal| = √den once more: the normalisation skipped in s.normal.
  const double cosAlpha = s.num / std::max(kMinVal, speed * s.den);
  const Vec3 kuttaCirc = s.normal.cross(v) * (c.kuttaLift * density * cosAlpha * aProj);
  const Vec3 kutta = kuttaCirc.cross(v);

  // Stokes drag of the equivalent sphere (diameter D = 2 r_D).
  const double sphereD = 2.0 / 3.0 * (r(0) + r(1) + r(2));
  const double linViscCoef = 3.0 * kPi * sphereD;
  const double angViscCoef = kPi * sphereD * sphereD * sphereD;

  const double iMax = 8.0 / 15.0 * kPi * dMid * pow4(dMax);
  Vec3 momVisc;
  for (int i = 0; i < 3; ++i) {
    const double iD = ellipsoidMaxMoment(r, i);
    momVisc(i) = w(i) * (c.angularDrag * iD + c.slenderDrag * (iMax - iD));
  }

  const double dragLin = viscosity * linViscCoef +
                         density * speed * (aProj * c.bluntDrag + c.slenderDrag * (aMax - aProj));
  const double dragAng = viscosity * angViscCoef + density * norm3(momVisc);

  torque -= dragAng * w;
  force += magnus + kutta - dragLin * v;
  Vec6 out;
  out << torque, force;
  return out;
}

Vec3 meshSemiAxes(const geometry::TriMesh& mesh, const core::PrincipalFrame& frame,
                  double sheetThickness) {
  if (mesh.numVertices() == 0) return Vec3::Zero();
  Vec3 lo = Vec3::Constant(INFINITY);
  Vec3 hi = Vec3::Constant(-INFINITY);
  for (int i = 0; i < mesh.numVertices(); ++i) {
    const Vec3 q = frame.R.transpose() * (mesh.vertex(i) - frame.com);
    lo = lo.cwiseMin(q);
    hi = hi.cwiseMax(q);
  }
  const Vec3 half = 0.5 * (hi - lo);
  const double floor = std::max(0.5 * sheetThickness, 1e-3 * half.maxCoeff());
  return half.cwiseMax(floor);
}

// --- the models ------------------------------------------------------------------------

Vec6 MujocoInertiaModel::wrench(const core::FluidModelInput& in, const Vec6& Y) const {
  if (!(in.mass >= kMinVal)) return Vec6::Zero();
  const core::PrincipalFrame frame = core::principalFrame(in.com, in.inertiaCom);
  const Vec3 box = inertiaBoxSize(in.mass, frame.moments);
  const Vec6 local =
      inertiaBoxWrench(box, in.density, in.viscosity, localRelativeVelocity(frame, in, Y));
  return core::wrenchFromLocal(frame, local);
}

MujocoEllipsoidModel::MujocoEllipsoidModel(const MujocoEllipsoidParams& params) : params_(params) {
  if (params_.semiAxes && !positiveFinite(*params_.semiAxes)) {
    throw std::invalid_argument("mujoco-ellipsoid: semiAxes must be finite and > 0 (m)");
  }
  const EllipsoidCoefficients& c = params_.coef;
  if (!std::isfinite(c.bluntDrag) || !std::isfinite(c.slenderDrag) ||
      !std::isfinite(c.angularDrag) || !std::isfinite(c.kuttaLift) ||
      !std::isfinite(c.magnusLift)) {
    throw std::invalid_argument("mujoco-ellipsoid: coef entries must be finite");
  }
}

Vec3 MujocoEllipsoidModel::semiAxes(const core::FluidModelInput& in,
                                    const core::PrincipalFrame& frame) const {
  if (params_.semiAxes) return *params_.semiAxes;
  if (in.mesh == nullptr) return Vec3::Zero();
  const geometry::VertexMatrix& V = in.mesh->V;
  const bool same =
      cacheThickness_ == in.sheetThickness && cacheR_ == frame.R && cacheCom_ == frame.com &&
      cacheV_.rows() == V.rows() &&
      std::memcmp(cacheV_.data(), V.data(), sizeof(double) * static_cast<size_t>(V.size())) == 0;
  if (!same) {
    cacheAxes_ = meshSemiAxes(*in.mesh, frame, in.sheetThickness);
    cacheV_ = V;
    cacheR_ = frame.R;
    cacheCom_ = frame.com;
    cacheThickness_ = in.sheetThickness;
  }
  return cacheAxes_;
}

Mat6 MujocoEllipsoidModel::addedMass(const core::FluidModelInput& in) const {
  if (!params_.kirchhoffAddedMass || !(in.mass >= kMinVal)) return Mat6::Zero();
  const core::PrincipalFrame frame = core::principalFrame(in.com, in.inertiaCom);
  const Vec3 r = semiAxes(in, frame);
  if (!positiveFinite(r)) return Mat6::Zero();
  const MujocoAddedMass am = mujocoAddedMass(r, in.density, KappaQuadrature::mujoco);
  Vec6 diag;
  diag << am.angular, am.linear;
  return core::inertiaFromLocal(frame, Mat6(diag.asDiagonal()));
}

Vec6 MujocoEllipsoidModel::wrench(const core::FluidModelInput& in, const Vec6& Y) const {
  if (!(in.mass >= kMinVal)) return Vec6::Zero();
  const core::PrincipalFrame frame = core::principalFrame(in.com, in.inertiaCom);
  const Vec3 r = semiAxes(in, frame);
  if (!positiveFinite(r)) return Vec6::Zero();
  const Vec6 local =
      ellipsoidWrench(r, params_.coef, in.density, in.viscosity,
                      localRelativeVelocity(frame, in, Y), !params_.kirchhoffAddedMass);
  return core::wrenchFromLocal(frame, local);
}

std::vector<core::ModelParam> MujocoEllipsoidModel::parameterList() const {
  std::vector<core::ModelParam> out;
  if (params_.semiAxes) {
    const Vec3& a = *params_.semiAxes;
    out.push_back({"semi_axes", std::vector<double>{a.x(), a.y(), a.z()}});
  }
  const EllipsoidCoefficients& c = params_.coef;
  out.push_back({"fluidcoef", std::vector<double>{c.bluntDrag, c.slenderDrag, c.angularDrag,
                                                  c.kuttaLift, c.magnusLift}});
  out.push_back(
      {"added_mass", std::string(params_.kirchhoffAddedMass ? "kirchhoff" : "velocity_terms")});
  return out;
}

void MujocoEllipsoidModel::readParameters(const core::ParamReader& r) {
  r.allowOnly({"semi_axes", "fluidcoef", "added_mass"});
  MujocoEllipsoidParams p;
  if (r.has("semi_axes")) {
    p.semiAxes = r.vec3("semi_axes");
    if (!(p.semiAxes->minCoeff() > 0.0)) r.fail("semi_axes", "every semi-axis must be > 0 m");
  }
  if (r.has("fluidcoef")) {
    const std::vector<double> c = r.numbers("fluidcoef", 5);
    p.coef.bluntDrag = c[0];
    p.coef.slenderDrag = c[1];
    p.coef.angularDrag = c[2];
    p.coef.kuttaLift = c[3];
    p.coef.magnusLift = c[4];
  }
  if (r.has("added_mass")) {
    const std::string s = r.text("added_mass");
    if (s == "kirchhoff") {
      p.kirchhoffAddedMass = true;
    } else if (s != "velocity_terms") {
      r.fail("added_mass",
             "expected \"velocity_terms\" (MuJoCo's, the default) or \"kirchhoff\", got " +
                 r.describe("added_mass"));
    }
  }
  *this = MujocoEllipsoidModel(p);
}

}  // namespace samara::models
