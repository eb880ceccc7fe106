#pragma once
// samara's per-face force law (the default model, issue 13; PHYSICS.md §8): GwtF's
// flat-plate pressure force plus skin friction with its Reynolds number, and, as options, the
// circulation of a plate at an angle of attack and of a rotating body.
// For a face with one-sided area A, unit normal n, and velocity u relative to the fluid
// (u_n = ⟨u, n⟩, u_t = u − u_n n, s = |u|), k = c ρ_f A (c = ½ closed, 1 sheet):
//   pressure     f_p = −k s u_n n                                     (GwtF Eqn. 6)
//   friction     f_f = −k (c₁ √s + c₂) u_t, c₁ = 1.328 √(ν/L), c₂ = 2.326 ν/L
//                (Blasius' laminar flat plate with Imai's leading-edge term: C_f per side
//                = 1.328 Re^-½ + 2.326 Re^-1, Re = s L / ν, L = 2ℓ of the face's part;
//                per face and side f = C_f ½ρ_f s² A along −u_t/|u_t|·(|u_t|/s))
//   circulation  f_c = −k (C_T/2) u_n (s n − (u_n/s) u)
//                (Andersen, Pesavento & Wang 2005: Γ = −C_T ℓ u v/|V|, lift ρ Γ × V per
//                span, summed over a plate; perpendicular to u, so it does no work)
//   rotation     f_r = k (C_R/π) (K ω_r) × u, K = κ (I − n nᵀ) for a square plate, ω_r the
//                rotation of the face's part relative to its oncoming flow (partRelativeRotation)
//                (sheets κ = (π/2) ℓ: a circulation C_R ℓ² θ̇ summed over a plate of
//                half-chord ℓ; on other sheets K takes, for a pitch rate about the
//                in-plane axis e, the part's half-chord across e (FlowLawFaces::lift), at C_R = π
//                thin-aerofoil theory's π ℓ² θ̇ for a plate pitching about its mid-chord; APW's Γ =
//                ½ C_R c² θ̇ = 2 C_R ℓ² θ̇ is twice that, so APW's C_R = π is cr = 2π here (kApwCR);
//                closed parts κ = (3/4) 3V/A, which gives a sphere Rubinow & Keller's F = π ρ_f
//                r³ ω × V at C_R = π; no work either)
//   isotropic    f_0 = −k (C_D0/2) s u
//                (APW's drag ½ρ c [A − B cos 2α] |V| V is GwtF's 2 sin²α plus C_D0 = A − B
//                along −V: what a thick, separated plate (their 1/8 ellipse at Re ~ 10³)
//                feels edge first beyond Blasius' friction; it dissipates −k (C_D0/2) s³)
// ℓ of a connected part: ℓ² = 1.5 ∫|x − c|² dA / A over its surface (c its area centroid),
// exact per triangle: the half-chord of a square plate, 1.22 r for a sphere.
#include <vector>

#include "core/forces.h"
#include "core/gwtf_model.h"

namespace samara::core {

/// Per-face coefficients of the law beyond GwtF's drag (DragFaces holds a, x, k).
struct FlowLawFaces {
  std::vector<double> fric;  ///< c₁ = 1.328 √(ν/L), m^½/s^½
  std::vector<double> visc;  ///< c₂ = 2.326 ν/L, m/s
  /// The weight of C_T and C_D0 per face (padded like fric; empty: 1 everywhere), the
  /// flatness of its part: 1 on a sheet, 1 − √(λ₃/λ₂) on a closed part with the
  /// eigenvalues λ₁ ≥ λ₂ ≥ λ₃ of ∫(x − c)(x − c)ᵀ dA / A. APW's translational circulation
  /// and edge drag are a plate's (a thin edge that sheds): a thin closed card or coin keeps
  /// most of them (thickness t over chord L: 1 − √3 t/L), a sphere, a cube or an axisymmetric
  /// slender body none (their drag is GwtF's pressure and the friction).
  std::vector<double> plate;
  double plateWeight(size_t f) const { return plate.empty() ? 1.0 : plate[f]; }
  /// The rotational lift's tensor per part, S (6 × parts: xx, xy, xz, yy, yz, zz), m: each
  /// face's K = −n̂ S n̂ (liftTensor; for C_R = π), and the lift is k (C_R/π) (K ω) × u.
  /// Sheets: S = (π/2) Λ, Λ = √(3 M) with M = ∫(x − c)(x − c)ᵀ dA / A of the part, so a
  /// pitch rate about the in-plane axis e uses the half-chord across e, ℓ_m = √(3 mᵀ M m),
  /// m = n × e (a strip's half-chord; a square plate's ℓ either way). Closed parts: S = κ I,
  /// K = κ (I − n nᵀ), κ = (3/4) 3V/A (V, A the part's volume and area: a sphere's r,
  /// Rubinow & Keller; a slender round body's 1.5 r, not its length). Empty (K = 0) unless the
  /// model has a rotational lift (FluidModel::rotationalLift). Per part, not per face: a face's K
  /// follows from its normal (6 numbers a part instead of 9 a face, README "Memory").
  std::vector<double> lift;
  /// With `lift`: the connected part of each face (0 … parts − 1). The rotational lift takes
  /// each part's rotation relative to its oncoming flow (partRelativeRotation).
  std::vector<int> part;
  int parts = 0;
  /// `part` in the face kernel's layout (core/face_kernel.h), set by pack(): the part per
  /// face (the padding takes its group's last face's), and per group of kFaceLanes faces its
  /// part if it has one, else −1. Empty without `lift`.
  std::vector<int> partPad;
  std::vector<int> groupPart;
  /// Fills partPad and groupPart from part for faces padded to `padded`.
  void pack(int padded);
  /// The face kernel's cr K per face (6 × padded), kept between evaluations for bodies of
  /// up to kLiftCacheFaces faces (48 bytes a face) and formed again when cr changes or after
  /// forgetLiftTensors() (the normals or the parts' S changed). Empty: formed in the loop.
  static constexpr int kLiftCacheFaces = 65536;
  mutable std::vector<double> liftK;
  mutable double liftKcr = 0.0;  ///< the cr (C_R/π) liftK holds; 0: none
  void forgetLiftTensors() const { liftKcr = 0.0; }
};

/// K = −n̂ S n̂ (symmetric; s = S's upper triangle xx, xy, xz, yy, yz, zz) in the same
/// operations as the face kernel's (core/face_law_impl.h), so both give the same K.
inline Mat3 liftTensor(const double* s, const Vec3& n) {
  const double nx = n.x(), ny = n.y(), nz = n.z();
  // T = S n̂ (the entries K needs).
  const double t01 = s[2] * nx - s[0] * nz, t02 = s[0] * ny - s[1] * nx;
  const double t10 = s[3] * nz - s[4] * ny, t11 = s[4] * nx - s[1] * nz;
  const double t12 = s[1] * ny - s[3] * nx;
  const double t20 = s[4] * nz - s[5] * ny, t21 = s[5] * nx - s[2] * nz;
  const double t22 = s[2] * ny - s[4] * nx;
  Mat3 K;
  K(0, 0) = nz * t10 - ny * t20;
  K(0, 1) = nz * t11 - ny * t21;
  K(0, 2) = nz * t12 - ny * t22;
  K(1, 1) = nx * t21 - nz * t01;
  K(1, 2) = nx * t22 - nz * t02;
  K(2, 2) = ny * t02 - nx * t12;
  K(1, 0) = K(0, 1);
  K(2, 0) = K(0, 2);
  K(2, 1) = K(1, 2);
  return K;
}

/// A part's rotation relative to its oncoming flow, for the rotational lift: ω minus the
/// rate at which the flow direction at the part's centroid turns while the body moves
/// steadily (its centre of mass and ω constant in the world),
///   ω_r = ω − (u_c × a_c) / (|u_c|² + η² |q|²),  q = ω × (c − com),  a_c = ω × q,
/// u_c the part's mean velocity relative to the fluid (k-weighted over its faces, linear in
/// Y), η = kTurnRegularisation. A part about the centre of mass (a plate, a card) keeps ω
/// (APW's θ̇: the flow does not turn with it). A wing whirling round a seed's nut meets a
/// flow that turns with it; what is left is its roll about that flow, −Ω V u_c/|u_c|² for a
/// seed spinning at Ω and descending at V. (Thin-aerofoil theory would drop that roll too,
/// since it does not change the angle of attack; doing so lets the plates' flutter leave its
/// plane, README "Rotational lift relative to the flow", so it stays.) *W = ∂ω_r/∂Y (3 × 6)
/// if not null. u_c = v + ω × c + ō: c (body frame, about the origin), ō the part's mean
/// offset.
Vec3 partRelativeRotation(const Vec6& Y, const Vec3& c, const Vec3& com, const Vec3& meanOffset,
                          Eigen::Matrix<double, 3, 6>* W);
using Mat36 = Eigen::Matrix<double, 3, 6>;

/// Per part (law.parts) sums over its faces about the body origin: Σ k, Σ k x, Σ k |x|²
/// and, with per-face offsets, Σ k o. They do not depend on the body velocity: a step forms
/// them once (FluidModelInput::partSums) for all its evaluations.
struct PartSums {
  std::vector<double> k, kxx;
  std::vector<Vec3> kx, ko;
  bool perFace = false;  ///< ko holds the per-face offsets' sums (else offset applies)
};
/// The sums of `faces` with per-face offsets from `packed` (3 × faces.padded, core/face_kernel.h's
/// FaceOffsetPack) if not null.
void sumParts(const DragFaces& faces, const FlowLawFaces& law, const double* packed, PartSums* s);
/// Only the offsets' sums Σ k o of *s again (sumParts ends with it), from
/// `packed`, or none (perFace false) if it is null: the rest of *s stays (a rigid body's
/// faces and k do not change from one step to the next).
void sumPartOffsets(const DragFaces& faces, const FlowLawFaces& law, const double* packed,
                    PartSums* s);
/// Each part's relative rotation (partRelativeRotation) from its sums into *wr and, if W is
/// not null, its ∂ω_r/∂Y into *W; `offset` for every face unless s.perFace. A part whose
/// centroid is the centre of mass to round-off (within 1e-9 of its own rms radius) takes ω
/// itself, to the bit, and W = [I 0].
void partRotations(const PartSums& s, const Vec6& Y, const Vec3& com, const Vec3& offset,
                   std::vector<Vec3>* wr, std::vector<Mat36>* W);

/// η: where |u_c| → 0 the flow's turn rate stays below |ω|/(2η).
inline constexpr double kTurnRegularisation = 0.1;

inline constexpr double kBlasius = 1.328;  ///< laminar flat plate, C_f √Re per side
inline constexpr double kImai = 2.326;     ///< Imai 1957, C_f Re second-order term

/// Adds the law's wrench (torque about the body origin, force; body frame) at body velocity
/// Y to *F and, if J is not null, its analytic Jacobian ∂F/∂Y to *J. `offset`/`offsets` as
/// for addDragWrench (shape velocity minus the flow's remainder, body frame); `com` the
/// centre of mass (body frame; the rotational lift's relative rotation turns about it).
void addFlowLawWrench(const DragFaces& faces, const FlowLawFaces& law, const FlowLawCoefficients& c,
                      const Vec6& Y, const Vec3& com, const Vec3& offset, const Vec3* offsets,
                      Vec6* F, Mat6* J);

/// The per-face forces of addFlowLawWrench (body frame, N).
void flowLawFaceForces(const DragFaces& faces, const FlowLawFaces& law,
                       const FlowLawCoefficients& c, const Vec6& Y, const Vec3& com,
                       const Vec3& offset, const Vec3* offsets, std::vector<Vec3>* forces);

}  // namespace samara::core
