#include "core/flow_law.h"

#include <cmath>

namespace samara::core {
namespace {

/// The force of one face and, if Du is not null, ∂f/∂u into *Du and ∂f/∂ω (at fixed u)
/// into *Dw. kHalfCT = C_T/2.
Vec3 faceForce(const Vec3& n, double k, double c1, double c2, double kappa, double kHalfCT,
               const Vec3& w, const Vec3& u, Mat3* Du, Mat3* Dw) {
  const double un = u.dot(n);
  const Vec3 ut = u - un * n;
  const double s = u.norm();
  const Vec3 wp = w - w.dot(n) * n;
  const double rs = std::sqrt(s);
  Vec3 f = -(k * (s * un + kHalfCT * un * s)) * n;  // pressure + circulation's n part
  f -= (k * (c1 * rs + c2)) * ut;
  if (s > 0.0) f += (k * kHalfCT * un * un / s) * u;
  f += (k * kappa) * wp.cross(u);
  if (Du == nullptr) return f;
  const Mat3 nnT = n * n.transpose();
  const Mat3 P = Mat3::Identity() - nnT;
  *Du = -(k * (c1 * rs + c2)) * P;
  if (s > 0.0) {
    const Vec3 uh = u / s;
    // pressure: −k (u_n n ûᵀ + s n nᵀ); friction: −k (½ c₁/√s) u_t ûᵀ;
    // circulation: −k C_T/2 (s n nᵀ + u_n n ûᵀ − 2 (u_n/s) u nᵀ − (u_n²/s)(I − û ûᵀ)).
    *Du -= (k * (1.0 + kHalfCT)) * (s * nnT + un * n * uh.transpose());
    *Du -= (k * 0.5 * c1 / rs) * (ut * uh.transpose());
    *Du += (k * kHalfCT) * ((2.0 * un / s) * (u * n.transpose()) +
                            (un * un / s) * (Mat3::Identity() - uh * uh.transpose()));
  }
  *Du += (k * kappa) * hat(wp);
  *Dw = -(k * kappa) * hat(u) * P;
  return f;
}

}  // namespace

void addFlowLawWrench(const DragFaces& faces, const FlowLawFaces& law, const FlowLawCoefficients& c,
                      const Vec6& Y, const Vec3& offset, const Vec3* offsets, Vec6* F, Mat6* J) {
  const double halfCT = 0.5 * c.ct;
  const double rot = c.cr / kRotationCR;
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  const size_t nf = faces.a.size();
  Vec6 Fsum = Vec6::Zero();
  Mat6 Jsum = Mat6::Zero();
  Mat3 Du;
  Mat3 Dw;
  for (size_t f = 0; f < nf; ++f) {
    const double k = faces.k[f];
    if (k == 0.0) continue;
    const Vec3& x = faces.x[f];
    const Vec3 u = v + w.cross(x) + (offsets ? offsets[f] : offset);
    const Vec3 force =
        faceForce(faces.a[f].tail<3>(), k, c.friction * law.fric[f], c.friction * law.visc[f],
                  rot * law.rot[f], halfCT, w, u, J ? &Du : nullptr, &Dw);
    Fsum.head<3>() += x.cross(force);
    Fsum.tail<3>() += force;
    if (J != nullptr) {
      // u = −x̂ ω + v + o: ∂f/∂Y = [−Du x̂ + Dw, Du]; the wrench is (x × f, f) = [x̂; I] f.
      const Mat3 X = hat(x);
      const Mat3 A = Dw - Du * X;
      Jsum.topLeftCorner<3, 3>().noalias() += X * A;
      Jsum.topRightCorner<3, 3>().noalias() += X * Du;
      Jsum.bottomLeftCorner<3, 3>() += A;
      Jsum.bottomRightCorner<3, 3>() += Du;
    }
  }
  *F += Fsum;
  if (J != nullptr) *J += Jsum;
}

void flowLawFaceForces(const DragFaces& faces, const FlowLawFaces& law,
                       const FlowLawCoefficients& c, const Vec6& Y, const Vec3& offset,
                       const Vec3* offsets, std::vector<Vec3>* forces) {
  const double rot = c.cr / kRotationCR;
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  forces->resize(faces.a.size());
  for (size_t f = 0; f < faces.a.size(); ++f) {
    const Vec3 u = v + w.cross(faces.x[f]) + (offsets ? offsets[f] : offset);
    (*forces)[f] =
        faceForce(faces.a[f].tail<3>(), faces.k[f], c.friction * law.fric[f],
                  c.friction * law.visc[f], rot * law.rot[f], 0.5 * c.ct, w, u, nullptr, nullptr);
  }
}

}  // namespace samara::core
