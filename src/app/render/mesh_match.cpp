#include "app/render/mesh_match.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

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

std::vector<std::uint32_t> coarseIndices(const geometry::VertexMatrix& V,
                                         const geometry::FaceMatrix& F, int cells) {
  std::vector<std::uint32_t> out;
  if (V.rows() == 0 || F.rows() == 0) return out;
  const Eigen::RowVector3d lo = V.colwise().minCoeff();
  const double extent = (V.colwise().maxCoeff() - lo).maxCoeff();
  const double side = extent > 0.0 ? extent / std::max(cells, 1) : 1.0;
  using Cell = std::tuple<long, long, long>;
  std::map<Cell, std::uint32_t> first;  // cube → its lowest vertex index
  std::vector<std::uint32_t> rep(static_cast<std::size_t>(V.rows()));
  for (Eigen::Index v = 0; v < V.rows(); ++v) {
    auto at = [&](int k) { return static_cast<long>(std::floor((V(v, k) - lo(k)) / side)); };
    const auto it = first.emplace(Cell{at(0), at(1), at(2)}, static_cast<std::uint32_t>(v)).first;
    rep[static_cast<std::size_t>(v)] = it->second;
  }
  out.reserve(static_cast<std::size_t>(F.size()));
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const std::uint32_t a = rep[static_cast<std::size_t>(F(f, 0))];
    const std::uint32_t b = rep[static_cast<std::size_t>(F(f, 1))];
    const std::uint32_t c = rep[static_cast<std::size_t>(F(f, 2))];
    if (a == b || b == c || a == c) continue;
    out.insert(out.end(), {a, b, c});
  }
  return out;
}

}  // namespace samara::app
