#pragma once
// Internal to the face kernel (core/face_kernel.cpp): the per-face sums of the wrench and
// its Jacobian, one function per instruction set with identical results. Plain data only
// (the instruction-set files include nothing else).
#include <cstddef>

namespace samara::core::face_sums {

inline constexpr int kLanes = 8;  ///< faces per group: face f adds to running sum f mod kLanes

/// The faces (arrays of `padded` entries, a multiple of kLanes), the law's coefficients and
/// the body velocity.
struct Input {
  const double *x, *y, *z, *nx, *ny, *nz, *mx, *my, *mz, *k;
  const double* c1;   ///< friction c₁ per face (null without friction)
  const double* c2;   ///< friction c₂ per face
  const double* off;  ///< per-face offsets, 3 × padded (x, then y, then z), or null
  std::size_t padded;
  double fr;    ///< friction scale
  double w[3];  ///< ω
  double v[3];  ///< v
  double o[3];  ///< the offset of every face when off is null
};

/// The running sums per lane: the wrench (6), Σ α a aᵀ (upper triangle row by row, 21),
/// Σ g cᵀ (row-major, 36), and the friction's isotropic part Σ kA, Σ kA x (3), Σ kA x xᵀ
/// (xx, xy, xz, yy, yz, zz) (10).
struct Sums {
  double F[6][kLanes];
  double sym[21][kLanes];
  double gen[36][kLanes];
  double pm[10][kLanes];
};

/// The whole law of core/flow_law.h (face_law_impl.h): `base` as for the pressure and
/// friction sums (c1, c2 required); C_T/2, C_D0/2 (times `plate` per face), and scs = Re_c/2.326
/// (the fading speed of a face is scs c2, c2 the face's unscaled 2.326 ν/L). With `lift` (S per
/// part, 6 × parts: xx, xy, xz, yy, yz, zz; a face's K = −n̂ S n̂, scaled by cr = C_R/π): the
/// rotational lift, each face turning at its part's ω_r (wr, 3 per part); part per face
/// (padded), groupPart per group of kLanes faces (its part if all are of one part, else −1),
/// and, with the Jacobian, acc (parts × 18 × kLanes, added to) for Q ∂f/∂ω_r per part.
struct LawInput {
  Input base;
  double hct, hcd0, scs, cr;
  const double* plate;  ///< C_T and C_D0's weight per face (padded), or null (1)
  const double* lift;
  const int* part;
  const int* groupPart;
  const double* wr;
  double* acc;
  /// With `lift`: each face's K times cr formed beforehand (6 × padded: xx, xy, xz, yy, yz,
  /// zz; liftTensors'), or null (formed in the loop; the same bits).
  const double* liftK = nullptr;
};

/// The law's running sums per lane: the wrench (6), Σ (Q h)(Q û)ᵀ and Σ (Q m) aᵀ (row-major,
/// 36 each), Σ α (1), Σ α x (3), Σ α x xᵀ (6), and for z = g k w_p: Σ z (3), Σ z xᵀ
/// (row-major, 9), Σ ⟨x, z⟩ (1), Σ ⟨x, z⟩ x (3).
struct LawSums {
  double F[6][kLanes];
  double gh[36][kLanes];
  double gm[36][kLanes];
  double pm[10][kLanes];
  double hz[16][kLanes];
};

/// A sum of travelling waves at n points (core/gusts.h): u = Σ_m d_m sin(k_m · x + c_m),
/// modes summed in order; mode m is mode[7m .. 7m + 7) = (k, d, c). With `rot` (a
/// row-major rotation R) the points are in a body frame, at R x + pos in the world, and
/// the result is subtracted in the body frame instead of stored: u −= Rᵀ (u(R x + pos) + shift).
struct GustInput {
  std::size_t n;
  const double *x, *y, *z;
  int modes;
  const double* mode;
  double *ux, *uy, *uz;
  const double* rot = nullptr;
  double pos[3] = {0.0, 0.0, 0.0};
  double shift[3] = {0.0, 0.0, 0.0};
};

/// A quadratic flow about a centre c subtracted at n points (core/gusts.h,
/// GustSampling::kQuadratic): with d = x − c, for each component j and coefficients
/// q = coef[j] = (u, g_x, g_y, g_z, h_xx, h_xy, h_xz, h_yy, h_yz, h_zz):
/// o_j −= (u + ((g_x d_x + g_y d_y) + g_z d_z)) + (((h_xx d_x + h_xy d_y) + h_xz d_z) d_x
/// + (h_yy d_y + h_yz d_z) d_y) + h_zz d_z d_z.
struct QuadInput {
  std::size_t n;
  const double *x, *y, *z;
  double c[3];
  double coef[3][10];
  double *ox, *oy, *oz;
};

/// The componentwise extremes lo and hi of n ≥ 1 points.
struct BoxInput {
  std::size_t n;
  const double *x, *y, *z;
  double lo[3], hi[3];
};

/// Σ w a aᵀ over n faces (n a multiple of kLanes; a = (mx, my, mz, nx, ny, nz)) added to the
/// running sums per lane: the upper triangle row by row (21).
struct OuterInput {
  std::size_t n;
  const double *mx, *my, *mz, *nx, *ny, *nz, *w;
};

void sumSse2(const Input& in, bool friction, bool jacobian, Sums* out);
void sumAvx2(const Input& in, bool friction, bool jacobian, Sums* out);
void sumAvx512(const Input& in, bool friction, bool jacobian, Sums* out);
/// cr K of every face of `in` (in.lift required) into out (6 × padded), as the law's loop
/// forms them.
void liftTensorsSse2(const LawInput& in, double* out);
void liftTensorsAvx2(const LawInput& in, double* out);
void liftTensorsAvx512(const LawInput& in, double* out);
void lawSse2(const LawInput& in, bool jacobian, LawSums* out);
void lawAvx2(const LawInput& in, bool jacobian, LawSums* out);
void lawAvx512(const LawInput& in, bool jacobian, LawSums* out);
void gustSse2(const GustInput& in);
void gustAvx2(const GustInput& in);
void gustAvx512(const GustInput& in);
/// out[i] = (a[i] − b[i]) / d, or a[i] / d when b is null, for i < n (out may be a).
struct QuotientInput {
  std::size_t n;
  const double* a;
  const double* b;
  double d;
  double* out;
};

void quotientSse2(const QuotientInput& in);
void quotientAvx2(const QuotientInput& in);
void quotientAvx512(const QuotientInput& in);
void quadSse2(const QuadInput& in);
void quadAvx2(const QuadInput& in);
void quadAvx512(const QuadInput& in);
void boxSse2(BoxInput* in);
void boxAvx2(BoxInput* in);
void boxAvx512(BoxInput* in);
void outerSse2(const OuterInput& in, double (*out)[kLanes]);
void outerAvx2(const OuterInput& in, double (*out)[kLanes]);
void outerAvx512(const OuterInput& in, double (*out)[kLanes]);

}  // namespace samara::core::face_sums
