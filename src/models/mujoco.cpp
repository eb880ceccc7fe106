#include "models/mujoco.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <stdexcept>

namespace samara::models {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinVal = 1e-15;  // mjMINVAL
constexpr double kEps = 1e-14;     // mjEPS

bool positiveFinite(const Vec3& r) { return r.allFinite() && r.minCoeff() > 0.0; }

// Added mass of an ellipsoid from one evaluation of κ (MuJoCo's SetFluidCoefs, times ρ).
struct EllipsoidAddedMass {
  Vec3 linear = Vec3::Zero();   // m_A, kg
  Vec3 angular = Vec3::Zero();  // I_A, kg·m²
};

EllipsoidAddedMass ellipsoidAddedMass(const Vec3& r, double density) {
  EllipsoidAddedMass am;
  if (!positiveFinite(r)) return am;
  const Vec3 kappa = tuckermanKappa(r);
  const double volume = 4.0 / 3.0 * kPi * r.x() * r.y() * r.z();
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const int k = (i + 2) % 3;
    am.linear(i) = density * volume * kappa(i) / std::max(kEps, 2.0 - kappa(i));
    const double rj2 = r(j) * r(j);
    const double rk2 = r(k) * r(k);
    const double diff = rj2 - rk2;
    const double fac = diff * diff * std::abs(kappa(k) - kappa(j)) /
                       std::max(kEps, std::abs(2.0 * diff + (rj2 + rk2) * (kappa(j) - kappa(k))));
    am.angular(i) = density * volume * fac / 5.0;
  }
  return am;
}

// Σ w_i v_i² and Σ w_i² v_i² with w_i = (r_j r_k)² (MuJoCo's proj_num and proj_denom).
struct ProjectionSums {
  Vec3 w = Vec3::Zero();
  double num = 0.0;
  double den = 0.0;
};

ProjectionSums projectionSums(const Vec3& r, const Vec3& v) {
  ProjectionSums s;
  s.w = Vec3((r.y() * r.z()) * (r.y() * r.z()), (r.z() * r.x()) * (r.z() * r.x()),
             (r.x() * r.y()) * (r.x() * r.y()));
  for (int i = 0; i < 3; ++i) {
    const double v2 = v(i) * v(i);
    s.num += s.w(i) * v2;
    s.den += s.w(i) * s.w(i) * v2;
  }
  return s;
}

double projectedAreaFrom(const ProjectionSums& s) {
  return kPi * std::sqrt(s.den / std::max(kMinVal, s.num));
}

// 8π/15 r_i max(r_j, r_k)⁴ (mji_ellipsoid_max_moment).
double ellipsoidMaxMoment(const Vec3& r, int i) {
  const double m = std::max(r((i + 1) % 3), r((i + 2) % 3));
  return 8.0 / 15.0 * kPi * r(i) * ((m * m) * (m * m));
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

Vec3 addedMassLinear(const Vec3& semiAxes, double density) {
  return ellipsoidAddedMass(semiAxes, density).linear;
}

Vec3 addedMassAngular(const Vec3& semiAxes, double density) {
  return ellipsoidAddedMass(semiAxes, density).angular;
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
    const EllipsoidAddedMass am = ellipsoidAddedMass(r, density);
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
  const double speed = v.norm();
  const Vec3 normal = s.w.cwiseProduct(v);  // not unit: normal to the conjugate section
  // cos α divided by |normal| = √den once more: the normalisation skipped in `normal`.
  const double cosAlpha = s.num / std::max(kMinVal, speed * s.den);
  const Vec3 kuttaCirc = normal.cross(v) * (c.kuttaLift * density * cosAlpha * aProj);
  const Vec3 kutta = kuttaCirc.cross(v);

  // Stokes drag of the equivalent sphere (diameter D = 2 r_D).
  const double sphereD = 2.0 / 3.0 * (r(0) + r(1) + r(2));
  const double linViscCoef = 3.0 * kPi * sphereD;
  const double angViscCoef = kPi * sphereD * sphereD * sphereD;

  const double iMax = 8.0 / 15.0 * kPi * dMid * ((dMax * dMax) * (dMax * dMax));
  Vec3 momVisc;
  for (int i = 0; i < 3; ++i) {
    const double iD = ellipsoidMaxMoment(r, i);
    momVisc(i) = w(i) * (c.angularDrag * iD + c.slenderDrag * (iMax - iD));
  }

  const double dragLin = viscosity * linViscCoef +
                         density * speed * (aProj * c.bluntDrag + c.slenderDrag * (aMax - aProj));
  const double dragAng = viscosity * angViscCoef + density * momVisc.norm();

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
  return meshSemiAxes(*in.mesh, frame, in.sheetThickness);
}

Mat6 MujocoEllipsoidModel::addedMass(const core::FluidModelInput& in) const {
  if (!params_.kirchhoffAddedMass || !(in.mass >= kMinVal)) return Mat6::Zero();
  const core::PrincipalFrame frame = core::principalFrame(in.com, in.inertiaCom);
  const Vec3 r = semiAxes(in, frame);
  if (!positiveFinite(r)) return Mat6::Zero();
  const EllipsoidAddedMass am = ellipsoidAddedMass(r, in.density);
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

}  // namespace samara::models
