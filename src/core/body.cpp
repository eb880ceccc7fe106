#include "core/body_impl.h"

#include <cmath>
#include <string>

#include <Eigen/Cholesky>

namespace samara::core {
namespace {

std::string fieldOf(int index, const char* leaf) {
  return "/bodies/" + std::to_string(index) + "/" + leaf;
}

void require(bool ok, int index, const char* leaf, const std::string& msg) {
  if (!ok) throw DefinitionError(fieldOf(index, leaf), msg);
}

Vec3 upAxis(const Vec3& gravity) {
  const double gn = gravity.norm();
  return gn > 0.0 ? Vec3(-gravity / gn) : Vec3(0.0, 1.0, 0.0);
}

/// An implicit force made of drag and floor contact, for one body and one step.
class BodyForce final : public ImplicitForce {
 public:
  BodyForce(const DragFaces& drag, const Vec3& offset, const Vec3* offsets,
            const std::vector<ContactPoint>& contacts, const Vec3& upBody, const FloorDef* floor)
      : drag_(drag),
        offset_(offset),
        offsets_(offsets),
        contacts_(contacts),
        upBody_(upBody),
        floor_(floor) {}

  void evaluate(const Vec6& Y, Vec6* F, Mat6* dFdY) const override {
    F->setZero();
    if (dFdY != nullptr) dFdY->setZero();
    addDragWrench(drag_, Y, offset_, offsets_, F, dFdY);
    if (floor_ != nullptr && !contacts_.empty()) {
      addContactWrench(contacts_, upBody_, floor_->friction, floor_->slipVelocity, Y, F, dFdY);
    }
  }

 private:
  const DragFaces& drag_;
  Vec3 offset_;
  const Vec3* offsets_;
  const std::vector<ContactPoint>& contacts_;
  Vec3 upBody_;
  const FloorDef* floor_;
};

}  // namespace

BodyImpl::BodyImpl(const BodyDef& def, int index, const WorldDef& world) {
  require(def.mesh.numFaces() > 0, index, "mesh", "the mesh has no faces");
  require(def.mesh.V.allFinite(), index, "mesh", "the mesh has non-finite vertex coordinates");
  mesh = def.mesh;
  try {
    topo = geometry::buildTopology(mesh);
    geometry::orientClosedPartsOutward(&mesh, topo);
  } catch (const geometry::MeshError& e) {
    throw DefinitionError(fieldOf(index, "mesh"), e.what());
  }
  geometry::FaceGeometry geo;
  geometry::computeFaceGeometry(mesh, &geo);

  // Volumes and areas of the parts.
  geometry::MassMoments closedUnit;  // unit density: mass = volume
  geometry::MassMoments sheetUnit;   // unit areal density: mass = area
  for (const geometry::Part& part : topo.parts) {
    if (part.kind == geometry::PartKind::kClosed) {
      closedUnit += geometry::solidMoments(mesh, part, 1.0);
      closedFaces.insert(closedFaces.end(), part.faces.begin(), part.faces.end());
    } else {
      sheetUnit += geometry::sheetMoments(mesh, part, 1.0);
    }
  }
  closedVolume = closedUnit.mass;
  closedCentroid = closedUnit.com();
  sheetArea = sheetUnit.mass;
  sheetCentroid = sheetUnit.com();
  require(closedUnit.mass >= 0.0, index, "mesh", "a closed part has negative volume");
  const bool hasSheet = sheetArea > 0.0;
  const bool hasClosed = closedVolume > 0.0;

  // Mass distribution.
  const MassDef& md = def.mass;
  sheetThickness = md.thickness;
  require(std::isfinite(md.thickness) && md.thickness >= 0.0, index, "mass/thickness",
          "thickness must be ≥ 0 m");
  switch (md.mode) {
    case MassMode::kDensity: {
      require(std::isfinite(md.density) && md.density > 0.0, index, "mass/density",
              "density must be > 0 kg/m³");
      require(!hasSheet || md.thickness > 0.0, index, "mass/thickness",
              "the mesh has an open sheet part: give mass.thickness (m) or mass.total (kg)");
      moments += closedUnit.scaled(md.density);
      moments += sheetUnit.scaled(md.density * md.thickness);
      break;
    }
    case MassMode::kTotal: {
      require(std::isfinite(md.total) && md.total > 0.0, index, "mass/total",
              "total mass must be > 0 kg");
      double rho = 0.0;
      if (md.thickness > 0.0) {
        rho = md.total / (closedVolume + sheetArea * md.thickness);
        moments += closedUnit.scaled(rho);
        moments += sheetUnit.scaled(rho * md.thickness);
      } else if (hasClosed && !hasSheet) {
        moments += closedUnit.scaled(md.total / closedVolume);
      } else if (hasSheet && !hasClosed) {
        moments += sheetUnit.scaled(md.total / sheetArea);
      } else {
        throw DefinitionError(fieldOf(index, "mass/thickness"),
                              "the mesh mixes closed parts and open sheets: give mass.thickness "
                              "(m) so the total mass can be split between them");
      }
      break;
    }
    case MassMode::kLumped: {
      require(std::isfinite(md.total) && md.total > 0.0, index, "mass/total",
              "total mass must be > 0 kg");
      moments += geometry::lumpedMoments(mesh, geometry::lumpVertexMasses(mesh, md.total));
      break;
    }
  }
  for (size_t i = 0; i < def.pointMasses.size(); ++i) {
    const PointMass& pm = def.pointMasses[i];
    const std::string f = "point_masses/" + std::to_string(i);
    require(std::isfinite(pm.mass) && pm.mass >= 0.0, index, (f + "/mass").c_str(),
            "point mass must be ≥ 0 kg");
    require(pm.position.allFinite(), index, (f + "/position").c_str(),
            "position must be finite");
    moments += geometry::pointMoments(pm.position, pm.mass);
  }
  require(moments.mass > 0.0, index, "mass", "the body has zero mass");
  inertiaBody = spatialInertia(moments.mass, moments.first, moments.second);
  com = moments.com();

  // δ and the per-face data.
  deltaAuto = geometry::computeDelta(mesh, topo, geo);
  if (def.delta) {
    require(std::isfinite(*def.delta) && *def.delta >= 0.0, index, "delta",
            "delta must be \"auto\" or a number ≥ 0 m");
    delta = *def.delta;
  } else {
    delta = deltaAuto;
  }
  const int nf = mesh.numFaces();
  faceX = geo.centroid;
  faceWeight.resize(nf);
  faceDragCA.resize(nf);
  drag.a.resize(nf);
  drag.x = geo.centroid;
  drag.k.assign(nf, 0.0);
  area = 0.0;
  for (int f = 0; f < nf; ++f) {
    const bool sheet = topo.isSheet[f] != 0;
    const double A = geo.area[f];
    area += A;
    Vec6 a;
    a.head<3>() = geo.centroid[f].cross(geo.normal[f]);
    a.tail<3>() = geo.normal[f];
    drag.a[f] = a;
    faceWeight[f] = (sheet ? 2.0 : 1.0) * A;
    faceDragCA[f] = (sheet ? 1.0 : 0.5) * A;
    addedUnit.noalias() += faceWeight[f] * (a * a.transpose());
  }
  vertexShare = geometry::lumpVertexMasses(mesh, 1.0);
  for (int i = 0; i < mesh.numVertices(); ++i) {
    boundRadius = std::max(boundRadius, (mesh.vertex(i) - com).norm());
  }

  // Initial state: world COM velocity and angular velocity → body velocity Y.
  require(def.position.allFinite(), index, "position", "position must be finite");
  require(def.velocity.allFinite(), index, "velocity", "velocity must be finite");
  require(def.angularVelocity.allFinite(), index, "angular_velocity",
          "angular velocity must be finite");
  require(def.orientation.coeffs().allFinite() && def.orientation.norm() > 0.0, index,
          "orientation", "orientation must be a non-zero finite quaternion");
  state.g.q = def.orientation.normalized();
  state.g.b = def.position;
  const Quat qi = state.g.q.conjugate();
  const Vec3 omegaBody = qi * def.angularVelocity;
  state.Y.head<3>() = omegaBody;
  state.Y.tail<3>() = qi * def.velocity - omegaBody.cross(com);
  updateFluid(state.g, world);
  Eigen::LLT<Mat6> llt(K);
  require(llt.info() == Eigen::Success, index, "mass",
          "the Kirchhoff tensor is not positive definite (the body needs rotational inertia: "
          "a mesh with area, or added mass)");
  state.mu = K * state.Y + mu0;
}

void BodyImpl::updateFluid(const Pose& g, const WorldDef& world) {
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const double hc = up.dot(g.toWorld(com));
  const size_t nf = drag.k.size();
  if (!fluid.water || hc - boundRadius >= fluid.water->level ||
      hc + boundRadius < fluid.water->level) {
    const double rho = densityAtHeight(fluid, hc);
    added = (delta * rho) * addedUnit;
    for (size_t f = 0; f < nf; ++f) drag.k[f] = rho * faceDragCA[f];
  } else {
    // The body crosses the water level: per-face density from the centroid's height.
    const Vec3 upBody = g.q.conjugate() * up;
    const double h0 = up.dot(g.b);
    Mat6 sum = Mat6::Zero();
    for (size_t f = 0; f < nf; ++f) {
      const double rho = densityAtHeight(fluid, h0 + upBody.dot(faceX[f]));
      drag.k[f] = rho * faceDragCA[f];
      const Vec6& a = drag.a[f];
      sum.noalias() += (rho * faceWeight[f]) * (a * a.transpose());
    }
    added = delta * sum;
  }
  K = inertiaBody + added;
}

VariationalStepResult BodyImpl::tryStep(const BodyState& from, double h, double t,
                                        const WorldDef& world, BodyState* to) {
  updateFluid(from.g, world);
  const FluidDef& fluid = world.fluid;
  const Vec3 up = upAxis(world.gravity);
  const Quat qi = from.g.q.conjugate();
  const Vec3 upBody = qi * up;

  // Y-independent wrench: gravity and buoyancy.
  Vec6 Fexp = gravityWrench(from.g, moments.mass, com, world.gravity);
  if (world.gravity.squaredNorm() > 0.0) {
    const double hc = up.dot(from.g.toWorld(com));
    const bool oneFluid = !fluid.water || hc - boundRadius >= fluid.water->level ||
                          hc + boundRadius < fluid.water->level;
    if (oneFluid) {
      const double rho = densityAtHeight(fluid, hc);
      if (closedVolume > 0.0) {
        Fexp += gravityWrench(from.g, -rho * closedVolume, closedCentroid, world.gravity);
      }
      if (sheetThickness > 0.0 && sheetArea > 0.0) {
        Fexp += gravityWrench(from.g, -rho * sheetThickness * sheetArea, sheetCentroid,
                              world.gravity);
      }
    } else {
      if (!closedFaces.empty()) {
        Fexp += buoyancyWrenchClosed(from.g, mesh, closedFaces, fluid, world.gravity);
      }
      if (sheetThickness > 0.0) {
        const double h0 = up.dot(from.g.b);
        for (size_t f = 0; f < faceX.size(); ++f) {
          if (!topo.isSheet[f]) continue;
          const double rho = densityAtHeight(fluid, h0 + upBody.dot(faceX[f]));
          Fexp += gravityWrench(from.g, -rho * sheetThickness * 0.5 * faceWeight[f], faceX[f],
                                world.gravity);
        }
      }
    }
  }

  // Flow relative to the body: u = ω×x + v − Aᵀ wind(x).
  Vec3 offset = -(qi * fluid.wind);
  std::vector<Vec3> offsets;
  if (fluid.gusts) {
    if (fluid.gusts->isUniformInSpace()) {
      offset -= qi * fluid.gusts->velocity(from.g.b, t);
    } else {
      offsets.resize(faceX.size());
      for (size_t f = 0; f < faceX.size(); ++f) {
        offsets[f] = offset - qi * fluid.gusts->velocity(from.g.toWorld(faceX[f]), t);
      }
    }
  }

  // Floor contacts at the start of the step.
  std::vector<ContactPoint> contacts;
  const FloorDef* floor = world.floor ? &*world.floor : nullptr;
  if (floor != nullptr) {
    const double h0 = up.dot(from.g.b);
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

  BodyForce force(drag, offset, offsets.empty() ? nullptr : offsets.data(), contacts, upBody,
                  floor);
  VariationalStepInput in;
  in.K = K;
  in.mu0 = mu0;
  in.muPrev = from.mu;
  in.Yprev = from.continuous ? Vec6::Zero() : from.Y;
  in.Yguess = from.Y;
  in.h = h;
  in.Fexplicit = Fexp;
  in.force = &force;
  in.tolerance = world.solver.tolerance;
  in.maxIterations = world.solver.maxIterations;
  VariationalStepResult r = solveVariationalStep(in);
  if (r.converged) {
    to->Y = r.Y;
    to->mu = r.mu;
    to->continuous = false;
    to->g = compose(from.g, cayley(h * r.Y));
    if (!to->g.b.allFinite() || !to->g.q.coeffs().allFinite()) r.converged = false;
  }
  return r;
}

}  // namespace samara::core
