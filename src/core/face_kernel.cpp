#include "core/face_kernel.h"

#include <algorithm>

#include "core/face_sums.h"

namespace samara::core {

void FaceOffsetPack::assign(const DragFaces& faces, const std::vector<Vec3>& offsets) {
  const auto p = static_cast<size_t>(faces.padded);
  o.assign(3 * p, 0.0);
  for (size_t f = 0; f < offsets.size(); ++f) {
    o[f] = offsets[f].x();
    o[p + f] = offsets[f].y();
    o[2 * p + f] = offsets[f].z();
  }
}

std::vector<Vec3> FaceOffsetPack::unpack(const DragFaces& faces) const {
  const auto p = static_cast<size_t>(faces.padded);
  std::vector<Vec3> out(faces.size());
  for (size_t f = 0; f < out.size(); ++f) out[f] = Vec3(o[f], o[p + f], o[2 * p + f]);
  return out;
}

namespace {

static_assert(kFaceLanes == face_sums::kLanes, "DragFaces pads to the kernel's groups");

/// The lanes of one running sum added in a fixed order (pairwise). Inlined: a residual's
/// six sums were a call each.
inline __attribute__((always_inline)) double reduce(const double* a) {
  double t[face_sums::kLanes];
  for (int l = 0; l < face_sums::kLanes; ++l) t[l] = a[l];
  for (int width = face_sums::kLanes / 2; width >= 1; width /= 2) {
    for (int l = 0; l < width; ++l) t[l] = t[2 * l] + t[2 * l + 1];
  }
  return t[0];
}

/// The one of three builds of a face_sums function that `isa` names.
template <typename Fn>
Fn pick(FaceKernelIsa isa, Fn sse2, Fn avx2, Fn avx512) {
  switch (isa) {
    case FaceKernelIsa::kAvx512:
      return avx512;
    case FaceKernelIsa::kAvx2:
      return avx2;
    default:
      return sse2;
  }
}

using SumFn = void (*)(const face_sums::Input&, bool, bool, face_sums::Sums*);

SumFn sumFunction(FaceKernelIsa isa) {
  return pick(isa, face_sums::sumSse2, face_sums::sumAvx2, face_sums::sumAvx512);
}

/// The kernel's view of the faces, the friction coefficients (none without `law`), the
/// velocity and the offsets.
face_sums::Input kernelInput(const DragFaces& faces, const FlowLawFaces* law, double friction,
                             const Vec6& Y, const Vec3& offset, const FaceOffsetPack* offsets) {
  return {faces.x.data(),
          faces.y.data(),
          faces.z.data(),
          faces.nx.data(),
          faces.ny.data(),
          faces.nz.data(),
          faces.mx.data(),
          faces.my.data(),
          faces.mz.data(),
          faces.k.data(),
          law ? law->fric.data() : nullptr,
          law ? law->visc.data() : nullptr,
          offsets ? offsets->o.data() : nullptr,
          static_cast<size_t>(faces.padded),
          friction,
          {Y[0], Y[1], Y[2]},
          {Y[3], Y[4], Y[5]},
          {offset.x(), offset.y(), offset.z()}};
}

}  // namespace

bool faceKernelSupported(FaceKernelIsa isa) {
  switch (isa) {
    case FaceKernelIsa::kAvx512:
      return __builtin_cpu_supports("avx512f") != 0;
    case FaceKernelIsa::kAvx2:
      return __builtin_cpu_supports("avx2") != 0;
    default:
      return true;
  }
}

FaceKernelIsa bestFaceKernelIsa() {
  static const FaceKernelIsa best =
      faceKernelSupported(FaceKernelIsa::kAvx512)
          ? FaceKernelIsa::kAvx512
          : (faceKernelSupported(FaceKernelIsa::kAvx2) ? FaceKernelIsa::kAvx2
                                                       : FaceKernelIsa::kSse2);
  return best;
}

const char* faceKernelIsaName(FaceKernelIsa isa) {
  switch (isa) {
    case FaceKernelIsa::kAvx512:
      return "AVX-512F";
    case FaceKernelIsa::kAvx2:
      return "AVX2";
    default:
      return "SSE2";
  }
}

void addPackedFaceWrench(const DragFaces& faces, const FlowLawFaces* law, double friction,
                         const Vec6& Y, const Vec3& offset, const FaceOffsetPack* offsets, Vec6* F,
                         Mat6* J, FaceKernelIsa isa) {
  const bool withFriction = law != nullptr && friction != 0.0;
  const face_sums::Input in =
      kernelInput(faces, withFriction ? law : nullptr, friction, Y, offset, offsets);
  face_sums::Sums S;
  sumFunction(isa)(in, withFriction, J != nullptr, &S);
  Vec6 Fsum;
  for (int j = 0; j < 6; ++j) Fsum[j] = reduce(S.F[j]);
  *F += Fsum;
  if (J == nullptr) return;
  Mat6 Jf;
  int q = 0;
  for (int r = 0; r < 6; ++r) {
    for (int c = r; c < 6; ++c) {
      const double v = reduce(S.sym[q++]);
      Jf(r, c) = v;
      Jf(c, r) = v;
    }
  }
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 6; ++c) Jf(r, c) += reduce(S.gen[6 * r + c]);
  }
  if (withFriction) {
    // −Σ k A Q Qᵀ = −[[Σ kA (|x|² I − x xᵀ), Σ kA x̂], [−Σ kA x̂, Σ kA I]].
    double pm[10];
    for (int j = 0; j < 10; ++j) pm[j] = reduce(S.pm[j]);
    const Mat3 H = hat(Vec3(pm[1], pm[2], pm[3]));
    Mat3 Sx;
    Sx << pm[4], pm[5], pm[6], pm[5], pm[7], pm[8], pm[6], pm[8], pm[9];
    Jf.topLeftCorner<3, 3>() -= Sx.trace() * Mat3::Identity() - Sx;
    Jf.topRightCorner<3, 3>() -= H;
    Jf.bottomLeftCorner<3, 3>() += H;
    Jf.bottomRightCorner<3, 3>() -= pm[0] * Mat3::Identity();
  }
  *J += Jf;
}

namespace {

using LawFn = void (*)(const face_sums::LawInput&, bool, face_sums::LawSums*);

LawFn lawFunction(FaceKernelIsa isa) {
  return pick(isa, face_sums::lawSse2, face_sums::lawAvx2, face_sums::lawAvx512);
}

/// J from the law's sums (face_law_impl.h): the general sums, Σ α Q Qᵀ and Σ Q [z]× Qᵀ.
Mat6 lawJacobian(const face_sums::LawSums& S, bool lift) {
  Mat6 J;
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 6; ++c) J(r, c) = reduce(S.gh[6 * r + c]) + reduce(S.gm[6 * r + c]);
  }
  double pm[10];
  for (int j = 0; j < 10; ++j) pm[j] = reduce(S.pm[j]);
  // Q Qᵀ = [[|x|² I − x xᵀ, x̂], [−x̂, I]].
  const Mat3 H = hat(Vec3(pm[1], pm[2], pm[3]));
  Mat3 Sx;
  Sx << pm[4], pm[5], pm[6], pm[5], pm[7], pm[8], pm[6], pm[8], pm[9];
  J.topLeftCorner<3, 3>() += Sx.trace() * Mat3::Identity() - Sx;
  J.topRightCorner<3, 3>() += H;
  J.bottomLeftCorner<3, 3>() -= H;
  J.bottomRightCorner<3, 3>() += pm[0] * Mat3::Identity();
  if (!lift) return J;
  // Q [z]× Qᵀ = [[⟨x, z⟩ x̂, z xᵀ − ⟨x, z⟩ I], [⟨x, z⟩ I − x zᵀ, ẑ]].
  double hz[16];
  for (int j = 0; j < 16; ++j) hz[j] = reduce(S.hz[j]);
  Mat3 Zx;  // Σ z xᵀ
  Zx << hz[3], hz[4], hz[5], hz[6], hz[7], hz[8], hz[9], hz[10], hz[11];
  const Mat3 I = hz[12] * Mat3::Identity();
  J.topLeftCorner<3, 3>() += hat(Vec3(hz[13], hz[14], hz[15]));
  J.topRightCorner<3, 3>() += Zx - I;
  J.bottomLeftCorner<3, 3>() += I - Zx.transpose();
  J.bottomRightCorner<3, 3>() += hat(Vec3(hz[0], hz[1], hz[2]));
  return J;
}

}  // namespace

void addPackedLawWrench(const DragFaces& faces, const FlowLawFaces& law,
                        const FlowLawCoefficients& c, const Vec6& Y, const Vec3& com,
                        const Vec3& offset, const FaceOffsetPack* offsets, const PartSums* sums,
                        Vec6* F, Mat6* J, FaceKernelIsa isa) {
  const bool lift = !law.lift.empty() && !law.partPad.empty() && c.cr != 0.0;
  std::vector<Vec3> wr;
  std::vector<Mat36> W;
  if (lift) {
    PartSums own;
    if (sums == nullptr) {
      sumParts(faces, law, offsets ? offsets->o.data() : nullptr, &own);
      sums = &own;
    }
    partRotations(*sums, Y, com, offset, &wr, J ? &W : nullptr);
  }
  const auto parts = static_cast<size_t>(lift ? law.parts : 0);
  std::vector<double> wrFlat(3 * parts);
  for (size_t p = 0; p < parts; ++p) {
    for (int j = 0; j < 3; ++j) wrFlat[3 * p + static_cast<size_t>(j)] = wr[p][j];
  }
  std::vector<double> acc(J != nullptr ? parts * 18 * face_sums::kLanes : 0, 0.0);
  face_sums::LawInput in{kernelInput(faces, &law, c.friction, Y, offset, offsets),
                         0.5 * c.ct,
                         0.5 * c.cd0,
                         c.rec / kImai,
                         c.cr / kRotationCR,
                         law.plate.empty() ? nullptr : law.plate.data(),
                         lift ? law.lift.data() : nullptr,
                         lift ? law.partPad.data() : nullptr,
                         lift ? law.groupPart.data() : nullptr,
                         wrFlat.data(),
                         acc.data()};
  if (lift && faces.padded <= FlowLawFaces::kLiftCacheFaces) {
    const double cr = in.cr;
    if (law.liftKcr != cr || law.liftK.size() != 6 * static_cast<size_t>(faces.padded)) {
      law.liftK.resize(6 * static_cast<size_t>(faces.padded));
      pick(isa, face_sums::liftTensorsSse2, face_sums::liftTensorsAvx2,
           face_sums::liftTensorsAvx512)(in, law.liftK.data());
      law.liftKcr = cr;
    }
    in.liftK = law.liftK.data();
  }
  face_sums::LawSums S;
  lawFunction(isa)(in, J != nullptr, &S);
  Vec6 Fsum;
  for (int j = 0; j < 6; ++j) Fsum[j] = reduce(S.F[j]);
  *F += Fsum;
  if (J == nullptr) return;
  Mat6 Jf = lawJacobian(S, lift);
  for (size_t p = 0; p < parts; ++p) {
    Eigen::Matrix<double, 6, 3> M;
    for (int r = 0; r < 6; ++r) {
      for (int q = 0; q < 3; ++q) {
        const size_t j = p * 18 + static_cast<size_t>(3 * r + q);
        M(r, q) = reduce(acc.data() + j * face_sums::kLanes);
      }
    }
    Jf.noalias() += M * W[p];
  }
  *J += Jf;
}

namespace {

void runGust(const face_sums::GustInput& in, FaceKernelIsa isa) {
  pick(isa, face_sums::gustSse2, face_sums::gustAvx2, face_sums::gustAvx512)(in);
}

}  // namespace

void waveSum(std::size_t n, const double* x, const double* y, const double* z, int modes,
             const double* mode, double* ux, double* uy, double* uz, FaceKernelIsa isa) {
  runGust(face_sums::GustInput{n, x, y, z, modes, mode, ux, uy, uz}, isa);
}

void subtractWavesInBody(std::size_t n, const double* cx, const double* cy, const double* cz,
                         const Mat3& R, const Vec3& b, const Vec3& shift, int modes,
                         const double* mode, double* ox, double* oy, double* oz,
                         FaceKernelIsa isa) {
  face_sums::GustInput in{n, cx, cy, cz, modes, mode, ox, oy, oz};
  double rot[9];
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) rot[3 * r + c] = R(r, c);
  }
  in.rot = rot;
  for (int j = 0; j < 3; ++j) {
    in.pos[j] = b[j];
    in.shift[j] = shift[j];
  }
  runGust(in, isa);
}

void quotients(std::size_t n, const double* a, const double* b, double d, double* out,
               FaceKernelIsa isa) {
  const face_sums::QuotientInput in{n, a, b, d, out};
  pick(isa, face_sums::quotientSse2, face_sums::quotientAvx2, face_sums::quotientAvx512)(in);
}

void pointBox(std::size_t n, const double* x, const double* y, const double* z, Vec3* lo, Vec3* hi,
              FaceKernelIsa isa) {
  face_sums::BoxInput in{n, x, y, z, {}, {}};
  pick(isa, face_sums::boxSse2, face_sums::boxAvx2, face_sums::boxAvx512)(&in);
  *lo = Vec3(in.lo[0], in.lo[1], in.lo[2]);
  *hi = Vec3(in.hi[0], in.hi[1], in.hi[2]);
}

void subtractQuadratic(std::size_t n, const double* x, const double* y, const double* z,
                       const Vec3& c, const double (&coef)[3][10], double* ox, double* oy,
                       double* oz, FaceKernelIsa isa) {
  face_sums::QuadInput in{};
  in.n = n;
  in.x = x;
  in.y = y;
  in.z = z;
  for (int j = 0; j < 3; ++j) {
    in.c[j] = c[j];
    std::copy(coef[j], coef[j] + 10, in.coef[j]);
  }
  in.ox = ox;
  in.oy = oy;
  in.oz = oz;
  pick(isa, face_sums::quadSse2, face_sums::quadAvx2, face_sums::quadAvx512)(in);
}

Mat6 weightedOuterSum(const DragFaces& d, const double* w, const int* faces, size_t n,
                      FaceKernelIsa isa) {
  // The 21 sums lane by lane (face i adds to running sum i mod 8) on the widest instruction
  // set, the faces' a and w gathered a block at a time (bounded memory; the padding of the
  // last block has w = 0).
  constexpr size_t kMaxBlock = 2048;  // a multiple of the lanes
  static_assert(kMaxBlock % face_sums::kLanes == 0, "blocks keep face i in lane i mod 8");
  const size_t block =
      std::min(kMaxBlock, (n + face_sums::kLanes - 1) / face_sums::kLanes * face_sums::kLanes);
  std::vector<double> g(7 * block);
  const double* p = g.data();
  const std::vector<double>* src[6] = {&d.mx, &d.my, &d.mz, &d.nx, &d.ny, &d.nz};
  double sums[21][face_sums::kLanes] = {};
  for (size_t i0 = 0; i0 < n; i0 += block) {
    const size_t m = std::min(block, n - i0);
    const size_t padded = (m + face_sums::kLanes - 1) / face_sums::kLanes * face_sums::kLanes;
    for (size_t i = 0; i < m; ++i) {
      const size_t f = faces ? static_cast<size_t>(faces[i0 + i]) : i0 + i;
      for (size_t j = 0; j < 6; ++j) g[j * block + i] = (*src[j])[f];
      g[6 * block + i] = w[f];
    }
    for (size_t j = 0; j < 7; ++j) {  // the last group's padding (w = 0)
      std::fill(g.begin() + static_cast<std::ptrdiff_t>(j * block + m),
                g.begin() + static_cast<std::ptrdiff_t>(j * block + padded), 0.0);
    }
    const face_sums::OuterInput in{
        padded,       p, p + block, p + 2 * block, p + 3 * block, p + 4 * block, p + 5 * block,
        p + 6 * block};
    pick(isa, face_sums::outerSse2, face_sums::outerAvx2, face_sums::outerAvx512)(in, sums);
  }
  Mat6 M;
  int q = 0;
  for (int r = 0; r < 6; ++r) {
    for (int c = r; c < 6; ++c) {
      const double v = reduce(sums[q++]);
      M(r, c) = v;
      M(c, r) = v;
    }
  }
  return M;
}

}  // namespace samara::core
