#pragma once
// Gusts: a deterministic, seeded, divergence-free flow field added to the uniform wind
// (FluidDef::gusts). A sum of kModes travelling sinusoidal shear waves
//   u(x, t) = a / sqrt(kModes / 2) · Σ_k d_k sin(k_k · x − ω_k t + φ_k),  d_k ⟂ k_k,
// with wave vectors of length 2π/L·[0.5, 1.5] in random directions, angular frequencies
// 2π/T·[0.5, 1.5], random phases and unit directions d_k ⟂ k_k (so div u = 0). Each mode
// has RMS 1/√2, so the RMS gust speed is `amplitude`. The random numbers come from
// std::mt19937_64 (its output is fixed by the standard) turned into doubles by hand, so
// the same seed gives the same field on every platform and run.
// Header-only (no build-system change needed).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>

#include "core/face_kernel.h"
#include "core/fluid.h"

namespace samara::core {

/// How a body's faces sample the gusts (GustDef::sampling).
enum class GustSampling {
  kFaces,      ///< every wave at every face (exact); the default
  kQuadratic,  ///< each wave expanded to second order about the body's centre (see below)
};

struct GustDef {
  double amplitude = 0.5;  ///< RMS gust speed, m/s; default 0.5
  double period = 2.0;     ///< typical period T of a gust at a fixed point, s; default 2
  double length = 1.0;     ///< typical length scale L of a gust, m; default 1
  std::uint64_t seed = 1;  ///< random seed; default 1
  /// kQuadratic: for a body whose faces lie within r of its centre c with k r ≤
  /// kQuadraticReach for every wave (k its wavenumber), each wave is replaced by its Taylor
  /// polynomial of degree 2 about c, sin(θ + δ) ≈ sin θ (1 − δ²/2) + cos θ δ with δ = k·(x −
  /// c): one evaluation of the waves per body and some 60 operations per face instead of
  /// eight sines. Each wave's error is at most (k r)³/6 of its amplitude (0.65 % for a
  /// 7 cm leaf in waves of 1.3 m); a larger body samples every face as kFaces does.
  GustSampling sampling = GustSampling::kFaces;
  static constexpr double kQuadraticReach = 0.5;  ///< largest k r expanded: error ≤ 2.1 %
};

class GustField final : public WindField {
 public:
  static constexpr int kModes = 8;

  explicit GustField(const GustDef& def) : def_(def) {
    std::mt19937_64 rng(def.seed);
    auto uniform = [&rng]() {  // [0, 1), 53 bits, platform independent
      return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
    };
    auto unitVector = [&uniform]() {
      const double z = 2.0 * uniform() - 1.0;
      const double phi = 2.0 * kPi * uniform();
      const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
      return Vec3(r * std::cos(phi), r * std::sin(phi), z);
    };
    const double scale = def.amplitude / std::sqrt(0.5 * kModes);
    for (Mode& m : modes_) {
      const Vec3 dir = unitVector();
      const double kLen = 2.0 * kPi / def.length * (0.5 + uniform());
      m.k = kLen * dir;
      m.omega = 2.0 * kPi / def.period * (0.5 + uniform());
      m.phase = 2.0 * kPi * uniform();
      // A unit direction orthogonal to k: project a random vector and normalise.
      Vec3 d = unitVector();
      d -= d.dot(dir) * dir;
      if (d.norm() < 1e-6) d = dir.unitOrthogonal();
      m.d = scale * d.normalized();
      kMax_ = std::max(kMax_, m.k.norm());
    }
  }

  Vec3 velocity(const Vec3& x, double t) const override {
    double u[3];
    velocities(1, &x.x(), &x.y(), &x.z(), t, &u[0], &u[1], &u[2]);
    return {u[0], u[1], u[2]};
  }
  /// All points in one call (the vectorised loop of core/face_kernel.h); each point's
  /// modes summed in mode order, the same bits as velocity() at each.
  void velocities(std::size_t n, const double* x, const double* y, const double* z, double t,
                  double* ux, double* uy, double* uz) const override {
    const std::array<double, 7 * kModes> mode = modesAt(t);
    waveSum(n, x, y, z, kModes, mode.data(), ux, uy, uz);
  }
  /// In one vectorised pass per body (core/face_kernel.h's subtractWavesInBody).
  void subtractInBody(std::size_t n, const double* cx, const double* cy, const double* cz,
                      const Mat3& R, const Vec3& b, double t, const Vec3& shift, double* ox,
                      double* oy, double* oz, const PointBox* box = nullptr) const override {
    if (def_.sampling == GustSampling::kQuadratic &&
        subtractExpansion(n, cx, cy, cz, box, R, b, t, shift, ox, oy, oz)) {
      return;
    }
    const std::array<double, 7 * kModes> mode = modesAt(t);
    subtractWavesInBody(n, cx, cy, cz, R, b, shift, kModes, mode.data(), ox, oy, oz);
  }
  const GustDef& definition() const { return def_; }
  /// The largest wavenumber of the waves, rad/m.
  double largestWavenumber() const { return kMax_; }

 private:
  static constexpr double kPi = 3.14159265358979323846;
  struct Mode {
    Vec3 k = Vec3::Zero();  ///< wave vector, rad/m
    Vec3 d = Vec3::Zero();  ///< direction × amplitude, m/s (⟂ k)
    double omega = 0.0;     ///< rad/s
    double phase = 0.0;     ///< rad
  };
  /// The modes at time t as the wave loop takes them: (k, d, phase − ω t) each.
  std::array<double, 7 * kModes> modesAt(double t) const {
    std::array<double, 7 * kModes> mode;
    for (int m = 0; m < kModes; ++m) {
      const Mode& w = modes_[static_cast<std::size_t>(m)];
      const double c = w.phase - w.omega * t;
      const double v[7] = {w.k.x(), w.k.y(), w.k.z(), w.d.x(), w.d.y(), w.d.z(), c};
      std::copy(v, v + 7, mode.begin() + 7 * m);
    }
    return mode;
  }
  /// GustSampling::kQuadratic for the n points (body frame) about the centre of their box
  /// (`box`, or formed here when null);
  /// false (nothing done) if a wave's k r exceeds kQuadraticReach there. In the body frame,
  /// with d = x − c and per wave k_b = Rᵀ k, a_b = Rᵀ d_m, θ = k·(R c + b) + c_m:
  ///   u(d) = Σ a_b (sin θ + cos θ (k_b·d) − ½ sin θ (k_b·d)²) = u₀ + G d + (dᵀ H_j d)_j.
  bool subtractExpansion(std::size_t n, const double* cx, const double* cy, const double* cz,
                         const PointBox* box, const Mat3& R, const Vec3& b, double t,
                         const Vec3& shift, double* ox, double* oy, double* oz) const {
    if (n == 0) return true;
    Vec3 lo, hi;
    if (box != nullptr) {
      lo = box->lo;
      hi = box->hi;
    } else {
      pointBox(n, cx, cy, cz, &lo, &hi);
    }
    const Vec3 c = 0.5 * (lo + hi);
    const double r = 0.5 * (hi - lo).norm();  // every point lies within r of c
    if (!(largestWavenumber() * r <= GustDef::kQuadraticReach)) return false;
    const Vec3 cWorld = R * c + b;
    const Mat3 Rt = R.transpose();
    Vec3 u0 = Rt * shift;
    Mat3 G = Mat3::Zero();
    Mat3 H[3] = {Mat3::Zero(), Mat3::Zero(), Mat3::Zero()};
    for (const Mode& m : modes_) {
      const double theta = m.k.dot(cWorld) + (m.phase - m.omega * t);
      const double sn = std::sin(theta);
      const double cs = std::cos(theta);
      const Vec3 kb = Rt * m.k;
      const Vec3 ab = Rt * m.d;
      u0 += sn * ab;
      G += (cs * ab) * kb.transpose();
      const Mat3 kk = kb * kb.transpose();
      for (int j = 0; j < 3; ++j) H[j] += (-0.5 * sn * ab[j]) * kk;
    }
    // Per point: o −= u₀ + G d + dᵀ H_j d, with H_j's six distinct entries.
    double coef[3][10];
    for (int j = 0; j < 3; ++j) {
      const Mat3& Hj = H[j];
      const double q[10] = {u0[j],          G(j, 0),        G(j, 1),  G(j, 2),        Hj(0, 0),
                            2.0 * Hj(0, 1), 2.0 * Hj(0, 2), Hj(1, 1), 2.0 * Hj(1, 2), Hj(2, 2)};
      std::copy(q, q + 10, coef[j]);
    }
    core::subtractQuadratic(n, cx, cy, cz, c, coef, ox, oy, oz);
    return true;
  }

  GustDef def_;
  std::array<Mode, kModes> modes_;
  double kMax_ = 0.0;  ///< the largest |k|
};

}  // namespace samara::core
