#pragma once
// samara's default fluid model: "Going with the Flow" (Soliman et al. 2024) with the
// corrections of PHYSICS.md. The local added mass δ Σ ρ_f A a aᵀ (GwtF Alg. 5) and the
// per-face data it needs are built by the World for every model with localFaces(); this
// class gives the flat-plate lift and drag per face (GwtF Eqn. 6) with its analytic
// Jacobian, and exact buoyancy.
#include "core/fluid_model.h"

namespace samara::core {

class GwtfModel final : public FluidModel {
 public:
  std::string name() const override { return "gwtf"; }
  std::unique_ptr<FluidModel> clone() const override { return std::make_unique<GwtfModel>(*this); }
  bool localFaces() const override { return true; }
  bool buoyancy() const override { return true; }
  /// −Σ c ρ_f A |u| ⟨u, n⟩ (x × n, n) over FluidModelInput::faces.
  Vec6 wrench(const FluidModelInput& in, const Vec6& Y) const override;
  /// The same with its analytic Jacobian.
  void addWrench(const FluidModelInput& in, const Vec6& Y, Vec6* F, Mat6* J) const override;
};

}  // namespace samara::core
