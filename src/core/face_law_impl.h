// The face kernel's loop for the whole law of core/flow_law.h (circulation, rotational lift,
// isotropic drag, their fading below Re_c), included after face_sums_impl.h by the
// face_sums_*.cpp files with FACE_LAW_NAME set to the function it defines; it uses that
// file's vector helpers. Same rules: GCC's generic vectors, no fused multiply-add, each lane
// its own running sums, so every instruction set gives the same bits.
//
// Per face (u relative to the fluid, s = |u|, û = u/s, u_n = ⟨u, n⟩, g the fading, w_p = K ω_r):
//   f = −k s u_n (1 + g C_T/2) n − k A u_t + (g k C_T/2 u_n²/s − k C_D0/2 s) u + g k w_p × u
//   ∂f/∂u = α I + g k [w_p]× + h ûᵀ + m nᵀ,  ∂f/∂ω_r = −g k [u]× K,
// with α = −k A + g k C_T/2 u_n²/s − k C_D0/2 s, β = k A − k s (1 + g C_T/2),
//   h = −k u_n (1 + g C_T/2) n − k c′ u_t − (g k C_T/2 u_n²/s + k C_D0/2 s) û + g′ f_c,
//   m = β n + g k C_T u_n û  (core/flow_law.cpp's ∂f/∂u regrouped).
// The wrench's Jacobian is Q (∂f/∂u) Qᵀ + Q (∂f/∂ω_r) W_p with Q = [x̂; I]: the terms
// Σ (Q h)(Q û)ᵀ and Σ (Q m)(Q n)ᵀ as general sums, Σ α Q Qᵀ and Σ Q [z]× Qᵀ (z = g k w_p) as
// moments, and Q ∂f/∂ω_r per part (its W_p is applied after the loop).
namespace samara::core::face_sums {
namespace {

struct VLawSums {
  V F[6];
  V gh[36];
  V gm[36];
  V pm[10];
  V hz[16];
};

/// ω_r of the faces [i, i + kW): their part's, broadcast when the group has one part.
SAMARA_INLINE void partRotation(const LawInput& in, size_t i, V* wx, V* wy, V* wz) {
  const int gp = in.groupPart[i / kLanes];
  if (gp >= 0) {
    const double* w = in.wr + 3 * gp;
    *wx = V{} + w[0];
    *wy = V{} + w[1];
    *wz = V{} + w[2];
    return;
  }
  for (int l = 0; l < kW; ++l) {
    const double* w = in.wr + 3 * in.part[i + static_cast<size_t>(l)];
    (*wx)[l] = w[0];
    (*wy)[l] = w[1];
    (*wz)[l] = w[2];
  }
}

/// K = −n̂ S n̂ of the faces [i, i + kW) (6: xx, xy, xz, yy, yz, zz), S their part's (in.lift),
/// in core/flow_law.h's liftTensor's operations.
SAMARA_INLINE void partLift(const LawInput& in, size_t i, V nx, V ny, V nz, V (&K)[6]) {
  V s[6];
  const int gp = in.groupPart[i / kLanes];
  if (gp >= 0) {
    const double* S = in.lift + 6 * gp;
    for (int j = 0; j < 6; ++j) s[j] = V{} + S[j];
  } else {
    for (int l = 0; l < kW; ++l) {
      const double* S = in.lift + 6 * in.part[i + static_cast<size_t>(l)];
      for (int j = 0; j < 6; ++j) s[j][l] = S[j];
    }
  }
  const V t01 = s[2] * nx - s[0] * nz, t02 = s[0] * ny - s[1] * nx;
  const V t10 = s[3] * nz - s[4] * ny, t11 = s[4] * nx - s[1] * nz;
  const V t12 = s[1] * ny - s[3] * nx;
  const V t20 = s[4] * nz - s[5] * ny, t21 = s[5] * nx - s[2] * nz;
  const V t22 = s[2] * ny - s[4] * nx;
  K[0] = nz * t10 - ny * t20;
  K[1] = nz * t11 - ny * t21;
  K[2] = nz * t12 - ny * t22;
  K[3] = nx * t21 - nz * t01;
  K[4] = nx * t22 - nz * t02;
  K[5] = ny * t02 - nx * t12;
}

/// Adds the 18 entries of Q ∂f/∂ω_r ([x̂ D; D] row-major) of the faces [i, i + kW) to their
/// parts' running sums (lane i mod kLanes of in.acc[part][j]).
SAMARA_INLINE void addPartSums(const LawInput& in, size_t i, const V (&G)[18]) {
  const int gp = in.groupPart[i / kLanes];
  const size_t lane = i % kLanes;
  if (gp >= 0) {
    double* acc = in.acc + static_cast<size_t>(gp) * 18 * kLanes + lane;
    for (int j = 0; j < 18; ++j) {
      V s = load(acc + j * kLanes);
      s += G[j];
      std::memcpy(acc + j * kLanes, &s, sizeof s);
    }
    return;
  }
  for (int l = 0; l < kW; ++l) {
    double* acc = in.acc + static_cast<size_t>(in.part[i + static_cast<size_t>(l)]) * 18 * kLanes +
                  lane + static_cast<size_t>(l);
    for (int j = 0; j < 18; ++j) acc[j * kLanes] += G[j][l];
  }
}

/// Q ∂f/∂ω_r = [x̂ D; D] of the faces [i, i + kW) to their parts' sums: D = −g k [u]× K,
/// column j = q (u × K_j), q = −g k.
SAMARA_INLINE void addLiftPartSums(const LawInput& in, size_t i, const V (&K)[6], V q, V ux, V uy,
                                   V uz, V x, V y, V z) {
  const V Kc[3][3] = {{K[0], K[1], K[2]}, {K[1], K[3], K[4]}, {K[2], K[4], K[5]}};
  V D[3][3];
  for (int j = 0; j < 3; ++j) {
    const V kx = Kc[0][j], ky = Kc[1][j], kz = Kc[2][j];
    D[0][j] = q * (uy * kz - uz * ky);
    D[1][j] = q * (uz * kx - ux * kz);
    D[2][j] = q * (ux * ky - uy * kx);
  }
  V G[18];
  for (int j = 0; j < 3; ++j) {
    G[0 + j] = y * D[2][j] - z * D[1][j];
    G[3 + j] = z * D[0][j] - x * D[2][j];
    G[6 + j] = x * D[1][j] - y * D[0][j];
    G[9 + j] = D[0][j];
    G[12 + j] = D[1][j];
    G[15 + j] = D[2][j];
  }
  addPartSums(in, i, G);
}

template <bool kJacobian, bool kLift>
SAMARA_INLINE void addLawGroup(const LawInput& in, size_t i, const Flow& u, VLawSums* S) {
  const Input& b = in.base;
  const V x = load(b.x + i), y = load(b.y + i), z = load(b.z + i);
  const V nx = load(b.nx + i), ny = load(b.ny + i), nz = load(b.nz + i);
  const V k = load(b.k + i);
  const V ux = u.ux, uy = u.uy, uz = u.uz, s = u.s, rs = u.rs, is = u.is;
  const V un = ux * nx + uy * ny + uz * nz;
  const V c2 = load(b.c2 + i);
  const V kA = k * ((b.fr * load(b.c1 + i)) * rs + b.fr * c2);
  const V utx = ux - un * nx, uty = uy - un * ny, utz = uz - un * nz;
  // g = s/(s + s_c), s_c = Re_c ν/L (1 where Re_c = 0).
  const V sc = in.scs * c2;
  const auto fades = sc > 0.0;
  const V g = fades ? s / (fades ? s + sc : 1.0) : 1.0;
  const V gk = g * k;
  // C_T/2 and C_D0/2 of the face (its part's flatness).
  const V pw = in.plate != nullptr ? load(in.plate + i) : V{} + 1.0;
  const V hct = in.hct * pw, hcd0 = in.hcd0 * pw;
  const V ct = hct * (un * un) * is;  // C_T/2 u_n²/s
  const V fn = -(k * s * un) * (1.0 + g * hct);
  const V fu = gk * ct - k * (hcd0 * s);
  // f_c (the faded part, for g′) = −k C_T/2 u_n s n + k C_T/2 u_n²/s u + k w_p × u.
  V wpx{}, wpy{}, wpz{}, rx{}, ry{}, rz{};
  V K[6];  // set under kLift (zeroing it costs a rep stos per group)
  if constexpr (kLift) {
    V wx, wy, wz;
    partRotation(in, i, &wx, &wy, &wz);
    if (in.liftK != nullptr) {
      for (int j = 0; j < 6; ++j) K[j] = load(in.liftK + static_cast<size_t>(j) * b.padded + i);
    } else {
      partLift(in, i, nx, ny, nz, K);
      for (int j = 0; j < 6; ++j) K[j] = in.cr * K[j];
    }
    wpx = K[0] * wx + K[1] * wy + K[2] * wz;
    wpy = K[1] * wx + K[3] * wy + K[4] * wz;
    wpz = K[2] * wx + K[4] * wy + K[5] * wz;
    rx = wpy * uz - wpz * uy;
    ry = wpz * ux - wpx * uz;
    rz = wpx * uy - wpy * ux;
  }
  const V f[3] = {fn * nx + fu * ux - kA * utx + gk * rx, fn * ny + fu * uy - kA * uty + gk * ry,
                  fn * nz + fu * uz - kA * utz + gk * rz};
  S->F[0] += y * f[2] - z * f[1];
  S->F[1] += z * f[0] - x * f[2];
  S->F[2] += x * f[1] - y * f[0];
  for (int j = 0; j < 3; ++j) S->F[3 + j] += f[j];
  if constexpr (kJacobian) {
    const V uhx = ux * is, uhy = uy * is, uhz = uz * is;
    const V alpha = fu - kA;
    const V beta = kA - k * s * (1.0 + g * hct);
    const V kcp = (0.5 * b.fr) * k * load(b.c1 + i) * rs * is;
    const V hn = -(k * un) * (1.0 + g * hct);
    const V hu = -(gk * ct + k * (hcd0 * s));
    // g′ = s_c/(s + s_c)² where s > 0 and s_c > 0.
    const auto slope = fades && (s > 0.0);
    const V sp = slope ? sc : 0.0;
    const V den = slope ? (s + sc) * (s + sc) : 1.0;
    const V dg = sp / den;
    const V fcn = -(k * hct) * un * s, fcu = k * ct;
    const V h[3] = {hn * nx - kcp * utx + hu * uhx + dg * (fcn * nx + fcu * ux + k * rx),
                    hn * ny - kcp * uty + hu * uhy + dg * (fcn * ny + fcu * uy + k * ry),
                    hn * nz - kcp * utz + hu * uhz + dg * (fcn * nz + fcu * uz + k * rz)};
    const V mn = beta, mu = (2.0 * hct) * gk * un;
    const V m[3] = {mn * nx + mu * uhx, mn * ny + mu * uhy, mn * nz + mu * uhz};
    const V H[6] = {
        y * h[2] - z * h[1], z * h[0] - x * h[2], x * h[1] - y * h[0], h[0], h[1], h[2]};
    const V c[6] = {y * uhz - z * uhy, z * uhx - x * uhz, x * uhy - y * uhx, uhx, uhy, uhz};
    const V M[6] = {
        y * m[2] - z * m[1], z * m[0] - x * m[2], x * m[1] - y * m[0], m[0], m[1], m[2]};
    const V a[6] = {load(b.mx + i), load(b.my + i), load(b.mz + i), nx, ny, nz};
    for (int r = 0; r < 6; ++r) {
      for (int cc = 0; cc < 6; ++cc) S->gh[6 * r + cc] += H[r] * c[cc];
    }
    for (int r = 0; r < 6; ++r) {
      for (int cc = 0; cc < 6; ++cc) S->gm[6 * r + cc] += M[r] * a[cc];
    }
    S->pm[0] += alpha;
    const V ax = alpha * x, ay = alpha * y, az = alpha * z;
    S->pm[1] += ax;
    S->pm[2] += ay;
    S->pm[3] += az;
    S->pm[4] += ax * x;
    S->pm[5] += ax * y;
    S->pm[6] += ax * z;
    S->pm[7] += ay * y;
    S->pm[8] += ay * z;
    S->pm[9] += az * z;
    if constexpr (kLift) {
      const V zx = gk * wpx, zy = gk * wpy, zz = gk * wpz;
      S->hz[0] += zx;
      S->hz[1] += zy;
      S->hz[2] += zz;
      const V zv[3] = {zx, zy, zz};
      const V xv[3] = {x, y, z};
      for (int r = 0; r < 3; ++r) {
        for (int cc = 0; cc < 3; ++cc) S->hz[3 + 3 * r + cc] += zv[r] * xv[cc];
      }
      const V xz = x * zx + y * zy + z * zz;
      S->hz[12] += xz;
      S->hz[13] += xz * x;
      S->hz[14] += xz * y;
      S->hz[15] += xz * z;
      addLiftPartSums(in, i, K, -gk, ux, uy, uz, x, y, z);
    }
  }
}

template <bool kJacobian, bool kOffsets, bool kLift>
SAMARA_INLINE void sumLawFaces(const LawInput& in, VLawSums (&S)[kParts]) {
  constexpr size_t kBlock = 8;  // groups whose flow is computed ahead
  const size_t n = in.base.padded;
  Flow u[kBlock];
  for (size_t b = 0; b < n; b += kBlock * kW) {
    const size_t groups = (n - b) / kW < kBlock ? (n - b) / kW : kBlock;
    for (size_t g = 0; g < groups; ++g) flowOf<true, true, kOffsets>(in.base, b + g * kW, &u[g]);
    for (size_t g = 0; g < groups; ++g) {
      const size_t i = b + g * kW;
      addLawGroup<kJacobian, kLift>(in, i, u[g], &S[(i / kW) % kParts]);
    }
  }
}

template <bool kJacobian, bool kLift>
SAMARA_INLINE void sumLawOffsets(const LawInput& in, VLawSums (&S)[kParts]) {
  if (in.base.off != nullptr) {
    sumLawFaces<kJacobian, true, kLift>(in, S);
  } else {
    sumLawFaces<kJacobian, false, kLift>(in, S);
  }
}

}  // namespace

void FACE_LIFTK_NAME(const LawInput& in, double* out) {
  const Input& b = in.base;
  for (size_t i = 0; i < b.padded; i += kW) {
    V K[6];
    partLift(in, i, load(b.nx + i), load(b.ny + i), load(b.nz + i), K);
    for (int j = 0; j < 6; ++j) {
      const V kj = in.cr * K[j];
      std::memcpy(out + static_cast<size_t>(j) * b.padded + i, &kj, sizeof kj);
    }
  }
}

namespace {

/// The law's sums into *out: without the Jacobian only the wrench's (as sumInto).
template <bool kJacobian>
SAMARA_INLINE void lawInto(const LawInput& in, LawSums* out) {
  VLawSums S[kParts]{};
  if (in.lift != nullptr) {
    sumLawOffsets<kJacobian, true>(in, S);
  } else {
    sumLawOffsets<kJacobian, false>(in, S);
  }
  for (int p = 0; p < kParts; ++p) {
    store(S[p].F, 6, p, out->F);
    if constexpr (kJacobian) {
      store(S[p].gh, 36, p, out->gh);
      store(S[p].gm, 36, p, out->gm);
      store(S[p].pm, 10, p, out->pm);
      store(S[p].hz, 16, p, out->hz);
    }
  }
}

}  // namespace

void FACE_LAW_NAME(const LawInput& in, bool jacobian, LawSums* out) {
  jacobian ? lawInto<true>(in, out) : lawInto<false>(in, out);
}

}  // namespace samara::core::face_sums
