#include "core/fluid_model.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace samara::core {
namespace {

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool sameValue(const ParamValue& a, const ParamValue& b) {
  if (a.index() != b.index()) return false;
  if (const auto* x = std::get_if<double>(&a)) return sameBits(*x, std::get<double>(b));
  if (const auto* x = std::get_if<std::vector<double>>(&a)) {
    const auto& y = std::get<std::vector<double>>(b);
    if (x->size() != y.size()) return false;
    for (std::size_t i = 0; i < x->size(); ++i) {
      if (!sameBits((*x)[i], y[i])) return false;
    }
    return true;
  }
  return a == b;
}

std::string numberText(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace

Mat6 FluidModel::addedMass(const FluidModelInput&) const { return Mat6::Zero(); }

void FluidModel::readParameters(const ParamReader& r) { r.allowOnly({}); }

bool FluidModel::sameAs(const FluidModel& other) const {
  if (name() != other.name()) return false;
  const std::vector<ModelParam> a = parameterList();
  const std::vector<ModelParam> b = other.parameterList();
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].key != b[i].key || !sameValue(a[i].value, b[i].value)) return false;
  }
  return true;
}

void FluidModel::addWrench(const FluidModelInput& in, const Vec6& Y, Vec6* F, Mat6* J) const {
  *F += wrench(in, Y);
  if (J == nullptr) return;
  const double scale = 1.0 + Y.cwiseAbs().maxCoeff();
  for (int i = 0; i < 6; ++i) {
    const double e = 1e-6 * scale;
    Vec6 Yp = Y;
    Vec6 Ym = Y;
    Yp[i] += e;
    Ym[i] -= e;
    J->col(i) += (wrench(in, Yp) - wrench(in, Ym)) / (2.0 * e);
  }
}

std::string paramsText(const std::vector<ModelParam>& params) {
  std::string out;
  for (const ModelParam& p : params) {
    if (!out.empty()) out += ", ";
    out += p.key + " ";
    if (const auto* x = std::get_if<double>(&p.value)) {
      out += numberText(*x);
    } else if (const auto* v = std::get_if<std::vector<double>>(&p.value)) {
      out += "[";
      for (std::size_t i = 0; i < v->size(); ++i) out += (i ? ", " : "") + numberText((*v)[i]);
      out += "]";
    } else if (const auto* t = std::get_if<std::string>(&p.value)) {
      out += *t;
    } else {
      out += std::to_string(std::get<std::int64_t>(p.value));
    }
  }
  return out;
}

void FluidModel::localFaceForces(const FluidModelInput&, const Vec6&,
                                 std::vector<Vec3>* forces) const {
  forces->clear();
}

void FluidModel::advance(const FluidModelInput&, const Vec6&) {}

namespace {

/// The body axis (column of the identity) least aligned with `axis` (ties: the first).
Vec3 leastAlignedBodyAxis(const Vec3& axis) {
  Eigen::Index k = 0;
  axis.cwiseAbs().minCoeff(&k);
  return Vec3::Unit(k);
}

/// Where principal moments agree (to 1e-9 of the largest) the eigen-solver's axes in that
/// subspace are arbitrary: the mesh's own axes are taken instead, so that a cube, a sphere
/// mesh or a square card gets the same frame whatever its segmentation. All three equal:
/// the body axes. Two equal: the distinct axis a is kept and the pair is spanned by the
/// body axis least aligned with a, projected off a, and a × it.
void snapDegenerateAxes(const Vec3& moments, Mat3* R) {
  const double tol = 1e-9 * std::max(std::abs(moments[2]), 1e-300);
  const bool low = moments[1] - moments[0] <= tol;   // moments 0 and 1 agree
  const bool high = moments[2] - moments[1] <= tol;  // moments 1 and 2 agree
  if (low && high) {
    *R = Mat3::Identity();
    return;
  }
  if (!low && !high) return;
  const int distinct = low ? 2 : 0;  // the axis whose moment stands apart
  const Vec3 a = R->col(distinct).normalized();
  const Vec3 b = leastAlignedBodyAxis(a);
  const Vec3 p = (b - b.dot(a) * a).normalized();
  if (low) {
    R->col(0) = p;
    R->col(1) = a.cross(p);
  } else {
    R->col(1) = p;
    R->col(2) = a.cross(p);
  }
}

}  // namespace

PrincipalFrame principalFrame(const Vec3& com, const Mat3& inertiaCom) {
  PrincipalFrame f;
  f.com = com;
  const Mat3 sym = 0.5 * (inertiaCom + inertiaCom.transpose());
  Eigen::SelfAdjointEigenSolver<Mat3> es(sym);
  f.moments = es.eigenvalues();  // ascending
  Mat3 R = es.eigenvectors();
  snapDegenerateAxes(f.moments, &R);
  for (int c = 0; c < 2; ++c) {
    Eigen::Index k = 0;
    R.col(c).cwiseAbs().maxCoeff(&k);
    if (R(k, c) < 0.0) R.col(c) = -R.col(c);
  }
  R.col(2) = R.col(0).cross(R.col(1));
  f.R = R;
  return f;
}

Vec6 velocityToLocal(const PrincipalFrame& frame, const Vec6& Y) {
  const Vec3 omega = Y.head<3>();
  const Vec3 vCom = Y.tail<3>() + omega.cross(frame.com);
  Vec6 out;
  out.head<3>() = frame.R.transpose() * omega;
  out.tail<3>() = frame.R.transpose() * vCom;
  return out;
}

Vec6 wrenchFromLocal(const PrincipalFrame& frame, const Vec6& wrenchLocal) {
  const Vec3 f = frame.R * wrenchLocal.tail<3>();
  Vec6 out;
  out.head<3>() = frame.R * wrenchLocal.head<3>() + frame.com.cross(f);
  out.tail<3>() = f;
  return out;
}

Mat6 inertiaFromLocal(const PrincipalFrame& frame, const Mat6& local) {
  // Y_local = X Y with X = [[Rᵀ, 0], [Rᵀ ĉᵀ, Rᵀ]] (v_c = v + ω × c = v − ĉ ω).
  Mat3 cHat;
  cHat << 0.0, -frame.com.z(), frame.com.y(), frame.com.z(), 0.0, -frame.com.x(), -frame.com.y(),
      frame.com.x(), 0.0;
  Mat6 X = Mat6::Zero();
  X.topLeftCorner<3, 3>() = frame.R.transpose();
  X.bottomLeftCorner<3, 3>() = -frame.R.transpose() * cHat;
  X.bottomRightCorner<3, 3>() = frame.R.transpose();
  return X.transpose() * local * X;
}

}  // namespace samara::core
