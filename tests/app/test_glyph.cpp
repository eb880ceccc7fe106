// The added-mass glyph: its axes and radii are the tensor's eigen-decomposition.
#include <Eigen/Geometry>
#include <catch2/catch.hpp>

#include "app/render/glyph.h"

using namespace samara;
using namespace samara::app;

TEST_CASE("Ellipsoid glyph axes and radii match the tensor's eigen-decomposition", "[app][glyph]") {
  // A tensor with known eigenpairs: Q diag(1, 4, 9) Qᵀ in the body frame.
  const Mat3 Q = Eigen::AngleAxisd(0.4, Vec3(1, -2, 0.5).normalized()).toRotationMatrix();
  const Vec3 lambda(1.0, 4.0, 9.0);
  const Mat3 M = Q * lambda.asDiagonal() * Q.transpose();
  const Mat3 R = Eigen::AngleAxisd(1.1, Vec3(0.3, 0.2, 1).normalized()).toRotationMatrix();
  const Vec3 c(0.5, 2.0, -1.0);
  const double scale = 0.01;
  const EllipsoidGlyph g = ellipsoidGlyph(M, R, c, scale);
  CHECK((g.center - c).norm() == 0.0);
  CHECK((g.axes.transpose() * g.axes - Mat3::Identity()).norm() < 1e-12);
  CHECK(g.axes.determinant() == Approx(1.0).epsilon(1e-12));
  for (int k = 0; k < 3; ++k) {
    CHECK(g.eigenvalues[k] == Approx(lambda[k]).epsilon(1e-12));
    // The world axis is ± R times the body eigenvector.
    const Vec3 expected = R * Q.col(k);
    CHECK(std::abs(std::abs(g.axes.col(k).dot(expected)) - 1.0) < 1e-12);
    // And the world tensor R M Rᵀ maps it to λ times itself.
    const Vec3 a = g.axes.col(k);
    CHECK((R * M * R.transpose() * a - lambda[k] * a).norm() < 1e-12);
  }
  // Radii ratios are the eigenvalue ratios.
  CHECK(g.radii[2] / g.radii[0] == Approx(9.0).epsilon(1e-12));
  CHECK(g.radii[1] / g.radii[0] == Approx(4.0).epsilon(1e-12));
  CHECK(g.radii[0] == Approx(scale * 1.0).epsilon(1e-12));
  // transform() maps the unit axes onto the glyph's ends.
  const Eigen::Matrix<double, 3, 4> T = g.transform();
  for (int k = 0; k < 3; ++k) {
    Eigen::Vector4d u = Eigen::Vector4d::Zero();
    u[k] = 1.0;
    u[3] = 1.0;
    CHECK((T * u - (c + g.radii[k] * g.axes.col(k))).norm() < 1e-12);
  }
}

TEST_CASE("Ellipsoid glyph of a rank-one plate tensor and the glyph scale", "[app][glyph]") {
  // A flat plate: added mass only along its normal (body z).
  Mat3 M = Mat3::Zero();
  M(2, 2) = 3.0;
  const EllipsoidGlyph g = ellipsoidGlyph(M, Mat3::Identity(), Vec3::Zero(), glyphScale(3.0, 0.2));
  CHECK(g.radii[0] == 0.0);
  CHECK(g.radii[1] == 0.0);
  CHECK(g.radii[2] == Approx(0.2).epsilon(1e-12));
  CHECK(std::abs(g.axes.col(2).z()) == Approx(1.0).epsilon(1e-12));
  CHECK(glyphScale(0.0, 1.0) == 0.0);
}
