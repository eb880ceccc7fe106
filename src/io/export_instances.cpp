#include "io/export_instances.h"

#include <cmath>

namespace samara::io {
namespace {

/// The factor s with V ≈ s·U (least squares), or 0 when V is not a scaled U.
double scaleOf(const geometry::VertexMatrix& V, const geometry::VertexMatrix& U) {
  if (V.rows() != U.rows() || V.cols() != U.cols() || V.rows() == 0) return 0.0;
  const double uu = U.squaredNorm();
  if (!(uu > 0.0)) return 0.0;
  const double s = (V.array() * U.array()).sum() / uu;
  if (!(s > 0.0) || !std::isfinite(s)) return 0.0;
  const double size = V.cwiseAbs().maxCoeff();
  const double err = (V - s * U).cwiseAbs().maxCoeff();
  return err <= 1e-6 * size ? s : 0.0;
}

}  // namespace

std::vector<MeshInstance> findMeshInstances(const std::vector<std::string>& names,
                                            const std::vector<const geometry::VertexMatrix*>& V,
                                            const std::vector<const geometry::FaceMatrix*>& F) {
  std::vector<std::string> species(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) species[i] = speciesName(names[i]);
  std::vector<MeshInstance> out(V.size());
  std::vector<std::size_t> sources;  // bodies with a mesh of their own that others may share
  for (std::size_t i = 0; i < V.size(); ++i) {
    out[i].source = i;
    if (V[i] == nullptr) continue;
    bool found = false;
    for (const std::size_t j : sources) {
      if (species[j] != species[i] || F[j]->rows() != F[i]->rows() || *F[j] != *F[i]) continue;
      const double s = scaleOf(*V[i], *V[j]);
      if (s > 0.0) {
        out[i] = {j, s};
        found = true;
        break;
      }
    }
    if (!found) sources.push_back(i);
  }
  return out;
}

std::string speciesName(const std::string& bodyName) {
  const std::size_t us = bodyName.rfind('_');
  if (us == std::string::npos || us == 0 || us + 1 == bodyName.size()) return bodyName;
  for (std::size_t k = us + 1; k < bodyName.size(); ++k) {
    if (bodyName[k] < '0' || bodyName[k] > '9') return bodyName;
  }
  return bodyName.substr(0, us);
}

}  // namespace samara::io
