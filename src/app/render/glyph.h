#pragma once
// Teaching glyphs, GL-free (Eigen only, unit-tested): a symmetric 3×3 tensor (added mass,
// kg; or a rotational inertia, kg·m²) drawn as an ellipsoid whose axes are the tensor's
// eigenvectors and whose radii are proportional to its eigenvalues.
#include "geometry/types.h"

namespace samara::app {

/// An ellipsoid glyph: x = center + axes · diag(radii) · u for unit vectors u.
struct EllipsoidGlyph {
  Vec3 center = Vec3::Zero();       ///< world, m
  Mat3 axes = Mat3::Identity();     ///< columns: unit principal axes, world (right-handed)
  Vec3 radii = Vec3::Zero();        ///< m, = scale × eigenvalue (≥ 0), ascending
  Vec3 eigenvalues = Vec3::Zero();  ///< of the tensor, its unit, ascending
  /// The affine map of the unit sphere onto the glyph: world point = transform · (u, 1).
  Eigen::Matrix<double, 3, 4> transform() const;
};

/// The glyph of the symmetric tensor `tensorBody` (body frame) for a body at orientation
/// `R` (body → world) with centre `center`: axes R·(eigenvectors), radii = `scale` ×
/// eigenvalues (negative round-off clamped to 0).
EllipsoidGlyph ellipsoidGlyph(const Mat3& tensorBody, const Mat3& R, const Vec3& center,
                              double scale);

/// The length scale (m per tensor unit) that makes the largest radius among `largest`
/// (the glyphs' largest eigenvalues) equal to `size` m; 0 when all are 0.
double glyphScale(double largestEigenvalue, double size);

}  // namespace samara::app
