#include "core/gwtf_model.h"

#include <cassert>

#include "core/face_kernel.h"
#include "core/flow_law.h"
#include "core/forces.h"

namespace samara::core {

Vec6 GwtfModel::wrench(const FluidModelInput& in, const Vec6& Y) const {
  Vec6 F = Vec6::Zero();
  addWrench(in, Y, &F, nullptr);
  return F;
}

void GwtfModel::addWrench(const FluidModelInput& in, const Vec6& Y, Vec6* F, Mat6* J) const {
  assert(in.faces != nullptr);
  const bool plain = variant_ == Variant::kPaper2024 || law_.pressureFrictionOnly();
  if (in.packed && plain && (in.faceOffsets == nullptr || in.packOffsets != nullptr)) {
    const FlowLawFaces* law = variant_ == Variant::kSamara ? in.law : nullptr;
    addPackedFaceWrench(*in.faces, law, law_.friction, Y, in.faceOffset, in.packOffsets, F, J);
    return;
  }
  const bool samara = variant_ == Variant::kSamara && in.law != nullptr;
  if (in.packed && samara && (in.faceOffsets == nullptr || in.packOffsets != nullptr) &&
      (in.law->lift.empty() || !in.law->partPad.empty())) {
    addPackedLawWrench(*in.faces, *in.law, law_, Y, in.com, in.faceOffset, in.packOffsets,
                       in.partSums, F, J);
    return;
  }
  // The reference loops take one offset per face (from the pack when that is all there is).
  std::vector<Vec3> unpacked;
  const Vec3* offsets = in.faceOffsets;
  if (offsets == nullptr && in.packOffsets != nullptr) {
    unpacked = in.packOffsets->unpack(*in.faces);
    offsets = unpacked.data();
  }
  if (variant_ == Variant::kSamara && in.law != nullptr) {
    addFlowLawWrench(*in.faces, *in.law, law_, Y, in.com, in.faceOffset, offsets, F, J);
  } else {
    addDragWrench(*in.faces, Y, in.faceOffset, offsets, F, J);
  }
}

std::vector<ModelParam> GwtfModel::parameterList() const {
  if (variant_ != Variant::kSamara) return {};
  return {{"friction", law_.friction},
          {"ct", law_.ct},
          {"cr", law_.cr},
          {"cd0", law_.cd0},
          {"rec", law_.rec}};
}

void GwtfModel::readParameters(const ParamReader& r) {
  if (variant_ != Variant::kSamara) {
    FluidModel::readParameters(r);
    return;
  }
  r.allowOnly({"friction", "ct", "cr", "cd0", "rec"});
  if (r.has("friction")) law_.friction = r.number("friction", false);
  if (r.has("ct")) law_.ct = r.number("ct", false);
  if (r.has("cr")) law_.cr = r.number("cr", false);
  if (r.has("cd0")) law_.cd0 = r.number("cd0", false);
  if (r.has("rec")) law_.rec = r.number("rec", false);
}

void GwtfModel::localFaceForces(const FluidModelInput& in, const Vec6& Y,
                                std::vector<Vec3>* forces) const {
  assert(in.faces != nullptr);
  if (variant_ == Variant::kSamara && in.law != nullptr) {
    flowLawFaceForces(*in.faces, *in.law, law_, Y, in.com, in.faceOffset, in.faceOffsets, forces);
  } else {
    dragFaceForces(*in.faces, Y, in.faceOffset, in.faceOffsets, forces);
  }
}

}  // namespace samara::core
