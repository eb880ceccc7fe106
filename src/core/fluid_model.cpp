#include "core/fluid_model.h"

#include <Eigen/Eigenvalues>

namespace samara::core {

Mat6 FluidModel::addedMass(const FluidModelInput&) const { return Mat6::Zero(); }

void FluidModel::advance(const FluidModelInput&, const Vec6&) {}

PrincipalFrame principalFrame(const Vec3& com, const Mat3& inertiaCom) {
  PrincipalFrame f;
  f.com = com;
  const Mat3 sym = 0.5 * (inertiaCom + inertiaCom.transpose());
  Eigen::SelfAdjointEigenSolver<Mat3> es(sym);
  f.moments = es.eigenvalues();  // ascending
  Mat3 R = es.eigenvectors();
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
