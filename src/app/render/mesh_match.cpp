#include "app/render/mesh_match.h"

#include <algorithm>
#include <cmath>

namespace samara::app {

std::optional<ScaledCopy> scaledCopyOf(const geometry::VertexMatrix& M,
                                       const geometry::FaceMatrix& MF,
                                       const geometry::VertexMatrix& V,
                                       const geometry::FaceMatrix& F) {
  if (M.rows() != V.rows() || MF.rows() != F.rows() || M.rows() == 0 || MF != F) {
    return std::nullopt;
  }
  const Eigen::RowVector3d mc = M.colwise().mean();
  const Eigen::RowVector3d vc = V.colwise().mean();
  const double mSpread = (M.rowwise() - mc).squaredNorm();
  const double vSpread = (V.rowwise() - vc).squaredNorm();
  const double s = mSpread > 0.0 ? std::sqrt(vSpread / mSpread) : 1.0;
  const Eigen::RowVector3d t = vc - s * mc;
  const double tol = 1e-6 * std::max(V.cwiseAbs().maxCoeff(), 1e-6);  // m
  if (s <= 0.0 || ((V - s * M).rowwise() - t).cwiseAbs().maxCoeff() > tol) return std::nullopt;
  return ScaledCopy{s, t.transpose()};
}

}  // namespace samara::app
