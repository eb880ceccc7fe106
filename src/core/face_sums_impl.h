// The face kernel's loop (core/face_kernel.h), included once per instruction set by
// face_sums_*.cpp with FACE_SUMS_NAME set to the function it defines. Only this file's own
// internal functions and compiler built-ins are used here: an inline function of a library
// header compiled for AVX2 could be chosen by the linker for code that runs anywhere.
// GCC's generic vectors: one operation acts on kLanes doubles, lowered to the instruction
// set the file is compiled for; each lane is ordinary IEEE arithmetic (no fused multiply-
// add: -ffp-contract=off), so every instruction set gives the same bits. Built with
// -fno-math-errno: sqrt is then one instruction (no result changes).
#include <cmath>
#include <cstring>

#include "core/face_sums.h"

namespace samara::core::face_sums {
namespace {

// FACE_SUMS_WIDTH lanes per instruction (2 SSE2, 4 AVX2, 8 AVX-512F); a group of kLanes
// faces is kLanes / FACE_SUMS_WIDTH vectors, each with running sums of its own.
constexpr int kW = FACE_SUMS_WIDTH;
constexpr int kParts = kLanes / kW;
static_assert(kParts * kW == kLanes, "the width divides the lanes");
using V = double __attribute__((vector_size(8 * kW)));

#define SAMARA_INLINE inline __attribute__((always_inline))

SAMARA_INLINE V load(const double* p) {
  V r;
  std::memcpy(&r, p, sizeof r);
  return r;
}

SAMARA_INLINE V vsqrt(V a) {
  V r{};  // every lane is written below; zeroed so gcc -O1 (tsan tree) sees it initialised
  for (int l = 0; l < kW; ++l) r[l] = std::sqrt(a[l]);
  return r;
}

/// The running sums: the wrench (6), Σ α a aᵀ (upper triangle, 21), Σ g cᵀ (36), and the
/// friction's isotropic part Σ kA, Σ kA x, Σ kA x xᵀ (10).
struct VSums {
  V F[6];
  V sym[21];
  V gen[36];
  V pm[10];
};

/// The relative velocity of the faces [i, i + kW) and the roots and the
/// reciprocal of its speed (computed a block ahead of their use: their latency overlaps).
struct Flow {
  V ux, uy, uz, s, rs, is;
};

template <bool kFriction, bool kJacobian, bool kOffsets>
SAMARA_INLINE void flowOf(const Input& in, size_t i, Flow* u) {
  const V x = load(in.x + i), y = load(in.y + i), z = load(in.z + i);
  V ux = in.v[0] + (in.w[1] * z - in.w[2] * y);
  V uy = in.v[1] + (in.w[2] * x - in.w[0] * z);
  V uz = in.v[2] + (in.w[0] * y - in.w[1] * x);
  if constexpr (kOffsets) {
    const size_t pad = in.padded;
    ux += load(in.off + i);
    uy += load(in.off + pad + i);
    uz += load(in.off + 2 * pad + i);
  } else {
    ux += in.o[0];
    uy += in.o[1];
    uz += in.o[2];
  }
  u->ux = ux;
  u->uy = uy;
  u->uz = uz;
  const V s = vsqrt(ux * ux + uy * uy + uz * uz);
  u->s = s;
  if constexpr (kFriction) u->rs = vsqrt(s);
  if constexpr (kJacobian) {
    const auto pos = s > 0.0;
    u->is = pos ? 1.0 / (pos ? s : 1.0) : 0.0;
  }
}

/// Adds the faces [i, i + kW) with their flow to the sums.
template <bool kFriction, bool kJacobian>
SAMARA_INLINE void addGroup(const Input& in, size_t i, const Flow& u, VSums* S) {
  const V x = load(in.x + i), y = load(in.y + i), z = load(in.z + i);
  const V nx = load(in.nx + i), ny = load(in.ny + i), nz = load(in.nz + i);
  const V k = load(in.k + i);
  const V ux = u.ux, uy = u.uy, uz = u.uz, s = u.s;
  const V un = ux * nx + uy * ny + uz * nz;
  const V a[6] = {load(in.mx + i), load(in.my + i), load(in.mz + i), nx, ny, nz};
  const V pr = k * s * un;
  for (int j = 0; j < 6; ++j) S->F[j] -= pr * a[j];
  V kA{};
  const V rs = u.rs;
  V ut[3]{};
  V xut[3]{};
  if constexpr (kFriction) {
    kA = k * ((in.fr * load(in.c1 + i)) * rs + in.fr * load(in.c2 + i));
    ut[0] = ux - un * nx;
    ut[1] = uy - un * ny;
    ut[2] = uz - un * nz;
    xut[0] = y * ut[2] - z * ut[1];
    xut[1] = z * ut[0] - x * ut[2];
    xut[2] = x * ut[1] - y * ut[0];
    for (int j = 0; j < 3; ++j) {
      S->F[j] -= kA * xut[j];
      S->F[3 + j] -= kA * ut[j];
    }
  }
  if constexpr (kJacobian) {
    // ∂f/∂u = −k A I + k (A − s) n nᵀ − k (u_n n + c' u_t) ûᵀ, c' = c₁/(2√s); the wrench
    // Jacobian is Q (∂f/∂u) Qᵀ with Q = [x̂; I].
    const V alpha = kA - k * s;
    V aa[6];
    for (int j = 0; j < 6; ++j) aa[j] = alpha * a[j];
    int q = 0;
    for (int r = 0; r < 6; ++r) {
      for (int c = r; c < 6; ++c) S->sym[q++] += aa[r] * a[c];
    }
    const V is = u.is;
    const V uhx = ux * is, uhy = uy * is, uhz = uz * is;
    const V c[6] = {y * uhz - z * uhy, z * uhx - x * uhz, x * uhy - y * uhx, uhx, uhy, uhz};
    V g[6];
    const V kun = -(k * un);
    for (int j = 0; j < 6; ++j) g[j] = kun * a[j];
    if constexpr (kFriction) {
      const V kcp = (0.5 * in.fr) * k * load(in.c1 + i) * rs * is;
      for (int j = 0; j < 3; ++j) {
        g[j] -= kcp * xut[j];
        g[3 + j] -= kcp * ut[j];
      }
      S->pm[0] += kA;
      const V kx = kA * x, ky = kA * y, kz = kA * z;
      S->pm[1] += kx;
      S->pm[2] += ky;
      S->pm[3] += kz;
      S->pm[4] += kx * x;
      S->pm[5] += kx * y;
      S->pm[6] += kx * z;
      S->pm[7] += ky * y;
      S->pm[8] += ky * z;
      S->pm[9] += kz * z;
    }
    for (int r = 0; r < 6; ++r) {
      for (int cc = 0; cc < 6; ++cc) S->gen[6 * r + cc] += g[r] * c[cc];
    }
  }
}

template <bool kFriction, bool kJacobian, bool kOffsets>
SAMARA_INLINE void sumFaces(const Input& in, VSums (&S)[kParts]) {
  constexpr size_t kBlock = 8;  // groups whose flow is computed ahead
  const size_t n = in.padded;
  Flow u[kBlock];
  for (size_t b = 0; b < n; b += kBlock * kW) {
    const size_t groups = (n - b) / kW < kBlock ? (n - b) / kW : kBlock;
    for (size_t g = 0; g < groups; ++g) {
      flowOf<kFriction, kJacobian, kOffsets>(in, b + g * kW, &u[g]);
    }
    for (size_t g = 0; g < groups; ++g) {
      const size_t i = b + g * kW;
      addGroup<kFriction, kJacobian>(in, i, u[g], &S[(i / kW) % kParts]);
    }
  }
}

template <bool kFriction, bool kJacobian>
SAMARA_INLINE void sumOffsets(const Input& in, VSums (&S)[kParts]) {
  if (in.off != nullptr) {
    sumFaces<kFriction, kJacobian, true>(in, S);
  } else {
    sumFaces<kFriction, kJacobian, false>(in, S);
  }
}

/// Part p's running sums v[0..n) into lanes [p kW, (p + 1) kW) of out[0..n).
SAMARA_INLINE void store(const V* v, int n, int p, double (*out)[kLanes]) {
  for (int j = 0; j < n; ++j) std::memcpy(out[j] + p * kW, &v[j], sizeof v[j]);
}

// sin(x) for |x| < 2⁵⁰ to about 1 ulp without a library call: x = q π/2 + r with π/2 in
// three parts (Cody–Waite, fdlibm's constants), then fdlibm's polynomials for sin and cos on
// |r| ≤ π/4, chosen by q mod 4.
using I = long long __attribute__((vector_size(8 * kW)));

SAMARA_INLINE V vsin(V x) {
  constexpr double kTwoOverPi = 6.36619772367581382433e-01;
  constexpr double kRound = 6755399441055744.0;
  constexpr double kP1 = 1.57079632673412561417e+00;
  constexpr double kP2 = 6.07710050630396597660e-11;
  constexpr double kP3 = 2.02226624879595063154e-21;
  const V t = x * kTwoOverPi + kRound;
  const V q = t - kRound;
  I bits;
  std::memcpy(&bits, &t, sizeof t);  // t = 1.5·2⁵² + q: q mod 4 in the low bits
  const I quadrant = bits & 3;
  const V r = ((x - q * kP1) - q * kP2) - q * kP3;
  const V z = r * r;
  const V sinR =
      r + (r * z) *
              (-1.66666666666666324348e-01 +
               z * (8.33333333332248946124e-03 +
                    z * (-1.98412698298579493134e-04 +
                         z * (2.75573137070700676789e-06 + z * (-2.50507602534068634195e-08 +
                                                                z * 1.58969099521155010221e-10)))));
  const V cosR =
      (1.0 - 0.5 * z) +
      (z * z) *
          (4.16666666666666019037e-02 +
           z * (-1.38888888888741095749e-03 +
                z * (2.48015872894767294178e-05 +
                     z * (-2.75573143513906633035e-07 +
                          z * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))));
  const V v = (quadrant & 1) != 0 ? cosR : sinR;
  return (quadrant & 2) != 0 ? -v : v;
}

/// waves() for M modes known at compile time: the M sines first, as independent chains
/// the processor can overlap (each is some 30 dependent operations), then summed in mode
/// order as waves() does: the same bits. BM_GustWaves, 8 modes: AVX-512 19.0 → 16.5 ns per
/// point, AVX2 29.1 → 26.3; SSE2 68 → 77 (its 16 registers spill), so not there.
template <int M>
SAMARA_INLINE void wavesFixed(const GustInput& in, V x, V y, V z, V* ux, V* uy, V* uz) {
  V s[M];
#pragma GCC unroll 16
  for (int m = 0; m < M; ++m) {
    const double* md = in.mode + 7 * m;
    s[m] = vsin(((md[0] * x + md[1] * y) + md[2] * z) + md[6]);
  }
  *ux = *uy = *uz = V{};
#pragma GCC unroll 16
  for (int m = 0; m < M; ++m) {
    const double* md = in.mode + 7 * m;
    *ux += md[3] * s[m];
    *uy += md[4] * s[m];
    *uz += md[5] * s[m];
  }
}

/// Σ_m d_m sin(k_m · x + c_m) at the points of one vector.
SAMARA_INLINE void waves(const GustInput& in, V x, V y, V z, V* ux, V* uy, V* uz) {
  if (kW >= 4 && in.modes == 8) {  // GustField::kModes
    wavesFixed<8>(in, x, y, z, ux, uy, uz);
    return;
  }
  *ux = *uy = *uz = V{};
  for (int m = 0; m < in.modes; ++m) {
    const double* md = in.mode + 7 * m;
    const V s = vsin(((md[0] * x + md[1] * y) + md[2] * z) + md[6]);
    *ux += md[3] * s;
    *uy += md[4] * s;
    *uz += md[5] * s;
  }
}

/// One vector of points: the waves stored, or (with in.rot) at the points moved to the world
/// and subtracted back in the body frame.
SAMARA_INLINE void gustPoint(const GustInput& in, V x, V y, V z, V* ox, V* oy, V* oz) {
  if (in.rot == nullptr) {
    waves(in, x, y, z, ox, oy, oz);
    return;
  }
  const double* r = in.rot;
  const V wx = ((r[0] * x + r[1] * y) + r[2] * z) + in.pos[0];
  const V wy = ((r[3] * x + r[4] * y) + r[5] * z) + in.pos[1];
  const V wz = ((r[6] * x + r[7] * y) + r[8] * z) + in.pos[2];
  V ux, uy, uz;
  waves(in, wx, wy, wz, &ux, &uy, &uz);
  ux += in.shift[0];
  uy += in.shift[1];
  uz += in.shift[2];
  *ox -= (r[0] * ux + r[3] * uy) + r[6] * uz;
  *oy -= (r[1] * ux + r[4] * uy) + r[7] * uz;
  *oz -= (r[2] * ux + r[5] * uy) + r[8] * uz;
}

}  // namespace

void FACE_GUST_NAME(const GustInput& in) {
  const std::size_t whole = in.n / kW * kW;
  for (std::size_t i = 0; i < whole; i += kW) {
    V ux{}, uy{}, uz{};
    if (in.rot != nullptr) {
      ux = load(in.ux + i);
      uy = load(in.uy + i);
      uz = load(in.uz + i);
    }
    gustPoint(in, load(in.x + i), load(in.y + i), load(in.z + i), &ux, &uy, &uz);
    std::memcpy(in.ux + i, &ux, sizeof ux);
    std::memcpy(in.uy + i, &uy, sizeof uy);
    std::memcpy(in.uz + i, &uz, sizeof uz);
  }
  for (std::size_t i = whole; i < in.n; ++i) {  // the rest one lane at a time
    V x{}, y{}, z{}, ux{}, uy{}, uz{};
    x[0] = in.x[i];
    y[0] = in.y[i];
    z[0] = in.z[i];
    if (in.rot != nullptr) {
      ux[0] = in.ux[i];
      uy[0] = in.uy[i];
      uz[0] = in.uz[i];
    }
    gustPoint(in, x, y, z, &ux, &uy, &uz);
    in.ux[i] = ux[0];
    in.uy[i] = uy[0];
    in.uz[i] = uz[0];
  }
}

namespace {

/// The sums into *out: without the Jacobian only the wrench's (the rest of *out is not
/// written, and the unused running sums are neither zeroed nor stored).
template <bool kJacobian>
SAMARA_INLINE void sumInto(const Input& in, bool friction, Sums* out) {
  VSums S[kParts]{};
  if (friction) {
    sumOffsets<true, kJacobian>(in, S);
  } else {
    sumOffsets<false, kJacobian>(in, S);
  }
  for (int p = 0; p < kParts; ++p) {
    store(S[p].F, 6, p, out->F);
    if constexpr (kJacobian) {
      store(S[p].sym, 21, p, out->sym);
      store(S[p].gen, 36, p, out->gen);
      store(S[p].pm, 10, p, out->pm);
    }
  }
}

}  // namespace

void FACE_SUMS_NAME(const Input& in, bool friction, bool jacobian, Sums* out) {
  jacobian ? sumInto<true>(in, friction, out) : sumInto<false>(in, friction, out);
}

namespace {

/// What QuadInput subtracts from component j at offsets d (T = V: a vector of points, or
/// double: one point).
template <typename T>
SAMARA_INLINE T quadTerm(const double* q, T dx, T dy, T dz) {
  const T quad =
      (((q[4] * dx + q[5] * dy) + q[6] * dz) * dx + (q[7] * dy + q[8] * dz) * dy) + q[9] * dz * dz;
  return (q[0] + ((q[1] * dx + q[2] * dy) + q[3] * dz)) + quad;
}

}  // namespace

void FACE_BOX_NAME(BoxInput* in) {
  const std::size_t whole = in->n / kW * kW;
  const double* p[3] = {in->x, in->y, in->z};
  for (int j = 0; j < 3; ++j) {
    double lo = p[j][0], hi = p[j][0];
    if (whole > 0) {
      V vlo = load(p[j]), vhi = vlo;
      for (std::size_t i = kW; i < whole; i += kW) {
        const V v = load(p[j] + i);
        vlo = v < vlo ? v : vlo;
        vhi = v > vhi ? v : vhi;
      }
      for (int l = 0; l < kW; ++l) {
        lo = vlo[l] < lo ? vlo[l] : lo;
        hi = vhi[l] > hi ? vhi[l] : hi;
      }
    }
    for (std::size_t i = whole; i < in->n; ++i) {
      lo = p[j][i] < lo ? p[j][i] : lo;
      hi = p[j][i] > hi ? p[j][i] : hi;
    }
    in->lo[j] = lo;
    in->hi[j] = hi;
  }
}

void FACE_QUAD_NAME(const QuadInput& in) {
  const std::size_t whole = in.n / kW * kW;
  double* out[3] = {in.ox, in.oy, in.oz};
  const double* p[3] = {in.x, in.y, in.z};
  const QuadInput q = in;  // a local copy: the stores below cannot alias its coefficients
  for (std::size_t i = 0; i < whole; i += kW) {
    const V dx = load(p[0] + i) - q.c[0], dy = load(p[1] + i) - q.c[1],
            dz = load(p[2] + i) - q.c[2];
    for (int j = 0; j < 3; ++j) {
      const V o = load(out[j] + i) - quadTerm(q.coef[j], dx, dy, dz);
      std::memcpy(out[j] + i, &o, sizeof o);
    }
  }
  for (std::size_t i = whole; i < q.n; ++i) {  // the rest one at a time, the same expressions
    const double dx = p[0][i] - q.c[0], dy = p[1][i] - q.c[1], dz = p[2][i] - q.c[2];
    for (int j = 0; j < 3; ++j) out[j][i] -= quadTerm(q.coef[j], dx, dy, dz);
  }
}

void FACE_QUOTIENT_NAME(const QuotientInput& in) {
  const std::size_t whole = in.n / kW * kW;
  for (std::size_t i = 0; i < whole; i += kW) {
    const V q = (in.b != nullptr ? load(in.a + i) - load(in.b + i) : load(in.a + i)) / in.d;
    std::memcpy(in.out + i, &q, sizeof q);
  }
  for (std::size_t i = whole; i < in.n; ++i) {
    in.out[i] = (in.b != nullptr ? in.a[i] - in.b[i] : in.a[i]) / in.d;
  }
}

void FACE_OUTER_NAME(const OuterInput& in, double (*out)[kLanes]) {
  V S[kParts][21];
  for (int p = 0; p < kParts; ++p) {
    for (int j = 0; j < 21; ++j) std::memcpy(&S[p][j], out[j] + p * kW, sizeof S[p][j]);
  }
  for (std::size_t i = 0; i < in.n; i += kW) {
    const V a[6] = {load(in.mx + i), load(in.my + i), load(in.mz + i),
                    load(in.nx + i), load(in.ny + i), load(in.nz + i)};
    const V w = load(in.w + i);
    V* s = S[(i / kW) % kParts];
    int q = 0;
    for (int r = 0; r < 6; ++r) {
      const V war = w * a[r];
      for (int c = r; c < 6; ++c) s[q++] += war * a[c];
    }
  }
  for (int p = 0; p < kParts; ++p) store(S[p], 21, p, out);
}

}  // namespace samara::core::face_sums
