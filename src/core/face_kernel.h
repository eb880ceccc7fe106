#pragma once
// The per-face force law's hot loop (issue 17): over the face data in structure-of-arrays
// form (DragFaces, padded to whole groups of kFaceLanes faces), the wrench with its 6×6
// Jacobian in one pass. Faces are summed in kFaceLanes independent running sums (face f into lane f
// mod kFaceLanes) that are added in a fixed order at the end, so the compiler's SSE2, AVX2 or
// AVX-512 code all give the same bits (no fused multiply-add: -ffp-contract=off).
#include <vector>

#include "core/flow_law.h"
#include "core/forces.h"

namespace samara::core {

/// Per-face velocity offsets (shape velocity minus the flow's remainder, body frame) in
/// the layout of DragFaces: ox, oy, oz of `padded` entries each, zero on the padding.
struct FaceOffsetPack {
  std::vector<double> o;  ///< 3 × padded: x components, then y, then z
  void assign(const DragFaces& faces, const std::vector<Vec3>& offsets);
  std::vector<Vec3> unpack(const DragFaces& faces) const;  ///< one per face (not the padding)
};

/// The wrench of the law −k s u_n n − k (c₁√s + c₂)·friction·u_t per face (torque about
/// the body origin, force; body frame) at body velocity Y, u = ω × x + v + offset (or the
/// per-face `offsets` when not null), added to *F, and if J is not null its Jacobian ∂F/∂Y
/// added to *J. Without `law` (or with friction = 0): GwtF's kernel (addDragWrench);
/// otherwise core/flow_law.h's law with C_T = C_R = 0, its fric and visc (c₁, c₂) of at
/// least faces.padded entries. Same mathematics as those, other rounding.
/// The instruction sets the kernel is compiled for; each gives the same bits.
enum class FaceKernelIsa { kSse2, kAvx2, kAvx512 };
bool faceKernelSupported(FaceKernelIsa isa);  ///< by this processor and its OS
FaceKernelIsa bestFaceKernelIsa();            ///< the widest supported
const char* faceKernelIsaName(FaceKernelIsa isa);

void addPackedFaceWrench(const DragFaces& faces, const FlowLawFaces* law, double friction,
                         const Vec6& Y, const Vec3& offset, const FaceOffsetPack* offsets, Vec6* F,
                         Mat6* J, FaceKernelIsa isa = bestFaceKernelIsa());

/// The whole law of core/flow_law.h with coefficients c (addFlowLawWrench's wrench and
/// Jacobian to round-off): law.fric and law.visc padded, and for a rotational lift (law.lift
/// not empty, c.cr ≠ 0) law.pack() done, and the parts' sums of these faces and offsets
/// (sumParts) in `sums`, or null to form them here. The same bits on every instruction set.
void addPackedLawWrench(const DragFaces& faces, const FlowLawFaces& law,
                        const FlowLawCoefficients& c, const Vec6& Y, const Vec3& com,
                        const Vec3& offset, const FaceOffsetPack* offsets, const PartSums* sums,
                        Vec6* F, Mat6* J, FaceKernelIsa isa = bestFaceKernelIsa());

/// Σ_m d_m sin(k_m · x + c_m) at n points (world; arrays per component) into ux, uy, uz, the
/// modes in order, mode m = mode[7m .. 7m + 7) = (k, d, c): the gust field's loop
/// (core/gusts.h), on the same instruction sets as the face kernel, the same bits on each
/// and for any n (a point's result does not depend on its neighbours). Its sine: Cody–Waite
/// reduction and fdlibm's polynomials, within 2 ulp of the library's.
void waveSum(std::size_t n, const double* x, const double* y, const double* z, int modes,
             const double* mode, double* ux, double* uy, double* uz,
             FaceKernelIsa isa = bestFaceKernelIsa());

/// The same waves at n body-frame points c (arrays per component), subtracted in the body
/// frame: o −= Rᵀ (u(R c + b) + shift) (the flow's share of each face's velocity offset).
void subtractWavesInBody(std::size_t n, const double* cx, const double* cy, const double* cz,
                         const Mat3& R, const Vec3& b, const Vec3& shift, int modes,
                         const double* mode, double* ox, double* oy, double* oz,
                         FaceKernelIsa isa = bestFaceKernelIsa());

/// out[i] = (a[i] − b[i]) / d (a[i] / d when b is null) for i < n, vectorised: each quotient
/// the correctly rounded one, as a scalar loop gives it. out may be a.
void quotients(std::size_t n, const double* a, const double* b, double d, double* out,
               FaceKernelIsa isa = bestFaceKernelIsa());

/// The componentwise extremes of n ≥ 1 points (one array per component).
void pointBox(std::size_t n, const double* x, const double* y, const double* z, Vec3* lo, Vec3* hi,
              FaceKernelIsa isa = bestFaceKernelIsa());

/// A quadratic flow about c subtracted at n points: with d = x − c, for each component j
/// and q = coef[j] = (u, g (3), h_xx, h_xy, h_xz, h_yy, h_yz, h_zz), o_j −= u + g·d +
/// h_xx d_x² + h_xy d_x d_y + h_xz d_x d_z + h_yy d_y² + h_yz d_y d_z + h_zz d_z² (the same
/// bits on every instruction set).
void subtractQuadratic(std::size_t n, const double* x, const double* y, const double* z,
                       const Vec3& c, const double (&coef)[3][10], double* ox, double* oy,
                       double* oz, FaceKernelIsa isa = bestFaceKernelIsa());

/// Σ w_f a_f a_fᵀ over the faces listed in `faces` (n of them; all faces in order when
/// null), a_f = (x × n, n): the added mass per unit δ and ρ_f (GwtF Alg. 5). Exactly
/// symmetric; the same bits on every instruction set.
Mat6 weightedOuterSum(const DragFaces& d, const double* w, const int* faces, size_t n,
                      FaceKernelIsa isa = bestFaceKernelIsa());

}  // namespace samara::core
