#include "app/render/glyph.h"

#include <Eigen/Eigenvalues>
#include <algorithm>

namespace samara::app {

Eigen::Matrix<double, 3, 4> EllipsoidGlyph::transform() const {
  Eigen::Matrix<double, 3, 4> T;
  T.leftCols<3>() = axes * radii.asDiagonal();
  T.col(3) = center;
  return T;
}

EllipsoidGlyph ellipsoidGlyph(const Mat3& tensorBody, const Mat3& R, const Vec3& center,
                              double scale) {
  const Mat3 sym = 0.5 * (tensorBody + tensorBody.transpose());
  const Eigen::SelfAdjointEigenSolver<Mat3> es(sym);
  EllipsoidGlyph g;
  g.center = center;
  g.eigenvalues = es.eigenvalues();  // ascending
  Mat3 V = es.eigenvectors();
  if (V.determinant() < 0.0) V.col(2) = -V.col(2);
  g.axes = R * V;
  for (int k = 0; k < 3; ++k) g.radii[k] = scale * std::max(0.0, g.eigenvalues[k]);
  return g;
}

double glyphScale(double largestEigenvalue, double size) {
  return largestEigenvalue > 0.0 ? size / largestEigenvalue : 0.0;
}

}  // namespace samara::app
