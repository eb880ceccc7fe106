#pragma once
// The "Going with the Flow" family (Soliman et al. 2024, with the corrections of
// PHYSICS.md §2–4). The local added mass δ Σ ρ_f A a aᵀ (GwtF Alg. 5) and the per-face
// data it needs are built by the World for every model with localFaces(); this class gives
// the per-face force law with its analytic Jacobian, and exact buoyancy. Two variants:
//   - "samara" (the default): the flow relative to the fluid (PHYSICS.md §7), so a uniform
//     wind is a change of inertial frame and a gust acts through the fluid's acceleration;
//   - "gwtf-2024": the paper as published (added mass relative to the ground), bit for bit
//     what samara computed before the default changed ("gwtf" is accepted as its alias).
#include "core/fluid_model.h"

namespace samara::core {

class GwtfModel final : public FluidModel {
 public:
  enum class Variant { kSamara, kPaper2024 };
  explicit GwtfModel(Variant variant = Variant::kSamara) : variant_(variant) {}
  std::string name() const override {
    return variant_ == Variant::kSamara ? "samara" : "gwtf-2024";
  }
  std::unique_ptr<FluidModel> clone() const override { return std::make_unique<GwtfModel>(*this); }
  Variant variant() const { return variant_; }
  bool localFaces() const override { return true; }
  bool buoyancy() const override { return true; }
  bool relativeFlow() const override { return variant_ == Variant::kSamara; }
  /// −Σ c ρ_f A |u| ⟨u, n⟩ (x × n, n) over FluidModelInput::faces.
  Vec6 wrench(const FluidModelInput& in, const Vec6& Y) const override;
  /// The same with its analytic Jacobian.
  void addWrench(const FluidModelInput& in, const Vec6& Y, Vec6* F, Mat6* J) const override;

 private:
  Variant variant_;
};

}  // namespace samara::core
