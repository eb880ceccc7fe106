#pragma once
// Basic math types shared by geometry/ and core/. Core math is double.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace samara {

/// π to double precision (std::numbers::pi), for every module.
inline constexpr double kPi = 3.14159265358979323846;

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;

/// hat(x) y = x × y.
inline Mat3 hat(const Vec3& x) {
  Mat3 m;
  m << 0.0, -x.z(), x.y(), x.z(), 0.0, -x.x(), -x.y(), x.x(), 0.0;
  return m;
}

}  // namespace samara
