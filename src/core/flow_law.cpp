#include "core/flow_law.h"

#include <cmath>

namespace samara::core {
namespace {

/// The force of one face and, if Du is not null, ∂f/∂u into *Du and ∂f/∂ω (at fixed u)
/// into *Dw. kHalfCT = C_T/2; sc = Re_c ν/L, the speed below which circulation fades
/// (0: never).
Vec3 faceForce(const Vec3& n, double k, double c1, double c2, const Mat3& K, double kHalfCT,
               double kHalfCD0, double sc, const Vec3& w, const Vec3& u, Mat3* Du, Mat3* Dw) {
  const double un = u.dot(n);
  const Vec3 ut = u - un * n;
  const double s = u.norm();
  const Vec3 wp = K * w;  // in-plane, scaled by the half-chord across its axis
  const double rs = std::sqrt(s);
  // Circulation and rotational lift, faded by g = s/(s + sc) = Re/(Re + Re_c).
  const double g = sc > 0.0 ? s / (s + sc) : 1.0;
  Vec3 fc = -(k * kHalfCT * un * s) * n + k * wp.cross(u);
  if (s > 0.0) fc += (k * kHalfCT * un * un / s) * u;
  Vec3 f = -(k * s * un) * n - (k * (c1 * rs + c2)) * ut - (k * kHalfCD0 * s) * u + g * fc;
  if (Du == nullptr) return f;
  const Mat3 nnT = n * n.transpose();
  const Mat3 P = Mat3::Identity() - nnT;
  *Du = -(k * (c1 * rs + c2)) * P + (g * k) * hat(wp);
  if (s > 0.0) {
    const Vec3 uh = u / s;
    // pressure: −k (u_n n ûᵀ + s n nᵀ); friction: −k (½ c₁/√s) u_t ûᵀ;
    // circulation: −k C_T/2 (s n nᵀ + u_n n ûᵀ − 2 (u_n/s) u nᵀ − (u_n²/s)(I − û ûᵀ));
    // isotropic drag −k (C_D0/2) s u: −k C_D0/2 (s I + u ûᵀ); the fading: fc g′ ûᵀ.
    *Du -= k * (s * nnT + un * n * uh.transpose());
    *Du -= (k * 0.5 * c1 / rs) * (ut * uh.transpose());
    *Du -= (g * k * kHalfCT) *
           (s * nnT + un * n * uh.transpose() - (2.0 * un / s) * (u * n.transpose()) -
            (un * un / s) * (Mat3::Identity() - uh * uh.transpose()));
    *Du -= (k * kHalfCD0) * (s * Mat3::Identity() + u * uh.transpose());
    if (sc > 0.0) *Du += (sc / ((s + sc) * (s + sc))) * (fc * uh.transpose());
  }
  *Dw = -(g * k) * hat(u) * K;
  return f;
}

/// Pressure and friction only (C_T = C_R = 0), the default: per face one symmetric and
/// one general rank-one update of J, and the isotropic friction part −k A (I − …) summed
/// as a point-mass-like tensor after the loop (as cheap as GwtF's own kernel).
void addPressureFrictionWrench(const DragFaces& faces, const FlowLawFaces& law, double friction,
                               const Vec6& Y, const Vec3& offset, const Vec3* offsets, Vec6* F,
                               Mat6* J) {
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  const size_t nf = faces.size();
  Vec6 Fsum = Vec6::Zero();
  Mat6 Jsym = Mat6::Zero();
  Mat6 Jgen = Mat6::Zero();
  double S0 = 0.0;                                                          // Σ k A
  Vec3 S1 = Vec3::Zero();                                                   // Σ k A x
  double sxx = 0.0, sxy = 0.0, sxz = 0.0, syy = 0.0, syz = 0.0, szz = 0.0;  // Σ k A x xᵀ
  for (size_t f = 0; f < nf; ++f) {
    const double k = faces.k[f];
    if (k == 0.0) continue;
    const Vec6 a = faces.a(f);
    const Vec3 x = faces.centroid(f);
    const Vec3 n = a.tail<3>();
    const Vec3 u = v + w.cross(x) + (offsets ? offsets[f] : offset);
    const double un = u.dot(n);
    const double s = u.norm();
    const double rs = std::sqrt(s);
    const double c1 = friction * law.fric[f];
    const double A = c1 * rs + friction * law.visc[f];
    const Vec3 ut = u - un * n;
    const Vec3 xut = x.cross(ut);
    // f = −k s u_n n − k A u_t; wrench (x × f, f).
    const double kA = k * A;
    Fsum.noalias() -= (k * s * un) * a;
    Fsum.head<3>() -= kA * xut;
    Fsum.tail<3>() -= kA * ut;
    if (J == nullptr) continue;
    // ∂f/∂u = −k A I + k (A − s) n nᵀ − k (u_n n + c' u_t) ûᵀ, c' = c₁/(2√s).
    S0 += kA;
    S1 += kA * x;
    const Vec3 kx = kA * x;
    sxx += kx.x() * x.x();
    sxy += kx.x() * x.y();
    sxz += kx.x() * x.z();
    syy += kx.y() * x.y();
    syz += kx.y() * x.z();
    szz += kx.z() * x.z();
    Jsym.noalias() += (k * (A - s)) * (a * a.transpose());
    if (s > 0.0) {
      const double is = 1.0 / s;
      Vec6 c;
      c.head<3>() = is * x.cross(u);
      c.tail<3>() = is * u;
      const double kcp = 0.5 * k * c1 / rs;
      Vec6 g = (-k * un) * a;
      g.head<3>() -= kcp * xut;
      g.tail<3>() -= kcp * ut;
      Jgen.noalias() += g * c.transpose();
    }
  }
  *F += Fsum;
  if (J == nullptr) return;
  // −Σ k A Pᵀ P with P = [−x̂, I]: [[|x|² I − x xᵀ, x̂], [−x̂, I]].
  const Mat3 H = hat(S1);
  Mat3 Sx;
  Sx << sxx, sxy, sxz, sxy, syy, syz, sxz, syz, szz;
  J->topLeftCorner<3, 3>() -= Sx.trace() * Mat3::Identity() - Sx;
  J->topRightCorner<3, 3>() -= H;
  J->bottomLeftCorner<3, 3>() += H;
  J->bottomRightCorner<3, 3>() -= S0 * Mat3::Identity();
  *J += Jsym + Jgen;
}

/// Each part's relative rotation and, if W is not null, its ∂ω_r/∂Y, summed about the
/// centre of mass (the reference loop's; partRotations from PartSums for the kernel).
void comPartRotations(const DragFaces& faces, const FlowLawFaces& law, const Vec6& Y,
                      const Vec3& com, const Vec3& offset, const Vec3* offsets,
                      std::vector<Vec3>* wr, std::vector<Mat36>* W) {
  const auto np = static_cast<size_t>(law.parts);
  std::vector<double> sk(np, 0.0);
  std::vector<double> skxx(np, 0.0);
  std::vector<Vec3> skx(np, Vec3::Zero());
  std::vector<Vec3> sko(np, Vec3::Zero());
  for (size_t f = 0; f < faces.size(); ++f) {
    const auto p = static_cast<size_t>(law.part[f]);
    const double k = faces.k[f];
    const Vec3 x = faces.centroid(f) - com;
    sk[p] += k;
    skx[p] += k * x;
    skxx[p] += k * x.squaredNorm();
    sko[p] += k * (offsets ? offsets[f] : offset);
  }
  wr->assign(np, Y.head<3>());
  if (W != nullptr) W->assign(np, Mat36::Zero());
  for (size_t p = 0; p < np; ++p) {
    if (W != nullptr) (*W)[p].leftCols<3>().setIdentity();
    if (!(sk[p] > 0.0)) continue;
    const Vec3 r = skx[p] / sk[p];                          // centroid − com
    const double rms2 = skxx[p] / sk[p] - r.squaredNorm();  // spread about the centroid
    if (r.squaredNorm() <= 1e-18 * rms2) continue;
    (*wr)[p] =
        partRelativeRotation(Y, com + r, com, sko[p] / sk[p], W != nullptr ? &(*W)[p] : nullptr);
  }
}

}  // namespace

void FlowLawFaces::pack(int padded) {
  forgetLiftTensors();
  const auto pad = static_cast<size_t>(padded);
  const size_t nf = part.size();
  if (lift.empty() || nf == 0) {
    partPad.clear();
    groupPart.clear();
    return;
  }
  partPad.assign(pad, 0);
  groupPart.assign(pad / kFaceLanes, -1);
  for (size_t f = 0; f < nf; ++f) partPad[f] = part[f];
  for (size_t f = nf; f < pad; ++f) partPad[f] = partPad[nf - 1];
  for (size_t g = 0; g < groupPart.size(); ++g) {
    const int p = partPad[g * kFaceLanes];
    bool one = true;
    for (size_t l = 1; l < kFaceLanes; ++l) one = one && partPad[g * kFaceLanes + l] == p;
    groupPart[g] = one ? p : -1;
  }
}

void sumParts(const DragFaces& faces, const FlowLawFaces& law, const double* packed, PartSums* s) {
  const auto np = static_cast<size_t>(law.parts);
  s->k.assign(np, 0.0);
  s->kxx.assign(np, 0.0);
  s->kx.assign(np, Vec3::Zero());
  // Runs of faces of one part summed in locals (a part's faces usually follow each other).
  const size_t nf = faces.size();
  for (size_t f0 = 0; f0 < nf;) {
    const int p = law.part[f0];
    double k = 0.0, kx = 0.0, ky = 0.0, kz = 0.0, kxx = 0.0;
    size_t f = f0;
    for (; f < nf && law.part[f] == p; ++f) {
      const double kf = faces.k[f];
      const double x = faces.x[f], y = faces.y[f], z = faces.z[f];
      k += kf;
      kx += kf * x;
      ky += kf * y;
      kz += kf * z;
      kxx += kf * ((x * x + y * y) + z * z);
    }
    const auto q = static_cast<size_t>(p);
    s->k[q] += k;
    s->kx[q] += Vec3(kx, ky, kz);
    s->kxx[q] += kxx;
    f0 = f;
  }
  sumPartOffsets(faces, law, packed, s);
}

void sumPartOffsets(const DragFaces& faces, const FlowLawFaces& law, const double* packed,
                    PartSums* s) {
  const auto np = static_cast<size_t>(law.parts);
  const auto pad = static_cast<size_t>(faces.padded);
  s->ko.assign(np, Vec3::Zero());
  s->perFace = packed != nullptr;
  if (packed == nullptr) return;
  const size_t nf = faces.size();
  for (size_t f0 = 0; f0 < nf;) {  // the runs of sumParts, their offsets' sums alone
    const int p = law.part[f0];
    double ox = 0.0, oy = 0.0, oz = 0.0;
    size_t f = f0;
    for (; f < nf && law.part[f] == p; ++f) {
      const double kf = faces.k[f];
      ox += kf * packed[f];
      oy += kf * packed[pad + f];
      oz += kf * packed[2 * pad + f];
    }
    s->ko[static_cast<size_t>(p)] += Vec3(ox, oy, oz);
    f0 = f;
  }
}

void partRotations(const PartSums& s, const Vec6& Y, const Vec3& com, const Vec3& offset,
                   std::vector<Vec3>* wr, std::vector<Mat36>* W) {
  const size_t np = s.k.size();
  wr->assign(np, Y.head<3>());
  if (W != nullptr) W->assign(np, Mat36::Zero());
  for (size_t p = 0; p < np; ++p) {
    if (W != nullptr) (*W)[p].leftCols<3>().setIdentity();
    if (!(s.k[p] > 0.0)) continue;
    const Vec3 c = s.kx[p] / s.k[p];                          // centroid
    const double rms2 = s.kxx[p] / s.k[p] - c.squaredNorm();  // spread about it
    const Vec3 r = c - com;
    if (r.squaredNorm() <= 1e-18 * rms2) continue;
    const Vec3 o = s.perFace ? Vec3(s.ko[p] / s.k[p]) : offset;
    (*wr)[p] = partRelativeRotation(Y, c, com, o, W != nullptr ? &(*W)[p] : nullptr);
  }
}

Vec3 partRelativeRotation(const Vec6& Y, const Vec3& c, const Vec3& com, const Vec3& meanOffset,
                          Mat36* W) {
  const Vec3 w = Y.head<3>();
  const Vec3 r = c - com;
  const Vec3 q = w.cross(r);
  const Vec3 a = w.cross(q);
  const Vec3 u = Y.tail<3>() + w.cross(c) + meanOffset;
  const Vec3 N = u.cross(a);
  const double eta2 = kTurnRegularisation * kTurnRegularisation;
  const double D = u.squaredNorm() + eta2 * q.squaredNorm();
  if (W != nullptr) {
    W->setZero();
    W->leftCols<3>().setIdentity();
  }
  if (!(D > 0.0)) return w;
  if (W != nullptr) {
    // δq = −r̂ δω, δa = −(q̂ + ω̂ r̂) δω, δu = δv − ĉ δω, δN = −â δu + û δa,
    // δD = 2 uᵀ δu + 2 η² qᵀ δq; ω_r = ω − N/D.
    const Mat3 Ah = hat(a);
    const Mat3 Ch = hat(c);
    const Mat3 Rh = hat(r);
    const Mat3 dNdw = Ah * Ch - hat(u) * (hat(q) + hat(w) * Rh);
    const Eigen::RowVector3d dDdw = -2.0 * u.transpose() * Ch - 2.0 * eta2 * q.transpose() * Rh;
    const Eigen::RowVector3d dDdv = 2.0 * u.transpose();
    W->leftCols<3>() -= dNdw / D - N * dDdw / (D * D);
    W->rightCols<3>() = Ah / D + N * dDdv / (D * D);
  }
  return w - N / D;
}

void addFlowLawWrench(const DragFaces& faces, const FlowLawFaces& law, const FlowLawCoefficients& c,
                      const Vec6& Y, const Vec3& com, const Vec3& offset, const Vec3* offsets,
                      Vec6* F, Mat6* J) {
  if (c.pressureFrictionOnly()) {
    addPressureFrictionWrench(faces, law, c.friction, Y, offset, offsets, F, J);
    return;
  }
  const double halfCT = 0.5 * c.ct;
  const double rot = c.cr / kRotationCR;
  const bool lift = !law.lift.empty() && rot != 0.0;
  std::vector<Vec3> wr;
  std::vector<Mat36> W;
  if (lift) comPartRotations(faces, law, Y, com, offset, offsets, &wr, J ? &W : nullptr);
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  const size_t nf = faces.size();
  Vec6 Fsum = Vec6::Zero();
  Mat6 Jsum = Mat6::Zero();
  Mat3 Du;
  Mat3 Dw;
  for (size_t f = 0; f < nf; ++f) {
    const double k = faces.k[f];
    if (k == 0.0) continue;
    const Vec3 x = faces.centroid(f);
    const Vec3 u = v + w.cross(x) + (offsets ? offsets[f] : offset);
    const auto p = lift ? static_cast<size_t>(law.part[f]) : 0;
    const Vec3 n = faces.normal(f);
    const Vec3 force =
        faceForce(n, k, c.friction * law.fric[f], c.friction * law.visc[f],
                  lift ? Mat3(rot * liftTensor(&law.lift[6 * p], n)) : Mat3::Zero(),
                  halfCT * law.plateWeight(f), 0.5 * c.cd0 * law.plateWeight(f),
                  c.rec / kImai * law.visc[f], lift ? wr[p] : w, u, J ? &Du : nullptr, &Dw);
    Fsum.head<3>() += x.cross(force);
    Fsum.tail<3>() += force;
    if (J != nullptr) {
      // u = −x̂ ω + v + o: ∂f/∂Y = [−Du x̂, Du] + Dw ∂ω_r/∂Y; the wrench is [x̂; I] f.
      const Mat3 X = hat(x);
      Mat3 A = -Du * X;
      Mat3 B = Du;
      if (lift) {
        A.noalias() += Dw * W[p].leftCols<3>();
        B.noalias() += Dw * W[p].rightCols<3>();
      } else {
        A += Dw;
      }
      Jsum.topLeftCorner<3, 3>().noalias() += X * A;
      Jsum.topRightCorner<3, 3>().noalias() += X * B;
      Jsum.bottomLeftCorner<3, 3>() += A;
      Jsum.bottomRightCorner<3, 3>() += B;
    }
  }
  *F += Fsum;
  if (J != nullptr) *J += Jsum;
}

void flowLawFaceForces(const DragFaces& faces, const FlowLawFaces& law,
                       const FlowLawCoefficients& c, const Vec6& Y, const Vec3& com,
                       const Vec3& offset, const Vec3* offsets, std::vector<Vec3>* forces) {
  const double rot = c.cr / kRotationCR;
  const bool lift = !law.lift.empty() && rot != 0.0;
  std::vector<Vec3> wr;
  if (lift) comPartRotations(faces, law, Y, com, offset, offsets, &wr, nullptr);
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  forces->resize(faces.size());
  for (size_t f = 0; f < faces.size(); ++f) {
    const Vec3 u = v + w.cross(faces.centroid(f)) + (offsets ? offsets[f] : offset);
    const auto p = lift ? static_cast<size_t>(law.part[f]) : 0;
    const Vec3 n = faces.normal(f);
    (*forces)[f] = faceForce(n, faces.k[f], c.friction * law.fric[f], c.friction * law.visc[f],
                             lift ? Mat3(rot * liftTensor(&law.lift[6 * p], n)) : Mat3::Zero(),
                             0.5 * c.ct * law.plateWeight(f), 0.5 * c.cd0 * law.plateWeight(f),
                             c.rec / kImai * law.visc[f], lift ? wr[p] : w, u, nullptr, nullptr);
  }
}

}  // namespace samara::core
