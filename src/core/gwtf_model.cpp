#include "core/gwtf_model.h"

#include <cassert>

#include "core/forces.h"

namespace samara::core {

Vec6 GwtfModel::wrench(const FluidModelInput& in, const Vec6& Y) const {
  Vec6 F = Vec6::Zero();
  addWrench(in, Y, &F, nullptr);
  return F;
}

void GwtfModel::addWrench(const FluidModelInput& in, const Vec6& Y, Vec6* F, Mat6* J) const {
  assert(in.faces != nullptr);
  addDragWrench(*in.faces, Y, in.faceOffset, in.faceOffsets, F, J);
}

}  // namespace samara::core
