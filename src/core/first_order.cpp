#include "core/first_order.h"

#include <Eigen/LU>
#include <cassert>
#include <cmath>

#include "core/body.h"

namespace samara::core {

namespace {

bool finite(const Pose& g) { return g.q.coeffs().allFinite() && g.b.allFinite(); }

/// R B Rᵀ for every block.
std::vector<Mat3> rotated(const std::vector<Mat3>& B, const Mat3& R) {
  std::vector<Mat3> out(B.size());
  for (size_t j = 0; j < B.size(); ++j) out[j] = R * B[j] * R.transpose();
  return out;
}

/// Rows R x + b − origin of a body-frame shape placed by `g`.
geometry::VertexMatrix placed(const Pose& g, const geometry::VertexMatrix& V, const Vec3& origin) {
  const Mat3 R = g.R();
  const Vec3 t = g.b - origin;
  geometry::VertexMatrix P(V.rows(), 3);
  for (Eigen::Index j = 0; j < V.rows(); ++j) {
    P.row(j) = (R * V.row(j).transpose() + t).transpose();
  }
  return P;
}

}  // namespace

void validateFirstOrderDef(const FirstOrderDef& def, const std::string& path) {
  auto require = [&](bool ok, const char* field, const char* what) {
    if (!ok) throw DefinitionError(path + "/" + field, std::string(field) + " " + what);
  };
  if (def.kind == FirstOrderKind::kDissipative) {
    require(std::isfinite(def.normalDrag) && def.normalDrag >= 0.0, "normalDrag",
            "must be finite and > 0 (N·s/m³), or 0 (auto)");
    require(std::isfinite(def.tangentialDrag), "tangentialDrag",
            "must be finite and ≥ 0 (N·s/m³), or < 0 (auto)");
  } else {
    require(std::isfinite(def.normalAddedMass) && def.normalAddedMass >= 0.0, "normalAddedMass",
            "must be finite and ≥ 0 (kg/m²)");
  }
}

FirstOrderDef resolveFirstOrderDrag(const FirstOrderDef& def, double fluidDensity) {
  constexpr double kDragCoefficient = 1.0;  // C_D
  constexpr double kSpeed = 1.0;            // U, m/s: the linearisation speed
  FirstOrderDef out = def;
  if (out.normalDrag == 0.0) out.normalDrag = 0.5 * fluidDensity * kDragCoefficient * kSpeed;
  if (out.tangentialDrag < 0.0) out.tangentialDrag = 0.1 * out.normalDrag;
  return out;
}

std::vector<Mat3> vertexMetrics(const FirstOrderDef& def, const geometry::VertexMatrix& V,
                                const geometry::FaceMatrix& F,
                                const std::vector<double>& vertexMass) {
  const Eigen::Index n = V.rows();
  const bool dissipative = def.kind == FirstOrderKind::kDissipative;
  std::vector<Mat3> B(static_cast<size_t>(n), Mat3::Zero());
  if (!dissipative) {
    assert(vertexMass.size() == static_cast<size_t>(n));
    for (Eigen::Index j = 0; j < n; ++j) {
      B[static_cast<size_t>(j)] = vertexMass[static_cast<size_t>(j)] * Mat3::Identity();
    }
    if (def.normalAddedMass == 0.0) return B;
  }
  // Vertex area A_j (a third of each adjacent face), Σ 2A_f n_f and Σ 2A_f n_f n_fᵀ.
  std::vector<double> area(static_cast<size_t>(n), 0.0);
  std::vector<Vec3> normalSum(static_cast<size_t>(n), Vec3::Zero());
  std::vector<Mat3> projSum(static_cast<size_t>(n), Mat3::Zero());
  for (Eigen::Index f = 0; f < F.rows(); ++f) {
    const Vec3 a = V.row(F(f, 0)).transpose();
    const Vec3 c2 = (V.row(F(f, 1)).transpose() - a).cross(V.row(F(f, 2)).transpose() - a);
    const double twiceArea = c2.norm();
    const Mat3 proj = twiceArea > 0.0 ? Mat3(c2 * c2.transpose() / twiceArea) : Mat3::Zero();
    for (int k = 0; k < 3; ++k) {
      const auto j = static_cast<size_t>(F(f, k));
      area[j] += twiceArea / 6.0;
      normalSum[j] += c2;
      projSum[j] += proj;
    }
  }
  for (size_t j = 0; j < B.size(); ++j) {
    if (!(area[j] > 0.0)) continue;
    const double len = normalSum[j].norm();
    // n nᵀ from the area-weighted normal; where the faces' normals cancel (a fold), the
    // area-weighted mean of the face projectors.
    const Mat3 nn = len >= 1e-6 * 6.0 * area[j]
                        ? Mat3(normalSum[j] * normalSum[j].transpose() / (len * len))
                        : Mat3(projSum[j] / (6.0 * area[j]));
    if (dissipative) {
      B[j] = area[j] * (def.normalDrag * nn + def.tangentialDrag * (Mat3::Identity() - nn));
    } else {
      B[j] += area[j] * def.normalAddedMass * nn;
    }
  }
  return B;
}

Vec6 discreteMomenta(const geometry::VertexMatrix& p, const std::vector<Mat3>& B,
                     const geometry::VertexMatrix& pNext, const std::vector<Mat3>& BNext,
                     double h) {
  Vec3 ang = Vec3::Zero();
  Vec3 lin = Vec3::Zero();
  for (Eigen::Index j = 0; j < p.rows(); ++j) {
    const auto k = static_cast<size_t>(j);
    const Vec3 p0 = p.row(j).transpose();
    const Vec3 p1 = pNext.row(j).transpose();
    const Vec3 d = p1 - p0;
    const Vec3 a0 = B[k] * d;
    const Vec3 a1 = BNext[k] * d;
    // −μ of MfSC Eqn. 5 (Alg. 1 steps 3–4).
    ang += p1.cross(a0) + p0.cross(a1);
    lin += a0 + a1;
  }
  Vec6 M;
  M << ang, lin;
  return M / (2.0 * h);
}

Mat6 discreteMomentaJacobian(const geometry::VertexMatrix& p, const std::vector<Mat3>& B,
                             const geometry::VertexMatrix& pNext, const std::vector<Mat3>& BNext,
                             double h, const Vec3& centre) {
  // Per vertex, with Δ = p̃ − p, a = BΔ, ã = B̃Δ:
  //   ∂M/∂p̃      = [ −â + p̃̂ B + p̂ B̃ ;  B + B̃ ]                   (6×3)
  //   ∂(B̃Δ)/∂ω   = −ã^ + B̃ Δ̂    (from δB̃ = [ω̂, B̃])               (3×3)
  //   δp̃ = −(p̃ − centre)^ ω + v.
  Mat6 J = Mat6::Zero();
  for (Eigen::Index j = 0; j < p.rows(); ++j) {
    const auto k = static_cast<size_t>(j);
    const Vec3 p0 = p.row(j).transpose();
    const Vec3 p1 = pNext.row(j).transpose();
    const Vec3 d = p1 - p0;
    const Mat3& B0 = B[k];
    const Mat3& B1 = BNext[k];
    Eigen::Matrix<double, 6, 3> A;
    A.topRows<3>() = -hat(B0 * d) + hat(p1) * B0 + hat(p0) * B1;
    A.bottomRows<3>() = B0 + B1;
    const Mat3 C = -hat(B1 * d) + B1 * hat(d);
    J.rightCols<3>() += A;
    J.leftCols<3>() -= A * hat(p1 - centre);
    J.block<3, 3>(0, 0) += hat(p0) * C;
    J.block<3, 3>(3, 0) += C;
  }
  return J / (2.0 * h);
}

Vec6 firstOrderInitialMomentum(const FirstOrderDef& def, const geometry::TriMesh& mesh,
                               const std::vector<double>& vertexMass, const Pose& pose,
                               const Vec3& omegaWorld, const Vec3& comVelocityWorld) {
  FirstOrderDef inertial = def;
  inertial.kind = FirstOrderKind::kInertial;
  const std::vector<Mat3> B =
      rotated(vertexMetrics(inertial, mesh.V, mesh.F, vertexMass), pose.R());
  const geometry::VertexMatrix P = placed(pose, mesh.V, Vec3::Zero());
  double mass = 0.0;
  Vec3 first = Vec3::Zero();
  for (Eigen::Index j = 0; j < P.rows(); ++j) {
    mass += vertexMass[static_cast<size_t>(j)];
    first += vertexMass[static_cast<size_t>(j)] * P.row(j).transpose();
  }
  const Vec3 com = mass > 0.0 ? Vec3(first / mass) : Vec3::Zero();
  Vec6 M = Vec6::Zero();
  for (Eigen::Index j = 0; j < P.rows(); ++j) {
    const Vec3 pj = P.row(j).transpose();
    const Vec3 mv = B[static_cast<size_t>(j)] * (omegaWorld.cross(pj - com) + comVelocityWorld);
    M.head<3>() += pj.cross(mv);
    M.tail<3>() += mv;
  }
  return M;
}

namespace {

/// Mass sums of a step: Σ m_j, Σ m_j x̃_j of the shape at t + h (body frame) and Σ m_j q_j
/// of the placed shape at t about its centroid (P0).
struct MassMomentsOfStep {
  double totalMass = 0.0;
  Vec3 first1Body = Vec3::Zero();
  Vec3 first0 = Vec3::Zero();
};

MassMomentsOfStep massMoments(const std::vector<double>& mass, const geometry::VertexMatrix& Vnext,
                              const geometry::VertexMatrix& P0) {
  MassMomentsOfStep m;
  for (size_t j = 0; j < mass.size(); ++j) {
    m.totalMass += mass[j];
    m.first1Body += mass[j] * Vnext.row(static_cast<Eigen::Index>(j)).transpose();
  }
  for (Eigen::Index j = 0; j < P0.rows(); ++j)
    m.first0 += mass[static_cast<size_t>(j)] * P0.row(j).transpose();
  return m;
}

/// Scale: a residual r is a placement error per step of about (r_ang h / (b L²),
/// r_lin h / (b L)) in (rad, body sizes), b = tr(Σ B)/3, L = RMS radius about c. False if
/// the metric is degenerate.
bool residualScale(const std::vector<Mat3>& B0, const geometry::VertexMatrix& P0, double h,
                   double* L, double* sLin, double* sAng) {
  Mat3 Bsum = Mat3::Zero();
  for (const Mat3& b : B0) Bsum += b;
  const double b = Bsum.trace() / 3.0;
  *L = std::sqrt(P0.squaredNorm() / static_cast<double>(P0.rows()));
  if (!(*L > 0.0)) *L = 1.0;
  if (!(b > 0.0) || !std::isfinite(b)) return false;
  *sLin = h / (b * *L);
  *sAng = *sLin / *L;
  return true;
}

/// One Newton iterate of the first-order step.
struct Iterate {
  Pose g;
  geometry::VertexMatrix P1;  // end shape in the flow's frame, about c
  std::vector<Mat3> B1;
  Vec6 r;
  double norm = 0.0;
};

bool usableInput(const FirstOrderStepInput& in) {
  return in.h > 0.0 && std::isfinite(in.h) && finite(in.g) && in.momentum.allFinite() &&
         in.gravity.allFinite() && in.flow.allFinite() && std::isfinite(in.buoyantMassFraction) &&
         in.mesh->V.rows() != 0;
}

/// − ∂ϱ_mid/∂ξ of the dissipative target: ½ (ω × Σ m_j (q̃_j − centre) + m v) × g', with
/// `moment` = Σ m_j (q̃_j − centre), added to *J.
void addMidTorqueJacobian(const Vec3& moment, double totalMass, const Vec3& gEff, Mat6* J) {
  J->block<3, 3>(0, 0) -= 0.5 * hat(gEff) * hat(moment);
  J->block<3, 3>(0, 3) += 0.5 * totalMass * hat(gEff);
}

/// World-side update of placement g about the point cw (world): p ↦ R_δ (p − cw) + cw + t_δ
/// with (R_δ, t_δ) = τ(delta).
Pose updateAbout(const Pose& g, const Vec6& delta, const Vec3& cw) {
  const Pose tau = cayley(delta);
  Pose T;
  T.q = tau.q;
  T.b = cw - (tau.q * cw) + tau.b;
  return compose(T, g);
}

}  // namespace

FirstOrderStepResult firstOrderStep(const FirstOrderStepInput& in) {
  assert(in.def && in.mesh && in.shapeNext && in.vertexMass);
  const geometry::TriMesh& mesh = *in.mesh;
  const geometry::VertexMatrix& Vnext = *in.shapeNext;
  const std::vector<double>& mass = *in.vertexMass;
  assert(Vnext.rows() == mesh.V.rows() && mass.size() == static_cast<size_t>(mesh.V.rows()));
  const bool inertial = in.def->kind == FirstOrderKind::kInertial;
  assert(inertial || !in.def->autoDrag());  // resolveFirstOrderDrag first

  FirstOrderStepResult res;
  res.g = in.g;
  res.momentum = inertial ? in.momentum : Vec6::Zero();
  if (!usableInput(in)) return res;

  // Work about the centroid c of the placed shape at t, so that round-off and conditioning do
  // not depend on where the body is; moments about c: l_c = l − c × p.
  geometry::VertexMatrix P0 = placed(in.g, mesh.V, Vec3::Zero());
  const Vec3 c = P0.colwise().mean().transpose();
  P0.rowwise() -= c.transpose();
  const std::vector<Mat3> B0 = rotated(vertexMetrics(*in.def, mesh.V, mesh.F, mass), in.g.R());
  const std::vector<Mat3> B1body = vertexMetrics(*in.def, Vnext, mesh.F, mass);

  // Gravity (Eqn. 6): force m g', torque about c of Σ m_j q_j × g' with q_j = p_j − c.
  const Vec3 gEff = (1.0 - in.buoyantMassFraction) * in.gravity;
  const MassMomentsOfStep sums = massMoments(mass, Vnext, P0);
  const double totalMass = sums.totalMass;
  const Vec3 first1Body = sums.first1Body, first0 = sums.first0;
  const Vec3 force = totalMass * gEff;
  auto firstNext = [&](const Pose& g) { return Vec3(g.q * first1Body + totalMass * (g.b - c)); };
  // Dissipative: the end shape in the frame moving with the flow w, p̃ − h w (inertial: none).
  const Vec3 flowShift = inertial ? Vec3::Zero() : Vec3(in.h * in.flow);
  // The target about c. Inertial (§3.1.2, semi-implicit Euler): M_t + h ϱ_t, explicit.
  // Dissipative (§3.1.1): M = ϱ with the torque at the mid placement, ½(ϱ_t + ϱ_{t+1}) (MfSC
  // takes ϱ_t; the midpoint matches Alg. 1's midpoint torque of the drag, so a uniformly
  // dragged body that translates under gravity does not turn by O(h) per step).
  Vec6 momentumC = in.momentum;
  momentumC.head<3>() -= c.cross(Vec3(in.momentum.tail<3>()));
  auto targetAt = [&](const Pose& g) {
    Vec6 t;
    if (inertial) {
      t << momentumC.head<3>() + in.h * first0.cross(gEff), momentumC.tail<3>() + in.h * force;
    } else {
      t << 0.5 * (first0 + firstNext(g) - totalMass * flowShift).cross(gEff), force;
    }
    return t;
  };

  // Residual scale (see residualScale).
  double L = 0.0;
  double sLin = 0.0;
  double sAng = 0.0;
  if (!residualScale(B0, P0, in.h, &L, &sLin, &sAng)) return res;

  auto evaluate = [&](const Pose& g, Iterate* it) {
    it->g = g;
    it->P1 = placed(g, Vnext, c + flowShift);
    it->B1 = rotated(B1body, g.R());
    it->r = discreteMomenta(P0, B0, it->P1, it->B1, in.h) - targetAt(g);
    Vec6 scaled;
    scaled << sAng * it->r.head<3>(), sLin * it->r.tail<3>();
    it->norm = scaled.norm();
    if (!std::isfinite(it->norm)) it->norm = INFINITY;
  };

  // Newton from the placement at t (the shape changes under a body that stays). Stops when
  // the correction, as a placement change, is ≤ tolerance; it is applied, so the error left
  // is of order tolerance² or round-off.
  Iterate cur, trial;
  evaluate(in.g, &cur);
  bool converged = cur.norm == 0.0;
  int iterations = 0;
  while (!converged && iterations < in.maxIterations && std::isfinite(cur.norm)) {
    ++iterations;
    const Vec3 centre = cur.P1.colwise().mean().transpose();  // about c, flow frame
    Mat6 J = discreteMomentaJacobian(P0, B0, cur.P1, cur.B1, in.h, centre);
    if (!inertial) {
      addMidTorqueJacobian(firstNext(cur.g) - totalMass * (centre + flowShift), totalMass, gEff,
                           &J);
    }
    const Eigen::PartialPivLU<Mat6> lu(J);
    const Vec6 delta = -lu.solve(cur.r);
    if (!delta.allFinite()) break;
    const double stepSize = std::max(delta.head<3>().norm(), delta.tail<3>().norm() / L);
    const Vec3 cw = c + flowShift + centre;  // the centre in the world frame
    auto update = [&](double s) { return updateAbout(cur.g, s * delta, cw); };
    if (stepSize <= in.tolerance) {
      // At the round-off floor the residual need not decrease: take the step and stop.
      evaluate(update(1.0), &trial);
      if (std::isfinite(trial.norm)) {
        std::swap(cur, trial);
        converged = true;
      }
      break;
    }
    // Backtracking: halve the step until the residual decreases.
    bool accepted = false;
    for (double s = 1.0; s > 1e-6; s *= 0.5) {
      evaluate(update(s), &trial);
      if (trial.norm < cur.norm) {
        accepted = true;
        break;
      }
    }
    if (!accepted) break;
    std::swap(cur, trial);
    converged = cur.norm == 0.0;
  }

  res.iterations = iterations;
  res.residual = cur.norm;
  if (!converged || !finite(cur.g)) return res;
  res.converged = true;
  res.g = cur.g;
  // The gravity wrench that acted over the step, world, about the world origin.
  const Vec3 torqueC =
      inertial ? Vec3(first0.cross(gEff)) : Vec3(0.5 * (first0 + firstNext(cur.g)).cross(gEff));
  res.wrench << torqueC + c.cross(force), force;
  if (inertial) res.momentum = in.momentum + in.h * res.wrench;
  return res;
}

}  // namespace samara::core

namespace samara::core {

std::string FirstOrderModel::name() const {
  return def_.kind == FirstOrderKind::kInertial ? "gross-inertial" : "gross-dissipative";
}

std::vector<ModelParam> FirstOrderModel::parameterList() const {
  if (def_.kind == FirstOrderKind::kInertial) {
    return {{"normal_added_mass", def_.normalAddedMass}};
  }
  // The auto sentinels (0 and < 0) read and write as "auto".
  const auto drag = [](double v, bool isAuto) {
    return isAuto ? ParamValue(std::string("auto")) : ParamValue(v);
  };
  return {{"normal_drag", drag(def_.normalDrag, def_.normalDrag == 0.0)},
          {"tangential_drag", drag(def_.tangentialDrag, def_.tangentialDrag < 0.0)}};
}

void FirstOrderModel::readParameters(const ParamReader& r) {
  if (def_.kind == FirstOrderKind::kInertial) {
    r.allowOnly({"normal_added_mass"});
    if (r.has("normal_added_mass")) def_.normalAddedMass = r.number("normal_added_mass", false);
    return;
  }
  r.allowOnly({"normal_drag", "tangential_drag"});
  // "auto" (the default) is the sentinel: α = ½ ρ_f · 1 m/s, β = α/10.
  const FirstOrderDef autoDrag;
  const auto drag = [&](const char* key, bool allowZero, double autoValue, double* out) {
    if (!r.has(key)) return;
    if (r.isString(key) && r.text(key) == "auto") {
      *out = autoValue;
    } else if (r.isNumber(key)) {
      *out = r.number(key, !allowZero);
    } else {
      r.fail(key, std::string(allowZero ? "expected \"auto\" or a number >= 0 (N·s/m³), got "
                                        : "expected \"auto\" or a number > 0 (N·s/m³), got ") +
                      r.describe(key));
    }
  };
  drag("normal_drag", false, autoDrag.normalDrag, &def_.normalDrag);
  drag("tangential_drag", true, autoDrag.tangentialDrag, &def_.tangentialDrag);
}

void applyFirstOrderFloor(const FirstOrderStepInput& in, const FloorDef& floor, const Vec3& up,
                          const Vec3& comBody, double totalMass, FirstOrderStepResult* r) {
  const geometry::VertexMatrix& Vn = *in.shapeNext;
  const Vec3 upNext = r->g.q.conjugate() * up;
  double lowest = 1e300;
  for (int i = 0; i < Vn.rows(); ++i) lowest = std::min(lowest, upNext.dot(Vn.row(i).transpose()));
  const double depth = floor.height - (up.dot(r->g.b) + lowest);
  if (depth <= 0.0) return;
  r->g.b += depth * up;
  // (The lift used to be all: the edgewise glide of a tilted dissipative card went on along
  // the floor for ever, 236 m in 120 s.)
  const double mu = floor.friction;
  auto sideOf = [&](const Vec3& v) { return Vec3(v - up.dot(v) * up); };
  if (in.def->kind == FirstOrderKind::kInertial) {
    const double into = r->momentum.tail<3>().dot(up);
    if (into < 0.0) {
      const Vec3 side = sideOf(r->momentum.tail<3>());
      const double n = side.norm();
      const double cut = -mu * into;
      const Vec3 dp = -into * up - (n > cut ? Vec3(side * (cut / n)) : side);
      r->momentum.tail<3>() += dp;
      r->momentum.head<3>() += r->g.toWorld(comBody).cross(dp);
    }
    return;
  }
  Mat3 dragSum = Mat3::Zero();
  for (const Mat3& B : vertexMetrics(*in.def, Vn, in.mesh->F, *in.vertexMass)) dragSum += B;
  const Mat3 R = r->g.R();
  const Vec3 force = (1.0 - in.buoyantMassFraction) * totalMass * in.gravity +
                     R * dragSum * R.transpose() * in.flow;
  const double normal = std::max(0.0, -force.dot(up));
  const double push = sideOf(force).norm();
  const Vec3 side = sideOf(r->g.b - in.g.b);
  r->g.b -= push > mu * normal ? Vec3(side * (mu * normal / push)) : side;
}

}  // namespace samara::core
