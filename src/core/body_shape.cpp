// BodyImpl's per-shape data beyond updateShape (body.cpp): what moved since the last shape,
// the shape velocity's momenta and the flow law's per-part lengths.
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/body_impl.h"

namespace samara::core {

namespace {
using MomentLanes = double __attribute__((vector_size(16)));  // two lanes of plain IEEE arithmetic
}  // namespace

bool BodyImpl::markDirty(const geometry::VertexMatrix& V0) {
  const int nf = mesh.numFaces();
  const size_t np = topo.parts.size();
  const bool reuse = animation && reuseValid && &V0 != &mesh.V && V0.rows() == mesh.V.rows() &&
                     faceDirty.size() == static_cast<size_t>(nf);
  if (!animation) {  // one shape: no reuse, nothing kept
    faceDirty = std::vector<std::uint8_t>();
    partDirty = std::vector<std::uint8_t>();
    return false;
  }
  faceDirty.assign(static_cast<size_t>(nf), 1);
  partDirty.assign(np, 1);
  firstMovedVertex = 0;
  if (!reuse) return false;
  // Bitwise: a coordinate going from +0 to −0 counts as a move.
  const auto nv = static_cast<size_t>(V0.rows());
  std::vector<std::uint8_t> moved(nv);
  const double* a = V0.data();  // row-major n × 3
  const double* b = mesh.V.data();
  for (size_t i = 0; i < nv; ++i) {
    std::uint64_t diff = 0;
    for (size_t c = 0; c < 3; ++c) {
      diff |=
          std::bit_cast<std::uint64_t>(a[3 * i + c]) ^ std::bit_cast<std::uint64_t>(b[3 * i + c]);
    }
    moved[i] = diff != 0 ? 1 : 0;
  }
  firstMovedVertex = static_cast<size_t>(std::find(moved.begin(), moved.end(), 1) - moved.begin());
  std::fill(partDirty.begin(), partDirty.end(), 0);
  for (int f = 0; f < nf; ++f) {
    const std::uint8_t d = moved[static_cast<size_t>(mesh.F(f, 0))] |
                           moved[static_cast<size_t>(mesh.F(f, 1))] |
                           moved[static_cast<size_t>(mesh.F(f, 2))];
    faceDirty[static_cast<size_t>(f)] = d;
    partDirty[static_cast<size_t>(topo.facePart[f])] |= d;
  }
  return true;
}

void BodyImpl::updateShapeVelocity(const geometry::VertexMatrix& V0,
                                   const geometry::VertexMatrix& V1, double h) {
  const bool perPart = perPartSums();
  const int nf = mesh.numFaces();
  // Shape velocity (GwtF Alg. 4 and 6): vertex and face-centroid velocities.
  mu0Body.setZero();
  mu0FluidUnit.setZero();
  shapeEnergyBody = 0.0;
  shapeEnergyFluidUnit = 0.0;
  if (!animation) faceShapeVel.clear();
  if (animation) {
    // Vertex velocities (V1 − V0)/h, component by component as Eigen's quotient forms them,
    // in one vectorised pass (a still vertex's ±0 differences are their own quotients).
    const auto nv = static_cast<size_t>(mesh.numVertices());
    vertexShapeVel.resize(3 * nv);
    const double* a0 = V0.data();  // row-major n × 3
    const double* a1 = V1.data();
    double* vd = vertexShapeVel.data();
    quotients(3 * nv, a1, a0, h, vd);
    // The sums in locals (in registers: summed into the members, every addition went
    // through memory), the same additions in the same order.
    Vec6 mb = mu0Body;
    double eb = shapeEnergyBody;
    for (size_t i = 0; i < nv; ++i) {
      const double* xv = vd + 3 * i;
      // A vertex at rest adds only zeros (never to a −0 sum: skipping it keeps the bits).
      if (xv[0] == 0.0 && xv[1] == 0.0 && xv[2] == 0.0) continue;
      const Vec3 xd(xv[0], xv[1], xv[2]);
      const Vec3 x(a0[3 * i], a0[3 * i + 1], a0[3 * i + 2]);
      mb.head<3>() += vertexMass[i] * x.cross(xd);
      mb.tail<3>() += vertexMass[i] * xd;
      eb += 0.5 * vertexMass[i] * xd.squaredNorm();
    }
    mu0Body = mb;
    shapeEnergyBody = eb;
    faceShapeVel.resize(nf);  // every entry is set below
    // (a + b + c) / 3 per component: the sums, then their thirds in one vectorised pass (a
    // face at rest, sums ±0, is its own third).
    for (int f = 0; f < nf; ++f) {
      const double* v0 = vd + 3 * static_cast<size_t>(mesh.F(f, 0));
      const double* v1 = vd + 3 * static_cast<size_t>(mesh.F(f, 1));
      const double* v2 = vd + 3 * static_cast<size_t>(mesh.F(f, 2));
      faceShapeVel[f] =
          Vec3((v0[0] + v1[0]) + v2[0], (v0[1] + v1[1]) + v2[1], (v0[2] + v1[2]) + v2[2]);
    }
    static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 arrays are packed triples");
    double* fv = faceShapeVel.empty() ? nullptr : faceShapeVel[0].data();
    quotients(3 * static_cast<size_t>(nf), fv, nullptr, 3.0, fv);
    // Each part's sums in locals over a run of its faces, taken from and put back to the
    // part's at the run's ends (the same additions in the same order).
    size_t run = std::numeric_limits<size_t>::max();
    Vec6 mu = Vec6::Zero();
    double e = 0.0;
    const auto flush = [&]() {
      if (run == std::numeric_limits<size_t>::max()) return;
      (perPart ? mu0FluidPart[run] : mu0FluidUnit) = mu;
      (perPart ? shapeEnergyFluidPart[run] : shapeEnergyFluidUnit) = e;
    };
    for (int f = 0; f < nf; ++f) {
      const Vec3 xd = faceShapeVel[f];
      if (xd.x() == 0.0 && xd.y() == 0.0 && xd.z() == 0.0) continue;  // adds only zeros
      const double xn = xd.dot(geo.normal[f]);
      const auto p = perPart ? static_cast<size_t>(topo.facePart[f]) : 0;
      if (p != run) {
        flush();
        run = p;
        mu = perPart ? mu0FluidPart[p] : mu0FluidUnit;
        e = perPart ? shapeEnergyFluidPart[p] : shapeEnergyFluidUnit;
      }
      const double wxn = faceWeight[f] * xn;
      mu[0] += wxn * drag.mx[f];
      mu[1] += wxn * drag.my[f];
      mu[2] += wxn * drag.mz[f];
      mu[3] += wxn * drag.nx[f];
      mu[4] += wxn * drag.ny[f];
      mu[5] += wxn * drag.nz[f];
      e += 0.5 * faceWeight[f] * xn * xn;
    }
    flush();
  }
}

void BodyImpl::refillFaceCoefficients(bool reuse) {
  if (!reuse) {
    dragRho = std::numeric_limits<double>::quiet_NaN();  // k to refill
    lawNu = dragRho;                                     // friction coefficients to recompute
    return;
  }
  const double c1 = kBlasius * std::sqrt(lawNu);  // as updateFluid computes them
  const double c2 = kImai * lawNu;
  for (size_t p = 0; p < topo.parts.size(); ++p) {
    if (partDirty[p] == 0) continue;
    for (int f : topo.parts[p].faces) {
      if (!std::isnan(dragRho)) drag.k[f] = dragRho * faceDragCA[f];
      if (!std::isnan(lawNu)) {
        law.fric[f] = c1 * faceSqrtInvLen[f];
        law.visc[f] = c2 * faceInvLen[f];
      }
    }
  }
}

void BodyImpl::updatePartLengths(bool reuse) {
  partSumsRho = std::numeric_limits<double>::quiet_NaN();  // the faces' sums to re-form
  law.forgetLiftTensors();                                 // the normals or S may have moved
  const size_t nf = drag.size();
  const auto padded = static_cast<size_t>(drag.padded);
  const bool tensors = model->rotationalLift();  // else law.lift stays empty
  const size_t np = topo.parts.size();
  if (law.lift.size() != (tensors ? 6 * np : 0) || law.fric.size() != padded ||
      law.plate.size() != padded) {  // else all set below
    reuse = false;
    law.lift.assign(tensors ? 6 * np : 0, 0.0);
    law.part.assign(tensors ? nf : 0, 0);
    law.parts = tensors ? static_cast<int>(np) : 0;
    law.fric.assign(padded, 0.0);  // padded like drag (the face kernel reads whole groups)
    law.visc.assign(padded, 0.0);
    law.plate.assign(padded, 0.0);
    faceInvLen.assign(nf, 0.0);
    faceSqrtInvLen.assign(nf, 0.0);
  }
  for (size_t p = 0; p < topo.parts.size(); ++p) {
    if (reuse && partDirty[p] == 0) continue;
    const geometry::Part& part = topo.parts[p];
    double A = 0.0;
    Vec3 c = Vec3::Zero();
    for (int f : part.faces) {
      A += geo.area[f];
      c += geo.area[f] * drag.centroid(f);
    }
    double ell = 0.0;
    const bool closed = part.kind == geometry::PartKind::kClosed;
    Mat3 M = Mat3::Zero();  // ∫(x − c)(x − c)ᵀ dA / A
    double volume = 0.0;    // closed parts with a rotational lift: (1/3) ∮ (x − c)·n dA
    if (A > 0.0) {
      c /= A;
      if (closed && tensors) {  // only the rotational lift's κ uses it
        for (int f : part.faces) volume += geo.area[f] * (drag.centroid(f) - c).dot(drag.normal(f));
        volume = std::abs(volume) / 3.0;
      }
      // Exactly: per triangle (A/12)(Σ p_i p_iᵀ + (Σ p_i)(Σ p_i)ᵀ), p_i = vertex − c; its
      // trace ∫|x − c|² dA summed on its own (the friction's length, to the bit as before).
      // M's six distinct entries (xx, xy, xz, yy, yz, zz), each as the whole 3 × 3 sum would
      // form it.
      double m2 = 0.0;
      // The six sums in pairs of lanes (xx, xy), (xz, yy), (yz, zz): each lane the scalar
      // sum's own operations in its order, so the same bits, in 3 registers instead of 6
      // (the scalar loop spilled its running sums to the stack).
      MomentLanes mA = {0.0, 0.0}, mB = {0.0, 0.0}, mC = {0.0, 0.0};
      const bool second = tensors || closed;
      for (int f : part.faces) {
        const Vec3 p0 = mesh.vertex(mesh.F(f, 0)) - c;
        const Vec3 p1 = mesh.vertex(mesh.F(f, 1)) - c;
        const Vec3 p2 = mesh.vertex(mesh.F(f, 2)) - c;
        const Vec3 ps = p0 + p1 + p2;
        const double w = geo.area[f] / 12.0;
        m2 += w * (p0.squaredNorm() + p1.squaredNorm() + p2.squaredNorm() + ps.squaredNorm());
        if (second) {
          const MomentLanes wv = {w, w};
          // Lanes (xx, xy): (x, x)·(x, y); (xz, yy): (x, y)·(z, y); (yz, zz): (y, z)·(z, z).
          const MomentLanes a0 = {p0.x(), p0.x()}, b0 = {p0.x(), p0.y()};
          const MomentLanes a1 = {p1.x(), p1.x()}, b1 = {p1.x(), p1.y()};
          const MomentLanes a2 = {p2.x(), p2.x()}, b2 = {p2.x(), p2.y()};
          const MomentLanes as = {ps.x(), ps.x()}, bs = {ps.x(), ps.y()};
          mA += wv * (((a0 * b0 + a1 * b1) + a2 * b2) + as * bs);
          const MomentLanes c0 = {p0.x(), p0.y()}, d0 = {p0.z(), p0.y()};
          const MomentLanes c1 = {p1.x(), p1.y()}, d1 = {p1.z(), p1.y()};
          const MomentLanes c2 = {p2.x(), p2.y()}, d2 = {p2.z(), p2.y()};
          const MomentLanes cs = {ps.x(), ps.y()}, ds = {ps.z(), ps.y()};
          mB += wv * (((c0 * d0 + c1 * d1) + c2 * d2) + cs * ds);
          const MomentLanes e0 = {p0.y(), p0.z()}, f0 = {p0.z(), p0.z()};
          const MomentLanes e1 = {p1.y(), p1.z()}, f1 = {p1.z(), p1.z()};
          const MomentLanes e2 = {p2.y(), p2.z()}, f2 = {p2.z(), p2.z()};
          const MomentLanes es = {ps.y(), ps.z()}, fs = {ps.z(), ps.z()};
          mC += wv * (((e0 * f0 + e1 * f1) + e2 * f2) + es * fs);
        }
      }
      M << mA[0], mA[1], mB[0], mA[1], mB[1], mC[0], mB[0], mC[0], mC[1];
      M /= A;
      ell = std::sqrt(1.5 * m2 / A);  // half-chord of a square plate
    }
    const bool some = ell > 0.0;
    // C_T and C_D0's weight: 1 − √(λ₃/λ₂) of M on a closed part (FlowLawFaces::plate).
    double plate = 1.0;
    if (closed) {
      const Vec3 l = Eigen::SelfAdjointEigenSolver<Mat3>(M, Eigen::EigenvaluesOnly)
                         .eigenvalues()
                         .cwiseMax(0.0);  // ascending
      plate = l[1] > 0.0 ? 1.0 - std::sqrt(l[0] / l[1]) : 0.0;
    }
    // Λ = √(3 M): its eigenvalues are the half-chords along M's axes (a strip's exactly).
    Mat3 halfChords = Mat3::Zero();
    if (tensors && some && !closed) {
      const Eigen::SelfAdjointEigenSolver<Mat3> eig(3.0 * M);
      const Vec3 l = eig.eigenvalues().cwiseMax(0.0).cwiseSqrt();
      halfChords = eig.eigenvectors() * l.asDiagonal() * eig.eigenvectors().transpose();
    }
    // A closed part's rotational lift: Rubinow & Keller's sphere with the radius 3V/A (a
    // sphere's r exactly; 1.5 r on a slender round body and 1.5 t on a thin closed card,
    // whose length does not enter: a Magnus force per unit length ∝ r²).
    const double kappaClosed = A > 0.0 ? 0.75 * 3.0 * volume / A : 0.0;
    const double invLen = some ? 0.5 / ell : 0.0;
    const double sqrtInvLen = some ? std::sqrt(0.5 / ell) : 0.0;
    if (tensors) {  // S: K = −n̂ S n̂ per face (FlowLawFaces::lift)
      const Mat3 S =
          closed ? Mat3(kappaClosed * Mat3::Identity()) : Mat3(0.5 * kRotationCR * halfChords);
      const double e[6] = {S(0, 0), S(0, 1), S(0, 2), S(1, 1), S(1, 2), S(2, 2)};
      std::copy(e, e + 6, law.lift.begin() + static_cast<std::ptrdiff_t>(6 * p));
    }
    for (int f : part.faces) {
      if (tensors) law.part[f] = static_cast<int>(p);
      faceInvLen[f] = invLen;
      faceSqrtInvLen[f] = sqrtInvLen;
      law.plate[f] = plate;
    }
  }
  if (!reuse) law.pack(drag.padded);  // else the same parts as packed
}

}  // namespace samara::core
