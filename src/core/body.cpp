#include <Eigen/Cholesky>
#include <Eigen/LU>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "core/body_impl.h"

namespace samara::core {
namespace {

/// ξ with cayley(ξ) = g (matrix Cayley map, rotation < π): ω = 2 q_vec / q_w and
/// (I + ½ω̂ + ¼ωωᵀ) v = (1 + |ω|²/4) b.
Vec6 cayleyInverse(const Pose& g) {
  Quat q = g.q.normalized();
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();
  const Vec3 omega = 2.0 * q.vec() / q.w();
  Mat3 M = Mat3::Identity() + 0.25 * omega * omega.transpose();
  M(0, 1) -= 0.5 * omega.z();
  M(0, 2) += 0.5 * omega.y();
  M(1, 0) += 0.5 * omega.z();
  M(1, 2) -= 0.5 * omega.x();
  M(2, 0) -= 0.5 * omega.y();
  M(2, 1) += 0.5 * omega.x();
  Vec6 xi;
  xi.head<3>() = omega;
  xi.tail<3>() = M.partialPivLu().solve((1.0 + 0.25 * omega.squaredNorm()) * g.b);
  return xi;
}

/// An implicit force made of the fluid model's wrench and floor contact, for one body and
/// one step. `frameBody` is the velocity of the frame Y is relative to (body frame): the
/// floor is fixed to the ground, so contact sees Y + (0, frameBody).
class BodyForce final : public ImplicitForce {
 public:
  BodyForce(const FluidModel& model, const FluidModelInput& modelIn,
            const std::vector<ContactPoint>& contacts, const Vec3& upBody, const FloorDef* floor,
            const Vec3& frameBody)
      : model_(model),
        modelIn_(modelIn),
        contacts_(contacts),
        upBody_(upBody),
        floor_(floor),
        frameBody_(frameBody) {}

  void evaluate(const Vec6& Y, Vec6* F, Mat6* dFdY) const override {
    F->setZero();
    if (dFdY != nullptr) dFdY->setZero();
    model_.addWrench(modelIn_, Y, F, dFdY);
    if (floor_ != nullptr && !contacts_.empty()) {
      Vec6 Yg = Y;
      if (frameBody_ != Vec3::Zero()) Yg.tail<3>() += frameBody_;
      addContactWrench(contacts_, upBody_, floor_->friction, floor_->slipVelocity, Yg, F, dFdY);
    }
  }

 private:
  const FluidModel& model_;
  const FluidModelInput& modelIn_;
  const std::vector<ContactPoint>& contacts_;
  Vec3 upBody_;
  const FloorDef* floor_;
  Vec3 frameBody_;
};

}  // namespace

void BodyImpl::updateShape(const geometry::VertexMatrix& V0, const geometry::VertexMatrix& V1,
                           double h, double t) {
  // An animated body recomputes only the faces, edges and parts whose vertices moved since
  // the last shape; the rest keep their results (the same bits).
  const bool reuse = markDirty(V0);
  faceBoxValid = false;  // drag's centroids are set below
  if (&V0 != &mesh.V) mesh.V = V0;
  shapeTime = t;
  if (reuse) {
    geometry::computeFaceGeometry(mesh, faceDirty, &geo);
  } else {
    geometry::computeFaceGeometry(mesh, &geo);
  }

  geometry::MassMoments closedUnit;
  geometry::MassMoments sheetUnit;
  const size_t np = topo.parts.size();
  if (!reuse) partMoments.assign(animation ? np : 0, geometry::MassMoments{});
  if (!reuse) closedFaces.clear();  // else the same parts' faces
  for (size_t p = 0; p < np; ++p) {
    const geometry::Part& part = topo.parts[p];
    const bool closed = part.kind == geometry::PartKind::kClosed;
    geometry::MassMoments unit;
    if (reuse && partDirty[p] == 0) {
      unit = partMoments[p];
    } else {
      unit = closed ? geometry::solidMoments(mesh, part, 1.0, false)  // volume, centroid
                    : geometry::sheetMoments(mesh, part, 1.0, false);
      if (animation) partMoments[p] = unit;
    }
    if (closed) {
      closedUnit += unit;
      if (!reuse) closedFaces.insert(closedFaces.end(), part.faces.begin(), part.faces.end());
    } else {
      sheetUnit += unit;
    }
  }
  closedVolume = closedUnit.mass;
  closedCentroid = closedUnit.com();
  sheetArea = sheetUnit.mass;
  sheetCentroid = sheetUnit.com();
  if (animation) {
    moments = geometry::lumpedMoments(mesh, vertexMass, &lumpedCache, firstMovedVertex);
    moments += pointMoments;
  }
  inertiaBody = spatialInertia(moments.mass, moments.first, moments.second);
  com = moments.com();

  const bool perPart = perPartSums();
  // One pass over the edges gives the body's δ and, if wanted, each part's.
  deltaAuto =
      geometry::computeDeltas(mesh, topo, geo, perPart ? &partDeltaAuto : nullptr,
                              animation ? &bendCache : nullptr, reuse ? &faceDirty : nullptr);
  delta = deltaOverride ? *deltaOverride : deltaAuto;
  const bool reuseParts = reuse && perPart && reusePerPart;
  if (perPart) {
    if (!reuseParts) addedPart.assign(np, Mat6::Zero());
    mu0FluidPart.assign(np, Vec6::Zero());
    shapeEnergyFluidPart.assign(np, 0.0);
  }
  // A rigid body's shape never changes again: what only δ and the per-face data below need
  // is freed as soon as they are computed (its peak memory is this function's).
  const bool rigid = !animation;
  if (rigid) topo.edges = std::vector<geometry::Edge>();  // (= {} would keep the capacity)

  const int nf = mesh.numFaces();
  faceWeight.resize(nf);
  faceDragCA.resize(nf);
  if (drag.faces != nf) drag.resize(nf);  // every face's entries are set below; padding stays 0
  area = 0.0;
  for (int f = 0; f < nf; ++f) {
    const double A = geo.area[f];
    area += A;
    if (reuse && faceDirty[static_cast<size_t>(f)] == 0) continue;
    const bool sheet = topo.isSheet[f] != 0;
    Vec6 a;
    a.head<3>() = geo.centroid[f].cross(geo.normal[f]);
    a.tail<3>() = geo.normal[f];
    drag.set(f, a, geo.centroid[f]);
    faceWeight[f] = (sheet ? 2.0 : 1.0) * A;
    faceDragCA[f] = (sheet ? 1.0 : 0.5) * A;
  }
  if (perPart) {
    addedUnit.setZero();
    for (size_t p = 0; p < np; ++p) {
      if (reuseParts && partDirty[p] == 0) continue;
      const std::vector<int>& pf = topo.parts[p].faces;
      addedPart[p] = weightedOuterSum(drag, faceWeight.data(), pf.data(), pf.size());
    }
  } else {
    addedUnit = weightedOuterSum(drag, faceWeight.data(), nullptr, static_cast<size_t>(nf));
  }
  reusePerPart = perPart;

  if (rigid) {  // drag holds them
    geo.normal = std::vector<Vec3>();
    geo.centroid = std::vector<Vec3>();
  }
  updatePartLengths(reuse);
  if (rigid) geo = geometry::FaceGeometry{};
  refillFaceCoefficients(reuse);

  updateShapeVelocity(V0, V1, h);
  if (perPart) {  // the whole body's sums (a δ override applies one δ to every part)
    for (size_t p = 0; p < np; ++p) {
      addedUnit += addedPart[p];
      mu0FluidUnit += mu0FluidPart[p];
      shapeEnergyFluidUnit += shapeEnergyFluidPart[p];
    }
  }
  // max |x − com|: the root of the largest square (the same bits: √ is monotone and
  // correctly rounded).
  double r2 = 0.0;
  for (int i = 0; i < mesh.numVertices(); ++i) {
    r2 = std::max(r2, (mesh.vertex(i) - com).squaredNorm());
  }
  boundRadius = std::sqrt(r2);
  reuseValid = animation != nullptr;
}

void BodyImpl::updateAnimatedShape(double t, double h) {
  if (!animation) return;
  if (t == shapeTime && h == shapeH) return;
  geometry::VertexMatrix V0;
  double v0Time = t;
  if (h == shapeH && std::abs(t - (shapeTime + shapeH)) <= 1e-12 * std::max(1.0, std::abs(t))) {
    V0 = next;  // the previous step's end shape
    v0Time = shapeTime + shapeH;
  } else {
    animation->evaluate(t, &V0);
  }
  geometry::VertexMatrix V1;
  animation->evaluate(t + h, &V1);
  updateShape(V0, V1, h, t);
  next = std::move(V1);
  shapeH = h;
  shapeV0Time = v0Time;
}

void BodyImpl::rebuildShape() {
  if (!animation) {
    delta = deltaOverride ? *deltaOverride : deltaAuto;
    return;
  }
  geometry::VertexMatrix V0;
  geometry::VertexMatrix V1;
  animation->evaluate(shapeV0Time, &V0);
  animation->evaluate(shapeTime + shapeH, &V1);
  updateShape(V0, V1, shapeH, shapeTime);
  next = std::move(V1);
}

void BodyImpl::updateFluid(const Pose& g, const WorldDef& world) {
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const double hc = up.dot(g.toWorld(com));
  const size_t nf = drag.size();
  if (firstOrder) {
    added.setZero();
    mu0 = mu0Body;
    shapeEnergyFluid = 0.0;
  } else if (!model->localFaces()) {
    // A peer model supplies its own added mass; the faces carry no GwtF drag.
    added = model->addedMass(modelInput(g, shapeTime, world.dt, world));
    added = 0.5 * (added + added.transpose());
    mu0 = mu0Body;
    shapeEnergyFluid = 0.0;
    std::fill(drag.k.begin(), drag.k.end(), 0.0);
    dragRho = std::numeric_limits<double>::quiet_NaN();
  } else if (!fluid.water || hc - boundRadius >= fluid.water->level ||
             hc + boundRadius < fluid.water->level) {
    const double rho = densityAtHeight(fluid, hc);
    if (exactAddedUnit) {  // potential flow: rigid, no δ
      added = rho * *exactAddedUnit;
      mu0 = mu0Body;
      shapeEnergyFluid = 0.0;
    } else if (perPartDelta()) {
      added.setZero();
      mu0 = mu0Body;
      shapeEnergyFluid = 0.0;
      for (size_t p = 0; p < addedPart.size(); ++p) {
        added += (partDeltaAuto[p] * rho) * addedPart[p];
        mu0 += (partDeltaAuto[p] * rho) * mu0FluidPart[p];
        shapeEnergyFluid += partDeltaAuto[p] * rho * shapeEnergyFluidPart[p];
      }
    } else {
      added = (delta * rho) * addedUnit;
      mu0 = mu0Body + (delta * rho) * mu0FluidUnit;
      shapeEnergyFluid = delta * rho * shapeEnergyFluidUnit;
    }
    if (rho != dragRho) {  // else k is the last step's
      for (size_t f = 0; f < nf; ++f) drag.k[f] = rho * faceDragCA[f];
      dragRho = rho;
    }
    const double nu = rho > 0.0 ? viscosityAtHeight(fluid, hc) / rho : 0.0;
    if (nu != lawNu) {  // else the friction coefficients are those of the last step
      const double c1 = kBlasius * std::sqrt(nu);
      const double c2 = kImai * nu;
      for (size_t f = 0; f < nf; ++f) {
        law.fric[f] = c1 * faceSqrtInvLen[f];
        law.visc[f] = c2 * faceInvLen[f];
      }
      lawNu = nu;
    }
  } else {
    // The body crosses the water level: per-face density from the centroid's height.
    const bool perPart = perPartDelta();
    const Vec3 upBody = g.q.conjugate() * up;
    const double h0 = up.dot(g.b);
    Mat6 sum = Mat6::Zero();
    Vec6 mu0f = Vec6::Zero();
    double ef = 0.0;
    double rhoArea = 0.0;  // Σ ρ_f w_f and Σ w_f: the exact tensor's mean density
    double weights = 0.0;
    for (size_t f = 0; f < nf; ++f) {
      const double hf = h0 + upBody.dot(drag.centroid(f));
      const double rho = densityAtHeight(fluid, hf);
      drag.k[f] = rho * faceDragCA[f];
      const double nu = rho > 0.0 ? viscosityAtHeight(fluid, hf) / rho : 0.0;
      law.fric[f] = kBlasius * std::sqrt(nu) * faceSqrtInvLen[f];
      law.visc[f] = kImai * nu * faceInvLen[f];
      lawNu = std::numeric_limits<double>::quiet_NaN();
      dragRho = lawNu;
      const Vec6 a = drag.a(f);
      // Per-part δ: each face carries its part's δ (then the sums hold δ already).
      const double w = perPart ? rho * partDeltaAuto[static_cast<size_t>(topo.facePart[f])] : rho;
      sum.noalias() += (w * faceWeight[f]) * (a * a.transpose());
      rhoArea += rho * faceWeight[f];
      weights += faceWeight[f];
      if (!faceShapeVel.empty()) {
        const double xn = faceShapeVel[f].dot(a.tail<3>());
        mu0f += (w * faceWeight[f] * xn) * a;
        ef += 0.5 * w * faceWeight[f] * xn * xn;
      }
    }
    const double d = perPart ? 1.0 : delta;
    added = d * sum;
    mu0 = mu0Body + d * mu0f;
    shapeEnergyFluid = d * ef;
    if (exactAddedUnit) {  // the potential-flow tensor at the wetted area's mean density
      added = (weights > 0.0 ? rhoArea / weights : 0.0) * *exactAddedUnit;
      mu0 = mu0Body;
      shapeEnergyFluid = 0.0;
    }
  }
  K = inertiaBody + added;
}

FluidModelInput BodyImpl::modelInput(const Pose& g, double t, double h,
                                     const WorldDef& world) const {
  const FluidDef& fluid = world.fluid;
  const Vec3 comWorld = g.toWorld(com);
  const double hc = upAxis(world.gravity).dot(comWorld);
  const bool inWater = fluid.water && hc < fluid.water->level;
  FluidModelInput in;
  in.t = t;
  in.h = h;
  in.density = inWater ? fluid.water->density : fluid.density;
  in.viscosity = inWater ? fluid.water->viscosity : fluid.viscosity;
  Vec3 flow = fluid.wind;
  if (fluid.gusts) flow += gustVelocity(fluid, comWorld, t);
  in.flowBody = g.q.conjugate() * flow;
  in.mass = moments.mass;
  in.com = com;
  in.inertiaCom = moments.inertiaAboutCom(com);
  in.mesh = &mesh;
  in.sheetThickness = sheetThickness;
  return in;
}

VariationalStepResult BodyImpl::tryFirstOrderStep(const BodyState& from, double h, double t,
                                                  const WorldDef& world, BodyState* to) {
  const Vec3 up = upAxis(world.gravity);
  const double rho = densityAtHeight(world.fluid, up.dot(from.g.toWorld(com)));
  FirstOrderStepInput in;
  in.def = &*firstOrder;
  in.mesh = &mesh;
  in.shapeNext = animation ? &next : &mesh.V;
  in.vertexMass = &firstOrderMass;
  in.g = from.g;
  in.momentum = from.carriedMomentum;
  in.gravity = world.gravity;
  // The background flow at the COM at the start of the step (uniform over the body).
  in.flow = world.fluid.wind;
  if (world.fluid.gusts) in.flow += gustVelocity(world.fluid, from.g.toWorld(com), t);
  in.buoyantMassFraction = rho * (closedVolume + sheetThickness * sheetArea) / moments.mass;
  in.h = h;
  in.tolerance = world.solver.tolerance;
  in.maxIterations = world.solver.maxIterations;
  FirstOrderStepResult r = firstOrderStep(in);
  if (r.converged && world.floor) {
    applyFirstOrderFloor(in, *world.floor, upAxis(world.gravity), com, moments.mass, &r);
  }
  VariationalStepResult out;
  out.converged = r.converged;
  out.iterations = r.iterations;
  out.residual = r.residual;
  if (!r.converged) return out;
  // The body velocity of the step: g_{k+1} = g_k τ(hY).
  Pose rel;
  rel.q = from.g.q.conjugate() * r.g.q;
  rel.b = from.g.q.conjugate() * (r.g.b - from.g.b);
  out.Y = cayleyInverse(rel) / h;
  // The discrete momentum equations admit spurious branches when a step moves the body by
  // more than its size: a solution that turns more than 0.5 rad in one step is rejected, so
  // the World retries with sub-steps (a 10 cm box gliding at 57 m/s with h = 2 ms otherwise
  // lands on a branch spinning at 1600 rad/s; with h ≤ 0.5 ms it does not spin at all).
  if (h * out.Y.head<3>().norm() > 0.5) {
    out.converged = false;
    return out;
  }
  out.mu = inertiaBody * out.Y + mu0Body;  // the body's own momentum (diagnostics)
  if (firstOrder->kind == FirstOrderKind::kInertial) out.mu = wrenchToBody(r.g, r.momentum);
  to->g = r.g;
  to->Y = out.Y;
  to->mu = out.mu;
  to->continuous = false;
  to->stepH = h;
  to->stepStartCom = com;
  to->carriedMomentum = r.momentum;
  if (!to->g.b.allFinite() || !to->g.q.coeffs().allFinite() || !out.Y.allFinite()) {
    out.converged = false;
  }
  return out;
}

void BodyImpl::addBuoyancyWrench(const Pose& g, const WorldDef& world, Vec6* F) const {
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const Vec3 upBody = g.q.conjugate() * up;
  if (world.gravity.squaredNorm() > 0.0 && model->buoyancy()) {
    const double hc = up.dot(g.toWorld(com));
    const bool oneFluid = !fluid.water || hc - boundRadius >= fluid.water->level ||
                          hc + boundRadius < fluid.water->level;
    if (oneFluid) {
      const double rho = densityAtHeight(fluid, hc);
      if (closedVolume > 0.0) {
        *F += gravityWrench(g, -rho * closedVolume, closedCentroid, world.gravity);
      }
      if (sheetThickness > 0.0 && sheetArea > 0.0) {
        *F += gravityWrench(g, -rho * sheetThickness * sheetArea, sheetCentroid, world.gravity);
      }
    } else {
      if (!closedFaces.empty()) {
        *F += buoyancyWrenchClosed(g, mesh, closedFaces, fluid, world.gravity);
      }
      if (sheetThickness > 0.0) {
        const double h0 = up.dot(g.b);
        for (size_t f = 0; f < drag.size(); ++f) {
          if (!topo.isSheet[f]) continue;
          const double rho = densityAtHeight(fluid, h0 + upBody.dot(drag.centroid(f)));
          *F += gravityWrench(g, -rho * sheetThickness * 0.5 * faceWeight[f], drag.centroid(f),
                              world.gravity);
        }
      }
    }
  }
}

void BodyImpl::addFrameAcceleration(const Pose& g, const Vec3& a, const WorldDef& world,
                                    Vec6* F) const {
  if (a == Vec3::Zero()) return;
  // The frame accelerates with the flow: the body feels −m a; the fluid's pressure gradient
  // that accelerates it, −∇p = ρ_f a, pushes the displaced volume with +ρ_f V a (gravity
  // g − a on weight and buoyancy; the added mass reacts through μ, which is unchanged).
  *F += gravityWrench(g, moments.mass, com, -a);
  if (!model->buoyancy()) return;
  const double rho = densityAtHeight(world.fluid, upAxis(world.gravity).dot(g.toWorld(com)));
  if (closedVolume > 0.0) *F += gravityWrench(g, -rho * closedVolume, closedCentroid, -a);
  if (sheetThickness > 0.0 && sheetArea > 0.0) {
    *F += gravityWrench(g, -rho * sheetThickness * sheetArea, sheetCentroid, -a);
  }
}

std::vector<ContactPoint> BodyImpl::floorContacts(const Pose& g, const WorldDef& world) const {
  const Vec3 up = upAxis(world.gravity);
  const Vec3 upBody = g.q.conjugate() * up;
  std::vector<ContactPoint> contacts;
  const FloorDef* floor = world.floor ? &*world.floor : nullptr;
  if (floor != nullptr) {
    const double h0 = up.dot(g.b);
    const double w0 = 2.0 * M_PI * floor->frequencyHz;
    if (h0 + upBody.dot(com) - boundRadius < floor->height) {  // else no vertex can touch
      for (int i = 0; i < mesh.numVertices(); ++i) {
        const Vec3 x = mesh.vertex(i);
        const double depth = floor->height - (h0 + upBody.dot(x));
        if (depth <= 0.0) continue;
        const double m = moments.mass * vertexShare[i];
        contacts.push_back({x, depth, m * w0 * w0, 2.0 * floor->dampingRatio * w0 * m});
      }
    }
  }
  return contacts;
}

VariationalStepResult BodyImpl::tryStep(const BodyState& from, double h, double t,
                                        const WorldDef& world, const Mat6& addedCarried,
                                        BodyState* to) {
  updateAnimatedShape(t, h);
  updateFluid(from.g, world);
  if (firstOrder) return tryFirstOrderStep(from, h, t, world, to);
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const Quat qi = from.g.q.conjugate();
  const Vec3 upBody = qi * up;

  // Y-independent wrench: gravity and buoyancy.
  Vec6 Fexp = gravityWrench(from.g, moments.mass, com, world.gravity);
  addBuoyancyWrench(from.g, world, &Fexp);

  // Flow relative to the faces: u = ω×x + v + x' − Aᵀ wind(x). A model with relativeFlow()
  // steps in the frame of the flow at the COM (PHYSICS.md §7): Y is relative to it, and
  // only the flow's non-uniform remainder enters the faces.
  const bool relative = model->relativeFlow();
  const bool uniformGusts = !fluid.gusts || fluid.gusts->isUniformInSpace();
  Vec3 frame = Vec3::Zero();
  if (relative) {
    frame = fluid.wind;
    if (fluid.gusts) frame += gustVelocity(fluid, from.g.toWorld(com), t);
    addFrameAcceleration(from.g, (frame - from.frame) / h, world, &Fexp);
  }
  Vec3 offset = relative ? Vec3::Zero() : Vec3(-(qi * fluid.wind));
  if (!relative && fluid.gusts && uniformGusts) offset -= qi * fluid.gusts->velocity(from.g.b, t);
  const bool perFace = model->localFaces() && (!faceShapeVel.empty() || !uniformGusts);
  if (perFace) {
    packFaceOffsets(from.g, t, offset, relative ? Vec3(fluid.wind - frame) : Vec3::Zero(),
                    !uniformGusts, world);
  }

  // Floor contacts at the start of the step.
  const std::vector<ContactPoint> contacts = floorContacts(from.g, world);
  const FloorDef* floor = world.floor ? &*world.floor : nullptr;

  FluidModelInput modelIn = modelInput(from.g, t, h, world);
  if (relative) modelIn.flowBody = Vec3::Zero();
  if (model->localFaces()) {
    modelIn.faces = &drag;
    modelIn.law = &law;
    modelIn.faceOffset = offset;
    modelIn.packed = true;
    if (perFace) modelIn.packOffsets = &packOffsets;
    if (!law.partPad.empty()) {  // formed once for the step's evaluations
      // A rigid body's sums change only with drag.k (ρ_f), but for the per-face offsets'.
      const double* packed = perFace ? packOffsets.o.data() : nullptr;
      const bool keep = !animation && dragRho == partSumsRho &&
                        partSums.k.size() == static_cast<size_t>(law.parts);
      if (!keep) {
        sumParts(drag, law, packed, &partSums);
        partSumsRho = animation ? std::numeric_limits<double>::quiet_NaN() : dragRho;
      } else if (packed != nullptr || partSums.perFace) {
        sumPartOffsets(drag, law, packed, &partSums);
      }
      modelIn.partSums = &partSums;
    }
  }
  BodyForce force(*model.get(), modelIn, contacts, upBody, floor, qi * frame);
  VariationalStepInput in;
  in.K = K;
  in.mu0 = mu0;
  in.muPrev = from.mu;
  if (relative && !animation && model->localFaces() && added != addedCarried) {
    // Fluid inertia lost since μ was formed (the body leaves the water, PHYSICS.md §7): its
    // impulse stays with the fluid it no longer displaces, instead of accelerating the body
    // (a near-weightless ball used to leave water at 20 m/s, 12× its rising speed). Gained
    // inertia (entering the water) keeps μ: the body slows, as on impact.
    const Mat6 lost = addedCarried - added;
    const Vec6 shed = lost * from.Y;
    if (from.Y.dot(shed) > 0.0) in.muPrev -= shed;
  }
  in.Yprev = from.continuous ? Vec6::Zero() : from.Y;
  in.Yguess = from.Y;
  in.h = h;
  in.Fexplicit = Fexp;
  in.force = &force;
  in.tolerance = world.solver.tolerance;
  in.maxIterations = world.solver.maxIterations;
  if (from.continuous) {  // a parameter changed: a fresh Jacobian, no extrapolation across it
    newton.valid = false;
    newton.trendCount = 0;
  }
  in.cache = &newton;
  VariationalStepResult r = solveVariationalStep(in);
  if (r.converged) {
    to->Y = r.Y;
    to->mu = r.mu;
    to->continuous = false;
    to->stepH = h;
    to->stepStartCom = com;
    to->g = compose(from.g, cayley(h * r.Y));
    if (frame != Vec3::Zero()) to->g.b += h * frame;
    to->frame = frame;
    if (!to->g.b.allFinite() || !to->g.q.coeffs().allFinite()) r.converged = false;
  }
  return r;
}

}  // namespace samara::core
