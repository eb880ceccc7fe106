#include "core/se3.h"

namespace samara::core {

Pose cayley(const Vec6& xi) {
  const Vec3 w = xi.head<3>();
  const Vec3 v = xi.tail<3>();
  const double w2 = w.squaredNorm();
  Pose p;
  // Cayley rotation (I − ŵ/2)⁻¹(I + ŵ/2) has quaternion ∝ (1, w/2).
  p.q = Quat(1.0, 0.5 * w.x(), 0.5 * w.y(), 0.5 * w.z());
  p.q.normalize();
  // Translation (I − ŵ/2)⁻¹ v (PHYSICS.md §4, misprint 2 corrected).
  p.b = (4.0 / (4.0 + w2)) * (v + 0.5 * w.cross(v) + 0.25 * w * w.dot(v));
  return p;
}

Pose compose(const Pose& g, const Pose& h) {
  Pose r;
  r.q = g.q * h.q;
  r.q.normalize();
  r.b = g.q * h.b + g.b;
  return r;
}

Mat6 dCayleyInv(const Vec6& xi) {
  const Vec3 w = xi.head<3>();
  const Vec3 v = xi.tail<3>();
  const Mat3 W = hat(w);
  const Mat3 V = hat(v);
  Mat6 D = Mat6::Zero();
  D.block<3, 3>(0, 0) = Mat3::Identity() - 0.5 * W + 0.25 * w * w.transpose();
  D.block<3, 3>(3, 0) = -0.5 * (V - 0.5 * W * V);
  D.block<3, 3>(3, 3) = Mat3::Identity() - 0.5 * W;
  return D;
}

Vec6 dCayleyInvTransposeTimes(const Vec6& xi, const Vec6& m) {
  const Vec3 w = xi.head<3>();
  const Vec3 v = xi.tail<3>();
  const Vec3 l = m.head<3>();
  const Vec3 p = m.tail<3>();
  const Vec3 wxp = w.cross(p);
  Vec6 r;
  // A11ᵀ l = l + ½ w×l + ¼ w (w·l);  A21ᵀ p = ½ v×p + ¼ v×(w×p);  A22ᵀ p = p + ½ w×p.
  r.head<3>() = l + 0.5 * w.cross(l) + 0.25 * w * w.dot(l) + 0.5 * v.cross(p) + 0.25 * v.cross(wxp);
  r.tail<3>() = p + 0.5 * wxp;
  return r;
}

Mat6 dCayleyInvTransposeTimesJacobian(const Vec6& xi, const Vec6& m) {
  const Vec3 w = xi.head<3>();
  const Vec3 v = xi.tail<3>();
  const Vec3 l = m.head<3>();
  const Vec3 p = m.tail<3>();
  const Mat3 P = hat(p);
  Mat6 J;
  // ∂/∂w of the angular row: −½ l̂ + ¼ (w lᵀ + (w·l) I) − ¼ v̂ p̂;  ∂/∂v: −½ p̂ − ¼ (w×p)^.
  J.block<3, 3>(0, 0) =
      -0.5 * hat(l) + 0.25 * (w * l.transpose() + w.dot(l) * Mat3::Identity()) - 0.25 * hat(v) * P;
  J.block<3, 3>(0, 3) = -0.5 * P - 0.25 * hat(w.cross(p));
  // ∂/∂w of the linear row: −½ p̂;  ∂/∂v: 0.
  J.block<3, 3>(3, 0) = -0.5 * P;
  J.block<3, 3>(3, 3).setZero();
  return J;
}

Vec6 momentumToWorld(const Pose& g, const Vec6& muBody) {
  const Vec3 pw = g.q * Vec3(muBody.tail<3>());
  Vec6 r;
  r.head<3>() = g.q * Vec3(muBody.head<3>()) + g.b.cross(pw);
  r.tail<3>() = pw;
  return r;
}

Vec6 wrenchToBody(const Pose& g, const Vec6& wrenchWorld) {
  const Quat qi = g.q.conjugate();
  const Vec3 f = wrenchWorld.tail<3>();
  Vec6 r;
  r.head<3>() = qi * Vec3(wrenchWorld.head<3>() - g.b.cross(f));
  r.tail<3>() = qi * f;
  return r;
}

Vec6 adStar(const Vec6& Y, const Vec6& mu) {
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  const Vec3 l = mu.head<3>();
  const Vec3 p = mu.tail<3>();
  Vec6 r;
  r.head<3>() = l.cross(w) + p.cross(v);
  r.tail<3>() = p.cross(w);
  return r;
}

Mat6 spatialInertia(double mass, const Vec3& firstMoment, const Mat3& secondMoment) {
  Mat6 I;
  I.block<3, 3>(0, 0) = secondMoment.trace() * Mat3::Identity() - secondMoment;
  I.block<3, 3>(0, 3) = hat(firstMoment);
  I.block<3, 3>(3, 0) = hat(firstMoment).transpose();
  I.block<3, 3>(3, 3) = mass * Mat3::Identity();
  return I;
}

}  // namespace samara::core
