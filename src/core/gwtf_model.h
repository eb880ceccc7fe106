#pragma once
// The "Going with the Flow" family (Soliman et al. 2024, with the corrections of
// PHYSICS.md §2–4). The local added mass δ Σ ρ_f A a aᵀ (GwtF Alg. 5) and the per-face
// data it needs are built by the World for every model with localFaces(); this class gives
// the per-face force law with its analytic Jacobian, and exact buoyancy. Two variants:
//   - "samara" (the default): the flow relative to the fluid (PHYSICS.md §7), so a uniform
//     wind is a change of inertial frame and a gust acts through the fluid's acceleration;
//     GwtF's pressure force plus skin friction (Blasius–Imai, with the Reynolds number), and
//     circulation (C_T), rotational lift (C_R) and an edge drag (C_D0) per face:
//     core/flow_law.h. Its parameters, by default kCirculationCandidate: "friction" (1),
//     "ct" (0.4: APW's C_T = 1.2 in samara's terms), "cr" (2π: APW's C_R = π), "cd0" (0.3;
//     APW 2005: A − B = 0.4), "rec" (100: the Reynolds number below which C_T and C_R fade
//     as Re/(Re + Re_c)); ct = cr = cd0 = 0 is the pressure and friction law alone;
//   - "gwtf-2024": the paper as published (added mass relative to the ground), what samara
//     computed before the default changed, to round-off (the vectorised face kernel sums in
//     another order) ("gwtf" is accepted as its alias).
#include "core/fluid_model.h"

namespace samara::core {

/// The law's coefficients (the samara model's parameters).
struct FlowLawCoefficients {
  double friction = 1.0;  ///< scale of c₁, c₂ (1: Blasius–Imai; 0: no friction)
  double ct = 0.0;        ///< C_T (APW 2005: 1.2; 0: no translational circulation)
  double cr = 0.0;        ///< C_R (APW 2005: π; 0: no rotational lift)
  double cd0 = 0.0;       ///< isotropic drag C_D0 (APW 2005: A − B = 0.4)
  /// Re_c: C_T and C_R act in full above it and fade as Re/(Re + Re_c) below (0: never fade).
  double rec = 0.0;
  /// Pressure and friction only: the vectorised kernel's law (core/face_kernel.h).
  bool pressureFrictionOnly() const { return ct == 0.0 && cr == 0.0 && cd0 == 0.0; }
};

inline constexpr double kCirculationCT = 1.2;  ///< APW's C_T as a number (their law: kApwCT)
/// C_R = π: thin-aerofoil rotational circulation on a sheet, Rubinow & Keller on a sphere.
inline constexpr double kRotationCR = 3.14159265358979323846;
inline constexpr double kIsotropicCD0 = 0.4;  ///< APW 2005, A − B (C_D of a plate edge first)
/// APW's quasi-steady law (C_T = 1.2, C_R = π, A − B = 0.4) in samara's terms: its lift
/// C_T sin 2α is samara's pressure lift sin 2α plus ct/2 sin 2α, so ct = 0.4; its
/// rotational circulation is cr = 2π on a sheet (above); cd0 = 0.4.
inline constexpr double kApwCT = 0.4;
inline constexpr double kApwCR = 2.0 * kRotationCR;
/// The circulation law that shows all four falling regimes with the maple seed in its band
/// (README "APW's circulation with less edge drag"): APW's C_T and C_R in samara's terms,
/// C_D0 0.3 (between the 0.25 at which the seed still cones < 15° and APW's 0.4, at which
/// it stops autorotating), faded below Re_c = 100: samara's default (README "The default law").
inline constexpr FlowLawCoefficients kCirculationCandidate{1.0, kApwCT, kApwCR, 0.3, 100.0};
/// GwtF's pressure force and the skin friction alone (ct = cr = cd0 = 0): samara's default
/// until 2026-11-28, kept for comparison and for lessons that isolate the added mass.
inline constexpr FlowLawCoefficients kPressureFriction{1.0, 0.0, 0.0, 0.0, 0.0};
class GwtfModel final : public FluidModel {
 public:
  enum class Variant { kSamara, kPaper2024 };
  explicit GwtfModel(Variant variant = Variant::kSamara)
      : variant_(variant),
        law_(variant == Variant::kSamara ? kCirculationCandidate : FlowLawCoefficients{}) {}
  /// samara with the given coefficients.
  explicit GwtfModel(const FlowLawCoefficients& c) : variant_(Variant::kSamara), law_(c) {}
  std::string name() const override {
    return variant_ == Variant::kSamara ? "samara" : "gwtf-2024";
  }
  std::unique_ptr<FluidModel> clone() const override { return std::make_unique<GwtfModel>(*this); }
  Variant variant() const { return variant_; }
  bool localFaces() const override { return true; }
  bool buoyancy() const override { return true; }
  bool relativeFlow() const override { return variant_ == Variant::kSamara; }
  /// samara: δ per connected part (GwtF §8); gwtf-2024: one δ per body.
  bool perPartDelta() const override { return variant_ == Variant::kSamara; }
  bool rotationalLift() const override { return variant_ == Variant::kSamara && law_.cr != 0.0; }
  /// samara: friction, ct, cr, cd0. gwtf-2024: none.
  std::vector<ModelParam> parameterList() const override;
  void readParameters(const ParamReader& r) override;
  const FlowLawCoefficients& coefficients() const { return law_; }
  /// gwtf-2024: −Σ c ρ_f A |u| ⟨u, n⟩ (x × n, n) over FluidModelInput::faces; samara: the
  /// law of core/flow_law.h (pressure, friction, circulation, rotation) over the faces.
  Vec6 wrench(const FluidModelInput& in, const Vec6& Y) const override;
  /// The same with its analytic Jacobian.
  void addWrench(const FluidModelInput& in, const Vec6& Y, Vec6* F, Mat6* J) const override;
  void localFaceForces(const FluidModelInput& in, const Vec6& Y,
                       std::vector<Vec3>* forces) const override;

 private:
  Variant variant_;
  FlowLawCoefficients law_;
};

}  // namespace samara::core
