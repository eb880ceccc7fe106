// The vectorised face kernel (core/face_kernel.h, issue 17): the same law as the reference
// loops of core/forces.h and core/flow_law.h to round-off, for every face count around the
// lane width, with and without friction and per-face offsets; the same bits from every
// instruction set it is compiled for; a face moving with the fluid.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/face_kernel.h"
#include "core/flow_law.h"
#include "core/forces.h"

using namespace samara;
using namespace samara::core;

namespace {

/// n random faces (unit normals, centroids within 20 cm, 1–10 cm² faces in water) with the
/// law's coefficients for ν = 1e-4 m²/s and ℓ = 5 cm, padded like a body's (body.cpp).
struct Faces {
  DragFaces drag;
  FlowLawFaces law;
  std::vector<Vec3> offsets;
  FaceOffsetPack packed;
};

Faces randomKernelFaces(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Faces s;
  for (int f = 0; f < n; ++f) {
    const Vec3 nrm = Vec3(U(rng), U(rng), U(rng) + 0.1).normalized();
    const Vec3 x = 0.2 * Vec3(U(rng), U(rng), U(rng));
    Vec6 a;
    a << x.cross(nrm), nrm;
    s.drag.add(a, x, 998.0 * 1e-4 * (5.5 + 4.5 * U(rng)) * (f % 2 == 0 ? 1.0 : 0.5));
    s.offsets.push_back(0.5 * Vec3(U(rng), U(rng), U(rng)));
  }
  const auto padded = static_cast<size_t>(s.drag.padded);
  s.law.fric.assign(padded, 0.0);
  s.law.visc.assign(padded, 0.0);
  for (int f = 0; f < n; ++f) {
    s.law.fric[static_cast<size_t>(f)] = kBlasius * std::sqrt(1e-4 / 0.1) * (1.0 + 0.1 * U(rng));
    s.law.visc[static_cast<size_t>(f)] = kImai * 1e-4 / 0.1;
  }
  s.packed.assign(s.drag, s.offsets);
  return s;
}

/// The reference: addDragWrench (friction < 0: GwtF's kernel) or addFlowLawWrench.
void reference(const Faces& s, double friction, const Vec6& Y, bool perFace, Vec6* F, Mat6* J) {
  F->setZero();
  J->setZero();
  const Vec3* offs = perFace ? s.offsets.data() : nullptr;
  if (friction < 0.0) {
    addDragWrench(s.drag, Y, s.offsets[0], offs, F, J);
  } else {
    const FlowLawCoefficients c{friction, 0.0, 0.0};
    addFlowLawWrench(s.drag, s.law, c, Y, Vec3::Zero(), s.offsets[0], offs, F, J);
  }
}

void packed(const Faces& s, double friction, const Vec6& Y, bool perFace, Vec6* F, Mat6* J,
            FaceKernelIsa isa) {
  F->setZero();
  J->setZero();
  addPackedFaceWrench(s.drag, friction < 0.0 ? nullptr : &s.law, friction < 0.0 ? 0.0 : friction, Y,
                      s.offsets[0], perFace ? &s.packed : nullptr, F, J, isa);
}

double maxAbsOf(const Mat6& M) { return M.cwiseAbs().maxCoeff(); }

}  // namespace

TEST_CASE("The vectorised face kernel is the reference law to round-off", "[core][facekernel]") {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int n : {1, 7, 8, 9, 16, 37, 300}) {
    Faces s = randomKernelFaces(rng, n);
    for (double friction : {-1.0, 0.0, 1.0, 0.3}) {
      for (bool perFace : {false, true}) {
        Vec6 Y;
        for (int i = 0; i < 6; ++i) Y[i] = U(rng);
        Vec6 Fr, Fp;
        Mat6 Jr, Jp;
        reference(s, friction, Y, perFace, &Fr, &Jr);
        packed(s, friction, Y, perFace, &Fp, &Jp, bestFaceKernelIsa());
        INFO("faces " << n << ", friction " << friction << ", per-face offsets " << perFace);
        REQUIRE(Fr.norm() > 0.0);
        // Sums of n terms in another order: a few ulps of the largest term per entry.
        CHECK((Fp - Fr).lpNorm<Eigen::Infinity>() <= 1e-14 * n * Fr.lpNorm<Eigen::Infinity>());
        CHECK(maxAbsOf(Jp - Jr) <= 1e-14 * n * maxAbsOf(Jr));
        // Without the Jacobian the wrench is the same bits.
        Vec6 F2 = Vec6::Zero();
        addPackedFaceWrench(s.drag, friction < 0.0 ? nullptr : &s.law, std::max(friction, 0.0), Y,
                            s.offsets[0], perFace ? &s.packed : nullptr, &F2, nullptr);
        CHECK(std::memcmp(F2.data(), Fp.data(), sizeof(double) * 6) == 0);
      }
    }
  }
}

TEST_CASE("Every instruction set of the face kernel gives the same bits", "[core][facekernel]") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  int compared = 0;
  for (int n : {3, 64, 333}) {
    const Faces s = randomKernelFaces(rng, n);
    for (double friction : {-1.0, 1.0}) {
      Vec6 Y;
      for (int i = 0; i < 6; ++i) Y[i] = U(rng);
      Vec6 F0;
      Mat6 J0;
      packed(s, friction, Y, true, &F0, &J0, FaceKernelIsa::kSse2);
      for (FaceKernelIsa isa : {FaceKernelIsa::kAvx2, FaceKernelIsa::kAvx512}) {
        if (!faceKernelSupported(isa)) continue;
        Vec6 F;
        Mat6 J;
        packed(s, friction, Y, true, &F, &J, isa);
        INFO(faceKernelIsaName(isa) << " against SSE2, " << n << " faces");
        CHECK(std::memcmp(F.data(), F0.data(), sizeof(double) * 6) == 0);
        CHECK(std::memcmp(J.data(), J0.data(), sizeof(double) * 36) == 0);
        ++compared;
      }
    }
  }
  // x86-64 processors of the last decade have AVX2; the machine this runs on says which.
  WARN("instruction sets compared with SSE2: " << compared / 6 << " (best here: "
                                               << faceKernelIsaName(bestFaceKernelIsa()) << ")");
}

TEST_CASE("A face moving with the fluid adds no force and a finite Jacobian",
          "[core][facekernel]") {
  std::mt19937 rng(11);
  Faces s = randomKernelFaces(rng, 9);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Vec6 Y;
  for (int i = 0; i < 6; ++i) Y[i] = U(rng);
  // o_f = −(v + ω × x_f): every face at rest in the fluid, u = 0 exactly.
  for (size_t f = 0; f < s.drag.size(); ++f) {
    s.offsets[f] = -(Y.tail<3>() + Y.head<3>().cross(s.drag.centroid(f)));
  }
  s.packed.assign(s.drag, s.offsets);
  for (double friction : {-1.0, 1.0}) {
    Vec6 Fr, Fp;
    Mat6 Jr, Jp;
    reference(s, friction, Y, true, &Fr, &Jr);
    packed(s, friction, Y, true, &Fp, &Jp, bestFaceKernelIsa());
    CHECK(Fp.cwiseAbs().maxCoeff() < 1e-15);
    REQUIRE(Jp.allFinite());
    // The limit u → 0: only the friction's viscous term −k c₂ Q(I − n nᵀ)Qᵀ survives.
    CHECK(maxAbsOf(Jp - Jr) <= 1e-13 * std::max(maxAbsOf(Jr), 1e-30));
    if (friction < 0.0) CHECK(maxAbsOf(Jp) < 1e-15);
    if (friction > 0.0) CHECK(maxAbsOf(Jp) > 0.0);
  }
}

namespace {

/// Gives the faces a rotational lift: `parts` parts with a random symmetric S each (≤ 6 cm;
/// K = −n̂ S n̂ per face), in runs of `run` faces (run 1: every group mixes parts), packed;
/// and C_T and C_D0 weights between 0 and 1.
void addLift(Faces* s, std::mt19937& rng, int parts, int run) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const size_t nf = s->drag.size();
  s->law.plate.assign(static_cast<size_t>(s->drag.padded), 0.0);
  for (size_t f = 0; f < nf; ++f) s->law.plate[f] = 0.5 + 0.5 * U(rng);
  s->law.lift.clear();
  s->law.part.assign(nf, 0);
  s->law.parts = parts;
  for (int p = 0; p < parts; ++p) {
    for (int j = 0; j < 6; ++j) s->law.lift.push_back(0.06 * U(rng));
  }
  for (size_t f = 0; f < nf; ++f) {
    s->law.part[f] = static_cast<int>(f / static_cast<size_t>(run)) % parts;
  }
  s->law.pack(s->drag.padded);
}

/// The whole law (the circulation candidate, or with `fade` off) packed and by reference.
void lawBoth(const Faces& s, const FlowLawCoefficients& c, const Vec6& Y, const Vec3& com,
             bool perFace, FaceKernelIsa isa, Vec6* Fr, Mat6* Jr, Vec6* Fp, Mat6* Jp) {
  Fr->setZero();
  Jr->setZero();
  Fp->setZero();
  Jp->setZero();
  addFlowLawWrench(s.drag, s.law, c, Y, com, s.offsets[0], perFace ? s.offsets.data() : nullptr, Fr,
                   Jr);
  addPackedLawWrench(s.drag, s.law, c, Y, com, s.offsets[0], perFace ? &s.packed : nullptr, nullptr,
                     Fp, Jp, isa);
}

}  // namespace

TEST_CASE("The vectorised kernel of the whole law is the reference law to round-off",
          "[core][facekernel]") {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  FlowLawCoefficients noFade = kCirculationCandidate;
  noFade.rec = 0.0;
  FlowLawCoefficients noLift = kCirculationCandidate;
  noLift.cr = 0.0;
  for (int n : {1, 9, 37, 300}) {
    for (int run : {1, 5, 1000}) {
      Faces s = randomKernelFaces(rng, n);
      addLift(&s, rng, 3, run);
      for (const FlowLawCoefficients& c : {kCirculationCandidate, noFade, noLift}) {
        for (bool perFace : {false, true}) {
          Vec6 Y;
          for (int i = 0; i < 6; ++i) Y[i] = U(rng);
          const Vec3 com = 0.05 * Vec3(U(rng), U(rng), U(rng));
          Vec6 Fr, Fp;
          Mat6 Jr, Jp;
          lawBoth(s, c, Y, com, perFace, bestFaceKernelIsa(), &Fr, &Jr, &Fp, &Jp);
          INFO("faces " << n << ", parts in runs of " << run << ", rec " << c.rec << ", cr " << c.cr
                        << ", per-face offsets " << perFace);
          REQUIRE(Fr.norm() > 0.0);
          CHECK((Fp - Fr).lpNorm<Eigen::Infinity>() <= 1e-14 * n * Fr.lpNorm<Eigen::Infinity>());
          CHECK(maxAbsOf(Jp - Jr) <= 1e-14 * n * maxAbsOf(Jr));
          // Without the Jacobian the wrench is the same bits.
          Vec6 F2 = Vec6::Zero();
          addPackedLawWrench(s.drag, s.law, c, Y, com, s.offsets[0], perFace ? &s.packed : nullptr,
                             nullptr, &F2, nullptr);
          CHECK(std::memcmp(F2.data(), Fp.data(), sizeof(double) * 6) == 0);
          // Every instruction set: the same bits.
          for (FaceKernelIsa isa : {FaceKernelIsa::kSse2, FaceKernelIsa::kAvx2}) {
            if (!faceKernelSupported(isa)) continue;
            Vec6 Fi, Fq;
            Mat6 Ji, Jq;
            lawBoth(s, c, Y, com, perFace, isa, &Fi, &Ji, &Fq, &Jq);
            CHECK(std::memcmp(Fq.data(), Fp.data(), sizeof(double) * 6) == 0);
            CHECK(std::memcmp(Jq.data(), Jp.data(), sizeof(double) * 36) == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("The whole law's kernel: a face moving with the fluid adds no force",
          "[core][facekernel]") {
  std::mt19937 rng(29);
  Faces s = randomKernelFaces(rng, 19);
  addLift(&s, rng, 2, 1);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  Vec6 Y;
  for (int i = 0; i < 6; ++i) Y[i] = U(rng);
  for (size_t f = 0; f < s.drag.size(); ++f) {
    s.offsets[f] = -(Y.tail<3>() + Y.head<3>().cross(s.drag.centroid(f)));
  }
  s.packed.assign(s.drag, s.offsets);
  Vec6 Fr, Fp;
  Mat6 Jr, Jp;
  lawBoth(s, kCirculationCandidate, Y, Vec3::Zero(), true, bestFaceKernelIsa(), &Fr, &Jr, &Fp, &Jp);
  CHECK(Fp.cwiseAbs().maxCoeff() < 1e-15);
  REQUIRE(Jp.allFinite());
  CHECK(maxAbsOf(Jp - Jr) <= 1e-13 * std::max(maxAbsOf(Jr), 1e-30));
  CHECK(maxAbsOf(Jp) > 0.0);
}

TEST_CASE("The gust field's wave sum: every instruction set, all points = one by one",
          "[core][facekernel]") {
  // Two modes (k, d, c) at 29 points (whole vectors and a rest on every instruction set).
  const double mode[14] = {3.1,  -2.0, 0.7, 0.2,  0.1, -0.3, 0.4,
                           -1.3, 0.5,  4.2, -0.1, 0.3, 0.05, 17.0};
  std::vector<double> x, y, z;
  for (int i = 0; i < 29; ++i) {
    x.push_back(0.37 * i - 5.0);
    y.push_back(1.0 + 0.011 * i * i);
    z.push_back(-2.0 + 0.2 * i);
  }
  std::vector<double> u0(87);
  waveSum(29, x.data(), y.data(), z.data(), 2, mode, &u0[0], &u0[29], &u0[58],
          FaceKernelIsa::kSse2);
  for (int i = 0; i < 29; ++i) {
    // gustSin's expansion by hand: Σ_m d_m sin(k_m · x + c_m).
    double e[3] = {0.0, 0.0, 0.0};
    for (int m = 0; m < 2; ++m) {
      const double* md = mode + 7 * m;
      const double s = std::sin(((md[0] * x[i] + md[1] * y[i]) + md[2] * z[i]) + md[6]);
      for (int c = 0; c < 3; ++c) e[c] += md[3 + c] * s;
    }
    for (int c = 0; c < 3; ++c) CHECK(std::abs(u0[29 * c + i] - e[c]) < 1e-15);
    double one[3];
    waveSum(1, &x[i], &y[i], &z[i], 2, mode, &one[0], &one[1], &one[2], FaceKernelIsa::kSse2);
    for (int c = 0; c < 3; ++c) CHECK(one[c] == u0[29 * c + i]);
  }
  for (FaceKernelIsa isa : {FaceKernelIsa::kAvx2, FaceKernelIsa::kAvx512}) {
    if (!faceKernelSupported(isa)) continue;
    std::vector<double> u(87);
    waveSum(29, x.data(), y.data(), z.data(), 2, mode, &u[0], &u[29], &u[58], isa);
    INFO(faceKernelIsaName(isa));
    CHECK(std::memcmp(u.data(), u0.data(), sizeof(double) * 87) == 0);
  }
}

TEST_CASE("The gust waves subtracted in a body frame: the world field rotated back",
          "[core][facekernel]") {
  const double mode[14] = {3.1,  -2.0, 0.7, 0.2,  0.1, -0.3, 0.4,
                           -1.3, 0.5,  4.2, -0.1, 0.3, 0.05, 17.0};
  const Mat3 R = Eigen::AngleAxisd(0.9, Vec3(0.3, -1.0, 0.4).normalized()).toRotationMatrix();
  const Vec3 b(1.5, 4.0, -0.7), shift(0.3, -0.2, 0.1);
  std::vector<double> c(87), o0(87);
  for (int i = 0; i < 87; ++i) c[static_cast<size_t>(i)] = 0.05 * std::sin(0.7 * i + 0.2);
  for (int i = 0; i < 87; ++i) o0[static_cast<size_t>(i)] = 0.01 * i;
  std::vector<double> o = o0;
  subtractWavesInBody(29, &c[0], &c[29], &c[58], R, b, shift, 2, mode, &o[0], &o[29], &o[58],
                      FaceKernelIsa::kSse2);
  for (int i = 0; i < 29; ++i) {
    const Vec3 x = R * Vec3(c[i], c[29 + i], c[58 + i]) + b;
    double u[3];
    waveSum(1, &x.x(), &x.y(), &x.z(), 2, mode, &u[0], &u[1], &u[2], FaceKernelIsa::kSse2);
    const Vec3 d = R.transpose() * (Vec3(u[0], u[1], u[2]) + shift);
    for (int k = 0; k < 3; ++k) {
      CHECK(std::abs(o[29 * k + i] - (o0[29 * k + i] - d[k])) < 1e-15);
    }
  }
  for (FaceKernelIsa isa : {FaceKernelIsa::kAvx2, FaceKernelIsa::kAvx512}) {
    if (!faceKernelSupported(isa)) continue;
    std::vector<double> oi = o0;
    subtractWavesInBody(29, &c[0], &c[29], &c[58], R, b, shift, 2, mode, &oi[0], &oi[29], &oi[58],
                        isa);
    INFO(faceKernelIsaName(isa));
    CHECK(std::memcmp(oi.data(), o.data(), sizeof(double) * 87) == 0);
  }
}

TEST_CASE("The added mass's outer sum: the plain sum to round-off, the same bits everywhere",
          "[core][facekernel]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(0.5, 2.0);
  for (int n : {1, 7, 8, 9, 31, 200, 5000}) {  // 5000: three blocks of the gather
    Faces s = randomKernelFaces(rng, n);
    std::vector<double> w(static_cast<size_t>(n));
    for (double& x : w) x = 1e-3 * U(rng);
    std::vector<int> part;  // every other face, backwards
    for (int f = n - 1; f >= 0; f -= 2) part.push_back(f);
    for (bool listed : {false, true}) {
      const size_t count = listed ? part.size() : static_cast<size_t>(n);
      Mat6 plain = Mat6::Zero();
      for (size_t i = 0; i < count; ++i) {
        const size_t f = listed ? static_cast<size_t>(part[i]) : i;
        plain += w[f] * s.drag.a(f) * s.drag.a(f).transpose();
      }
      const Mat6 M = weightedOuterSum(s.drag, w.data(), listed ? part.data() : nullptr, count,
                                      FaceKernelIsa::kSse2);
      INFO(n << " faces, listed " << listed);
      CHECK(M == M.transpose());
      CHECK(maxAbsOf(M - plain) <= 1e-14 * maxAbsOf(plain));
      for (FaceKernelIsa isa : {FaceKernelIsa::kAvx2, FaceKernelIsa::kAvx512}) {
        if (!faceKernelSupported(isa)) continue;
        const Mat6 Mi =
            weightedOuterSum(s.drag, w.data(), listed ? part.data() : nullptr, count, isa);
        CHECK(std::memcmp(Mi.data(), M.data(), sizeof(double) * 36) == 0);
      }
    }
  }
}
