#include "core/forces.h"

#include <cmath>

namespace samara::core {

void DragFaces::resize(int n) {
  faces = n;
  padded = (n + kFaceLanes - 1) / kFaceLanes * kFaceLanes;
  for (std::vector<double>* v : {&x, &y, &z, &nx, &ny, &nz, &mx, &my, &mz, &k}) {
    v->assign(static_cast<size_t>(padded), 0.0);
  }
}

void DragFaces::add(const Vec6& a, const Vec3& centroid, double kf) {
  if (faces == padded) {
    padded += kFaceLanes;
    for (std::vector<double>* v : {&x, &y, &z, &nx, &ny, &nz, &mx, &my, &mz, &k}) {
      v->resize(static_cast<size_t>(padded), 0.0);
    }
  }
  const auto f = static_cast<size_t>(faces++);
  set(f, a, centroid);
  k[f] = kf;
}

void DragFaces::set(size_t f, const Vec6& a, const Vec3& centroid) {
  x[f] = centroid.x();
  y[f] = centroid.y();
  z[f] = centroid.z();
  mx[f] = a[0];
  my[f] = a[1];
  mz[f] = a[2];
  nx[f] = a[3];
  ny[f] = a[4];
  nz[f] = a[5];
}

void addDragWrench(const DragFaces& faces, const Vec6& Y, const Vec3& offset, const Vec3* offsets,
                   Vec6* F, Mat6* J) {
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  const size_t n = faces.size();
  Vec6 Fsum = Vec6::Zero();
  // Jacobian: −k a ⊗ (s a + (⟨u,n⟩/s) (x×u, u)); the s a aᵀ part is symmetric.
  Mat6 Jsym = Mat6::Zero();
  Mat6 Jgen = Mat6::Zero();
  for (size_t f = 0; f < n; ++f) {
    const Vec6 a = faces.a(f);
    const Vec3 x = faces.centroid(f);
    const Vec3 o = offsets ? offsets[f] : offset;
    const Vec3 u = v + w.cross(x) + o;
    const double un = u.dot(a.tail<3>());
    const double s = u.norm();
    const double k = faces.k[f];
    Fsum.noalias() -= (k * s * un) * a;
    if (J != nullptr && s > 0.0) {
      Jsym.noalias() -= (k * s) * (a * a.transpose());
      Vec6 c;
      c.head<3>() = x.cross(u);
      c.tail<3>() = u;
      Jgen.noalias() -= (k * un / s) * (a * c.transpose());
    }
  }
  *F += Fsum;
  if (J != nullptr) *J += Jsym + Jgen;
}

void dragFaceForces(const DragFaces& faces, const Vec6& Y, const Vec3& offset, const Vec3* offsets,
                    std::vector<Vec3>* forces) {
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  forces->resize(faces.size());
  for (size_t f = 0; f < faces.size(); ++f) {
    const Vec3 n = faces.normal(f);
    const Vec3 u = v + w.cross(faces.centroid(f)) + (offsets ? offsets[f] : offset);
    (*forces)[f] = -(faces.k[f] * u.norm() * u.dot(n)) * n;
  }
}

Vec6 gravityWrench(const Pose& g, double mass, const Vec3& comBody, const Vec3& gravity) {
  const Vec3 fBody = g.q.conjugate() * (mass * gravity);
  Vec6 W;
  W.head<3>() = comBody.cross(fBody);
  W.tail<3>() = fBody;
  return W;
}

double hydrostaticPressure(const FluidDef& fluid, double gravityNorm, double height) {
  const double level = fluid.water ? fluid.water->level : 0.0;
  return gravityNorm * densityAtHeight(fluid, height) * (level - height);
}

namespace {

/// Adds −∫ p n dA and −∫ x × p n dA over the triangle (a, b, c) (body coordinates, normal
/// n, area A) where p is linear with vertex values pa, pb, pc.
void addPressureTriangle(const Vec3& a, const Vec3& b, const Vec3& c, double pa, double pb,
                         double pc, Vec6* W) {
  const Vec3 cr = (b - a).cross(c - a);  // = 2 A n
  const double twiceArea = cr.norm();
  if (twiceArea <= 0.0) return;
  const double A = 0.5 * twiceArea;
  const Vec3 n = cr / twiceArea;
  const double intP = A * (pa + pb + pc) / 3.0;
  // ∫ x p dA = A/12 (Σ x_i p_i + (Σ x_i)(Σ p_i)) for linear x and p.
  const Vec3 intXP = (A / 12.0) * (a * pa + b * pb + c * pc + (a + b + c) * (pa + pb + pc));
  W->head<3>() -= intXP.cross(n);
  W->tail<3>() -= intP * n;
}

}  // namespace

Vec6 buoyancyWrenchClosed(const Pose& g, const geometry::TriMesh& mesh,
                          const std::vector<int>& faces, const FluidDef& fluid,
                          const Vec3& gravity) {
  Vec6 W = Vec6::Zero();
  const double gn = gravity.norm();
  if (gn == 0.0) return W;
  const Vec3 up = -gravity / gn;
  const Vec3 upBody = g.q.conjugate() * up;
  const double h0 = up.dot(g.b);
  const double level = fluid.water ? fluid.water->level : 0.0;
  for (int f : faces) {
    Vec3 p[3];
    double hgt[3];
    double pr[3];
    for (int j = 0; j < 3; ++j) {
      p[j] = mesh.vertex(mesh.F(f, j));
      hgt[j] = h0 + upBody.dot(p[j]);
      pr[j] = hydrostaticPressure(fluid, gn, hgt[j]);
    }
    const bool below0 = hgt[0] < level, below1 = hgt[1] < level, below2 = hgt[2] < level;
    if (!fluid.water || (below0 == below1 && below1 == below2)) {
      addPressureTriangle(p[0], p[1], p[2], pr[0], pr[1], pr[2], &W);
      continue;
    }
    // Clip at the water level: the lone vertex i is on one side, j and k on the other.
    const int i = (below0 != below1 && below0 != below2) ? 0 : (below1 != below0 ? 1 : 2);
    const int j = (i + 1) % 3;
    const int k = (i + 2) % 3;
    const double tij = (level - hgt[i]) / (hgt[j] - hgt[i]);
    const double tik = (level - hgt[i]) / (hgt[k] - hgt[i]);
    const Vec3 pij = p[i] + tij * (p[j] - p[i]);
    const Vec3 pik = p[i] + tik * (p[k] - p[i]);
    // Pressure at the level is 0 by construction (p(L) = 0 from either side).
    addPressureTriangle(p[i], pij, pik, pr[i], 0.0, 0.0, &W);
    addPressureTriangle(pij, p[j], p[k], 0.0, pr[j], pr[k], &W);
    addPressureTriangle(pij, p[k], pik, 0.0, pr[k], 0.0, &W);
  }
  return W;
}

void addContactWrench(const std::vector<ContactPoint>& contacts, const Vec3& upBody,
                      double friction, double slipVelocity, const Vec6& Y, Vec6* F, Mat6* J) {
  const Vec3 w = Y.head<3>();
  const Vec3 v = Y.tail<3>();
  const double vs2 = slipVelocity * slipVelocity;
  // The Jacobian's sums: the rank-one terms, and Σ γ, Σ γ x, Σ γ x xᵀ of the isotropic one.
  Mat6 rank1 = Mat6::Zero();
  double g0 = 0.0;
  Vec3 gx = Vec3::Zero();
  Mat3 gxx = Mat3::Zero();
  for (const ContactPoint& cp : contacts) {
    const Vec3 u = v + w.cross(cp.x);
    const double vn = upBody.dot(u);
    const double fn = cp.k * cp.depth - cp.c * vn;
    if (fn <= 0.0) continue;  // separating faster than the spring pushes: no force
    const Vec3 vt = u - vn * upBody;
    const double S = std::sqrt(vt.squaredNorm() + vs2);
    const Vec3 force = fn * upBody - (friction * fn / S) * vt;
    F->head<3>() += cp.x.cross(force);
    F->tail<3>() += force;
    if (J != nullptr) {
      // dforce/du = −c n nᵀ + (μc/S) vt nᵀ + (μ fn/S³) vt vtᵀ − (μ fn/S)(I − n nᵀ), n = up;
      // the wrench's Jacobian is Q (dforce/du) Qᵀ with Q = [x̂; I], and Q p qᵀ Qᵀ =
      // (x × p, p)(x × q, q)ᵀ for each rank-one term.
      const double gamma = friction * fn / S;
      Vec6 a, b;
      a << cp.x.cross(upBody), upBody;
      b << cp.x.cross(vt), vt;
      rank1.noalias() += ((gamma - cp.c) * a + (friction * cp.c / S) * b) * a.transpose();
      rank1.noalias() += (gamma / (S * S) * b) * b.transpose();
      g0 += gamma;
      gx += gamma * cp.x;
      gxx.noalias() += (gamma * cp.x) * cp.x.transpose();
    }
  }
  if (J == nullptr) return;
  // −Σ γ Q Qᵀ = −[[Σ γ (|x|² I − x xᵀ), Σ γ x̂], [−Σ γ x̂, Σ γ I]].
  const Mat3 H = hat(gx);
  *J += rank1;
  J->block<3, 3>(0, 0) -= gxx.trace() * Mat3::Identity() - gxx;
  J->block<3, 3>(0, 3) -= H;
  J->block<3, 3>(3, 0) += H;
  J->block<3, 3>(3, 3) -= g0 * Mat3::Identity();
}

}  // namespace samara::core
